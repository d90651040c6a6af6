"""The symbol reader's unrolled reductions (`fast_reduce.max3`, `min3`, `sum3`,
`depth_spread`, `along1`), compared value for value with the NumPy calls they replace, on
random float32 samples shaped as the reader's (border places, halo samples, paper samples),
with ties, signed zeros, infinities and NaN mixed in. The reader's figures must not move by
one bit: a reduction unrolled in another order than NumPy's would."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.fast_reduce import along1, depth_spread, max3, min3, sum3


def _samples(seed: int, shape: tuple[int, ...]) -> np.ndarray:
    """float32 values as the reader sees them (paper-relative, 0-1.5), with special values."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-0.2, 1.5, shape).astype(np.float32)
    flat = x.reshape(-1)
    k = flat.size
    flat[rng.integers(0, k, k // 20)] = 0.0
    flat[rng.integers(0, k, k // 20)] = -0.0
    flat[rng.integers(0, k, k // 50)] = np.float32(0.7)      # ties
    flat[rng.integers(0, k, k // 100)] = np.inf
    flat[rng.integers(0, k, k // 100)] = -np.inf
    flat[rng.integers(0, k, k // 200)] = np.nan
    return x


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal bit for bit (NaN where NaN, the same sign of zero)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


SHAPES = [(1, 5, 18, 3), (7, 4, 6, 3, 3), (20, 6, 8, 3), (3, 6, 3, 3, 3), (0, 6, 3)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shape", SHAPES)
def test_max_min_match_numpy(seed: int, shape: tuple[int, ...]) -> None:
    x = _samples(seed, shape)
    assert _same(max3(x), x.max(-1))
    assert _same(min3(x), x.min(-1))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shape", SHAPES)
def test_sum_matches_numpy(seed: int, shape: tuple[int, ...]) -> None:
    x = _samples(seed, shape)
    x[~np.isfinite(x)] = 0.5        # (the samples summed are finite: paper-relative colours)
    prod = x * np.float32(0.37)     # a fresh product, as `ink_across` sums
    assert np.array_equal(sum3(prod), prod.sum(-1))
    # bit for bit too, but for the sign of a zero sum (NumPy starts its sum from +0.0)
    got, want = sum3(prod), prod.sum(-1)
    nonzero = want != 0
    assert _same(got[nonzero], want[nonzero])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("depths", [4, 5])
def test_depth_spread_matches_ptp(seed: int, depths: int) -> None:
    x = _samples(seed, (9, depths, 6, 3, 3))
    assert _same(depth_spread(x), np.ptp(x, axis=1))
    assert _same(depth_spread(x[:, 1:]), np.ptp(x[:, 1:], axis=1))


@pytest.mark.parametrize("seed", range(4))
def test_along_matches_take_along_axis(seed: int) -> None:
    rng = np.random.default_rng(seed)
    paper = _samples(seed, (11, 18, 3))
    pick = np.argsort(rng.random((11, 18)), axis=1)[:, 7:16]
    assert _same(along1(paper, pick), np.take_along_axis(paper, pick[..., None], axis=1))
    table = _samples(seed + 10, (11, 5))
    best = rng.integers(0, 5, (11, 6))
    assert _same(along1(table, best), np.take_along_axis(table, best, 1))
    assert along1(paper[:0], pick[:0]).shape == (0, 9, 3)


def _crossed_edge_ref(band: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`symbol_crossings.crossed_edge` as it was, every card through every step, with NumPy's own
    reductions."""
    from companion.vision.symbol_crossings import (
        EDGE_FLAT,
        EDGE_HUE,
        EDGE_PAPER,
        EDGE_STEP,
        EDGE_UNLIKE,
        MIN_BAND_REF,
        beside_step,
    )

    def hue_of(rgb: np.ndarray) -> np.ndarray:
        hue = np.log(np.maximum(rgb, 0.02))
        hue -= hue.mean(-1, keepdims=True)
        return hue

    n = len(band)
    place = band[:, :4].reshape(n, 4, 6, 3, 3)
    flat = np.ptp(place, axis=1).max(-1) < EDGE_FLAT
    if not flat.any():
        return flat.any(-1), flat.any(-1)
    step = np.abs(place[:, 0] - place[:, 2]).max(-1) > EDGE_STEP
    colour = place.mean(1)
    band_at = place[:, 2]
    hue = hue_of(np.concatenate([colour, band_at], 2))
    diff = np.abs(colour[:, :, :, None] - band_at[:, :, None]).max(-1)
    dhue = np.abs(hue[:, :, :3, None] - hue[:, :, None, 3:]).max(-1)
    unlike = beside_step((diff > EDGE_UNLIKE) | (dhue > EDGE_HUE), step)
    count = step.reshape(n, -1).sum(-1)
    banded = count >= MIN_BAND_REF
    if banded.any():
        ref = np.sort(np.where(step[..., None], hue[:, :, 3:], np.inf).reshape(n, -1, 3)[banded],
                      axis=1)
        k = count[banded][:, None, None]
        mid = 0.5 * (np.take_along_axis(ref, np.broadcast_to((k - 1) // 2, (len(k), 1, 3)), 1)
                     + np.take_along_axis(ref, np.broadcast_to(k // 2, (len(k), 1, 3)), 1))[:, 0]
        far = np.zeros_like(unlike)
        far[banded] = np.abs(hue[banded][:, :, :3] - mid[:, None, None]).max(-1) > EDGE_HUE
        one = flat.all(-1) & (np.ptp(colour, axis=2).max(-1) < EDGE_UNLIKE)
        unlike |= far & ~one[..., None]
    outer = band[:, 4].reshape(n, 6, 3, 3)
    on = np.abs(outer - colour).max(-1) < EDGE_FLAT
    ohue = hue_of(outer)
    odiff = np.abs(outer[:, :, :, None] - outer[:, :, None]).max(-1)
    odhue = np.abs(ohue[:, :, :, None] - ohue[:, :, None]).max(-1)
    past = beside_step((odiff > EDGE_UNLIKE) | (odhue > EDGE_HUE), step)
    past &= on
    unlike |= past
    dark = flat & (colour.mean(-1) < EDGE_PAPER)
    return (dark & unlike).any(-1), (dark & past).any(-1)


def _bands(seed: int, n: int) -> np.ndarray:
    """Border bands (cards x 5 depths x 18 places x RGB, paper-relative) as the reader sees
    them: paper stepping to a dark grey band, and at random places an object lying across
    (one flat colour, dark or light, grey or tinted, some running on past the outline), whole
    edges flat, and cards with nothing flat at all."""
    rng = np.random.default_rng(seed)
    depth = np.array([0.95, 0.35, 0.3, 0.4, 0.6])[None, :, None, None]
    band = depth + rng.normal(0.0, 0.03, (n, 5, 18, 3))
    band *= rng.uniform(0.8, 1.2, (n, 1, 1, 3))                     # a lamp's tint per card
    for c in range(n):
        for _ in range(rng.integers(0, 4)):
            p = int(rng.integers(18))
            colour = rng.uniform(0.05, 1.1, 3) if rng.random() < 0.5 else np.full(3, 0.3)
            last = 5 if rng.random() < 0.5 else 4
            band[c, :last, p] = colour + rng.normal(0.0, 0.01, (last, 3))
        if rng.random() < 0.2:                                       # a whole edge flat
            e = int(rng.integers(6))
            band[c, :, 3 * e:3 * e + 3] = rng.uniform(0.1, 0.9)
        if rng.random() < 0.2:                                       # all paper: none flat
            band[c] = rng.uniform(0.9, 1.0, (5, 18, 3))
    return band.astype(np.float32)


@pytest.mark.parametrize("seed", range(12))
def test_crossed_edge_matches_every_card_through_every_step(seed: int) -> None:
    from companion.vision.symbol_crossings import crossed_edge

    band = _bands(seed, 1 + 7 * (seed % 5))
    got, want = crossed_edge(band), _crossed_edge_ref(band)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert np.array_equal(g, w)


def _dark_band_lamp_ref(band: np.ndarray, white: np.ndarray, whole: np.ndarray | None = None,
                        lamp: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """`symbol_lamp.dark_band_lamp` as it was: each lamp helper picking the clipped cards' band
    out again, the scalings' spreads as samples x 11 x 3, NumPy's own reductions."""
    from companion.vision.colour import CLIP_HIGH, OVEREXPOSED_MAX
    from companion.vision.symbol_lamp import LAMP_GREEN, LAMP_MIN_WHITE, LAMP_SCALES, lamp_of_bands
    from companion.vision.symbol_samples import CLIP_NEAR, NEUTRAL_SPREAD

    def ordered_of(every: np.ndarray, dark: np.ndarray) -> np.ndarray:
        seen = band[every]
        r, g, b = seen[..., 0], seen[..., 1], seen[..., 2]
        return (dark[every] & (g <= np.maximum(r, b) + LAMP_GREEN)
                & (g >= np.minimum(r, b) - LAMP_GREEN))

    def scale_of(every: np.ndarray, dark: np.ndarray, lamp: np.ndarray | None):
        if lamp is not None:
            rgb = lamp[::-1]
            return np.clip(np.exp(rgb.min() - rgb), 1.0 / OVEREXPOSED_MAX, 1.0).astype(
                np.float32)
        ordered = ordered_of(every, dark)
        if not ordered.any():
            return None
        scaled = band[every][ordered][:, None, :] * LAMP_SCALES
        spread = scaled.max(-1) - scaled.min(-1)
        return LAMP_SCALES[np.median(spread, 0).argmin()]

    b0, b1, b2 = band[..., 0], band[..., 1], band[..., 2]
    low = band.min(-1)
    strict = (band.mean(-1) < 0.7) & (band.max(-1) - low < NEUTRAL_SPREAD)
    clipped = white[:, ::-1] >= CLIP_NEAR
    every = clipped.all(1)
    lit = every & (white.max(1) >= CLIP_HIGH)
    if lit.any():
        dark = (b0 + b1 + b2) / 3.0 < 0.7
        if lamp is None:
            lamp = scale_of(lit, dark, lamp_of_bands(white, strict, whole))
        grey = np.zeros(dark.shape, bool)
        if lamp is not None:
            scaled = band[lit] * lamp
            grey[lit] = ((scaled.max(-1) - scaled.min(-1) < NEUTRAL_SPREAD)
                         & ordered_of(lit, dark))
        strict = strict | grey
    clipped &= ~every[:, None]
    clipped &= (white.min(1) >= LAMP_MIN_WHITE)[:, None]
    if not clipped.any():
        return strict, lamp
    use = ~clipped[:, None, None, :]
    high = np.where(use, band, -np.inf).max(-1)
    mean = np.where(use, band, 0.0).sum(-1) / use.sum(-1)
    over = np.where(use, -np.inf, band).max(-1)
    return strict | ((mean < 0.7) & (high - low < NEUTRAL_SPREAD)
                     & (over < OVEREXPOSED_MAX * high + 0.05)), lamp


@pytest.mark.parametrize("seed", range(10))
def test_dark_band_lamp_matches_the_helpers_as_they_were(seed: int) -> None:
    from companion.vision.symbol_lamp import dark_band_lamp

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 12))
    # a warm or cool grey band, some places coloured; whites clipped in every channel, in some,
    # or none; whole cards or not; the lamp's scaling chosen, or given
    tint = rng.uniform(0.85, 1.25, 3)
    band = (rng.uniform(0.2, 0.9, (n, 5, 18, 1)) * tint
            + rng.normal(0.0, 0.04, (n, 5, 18, 3))).astype(np.float32)
    band[rng.random((n, 5, 18)) < 0.1] = rng.uniform(0.0, 1.2, 3).astype(np.float32)
    white = rng.choice([246.0, 251.0, 253.0, 200.0, 120.0], (n, 3)).astype(np.float32)
    whole = rng.random(n) < 0.7
    for given in (None, np.array([1.0, 0.9, 0.8], np.float32)):
        got = dark_band_lamp(band, white, whole, given)
        want = _dark_band_lamp_ref(band, white, whole, given)
        assert np.array_equal(got[0], want[0])
        assert (got[1] is None) == (want[1] is None)
        if got[1] is not None:
            assert got[1].tobytes() == want[1].tobytes()


def _ink_across_ref(text: list[str], halo: np.ndarray, band: np.ndarray, model) -> np.ndarray:
    """`symbol_crossings.ink_across` as it was: every card's band looked at, NumPy's own
    reductions."""
    from companion.vision.symbol_crossings import (
        BAND_TINT,
        EDGE_FLAT,
        EDGE_SHARP,
        EDGE_STEP,
        EDGE_UNLIKE,
        FACING,
        HALO_ASYM,
        OUTWARD_AT,
        THIN_LEAD,
        beside_step,
        coloured_index,
    )
    from companion.vision.symbol_samples import N_HALO

    own = coloured_index(text, model)
    found = own >= 0
    if not found.any():
        return found
    n = len(text)
    chroma = model.inks - model.inks.mean(-1, keepdims=True)
    unit = chroma / np.maximum((chroma * chroma).sum(-1, keepdims=True), 1e-6)
    u = unit[np.maximum(own, 0)]
    h = halo.reshape(n, 6, N_HALO, 3)
    ink = ((h - h.mean(-1, keepdims=True)) * u[:, :, None]).sum(-1)
    out = OUTWARD_AT.T % N_HALO
    rows = np.arange(6)[:, None]
    lead = ink[:, rows, out] - ink[:, rows, FACING[out]]
    found &= ((lead > HALO_ASYM).sum(-1) >= 2) | (lead.max(-1) > THIN_LEAD)
    if not found.any():
        return found
    place = band.reshape(n, band.shape[1], 6, 3, 3)
    tint = ((place - place.mean(-1, keepdims=True)) * u[:, None, :, None]).sum(-1)
    tinted = tint[:, :4].min(1) > BAND_TINT
    step = np.abs(place[:, 0] - place[:, 2]).max(-1)
    sharp = (step > EDGE_SHARP).any(-1)
    band_at = place[:, 2]
    unlike = beside_step(np.abs(band_at[:, :, :, None] - band_at[:, :, None]).max(-1)
                          > EDGE_UNLIKE, step > EDGE_SHARP / 2.0)
    flat = np.ptp(place[:, 1:], axis=1).max(-1) < EDGE_FLAT
    hidden = (tinted & flat & (step < EDGE_STEP) & unlike).any(-1)
    return found & tinted.any(-1) & (sharp | hidden)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("edition", ["holodex", "web"])
def test_ink_across_matches_every_card_through_every_step(seed: int, edition: str) -> None:
    from companion.vision.colour import builtin_model
    from companion.vision.symbol_crossings import ink_across

    model = builtin_model(edition)
    rng = np.random.default_rng(seed)
    n = 1 + 5 * (seed % 4)
    text = ["".join(rng.choice([*model.letters, "?"], 6)) for _ in range(n)]
    # halo and band: paper-relative colours, some places tinted by an ink, some flat
    halo = rng.uniform(0.5, 1.2, (n, 48, 3)).astype(np.float32)
    band = _bands(seed, n)
    ink = model.inks[rng.integers(0, len(model.inks), (n, 18))]
    tinted = rng.random((n, 18)) < 0.3
    band[:, :4][np.broadcast_to(tinted[:, None], (n, 4, 18))] = np.repeat(
        ink[tinted][:, None], 4, 0).reshape(-1, 3)
    got, want = ink_across(text, halo, band, model), _ink_across_ref(text, halo, band, model)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(3))
def test_reads_carry_their_white_reference_unchanged(seed: int) -> None:
    """`symbols._shade_of` takes a card's white reference from its first read
    (`CardRead.white_bgr`) instead of working it out again from the same samples: the same
    float32 values."""
    from companion.scenarios import hexel_scene
    from companion.vision.colour import builtin_model
    from companion.vision.reader import HexelReader
    from companion.vision.symbol_samples import N_PAPER, N_SYMBOL, sample_cards
    from companion.vision.symbols import _read_pass, _white_reference

    edition = ("holodex", "web")[seed % 2]
    img, _ = hexel_scene(seed, "hard", 20, edition)
    r = HexelReader(edition, find_markers=False)
    r.calibrate(img)
    poses, view = list(r.read(img).poses), r.view
    vals, inside = sample_cards(img, poses, view)
    reads, _ = _read_pass(img, poses, view, builtin_model(edition), True, (vals, inside))
    ns = 6 * N_SYMBOL
    want = _white_reference(vals[:, ns:ns + N_PAPER], inside[:, ns:ns + N_PAPER])
    got = np.array([r.white_bgr for r in reads], np.float32)
    assert len(poses) > 5 and got.tobytes() == want.tobytes()
