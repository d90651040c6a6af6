"""The dark border band under a lamp that clips the paper in some channels. The band is judged
against the card's white reference (its own paper); where the paper clipped in a channel that
reference is darker than the light, so the grey band normalised by it reads too bright there
and tinted towards that channel: under a warm lamp that clips red and green a grey border looks
orange. The reader used to take that for no border at all and rejected whole tables of cards
(hard seed 463: 0 of 20 read). The band is now judged by the channels that did not clip, a
clipped channel allowed to read brighter only as far as the paper can be past clipping."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.calibration import TableView
from companion.vision.colour import OVEREXPOSED_MAX, builtin_model
from companion.vision.reader_params import ReaderParams
from companion.vision.symbol_lamp import dark_band
from companion.vision.symbol_samples import CardRead, Pose
from companion.vision.symbols import read_cards

from .test_reader import _read_hard
from .test_symbols_unflag import _jpeg_card

WARM_CLIPPING = (2.0, 1.5, 0.85)   # RGB gains: the crafted paper clips in red and green


# the crafted cards and sizes every lamp of these tests lights (here and in
# test_border_strong_cast.py)
LIT_CARDS = pytest.mark.parametrize("symbols,edition", [("RBRBRB", "web"), ("BYRRYB", "web"),
                                                        ("VRVBVV", "holodex")])
LIT_SIZES = pytest.mark.parametrize("width_px,blur,quality", [(40.0, 1.0, 80), (50.0, 1.5, 80),
                                                              (60.0, 2.0, 70)])


def read_lit_card(symbols: str, edition: str, width_px: float, gains: tuple[float, ...],
                  blur: float, quality: int) -> CardRead:
    """One crafted card lit by per-channel `gains` (RGB), defocused by `blur` and saved as a
    JPEG of `quality`, read at its true pose."""
    img = _jpeg_card(symbols, edition, width_px, gains, blur, quality)
    return read_cards(img, [Pose((160.0, 120.0), width_px / 2.0, 0.0)], TableView(),
                      builtin_model(edition))[0]


def assert_band_seen_nothing_misread(read: CardRead, symbols: str) -> None:
    """The card's border band is seen, and every symbol reads right or '?'."""
    assert read.border_ok >= ReaderParams().min_card_border, read
    assert all(r in (t, "?") for r, t in zip(read.symbols, symbols, strict=True)), read


@LIT_CARDS
@LIT_SIZES
def test_border_of_a_card_under_a_warm_clipping_lamp_is_seen(symbols, edition, width_px, blur,
                                                             quality):
    read = read_lit_card(symbols, edition, width_px, WARM_CLIPPING, blur, quality)
    assert min(read.white_bgr[1:]) >= 245.0 > read.white_bgr[0]   # red, green clipped
    assert_band_seen_nothing_misread(read, symbols)


def _band(rgb: tuple[float, float, float]) -> np.ndarray:
    """One card's border band (1 card x 1 depth x 1 sample x RGB) of one normalised colour."""
    return np.array(rgb, np.float32).reshape(1, 1, 1, 3)


RED_GREEN_CLIPPED = np.array([[200.0, 255.0, 255.0]])   # BGR white reference
NOTHING_CLIPPED = np.array([[200.0, 220.0, 230.0]])


def test_a_grey_band_tinted_towards_the_clipped_channels_is_dark():
    assert dark_band(_band((0.55, 0.45, 0.40)), RED_GREEN_CLIPPED).all()
    # the same tint with nothing clipped is a coloured band, not the grey border
    assert not dark_band(_band((0.70, 0.50, 0.45)), NOTHING_CLIPPED).any()
    assert dark_band(_band((0.70, 0.50, 0.45)), RED_GREEN_CLIPPED).all()


def test_a_clipped_channel_may_not_read_darker_or_far_brighter_than_the_rest():
    # darker in a clipped channel: the light is brighter there than the reference, never dimmer
    assert not dark_band(_band((0.05, 0.45, 0.40)), RED_GREEN_CLIPPED).any()
    # brighter than the paper can be past clipping: a coloured (orange) band, not a grey one
    assert not dark_band(_band((OVEREXPOSED_MAX * 0.4 + 0.2, 0.45, 0.40)),
                          RED_GREEN_CLIPPED).any()
    # the unclipped channel alone must still be dark
    assert not dark_band(_band((0.95, 0.9, 0.8)), RED_GREEN_CLIPPED).any()


def test_rendered_table_under_a_warm_clipping_lamp_is_read():
    """Hard seed 463: 3000 K, a white balance that corrects little, paper clipped in red and
    green, 2 px defocus, 36-55 px cards, a glare spot; no hands."""
    s = _read_hard(463, "web")
    assert s.misreads == 0 and s.false_cards == 0
    assert s.correct >= 19, s


def test_the_allowance_holds_under_a_cast_the_white_balance_left_strong():
    """Where the paper's dimmest channel is far below the clip (a lamp whose channels stay
    more than ~1.4x apart), the grey band is still lit as the paper is in every channel: the
    same tint reads as the border, and the same bound on a clipped channel holds (it held
    only under a lamp left near white before; `test_border_strong_cast.py`)."""
    strong_cast = np.array([[150.0, 255.0, 255.0]])   # blue at 0.6 of the clip
    assert dark_band(_band((0.70, 0.50, 0.45)), strong_cast).all()
    assert dark_band(_band((0.70, 0.50, 0.45)), RED_GREEN_CLIPPED).all()
    assert not dark_band(_band((OVEREXPOSED_MAX * 0.45 + 0.1, 0.50, 0.45)), strong_cast).any()
