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
import pytest

from companion.vision.calibration import TableView
from companion.vision.colour import CLIP_HIGH, builtin_model
from companion.vision.reader_params import ReaderParams
from companion.vision.symbol_lamp import dark_band
from companion.vision.symbol_samples import CLIP_NEAR, Pose
from companion.vision.symbols import read_cards

from .test_reader import _read_hard
from .test_symbols_unflag import _jpeg_card

STRONG_WARM = (2.0, 1.5, 0.6)   # RGB gains: red and green clip, blue stays near half the clip


@pytest.mark.parametrize("symbols,edition", [("RBRBRB", "web"), ("BYRRYB", "web"),
                                             ("VRVBVV", "holodex")])
@pytest.mark.parametrize("width_px,blur,quality", [(40.0, 1.0, 80), (50.0, 1.5, 80),
                                                   (60.0, 2.0, 70)])
def test_border_of_a_card_under_a_strong_warm_cast_is_seen(symbols, edition, width_px, blur,
                                                           quality):
    img = _jpeg_card(symbols, edition, width_px, STRONG_WARM, blur, quality)
    read = read_cards(img, [Pose((160.0, 120.0), width_px / 2.0, 0.0)], TableView(),
                      builtin_model(edition))[0]
    # red and green clipped, blue well below the clip (far below 0.7 of it)
    assert min(read.white_bgr[1:]) >= CLIP_NEAR and read.white_bgr[0] < 0.6 * CLIP_HIGH
    assert read.border_ok >= ReaderParams().min_card_border, read
    assert all(r in (t, "?") for r, t in zip(read.symbols, symbols, strict=True)), read


STRONG_CAST = np.array([[140.0, 255.0, 255.0]])   # BGR white: blue at 0.56 of the clip


def _band(rgb: tuple[float, float, float]) -> np.ndarray:
    """One card's border band (1 card x 1 depth x 1 sample x RGB) of one normalised colour."""
    return np.array(rgb, np.float32).reshape(1, 1, 1, 3)


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
