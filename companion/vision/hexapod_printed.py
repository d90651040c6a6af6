"""A one-cell beetle whose print turned its colour out of its kind's hue range: named by its
drawing and the nearest ink. An office printer's inks are paler than ours and turned: its blue
beetle prints halfway to the stag's violet, its green towards gold, its red towards orange.
The colour labels then leave the cell undecided, while the beetle and its kind still show
plainly: the drawing says what lies there (a coloured one-cell beetle, not the dung beetle,
the stag or the moth, whose drawings differ), and among the four coloured beetles, which in
grey look alike, the tile's hue says which, by the ink nearest to it. A cell is named so where
the best of the four beetles' drawings (`hexapod_drawings.matches`) matches it by FAMILY_MATCH
and by FAMILY_MARGIN more than every other drawing (the dung beetle's, the stag's and the
moth's halves), and the mean hue of its small window's coloured pixels lies within HUE_NEAR of
one coloured beetle's ink hue (the design's, or the print's learned from the colour chart) and
HUE_APART nearer to it than to any other's. The stag's violet and the moth's teal are not among
the candidates: their drawings rule them out first."""

from __future__ import annotations

import numpy as np

from .hexapod_colour import INK_HUES, KINDS, Pixels
from .hexapod_drawings import BEETLES, every_drawing, matches
from .hexapod_windows import cell_windows

COLOURED = ("B", "G", "R", "Y")     # the one-cell beetles printed in a kind's colour
# Set on every cell in full view of hard 0-699 (27 749) and held-out `printed` 0-99 (3600),
# the rule applied to all of them with the hue as HSV's: it named 8098 and 1293 cells, every
# one its own code. As the reader applies it (to the cells left undecided), it reads no cell
# wrong on hard 0-2299, on 21 held-out variants (0-99), nor on `printed` and `office-lowlight`
# 6100-6399 (see the release notes).
FAMILY_MATCH = 0.6
FAMILY_MARGIN = 0.1
HUE_NEAR = 40.0       # degrees (the opponent plane's hue, as the labels')
HUE_APART = 30.0
HUED_CHROMA = 0.15    # a pixel is coloured at this chroma (largest less least channel) or more
HUED_V = 0.25         # and this brightness (white paper = 1)
HUED_SHARE = 0.2      # of the small window at least


def coloured_drawn(canvas: np.ndarray, px: int, margin: int, cols: int, cells: np.ndarray
                   ) -> np.ndarray:
    """Which of `cells` (flat indices, `cols` to a row) show a coloured one-cell beetle's
    drawing on a case's `canvas` (BGR, `px` per cell after `margin` px): see FAMILY_MATCH."""
    shown = every_drawing(px)
    family = [BEETLES.index(code) for code in COLOURED]
    out = np.zeros(len(cells), bool)
    for k, i in enumerate(np.asarray(cells).tolist()):
        got = matches(canvas, px, margin, divmod(int(i), cols), shown)
        if got is None:
            continue
        best = max(got[j] for j in family)
        rest = max(score for j, score in enumerate(got) if j not in family)
        out[k] = best >= FAMILY_MATCH and best - rest >= FAMILY_MARGIN
    return out


def nearest_ink(pix: Pixels, px: int, margin: int, rows: int, cols: int, cells: np.ndarray,
                size: int, hues: tuple[float, ...] | None = None) -> np.ndarray:
    """For each of `cells`, the kind index (into `KINDS`) of the coloured one-cell beetle whose
    ink hue (`hues`, the kinds' in `KINDS` order; None: the design's) lies nearest the mean hue
    of the coloured pixels of its window of side `size` (HUED_CHROMA, HUED_V, over HUED_SHARE of
    it), within HUE_NEAR and HUE_APART nearer than any other's; -1 where none does."""
    out = np.full(len(cells), -1, np.int64)
    if not len(cells):
        return out
    centre = np.asarray(INK_HUES if hues is None else hues, np.float64)
    kinds = np.array([KINDS.index(code) for code in COLOURED])
    c = cell_windows(pix.c, px, margin, rows, cols, size, cells=cells)
    v = cell_windows(pix.v, px, margin, rows, cols, size, cells=cells)
    ang = np.radians(cell_windows(pix.hue, px, margin, rows, cols, size, cells=cells)
                     .astype(np.float64) * 360.0 / 256.0)
    hued = (c >= HUED_CHROMA) & (v >= HUED_V)
    n = hued.sum(axis=1)
    mean = np.degrees(np.arctan2((np.sin(ang) * hued).sum(axis=1),
                                 (np.cos(ang) * hued).sum(axis=1)))
    d = np.abs((mean[:, None] - centre[kinds][None, :] + 180.0) % 360.0 - 180.0)
    order = np.sort(d, axis=1)
    ok = (n >= HUED_SHARE * c.shape[1]) & (order[:, 0] <= HUE_NEAR) & \
        (order[:, 1] - order[:, 0] >= HUE_APART)
    out[ok] = kinds[d[ok].argmin(axis=1)]
    return out


__all__ = ["COLOURED", "coloured_drawn", "nearest_ink"]
