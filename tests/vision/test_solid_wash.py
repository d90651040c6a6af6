"""A solid print washed pale (`symbol_decide.solid_wash`): on a card whose paper clipped, a weak
coloured reading darker than its ink allows, or than its twin, is taken for a grey ring's
blends tinted by the clipped white and left '?' (`darker_than_allowed`, `_outshone`). A glossy
sleeve's sheen washes a red disc to pink over the clip the same way, but a ring's blends are
hollow, paper in the middle, while the washed disc is ink right through: every middle sample
its ink, no weaker than the ring of samples round it. Such a reading is not set aside so where
a ring on its card reads with its hole open: blur fills a ring's middle too
(tests/vision/test_symbol_clip2.py: blurred rings beside a blue disc never read blue)."""

from __future__ import annotations

import math

import numpy as np

import companion.vision.symbol_decide as symbol_decide
from companion.vision.colour import OTHER
from companion.vision.symbol_decide import solid_wash

from .heldout import VARIANTS, heldout_scene, scored
from .test_washed_holodex import without_washed_holodex

RED = 0


def _symbol(middle: list[float], outer: float, kinds: list[int] | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One symbol's (own_alpha, kind, best), 1 x 1 x 19: its 7 middle samples' ink fractions
    `middle`, its 12 outer ones `outer`, every sample red unless `kinds` says."""
    own = np.array([[[*middle, *[outer] * 12]]], np.float64)
    kind = np.full((1, 1, 19), RED) if kinds is None else np.array([[kinds]])
    return own, kind, np.array([[RED]])


def test_a_disc_washed_evenly_is_solid():
    assert solid_wash(*_symbol([0.45] * 7, 0.44))[0, 0]
    # (a disc's outer samples meet its blurred edge: weaker than its middle)
    assert solid_wash(*_symbol([0.5] * 7, 0.25))[0, 0]


def test_a_rings_blends_are_not_solid():
    # paper in its middle, its ink round it
    assert not solid_wash(*_symbol([0.0] * 7, 0.45))[0, 0]
    # a blurred ring's middle filled in, but weaker than its band
    assert not solid_wash(*_symbol([0.32] * 7, 0.45))[0, 0]


def test_a_middle_sample_of_no_ink_or_too_faint_is_not_solid():
    kinds = [RED] * 19
    kinds[3] = OTHER
    assert not solid_wash(*_symbol([0.45] * 7, 0.4, kinds))[0, 0]
    assert not solid_wash(*_symbol([0.45, 0.45, 0.2, 0.45, 0.45, 0.45, 0.45], 0.3))[0, 0]


def test_sleeved_red_discs_washed_over_the_clip_read(monkeypatch):
    """Held-out `sleeves` 22: a sheen band across cards whose paper clipped washes their red
    discs pink (peaks 0.48-0.65, 0.07 darker than red's blends); 18 of 20 cards read, none
    misread. Taken for grey rings' blends (no solid wash) three cards with an open ring beside
    them are left unread (a fourth, with no ring to show its blur, is left unread either way).
    (The washed holodex discs read by their shape and hue, `washed_holodex`, read those three
    too, and the fourth: this test of the solid wash leaves them out.)"""
    scene = heldout_scene(22, variant=VARIANTS["sleeves"])
    score, _ = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    assert score.correct >= 18, score
    without_washed_holodex(monkeypatch)
    alone, _ = scored(scene)
    assert alone.correct >= 18 and alone.misreads == 0, alone
    monkeypatch.setattr(symbol_decide, "SOLID_WASH_MIN", math.inf)
    before, _ = scored(scene)
    assert before.correct <= alone.correct - 3, (before, alone)
