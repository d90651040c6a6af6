"""Sizes of cards found again after a shadow cut them: checked among all the table's cards.

`HexelReader._tell` finds the paper of turned-down hexagons again and keeps the cards found
so whose size agrees with the table's other cards (`reader._cards_of`). The size check
compares a card with its nearest cards; made among the found cards alone, three of them far
apart on a steep table (one near the camera, larger) would be compared with each other only,
and a good card dropped before the check against the whole table.
"""

from __future__ import annotations

import math

import numpy as np

from companion.faces import HEXEL_FACE
from companion.vision import reader as reader_mod
from companion.vision.calibration import TableView
from companion.vision.cards import fit_hexagons, paper_blobs, paper_mask
from companion.vision.reader import HexelReader, _cards_of, _own_poses
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture
from .heldout import VARIANTS, heldout_scene


def _three_far_apart() -> np.ndarray:
    """Three cards on wood, far apart: two 48 px wide, one 66 px (1.375 times: nearer)."""
    img = texture("wood", (300, 720), np.random.default_rng(4))
    for x, width, symbols in ((120.0, 48.0, "RBVRBV"), (360.0, 48.0, "VVRRBB"),
                              (600.0, 66.0, "BBBRRR")):
        draw_card(img, np.array([x, 150.0]), symbols, "holodex",
                  width / HEXEL_FACE.flat_to_flat_mm)
    return img


def test_the_card_test_leaves_sizes_to_the_caller_when_asked():
    """Of three whole cards far apart, the larger one is dropped by a size check among them
    alone, and kept when the check is left to the caller (`sized=False`)."""
    img = _three_far_apart()
    fits, _ = fit_hexagons(paper_blobs(paper_mask(img, 1.0), 1.0, TableView()), affine=True)
    fits = [f for f in fits if min(math.dist(f.centre, (x, 150.0)) for x in (120, 360, 600)) < 4]
    assert len(fits) == 3
    reader = HexelReader("holodex")
    reads = read_cards(img, _own_poses(fits), reader.view, reader.model)
    cards, _ = _cards_of(fits, reads, reader.params)
    assert len(cards) == 2 and max(f.apothem for f in cards) < 26.0
    cards, others = _cards_of(fits, reads, reader.params, sized=False)
    assert len(cards) == 3 and not others
    assert max(f.apothem for f in cards) > 1.3 * min(f.apothem for f in cards)


def test_reseated_cards_are_sized_against_the_whole_table(monkeypatch):
    """A shadowed table (held-out seed 17) whose cut card is found again: the cards found so
    are read without a size check among themselves (the table-wide one follows)."""
    calls = []
    own = reader_mod._cards_of

    def spy(fits, reads, p, reseated=frozenset(), sized=True):
        calls.append((len(fits), set(reseated) == {id(f) for f in fits}, sized))
        return own(fits, reads, p, reseated, sized)

    monkeypatch.setattr(reader_mod, "_cards_of", spy)
    scene = heldout_scene(17, variant=VARIANTS["shadowed"])
    HexelReader(scene.edition).read(scene.image)
    found = [sized for n, only_found, sized in calls if only_found and n > 0]
    assert found and not any(found), calls
