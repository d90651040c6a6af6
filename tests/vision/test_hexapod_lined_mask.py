"""A part of the occluder masks over which the board's printed grid lines show is lit fill, not a
hand (`hexapod_occluders.lined_parts_dropped`): on crafted canvases a mask part over lined fill
is dropped and one over a flat patch (a hand hides the lines) is kept, each part judged on its
own, a part too small to hold a side's worth of line samples is kept; and hard tables whose
board a warm lamp tints as far as skin, where the masks took empty fill for a hand, now read
those cells, with no cell of the scene read wrong."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_lines import line_grey
from companion.vision.hexapod_occluders import lined_parts_dropped

from .hexapod_scenes import PX, M, assert_no_wrong_code, lined_board, read_hard, read_hard_case

WHITE = np.array([150.0, 215.0, 250.0], np.float32)     # BGR, a warm lamp
N = 6 * PX + 2 * M


def _board() -> np.ndarray:
    """The crafted lined board (`lined_board`) under the warm lamp."""
    return lined_board(WHITE)


def _box(r0: int, c0: int, r1: int, c1: int) -> tuple[slice, slice]:
    """The canvas pixels of cells rows r0..r1-1, columns c0..c1-1, and a few px about them."""
    return slice(M + r0 * PX - 3, M + r1 * PX + 3), slice(M + c0 * PX - 3, M + c1 * PX + 3)


def _dropped(img: np.ndarray, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    own = hand.copy()
    return lined_parts_dropped(hand, own, line_grey(planes, WHITE), PX, M, 6, 6, 0.03)


def test_a_mask_part_over_lined_fill_is_dropped_and_one_over_a_hand_kept():
    img = _board()
    hand = np.zeros((N, N), np.uint8)
    lined, flat = _box(0, 0, 2, 2), _box(3, 3, 5, 6)
    hand[lined] = 1
    hand[flat] = 1
    img[flat] = 0.8 * WHITE                   # a flat pale hand: no line under it
    kept, own = _dropped(img, hand)
    assert not kept[lined].any() and not own[lined].any()
    assert kept[flat].all() and own[flat].all()


def test_a_mask_over_lines_alone_is_dropped_whole():
    hand = np.zeros((N, N), np.uint8)
    hand[_box(1, 1, 4, 4)] = 1
    kept, _ = _dropped(_board(), hand)
    assert not kept.any()


def test_a_small_part_tells_nothing_and_is_kept():
    # half a cell of mask holds too few line samples for its lines to speak
    hand = np.zeros((N, N), np.uint8)
    y, x = M + 2 * PX - 3, M + 2 * PX - 3
    hand[y:y + 10, x:x + 10] = 1
    kept, _ = _dropped(_board(), hand)
    assert kept.sum() == hand.sum()


@pytest.mark.parametrize(("seed", "player", "cells"), [
    # a warm lamp, its white clipped in red and green: the fill along the right column tinted
    # as far as skin, taken for an arm reaching in; cards and fill there left '?' before
    (411, 1, {(0, 5): ".", (1, 5): ".", (2, 4): "K", (3, 3): "Y", (3, 4): "Y", (5, 4): "G"}),
    # the empty fill in the bottom-left corner taken for a hand
    (509, 1, {(3, 0): ".", (4, 0): ".", (5, 0): ".", (5, 1): ".", (5, 2): "."}),
    (540, 1, {(0, 5): "."}),
])
def test_cells_under_a_mask_of_lined_fill_are_read(seed, player, cells):
    read, case = read_hard_case(seed, player)
    for (r, c), code in cells.items():
        assert case.grid[r][c] == code and case.visible[r][c] >= 1.0
        assert read.grid[r][c] == code, (r, c, read.grid[r][c])
    assert_no_wrong_code(*read_hard(seed))
