"""A whole card needs only most of its border band to look like the printed grey band
(`ReaderParams.min_border_ok`, 0.55: 10 of its 18 places). The band is a few pixels wide on a
camera's card; defocus and motion mix it with the table beside it, so beside a saturated table
(a yellow check, brown wood) many of its places take the table's hue and fail the neutral-grey
test, though every symbol reads and the card's paper is all there. A card with something over
its edge still loses its symbols there (each symbol's own surround is checked) or the bulk of
its band. Rendered hard tables check the whole reader against their truth."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.probe import whole_read
from companion.vision.reader_params import ReaderParams
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture
from .test_reader import _read_hard


@pytest.mark.parametrize("seed,edition,was", [(132, "holodex", 15), (629, "web", 16),
                                              (454, "holodex", 10)])
def test_cards_whose_band_took_the_tables_hue_are_read(seed, edition, was):
    """Hard tables 132 (a yellow and black check), 629 (brown wood, an arm), 454 (two hands):
    cards read whole and right but flagged for their border band before."""
    s = _read_hard(seed, edition)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct > was, s


def _card_with_band_painted(edges: tuple[int, ...], bgr: tuple[int, int, int]) -> np.ndarray:
    """A holodex card 70 px wide on felt whose border band is painted over with `bgr` along
    `edges` (edge d faces -60 degrees times d), a little blurred."""
    img = texture("felt", (160, 160), np.random.default_rng(4))
    draw_card(img, np.array([80.0, 80.0]), "RBVRBV", "holodex", 70.0 / HEXEL_FACE.flat_to_flat_mm)
    a = 35.0 * (1.0 - 0.6 * HEXEL_FACE.border_frac)       # about the band and just beyond
    r = a * 2.0 / math.sqrt(3.0)
    for d in edges:
        ends = [np.radians(-60.0 * d + s) for s in (-30.0, 30.0)]
        p0, p1 = ((80.0 + r * math.cos(t), 80.0 + r * math.sin(t)) for t in ends)
        cv2.line(img, tuple(round(v) for v in p0), tuple(round(v) for v in p1), bgr,
                 max(3, round(2.2 * 35.0 * HEXEL_FACE.border_frac)), cv2.LINE_AA)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def _whole(img: np.ndarray) -> bool:
    read = read_cards(img, [Pose((80.0, 80.0), 35.0, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    return read.symbols == "RBVRBV" and whole_read(read, ReaderParams())


def test_a_band_tinted_along_two_edges_is_whole_and_one_painted_along_four_is_not():
    assert _whole(_card_with_band_painted((1, 4), (40, 200, 230)))     # yellow check beside it
    assert not _whole(_card_with_band_painted((0, 1, 2, 3), (50, 110, 30)))  # felt over it
