"""Which edition's cards lie on the table when nobody said. The two editions print red and blue
alike and differ in the third symbol: holodex a grey ring, web a yellow triangle. A reader told
the wrong edition has no ink for that symbol and leaves it unread (an ink of the other edition is
never taken for one of its own turned: `inks.FOREIGN_SHARE`), so the edition whose reading of a
frame has more cards whole is the one on the table. Where the two readings have as many cards
whole (no third symbol in view), they name the same cards and either will do: the first edition
given is kept. `companion recognize --edition auto` reads with both and keeps the choice once a
frame tells them apart."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .observation import UNKNOWN, HexelObservation

EDITIONS = ("holodex", "web")


def whole_cards(obs: HexelObservation) -> int:
    """The cards of `obs` read whole: in full view and all six symbols read."""
    return sum(1 for c in obs.cards if not c.occluded and UNKNOWN not in c.symbols)


@dataclass(frozen=True)
class EditionChoice:
    """The edition a frame's readings point to, and whether they told the editions apart."""

    edition: str
    decided: bool
    whole: tuple[tuple[str, int], ...]   # (edition, cards read whole) per reading, as given

    @property
    def note(self) -> str:
        """What the choice rests on, for the observation's notes."""
        counts = ", ".join(f"{e} {n}" for e, n in self.whole)
        if self.decided:
            return f"edition {self.edition} (cards read whole with each: {counts})"
        return (f"edition not told apart (cards read whole with each: {counts}): "
                f"read as {self.edition}")


def choose_edition(readings: Mapping[str, HexelObservation]) -> EditionChoice:
    """The edition whose reading (of one frame, one per edition, in order of preference) has
    the most cards whole; the first on a tie, then undecided."""
    if not readings:
        raise ValueError("no readings to choose an edition from")
    whole = tuple((e, whole_cards(obs)) for e, obs in readings.items())
    best = max(n for _, n in whole)
    leaders = [e for e, n in whole if n == best]
    return EditionChoice(leaders[0], len(leaders) == 1, whole)
