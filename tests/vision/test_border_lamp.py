"""The border band on a card whose paper clipped the sensor in every channel is judged under
one lamp a black body can be. The white reference is then the sensor's neutral limit, so the
grey band keeps the lamp's tint, and the read lets each channel back by as much as the lamp
may have overexposed it (`symbol_lamp.lamp_grey`). Only a black-body lamp's tint is allowed (red,
green, blue in order: warm or cool, never green or magenta), only once the paper has reached
the clip, and only one for the whole read: the one the white of cards whose paper did not clip
shows, or else the one that leaves the clipped cards' bands greyest taken together (the median,
which a few places under a coloured object do not move). A dark green or magenta lying on such
a card's band is then never its border, a red or navy one not where the table's lamp does not
explain it (the old rule picked a scaling per card from all 27, and took all four), while a
card under a warm lamp still reads."""

from __future__ import annotations

import numpy as np

from companion.vision.symbol_lamp import dark_band
from companion.vision.symbol_samples import BORDER_DEPTHS

from .test_reader import _read_hard

ALL_CLIPPED = np.array([[250.0, 253.0, 252.0]])      # BGR white references
# the band of a card of hard seed 649 (3500 K) at its darkest depths, paper-normalised RGB
WARM_BAND = (0.58, 0.30, 0.21)
GREY_BAND = (0.30, 0.30, 0.32)
DARK_GREEN, MAGENTA = (0.15, 0.45, 0.20), (0.50, 0.22, 0.50)
DARK_RED, NAVY = (0.55, 0.25, 0.25), (0.12, 0.18, 0.42)


def _cards(*rgb: tuple[float, float, float], places: int = 18) -> np.ndarray:
    """A read's border bands (cards x depths x places x RGB), one colour per card."""
    one = np.array(rgb, np.float32).reshape(len(rgb), 1, 1, 3)
    return np.repeat(np.repeat(one, len(BORDER_DEPTHS), 1), places, 2)


def _whites(n: int, bgr: tuple[float, float, float] = (250.0, 253.0, 252.0)) -> np.ndarray:
    return np.repeat(np.array([bgr]), n, 0)


def test_a_green_or_magenta_is_no_grey_under_any_lamp():
    # a black-body lamp leaves a grey's green between its red and blue
    for colour in (DARK_GREEN, MAGENTA):
        assert not dark_band(_cards(colour), ALL_CLIPPED).any(), colour
    # the lamp's own tint still is: a grey under a warm lamp
    assert dark_band(_cards(WARM_BAND), ALL_CLIPPED).all()


def test_one_lamp_for_every_clipped_card_of_the_read():
    """Cards whose band reads grey: the lamp is neutral, and a red or a navy band beside them
    is not grey. Cards whose band reads warm: a navy band (a cool lamp's) is not grey."""
    dark = dark_band(_cards(GREY_BAND, GREY_BAND, GREY_BAND, DARK_RED, NAVY), _whites(5))
    assert dark.any(1).all(1).tolist() == [True, True, True, False, False]
    assert not dark[3:].any()
    dark = dark_band(_cards(WARM_BAND, WARM_BAND, WARM_BAND, NAVY), _whites(4))
    assert dark.any(1).all(1).tolist() == [True, True, True, False]
    assert not dark[3].any()


def test_the_lamp_seen_on_cards_whose_paper_did_not_clip():
    """Two whole cards whose paper did not clip show the lamp: neutral, a dark red band on a
    clipped card is not grey; warm, the clipped card's warm band is."""
    white = np.array([[200.0, 205.0, 210.0], [190.0, 196.0, 201.0], [250.0, 253.0, 252.0]])
    whole = np.array([True, True, True])
    dark = dark_band(_cards(GREY_BAND, GREY_BAND, DARK_RED), white, whole)
    assert dark[:2].all() and not dark[2].any()
    warm = np.array([[150.0, 190.0, 240.0], [140.0, 178.0, 226.0], [250.0, 253.0, 252.0]])
    assert dark_band(_cards(GREY_BAND, GREY_BAND, WARM_BAND), warm, whole)[2].all()


def test_paper_merely_well_exposed_is_judged_as_it_is():
    # every channel of the white at 246-249, none at the clip: the strict test stands
    assert not dark_band(_cards(WARM_BAND), np.array([[246.0, 248.0, 249.0]])).any()


def test_rendered_table_under_a_warm_lamp_that_clipped_every_channel_is_read():
    """Hard seed 226 (holodex, all-clipped paper): every card read, none wrong."""
    s = _read_hard(226, "holodex")
    assert s.misreads == 0 and s.false_cards == 0
    assert s.correct == s.full == 16, s
