"""A pale arm over a Hexapod case under a light that clips the white in all three channels, where
the arm crosses a side of the board that lies on the wooden table. The occluder masks clear a
margin that reads skin-like along a whole side (the table) and cut the arm off at its inner line;
the skin that `fill_white` leaves out of the fill's evidence used to be only the occluders reaching
the canvas's outer edge, so such an arm was not left out: its lit skin, below the clip and warm
in every channel, was taken for board fill under a warm light, normalised to neutral and the cells
under it read empty. Now an occluder reaching the inner line of a margin cleared as the table runs
in from beyond the board too (`arm_entries`, `edge_occluders`). Rendered scenes carry their own
truth; crafted canvases are built here."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, assert_no_wrong_code, case_pairs, read_hard


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (1192, 1, [(1, 1), (1, 2), (1, 3), (1, 4)]),
    (815, 2, [(0, 3), (1, 3), (2, 3)])])
def test_cells_under_a_pale_arm_from_the_table_are_not_read_empty(seed, player, cells):
    """Never-seen hard seeds 1192 (3910 K, an arm across the whole case from table to table)
    and 815 (5304 K, a hand reaching in over the table's side): the white clipped in all three
    channels, these cells under the arm (moths, a stag, a sandy beetle, a green beetle) read
    '.' before; now '?' or their own code, and no cell of the scene reads a wrong code."""
    truth, obs = read_hard(seed)
    t, seen = next((t, s) for t, s in case_pairs(truth, obs) if t.player == player)
    for r, c in cells:
        assert t.grid[r][c] != "."
        assert seen.grid[r][c] in (t.grid[r][c], UNKNOWN), (r, c, t.grid[r][c], seen.grid[r][c])
    assert_no_wrong_code(truth, obs)


def _arm_over_table() -> tuple[np.ndarray, slice, slice]:
    """A crafted canvas under a white clipped in all three channels: paper and fill clipped in
    red and green and read (245, 255, 255) BGR, the wooden table (orange-brown) in the outer
    third of the left margin along its whole height (the sheet's paper between it and the
    grid), and a pale lit arm (warm in every channel, below the clip) coming over the table
    and the paper across the left side and stopping a cell short of the grid's right edge;
    with the arm's rows and columns."""
    side = 6 * PX + 2 * M
    canvas = np.full((side, side, 3), (245.0, 255.0, 255.0), np.float32)
    canvas[:, :M // 3] = (60.0, 110.0, 170.0)                # the table beyond the left side
    rows, cols = slice(M + 2 * PX, M + 3 * PX + PX // 2), slice(0, M + 5 * PX)
    canvas[rows, cols] = (170.0, 205.0, 240.0)                # the arm, over table and grid
    return canvas, rows, cols


def _masks(canvas: np.ndarray):
    from companion.vision.hexapod_colour import (
        CLIP,
        Pixels,
        label_pixels,
        normalise,
        occluder_masks,
    )

    white = np.array([255.0, 255.0, 255.0], np.float32)
    planes = tuple(np.ascontiguousarray(canvas[..., i]) for i in range(3))
    raw_v = canvas.max(axis=2)
    blown = (canvas.min(axis=2) >= CLIP).view(np.uint8)
    pix = Pixels.of(normalise(canvas, white, PX, planes, raw_v))
    _, own = occluder_masks(pix, label_pixels(pix, PX), PX, margin=M, blown=blown, raw_v=raw_v)
    return pix, own


def test_an_arm_cut_off_at_a_table_margin_runs_in_from_beyond():
    """The table's margin is cleared from the masks, so the arm's own pixels start at the
    margin's inner line, short of the canvas's edge: taken from the outer edge alone it would
    be a pool on the fill and dropped; reaching the table's inner line (`arm_entries`), it is
    kept whole, and nothing else is."""
    from companion.vision.hexapod_colour import arm_entries
    from companion.vision.hexapod_occluders import edge_occluders

    canvas, rows, cols = _arm_over_table()
    pix, own = _masks(canvas)
    arm = np.zeros(own.shape, bool)
    arm[rows, M:cols.stop] = True
    assert own[arm].mean() > 0.9
    assert not own[:, :M].any()                      # the table's margin is cleared
    assert not edge_occluders(own).any()
    kept = edge_occluders(own, arm_entries(pix, M))
    assert kept[arm].mean() > 0.9
    assert not kept[~arm].any()


def test_an_arm_from_the_table_is_no_evidence_of_a_warm_light():
    """`fill_white` given the skin that the reader finds (the occluders running in from beyond
    the board, the table's inner line included) leaves the clipped white as it is: the arm's
    warm skin is not taken for fill under a warm light. Given only those reaching the outer
    edge, it took the arm's colour (red strongest), as it did before."""
    from companion.vision.hexapod_colour import arm_entries, fill_white
    from companion.vision.hexapod_occluders import edge_occluders

    canvas, _, _ = _arm_over_table()
    pix, own = _masks(canvas)
    white = np.array([255.0, 255.0, 255.0], np.float32)
    planes = tuple(np.ascontiguousarray(canvas[..., i]) for i in range(3))
    raw_v = canvas.max(axis=2)
    skin = edge_occluders(own, arm_entries(pix, M))
    assert (fill_white(white, planes, raw_v, M, skin=lambda: skin) == white).all()
    outer = edge_occluders(own)
    got = fill_white(white, planes, raw_v, M, skin=lambda: outer)
    assert got[2] / got[0] == pytest.approx(240.0 / 170.0, rel=0.02)


def test_fill_lit_warm_beside_the_table_is_no_arm():
    """The guard: no arm, a warm lamp lighting the lower half of the grid below the clip (fill
    (150, 200, 240) BGR, skin-like against the clipped white) and the sheet's paper in the
    left margin beside it ((160, 212, 250)), the table along that margin's outer third. Skin
    crosses the margin in those lines, but the table at the canvas's edge is as it is all along
    the side: nothing hides it, so the warm fill is not taken for an arm and gives the light's
    colour."""
    from companion.vision.hexapod_colour import arm_entries, fill_white
    from companion.vision.hexapod_occluders import edge_occluders

    side = 6 * PX + 2 * M
    canvas = np.full((side, side, 3), (245.0, 255.0, 255.0), np.float32)
    warm = slice(M + 3 * PX, side - M)
    canvas[warm, M // 3:M] = (160.0, 212.0, 250.0)           # paper lit warm below the clip
    canvas[warm, M:side - M] = (150.0, 200.0, 240.0)          # the fill
    canvas[:, :M // 3] = (60.0, 110.0, 170.0)                # the table
    pix, own = _masks(canvas)
    assert own[warm, M:side - M].mean() > 0.9                # skin-like against the white
    entries = arm_entries(pix, M)
    assert not entries[:, 1:-1][1:-1].any()                  # only the canvas's outer edge
    skin = edge_occluders(own, entries)
    assert not skin[warm, M:side - M].any()
    white = np.array([255.0, 255.0, 255.0], np.float32)
    planes = tuple(np.ascontiguousarray(canvas[..., i]) for i in range(3))
    got = fill_white(white, planes, canvas.max(axis=2), M, skin=lambda: skin)
    assert got[2] / got[0] == pytest.approx(240.0 / 150.0, rel=0.02)
