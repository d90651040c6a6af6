"""Dark grey cloth running in from beyond the board is no dung beetle's black tile
(`hexapod_occluders.black_from_beyond`), its neutral grey now measured on the canvas smoothed
over a fifth of a cell. In a dark picture the sensor's noise and JPEG speckle tint single
pixels past `CLOTH_TINT`; the opening then broke a flat sleeve's band into pieces that no
longer reached the canvas's edge, and the end of the sleeve over the board, with a strip of
lit cards beside it, read as a black tile with its grey beetle. Rendered hard scenes carry
their own truth: 1314 (a dark grey sleeve over player 1's lower rows) and 1785 (player 2's
board in deep shade beside a glare streak, its top-left cells bare)."""

from __future__ import annotations

import pytest

from companion.vision.observation import UNKNOWN

from .hexapod_scenes import read_hard

# (seed, player, cell): a cell that is no dung beetle and read 'K' before
CASES = ((1314, 1, (5, 2)), (1785, 2, (0, 0)))


def _read(seed: int, player: int):
    truth, obs = read_hard(seed)
    seen = {c.player: c.grid for c in obs.cases}
    return truth, seen, next(c for c in truth.cases if c.player == player).grid


@pytest.mark.parametrize(("seed", "player", "cell"), CASES)
def test_dark_grey_from_beyond_the_board_is_no_dung_beetle(seed, player, cell):
    """The cell (truth not a dung beetle) is not read 'K': its truth or '?'."""
    _, seen, want = _read(seed, player)
    r, c = cell
    assert want[r][c] != "K"
    assert seen[player][r][c] in (want[r][c], UNKNOWN)


def test_no_cell_under_the_sleeve_reads_as_a_dung_beetle():
    """Scene 1314: no cell of either case reads 'K' where no dung beetle lies."""
    truth, seen, _ = _read(1314, 1)
    for case in truth.cases:
        if case.player in seen:
            for i, row in enumerate(case.grid):
                for j, code in enumerate(row):
                    assert seen[case.player][i][j] != "K" or code == "K", (case.player, i, j)
