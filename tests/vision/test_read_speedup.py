"""Two stand-ins of the Hex'el reader's full read, each compared with the code it replaces. The
paper mask's speckle filter (`cards._mask`) keeps the pixels within 3 px of a region that
survives a 3 x 3 opening; it now dilates the opening's erosion once by 9 x 9 instead of dilating
it by 3 x 3 and then by 7 x 7 (a rectangle dilated by two rectangles is dilated by their sum, and
OpenCV's default border lets no pixel outside the frame take part in either way): compared pixel
for pixel with the filter as it was, on textured frames with paper touching the frame's edges.
The verdict maps every card's centre to the frame in one call (`reader._centres_px`), not one
call per card: compared with the per-card mapping through a homography and a distorting lens."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.calibration import CameraCalibration, TableView
from companion.vision.cards import DetectParams, paper_mask
from companion.vision.reader import HexelReader, _centres_px
from companion.vision.symbol_samples import Pose


def _ref_mask(bgr: np.ndarray, scale: float, params: DetectParams, frame_w: int) -> np.ndarray:
    """`cards._mask` as it was: the 3 x 3 opening, then a 7 x 7 dilation."""
    small = bgr if scale == 1.0 else cv2.resize(bgr, None, fx=scale, fy=scale,
                                                interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    k = max(3, int(params.window_frac * frame_w * scale) | 1)
    mean = cv2.boxFilter(grey, cv2.CV_16U, (k, k), normalize=True,
                         borderType=cv2.BORDER_REPLICATE)
    thresh = cv2.convertScaleAbs(mean, alpha=params.gain, beta=params.offset)
    mask = cv2.compare(grey, thresh, cv2.CMP_GT)
    square3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    square7 = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
    core = cv2.morphologyEx(mask, cv2.MORPH_OPEN, square3)
    return cv2.bitwise_and(mask, cv2.dilate(core, square7))


def _textured_frame(seed: int, shape: tuple[int, int] = (180, 320)) -> np.ndarray:
    """Grainy table with bright hexagons and specks of every size, some cut by the edges."""
    rng = np.random.default_rng(seed)
    h, w = shape
    img = rng.normal(110.0, 35.0, (h, w, 3))
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2))
    for _ in range(12):
        c = rng.uniform((-20, -20), (w + 20, h + 20))
        r = rng.uniform(3.0, 40.0)
        ang = np.radians(rng.uniform(0, 60) + 60.0 * np.arange(6))
        pts = np.round(c + r * np.c_[np.cos(ang), np.sin(ang)]).astype(np.int32)
        cv2.fillConvexPoly(img, pts, [float(v) for v in rng.uniform(180, 255, 3)])
    specks = rng.random((h, w)) < 0.03
    img[specks] = 250.0
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_speckle_filter_matches_opening_then_dilation(seed: int, scale: float) -> None:
    bgr = _textured_frame(seed)
    params = DetectParams()
    want = _ref_mask(bgr, scale, params, bgr.shape[1])
    got = paper_mask(bgr, scale, params)
    assert want.any() and (want == 0).any()
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_speckle_filter_with_play_area() -> None:
    bgr = _textured_frame(11)
    params = DetectParams()
    roi = (37, 21, 260, 150)
    got = paper_mask(bgr, 1.0, params, roi)
    x0, y0 = roi[0] & ~1, roi[1] & ~1
    want = np.zeros_like(got)
    want[y0:roi[3], x0:roi[2]] = _ref_mask(bgr[y0:roi[3], x0:roi[2]], 1.0, params,
                                           bgr.shape[1])
    assert np.array_equal(got, want)


def test_nine_square_dilation_is_three_then_seven() -> None:
    """The identity the filter relies on, on random masks with pixels on every edge."""
    rng = np.random.default_rng(5)
    square = {k: cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)) for k in (3, 7, 9)}
    for _ in range(20):
        m = ((rng.random((61, 83)) < rng.uniform(0.02, 0.6)) * 255).astype(np.uint8)
        two = cv2.dilate(cv2.dilate(m, square[3]), square[7])
        assert np.array_equal(cv2.dilate(m, square[9]), two)


def test_centres_in_one_call_match_one_call_each() -> None:
    from companion.scenarios import hexel_scene

    img, _ = hexel_scene(3, "hard", 20, "web")
    reader = HexelReader("web", find_markers=False)
    assert reader.calibrate(img)
    lens = CameraCalibration(((900.0, 0.0, 640.0), (0.0, 900.0, 360.0), (0.0, 0.0, 1.0)),
                             (-0.12, 0.05, 0.001, -0.002, 0.0), (1280, 720))
    rng = np.random.default_rng(2)
    poses = tuple(Pose((float(x), float(y)), 30.0, 0.1) for x, y in
                  rng.uniform((0.0, 0.0), (500.0, 400.0), (17, 2)))
    for view in (reader.view, TableView(reader.view.table, lens), TableView()):
        got = _centres_px(poses, view)
        for pose, xy in zip(poses, got, strict=True):
            want = view.to_image(np.array([pose.centre]))[0]
            assert all(type(v) is float for v in xy)
            assert xy == pytest.approx((float(want[0]), float(want[1])), abs=1e-9, rel=0)
    assert _centres_px((), reader.view) == []
