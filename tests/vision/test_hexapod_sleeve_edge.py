"""A sleeve's edge along a cell's side is no evidence of board fill in its middle. A cell read
empty whose middle is dimmer or more tinted than lit fill is kept only with a printed grid line
in view; one line shows that the strip along that side is fill, not that the middle is: a pale
sleeve lying along a line is lit within `line_balance` of the fill beyond it (held-out `hand`
seed 189), a card's cut border between its tile and the sleeve dips as a line does (seed 180),
and a sleeve's end may cover the middle and stop short of a side (seed 225). Such a cell (its
lines along one side or two adjacent ones, never two opposite ones) that joins a doubted cell
showing no line at all across a side with no trace of its line (cloth hides a printed line; a
shadow only dims it), their middles lit alike, is the same cloth: '?'
(`hexapod_cover._sleeve_run`). The old reader read those four hidden cells as empty board."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_cover import _sleeve_run
from companion.vision.hexapod_lines import opposite
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, flat_over_band, heldout_case, soft_band, wrong_cells


def _read(image: np.ndarray):
    return HexapodReader(track=False).read(image).cases[0].grid


@pytest.mark.parametrize(("seed", "cells"), [(180, [(3, 2, "B"), (4, 2, "R")]),
                                             (189, [(1, 4, "Sb")]),
                                             (225, [(5, 2, "R")])])
def test_cards_along_a_sleeve_edge_are_not_read_empty(exported, seed, cells):
    """Held-out `hand` pictures: a pale grey sleeve (180, 189) and a dark grey one's end (225)
    over cards, each read empty on the old reader through one "line" on one side: the cells are
    '?' now, no cell reads a code it is not, and no cell in full view is left '?'."""
    scene = heldout_case(exported, seed, VARIANTS["hand"])
    board = scene.boards[0]
    grid = _read(scene.image)
    for r, c, code in cells:
        assert board.grid[r][c] == code and board.hidden[r, c]
        assert grid[r][c] == UNKNOWN
    assert wrong_cells(grid, board.grid) == []
    visible = [(r, c) for r in range(6) for c in range(6) if not board.hidden[r, c]]
    assert sum(grid[r][c] == UNKNOWN for r, c in visible) == 0


@pytest.mark.parametrize("seed", [0, 2])
@pytest.mark.parametrize("share", [0.55, 0.65, 0.75, (0.75, 0.7, 0.65)])
def test_a_pale_band_along_the_lines_hides_its_cards(exported, seed, share):
    """`flat_over_band`'s band (columns 2-4 from row 1: its edges run along printed lines) as
    pale cloth, neutral or bluish, from 0.55 to 0.75 of the paper: no cell reads a code it is
    not (the old reader read one or two cards under each as empty board, through the line
    along the band's edge or a card's border beside it)."""
    scene = heldout_case(exported, seed)
    grid = _read(flat_over_band(scene, np.asarray(share, np.float32)))
    assert wrong_cells(grid, scene.grid) == []


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("depth", [0.35, 0.5])
def test_shadowed_fill_beside_the_band_still_reads_empty(exported, seed, depth):
    """The guard: the same band as a soft shadow (the light down by a third or a half) dims the
    fill and its printed lines together, so its empty cells and cards all read their codes."""
    scene = heldout_case(exported, seed)
    image = np.clip(scene.image * (1.0 - depth * soft_band(scene)), 0, 255).astype(np.uint8)
    assert _read(image) == scene.grid


def test_empty_cells_beside_a_pale_sleeve_still_read_empty(exported):
    """The guard in the held-out picture 189: the empty cells of column 5 beside the pale
    sleeve (its edge runs along their line in row 1; the arm's shadow and soft rim touch them)
    read empty, and the empty cells and stag of column 0 read their codes."""
    scene = heldout_case(exported, 189, VARIANTS["hand"])
    board = scene.boards[0]
    grid = _read(scene.image)
    assert [grid[r][5] for r in range(6)] == [board.grid[r][5] for r in range(6)] == ["."] * 6
    assert [grid[r][0] for r in range(6)] == [board.grid[r][0] for r in range(6)]


def test_sleeve_run_crafted():
    """Row 2, columns 0-3 of a 6 x 6 grid: cell 0 shows no line (cloth over it); cell 1 its
    line along its top only; cell 2 along its right only (towards cell 3, lit fill). Cell 1
    joins cell 0 across its bare left side and cell 2 joins on through cell 1; not across a
    side that shows a trace of its line (a shadow dims a printed line, cloth hides it), not two
    cells lit unalike, and never a cell with lines along two opposite sides."""
    from companion.vision.hexapod_cover import CLOTH_TRACE

    cells = np.arange(12, 16)
    unlined = np.array([True, False, False, False])
    weak = np.array([False, True, True, False])
    shares = np.zeros((4, 4))
    shares[1, 0] = 0.9                                  # cell 1: top
    shares[2, 3] = 0.9                                  # cell 2: right (to cell 3)
    mid = np.array([0.7, 0.72, 0.68, 0.9])
    got = _sleeve_run(cells, unlined, weak, shares, mid, 6, 6, 0.8)
    assert got.tolist() == [False, True, True, False]
    # a noise dip or two along cell 1's left side: still cloth
    shares[1, 2] = CLOTH_TRACE / 2
    assert _sleeve_run(cells, unlined, weak, shares, mid, 6, 6, 0.8).tolist() == \
        [False, True, True, False]
    # the line dimmed but traced along cell 1's left side: fill between the two middles
    shares[1, 2] = 0.3
    got = _sleeve_run(cells, unlined, weak, shares, mid, 6, 6, 0.8)
    assert got.tolist() == [False] * 4
    shares[1, 2] = 0.0
    # cell 1 lit far brighter than the cloth beside it: not the same surface
    got = _sleeve_run(cells, unlined, weak, shares, np.array([0.5, 0.9, 0.88, 0.9]), 6, 6, 0.8)
    assert got.tolist() == [False] * 4
    # lines along two opposite sides: no sleeve lies over the middle (the caller's `weak`)
    both = np.zeros((1, 4), bool)
    both[0, 2:] = True
    assert opposite(both).tolist() == [True]
    assert opposite(shares[1:2] >= 0.5).tolist() == [False]
