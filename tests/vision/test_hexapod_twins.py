"""A Hexapod cell every rule leaves undecided, with no occluder's mask near it, takes the code of
the cell of its own case it looks like among those the windows or the printed lines decided, where
that cell names it plainly (`hexapod_twins.twin_codes`): one case, one print under one light and
one blur. Hard 629 left a dung beetle of player 1's case and a stag's wing cases of player 2's
undecided, hard 454 two empty cells of player 2's; they read now. Crafted feature rows check
each bound of the rule. (An empty cell is a twin only where the board's lines show all round
it: under a pale hand on a noisy sensor, held-out `hand` 67, cells under the hand read as
empty named four more of its cards empty. A tile painted in a kind's ink where hard 132's dung
beetle's black tile was, which the dung rules refuse, is not named a dung beetle by the dung
beetles those rules read: cells named by one cell's drawing or cast alone are no twins. That is
`test_hexapod_clipped_dung`'s painted-tile test, which failed when every decided cell was.)"""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_twins import TWIN_APART, TWIN_GAP, TWIN_NEAR, twin_codes
from companion.vision.hexapod_windows import N_LABELS
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case
from .hexapod_scenes import read_hard_case

U = 8       # the undecided code index


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (629, 1, ((3, 1),)),
    (629, 2, ((3, 0),)),
    (454, 2, ((4, 2), (4, 3))),
])
def test_undecided_cells_are_read_by_their_twins(seed, player, cells):
    read, case = read_hard_case(seed, player)
    for r, c in cells:
        assert case.visible[r][c] >= 1.0
        assert read.grid[r][c] == case.grid[r][c], (r, c, read.grid[r][c])
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            assert read.grid[r][c] in (code, UNKNOWN), (r, c, code, read.grid[r][c])


def test_cards_under_a_pale_hand_on_a_noisy_sensor_are_not_named_empty(exported):
    """Held-out `hand` 67 under Gaussian noise of 12 levels: cells under the pale hand read as
    empty (noise dips pass as lines; `test_hexapod_noisy_sleeve`'s noise), and with them as
    twins four more of the cards under it (B, Sb, G, G) read empty. They are twins no longer:
    those four read their own code or '?'."""
    scene = heldout_case(exported, 67, VARIANTS["hand"])
    truth = scene.boards[0].grid
    rng = np.random.default_rng(1066)
    noisy = np.clip(scene.image + rng.normal(0.0, 12.0, scene.image.shape), 0, 255)
    grid = HexapodReader(track=False).read(noisy.astype(np.uint8)).cases[0].grid
    cells = ((2, 5), (4, 4), (4, 5), (5, 4))
    assert [truth[r][c] for r, c in cells] == ["B", "Sb", "G", "G"]
    assert all(grid[r][c] in (truth[r][c], UNKNOWN) for r, c in cells), grid


def _rows(shares: list[float]) -> tuple[np.ndarray, ...]:
    """Feature rows (hs, hl, qs, ql, ts) for cells whose only difference is label 0's share
    in both windows (`shares`, one per cell): two cells differing by s lie 2 s apart."""
    n = len(shares)
    hs = np.zeros((n, N_LABELS))
    hs[:, 0] = shares
    return hs, hs.copy(), np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 4))


def _named(shares: list[float], code: list[int]) -> dict[int, int]:
    code = np.array(code)
    asked = np.flatnonzero(code == U)
    cells, named = twin_codes(code, U, asked, np.flatnonzero(code != U), *_rows(shares))
    return dict(zip(cells.tolist(), named.tolist(), strict=True))


def test_a_cell_near_one_code_and_far_from_the_rest_takes_it():
    assert _named([0.0, 0.2, 2.0], [U, 6, 7]) == {0: 6}


def test_nor_beyond_twin_near():
    d = TWIN_NEAR / 2 + 0.05          # 2 d apart, past TWIN_NEAR
    assert _named([0.0, d, 10.0], [U, 6, 7]) == {}


def test_nor_where_another_code_is_nearly_as_near():
    """The twin 0.8 away; the other code 0.1 short of TWIN_APART times that, though more than
    TWIN_GAP beyond it."""
    other = (TWIN_APART * 0.8 - 0.1) / 2
    assert 2 * other >= 0.8 + TWIN_GAP
    assert _named([0.0, 0.4, -other], [U, 6, 7]) == {}


def test_nor_where_the_gap_to_another_code_is_small():
    """Within TWIN_APART times a very near twin's distance, but short of TWIN_GAP beyond it."""
    assert _named([0.0, 0.01, -(TWIN_GAP / 2 - 0.1)], [U, 6, 7]) == {}


def test_two_twins_of_one_code_name_it():
    assert _named([0.0, 0.1, -0.1, 3.0], [U, 7, 7, 6]) == {0: 7}


def test_nothing_without_a_decided_cell():
    assert _named([0.0, 0.1], [U, U]) == {}
