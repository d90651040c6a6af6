"""Cards off the lattice (`HexelObservation.loose`): a card laid apart from the layout has no
cell, so the referee never takes a move from it, but the person at the table sees that it was
found and read, listed apart with its symbols from the edge facing nearest image-right and its
place in the picture, and drawn apart (magenta, "off") on the annotated frame. Before, such
cards were counted in a note and dropped: a newcomer who photographed a few cards laid loosely
on the table saw most of them missing."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.faces import HEXEL_FACE
from companion.vision.annotate import LOOSE, annotate
from companion.vision.calibration import TableView
from companion.vision.observation import LooseCard
from companion.vision.reader import HexelReader, _reading_order
from companion.vision.symbol_samples import Pose

from .crafted import draw_card, photograph, texture

PX_PER_MM = 1.6
A = HEXEL_FACE.apothem_mm * PX_PER_MM          # a card's apothem, px
STEP = 2.0 * A * 1.03                         # the lattice step: cards 3 % of an apothem apart
E_Q = np.array([STEP, 0.0])
E_R = np.array([STEP / 2.0, STEP * math.sqrt(3.0) / 2.0])
LAYOUT = {(0, 0): "RBVRBV", (1, 0): "BBRRVV", (0, 1): "VRBBRV", (1, -1): "RRBVBB",
          (-1, 1): "BVVRRB"}
ORIGIN = np.array([330.0, 330.0])
# two cards well away from the layout and from each other: one upright, one turned by 68°
# (a whole 60° step plus 8°: its edge that was NE now faces nearest image-right)
APART = ((np.array([930.0, 200.0]), "RRVBBB", 0.0), (np.array([1000.0, 520.0]), "BVRRVB", 68.0))


def _table() -> np.ndarray:
    img = texture("wood", (720, 1280), np.random.default_rng(3))
    for (q, r), symbols in LAYOUT.items():
        draw_card(img, ORIGIN + q * E_Q + r * E_R, symbols, "holodex", PX_PER_MM)
    for centre, symbols, turn in APART:
        draw_card(img, centre, symbols, "holodex", PX_PER_MM, turn)
    return photograph(img.astype(np.float32))


def _read(img: np.ndarray):
    return HexelReader("holodex", find_markers=False).read(img)


def test_cards_off_the_lattice_are_listed_apart_read_and_placed():
    result = _read(_table())
    obs = result.observation
    # the layout's cards keep their cells, relative to one another as laid
    got = {c.cell: c.symbols for c in obs.cards}
    assert len(got) == len(LAYOUT) and not any(c.occluded for c in obs.cards)
    q0, r0 = min(got)
    want = {(q - min(LAYOUT)[0], r - min(LAYOUT)[1]): s for (q, r), s in LAYOUT.items()}
    assert {(q - q0, r - r0): s for (q, r), s in got.items()} == want
    # the two cards apart: listed apart, top to bottom, each read whole from its own edge
    # nearest image-right (the turned one's NE edge faces there now: its list starts there)
    assert [c.symbols for c in obs.loose] == ["RRVBBB", "VRRVBB"]
    assert not any(c.occluded for c in obs.loose)
    assert all(c.confidence >= 0.9 for c in obs.loose)
    for card, (centre, _, _) in zip(obs.loose, APART, strict=True):
        assert np.linalg.norm(np.asarray(card.centre_px) - centre) < 3.0
    assert any("2 card(s) off the lattice" in n for n in obs.notes)
    # and in the JSON form, apart from the cells the referee takes moves from
    data = obs.to_json()
    assert [c["symbols"] for c in data["loose"]] == ["RRVBBB", "VRRVBB"]
    assert {tuple(c["cell"]) for c in data["cards"]} == set(got)
    assert len(result.loose_poses) == 2


def test_a_turned_card_apart_lists_its_symbols_from_its_edge_nearest_image_right():
    """The same card apart, turned by k whole steps of 60° (plus a few degrees), reads as its
    symbols rotated by k: each time from the edge that faces nearest image-right."""
    symbols = "RBBVRV"
    for k, extra in ((1, 7.0), (2, -6.0), (4, 9.0)):
        img = texture("felt", (720, 1280), np.random.default_rng(4))
        for (q, r), s in LAYOUT.items():
            draw_card(img, ORIGIN + q * E_Q + r * E_R, s, "holodex", PX_PER_MM)
        draw_card(img, np.array([980.0, 360.0]), symbols, "holodex", PX_PER_MM,
                  60.0 * k + extra)
        obs = _read(photograph(img.astype(np.float32))).observation
        assert [c.symbols for c in obs.loose] == [symbols[k:] + symbols[:k]], k


def test_the_annotated_frame_draws_a_card_apart_in_its_own_colour():
    img = _table()
    result = _read(img)
    out = annotate(img, result.observation, result.poses, result.view, result.loose_poses)
    magenta = np.all(out == np.array(LOOSE, np.uint8), axis=2)
    ys, xs = np.nonzero(magenta)
    assert len(xs) > 200
    # all of it about the two cards apart, none on the layout
    near = np.zeros(len(xs), bool)
    for centre, _, _ in APART:
        near |= np.hypot(xs - centre[0], ys - centre[1]) < 1.3 * A
    assert near.all()


def test_reading_order_is_row_by_row_from_the_top_left():
    """Centres a few px apart in height are one row (read left to right); a card an apothem
    lower or more starts the next."""
    view = TableView()
    places = [(700.0, 101.0), (100.0, 99.5), (400.0, 100.0), (250.0, 190.0), (50.0, 240.0)]
    cards = [(LooseCard(str(k), 1.0, False, xy), Pose(xy, 40.0, 0.0))
             for k, xy in enumerate(places)]
    assert [c.symbols for c, _ in _reading_order(cards, view)] == ["1", "2", "0", "3", "4"]


def test_recognize_prints_the_cards_apart_and_annotates_them(tmp_path, capsys):
    from companion.cli import main

    photo, drawn = tmp_path / "table.png", tmp_path / "seen.png"
    cv2.imwrite(str(photo), _table())
    assert main(["recognize", str(photo), "--game", "hexel", "--annotate", str(drawn)]) == 0
    out = capsys.readouterr().out
    lines = [ln.strip() for ln in out.splitlines() if "off the lattice at" in ln]
    assert [ln.split()[-2] for ln in lines] == ["RRVBBB", "VRRVBB"]
    assert "930, 200" in lines[0] and "1000, 520" in lines[1]
    seen = cv2.imread(str(drawn))
    assert np.all(seen == np.array(LOOSE, np.uint8), axis=2).sum() > 200
