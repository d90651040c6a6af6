"""Display cases of which only two markers were seen (`hexapod_markers.partial_cases`):
the others are looked for where those put them, with the thresholds the whole-frame search
cannot afford. Rendered hard tables read right where the case was not found before, and crafted
frames where the guards (each new marker clearly its own code, three markers of one case in the
printed layout) keep a wrong or a missing marker from making a case."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import hexapod_markers
from companion.vision.hexapod import HexapodReader

from .hexapod_scenes import assert_case_found, decoded_markers, hard_scene, paint_marker


@pytest.mark.parametrize(("seed", "player", "min_right"), [(409, 2, 2), (154, 1, 11)])
def test_a_case_seen_by_two_markers_is_found(seed, player, min_right):
    """Hard 409: markers 21 and 22 decode, marker 20's border is joined to a hand's dark edge
    through its blurred quiet zone (no quad at the frame's threshold); hard 154: marker 12
    decodes and 11 is matched at half size, 10 is blurred past a quad in the frame at either
    size. The case is found, and reads no cell wrong (a hidden cell only '?' or its own code)
    and at least `min_right` right."""
    assert_case_found(seed, player, min_right)


def _seen(image: np.ndarray, ids: set[int]) -> list:
    """The markers of `ids` the frame's decoder reads in `image` (id, corners)."""
    return [(i, c) for i, c in decoded_markers(image) if i in ids]


def test_a_wrong_code_or_no_marker_at_the_place_makes_no_case():
    """Hard 409 from its two decoded markers 21 and 22: with marker 20 as rendered the search
    finds player 2's case; with player 1's code 10 (or another player's 30) printed in its
    place, or the place left white, the quad found there is not marker 20 and two markers are
    no case. Neither the search nor the reader then reports player 2, or any case of the
    painted code's player beyond the table's own."""
    image, truth = hard_scene(409)
    case = next(c for c in truth.cases if c.player == 2)
    place = np.array(case.markers[0].corners, np.float64)              # marker 20 (TL)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    seeds = _seen(image, {21, 22})
    assert {i for i, _ in seeds} == {21, 22}
    found = hexapod_markers.partial_cases(grey, seeds, [])
    assert [p.player for p in found] == [2]
    for painted in (10, 30, None):
        frame = paint_marker(image, place, painted)
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        assert hexapod_markers.partial_cases(grey, _seen(frame, {21, 22}), []) == []
        seen = {c.player for c in HexapodReader(track=True, keep_still=False).read(frame).cases}
        assert seen <= {1}
