"""The Hexapod reader's cheaper paths give what the plain ones give, bit for bit: a tracked
frame's fourth-marker check reads the code from a grey window about the quad instead of the
whole frame's grey (`FrameGrey.around`, `code_scores(..., origin=)`), and the small geometric
helpers work on plain floats or cached points where they took `np.roll`, `np.linalg.norm` and
`mean` of four corners. Expected values come from the plain NumPy / whole-frame computations."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.aruco_match import code_scores
from companion.vision.hexapod_boards import _upright
from companion.vision.hexapod_cells import off_frame
from companion.vision.hexapod_markers import (
    LAYOUT,
    CasePose,
    FrameGrey,
    _shows_code,
    case_templates,
)
from companion.vision.hexapod_outlines import _extended, _polygon, line_meet


def _frame_with_marker(mid: int, x0: float, y0: float, side: float, seed: int
                       ) -> tuple[np.ndarray, np.ndarray]:
    """(BGR frame 1280 x 720 of noise, a case marker's (4, 2) corners in it): marker `mid`
    drawn with its top-left at (x0, y0), `side` px, in a white quiet zone (it may run off the
    frame's edge)."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(40, 200, (720, 1280, 3)).astype(np.uint8)
    code = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, LAYOUT.dictionary)) \
        .generateImageMarker(mid, LAYOUT.marker_modules, borderBits=1)
    marker = np.pad(code, 1, constant_values=255)                 # a module of quiet zone
    n = marker.shape[0]
    quad = np.array([(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)])
    src = np.array([(1, 1), (n - 1, 1), (n - 1, n - 1), (1, n - 1)], np.float32)
    H = cv2.getPerspectiveTransform(src - 0.5, quad.astype(np.float32))
    warped = cv2.warpPerspective(marker, H, (1280, 720), flags=cv2.INTER_LINEAR,
                                 borderValue=0)
    inside = cv2.warpPerspective(np.ones_like(marker), H, (1280, 720), borderValue=0) > 0
    frame[inside] = warped[inside][:, None]
    return cv2.GaussianBlur(frame, (3, 3), 0.8), quad


@pytest.mark.parametrize(("x0", "y0", "side"), [
    (600.3, 300.7, 24.0),      # well inside the frame
    (-6.2, 200.4, 30.0),       # across the left edge
    (1262.8, 705.1, 22.0),     # across the right and bottom edges
    (3.1, 2.6, 17.0),          # by the top-left corner
])
def test_a_tracked_frames_code_check_reads_a_window_as_the_whole(x0, y0, side):
    templates, ids = case_templates(LAYOUT)
    bgr, quad = _frame_with_marker(12, x0, y0, side, seed=int(abs(x0)))
    whole = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(int(y0))
    for trial in range(40):
        q = (quad + rng.normal(0.0, 1.5, (4, 2)))[None].astype(np.float32)
        frame = FrameGrey(bgr)
        grey, origin = frame.around(q)
        assert grey.size < whole.size
        got = code_scores(grey, q, templates, LAYOUT.marker_modules, origin=origin)
        want = code_scores(whole, q, templates, LAYOUT.marker_modules)
        assert np.array_equal(got, want), trial
    # the check itself: the marker's own code, read without converting the whole frame
    frame = FrameGrey(bgr)
    assert _shows_code(frame, quad, 12, templates, ids, LAYOUT) == \
        _shows_code(whole, quad, 12, templates, ids, LAYOUT)
    assert frame._whole is None
    if x0 >= 0.0 and x0 + side < 1280 and y0 >= 0.0 and y0 + side < 720:
        assert _shows_code(frame, quad, 12, templates, ids, LAYOUT)
        assert not _shows_code(frame, quad, 13, templates, ids, LAYOUT)   # not another's


def test_a_degenerate_quad_reads_the_whole_frame():
    """A quad with a corner not finite (a degenerate pose) gets the whole frame to sample,
    not an exception from its bounds."""
    bgr, quad = _frame_with_marker(12, 300.0, 200.0, 40.0, seed=3)
    bad = quad.astype(np.float64).copy()
    bad[2] = (np.inf, np.nan)
    grey, origin = FrameGrey(bgr).around(bad)
    assert grey.shape == bgr.shape[:2] and origin == (0, 0)


