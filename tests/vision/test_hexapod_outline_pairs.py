"""A display case whose sheet outline verifies only two of its markers (a hand over the third
corner's marker bends the outline's corner by it, so the fourth marker's place misses it):
those two start the search of `partial_cases` as two decoded markers would, and the case is
found only when a third marker is found where they put it (`hexapod_boards.find_boards`'
`pairs`). Rendered hard scene 394 (4.8 px of motion blur; no marker of player 2 decodes; a
hand over its bottom-right marker) carries its own truth."""

from __future__ import annotations

import cv2
import numpy as np

from companion.faces import HEXAPOD_CASE as LAYOUT
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_markers import MarkerTracker

from .hexapod_scenes import hard_scene, visible_read_right

SEED = 394


def test_a_case_two_of_whose_markers_its_outline_verifies_is_found() -> None:
    """Player 2's case is found (the old reader: not found, every cell '?') through markers
    20, 21 (verified on the outline) and 23 (found where they put it); its cells read right or
    '?', never a wrong code, and at least three visible cells are read (five before the blue
    channel's doubt of dim, unlined fill under a white clipped in red and green: two empty
    cells of its dim left column, whose lines do not show, are '?' since)."""
    image, truth = hard_scene(SEED)
    result = HexapodReader(track=False, keep_still=False).read_full(image)
    seen = {c.player: c for c in result.observation.cases}
    assert set(seen) == {c.player for c in truth.cases}
    case = next(c for c in truth.cases if c.player == 2)
    assert visible_read_right(case, seen[2]) >= 3


def test_two_markers_alone_make_no_case() -> None:
    """Guard: the same frame with paper laid over marker 23 (the third one): the outline still
    verifies 20 and 21, but two markers are no case — player 2 is not found, and no other
    player is reported."""
    image, truth = hard_scene(SEED)
    case = next(c for c in truth.cases if c.player == 2)
    quad = np.array(next(m.corners for m in case.markers if m.id == 23), np.float64)
    centre = quad.mean(axis=0)
    cover = np.round(centre + 1.4 * (quad - centre)).astype(np.int32)
    paper = image.copy()
    level = np.percentile(image.reshape(-1, 3), 99, axis=0)
    cv2.fillConvexPoly(paper, cover, tuple(float(v) for v in level))
    poses, _ = MarkerTracker(LAYOUT, track=False).find(paper)
    assert {p.player for p in poses} == {1}
