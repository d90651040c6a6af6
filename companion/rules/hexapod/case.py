"""The Hexapod display case and when a card may land on it (RULES.md P1, P2).

A case is a grid of visible cell codes, rows top to bottom, all `.` at first. A card is placed by
the column and row of its top-left cell, aligned to the grid and wholly inside it, never rotated;
it hides the cells under it. `check_placement` compares the card with what is visible before it
lands: some cell must directly cover a visible insect of the same kind (P2.1; stag half over stag
half, moth half over moth half; exempt while the case shows no insect), a visible dung beetle only
under a dung beetle (P2.2), and a visible stag or moth wholly or not at all (P2.3). Because a case
only ever changes by legal placements, every visible half insect keeps its other half next to it,
so the plain grid of codes is all the state the rules need.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core import IllegalAction
from .cards import EMPTY, PARTNERS, Card, Grid, kind_of

__all__ = [
    "DungCovered",
    "HalfCovered",
    "NoDirectCover",
    "OutsideCase",
    "check_placement",
    "empty_case",
    "is_empty",
    "legal_positions",
    "place",
]


class OutsideCase(IllegalAction):
    """The card would stick out of the display case."""

    code = "outside_case"


class NoDirectCover(IllegalAction):
    """P2.1: no cell of the card lands on a visible insect of its own kind."""

    code = "no_direct_cover"


class DungCovered(IllegalAction):
    """P2.2: a visible dung beetle would be covered by something other than a dung beetle."""

    code = "dung_covered"


class HalfCovered(IllegalAction):
    """P2.3: a visible stag or moth would be covered only in part."""

    code = "half_covered"


def empty_case(cols: int, rows: int) -> Grid:
    """A display case with no card in it."""
    return ((EMPTY,) * cols,) * rows


def is_empty(case: Grid) -> bool:
    """True while no insect is visible (the next card is the exempt first card)."""
    return all(code == EMPTY for row in case for code in row)


def _footprint(card: Card, col: int, row: int) -> Iterator[tuple[int, int, str]]:
    """(column, row, code) of every case cell the card covers."""
    for r, line in enumerate(card.rows):
        for c, code in enumerate(line):
            yield col + c, row + r, code


def check_placement(case: Grid, card: Card, col: int, row: int) -> None:
    """Raise the P2 rule the placement breaks (or `OutsideCase`); return None if legal."""
    rows, cols = len(case), len(case[0])
    if not (0 <= col <= cols - card.cols and 0 <= row <= rows - card.height):
        raise OutsideCase(
            f"card {card.name} at column {col + 1}, row {row + 1} does not fit in the "
            f"{cols}x{rows} case: its top-left cell must be within columns 1-"
            f"{cols - card.cols + 1} and rows 1-{rows - card.height + 1}"
        )
    covered = {(c, r): code for c, r, code in _footprint(card, col, row)}
    for (c, r), new in covered.items():
        old = case[r][c]
        if old == "K" and new != "K":
            raise DungCovered(
                f"the dung beetle at column {c + 1}, row {r + 1} can only be covered by a "
                f"dung beetle, not {new}"
            )
        if old in PARTNERS:
            dc, dr, _ = PARTNERS[old]
            if (c + dc, r + dr) not in covered:
                raise HalfCovered(
                    f"the {kind_of(old)} at column {c + 1}, row {r + 1} would be half covered: "
                    "cover both of its cells or neither"
                )
    if is_empty(case):
        return
    if not any(kind_of(case[r][c]) == kind_of(new) for (c, r), new in covered.items()):
        raise NoDirectCover(
            f"card {card.name} at column {col + 1}, row {row + 1} covers no visible insect of "
            "its own kind: at least one insect must land on one like it"
        )


def place(case: Grid, card: Card, col: int, row: int) -> Grid:
    """The case after the card lands (no legality check: call `check_placement` first)."""
    grid = [list(line) for line in case]
    for c, r, code in _footprint(card, col, row):
        grid[r][c] = code
    return tuple(tuple(line) for line in grid)


def legal_positions(case: Grid, card: Card) -> list[tuple[int, int]]:
    """Every (column, row) where the card may be placed, row by row from the top left."""
    rows, cols = len(case), len(case[0])
    out = []
    for row in range(rows - card.height + 1):
        for col in range(cols - card.cols + 1):
            try:
                check_placement(case, card, col, row)
            except IllegalAction:
                continue
            out.append((col, row))
    return out
