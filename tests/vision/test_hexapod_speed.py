"""The Hexapod cell stage's shortcuts give OpenCV's and NumPy's plain results: the canvas is
warped from a BGRA copy of the part of the frame it covers (OpenCV warps four channels faster
than three), big regions are labelled with 16-bit labels, and the local grey gain skips its
fallback where no pixel needs it. Each is compared here with the plain call on random and
edge-case inputs, so an OpenCV or NumPy upgrade that broke one fails here rather than shifting
a case's labels unseen. The labels and gains agree bit for bit; the warps to within one level
of rounding (`_same_warp`): on an AVX-512 machine OpenCV rounds a four-channel warp's pixels
beside the frame's edge (border replication) a level apart from a three-channel one's at a few
of them, where its AVX2 code gives the same bits."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.hexapod_cells import _bgra_source, canvas_to_image, rectify
from companion.vision.hexapod_colour import _big_regions, _box, _local_gain, _median, select
from companion.vision.hexapod_markers import LAYOUT, CasePose
from companion.vision.hexapod_windows import DEFAULT


def _frame(seed: int, h: int = 720, w: int = 1280) -> np.ndarray:
    """Noise over smooth colour gradients: every bilinear weight shows in the warp."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = np.stack([xx / w * 255, yy / h * 255, (xx + yy) / (w + h) * 255], axis=2)
    return np.clip(base + rng.normal(0, 40, (h, w, 3)), 0, 255).astype(np.uint8)


def _pose(scale: float, x0: float, y0: float, turn: float, tilt: float) -> CasePose:
    """A case `scale` px per mm at image (x0, y0), turned `turn` radians, with some perspective."""
    c, s = np.cos(turn), np.sin(turn)
    h = np.array([[scale * c, -scale * s, x0], [scale * s, scale * c, y0], [tilt, 0.5 * tilt, 1.0]])
    return CasePose(1, h, (0, 1, 2), 0.5, LAYOUT.marker_mm * scale)


