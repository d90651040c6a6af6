"""A display case whose four markers all show but motion blur left only two of their codes
readable (`hexapod_boards.framed_pairs`): its sheet's outline verifies those two, the other two
places each show a framed marker, and the case is placed by the corners where the paper's
measured edges meet, kept only when the two markers' centres lie where those corners put them.
Rendered hard scene 18 (6 px of motion blur, 16 px markers: no marker of player 2 decodes or
matches, its outline verifies 21 and 22) carries its own truth."""

from __future__ import annotations

import cv2
import numpy as np

from companion.faces import HEXAPOD_CASE as LAYOUT
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_boards import find_boards, framed_pairs
from companion.vision.hexapod_markers import MarkerTracker

from .hexapod_scenes import hard_scene, visible_read_right

SEED = 18


def test_a_case_whose_two_markers_read_and_four_show_is_found() -> None:
    """Player 2's case is found (the old reader: not found, every cell '?') through markers 21
    and 22, placed by the sheet's corners and all four markers' centres: its grid corners lie
    within 0.15 cell of the truth's (through the corners and the two read markers alone: 0.21),
    and its cells read right or '?', never a wrong code, at least 20 visible cells read."""
    image, truth = hard_scene(SEED)
    result = HexapodReader(track=False, keep_still=False).read_full(image)
    seen = {c.player: c for c in result.observation.cases}
    assert set(seen) == {1, 2}
    pose = next(p for p in result.poses if p.player == 2)
    assert pose.markers == (21, 22)
    case = next(c for c in truth.cases if c.player == 2)
    cell = np.linalg.norm(np.subtract(case.corners[1], case.corners[0])) / LAYOUT.cols
    assert np.linalg.norm(pose.grid_corners() - np.array(case.corners), axis=1).max() \
        < 0.15 * cell
    assert visible_read_right(case, seen[2]) >= 20


def _covered(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """`image` with paper-bright paint over the marker `quad` and its quiet zone."""
    centre = quad.mean(axis=0)
    cover = np.round(centre + 1.5 * (quad - centre)).astype(np.int32)
    out = image.copy()
    level = np.percentile(image.reshape(-1, 3), 99, axis=0)
    cv2.fillConvexPoly(out, cover, tuple(float(v) for v in level))
    return out


def test_a_place_showing_no_marker_makes_no_case() -> None:
    """Guard: the same frame with paper laid over marker 20 (one whose code is unread): the
    outline still verifies 21 and 22, but only three places show a marker and two codes are
    read — player 2 is not found, and no other player is reported."""
    image, truth = hard_scene(SEED)
    case = next(c for c in truth.cases if c.player == 2)
    quad = np.array(next(m.corners for m in case.markers if m.id == 20), np.float64)
    poses, _ = MarkerTracker(LAYOUT, track=False).find(_covered(image, quad))
    assert {p.player for p in poses} == {1}


def test_markers_off_where_the_edges_put_them_make_no_case() -> None:
    """Guard on the joint fit: the sheet the outline search gathers is accepted as it is, and
    refused when its two read markers are moved a module and a half along the sheet's top
    edge (the paper's corners then put them elsewhere than they were read)."""
    image, _ = hard_scene(SEED)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    located = [p for p in MarkerTracker(LAYOUT, track=False).find(image)[0] if p.player == 1]
    framed: list = []
    find_boards(grey, located, LAYOUT, image, framed=framed)
    assert [(p, [i for i, _ in m]) for p, m, _ in framed] == [(2, [21, 22])]
    assert [p.player for p in framed_pairs(framed, located, image, LAYOUT)] == [2]
    player, markers, outline = framed[0]
    along = outline[1] - outline[0]
    side = np.mean([np.linalg.norm(q[1] - q[0]) for _, q in markers])
    step = 1.5 * side / LAYOUT.marker_modules * along / np.linalg.norm(along)
    moved = [(i, q + step) for i, q in markers]
    assert framed_pairs([(player, moved, outline)], located, image, LAYOUT) == []


def test_far_markers_off_where_the_edges_put_them_make_no_case() -> None:
    """Guard on the far side: the two unread markers (20, 23), each with its quiet zone, moved
    1.8 modules along the sheet's top edge in the grey levels the frames are looked for in (the
    paper's edges left as they are): their frames are found within the search, but off where
    the sheet's corners put them, so the case is refused."""
    image, truth = hard_scene(SEED)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    located = [p for p in MarkerTracker(LAYOUT, track=False).find(image)[0] if p.player == 1]
    framed: list = []
    find_boards(grey, located, LAYOUT, image, framed=framed)
    assert [p.player for p in framed_pairs(framed, located, image, LAYOUT, grey)] == [2]
    case = next(c for c in truth.cases if c.player == 2)
    moved = grey.copy()
    paper = float(np.percentile(grey, 99))
    for mid in (20, 23):
        quad = np.array(next(m.corners for m in case.markers if m.id == mid), np.float64)
        side = np.linalg.norm(quad[1] - quad[0])
        along = (quad[1] - quad[0]) / side
        centre = quad.mean(axis=0)
        zone = centre + 1.6 * (quad - centre)
        x0, y0 = np.floor(zone.min(axis=0)).astype(int)
        x1, y1 = np.ceil(zone.max(axis=0)).astype(int)
        patch = grey[y0:y1, x0:x1].copy()
        mask = np.zeros_like(patch)
        cv2.fillConvexPoly(mask, np.round(zone - (x0, y0)).astype(np.int32), 1)
        moved[y0:y1, x0:x1][mask > 0] = paper
        dx, dy = np.round(1.8 * side / LAYOUT.marker_modules * along).astype(int)
        target = moved[y0 + dy:y1 + dy, x0 + dx:x1 + dx]
        target[mask > 0] = patch[mask > 0]
    assert framed_pairs(framed, located, image, LAYOUT, moved) == []
