"""A cell read empty is '?' when its middle is dimmer than the fill in the channels where the
case's white lies below the clip and no side shows its printed line
(`hexapod_cover.unlined_dim_empty`): under a warm lamp that clips the white in red and green, a
pale arm clips there as the paper does and reads as bright, neutral fill; only the blue
channel shows it darker. Never-seen hard tables 21169 and 21543: an arm over ten cells of
player 1's case, no skin found (its warmth normalised away), read empty board."""

from __future__ import annotations

import pytest

from companion.vision.hexapod_colour import clipped_channels
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import read_hard_case, visible_read_right


@pytest.mark.parametrize(("seed", "arm"), [
    (21169, ((3, 0), (3, 1), (4, 0), (4, 1), (4, 2), (5, 0), (5, 1), (5, 2), (5, 3))),
    (21543, ((2, 2), (3, 2), (3, 3), (4, 1), (4, 2), (5, 1), (5, 3))),
])
def test_a_pale_arm_dim_in_blue_alone_is_not_read_as_empty_board(seed, arm):
    """The cells under the arm (cards, hidden) are '?', never empty; the white clips in two
    channels; no cell in full view reads a code it is not."""
    read, case = read_hard_case(seed, 1)
    assert clipped_channels(read.white) == 2
    for r, c in arm:
        assert case.grid[r][c] != "." and case.visible[r][c] < 1.0
        assert read.grid[r][c] == UNKNOWN, (r, c, read.grid[r][c])
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            if case.visible[r][c] >= 1.0:
                assert read.grid[r][c] in (code, UNKNOWN), (r, c, code, read.grid[r][c])


def test_the_whole_case_under_the_arm_reads_no_wrong_code():
    """Table 21169: every cell of player 1's case reads its own code or '?', and most cells in
    full view read their code."""
    read, case = read_hard_case(21169, 1)
    assert visible_read_right(case, read) >= 15
