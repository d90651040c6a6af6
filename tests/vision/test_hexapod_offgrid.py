"""A card lying off the grid is read at its own tile (`hexapod_cells.tile_offsets`). A card a third
of a cell off puts the edge of its tile next to the cell's centre: the windows about the centre
mix the tile with the card's gutter and whatever lies beside it, and the nudged windows agree on
no code. The tile's own outline (a rounded square of one hue ringed by the card's paper) shows
where the card lies; a cell whose centre lies inside that whole tile is read at the tile's
centre. A cell whose centre lies beyond the top card's tile (on its gutter, its edge or the card
below) stays '?'. Pictures: the exported faces and board (`companion cards export`) laid here
at chosen shifts and turns and pasted onto a grey table, as `hexapod_heldout.py` lays them."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import SIZE, _affine, _export, _paste, _similarity, _to_px, wrong_cells


def _picture(folder, cards, cell_px: float = 30.0, theta: float = 0.4):
    """(BGR picture, grid) of player 1's board with `cards` laid in order, each (face id, row,
    col, (dx, dy) shift in cells, turn in degrees), seen square-on at `cell_px` px per cell."""
    manifest, faces, boards, ppm = _export(str(folder))
    meta = manifest["boards"][0]
    cell = meta["cell_mm"]
    sheet = boards[0].astype(np.float32)
    to_px = _to_px(meta, ppm)
    codes = {f["id"]: f["cells"] for f in manifest["faces"] if f.get("cells")}
    grid = [["."] * 6 for _ in range(6)]
    for name, row, col, (dx, dy), turn in cards:
        face = faces[name]
        ang = math.radians(turn)
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        centre = np.array([(col + 1 + dx) * cell, (row + 1.5 + dy) * cell])
        k = 2 * cell / face.shape[1]
        m = to_px @ _affine(rot, centre) @ _affine(np.eye(2) * k, np.array(
            [0.5 * k - cell, 0.5 * k - 1.5 * cell]))
        size = (sheet.shape[1], sheet.shape[0])
        warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_AREA)
        alpha = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), m, size,
                                    flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
        sheet += (warped.astype(np.float32) - sheet) * alpha
        for r, line in enumerate(codes[name]):
            for c, code in enumerate(line):
                grid[row + r][col + c] = code
    img = np.full((SIZE[1], SIZE[0], 3), 90.0, np.float32)
    mid = np.array([sheet.shape[1], sheet.shape[0]]) / 2.0
    _paste(img, sheet, _similarity(cell_px, cell * ppm, theta, mid, np.array(SIZE, float) / 2))
    return cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 0.7), grid


def _read(folder, cards):
    image, grid = _picture(folder, cards)
    return HexapodReader(track=False).read(image).cases[0].grid, grid


def test_a_card_a_third_of_a_cell_off_is_read_at_its_tiles(exported):
    """Card I04 (Y B / R R / R G) laid over I09 a third of a cell up and left of its place (and
    once turned 3 degrees): cell (2, 3)'s centre lies 0.12 cell inside the right edge of its red
    tile, beside the blue tile of the card below; unturned, and (3, 2) turned, read '?' by the
    old reader. Both read right, every cell of the board right."""
    for turn, cell in ((0.0, (2, 3)), (3.0, (3, 2))):
        got, truth = _read(exported, [("I09", 0, 3, (0.0, 0.0), 0.0),
                                      ("I04", 1, 2, (-1 / 3, -1 / 3), turn)])
        assert got[cell[0]][cell[1]] == truth[cell[0]][cell[1]] == "R"
        assert [list(r) for r in got] == truth


def test_a_cell_centre_beyond_the_top_tile_stays_unknown(exported):
    """I04 laid half a cell left of its place over I09, and half a cell up: the centres of its
    cells lie on the gutters between its tiles or on its edge, beside the card below or the
    board. Which card is on top there is the question: the tile beside a centre is not read as
    the cell's, and no cell reads a wrong code."""
    for shift, cells in (((-0.5, 0.0), ((1, 2), (2, 3), (3, 2), (3, 3))),
                         ((0.0, -0.5), ((1, 2), (1, 3), (2, 3), (3, 2), (3, 3)))):
        got, truth = _read(exported, [("I09", 0, 3, (0.0, 0.0), 0.0),
                                      ("I04", 1, 2, shift, 0.0)])
        assert wrong_cells(got, truth) == []
        for r, c in cells:
            assert got[r][c] == UNKNOWN
