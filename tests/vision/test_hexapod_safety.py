"""Hexapod cells read as another card's code, found on hard seeds 400-599 (never tuned on): a
hand's shadow edge across board fill read as a dung beetle, a dung beetle under a colour cast
the white did not remove anchored as a gold or blue tile, and a green tile smeared by motion
blur over a dung beetle read as one. Crafted canvases are built here pixel by pixel from the
printed card faces (the truth is what was laid); rendered scenes carry their own truth (the
layout the renderer drew)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.faces import PAPER_RGB
from companion.scenarios import hexapod_scene
from companion.synth.hexapod_board import GRID_FILL_RGB
from companion.synth.hexapod_face import render_card
from companion.vision import hexapod_cells as hcells
from companion.vision import hexapod_colour as hcol
from companion.vision import hexapod_windows as hwin
from companion.vision.hexapod import HexapodReader

PX, M = 24, 12                      # the reader's canvas: px per cell, margin
FILL = np.array(GRID_FILL_RGB[::-1], np.float32)
PAPER = np.array(PAPER_RGB[::-1], np.float32)


def _board(cards: dict[tuple[int, int], str]) -> np.ndarray:
    """A case canvas (BGR float32) of board fill with one-cell cards laid square in cells."""
    canvas = np.tile(FILL, (6 * PX + 2 * M, 6 * PX + 2 * M, 1))
    for (r, c), code in cards.items():
        face = render_card([[code]], PX)[:, :, :3].astype(np.float32)
        y, x = M + r * PX, M + c * PX
        canvas[y:y + face.shape[0], x:x + face.shape[1]] = face
    return canvas


def _pixels(canvas: np.ndarray, white: np.ndarray) -> tuple[hcol.Pixels, np.ndarray]:
    pix = hcol.Pixels.of(hcol.normalise(canvas, white, PX))
    return pix, hcol.label_pixels(pix, PX)


def _anchored(canvas: np.ndarray, white: np.ndarray) -> np.ndarray:
    """(6, 6) kind index (-1: none) the centre band anchors in each cell."""
    pix, labels = _pixels(canvas, white)
    return hcells.anchored(labels, pix.v, PX, M, 6, 6, np.arange(36)).reshape(6, 6)


def _decided(canvas: np.ndarray, white: np.ndarray) -> list[list[str]]:
    """(6, 6) codes `decide` gives each cell from its centred windows."""
    pix, labels = _pixels(canvas, white)
    tints = hcol.tint_levels(pix)
    small, large = round(0.45 * PX), round(0.8 * PX)
    code, _ = hcells.decide(
        hwin.cell_histograms(labels, PX, M, 6, 6, small),
        hwin.cell_histograms(labels, PX, M, 6, 6, large),
        hwin.cell_quantiles(pix.v, PX, M, 6, 6, small),
        hwin.cell_quantiles(pix.v, PX, M, 6, 6, large), hwin.DEFAULT,
        hwin.cell_histograms(tints, PX, M, 6, 6, small, n_labels=hcol.N_TINTS))
    return [[hwin.CODES[code[r * 6 + c]] for c in range(6)] for r in range(6)]


# -- a dung beetle under a cast the white did not remove ------------------------------------------

CAST = np.array([0.6, 0.85, 1.0], np.float32)      # BGR: warm light, blue dimmest


def test_a_dung_beetle_under_an_unremoved_cast_is_not_anchored_as_a_kind():
    """Warm light whose white clipped in all three channels (read as 255, 255, 255: the light's
    colour unknown) leaves its cast on the board: a dung beetle's black tile and grey beetle
    take gold's hue, as its body and pale levels, never its ink. The centre band must not
    anchor it as gold, while a gold tile beside it under the same light still anchors."""
    canvas = _board({(2, 2): "K", (2, 4): "Y"}) * CAST
    anchored = _anchored(canvas, np.full(3, 255.0, np.float32))
    assert anchored[2, 2] == -1, anchored[2, 2]
    assert anchored[2, 4] == hcol.KINDS.index("Y")


def test_a_dung_beetle_in_plain_light_still_reads():
    """The printed dung beetle on board fill under the paper's own white reads 'K', and the
    fill around it '.'."""
    grid = _decided(_board({(2, 2): "K", (4, 1): "K"}), PAPER)
    assert grid[2][2] == "K" and grid[4][1] == "K"
    assert grid[0][0] == "." and grid[5][5] == "."


# -- rendered scenes -------------------------------------------------------------------------------


def _errors(seed: int, player: int) -> tuple[list, list]:
    """(visible cells read as a wrong code, hidden cells read as a wrong code) of `player`'s
    case in hard scene `seed`, against the renderer's truth, as (row, col, truth, read)."""
    image, truth = hexapod_scene(seed, "hard")
    got = next(c for c in HexapodReader(track=False).read(image).cases if c.player == player)
    case = next(c for c in truth.cases if c.player == player)
    wrong, hidden = [], []
    for r in range(6):
        for c in range(6):
            read, code = got.grid[r][c], case.grid[r][c]
            if read not in (code, "?"):
                (wrong if case.visible[r][c] >= 1.0 else hidden).append((r, c, code, read))
    return wrong, hidden


def test_a_shadow_edge_across_board_fill_is_not_a_dung_beetle():
    """Hard seed 481, player 1: a hand's hard shadow crosses an empty cell just below its
    middle; the flat shade over the small window, with the lit fill at the large window's
    side, looked like a black tile with its grey beetle, and the cell read 'K'. A dung
    beetle's grey beetle lies within its black tile, so the small window itself shows both."""
    assert _errors(481, 1) == ([], [])


@pytest.mark.parametrize(("seed", "player"), [(484, 2), (499, 1)])
def test_a_tinted_dung_beetle_is_not_anchored_as_a_kind(seed, player):
    """Hard seeds 484 (white clipped in all three channels, warm cast left) and 499 (a 2800 K
    lamp): a dung beetle's tile took gold's or blue's hue as body and pale levels, with no ink,
    and the centre band anchored it as 'Y' or 'B'. No code is wrong now."""
    assert _errors(seed, player)[0] == []


def test_a_blurred_green_tile_over_a_dung_beetle_is_not_one():
    """Hard seed 539, player 2: motion blur smears the dung beetle below into a green tile whose
    white clipped; half its small window is grey and its green ink is diluted, and the rule for
    a dung beetle tinted by a cast read it 'K'. A cast never tints a grey to an ink's
    saturation: a window with green ink over a tenth of it is not a tinted dung beetle."""
    assert _errors(539, 2)[0] == []
