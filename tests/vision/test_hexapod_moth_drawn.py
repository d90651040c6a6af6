"""A moth's half whose teal leads its cell but whose colours fall short of `decide`'s kind, told
by the moth's printed drawing (`hexapod_drawings.moth_drawn`, `models/hexapod-moth.png`): either
half must match clearly better than every one-cell beetle and either half of the stag. The cell
then reads 'M' and is paired into its halves as any moth's. Crafted canvases, and hard tables
whose moth halves were left '?'."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.synth.hexapod_face import STAG_MODEL_PX, moth_grey
from companion.vision.hexapod_drawings import MOTH_MODEL, moth_drawn

from .hexapod_scenes import PX, WHITE, M, assert_hard_cell_reads, lay_card, lined_board


def test_the_model_is_the_printed_moth():
    """models/hexapod-moth.png is the moth as `companion cards export` prints it, its left half
    over its right (regenerate with `companion models hexapod-drawings` after changing the
    cards' art)."""
    shipped = cv2.imread(str(MOTH_MODEL), cv2.IMREAD_GRAYSCALE)
    assert shipped is not None
    assert shipped.shape == (2 * STAG_MODEL_PX, STAG_MODEL_PX)
    assert np.array_equal(shipped, moth_grey())


def _table(light: tuple[float, float, float], veil: float, shift: tuple[int, int]
           ) -> np.ndarray:
    """A crafted canvas: the moth on row 1 (columns 0-1), the one-cell beetles B, G, Y, R, K on
    row 3 (columns 0-4) and the stag on column 5 (rows 1-2), each `shift` (dx, dy) px off the
    grid, under `light` (BGR, per channel) plus `veil` of white."""
    img = lined_board(WHITE)
    lay_card(img, (("Ml", "Mr"),), 1, 0, light, veil, shift)
    lay_card(img, (("St",), ("Sb",)), 1, 5, light, veil, shift)
    for col, code in enumerate("BGYRK"):
        lay_card(img, ((code,),), 3, col, light, veil, shift)
    return img


@pytest.mark.parametrize(("light", "veil", "shift"), [
    ((0.8, 0.78, 0.76), 0.0, (0, 0)),        # as printed
    ((0.3, 0.55, 0.95), 0.0, (5, -4)),       # a warm cast (BGR), a fifth of a cell off
    ((0.45, 0.45, 0.45), 0.35, (-6, 3)),     # washed under a veil of light
    ((0.22, 0.22, 0.22), 0.0, (3, 6)),       # a dim lamp
])
def test_only_the_moths_halves_show_its_drawing(light, veil, shift):
    """Both halves of the moth show its drawing; no one-cell beetle, neither half of the stag
    and no bare board does."""
    img = _table(light, veil, shift)
    cells = np.array([6, 7, 11, 17, *(3 * 6 + c for c in range(5)), 0, 35])
    assert cells[moth_drawn(img, PX, M, 6, cells)].tolist() == [6, 7]


@pytest.mark.parametrize(("seed", "player", "cell", "code"), [
    (205, 2, (1, 4), "Mr"),   # a moth's right half whose teal leads, undecided by colour
    (509, 1, (3, 1), "Ml"),   # its left half
    (569, 2, (0, 3), "Mr"),
])
def test_hard_tables_moth_halves_read(seed, player, cell, code):
    """Hard tables whose listed moth half, in full view, was left undecided while the moth's
    teal led its window: it reads its half, and no cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, code)
