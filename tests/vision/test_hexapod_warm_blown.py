"""Hexapod cells under a warm lamp bright enough to clip the case's white, and much of the board
fill, in all three channels. `fill_white` takes the light's colour from the grid's bright pixels
below the clip; it used to count every pixel clipped in all three channels against a warm light
(they stood in for a lit hand's skin under a neutral light, the only warm thing left below the
clip). A clipped pixel carries no colour, so under a warm lamp the white stayed neutral, the fill
and every grey kept the lamp's orange cast, and dung beetles, stags and empty cells in full view
were reported '?'. Now the lit hand is left out directly (the skin that the clipped white's own
test finds running in from beyond the board) and the blown pixels no longer count. Rendered
scenes carry their own truth, framed as `companion bench vision --game hexapod` frames them;
crafted canvases are built here."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from .hexapod_scenes import PX, M, assert_no_wrong_code, case_pairs, read_hard


@pytest.mark.parametrize(("seed", "player", "cells"), [
    # (629's wing cases at (2, 3), whose head above is '?', are not named alone: `LONE_HEAD`)
    (629, 2, [(3, 2), (3, 3), (4, 3), (5, 3)]),
    (523, 1, [(0, 1), (0, 2), (0, 3), (0, 4), (1, 4), (2, 4), (2, 5), (4, 5)])])
def test_cells_under_a_warm_lamp_that_blows_the_fill_are_read(seed, player, cells):
    """Hard seeds 629 (4679 K, white-balance correction 0.02, no hand) and 523 (3429 K, two
    hands): the white and a third of the grid clipped in all three channels. These cells in
    full view (dung beetles, stags, a moth, empty fill) read their codes (before: '?'); no cell
    of the scene, in view or under a hand, reads a wrong code."""
    truth, obs = read_hard(seed)
    t, seen = next((t, s) for t, s in case_pairs(truth, obs) if t.player == player)
    for r, c in cells:
        assert t.visible[r][c] >= 1.0
        assert seen.grid[r][c] == t.grid[r][c], (r, c, t.grid[r][c], seen.grid[r][c])
    assert_no_wrong_code(truth, obs)


def _planes(canvas: np.ndarray):
    planes = tuple(np.ascontiguousarray(canvas[..., i]) for i in range(3))
    return planes, canvas.max(axis=2)


def _skin(canvas: np.ndarray, white: np.ndarray) -> np.ndarray:
    """The skin the reader leaves out of the fill's evidence, found as it finds it."""
    from companion.vision.hexapod_colour import (
        CLIP,
        Pixels,
        label_pixels,
        normalise,
        occluder_masks,
    )
    from companion.vision.hexapod_occluders import edge_occluders

    planes, raw_v = _planes(canvas)
    blown = (canvas.min(axis=2) >= CLIP).view(np.uint8)
    pix = Pixels.of(normalise(canvas, white, PX, planes, raw_v))
    _, own = occluder_masks(pix, label_pixels(pix, PX), PX, margin=M, blown=blown, raw_v=raw_v)
    return edge_occluders(own)


def test_a_warm_lamp_is_seen_past_the_blown_fill():
    """A crafted canvas: the sheet's paper and two thirds of the fill clipped to (255, 255,
    255), a band of fill in a gradient's dimmer part read (150, 200, 240) BGR below the clip,
    and no hand found (an empty skin mask). The blown pixels, which carry no colour, no longer
    outvote the warm fill: the white takes its colour (red strongest), no less than the
    clipped reading in any channel. Without a skin mask they still count, as before."""
    from companion.vision.hexapod_colour import fill_white

    side = 6 * PX + 2 * M
    canvas = np.full((side, side, 3), 255.0, np.float32)
    canvas[M + 4 * PX:-M, M:-M] = (150.0, 200.0, 240.0)
    white = np.array([254.0, 255.0, 255.0], np.float32)
    planes, raw_v = _planes(canvas)
    got = fill_white(white, planes, raw_v, M, skin=lambda: np.zeros(raw_v.shape, np.uint8))
    assert got[2] / got[0] == pytest.approx(240.0 / 150.0, rel=0.02)
    assert (got >= white - 0.5).all()
    assert (fill_white(white, planes, raw_v, M) == white).all()


def test_a_lit_hand_running_in_from_the_edge_is_no_evidence():
    """The guard: a near-neutral light clips the fill in all three channels over most of the
    grid, a little of it lies near-neutral below the clip (a soft shadow), and a pale hand lit
    near the clip, warm in every channel, reaches in from the canvas's right edge over a third
    of the grid. Its skin is found under the clipped white and left out, so its colour is not
    taken for the light's: the white stays as it is (taken, it would make the hand look like
    neutral fill and read the cells under it as empty)."""
    from companion.vision.hexapod_colour import fill_white

    side = 6 * PX + 2 * M
    canvas = np.full((side, side, 3), 255.0, np.float32)
    canvas[M + 5 * PX:-M, M:-M] = (228.0, 232.0, 236.0)            # fill in a soft shadow
    canvas[M:M + 2 * PX, M + 2 * PX:] = (170.0, 205.0, 240.0)      # the hand, from the edge
    white = np.array([255.0, 255.0, 255.0], np.float32)
    skin = _skin(canvas, white)
    assert skin[M:M + 2 * PX, M + 2 * PX:].mean() > 0.8
    planes, raw_v = _planes(canvas)
    assert (fill_white(white, planes, raw_v, M, skin=lambda: skin) == white).all()
    # the hand's warm pixels outnumber the neutral ones: not left out, they would be taken
    nothing = np.zeros(raw_v.shape, np.uint8)
    assert not (fill_white(white, planes, raw_v, M, skin=lambda: nothing) == white).all()


def test_an_arm_stopping_short_of_the_edge_still_runs_in():
    """An occluder region that the masks' opening leaves a pixel or two short of the canvas's
    edge still runs in from beyond the board; one that stops well inside is a pool on the fill."""
    from companion.vision.hexapod_occluders import edge_occluders

    own = np.zeros((168, 168), np.uint8)
    own[60:100, 40:166] = 1          # stops 2 px short of the right edge
    own[10:30, 40:80] = 1            # well inside
    kept = edge_occluders(own)
    assert kept[60:100, 40:166].all()
    assert not kept[10:30, 40:80].any()
    assert cv2.countNonZero(kept) == 40 * 126
