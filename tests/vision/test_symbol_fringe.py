"""Symbol reading where the paper clips: a grey ring's blurred fringe under warm, overexposed
light, drawn with plain cv2 (tests/vision/crafted.py) and read at its known pose."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.symbols import Pose, read_cards

from .crafted import draw_card, texture


def _clipped_card(symbols: str, width_px: float, motion_px: int,
                  gains_rgb: tuple[float, float, float]) -> tuple[np.ndarray, float]:
    """One holodex card on felt, lit by per-channel gains, blurred by vertical motion, then
    clipped to 8 bits the way a sensor clips: paper brighter than 255 in red (and green)."""
    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, np.array([160.0, 120.0]), symbols, "holodex",
              width_px / HEXEL_FACE.flat_to_flat_mm, 0.0)
    lit = img.astype(np.float32) * np.array(gains_rgb[::-1], np.float32)
    kernel = np.full((motion_px, 1), 1.0 / motion_px, np.float32)
    lit = cv2.filter2D(lit, -1, kernel)
    return np.clip(lit, 0, 255).astype(np.uint8), width_px / 2.0


@pytest.mark.parametrize("width_px,motion_px", [(44.0, 4), (44.0, 5), (50.0, 4), (56.0, 5)])
def test_a_blurred_ring_under_clipped_warm_light_reads_as_the_ring(width_px, motion_px):
    """With the paper clipped in red and green, the ring's half-inked fringe keeps more red
    than green or blue relative to the (clipped) white, so it fits the red ink's line at a low
    fraction. Those faint samples are the ring's fringe, not a rival red symbol: every ring
    reads V, and the red disc and blue disc still read R and B."""
    img, apothem = _clipped_card("VRVBVV", width_px, motion_px, (1.5, 1.1, 0.8))
    read = read_cards(img, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert read.symbols == "VRVBVV"


def test_a_faint_red_disc_is_not_taken_for_a_ring():
    """The discount is for rings only: a red disc washed out to a faint pink under the same
    light keeps its reading red (or unsure), never the grey ring."""
    img, apothem = _clipped_card("RRRRRR", 50.0, 4, (1.5, 1.1, 0.8))
    paper = np.array([255, 255, 255], np.float32)
    faint = (0.6 * paper + 0.4 * img.astype(np.float32)).astype(np.uint8)   # washed-out print
    read = read_cards(faint, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert "V" not in read.symbols
