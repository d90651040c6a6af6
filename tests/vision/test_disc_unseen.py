"""A holodex symbol read as a coloured disc by its colour whose picture shows no disc
(`ring_shape.disc_unseen`): R and B are printed as discs, and a disc is a disc under any blur
its card's other discs share. Held-out `plain-phone` 30054 (sleeves, curl and a phone's optics
on a plain pale table): a grey ring tinted blue by the phone's colour fringes, its samples a
little off its middle, read as a blue disc at confidence 0.68 on a card in full view (BBBRBR for
BVBRBR); its picture matched the disc at 0.31 and the ring at 0.37, too poor a ring for
`disc_contradicted`, while its card's discs matched the disc at 0.63-0.96. The table is
rendered here from its seed; its truth comes from the held-out renderer."""

from __future__ import annotations

import numpy as np

from companion.vision.ring_shape import DISC_KEPT, DISC_SEEN, MIN_HOLE_PX, disc_unseen
from companion.vision.symbol_samples import CardRead

from .heldout import VARIANTS, heldout_scene, scored


def _read(symbols: str) -> CardRead:
    return CardRead(symbols, (1.0,) * 6, 1.0, 1.0, True, (250.0, 250.0, 250.0))


def _scores(disc: list[float], ring: dict[int, float] | None = None) -> np.ndarray:
    """(1 x 6 x 2) correlations: the disc's as given, the ring's 0.3 below it but where `ring`
    gives it (by symbol)."""
    d = np.array(disc, np.float64)
    r = d - 0.3
    for j, v in (ring or {}).items():
        r[j] = v
    return np.stack([d, r], -1)[None]


CONTRAST = np.full((1, 6), 0.4)
HOLES = np.array([MIN_HOLE_PX + 2.0])


def test_a_coloured_reading_that_shows_no_disc_is_unseen():
    disc = [0.63, 0.31, 0.88, 0.96, 0.96, 0.88]
    assert disc_unseen([_read("BBBRBR")], _scores(disc, {1: 0.37}), CONTRAST, "V", HOLES) == [
        (False, True, False, False, False, False)]


def test_a_pale_disc_still_more_a_disc_than_a_ring_is_kept():
    # (a sheen washes a disc pale and its picture matches poorly, but nearer the disc than
    # the ring: held-out `sleeves` 0-99 lost 20 cards in full view when these were unseen too)
    disc = [0.63, 0.31, 0.88, 0.96, 0.96, 0.88]
    assert disc_unseen([_read("BBBRBR")], _scores(disc, {1: 0.25}), CONTRAST, "V", HOLES) == [
        (False,) * 6]


def test_a_card_whose_discs_all_match_poorly_is_not_judged_so():
    # (a blur or a sheen the whole card shares: its discs' median under DISC_KEPT)
    disc = [0.6, 0.31, 0.7, DISC_KEPT - 0.05, 0.75, 0.7]
    assert disc_unseen([_read("BBBRBR")], _scores(disc, {1: 0.37}), CONTRAST, "V", HOLES) == [
        (False,) * 6]


def test_rings_unread_symbols_and_lone_discs_are_not_judged():
    low = DISC_SEEN - 0.2
    # a ring reading, and a symbol already unread, whatever their disc
    disc = [low, low, 0.9, 0.9, 0.9, 0.9]
    assert disc_unseen([_read("V?BRBR")], _scores(disc, {0: 0.9, 1: 0.9}), CONTRAST, "V",
                       HOLES) == [
        (False,) * 6]
    # a card with no other disc seen: its own blur sets how well any disc matches
    assert disc_unseen([_read("BVVVVV")], _scores([low] + [0.9] * 5, {0: 0.9}), CONTRAST,
                       "V", HOLES) == [(False,) * 6]
    # a disc whose picture matches at DISC_SEEN is a disc
    disc = [DISC_SEEN, 0.9, 0.9, 0.9, 0.9, 0.9]
    assert disc_unseen([_read("BBBRBR")], _scores(disc, {0: 0.9}), CONTRAST, "V", HOLES) == [
        (False,) * 6]


def test_a_ring_tinted_blue_by_a_phone_is_not_read_as_a_blue_disc():
    score, _ = scored(heldout_scene(30054, variant=VARIANTS["plain-phone"]))
    assert score.misreads == 0 and score.false_cards == 0, score
    assert score.correct >= 18, score
