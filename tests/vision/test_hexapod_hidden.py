"""Hexapod cells under a hand read as empty board fill on hard seeds 500-599 (never tuned on):
a specular glare disc on an arm's tip. A hidden cell must read '?', never '.' (the referee
would see a card removed). Crafted frames are built here pixel by pixel (the
truth is what was painted); rendered scenes carry their own truth (the layout the renderer
drew)."""

from __future__ import annotations

import numpy as np

from companion.synth.hexapod_board import GRID_FILL_RGB
from companion.vision.hexapod_cells import read_case
from companion.vision.hexapod_markers import LAYOUT, CasePose

from .test_hexapod_safety import _errors

SCALE = 2.0                     # px per mm of the crafted frame
SHIFT = np.array([40.0, 120.0])  # image px of the grid's top-left corner
# warm light (BGR reading of white paper before the sensor clips): red far over the clip
LIGHT = np.array([172.0, 241.0, 270.0])
FILL = np.array(GRID_FILL_RGB[::-1], np.float64) / 255.0


def _pose() -> CasePose:
    h = np.array([[SCALE, 0.0, SHIFT[0]], [0.0, SCALE, SHIFT[1]], [0.0, 0.0, 1.0]])
    return CasePose(1, h, (10, 11, 12, 13), 0.5, LAYOUT.marker_mm * SCALE)


def _cells(r0: float, c0: float, r1: float, c1: float) -> tuple[slice, slice]:
    """Image rows and columns of the grid span from cell (r0, c0) to (r1, c1) (cell units)."""
    s = LAYOUT.cell_mm * SCALE
    return (slice(int(SHIFT[1] + r0 * s), int(SHIFT[1] + r1 * s)),
            slice(int(SHIFT[0] + c0 * s), int(SHIFT[0] + c1 * s)))


def _frame() -> np.ndarray:
    """An empty board under warm light: the sheet's white clips in red alone (172, 241, 255),
    the board fill (printed darker) clips nowhere (144, 212, 241)."""
    frame = np.zeros((600, 450, 3), np.float64)
    frame[:] = LIGHT
    frame[_cells(0, 0, 6, 6)] = LIGHT * FILL
    return frame


def _read(frame: np.ndarray) -> list[list[str]]:
    image = np.clip(np.round(frame), 0, 255).astype(np.uint8)
    return [list(row) for row in read_case(image, _pose()).grid]


def test_plain_fill_under_a_white_clipped_in_red_reads_empty():
    """The empty board itself, lit like the quiet zones, reads empty in every cell."""
    assert _read(_frame()) == [["."] * 6 for _ in range(6)]


def test_a_glare_disc_on_an_arm_tip_is_the_arm():
    """Hard seed 513, player 2: under a white clipped in all three channels, a specular disc
    on the tip of an arm crossing the case clips in all three channels too, and the two cards
    under it ((2, 5) a dung beetle, (3, 5) a moth's half) read as empty fill. The arm runs
    along the disc's outline and its skin beside the disc is lit near the clip: the disc is
    the arm, and those cells are '?'."""
    assert _errors(513, 2) == ([], [])


def _arm_and_disc(edge_v: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hand, blown, raw_v) of a 168 px canvas (24 px cells): an arm (a band two cells wide)
    from the left edge to x = 110, a disc clipped in all three channels at its end, and the
    arm's skin read at `edge_v` in its brightest channel, its middle third at the clip (255);
    beyond the arm 200."""
    size = 168
    hand = np.zeros((size, size), np.uint8)
    hand[56:104, :110] = 1
    yy, xx = np.mgrid[:size, :size]
    blown = (((yy - 80) ** 2 + (xx - 122) ** 2) <= 23 ** 2).astype(np.uint8)
    blown[hand > 0] = 0
    raw_v = np.full((size, size), 200.0, np.float32)
    raw_v[hand > 0] = edge_v
    raw_v[72:88, :110] = 255.0
    raw_v[blown > 0] = 255.0
    return hand, blown, raw_v


def test_glare_fading_into_lit_skin_is_the_hand():
    """A clipped disc at an arm's end, the skin all along its edge lit at the clip (a specular
    highlight fades into lit skin): the disc is covered as the hand."""
    from companion.vision import hexapod_colour as hcol
    hand, blown, raw_v = _arm_and_disc(255.0)
    glare = hcol._glare_on_hand(hand, blown, 24, raw_v)
    assert np.array_equal(glare > 0, blown > 0)


def test_clipped_paper_beside_a_shaded_arm_edge_is_not_the_hand():
    """The same clipped disc where the arm's edges beside it are shaded (200, their middle
    third lit at the clip): paper lit beside an arm, whose edge turns away from the lamp, so
    it is not covered (it would cost visible cells)."""
    from companion.vision import hexapod_colour as hcol
    hand, blown, raw_v = _arm_and_disc(200.0)
    assert not hcol._glare_on_hand(hand, blown, 24, raw_v).any()


def test_clipped_fill_beside_a_lit_arm_stays_readable():
    """Hard seed 661, player 2, framed to fill the picture (as `bench vision`): under a white
    clipped in all three channels the board fill below an arm clips in all three too and
    touches the arm along its edge, whose skin is shaded in places. It is not glare on the arm:
    the visible empty cells there, (4, 3), (5, 2) and (5, 3), must not be lost, and no
    visible cell may read a wrong code."""
    from dataclasses import replace

    from companion.scenarios import hexapod_scene
    from companion.synth.scene import sample_params
    from companion.vision.hexapod import HexapodReader
    params = replace(sample_params(661, "hard", 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(661, "hard", params=params)
    got = next(c for c in HexapodReader(track=False).read(image).cases if c.player == 2)
    case = next(c for c in truth.cases if c.player == 2)
    cells = ((4, 3), (5, 2), (5, 3))
    assert all(case.visible[r][c] >= 1.0 for r, c in cells)
    assert [got.grid[r][c] for r, c in cells] == [case.grid[r][c] for r, c in cells]
    assert all(got.grid[r][c] in (case.grid[r][c], "?") for r in range(6) for c in range(6)
               if case.visible[r][c] >= 1.0)
