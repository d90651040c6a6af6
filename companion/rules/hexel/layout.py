"""The Hex'el table layout: placed cards, matching, legal placements and Hox'la (RULES.md H2, H3).

A `Layout` is the immutable set of cards on hex cells, kept in placement order. A placement is
legal on an empty cell next to at least one card when every edge facing a placed card shows the
same symbol on both sides; its count is the number of placed neighbours. A Hox'la is three
mutually adjacent cards whose three shared edges carry one symbol. Enumeration is tuned for the
referee's hot path: the constraint of a frontier cell is a 6-character pattern ('.' = free edge)
and the rotations of a card that fit a pattern are cached.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from ..core import IllegalAction
from ..hexgrid import DIRECTION_NAMES, DIRECTIONS, Cell, neighbour
from .cards import orient, rotations

__all__ = [
    "COUNT_NAMES",
    "CellDetached",
    "CellOccupied",
    "EdgeMismatch",
    "Layout",
    "Placement",
    "count_name",
    "line_problems",
    "propose_line",
]

LINE_CELLS: tuple[Cell, Cell, Cell] = ((0, 0), (1, 0), (2, 0))
COUNT_NAMES = {1: "Hexba", 2: "Hexel", 3: "Hexla", 4: "Hexven"}


def count_name(count: int) -> str:
    """The announcement for a placement matching `count` edges (5 and 6 are Hexven too)."""
    return COUNT_NAMES.get(count, "Hexven") if count >= 1 else "no match"


class CellOccupied(IllegalAction):
    """A card is already on that cell."""

    code = "cell_occupied"


class CellDetached(IllegalAction):
    """The cell touches no placed card."""

    code = "cell_detached"


class EdgeMismatch(IllegalAction):
    """At least one edge facing a placed card shows a different symbol. `edges` lists them
    ("NE edge shows B against V"), for a message that names the card and cell itself."""

    code = "edge_mismatch"

    def __init__(self, message: str, edges: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.edges = edges


@dataclass(frozen=True)
class Placement:
    """A card on the table: its symbols, cell and rotation."""

    card: str
    cell: Cell
    rotation: int

    @property
    def oriented(self) -> str:
        """Symbols by table direction E, NE, NW, W, SW, SE."""
        return orient(self.card, self.rotation)


@lru_cache(maxsize=1 << 16)
def fitting_rotations(card: str, pattern: str) -> tuple[int, ...]:
    """Rotations of `card` (one per distinct orientation) matching a constraint pattern."""
    out = []
    seen = set()
    for k in range(6):
        o = orient(card, k)
        if o in seen:
            continue
        seen.add(o)
        if all(p == "." or p == s for p, s in zip(pattern, o, strict=False)):
            out.append(k)
    return tuple(out)


@dataclass(frozen=True)
class Layout:
    """Cards on the table in placement order, with a cell index."""

    placements: tuple[Placement, ...] = ()
    _by_cell: dict[Cell, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        index = {p.cell: p.oriented for p in self.placements}
        if len(index) != len(self.placements):
            raise ValueError("two placements on one cell")
        object.__setattr__(self, "_by_cell", index)

    def __len__(self) -> int:
        return len(self.placements)

    def __contains__(self, cell: object) -> bool:
        return cell in self._by_cell

    def oriented(self, cell: Cell) -> str | None:
        """Symbols of the card on `cell` by direction, or None if the cell is empty."""
        return self._by_cell.get(cell)

    def at(self, cell: Cell) -> Placement | None:
        """The placement on `cell`, if any."""
        for p in self.placements:
            if p.cell == cell:
                return p
        return None

    def cards(self) -> list[str]:
        """The cards on the table, in placement order."""
        return [p.card for p in self.placements]

    def with_placement(self, placement: Placement) -> Layout:
        """A new layout with one more card (no legality check: see `check`)."""
        return Layout((*self.placements, placement))

    # -- matching ------------------------------------------------------------------------

    def pattern(self, cell: Cell) -> str:
        """The constraint on `cell`: per direction the symbol a new card must show, or '.'."""
        q, r = cell
        by = self._by_cell
        out = []
        for d, (dq, dr) in enumerate(DIRECTIONS):
            o = by.get((q + dq, r + dr))
            out.append(o[(d + 3) % 6] if o is not None else ".")
        return "".join(out)

    def frontier(self) -> list[Cell]:
        """Empty cells adjacent to at least one card, in a deterministic order."""
        by = self._by_cell
        seen: dict[Cell, None] = {}
        for p in self.placements:
            q, r = p.cell
            for dq, dr in DIRECTIONS:
                c = (q + dq, r + dr)
                if c not in by:
                    seen[c] = None
        return list(seen)

    def check(self, card: str, cell: Cell, rotation: int) -> int:
        """Raise if the placement is illegal (H2); otherwise return its count."""
        if cell in self._by_cell:
            raise CellOccupied(f"cell {cell} already holds a card")
        pattern = self.pattern(cell)
        count = 6 - pattern.count(".")
        if count == 0:
            raise CellDetached(f"cell {cell} touches no card: place next to the layout")
        o = orient(card, rotation)
        bad = [
            f"{DIRECTION_NAMES[d]} edge shows {o[d]} against {pattern[d]}"
            for d in range(6)
            if pattern[d] != "." and pattern[d] != o[d]
        ]
        if bad:
            raise EdgeMismatch(
                f"card {card} at {cell} rotation {rotation} does not match: " + ", ".join(bad),
                tuple(bad),
            )
        return count

    def placements_for(self, cards: Iterable[str]) -> Iterator[tuple[str, Cell, int, int]]:
        """Every legal (card, cell, rotation, count), one per distinct orientation."""
        frontier = [(c, self.pattern(c)) for c in self.frontier()]
        for card in dict.fromkeys(cards):
            for cell, pattern in frontier:
                fits = fitting_rotations(card, pattern)
                if fits:
                    count = 6 - pattern.count(".")
                    for k in fits:
                        yield (card, cell, k, count)

    def has_placement(self, cards: Iterable[str]) -> bool:
        """True if any of `cards` has a legal placement."""
        return next(self.placements_for(cards), None) is not None

    # -- Hox'la ----------------------------------------------------------------------------

    def completes_hoxla(self, cell: Cell, oriented: str) -> bool:
        """True if a card with these oriented symbols on `cell` completes a Hox'la (H2)."""
        by = self._by_cell
        for d in range(6):
            s = oriented[d]
            if oriented[(d + 1) % 6] != s:
                continue
            a = by.get(neighbour(cell, d))
            b = by.get(neighbour(cell, d + 1))
            if a is not None and b is not None and a[(d + 2) % 6] == s:
                return True
        return False

    def hoxla_threats(self) -> list[Cell]:
        """Empty cells where some card could complete a Hox'la: two adjacent cards whose shared
        edge and both edges facing the cell all show the same symbol."""
        by = self._by_cell
        out = []
        for cell in self.frontier():
            for d in range(6):
                a = by.get(neighbour(cell, d))
                b = by.get(neighbour(cell, d + 1))
                if a is None or b is None:
                    continue
                s = a[(d + 2) % 6]
                if a[(d + 3) % 6] == s and b[(d + 4) % 6] == s:
                    out.append(cell)
                    break
        return out


