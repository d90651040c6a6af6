"""Cards laid loosely, with gaps of a third of a card or more between neighbours, still lie on a
lattice, only a wider one: the lattice's spacing is the cards' own nearest-neighbour distance
(`lattice.MAX_SPACING`). Measured against the spacing of cards laid side by side, a loose
layout's neighbours fell between two steps and were left out, while a card three of its steps
away fell a whole number of the narrower steps off and was placed at a wrong cell."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.cards import Blob, fit_card
from companion.vision.geometry import SQRT3, hexagon
from companion.vision.reader import HexelReader, _grow
from companion.vision.reader_params import ReaderParams

from .crafted import draw_card, photograph, texture

CELLS = [(q, r) for r in range(-1, 2) for q in range(-2, 2)] + [(2, -1), (-3, 1)]
SYMBOLS = ("RBVRBV", "VVBBRR", "RRBBVV", "BVBVBV", "VRVRVB", "BBBRRV", "VVRRBB", "RVBBRV",
           "BRVVRB", "VRBRVB", "RRVBVB", "BVRRVB", "VBRBRV", "RBBVVR")


def _blob(poly: np.ndarray) -> Blob:
    """A blob in an uncalibrated view (the plane is the image) with `poly` as its hull."""
    return Blob(poly, poly, float(cv2.contourArea(poly.astype(np.float32))), False)


def _relative(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    q0, r0 = cells[0]
    return [(q - q0, r - r0) for q, r in cells]


@pytest.mark.parametrize("gap", [0.0, 0.2, 0.35, 0.5, 0.6])
def test_the_lattice_takes_the_spacing_the_cards_are_laid_at(gap):
    """Fourteen cards a `gap` of a card apart (each card 2 apothems across, its neighbours
    2 (1 + gap) apothems from it): every card is placed, at its own cell."""
    a = 24.0                                          # a card's apothem, px
    step = 2.0 * a * (1.0 + gap)
    e_q, e_r = np.array([step, 0.0]), np.array([step / 2.0, step * SQRT3 / 2.0])
    paper = a * (1.0 - HEXEL_FACE.border_frac)
    fits = [fit_card(_blob(hexagon(np.array([640.0, 360.0]) + q * e_q + r * e_r, paper, 0.0)),
                     True) for q, r in CELLS]
    lat, kept, off = _grow(fits, TableView(), ReaderParams())
    assert not off
    got = [lat.cells[kept.index(f)] for f in fits]
    assert _relative(got) == _relative(CELLS)


def test_a_loosely_laid_table_reads_every_card_at_its_cell():
    """The same layout drawn on wood 40 % of a card apart, each card turned a few degrees:
    every card read whole, at its own cell relative to the others, none at a wrong one."""
    ppm = 1.4
    a = HEXEL_FACE.apothem_mm * ppm
    step = 2.0 * a * 1.4
    e_q, e_r = np.array([step, 0.0]), np.array([step / 2.0, step * SQRT3 / 2.0])
    img = texture("wood", (720, 1280), np.random.default_rng(7))
    turns = np.random.default_rng(8).uniform(-6.0, 6.0, len(CELLS))
    centre = np.array([600.0, 360.0])
    for (q, r), symbols, turn in zip(CELLS, SYMBOLS, turns, strict=True):
        draw_card(img, centre + q * e_q + r * e_r, symbols, "holodex", ppm, float(turn))
    obs = HexelReader("holodex", find_markers=False).read(
        photograph(img.astype(np.float32))).observation
    assert not any(c.occluded for c in obs.cards)
    by_symbols = {c.symbols: c.cell for c in obs.cards}
    assert sorted(by_symbols) == sorted(SYMBOLS)
    got = [by_symbols[s] for s in SYMBOLS]
    assert _relative(got) == _relative(CELLS)
    assert len(obs.cards) == len(CELLS)


def test_a_long_hop_whose_steps_hang_on_the_spacing_places_no_card():
    """Seven cards side by side, and two more laid on along E each half a card from the last
    (gaps of 45 %): those two lie between lattice steps from their neighbours, and the farther
    is 2.8 narrow steps from the group's end, a hop that rounds to three steps at the group's
    spacing though it spans two cards. Measured at the wide end of the table's spacings (the
    loose cards' own) it is two: its steps hang on the spacing, and the card is not placed at
    the wrong cell (`lattice.SPREAD_PERCENTILES`)."""
    a = 24.0
    side = 2.0 * a * 1.03                               # the group's step, px
    loose = 2.0 * a * 1.45                              # the loose cards' step
    e_q, e_r = np.array([side, 0.0]), np.array([side / 2.0, side * SQRT3 / 2.0])
    group = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, -1), (1, -1)]
    centres = [np.array([400.0, 360.0]) + q * e_q + r * e_r for q, r in group]
    end = centres[2]                                    # the group's east end, cell (2, 0)
    centres += [end + np.array([loose, 0.0]), end + np.array([2.0 * loose, 0.0])]
    paper = a * (1.0 - HEXEL_FACE.border_frac)
    fits = [fit_card(_blob(hexagon(c, paper, 0.0)), True) for c in centres]
    lat, kept, _ = _grow(fits, TableView(), ReaderParams())
    cells = {i: lat.cells[kept.index(f)] for i, f in enumerate(fits) if f in kept}
    assert all(i in cells for i in range(len(group)))
    q0, r0 = cells[0]
    placed = {i: (q - q0, r - r0) for i, (q, r) in cells.items()}
    assert placed[2] == (2, 0)
    # the far loose card: at its true cell, two steps on from the group's end, or nowhere
    assert placed.get(8, (4, 0)) == (4, 0)
