"""The symbol stage's second round of fast paths gives NumPy's own numbers, bit for bit, and does
less work: the best-fitting letter is picked by comparing whole rows, not by `argmin` across
them (`colour._best_fit`); `clip_bounds` works in the samples' BGR layout; sums and means over
three channels are unrolled, and means over other axes skip NumPy's Python layer
(`fast_reduce.fast_mean`); fractions of truth values are counts over the total; strings are made
from character arrays by a view (`fast_reduce.as_strings`); the shade test for a covered symbol
looks at its surround only (`symbols._in_shade`). Each stand-in is compared here with the NumPy call
it replaces (or the code as it was) on random and edge-case inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import colour, fast_reduce, symbol_samples, symbols
from companion.vision.calibration import TableView
from companion.vision.colour import (
    CLIP_HIGH,
    CLIP_LOW,
    OTHER,
    OVEREXPOSED_MAX,
    PAPER_K,
    SHADE_RANGE,
    builtin_model,
    clip_bounds,
    normalise,
    paper_grey,
)
from companion.vision.symbol_samples import FLANKS, N_HALO, N_PAPER, N_SYMBOL, Pose

# -- the code as it was, for comparison only --------------------------------------------------


def _ref_clip_bounds(bgr, white_bgr, normalised=None):
    raw = np.asarray(bgr, np.float32)[..., ::-1]
    white = np.asarray(white_bgr, np.float32)[..., ::-1]
    x = normalise(bgr, white_bgr) if normalised is None else normalised
    high = raw >= CLIP_HIGH
    low = np.where(raw <= CLIP_LOW, -np.inf,
                   np.where(high & (white >= CLIP_HIGH), x / OVEREXPOSED_MAX, x))
    return low, np.where(high, np.inf, x)


def _ref_best(kind, ok, resid, letters):
    best = np.asarray(letters)[np.where(ok, resid, np.inf).argmin(0)]
    return np.where(ok.any(0), best, kind)


def _ref_in_shade(is_paper, norm, ns, halo_at):
    lum, grey = paper_grey(norm[..., 0], norm[..., 1], norm[..., 2])
    bare = is_paper | ((lum >= SHADE_RANGE[0]) & (lum <= 1.0) & grey)
    n = len(bare)
    flanks = bare[:, ns:ns + N_PAPER][:, FLANKS].all(-1)
    return flanks & bare[:, halo_at:halo_at + 6 * N_HALO].reshape(n, 6, N_HALO).all(-1)


def _same(got, want) -> bool:
    return (got.dtype == want.dtype and got.shape == want.shape
            and np.array_equal(got, want, equal_nan=True))


# -- the tests ---------------------------------------------------------------------------------


def _raw(rng: np.random.Generator, shape: tuple[int, ...], case: int) -> np.ndarray:
    """Samples as a camera gives them (whole numbers), bilinear mixes, and the clipping
    thresholds themselves."""
    raw = [rng.integers(0, 256, shape).astype(np.float32),
           rng.uniform(0, 255, shape).astype(np.float32),
           rng.choice(np.float32([0, 2, 3, 4, 249, 250, 251, 255]), shape)][case % 3]
    return raw


@pytest.mark.parametrize("case", range(12))
def test_clip_bounds_bit_for_bit(case):
    rng = np.random.default_rng(40 + case)
    shape = [(1, 3), (50, 3), (7, 186, 3), (3, 2, 5, 3)][case % 4]
    raw = _raw(rng, shape, case)
    white = rng.choice(np.float32([5, 8, 100, 200, 249, 250, 255]), (*shape[:-2], 1, 3)) \
        if len(shape) > 2 else rng.choice(np.float32([5, 120, 250, 255]), shape)
    for norm in (None, normalise(raw, white)):
        got, want = clip_bounds(raw, white, norm), _ref_clip_bounds(raw, white, norm)
        assert all(_same(g, w) for g, w in zip(got, want, strict=True))


def test_clip_bounds_works_in_the_samples_bgr_layout():
    """Fails on the code as it was: the bounds were worked out on RGB views of BGR samples,
    NumPy's loops running three values at a time."""
    raw = np.random.default_rng(2).uniform(0, 255, (4, 186, 3)).astype(np.float32)
    white = np.full((4, 1, 3), 250.0, np.float32)
    for bound in clip_bounds(raw, white, normalise(raw, white)):
        assert bound[..., ::-1].flags.c_contiguous


