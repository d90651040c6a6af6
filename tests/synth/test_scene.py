"""Synthetic scenes: the ground truth must describe the rendered pixels exactly."""

from __future__ import annotations

import importlib.util
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.synth.effects import Hand
from companion.synth.scene import (
    SceneCard,
    SceneParams,
    render_scene,
    rotate_cell,
    sample_params,
)

_h = importlib.util.spec_from_file_location("synth_helpers", Path(__file__).with_name("helpers.py"))
helpers = importlib.util.module_from_spec(_h)
_h.loader.exec_module(helpers)

CARDS = [SceneCard((0, 0), "RRBVVB", 0), SceneCard((1, 0), "BRRRRV", 2),
         SceneCard((0, 1), "VVVRRB", 5), SceneCard((-1, 1), "RBRBRB", 1),
         SceneCard((1, -1), "RRRRRB", 4), SceneCard((-1, 0), "BBVVVV", 3)]
TILTED = SceneParams(seed=3, band="custom", tilt_deg=22.0, tilt_azimuth_deg=70.0, yaw_deg=37.0,
                     distortion=-0.06, jitter_mm=2.0, jitter_deg=3.0, fill=0.85)


def distort(truth, px: np.ndarray) -> np.ndarray:
    """Undistorted -> distorted pixels with the truth's K and OpenCV coefficients."""
    K, k = truth.camera_matrix, truth.dist_coeffs
    f, c = np.array([K[0, 0], K[1, 1]]), K[:2, 2]
    n = (px - c) / f
    r2 = (n ** 2).sum(axis=1, keepdims=True)
    return n * (1 + k[0] * r2 + k[1] * r2 ** 2) * f + c


def project(truth, pts_mm) -> np.ndarray:
    pts = np.asarray(pts_mm, float).reshape(-1, 2)
    q = np.c_[pts, np.ones(len(pts))] @ truth.homography.T
    return distort(truth, q[:, :2] / q[:, 2:])


def symbol_points_mm(card, radius_frac: float):
    """Table-mm points of the card's symbol centres by table direction d (using the true pose)."""
    a = HEXEL_FACE.apothem_mm * radius_frac
    out = []
    for d in range(6):
        ang = math.radians(-60 * (d - card.rotation) + card.angle_deg)  # edge (d - k) of the card
        out.append((card.centre_mm[0] + a * math.cos(ang), card.centre_mm[1] + a * math.sin(ang)))
    return out


@pytest.mark.parametrize("params", [SceneParams(), TILTED], ids=["topdown", "tilted"])
@pytest.mark.parametrize("edition", ["holodex", "web"])
def test_symbols_in_the_image_are_where_the_truth_says(params, edition):
    cards = CARDS if edition == "holodex" else [
        replace(c, symbols=c.symbols.replace("V", "Y")) for c in CARDS]
    img, truth = render_scene(cards, edition, params)
    for card in truth.cards:
        pts = project(truth, symbol_points_mm(card, HEXEL_FACE.symbol_centre_frac))
        for d, p in enumerate(pts):
            letter = card.table_symbols[d]
            if letter == "V":
                continue  # its centre is paper; the ring is checked in test_cardface
            got = helpers.colour_class(helpers.sample(img, p), edition)
            assert got == letter, f"card {card.cell} direction {d}: {got} not {letter}"


@pytest.mark.parametrize("params", [SceneParams(), TILTED,
                                    replace(TILTED, yaw_deg=200.0, tilt_azimuth_deg=-20.0)])
def test_image_symbols_follow_image_directions(params):
    _, truth = render_scene(CARDS, "holodex", params)
    assert abs(truth.image_e_angle_deg) <= 31.0
    for card in truth.cards:
        centre = np.array(card.centre)
        pts = project(truth, symbol_points_mm(card, HEXEL_FACE.symbol_centre_frac))
        for d, p in enumerate(pts):
            v = p - centre
            angle = math.degrees(math.atan2(v[1], v[0]))
            j = round(((-(angle - truth.image_e_angle_deg)) % 360) / 60.0) % 6
            assert card.image_symbols[j] == card.table_symbols[d]
        assert card.image_cell == rotate_cell(card.cell, -truth.image_e_direction)
    if params == SceneParams():
        assert truth.image_e_direction == 0
        assert all(c.image_symbols == c.table_symbols for c in truth.cards)


