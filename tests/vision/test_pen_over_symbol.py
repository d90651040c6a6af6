"""A pen or marker of a printer ink's own colour, from beyond a blurred card's edge onto one of
its symbols (`symbol_crossings.pen_on_band`, BLURRED_PEN_TINT): blur wider than the border band
takes the printed step off the whole edge, so the band cannot show the step the pen hides, yet the
pen leaves its ink at full strength on the band and past the card's outline, where print never
is. The symbol it lies on is reported unseen ('?'), never read as the pen's ink. Crafted cards
drawn with plain cv2 (tests/vision/crafted.py), as the adversarial pen sweep draws them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, motion_blur, texture
from .pen_sweep import CENTRE, NEUTRAL, WARM, pen_card

INKS = {"R": (214, 34, 32), "B": (22, 92, 212), "Y": (246, 184, 0)}   # pens' RGB


def _pen_card(symbols: str, edition: str, width: float, gains: tuple[float, float, float],
              blur: float, motion: int, edge: int, ink: str, thick: float) -> np.ndarray:
    """A card `width` px across the flats on felt, a pen of `ink` `thick` of the width wide
    lying from beyond `edge` onto its symbol, lit by `gains`, defocused by `blur` px, smeared
    by `motion` px, JPEG 75 (`pen_sweep.pen_card`)."""
    return pen_card(symbols, edition, width, gains, blur, motion, edge, INKS[ink], thick)


# cases the sweep read with the pen's letter before (the symbol read in brackets)
CASES = [
    ("web", "RBYRBY", 36, NEUTRAL, 2.8, 0, 2, "R", 0.16),    # RB[R]RB?
    ("web", "RBYRBY", 36, NEUTRAL, 2.8, 0, 1, "Y", 0.16),    # R[Y]?R??
    ("web", "RBYRBY", 36, NEUTRAL, 2.8, 0, 2, "B", 0.22),    # ??[B]R?Y
    ("web", "BBRRYY", 36, NEUTRAL, 2.8, 6, 5, "R", 0.16),
    ("holodex", "BBRRVV", 36, NEUTRAL, 2.8, 6, 1, "R", 0.16),
    ("holodex", "RBVRBV", 44, NEUTRAL, 2.8, 6, 5, "B", 0.16),
    ("web", "BBRRYY", 36, WARM, 2.0, 6, 5, "R", 0.16),
]


@pytest.mark.parametrize("case", CASES)
def test_a_pen_of_an_inks_colour_over_a_blurred_symbol_is_not_read(case):
    edition, symbols, width, gains, blur, motion, edge, ink, thick = case
    img = _pen_card(symbols, edition, width, gains, blur, motion, edge, ink, thick)
    read = read_cards(img, [Pose(tuple(CENTRE), width / 2.0, 0.0)], TableView(),
                      builtin_model(edition))[0].symbols
    assert read[edge] == "?", read
    assert all(r in ("?", s) for r, s in zip(read, symbols, strict=True)), read


@pytest.mark.parametrize("edition,symbols", [("web", "RBYRBY"), ("holodex", "BBRRVV")])
@pytest.mark.parametrize("width,blur,motion", [(36, 2.8, 6), (36, 4.0, 0), (56, 2.8, 6)])
def test_a_blurred_card_with_no_pen_is_not_misread(edition, symbols, width, blur, motion):
    # the same cards and blur with nothing over them: the print alone never tints its band so
    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, CENTRE, symbols, edition, width / HEXEL_FACE.flat_to_flat_mm, 0.0)
    lit = cv2.GaussianBlur(img.astype(np.float32) * np.float32(NEUTRAL[::-1]), (0, 0), blur)
    if motion:
        lit = motion_blur(lit, motion, 20.0)
    read = read_cards(np.clip(lit, 0, 255).astype(np.uint8),
                      [Pose(tuple(CENTRE), width / 2.0, 0.0)], TableView(),
                      builtin_model(edition))[0].symbols
    assert all(r in ("?", s) for r, s in zip(read, symbols, strict=True)), read
