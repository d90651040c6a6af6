"""A picture without colour (`vision.colourless`): a greyscale photo, or a camera in a
monochrome mode. Both games' cards are told by their inks, and a grey picture of them reads
wrong where it reads at all (Hexapod: a blue card's grey taken for a dung beetle's black), so
neither reader reads one (the web edition's Hex'el cards are read by their shapes:
`test_grey_shapes`): the cards and cases found are reported unread with a note saying why, and
the referee asks for a colour camera instead of waiting for a hand to lift. A colour picture is
never taken for one, a grey table's included."""

from __future__ import annotations

import cv2
import numpy as np

from companion.scenarios import hexapod_scene
from companion.vision.colourless import colourless
from companion.vision.hexapod import HexapodReader
from companion.vision.observation import NO_COLOUR, UNKNOWN
from companion.vision.reader import HexelReader
from companion.vision.scoring import score_table
from companion.vision.temporal import StableFilter

from . import heldout


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def _jpeg(image: np.ndarray, quality: int = 80) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                        cv2.IMREAD_COLOR)


def test_a_grey_picture_is_told_from_a_colour_one():
    scene = heldout.heldout_scene(3, variant=heldout.VARIANTS["default"])
    assert not colourless(scene.image)
    assert colourless(_grey(scene.image)) and colourless(_jpeg(_grey(scene.image)))
    # a colour camera's picture of a plain grey cloth: its noise and white balance leave colour
    rng = np.random.default_rng(0)
    cloth = np.clip(128 + rng.normal(0, 3, (720, 1280, 3)) + (2.0, 0.0, -2.0), 0, 255)
    assert not colourless(_jpeg(cloth.astype(np.uint8)))
    # a blank frame (a lens cap, a wall) is no grey picture of a table
    assert not colourless(np.zeros((720, 1280, 3), np.uint8))
    assert not colourless(np.full((720, 1280, 3), 128, np.uint8))
    small = cv2.resize(_grey(scene.image), (90, 50))             # smaller than the thumbnail
    assert colourless(small)


def test_hexel_cards_in_a_grey_picture_are_reported_unread():
    # holodex: its grey rings still tell the cards, which are listed unread (web cards are read
    # by their shapes: `test_grey_shapes`)
    scene = heldout.heldout_scene(0, variant=heldout.VARIANTS["default"])
    grey = HexelReader(scene.edition).read(_grey(scene.image)).observation
    assert grey.no_colour and any(n.startswith(NO_COLOUR) for n in grey.notes)
    assert len(grey.cards) >= 5
    assert all(c.symbols == "??????" and c.occluded and c.confidence == 0.0
               for c in grey.cards)
    assert score_table(grey.cards, scene.truth).misreads == 0
    colour = HexelReader(scene.edition).read(scene.image).observation
    assert not colour.no_colour and not any(n.startswith(NO_COLOUR) for n in colour.notes)
    assert score_table(colour.cards, scene.truth).correct == 20


def test_hexapod_cases_in_a_grey_picture_are_reported_unread():
    # before: player 1's blue card and stag read as dung beetles ('K'), its yellows too
    image, truth = hexapod_scene(3, "easy")
    grey = HexapodReader().read_full(_grey(image)).observation
    assert grey.no_colour and any(n.startswith(NO_COLOUR) for n in grey.notes)
    assert {c.player for c in grey.cases} == {1, 2}
    for case in grey.cases:
        assert all(code == UNKNOWN for row in case.grid for code in row)
        assert all(all(row) for row in case.occluded) and case.confidence == 0.0
    colour = HexapodReader().read_full(image).observation
    assert not colour.no_colour
    for case, want in zip(sorted(colour.cases, key=lambda c: c.player),
                          sorted(truth.cases, key=lambda c: c.player), strict=True):
        assert [list(r) for r in case.grid] == [list(r) for r in want.grid]


def test_a_grey_picture_becomes_the_stable_table():
    # read nothing for want of colour, not for a hand: the video filter takes it as the table
    # as it is, so the referee can say what to do
    scene = heldout.heldout_scene(0, variant=heldout.VARIANTS["default"])
    reader = HexelReader(scene.edition)
    f = StableFilter(stable_s=0.5)
    colour = reader.read(scene.image).observation
    for t in (0.0, 0.6):
        f.update(colour, t)
    grey = reader.read(_grey(scene.image)).observation
    assert f.update(grey, 0.7).cards == f.stable.cards
    assert f.update(grey, 1.3).no_colour
