"""One print under one light shows a holodex card's void rings alike: a symbol the vote leaves
unread is the ring where its middle and its band are, colour for colour, those of a ring the
card reads, and its mean colour is far from every symbol the card reads as another letter
(`symbol_decide.twin_ring`). Rendered hard tables 186, 228 and 304 each left one ring '?' (a
lamp tinting the rings brown, its clipped paper setting the one ring aside as a dark red; a
blurred ring short of the vote beside its twin) and are now read exactly; decide-level cards
check each of the rule's conditions, among them a grey coin (as dark in its middle as at its
rim) that matches no ring's hole."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.colour import OTHER, PAPER_K, builtin_model
from companion.vision.symbol_decide import decide
from companion.vision.symbol_samples import N_SYMBOL

from .hexel_scenes import read_hard, scored

R, V = 0, 2                  # holodex letter indices: red disc, grey ring
PAPER = (0.92, 0.9, 0.88)    # a ring's middle, paper-relative RGB
BAND = (0.62, 0.52, 0.45)    # a ring's band tinted brown by a warm lamp
RED = (0.85, 0.3, 0.25)      # a red disc


@pytest.mark.parametrize("seed", [186, 228, 304])
def test_rendered_tables_with_one_ring_left_unread_are_read_exactly(seed):
    _image, truth, _reader, res = read_hard(seed, "holodex")
    s = scored(truth, res.observation.cards)
    assert (s.misreads, s.false_cards) == (0, 0), s
    assert s.correct == s.full, s


def _card(letters: str = "RV?VRV") -> tuple[np.ndarray, ...]:
    """One holodex card's (kind, alpha, dark, samples): R a solid red disc, V a ring read by
    its vote (paper in its 7 middle samples, the grey ink in its 12 band samples), '?' a
    symbol of the ring's colours whose band fits no ink (every band sample unexplained)."""
    kind = np.full((1, 6, N_SYMBOL), PAPER_K, np.int64)
    alpha = np.zeros((1, 6, N_SYMBOL), np.float32)
    dark = np.zeros((1, 6, N_SYMBOL), np.float32)
    samples = np.zeros((1, 6, N_SYMBOL, 3), np.float32)
    for e, ch in enumerate(letters):
        if ch == "R":
            kind[0, e], alpha[0, e], samples[0, e] = R, 0.95, RED
            continue
        samples[0, e, :7], samples[0, e, 7:] = PAPER, BAND
        dark[0, e, 7:] = 0.8
        if ch == "V":
            kind[0, e, 7:], alpha[0, e, 7:] = V, 0.9
        else:
            kind[0, e, 7:] = OTHER
    return kind, alpha, dark, samples


def _decide(kind, alpha, dark, samples, judged: bool = True) -> str:
    one = np.ones(1, bool)
    return decide(kind, alpha, dark, builtin_model("holodex"), np.zeros((1, 6), np.float32),
                  None, None, None, None, None, None, None,
                  (samples, one, np.full(1, judged)))[0][0]


def test_a_symbol_of_its_twin_rings_colours_is_the_ring():
    assert _decide(*_card()) == "RVVVRV"


def test_a_grey_coin_dark_in_its_middle_is_no_ring():
    """A coin of the band's grey lies over the symbol: its middle is no paper hole."""
    kind, alpha, dark, samples = _card()
    samples[0, 2, :7] = BAND
    assert _decide(kind, alpha, dark, samples)[2] == "?"


@pytest.mark.parametrize("part", [slice(0, 7), slice(7, N_SYMBOL)])
def test_a_middle_or_band_off_its_twins_is_not_read(part):
    """0.15 off in blue: another light, or something lying over it."""
    kind, alpha, dark, samples = _card()
    samples[0, 2, part, 2] -= 0.15
    assert _decide(kind, alpha, dark, samples)[2] == "?"


def test_a_card_not_judged_so_is_not():
    """A card whose paper is not paper nearly all round (a pose off its card), or a re-read."""
    assert _decide(*_card(), judged=False) == "RV?VRV"


def test_without_a_read_ring_it_is_not_read():
    assert _decide(*_card("RR?RRR")) == "RR?RRR"


def test_a_card_reading_few_letters_is_not_judged_so():
    kind, alpha, dark, samples = _card("?V?V??")
    assert _decide(kind, alpha, dark, samples) == "?V?V??"


def test_a_mean_near_a_symbol_of_another_letter_is_not_read():
    """A red disc on the card as pale as the ring's colours: the light does not tell them apart
    there."""
    kind, alpha, dark, samples = _card()
    samples[0, 0] = np.mean(samples[0, 2], axis=0)
    assert _decide(kind, alpha, dark, samples)[2] == "?"
