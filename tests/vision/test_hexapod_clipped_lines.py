"""Empty Hexapod cells that were reported '?': beside a hand under a light that clips the white in
some channels, and next to a card or a shadow's edge that lifts the large window's top end. An
empty cell that the hand mask covers is read when the board's printed grid lines show along two
opposite sides of it (`hexapod_lines.lines_across`: a card hides one of each pair). Under a warm
lamp that clips red and green, the fill and the printed line both read the clip in those
channels, so they show no line; summed with the unclipped channel they only thinned its dip below
the line test, and such cells were reported '?'. The lines are now looked for in the channels the
white leaves below the clip (`line_grey`). A flat occluder still shows no line in any channel:
a cell a hand lies over stays '?'. An empty cell also needed its large window (0.8 cell) as flat
as fill, to keep a dung beetle's black tile out; a neighbouring card's paper or lit fill past a
shadow's edge brightens that window's top end instead, and such cells were '?': a small window as
flat now does when the large one shows no black (`hexapod_cells.decide`). Rendered scenes are
framed and read as `companion bench vision --game hexapod` reads them; the crafted canvas and
windows are built here."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import hexapod_cells as hc
from companion.vision import hexapod_lines as hlines
from companion.vision import hexapod_windows as hwin
from companion.vision.hexapod_colour import DARK, DIM, GREYISH, LIGHT, MID, N_LABELS, N_TINTS
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, case_cells, read_hard


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (187, 2, [(0, 5), (1, 5)]),
    (95, 1, [(1, 5)])])
def test_empty_cells_beside_a_hand_under_a_warm_clipping_lamp_are_read(seed, player, cells):
    """Hard seeds 187 (2900 K) and 95 (3200 K), whites clipped in red and green, a hand over
    the board: the empty cells in full view next to it read '.' (before: '?'); no cell of the
    scene reads a wrong code, and every cell the hand covers more than half of stays '?'."""
    truth, obs = read_hard(seed)
    grid = {(p, r, c): (code, visible, got) for p, r, c, code, visible, got in
            case_cells(truth, obs)}
    for r, c in cells:
        code, visible, got = grid[(player, r, c)]
        assert visible >= 1.0 and code == "."
        assert got == ".", (r, c, got)
    for (p, r, c), (code, visible, got) in grid.items():
        assert got in (code, UNKNOWN), (p, r, c, code, got)
        if visible < 0.5:
            assert got == UNKNOWN, (p, r, c)


WHITE = np.array([200.0, 255.0, 255.0], np.float32)     # B G R: red and green at the clip


def _board(line: float, hand: bool = False) -> tuple[np.ndarray, ...]:
    """(planes, sat, v) of a crafted canvas of empty board fill under a warm lamp: fill at the
    white in every channel, the printed grid lines `line` darker in blue only (in red and green
    the lamp clips line and fill alike); with `hand`, a flat skin-coloured hand over the whole
    of cell (2, 2) and the lines about it."""
    n = 6 * PX + 2 * M
    planes = [np.full((n, n), w, np.float32) for w in WHITE]
    for k in range(7):
        at = M + k * PX
        planes[0][at - 1:at + 1, :] -= line
        planes[0][:, at - 1:at + 1] -= line
    sat, v = np.zeros((n, n), np.float32), np.ones((n, n), np.float32)
    if hand:
        y0, y1 = M + 2 * PX - PX // 2, M + 3 * PX + PX // 2
        for p, skin in zip(planes, (120.0, 170.0, 255.0), strict=True):
            p[y0:y1, y0:y1] = skin
        sat[y0:y1, y0:y1] = 0.3     # pale skin: below ink's saturation, not dark
    return tuple(planes), sat, v


def _across(grey: np.ndarray, sat: np.ndarray, v: np.ndarray) -> bool:
    return bool(hlines.lines_across(grey, sat, v, PX, M, 6, 6, np.array([14]),
                                    hwin.DEFAULT.min_line, hwin.DEFAULT.colour.ink_sat,
                                    hwin.DEFAULT.colour.dim_v)[0])


def test_lines_are_seen_in_the_unclipped_channel_but_not_through_a_hand():
    # a line 6 % darker than the fill in blue: plain in blue, under the line test's 3 % in
    # the sum with two clipped channels
    planes, sat, v = _board(12.0)
    assert not _across(planes[0] + planes[1] + planes[2], sat, v)
    assert _across(hlines.line_grey(planes, WHITE), sat, v)
    # a flat hand over the cell hides its lines in every channel: it stays covered
    planes, sat, v = _board(12.0, hand=True)
    assert not _across(hlines.line_grey(planes, WHITE), sat, v)


def test_all_channels_count_when_the_white_clips_in_none_or_all():
    planes, _, _ = _board(12.0)
    total = planes[0] + planes[1] + planes[2]
    for white in (np.array([200.0, 230.0, 240.0]), np.array([255.0, 255.0, 255.0])):
        assert np.array_equal(hlines.line_grey(planes, white), total)
    assert np.array_equal(hlines.line_grey(planes, np.array([200.0, 230.0, 255.0])),
                          planes[0] + planes[1])


@pytest.mark.parametrize(("seed", "player", "cell"), [(16, 2, (2, 0)), (239, 1, (4, 1))])
def test_empty_fill_beside_brighter_things_is_read(seed, player, cell):
    """Hard seeds 16 and 239: an empty cell in full view, its fill in shade, whose large window
    reaches brighter fill or a card's paper, reads '.' (before: '?'); no wrong code anywhere."""
    truth, obs = read_hard(seed)
    grid = {(p, r, c): (code, visible, got) for p, r, c, code, visible, got in
            case_cells(truth, obs)}
    code, visible, got = grid[(player, *cell)]
    assert visible >= 1.0 and code == "." and got == "."
    assert all(got in (code, UNKNOWN) for code, _, got in grid.values())


def _decide(dark: float) -> str:
    """The code `decide` gives a cell whose small window is flat grey fill in shade (MID and
    LIGHT, 15th / 85th percentile 0.78) and whose large window's top end is brighter (15th /
    85th 0.61), with `dark` of the large window DARK and as much DIM (a black tile)."""
    h, hl = np.zeros((1, N_LABELS), np.float32), np.zeros((1, N_LABELS), np.float32)
    h[0, MID], h[0, LIGHT] = 0.6, 0.4
    hl[0, DARK], hl[0, DIM], hl[0, MID], hl[0, LIGHT] = dark, dark, 0.5 - 2 * dark, 0.5
    tint = np.zeros((1, N_TINTS), np.float32)
    tint[0, GREYISH] = 1.0
    qs = np.array([[0.62, 0.70, 0.80]], np.float32)
    ql = np.array([[0.6, 0.72, 0.98]], np.float32)
    return hwin.CODES[int(hc.decide(h, hl, qs, ql, hwin.DEFAULT, tint)[0][0])]


def test_a_flat_middle_is_fill_only_without_black_about_it():
    assert _decide(0.0) == "."
    # a grey middle with black about it may be a dung beetle's grey beetle: not empty
    assert _decide(0.05) == UNKNOWN
