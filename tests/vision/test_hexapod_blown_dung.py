"""A dung beetle in a frame blown white in every channel: its pale grey beetle clips as the
board's fill does and its black tile, lifted to a light grey, frames it as a gutter frames a
cell, so the cell read as empty board. Its drawing still shows, faintly: a cell read empty
under such a white whose grey matches the dung beetle's drawing (`hexapod_drawings.blown_dung`,
BLOWN_DUNG_MATCH, BLOWN_DUNG_MARGIN) is left '?'. Never-seen hard 20406 and 21666, each on a
case the referee would have judged (no other cell '?'). The scenes are rendered here from their
seeds; their truth comes from the renderer."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_drawings import blown_dung

from .hexapod_scenes import PX, M, assert_no_wrong_code, read_hard
from .test_hexapod_dung_drawn import beetles_table


@pytest.mark.parametrize(("seed", "player", "cell"), [(20406, 2, (2, 0)), (21666, 2, (2, 4))])
def test_a_washed_dung_beetle_is_not_read_as_empty_board(seed, player, cell):
    """The dung beetle (in full view, read '.' before) is '?', and no cell of the scene reads a
    code other than its own."""
    truth, obs = read_hard(seed)
    case = next(c for c in truth.cases if c.player == player)
    seen = next(c for c in obs.cases if c.player == player)
    r, c = cell
    assert case.grid[r][c] == "K" and case.visible[r][c] >= 1.0
    assert seen.grid[r][c] == "?"
    assert_no_wrong_code(truth, obs)


def test_bare_board_and_other_beetles_do_not_show_the_dung_drawing():
    """On a crafted canvas the dung beetle's cell shows its drawing; the other one-cell
    beetles, the stag's two cells and bare board do not."""
    img = beetles_table((0.8, 0.78, 0.76), 0.0, (0, 0))
    cells = np.array([2 * 6 + c for c in range(5)] + [6 + 5, 2 * 6 + 5, 0, 35])
    assert cells[blown_dung(img, PX, M, 6, cells)].tolist() == [2 * 6 + 0]
