"""A marker in view that did not locate its case and shows no black lies under something, and
what covers it reaches in over the board's corner beside it: an empty corner cell under flat
cloth there (no trace of a printed line on any side) is an entry for the cloth, as a hidden
frame is, when its middle is lit below the clip (a clipped middle shows no line whatever lies
there), and the cloth cells joined to it read '?' (`hexapod_cells.unseen_marker_cells`,
`hexapod_cover.unlined_dim_empty`). Hard seed 2005, player 1: a pale hand under a 2870 K lamp,
lit to the clip in red and green, over the top-left marker and most of the case, in a picture
whose 5.9 px of motion blur leaves no printed line clear anywhere (so no cover rule had lined
fill to judge it by); the renderer's truth says which cells hold cards."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_cells import unseen_marker_cells
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import hard_scene

# the cards under the hand that the reader read as empty board before
UNDER_HAND = ((1, 0), (1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2),
              (3, 3), (3, 4), (3, 5), (4, 2), (4, 3), (4, 4))


def _why(image: np.ndarray, player: int):
    """The rules that left `player`'s cells '?' (`CaseRead.why`), read as the bench reads."""
    result = HexapodReader(track=True, keep_still=False).read_full(image, 0.0, 0)
    return next(r.why for c, r in zip(result.observation.cases, result.reads, strict=True)
                if c.player == player)


def _read(image: np.ndarray):
    """{player: (observed case, pose)} of `image` read as the bench reads it."""
    result = HexapodReader(track=True, keep_still=False).read_full(image, 0.0, 0)
    return {c.player: (c, p) for c, p in zip(result.observation.cases, result.poses,
                                              strict=True)}


def test_cards_under_a_pale_hand_over_a_corner_marker_are_not_read_as_board() -> None:
    """Player 1 of hard 2005: the hand covers marker 10 (top-left), which is not found; the
    cards under the hand joined to that corner read '?' (before: 16 of them read '.'), and the
    fill in view beside the hand (2, 5) still reads empty. Player 2's case, in the same blurred
    picture and all four of its markers found, keeps its flat, unlined fill read empty."""
    image, truth = hard_scene(2005)
    seen = _read(image)
    case = next(c for c in truth.cases if c.player == 1)
    got, pose = seen[1]
    assert 10 not in pose.markers
    assert unseen_marker_cells(image, pose).tolist() == [0]
    for r, c in UNDER_HAND:
        assert case.grid[r][c] != "."
        assert got.grid[r][c] == UNKNOWN, (r, c, got.grid[r][c])
    assert case.grid[2][5] == got.grid[2][5] == "."
    other = next(c for c in truth.cases if c.player == 2)
    got2, pose2 = seen[2]
    assert unseen_marker_cells(image, pose2).tolist() == []
    # (the frame is blown white in every channel: one of these cells shows the grid lines and
    # a neighbour's gutter as the dung beetle's drawing faintly, and is doubted by that rule,
    # `hexapod_drawings.blown_dung`, never by the unseen marker's)
    why = _why(image, 2)
    for r, c in ((0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4), (3, 3), (3, 4)):
        assert other.grid[r][c] == "."
        assert got2.grid[r][c] == "." or why[r][c] == "blown_dung", (r, c, why[r][c])


def test_a_covered_marker_leaves_lined_fill_at_its_corner_read_empty() -> None:
    """Hard 2179, player 1, with paper laid over marker 11 (top-right): the case is still
    found by its other three markers, the covered one counts (no black shows there), but the
    corner cell beside it shows its printed lines, so it is board and still reads empty."""
    image, truth = hard_scene(2179)
    case = next(c for c in truth.cases if c.player == 1)
    quad = np.array(next(m.corners for m in case.markers if m.id == 11), np.float64)
    centre = quad.mean(axis=0)
    paper = image.copy()
    level = np.percentile(image.reshape(-1, 3), 95, axis=0)
    cv2.fillConvexPoly(paper, np.round(centre + 1.3 * (quad - centre)).astype(np.int32),
                       tuple(float(v) for v in level))
    got, pose = _read(paper)[1]
    assert 11 not in pose.markers
    assert unseen_marker_cells(paper, pose).tolist() == [5]
    assert case.grid[0][5] == got.grid[0][5] == "."


def test_a_marker_in_view_that_blur_kept_unfound_is_no_cover() -> None:
    """Hard 38, player 1: 5.1 px of motion blur keeps one of the four markers, all in full
    view, from locating the case; its black still shows through the blur, so it counts as
    uncovered, and the blurred, unlined fill of the case in view still reads empty."""
    image, truth = hard_scene(38)
    case = next(c for c in truth.cases if c.player == 1)
    got, pose = _read(image)[1]
    assert len(pose.markers) == 3
    assert unseen_marker_cells(image, pose).tolist() == []
    for r, c in ((0, 3), (0, 4), (0, 5), (1, 5), (2, 5), (3, 5), (4, 4), (4, 5), (5, 4), (5, 5)):
        assert case.grid[r][c] == got.grid[r][c] == "."


def test_clipped_fill_at_a_covered_marker_s_corner_is_no_entry() -> None:
    """Hard 679, player 1: a dark arm lies over marker 11 (top-right), which is not found and
    counts as covered, but the corner cell beside it is fill lit to the clip, and 5.8 px of
    motion blur leaves the fill of the case's right half unlined and flat: a clipped middle is
    no evidence of cloth, so that fill still reads empty (with the corner taken as an entry
    whatever its light, nine of these cells read '?')."""
    image, truth = hard_scene(679)
    case = next(c for c in truth.cases if c.player == 1)
    got, pose = _read(image)[1]
    assert unseen_marker_cells(image, pose).tolist() == [5]
    for r, c in ((0, 3), (0, 4), (1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5), (3, 3)):
        assert case.grid[r][c] == got.grid[r][c] == "."
