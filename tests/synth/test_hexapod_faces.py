"""Hexapod card faces: every cell reads as its kind by colour, even at 25 px a cell, and the
halves of stags and moths are told apart (RULES.md P1)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from companion.rules.hexapod import load_deck
from companion.synth.hexapod_face import CARD, cell_centres_px, render_card, render_spider

_h = importlib.util.spec_from_file_location(
    "hexapod_helpers", Path(__file__).with_name("hexapod_helpers.py"))
helpers = importlib.util.module_from_spec(_h)
_h.loader.exec_module(helpers)

DECK = load_deck(Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json")


@pytest.mark.parametrize("cell_px", [25, 64])
def test_every_cell_of_the_deck_reads_as_its_kind(cell_px):
    for card in DECK:
        face = render_card(card.rows, cell_px)
        assert face.shape == (3 * cell_px, 2 * cell_px, 4) and (face[:, :, 3] == 255).all()
        centres = cell_centres_px(cell_px)
        for r, row in enumerate(card.rows):
            for c, code in enumerate(row):
                # the whole cell's mean and a small central window both keep the kind's hue
                cell = face[r * cell_px:(r + 1) * cell_px, c * cell_px:(c + 1) * cell_px, :3]
                assert helpers.kind_class(cell.reshape(-1, 3).mean(axis=0)) == \
                    helpers.code_class(code), (card.name, r, c, code)
                centre = helpers.window_mean(face, centres[r, c], cell_px / 8)
                assert helpers.kind_class(centre) == helpers.code_class(code), \
                    (card.name, r, c, code)


def dark_centroid(cell: np.ndarray) -> np.ndarray:
    """(x, y) centroid, as fractions of the cell, of the insect's dark pixels."""
    grey = cell[:, :, :3].mean(axis=2)
    ys, xs = np.nonzero(grey < 0.6 * np.median(grey))
    return np.array([xs.mean(), ys.mean()]) / cell.shape[0]


def test_two_cell_halves_are_told_apart():
    px = 48
    stag = render_card((("St", "B"), ("Sb", "B"), ("G", "G")), px)[:, :px]
    top, bottom = stag[:px], stag[px:2 * px]
    # each half leans towards its other half, and the halves are not mirror images
    assert dark_centroid(top)[1] > 0.5 > dark_centroid(bottom)[1]
    assert np.abs(top[::-1].astype(int) - bottom.astype(int)).mean() > 20
    moth = render_card((("Ml", "Mr"), ("B", "B"), ("G", "G")), px)[:px]
    left, right = moth[:, :px], moth[:, px:]
    assert dark_centroid(left)[0] > 0.5 > dark_centroid(right)[0]
    # the moth is mirror-symmetric about its body: told apart by which side the body is on
    assert np.abs(left[:, ::-1].astype(int) - right.astype(int)).mean() < 12


def test_faces_refuse_split_insects_and_unknown_codes():
    with pytest.raises(ValueError, match="other half"):
        render_card((("St", "B"), ("B", "B"), ("G", "G")))
    with pytest.raises(ValueError, match="other half"):
        render_card((("Mr", "Ml"), ("B", "B"), ("G", "G")))
    with pytest.raises(ValueError, match="unknown"):
        render_card((("X", "B"), ("B", "B"), ("G", "G")))


def test_spider_card_is_dark_and_card_sized():
    face = render_spider(32)
    assert face.shape == (3 * 32, 2 * 32, 4)
    assert face[:, :, :3].mean() < 90
    assert CARD.width_mm == 56.0 and CARD.height_mm == 84.0