def _pose(seed: int) -> CasePose:
    """A case pose of random tilt, turn and scale (board mm -> image px)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-np.pi, np.pi)
    s = rng.uniform(0.8, 2.5)
    H = np.array([[s * np.cos(a), -s * np.sin(a), rng.uniform(-100, 900)],
                  [s * np.sin(a), s * np.cos(a), rng.uniform(-100, 600)],
                  [rng.uniform(-4e-4, 4e-4), rng.uniform(-4e-4, 4e-4), 1.0]])
    return CasePose(1, H, (10, 11, 12, 13), 0.3, 20.0)


def test_cell_size_and_frame_edge_are_the_plain_numpy_ones():
    s = LAYOUT.cell_mm
    y, x = np.mgrid[0:LAYOUT.rows + 1, 0:LAYOUT.cols + 1]
    for seed in range(300):
        pose = _pose(seed)
        c = pose.grid_corners(LAYOUT)
        sides = np.linalg.norm(np.roll(c, -1, 0) - c, axis=1)
        assert pose.cell_px(LAYOUT) == float(sides.mean() / ((LAYOUT.cols + LAYOUT.rows) / 2.0))
        pts = pose.to_image(np.c_[x.ravel() * s, y.ravel() * s]).reshape(*x.shape, 2)
        out = (pts[..., 0] < 0) | (pts[..., 0] > 1279) | (pts[..., 1] < 0) | (pts[..., 1] > 719)
        want = (out[:-1, :-1] | out[:-1, 1:] | out[1:, :-1] | out[1:, 1:]).reshape(-1)
        assert np.array_equal(off_frame((720, 1280, 3), pose, LAYOUT), want)


def test_sheet_turns_and_extended_quads_are_the_plain_numpy_ones():
    rng = np.random.default_rng(7)
    for _ in range(300):
        # a convex hexagon: a rectangle with two corners cut, in half-size px
        w, h = rng.uniform(40, 200, 2)
        cut = rng.uniform(2, 15, 4)
        pts = np.array([(cut[0], 0), (w - cut[1], 0), (w, cut[1]), (w, h), (0, h),
                        (0, cut[0])]) + rng.uniform(0, 300, 2) + rng.normal(0, 0.2, (6, 2))
        corners = pts[[0, 2, 3, 4]]
        sides = np.linalg.norm(np.roll(corners, -1, 0) - corners, axis=1)
        _, _, sw, sh = LAYOUT.sheet_mm
        assert _upright(corners, LAYOUT) == bool(
            (sides[0] + sides[2] < sides[1] + sides[3]) == (sw < sh))
        hull = cv2.convexHull(np.round(pts).astype(np.int32))
        for n in (5, 6):
            p = _polygon(hull, n)
            if p is None:
                continue
            assert np.array_equal(np.array(_extended(p)).reshape(-1, 4, 2),
                                  np.array(_plain_extended(p)).reshape(-1, 4, 2))


def _plain_extended(p: np.ndarray) -> list[np.ndarray]:
    """`_extended` on NumPy arrays and scalars throughout (as it was written first)."""
    from itertools import combinations
    n = len(p)
    d = np.roll(p, -1, 0) - p
    angle = np.arctan2(d[:, 1], d[:, 0])
    turn = np.mod(np.roll(angle, -1) - angle, 2 * np.pi)
    cum = np.concatenate([[0.0], np.cumsum(np.tile(turn, 2))])
    out = []
    for keep in combinations(range(n), 4):
        pairs = list(zip(keep, [*keep[1:], keep[0] + n], strict=True))
        if any(cum[b] - cum[a] >= np.pi for a, b in pairs):
            continue
        q = [line_meet(p[a], p[(a + 1) % n], p[b % n], p[(b + 1) % n]) for a, b in pairs]
        if all(x is not None for x in q):
            out.append(np.array(q))
    return out
