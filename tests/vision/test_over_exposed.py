"""The Hex'el reader says when the camera over-exposes the cards' paper (issue 3, "Colour
normalisation"): a card whose white lies at the sensor's clip in two of its three channels has
lost the light's colour with it, and such tables miss several times as many cards
(`symbol_lamp.over_exposed`); the note, the scoreboard's camera line and the referee's wait
(tests/referee/test_proposal.py) say to lower the exposure."""

import numpy as np
import pytest

from companion.scenarios import hexel_scene
from companion.vision.observation import OVER_EXPOSED
from companion.vision.reader import HexelReader, camera_setup
from companion.vision.symbol_lamp import OVER_EXPOSED_SHARE, over_exposed
from companion.vision.symbol_samples import CLIP_NEAR

from .hexel_scenes import read_hard

HOT = CLIP_NEAR + 5.0


def test_cards_clipped_in_exactly_two_channels_are_counted_where_they_are_most():
    two = [HOT, HOT, 200.0]       # (BGR) blue and green at the clip, red below
    other_two = [200.0, HOT, HOT]
    three, none = [HOT] * 3, [180.0, 200.0, 230.0]
    assert over_exposed(np.array([two, other_two, none])) == 2
    assert over_exposed(np.array([two, none])) == 1            # half of them
    assert over_exposed(np.array([two, none, none])) == 0      # a glare spot over one card
    assert over_exposed(np.array([three] * 4)) == 0            # every channel: the band tells
    assert over_exposed(np.array([[CLIP_NEAR - 1.0, CLIP_NEAR - 1.0, HOT]] * 3)) == 0  # one
    assert over_exposed(np.zeros((0, 3))) == 0
    assert OVER_EXPOSED_SHARE == 0.5


@pytest.fixture(scope="module")
def easy_table():
    image, truth = hexel_scene(3, "easy", 12, "holodex")
    return image, truth


def _read(image):
    reader = HexelReader("holodex", find_markers=False)
    reader.calibrate(image)
    return reader.read(image).observation


def _exposed(image, gains):
    """The frame as a camera exposing each channel (BGR) `gains` times as long would see it."""
    return np.clip(image.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(
        np.uint8)


def test_a_frame_whose_paper_clips_in_two_colours_is_said_to_be_over_exposed(easy_table):
    image, _truth = easy_table
    plain = _read(image)
    assert plain.over_exposed == 0
    assert not any(n.startswith(OVER_EXPOSED) for n in plain.notes)
    assert "over-exposed" not in camera_setup(plain)
    # (warm and over-exposed: red and green pushed well past the clip, blue not)
    hot = _read(_exposed(image, (1.0, 1.8, 2.0)))
    whole = [c for c in hot.cards if not c.occluded]
    assert whole, "the cards are still found"
    assert hot.over_exposed >= OVER_EXPOSED_SHARE * len(whole)
    note = next(n for n in hot.notes if n.startswith(OVER_EXPOSED))
    assert f"{hot.over_exposed} of" in note and "exposure_ev" in note
    assert "card paper over-exposed" in camera_setup(hot)
    # every channel past the clip: the printed band still tells the light, nothing is said
    white = _read(_exposed(image, (2.5, 2.5, 2.5)))
    assert white.over_exposed == 0


def test_a_rendered_warm_over_exposed_table_is_said_to_be(easy_table):
    # hard table 316: a 3080 K lamp left unbalanced, exposed 1.48 times: the cards' paper
    # clips in red and green, and four of its cards in full view are missed (their grey rings
    # washed faint and tinted); the referee asks for the exposure to be lowered
    _image, _truth, _reader, res = read_hard(316, "holodex")
    assert res.observation.over_exposed >= 8
    assert any(n.startswith(OVER_EXPOSED) for n in res.observation.notes)
