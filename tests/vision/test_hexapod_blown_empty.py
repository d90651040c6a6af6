"""Empty cells under a white clipped in all three channels (`hexapod_cover.blown_unlined_empty`).
Rendered hard scene 541 (exposure 1.19: paper, board fill and a dung beetle's grey beetle all
clip): player 1's cell (0, 3) holds a dung beetle lying a quarter cell off its cell, whose
windows see only its clipped grey beetle; the old reader took that light centre for board fill
and read the cell empty. A cell called empty there must show bare board: a printed grid line,
or clipped fill over its whole middle. The pose is the one markers 11 and 12 give (fixed here;
the live reader finds this case only once a hand leaves marker 10)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.faces import HEXAPOD_CASE as LAYOUT
from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod_cells import read_case
from companion.vision.hexapod_colour import clipped_channels
from companion.vision.hexapod_markers import CasePose
from companion.vision.observation import UNKNOWN

SEED = 541
H = np.array([[1.504349252132322, -0.48824725155460924, 330.0605398959534],
              [0.37896696446005906, 1.146183974001302, 184.95124655781117],
              [0.00011063754275410572, -0.00045425140714208635, 1.0]])
POSE = CasePose(1, H, (11, 12), 0.97, 30.01)


def _read() -> tuple[object, object]:
    params = replace(sample_params(SEED, "hard", 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(SEED, "hard", params=params)
    return read_case(image, POSE, layout=LAYOUT), next(c for c in truth.cases if c.player == 1)


def test_a_clipped_grey_beetle_off_its_cell_is_not_read_empty() -> None:
    """The white clips in all three channels; cell (0, 3) is a dung beetle: '?' (old: '.'),
    and no cell of the case reads other than its truth or '?'."""
    read, case = _read()
    assert clipped_channels(read.white) == 3
    assert case.grid[0][3] == "K"
    assert read.grid[0][3] in ("K", UNKNOWN)
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            assert read.grid[r][c] in (code, UNKNOWN) or case.visible[r][c] < 1.0


def test_empty_cells_showing_bare_board_still_read_empty() -> None:
    """The empty cells (4, 5) and (5, 5), whose printed lines show, still read empty."""
    read, case = _read()
    assert case.grid[4][5] == case.grid[5][5] == "."
    assert read.grid[4][5] == read.grid[5][5] == "."
