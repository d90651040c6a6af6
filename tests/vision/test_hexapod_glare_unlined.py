"""A card washed out by a small spot of the lamp's specular glare, under a white clipped in two
channels at most (`hexapod_cover.glare_unlined_empty`): the spot takes the card's print to
something as pale and flat as fill, too small a share of the cell for `glare_unknown`, so the
cell read empty. It stands above the case's fill (glare adds light) and shows no printed grid
line about it (the card covers them); such a cell is '?'. Rendered hard tables whose truth the
renderer gives (a red beetle under a spot on an unclipped white, a dung beetle under one on a
white clipped in green and red), and a crafted canvas: bare fill under the same spot keeps its
lines along the sides the spot spares, and a whole board lifted into the clip (no peak) doubts
nothing. A spot that a dim exposure keeps below the clip is glare too where it lifts the cell's
middle above the case's white paper (`COVER_LIT`): rendered hard tables (a dung beetle under a
lit finger, a green beetle) and the crafted canvas with a fainter spot."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_colour import CLIP, Pixels, normalise
from companion.vision.hexapod_cover import glare_unlined_empty
from companion.vision.hexapod_lines import line_grey
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, case_cells, read_hard, read_hard_case


@pytest.mark.parametrize(("seed", "player", "cell"), [
    (1205, 1, (0, 0)),     # a red beetle under a spot, white clipped in no channel
    (2290, 1, (2, 5)),     # a dung beetle under a spot, white clipped in green and red
])
def test_a_card_washed_by_a_small_glare_spot_is_not_read_empty(seed, player, cell):
    """The listed cell holds a card in full view (the renderer's truth) that a spot of glare
    washes out: it reads '?' or its own code, never empty (before: '.'); no other cell of the
    case reads wrong and the case keeps most of its cells in full view read."""
    read, case = read_hard_case(seed, player)
    r, c = cell
    assert case.grid[r][c] != "." and case.visible[r][c] >= 1.0
    assert read.grid[r][c] in (case.grid[r][c], UNKNOWN)
    truth, obs = read_hard(seed)
    cells = [x for x in case_cells(truth, obs) if x[0] == player]
    assert all(got in (code, UNKNOWN) for _, _, _, code, _, got in cells)
    assert sum(got == code and share >= 1.0 for _, _, _, code, share, got in cells) >= 24


@pytest.mark.parametrize(("seed", "player", "cell"), [
    (2422, 1, (2, 3)),     # a dung beetle under a dark hand's finger lit by a spot
    (1980, 1, (5, 2)),     # a green beetle under a spot on a dim exposure
])
def test_glare_below_the_clip_over_a_card_is_not_read_empty(seed, player, cell):
    """The listed cell holds a card (the renderer's truth) under a spot of glare that a dim
    exposure keeps below the clip in every channel, its middle lit above the case's white paper
    (specular: nothing matte under the case's light is): it reads '?' or its own code, never
    empty (before: '.'); no cell of the case reads a code other than its own."""
    read, case = read_hard_case(seed, player)
    r, c = cell
    assert case.grid[r][c] != "."
    assert read.grid[r][c] in (case.grid[r][c], UNKNOWN)
    truth, obs = read_hard(seed)
    cells = [x for x in case_cells(truth, obs) if x[0] == player]
    assert all(got in (code, UNKNOWN) for _, _, _, code, _, got in cells)


WHITE = np.array([130.0, 139.0, 143.0], np.float32)      # a dim, unclipped white (hard 1205)


def _board(card: bool, glare: float, exposure: float = 1.0) -> np.ndarray:
    """A crafted canvas (`PX` px a cell, `M` margin; BGR float32) of board fill at 0.89 of
    `WHITE` with its printed grid lines 15 % darker, scaled by `exposure`; with `card`, a
    card (its paper, a pale washed red tile inside) over cell (2, 2) and the lines about it; an
    additive spot of glare of peak `glare` (share of the clip) on that cell's centre, a
    third of a cell across (its sides stay below the clip), then clipped at 255."""
    n = 6 * PX + 2 * M
    img = np.empty((n, n, 3), np.float32)
    img[:] = 0.89 * WHITE
    for k in range(7):
        at = M + k * PX
        img[at - 1:at + 1, :] *= 0.85
        img[:, at - 1:at + 1] *= 0.85
    if card:
        y0, y1 = M + 2 * PX - 2, M + 3 * PX + 2
        img[y0:y1, y0:y1] = WHITE                                  # its paper
        img[y0 + 3:y1 - 3, y0 + 3:y1 - 3] = WHITE * np.array([0.85, 0.85, 1.0], np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    cy = cx = M + 2.5 * PX
    spot = glare * 255.0 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * (PX / 6.0) ** 2))
    return np.clip(img * exposure + spot[..., None], 0.0, 255.0)


def _doubted(img: np.ndarray) -> set[int]:
    """The cells (flat indices) that `glare_unlined_empty` doubts when every cell of the
    crafted canvas `img` reads empty."""
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    blown = (np.minimum(np.minimum(planes[0], planes[1]), planes[2]) >= CLIP).view(np.uint8)
    pix = Pixels.of(normalise(img, WHITE, PX))
    cells = np.arange(36)
    return set(glare_unlined_empty(cells, planes, WHITE, blown, lambda: line_grey(planes, WHITE),
                                   pix, PX, M, 6, 6).tolist())


def test_glare_over_a_card_doubts_it_and_over_fill_or_a_blown_board_nothing():
    """A spot of glare over a card on (2, 2) (no lines about it) doubts that cell and no
    other; the same spot over bare fill (its lines seen along its sides) doubts nothing, nor
    does the card with no glare, nor a whole board of fill lifted into the clip by its
    exposure (no peak above the case's fill)."""
    assert _doubted(_board(card=True, glare=3.0)) == {2 * 6 + 2}
    assert _doubted(_board(card=False, glare=3.0)) == set()
    assert _doubted(_board(card=True, glare=0.0)) == set()
    assert _doubted(_board(card=False, glare=0.0, exposure=2.6)) == set()


def _faint_spot(card: bool, glare: float, exposure: float = 1.0) -> np.ndarray:
    """`_board`'s fill and lines with, when `card`, a card over cell (2, 2) reaching 4 px
    beyond its lines, its face washed to a flat 0.85 of `WHITE`, and an additive spot of glare
    of peak `glare` (share of 255) a cell across on its centre; scaled by `exposure` before the
    spot."""
    img = _board(card=False, glare=0.0)
    if card:
        y0, y1 = M + 2 * PX - 4, M + 3 * PX + 4
        img[y0:y1, y0:y1] = 0.85 * WHITE
    n = img.shape[0]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    cy = cx = M + 2.5 * PX
    spot = glare * 255.0 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * (PX / 2.0) ** 2))
    return img * exposure + spot[..., None]


def test_glare_below_the_clip_doubts_a_card_lit_above_the_white_not_fill():
    """A spot too faint to clip any channel still lifts the washed card on (2, 2) above the
    case's white paper: that cell is doubted (before: not, no pixel being clipped) and no
    other; the same spot over bare fill keeps its lines along the sides and is not; nor is the
    card under no spot with the whole board lit a little above its white (an exposure or a
    light gradient: no peak above the case's fill)."""
    img = _faint_spot(card=True, glare=0.35)
    assert img.max() < CLIP                                      # no pixel clips
    assert _doubted(img) == {2 * 6 + 2}
    assert _doubted(_faint_spot(card=False, glare=0.35)) == set()
    assert _doubted(_faint_spot(card=True, glare=0.0, exposure=1.4)) == set()
