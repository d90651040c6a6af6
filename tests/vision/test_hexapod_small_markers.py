"""Hexapod cases whose markers are too small for the decoder at the frame's size
(`hexapod_markers.doubled`): a board photographed from afar, its markers 12-18 px wide (a
module under three pixels) and turned, gives the decoder no quad it can read, and no case was
found at all (held-out `small` seed 46: a board 16 px a cell, turned about 45 degrees, on a
bright street photograph whose sky swallows the sheet's outline). With no case found, the
frame is searched at twice its size. Held-out pictures composed from the exported faces and
board (tests/vision/hexapod_heldout.py), whose homography is the truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HexapodCase
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_markers import (
    MarkerTracker,
    case_codes,
    detect,
    doubled,
    make_detector,
)

from .hexapod_heldout import VARIANTS, heldout_case

LAYOUT = HexapodCase()


@pytest.fixture(scope="module")
def small46(exported):
    return heldout_case(exported, 46, VARIANTS["small"])


def test_the_decoder_reads_no_marker_of_the_small_board_at_the_frames_size(small46):
    """The premise: at full size not one of its four markers decodes."""
    grey = cv2.cvtColor(small46.image, cv2.COLOR_BGR2GRAY)
    codes = case_codes()
    found, _ = detect(grey, make_detector(codes), codes=codes)
    assert found == []


def test_at_twice_the_size_the_case_is_found_where_the_picture_put_it(small46):
    grey = cv2.cvtColor(small46.image, cv2.COLOR_BGR2GRAY)
    codes = case_codes()
    poses = doubled(grey, make_detector(codes), codes=codes)
    assert [p.player for p in poses] == [1]
    pose = poses[0]
    assert len(pose.markers) == 4
    # the grid's corners where the picture's own homography puts them (board mm -> image px)
    board = small46.boards[0]
    side = 6 * LAYOUT.cell_mm
    mm = np.array([[0.0, 0.0, 1.0], [side, 0.0, 1.0], [side, side, 1.0], [0.0, side, 1.0]])
    want = (board.mm_to_px @ mm.T).T
    want = want[:, :2] / want[:, 2:]
    got = np.asarray(pose.grid_corners(LAYOUT))
    assert np.abs(got - want).max() < 2.0, (got, want)


def test_the_reader_reads_the_small_board(small46):
    obs = HexapodReader(track=False).read(small46.image)
    assert [c.player for c in obs.cases] == [1]
    assert obs.cases[0].grid == small46.grid


def test_a_picture_with_no_board_gives_no_case_at_twice_its_size(small46):
    """The same street photograph with the board painted over in the sky's colour: the
    doubled search finds nothing (no false case)."""
    img = small46.image.copy()
    board = small46.boards[0]
    sheet = np.array([[-30.0, -45.0, 1.0], [200.0, -45.0, 1.0], [200.0, 210.0, 1.0],
                      [-30.0, 210.0, 1.0]])
    poly = (board.mm_to_px @ sheet.T).T
    poly = np.round(poly[:, :2] / poly[:, 2:]).astype(np.int32)
    cv2.fillConvexPoly(img, poly, tuple(int(v) for v in np.median(img[:40], (0, 1))))
    tracker = MarkerTracker(track=False)
    assert tracker.find(img)[0] == []
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    codes = case_codes()
    assert doubled(grey, make_detector(codes), codes=codes) == []
