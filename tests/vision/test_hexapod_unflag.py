"""Hexapod cells that light or skin tone made the reader flag wrongly: a board whose quiet zones
clipped in all three channels (the light's colour unknown, so warm paper looked like skin and the
cells '?'), paper whose clipped channels turned it a false tint (it read '?'), and a dark hand
too saturated for the skin range (not masked, so only luck kept the cells under it '?').
Crafted canvases are built here pixel by pixel; rendered scenes carry their own truth (the layout
the renderer drew)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import hexapod_colour as hcol

from .test_hexapod_reader import _read_cells

PX, M = 24, 12   # canvas px per cell and margin, as the reader resamples
FILL = 0.9       # board fill, as a share of the white


def _board(white: tuple[float, float, float]) -> np.ndarray:
    """A rectified case canvas (BGR float32) of board fill under a light of colour `white`."""
    return np.full((7 * PX, 7 * PX, 3), FILL, np.float32) * np.array(white, np.float32)


def _labels(canvas: np.ndarray, white: tuple[float, float, float]) -> tuple[hcol.Pixels,
                                                                             np.ndarray]:
    pix = hcol.Pixels.of(hcol.normalise(canvas, np.array(white, np.float32), PX))
    return pix, hcol.label_pixels(pix, PX)


def test_paper_clipped_in_its_two_brightest_channels_reads_as_paper():
    # a warm light (the quiet zones unclipped) and a patch of the same paper lit a third more
    # (a lamp's hot spot): green and red clip, blue does not. Read as is, the clipped channels
    # fall short of blue and the paper turns a cool tint; any value at or above the clip is
    # possible there, and the paper's own grey is one of them
    white = (150.0, 200.0, 230.0)
    canvas = _board(white)
    canvas[3 * PX:5 * PX, 3 * PX:5 * PX] = (200.0, 255.0, 255.0)
    pix, labels = _labels(canvas, white)
    patch = labels[3 * PX + 2:5 * PX - 2, 3 * PX + 2:5 * PX - 2]
    assert (patch == hcol.LIGHT).mean() > 0.95
    assert float(pix.sat[3 * PX + 2:5 * PX - 2, 3 * PX + 2:5 * PX - 2].max()) < 0.05


def test_a_tile_whose_brightest_channel_clips_keeps_its_colour():
    # red ink clipped in red under the same light: its clipped channel is already the
    # brightest, so no grey is consistent with it and it stays red ink
    white = (150.0, 200.0, 230.0)
    canvas = _board(white)
    canvas[3 * PX + 1:4 * PX - 1, 3 * PX + 1:4 * PX - 1] = (30.0, 40.0, 255.0)
    _, labels = _labels(canvas, white)
    tile = labels[3 * PX + 4:4 * PX - 4, 3 * PX + 4:4 * PX - 4]
    assert (tile == hcol.INK + hcol.KINDS.index("R")).mean() > 0.95


def _hand_cells(colour: tuple[float, float, float], cells: list[tuple[int, int]],
                gutter: int = 0) -> np.ndarray:
    """The occluder mask's share of each cell when `colour` (BGR) covers `cells` of a board
    under white light (each cell but a `gutter` px rim of board fill, if given)."""
    white = (255.0, 255.0, 255.0)
    canvas = _board(white)
    g = gutter
    for r, c in cells:
        canvas[M + r * PX + g:M + (r + 1) * PX - g, M + c * PX + g:M + (c + 1) * PX - g] = colour
    pix, labels = _labels(canvas, white)
    mask = hcol.occluder_mask(pix, labels, PX, margin=M)
    return np.array([[mask[M + r * PX:M + (r + 1) * PX, M + c * PX:M + (c + 1) * PX].mean()
                      for c in range(6)] for r in range(6)])


PALM = [(r, c) for r in range(1, 4) for c in range(1, 4)]


def test_a_dark_brown_hand_is_an_occluder():
    # deep brown skin (hue about 16 degrees, saturation 0.75): more saturated than the light
    # skin range, and no ink's hue
    brown = (30.0, 55.0, 120.0)
    hue = hcol.hue_deg(np.array(brown[::-1]))
    assert 13.3 < hue < 32.5
    cover = _hand_cells(brown, PALM)
    assert all(cover[r, c] > 0.9 for r, c in PALM)
    assert cover[5, 5] == 0.0


@pytest.mark.parametrize("colour", [(44.0, 38.0, 216.0), (0.0, 186.0, 246.0)])
def test_red_or_gold_ink_over_a_palm_is_not_skin(colour):
    # tiles of red and gold ink (paper gutters between them) as saturated as that skin, over
    # as many cells, are the cards' colours
    assert float(_hand_cells(colour, PALM, gutter=1).max()) == 0.0


def test_a_small_patch_of_deep_brown_is_not_a_hand():
    # a brown smaller than a palm (a wooden token, a tile drifted under a cast) masks nothing
    assert float(_hand_cells((30.0, 55.0, 120.0), [(2, 2), (2, 3)]).max()) == 0.0


@pytest.mark.parametrize(("seed", "player", "cells"), [(29, 1, [(0, 5)]), (52, 1, [(0, 2)])])
def test_an_empty_cell_under_clipped_light_reads_empty(seed, player, cells):
    """Hard seeds 29 and 52: bright paper clipped in green and red under a warm light read a
    pale cool tint (OTHER and pale teal labels), so the empty cell was '?'; read as the grey
    its clipping allows, it is light board fill."""
    _read_cells(seed, player, cells)


def test_a_white_clipped_in_every_channel_takes_its_colour_from_a_dim_quiet_zone():
    # three markers' quiet zones clip; the fourth lies in dimmer light and shows the same
    # paper unclipped: a warm light (blue 0.58, green 0.76 of red). The white is that colour,
    # as bright as the clipped readings require: blue at least 251 sets it (251 / 0.58)
    clipped = np.tile(np.array([[251.0, 255.0, 255.0]], np.float32), (120, 1))
    dim = np.tile(np.array([[127.0, 167.0, 219.0]], np.float32), (40, 1))
    white = hcol._dim_quiet_white(np.vstack([clipped, dim]), np.array([251, 255, 255], np.float32))
    assert white[0] == pytest.approx(251.0, abs=0.5)
    assert white[1] / white[2] == pytest.approx(167.0 / 219.0, rel=1e-3)
    assert white[2] == pytest.approx(219.0 * 251.0 / 127.0, rel=1e-3)
    # with too few unclipped samples (a few pixels of the marker's own border) nothing is known
    few = np.vstack([clipped, dim[:8]])
    assert hcol._dim_quiet_white(few, np.array([251, 255, 255], np.float32)).tolist() == \
        [251.0, 255.0, 255.0]


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (78, 2, [(0, 0), (0, 2), (2, 2), (3, 3), (4, 0), (4, 3), (5, 0)]),
    (353, 1, [(0, 3), (2, 1), (3, 4), (4, 1), (5, 5)])])
def test_a_board_in_light_that_clips_its_quiet_zones_reads(seed, player, cells):
    """Hard seeds 78 and 353: over-exposed warm light with a gradient clips the quiet zones in
    all three channels, so the white looked neutral while unclipped paper and fill showed the
    light's warmth, were taken for skin and hid most of the board ('?'). A marker in the dimmer
    part of the light gives the white's colour, and the cells read."""
    _read_cells(seed, player, cells)

