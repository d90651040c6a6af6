"""The symbol stage's fast paths give the same numbers as the plain ones, bit for bit, and do
less work. `ColourModel.explain` fits each kind of ink on its own letters, stacks the channel
planes, and starts the censored refit from the plain fit it already made; `_reference_explain`
below is the earlier, plain implementation (every letter fitted in one pass, `np.where` between
the kinds), kept here only to pin the fast one: a change to either that moved a single kind,
ink fraction or darkness must fail here. `read_cards` explains only the samples whose kinds it
uses (symbols, paper, halo and the symbols' means), not the border band, which it judges by
darkness alone."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import fast_reduce, symbol_decide, symbol_samples, symbols
from companion.vision.calibration import TableView
from companion.vision.colour import (
    BLED_MIN_ALPHA,
    CENSOR_STEPS,
    OTHER,
    PAPER_K,
    SHADE_RANGE,
    ColourModel,
    _luma,
    builtin_model,
    chroma_cast,
    clip,
    clip_bounds,
    normalise,
    paper_grey,
)
from companion.vision.reader import _reorient
from companion.vision.symbol_samples import N_BORDER, N_HALO, N_PAPER, N_SYMBOL, CardRead, Pose

# -- the plain implementation (as it was before the fast paths), for comparison only ----------


def _ref_consts(model: ColourModel):
    inks, neutral = model.inks, model.neutral
    n = len(inks)
    grey = neutral[:, None]
    k = np.zeros((8, n, 1), np.float32)
    u = np.zeros((4, n, 1), np.float32)
    u[3] = 1.0
    d = np.zeros((3, n, 1), np.float32)
    dd = np.ones((n, 1), np.float32)
    for i, (ink, g) in enumerate(zip(inks, neutral, strict=True)):
        i0, i1, i2 = (float(v) for v in ink)
        if g:
            v = np.array([i0 - 1.0, i1 - 1.0, i2 - 1.0])
            length = float(np.linalg.norm(v))
            u[:, i, 0] = (*(float(x) / length for x in v), length)
            continue
        isum, isq = i0 + i1 + i2, i0 * i0 + i1 * i1 + i2 * i2
        inv = np.linalg.inv(np.array([[3.0, isum], [isum, isq]]))
        c = (i0, i1, i2, float(inv[0, 0]), float(inv[0, 1]), float(inv[1, 0]),
             float(inv[1, 1]), 1.0 / isq)
        k[:, i, 0] = c
        di = [v - 1.0 for v in c[:3]]
        d[:, i, 0] = di
        dd[i, 0] = di[0] * di[0] + di[1] * di[1] + di[2] * di[2]
    return grey, k, u, d, dd


def _ref_fit_all(model, r, g, b, shaded=True):
    grey, k, u, d, dd = _ref_consts(model)
    i0, i1, i2, m00, m01, m10, m11, inv_isq = k
    total, along = r + g + b, r * i0 + g * i1 + b * i2
    pa = m00 * total + m01 * along
    pb = m10 * total + m11 * along
    beyond = pa < 0.0
    pa, pb = (np.where(beyond, 0.0, np.where(pb < 0.0, total / 3.0, pa)),
              np.where(beyond, np.maximum(along * inv_isq, 0.0), np.maximum(pb, 0.0)))
    s = pa + pb
    alpha = np.where(s > 1e-3, pb / np.maximum(s, 1e-3), 0.0)
    pred = (pa + pb * i0, pa + pb * i1, pa + pb * i2)
    sc = np.clip(s, SHADE_RANGE[0], SHADE_RANGE[1])
    out = (sc != s) & ~grey
    if shaded and out.any():
        a_fix = np.clip(((r - sc) * d[0] + (g - sc) * d[1] + (b - sc) * d[2]) / (sc * dd),
                        0.0, 1.0)
        alpha = np.where(out, a_fix, alpha)
        pred = tuple(np.where(out, sc * (1.0 + a_fix * dk), p) for dk, p in zip(d, pred,
                                                                              strict=True))
        s = np.where(out, sc, s)
    u0, u1, u2, length = u
    proj = (r - 1.0) * u0 + (g - 1.0) * u1 + (b - 1.0) * u2
    alpha = np.where(grey, proj / length, alpha)
    s = np.where(grey, np.float32(1.0), s)
    pred = tuple(np.where(grey, 1.0 + proj * uk, p) for uk, p in zip((u0, u1, u2), pred,
                                                                     strict=True))
    return alpha, s, pred


def _ref_resid(model, r, g, b, pred):
    grey, _, u, _, _ = _ref_consts(model)
    norm_x = np.sqrt(r * r + g * g + b * b) + np.float32(0.05)
    scale = np.where(grey, u[3], norm_x)
    er, eg, eb = r - pred[0], g - pred[1], b - pred[2]
    return np.sqrt(er * er + eg * eg + eb * eb) / scale, scale


def _ref_classify(model, alpha, shade, resid):
    chroma = ~model.neutral[:, None]
    chroma_ok = chroma & (alpha >= 0.3) & (resid <= 0.2) & (shade >= SHADE_RANGE[0]) \
        & (shade <= SHADE_RANGE[1])
    grey_ok = ~chroma & (alpha >= 0.3) & (resid <= 0.15 + 0.15 * alpha)
    best_c = np.where(chroma_ok, resid, np.inf).argmin(0)
    best_g = np.where(grey_ok, resid, np.inf).argmin(0)
    return np.where(chroma_ok.any(0), best_c, np.where(grey_ok.any(0), best_g, OTHER))


def _ref_bled(model, x, cast, kind, alpha):
    idx = np.flatnonzero(kind == OTHER)
    if not idx.size:
        return
    cs, xs = cast[idx], x[idx]
    lum, grey = paper_grey(xs[:, 0], xs[:, 1], xs[:, 2])
    keep = ((cs[:, 0] != 0.0) | (cs[:, 1] != 0.0) | (cs[:, 2] != 0.0)) & ~((lum > 0.72) & grey)
    idx, cs, xs = idx[keep], cs[keep], xs[keep]
    if not idx.size:
        return
    luma = _luma(xs, cs)
    n = np.cross(np.ones(3, np.float32), model.inks).astype(np.float32)
    off, along = xs @ n.T, cs @ n.T
    t = np.where(np.abs(along) > 1e-4, off / np.where(along == 0, 1.0, along), 0.0)
    t = np.clip(t, 0.0, np.maximum(1.0 - luma, 0.0)[:, None]).T
    planes = [xs[:, k] - t * cs[:, k] for k in range(3)]
    a, s, pred = _ref_fit_all(model, *planes, shaded=False)
    new = _ref_classify(model, a, s, _ref_resid(model, *planes, pred)[0])
    got = (new >= 0) & (a[np.maximum(new, 0), np.arange(new.size)] >= BLED_MIN_ALPHA)
    if got.any():
        kind[idx[got]] = new[got]
        alpha[:, idx[got]] = a[:, got]


def _ref_censored(model, x, bounds, alpha, shade, resid, scale):
    low, high = (np.asarray(v, np.float32).reshape(-1, 3) for v in bounds)
    under, over = low < x, high > x
    both = under & over
    some = under | over
    idx = np.flatnonzero((some[:, 0] | some[:, 1] | some[:, 2])
                         & ((both[:, 0].view(np.uint8) + both[:, 1].view(np.uint8)
                             + both[:, 2].view(np.uint8)) < 2))
    if not idx.size:
        return
    xs = x[idx]
    lo, hi = low[idx].T, high[idx].T
    a, s, pred = _ref_fit_all(model, *xs.T)
    for _ in range(CENSOR_STEPS):
        a, s, pred = _ref_fit_all(model, *(np.clip(p, lo[k], hi[k]) for k, p in enumerate(pred)))
    e = [p - np.clip(p, lo[k], hi[k]) for k, p in enumerate(pred)]
    resid[:, idx] = np.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) / scale[:, idx]
    alpha[:, idx], shade[:, idx] = a, s


def _reference_explain(model, normalised, bounds=None, cast=None):
    x = np.asarray(normalised, np.float32)
    shape = x.shape[:-1]
    r, g, b = np.ascontiguousarray(x.reshape(-1, 3).T)
    size = r.size
    alpha, shade, pred = _ref_fit_all(model, r, g, b, shaded=False)
    resid, scale = _ref_resid(model, r, g, b, pred)
    if bounds is not None:
        _ref_censored(model, x.reshape(-1, 3), bounds, alpha, shade, resid, scale)
    kind = _ref_classify(model, alpha, shade, resid)
    if cast is not None:
        _ref_bled(model, x.reshape(-1, 3), np.broadcast_to(cast, x.shape).reshape(-1, 3), kind,
                  alpha)
    lum, grey = paper_grey(r, g, b)
    paperish = (lum > 0.72) & grey
    kind = np.where(kind == OTHER, np.where(paperish, PAPER_K, OTHER), kind)
    a_kind = alpha[np.maximum(kind, 0), np.arange(size)]
    neutral = model.neutral
    dark = alpha[neutral].max(0) if neutral.any() else np.zeros(size, np.float32)
    return (kind.reshape(shape), np.where(kind >= 0, a_kind, 0.0).reshape(shape),
            dark.reshape(shape))


# -- the tests ------------------------------------------------------------------------------


def _models() -> list[ColourModel]:
    """The built-in models, and learned-style ones whose grey letter is not last (the kinds'
    letters not consecutive), with two grey letters, and with a grey letter only."""
    h = builtin_model("holodex")
    red, blue, void = h.protos[1], h.protos[2], h.protos[3]
    return [h, builtin_model("web"),
            ColourModel("holodex", ("paper", "R", "V", "B"), ((1, 1, 1), red, void, blue)),
            ColourModel("holodex", ("paper", "V", "R", "B", "K"),
                        ((1, 1, 1), void, red, blue, (0.35, 0.36, 0.35))),
            ColourModel("holodex", ("paper", "V"), ((1, 1, 1), void))]


def _samples(rng: np.random.Generator, n: int, case: int) -> tuple[np.ndarray, np.ndarray]:
    """Raw BGR samples and white references: plain, clipped at black or white (in the sample
    and in its white), and integer-valued like a camera's."""
    raw = [rng.uniform(0, 255, (n, 3)), rng.integers(0, 256, (n, 3)).astype(float),
           np.clip(rng.normal(128, 120, (n, 3)), 0, 255)][case % 3].astype(np.float32)
    white = rng.uniform(100, 255, (n, 3)).astype(np.float32)
    if case % 4 == 0:
        white[:] = 255.0
    if case % 5 == 0:
        raw[rng.random((n, 3)) < 0.3] = 255.0
    if case % 7 == 0:
        raw[rng.random((n, 3)) < 0.3] = 0.0
    return raw, white


