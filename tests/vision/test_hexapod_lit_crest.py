"""Cards under a pale hand lit to the clip are not read as empty board. Under a white clipped in
all three channels the board fill clips as one flat sheet that shows its printed lines, while a
lit hand's crest (its palm) clips alone, ringed by its own skin falling below the clip, which
hides the lines; the masks miss such a hand when only a thin shaded rim keeps skin's hue, and the
cells under it read as fill lit all over (`hexapod_cover.lit_crest_empty`). Never-seen hard 3034
and 3065, whose truth the renderer gives (every listed cell read '.' before), and crafted
canvases: the cells under a crafted palm are doubted; a board blown by its exposure alone and a
glare pool on lined fill are not."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_colour import CLIP, Pixels, normalise
from companion.vision.hexapod_cover import lit_crest_empty
from companion.vision.hexapod_lines import line_grey
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import (
    PX,
    M,
    assert_no_wrong_code,
    case_cells,
    lined_board,
    read_hard,
    read_hard_case,
)


@pytest.mark.parametrize(("seed", "player", "cells"), [
    # a pale hand over player 1's case, its palm clipped like the board, its skin below the
    # clip taken for the fill's colour; the hand is found on the other case only
    (3034, 1, ((1, 4), (2, 4), (3, 3), (3, 4), (4, 3), (4, 4), (5, 3), (5, 4))),
    # a pale hand beside a warm one: the warm one is found, the pale palm beyond it is not
    (3065, 1, ((3, 5), (4, 5))),
])
def test_cards_under_a_pale_hand_lit_to_the_clip_are_not_read_empty(seed, player, cells):
    """Each listed cell holds a card hidden under the hand (the renderer's truth) and reads
    '?' or its own code, never '.' (before: '.'), and no cell of the scene reads a wrong
    code."""
    read, case = read_hard_case(seed, player)
    for r, c in cells:
        assert case.grid[r][c] != "."
        assert read.grid[r][c] in (case.grid[r][c], UNKNOWN), (r, c, read.grid[r][c])
    assert_no_wrong_code(*read_hard(seed))


def test_cards_under_a_near_white_hand_whose_arm_runs_off_the_board_are_not_read_empty():
    """Never-seen 11015: a near-white hand on a blown board, its arm running off the board; the
    clipped crest runs on along the arm to the canvas's edge (0.6 cell of it), which no crest
    did before. The twelve cards under the palm (each read '.' before) read '?' or their own
    code. One cell is still wrong and stays listed here, open: (1, 4), a red card's middle
    under a pale finger beyond the crest's band, reads '.'; any other wrong code fails."""
    read, case = read_hard_case(11015, 1)
    for r, c in ((2, 0), (2, 1), (2, 2), (2, 3), (3, 0), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2),
                 (4, 3), (5, 3)):
        assert case.grid[r][c] != "."
        assert read.grid[r][c] in (case.grid[r][c], UNKNOWN), (r, c, read.grid[r][c])
    wrong = {(p, r, c) for p, r, c, code, _, got in case_cells(*read_hard(11015))
             if got not in (UNKNOWN, code)}
    assert wrong <= {(1, 1, 4)}, wrong


CLIPPED = np.full(3, 255.0, np.float32)
N = 6 * PX + 2 * M
SKIN = np.array([0.80, 0.88, 1.0], np.float32) * 255.0    # BGR, a pale skin as lit


def _board(exposure: float) -> np.ndarray:
    """The crafted lined board (`lined_board`) under a white of 255 scaled by `exposure`,
    clipped."""
    return lined_board(np.full(3, 255.0 * exposure, np.float32))


def _palm(img: np.ndarray) -> np.ndarray:
    """`img` with a pale palm laid over it: an ellipse 4 cells across and 4.8 high about the
    grid's centre, lit as a rounded surface (brightest in the middle, where it clips in all
    three channels over a region 2 cells across, falling to half its colour at its rim)."""
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    c = M + 3 * PX
    d2 = ((xx - c) / (2.0 * PX)) ** 2 + ((yy - c) / (2.4 * PX)) ** 2
    on = d2 <= 1.0
    lit = np.minimum((1.4755 - d2)[..., None] * SKIN, 255.0)
    out = img.copy()
    out[on] = lit[on]
    return out


def _spot(img: np.ndarray, peak: float) -> np.ndarray:
    """`img` with an additive, neutral spot of glare of `peak` times the white at the grid's
    centre, a cell in sigma, clipped."""
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    c = M + 3 * PX
    g = peak * np.exp(-((yy - c) ** 2 + (xx - c) ** 2) / (2 * PX ** 2))
    return np.clip(img + g[..., None] * 255.0, 0.0, 255.0)


