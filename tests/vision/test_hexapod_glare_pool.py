"""A pool of the lamp's specular glare over the Hexapod cards: the card under its core is washed
out to something as pale and flat as board fill, and the cards about it have their dark print
lifted towards the clip (under a white clipped in one channel, shifted in hue too). Rendered hard
tables whose truth the renderer gives: the cells there read '?' or their own code, never empty
or another kind; a crafted canvas checks that a whole board over-exposed (its print's dark
structure kept) doubts nothing while the same board under a glare pool doubts the cells there."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_cover import glare_pool
from companion.vision.hexapod_windows import CODES, EMPTY_CODE

from .hexapod_scenes import (
    PX,
    M,
    assert_no_wrong_code,
    read_hard,
    read_hard_case,
    visible_read_right,
)


@pytest.mark.parametrize("seed, player, cells", [
    (908, 1, [(3, 2)]),            # a stag's lower half under the core, on a blown board
    (781, 1, [(5, 2)]),            # a blue beetle under the core, a light line along one side
    (1168, 2, [(2, 3)]),           # a dung beetle under the core, on a blown board
    (772, 1, [(2, 1), (3, 2)]),    # green beetles beside the core, white clipped in red
])
def test_cards_under_a_glare_pool_are_never_read_empty_or_another_kind(seed, player, cells):
    """Each listed cell holds a card (the renderer's truth) that the glare washes out or shifts
    in hue; it reads '?' or its code, no cell of the scene reads wrong, and the case keeps
    most of its cells in full view read."""
    truth, obs = read_hard(seed)
    assert_no_wrong_code(truth, obs)
    read, case = read_hard_case(seed, player)
    for r, c in cells:
        assert case.grid[r][c] != "."
        assert read.grid[r][c] in (case.grid[r][c], "?")
    assert visible_read_right(case, read) >= 24


def _board(glare: float, exposure: float) -> tuple[np.ndarray, np.ndarray]:
    """A crafted 6 x 6 canvas (`PX` px a cell, `M` margin; BGR float32, white 255): board fill
    at 0.89 of the white on the left three columns, cards on the right three (a saturated
    green tile, a dark body in its middle, a paper gutter round it), a card in column 2 of row
    2 too; scaled by `exposure` and clipped, with an additive round glare of peak `glare`
    (share of the white) centred on cell (2, 2)'s centre, two cells across. And the flat
    code grid as the reader would have it if the washed card read as fill."""
    n = 6 * PX + 2 * M
    img = np.full((n, n, 3), 0.89 * 255, np.float32)
    code = np.full(36, EMPTY_CODE)
    green = CODES.index("G")
    for r in range(6):
        for c in range(6):
            if c < 3 and (r, c) != (2, 2):
                continue
            y, x = M + r * PX, M + c * PX
            img[y:y + PX, x:x + PX] = 255.0                       # paper
            img[y + 2:y + PX - 2, x + 2:x + PX - 2] = (40, 170, 30)  # green tile
            img[y + 8:y + PX - 8, x + 9:x + PX - 9] = (15, 40, 10)  # dark body
            code[r * 6 + c] = green
    code[2 * 6 + 2] = EMPTY_CODE       # the washed card read as fill
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    cy = cx = M + 2.5 * PX
    pool = glare * 255 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * (0.9 * PX) ** 2))
    img = np.clip(img * exposure + pool[..., None], 0, 255)
    return img, code


def test_a_glare_pool_doubts_the_washed_cell_and_an_over_exposed_board_nothing():
    """Under a glare pool on (2, 2) the washed card there, read empty, is '?' and the fill
    diagonal to the lifted cards beside it, on their far side from the core, is not; the same
    board over-exposed 1.3 times with no glare (fill and paper clipped, the print's dark
    structure kept) doubts no cell."""
    white = np.full(3, 255.0, np.float32)
    large = round(0.8 * PX)
    img, code = _board(0.9, 1.0)
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    got = set(glare_pool(code, planes, white, PX, M, 6, 6, large).tolist())
    assert 2 * 6 + 2 in got
    assert all(code[i] == EMPTY_CODE for i in got)
    # fill diagonal to the lifted cards beside the core, on their far side from it
    assert not got & {0 * 6 + 2, 4 * 6 + 2}
    img, code = _board(0.0, 1.3)
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    assert len(glare_pool(code, planes, white, PX, M, 6, 6, large)) == 0
