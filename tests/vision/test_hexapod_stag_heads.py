"""A stag beetle's head told by its drawing where counting the run of stag cells cannot tell it:
its wing cases hidden under a hand or covered by another card, the run next to a '?'. The
reader matches the cell against the stag's head and wing cases as printed
(`hexapod_halves.stag_drawn`, `models/hexapod-stag.png`), grey and anywhere within a third of
a cell, and names a clear head 'St' (and a lone stag cell right below it 'Sb'); the wing
cases' drawing alone, which other beetles' bodies look like, names nothing here (`stag_drawn`
weighs it against every beetle's: `test_hexapod_stag_wings.py`). Hard tables whose heads were
left '?' before, crafted canvases and grids."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.synth.hexapod_face import STAG_MODEL_PX, stag_grey
from companion.vision.hexapod_drawings import STAG_MODEL
from companion.vision.hexapod_halves import name_halves, stag_drawn
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, WHITE, M, assert_hard_cell_reads, lay_card, lined_board


def test_the_model_is_the_printed_stag():
    """models/hexapod-stag.png is the stag as `companion cards export` prints it (regenerate
    with `companion models hexapod-drawings` after changing the card's art)."""
    shipped = cv2.imread(str(STAG_MODEL), cv2.IMREAD_GRAYSCALE)
    assert shipped is not None
    assert shipped.shape == (2 * STAG_MODEL_PX, STAG_MODEL_PX)
    assert np.array_equal(shipped, stag_grey())


STAG = (("St",), ("Sb",))


def shown_as(img: np.ndarray, cells: list[tuple[int, int]], half: str) -> set[tuple[int, int]]:
    """The cells of a crafted canvas whose drawing `stag_drawn` shows as the stag's `half`."""
    return {cell for cell, got in stag_drawn(img, PX, M, cells).items() if got == half}


@pytest.mark.parametrize(("dx", "dy", "gain", "veil"), [
    (0, 0, 1.0, 0.0),       # as printed, on the grid
    (7, -5, 1.0, 0.0),      # laid nearly a third of a cell off
    (-4, 6, 0.55, 0.35),    # and washed pale: a pale print under a veil of light
])
def test_the_head_is_told_from_the_wing_cases(dx, dy, gain, veil):
    """A stag laid on cells (2, 1) over (3, 1): the head's cell is the head, the wing cases'
    is not."""
    img = lined_board(WHITE)
    lay_card(img, STAG, 2, 1, gain * WHITE / 255.0, veil, (dx, dy))
    assert shown_as(img, [(2, 1), (3, 1)], "St") == {(2, 1)}


@pytest.mark.parametrize("code", ["B", "G", "R", "Y", "K"])
def test_no_other_beetle_is_a_head(code):
    """Every other one-cell beetle, on the grid or a quarter cell off, is no stag's head (a
    blue beetle a printer's hue shift takes for a stag's violet must not be named one)."""
    img = lined_board(WHITE)
    lay_card(img, ((code,),), 1, 1)
    lay_card(img, ((code,),), 3, 4, shift=(6, -6))
    assert shown_as(img, [(1, 1), (3, 4)], "St") == set()


def _grid(column: list[str]) -> list[list[str]]:
    """A 6 x 6 grid of board fill whose column 1 is `column` (top to bottom)."""
    return [["."] + [code] + ["."] * 4 for code in column]


def _named(column: list[str], heads: set[tuple[int, int]] | None) -> list[str]:
    """Column 1 of `_grid(column)` after `name_halves`, the drawing's evidence flat (0: no
    head, no wing cases) and `heads` the cells the drawing shows a head in (None: not asked)."""
    grid = _grid(column)
    asked: list[list[tuple[int, int]]] = []

    def shown(cells: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
        asked.append(list(cells))
        return {cell: "St" for cell in cells if cell in (heads or set())}

    name_halves(grid, np.zeros((6, 6)), np.zeros((6, 6)), 0.08,
                None if heads is None else shown)
    if heads is not None:     # only the stag cells the pairing left unnamed are asked about
        assert all(grid[r][c] != "S" and column[r] == "S" for cells in asked
                   for r, c in cells)
    return [row[1] for row in grid]


def test_a_lone_head_whose_wing_cases_another_card_covers_is_named():
    """A stag cell between fill and a blue beetle (the wing cases' cell covered by that card):
    no pairing of the run exists ('?'); its drawing showing the head, it is 'St', and the
    blue beetle below stays."""
    column = [".", ".", "S", "B", ".", "."]
    assert _named(column, None)[2] == UNKNOWN
    assert _named(column, set()) == [".", ".", UNKNOWN, "B", ".", "."]
    assert _named(column, {(2, 1)}) == [".", ".", "St", "B", ".", "."]


def test_a_run_beside_hidden_cells_is_paired_from_the_head_its_drawing_shows():
    """Two stag cells between '?' cells: either pairing could hold (a head over its wing
    cases, or the wing cases of a stag above and the head of one below); the drawing showing
    the head in the upper cell names the pair, in the lower names only that head (the upper
    cell, a stag's wing cases whose head is hidden, is not named by its drawing)."""
    column = [".", UNKNOWN, "S", "S", UNKNOWN, "."]
    assert _named(column, set())[2:4] == [UNKNOWN, UNKNOWN]
    assert _named(column, {(2, 1)})[2:4] == ["St", "Sb"]
    assert _named(column, {(3, 1)})[2:4] == [UNKNOWN, "St"]


def test_the_cell_below_a_head_is_its_wing_cases_whatever_its_drawing_shows():
    """Two stag cells between '?' cells, the drawing showing a head in both (a pale print's
    wing cases can show little of their own): the upper is the head and the lower its wing
    cases; no head is named right below a head."""
    column = [".", UNKNOWN, "S", "S", UNKNOWN, "."]
    assert _named(column, {(2, 1), (3, 1)})[2:4] == ["St", "Sb"]


@pytest.mark.parametrize(("seed", "player", "cell"), [
    (152, 2, (0, 1)),   # a head whose wing cases lie half under a hand (before: '?')
    (279, 2, (2, 3)),   # a head over a '?' (before: '?')
    (328, 2, (0, 3)),   # the same, on a case of overlapping cards (before: '?')
])
def test_hard_tables_heads_told_by_their_drawing(seed, player, cell):
    """Hard tables whose listed stag head was left '?' for want of its pairing: it reads
    'St', and no cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, "St")
