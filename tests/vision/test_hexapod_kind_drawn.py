"""A one-cell beetle whose kind's hue leads its cell but whose colours fall short of `decide`'s
kind (a warm cast's labels no kind's, a body washed pale, a dim ink), told by its own drawing
(`hexapod_drawings.kind_drawn`): the kind the hue names must be the beetle whose drawing matches
best, among the one-cell beetles and the stag's halves. Where the stag's violet leads,
the stag's drawing names its head or wing cases (`hexapod_halves.stag_drawn`). Crafted
canvases, and hard tables whose beetles and stag halves were left '?'."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_drawings import BEETLES, kind_drawn

from .hexapod_scenes import PX, M, assert_hard_cell_reads
from .test_hexapod_dung_drawn import beetles_table

KINDS = BEETLES[1:]      # the coloured one-cell beetles, on columns 1-4 of `beetles_table`
STAG = (1, 5)            # the stag's head cell there; its wing cases lie below


LIGHTS = [
    ((0.8, 0.78, 0.76), 0.0, (0, 0)),        # as printed
    ((0.3, 0.55, 0.95), 0.0, (5, -4)),       # a warm cast (BGR), a fifth of a cell off
    ((0.45, 0.45, 0.45), 0.35, (-6, 3)),     # washed under a veil of light
    ((0.22, 0.22, 0.22), 0.0, (3, 6)),       # a dim lamp
]


@pytest.mark.parametrize(("light", "veil", "shift"), LIGHTS)
def test_each_beetle_is_told_by_its_own_drawing(light, veil, shift):
    """Each coloured one-cell beetle's cell is its kind's drawing when its own kind is asked,
    under each of these lights and off the grid."""
    img = beetles_table(light, veil, shift)
    cells = np.array([2 * 6 + col for col in range(1, 5)])
    assert kind_drawn(img, PX, M, 6, cells, list(KINDS)).tolist() == [True] * 4


@pytest.mark.parametrize(("light", "veil", "shift"), LIGHTS)
def test_no_cell_shows_a_kind_it_is_not(light, veil, shift):
    """Asked as any other coloured beetle, no beetle's cell, neither half of the stag, the dung
    beetle nor bare board shows that kind's drawing."""
    img = beetles_table(light, veil, shift)
    cells, kinds = [], []
    others = [(2 * 6 + col, code) for col, code in enumerate(BEETLES)] + \
        [(STAG[0] * 6 + STAG[1], "St"), ((STAG[0] + 1) * 6 + STAG[1], "Sb"), (0, "."), (35, ".")]
    for cell, code in others:
        for kind in KINDS:
            if kind != code:
                cells.append(cell)
                kinds.append(kind)
    got = kind_drawn(img, PX, M, 6, np.array(cells), kinds)
    assert [(c, k) for c, k, g in zip(cells, kinds, got, strict=True) if g] == []


@pytest.mark.parametrize(("seed", "player", "cell", "code"), [
    (540, 1, (0, 1), "Y"),   # a warm cast: gold hue over 0.61 of the cell, a third OTHER
    (187, 2, (3, 1), "G"),   # green hue over 0.6, OTHER over 0.4 under a warm lamp
    (162, 2, (3, 4), "B"),   # a blue body with hardly any ink in the large window
    (282, 1, (3, 4), "R"),   # red, its dark body washed from the large window
])
def test_hard_tables_beetles_read(seed, player, cell, code):
    """Hard tables whose listed beetle, in full view, was left undecided: it reads its kind,
    and no cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, code)


@pytest.mark.parametrize(("seed", "player", "cell", "code"), [
    (127, 2, (5, 1), "Sb"),   # wing cases whose violet leads, undecided by colour
    (202, 1, (0, 3), "St"),   # a head undecided: named, and its wing cases below paired
    (629, 2, (1, 3), "St"),   # the head of a stag whose violet covers the whole window
    (540, 2, (1, 4), "Sb"),   # wing cases with a red tint over a tenth of the window
])
def test_hard_tables_stag_halves_read(seed, player, cell, code):
    """Hard tables whose listed stag half, in full view, was left undecided while the stag's
    violet led its window: it reads its half (`stag_drawn`, then paired as any stag), and no
    cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, code)
