"""A tile the lamp's glare washes pale keeps its kind's hue over its middle. Where the cell's
centre is undecided and the windows nudged past the tile's edge see board fill and agree on it,
a kind's hue over `FILL_HUE` of the centre's window keeps the cell '?' (`hexapod_cells.read_case`).
Held-out glare seed 8041, never tuned on, whose truth the composer gives: a stag's head washed
pale violet, its drawing plain to the eye, read as empty board before (a wrong code on a cell
in full view)."""

from __future__ import annotations

from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells


def test_a_stag_head_washed_pale_by_the_glare_is_not_read_empty(exported):
    """8041, player 1: (0, 3) holds a stag's head under the spot; it reads '?' or 'St', never
    '.', and no cell of the case reads a wrong code."""
    scene = heldout_case(exported, 8041, VARIANTS["glare"])
    assert scene.grid[0][3] == "St"
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert grid[0][3] in ("St", UNKNOWN)
    assert wrong_cells(grid, scene.grid) == []

