"""A dung beetle needs its black tile neutral (`hexapod_cells.decide`): the large window's dark
end must be neutral DARK / DIM over `min_black` of it, as the cast rule already asked. On a
hand's edge or under the shading beside a finger, a window of pale board fill (or a washed
moth) has a dark end of skin, labelled by its hue, not black ink; its brightness shape alone
(dark end, lighter middle) took it for the black tile with its grey beetle."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest

from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

# hard-band scenes: (seed, player, cell) a cell by a hand's edge that read 'K', and the truth
CASES = ((1774, 2, (4, 0)), (1420, 2, (0, 3)))


def _read(seed: int):
    params = replace(sample_params(seed, "hard", 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(seed, "hard", params=params)
    cv2.setNumThreads(1)
    return truth, HexapodReader(track=False, keep_still=False).read_full(image, 0.0, 0)


@pytest.mark.parametrize(("seed", "player", "cell"), CASES)
def test_skin_beside_a_hand_is_no_dung_beetle(seed, player, cell):
    """The cell (truth not a dung beetle) is not read 'K' (it reads its truth or '?'), and no
    cell of the scene's cases reads 'K' where no dung beetle lies."""
    truth, result = _read(seed)
    seen = {c.player: c.grid for c in result.observation.cases}
    want = next(c for c in truth.cases if c.player == player).grid
    assert want[cell[0]][cell[1]] != "K"
    assert seen[player][cell[0]][cell[1]] in (want[cell[0]][cell[1]], UNKNOWN)
    for case in truth.cases:
        if case.player in seen:
            for r, row in enumerate(case.grid):
                for c, code in enumerate(row):
                    assert seen[case.player][r][c] != "K" or code == "K", (case.player, r, c)

def test_a_dung_beetle_with_little_black_in_its_middle_is_still_read():
    """Hard scene 1938, player 1: the dung beetle at (4, 4) shows black over little of its small
    window (blurred) but over a quarter of its large one, neutral: it still reads 'K'."""
    truth, result = _read(1938)
    want = next(c for c in truth.cases if c.player == 1).grid
    assert want[4][4] == "K"
    seen = {c.player: c.grid for c in result.observation.cases}
    assert seen[1][4][4] == "K"
