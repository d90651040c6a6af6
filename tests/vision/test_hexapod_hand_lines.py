"""Empty cells beside a hand whose mask reaches them (`read_case`'s occluder step, `lines_across`
with `HAND_LINE_SHARE`). Rendered hard scene 143: a dark hand reaches over player 1's board, and
its mask (the skin-lit fill about the hand) covers empty cells in full view whose printed lines
show along two opposite sides, but along only 0.65-0.8 of one of them (the hand's edge runs near
it). The old reader asked for 0.8 of each and left them '?'. A card on the cell hides the far
side of each opposite pair in full, so a line along half of each side of a pair is as good;
cells under the hand that hold a card still read '?' (hard 0-699: no such cell showed its line
along more than 0.18 of both sides of a pair)."""

from __future__ import annotations

from companion.vision.observation import UNKNOWN

from .hexapod_scenes import read_hard_case


def test_empty_cells_by_a_hand_with_lines_across_read_empty() -> None:
    """Cells (0, 4), (1, 2) and (1, 3), empty and in full view, read '.' (old: '?'); no cell
    of the case, hidden or not, reads other than its truth or '?'."""
    read, case = read_hard_case(143, 1)
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
