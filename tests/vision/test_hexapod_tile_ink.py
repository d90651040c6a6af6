"""A kind `anchored` names at a card's tile off the grid must show its ink inside that tile
(`hexapod_cells.read_at`): the small window, centred on the tile found, lies well inside it, while
the large window may take in a strip of the card beneath beside the tile. Held-out lamp picture
267 (the white clipped in all three channels, a warm cast left on the board) read a dung beetle
at (1, 1) as red: its black tile reads dark brown and its grey beetle pink, the region of red's
hue they make with a strip of a red card peeking out below is a tile's size, and the large
window at that tile's centre counted the strip's ink."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_cells import read_at
from companion.vision.hexapod_colour import BODY, INK, KINDS, LIGHT, N_TINTS, PALE
from companion.vision.hexapod_windows import CODES, DEFAULT, UNKNOWN_CODE
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells
from .hexapod_scenes import PX, M, read_hard

R = KINDS.index("R")


def test_lamp_dung_beetle_not_read_as_the_card_beneath(exported):
    scene = heldout_case(exported, 267, VARIANTS["lamp"])
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert scene.grid[1][1] == "K"
    assert grid[1][1] in ("K", UNKNOWN)          # the old reader said "R"
    assert wrong_cells(grid, scene.grid) == []


def test_off_grid_tile_anchored_with_its_ink_is_read():
    # hard 462: player 1's yellow card at (1, 5) lies 7 px right and 4 px up of its cell; the
    # tile stage finds its tile and `anchored` names it there, its ink in the small window
    truth, obs = read_hard(462)
    case = next(c for c in obs.cases if c.player == 1)
    assert next(c for c in truth.cases if c.player == 1).grid[1][5] == "Y"
    assert case.grid[1][5] == "Y"


def _tile(ink_inside: bool) -> int:
    """`read_at` on a crafted canvas: cell (2, 2) a tile of red's hue at body level with a pale
    middle (a dung beetle under a warm cast: its black tile and grey beetle), a strip of red ink
    along the foot of the large window, and (`ink_inside`) ink about the middle as well."""
    size = 6 * PX + 2 * M
    labels = np.full((size, size), LIGHT, np.uint8)
    v = np.full((size, size), 0.9, np.float32)
    y0 = x0 = M + 2 * PX
    labels[y0:y0 + PX, x0:x0 + PX] = BODY + R
    v[y0:y0 + PX, x0:x0 + PX] = 0.3
    c = PX // 2
    labels[y0 + c - 4:y0 + c + 4, x0 + c - 4:x0 + c + 4] = PALE + R
    v[y0 + c - 4:y0 + c + 4, x0 + c - 4:x0 + c + 4] = 0.8
    half = round(DEFAULT.large * PX) // 2
    labels[y0 + c + half - 1, x0 + c - half:x0 + c + half] = INK + R     # the card beneath
    if ink_inside:
        labels[y0 + c - 5, x0 + c - 4:x0 + c + 4] = INK + R
    tints = np.zeros((size, size), np.uint8) + N_TINTS - 1
    canvas = np.full((size, size, 3), 200.0, np.float32)
    white = np.full(3, 250.0, np.float32)
    return read_at(labels, v, tints, canvas, white, PX, M, 6, 6, 2 * 6 + 2, (0, 0))


def test_read_at_needs_the_kinds_ink_inside_the_tile():
    assert _tile(ink_inside=False) == UNKNOWN_CODE      # the old reader said "R"
    assert CODES[_tile(ink_inside=True)] == "R"
