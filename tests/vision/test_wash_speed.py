"""`symbol_wash._feasible` meets each sample's channel bounds with `fast_reduce.max3` and
`min3` instead of NumPy's reductions of a last axis of three (taken over the 41 strengths of
every sample of every washed symbol): the same answer for every sample and strength as the plain
form, `_reference_feasible` below, kept here only to pin it."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import symbol_wash


def _reference_feasible(x, high, low, ink, grid, tol):
    base = 1.0 + grid[:, None] * (ink - 1.0)
    least = (x * low)[..., None, :] - base
    most = x[..., None, :] - base
    lo = np.maximum((least - tol).max(-1), -tol)
    up = np.where(high[..., None, :], np.inf, most + tol).min(-1)
    return (lo <= up).any(-1)


@pytest.mark.parametrize("seed", range(4))
def test_feasibility_is_the_plain_reductions(seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 1.3, (60, 7, 3)).astype(np.float32)      # paper-relative samples
    high = rng.random((60, 7, 3)) < 0.3                              # channels clipped at white
    low = rng.uniform(0.7, 1.0, (60, 1, 3)).astype(np.float32)
    ink = rng.uniform(0.1, 1.0, 3).astype(np.float32)
    got = symbol_wash._feasible(x, high, low, ink, symbol_wash._GRID, symbol_wash.WASH_TOL)
    want = _reference_feasible(x, high, low, ink, symbol_wash._GRID, symbol_wash.WASH_TOL)
    np.testing.assert_array_equal(got, want)
    assert 0.0 < got.mean() < 1.0          # samples that fit and samples that do not
