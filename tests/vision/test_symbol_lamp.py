"""Where a card's paper clipped the sensor, its white reference is darker than the paper in the
clipped channels, so its symbols' blends with the paper are seen too bright there and their hue
is pulled towards them (a grey ring's blends fit red under a warm lamp), and the reader leaves
them '?'. One lamp lights the table: its colour, measured on the cards whose paper did not clip,
tells how much brighter the clipped paper at least is (`symbols._lamp_read`), and the card read
again against that paper fills in its '?' when the read is complete and keeps every letter.
A card under another light (its unclipped channels off the lamp's colour) keeps its white, and
cards that disagree on the lamp's colour give none. Crafted cards are drawn with plain cv2
(tests/vision/crafted.py); rendered hard tables check the whole reader against their truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, photograph, texture
from .test_reader import _read_hard

ROW = ["VRVBVV", "RVVBVR", "VVRVBV", "VBVVRV"]
WARM = (1.0, 0.8, 0.55)   # lamp gains (RGB): a ~3000 K lamp the white balance barely corrected


def _row(bright: float, motion: int, cast: tuple[float, float, float] = (1.0, 1.0, 1.0),
         width: float = 44.0) -> list[str]:
    """Four holodex cards in a row under WARM, the last `bright` times brighter (its paper
    clips in red) and lit by `cast` on top, defocused, smeared by `motion` px, JPEG 70; read in
    one pass, as the reader reads a table's cards."""
    h, w = int(width * 1.6), int(width * 1.3 * len(ROW) + 40)
    img = texture("felt", (h, w), np.random.default_rng(0)).astype(np.float32)
    lamp = np.ones((h, w, 3), np.float32) * np.float32(WARM[::-1])
    centres = []
    for i, symbols in enumerate(ROW):
        centre = np.array([20 + width * (0.65 + 1.3 * i), h / 2])
        draw_card(img, centre, symbols, "holodex", width / HEXEL_FACE.flat_to_flat_mm, 0.0)
        centres.append(centre)
        x0 = int(20 + i * width * 1.3)
        lamp[:, x0:int(x0 + width * 1.3)] *= (0.8, 0.85, 0.9, bright)[i]
    lamp[:, int(20 + 3 * width * 1.3):] *= np.float32(cast[::-1])
    lit = cv2.GaussianBlur(img * lamp, (0, 0), 1.8)
    photo = photograph(lit, motion)
    poses = [Pose((float(c[0]), float(c[1])), width / 2.0, 0.0) for c in centres]
    reads = read_cards(photo, poses, TableView(),
                       builtin_model("holodex"))
    return [r.symbols for r in reads]


@pytest.mark.parametrize("bright,motion", [(1.3, 0), (1.35, 0), (1.35, 3), (1.4, 3)])
def test_a_clipped_card_under_a_warm_lamp_reads_its_rings(bright, motion):
    """The old reader left one to three of the bright card's rings '?'."""
    assert _row(bright, motion) == ROW


@pytest.mark.parametrize("cast", [(1.0, 0.6, 1.5), (0.6, 1.2, 1.6)])
def test_a_clipped_card_under_another_light_is_never_misread(cast):
    """A magenta or cyan light on the bright card alone: its unclipped channels do not fit
    the lamp's colour, and no symbol reads as another letter ('?' may stay)."""
    for bright, motion in [(1.3, 0), (1.4, 3)]:
        read = _row(bright, motion, cast)
        assert read[:3] == ROW[:3]
        assert all(r in (t, "?") for r, t in zip(read[3], ROW[3], strict=True)), read


def test_the_lamp_needs_agreeing_cards_and_a_card_that_fits_it():
    from companion.vision.symbol_lamp import lamp_of_reads, lamp_white
    from companion.vision.symbol_samples import CardRead

    def read(white):   # a whole card read under `white`
        return CardRead("RBVRBV", (1.0,) * 6, 1.0, 1.0, True, white)

    warm = [(100.0, 140.0, 180.0), (110.0, 154.0, 198.0), (95.0, 133.0, 171.0)]
    lamp = lamp_of_reads([read(w) for w in warm])
    assert lamp is not None
    # a window's light on half the cards: no lamp (they disagree); one card is too few
    window = [(170.0, 150.0, 140.0), (160.0, 141.0, 131.0)]
    assert lamp_of_reads([read(w) for w in [*warm[:2], *window]]) is None
    assert lamp_of_reads([read(warm[0])]) is None
    # a clipped card of the lamp's colour: red raised to what blue and green say (x 1.14)
    white = np.array([[160.0, 224.0, 253.0]], np.float32)
    assert lamp_white(white, lamp)[0, 2] == pytest.approx(160.0 * 1.8, rel=0.02)
    # one whose green is far off the lamp's (another light on it) keeps its white
    other = np.array([[160.0, 150.0, 253.0]], np.float32)
    assert (lamp_white(other, lamp) == other).all()


@pytest.mark.parametrize("seed,edition,was", [(317, "web", 13), (640, "holodex", 7)])
def test_rendered_clipped_tables_read_more_cards(seed, edition, was):
    """Hard tables 317 (3 blue diamonds on paper clipped in red and green at 4600 K) and 640
    (grey rings on paper clipped in red at 3600 K)."""
    s = _read_hard(seed, edition)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct > was, s
