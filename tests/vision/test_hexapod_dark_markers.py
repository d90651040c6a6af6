"""Display cases whose blurred markers left the decoder no quad, found from their markers' dark
blobs (`hexapod_markers.dark_cases`): rendered hard tables read where the case was not found
before, and the guards — a search only for a case one of whose markers was seen, three markers
of one case in the printed layout, near duplicates merged — keep a wrong or a missing marker
from making a case."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import hexapod_markers
from companion.vision.hexapod import HexapodReader

from .hexapod_scenes import assert_case_found, decoded_markers, hard_scene, paint_marker


@pytest.mark.parametrize(("seed", "min_right"), [(151, 9), (312, 17)])
def test_a_case_whose_blurred_marker_left_no_quad_is_found(seed, min_right):
    """Hard 151 and 312: player 1's markers 10 and 13 decode, 11 is under a hand and 12 is
    motion-blurred past a quad at full and half size (and where the two put it). Its dark blob
    matches its code, and the case is found from three markers; it reads no cell wrong (a
    hidden cell only '?' or its own code) and at least `min_right` right."""
    assert_case_found(seed, 1, min_right)


def _size(found: list) -> tuple[float, float]:
    """The mean-side bounds the whole-frame search gives the matched markers."""
    side = float(np.median(hexapod_markers.quad_sides(np.array([c for _, c in found]))))
    return 0.6 * side, 1.6 * side


def test_the_blob_search_looks_only_for_a_case_of_which_a_marker_was_seen():
    """Hard 312 with player 2's case located: from markers 10 and 13 seen, the blobs find
    player 1's case through 12; with no marker of player 1 seen (the same frame, the same
    blobs) no search is made and no case is reported."""
    image, _ = hard_scene(312)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = decoded_markers(image)
    located = [p for p in hexapod_markers.fit_cases(found) if p.player == 2]
    assert [p.player for p in located] == [2]
    mine = [(i, c) for i, c in found if i in (10, 13)]
    assert {i for i, _ in mine} == {10, 13}
    cases = hexapod_markers.dark_cases(grey, mine, located, _size(found))
    assert [(p.player, sorted(p.markers)) for p in cases] == [(1, [10, 12, 13])]
    others = [(i, c) for i, c in found if i // 10 == 2]
    assert hexapod_markers.dark_cases(grey, others, located, _size(found)) == []


@pytest.mark.parametrize("painted", [30, 11, None])
def test_a_wrong_code_or_no_marker_at_the_blob_makes_no_case(painted):
    """Hard 312: with another player's code (30), another corner's code of the same case (11,
    whose place the layout puts elsewhere) or white printed over blurred marker 12, the blob
    there is not marker 12, and two markers are no case: neither the search nor the reader
    reports player 1's case."""
    image, truth = hard_scene(312)
    case = next(c for c in truth.cases if c.player == 1)
    frame = paint_marker(image, np.array(case.markers[2].corners, np.float64), painted)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = decoded_markers(frame)
    located = [p for p in hexapod_markers.fit_cases(found) if p.player == 2]
    mine = [(i, c) for i, c in found if i in (10, 13)]
    assert hexapod_markers.dark_cases(grey, mine, located, _size(found)) == []
    seen = {c.player for c in HexapodReader(track=True, keep_still=False).read(frame).cases}
    assert 1 not in seen


def test_near_duplicate_places_are_merged_and_bounded_per_id():
    """`_distinct`: a second outline of one marker (centre within half a side) is dropped, a
    place of the same id elsewhere is kept up to `per_id` places an id, the first of each
    staying (the markers seen come first); other ids are counted apart."""
    square = np.array([(0, 0), (20, 0), (20, 20), (0, 20)], np.float64)
    places = [(10, square, "seen"), (10, square + 3, "again"), (10, square + 100, "far"),
              (10, square + 200, "farther"), (11, square + 4, "other id")]
    names = [p[2] for p in hexapod_markers._distinct(places, per_id=2)]
    assert names == ["seen", "far", "other id"]
    assert [p[2] for p in hexapod_markers._distinct(places, per_id=1)] == ["seen", "other id"]
    assert [p[2] for p in hexapod_markers._distinct(places, per_id=3)] == \
        ["seen", "far", "farther", "other id"]


def test_a_blurred_turned_marker_is_one_dark_blob_outlined_at_its_corners():
    """`aruco_match.dark_quads` on a crafted frame: case marker 12 printed 20 px wide, turned
    30 degrees, smeared by 5 px of motion blur on light grey paper with noise. Labelled on every
    pixel, the proposals lie on the printed square, every corner within a sixth of a side of
    it (the smear widens the blob by half its length each way) and the paper around gives
    none; labelled on every other pixel (`step=2`), the same proposals within a pixel."""
    from companion.vision.aruco_match import dark_quads

    rng = np.random.default_rng(3)
    art = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50).generateImageMarker(
        12, 60, borderBits=1)
    centre, side, turn = np.array([160.0, 120.0]), 20.0, np.deg2rad(30.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    square = (np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * side / 2) @ rot.T + centre
    H = cv2.getPerspectiveTransform(np.float32([(0, 0), (60, 0), (60, 60), (0, 60)]),
                                    square.astype(np.float32))
    frame = cv2.warpPerspective(art, H, (320, 240), flags=cv2.INTER_AREA, borderValue=255)
    frame = cv2.filter2D(frame.astype(np.float32), -1, np.full((1, 5), 0.2))   # motion blur
    frame = 40 + 0.75 * frame + rng.normal(0, 3, frame.shape)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    fine = dark_quads(frame, (12.0, 32.0), (25,), (5.0, 15.0))
    coarse = dark_quads(frame, (12.0, 32.0), (25,), (5.0, 15.0), step=2)
    assert len(fine) == len(coarse) >= 1
    for q, r in zip(fine, coarse, strict=True):
        # the proposal's corners, in whichever order, each near one printed corner
        gaps = np.linalg.norm(q[:, None] - square[None], axis=2).min(axis=1)
        assert gaps.max() < side / 6, gaps
        assert np.linalg.norm(q[:, None] - r[None], axis=2).min(axis=1).max() <= 1.0
