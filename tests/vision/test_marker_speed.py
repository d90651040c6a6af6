"""The case-marker stage's speed-ups must not change what it finds. The whole-frame detector
decodes only the case codes and each tracking window only its own marker's code, with quads far
from the marker's size left out of a window; on rendered tables (sharp, blurred, tilted) these
find the same markers, corner for corner, as OpenCV's whole dictionary without size bounds."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import pytest

from companion.scenarios import hexapod_scene
from companion.vision.aruco_match import quad_side
from companion.vision.geometry import transform
from companion.vision.hexapod_markers import (
    LAYOUT,
    FrameGrey,
    MarkerTracker,
    _agreed_fit,
    case_codes,
    detect,
    fit_cases,
    make_detector,
    printed_corners,
)

# hard 2: blur and hands, four of eight markers decode; hard 9 and 16: patterned cloths (220 and
# 248 undecoded quads), and in 16 a quad that decodes to a non-case id (37); hard 12: 6 px motion
# blur on a checked cloth, one marker decodes among 407 quads
SCENES = [("hard", 2), ("hard", 9), ("hard", 12), ("hard", 16), ("easy", 3), ("topdown", 5)]


@lru_cache(maxsize=16)
def _grey(band: str, seed: int, frame: int = 0) -> np.ndarray:
    image, _ = hexapod_scene(seed, band, frame=frame)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _key(found: list[tuple[int, np.ndarray]]) -> list[tuple[int, bytes]]:
    return sorted((i, np.asarray(c, np.float64).tobytes()) for i, c in found)


def test_dictionary_codes_differ_in_four_bits_in_any_turn() -> None:
    # the premise of decoding against the case codes only: with one bit corrected, no quad is
    # within reach of two codes (or two turns of one), so dropping codes changes no decision
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    bits = [d.getBitsFromByteList(d.bytesList[i:i + 1], d.markerSize) for i in range(50)]
    closest = min(
        int((np.rot90(bits[a], t) != bits[b]).sum())
        for a in range(50) for b in range(a, 50) for t in range(4) if (a, t) != (b, 0))
    assert closest >= 4 and d.maxCorrectionBits == 1


@pytest.mark.parametrize(("band", "seed"), SCENES)
def test_case_detector_decodes_what_the_whole_dictionary_does(band: str, seed: int) -> None:
    grey = _grey(band, seed)
    whole, _ = detect(grey, make_detector())
    codes = case_codes()
    cases, _ = detect(grey, make_detector(codes), codes=codes)
    assert whole and _key(cases) == _key(whole)


@pytest.mark.parametrize(("band", "seed"), SCENES)
def test_windows_find_what_unbounded_whole_dictionary_windows_find(band: str, seed: int) -> None:
    tracker = MarkerTracker()
    tracker.find(_grey(band, seed))
    assert tracker.last
    nxt = _grey(band, seed, 1)
    h, w = nxt.shape
    reference = make_detector()
    want = []
    for pose in tracker.last:
        for mid in pose.markers:
            quad = pose.to_image(printed_corners(LAYOUT, pose.player)[mid])
            pad = 0.9 * pose.marker_px + 6.0
            x0, y0 = np.maximum(np.floor(quad.min(0) - pad).astype(int), 0)
            x1, y1 = np.minimum(np.ceil(quad.max(0) + pad).astype(int), (w, h))
            hits, _ = detect(nxt[y0:y1, x0:x1], reference, LAYOUT, (x0, y0))
            want += [(i, c) for i, c in hits if i == mid]
    assert _key(tracker._windows(FrameGrey(nxt))[0]) == _key(want)


@pytest.mark.parametrize(("band", "seed"), [("hard", 9), ("easy", 3)])
def test_a_tracked_colour_frame_is_converted_only_in_the_windows(band: str, seed: int) -> None:
    # the tracker takes the BGR frame and converts only the windows it searches: it must find
    # the very poses it finds in the frame converted whole, without converting the whole
    first, _ = hexapod_scene(seed, band)
    nxt, _ = hexapod_scene(seed, band, frame=1)
    by_grey, by_colour = MarkerTracker(), MarkerTracker()
    by_grey.find(cv2.cvtColor(first, cv2.COLOR_BGR2GRAY))
    by_colour.find(first)
    frame = FrameGrey(nxt)
    want, full = by_grey.find(cv2.cvtColor(nxt, cv2.COLOR_BGR2GRAY))
    got, full_colour = by_colour.find(frame)
    assert want and not full and not full_colour
    assert [(p.player, p.markers, p.homography.tobytes()) for p in got] == \
        [(p.player, p.markers, p.homography.tobytes()) for p in want]
    assert frame._whole is None


def test_windows_recover_undecoded_markers_as_the_whole_frame_search_does() -> None:
    # hard 2's next frame: blur and hands leave two markers of each case decodable (all eight
    # are wholly in view); the rest are quads the decoder rejects, which `recover` takes where
    # the two decoded put them. The windows hold those quads, so the tracker keeps both cases
    # without a whole-frame search, and finds them as that search does
    first, truth = hexapod_scene(2, "hard")
    nxt, _ = hexapod_scene(2, "hard", frame=1)
    assert all(m.visible == 1.0 for case in truth.cases for m in case.markers)
    codes = case_codes()
    decoded, _ = detect(cv2.cvtColor(nxt, cv2.COLOR_BGR2GRAY), make_detector(codes), codes=codes)
    assert len(decoded) < 6 and not fit_cases(decoded)
    tracker = MarkerTracker()
    tracker.find(first)
    got, full = tracker.find(FrameGrey(nxt))
    want, _ = MarkerTracker().find(nxt)
    assert not full
    assert [(p.player, p.markers) for p in got] == [(1, (10, 11, 12, 13)), (2, (20, 21, 22, 23))]
    assert [(p.player, p.markers, p.homography.tobytes()) for p in got] == \
        [(p.player, p.markers, p.homography.tobytes()) for p in want]


def test_frame_grey_windows_hold_the_whole_frames_grey() -> None:
    rng = np.random.default_rng(3)
    bgr = rng.integers(0, 256, (90, 160, 3), dtype=np.uint8)
    whole = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    frame = FrameGrey(bgr)
    for x0, y0, x1, y1 in [(0, 0, 160, 90), (7, 3, 50, 41), (151, 80, 160, 90), (0, 45, 1, 46)]:
        assert np.array_equal(frame.crop(x0, y0, x1, y1), whole[y0:y1, x0:x1])
    assert frame._whole is None
    assert np.array_equal(frame.whole(), whole)
    assert FrameGrey(whole).whole() is whole


def test_side_helpers_keep_the_arithmetic_of_the_rolled_arrays() -> None:
    # quad sides feed tolerances and the poses' marker_px: the cheaper next-corner indexing must
    # give the very same floats as np.roll did
    from companion.vision.aruco_match import quad_side
    from companion.vision.hexapod_markers import _mean_side

    rng = np.random.default_rng(7)
    for _ in range(200):
        quads = [rng.normal(400.0, 150.0, (4, 2)) for _ in range(int(rng.integers(1, 9)))]
        stack = np.stack(quads)
        rolled = np.linalg.norm(np.roll(stack, -1, 1) - stack, axis=2)
        assert quad_side(quads[0]) == float(rolled[0].mean())
        assert _mean_side(quads) == float(np.mean(rolled.mean(axis=1)))


def _case_quads(player: int, h: np.ndarray) -> list[tuple[int, np.ndarray]]:
    return [(mid, transform(c, h)) for mid, c in printed_corners(LAYOUT, player).items()]


def test_fit_cases_skips_ransac_only_when_every_marker_agrees() -> None:
    # the least-squares fit stands in for RANSAC only when it puts every corner within half
    # the tolerance: a quad in the wrong turn (its corners a quarter round: no homography
    # through the other three markers bends to it) is still dropped by RANSAC, and a
    # consistent case is fitted through all four
    h = np.array([[1.9, 0.25, 300.0], [-0.15, 1.8, 120.0], [2e-4, 1e-4, 1.0]])
    printed = printed_corners(LAYOUT, 1)
    found = [(mid, transform(c, h)) for mid, c in printed.items()]
    tol = 0.3 * quad_side(found[0][1])
    assert _agreed_fit(found, printed, tol) is not None
    (pose,) = fit_cases(found)
    assert pose.markers == (10, 11, 12, 13) and np.allclose(pose.homography, h, atol=1e-6)
    off = [(i, np.roll(c, 1, axis=0) if i == 12 else c) for i, c in found]
    assert _agreed_fit(off, printed, tol) is None
    (pose,) = fit_cases(off)
    assert pose.markers == (10, 11, 13)
    assert _agreed_fit([*found, found[0]], printed, tol) is None   # an id twice: RANSAC decides
