"""`lattice._apply` (each card's 2 x 2 frame applied to its vectors, in `grow_lattice`) must give
exactly `np.einsum`'s values, signed zeros included: it replaces einsum there for speed, and a
NumPy upgrade that changed either's arithmetic would otherwise move a card's lattice steps
unseen."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.lattice import _apply


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 45])
def test_apply_is_einsum_with_signed_zeros(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(30):
        m = rng.normal(size=(n, 2, 2))
        m[rng.random((n, 2, 2)) < 0.2] *= -1e-300   # tiny and negative: products round to -0
        v = rng.normal(size=(n, n, 2))
        v[rng.random((n, n, 2)) < 0.2] = 0.0
        v[rng.random((n, n, 2)) < 0.1] *= -0.0
        want = np.einsum("iab,ijb->ija", m, v)
        got = _apply(m, v)
        assert np.array_equal(want, got)
        assert np.array_equal(np.signbit(want), np.signbit(got))
    units = rng.normal(size=(n, 6, 2))   # grow_lattice's other shape: n cards x 6 directions
    want = np.einsum("pab,pkb->pka", m, units)
    assert np.array_equal(want, _apply(m, units))
