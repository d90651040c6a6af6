"""The Hexapod display-case board is described once, in `companion.faces`: the renderer prints
that geometry and the reader looks for it. These tests print the board (`board_image`), find its
markers with OpenCV and with the reader's own detector, and check they lie where
`HEXAPOD_CASE` says, to within a pixel."""

from __future__ import annotations

import subprocess
import sys

import cv2
import numpy as np
import pytest

from companion.faces import CASE_CORNERS, HEXAPOD_CASE, HEXAPOD_PLAYERS, HexapodCase
from companion.synth.boards import aruco_dictionary
from companion.synth.hexapod_board import BOARD, CaseBoard, board_image, marker_owner
from companion.vision.hexapod_markers import LAYOUT, CaseLayout, fit_cases, make_detector

PPM = 6.0   # px per mm of the rendered boards


def _to_px(board_mm: np.ndarray, case: HexapodCase = HEXAPOD_CASE) -> np.ndarray:
    """Board mm -> pixel coordinates of `board_image` (pixel centres at integer + 0.5 mm/PPM)."""
    x0, y0 = case.sheet_mm[:2]
    return (np.asarray(board_mm, float) - (x0, y0)) * PPM - 0.5


def _detect(img: np.ndarray) -> dict[int, np.ndarray]:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(HEXAPOD_CASE.dictionary), params)
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    assert ids is not None
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def test_printer_and_reader_share_one_geometry():
    assert CaseBoard is HexapodCase and CaseLayout is HexapodCase
    assert BOARD is HEXAPOD_CASE and LAYOUT is HEXAPOD_CASE
    # the stated marker width is the dictionary's (code + one-module border)
    assert aruco_dictionary(HEXAPOD_CASE.dictionary).markerSize + 2 == HEXAPOD_CASE.marker_modules
    assert HEXAPOD_CASE.quiet_mm == pytest.approx(5.5)
    assert (HEXAPOD_CASE.width_mm, HEXAPOD_CASE.height_mm) == (168.0, 168.0)
    assert HEXAPOD_CASE.sheet_mm[2:] == (184.0, 260.0)


def test_faces_needs_no_opencv():
    code = "import sys, companion.faces; sys.exit('cv2' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@pytest.mark.parametrize("player", HEXAPOD_PLAYERS)
def test_printed_markers_are_where_the_geometry_says(player):
    img = board_image(player, PPM)
    sw, sh = HEXAPOD_CASE.sheet_mm[2:]
    assert img.shape[:2] == (round(sh * PPM), round(sw * PPM))
    found = _detect(img)
    printed = HEXAPOD_CASE.marker_corners(player)
    assert sorted(found) == list(HEXAPOD_CASE.marker_ids(player)) == sorted(printed)
    for mid, corners in printed.items():
        assert np.abs(found[mid] - _to_px(corners)).max() < 1.0, mid
        assert HEXAPOD_CASE.owner(mid) == (player, mid % 10)
        assert marker_owner(mid) == (player, CASE_CORNERS[mid % 10])
        # the stated quiet zone is blank sheet all round the marker
        q = HEXAPOD_CASE.quiet_mm
        (a0, b0), (a1, b1) = _to_px(corners[0] - q) + 1, _to_px(corners[2] + q) - 1
        ring = img[int(b0):int(b1) + 1, int(a0):int(a1) + 1].astype(int)
        m0, m1 = _to_px(corners[0]) - 1, _to_px(corners[2]) + 1
        ys, xs = np.mgrid[int(b0):int(b1) + 1, int(a0):int(a1) + 1]
        outside = (xs < m0[0]) | (xs > m1[0]) | (ys < m0[1]) | (ys > m1[1])
        assert ring[outside].min() == 255, mid


def test_printed_grid_cells_are_where_the_geometry_says():
    img = board_image(1, PPM)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(int)
    sheet = 255
    for r in range(HEXAPOD_CASE.rows):
        for c in range(HEXAPOD_CASE.cols):
            tl, _, br, _ = _to_px(HEXAPOD_CASE.cell_polygon(c, r))
            inner = grey[int(tl[1]) + 3:int(br[1]) - 2, int(tl[0]) + 3:int(br[0]) - 2]
            assert inner.min() == inner.max() < sheet    # plain cell fill, no line inside
    # the grid's outer edge: fill inside, dark frame just outside, white sheet beyond
    w, h = HEXAPOD_CASE.width_mm, HEXAPOD_CASE.height_mm
    x, y = _to_px(np.array([(w + 0.45, h / 2)]))[0]
    assert grey[int(y), int(x)] < 100
    x, y = _to_px(np.array([(w + 3.0, h / 2)]))[0]
    assert grey[int(y), int(x)] == sheet


def test_reader_fits_the_printed_board_to_the_geometry():
    img = board_image(2, PPM)
    corners, ids, _ = make_detector().detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    found = [(int(i), np.asarray(c, float).reshape(4, 2)) for c, i in zip(corners, ids.ravel(),
                                                                          strict=True)]
    (pose,) = fit_cases(found, LAYOUT)
    assert pose.player == 2 and pose.markers == (20, 21, 22, 23)
    assert pose.rms_px < 1.0          # detector corners are not refined
    w, h = LAYOUT.width_mm, LAYOUT.height_mm
    grid = np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])
    assert np.abs(pose.grid_corners(LAYOUT) - _to_px(grid)).max() < 1.0
    assert pose.cell_px(LAYOUT) == pytest.approx(LAYOUT.cell_mm * PPM, rel=0.01)


def test_geometry_is_validated():
    with pytest.raises(ValueError):
        HexapodCase(cols=1)
    with pytest.raises(ValueError, match="narrow"):
        HexapodCase(cols=2, marker_mm=40.0)
    with pytest.raises(ValueError, match="player"):
        HEXAPOD_CASE.marker_ids(5)
    assert HEXAPOD_CASE.owner(3) is None and HEXAPOD_CASE.owner(14) is None
    assert HEXAPOD_CASE.owner(50) is None and HEXAPOD_CASE.owner(-1) is None
