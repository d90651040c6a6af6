"""Score lines of Seven Card Comet (RULES.md C1), as pure functions usable on their own.

A score line is three value *instances* taken from a set's cards: three equal values (worth 3v;
three Aces are 14+14+14) or a run v, v+1, v+2 (worth 3v+3), where an Ace may stand as the 1 of
1-2-3 or the 14 of 12-13-14. Every distinct choice of instances is its own line, so with c(v)
instances of v there are C(c(v), 3) lines of v-v-v and c(v)*c(v+1)*c(v+2) lines of each run. A set
is 2 or 3 cards played together (or a lone Triple card when `single_triple_set` is on); it is
valid when it has at least one line, and its score is the sum of its lines' worths (0 if invalid).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb

from ..core import MalformedMessage
from .cards import ACE, LOW, Card

__all__ = ["Line", "check_set", "is_valid", "score_lines", "score_set", "score_values"]


@dataclass(frozen=True)
class Line:
    """One kind of score line: its three values (an Ace low as 1), worth, and how many."""

    values: tuple[int, int, int]
    worth: int
    count: int

    @property
    def points(self) -> int:
        """worth x count."""
        return self.worth * self.count

    def text(self) -> str:
        """'4-5-6 (15) x3'."""
        shown = "-".join(str(v) for v in self.values)
        return f"{shown} ({self.worth})" + (f" x{self.count}" if self.count > 1 else "")


def _counts(values: Iterable[int]) -> Counter[int]:
    counts: Counter[int] = Counter()
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not LOW <= v <= ACE:
            raise MalformedMessage(f"card values run from 2 to 14 (Ace), got {v!r}")
        counts[v] += 1
    return counts


def score_lines(values: Iterable[int]) -> tuple[Line, ...]:
    """Every score line of these value instances, triples first, then runs from the lowest."""
    c = _counts(values)
    lines = [Line((v, v, v), 3 * v, comb(c[v], 3)) for v in range(LOW, ACE + 1) if c[v] >= 3]
    for v in range(1, ACE - 1):
        n = (c[ACE] if v == 1 else c[v]) * c[v + 1] * c[v + 2]
        if n:
            lines.append(Line((v, v + 1, v + 2), 3 * v + 3, n))
    return tuple(lines)


def score_values(values: Iterable[int]) -> int:
    """The sum of every line's worth (0 when there is no line)."""
    return sum(line.points for line in score_lines(values))


def check_set(cards: Sequence[Card], single_triple_set: bool = True) -> None:
    """Raise unless `cards` may be played together as a set (2 or 3 cards, or a lone Triple)."""
    if len(cards) in (2, 3):
        return
    if len(cards) == 1 and single_triple_set and len(set(cards[0])) == 1:
        return
    lone = " or a lone Triple" if single_triple_set else ""
    raise MalformedMessage(f"a set is 2 or 3 cards{lone}, got {len(cards)} card(s)")


def score_set(cards: Sequence[Card]) -> int:
    """The score of a set of cards (0 when it has no line)."""
    return score_values(v for card in cards for v in card)


def is_valid(cards: Sequence[Card]) -> bool:
    """True when the set has at least one score line."""
    return bool(score_lines(v for card in cards for v in card))
