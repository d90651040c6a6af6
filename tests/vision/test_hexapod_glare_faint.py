"""A tile lifted by the lamp's glare keeps its hue faintly about the spot (`hexapod_cover.
_faint_ring`, in `blown_unlined_empty`). Never-seen hard 2827, player 1, (0, 0): a stag's
violet tile with a round glare spot clipping its middle, under a white clipped in all three
channels, the fill below the clip; its pale violet about the spot was under a kind's saturation,
its middle all clipped, its tile's edge beside the card's border read as a printed line, and it
read '.'. Held-out glare 340, (3, 4): a red beetle the same way. Both now '?'; crafted rings:
faint all round is doubted, a faint or saturated neighbour on one side, saturated neighbours on
two, and a neutral ring are not."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_cover import _faint_ring
from companion.vision.hexapod_windows import DEFAULT
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells
from .hexapod_scenes import PX, M, read_hard_case

N = 6 * PX + 2 * M


def test_a_stag_tile_under_a_glare_spot_is_not_read_empty():
    """Hard 2827, player 1: (0, 0) is a stag's top half, read '.' before; now '?' by
    `blown_unlined_empty`, and no fully visible cell of the case reads a wrong code."""
    read, case = read_hard_case(2827, 1)
    assert case.grid[0][0] == "St" and case.visible[0][0] >= 1.0
    assert read.grid[0][0] == UNKNOWN and read.why[0][0] == "blown_unlined"
    assert [(i, j) for i, row in enumerate(case.grid) for j, want in enumerate(row)
            if case.visible[i][j] >= 1.0 and read.grid[i][j] not in (want, UNKNOWN)] == []


def test_a_red_beetle_under_a_glare_spot_is_not_read_empty(exported):
    """Held-out glare 340: (3, 4) holds a red beetle under the spot (read '.' before): '?' or
    'R' now, and no cell reads a wrong code."""
    scene = heldout_case(exported, 340, VARIANTS["glare"])
    assert scene.grid[3][4] == "R"
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert grid[3][4] in ("R", UNKNOWN)
    assert wrong_cells(grid, scene.grid) == []


def _ring(sides: dict[str, float]) -> bool:
    """`_faint_ring` for cell (2, 2) of a crafted canvas: a spot clipped in all three channels
    over its middle (0.5 cell across), neutral fill elsewhere, and the band between 0.25 and
    0.45 cell from its centre on each side named in `sides` at that saturation."""
    blown = np.zeros((N, N), np.uint8)
    sat = np.full((N, N), 0.03, np.float32)
    cy = cx = M + 2 * PX + PX // 2
    q = PX // 4
    blown[cy - q:cy + q + 1, cx - q:cx + q + 1] = 1
    sat[cy - q:cy + q + 1, cx - q:cx + q + 1] = 0.0
    lo, hi = round(0.25 * PX), round(0.45 * PX)
    band = {"top": (slice(cy - hi, cy - lo), slice(cx - q, cx + q + 1)),
            "bottom": (slice(cy + lo, cy + hi), slice(cx - q, cx + q + 1)),
            "left": (slice(cy - q, cy + q + 1), slice(cx - hi, cx - lo)),
            "right": (slice(cy - q, cy + q + 1), slice(cx + lo, cx + hi))}
    for side, s in sides.items():
        sat[band[side]] = s
    return bool(_faint_ring(np.array([14]), blown, sat, PX, M, 6, 6, DEFAULT)[0])


def test_a_faint_hue_all_round_a_spot_is_a_lifted_tile():
    """Faintly tinted (between the fill's `fill_tint` and a kind's `min_sat`) on every side, or
    on two: a tile the glare lifts."""
    assert _ring({"top": 0.15, "bottom": 0.15, "left": 0.15, "right": 0.15})
    assert _ring({"top": 0.12, "left": 0.18})


@pytest.mark.parametrize("sides", [
    {},                                          # fill: neutral all round
    {"top": 0.15},                               # a neighbour's pale edge on one side
    {"top": 0.6, "left": 0.6},                   # two neighbours' tiles the glare spares
    {"top": 0.6, "bottom": 0.6, "right": 0.15},  # ... and a faint edge on one side
])
def test_neighbours_beside_fill_under_a_spot_are_no_lifted_tile(sides):
    """No faint hue on two sides: fill under the spot, whatever lies beside it."""
    assert DEFAULT.fill_tint <= 0.12 and DEFAULT.colour.min_sat > 0.18
    assert not _ring(sides)
