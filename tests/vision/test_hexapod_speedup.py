"""The Hexapod cell stage's faster paths give what the plain ones give, bit for bit: the order
statistics (`_median`, `_percentile`) are taken by one partition instead of a sort, the medians
of many short rows (`row_medians`) by one sort instead of `np.median`, and `normalise` takes the
canvas's largest channel from its caller instead of working it out again. Expected values come
from NumPy's sort and median and from `normalise`'s own plain path."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_colour import CLIP, _median, _percentile, normalise
from companion.vision.hexapod_windows import row_medians


def _sorted_median(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """The middle value, or the mean of the middle two in x's dtype, of a sorted copy."""
    s = np.sort(x, axis=0 if axis is None else axis)
    h = len(s) // 2
    return s[h] if len(s) % 2 else (s[h - 1] + s[h]) / 2


def _sorted_percentile(x: np.ndarray, q: float) -> np.floating:
    """NumPy's 'linear' percentile, on a sorted copy (lerp as NumPy's `_lerp`)."""
    s = np.sort(x)
    at = (len(s) - 1) * (q / 100)
    lo = min(int(np.floor(at)), len(s) - 1)
    hi = min(lo + 1, len(s) - 1)
    t = at - lo if hi > lo else at + 1.0
    a, b = s[lo], s[hi]
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_partitioned_order_statistics_are_the_sorted_ones(dtype):
    rng = np.random.default_rng(11)
    for n in [1, 2, 3, 4, 9, 10, 255, 256, 4000, 18001]:
        for trial in range(6):
            # brightness levels as a canvas has them: few distinct values, many ties
            x = (rng.integers(0, 60, n) * rng.uniform(0.003, 0.02)).astype(dtype)
            if trial == 5 and n > 4:
                x[rng.integers(0, n, n // 3 + 1)] = np.nan     # NaN sorts last, as there
            got, want = _median(x), _sorted_median(x)
            assert np.array_equal(got, want, equal_nan=True), (n, trial)
            assert np.asarray(got).dtype == np.asarray(want).dtype
            if trial < 5:
                for q in (0, 10, 40, 50, 90, 95, 99.99, 100):
                    assert _percentile(x, q) == _sorted_percentile(x, q) == np.percentile(x, q)
        if n > 1:
            m = rng.integers(0, 40, (n, 3)).astype(dtype) / 7
            assert np.array_equal(_median(m, axis=0), _sorted_median(m, axis=0))


def _canvas(seed: int, clipped: float) -> np.ndarray:
    """A float32 BGR canvas of integer readings: paper-bright and inked pixels, a share of
    them clipped in one or more channels (warm light over-exposes red first)."""
    rng = np.random.default_rng(seed)
    c = rng.integers(20, 240, (168, 168, 3)).astype(np.float32)
    c[40:120, 40:120] = rng.integers(200, 245, (80, 80, 3))
    hot = rng.random((168, 168)) < clipped
    c[hot, 2] = 255.0
    c[hot & (rng.random((168, 168)) < 0.5), 1] = 255.0
    return c


@pytest.mark.parametrize("seed,clipped", [(0, 0.0), (1, 0.01), (2, 0.2)])
@pytest.mark.parametrize("white", [(200.0, 210.0, 220.0), (200.0, 230.0, 255.0),
                                   (190.0, 255.0, 255.0)])
def test_normalise_with_the_callers_largest_channel(seed, clipped, white):
    canvas = _canvas(seed, clipped)
    planes = tuple(np.ascontiguousarray(canvas[:, :, i]) for i in range(3))
    raw_v = np.maximum(np.maximum(planes[0], planes[1]), planes[2])
    assert (raw_v >= CLIP).any() == (clipped > 0)
    white = np.array(white, np.float32)
    plain = normalise(canvas, white, 24)
    given = normalise(canvas, white, 24, planes, raw_v)
    for p, g in zip(plain, given, strict=True):
        assert p.dtype == g.dtype and np.array_equal(p, g)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_medians_are_numpys_medians(dtype):
    rng = np.random.default_rng(5)
    for n in [1, 2, 3, 16, 17, 18]:
        for shape in [(7,), (5, 3), (2, 4, 3)]:
            # brightness levels as a canvas has them: few distinct values, many ties
            x = (rng.integers(0, 40, (*shape, n)) * rng.uniform(0.003, 0.05)).astype(dtype)
            got, want = row_medians(x), np.median(x, axis=-1)
            assert got.dtype == want.dtype and np.array_equal(got, want), (n, shape)
