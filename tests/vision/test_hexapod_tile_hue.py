"""A whole tile found off the grid whose insect shows no relief (`hexapod_cells.tile_hue`). Blur
or a washed-out print leaves a tile's dark insect body as light as the rest, so no stage names
the kind (each asks for the insect's relief, which tells a tile from a flat sleeve of its
colour); the tile's own outline (`tile_offsets`: its hue's region a tile's size, solid, ringed
by its card's paper) tells it as well, when the tile lies well inside the canvas (a sleeve
comes in from beyond the board, across the canvas's edge), its small window is the kind's hue
and ink and the band about the cell's centre is its hue. Crafted label canvases for the rule
itself; rendered hard cells for the reader."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_cells import TILE, tile_hue
from companion.vision.hexapod_colour import INK, KINDS, LIGHT, NK, PALE

from .hexapod_scenes import read_hard_case

PX, M, N = 24, 12, 6
SIDE = 2 * M + N * PX
BLUE = KINDS.index("B")


def _labels(row: int, col: int, shift: tuple[int, int], ink: float = 0.3) -> np.ndarray:
    """Board fill (LIGHT) with one blue tile centred `shift` px off cell (`row`, `col`): pale
    blue, its ink in stripes over `ink` of it (a washed-out print: no dark body)."""
    lab = np.full((SIDE, SIDE), LIGHT, np.uint8)
    cy = M + (row + 0.5) * PX + shift[1]
    cx = M + (col + 0.5) * PX + shift[0]
    half = TILE * PX / 2.0
    y0, y1 = round(cy - half), round(cy + half)
    x0, x1 = round(cx - half), round(cx + half)
    lab[max(y0, 0):y1, max(x0, 0):x1] = PALE + BLUE
    period = 10
    for x in range(max(x0, 0), x1):
        if (x - x0) % period < ink * period:
            lab[max(y0, 0):y1, x] = INK + BLUE
    return lab


def _hue(lab: np.ndarray, row: int, col: int, shift: tuple[int, int], k: int = BLUE) -> bool:
    return tile_hue(lab, PX, M, N, N, row * N + col, k, shift)


def test_a_washed_out_tile_off_the_grid_is_its_kind():
    """A blue tile a quarter cell off cell (2, 3), its ink showing, its insect flat: blue."""
    assert _hue(_labels(2, 3, (6, -4)), 2, 3, (6, -4))


def test_no_ink_no_kind():
    """Guard: the same tile all pale, no ink level anywhere (a pale sleeve of a kind's tint
    that a tile's outline happens to fit): not read."""
    assert not _hue(_labels(2, 3, (6, -4), ink=0.0), 2, 3, (6, -4))


def test_a_centre_off_the_tile_is_not_read():
    """Guard: the tile's centre 0.45 cell off: the band about the cell's centre lies half on
    the fill beyond the tile's edge."""
    shift = (round(0.45 * PX), 0)
    assert not _hue(_labels(2, 3, shift), 2, 3, shift)


def test_a_region_at_the_canvas_edge_is_not_read():
    """Guard: a blue region a tile's size half a cell outwards off the corner cell (0, 0), a
    pixel from the canvas's edge: what comes in from there is a sleeve's end, not a card (a
    card a third of a cell off ends 0.22 cell short of the edge); it also leaves the band about
    the cell's centre half uncovered."""
    shift = (-PX // 2, -PX // 2)
    lab = _labels(0, 0, shift)
    assert lab[1, 1] != LIGHT                            # a pixel from the edge
    assert not _hue(lab, 0, 0, shift)


def test_the_black_tile_is_not_read_by_hue():
    """Guard: the dung beetle's black tile is never named by this rule."""
    assert not _hue(_labels(2, 3, (6, -4)), 2, 3, (6, -4), k=NK)


@pytest.mark.parametrize(("seed", "player", "row", "col"), [(424, 1, 0, 5), (663, 2, 2, 2)])
def test_hard_washed_out_tiles_are_read(seed, player, row, col):
    """Hard seeds 424 (a blue tile under a blown lamp) and 663 (a blue tile blurred): the cell
    reads its kind, as the renderer laid it."""
    read, truth = read_hard_case(seed, player)
    assert truth.visible[row][col] >= 1.0
    assert read.grid[row][col] == truth.grid[row][col]
