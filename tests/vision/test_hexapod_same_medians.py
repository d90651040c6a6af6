"""The Hexapod cell stage's cheaper paths of this change give what the plain ones gave, bit for
bit: the medians of short rows and of one row taken by `row_medians` (one sort) instead of
`np.median` (`lit_inked`, `unblack_dung`'s fill, `glare_unlined_empty` and `glare_pool`'s
floors), the median of a marker's brightest samples read off its sorted rows
(`hexapod_colour._lit_markers`), and `line_shares`' share at the line's own place and flat share
taken from the samples `_seen_lines` takes at shift 0 instead of a second pass. Expected values
come from NumPy's median and from the two-pass composition written out here."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.hexapod_cells import CAST_LIT_SAT, lit_inked
from companion.vision.hexapod_colour import (
    CLIP,
    KNEE,
    Pixels,
    _lit_markers,
    _marker_points,
    _module_offsets,
)
from companion.vision.hexapod_lines import _fill_beside, _seen_lines, _side_lines, line_shares
from companion.vision.hexapod_markers import LAYOUT, CasePose
from companion.vision.hexapod_windows import DEFAULT, row_medians


@pytest.mark.parametrize("n", [1, 2, 3, 17, 18])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_medians_of_one_row_are_numpys_median(n, dtype):
    rng = np.random.default_rng(n)
    for _ in range(20):
        x = (rng.integers(0, 30, n) * rng.uniform(0.01, 0.07)).astype(dtype)
        got, want = row_medians(x), np.median(x)
        assert got.dtype == want.dtype and got == want


def test_lit_inked_is_the_np_median_rule():
    rng = np.random.default_rng(3)
    for n in (1, 7, 40):
        for size in (121, 361, 400):
            # brightness and saturation with many ties, as a canvas's windows have them
            v = (rng.integers(0, 25, (n, size)) / 24.0).astype(np.float32)
            # each window's saturation rising or falling with its brightness
            slope = rng.uniform(-1.0, 1.0, (n, 1))
            sat = np.clip(np.round((0.4 + slope * (v - 0.5) + rng.normal(0, 0.1, v.shape))
                                   * 19) / 19, 0, 1).astype(np.float32)
            ranked = np.take_along_axis(sat, np.argsort(v, axis=1), axis=1)
            half = size // 2
            lit = np.median(ranked[:, half:], axis=1)
            want = (lit > 0.2) & (lit > CAST_LIT_SAT * np.median(ranked[:, :half], axis=1))
            got = lit_inked(v, sat, 0.2)
            assert np.array_equal(got, want)
            assert 0 < want.sum() < n or n == 1      # the rule goes both ways here


def _pose(seed: int) -> CasePose:
    """Player 1's case seen through a mild random homography, its four markers seen."""
    rng = np.random.default_rng(seed)
    H = np.array([[3.0, 0.2, 300.0], [-0.1, 3.1, 150.0], [0.0, 0.0, 1.0]])
    H[:2, :2] += rng.uniform(-0.2, 0.2, (2, 2))
    H[2, :2] = rng.uniform(-3e-4, 3e-4, 2)
    return CasePose(1, H, (10, 11, 12, 13), 0.3, 60.0)


@pytest.mark.parametrize("seed", range(6))
def test_lit_markers_take_numpys_median_of_the_brightest_quarter(seed):
    rng = np.random.default_rng(seed)
    pose = _pose(seed)
    # a frame whose markers' inner modules read anywhere from dim to the clip
    frame = rng.integers(150, 256, (720, 1280, 3)).astype(np.uint8)
    frame = cv2.GaussianBlur(frame, (0, 0), 2.0)
    frame = np.clip(frame.astype(np.int32) + rng.integers(-40, 60), 0, 255).astype(np.uint8)
    offsets = _module_offsets(LAYOUT)
    img = _marker_points(pose, offsets, LAYOUT)
    img[:, 0] = np.clip(img[:, 0], 0, 1279)
    img[:, 1] = np.clip(img[:, 1], 0, 719)
    s = cv2.remap(frame, img[:, 0][None], img[:, 1][None], cv2.INTER_LINEAR)[0]
    v = np.sort(s.max(axis=1).reshape(len(pose.markers), len(offsets)), axis=1)
    want = np.median(v[:, -(len(offsets) // 4):], axis=1) >= KNEE * CLIP
    assert np.array_equal(_lit_markers(frame, pose, LAYOUT), want)


def _line_canvas(seed: int, px: int, m: int) -> tuple[np.ndarray, Pixels]:
    """A 6 x 6 grid's canvas: lit fill with printed lines of random depth, noise, and a few
    dark and saturated blobs over it (a grey canvas and its `Pixels`)."""
    rng = np.random.default_rng(seed)
    n = 6 * px + 2 * m
    v = np.full((n, n), 0.9, np.float32)
    for k in range(7):
        v[m + k * px - 1:m + k * px + 1, :] -= rng.uniform(0.0, 0.12)
        v[:, m + k * px - 1:m + k * px + 1] -= rng.uniform(0.0, 0.12)
    sat = np.full((n, n), 0.05, np.float32)
    for _ in range(5):
        (x, y), r = rng.integers(0, n, 2).tolist(), int(rng.integers(5, 20))
        cv2.circle(v, (x, y), r, float(rng.uniform(0.2, 0.7)), -1)
        cv2.circle(sat, (x, y), r, float(rng.uniform(0.0, 0.8)), -1)
    v = np.clip(v + rng.normal(0, 0.02, v.shape).astype(np.float32), 0.0, 1.0)
    zeros = np.zeros_like(v)
    return 3.0 * v, Pixels(v, zeros, sat, zeros.astype(np.uint8))


@pytest.mark.parametrize("seed", range(8))
def test_line_shares_flat_is_the_two_pass_composition(seed):
    px, m = DEFAULT.px_per_cell, round(DEFAULT.margin_cells * DEFAULT.px_per_cell)
    grey, pix = _line_canvas(seed, px, m)
    cells = np.random.default_rng(seed).choice(36, 20, replace=False)
    p = DEFAULT
    fill = (pix.sat, pix.v, p.colour.ink_sat, p.colour.dim_v)
    shares = _seen_lines(grey, px, m, 6, 6, cells, p.min_line, fill, p.line_balance)
    where = _fill_beside(pix.sat, pix.v, px, m, 6, 6, cells, p.colour.ink_sat, p.colour.dim_v)
    trace, even = _side_lines(grey, px, m, 6, 6, cells, p.min_line, where, p.line_balance,
                              even=True)
    got = line_shares(cells, lambda: grey, pix, px, m, 6, 6, p, flat=True)
    assert len(got) == 3
    for g, w in zip(got, (shares, even, trace), strict=True):
        assert g.dtype == w.dtype and np.array_equal(g, w)
    assert np.array_equal(line_shares(cells, lambda: grey, pix, px, m, 6, 6, p), shares)
    # the canvas exercises the rule: the best shift beats the line's own place somewhere, and
    # some sides show a line and some do not
    assert (shares > trace).any() and 0.0 < shares.mean() < 1.0
