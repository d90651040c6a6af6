"""A pale hand or a white sleeve over the cards is not board fill. The board's fill is printed
neutral and carries its printed grid lines; against the case's white it reads all but untinted,
so a cell read empty from a faintly tinted window needs its lines in view (a pale hand lit near
the clip keeps only a faint warmth of skin), and so does an unlined cell whose pixels clip in two
channels (their colour unmeasured) joined to such a cell (the same hand's lit middle). Beside an
arm's mask a cell's dimness is measured in the channels where the white is below the clip (a
white sleeve under a white clipped in two channels). All in `hexapod_cover.unlined_dim_empty`.
Pictures: the hard band's synthetic tables (`companion.scenarios.hexapod_scene`) and the
held-out compositions of the exported faces (`hexapod_heldout.py`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import flat_over_band, heldout_case, soft_band, wrong_cells


def _hard(seed: int, player: int):
    """(truth case, grid read) of `player`'s case in hard-band scene `seed`, as the bench
    renders and reads it."""
    params = replace(sample_params(seed, "hard", 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(seed, "hard", params=params)
    seen = {c.player: c for c in HexapodReader(track=True, keep_still=False).read(image).cases}
    case = next(c for c in truth.cases if c.player == player)
    return case, seen[player].grid


def _wrong(case, grid) -> list[tuple[int, int, str, str]]:
    """(row, col, truth, read) of every cell of `grid` read as another code than the truth's."""
    return [(r, c, case.grid[r][c], got) for r, row in enumerate(grid)
            for c, got in enumerate(row) if got not in (case.grid[r][c], UNKNOWN)]


def test_a_pale_hand_lit_to_the_clip_leaves_no_wrong_code():
    """Hard seed 509, player 2: a pale hand lit to the clip (the white clipped in red, the
    palm in red and green) over six cards that the old reader read as empty board: its shaded
    fingers (faintly warm, no lines) and its clipped palm joined to them read '?'. The board's
    over-exposed fill in full view, clipped in two channels too, still reads empty."""
    case, grid = _hard(509, 2)
    assert _wrong(case, grid) == []
    for r, c in ((3, 4), (4, 2), (4, 5), (4, 4), (5, 4), (5, 5)):
        assert grid[r][c] == UNKNOWN
    assert grid[3][0] == grid[4][0] == "."


def test_over_exposed_fill_with_no_tint_beside_it_still_reads_empty():
    """Hard seed 509, player 1: no hand; empty cells in full view whose fill clips in two
    channels and shows no printed line (cell (0, 1)) are not joined to a tinted cell: they
    still read empty."""
    case, grid = _hard(509, 1)
    assert case.grid[0][1] == grid[0][1] == "."
    assert _wrong(case, grid) == []


def test_a_white_sleeve_beside_an_arm_is_not_read_as_empty_board():
    """Hard seed 655, player 2: a white sleeve beside a skin arm, under a white clipped in
    green and red. In the max over all channels the sleeve looks as bright as lit fill (0.84
    of the clipped white); in blue, where the white is known, it is 0.65 of it, and no line
    shows: the moth under it (5, 1) reads '?', not empty."""
    case, grid = _hard(655, 2)
    assert _wrong(case, grid) == []
    assert case.grid[5][1] == "Ml" and grid[5][1] == UNKNOWN


# a pale surface warmer than the paper: blue at 0.87 of the paper's, green and red at its
# level (saturation 0.13 against the white, below the skin test's 0.15)
PALE_WARM = np.array([0.87, 1.0, 1.0])


def test_a_pale_warm_arm_over_cards_is_not_read_as_empty_board(exported):
    """Held-out seed 0: cards in rows 0-3 of columns 2-4. A flat arm as bright as the paper
    and faintly warm over columns 2-4 from row 1 down hides them: none reads a code it is not
    (the old reader read all eight as empty board), and they read '?'."""
    scene = heldout_case(exported, 0)
    grid = HexapodReader(track=False).read(flat_over_band(scene, PALE_WARM)).cases[0].grid
    assert wrong_cells(grid, scene.grid) == []
    assert grid[1][2] == grid[2][3] == grid[3][4] == UNKNOWN


def test_a_light_of_that_tint_over_the_board_still_reads_exact(exported):
    """The same band lit by a second light of that tint, soft-edged: the printed lines are
    tinted with the fill, not hidden, so the empty cells under it still read empty (tinted as
    much as the arm) and every card its code."""
    scene = heldout_case(exported, 0)
    mask = soft_band(scene)
    image = np.clip(scene.image * (1.0 - mask + mask * PALE_WARM), 0, 255)
    grid = HexapodReader(track=False).read(image.astype(np.uint8)).cases[0].grid
    assert grid == scene.grid
