"""A printed grid line is looked for a pixel either side of where the case's pose puts it
(`hexapod_lines.LINE_REACH`). The board's lines are 0.45 mm wide, a fifth of a canvas pixel, and a
pose fitted through the markers puts the grid a pixel or so off its printed place (more through
three markers under blur): sampled only at its place, a line a pixel off was read as none, and a
shaded empty cell whose lines vouch for it was left '?' (hard 652, 480, 654: 31 cells of hard
0-699 came back). The guards: flat surfaces show no line at any shift, the test of no trace of
a line (light cloth, `CLOTH_TRACE`) keeps the line's own place, and a sleeve over the cards keeps
them '?' however the pose lies."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.vision import hexapod_lines as hlines
from companion.vision.hexapod_cells import read_case
from companion.vision.hexapod_markers import MarkerTracker

from .hexapod_heldout import flat_over_band, heldout_case, soft_band, wrong_cells

PX, M = 24, 12                      # the reader's canvas: px per cell, margin
SHAPE = (6 * PX + 2 * M, 6 * PX + 2 * M)
CELL = np.array([2 * 6 + 2])        # cell (2, 2)


def _canvas(value: float = 200.0) -> np.ndarray:
    return np.full(SHAPE, value, np.float32)


def test_a_line_a_pixel_off_its_place_is_seen():
    """Crafted: fill with a printed line one pixel right of its place along cell (2, 2)'s left
    side (its place lies between the two pixels either side of the cell's edge). At its place
    the two sampled pixels miss it; a pixel over, the whole side shows it."""
    grey = _canvas()
    x = M + 2 * PX + 1
    grey[:, x] = 170.0
    at_place = hlines._side_lines(grey, PX, M, 6, 6, CELL, 0.03)[0, 2]
    seen = hlines._seen_lines(grey, PX, M, 6, 6, CELL, 0.03)[0, 2]
    assert at_place == 0.0
    assert seen == 1.0
    # two pixels off is beyond the reach: no line there
    grey = _canvas()
    grey[:, x + 1] = 170.0
    assert hlines._seen_lines(grey, PX, M, 6, 6, CELL, 0.03)[0, 2] == 0.0


def test_flat_noisy_surfaces_show_no_line_at_any_shift():
    """The guard: flat surfaces with sensor-like noise (1-2 % of their level, as cloth or
    shaded fill shows it) dip by a printed line's share along an odd sample at most, at every
    shift: no side of any cell shows a line, and no cell is lined across or all round."""
    rng = np.random.default_rng(7)
    cells = np.arange(36)
    for level, sigma in ((200.0, 2.0), (120.0, 2.0), (60.0, 1.2), (230.0, 4.0)):
        grey = _canvas(level) + rng.normal(0.0, sigma, SHAPE).astype(np.float32)
        shares = hlines._seen_lines(grey, PX, M, 6, 6, cells, 0.03)
        assert shares.max() < 0.5, (level, sigma)
        sat, v = np.zeros(SHAPE, np.float32), np.ones(SHAPE, np.float32)
        assert not hlines.lines_across(grey, sat, v, PX, M, 6, 6, cells, share=0.5).any()
        assert not hlines.lines_all_round(grey, PX, M, 6, 6, cells).any()


def test_a_trace_of_a_line_is_judged_at_its_place():
    """Cloth is what shows no trace of a line at the line's own place (`line_shares` with
    `flat`: the lines seen at the best shift, the flat shares, the trace at the place): a line
    a pixel off is seen, and leaves no trace at its place."""
    from companion.vision.hexapod_colour import Pixels

    grey = _canvas()
    grey[:, M + 2 * PX + 1] = 170.0
    ones = np.full(SHAPE, 0.9, np.float32)
    pix = Pixels(ones, ones * 0.0, ones * 0.0, np.zeros(SHAPE, np.uint8))
    seen, _, trace = hlines.line_shares(CELL, lambda: grey, pix, PX, M, 6, 6, flat=True)
    assert seen[0, 2] == 1.0 and trace[0, 2] == 0.0


def _pose(image: np.ndarray, dx_mm: float, dy_mm: float):
    """The case's pose in `image`, moved `dx_mm`, `dy_mm` across the board (1.2 mm is about
    a canvas pixel)."""
    poses, _ = MarkerTracker(track=False).find(image)
    pose = poses[0]
    shift = np.array([[1.0, 0.0, dx_mm], [0.0, 1.0, dy_mm], [0.0, 0.0, 1.0]])
    return replace(pose, homography=pose.homography @ shift)


@pytest.mark.parametrize("shift", [(0.0, 1.2), (-1.2, 1.2)])
def test_shaded_empty_cells_read_with_the_pose_a_pixel_off(exported, shift):
    """Rendered (held-out 1): a soft shadow (light down by 40 %) over columns 2-4 from row 1,
    the pose a pixel off the printed grid. The shaded empty cells read as fill only through the
    local gain, so they stand only on their lines; a pixel off, those were read as none and
    three cells were '?'. Every empty cell reads empty, and nothing reads a code it is not."""
    scene = heldout_case(exported, 1)
    shaded = np.clip(scene.image * (1.0 - 0.4 * soft_band(scene)), 0, 255).astype(np.uint8)
    grid = read_case(shaded, _pose(shaded, *shift)).grid
    assert wrong_cells(grid, scene.grid) == []
    assert [(r, c) for r in range(6) for c in range(6)
            if scene.grid[r][c] == "." and grid[r][c] != "."] == []


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("share", [0.3, 0.6, 0.85, 0.95])
@pytest.mark.parametrize("shift", [(0.0, 0.0), (1.2, 0.0), (0.0, 1.2)])
def test_a_sleeve_over_cards_stays_unknown_with_the_pose_a_pixel_off(exported, seed, share,
                                                                        shift):
    """The guard: a flat sleeve (dark grey to as light as the fill, `flat_over_band`) over
    columns 2-4 from row 1, the pose on the grid or a pixel off it: no cell reads a code it
    is not, and every card under the sleeve stays '?'."""
    scene = heldout_case(exported, seed)
    image = flat_over_band(scene, np.float32(share))
    grid = read_case(image, _pose(image, *shift)).grid
    assert wrong_cells(grid, scene.grid) == []
    under = [(r, c) for r in range(1, 6) for c in range(2, 5) if scene.grid[r][c] != "."]
    assert under and all(grid[r][c] == "?" for r, c in under)


def test_empty_cells_a_hand_mask_reaches_read_by_lines_a_pixel_off() -> None:
    """Rendered hard 615 (a bright lamp, a hand reaching in beside the last column): the hand's
    mask reaches cells (2, 5) to (4, 5), which are empty board; their lines along two opposite
    sides show a pixel off their places (all along each side). A card two cells or more across
    would hide one of each pair, so they read empty (the old reader: '?'); nothing in the case
    reads a code it is not."""
    from companion.scenarios import hexapod_scene
    from companion.synth.scene import sample_params
    from companion.vision.hexapod import HexapodReader
    from companion.vision.observation import UNKNOWN

    params = replace(sample_params(615, "hard", 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(615, "hard", params=params)
    case = next(c for c in truth.cases if c.player == 1)
    got = next(c for c in HexapodReader(track=False).read(image).cases if c.player == 1)
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            assert got.grid[r][c] in (code, UNKNOWN)
    assert [got.grid[r][5] for r in (2, 3, 4)] == [".", ".", "."]
    assert all(case.grid[r][5] == "." for r in (2, 3, 4))


@pytest.mark.parametrize("variant", ["hand", "grey-sleeves"])
@pytest.mark.parametrize("seed", [0, 2, 3, 7, 12])
def test_an_arm_over_cells_stays_unknown_with_the_pose_a_pixel_off(exported, variant, seed):
    """The guard: held-out pictures with an arm (skin or a grey sleeve) reaching over the board,
    read with the pose on the grid and a pixel off it each way: no cell, covered or not, reads a
    code it is not."""
    from .hexapod_heldout import VARIANTS

    scene = heldout_case(exported, seed, VARIANTS[variant])
    board = scene.boards[0]
    assert board.hidden.any()
    for shift in ((0.0, 0.0), (1.2, 0.0), (0.0, 1.2), (-1.2, -1.2)):
        grid = read_case(scene.image, _pose(scene.image, *shift)).grid
        assert wrong_cells(grid, board.grid) == [], shift
