"""The Hexapod colour model's own order statistics agree with NumPy's bit for bit: `_median`
and `_percentile` stand in for `np.median` / `np.percentile` for speed, so a NumPy upgrade that
changed those must fail here, not shift a case's white balance unseen."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_colour import _median, _percentile


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_percentile_is_numpys(dtype):
    rng = np.random.default_rng(7)
    for n in [1, 2, 3, 7, 12, 40, 161, 1000]:
        for _ in range(20):
            x = rng.normal(150.0, 60.0, n).astype(dtype)
            if n > 3:
                x[: n // 3] = x[0]                              # ties, as clipped samples give
            for q in (0, 2.5, 10, 33, 40, 50, 90, 95, 100):
                want = np.percentile(x, q)
                got = _percentile(x, q)
                assert got == want and np.asarray(got).dtype == np.asarray(want).dtype, (n, q)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_is_numpys(dtype):
    rng = np.random.default_rng(8)
    for n in [1, 2, 5, 6, 33, 160]:
        x = rng.uniform(0, 255, n).astype(dtype)
        assert _median(x) == np.median(x)
        m = rng.uniform(0, 255, (n, 3)).astype(dtype)
        assert np.array_equal(_median(m, axis=0), np.median(m, axis=0))