def _doubted(img: np.ndarray) -> set[tuple[int, int]]:
    """The cells (row, col), all read empty, that `lit_crest_empty` doubts on the crafted
    canvas `img` under a white clipped in all three channels."""
    planes = tuple(np.ascontiguousarray(img[..., k]) for k in range(3))
    blown = (np.minimum(np.minimum(planes[0], planes[1]), planes[2]) >= CLIP).view(np.uint8)
    pix = Pixels.of(normalise(img, CLIPPED, PX))
    got = lit_crest_empty(np.arange(36), blown, lambda: line_grey(planes, CLIPPED), pix, PX, M,
                          6, 6)
    return {divmod(int(i), 6) for i in got}


def test_a_pale_palm_clipped_on_a_blown_board_is_a_hand():
    """On a board whose exposure clips the fill and its lines, a pale palm over the middle
    clips at its crest and falls below the clip about it: the four cells under the crest are
    doubted, and the cells far from the palm (the corners, the outer columns) are not; the
    same board with no palm doubts nothing (its clipped sheet runs to the canvas's edge)."""
    board = _board(1.3)
    assert board[M + PX // 2, M + PX // 2].min() >= CLIP
    got = _doubted(_palm(board))
    assert {(2, 2), (2, 3), (3, 2), (3, 3)} <= got
    assert not got & {(0, 0), (0, 5), (5, 0), (5, 5), (2, 0), (3, 0), (2, 5), (3, 5)}
    assert _doubted(board) == set()


def _arm(img: np.ndarray, x0: int, x1: int) -> np.ndarray:
    """`img` with a pale arm from the grid's centre straight down to the canvas's bottom edge,
    columns `x0` to `x1`, lit as a rounded surface: clipped in all three channels along its
    middle, falling to 0.8 of the palm's colour at its sides."""
    out = img.copy()
    c = M + 3 * PX
    xx = np.arange(x0, x1, dtype=np.float32)
    d = np.abs(xx - (x0 + x1 - 1) / 2.0) / ((x1 - x0) / 2.0)      # 0 middle, 1 at the sides
    lit = np.broadcast_to(np.minimum((1.3 - 0.5 * d ** 2)[:, None] * SKIN, 255.0),
                          out[c:, x0:x1].shape)
    # where the palm lies, the brighter of the two (the wrist runs smoothly into the palm)
    yy, xg = np.mgrid[c:N, x0:x1].astype(np.float32)
    palm = (((xg - c) / (2.0 * PX)) ** 2 + ((yy - c) / (2.4 * PX)) ** 2 <= 1.0)[..., None]
    out[c:, x0:x1] = np.where(palm, np.maximum(out[c:, x0:x1], lit), lit)
    return out


def test_a_pale_palm_whose_arm_runs_off_the_board_is_a_hand():
    """The crafted palm with its arm running on to the canvas's bottom edge, the arm's crest
    clipped as the palm's is, in one clipped region with it (0.8 cell at the edge):
    the cells under the crest are still doubted (before, a region reaching the edge was never
    a crest). A sheet of clipped fill beside the arm, meeting the edge over cells of it, is no
    crest: the blown board with the arm alone laid over it doubts no cell far from the arm."""
    board = _board(1.3)
    c = M + 3 * PX
    palm = _arm(_palm(board), c - PX, c + PX)
    assert palm[-1, c].min() >= CLIP and palm[-1, c - PX // 2].min() < CLIP
    got = _doubted(palm)
    assert {(2, 2), (2, 3), (3, 2), (3, 3)} <= got
    assert not got & {(0, 0), (0, 5), (5, 0), (5, 5), (2, 0), (3, 0), (2, 5), (3, 5)}
    arm = _doubted(_arm(board, c - PX, c + PX))
    assert not arm & {(0, 0), (0, 5), (5, 0), (5, 5), (2, 0), (3, 0), (2, 5), (3, 5), (4, 0),
                      (4, 5)}


def test_a_glare_pool_on_lined_fill_is_no_hand():
    """Fill below the clip showing its lines, under a neutral spot of glare whose core clips
    alone, ringed by lit fill below the clip: the ring shows the printed lines, so it is no
    hand's skin, and no cell is doubted."""
    img = _spot(_board(1.0), 0.6)
    centre = M + 3 * PX
    assert img[centre, centre].min() >= CLIP
    assert img[M + PX // 2, M + PX // 2].min() < CLIP
    assert _doubted(img) == set()
