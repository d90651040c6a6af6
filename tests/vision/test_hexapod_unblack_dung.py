"""A streak of the lamp's glare over board fill in a deep shadow reads as a dung beetle: the
shaded fill as dark as its black tile, the streak as light as its grey beetle. Black ink lies far
below the fill lit alike, so a cell read as a dung beetle whose darkest tenth is half the middle
of the empty cells beside it or more is '?' (`hexapod_occluders.unblack_dung`). A rendered hard
table whose truth the renderer gives (hard 1785: a deep shadow and a glare streak over the fill
of player 2's case), and a crafted canvas: a printed dung beetle beside fill keeps its reading lit
alike, in a shadow with the fill, or lit beside fill under a shadow's edge."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod_occluders import unblack_dung
from companion.vision.hexapod_windows import CODES, EMPTY_CODE, K_CODE
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, read_hard_case


def test_a_glare_streak_over_shaded_fill_is_not_read_as_a_dung_beetle():
    """Hard 1785, player 2: cell (0, 1) is empty board in full view (the renderer's truth),
    in a deep shadow with a glare streak over part of it; it reads '.' or '?' (before: 'K'),
    and no cell of the case reads another code than its own."""
    read, case = read_hard_case(1785, 2)
    assert case.grid[0][1] == "." and case.visible[0][1] >= 1.0
    assert read.grid[0][1] in (".", UNKNOWN)
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            assert read.grid[r][c] in (code, UNKNOWN), (r, c, code, read.grid[r][c])


def _canvas(fill: float, cell: np.ndarray, shade: float = 1.0) -> np.ndarray:
    """A crafted canvas (`PX` px a cell, `M` margin) of one channel, the largest: board fill
    at `fill` everywhere, times `shade` on every cell but (2, 2), and `cell` (PX x PX) pasted
    over cell (2, 2)."""
    n = 6 * PX + 2 * M
    out = np.full((n, n), fill * shade, np.float32)
    y = x = M + 2 * PX
    out[y - PX // 2:y + 3 * PX // 2, x - PX // 2:x + 3 * PX // 2] = fill
    out[y:y + PX, x:x + PX] = cell
    return out


def _dung(black: float, grey: float, paper: float) -> np.ndarray:
    """A printed dung beetle cell: its paper gutter, its black tile, its grey beetle."""
    cell = np.full((PX, PX), paper, np.float32)
    cell[2:-2, 2:-2] = black
    cell[7:-7, 8:-8] = grey
    return cell


def _code() -> np.ndarray:
    code = np.full(36, EMPTY_CODE)
    code[2 * 6 + 2] = K_CODE
    code[0] = CODES.index("G")
    return code


def _doubted(raw_v: np.ndarray) -> set[int]:
    return set(unblack_dung(_code(), raw_v, PX, M, 6, 6, round(0.45 * PX),
                            round(0.8 * PX)).tolist())


def test_a_printed_dung_beetle_keeps_its_reading_and_glare_on_shaded_fill_does_not():
    """A dung beetle printed black (a tenth of the paper) beside fill (0.89 of it) lit alike,
    the whole board in a deep shadow (a quarter of the light), or lit beside fill under a
    shadow's edge (0.45 of the light) is kept; fill in a deep shadow with a glare streak as
    light as the paper across its middle, read as a dung beetle, is doubted."""
    assert _doubted(_canvas(0.89 * 200, _dung(20.0, 120.0, 200.0))) == set()
    assert _doubted(_canvas(0.89 * 50, _dung(5.0, 30.0, 50.0))) == set()
    assert _doubted(_canvas(0.89 * 200, _dung(20.0, 120.0, 200.0), shade=0.45)) == set()
    streak = np.full((PX, PX), 0.89 * 50, np.float32)
    streak[:, 6:12] = 200.0
    assert _doubted(_canvas(0.89 * 50, streak)) == {2 * 6 + 2}
