"""A card washed by the lamp's spot to fill's pallor, short of the clip, is not read as empty
board on a case full of cards. Nothing clips, so `glare_print_empty` sees no glare, and its
noise, measured over every cell, is the cards' own print; the board's fill is printed flat, as
flat as the case's other empty cells show it under the same light, and a washed card keeps its
drawing (`hexapod_cover.washed_print_empty`: a cell read empty whose middle departs from its
plane by three times the median of the others read empty, with nothing dark left about it, is
'?'). A hard table and held-out glare pictures whose truth the renderer or composer gives (each
cell read '.' before), and crafted canvases: the washed dung beetle is doubted; fill beside a
card pushed a third of a cell in, fill under a lamp's gradient and a case with too few empty
cells to measure fill on are not."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_colour import CLIP
from companion.vision.hexapod_cover import glare_print_empty, washed_print_empty
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import (
    PX,
    M,
    assert_glare_card_kept,
    case_cells,
    dung_card,
    lined_board,
    read_hard,
    read_hard_case,
)

WHITE = np.array([200.0, 205.0, 210.0], np.float32)
N = 6 * PX + 2 * M
EMPTIES = (0, 5, 30, 35)          # the crafted case's empty cells: its four corners
WASHED = 14                       # and the washed dung beetle's, (2, 2)


def test_a_dung_beetle_washed_short_of_the_clip_is_not_read_empty():
    """Hard 12343, player 2, cell (1, 1): a dung beetle washed by the lamp's spot to a pale
    grey, nothing clipped, on a case of 32 cards (before: read '.', on a case the referee would
    judge): '?' or 'K', and no cell of the table reads a wrong code."""
    read, case = read_hard_case(12343, 2)
    assert case.grid[1][1] == "K"
    assert read.grid[1][1] in ("K", UNKNOWN)
    truth, obs = read_hard(12343)
    assert all(got in (code, UNKNOWN) for _, _, _, code, _, got in case_cells(truth, obs))


@pytest.mark.parametrize(("seed", "cell"), [
    (8094, (4, 1)),     # a dung beetle under the spot, fill-pale (before: '.')
    (13028, (4, 1)),    # the same, never looked at before the rule was made
])
def test_held_out_dung_beetles_washed_by_a_spot_are_not_read_empty(exported, seed, cell):
    """Held-out glare: the listed cell holds a dung beetle (the composer's truth) under the
    spot; it reads '?' or 'K', never '.', and no cell reads a wrong code."""
    assert assert_glare_card_kept(exported, seed, cell) == "K"


def _full_case() -> np.ndarray:
    """A case of 32 dung beetles, its four corner cells (`EMPTIES`) bare fill, the one on
    `WASHED` washed by a lamp's spot: its black tile lifted to 0.41 of the white, its stripes
    0.12 of the white below its beetle (the light multiplies the print, then adds a veil),
    nothing above the white."""
    img = lined_board(WHITE)
    for cell in range(36):
        if cell not in EMPTIES:
            dung_card(img, *divmod(cell, 6), WHITE)
    y0, x0 = M + 2 * PX - 2, M + 2 * PX - 2
    card = img[y0:y0 + PX + 4, x0:x0 + PX + 4]
    img[y0:y0 + PX + 4, x0:x0 + PX + 4] = 0.6 * card + 0.35 * WHITE
    return img


def _washed(img: np.ndarray, cells, white: np.ndarray = WHITE) -> set[int]:
    """The cells (flat indices) of `cells`, read empty, that `washed_print_empty` doubts on
    the crafted canvas `img` under `white`."""
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    return set(washed_print_empty(np.asarray(cells), planes, white, PX, M, 6, 6).tolist())


def test_washed_print_doubts_a_washed_dung_beetle_on_a_full_case():
    """On a case of cards with four empty cells, the dung beetle washed to fill's pallor and
    read empty is doubted, and no bare cell; `glare_print_empty` does not doubt it (nothing
    clips or stands above the white, and the cards' print sets its noise floor)."""
    img = _full_case()
    assert (img / WHITE).max() <= 1.0 and img.max() < CLIP
    cells = np.array([*EMPTIES, WASHED])
    assert _washed(img, cells) == {WASHED}
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    blown = np.zeros((N, N), np.uint8)
    assert glare_print_empty(cells, planes, WHITE, blown, PX, M, 6, 6).tolist() == []


def test_washed_print_needs_fill_to_measure_and_nothing_dark_about():
    """The washed beetle with only one other cell read empty is left to the reader's other
    rules (fill is not measured on fewer than two); a dung beetle whose black tile is still
    dark is not doubted (a card under the case's light alone); nor is fill lit by a lamp's
    steep gradient (a plane) beside a card pushed a third of a cell in over it."""
    img = _full_case()
    assert _washed(img, [0, WASHED]) == set()
    assert _washed(img, [0, 5, WASHED]) == {WASHED}
    bare = lined_board(WHITE)
    dung_card(bare, 2, 2, WHITE)
    assert _washed(bare, [*EMPTIES, WASHED]) == set()
    img = lined_board(WHITE)
    for cell in range(36):
        if cell not in (*EMPTIES, 13):
            dung_card(img, *divmod(cell, 6), WHITE, dx=PX // 3 if cell == 12 else 0)
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    img *= (0.6 + 0.4 * (xx + yy) / (2 * N))[..., None]
    assert _washed(img, [*EMPTIES, 13]) == set()
