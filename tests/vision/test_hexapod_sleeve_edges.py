"""Where a sleeve's edge looks like the board or a card. A sleeve's edge that lies along a printed
grid line is no line on board fill: a cell read empty whose middle is dimmer than lit fill keeps
its reading only when the board's printed line shows along one of its sides with fill as bright
on both sides of it (`line_balance`): the fill 1/8 cell either side of a printed line is lit
alike, while a flat grey sleeve whose edge runs beside the line puts itself on one side of it
(`hexapod_cover.unlined_dim_empty`). And a dark sleeve's rounded end over lit fill, just beyond
the occluder mask, looks like a black tile with its grey beetle: a dung beetle read where a dark
occluder reaches is '?' (`hexapod_occluders.dark_occluder_dung`). Pictures: the held-out
compositions of the exported faces (`hexapod_heldout.py`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import hexapod_lines as hlines
from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells


@pytest.mark.parametrize(("seed", "cell"), [(45, (0, 0)), (47, (0, 4))])
def test_a_card_under_a_sleeves_edge_along_the_grid_is_not_read_empty(exported, seed, cell):
    """Held-out arms: a grey sleeve whose edge runs along the board's top grid line, the line
    seen just beyond it, over a green beetle (seed 45) and a moth (47). The old reader took the
    line beside the sleeve for the cell's own and read the card as empty board; the sleeve is
    much darker than the fill across the line, so the cell is now '?'. Nothing else changes:
    no wrong code, no cell in full view '?'."""
    scene = heldout_case(exported, seed, VARIANTS["hand"])
    board = scene.boards[0]
    assert board.hidden[cell] and board.grid[cell[0]][cell[1]] != "."
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert grid[cell[0]][cell[1]] == UNKNOWN
    assert wrong_cells(grid, board.grid) == []
    assert all(grid[r][c] != UNKNOWN for r in range(6) for c in range(6)
               if not board.hidden[r, c])


def test_a_dark_sleeves_rounded_end_is_not_a_dung_beetle(exported):
    """Held-out arm, seed 74: a black sleeve's rounded end over two empty cells of the top row,
    just beyond the occluder mask; the old reader read both as a dung beetle (K)."""
    scene = heldout_case(exported, 74, VARIANTS["hand"])
    board = scene.boards[0]
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert board.grid[0][2] == board.grid[0][3] == "."
    assert grid[0][2] == grid[0][3] == UNKNOWN
    assert wrong_cells(grid, board.grid) == []


@pytest.mark.parametrize(("seed", "cell"), [(36, (5, 4)), (81, (2, 4))])
def test_a_black_tile_beside_a_skin_hand_is_still_read(exported, seed, cell):
    """Held-out arms, seeds 36 and 81: a dung beetle in full view that a skin-coloured hand's
    mask reaches within an eighth of a cell. Skin is lighter than a dark sleeve, so the tile
    keeps its reading."""
    scene = heldout_case(exported, seed, VARIANTS["hand"])
    board = scene.boards[0]
    assert not board.hidden[cell] and board.grid[cell[0]][cell[1]] == "K"
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert grid[cell[0]][cell[1]] == "K"


def _column_sleeve(scene, col: int, level: float) -> np.ndarray:
    """`scene`'s picture with a flat grey sleeve (`level` of the paper) over grid column `col`
    from the top down past the frame, its edges 1 mm inside the column's grid lines."""
    mm = 28.0
    quad = np.array([(col * mm + 1, 1.0), ((col + 1) * mm - 1, 1.0),
                     ((col + 1) * mm - 1, 2000.0), (col * mm + 1, 2000.0)])
    q = np.c_[quad, np.ones(4)] @ scene.boards[0].mm_to_px.T
    mask = np.zeros(scene.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(q[:, :2] / q[:, 2:3] * 16).astype(np.int32), 255,
                       cv2.LINE_AA, 4)
    m = mask.astype(np.float32)[..., None] / 255.0
    paper = np.percentile(scene.image.reshape(-1, 3), 99, axis=0)
    out = np.clip(scene.image * (1.0 - m) + level * paper * m, 0, 255).astype(np.uint8)
    return cv2.GaussianBlur(out, (0, 0), 0.7)


def test_a_sleeve_along_a_column_does_not_read_its_cards_empty(exported):
    """Seed 0 (cards in rows 0-3 of columns 2-4): a flat grey sleeve at 0.7 of the paper lying
    exactly over column 2, its edges just inside the column's grid lines. The old reader saw
    the printed lines beside the sleeve's edges and read the blue beetle (0, 2) and the green
    one (2, 2) under it as empty board."""
    scene = heldout_case(exported, 0)
    grid = HexapodReader(track=False).read(_column_sleeve(scene, 2, 0.7)).cases[0].grid
    assert wrong_cells(grid, scene.grid) == []
    assert grid[0][2] == grid[2][2] == UNKNOWN


def test_a_printed_line_counts_in_shade_but_not_beside_a_sleeve():
    """Crafted canvas, one cell's left side: a printed line (half the fill) between fill on
    both sides counts; so it does under a shadow's soft edge (the fill on the two sides 10 %
    apart); with a flat pale sleeve (0.7 of the fill, brighter than the line) in place of the
    fill on the cell's side, the dip beside it, which counted before, no longer counts as the
    printed line."""
    px, m = 24, 12
    size = 2 * m + 6 * px
    cell = np.array([2 * 6 + 2])                       # row 2, column 2
    x = m + 2 * px                                     # its left side's line, between x-1 and x
    base = np.full((size, size), 300.0, np.float32)
    base[:, x - 1:x + 1] = 150.0

    def left(grey: np.ndarray) -> float:
        return float(hlines._side_lines(grey, px, m, 6, 6, cell, 0.03, None, 0.8)[0, 2])

    assert left(base) == 1.0
    shade = base * np.where(np.arange(size) < x, 1.0, 0.9).astype(np.float32)[None, :]
    assert left(shade) == 1.0
    sleeve = base.copy()
    sleeve[:, x + 1:] = 210.0
    assert hlines._side_lines(sleeve, px, m, 6, 6, cell, 0.03)[0, 2] == 1.0   # unbalanced: a dip
    assert left(sleeve) == 0.0
