"""The dark border band on a card whose paper clipped the sensor in every channel. The card's
white reference is then the sensor's neutral limit whatever the lamp's colour, so the grey band
normalised by it keeps the lamp's tint: under a warm lamp and a bright exposure (hard seed 649:
3500 K, exposure 1.39, every channel of the paper at 246-254) the band reads orange-brown, and
the reader took five whole cards that read all six symbols for hexagons without a border. Each
channel of the band may read too bright by as much as the paper can be past the clip
(OVEREXPOSED_MAX), but by one factor all round the card: one lamp lights it. Guards: a band
that needs one scaling on one side and another on the other is grey only on one side, a
saturated or bright colour is never the band, and no card is read wrong."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import OVEREXPOSED_MAX
from companion.vision.symbol_lamp import dark_band
from companion.vision.symbol_samples import NEUTRAL_SPREAD

from .test_reader import _read_hard

ALL_CLIPPED = np.array([[250.0, 253.0, 252.0]])      # BGR white references
NOTHING_CLIPPED = np.array([[200.0, 220.0, 230.0]])
# the band of a card of hard seed 649 at its darkest depths, paper-normalised RGB (as sampled)
WARM_BAND = (0.58, 0.30, 0.21)


def _band(*rgb: tuple[float, float, float]) -> np.ndarray:
    """One card's border band (1 card x 1 depth x places x RGB), one colour per place."""
    return np.array(rgb, np.float32).reshape(1, 1, len(rgb), 3)


def test_a_grey_band_under_a_lamp_that_clipped_every_channel_is_dark():
    assert dark_band(_band(WARM_BAND), ALL_CLIPPED).all()
    # the same colour where the paper did not clip is a coloured band, not the grey border
    assert not dark_band(_band(WARM_BAND), NOTHING_CLIPPED).any()


def test_only_a_colour_the_clip_can_explain_is_the_band():
    # more saturated than a channel's half stop past the clip can make a grey
    assert not dark_band(_band((0.70, 0.30, 0.12)), ALL_CLIPPED).any()
    red = OVEREXPOSED_MAX * (0.30 + NEUTRAL_SPREAD) + 0.01
    assert not dark_band(_band((red, 0.30, 0.30)), ALL_CLIPPED).any()
    # bright (a hand, a pale table): never dark, whatever the lamp
    assert not dark_band(_band((0.90, 0.75, 0.62)), ALL_CLIPPED).any()


def test_one_lamp_one_scaling_round_the_card():
    """A band warm on two thirds of its places and cool on the rest needs two lamps: only the
    places that one scaling makes grey count."""
    warm, cool = WARM_BAND, (0.15, 0.30, 0.58)
    dark = dark_band(_band(warm, warm, cool, warm, cool, warm), ALL_CLIPPED)[0, 0]
    assert dark.tolist() == [True, True, False, True, False, True]
    # each alone is grey under its own lamp
    assert dark_band(_band(cool, cool), ALL_CLIPPED).all()


def test_rendered_table_whose_paper_clipped_in_every_channel_is_read():
    """Hard seed 649 (web, wood, 3500 K, exposure 1.39, no hands): 15 of 20 before."""
    s = _read_hard(649, "web")
    assert s.misreads == 0 and s.false_cards == 0
    assert s.correct == 20, s