def _same(got, want) -> bool:
    return all(a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
               for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("m", range(5))
def test_explain_is_the_plain_fit_bit_for_bit(m):
    model = _models()[m]
    rng = np.random.default_rng(11 + m)
    for case in range(60):
        n = int(rng.choice([1, 2, 5, 40, 700]))
        raw, white = _samples(rng, n, case)
        norm = normalise(raw, white)
        bounds = clip_bounds(raw, white, norm)
        cast = chroma_cast(rng.uniform(150, 255, (n, 3)).astype(np.float32))
        if case % 2:
            cast[rng.random(n) < 0.5] = 0.0
        for args in ((norm,), (norm, bounds), (norm, None, cast), (norm, bounds, cast)):
            assert _same(model.explain(*args), _reference_explain(model, *args)), (case, n)


def test_explain_edge_values_bit_for_bit():
    """Exact paper, pure inks, black, values far beyond the inks, and cards x samples shapes."""
    for model in _models():
        inks = [list(p) for p in model.protos]
        x = np.array([*inks, [0, 0, 0], [1, 1, 1], [3, 3, 3], [0, 0, 2], [2, 0, 0],
                      [1e-4, 0, 0], [0.55, 0.55, 0.55], [1.4, 1.4, 1.4]], np.float32)
        low = np.where(x <= 0.0, -np.inf, x / 1.5).astype(np.float32)
        high = np.where(x >= 1.0, np.inf, x).astype(np.float32)
        cast = np.broadcast_to(np.array([0.1, -0.02, -0.2], np.float32), x.shape)
        for args in ((x,), (x, (low, high)), (x, (low, high), cast)):
            assert _same(model.explain(*args), _reference_explain(model, *args))
        shaped = np.tile(x, (4, 1, 1))
        args = (shaped, (np.tile(low, (4, 1, 1)), np.tile(high, (4, 1, 1))),
                np.tile(cast, (4, 1, 1)))
        assert _same(model.explain(*args), _reference_explain(model, *args))


def _card_image() -> tuple[np.ndarray, Pose]:
    """A flat card drawn at a known pose: grey paper, symbols and a dark border band."""
    img = np.full((240, 320, 3), (190, 200, 205), np.uint8)
    pose = Pose((160.0, 120.0), 40.0, math.radians(5.0))
    pts = symbol_samples.sample_points([pose])[0]
    for k, (x, y) in enumerate(np.round(pts).astype(int)):
        colour = (30, 30, 200) if k < 6 * N_SYMBOL else (40, 40, 40)
        if 6 * N_SYMBOL <= k < 6 * N_SYMBOL + N_PAPER:
            continue
        img[y - 1:y + 2, x - 1:x + 2] = colour
    return img, pose


@pytest.mark.parametrize("blurred", [True, False])
def test_read_cards_explains_no_border_samples(monkeypatch, blurred):
    """The border band is judged by darkness alone, so its samples are not fitted by the colour
    model: per card 6 x 19 symbol, 18 paper and 6 x 8 halo samples (and 6 means)."""
    img, pose = _card_image()
    model = builtin_model("holodex")
    seen: list[tuple[int, ...]] = []
    explain = ColourModel.explain

    def spy(self, normalised, *args):
        seen.append(np.shape(normalised))
        return explain(self, normalised, *args)

    monkeypatch.setattr(ColourModel, "explain", spy)
    symbols.read_cards(img, [pose, pose], TableView(), model, blurred_rings=blurred)
    per_card = 6 * N_SYMBOL + N_PAPER + 6 * N_HALO + (6 if blurred else 0)
    assert seen == [(2, per_card, 3)]
    assert N_BORDER > 0


def test_read_cards_border_judged_from_its_own_samples():
    """With the border band painted out to paper the card loses its border, whatever its symbols
    read: the band's samples still decide `border_ok`."""
    img, pose = _card_image()
    model = builtin_model("holodex")
    before = symbols.read_cards(img, [pose], TableView(), model)[0]
    pts = symbol_samples.sample_points([pose])[0]
    band = np.round(pts[6 * N_SYMBOL + N_PAPER:6 * N_SYMBOL + N_PAPER + N_BORDER]).astype(int)
    painted = img.copy()
    for x, y in band:
        painted[y - 1:y + 2, x - 1:x + 2] = (190, 200, 205)
    after = symbols.read_cards(painted, [pose], TableView(), model)[0]
    assert before.border_ok == 1.0 and after.border_ok == 0.0
    assert before.symbols == after.symbols


@pytest.mark.parametrize("turn", [1, -1])
def test_reorient_lists_edges_by_lattice_direction(turn):
    """`_reorient` builds the read directly; it must equal the one dataclasses.replace gave."""
    from dataclasses import replace

    read = CardRead("RBVRBB", (0.9, 0.8, 0.7, 0.6, 0.5, 0.4), 0.95, 0.9, True, (180.0, 190.0,
                                                                                200.0))

    class Fit:
        angle = 0.3

    for k in range(-6, 7):
        pose = Pose((0.0, 0.0), 20.0, Fit.angle + k * math.pi / 3.0 + 0.01, turn)
        order = [((d - k) if turn > 0 else (-k - d)) % 6 for d in range(6)]
        want = replace(read, symbols="".join(read.symbols[j] for j in order),
                       edge_confidence=tuple(read.edge_confidence[j] for j in order))
        assert _reorient(read, Fit(), pose) == want


def test_stacked_determinants_are_numpys_one_by_one():
    """`reader._partials` takes every placed card's determinant in one `np.linalg.det` call; it
    must give each matrix's determinant bit for bit as a call per matrix did."""
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 7, 20, 60):
        for scale in (1e-3, 1.0, 40.0):
            m = rng.normal(0.0, scale, (n, 2, 2))
            m[0] = [[scale, 0.0], [0.0, scale]]            # exact, as an untilted card gives
            one_by_one = [float(np.linalg.det(x)) for x in m]
            assert np.linalg.det(np.array(list(m))).tolist() == one_by_one