# -- H3: the opening line -------------------------------------------------------------------


def line_problems(cards: tuple[str, str, str], rotations: tuple[int, int, int]) -> list[str]:
    """Why a line of three cards at (0,0),(1,0),(2,0) is not a valid opening (empty if valid)."""
    layout = Layout(tuple(Placement(c, cell, k) for c, cell, k in
                          zip(cards, LINE_CELLS, rotations, strict=False)))
    problems = []
    for a, b in ((0, 1), (1, 2)):
        oa, ob = layout.oriented(LINE_CELLS[a]), layout.oriented(LINE_CELLS[b])
        assert oa is not None and ob is not None
        if oa[0] != ob[3]:
            problems.append(
                f"cards {a + 1} and {b + 1} do not match: {oa[0]} against {ob[3]}"
            )
    if not problems:
        for cell in layout.hoxla_threats():
            problems.append(f"a Hox'la could be completed at {cell} on the first turn")
    return problems


def propose_line(cards: tuple[str, str, str]) -> tuple[int, int, int] | None:
    """Rotations making a valid opening line of these three cards, or None if there are none.

    Among the valid choices the first in (rotation of card 1, card 2, card 3) order is taken,
    trying each distinct orientation once.
    """
    for ks in itertools.product(*(rotations(c) for c in cards)):
        if not line_problems(cards, ks):  # type: ignore[arg-type]
            return ks  # type: ignore[return-value]
    return None

