"""Speed rewrites of the Hex'el reader give the numbers the plain code gave, bit for bit, and do
less work. `symbol_sheen.washed_paler` works only on the cards with a symbol read as a paler ink
and, pair by pair, on those symbols alone; `GrownLattice.locate_many` looks up every partial
blob's cell at once (`reader._partials`); `symbol_shape.band_grey` takes its median by one
sort (`fast_reduce.median_rows`). The `_ref_*` functions below are the code as it was, kept
here only to pin the fast one: each is compared on the calls a read of rendered hard tables
makes and on random and edge-case inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.scenarios import hexel_scene
from companion.vision import reader as reader_mod
from companion.vision import symbol_shape, symbol_sheen, symbols
from companion.vision.colour import OVEREXPOSED_MAX, builtin_model, normalise
from companion.vision.lattice import GrownLattice, _norm, _round_cell
from companion.vision.reader import HexelReader
from companion.vision.symbol_samples import (
    CLIP_NEAR,
    N_CORE,
    N_SYMBOL,
)
from companion.vision.symbol_shape import band_grey
from companion.vision.symbol_sheen import N_LEAST, NEAR_PAPER, WASH_MIN, WASH_TOL, washed_paler

from .reader_spy import replaced

# -- the code as it was, for comparison only --------------------------------------------------


def _ref_washed_paler(text, symbols, white, model):
    chars = np.array(text)
    chars = chars.view("U1").reshape(len(text), chars.itemsize // 4)
    n = len(text)
    out = np.zeros(chars.shape, bool)
    inks = np.asarray(model.inks, np.float64)
    coloured = np.flatnonzero(~model.neutral)
    light = inks.mean(-1)
    pairs = [(k, j) for k in coloured for j in coloured if light[j] < light[k]]
    if not pairs or not any((chars == model.letters[k]).any() for k, _ in pairs):
        return out
    white = np.asarray(white, np.float64)
    mid = symbols.reshape(n, 6, N_SYMBOL, 3)[:, :, :N_CORE]
    order = np.argsort(mid.sum(-1), -1)[..., :N_LEAST]
    raw = np.take_along_axis(mid, order[..., None], 2).mean(2)
    core = normalise(raw, white[:, None, :]).astype(np.float64)
    clipped = raw[..., ::-1] >= CLIP_NEAR
    reach = np.where(white[:, ::-1] >= CLIP_NEAR, OVEREXPOSED_MAX, 1.0)[:, None, None, :]
    for k, j in pairs:
        at = chars == model.letters[k]
        if not at.any():
            continue
        refs = np.concatenate([core, np.broadcast_to(inks[j], (n, 1, 3))], 1)
        valid = np.concatenate([chars == model.letters[j], np.ones((n, 1), bool)], 1)
        d = core[:, :, None, :] - refs[:, None, :, :]
        low = np.maximum(((d - WASH_TOL) / reach).max(-1), WASH_MIN)
        open_top = ((clipped[:, :, None, :] | (refs[:, None, :, :] >= NEAR_PAPER))
                    & (d >= -WASH_TOL))
        high = np.where(open_top, np.inf, d + WASH_TOL).min(-1)
        out |= at & ((low <= high) & valid[:, None, :]).any(-1)
    return out


def _ref_locate(lat: GrownLattice, point, near=3, tolerance=0.3):
    idx, binv, sinv, at = lat._lookup()
    if not len(idx):
        return None
    v = np.asarray(point, np.float64).reshape(1, 2) - at
    d = _norm(np.einsum("kab,kb->ka", sinv, v), 1)
    pick = np.argsort(d)[:near]
    if not len(pick):
        return None
    frac = np.einsum("kab,kb->ka", binv[pick], v[pick]).tolist()
    step = [_round_cell(fq, fr) for fq, fr in frac]
    ks = pick.tolist()
    cell = None
    for k, (a, b) in zip(ks, step, strict=True):
        c = lat.cells[int(idx[k])]
        c = (c[0] + a, c[1] + b)
        if cell is not None and c != cell:
            return None
        cell = c
    i = int(idx[ks[0]])
    b = np.array([lat.e_q[i], lat.e_r[i]]).T
    centre = lat.centres[i] + b @ np.array(step[0], np.int64)
    du0, du1 = frac[0][0] - step[0][0], frac[0][1] - step[0][1]
    resid = math.hypot(du0 + 0.5 * du1, math.sqrt(3.0) / 2.0 * du1)
    if resid > tolerance:
        return None
    return cell, centre, i


# -- the calls a read of rendered hard tables makes -------------------------------------------


@pytest.fixture(scope="module")
def read_calls():
    """The arguments of every `washed_paler` and `band_grey` call and every
    lattice `_partials` looked blobs up in, over reads of rendered hard tables (both
    editions, calibrated from their markers and not)."""
    calls: dict[str, list] = {"washed": [], "band": [], "partials": []}

    def keep(name, real):
        def spy(*args):
            calls[name].append(args)
            return real(*args)
        return spy

    real_w, real_b = symbols.washed_paler, symbol_shape.band_grey
    symbols.washed_paler = keep("washed", real_w)
    symbol_shape.band_grey = keep("band", real_b)
    try:
        with replaced("_partials", lambda real: keep("partials", real)):
            for seed in (3, 8, 11, 24):
                edition = ("holodex", "web")[seed % 2]
                image, _ = hexel_scene(seed, "hard", 20, edition)
                for markers in (True, False):
                    reader = HexelReader(edition, find_markers=False, keep_still=False)
                    if markers:
                        reader.calibrate(image)
                    reader.read(image)
    finally:
        symbols.washed_paler = real_w
        symbol_shape.band_grey = real_b
    return calls


def test_washed_paler_as_it_was_on_read_calls(read_calls):
    assert len(read_calls["washed"]) > 20
    for text, syms, white, model in read_calls["washed"]:
        assert np.array_equal(washed_paler(text, syms, white, model),
                              _ref_washed_paler(text, syms, white, model))


def _washed_cases(rng: np.random.Generator, model, n: int):
    """Random cards: symbol samples of inks washed by a random amount towards a white that
    clipped in random channels, some symbols of random colour, and random letters read."""
    inks = np.asarray(model.inks, np.float64)
    white = rng.choice([180.0, 220.0, 250.0, 254.0, 255.0], (n, 3))
    k = rng.integers(0, len(inks), (n, 6))
    wash = rng.uniform(0.0, 0.6, (n, 6, 1)) * rng.uniform(1.0, 1.5, (n, 6, 3))
    rgb = inks[k] + wash
    rgb = np.where(rng.random((n, 6, 1)) < 0.2, rng.uniform(0, 1.3, (n, 6, 3)), rgb)
    bgr = np.clip(rgb[..., ::-1] * white[:, None, :], 0, 255)
    samples = bgr[:, :, None, :] + rng.normal(0, 3, (n, 6, N_SYMBOL, 3))
    samples = np.clip(samples, 0, 255).astype(np.float32).reshape(n, 6 * N_SYMBOL, 3)
    letters = np.array([*model.letters, "?"])
    read = np.where(rng.random((n, 6)) < 0.6, k, rng.integers(0, len(letters), (n, 6)))
    text = ["".join(letters[r]) for r in read]
    return text, samples, white


@pytest.mark.parametrize("edition", ["web", "holodex"])
def test_washed_paler_as_it_was_on_random_cards(edition):
    model = builtin_model(edition)
    rng = np.random.default_rng(31)
    hits = 0
    for trial in range(150):
        n = int(rng.choice([0, 1, 2, 7, 30]))
        text, syms, white = _washed_cases(rng, model, n)
        got = washed_paler(text, syms, white, model)
        assert np.array_equal(got, _ref_washed_paler(text, syms, white, model)), trial
        hits += int(got.sum())
    assert hits > 50   # (the cases exercise the rule, not only its early way out)


def test_washed_paler_works_only_on_cards_with_a_paler_letter(monkeypatch):
    # a card read all red (the darkest coloured ink of the web edition) and all '?' has no
    # symbol a darker ink could pass for: only the third card's cores are worked out
    model = builtin_model("web")
    rng = np.random.default_rng(5)
    text, syms, white = _washed_cases(rng, model, 3)
    text = ["RRRRRR", "??????", "RYYRBB"]
    seen = []
    real = symbol_sheen.normalise

    def spy(bgr, w):
        seen.append(len(bgr))
        return real(bgr, w)

    monkeypatch.setattr(symbol_sheen, "normalise", spy)
    washed_paler(text, syms, white, model)
    assert seen == [1]


def test_locate_many_is_locate_point_by_point(read_calls):
    lattices = {id(args[1]): args[1] for args in read_calls["partials"]}
    assert lattices
    rng = np.random.default_rng(9)
    found = 0
    for lat in lattices.values():
        idx = np.array(sorted(lat.cells))
        spacing = float(np.linalg.norm(lat.e_q[int(idx[0])]))
        lo, hi = lat.centres[idx].min(0) - 2 * spacing, lat.centres[idx].max(0) + 2 * spacing
        # points all over the layout, on cells' centres and between them
        pts = np.concatenate([rng.uniform(lo, hi, (300, 2)), lat.centres[idx],
                              lat.centres[idx] + 0.5 * lat.e_q[int(idx[0])]])
        for near, tol in ((3, 0.3), (1, 0.45), (5, 0.2)):
            many = lat.locate_many(pts, near, tol)
            assert len(many) == len(pts)
            for p, got in zip(pts, many, strict=True):
                want = _ref_locate(lat, p, near, tol)
                one = lat.locate(p, near, tol)
                for g in (got, one):
                    assert (g is None) == (want is None)
                    if want is not None:
                        assert g[0] == want[0] and g[2] == want[2]
                        assert np.array_equal(g[1], want[1])
                found += want is not None
    assert found > 100
    assert lat.locate_many(np.zeros((0, 2))) == []


def test_partials_look_every_blob_up_at_once(read_calls, monkeypatch):
    # one `locate_many` call per `_partials` call with blobs to look up, no `locate` call
    asked = []
    monkeypatch.setattr(GrownLattice, "locate",
                        lambda *a, **k: pytest.fail("a blob looked up on its own"))
    real = GrownLattice.locate_many

    def spy(self, points, *args):
        asked.append(len(points))
        return real(self, points, *args)

    monkeypatch.setattr(GrownLattice, "locate_many", spy)
    before = 0
    for args in read_calls["partials"]:
        reader_mod._partials(args[0], args[1], set(args[2]), args[3])
        assert len(asked) == before + bool(args[0])
        before = len(asked)
    assert max(asked) > 1


def test_band_grey_is_numpys_median(read_calls):
    assert read_calls["band"]
    rng = np.random.default_rng(3)
    cases = [args[0] for args in read_calls["band"]] + [
        rng.uniform(0, 1.5, (n, 5, 18, 3)).astype(dtype)
        for n in (0, 1, 4, 33) for dtype in (np.float32, np.float64)]
    for band in cases:
        got, want = band_grey(band), np.median(band.mean(-1).min(1), -1)
        assert got.dtype == want.dtype and np.array_equal(got, want)
