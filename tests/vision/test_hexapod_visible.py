"""Hexapod cells in full view that the hand mask covered: board fill that a lamp's pool or a
cast the white did not remove made skin-like joined a hand's region (or formed one), and every
cell under it was reported '?'. The board's printed grid lines show through nothing opaque, so
a cell whose lines are seen all round is read whatever the mask says; a cell a hand really
reaches into hides a line where the hand crosses its side, and stays '?'. Crafted canvases are
built here pixel by pixel; rendered scenes carry their own truth (the layout the renderer
drew), framed as `companion bench vision --game hexapod` frames them."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import hexapod_lines as hlines
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, case_cells, read_hard

FILL, LINE = 228.0, 150.0            # the board's fill and grid-line grey (sRGB, as printed)
SKIN = 190.0                         # a hand's brightness (its grey here: only darkness matters)


def _board(lines: bool = True) -> np.ndarray:
    """A rectified 6 x 6 case canvas (grey, float32) of board fill, with its grid lines drawn
    one canvas pixel wide (0.45 mm of a 28 mm cell, widened by the camera's blur) and half as
    dark as printed, as a slightly blurred photograph shows them."""
    img = np.full((6 * PX + 2 * M,) * 2, FILL, np.float32)
    if lines:
        dip = FILL - 0.5 * (FILL - LINE)
        for k in range(7):
            img[M + k * PX - 1, M:M + 6 * PX] = dip
            img[M:M + 6 * PX, M + k * PX - 1] = dip
    return img


def _seen(img: np.ndarray) -> np.ndarray:
    """`lines_all_round` of every cell, as a 6 x 6 array."""
    cells = np.arange(36)
    return hlines.lines_all_round(img, PX, M, 6, 6, cells).reshape(6, 6)


def test_grid_lines_all_round_show_that_nothing_covers_a_cell():
    assert _seen(_board()).all()


def test_a_finger_over_a_cell_hides_its_lines_where_it_crosses_them():
    # a finger a third of a cell wide comes in from the canvas's top edge and reaches the
    # middle of cell (2, 2): it crosses the top sides of (0, 2), (1, 2) and (2, 2)
    img = _board()
    x0 = M + 2 * PX + PX // 3
    img[:M + 2 * PX + PX // 2, x0:x0 + PX // 3] = SKIN
    seen = _seen(img)
    assert not seen[0, 2] and not seen[1, 2] and not seen[2, 2]
    # the cells beside the finger keep their lines, and those it never reaches too
    assert seen[2, 1] and seen[2, 3] and seen[3, 2]


def test_a_fingertip_just_over_a_side_hides_that_side():
    # a fingertip reaching a fifth of a cell into cell (3, 3) from the left, across the
    # middle of its left side
    img = _board()
    y0 = M + 3 * PX + PX // 3
    img[y0:y0 + PX // 3, :M + 3 * PX + PX // 5] = SKIN
    assert not _seen(img)[3, 3]


def test_fill_without_lines_is_not_taken_for_a_seen_cell():
    # a blur that washes the lines out (or a flat hand as bright as the fill) shows no line:
    # the hand mask stands
    assert not _seen(_board(lines=False)).any()


def test_a_tile_over_the_lines_hides_them():
    # a card's tile a third of a cell off the grid lies over one of the cell's sides
    img = _board()
    img[M + 2 * PX + PX // 3:M + 3 * PX + PX // 3 - 2, M + 2 * PX + 1:M + 3 * PX - 1] = 90.0
    assert not _seen(img)[2, 2]


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (682, 2, [(0, 5), (1, 5), (2, 5), (4, 5), (5, 4)]),
    (689, 2, [(1, 5), (2, 5), (3, 4), (3, 5), (4, 4), (4, 5), (5, 4), (5, 5)]),
    (664, 1, [(0, 0)])])
def test_board_fill_the_hand_mask_took_for_skin_is_read_empty(seed, player, cells):
    """Hard seeds 682 (no hand in the scene: the lamp's pool warms the fill on the case's right),
    689 (a warm cast left on the fill joins it to the hand over the left columns) and 664: the
    empty cells in full view, their grid lines showing all round, read '.'; no cell of the
    scene reads a wrong code."""
    truth, obs = read_hard(seed)
    case = next(c for c in truth.cases if c.player == player)
    got = next(c for c in obs.cases if c.player == player)
    for r, c in cells:
        assert case.visible[r][c] >= 1.0
        assert got.grid[r][c] == case.grid[r][c], (r, c, case.grid[r][c], got.grid[r][c])
    for player, r, c, code, _, got in case_cells(truth, obs):
        assert got in (code, UNKNOWN), (player, r, c, code)


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (6, 1, [(2, 3), (3, 3), (4, 3)]), (40, 2, [(0, 0)])])
def test_what_the_hand_mask_covers_stays_unknown(seed, player, cells):
    """Hard seeds 6 and 40: a flat pale palm over cells reads like board fill; without the mask
    these cells read '.'. The hand hides the grid lines there, so the mask stands and they read
    '?'."""
    _, obs = read_hard(seed)
    got = next(c for c in obs.cases if c.player == player)
    for r, c in cells:
        assert got.grid[r][c] == UNKNOWN, (r, c, got.grid[r][c])


@pytest.mark.parametrize("seed", [570, 615, 689])
def test_cells_under_a_hand_stay_unknown(seed):
    """The hand mask still hides what a hand covers: every cell of these hard scenes that the
    hand covers more than half of (its grid lines hidden under the hand) reads '?'."""
    truth, obs = read_hard(seed)
    under = 0
    for player, r, c, _, visible, got in case_cells(truth, obs):
        if visible < 0.5:
            under += 1
            assert got == UNKNOWN, (player, r, c)
    assert under >= 5
