"""Empty cells beside a card under a white clipped in all three channels
(`hexapod_cover.blown_unlined_empty`). Rendered hard scene 405 (exposure 1.31: paper and board
fill clip, the printed lines wash out): player 2's empty cells (1, 3), (3, 1) and (4, 1) lie
beside cards whose cut border reaches the edge of their large window; the old reader took that
dark strip for a tile's black and read them '?'. A card on the cell covers its middle, and a dung
beetle's black tile shows within the middle 0.6 cell however the card lies, so unlit pixels in
the large window's outer ring only, with no occluder near, leave the cell read empty. Scene 541's
grey beetle a quarter cell off (`test_hexapod_blown_empty`) still reads '?'."""

from __future__ import annotations

import numpy as np

from companion.vision import hexapod_colour as hcolour
from companion.vision import hexapod_cover as hcover
from companion.vision.hexapod_colour import clipped_channels
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import read_hard_case


def test_empty_cells_beside_a_card_border_read_empty() -> None:
    """The three empty cells read '.' (old: '?'), and no cell of the case reads other than its
    truth or '?'."""
    read, case = read_hard_case(405, 2)
    assert clipped_channels(read.white) == 3
    for r, c in ((1, 3), (3, 1), (4, 1)):
        assert case.grid[r][c] == "."
        assert read.grid[r][c] == "."
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            assert read.grid[r][c] in (code, UNKNOWN) or case.visible[r][c] < 1.0


def _blown_case(unlit_at: tuple[slice, slice], near: np.ndarray | None = None) -> np.ndarray:
    """`blown_unlined_empty` on one crafted cell (the middle one of a 3 x 3 grid at 24 px a
    cell) of clipped fill, unlit where `unlit_at` says (canvas rows, columns), no lines."""
    px, m, n = 24, 12, 3
    size = n * px + 2 * m
    v = np.ones((size, size), np.float32)
    v[unlit_at] = 0.1
    blown = (v > 0.5).view(np.uint8)
    pix = hcolour.Pixels(v, np.zeros_like(v), np.zeros_like(v), np.zeros(v.shape, np.uint8))
    grey = np.full((size, size), 3.0, np.float32)
    return hcover.blown_unlined_empty(np.array([4]), blown, lambda: grey, pix, px, m, n, n,
                                      near=near)


def test_a_border_in_the_outer_ring_only_is_released() -> None:
    """A dark strip along the large window's side (a neighbour's border) releases the cell; the
    same strip reaching into the middle 0.6 cell (a tile's black) keeps it '?'; an occluder
    near keeps it '?' too."""
    px, m = 24, 12
    x0 = m + px + round(0.1 * px)       # the large window's left side
    ring = (slice(m + px, m + 2 * px), slice(x0, x0 + 3))
    assert len(_blown_case(ring)) == 0
    deep = (slice(m + px, m + 2 * px), slice(x0, x0 + 7))
    assert list(_blown_case(deep)) == [4]
    near = np.zeros(9, bool)
    near[4] = True
    assert list(_blown_case(ring, near)) == [4]