def _ref_pose_points(poses: list[Pose], local: np.ndarray) -> np.ndarray:
    """`pose_points` as it was: the products broadcast point by point (poses x points x 2)
    from the same matrices."""
    n = len(poses)
    m = symbol_samples.pose_matrices(poses)
    centres = np.array([p.centre for p in poses], np.float64).reshape(n, 1, 2)
    pts = np.asarray(local, np.float64).reshape(-1, 2)
    return centres + (pts[None, :, None, 0] * m[:, None, :, 0]
                      + pts[None, :, None, 1] * m[:, None, :, 1])


def test_pose_points_bit_for_bit():
    rng = np.random.default_rng(3)
    for n in (1, 2, 8, 33):
        poses = [Pose((float(rng.uniform(-500, 2000)), float(rng.uniform(-500, 2000))),
                      float(rng.uniform(1, 150)), float(rng.uniform(-7, 7)),
                      int(rng.choice([1, -1])),
                      None if k % 3 == 0 else tuple(map(tuple, rng.normal(1.0, 0.2, (2, 2)))))
                 for k in range(n)]
        pattern = (symbol_samples.PATTERN, symbol_samples.PAPER_PTS, rng.normal(0.0, 1.0, (5, 2)))
        for local in pattern:
            got, want = symbol_samples.pose_points(poses, local), _ref_pose_points(poses, local)
            assert got.shape == want.shape and np.array_equal(got, want)
            # and the matrices themselves are each pose's own (`Pose.to_plane`)
            assert all(np.allclose(got[k], p.to_plane(local)) for k, p in enumerate(poses))


