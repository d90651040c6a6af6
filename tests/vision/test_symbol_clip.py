"""A lamp bright enough to clip the paper leaves the card's white reference darker than the
paper in the clipped channels, so every blend of paper and ink is seen too bright there and its
hue is pulled towards them: under a cool lamp a blurred grey ring fits the blue disc's ink at
about half strength. Such blends keep the grey ink's darkness, which no blend of paper and blue
ink has; the reader must leave them '?' (never read them as blue) and still read the discs."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.colour import OTHER, builtin_model
from companion.vision.symbol_decide import decide

# (a card's lamp is clipped at 255 after the defocus, as a sensor clips the light the lens spread)
from .test_symbols_unflag import _jpeg_card, _read

COOL = (1.2, 1.6, 2.2)   # per-channel gains (RGB): the crafted paper clips in all three, blue most


def _lit_read(symbols: str, width_px: float, gains_rgb: tuple[float, ...], blur: float,
              quality: int) -> str:
    """The holodex card `symbols` under a lamp of per-channel gains (`_jpeg_card`), read at
    its pose, after checking that no symbol is read as another letter (each right or '?')."""
    read = _read(_jpeg_card(symbols, "holodex", width_px, gains_rgb, blur, quality), "holodex",
                 width_px)
    assert all(r in (t, "?") for r, t in zip(read, symbols, strict=True)), read
    return read


# (symbols, width px, blur sigma px, JPEG quality): cards whose blurred rings the old reader
# read as blue discs with full confidence under COOL
RINGS_READ_BLUE = [
    ("RRBVBV", 43.97, 1.81, 78),
    ("BRVBBV", 46.31, 2.09, 87),
    ("VBVRVB", 48.07, 1.96, 93),
    ("RVBRBB", 57.61, 1.63, 83),
    ("BRVBRR", 43.92, 1.63, 62),
    ("RRVVVB", 51.63, 1.32, 59),
    ("RVVRVB", 48.59, 1.77, 67),
]


@pytest.mark.parametrize("symbols,width_px,blur,quality", RINGS_READ_BLUE)
def test_grey_rings_under_a_clipping_cool_lamp_are_never_read_blue(symbols, width_px, blur,
                                                                     quality):
    _lit_read(symbols, width_px, COOL, blur, quality)


def test_grey_ring_under_a_clipping_warm_lamp_is_not_read_red():
    """The same under a warm lamp: the ring's blends are pulled towards red."""
    _lit_read("VRBBVV", 38.36, (2.2, 1.7, 1.3), 2.26, 68)


@pytest.mark.parametrize("symbols", ["BVRBVR", "VBBRVV"])
@pytest.mark.parametrize("width_px,blur,quality", [(44.0, 0.8, 75), (48.0, 0.9, 70),
                                                   (52.0, 0.7, 85), (56.0, 1.0, 60)])
def test_discs_and_rings_under_a_clipping_cool_lamp_still_read(symbols, width_px, blur,
                                                                 quality):
    """Sharp enough, every symbol of such a card still reads: the printed discs' blends are
    no darker than their ink makes them, and their cores reach full strength."""
    assert _read(_jpeg_card(symbols, "holodex", width_px, COOL, blur, quality), "holodex",
                 width_px) == symbols


def _samples(letter: str, alpha: float, dark: float) -> tuple[np.ndarray, ...]:
    """One card whose six symbols are all 19 samples of `letter` at ink fraction `alpha` and
    grey-ink fraction `dark` (kind, alpha, dark; each 1 x 6 x 19)."""
    model = builtin_model("holodex")
    kind = np.full((1, 6, 19), model.letters.index(letter))
    return (kind, np.full((1, 6, 19), alpha, np.float32),
            np.full((1, 6, 19), dark, np.float32))


def test_weak_blue_darker_than_blue_ink_is_unsure_only_where_the_paper_clipped():
    """Blue ink (22, 92, 212 on paper 247, 245, 238) lies about 0.63 of the way from paper to
    the grey ink along the grey line, so paper with 0.6 of it is ~0.38 dark; samples at 0.6
    blue that are 0.6 dark hold grey ink. On a clipped card that is a tinted grey ring ('?');
    elsewhere the old reading stands (a dim lamp darkens blue ink too)."""
    model = builtin_model("holodex")
    kind, alpha, dark = _samples("B", 0.6, 0.6)
    assert decide(kind, alpha, dark, model, paper_clipped=np.array([False]))[0] == ["BBBBBB"]
    assert decide(kind, alpha, dark, model, paper_clipped=np.array([True]))[0] == ["??????"]


def test_blue_as_dark_as_its_ink_or_with_a_strong_core_still_reads_where_clipped():
    """Paper mixed with blue ink at 0.6 (dark ~0.38) is plain blue; and a disc printed heavier
    than the model's ink (darker) still reaches full strength in its core."""
    model = builtin_model("holodex")
    clipped = np.array([True])
    assert decide(*_samples("B", 0.6, 0.38), model, paper_clipped=clipped)[0] == ["BBBBBB"]
    kind, alpha, dark = _samples("B", 0.95, 0.75)
    assert decide(kind, alpha, dark, model, paper_clipped=clipped)[0] == ["BBBBBB"]
    # (OTHER is never a reading's ink: a card of unexplained samples stays '?')
    kind[:] = OTHER
    assert decide(kind, alpha, dark, model, paper_clipped=clipped)[0] == ["??????"]
