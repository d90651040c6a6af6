"""A phone's saturation boost and tone curve clip a saturated red disc's red channel and crush its
green: the disc reads darker than red ink allows, and one sample of its core may fall just off
the ink's line, unexplained. On a card whose paper clipped, a coloured reading darker than its
ink is left '?' when it is weak or hollow — a grey ring tinted by the lamp, whose middle is
paper (`symbol_decide.darker_than_allowed`). One unexplained sample in a full-strength core is
no hole: the middle's ink is measured over the samples a colour explains when only one is not
(`_middle_ink`). A ring's paper hole, or two unexplained samples in the middle, still count
as hollow. Decide-level symbols check each case; held-out phone pictures in portrait (`portrait`,
tables 60 and 92, each with red discs left '?' so) read exactly."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.colour import OTHER, PAPER_K, builtin_model
from companion.vision.symbol_decide import decide

from .heldout import VARIANTS, heldout_scene, scored

CLIPPED = np.array([True])


def _red_card(dark: float = 0.87) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One holodex card of six red discs at full strength (kind, alpha, dark; 1 x 6 x 19),
    each `dark` in every sample: darker than red ink allows (its grey-ink fraction ~0.7)."""
    kind = np.zeros((1, 6, 19), np.int64)   # the holodex model's letters: R, B, V
    return kind, np.ones((1, 6, 19), np.float32), np.full((1, 6, 19), dark, np.float32)


def _decide(kind: np.ndarray, alpha: np.ndarray, dark: np.ndarray) -> str:
    return decide(kind, alpha, dark, builtin_model("holodex"), paper_clipped=CLIPPED)[0][0]


def test_a_full_strength_dark_red_disc_reads_where_the_paper_clipped():
    assert _decide(*_red_card()) == "RRRRRR"


@pytest.mark.parametrize("where", [0, 3, 6])
def test_one_unexplained_sample_in_its_core_is_no_hole(where):
    kind, alpha, dark = _red_card()
    kind[0, 1, where] = OTHER
    alpha[0, 1, where] = 0.0
    assert _decide(kind, alpha, dark) == "RRRRRR"


def test_two_unexplained_samples_in_its_core_still_make_it_hollow():
    kind, alpha, dark = _red_card()
    kind[0, 1, [0, 3]] = OTHER
    alpha[0, 1, [0, 3]] = 0.0
    assert _decide(kind, alpha, dark) == "R?RRRR"


def test_a_ring_of_dark_red_around_paper_stays_unread():
    # (a grey ring tinted red by a clipped warm lamp: its hole is paper, a colour explains it;
    # one unexplained sample beside the hole changes nothing)
    kind, alpha, dark = _red_card()
    kind[0, 1, 1:7] = PAPER_K
    alpha[0, 1, 1:7] = 0.0
    dark[0, 1, 1:7] = 0.05
    kind[0, 1, 0] = OTHER
    alpha[0, 1, 0] = 0.0
    assert _decide(kind, alpha, dark)[1] == "?"


def test_only_where_the_paper_clipped_is_darkness_judged():
    kind, alpha, dark = _red_card()
    kind[0, 1, [0, 3]] = OTHER
    alpha[0, 1, [0, 3]] = 0.0
    got = decide(kind, alpha, dark, builtin_model("holodex"), paper_clipped=np.array([False]))
    assert got[0][0] == "RRRRRR"


@pytest.mark.parametrize("seed", [60, 92])
def test_held_out_portrait_phone_pictures_are_read_exactly(seed):
    scene = heldout_scene(seed, variant=VARIANTS["portrait"])
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth), s
