"""A kind's hue smeared over a neutral tile is no tile of that kind (`hexapod_cells.smeared_hue`).
Never-seen hard 2982: heavy motion blur under a warm lamp smears a red neighbour's ink over a
dung beetle's black tile and grey beetle at (3, 4) of player 1's case; the labels took its middle
for red's pale and dark body levels, its hue a third as saturated as the red ink beside it, and
it read 'R'. Now '?'."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_cells import SMEAR_INK, SMEAR_SAT, smeared_hue
from companion.vision.hexapod_colour import BODY, INK, KINDS, LIGHT, PALE
from companion.vision.hexapod_windows import CODES, DEFAULT, EMPTY_CODE, K_CODE, cell_histograms
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, read_hard_case

R = KINDS.index("R")
N = 6 * PX + 2 * M
SMALL, LARGE = round(DEFAULT.small * PX), round(DEFAULT.large * PX)


def test_a_dung_beetle_under_a_red_smear_is_unknown():
    """Hard 2982, player 1: (3, 4) is a dung beetle, read 'R' before; now '?' by this rule, and
    no fully visible cell of the case reads other than its truth or '?'."""
    read, case = read_hard_case(2982, 1)
    assert case.grid[3][4] == "K" and case.visible[3][4] >= 1.0
    assert read.grid[3][4] == UNKNOWN and read.why[3][4] == "smeared_hue"
    assert [(i, j) for i, row in enumerate(case.grid) for j, want in enumerate(row)
            if case.visible[i][j] >= 1.0 and read.grid[i][j] not in (want, UNKNOWN)] == []


def _cell(mid_sat: float, ink_sat: float = 0.85, mid_ink: int = 0, side_ink: bool = True,
          mid_label: int = PALE + R) -> np.ndarray:
    """The flat indices `smeared_hue` returns for cell (2, 2) read red on a crafted canvas: its
    middle (the small window) labelled `mid_label` (with a dark body-level core) at saturation
    `mid_sat`, `mid_ink` of its rows red ink at `ink_sat`, and (with `side_ink`) a neighbour's
    red ink at `ink_sat` over the lower fifth of its large window; board fill elsewhere."""
    labels = np.full((N, N), LIGHT, np.uint8)
    sat = np.full((N, N), 0.03, np.float32)
    cy = cx = M + 2 * PX + PX // 2
    h = SMALL // 2
    labels[cy - h:cy + h + 1, cx - h:cx + h + 1] = mid_label
    sat[cy - h:cy + h + 1, cx - h:cx + h + 1] = mid_sat
    labels[cy - 2:cy + 3, cx - 2:cx + 3] = BODY + R
    if mid_ink:
        labels[cy - h:cy - h + mid_ink, cx - h:cx + h + 1] = INK + R
        sat[cy - h:cy - h + mid_ink, cx - h:cx + h + 1] = ink_sat
    if side_ink:
        lh = LARGE // 2
        labels[cy + lh - 3:cy + lh + 1, cx - lh:cx + lh + 1] = INK + R
        sat[cy + lh - 3:cy + lh + 1, cx - lh:cx + lh + 1] = ink_sat
    code = np.full(36, EMPTY_CODE)
    code[2 * 6 + 2] = CODES.index("R")
    hs = cell_histograms(labels, PX, M, 6, 6, SMALL)
    return smeared_hue(code, labels, sat, hs, PX, M, 6, 6, SMALL, LARGE)


def test_a_middle_less_than_half_as_saturated_as_the_ink_beside_it_is_unknown():
    """A red-hued middle with no red ink in it, a third as saturated as the red ink reaching the
    large window from one side: '?'."""
    assert list(_cell(0.3)) == [14]
    assert list(_cell(0.3, mid_label=BODY + R)) == [14]


@pytest.mark.parametrize("kwargs", [
    {"mid_sat": 0.5},                        # the tile's own middle, over half the ink's
    {"mid_sat": 0.3, "ink_sat": 0.55},       # a pale print's ink: the middle over half of it
    {"mid_sat": 0.3, "mid_ink": 3},          # the kind's ink shows in the middle
    {"mid_sat": 0.3, "side_ink": False},     # no ink to measure the middle against
])
def test_a_tile_s_own_middle_is_kept(kwargs):
    """A middle at over `SMEAR_SAT` of its ink's saturation, one that shows the kind's ink over
    `SMEAR_INK` of it or more, or one with no ink of its kind about it, is left as read."""
    assert 3 / SMALL >= SMEAR_INK and SMEAR_SAT * 0.85 <= 0.5 and SMEAR_SAT * 0.55 <= 0.3
    assert list(_cell(**kwargs)) == []


def test_only_kinds_are_judged():
    """A cell read as a dung beetle or empty is not the rule's to judge."""
    labels = np.full((N, N), PALE + R, np.uint8)
    labels[:, :4] = INK + R
    sat = np.full((N, N), 0.3, np.float32)
    code = np.full(36, EMPTY_CODE)
    code[0] = K_CODE
    hs = cell_histograms(labels, PX, M, 6, 6, SMALL)
    assert list(smeared_hue(code, labels, sat, hs, PX, M, 6, 6, SMALL, LARGE)) == []
