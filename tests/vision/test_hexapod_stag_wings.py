"""A stag beetle's wing cases told by their drawing where counting the run of stag cells cannot
tell them: the head hidden under a hand or covered by another card, the run next to a '?'. The
reader matches the cell against the stag's head and wing cases and against every one-cell
beetle as printed (`hexapod_halves.stag_drawn`, `models/hexapod-stag.png`,
`models/hexapod-beetles.png`), and names the wing cases 'Sb' only where they beat the head and
every beetle by a margin (and a lone stag cell right above them 'St'): other beetles' bodies
look like the wing cases, but like their own drawings more. Crafted canvases and grids, and
hard tables whose wing cases were left '?' before."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_halves import name_halves
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import WHITE, assert_hard_cell_reads, lay_card, lined_board
from .test_hexapod_stag_heads import STAG, _grid, shown_as


@pytest.mark.parametrize(("dx", "dy", "gain", "veil"), [
    (0, 0, 1.0, 0.0),       # as printed, on the grid
    (7, -5, 1.0, 0.0),      # laid nearly a third of a cell off
    (-4, 6, 0.55, 0.35),    # and washed pale: a pale print under a veil of light
])
def test_the_wing_cases_are_told_from_the_head(dx, dy, gain, veil):
    """A stag laid on cells (2, 1) over (3, 1): the wing cases' cell is the wing cases, the
    head's is not."""
    img = lined_board(WHITE)
    lay_card(img, STAG, 2, 1, gain * WHITE / 255.0, veil, (dx, dy))
    assert shown_as(img, [(2, 1), (3, 1)], "Sb") == {(3, 1)}


@pytest.mark.parametrize("rows", [(("B",),), (("G",),), (("R",),), (("Y",),), (("K",),),
                                  (("Ml", "Mr"),)])
def test_no_other_beetle_nor_a_moth_is_wing_cases(rows):
    """Every one-cell beetle, and either half of a moth, on the grid or a quarter cell off, is
    no stag's wing cases (a blue beetle a printer's hue shift takes for a stag's violet must not
    be named one); nor is bare board."""
    img = lined_board(WHITE)
    lay_card(img, rows, 1, 1)
    lay_card(img, rows, 3, 3, shift=(6, -6))
    cells = [(1, 1), (1, 2), (3, 3), (3, 4), (5, 0)]
    assert shown_as(img, cells, "Sb") == set()


def _named(column: list[str], wings: set[tuple[int, int]]) -> list[str]:
    """Column 1 of `_grid(column)` after `name_halves`, the drawing's evidence flat, no head
    shown by a drawing, and `wings` the cells the drawing shows the wing cases in."""
    grid = _grid(column)
    name_halves(grid, np.zeros((6, 6)), np.zeros((6, 6)), 0.08,
                lambda cells: {cell: "Sb" for cell in cells if cell in wings})
    return [row[1] for row in grid]


def test_lone_wing_cases_whose_head_another_card_covers_are_named():
    """A stag cell between a blue beetle above (covering the head's cell) and fill: no pairing
    of the run exists ('?'); its drawing showing the wing cases, it is 'Sb'."""
    column = [".", "B", "S", ".", ".", "."]
    assert _named(column, set()) == [".", "B", UNKNOWN, ".", ".", "."]
    assert _named(column, {(2, 1)}) == [".", "B", "Sb", ".", ".", "."]


def test_a_run_beside_hidden_cells_is_paired_from_the_wing_cases_its_drawing_shows():
    """Two stag cells between '?' cells: the drawing showing the wing cases in the lower cell
    names the pair (the upper cell its head); in the upper cell, only those wing cases (the
    lower cell, the head of a stag whose wing cases are hidden, is not named by them)."""
    column = [".", UNKNOWN, "S", "S", UNKNOWN, "."]
    assert _named(column, set())[2:4] == [UNKNOWN, UNKNOWN]
    assert _named(column, {(3, 1)})[2:4] == ["St", "Sb"]
    assert _named(column, {(2, 1)})[2:4] == ["Sb", UNKNOWN]


@pytest.mark.parametrize(("seed", "player", "cell"), [
    (74, 1, (2, 5)),    # wing cases whose head is hidden or covered (before: '?')
    (166, 1, (3, 0)),
    (238, 2, (4, 3)),
    (294, 1, (5, 5)),
])
def test_hard_tables_wing_cases_told_by_their_drawing(seed, player, cell):
    """Hard tables whose listed stag wing cases were left '?' for want of their pairing: they
    read 'Sb', and no cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, "Sb")