def test_image_lattice_is_a_rotation_of_the_table_lattice():
    _, truth = render_scene(CARDS, "holodex", TILTED)
    by_cell = {c.cell: c for c in truth.cards}
    # image-E neighbour of a card is to its right in the image
    for c in truth.cards:
        for other in truth.cards:
            if (other.image_cell[0] - c.image_cell[0], other.image_cell[1] - c.image_cell[1]) \
                    == (1, 0):
                v = np.subtract(other.centre, c.centre)
                assert abs(math.degrees(math.atan2(v[1], v[0]))) < 35
    assert len(by_cell) == len(CARDS)


@pytest.mark.parametrize("params", [SceneParams(), TILTED, replace(TILTED, miscut_mm=0.8)],
                         ids=["topdown", "tilted", "miscut"])
def test_polygon_holds_card_paper_and_border_and_table_outside(params):
    img, truth = render_scene(CARDS, "holodex", params)
    paper = np.array(helpers.classes("holodex")["paper"])
    for card in truth.cards:
        poly = np.array(card.polygon)
        centre = np.array(card.centre)
        assert cv2.pointPolygonTest(poly.astype(np.float32), tuple(centre), False) > 0
        # between symbols, halfway to each corner: paper
        for corner in poly:
            p = centre + 0.35 * (corner - centre)
            assert np.linalg.norm(helpers.sample(img, p) - paper) < 40
            q = centre + 0.965 * (corner - centre)  # inside the border band
            assert helpers.colour_class(helpers.sample(img, q), "holodex") == "dark"


def test_topdown_geometry_and_markers():
    img, truth = render_scene(CARDS, "holodex", SceneParams())
    assert img.shape == (720, 1280, 3) and img.dtype == np.uint8
    assert [m.id for m in truth.markers] == [0, 1, 2, 3]
    c = {m.id: np.mean(m.corners, axis=0) for m in truth.markers}
    assert c[0][0] < c[1][0] and c[0][1] < c[3][1] and c[2][0] > c[3][0]
    assert all(m.visible == 1.0 for m in truth.markers)
    assert all(c.visible == 1.0 for c in truth.cards)
    # neighbours on the table are one pitch apart in the image too (top-down: a similarity)
    a, b = truth.cards[0], truth.cards[1]
    px = np.linalg.norm(np.subtract(a.centre, b.centre))
    mm = np.linalg.norm(np.subtract(a.centre_mm, b.centre_mm))
    scale = np.linalg.norm(project(truth, [(0, 0), (1, 0)])[1] - project(truth, [(0, 0)])[0])
    assert px == pytest.approx(mm * scale, rel=1e-6)


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_rendered_markers_are_detected_at_their_true_corners(band):
    params = sample_params(11, band)
    params = replace(params, markers=True, hands=0, glare_spots=0, read_noise=0.5,
                     shot_noise=0.0, defocus_px=0.0, motion_px=0.0, jpeg_quality=0,
                     exposure=1.0, shadows=0, fill=0.8, tilt_deg=min(params.tilt_deg, 25))
    img, truth = render_scene(CARDS, "holodex", params)
    det = cv2.aruco.DetectorParameters()
    det.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    from companion.synth.boards import aruco_dictionary

    corners, ids, _ = cv2.aruco.ArucoDetector(aruco_dictionary(), det).detectMarkers(img)
    found = {int(i): c.reshape(4, 2) for i, c in zip(np.ravel(ids), corners, strict=True)}
    assert sorted(found) == [0, 1, 2, 3]
    for m in truth.markers:
        assert np.abs(found[m.id] - np.array(m.corners)).max() < 1.0, m.id


