"""Hexapod cells that a lit hand's mask spread over while they were in plain view: under a white
clipped in two channels the paper clips too, and a region of clipped paper that touches a lit
hand was taken whole for the hand's clipped middle (an arm's skin is bright right beside it, but
so is the skin of any hand under a lamp that clips the paper). An arm's lit middle lies between
its shaded edges, so the hand runs along a good share of its outline; clipped paper wraps
around the cards and the board's print and meets the hand along one side only. Crafted masks are
built here pixel by pixel; rendered scenes carry their own truth (the layout the renderer
drew)."""

from __future__ import annotations

import numpy as np

from companion.scenarios import hexapod_scene
from companion.vision import hexapod_colour as hcol
from companion.vision.hexapod import HexapodReader

from .test_hexapod_reader import _read_cells

PX = 24                 # canvas px per cell, as the reader resamples
SIDE = 10 * PX          # a canvas ten cells square
LIT, CLIPPED = 240.0, 255.0


def _canvas() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty hand and clipped masks (uint8) and a largest-channel plane (float32) of a canvas."""
    return (np.zeros((SIDE, SIDE), np.uint8), np.zeros((SIDE, SIDE), np.uint8),
            np.full((SIDE, SIDE), 150.0, np.float32))


def test_clipped_paper_beside_a_lit_hand_is_not_taken_for_its_middle():
    # a lit hand down the left side (its skin at 240 of the clip's 250), and clipped paper
    # running from it seven cells across, around six unclipped tiles: the hand is one side of
    # the paper's outline, a small share of it. Only the paper within reach of the hand may be
    # covered; the paper three cells and more away is in plain view
    hand, clipped, raw_v = _canvas()
    hand[:, :2 * PX] = 1
    raw_v[:, :2 * PX] = LIT
    clipped[PX // 2:6 * PX + PX // 2, 2 * PX:9 * PX] = 1
    for r in (1, 4):
        for c in (3, 5, 7):
            clipped[r * PX + 1:(r + 1) * PX - 1, c * PX + 1:(c + 1) * PX - 1] = 0
    raw_v[clipped > 0] = CLIPPED
    out = hcol._lit_clipped(hand, clipped, PX, raw_v)
    far = np.zeros_like(hand)
    far[:, 5 * PX:] = 1
    assert not (out & far & clipped).any()
    # the paper right beside the hand is still within its reach (a lit knuckle, fingers)
    assert out[3 * PX, 2 * PX + 2]


def test_an_arms_clipped_middle_between_its_lit_edges_is_still_covered():
    # an arm across the whole canvas: its two shaded edges are skin, its middle between them
    # clips; the hand runs along all of that middle's outline (the canvas's edge is none)
    hand, clipped, raw_v = _canvas()
    hand[3 * PX:4 * PX] = 1
    hand[6 * PX:7 * PX] = 1
    raw_v[hand > 0] = LIT
    clipped[4 * PX:6 * PX] = 1
    raw_v[clipped > 0] = CLIPPED
    out = hcol._lit_clipped(hand, clipped, PX, raw_v)
    assert out[4 * PX:6 * PX].all()


def test_cells_in_plain_view_beside_a_lit_hand_are_read():
    """Hard seed 187: a warm lamp clips the paper in two channels and a lit hand lies across
    case 1; the clipped paper beside it was covered with the hand, two and more cells from
    it. Those cells read as laid."""
    _read_cells(187, 1, [(0, 0), (0, 1), (3, 0), (3, 1), (4, 0), (4, 1), (5, 0), (5, 1)])


def test_an_arm_clipped_under_a_warm_lamp_still_hides_its_cells():
    """Hard seeds 131 and 187: an arm whose middle clips under the lamp, as the paper does:
    no cell under it is read (every code reported is the one laid there)."""
    for seed in (131, 187):
        image, truth = hexapod_scene(seed, "hard")
        obs = HexapodReader(track=False).read(image)
        for case in truth.cases:
            got = next(c for c in obs.cases if c.player == case.player)
            for r, row in enumerate(case.grid):
                for c, code in enumerate(row):
                    assert got.grid[r][c] in (code, "?"), (seed, case.player, r, c)
