"""The read pass's shortcuts give the values of the plain computations they replace: the
censored refit stopping once its alternating projections repeat (`ColourModel._censored`), the
inks' unit chroma worked out once per model (`ColourModel.chroma_units`), the unrolled maximum
and minimum over an edge's places (`symbol_crossings.max_place`, `min_place`), and one shared
built-in model per edition (`colour.builtin_model`)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import colour
from companion.vision.colour import CENSOR_STEPS, ColourModel, builtin_model, clip
from companion.vision.symbol_crossings import max_place, min_place


def _censored_every_step(self: ColourModel, x: np.ndarray, low: np.ndarray, high: np.ndarray,
                         alpha: np.ndarray, shade: np.ndarray, pred: np.ndarray,
                         resid: np.ndarray, scale: np.ndarray) -> None:
    """`ColourModel._censored` as it was: every one of CENSOR_STEPS steps taken."""
    under, over = low < x, high > x
    both = under & over
    some = under | over
    idx = np.flatnonzero((some[0] | some[1] | some[2])
                         & (both.sum(0) < 2))
    if not idx.size:
        return
    xs = x[:, idx]
    lo, hi = low[:, idx][:, None, :], high[:, idx][:, None, :]
    a, s, p = alpha[:, idx], shade[:, idx], pred[:, :, idx]
    cs, gs = self._rows
    if cs is not None:
        ac, sc, pc = self._held(xs[:, None, :], a[cs], s[cs], p[:, cs])
        for _ in range(CENSOR_STEPS):
            c = clip(pc, lo, hi)
            ac, sc, pc = self._held(c, *self._fit_coloured(c))
        a[cs], s[cs], p[:, cs] = ac, sc, pc
    if gs is not None:
        ag, sg, pg = a[gs], s[gs], p[:, gs]
        for _ in range(CENSOR_STEPS):
            ag, sg, pg = self._fit_grey(clip(pg, lo, hi))
        a[gs], s[gs], p[:, gs] = ag, sg, pg
    e = p - clip(p, lo, hi)
    resid[:, idx] = np.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) / scale[:, idx]
    alpha[:, idx], shade[:, idx] = a, s


def _clipped_pixels(seed: int, n: int, bound_every: bool) -> tuple[np.ndarray, np.ndarray,
                                                                    np.ndarray]:
    """(normalised RGB, low, high; n x 3 each) of paper-ink blends seen with some channels
    clipped: dark at black (low -inf) or bright at white (high +inf). With `bound_every`, every
    pixel has one bounded channel that its plain fit already respects (the projections repeat
    at once); else a mix, some of them bounded where the fit falls outside."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.05, 1.1, (n, 3)).astype(np.float32)
    low, high = x.copy(), x.copy()
    ch = rng.integers(0, 3, n)
    rows = np.arange(n)
    if bound_every:
        low[rows, ch] = -np.inf
        high[rows, ch] = np.inf
        return x, low, high
    dark = rng.random(n) < 0.5
    low[rows[dark], ch[dark]] = -np.inf
    high[rows[~dark], ch[~dark]] = np.inf
    return x, low, high


@pytest.mark.parametrize("edition", ["holodex", "web"])
@pytest.mark.parametrize("bound_every", [False, True])
def test_censored_stops_with_the_same_fits(monkeypatch: pytest.MonkeyPatch, edition: str,
                                           bound_every: bool) -> None:
    model = builtin_model(edition)
    for seed in range(6):
        x, low, high = _clipped_pixels(seed, 400, bound_every)
        got = model.explain(x, (low, high))
        with monkeypatch.context() as m:
            m.setattr(ColourModel, "_censored", _censored_every_step)
            want = model.explain(x, (low, high))
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)


def test_censored_stops_early_where_the_steps_repeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut is taken: pixels whose allowed values stop changing spare the later steps
    (so the test above compares a loop that did stop, not only one that ran to the end)."""
    model = builtin_model("web")
    calls = []
    fit = ColourModel._fit_coloured

    def counted(self: ColourModel, x: np.ndarray) -> tuple[np.ndarray, ...]:
        calls.append(x.shape)
        return fit(self, x)

    monkeypatch.setattr(ColourModel, "_fit_coloured", counted)
    # a warm paper-ink blend whose red clipped at white (any brighter red allowed): its fit
    # lies within the bounds after one step, so the next would start from the same values
    x = np.array([[1.008393406867981, 0.6869675517082214, 0.8159713745117188]] * 8, np.float32)
    low, high = x.copy(), x.copy()
    high[:, 0] = np.inf
    model.explain(x, (low, high))
    refits = [s for s in calls if s[1] > 1]   # the censored refits (per letter), not the first
    assert 1 <= len(refits) < CENSOR_STEPS


@pytest.mark.parametrize("edition", ["holodex", "web"])
def test_chroma_units_as_computed_per_call(edition: str) -> None:
    model = builtin_model(edition)
    inks = model.inks
    chroma = inks - inks.mean(-1, keepdims=True)
    want = chroma / np.maximum((chroma * chroma).sum(-1, keepdims=True), 1e-6)
    np.testing.assert_array_equal(model.chroma_units, want)
    assert model.chroma_units.dtype == want.dtype
    assert not model.chroma_units.flags.writeable


def test_place_extremes_match_numpy() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 6, 3, 3)).astype(np.float32)
    x[0, 0, 1, 2] = x[0, 0, 0, 2]   # ties
    np.testing.assert_array_equal(max_place(x), x.max(2))
    np.testing.assert_array_equal(min_place(x), x.min(2))
    np.testing.assert_array_equal(max_place(x) - min_place(x), np.ptp(x, axis=2))


def test_builtin_model_is_shared_and_frozen() -> None:
    a, b = builtin_model("holodex"), builtin_model("holodex")
    assert a is b
    assert a is not builtin_model("web")
    assert not a.inks.flags.writeable and not a.neutral.flags.writeable
    with pytest.raises(ValueError):
        colour.builtin_model("no such edition")
