"""How a reading is scored against ground truth (used by `companion bench vision` and the tests).
Cells are compared up to the best lattice translation (the reader's origin is arbitrary) and a
turn of the whole reading by one step either way (`TURNS`): the reader names as "E" the lattice
direction nearest the table's right as it sees the table (rectified by the markers when it has
them), while the truth names the one nearest image-right in the picture. Near the bisector of two
directions the two frames may pick different ones (hard 12349: image-right 26.7° off one
direction, the reader's table frame past 30°, and a table read right scored as four false
cards). The referee aligns every reading to the game by any turn and translation
(`referee.align`), so a reading turned as a whole is the same table to it; a reading whose
cells and symbols do not turn together still scores wrong under every turn.

* A truth card is *full* when its visible fraction is at least `FULL_VISIBLE` (0.97); the rest are
  *occluded truth*: reporting them occluded or not at all is right, reading them correctly is
  fine too, reading them wrong (not flagged occluded) is a misread.
* Per card: a full truth card is right when a card is reported at its cell, not occluded, with
  all six symbols right. Per edge: each edge of each full card, '?' or missing counts wrong.
* A misread is any unflagged card whose symbols are wrong; a false card is any reported card
  (occluded or not) at a cell where no card lies. A table is exact when every full card is right
  and there is no misread and no false card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FULL_VISIBLE = 0.97
TURNS = (0, 1, -1)


@dataclass(frozen=True)
class TruthCard:
    """What a scorer needs of one true card."""

    cell: tuple[int, int]
    symbols: str
    visible: float = 1.0


@dataclass(frozen=True)
class TableScore:
    full: int = 0
    correct: int = 0
    edges: int = 0
    edges_right: int = 0
    misreads: int = 0
    false_cards: int = 0
    occluded_truth: int = 0
    occluded_flagged: int = 0      # occluded truth reported occluded
    occluded_unreported: int = 0   # occluded truth not reported at all
    occluded_read: int = 0         # occluded truth read correctly anyway
    full_flagged: int = 0          # full truth cards reported occluded (a miss, not an error)

    @property
    def exact(self) -> bool:
        return self.correct == self.full and self.misreads == 0 and self.false_cards == 0


def _rotate_cell(cell: tuple[int, int], k: int) -> tuple[int, int]:
    q, r = cell
    for _ in range(k % 6):
        q, r = q + r, -q
    return (q, r)


def _rotate_symbols(symbols: str, k: int) -> str:
    k %= 6
    return symbols[-k:] + symbols[:-k] if k else symbols


def score_table(seen: Sequence, truth: Iterable[TruthCard]) -> TableScore:
    """Score reported cards (objects with cell, symbols, occluded) against the truth, at the
    best turn (`TURNS`) and translation."""
    return aligned(seen, truth)[1]


def aligned(seen: Sequence, truth: Iterable[TruthCard]
            ) -> tuple[tuple[int, int, int], TableScore]:
    """The turn k and translation (dq, dr) that best lay the reported cards (objects with cell,
    symbols, occluded) on the truth — a reported cell c is truth cell turned(c, k) + (dq, dr),
    its symbols `_rotate_symbols(symbols, k)` — and the score there (`score_table`'s)."""
    truth = list(truth)
    by_cell = {t.cell: t for t in truth}
    best: tuple[tuple[int, int], tuple[int, int, int], TableScore] | None = None
    for k in TURNS:
        cards = [(_rotate_cell(c.cell, k), _rotate_symbols(c.symbols, k), c.occluded)
                 for c in seen]
        shifts = {(t.cell[0] - c[0][0], t.cell[1] - c[0][1]) for t in truth for c in cards} or {
            (0, 0)}
        for dq, dr in shifts:
            s = _score(cards, by_cell, truth, dq, dr)
            key = (s.correct + s.occluded_read - s.misreads - s.false_cards, s.edges_right)
            if best is None or key > best[0]:
                best = (key, (k, dq, dr), s)
    assert best is not None
    return best[1], best[2]


def laid(cell: tuple[int, int], symbols: str, alignment: tuple[int, int, int]
         ) -> tuple[tuple[int, int], str]:
    """A reported card's cell and symbols in the truth's lattice, as `aligned` lays them."""
    k, dq, dr = alignment
    q, r = _rotate_cell(cell, k)
    return (q + dq, r + dr), _rotate_symbols(symbols, k)


def _score(cards, by_cell, truth, dq, dr) -> TableScore:
    full = [t for t in truth if t.visible >= FULL_VISIBLE]
    got = {}
    misreads = false_cards = 0
    for cell, symbols, occluded in cards:
        c = (cell[0] + dq, cell[1] + dr)
        t = by_cell.get(c)
        if t is None:
            false_cards += 1
            continue
        got[c] = (symbols, occluded)
        if not occluded and symbols != t.symbols:
            misreads += 1
    correct = edges_right = full_flagged = 0
    for t in full:
        s, occ = got.get(t.cell, ("??????", True))
        if not occ and s == t.symbols:
            correct += 1
        full_flagged += int(t.cell in got and occ)
        edges_right += sum(a == b for a, b in zip(s, t.symbols, strict=True))
    occl = [t for t in truth if t.visible < FULL_VISIBLE]
    flagged = sum(1 for t in occl if t.cell in got and got[t.cell][1])
    unreported = sum(1 for t in occl if t.cell not in got)
    read = sum(1 for t in occl if t.cell in got and not got[t.cell][1]
               and got[t.cell][0] == t.symbols)
    return TableScore(len(full), correct, 6 * len(full), edges_right, misreads, false_cards,
                      len(occl), flagged, unreported, read, full_flagged)
