"""Hexapod scenes: display cases built by legal play (RULES.md P2) and rendered with ground
truth that describes the pixels: each visible cell shows its code's colour at its centre."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.rules.hexapod import Card, check_placement, empty_case, place
from companion.scenarios import hexapod_cases, hexapod_scene
from companion.synth.boards import aruco_dictionary
from companion.synth.effects import Hand
from companion.synth.hexapod_scene import CaseCard, SceneCase, render_cases
from companion.synth.scene import SceneParams

_h = importlib.util.spec_from_file_location(
    "hexapod_helpers", Path(__file__).with_name("hexapod_helpers.py"))
helpers = importlib.util.module_from_spec(_h)
_h.loader.exec_module(helpers)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_cases_are_built_by_legal_play(seed):
    cases = hexapod_cases(seed, 14)
    assert [c.player for c in cases] == [1, 2]
    names = [card.name for case in cases for card in case.cards]
    assert len(names) == len(set(names))  # one deck: no card in two cases
    for case in cases:
        assert len(case.cards) >= 6
        grid = empty_case(6, 6)
        for card in case.cards:
            rules_card = Card(card.name, card.rows)
            check_placement(grid, rules_card, card.col, card.row)  # raises if illegal (P2)
            grid = place(grid, rules_card, card.col, card.row)
        assert case.grid() == grid
        # overlaps like a real game: fewer visible cells than cards laid would cover
        visible = sum(code != "." for row in grid for code in row)
        assert visible < 6 * len(case.cards)


def test_cases_are_deterministic_and_bounded():
    assert hexapod_cases(5, 8) == hexapod_cases(5, 8)
    assert hexapod_cases(5, 8) != hexapod_cases(6, 8)
    with pytest.raises(ValueError, match="deck"):
        hexapod_cases(1, 21, players=2)


def read_cells(img, case, radius):
    """(truth code class, read class) for every visible cell of a case."""
    out = []
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            if case.visible[r][c] < 1.0:
                continue
            mean = helpers.window_mean(img, case.cell_centres[r][c], radius)
            out.append((helpers.code_class(code), helpers.kind_class(mean)))
    return out


def cell_px(case) -> float:
    tl, tr, _, bl = (np.array(p) for p in case.corners)
    return min(np.linalg.norm(tr - tl), np.linalg.norm(bl - tl)) / 6.0


@pytest.mark.parametrize(("seed", "band", "n_cards"), [(1, "topdown", 12), (2, "topdown", None),
                                                       (3, "easy", 16), (4, "easy", None),
                                                       (5, "easy", None)])
def test_truth_cells_show_their_colour_class(seed, band, n_cards):
    img, truth = hexapod_scene(seed, band, n_cards=n_cards, players=2 if n_cards else None)
    if n_cards:
        cases = hexapod_cases(seed, n_cards, 2)
        assert [c.grid for c in truth.cases] == [c.grid() for c in cases]
        assert [c.player for c in truth.cases] == [1, 2]
    for case in truth.cases:
        assert all(v == 1.0 for row in case.visible for v in row)  # no hands in these bands
        px = cell_px(case)
        assert px >= 25  # the design target: cells of at least ~25 px
        # a window of 1/4 cell about the centre stays inside the right tile for misalign < 1/4
        pairs = read_cells(img, case, px * 0.12)
        assert pairs and all(want == got for want, got in pairs), pairs


def test_misaligned_cards_stay_within_a_third_of_a_cell():
    _, truth = hexapod_scene(7, "hard", n_cards=14, players=2)
    assert truth.misalign == pytest.approx(1 / 3)
    for case in truth.cases:
        for pose in case.cards:
            s = truth.cell_mm
            w, h = 2 * s, 3 * s
            grid = np.array([(0, 0), (w, 0), (w, h), (0, h)]) + s * np.array((pose.col, pose.row))
            shift = np.abs(np.array(pose.corners_mm) - grid)
            assert shift.max() <= s / 3 + 1e-6
        assert any(np.abs(p.offset_mm).max() > 1.0 for p in case.cards)


def test_board_markers_in_the_image_are_where_truth_says():
    img, truth = hexapod_scene(2, "topdown")
    corners, ids, _ = cv2.aruco.ArucoDetector(aruco_dictionary()).detectMarkers(img)
    found = {int(i): c.reshape(4, 2) for i, c in zip(np.ravel(ids), corners, strict=True)}
    expected = {m.id: np.array(m.corners) for case in truth.cases for m in case.markers}
    assert sorted(found) == sorted(expected) and min(expected) >= 10
    for mid, pts in expected.items():
        assert np.abs(found[mid] - pts).max() < 1.5


def test_a_hand_hides_cells_and_truth_says_so():
    cases = (SceneCase(1, (CaseCard("A", (("B", "B"), ("St", "G"), ("Sb", "G")), 0, 0),
                           CaseCard("C", (("Ml", "Mr"), ("K", "R"), ("Y", "Y")), 2, 2))),)
    params = SceneParams(seed=3)
    palm = (2.5 * 28.0, 3.5 * 28.0)
    _, free = render_cases(cases, params)
    img, truth = render_cases(cases, params, hands=(Hand((600.0, 900.0), palm),))
    case = truth.cases[0]
    assert free.cases[0].grid == case.grid and case.grid[2][2:4] == ("Ml", "Mr")
    hidden = [v for row in case.visible for v in row if v < 0.5]
    assert hidden and all(v == 1.0 for row in free.cases[0].visible for v in row)
    assert img.shape == (720, 1280, 3)
    data = truth.to_json()
    assert data["cases"][0]["player"] == 1 and data["cases"][0]["grid"][0][:2] == ["B", "B"]


def test_render_refuses_cards_outside_the_case():
    with pytest.raises(ValueError, match="sticks out"):
        render_cases((SceneCase(1, (CaseCard("A", (("B", "B"), ("B", "B"), ("B", "B")),
                                              5, 0),)),))