def test_homography_and_distortion_match_opencv():
    _, truth = render_scene(CARDS, "holodex", TILTED)
    centres = np.array([c.centre for c in truth.cards], np.float64).reshape(-1, 1, 2)
    und = cv2.undistortPoints(centres, truth.camera_matrix, truth.dist_coeffs,
                              P=truth.camera_matrix).reshape(-1, 2)
    mm = np.array([c.centre_mm for c in truth.cards])
    q = np.c_[mm, np.ones(len(mm))] @ truth.homography.T
    assert np.abs(und - q[:, :2] / q[:, 2:]).max() < 0.05


def test_hand_occludes_the_card_under_it():
    img0, _ = render_scene(CARDS, "holodex", SceneParams())
    palm = truth_centre_mm = (-33.0, 57.0)  # cell (-1, 1), the arm comes from below
    hand = Hand(entry_mm=(palm[0], 900.0), palm_mm=palm)
    img, truth = render_scene(CARDS, "holodex", SceneParams(), hands=(hand,))
    by_cell = {c.cell: c for c in truth.cards}
    assert by_cell[(-1, 1)].centre_mm == pytest.approx(truth_centre_mm, abs=0.5)
    assert by_cell[(-1, 1)].visible < 0.5
    assert by_cell[(1, 0)].visible == 1.0  # far from the arm
    centre = np.array(by_cell[(-1, 1)].centre)
    assert np.linalg.norm(helpers.sample(img, centre) - helpers.sample(img0, centre)) > 30


def test_cards_out_of_frame_are_partly_visible():
    params = replace(SceneParams(), fill=1.8)
    _, truth = render_scene(CARDS, "holodex", params)
    vis = [c.visible for c in truth.cards]
    assert min(vis) < 1.0 and max(vis) == 1.0
    for c in truth.cards:
        inside = all(0 <= x < 1280 and 0 <= y < 720 for x, y in c.polygon)
        if inside:
            assert c.visible == 1.0
        if c.visible < 0.99:
            assert not inside


def test_deterministic_by_seed_and_varied_across_seeds():
    a, ta = render_scene(CARDS, "holodex", sample_params(5, "hard"))
    b, tb = render_scene(CARDS, "holodex", sample_params(5, "hard"))
    c, _ = render_scene(CARDS, "holodex", sample_params(6, "hard"))
    assert np.array_equal(a, b) and ta.to_json() == tb.to_json()
    assert not np.array_equal(a, c)


def test_bands():
    easy = [sample_params(s, "easy") for s in range(30)]
    hard = [sample_params(s, "hard") for s in range(60)]
    assert all(p.tilt_deg < 10 and p.hands == 0 and p.glare_spots == 0 for p in easy)
    assert max(p.tilt_deg for p in hard) > 25 and any(p.hands for p in hard)
    assert min(p.colour_temp_k for p in hard) < 3300 and max(p.colour_temp_k for p in hard) > 6000
    assert {p.surface for p in hard} == {"wood", "felt", "cloth", "photo"}
    web_cards = [replace(c, symbols=c.symbols.replace("V", "Y")) for c in CARDS]
    for p in hard[:3]:
        img, truth = render_scene(web_cards, "web", p)
        assert img.shape == (720, 1280, 3)
        assert len(truth.markers) == (4 if p.markers else 0)
    with pytest.raises(ValueError, match="band"):
        sample_params(1, "extreme")


def test_jittered_cards_never_overlap():
    from companion.scenarios import hexel_layout

    circum = HEXEL_FACE.circumradius_mm
    for seed in range(4):
        params = replace(sample_params(seed, "hard"), jitter_mm=3.0, jitter_deg=4.0, gap_mm=1.5)
        _, truth = render_scene(hexel_layout(seed, 20), "holodex", params)
        polys = {}
        for c in truth.cards:
            angles = np.radians(c.angle_deg - 30 - 60 * np.arange(6))
            polys[c.cell] = (np.c_[np.cos(angles), np.sin(angles)] * circum
                             + c.centre_mm).astype(np.float32)
        for cell, poly in polys.items():
            for dq, dr in ((1, 0), (1, -1), (0, -1)):
                other = polys.get((cell[0] + dq, cell[1] + dr))
                if other is not None:
                    area, _ = cv2.intersectConvexConvex(poly, other)
                    assert area <= 0.05, (seed, cell)