def _plain_rectify(frame: np.ndarray, pose: CasePose) -> np.ndarray:
    """`rectify` as the plain OpenCV calls on the BGR frame."""
    px = DEFAULT.px_per_cell
    m = round(DEFAULT.margin_cells * px)
    n_x, n_y = LAYOUT.cols * px + 2 * m, LAYOUT.rows * px + 2 * m
    f = int(min(3, max(1, round(pose.cell_px(LAYOUT) / (1.6 * px) + 0.4))))
    out = cv2.warpPerspective(frame, canvas_to_image(pose, px * f, DEFAULT.margin_cells, LAYOUT),
                              (n_x * f, n_y * f), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    if f > 1:
        out = cv2.resize(out, (n_x, n_y), interpolation=cv2.INTER_AREA)
    return out.astype(np.float32)


# scales giving 1x, 2x and 3x warps; places inside the frame, across each of its edges and
# corners, and wholly outside it (border replication only)
POSES = [
    (scale, x0, y0, turn, tilt)
    for scale in (0.9, 1.7, 2.6, 4.0)
    for x0, y0 in ((300.0, 200.0), (-150.0, 300.0), (1100.0, 250.0), (500.0, -120.0),
                   (600.0, 600.0), (-200.0, -200.0), (1250.0, 700.0), (1500.0, 300.0),
                   (-900.0, 300.0))
    for turn, tilt in ((0.0, 0.0), (0.4, 2e-4), (-1.2, -3e-4))
]


WARP_SHARE = 0.05   # the share of a warp's values that may be a level off (1.6 % seen: a canvas
# wholly beyond the frame's edge, every value a replicated border pixel)


def _same_warp(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two warps of one frame agree but for rounding: each value within one level, and
    at most WARP_SHARE of them off at all (a source cut at the wrong place, or a wrong map,
    puts whole regions many levels off)."""
    if a.shape != b.shape:
        return False
    d = np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))
    return d.max() <= 1.0 and np.count_nonzero(d) <= WARP_SHARE * d.size


@pytest.mark.parametrize("seed", [0, 1])
def test_rectify_is_the_plain_warp(seed):
    frame = _frame(seed)
    factors = set()
    for args in POSES:
        pose = _pose(*args)
        factors.add(int(min(3, max(1, round(pose.cell_px(LAYOUT) / 38.4 + 0.4)))))
        assert _same_warp(rectify(frame, pose), _plain_rectify(frame, pose)), args
    assert factors == {1, 2, 3}


def test_bgra_source_holds_what_the_warp_reads():
    frame = _frame(3)
    for args in POSES:
        pose = _pose(*args)
        size = (300, 300)
        H = canvas_to_image(pose, 50, DEFAULT.margin_cells, LAYOUT)
        src = _bgra_source(frame, H, size)
        assert src is not None and src.dtype == np.uint8 and src.shape[2] == 4
        # the frame's origin, cut no wider nor taller than the frame
        assert src.shape[0] <= frame.shape[0] and src.shape[1] <= frame.shape[1]
        warp = [cv2.warpPerspective(img, H, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE) for img in (frame, src)]
        assert _same_warp(warp[0], warp[1][..., :3]), args


def test_bgra_source_declines_what_it_cannot_bound():
    frame = _frame(4)
    # a canvas corner behind the camera: its image is not within its corners' bounds
    behind = _pose(2.0, 300.0, 200.0, 0.0, -8e-3)
    H = canvas_to_image(behind, 24, DEFAULT.margin_cells, LAYOUT)
    assert _bgra_source(frame, H, (168, 168)) is None
    assert np.array_equal(rectify(frame, behind), _plain_rectify(frame, behind))
    # nor a homography that maps the canvas out of range
    huge = H.copy()
    huge[0, 2] = np.inf
    assert _bgra_source(frame, huge, (168, 168)) is None
    # a grey or float frame is warped as it is
    pose = _pose(1.7, 300.0, 200.0, 0.3, 1e-4)
    H = canvas_to_image(pose, 24, DEFAULT.margin_cells, LAYOUT)
    assert _bgra_source(frame[..., 0].copy(), H, (168, 168)) is None
    assert _bgra_source(frame.astype(np.float32), H, (168, 168)) is None


def _plain_big_regions(mask: np.ndarray, min_area: float, opened: bool) -> np.ndarray:
    if opened:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area]
    return np.isin(lab, big).astype(np.uint8)


@pytest.mark.parametrize("shape", [(168, 168), (40, 70), (300, 260)])
def test_big_regions_are_opencvs(shape):
    rng = np.random.default_rng(11)
    for density in (0.0, 0.05, 0.3, 0.55, 0.8, 1.0):
        # blobs of many sizes: noise smoothed, then thresholded
        noise = cv2.GaussianBlur(rng.random(shape).astype(np.float32), (0, 0), 3.0)
        mask = (noise >= np.quantile(noise, 1.0 - density)).astype(np.uint8) if density else \
            np.zeros(shape, np.uint8)
        for min_area in (1, 30, 400.5, 2000):
            for opened in (True, False):
                assert np.array_equal(_big_regions(mask, min_area, opened),
                                      _plain_big_regions(mask, min_area, opened)), \
                    (density, min_area, opened)


def _plain_gain(vn: np.ndarray, is_cand: np.ndarray, px: int) -> np.ndarray:
    """The local grey gain as first written: every box and the fallback worked out."""
    cand = is_cand.astype(np.float32)
    wv = vn * cand
    k1, k4 = round(1.5 * px) | 1, round(4 * px) | 1
    n1, n4 = _box(cand, k1), _box(cand, k4)
    fallback = float(np.median(vn[is_cand])) if is_cand.any() else 1.0
    g4 = np.where(n4 > 1e-3, _box(wv, k4) / np.maximum(n4, 1e-3), np.float32(fallback))
    g1 = np.where(n1 > 0.02, _box(wv, k1) / np.maximum(n1, 1e-3), g4)
    return np.maximum(np.maximum(g1, 0.5 * g4), 0.02).astype(np.float32)


def test_local_gain_with_and_without_candidates_nearby():
    rng = np.random.default_rng(5)
    px = 24
    vn = rng.uniform(0.2, 1.3, (168, 168)).astype(np.float32)
    everywhere = rng.random((168, 168)) < 0.3
    one_side = everywhere.copy()
    one_side[:, 60:] = False              # beyond 4 cells of column 59: the fallback
    one_spot = np.zeros((168, 168), bool)
    one_spot[5, 7] = True
    for is_cand in (everywhere, one_side, one_spot, np.zeros((168, 168), bool)):
        vc = select(is_cand, vn, 0.0)
        got = _local_gain(vc, is_cand, px)
        assert got.dtype == np.float32
        assert np.array_equal(got, _plain_gain(vc, is_cand, px))
    # where no candidate lies within four cells the gain is the median candidate's
    vc = select(one_side, vn, 0.0)
    assert np.all(_local_gain(vc, one_side, px)[:, 130:] == np.float32(_median(vc[one_side])))
