"""A small printed symbol smeared by defocus and camera motion still reads by its mean colour
(`symbol_decide.decide`'s fallback) when its strongest sample reaches FALLBACK_PEAK (0.45): on a
card about 36 px wide under 1.6 px of defocus and 5 px of motion, a yellow triangle's ink is spread
over its whole sample pattern and no sample keeps half of it, though every sample that shows ink
shows yellow and its mean lies on yellow's line. Crafted cards are drawn with plain cv2
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

from .crafted import draw_card, motion_blur, texture
from .test_reader import _read_hard


def _smeared(symbols: str, width: float = 36.0) -> np.ndarray:
    """A web card `width` px wide on felt, defocused, smeared 5 px by motion, under a warm lamp
    (blue at 0.6, green at 0.85 of red) and saved as a JPEG of quality 60."""
    img = texture("felt", (160, 160), np.random.default_rng(1)).astype(np.float32)
    draw_card(img, np.array([80.0, 80.0]), symbols, "web", width / HEXEL_FACE.flat_to_flat_mm)
    img = motion_blur(cv2.GaussianBlur(img, (0, 0), 1.6), 5, 20.0)
    img = img * np.array([0.6, 0.85, 1.0], np.float32)
    img = np.clip(img + np.random.default_rng(2).normal(0, 3, img.shape), 0, 255)
    _, jpg = cv2.imencode(".jpg", img.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 60])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR)


def test_a_smeared_small_triangle_reads_by_its_mean_colour():
    img = _smeared("BBRRYY")
    read = read_cards(img, [Pose((80.0, 80.0), 18.0, 0.0)], TableView(),
                      builtin_model("web"))[0]
    assert read.symbols == "BBRRYY"


@pytest.mark.parametrize("seed,was", [(107, 9), (501, 12)])
def test_rendered_smeared_web_tables_read_more_cards(seed, was):
    """Hard tables 107 (35-37 px cards, 4.9 px motion) and 501 (30-40 px, 3.9 px motion)."""
    s = _read_hard(seed, "web")
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct > was, s
