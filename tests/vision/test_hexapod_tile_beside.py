"""A dung beetle's black tile is one cell's. A card lies at most a third of a cell off its place,
so a black tile pushed that far towards a neighbour fills the neighbour's nudged windows on that
side while its own cell's centre still reads it; where the nudges alone name the neighbour (its
centre undecided), it must not take that tile for its own (`hexapod_cells.tile_beside`).
Never-seen hard 11178, whose truth the renderer gives: dim fill in a shadow beside a dung beetle
a third of a cell off, read as a second dung beetle before (a wrong code on a cell in full
view); and crafted nudge readings."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod_cells import tile_beside
from companion.vision.hexapod_windows import EMPTY_CODE, K_CODE, UNKNOWN_CODE

from .hexapod_scenes import assert_no_wrong_code, read_hard, read_hard_case

SHIFTS = ((5, 0), (-5, 0), (0, 5), (0, -5))      # right, left, down, up (pixels, x then y)


def test_fill_beside_a_dung_beetle_pushed_towards_it_is_not_a_second_one():
    """11178, player 2: (3, 5) is empty board in full view beside the dung beetle of (3, 4);
    it reads '?' or '.', and no cell of the scene reads a wrong code."""
    read, case = read_hard_case(11178, 2)
    assert case.grid[3][5] == "." and case.visible[3][5] >= 1.0
    assert case.grid[3][4] == "K"
    assert read.grid[3][5] in (".", "?")
    assert read.grid[3][4] == "K"
    assert_no_wrong_code(*read_hard(11178))


def _centre(k: dict[int, int]) -> np.ndarray:
    code = np.full(36, EMPTY_CODE, np.int64)
    for i, v in k.items():
        code[i] = v
    return code


def test_only_a_nudge_that_reads_the_tile_towards_a_dung_beetle_vetoes():
    """Cell (3, 5), flat 23, undecided at its centre. With (3, 4) read as a dung beetle at its
    centre, the left nudge reading one is that tile: vetoed. Only the right and down nudges
    reading one (none towards (3, 4)): kept. The left nudge reading one while (3, 4) reads
    empty or is itself undecided: kept. A cell on the grid's edge whose nudge looks off the
    grid: kept."""
    cells = np.array([23])
    reads = np.zeros((4, 1), bool)
    reads[[1, 2], 0] = True                                         # left and down
    beetle = _centre({22: K_CODE, 23: UNKNOWN_CODE})
    assert tile_beside(beetle, reads, np.array([True]), cells, 6, 6, SHIFTS).tolist() == [True]
    assert tile_beside(beetle, reads, np.array([False]), cells, 6, 6, SHIFTS).tolist() == [False]
    other = np.zeros((4, 1), bool)
    other[[0, 2], 0] = True                                         # right and down
    assert tile_beside(beetle, other, np.array([True]), cells, 6, 6, SHIFTS).tolist() == [False]
    for beside in (EMPTY_CODE, UNKNOWN_CODE):
        code = _centre({22: beside, 23: UNKNOWN_CODE})
        assert tile_beside(code, reads, np.array([True]), cells, 6, 6, SHIFTS).tolist() == [False]
    edge = np.zeros((4, 1), bool)
    edge[[0, 3], 0] = True                                          # right and up, off the grid
    code = _centre({5: UNKNOWN_CODE, 4: EMPTY_CODE, 11: K_CODE})
    assert tile_beside(code, edge, np.array([True]), np.array([5]), 6, 6, SHIFTS).tolist() \
        == [False]
