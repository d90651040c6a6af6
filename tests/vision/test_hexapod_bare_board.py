"""An undecided cell whose board print shows is empty (`hexapod_lines.bare_board`). A card is two
cells or more across either way and lies at most a third of a cell off the grid, so a card over
a cell's middle hides one side of each opposite pair of its printed grid lines: lines along two
opposite sides, with lit board fill either side of each, mean that no card lies on the cell,
whatever colour its fill reads (a white clipped in a channel leaves the fill's colour unmeasured
there and it reads tinted, like skin) and whatever lies over it. A card's dark border or a
sleeve's edge lying along a line has the card or the sleeve on one side of it only: that is no
line on fill, and the cell stays undecided."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

PX, MARGIN, N = 24, 12, 6
SIDE = 2 * MARGIN + N * PX


def _board() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grey, saturation, normalised brightness) of a bare board: neutral fill at 0.9 of the
    white, its printed grid lines (two pixels wide, straddling each line) a fifth darker."""
    grey = np.full((SIDE, SIDE), 0.9 * 3 * 255, np.float32)
    for k in range(N + 1):
        at = MARGIN + k * PX
        grey[at - 1:at + 1, :] *= 0.8
        grey[:, at - 1:at + 1] *= 0.8
    return grey, np.zeros_like(grey), np.full_like(grey, 0.9)


def _bare(grey, sat, v, cells) -> list[bool]:
    from companion.vision.hexapod_lines import bare_board

    return bare_board(grey, sat, v, PX, MARGIN, N, N, np.asarray(cells)).tolist()


def test_lines_on_fill_along_two_opposite_sides_mean_no_card():
    """The bare board: every cell is bare, and still so where a hand's finger covers a cell's
    left side (the top and bottom lines still show on fill)."""
    grey, sat, v = _board()
    assert all(_bare(grey, sat, v, range(N * N)))
    x0 = MARGIN + 2 * PX
    grey[:, x0 - 6:x0 + 6] = 0.7 * 3 * 255            # a finger along column 2's left side
    sat[:, x0 - 6:x0 + 6] = 0.3
    assert _bare(grey, sat, v, [2 * N + 2]) == [True]


def test_a_card_or_a_sleeve_over_the_cell_keeps_it_undecided():
    """A card a third of a cell off the grid over cell (2, 2) (paper, its dark border band, an
    inked tile) hides one line of each pair; a sleeve exactly a cell wide lying along column 2,
    its shaded rims over the two lines, shows 'lines' with the sleeve on one side only. Neither
    is bare board."""
    grey, sat, v = _board()
    y0, x0 = MARGIN + 2 * PX - PX // 3, MARGIN + 2 * PX - PX // 3   # the card's corner
    card = np.s_[y0:y0 + 3 * PX, x0:x0 + 2 * PX]
    grey[card], sat[card], v[card] = 0.95 * 3 * 255, 0.0, 0.95   # its paper
    inner = np.s_[y0 + 3:y0 + 3 * PX - 3, x0 + 3:x0 + 2 * PX - 3]
    for arr, edge in ((grey, 0.2 * 3 * 255), (v, 0.2)):         # the dark border band
        keep = arr[inner].copy()
        arr[card] = edge
        arr[inner] = keep
    for r in range(3):                                           # its tiles, in ink
        for c in range(2):
            ty, tx = y0 + r * PX, x0 + c * PX
            tile = np.s_[ty + 4:ty + PX - 4, tx + 4:tx + PX - 4]
            grey[tile], sat[tile], v[tile] = 0.5 * 3 * 255, 0.8, 0.7
    assert _bare(grey, sat, v, [2 * N + 2, 2 * N + 3, 3 * N + 2, 4 * N + 3]) == [False] * 4
    grey, sat, v = _board()
    x0 = MARGIN + 2 * PX
    grey[:, x0:x0 + PX] = 0.6 * 3 * 255                           # a grey sleeve, in shade
    v[:, x0:x0 + PX] = 0.6
    grey[:, [x0 - 1, x0, x0 + PX - 1, x0 + PX]] = 0.45 * 3 * 255  # its rims along the lines
    assert _bare(grey, sat, v, [k * N + 2 for k in range(N)]) == [False] * N


def test_a_board_whose_fill_reads_tinted_is_read_empty_where_its_lines_show():
    """Hard-band scene 29, player 1: a warm light clips the white's red, so the board fill
    reads tinted (as skin), and the occluder mask covers the board. The old reader left the
    empty cells '?'; where the printed lines show on fill along two opposite sides they read
    '.', and no cell of either case reads a wrong code."""
    params = replace(sample_params(29, "hard", 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(29, "hard", params=params)
    cv2.setNumThreads(1)
    seen = {c.player: c.grid for c in HexapodReader(track=False).read(image).cases}
    for case in truth.cases:
        got = seen[case.player]
        for r, row in enumerate(case.grid):
            for c, code in enumerate(row):
                assert got[r][c] in (code, UNKNOWN)
    got = seen[1]
    for r, c in ((2, 5), (3, 5), (4, 5), (5, 5)):
        assert got[r][c] == "."
