"""An empty cell that a neighbouring dung beetle's card reaches into (`hexapod_cells.
nudges_allow_empty`). The band about the cell's centre is light fill, but the window nudged
towards the neighbour sees its black tile with the grey beetle and reads 'K', which used to keep
the cell '?'. A card lies at most a third of a cell off the grid, so its black tile reaches into
a neighbour from one side only, and the window nudged the other way reads light fill; a centre
band lying on a dung beetle's own grey beetle has the black tile all round it, so no nudged
window reads fill there. (Crafted here: that guard; the rendered cell is hard seed 90's.)"""

from __future__ import annotations

import numpy as np

from companion.synth.hexapod_board import GRID_FILL_RGB
from companion.vision.hexapod_cells import nudges_allow_empty, read_case
from companion.vision.hexapod_markers import LAYOUT, CasePose
from companion.vision.hexapod_windows import CODES, EMPTY_CODE, K_CODE, UNKNOWN_CODE
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import read_hard_case

SCALE = 4.0                      # px per mm of the crafted frame
SHIFT = np.array([60.0, 60.0])   # image px of the grid's top-left corner
LIGHT = np.array([225.0, 230.0, 235.0])   # white paper's reading (clipped nowhere)
FILL = np.array(GRID_FILL_RGB[::-1], np.float64) / 255.0
PAPER = np.array([238.0, 245.0, 247.0]) / 255.0
BLACK, BEETLE = 0.1, 0.55        # the dung beetle's black tile and grey beetle (share of white)
CELL = LAYOUT.cell_mm * SCALE


def _pose() -> CasePose:
    h = np.array([[SCALE, 0.0, SHIFT[0]], [0.0, SCALE, SHIFT[1]], [0.0, 0.0, 1.0]])
    return CasePose(1, h, (10, 11, 12, 13), 0.5, LAYOUT.marker_mm * SCALE)


def _board() -> np.ndarray:
    """An empty board lit like the white: fill with its printed grid lines."""
    side = int(2 * SHIFT[0] + 6 * CELL)
    frame = np.zeros((side, side, 3), np.float64)
    frame[:] = LIGHT
    g = slice(int(SHIFT[1]), int(SHIFT[1] + 6 * CELL))
    frame[g, g] = LIGHT * FILL
    for k in range(7):
        at = int(SHIFT[0] + k * CELL)
        frame[at - 1:at + 1, g] *= 0.8
        frame[g, at - 1:at + 1] *= 0.8
    return frame


def _dung_tile(frame: np.ndarray, row: float, col: float) -> None:
    """A dung beetle's tile centred on cell (`row`, `col`) (fractions: off the grid), with the
    card's paper about it: a black tile 0.9 cell across, its grey beetle 0.35 across in it."""
    cy, cx = SHIFT[1] + (row + 0.5) * CELL, SHIFT[0] + (col + 0.5) * CELL

    def box(half: float) -> tuple[slice, slice]:
        return (slice(int(cy - half * CELL), int(cy + half * CELL)),
                slice(int(cx - half * CELL), int(cx + half * CELL)))

    frame[box(0.5)] = LIGHT * PAPER
    frame[box(0.45)] = LIGHT * BLACK
    frame[box(0.175)] = LIGHT * BEETLE


def _read(frame: np.ndarray) -> list[list[str]]:
    image = np.clip(np.round(frame), 0, 255).astype(np.uint8)
    return [list(row) for row in read_case(image, _pose()).grid]


def test_a_centre_on_the_grey_beetle_is_never_read_empty():
    """Guard: dung beetles a little off their cells, every way, their grey beetle as light as
    the fill: no cell of theirs reads empty."""
    for dy, dx in ((0.0, 0.0), (0.1, -0.1), (-0.1, 0.05), (0.0, 0.15)):
        frame = _board()
        frame[_cells_of(2, 2)] = LIGHT * PAPER
        _dung_tile(frame, 2.0 + dy, 2.0 + dx)
        frame[_beetle(2.0 + dy, 2.0 + dx)] = LIGHT * FILL        # as light as the fill
        assert _read(frame)[2][2] in ("K", UNKNOWN), (dy, dx)


def _cells_of(row: int, col: int) -> tuple[slice, slice]:
    y, x = SHIFT[1] + row * CELL, SHIFT[0] + col * CELL
    return slice(int(y), int(y + CELL)), slice(int(x), int(x + CELL))


def _beetle(row: float, col: float) -> tuple[slice, slice]:
    cy, cx = SHIFT[1] + (row + 0.5) * CELL, SHIFT[0] + (col + 0.5) * CELL
    half = 0.175 * CELL
    return slice(int(cy - half), int(cy + half)), slice(int(cx - half), int(cx + half))


def test_a_card_seen_by_a_nudge_needs_fill_across_from_it():
    """The nudged readings (+x, -x, +y, -y) that let the light centre band stand: a card seen
    on one side with fill across from it; not a card with nothing read across from it, nor
    cards on opposite sides."""
    e, k, u = EMPTY_CODE, K_CODE, UNKNOWN_CODE
    tries = np.array([[k, k, k, u, e],
                      [e, u, k, u, e],
                      [u, u, u, k, e],
                      [e, e, u, e, u]])
    assert nudges_allow_empty(tries).tolist() == [True, False, False, True, True]
    assert CODES[k] == "K"


def test_hard_fill_beside_a_dung_beetle_reads_empty():
    """Hard seed 90, player 2: the empty cell (3, 2) beside a dung beetle lying a third of a
    cell towards it."""
    read, truth = read_hard_case(90, 2)
    assert truth.grid[3][2] == "." and truth.visible[3][2] >= 1.0
    assert read.grid[3][2] == "."
