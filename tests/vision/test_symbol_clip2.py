"""On a card whose paper clipped the sensor, a heavily blurred grey ring's blends are pulled
towards the clipped channels' hue and can fit a coloured ink at about half strength, only a
little darker than that ink makes them (too little for the card-independent bound of
`darker_than_allowed`). The symbols of one ink on a card are one print under one lamp and one blur,
so a printed disc beside it shows what that ink looks like there: blends brighter than the ink makes
them and a core at full strength. A weak reading that is clearly darker than its strong twin is
a tinted ring and must be left '?'; twin discs that look alike still read."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.colour import builtin_model
from companion.vision.symbol_decide import decide

from .test_symbol_clip import COOL, _lit_read

# (symbols, width px, blur sigma px, JPEG quality): cards under COOL (every channel clipped)
# whose blurred rings the old reader read as blue beside a printed blue disc
RINGS_BESIDE_BLUE = [
    ("VVRVBV", 47.02, 2.32, 76),
    ("VBBBVB", 49.94, 2.25, 85),
    ("VBBVRV", 50.19, 2.11, 66),
    ("RVBRBB", 56.27, 2.35, 62),
    ("VVVRBB", 52.11, 2.19, 85),
    ("RVRBVR", 56.15, 1.82, 78),
    ("VBRRRV", 56.94, 2.33, 66),
    ("VVBBRV", 50.23, 2.02, 66),
    ("BBVVBR", 53.76, 2.18, 81),
]


@pytest.mark.parametrize("symbols,width_px,blur,quality", RINGS_BESIDE_BLUE)
def test_blurred_rings_beside_a_blue_disc_are_never_read_blue(symbols, width_px, blur,
                                                                quality):
    read = _lit_read(symbols, width_px, COOL, blur, quality)
    # and the card's coloured discs are still read (a ring is only ever left '?')
    assert all(r == t for r, t in zip(read, symbols, strict=True) if t != "V"), read


B_DARK = float(builtin_model("holodex").ink_dark[builtin_model("holodex").letters.index("B")])


def _card(edges: list[tuple[float, float]]) -> tuple[np.ndarray, ...]:
    """One holodex card whose six symbols are all 19 samples of blue ink, symbol d at ink
    fraction edges[d][0] and that many times blue's own darkness plus edges[d][1] (its excess)
    as grey-ink fraction (kind, alpha, dark; each 1 x 6 x 19)."""
    model = builtin_model("holodex")
    kind = np.full((1, 6, 19), model.letters.index("B"))
    alpha = np.array([[[a] * 19 for a, _ in edges]], np.float32)
    dark = np.array([[[a * B_DARK + x] * 19 for a, x in edges]], np.float32)
    return kind, alpha, dark


STRONG = (0.9, -0.06)   # a printed blue disc on a clipped card: full core, seen brighter
RING = (0.6, 0.04)      # half-strength blue, a little darker than blue ink makes it


def test_weak_blue_darker_than_its_strong_twin_is_unsure_where_clipped():
    model = builtin_model("holodex")
    card = _card([STRONG, RING, RING, STRONG, RING, RING])
    assert decide(*card, model, paper_clipped=np.array([True]))[0] == ["B??B??"]
    # where the paper did not clip, the white reference is true and blends are not tinted
    assert decide(*card, model, paper_clipped=np.array([False]))[0] == ["BBBBBB"]


def test_weak_blue_without_a_strong_twin_or_like_it_still_reads_where_clipped():
    """With no strong blue on the card there is nothing to compare with; and a weak disc
    whose blends look like its twin's (a heavier blur spreads both alike) is the same ink."""
    model = builtin_model("holodex")
    clipped = np.array([True])
    assert decide(*_card([RING] * 6), model, paper_clipped=clipped)[0] == ["BBBBBB"]
    like_twin = (0.6, -0.03)
    card = _card([STRONG, like_twin, like_twin, STRONG, like_twin, like_twin])
    assert decide(*card, model, paper_clipped=clipped)[0] == ["BBBBBB"]


WARM_CLIPPING = [   # (gains RGB, symbols, width px, blur, quality): rings the old reader read red
    ((2.5, 2.0, 1.5), "RRBBRV", 48.45, 2.31, 66),
    ((2.2, 1.7, 1.3), "VRVBRV", 55.84, 2.21, 55),
]


@pytest.mark.parametrize("gains,symbols,width_px,blur,quality", WARM_CLIPPING)
def test_blurred_rings_beside_a_red_disc_under_a_clipping_warm_lamp_are_never_read_red(
        gains, symbols, width_px, blur, quality):
    """Under a warm lamp that clips the paper the ring's blends are pulled towards red, at
    less than half the strength the card's printed red discs reach."""
    read = _lit_read(symbols, width_px, gains, blur, quality)
    assert all(r == t for r, t in zip(read, symbols, strict=True) if t == "R"), read


def test_weak_blue_far_thinner_than_its_twin_is_unsure():
    """Samples at 0.56 blue, no darker than blue ink makes them, beside a blue disc whose core
    reaches full strength: barely half its twin's strength is not the same print under the
    same blur, whether the paper clipped or not (`thinner_than_twins`, see test_symbol_thinner)."""
    model = builtin_model("holodex")
    full, thin = (1.0, -0.06), (0.56, 0.0)
    card = _card([full, thin, full, thin, full, full])
    assert decide(*card, model, paper_clipped=np.array([True]))[0] == ["B?B?BB"]
    assert decide(*card, model, paper_clipped=np.array([False]))[0] == ["B?B?BB"]

