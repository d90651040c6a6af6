"""A white or light grey sleeve over cards is as bright as the board's fill, so its cells read
empty unless the reader sees what the cloth hides: the fill's printed lines. Two pictures beat
that check on the old reader (held-out `hand` pictures with the arm's colour set to one grey,
as `tests/vision/hexapod_heldout.py` composes it):

* seed 1, a sleeve at 215 of 255 under an exposure that clips the paper in blue and red: the
  sleeve clips there as the fill does, and the cover test took every clipped cell for one whose
  lines no camera could show — but the lines are looked for in green, below the clip, where
  they showed on the fill beside it (`unlined_dim_empty`'s `lit`);
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
    from companion.vision.hexapod_cover import COVER_HUE, _off_fill

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


@pytest.mark.parametrize("seed", [87, 104, 116, 163])
def test_white_sleeves_over_the_frame(exported, seed):
    """Held-out `grey-sleeves` 87 (a white sleeve clipped in every channel on a board whose
    white clips in every channel), 104 (a mid-grey sleeve whose edge along a card showed a
    "line"), 116 (a sleeve brighter than the white, as glare is) and 163 (a sleeve at the
    paper's own white, the case's empty cells all under it or unlined, so no lined fill to
    compare it with): 1 to 7 hidden cards per picture read as empty board on the old reader.
    Each sleeve runs in over the board's margin and hides its dark printed frame under one
    flat surface (`_frame_crossed`)."""
    scene = hh.heldout_case(exported, seed, hh.VARIANTS["grey-sleeves"])
    board = scene.boards[0]
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert hh.wrong_cells(grid, board.grid) == []
    under = [(r, c) for r in range(6) for c in range(6)
             if board.hidden[r, c] and board.grid[r][c] != "."]
    assert any(grid[r][c] == UNKNOWN for r, c in under)
    seen = [(r, c) for r in range(6) for c in range(6) if not board.hidden[r, c]]
    assert sum(grid[r][c] == board.grid[r][c] for r, c in seen) >= len(seen) - 1


def test_frame_crossed_crafted():
    """A 4 x 4 grid, every cell read empty. The sleeve hides the frame along the left of
    (1, 0) (an entry) and lies flat over (1, 0) and (1, 1); (2, 2) is flat cloth too, but cut
    off from the entry."""
    from companion.vision.hexapod_cover import _frame_crossed

    cells = np.arange(16)
    cloth = np.isin(cells, [4, 5, 10])
    entry = cells == 4
    assert np.flatnonzero(_frame_crossed(cells, cloth, entry, 4, 4)).tolist() == [4, 5]
    assert not _frame_crossed(cells, cloth, np.zeros(16, bool), 4, 4).any()
    # an entry that is not cloth itself (a line along one side) still lets it in
    entry = cells == 12
    cloth[13] = True
    assert np.flatnonzero(_frame_crossed(cells, cloth, entry, 4, 4)).tolist() == [12, 13]


PX, M = 24, 12


def _board(frame_level: float = 60.0, fill: float = 200.0, paper: float = 228.0
           ) -> np.ndarray:
    """A canvas (grey, 3 x 3 cells at `PX`, margin `M`) of the printed board: paper margin,
    fill, grid lines a few levels darker, the frame one pixel wide just outside the grid."""
    n = 2 * M + 3 * PX
    g = np.full((n, n), paper, np.float32)
    g[M:M + 3 * PX, M:M + 3 * PX] = fill
    for k in range(1, 3):
        g[M + k * PX, M:M + 3 * PX] = fill - 12
        g[M:M + 3 * PX, M + k * PX] = fill - 12
    g[M - 1, M - 1:M + 3 * PX + 1] = g[M + 3 * PX, M - 1:M + 3 * PX + 1] = frame_level
    g[M - 1:M + 3 * PX + 1, M - 1] = g[M - 1:M + 3 * PX + 1, M + 3 * PX] = frame_level
    return g


def _hidden(g: np.ndarray, cells, empty=range(9), clip: float = 250.0) -> list[int]:
    from companion.vision.hexapod_colour import Pixels
    from companion.vision.hexapod_lines import frame_hidden

    v = (g / g.max()).astype(np.float32)
    pix = Pixels(v=v, c=np.zeros_like(v), sat=np.zeros_like(v), hue=np.zeros(v.shape, np.uint8))
    got = frame_hidden(g, pix, PX, M, 3, 3, np.asarray(cells), np.asarray(list(empty)), clip)
    return np.asarray(cells)[got].tolist()


def test_frame_hidden_crafted():
    """A flat light surface lying over the frame along the left of (1, 0) hides it there; the
    frame shows along the left of (0, 0) and (2, 0)."""
    g = _board()
    g[M + PX - 2:M + 2 * PX + 2, 0:M + 10] = 215.0          # the sleeve, running in from the left
    assert _hidden(g, [0, 3, 6, 1, 4]) == [3]
    # the same surface clipped: the frame elsewhere dips by far more than FRAME_SEEN_CLIPPED
    c = g.copy()
    c[M + PX - 2:M + 2 * PX + 2, 0:M + 10] = 255.0
    assert _hidden(c, [0, 3, 6], clip=250.0) == [3]
    # the frame elsewhere only faint (a blown, blurred picture): no evidence
    faint = _board(frame_level=185.0)
    faint[M + PX - 2:M + 2 * PX + 2, 0:M + 10] = 215.0
    assert _hidden(faint, [0, 3, 6]) == []
    # only the frame of cells read empty counts as seen, in the same direction: with the
    # other cells along the left and right under cards, the frame along them is no reference
    assert _hidden(g, [3], empty=[1, 3, 4, 7]) == []


def test_sleeve_run_without_reach_finds_neighbours_only():
    """Cells 0, 1, 2 in a row, all lit alike, no trace of a line between them: from cloth
    over 0, the run reaches 1 and, joined on, 2; without `reach`, 1 only (the frame's
    cloth: how far faint lines beyond it are the cloth's, it does not tell)."""
    from companion.vision.hexapod_cover import _sleeve_run

    cells = np.array([0, 1, 2])
    unlined = np.array([True, False, False])
    weak = np.array([False, True, True])
    shares = np.zeros((3, 4))
    mid = np.full(3, 0.9)
    assert _sleeve_run(cells, unlined, weak, shares, mid, 6, 6, 0.8).tolist() == \
        [False, True, True]
    assert _sleeve_run(cells, unlined, weak, shares, mid, 6, 6, 0.8, reach=False).tolist() == \
        [False, True, False]
