"""A one-cell beetle whose print turned its colour out of its kind's hue range (an office
printer's blue halfway to the stag's violet) is named by its drawing and the ink nearest its hue
(`hexapod_printed`): the drawing says a coloured one-cell beetle lies there, not the dung
beetle, the stag or the moth (`coloured_drawn`), and the tile's mean hue which of the four
(`nearest_ink`), only where one ink is clearly nearest. Crafted canvases with turned prints, and
held-out office prints whose cells were '?' before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.synth.hexapod_face import render_card
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_colour import KINDS, Pixels
from companion.vision.hexapod_printed import coloured_drawn, nearest_ink

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells
from .hexapod_scenes import PX, WHITE, M, lined_board

SMALL = round(0.45 * PX)    # the reader's small window


def turned(face: np.ndarray, degrees: float) -> np.ndarray:
    """A card face (BGR float 0-255) printed with every hue turned by `degrees` (HSV)."""
    hsv = cv2.cvtColor((face / 255.0).astype(np.float32), cv2.COLOR_BGR2HSV)
    hsv[..., 0] = (hsv[..., 0] + degrees) % 360.0
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR) * 255.0


def table(cards: list[tuple[tuple[tuple[str, ...], ...], int, int, float]]) -> np.ndarray:
    """A crafted canvas (`lined_board` under WHITE) with each card (rows of codes, row, col,
    hue turn in degrees) laid on the grid, its print seen under WHITE."""
    img = lined_board(WHITE)
    for rows, r, c, turn in cards:
        face = render_card(rows, PX)[:, :, :3].astype(np.float32)
        seen = np.minimum(turned(face, turn) * (WHITE / 255.0), 255.0)
        y0, x0 = M + r * PX, M + c * PX
        img[y0:y0 + face.shape[0], x0:x0 + face.shape[1]] = seen
    return img


def pixels(img: np.ndarray) -> Pixels:
    """The measures of the canvas against its white."""
    return Pixels.of(tuple(np.ascontiguousarray(img[..., k] / WHITE[k]) for k in range(3)))


ROW = 1
BEETLES = [((("B",),), ROW, 0, 30.0),     # blue turned to 250°, halfway to the stag's violet
           ((("G",),), ROW, 1, -25.0),    # green turned towards gold
           ((("R",),), ROW, 2, 4.0),      # red turned a little towards orange
           ((("Y",),), ROW, 3, 0.0),      # gold as printed
           ((("K",),), ROW, 4, 0.0)]      # the dung beetle
OTHERS = [((("St",), ("Sb",)), 3, 0, 0.0),   # the stag, violet
          ((("Ml", "Mr"),), 3, 2, 0.0)]      # the moth, teal


def test_only_the_coloured_one_cell_beetles_show_their_family_drawing():
    """The four coloured beetles' cells show a coloured one-cell beetle's drawing, turned or
    not; the dung beetle's, the stag's two, the moth's two and bare board do not."""
    img = table(BEETLES + OTHERS)
    cells = np.array([ROW * 6 + c for c in range(5)] + [3 * 6, 4 * 6, 3 * 6 + 2, 3 * 6 + 3,
                                                        35])
    got = coloured_drawn(img, PX, M, 6, cells)
    assert cells[got].tolist() == [ROW * 6 + c for c in range(4)]


def test_each_turned_beetle_takes_the_ink_nearest_its_hue():
    img = table(BEETLES)
    cells = np.array([ROW * 6 + c for c in range(4)])
    got = nearest_ink(pixels(img), PX, M, 6, 6, cells, SMALL)
    assert [KINDS[k] for k in got] == ["B", "G", "R", "Y"]


