"""Cards under a lamp's glare spot told by their drawing's relief. The spot adds a smooth slope of
light across a cell; a normalised match of the cell's grey against the printed drawings cares for
that slope, so a washed dung beetle or a pale blue beetle on the spot's flank matched its own
drawing too weakly to be named, and stayed '?'. Each drawing and the cell's grey less their own
blur (`hexapod_drawings.relief_matches`) keep the print's relief and lose the slope: the dung
beetle is named by it (`dung_drawn`), and a beetle whose hue leads its cell (`kind_drawn`). The
cells the glare rules doubt (a card washed to fill's pallor: `glare_print`, `washed_print`,
`glare_pool`) are asked again whether they show the dung beetle. Crafted canvases under a spot,
and held-out glare pictures whose cell was '?' before."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_drawings import (
    BEETLES_MODEL,
    DUNG_MATCH,
    KIND_MATCH,
    MOTH_MODEL,
    STAG_MODEL,
    drawings,
    dung_drawn,
    kind_drawn,
    matches,
    relief_matches,
)

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells
from .hexapod_scenes import PX, WHITE, M, lay_card, lined_board

BEETLE_ROW = 2
CODES = ("K", "B", "G", "R", "Y")


def glare_spot(img: np.ndarray, cx: float, cy: float, sigma: float, peak: float) -> np.ndarray:
    """`img` with a round Gaussian spot of neutral light (`peak` levels at its centre, `sigma`
    px) added at (cx, cy) px, clipped at 255."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2.0 * sigma * sigma))
    return np.minimum(img + peak * spot[..., None], 255.0)


def beetles_under_a_spot() -> np.ndarray:
    """A crafted canvas: the one-cell beetles (CODES) on row BEETLE_ROW, columns 0-4, and a
    spot of 200 levels, half a cell wide, on the side shared by the dung beetle's cell and the
    blue beetle's: each lies on its flank."""
    img = lined_board(WHITE)
    for col, code in enumerate(CODES):
        lay_card(img, ((code,),), BEETLE_ROW, col)
    return glare_spot(img, M + PX, M + (BEETLE_ROW + 0.5) * PX, 0.5 * PX, 200.0)


def cell(col: int, row: int = BEETLE_ROW) -> int:
    return row * 6 + col


def test_the_spot_hides_the_dung_beetle_from_its_plain_drawing():
    """(The premise.) On the spot's flank the dung beetle's cell matches its plain drawing by
    less than DUNG_MATCH, the blue beetle's by less than KIND_MATCH; their relief matches their
    own drawings by more, and better than any other's."""
    img = beetles_under_a_spot()
    plain = matches(img, PX, M, (BEETLE_ROW, 0), drawings(BEETLES_MODEL, PX))
    assert plain is not None and plain[0] < DUNG_MATCH
    relief = relief_matches(img, PX, M, (BEETLE_ROW, 0), (BEETLES_MODEL, STAG_MODEL,
                                                           MOTH_MODEL))
    assert relief is not None and relief[0] >= DUNG_MATCH and relief[0] == max(relief)
    plain = matches(img, PX, M, (BEETLE_ROW, 1), drawings(BEETLES_MODEL, PX))
    assert plain is not None and plain[1] < KIND_MATCH
    relief = relief_matches(img, PX, M, (BEETLE_ROW, 1), (BEETLES_MODEL, STAG_MODEL))
    assert relief is not None and relief[1] >= KIND_MATCH and relief[1] == max(relief)


def test_only_the_dung_beetle_under_the_spot_is_named_one():
    """Of the beetles under and beside the spot, the board fill under its flank (the cells
    above and below the spot's centre) and fill far from it, only the dung beetle's cell shows
    the dung beetle."""
    img = beetles_under_a_spot()
    cells = np.array([cell(c) for c in range(5)] +
                     [cell(0, BEETLE_ROW - 1), cell(1, BEETLE_ROW - 1),
                      cell(0, BEETLE_ROW + 1), cell(1, BEETLE_ROW + 1), 35])
    assert cells[dung_drawn(img, PX, M, 6, cells)].tolist() == [cell(0)]


@pytest.mark.parametrize(("col", "kind", "named"), [
    (1, "B", True),      # the blue beetle on the spot's flank: its own kind
    (2, "G", True),      # the green one beside it
    (2, "B", False),     # a green beetle's cell is no blue beetle's (a hue cast might say so)
    (0, "B", False),     # nor is the dung beetle's
    (1, "Y", False),     # nor the blue beetle's a gold one's
])
def test_a_beetle_under_the_spot_is_named_only_as_its_own_kind(col, kind, named):
    """`kind_drawn` names a cell the kind its hue says only where that kind's drawing (or its
    relief) shows there: a beetle under the spot's flank as its own kind, never as another."""
    img = beetles_under_a_spot()
    assert kind_drawn(img, PX, M, 6, np.array([cell(col)]), [kind]).tolist() == [named]


@pytest.mark.parametrize(("seed", "at", "why"), [
    (23, (4, 4), "a dung beetle washed to fill's pallor, its print showing (`glare_print`)"),
    (43, (4, 1), "a dung beetle washed short of the clip (`washed_print`)"),
    (28, (4, 1), "a dung beetle in a pool of glare (`glare_pool`)"),
    (32, (1, 1), "a dung beetle on the spot's flank, undecided by its colours"),
    (27, (3, 2), "a blue beetle on the spot's flank"),
    (67, (3, 5), "a green beetle on the spot's flank"),
])
def test_held_out_glare_cards_read_by_their_relief(exported, seed, at, why):
    """Held-out glare pictures: the listed cell, in full view, reads its own code (before:
    '?'), and no cell of the case reads a wrong code."""
    from companion.vision.hexapod import HexapodReader

    scene = heldout_case(exported, seed, VARIANTS["glare"])
    r, c = at
    assert not scene.boards[0].hidden[r][c], why
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert grid[r][c] == scene.grid[r][c], why
    assert wrong_cells(grid, scene.grid) == []
