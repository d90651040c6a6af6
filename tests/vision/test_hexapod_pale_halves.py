"""A stag beetle's half named from its own drawing (`hexapod_halves.half_evidence`) only where
the drawing can tell: the head shows the stag's ink, the wing cases thin pale highlights amid
it. A paler print than ours (an office printer's pale inks) leaves the ink itself labelled pale,
so a head whose partner is hidden looked like wing cases and read 'Sb' (held-out 'printed' seeds
32, 36, 48, 55: seven heads); where the pale pixels outnumber the ink the drawing now tells
nothing and the run stays '?'."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_colour import INK, LIGHT, PALE
from companion.vision.hexapod_halves import half_evidence, name_halves
from companion.vision.hexapod_windows import STAG
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells

PX, MARGIN = 24, 12


def _cell(labels: np.ndarray, r: int, c: int, ink: float, pale: float) -> None:
    """Fill cell (r, c) of `labels` from its top: `ink` of its rows stag ink, then `pale` of
    them pale stag, the rest paper."""
    y0, x0 = MARGIN + r * PX, MARGIN + c * PX
    n_ink, n_pale = round(ink * PX), round(pale * PX)
    labels[y0:y0 + n_ink, x0:x0 + PX] = INK + STAG
    labels[y0 + n_ink:y0 + n_ink + n_pale, x0:x0 + PX] = PALE + STAG


def test_a_cell_whose_pale_outnumbers_its_ink_gives_no_evidence():
    labels = np.full((2 * MARGIN + 6 * PX,) * 2, LIGHT, np.uint8)
    _cell(labels, 0, 0, ink=0.6, pale=0.05)     # a head: ink, next to no highlight
    _cell(labels, 1, 0, ink=0.4, pale=0.25)     # wing cases: highlights amid the ink
    _cell(labels, 2, 0, ink=0.05, pale=0.6)     # pale print: its ink passes for highlight
    stag, _ = half_evidence(labels, PX, MARGIN, 6, 6)
    assert stag[0, 0] > 0.0 and stag[1, 0] < 0.0
    assert stag[2, 0] == 0.0
    # a lone stag cell between two '?' with no evidence is not named
    grid = [["?"] * 6 for _ in range(6)]
    grid[2][0], grid[1][0], grid[3][0] = "S", UNKNOWN, UNKNOWN
    name_halves(grid, stag, np.zeros((6, 6)))
    assert grid[2][0] == UNKNOWN


def test_stag_heads_of_a_pale_office_print_are_not_read_as_wing_cases(exported):
    """Held-out 'printed' seed 32: two stag heads, (3, 0) and (3, 3), each with '?' above and
    below, read 'Sb' before; now no cell of the case reads a wrong code."""
    scene = heldout_case(exported, 32, VARIANTS["printed"])
    assert scene.grid[3][0] == "St" and scene.grid[3][3] == "St"
    seen = {c.player: c.grid for c in HexapodReader(track=False).read(scene.image).cases}
    got = seen[scene.player]
    assert wrong_cells(got, scene.grid) == []
    # the rest of the case is still read
    assert sum(code != UNKNOWN for row in got for code in row) >= 20