@pytest.mark.parametrize(("code", "turn", "why"), [
    ("B", 48.0, "blue turned to the stag's violet: no beetle's ink near"),
    ("G", -44.0, "green turned halfway to gold: neither nearer"),
    ("M", 0.0, "the moth's teal, halfway between blue and green"),
    ("R", 24.0, "red turned to orange, halfway to gold"),
])
def test_a_hue_no_ink_is_clearly_nearest_names_nothing(code, turn, why):
    rows = (("Ml", "Mr"),) if code == "M" else ((code,),)
    img = table([(rows, ROW, 0, turn)])
    got = nearest_ink(pixels(img), PX, M, 6, 6, np.array([ROW * 6]), SMALL)
    assert got.tolist() == [-1], why


def test_a_calibrated_print_is_judged_against_its_own_inks():
    """With the print's hues (as `calibrate colours --game hexapod` learns them) the blue
    turned by 48° is blue: its own ink lies next to it."""
    img = table([((("B",),), ROW, 0, 48.0)])
    design = nearest_ink(pixels(img), PX, M, 6, 6, np.array([ROW * 6]), SMALL)
    from companion.vision.hexapod_colour import INK_HUES

    hues = [float(h) for h in INK_HUES]
    hues[KINDS.index("B")] += 45.0     # the print's blue, as its chart shows it
    learned = nearest_ink(pixels(img), PX, M, 6, 6, np.array([ROW * 6]), SMALL, tuple(hues))
    assert design.tolist() == [-1] and [KINDS[k] for k in learned] == ["B"]


@pytest.mark.parametrize(("variant", "seed", "cells"), [
    ("printed", 19, [(0, 0), (0, 1), (1, 1), (2, 1)]),   # blue beetles printed violet
    ("printed", 46, [(0, 2), (0, 3), (0, 4)]),
    ("printed", 62, [(0, 0), (1, 3), (5, 4)]),              # and a green one, turned
    ("printed", 36, [(3, 2), (3, 3)]),
])
def test_held_out_office_prints_read(exported, variant, seed, cells):
    """Held-out office prints (pale inks turned up to 8°, a halftone screen): the listed cells,
    '?' before, read their own code, and no cell of the case reads a wrong code."""
    scene = heldout_case(exported, seed, VARIANTS[variant])
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert [grid[r][c] for r, c in cells] == [scene.grid[r][c] for r, c in cells]
    assert wrong_cells(grid, scene.grid) == []


@pytest.mark.parametrize(("variant", "seed", "cells", "why"), [
    ("printed", 8, [(0, 3), (0, 4), (3, 0)], "red beetles whose orange tiles the masks took "
     "for skin (no hand in the picture)"),
    ("printed", 53, [(4, 0), (4, 1), (4, 2), (4, 3)], "gold beetles so taken"),
    ("hand", 54, [(1, 1)], "a green beetle beside the arm, its drawing in plain view"),
])
def test_a_tile_under_the_masks_that_shows_its_drawing_plainly_is_read(exported, variant, seed,
                                                                       cells, why):
    """`hexapod_drawings.drawn_plainly`: a cell the occluder masks cover, read as a coloured
    one-cell beetle, is in view where the beetle's own drawing shows plainly (skin shows none;
    a hand hides what it lies over). The listed cells, '?' before, read their own code, and no
    cell of the case, under the arm or not, reads a code it does not show."""
    scene = heldout_case(exported, seed, VARIANTS[variant])
    board = scene.boards[0]
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert [grid[r][c] for r, c in cells] == [scene.grid[r][c] for r, c in cells], why
    assert all(got in (want, "?") for got_row, want_row in zip(grid, scene.grid, strict=True)
               for got, want in zip(got_row, want_row, strict=True))
    assert not any(board.hidden[r][c] for r, c in cells)


@pytest.mark.parametrize("seed", range(6))
def test_cells_under_an_arm_are_never_read_as_another_code(exported, seed):
    """Held-out pictures with an arm over the board: whatever the masks leave in view by the
    drawings, every cell reads its own code or '?'."""
    scene = heldout_case(exported, seed, VARIANTS["hand"])
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert wrong_cells(grid, scene.grid) == []
