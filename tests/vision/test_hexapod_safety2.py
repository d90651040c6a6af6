"""Hexapod cells read as a wrong code on hard seeds 400-599 (never tuned on), second round: a
stag beetle's head named as its wing cases because ink beside a bright patch was labelled pale
and counted as wing-case highlights, and a stag's wing cases under a glare disc read as an
empty cell. Crafted label maps are built here pixel by pixel (the
truth is what was drawn); rendered scenes carry their own truth (the layout the renderer
drew)."""

from __future__ import annotations

import numpy as np

from companion.vision import hexapod_colour as hcol
from companion.vision import hexapod_cover as hcover
from companion.vision import hexapod_halves as hhalves
from companion.vision import hexapod_windows as hwin

from .test_hexapod_safety import _errors

PX, M = 24, 12                      # the reader's canvas: px per cell, margin
STAG = hcol.KINDS.index("S")


def _stag_cell(ink_rows: int, pale_rows: int, pale_sat: float) -> tuple[np.ndarray, np.ndarray]:
    """(labels, saturation) of a 6 x 6 canvas whose cell (2, 3) is a stag tile: its top
    `ink_rows` rows violet ink (saturation 0.6), the next `pale_rows` rows labelled pale stag
    at `pale_sat`, the rest the insect's dark body; everything else light board fill."""
    size = 6 * PX + 2 * M
    labels = np.full((size, size), hcol.LIGHT, np.uint8)
    sat = np.zeros((size, size), np.float32)
    y, x = M + 2 * PX, M + 3 * PX
    labels[y:y + PX, x:x + PX] = hcol.BODY + STAG
    sat[y:y + PX, x:x + PX] = 0.65
    labels[y:y + ink_rows, x:x + PX] = hcol.INK + STAG
    sat[y:y + ink_rows, x:x + PX] = 0.6
    pale = slice(y + ink_rows, y + ink_rows + pale_rows)
    labels[pale, x:x + PX] = hcol.PALE + STAG
    sat[pale, x:x + PX] = pale_sat
    return labels, sat


def _stag_score(labels: np.ndarray, sat: np.ndarray) -> float:
    stag, _ = hhalves.half_evidence(labels, PX, M, 6, 6, sat, hwin.DEFAULT.colour.ink_sat)
    return float(stag[2, 3])


def test_ink_saturated_pale_pixels_are_not_wing_case_highlights():
    """A head cell, half of it ink and a third labelled pale only because a brighter patch lies
    near (as saturated as the ink, 0.6): it must still look like a head (score > 0). Counted as
    highlights, the pale third outweighed the ink and the head was named 'Sb'."""
    labels, sat = _stag_cell(ink_rows=13, pale_rows=8, pale_sat=0.6)
    assert _stag_score(labels, sat) > 0.0


def test_thinned_highlights_still_count_against_a_head():
    """The same cell with its pale third as thinned as a printed highlight (saturation 0.3, ink
    mixed with white) still scores as wing cases (< 0): only ink-saturated pale stops counting."""
    labels, sat = _stag_cell(ink_rows=13, pale_rows=8, pale_sat=0.3)
    assert _stag_score(labels, sat) < 0.0


def test_a_stag_head_beside_a_bright_patch_is_not_named_wing_cases():
    """Hard seed 523, player 1: a stag lies a third of a cell low at the case's right edge,
    its partner cell '?' and the cell above '?', so its own drawing names the half. The violet
    tile is lit unevenly; ink darker than the bright patch beside it was labelled pale, counted
    as wing-case highlights, and the head (1, 5) read 'Sb'. No code is wrong now."""
    assert _errors(523, 1)[0] == []


def test_a_blown_patch_under_an_unclipped_white_makes_an_empty_cell_unknown():
    """A disc clipped in all three channels over a third of cell (2, 3)'s window, and a
    trace of clipped pixels in cell (4, 1) (under a tenth): with the white unclipped only
    specular glare clips, and it hides the print, so (2, 3) read empty becomes '?'; the trace
    does not, and a cell read as a card keeps its code (glare makes a card look empty, not
    another card)."""
    size = 6 * PX + 2 * M
    blown = np.zeros((size, size), np.uint8)
    yy, xx = np.mgrid[:size, :size]
    for (r, c), radius in (((2, 3), 0.3 * PX), ((4, 1), 0.12 * PX), ((0, 5), 0.3 * PX)):
        cy, cx = M + (r + 0.5) * PX, M + (c + 0.5) * PX
        blown[(yy - cy) ** 2 + (xx - cx) ** 2 <= radius ** 2] = 1
    grid = [["."] * 6 for _ in range(6)]
    grid[0][5] = "G"
    hcover.glare_unknown(grid, blown, PX, M, round(0.8 * PX), hwin.DEFAULT.max_glare)
    expected = [["."] * 6 for _ in range(6)]
    expected[2][3] = "?"
    expected[0][5] = "G"
    assert grid == expected


def test_a_stag_washed_out_by_a_glare_disc_is_not_read_empty():
    """Hard seed 459, player 2: a glare disc under a white that did not clip washes a violet
    stag's wing cases (1, 5) out to a pale, flat patch that read as empty board fill ('.').
    A quarter of its window is clipped in all three channels: glare, so the cell is '?'."""
    assert _errors(459, 2)[0] == []
