"""An ink no letter names (`vision.unnamed_ink`): a pale print in dim light leaves one ink's
symbols unread on every card, and the reader says why (the cards are not under a hand) instead
of leaving the referee waiting for a clear view that never comes. Crafted symbol cores first
(paper-normalised RGB), then cards under an arm. (A held-out office print photographed in a dim
room, whose faint blue is learned and read where it shows plainly and told where it does not:
`test_faint_ink.py`.)"""

from __future__ import annotations

import numpy as np
import pytest

from companion.referee.proposal import unclear
from companion.vision.unnamed_ink import unnamed_ink

RED = (0.80, 0.25, 0.25)
DULL_VIOLET = (0.60, 0.55, 0.68)   # a pale blue whose colour the phone blurred into the paper
PALE_GREY = (0.90, 0.90, 0.91)     # a symbol washed nearly to the paper
DARK_GREY = (0.40, 0.40, 0.41)     # a symbol in deep shade, or a grey pen over it
NAMED = {"R": 12, "B": 0, "Y": 5}  # the letters read on the table: no blue among them


def _table(unread: list[list[tuple[float, float, float]]]) -> tuple[np.ndarray, list[str]]:
    """Cards (cores x 3, reads) whose first symbols are unread with the colours given per
    card, the rest red and read R."""
    cores, read = [], []
    for colours in unread:
        k = len(colours)
        cores.append(list(colours) + [RED] * (6 - k))
        read.append("?" * k + "R" * (6 - k))
    return np.array(cores, np.float64), read


def _jitter(colour: tuple[float, float, float], i: int) -> tuple[float, float, float]:
    return tuple(v + 0.01 * ((i * 7 + j * 3) % 5 - 2) for j, v in enumerate(colour))


def test_one_ink_unread_on_three_cards_is_told():
    cores, read = _table([[_jitter(DULL_VIOLET, i + 2 * c) for i in range(2)]
                          for c in range(3)] + [[]])
    assert unnamed_ink(cores, read, NAMED) == 3


def test_two_cards_are_not_enough():
    """A fingertip, a glare spot or a sleeve's sheen can leave two cards' symbols unread."""
    cores, read = _table([[_jitter(DULL_VIOLET, i + 3 * c) for i in range(3)]
                          for c in range(2)] + [[], []])
    assert unnamed_ink(cores, read, NAMED) == 0


@pytest.mark.parametrize("colour", [PALE_GREY, DARK_GREY])
def test_symbols_without_colour_show_no_ink(colour):
    """Washed to the paper or darkened without a hue: no ink to learn (a grey ring is read by
    its darkness, and a washed symbol by nothing)."""
    cores, read = _table([[colour, colour] for _ in range(4)])
    assert unnamed_ink(cores, read, NAMED) == 0


def test_symbols_of_many_hues_are_not_one_ink():
    """Things over symbols (skin, a green pen, a blue sleeve) differ in hue: no one ink."""
    hues = [(0.85, 0.62, 0.50), (0.45, 0.75, 0.45), (0.45, 0.50, 0.85),
            (0.80, 0.80, 0.45), (0.50, 0.80, 0.80), (0.85, 0.45, 0.75)]
    cores, read = _table([hues[2 * c:2 * c + 2] for c in range(3)])
    assert unnamed_ink(cores, read, NAMED) == 0


def test_an_ink_the_table_reads_elsewhere_is_not_unnamed():
    """Where every letter is read on the table more often than the unread symbols show one
    hue, those are no ink of the print's left unnamed: a warm lamp's tint bled into blurred
    grey rings on small cards, say, with rings read on the other cards."""
    cores, read = _table([[_jitter(DULL_VIOLET, i + 2 * c) for i in range(2)]
                          for c in range(3)] + [[]])
    assert unnamed_ink(cores, read, {"R": 12, "B": 7, "Y": 6}) == 0
    assert unnamed_ink(cores, read, {"R": 12, "B": 5, "Y": 6}) == 3


def test_crossed_symbols_do_not_count():
    """A symbol with something across the card's edge onto it (`CardRead.crossed`) is unread
    for that, not for its ink."""
    cores, read = _table([[_jitter(DULL_VIOLET, i + 2 * c) for i in range(2)]
                          for c in range(3)])
    crossed = [(True, False, False, False, False, False)] * 3
    assert unnamed_ink(cores, read, NAMED, crossed) == 0
    assert unnamed_ink(cores, read, NAMED, [(False,) * 6] * 3) == 3


def test_cards_under_an_arm_are_not_taken_for_an_unnamed_ink():
    """Never-seen hard 13937: the cards left unread lie partly under two arms (the truth counts
    them covered), the skin over their symbols of one colour. Their paper and border band are
    not all there, so theirs is no print's ink left unnamed, and the referee waits for the arms
    as before (the table was told an unnamed ink when the cards' first reads, at their own
    poses, were looked at)."""
    from .hexel_scenes import read_hard

    _image, _truth, _reader, res = read_hard(13937, "web")
    obs = res.observation
    assert any(c.occluded for c in obs.cards) and obs.unnamed_ink == 0, obs.notes
    p = unclear(obs)
    assert p is not None and p.kind == "wait", p
