"""A dung beetle told by its printed drawing where its colours leave the cell undecided: a dim
lamp, a beetle washed bright, a warm cast. Its drawing is the only one lighter in the middle
than about it (a grey beetle on a black tile), so the reader matches an undecided cell's grey
against the one-cell beetles' drawings as printed (`hexapod_drawings.dung_drawn`,
`models/hexapod-beetles.png`) and names it 'K' when the dung beetle's matches clearly best.
Hard tables whose dung beetle was left '?' before, and crafted canvases."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.synth.hexapod_face import BEETLES, STAG_MODEL_PX, beetles_grey
from companion.vision.hexapod_drawings import BEETLES as READ_ORDER
from companion.vision.hexapod_drawings import BEETLES_MODEL, dung_drawn

from .hexapod_scenes import PX, WHITE, M, assert_hard_cell_reads, lay_card, lined_board


def test_the_model_is_the_printed_beetles():
    """models/hexapod-beetles.png is the one-cell beetles as `companion cards export` prints
    them, dung beetle first (regenerate with `companion
    models hexapod-drawings` after changing the cards' art)."""
    shipped = cv2.imread(str(BEETLES_MODEL), cv2.IMREAD_GRAYSCALE)
    assert shipped is not None
    assert BEETLES[0] == "K" and READ_ORDER == BEETLES   # the reader takes the first as K
    assert shipped.shape == (len(BEETLES) * STAG_MODEL_PX, STAG_MODEL_PX)
    assert np.array_equal(shipped, beetles_grey())


def beetles_table(light, veil: float, shift: tuple[int, int]) -> np.ndarray:
    """A crafted canvas: the one-cell beetles' cards (BEETLES, dung beetle first) on row 2
    (columns 0-4) and the stag on column 5 (rows 1-2), each `shift` (dx, dy) px off the grid,
    seen under `light` (BGR, per channel, of the print's colours) plus `veil` of white."""
    img = lined_board(WHITE)
    for col, code in enumerate(BEETLES):
        lay_card(img, ((code,),), 2, col, light, veil, shift)
    lay_card(img, (("St",), ("Sb",)), 1, 5, light, veil, shift)
    return img


@pytest.mark.parametrize(("light", "veil", "shift"), [
    ((0.8, 0.78, 0.76), 0.0, (0, 0)),        # as printed
    ((0.25, 0.25, 0.25), 0.0, (7, -6)),      # a dim lamp, nearly a third of a cell off
    ((0.5, 0.5, 0.5), 0.4, (-5, 4)),         # washed under a veil of light
    ((0.3, 0.55, 0.95), 0.0, (3, 3)),        # a warm cast (BGR)
])
def test_only_the_dung_beetle_shows_its_drawing(light, veil, shift):
    """Of the one-cell beetles, the stag's two cells and bare board, only the dung beetle's
    cell is the dung beetle's drawing, under any of these lights."""
    img = beetles_table(light, veil, shift)
    cells = np.array([2 * 6 + c for c in range(5)] + [6 + 5, 2 * 6 + 5, 0, 35])
    got = dung_drawn(img, PX, M, 6, cells)
    assert cells[got].tolist() == [2 * 6 + 0]


@pytest.mark.parametrize(("seed", "player", "cell"), [
    (139, 1, (2, 5)),   # a dung beetle washed bright by the lamp (before: '?')
    (454, 2, (5, 5)),   # under a warm cast, its black tile tinted off the neutral labels
])
def test_hard_tables_dung_beetles_told_by_their_drawing(seed, player, cell):
    """Hard tables whose listed dung beetle, in full view, was left undecided: it reads 'K',
    and no cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, "K")


@pytest.mark.parametrize(("sigma", "beside"), [(0.0, True), (1.0, True), (3.0, False)])
def test_beside_a_hand_the_drawing_must_show_plainly(sigma, beside):
    """Beside an occluder's mask the dung beetle is told by its drawing only where it shows
    plainly (DUNG_HAND_MATCH: the printed beetle matches by 0.998 as printed, 0.94 blurred by
    one canvas pixel); blurred by three (0.79) it is still a dung beetle away from any mask,
    but not beside one, where a hand's edge darkening a cell about its pale middle matches as
    well. No other cell passes either way."""
    img = cv2.GaussianBlur(beetles_table((0.8, 0.78, 0.76), 0.0, (0, 0)), (0, 0), sigma) \
        if sigma else beetles_table((0.8, 0.78, 0.76), 0.0, (0, 0))
    cells = np.array([2 * 6 + c for c in range(5)] + [6 + 5, 2 * 6 + 5, 0, 35])
    assert cells[dung_drawn(img, PX, M, 6, cells)].tolist() == [2 * 6 + 0]
    got = dung_drawn(img, PX, M, 6, cells, beside_hand=True)
    assert cells[got].tolist() == ([2 * 6 + 0] if beside else [])


@pytest.mark.parametrize(("seed", "player", "cell"), [
    (334, 1, (1, 3)),   # beside a hand's mask, under a glare (matching by 0.96; before: '?')
    (563, 2, (3, 3)),   # beside a hand's mask (0.94; before: '?')
])
def test_hard_tables_dung_beetles_beside_a_hand(seed, player, cell):
    """Hard tables whose dung beetle in full view beside a hand was left undecided (the
    reader's colour rules for dung beetles keep away from the occluder masks): it reads 'K' by
    its drawing, and no cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, "K")
