"""A display case two of whose markers the decoder reads while blur leaves the others without a
quad (the detector's and `partial_cases`' thresholds find none, and a sleeve over the board
joins its sheet's outline to the arm): the homography through the two markers' eight corners
puts the case's other marker places, each is searched for its own code as a sheet's marker
places are, and the case is fitted through three markers (`hexapod_boards.placed_cases`).
Rendered hard scene 628 (3 px of motion blur, a white sleeve over marker 20; markers 22 and 23
decode, 21 shows its code at its place but gives no quad) carries its own truth; the guards
change only marker 21's place."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.faces import HEXAPOD_CASE as LAYOUT
from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_markers import MarkerTracker
from companion.vision.observation import UNKNOWN

SEED = 628


def _scene() -> tuple[np.ndarray, object]:
    params = replace(sample_params(SEED, "hard", 1280, 720), hfov_deg=0.0)
    return hexapod_scene(SEED, "hard", params=params)


def _place(truth: object, marker: int) -> np.ndarray:
    """The frame corners of `marker` (player 2's case) in the rendered truth."""
    case = next(c for c in truth.cases if c.player == 2)
    return np.array(next(m.corners for m in case.markers if m.id == marker), np.float64)


def test_a_case_two_of_whose_markers_decode_is_found_by_the_others_codes() -> None:
    """Player 2's case is found (the old reader: not found, its 32 visible cells '?'), its grid
    within a fifth of a cell of the true one, and every visible cell reads its true code."""
    image, truth = _scene()
    result = HexapodReader(track=False, keep_still=False).read_full(image)
    seen = {c.player: c for c in result.observation.cases}
    assert set(seen) == {1, 2}
    case = next(c for c in truth.cases if c.player == 2)
    pose = next(p for p in result.poses if p.player == 2)
    corners = np.array(case.corners)
    cell = np.linalg.norm(corners[1] - corners[0]) / LAYOUT.cols
    assert np.abs(pose.grid_corners(LAYOUT) - corners).max() < 0.2 * cell
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            got = seen[2].grid[r][c]
            assert got in (code, UNKNOWN)
            assert got == code or case.visible[r][c] < 1.0


def _redrawn(image: np.ndarray, quad: np.ndarray, marker: int | None) -> np.ndarray:
    """`image` with the place `quad` (and its quiet zone) covered by blank paper, or by the
    printed marker `marker` (DICT_4X4_50, upright), in the frame's paper and ink levels."""
    out = image.copy()
    centre = quad.mean(axis=0)
    paper = np.percentile(image.reshape(-1, 3), 99, axis=0)
    cv2.fillConvexPoly(out, np.round(centre + 1.5 * (quad - centre)).astype(np.int32),
                       tuple(float(v) for v in paper))
    if marker is not None:
        side = 60
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        printed = cv2.aruco.generateImageMarker(dictionary, marker, side)
        src = np.float32([(0, 0), (side, 0), (side, side), (0, side)])
        H = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        h, w = image.shape[:2]
        ink = cv2.warpPerspective(printed, H, (w, h), flags=cv2.INTER_AREA,
                                  borderValue=255).astype(np.float32) / 255.0
        ink = cv2.GaussianBlur(ink, (0, 0), 1.0)[..., None]     # the frame's blur, about
        dark = np.float32((40, 38, 36))
        out = (out * ink + dark * (1.0 - ink)).astype(np.uint8)
    return out


def test_two_markers_and_a_blank_or_foreign_third_make_no_case() -> None:
    """Guards: marker 21's place covered by blank paper (two markers alone are no case), or
    showing another case's code there (marker 11, player 1's top-right: a clear other code
    at a place means no case) — player 2 is not found, and player 1 only where it is."""
    image, truth = _scene()
    quad = _place(truth, 21)
    for marker in (None, 11):
        poses, _ = MarkerTracker(LAYOUT, track=False).find(_redrawn(image, quad, marker))
        assert {p.player for p in poses} == {1}
