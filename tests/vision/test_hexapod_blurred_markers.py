"""Display cases whose markers motion blur left without a quad at full size (found on the
half-size frame, `hexapod_markers.half_size`) or foreshortened past the decoded markers' side
range (matched by their mean side): rendered hard tables read right where the case was not
found before, and crafted frames where the guards (three markers of one case in the printed
layout, each clearly its own code) keep a case out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import hexapod_markers
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_markers import LAYOUT, match_quads

from .hexapod_scenes import assert_case_found, hard_scene


@pytest.mark.parametrize(("seed", "player", "min_right"), [(494, 1, 36), (154, 2, 12)])
def test_a_case_whose_blurred_markers_have_no_quad_is_found_at_half_size(seed, player,
                                                                          min_right):
    """5 px of motion blur over 17-24 px markers: no quad at full size, found at half."""
    assert_case_found(seed, player, min_right)


def test_a_foreshortened_marker_is_sized_by_its_mean_side():
    """Hard 480: the one decoded marker is the other board's; a tilted far marker's short side
    falls under 0.6 of it, its mean side does not: player 1's case is found."""
    assert_case_found(480, 1, 6)


def _cover(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """`image` with `quad` (and a module round it) painted the paper's white."""
    centre = quad.mean(axis=0)
    grown = centre + 1.4 * (quad - centre)
    out = image.copy()
    cv2.fillConvexPoly(out, np.round(grown).astype(np.int32), (235, 235, 235))
    return out


def test_half_size_wants_three_markers_of_one_case():
    """Hard 494 with two of player 1's four markers painted over: the half-size search sees two
    clear codes of the case and finds no case (a case is three markers in the printed layout),
    nor does the reader; with one painted over it finds the case through the other three."""
    image, truth = hard_scene(494)
    case = next(c for c in truth.cases if c.player == 1)
    quads = [np.array(m.corners, np.float64) for m in case.markers]
    one = _cover(image, quads[0])
    two = _cover(one, quads[2])
    for frame, want in ((one, True), (two, False)):
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found = hexapod_markers.half_size(grey, [], (0.0, np.inf))
        assert any(p.player == 1 for p in found) == want
        seen = HexapodReader(track=True, keep_still=False).read(frame).cases
        assert any(c.player == 1 for c in seen) == want


def test_a_quad_outside_the_size_range_names_nothing():
    """A marker's quad whose mean side lies outside `size` is not tried: a quad much smaller
    or larger than the table's markers is no marker of these boards."""
    image, truth = hard_scene(494)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    quad = np.array(next(c for c in truth.cases if c.player == 1).markers[2].corners)
    side = float(np.linalg.norm(np.roll(quad, -1, 0) - quad, axis=1).mean())
    assert [i for i, _ in match_quads(grey, [quad], LAYOUT)] == [12]
    assert match_quads(grey, [quad], LAYOUT, size=(1.7 * side, 3.0 * side)) == []


def test_a_mirrored_table_shows_no_case_at_half_size():
    """Hard 494 seen in a mirror: the same blurred markers, but a mirrored code is none of the
    case codes clearly, so the half-size search (and the reader) finds no case there."""
    image, _ = hard_scene(494)
    mirrored = np.ascontiguousarray(image[:, ::-1])
    grey = cv2.cvtColor(mirrored, cv2.COLOR_BGR2GRAY)
    assert hexapod_markers.half_size(grey, [], (0.0, np.inf)) == []
    assert HexapodReader(track=True, keep_still=False).read(mirrored).cases == ()