def _ref_sample(bgr: np.ndarray, image_pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`sample` as it was: every row of the map padded out to 4096 points."""
    import cv2

    shape = image_pts.shape[:-1]
    flat = image_pts.reshape(-1, 2).astype(np.float32)
    n = len(flat)
    rows = -(-n // 4096)
    pts = np.full((rows * 4096, 2), -1.0, np.float32)
    pts[:n] = flat
    vals = cv2.remap(bgr, pts.reshape(rows, 4096, 2), None, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    h, w = bgr.shape[:2]
    inside = ((flat[:, 0] >= 0) & (flat[:, 0] <= w - 1) & (flat[:, 1] >= 0)
              & (flat[:, 1] <= h - 1))
    return (vals.reshape(-1, 3)[:n].reshape(*shape, 3).astype(np.float32),
            inside.reshape(shape))


def test_sample_does_not_depend_on_the_map_layout():
    """Bilinear samples are the same however the points are laid out for `cv2.remap`: random
    and whole-pixel points, points on and beyond the frame's edges, counts about a row's."""
    rng = np.random.default_rng(4)
    for k, n in enumerate((1, 3, 100, 4095, 4096, 4097, 5520, 8193, 13000)):
        h, w = ((720, 1280), (240, 320), (31, 17))[k % 3]
        img = rng.integers(0, 256, (h, w, 3), np.uint8)
        pts = np.c_[rng.uniform(-3, w + 2, n), rng.uniform(-3, h + 2, n)]
        pts[:n // 10] = np.round(pts[:n // 10])
        pts[n // 10:n // 5, 0] = rng.choice([0.0, w - 1.0, -0.5, w - 0.5], n // 5 - n // 10)
        for shape in ((n,), (1, n)):
            got, want = symbol_samples.sample(img, pts.reshape(*shape, 2)), _ref_sample(
                img, pts.reshape(*shape, 2))
            assert all(a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)
                       for a, b in zip(got, want, strict=True))


def test_decide_asks_for_the_ring_bleed_fit_only_where_it_can_count():
    """`read_cards` hands `decide` the grey-plus-paper-tint fit as a function of the symbols it
    needs (rings with a coloured or unexplained sample): the letters must be those the fit of
    every sample gives, and it must not be asked about any other symbol."""
    model = builtin_model("holodex")
    rng = np.random.default_rng(9)
    for trial in range(40):
        cards = int(rng.integers(1, 6))
        shape = (cards, 6, N_SYMBOL)
        kind = rng.choice([OTHER, PAPER_K, 0, 1, 2], shape, p=[0.2, 0.3, 0.15, 0.15, 0.2])
        ring = rng.random((cards, 6)) < 0.5
        kind[..., 7:] = np.where(ring[..., None] & (rng.random((cards, 6, 12)) < 0.7), 2,
                                 kind[..., 7:])
        alpha = rng.uniform(0.0, 1.1, shape).astype(np.float32)
        dark = np.where(kind == 2, alpha, rng.uniform(0.0, 0.3, shape)).astype(np.float32)
        dark[..., :7] *= np.where(ring, 0.2, 1.0)[..., None].astype(np.float32)
        b_alpha = rng.uniform(0.0, 1.0, shape).astype(np.float32)
        b_ok = rng.random(shape) < 0.5
        allow = None if trial % 2 else rng.random(cards) < 0.7
        asked: list[np.ndarray] = []

        def fit(where, b_alpha=b_alpha, b_ok=b_ok, asked=asked):
            asked.append(where.copy())
            return b_alpha[where], b_ok[where]

        want = symbol_decide.decide(kind, alpha, dark, model, None, None, allow, (b_alpha, b_ok))
        got = symbol_decide.decide(kind, alpha, dark, model, None, None, allow, fit)
        assert got[0] == want[0] and np.array_equal(got[1], want[1])
        for where in asked:
            middle = dark[..., :7].mean(-1)
            is_ring = ((dark[..., 7:].mean(-1) - middle >= 0.15)
                       & (middle <= symbol_decide.BLURRED_RING_MIDDLE))
            assert not (where & ~is_ring).any()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mean_and_clip_are_numpys(dtype):
    """`fast_reduce.fast_mean` and `colour.clip` stand in for `x.mean(-1)` and `np.clip` in `decide`
    (and in the fits): bit for bit the same on slices like the symbols' middles and rims, on
    any shape it meets."""
    rng = np.random.default_rng(6)
    for shape in ((1, 6, 19), (7, 6, 19), (20, 6, 18), (3, 5, 6, 3), (4, 6, 8)):
        x = rng.uniform(-0.3, 1.4, shape).astype(dtype)
        x[0, 0] = np.array([0.1, 0.2, 0.7] * 7)[:shape[-1]]      # sums that round
        for part in (x, x[..., :7], x[..., 7:], x[:, ::2]):
            if not part.shape[-1]:
                continue
            got, want = fast_reduce.fast_mean(part), part.mean(-1)
            assert got.dtype == want.dtype and np.array_equal(got, want)
        whole = (x * 10).astype(np.int64)
        assert np.array_equal(fast_reduce.fast_mean(whole), whole.mean(-1))
        assert np.array_equal(fast_reduce.fast_mean(x > 0.5), (x > 0.5).mean(-1))
        for low, high in ((0.0, 1.2), (0.0, 1.0)):
            got, want = clip(x, low, high), np.clip(x, low, high)
            assert got.dtype == want.dtype and np.array_equal(got, want)
