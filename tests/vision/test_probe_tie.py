"""The probe's pose search between poses that read equally whole. Near a card's true place,
paper, band and all six symbols read whole for poses a few pixels apart, and the search kept the
first best: its first round tried the nine shifts from the top-left corner, so a card predicted
exactly was kept 0.08 apothem up and left of its place (about 3 px), where its symbol cores take
in their rims. A ring's core then shows the band's colour, and the table-wide ink check saw two
grey inks on one card (held-out `phone-photo` 98: all 20 cards left unread once a blue disc
clipped in blue read there). Now, between equally whole reads, the surer one wins
(`probe.PROBE_SURE`: symbols read by their vote rather than by a rule for a symbol the vote
left short), and on a tie in that too, the nearer shift (`probe.PROBE_SHIFTS`, nearest first).
The crafted card is drawn with plain cv2 (tests/vision/crafted.py)"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision import probe as probe_mod
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.probe import probe
from companion.vision.reader_params import ReaderParams
from companion.vision.symbol_samples import CardRead, Pose
from companion.vision.symbols import read_cards

from . import heldout
from .crafted import draw_card, texture

PPM = 2.0                           # px per mm: a card about 128 px wide
A = HEXEL_FACE.apothem_mm * PPM     # its apothem in px
CARD = np.array([200.0, 200.0])     # where it lies


@pytest.mark.parametrize("surface", ["white", "wood", "felt"])
def test_a_card_predicted_at_its_place_is_kept_there(surface: str) -> None:
    img = texture(surface, (400, 400), np.random.default_rng(5))
    draw_card(img, CARD, "RBVRBV", "holodex", PPM)
    img = cv2.GaussianBlur(img, (5, 5), 0)
    view, model = TableView(), builtin_model("holodex")
    pose = Pose((float(CARD[0]), float(CARD[1])), A, 0.0, 1, ((1.0, 0.0), (0.0, 1.0)))
    (first,) = read_cards(img, [pose], view, model)
    assert first.symbols == "RBVRBV"
    # (the tie: a pose shifted 0.08 apothem reads as whole, and as surely)
    shifted = Pose((float(CARD[0] - 0.08 * A), float(CARD[1])), A, 0.0, 1, pose.shape)
    (r,) = read_cards(img, [shifted], view, model)
    assert probe_mod.probe_score(r) == probe_mod.probe_score(first)
    cells, poses, reads = probe(img, {(0, 0): pose}, [first], view, model, ReaderParams())
    assert cells == [(0, 0)] and reads[0].symbols == "RBVRBV"
    assert np.hypot(*(np.asarray(poses[0].centre) - CARD)) < 0.04 * A, poses[0].centre


def test_between_equally_whole_reads_the_surer_scores_higher() -> None:
    # one paper or band place (of 18) or one symbol outweighs any difference in confidence
    sure = CardRead("RBVRBV", (1.0,) * 6, 1.0, 1.0, True, (200.0, 200.0, 200.0))
    unsure = replace(sure, edge_confidence=(1.0, 1.0, 0.5, 1.0, 1.0, 0.5))
    assert probe_mod.probe_score(sure) > probe_mod.probe_score(unsure)
    less_paper = replace(sure, paper_ok=17 / 18)
    assert probe_mod.probe_score(replace(unsure, edge_confidence=(0.0,) * 6)) > \
        probe_mod.probe_score(less_paper)
    assert probe_mod.probe_score(replace(unsure, border_ok=1.0)) > \
        probe_mod.probe_score(replace(sure, border_ok=17 / 18))


def test_the_shifts_are_tried_nearest_first() -> None:
    shifts = [np.hypot(dx, dy) for dx, dy, _, _ in probe_mod.PROBE_SHIFTS]
    assert shifts == sorted(shifts) and shifts[0] == 0.0 and len(shifts) == 9


def test_held_out_phone_photo_98_is_read_whole() -> None:
    scene = heldout.heldout_scene(98, variant=heldout.VARIANTS["phone-photo"])
    score, obs = heldout.scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    assert score.correct == score.full == 20, (score, obs.notes)
