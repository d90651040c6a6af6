"""The dark border band under a warm lamp the camera's white balance left far from white, one
that clips the paper in red and green while its blue stays near half the clip. The band is
judged against the card's own white; where a channel clipped that white is darker than the
light, so the grey band normalised by it reads too bright there. The allowance for that (the
band judged by the channels that did not clip, a clipped one reading brighter by no more than
the paper can be past clipping) used to hold only under a lamp left near white (the paper's
dimmest channel at 0.7 of the clip or more). A grey band is lit as the paper is in every
channel, under any cast, so it now holds wherever the paper's dimmest channel still carries a
reference: whole cards on a red saucer under such a lamp (hard seed 685) were lost for their
band alone, every symbol read right. The cards here are drawn with plain cv2
(`tests/vision/crafted.py`), lit by known per-channel gains, defocused and JPEG-compressed."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import CLIP_HIGH
from companion.vision.symbol_lamp import dark_band
from companion.vision.symbol_samples import CLIP_NEAR

from .test_border_clip import (
    LIT_CARDS,
    LIT_SIZES,
    _band,
    assert_band_seen_nothing_misread,
    read_lit_card,
)
from .test_reader import _read_hard

STRONG_WARM = (2.0, 1.5, 0.6)   # RGB gains: red and green clip, blue stays near half the clip


@LIT_CARDS
@LIT_SIZES
def test_border_of_a_card_under_a_strong_warm_cast_is_seen(symbols, edition, width_px, blur,
                                                           quality):
    read = read_lit_card(symbols, edition, width_px, STRONG_WARM, blur, quality)
    # red and green clipped, blue well below the clip (far below 0.7 of it)
    assert min(read.white_bgr[1:]) >= CLIP_NEAR and read.white_bgr[0] < 0.6 * CLIP_HIGH
    assert_band_seen_nothing_misread(read, symbols)


STRONG_CAST = np.array([[140.0, 255.0, 255.0]])   # BGR white: blue at 0.56 of the clip


def test_under_a_strong_cast_a_coloured_band_is_still_no_border():
    # the printed band (RGB 34, 34, 40) under STRONG_WARM, normalised by the white the camera
    # saw: red and green at their true values over the clip, blue over its own paper
    paper = np.array([247.0, 245.0, 238.0]) * STRONG_WARM
    grey = np.array([34.0, 34.0, 40.0]) * STRONG_WARM / np.minimum(paper, 255.0)
    assert dark_band(_band(tuple(grey)), STRONG_CAST).all()
    # a clipped channel far brighter than the paper can be past clipping: red cloth, skin
    for colour in ((0.95, 0.40, 0.30), (0.85, 0.55, 0.35), (0.60, 0.30, 0.20)):
        assert not dark_band(_band(colour), STRONG_CAST).any(), colour
    # nor darker than the channel that did not clip (a blue object), nor bright in it
    assert not dark_band(_band((0.05, 0.10, 0.45)), STRONG_CAST).any()
    assert not dark_band(_band((0.95, 0.90, 0.80)), STRONG_CAST).any()


def test_a_white_too_dark_in_some_channel_gives_no_allowance():
    # the paper's blue at a fifth of the clip: no reference for the band's hue, strict test
    assert not dark_band(_band((0.75, 0.55, 0.48)), np.array([[50.0, 255.0, 255.0]])).any()
    assert dark_band(_band((0.75, 0.55, 0.48)), STRONG_CAST).all()


def test_rendered_table_on_a_red_saucer_under_a_strong_warm_lamp_is_read():
    """Hard seed 685 (web): a lamp that clips the paper in red and green, blue at 0.6 of the
    clip, cards on a red saucer and a wooden table, two hands; main read 2 of its 9 fully
    visible cards, losing 4 whole cards whose every symbol read right for their band."""
    s = _read_hard(685, "web")
    assert s.misreads == 0 and s.false_cards == 0
    assert s.correct >= 6, s
