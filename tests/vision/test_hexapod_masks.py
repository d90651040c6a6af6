"""Hexapod cells in full view that only the closing of the hand mask covered. The mask's
regions (skin, sleeves, a lit arm's clipped parts) are closed over gaps of up to two cells, so
that an arm's lit middle, clipped flat and pale between its shaded edges, is covered too; the
closing also covered cards lying between a hand and board fill that a warm cast made skin-like,
or between two fingers, and every such cell was reported '?'. A cell that the occluder's own
pixels do not reach, read as a coloured kind (ink with an insect's relief, which a clipped arm
never shows), is now read; an empty or dung-beetle reading there is still not trusted, and a
cell the hand's own pixels reach stays '?'. Rendered scenes carry their own truth (the layout
the renderer drew), framed as `companion bench vision --game hexapod` frames them; crafted
masks are built here pixel by pixel."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import hexapod_lines as hlines
from companion.vision import hexapod_occluders as hocc
from companion.vision import hexapod_windows as hwin
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, case_cells, read_hard

LARGE = round(hwin.DEFAULT.large * PX)


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (554, 1, [(5, 2), (5, 3), (5, 4)]),
    (615, 1, [(2, 4), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4)]),
    (438, 1, [(0, 3), (0, 4)])])
def test_a_card_that_only_the_closing_of_the_mask_covers_is_read(seed, player, cells):
    """Hard seeds 554 and 615 (warm lamps the white did not remove: board fill beside the
    cards is skin-like, and the closing bridges it over the cards) and 438 (a hand whose
    fingers' closing spans a moth next to them): the cards in full view that no pixel of the
    occluder reaches read their codes (before: '?'); no cell of the scene reads a wrong code."""
    truth, obs = read_hard(seed)
    case = next(c for c in truth.cases if c.player == player)
    got = next(c for c in obs.cases if c.player == player)
    for r, c in cells:
        assert case.visible[r][c] >= 1.0
        assert got.grid[r][c] == case.grid[r][c], (r, c, case.grid[r][c], got.grid[r][c])
    for player, r, c, code, _, got in case_cells(truth, obs):
        assert got in (code, UNKNOWN), (player, r, c, code)


@pytest.mark.parametrize("seed", [438, 554, 615])
def test_cells_a_hand_covers_stay_unknown(seed):
    """A real hand still masks: every cell of these hard scenes that a hand covers more than
    half of reads '?'."""
    truth, obs = read_hard(seed)
    under = 0
    for player, r, c, _, visible, got in case_cells(truth, obs):
        if visible < 0.5:
            under += 1
            assert got == UNKNOWN, (player, r, c)
    assert under >= 3


def _fingers() -> np.ndarray:
    """The occluder's own pixels on a 6 x 6 canvas: two fingers, a third of a cell wide, come
    in from the top edge down to the middle of row 2, over columns 1 and 3, leaving column 2
    between them (which the closing of gaps up to two cells wide covers)."""
    own = np.zeros((6 * PX + 2 * M,) * 2, np.uint8)
    for col in (1, 3):
        x0 = M + col * PX + PX // 3
        own[:M + 2 * PX + PX // 2, x0:x0 + PX // 3] = 1
    return own


CODE = {code: i for i, code in enumerate(hwin.CODES)}


def _in_gap(codes: list[str], cells: list[int], own: np.ndarray) -> list[bool]:
    return hocc.tile_in_gap(np.array([CODE[c] for c in codes]), own, PX, M, 6, 6,
                            np.array(cells), LARGE, hwin.DEFAULT.max_hand).tolist()


def test_a_tile_between_fingers_is_read_but_not_fill_or_black():
    # cell (1, 2) lies between the fingers: a blue tile read there is the card's; an empty
    # or a dung-beetle reading may be a clipped arm's pale middle or a dark sleeve
    assert _in_gap(["B", "S", ".", "K"], [8, 8, 8, 8], _fingers()) == [True, True, False,
                                                                       False]


def test_a_tile_a_finger_reaches_into_stays_covered():
    # cells (1, 1) and (2, 3) lie under a finger: whatever they read, the hand is over them
    assert _in_gap(["B", "G"], [7, 15], _fingers()) == [False, False]


def test_a_fingertip_just_inside_the_window_keeps_the_cell_covered():
    # a fingertip reaching a sixth of a cell into the large window of cell (3, 2) from above
    own = np.zeros((6 * PX + 2 * M,) * 2, np.uint8)
    x0 = M + 2 * PX + PX // 3
    y1 = M + 3 * PX + (PX - LARGE) // 2 + PX // 6
    own[:y1, x0:x0 + PX // 3] = 1
    assert _in_gap(["R"], [20], own) == [False]


FILL, LINE, SKIN = 228.0, 150.0, 190.0   # board fill, grid line (sRGB as printed), a hand
BORDER, TILE = 42.0, 110.0               # a card's dark border band and a tile's ink


def _board() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grey, saturation, normalised brightness) of a rectified 6 x 6 case canvas of board
    fill with its grid lines one canvas pixel wide and half as dark as printed (a slightly
    blurred photograph); the fill is near-neutral and bright."""
    size = 6 * PX + 2 * M
    grey = np.full((size, size), FILL, np.float32)
    dip = FILL - 0.5 * (FILL - LINE)
    for k in range(7):
        grey[M + k * PX - 1, M:M + 6 * PX] = dip
        grey[M:M + 6 * PX, M + k * PX - 1] = dip
    return grey, np.full((size, size), 0.05, np.float32), grey / FILL


def _across(grey: np.ndarray, sat: np.ndarray, v: np.ndarray, cell: int) -> bool:
    return bool(hlines.lines_across(grey, sat, v, PX, M, 6, 6, np.array([cell]))[0])


def test_a_hand_over_an_empty_cell_leaves_its_side_lines_to_vouch_for_it():
    # a palm a cell wide comes in from the top edge down over the middle of cell (2, 2),
    # crossing its top side only: its left and right lines still show, so no card is there
    grey, sat, v = _board()
    x0 = M + 2 * PX + 4
    grey[:M + 2 * PX + 2 * PX // 3, x0:x0 + PX - 8] = SKIN
    sat[:M + 2 * PX + 2 * PX // 3, x0:x0 + PX - 8] = 0.3
    assert _across(grey, sat, v, 14)
    assert not hlines.lines_all_round(grey, PX, M, 6, 6, np.array([14]))[0]


def test_a_card_over_a_cell_hides_one_of_each_pair_of_sides():
    # a card two cells wide a third of a cell off the grid over cells (2, 2) and (2, 3): it
    # covers (2, 2)'s right side and, a third of a cell down, most of its left and right
    grey, sat, v = _board()
    y0, x0 = M + 2 * PX + PX // 3, M + 2 * PX + PX // 3
    grey[y0:y0 + 3 * PX, x0:x0 + 2 * PX] = TILE
    sat[y0:y0 + 3 * PX, x0:x0 + 2 * PX] = 0.7
    assert not _across(grey, sat, v, 14)


def test_card_borders_between_tiles_are_not_the_boards_lines():
    # cards laid on the grid either side of cell (2, 2) and one under it, all aligned: the
    # dark border bands lie where the cell's left and right lines are, with tiles beside them
    # (the cell shows the card under the others). Beside a border lies ink, never board fill
    grey, sat, v = _board()
    rows = slice(M + PX, M + 4 * PX)
    grey[rows, M:M + 5 * PX] = TILE
    sat[rows, M:M + 5 * PX] = 0.7
    v[rows, M:M + 5 * PX] = 0.6
    for k in (2, 3):
        grey[rows, M + k * PX - 1:M + k * PX + 1] = BORDER
    assert not _across(grey, sat, v, 14)
    # the same bands drawn with board fill beside them would pass for the lines
    fill = _board()
    for k in (2, 3):
        fill[0][rows, M + k * PX - 1:M + k * PX + 1] = BORDER
    assert _across(*fill, 14)


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (607, 2, [(5, 0), (5, 1)]), (653, 1, [(2, 2)]), (682, 1, [(5, 0)])])
def test_empty_cells_whose_opposite_lines_show_under_the_mask_read_empty(seed, player, cells):
    """Hard seeds 607, 653 and 682: board fill in full view that the hand mask covers (a warm
    cast or a lamp's pool left on it is skin-like) shows its grid lines along two opposite
    sides but not all round (a blurred line, a neighbouring card's edge): read '.' (before:
    '?'); no cell of the scene reads a wrong code."""
    truth, obs = read_hard(seed)
    case = next(c for c in truth.cases if c.player == player)
    got = next(c for c in obs.cases if c.player == player)
    for r, c in cells:
        assert case.visible[r][c] >= 1.0 and case.grid[r][c] == "."
        assert got.grid[r][c] == ".", (r, c, got.grid[r][c])
    for player, r, c, code, _, got in case_cells(truth, obs):
        assert got in (code, UNKNOWN), (player, r, c, code)
