"""Cheaper computations of the Hexapod reader that must give the very same values: the paper's
median colour counted from 8-bit levels (`hexapod_colour._level_median`) is the median of the
scaled float plane bit for bit, `normalise` gives the same planes with the levels as without
them, and `hexapod_outlines.least_channel` is the least of the split planes."""

import cv2
import numpy as np

from companion.vision import hexapod_colour as hcol
from companion.vision.hexapod_outlines import least_channel


def _direct(levels: np.ndarray, at: np.ndarray, scale: np.float32) -> np.float32:
    """The median the reader took before: of the float plane `levels * scale` at `at`."""
    plane = levels.astype(np.float32) * scale
    return hcol._median(plane.reshape(-1).take(at))


def test_level_median_is_the_scaled_planes_median():
    rng = np.random.default_rng(7)
    for trial in range(300):
        levels = rng.integers(0, 256, (24, 30), dtype=np.uint8)
        if trial % 3 == 0:                       # a few levels only: many ties at the middle
            levels = rng.choice(np.array([40, 41, 200, 255], np.uint8), (24, 30))
        n = int(rng.integers(1, levels.size))
        at = np.sort(rng.choice(levels.size, n, replace=False))
        scale = np.float32(1.0 / rng.uniform(4.0, 300.0))
        got = hcol._level_median(levels, at, scale)
        want = _direct(levels, at, scale)
        assert got.dtype == want.dtype and got == want, (trial, n, got, want)


def test_level_median_takes_the_two_middle_levels_of_an_even_count():
    levels = np.array([[10, 20, 30, 40]], np.uint8)
    scale = np.float32(1.0 / 3.0)
    got = hcol._level_median(levels, np.arange(4), scale)
    assert got == (np.float32(20) * scale + np.float32(30) * scale) / 2
    assert hcol._level_median(levels, np.array([3]), scale) == np.float32(40) * scale


def test_normalise_with_levels_gives_the_same_planes():
    rng = np.random.default_rng(3)
    px = 12
    # paper-like canvas with a gradient, inked patches and a few clipped pixels
    x = np.mgrid[0:6 * px + px, 0:6 * px + px][1]
    base = 150.0 + 60.0 * x / x.max()
    canvas = np.stack([base * 0.85, base * 0.95, base], axis=-1)
    canvas[20:40, 20:40] = (40.0, 60.0, 180.0)
    canvas += rng.normal(0.0, 3.0, canvas.shape)
    canvas[5:8, 60:70] = 255.0
    levels = np.clip(np.round(canvas), 0, 255).astype(np.uint8)
    planes = tuple(p.astype(np.float32) for p in (levels[..., 0], levels[..., 1],
                                                   levels[..., 2]))
    raw_v = np.maximum(np.maximum(planes[0], planes[1]), planes[2])
    white = np.array([180.0, 200.0, 215.0], np.float32)
    split = (levels[..., 0], levels[..., 1], levels[..., 2])
    old = hcol.normalise(levels.astype(np.float32), white, px, planes, raw_v)
    new = hcol.normalise(levels.astype(np.float32), white, px, planes, raw_v, split)
    for a, b in zip(old, new, strict=True):
        assert np.array_equal(a, b)


def test_least_channel_is_the_least_of_the_planes():
    rng = np.random.default_rng(5)
    for h, w in ((1, 1), (3, 7), (36, 64), (17, 33)):
        bgr = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        bgr[0, 0] = (0, 255, 255)                  # the row's first pixel's least is its B
        bgr[-1, -1] = (255, 255, 0)                # and the last one's its R
        b, g, r = cv2.split(bgr)
        got = least_channel(bgr)
        assert got.shape == (h, w) and got.dtype == np.uint8
        assert np.array_equal(got, cv2.min(cv2.min(b, g), r))
