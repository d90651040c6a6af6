"""Case poses from three decoded markers must not be several pixels off. A homography through
three markers extrapolates their corners' noise to the grid's far corner (3-9 px on blurred
hard scenes); `complete` takes a fourth marker the decoder rejected when a quad of its size, turn
and code lies where the three put it, and `sharpen` (`MarkerTracker(sharpen=True)`, off by
default) refits a three-marker case through corners refined on the markers' straight edges.
Truth is the renderer's grid corners; the wrong-code test paints a code no marker has where the
fourth marker lies."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import pytest

from companion.scenarios import hexapod_scene
from companion.vision.calibration import refine_corners
from companion.vision.hexapod_markers import LAYOUT, MarkerTracker, printed_corners


@lru_cache(maxsize=8)
def _scene(seed: int):
    image, truth = hexapod_scene(seed, "hard")
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), truth


def _errors(grey: np.ndarray, truth, sharpen: bool = False
            ) -> dict[int, tuple[tuple[int, ...], float]]:
    """player -> (markers used, largest grid-corner error px) of a cold search."""
    poses, _ = MarkerTracker(track=False, sharpen=sharpen).find(grey)
    want = {c.player: np.array(c.corners) for c in truth.cases}
    return {p.player: (p.markers, float(np.linalg.norm(p.grid_corners() - want[p.player],
                                                       axis=1).max())) for p in poses}


# hard 92: both cases' fourth markers are in full view but undecoded (the old fit through three
# put the grids 5.5 and 9 px off); hard 173 the same (6.8 and 7.5 px)
@pytest.mark.parametrize("seed", [92, 173])
def test_fourth_marker_in_view_is_used(seed: int) -> None:
    grey, truth = _scene(seed)
    found = _errors(grey, truth)
    assert set(found) == {c.player for c in truth.cases}
    for markers, err in found.values():
        assert len(markers) == 4
        assert err < 2.0


# hard 49 and 181: the fourth marker is out of view or under a hand; the old raw three-marker
# fit put the grid 5.2 and 4.2 px off
@pytest.mark.parametrize(("seed", "player"), [(49, 1), (181, 1)])
def test_three_marker_case_is_refined(seed: int, player: int) -> None:
    grey, truth = _scene(seed)
    markers, err = _errors(grey, truth, sharpen=True)[player]
    assert len(markers) == 3
    assert err < 2.0
    assert _errors(grey, truth)[player] != (markers, err)   # off by default: the raw fit


def _foreign_code() -> np.ndarray:
    """A 6 x 6 marker image (border and 4 x 4 bits, 0/255) three bits or more from every code of
    DICT_4X4_50 in every turn: no ArUco decoder takes it for a marker."""
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    codes = [d.getBitsFromByteList(d.bytesList[i:i + 1], 4) for i in range(50)]
    for n in range(1 << 16):
        bits = ((n >> np.arange(16)) & 1).reshape(4, 4).astype(np.uint8)
        if all((np.rot90(c, t) != bits).sum() >= 3 for c in codes for t in range(4)):
            return np.pad(bits * 255, 1)
    raise AssertionError("no foreign code")


def test_a_quad_with_another_code_is_not_taken_as_the_fourth_marker() -> None:
    # paint a code no marker has exactly over case 1's undecoded marker 11 of hard 92: the
    # decoder rejects the quad, which lies where the three markers put it, of the right size;
    # only its code is not 11's, so the case stays a three-marker fit
    grey, truth = _scene(92)
    case = next(c for c in truth.cases if c.player == 1)
    quad = np.array(next(m.corners for m in case.markers if m.id == 11), np.float32)
    size = 60
    art = np.full((size * 2, size * 2), 255, np.uint8)
    art[size // 2:size // 2 + size, size // 2:size // 2 + size] = cv2.resize(
        _foreign_code(), (size, size), interpolation=cv2.INTER_NEAREST)
    src = np.float32([[size // 2, size // 2], [size * 1.5, size // 2], [size * 1.5, size * 1.5],
                      [size // 2, size * 1.5]])
    warp = cv2.getPerspectiveTransform(src, quad)
    h, w = grey.shape
    painted = cv2.warpPerspective(art, warp, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full_like(art, 255), warp, (w, h)) > 0
    fake = grey.copy()
    fake[mask] = painted[mask]
    fake = cv2.GaussianBlur(fake, (0, 0), 1.0)
    poses, _ = MarkerTracker(track=False).find(fake)
    pose = next(p for p in poses if p.player == 1)
    assert 11 not in pose.markers


def test_tracked_frames_keep_the_recovered_fourth_marker() -> None:
    # hard 17: case 1's marker 13 is in view but never decodes. The next frame is searched in
    # windows about the markers the last fit used: the window of the one the decoder rejects
    # must give it back, or the case looks broken and the tracker falls back to a full search
    image, _ = hexapod_scene(17, "hard", frame=1)
    tracker = MarkerTracker()
    first, _ = tracker.find(_scene(17)[0])
    assert {p.player: len(p.markers) for p in first}[1] == 4
    poses, full = tracker.find(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert not full
    assert {p.player: len(p.markers) for p in poses}[1] == 4


def test_refine_corners_finds_a_blurred_square_to_a_fifth_of_a_pixel() -> None:
    # a black square on white, drawn 8x finer, shrunk and blurred: its corners are known exactly
    scale, corners = 8, np.array([[40.3, 30.6], [81.1, 33.2], [78.4, 73.9], [37.7, 71.5]])
    big = np.full((120 * scale, 120 * scale), 235, np.uint8)
    cv2.fillConvexPoly(big, np.round((corners + 0.5) * scale - 0.5).astype(np.int32), 25)
    grey = cv2.GaussianBlur(cv2.resize(big, (120, 120), interpolation=cv2.INTER_AREA), (0, 0), 1.5)
    rough = corners + np.array([[0.8, -0.6], [-0.7, 0.9], [0.6, 0.5], [-0.9, -0.4]])
    got = refine_corners(grey, rough)
    assert np.abs(got - corners).max() < 0.2


def test_refine_corners_leaves_a_marker_at_the_frame_edge_unrefined_or_close() -> None:
    # the profiles of a square cut by the frame's edge run off the image: the refinement must not
    # invent an edge there (it keeps the given corners or stays within a pixel)
    corners = np.array([[-3.0, 10.0], [30.0, 10.0], [30.0, 43.0], [-3.0, 43.0]])
    grey = np.full((60, 60), 230, np.uint8)
    cv2.fillConvexPoly(grey, np.round(corners).astype(np.int32), 20)
    got = refine_corners(grey, corners)
    assert np.abs(got - corners).max() <= 1.0


def test_printed_fourth_marker_prediction_is_within_reach() -> None:
    # the premise of `complete`: on hard 92, the three decoded markers of case 1 put the fourth
    # within half a side of where the renderer drew it
    _, truth = _scene(92)
    case = next(c for c in truth.cases if c.player == 1)
    marks = {m.id: np.array(m.corners) for m in case.markers}
    printed = printed_corners(LAYOUT, 1)
    src = np.vstack([printed[i] for i in (10, 12, 13)])
    H, _ = cv2.findHomography(src, np.vstack([marks[i] for i in (10, 12, 13)]), 0)
    want = cv2.perspectiveTransform(printed[11].reshape(-1, 1, 2), H).reshape(-1, 2)
    side = float(np.linalg.norm(marks[11][1] - marks[11][0]))
    assert np.linalg.norm(want - marks[11], axis=1).max() < 0.5 * side


def test_refine_corners_keeps_a_marker_with_a_shadow_over_one_side() -> None:
    # a hand's shadow darkens the paper beside one edge: the half-way level there is not the
    # edge's, so with `even` the corners stay as given (without it they are moved)
    corners = np.array([[40.0, 30.0], [80.0, 30.0], [80.0, 70.0], [40.0, 70.0]])
    grey = np.full((110, 120), 230, np.uint8)
    grey[:, 81:] = 110                                        # shadow right of the right edge
    cv2.fillConvexPoly(grey, corners.astype(np.int32), 20)
    grey = cv2.GaussianBlur(grey, (0, 0), 1.0)
    rough = corners + np.array([[0.7, -0.5], [-0.6, 0.8], [0.5, 0.6], [-0.8, -0.4]])
    assert np.array_equal(refine_corners(grey, rough, even=0.5), rough)
    assert not np.array_equal(refine_corners(grey, rough), rough)


def test_table_markers_decode_with_the_table_codes_only() -> None:
    # the table passes hold only ids 0-3: those decode as before, another id's marker is left out
    from companion.vision.calibration import detect_markers

    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img = np.full((400, 600), 235, np.uint8)
    spots = {0: (40, 40), 1: (480, 40), 2: (480, 300), 3: (40, 300), 7: (260, 170)}
    for mid, (x, y) in spots.items():
        img[y:y + 60, x:x + 60] = d.generateImageMarker(mid, 60)
    found = detect_markers(cv2.GaussianBlur(img, (0, 0), 0.8))
    assert set(found) == {0, 1, 2, 3}
    for mid, c in found.items():
        x, y = spots[mid]
        want = np.array([[x, y], [x + 60, y], [x + 60, y + 60], [x, y + 60]]) - 0.5
        assert np.abs(c - want).max() < 0.5