@pytest.mark.parametrize("rows", [1, 2, 3, 5])
def test_best_fit_is_argmin_over_rows(rows):
    rng = np.random.default_rng(rows)
    for trial in range(30):
        n = int(rng.choice([1, 7, 300, 2500]))
        # residuals from a few values, so ties between letters are common
        resid = rng.choice(np.float32([0.0, 0.05, 0.1, 0.1000001, 0.2]), (rows, n)) \
            if trial % 2 else rng.uniform(0, 0.4, (rows, n)).astype(np.float32)
        ok = rng.random((rows, n)) < [0.0, 0.3, 0.7, 1.0][trial % 4]
        # a fit that is not good may have any residual, NaN or infinite too
        resid[~ok & (rng.random((rows, n)) < 0.3)] = rng.choice([np.nan, np.inf, 9.0])
        kind = rng.choice(np.array([OTHER, 5]), n).astype(np.int64)
        for letters in (slice(1, 1 + rows), np.array([4, 0, 2, 6, 3][:rows])):
            as_list = (list(range(letters.start, letters.stop)) if isinstance(letters, slice)
                       else letters)
            assert _same(colour._best_fit(kind, ok, resid, letters),
                         _ref_best(kind, ok, resid, as_list))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mean_over_any_axis_is_numpys(dtype):
    """`fast_reduce.fast_mean` along the axes `read_cards` takes it over: the samples of each symbol
    (axis 2 of cards x 6 x 19 x 3), the picked paper samples (axis 1 of cards x 9 x 3)."""
    rng = np.random.default_rng(8)
    for shape, axis in (((5, 6, 19, 3), 2), ((20, 9, 3), 1), ((1, 9, 3), 1), ((4, 6, 19), -1)):
        for x in (rng.integers(0, 256, shape).astype(dtype),
                  rng.uniform(-1, 300, shape).astype(dtype)):
            got, want = fast_reduce.fast_mean(x, axis), x.mean(axis)
            assert _same(got, want)


def test_unrolled_channel_sums_are_numpys():
    """The border band's mean over channels and the paper's brightness, unrolled: the same
    values as NumPy's sum and mean over the trailing axis of 3 (which adds in that order)."""
    rng = np.random.default_rng(12)
    for x in (rng.integers(0, 256, (30, 18, 3)).astype(np.float32),
              rng.uniform(0, 2, (9, 5, 18, 3)).astype(np.float32),
              (rng.normal(0, 1, (500, 3)) * 10.0 ** rng.integers(-6, 6, (500, 3))).astype(
                  np.float32)):
        b0, b1, b2 = x[..., 0], x[..., 1], x[..., 2]
        assert _same(b0 + b1 + b2, x.sum(-1))
        mean = (b0 + b1 + b2) / 3.0
        assert _same(mean, x.mean(-1))
        assert _same(mean < 0.7, x.mean(-1) < 0.7)


def test_fractions_of_truth_values_are_numpys_means():
    rng = np.random.default_rng(13)
    for shape in ((1, 18), (40, 18), (7, 5)):
        for p in (0.0, 0.3, 1.0):
            b = rng.random(shape) < p
            assert _same(np.count_nonzero(b, 1) / shape[1], b.mean(1))


def test_letters_are_the_joined_rows():
    rng = np.random.default_rng(14)
    for n in (1, 2, 33):
        chars = rng.choice(np.array(list("RBVY?")), (n, 6))
        want = ["".join(row) for row in chars.tolist()]
        assert fast_reduce.as_strings(chars) == want
        assert fast_reduce.as_strings(chars[:, ::-1]) == [w[::-1] for w in want]   # not contiguous
        assert np.array_equal(fast_reduce.as_chars(want), chars)
        covered = rng.random((n, 6)) < 0.3
        assert fast_reduce.as_strings(np.where(covered, "?", fast_reduce.as_chars(want))) == [
            "".join("?" if c else ch for c, ch in zip(row, t, strict=True))
            for row, t in zip(covered.tolist(), want, strict=True)]


def test_in_shade_is_the_surround_test_as_it_was():
    rng = np.random.default_rng(15)
    ns = 6 * N_SYMBOL
    n_pts = ns + N_PAPER + 6 * N_HALO
    for n in (1, 4, 30):
        kind = rng.choice([OTHER, PAPER_K, 0, 1, 2], (n, n_pts), p=[0.1, 0.6, 0.1, 0.1, 0.1])
        norm = rng.uniform(0.4, 1.3, (n, n_pts, 3)).astype(np.float32)
        norm[rng.random((n, n_pts)) < 0.5] = rng.uniform(0.5, 1.05, 1).astype(np.float32)
        want = _ref_in_shade(kind == PAPER_K, norm, ns, ns + N_PAPER)
        got = symbols._in_shade(kind[:, ns:] == PAPER_K, norm[:, ns:])
        assert _same(got, want)


def test_read_cards_tests_shade_on_the_surround_only(monkeypatch):
    """Fails on the code as it was: the shade test for covered symbols looked at all of a
    card's samples, the 6 x 19 inside its symbols too, and used only the paper and halo."""
    img = np.full((240, 320, 3), (190, 200, 205), np.uint8)
    pose = Pose((160.0, 120.0), 40.0, math.radians(5.0))
    pts = symbol_samples.sample_points([pose])[0]
    halo = np.round(pts[-6 * N_HALO:]).astype(int)
    for x, y in halo[:N_HALO]:   # a dark object over symbol 0's surround: it is covered
        img[y - 2:y + 3, x - 2:x + 3] = (20, 25, 30)
    seen: list[tuple[int, ...]] = []
    shaded = symbols._shaded_paper

    def spy(norm):
        seen.append(norm.shape)
        return shaded(norm)

    monkeypatch.setattr(symbols, "_shaded_paper", spy)
    symbols.read_cards(img, [pose, pose], TableView(), builtin_model("holodex"))
    assert seen == [(2, N_PAPER + 6 * N_HALO, 3)]
