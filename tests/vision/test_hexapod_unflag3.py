"""Hexapod cells masked as under a hand when no hand was there: under a white clipped in two
channels the skin-like regions are not opened (a lit hand's shaded rim is a thin line), so the
thin warm lines within the board (card outlines, grid lines, the pale blend of a red tile's
edge with the paper) joined into one region taken for a hand, and closing spread it over the
tiles between them. A rim is kept now only where it runs into the canvas's outer edge (an arm
comes from beyond the board) or holds a region big once opened. Crafted canvases are built here
pixel by pixel; rendered scenes carry their own truth (the layout the renderer drew)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import hexapod_colour as hcol

from .test_hexapod_reader import _read_cells
from .test_hexapod_white import PX, WARM_WHITE, M, _cover

RED_INK = (40.0, 40.0, 215.0)
PALE_EDGE = (130.0, 160.0, 235.0)       # BGR: red ink blurred into the paper, pale and warm
SKIN = (140.0, 185.0, 235.0)


def _outlined_tiles() -> np.ndarray:
    """A warm-clipped case canvas with a 4 x 4 block of red tiles (rows and columns 1-4), each
    ringed by a 1 px line of their ink blended with the paper: the rings of neighbouring tiles
    touch, one thin region of skin-like colour about 2.5 cells' area that no 3 x 3 opening
    leaves anything of."""
    canvas = np.full((7 * PX, 7 * PX, 3), WARM_WHITE, np.float32)
    for r in range(1, 5):
        for c in range(1, 5):
            y, x = M + r * PX, M + c * PX
            canvas[y:y + PX, x:x + PX] = PALE_EDGE
            canvas[y + 1:y + PX - 1, x + 1:x + PX - 1] = RED_INK
    return canvas


def test_thin_pale_edges_of_red_tiles_are_not_a_hand():
    # nothing but printed tiles on the board: their pale rims joined into one thin region, as
    # big as a hand, but within the board (a tile lies half a cell from the canvas's edge)
    canvas = _outlined_tiles()
    pix = hcol.Pixels.of(hcol.normalise(canvas, np.array(WARM_WHITE, np.float32), PX))
    rims = (pix.sat >= 0.15) & (pix.hue <= round(45.0 * hcol.HUE_BINS / 360.0))
    assert rims.sum() >= 1.5 * PX * PX          # big enough to be taken for a hand
    assert float(_cover(canvas, inset=0).max()) == 0.0


def _lit_arm(canvas: np.ndarray) -> None:
    """Paints on `canvas` a lit arm three cells wide that comes in over the left edge across
    rows 1-3 to column 5: only a 3 px shaded rim along its sides and fingertips keeps skin's
    hue, its middle clips like the paper, and noise notches the rim every 5 px, so that opening
    would break it into specks."""
    y0, y1, x1 = M + PX, M + 4 * PX, M + 6 * PX
    canvas[y0:y0 + 3, :x1] = SKIN
    canvas[y1 - 3:y1, :x1] = SKIN
    canvas[y0:y1, x1 - 3:x1] = SKIN
    canvas[y0 + 1, 2:x1 - 3:5] = WARM_WHITE
    canvas[y1 - 2, 2:x1 - 3:5] = WARM_WHITE
    canvas[y0 + 3:y1 - 3:5, x1 - 2] = WARM_WHITE


def test_a_lit_arm_over_a_wooden_table_is_still_covered():
    # the same arm, the table beyond the board's left side a warm wood that fills that margin:
    # the margin is cleared as the table, so the rim is cut off at its inner line, which counts
    # as where the arm comes from
    canvas = np.full((7 * PX, 7 * PX, 3), WARM_WHITE, np.float32)
    canvas[:, :M] = (90.0, 140.0, 200.0)
    _lit_arm(canvas)
    cover = _cover(canvas, inset=0)
    assert cover[1:4, 0:6].min() > 0.9, cover


def test_a_lit_arms_thin_rim_from_the_canvas_edge_still_covers_it():
    # the rim is as thin as the tiles' edges, but it runs into the canvas's edge
    canvas = np.full((7 * PX, 7 * PX, 3), WARM_WHITE, np.float32)
    _lit_arm(canvas)
    cover = _cover(canvas, inset=0)
    assert cover[1:4, 0:6].min() > 0.9, cover


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (264, 1, [(1, 0), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (4, 0), (4, 1), (5, 0)]),
    (228, 2, [(2, 0), (3, 0), (4, 0), (4, 2), (4, 3), (4, 4), (5, 0), (5, 1), (5, 2)])])
def test_cells_between_tile_outlines_under_a_clipped_white_are_read(seed, player, cells):
    """Hard seeds 264 and 228: a warm lamp clips the paper in two channels and no hand is in
    the picture; the outlines of red and dung tiles and of cards joined into one thin region
    taken for a lit hand's rim, and the cells it spanned read '?'. They read as laid."""
    _read_cells(seed, player, cells)
