"""A card washed by a spot of the lamp's glare to fill's pallor is not read as empty board. Glare
adds light smoothly over a cell, and the board fill is printed flat, so fill under any light
stays a plane across a cell's middle, while a washed card keeps its drawing's differences in
level until they clip: a cell lit by glare whose middle still shows print in every half is '?',
whatever lines it seems to show (`hexapod_cover.glare_print_empty`: the tile's edge beside a
paper gutter passes for a printed line under glare). Under a white clipped in all three
channels, where glare and not the exposure clipped a middle, pale ink about it is a tile as its
unlit pixels are (`blown_unlined_empty`). Held-out glare pictures and a hard table whose truth
the composer or renderer gives (each cell read '.' before), and crafted canvases: the washed
dung beetle is doubted; fill under the same spot, fill beside a card pushed a third of a cell in
under it, and a board blown by its exposure are not."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_colour import CLIP, Pixels, normalise
from companion.vision.hexapod_cover import blown_unlined_empty, glare_print_empty
from companion.vision.hexapod_lines import line_grey
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import (
    PX,
    M,
    assert_glare_card_kept,
    case_cells,
    dung_card,
    read_hard,
    read_hard_case,
)


@pytest.mark.parametrize(("seed", "cell"), [
    (125, (2, 2)),     # a dung beetle, its tile's edge read as a line, white clipped in all
    (333, (3, 0)),     # a green beetle washed pale under a white clipped in blue and green
    (489, (4, 1)),     # a dung beetle under a spot that stays below the clip
    (524, (4, 0)),     # a dung beetle, "lines" along two opposite sides
    (539, (1, 1)),     # a dung beetle, "lines" along two opposite sides, white clipped in all
])
def test_a_card_washed_by_glare_is_not_read_empty(exported, seed, cell):
    """Held-out glare: the listed cell holds a card (the composer's truth) under the spot; it
    reads '?' or its own code, never '.' (before: '.'), and no cell reads a wrong code."""
    assert_glare_card_kept(exported, seed, cell)


def test_a_green_beetle_washed_white_in_its_middle_is_not_read_empty():
    """Hard 2179, player 1, cell (1, 0): a green beetle whose middle a glare spot clips white
    under a white clipped in all three channels, its pale green tile about it (before: read
    as fill lit all over, '.'): '?' or 'G', and no cell of the case reads a wrong code."""
    read, case = read_hard_case(2179, 1)
    assert case.grid[1][0] == "G"
    assert read.grid[1][0] in ("G", UNKNOWN)
    truth, obs = read_hard(2179)
    cells = [x for x in case_cells(truth, obs) if x[0] == 1]
    assert all(got in (code, UNKNOWN) for _, _, _, code, _, got in cells)


WHITE = np.array([200.0, 205.0, 210.0], np.float32)
N = 6 * PX + 2 * M


def _board(exposure: float = 1.0, white: np.ndarray = WHITE) -> np.ndarray:
    """A crafted canvas (`PX` px a cell, `M` margin; BGR float32): board fill at 0.89 of
    `white` with its printed grid lines 15 % darker, scaled by `exposure`, clipped."""
    img = np.empty((N, N, 3), np.float32)
    img[:] = 0.89 * white * exposure
    for k in range(7):
        at = M + k * PX
        img[at - 1:at + 1, :] *= 0.85
        img[:, at - 1:at + 1] *= 0.85
    return np.minimum(img, 255.0)


def _spot(img: np.ndarray, peak: float, r: int = 2, c: int = 2) -> np.ndarray:
    """`img` with an additive spot of glare (neutral in the light's colour: `WHITE`'s) of
    `peak` times the white at the centre of cell (r, c), half a cell in sigma, clipped."""
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    cy, cx = M + (r + 0.5) * PX, M + (c + 0.5) * PX
    g = peak * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * (0.5 * PX) ** 2))
    return np.clip(img + g[..., None] * WHITE, 0.0, 255.0)


def _print_doubted(img: np.ndarray, cells: np.ndarray, white: np.ndarray = WHITE) -> set[int]:
    """The cells (flat indices) of `cells`, read empty, that `glare_print_empty` doubts on the
    crafted canvas `img` under `white`."""
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    blown = (np.minimum(np.minimum(planes[0], planes[1]), planes[2]) >= CLIP).view(np.uint8)
    return set(glare_print_empty(cells, planes, white, blown, PX, M, 6, 6).tolist())


def test_glare_print_doubts_a_washed_dung_beetle_not_fill_under_the_same_spot():
    """A dung beetle on (2, 2) under a spot that lifts its grey beetle to the fill's pallor
    (its drawing's stripes still below the beetle by a fifth of the white) is doubted, and no
    other cell; bare fill under the same spot, clipped at its core, its flanks lit smoothly, is
    not; nor is the beetle with no glare (no light above the white: the reader's other rules
    judge it); nor fill beside a dung beetle on (2, 1) pushed a third of a cell towards it under
    the spot (the card reaches one side of its middle, the half opposite stays a plane)."""
    every = np.arange(36)
    img = _board()
    dung_card(img, 2, 2, WHITE)
    assert _print_doubted(_spot(img, 0.5), every) == {14}
    assert _print_doubted(_spot(_board(), 0.5), every) == set()
    assert _print_doubted(img, every) == set()
    img = _board()
    dung_card(img, 2, 1, WHITE, dx=PX // 3)
    assert _print_doubted(_spot(img, 0.5), np.setdiff1d(every, [13])) == set()


def test_glare_print_leaves_a_board_blown_by_its_exposure_alone():
    """A whole board of fill, its white and fill clipped in all three channels by the exposure
    (every small window clipped: 'lit' for the rule), doubts nothing: the clip is flat."""
    clipped = np.full(3, 255.0, np.float32)
    img = _board(exposure=1.3, white=clipped)
    assert img[M + PX // 2, M + PX // 2].min() >= CLIP
    assert _print_doubted(img, np.arange(36), clipped) == set()


def _pale_tile(img: np.ndarray, r: int, c: int, dy: int = 0) -> None:
    """Lay (in place) a card on cell (r, c), `dy` px down: its paper, and its green tile 3 px
    inside washed pale (blue and red at 0.75 of the white, green at the white)."""
    y0, x0 = M + r * PX - 2 + dy, M + c * PX - 2
    y1, x1 = y0 + PX + 4, x0 + PX + 4
    img[y0:y1, x0:x1] = 255.0
    img[y0 + 3:y1 - 3, x0 + 3:x1 - 3] = np.array([0.75, 1.0, 0.75], np.float32) * 255.0


def _blown_doubted(img: np.ndarray, cells: np.ndarray) -> set[int]:
    """The cells (flat indices) of `cells`, read empty, that `blown_unlined_empty` doubts on
    the crafted canvas `img` under a white clipped in all three channels."""
    white = np.full(3, 255.0, np.float32)
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    blown = (np.minimum(np.minimum(planes[0], planes[1]), planes[2]) >= CLIP).view(np.uint8)
    pix = Pixels.of(normalise(img, white, PX))
    return set(blown_unlined_empty(cells, blown, lambda: line_grey(planes, white), pix, PX, M,
                                   6, 6).tolist())


def test_pale_ink_about_a_middle_clipped_by_glare_is_a_tile_not_under_the_exposure():
    """Under a white clipped in all three channels with the fill below the clip, a pale green
    tile on (2, 2) whose middle a spot clips white is doubted (before: its tile read as fill lit
    all over), and no other cell; on a board whose exposure clips all the fill, fill beside the
    same pale tile pushed a third of a cell down into it is not (pale ink there is no sign of
    glare: a neighbour's blurred edge)."""
    clipped = np.full(3, 255.0, np.float32)
    img = _board(white=clipped)
    _pale_tile(img, 2, 2)
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    cy = cx = M + 2.5 * PX
    core = ((yy - cy) ** 2 + (xx - cx) ** 2) <= (0.3 * PX) ** 2
    img[core] = 255.0
    assert _blown_doubted(img, np.arange(36)) == {14}
    img = _board(exposure=1.3, white=clipped)
    _pale_tile(img, 1, 2, dy=PX // 3)
    assert _blown_doubted(img, np.setdiff1d(np.arange(36), [8])) == set()


def test_glare_print_below_the_white_needs_the_dark_lifted_and_a_clear_print():
    """On a dim exposure a broad spot lifts a dung beetle on (2, 2) (its black tile to 0.38 of
    the white, its drawing's stripes a sixth of the white below the beetle) while nothing rises
    a tenth above the white: it is doubted, and no other cell; the same beetle with no spot
    keeps its black (a card under the case's light alone) and is not."""
    every = np.arange(36)
    img = _board()
    dung_card(img, 2, 2, WHITE)
    img *= 0.8
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    cy = cx = M + 2.5 * PX
    g = 0.3 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * (1.5 * PX) ** 2))
    lifted = np.clip(img + g[..., None] * WHITE, 0.0, 255.0)
    assert (lifted / WHITE).max() < 1.1
    assert _print_doubted(lifted, every) == {14}
    assert _print_doubted(img, every) == set()
