"""Empty cells beside a hand whose mask reaches them (`read_case`'s occluder step, `lines_across`
with `HAND_LINE_SHARE`). Rendered hard scene 143: a dark hand reaches over player 1's board, and
its mask (the skin-lit fill about the hand) covers empty cells in full view whose printed lines
show along two opposite sides, but along only 0.65-0.8 of one of them (the hand's edge runs near
it). The old reader asked for 0.8 of each and left them '?'. A card on the cell hides the far
side of each opposite pair in full, so a line along half of each side of a pair is as good;
cells under the hand that hold a card still read '?' (hard 0-699: no such cell showed its line
along more than 0.18 of both sides of a pair)."""

from __future__ import annotations

from dataclasses import replace

from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN


def _read(seed: int, player: int):
    params = replace(sample_params(seed, "hard", 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(seed, "hard", params=params)
    result = HexapodReader(track=True, keep_still=False).read_full(image, 0.0, 0)
    read = next(r for c, r in zip(result.observation.cases, result.reads, strict=True)
                if c.player == player)
    return read, next(c for c in truth.cases if c.player == player)


def test_empty_cells_by_a_hand_with_lines_across_read_empty() -> None:
    """Cells (0, 4), (1, 2) and (1, 3), empty and in full view, read '.' (old: '?'); no cell
    of the case, hidden or not, reads other than its truth or '?'."""
    read, case = _read(143, 1)
    for r, c in ((0, 4), (1, 2), (1, 3)):
        assert case.grid[r][c] == "."
        assert case.visible[r][c] >= 1.0
        assert read.grid[r][c] == "."
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            assert read.grid[r][c] in (code, UNKNOWN)
    # the cards under the hand stay unread
    assert sum(read.grid[r][c] == UNKNOWN for r in range(6) for c in range(6)
               if case.grid[r][c] != "." and case.visible[r][c] < 1.0) >= 8
