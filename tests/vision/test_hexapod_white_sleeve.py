"""A white or light grey sleeve over cards is as bright as the board's fill, so its cells read
empty unless the reader sees what the cloth hides: the fill's printed lines. Two pictures beat
that check on the old reader (held-out `hand` pictures with the arm's colour set to one grey,
as `tests/vision/hexapod_heldout.py` composes it):

* seed 1, a sleeve at 215 of 255 under an exposure that clips the paper in blue and red: the
  sleeve clips there as the fill does, and the cover test took every clipped cell for one whose
  lines no camera could show — but the lines are looked for in green, below the clip, where
  they showed on the fill beside it (`_unlined_dim_empty`'s `lit`);
* seeds 9 (215) and 22 (180), lines faint all over the picture: no empty cell showed its lines
  plainly enough (`COVER_SEEN`) to trust their absence as cloth, so nothing was doubted. The
  board's fill is printed a warm light grey (`GRID_FILL_RGB`); a neutral sleeve's colour lies
  off the lined fill's (`_off_fill`).

On the old reader 5 to 13 hidden cards per picture read as empty board."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

from . import hexapod_heldout as hh
from .hexapod_scenes import read_hard_case


def _scene(exported, monkeypatch, seed: int, level: int):
    monkeypatch.setattr(hh, "SKINS", ((level, level, level),) * len(hh.SKINS))
    monkeypatch.setattr(hh, "SLEEVES", ((level, level, level),) * len(hh.SLEEVES))
    return hh.heldout_case(exported, seed, hh.VARIANTS["hand"])


@pytest.mark.parametrize(("seed", "level"), [(1, 215), (9, 215), (22, 180)])
def test_cards_under_a_white_sleeve_are_not_read_empty(exported, monkeypatch, seed, level):
    scene = _scene(exported, monkeypatch, seed, level)
    board = scene.boards[0]
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert hh.wrong_cells(grid, board.grid) == []
    under = [(r, c) for r in range(6) for c in range(6)
             if board.hidden[r, c] and board.grid[r][c] != "."]
    assert sum(grid[r][c] == UNKNOWN for r, c in under) >= 4
    # the cards in plain view are still read
    seen = [(r, c) for r in range(6) for c in range(6) if not board.hidden[r, c]]
    assert sum(grid[r][c] == board.grid[r][c] for r, c in seen) >= len(seen) - 1


def _windows(colours: list[tuple[float, float, float]], n: int = 50
             ) -> tuple[list[np.ndarray], int]:
    """Ratio windows (B, G, R over the white), one row of `n` equal samples per colour."""
    rows = np.array(colours, np.float32)
    return [np.repeat(rows[:, k:k + 1], n, axis=1) for k in range(3)], n // 2


def test_off_fill_crafted():
    """The lined fill (warm: 0.84, 0.88, 0.89 of the white) against a neutral sleeve (0.86 in
    every channel, 0.047 off in blue), the fill's own colour a little darker (a shade) and a
    warm sleeve within `COVER_HUE` of it; with one lined cell only, nothing is judged."""
    from companion.vision.hexapod_cells import COVER_HUE, _off_fill

    fill = (0.84, 0.88, 0.89)
    ratio, h = _windows([fill, fill, fill, (0.86, 0.86, 0.86), (0.76, 0.79, 0.80),
                         (0.85, 0.88, 0.89)])
    cand = np.array([False, False, False, True, True, True])
    assert abs(0.85 / 0.89 - 0.84 / 0.89) < COVER_HUE
    assert _off_fill(ratio, h, cand, np.array([0, 1, 2])).tolist() == \
        [False, False, False, True, False, False]
    assert not _off_fill(ratio, h, cand, np.array([0])).any()


def test_grey_sleeves_variant_changes_only_the_arms_colour(exported):
    """`grey-sleeves` lays the same cards, pose and arm as `hand`; only the arm is one neutral
    grey of `GREYS` (shaded as a cylinder: its channels equal where it covers the picture)."""
    for seed in (1, 9):
        hand = hh.heldout_case(exported, seed, hh.VARIANTS["hand"])
        grey = hh.heldout_case(exported, seed, hh.VARIANTS["grey-sleeves"])
        assert grey.grid == hand.grid
        assert np.array_equal(grey.boards[0].hidden, hand.boards[0].hidden)
        assert np.allclose(grey.boards[0].mm_to_px, hand.boards[0].mm_to_px)
        moved = np.abs(grey.image.astype(int) - hand.image.astype(int)).max(axis=2) > 8
        assert moved.sum() > 500
        arm = grey.image[moved].astype(int)
        spread = arm.max(axis=1) - arm.min(axis=1)
        assert np.median(spread) <= 12


def test_a_pale_arm_over_a_blown_board_is_not_empty_board():
    """Rendered hard 466, player 1's case (two markers wholly in view, so the bench leaves it
    unscored): the white clips in all three channels and a pale, warm arm lies over the stag at
    (0, 5); its largest channel clips like the fill's, so the cover test took the cell for one
    whose lines no camera could show, and the old reader read it empty. Its least channel lies
    well below the clip (`LIT_LOW`), where a printed line would show."""
    got, case = read_hard_case(466, 1)
    assert case.grid[0][5] == "St" and got.grid[0][5] == UNKNOWN
    assert hh.wrong_cells(got.grid, case.grid) == []


def test_a_dark_grey_sleeve_just_above_black_is_not_empty_board(exported):
    """Held-out `grey-sleeves` 139: a dark grey sleeve (0.22 of the white, just above
    `DARK_SLEEVE`) over a stag's lower half and a blue beetle at (3, 4) and (3, 5); the sensor's
    noise there showed a "line" along one side of each, so the old reader read both as empty
    board. That dark, only lines along two opposite sides show the board (`DIM_NOISE`)."""
    scene = hh.heldout_case(exported, 139, hh.VARIANTS["grey-sleeves"])
    board = scene.boards[0]
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert (board.grid[3][4], board.grid[3][5]) == ("Sb", "B")
    assert grid[3][4] == grid[3][5] == UNKNOWN
    assert hh.wrong_cells(grid, board.grid) == []


@pytest.mark.xfail(strict=True, reason="open: a white sleeve as bright as the paper or brighter, "
                   "on a picture with no lined empty cell to compare it with, reads as empty board")
@pytest.mark.parametrize("seed", [87, 163])
def test_open_white_sleeves_as_bright_as_the_paper(exported, seed):
    """Held-out `grey-sleeves` 87 (a white sleeve clipped in every channel on a board whose
    white clips in every channel) and 163 (a sleeve at the paper's own white, the case's empty
    cells all under it or unlined): hidden cards read as empty board. Recorded so that the fix
    shows here."""
    scene = hh.heldout_case(exported, seed, hh.VARIANTS["grey-sleeves"])
    board = scene.boards[0]
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert hh.wrong_cells(grid, board.grid) == []
