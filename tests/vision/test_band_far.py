"""A card's outline drawn far off the card (`band_pose`): its paper broken by a glare or a phone's
halo, the hull cuts a corner off, and the pose fitted to it lies a tenth of an apothem off, a tenth
small and squashed (held-out `phone-photo` 17: the card RYRBRB, the paper round its triangle lost
to the mask, read 'R?RBRB'). Its band then lies past the profiles' reach on an edge or two. Fitted
first where it shows (`BAND_FIRST_EDGES` edges within `BAND_FIRST_TOL`), then all round about that
fit, the band gives the card's own pose back; a fit moving the card that far stands only where its
last round confirms it, and a hand over a third of the card leaves no fit at all."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import companion.vision.band_pose as band_pose
import companion.vision.probe as probe
from companion.vision.band_pose import BAND_MAX_MOVE, band_poses
from companion.vision.calibration import TableView

from .heldout import VARIANTS, heldout_scene, scored
from .test_band_pose import TURN_DEG, _card, _error, _off, _turned

# (dx, dy apothems, size, turn degrees, squash): poses an outline that lost a corner gives
FAR = [
    (0.0, 0.12, 0.9, 0.0, 1.08),
    (0.12, 0.0, 0.92, -2.0, 0.93),
    (0.05, 0.15, 0.89, 1.0, 1.087),    # phone-photo 17's: 0.16 apothem off, 11 % small
    (-0.1, 0.1, 0.9, 3.0, 1.05),
]


@pytest.mark.parametrize(("dx", "dy", "size", "turn", "squash"), FAR)
def test_a_pose_well_off_the_card_is_fitted_back_to_its_band(dx, dy, size, turn, squash):
    img, truth = _card()
    start = _off(truth, dx, dy, size, turn, squash)
    got = band_poses(img, TableView(), [start])[0]
    assert got is not None
    fit, move = got
    off, grow, turned, stretch = _error(fit, truth)
    assert off < 0.006 and abs(grow) < 0.006 and abs(turned) < 0.3 and stretch < 0.006, (
        off, grow, turned, stretch)
    assert move > BAND_MAX_MOVE


def test_a_far_fit_stands_only_where_its_last_round_confirms_it(monkeypatch):
    """With two rounds the far fit's last round still moves the card: it is not kept. A pose a
    few per cent off, its fit within BAND_MAX_MOVE, is kept after two rounds as after three."""
    img, truth = _card()
    far = _off(truth, *FAR[2])
    near = _off(truth, 0.04, -0.02, 1.04, 2.0)
    assert band_poses(img, TableView(), [far])[0] is not None
    monkeypatch.setattr(band_pose, "BAND_ROUNDS", 2)
    assert band_poses(img, TableView(), [far])[0] is None
    fit, move = band_poses(img, TableView(), [near])[0]
    assert move <= BAND_MAX_MOVE and _error(fit, truth)[0] < 0.006


@pytest.mark.parametrize("start", [(0.0, 0.0, 1.0, 0.0, 1.0), (0.02, 0.0, 1.02, 1.0, 1.0),
                                   FAR[0]])
def test_a_hand_over_a_third_of_the_card_leaves_no_fit(start):
    """A hand over a third of the card hides its band along two edges: the first round may
    stand on the four left, the next ones need BAND_MIN_EDGES."""
    def hand(img, centre, apothem):
        a = math.radians(TURN_DEG + 30.0)
        n, t = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        far = 3.0 * apothem
        quad = [centre + 0.4 * apothem * n + far * t, centre + 0.4 * apothem * n - far * t,
                centre + far * n - far * t, centre + far * n + far * t]
        cv2.fillPoly(img, [np.rint(quad).astype(np.int32)], (120, 160, 215))
    img, truth = _card(paint=hand)
    assert band_poses(img, TableView(), [_off(truth, *start)])[0] is None


def test_phone_photo_17_reads_the_card_whose_outline_lost_a_corner(monkeypatch):
    """Held-out `phone-photo` 17: RYRBRB (truth drawn by the generator) reads whole, no card is
    misread; with the band fitted in two rounds of five edges each, as before, and the probe's
    once-more round left out too (it reads the card whole from there), the table reads no more
    cards. (On the machine the fit was made on, that left the card 'R?RBRB', covered; on an
    AVX-512 machine, whose SIMD code rounds the picture's last bits otherwise, it reads whole
    either way.)"""
    scene = heldout_scene(17, variant=VARIANTS["phone-photo"])
    assert "RYRBRB" in {t.symbols for t in scene.truth}
    score, obs = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    whole = {c.symbols for c in obs.cards if not c.occluded}
    assert any(_turned(s, "RYRBRB") for s in whole), whole
    # (the probe's once-more round, `probe.PROBE_AGAIN`, finds the card whole too: left out)
    monkeypatch.setattr(probe, "PROBE_AGAIN", False)
    monkeypatch.setattr(band_pose, "BAND_ROUNDS", 2)
    monkeypatch.setattr(band_pose, "BAND_FIRST_EDGES", band_pose.BAND_MIN_EDGES)
    monkeypatch.setattr(band_pose, "BAND_FIRST_TOL", band_pose.BAND_FIT_TOL)
    before, _ = scored(scene)
    assert before.misreads == 0 and before.correct <= score.correct, (before, score)
