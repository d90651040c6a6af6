"""A coloured kind read in a cell's middle where a hand's mask reaches only the cell's edge is
kept, not hidden (`hexapod_occluders.kind_clear_of_hand`): crafted masks and readings (a strip
of hand at the edge keeps a kind, not an empty or dung-beetle reading, and a strip reaching the
middle hides all three), and hard tables whose cells beside a hand (before: '?') now read their
own code, with no cell of the scene read wrong."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_colour import KINDS
from companion.vision.hexapod_occluders import kind_clear_of_hand
from companion.vision.hexapod_windows import EMPTY_CODE, K_CODE

from .hexapod_scenes import PX, M, assert_no_wrong_code, read_hard, read_hard_case

N = 6 * PX + 2 * M
SMALL = round(0.45 * PX)     # the reader's small window (`CellParams.small`)
CELL = 2 * 6 + 2             # row 2, column 2


def _strip(width: int) -> np.ndarray:
    """A hand mask covering `width` px of cell (2, 2) from its left edge inwards."""
    hand = np.zeros((N, N), np.uint8)
    x0, y0 = M + 2 * PX, M + 2 * PX
    hand[y0:y0 + PX, x0:x0 + width] = 1
    return hand


def _kept(code: int, width: int) -> bool:
    codes = np.full(36, EMPTY_CODE)
    codes[CELL] = code
    return bool(kind_clear_of_hand(codes[[CELL]], _strip(width), PX, M, 6, 6,
                                   np.array([CELL]), SMALL)[0])


def test_a_kind_with_a_hand_at_its_edge_only_is_kept():
    # the strip's 5 px lie outside the small window (its middle 11 px) but within the large
    assert _kept(KINDS.index("B"), 5)
    assert _kept(KINDS.index("G"), 5)


def test_a_hand_reaching_the_middle_hides_the_kind():
    assert not _kept(KINDS.index("B"), 10)


def test_empty_and_dung_beetle_readings_are_never_kept():
    # fill beside a hand may hide a card under it; a dark sleeve looks like a black tile
    assert not _kept(EMPTY_CODE, 5)
    assert not _kept(K_CODE, 5)


@pytest.mark.parametrize(("seed", "player", "cell", "code"), [
    # a stag's head in full view beside a hand's edge (before: '?', the hand's large window)
    (89, 1, (1, 3), "St"),
    (96, 2, (0, 1), "St"),
    (105, 1, (1, 4), "St"),
    # a blue beetle and a red one a hand's edge covers in part: their middles in view
    (0, 2, (1, 3), "B"),
    (6, 1, (3, 1), "R"),
])
def test_cells_beside_a_hand_read_their_own_code(seed, player, cell, code):
    read, case = read_hard_case(seed, player)
    r, c = cell
    assert case.grid[r][c] == code
    assert read.grid[r][c] == code
    assert_no_wrong_code(*read_hard(seed))
