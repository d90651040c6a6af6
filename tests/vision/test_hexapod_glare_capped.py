"""Glare that clips a card's middle in all three channels, on a case whose white lies within
`GLARE_PEAK` of the clip, leaves no measured peak above the fill: the clip caps the measured
channel at 1.07 of the white there, short of the 1.3 of the fill the peak test asks. Such a
middle is not measured at all, and the cell is '?' unless the board's lines show along two
opposite sides of it or along one in full (`hexapod_cover.glare_unlined_empty`). Never-seen
hard 11410, whose truth the renderer gives: a gold tile washed white, read as empty board
before (a wrong code on a cell in full view)."""

from __future__ import annotations

from companion.vision.observation import UNKNOWN

from .hexapod_scenes import assert_no_wrong_code, read_hard, read_hard_case


def test_a_tile_washed_to_the_clip_under_a_near_clipped_white_is_not_empty():
    """11410, player 1: (5, 2) holds a gold tile in full view under the glare; it reads '?' or
    'Y', never '.', and no cell of the scene reads a wrong code."""
    read, case = read_hard_case(11410, 1)
    assert case.grid[5][2] == "Y" and case.visible[5][2] >= 1.0
    assert read.grid[5][2] in ("Y", UNKNOWN)
    assert_no_wrong_code(*read_hard(11410))


def test_fill_lifted_to_the_clip_beside_its_full_line_stays_empty():
    """Hard 258, player 1: the bottom row's empty cells whose middles a lamp's pool lifts to
    the clip show the board's line in full along a side (the frame below them): (5, 0),
    (5, 1) and (5, 2) still read empty, as they did."""
    read, case = read_hard_case(258, 1)
    for c in (0, 1, 2):
        assert case.grid[5][c] == "."
        assert read.grid[5][c] == ".", (c, read.grid[5][c])
