"""A light grey pen from beyond a blurred, motion-smeared card's edge onto a coloured disc
(`symbol_crossings.pen_beyond`): the disc under the pen's grey reads as a grey blob whose hole
does not show, i.e. the blurred grey ring, but the pen carries on across the border band and
past the card's outline, one colour straight across the edge where a printed ring leaves the
paper-to-band step, and lifts the dark band where it crosses it. The symbol it lies on is
reported unseen ('?'), never read as the ring. Crafted cards drawn with plain cv2
(`pen_sweep.pen_card`), as the crafted pen sweep draws them; the same cards with no pen keep
every symbol, their smeared rings included."""

from __future__ import annotations

import pytest

from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .pen_sweep import CENTRE, WARM, pen_card

GREY_PEN = (135, 135, 135)   # RGB: lighter than the printed band, darker than the paper

# cases read with the disc as the grey ring before (the symbol read in brackets)
CASES = [
    ("RBVRBV", 64, 3.0, 6, 4, 0.18),    # RBVR[V]V
    ("BBRRVV", 58, 1.5, 6, 1, 0.18),    # B[V]RRVV
    ("BBRRVV", 58, 3.0, 6, 1, 0.18),    # B[V]RRVV
]


def _read(symbols: str, width: int, blur: float, motion: int, edge: int | None,
          thick: float) -> str:
    img = pen_card(symbols, "holodex", width, WARM, blur, motion, edge, GREY_PEN, thick)
    return read_cards(img, [Pose(tuple(CENTRE), width / 2.0, 0.0)], TableView(),
                      builtin_model("holodex"))[0].symbols


@pytest.mark.parametrize("case", CASES)
def test_a_grey_pen_over_a_smeared_disc_is_not_read_as_the_ring(case):
    symbols, width, blur, motion, edge, thick = case
    read = _read(symbols, width, blur, motion, edge, thick)
    assert read[edge] == "?", read
    assert all(r in ("?", s) for r, s in zip(read, symbols, strict=True)), read


@pytest.mark.parametrize("case", CASES)
def test_the_same_smeared_card_with_no_pen_keeps_its_rings(case):
    symbols, width, blur, motion, _edge, thick = case
    assert _read(symbols, width, blur, motion, None, thick) == symbols
