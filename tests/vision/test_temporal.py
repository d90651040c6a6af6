"""The temporal filter: a card counts once stable; a hand passing over changes nothing."""

from __future__ import annotations

import pytest

from companion.vision.observation import (
    HexelObservation,
    SeenCard,
    ink_doubt_note,
    no_disc_note,
    no_ring_note,
    unnamed_ink_note,
)
from companion.vision.temporal import StableFilter


def obs(*cards, t=0.0):
    return HexelObservation(tuple(cards), True, t)


A = SeenCard((0, 0), "RRRBBB", 0.99, False, (100.0, 100.0))
B = SeenCard((1, 0), "RBRBRB", 0.99, False, (166.0, 100.0))
B_HIDDEN = SeenCard((1, 0), "R??B??", 0.1, True, (166.0, 100.0))
C = SeenCard((0, 1), "VVVVVV", 0.99, False, (133.0, 157.0))


def test_a_table_counts_only_after_it_was_stable():
    f = StableFilter(stable_s=1.0)
    assert f.update(obs(A, B), 0.0) is None
    assert f.update(obs(A, B), 0.5) is None
    stable = f.update(obs(A, B), 1.0)
    assert stable is not None and len(stable.cards) == 2


def test_a_new_card_counts_after_the_stable_time():
    f = StableFilter(stable_s=1.0)
    for t in (0.0, 1.0):
        f.update(obs(A, B), t)
    assert len(f.update(obs(A, B, C), 1.5).cards) == 2
    assert len(f.update(obs(A, B, C), 2.2).cards) == 2
    assert len(f.update(obs(A, B, C), 2.5).cards) == 3


def test_a_hand_passing_over_the_table_changes_nothing():
    f = StableFilter(stable_s=0.5)
    for t in (0.0, 0.6):
        f.update(obs(A, B), t)
    before = f.stable
    # the hand hides B for a while, then covers A completely, then leaves
    for i, frame in enumerate([obs(A, B_HIDDEN), obs(A, B_HIDDEN), obs(B_HIDDEN), obs(B_HIDDEN),
                               obs(B_HIDDEN), obs(A, B_HIDDEN)]):
        stable = f.update(frame, 1.0 + 0.3 * i)
        assert [c.symbols for c in stable.cards] == [c.symbols for c in before.cards]
    assert [c.symbols for c in f.update(obs(A, B), 3.0).cards] == ["RRRBBB", "RBRBRB"]


def test_a_single_misread_frame_is_ignored():
    f = StableFilter(stable_s=0.5)
    for t in (0.0, 0.6):
        f.update(obs(A, B), t)
    wrong = SeenCard((1, 0), "RBRBRR", 0.9, False, (166.0, 100.0))
    assert f.update(obs(A, wrong), 0.7).cards[1].symbols == "RBRBRB"
    assert f.update(obs(A, B), 0.8).cards[1].symbols == "RBRBRB"
    assert f.update(obs(A, wrong), 1.4).cards[1].symbols == "RBRBRB"


def test_negative_time_is_refused():
    with pytest.raises(ValueError):
        StableFilter(-1.0)


def test_cards_left_unread_for_the_print_s_inks_are_no_hand():
    """The reader leaves a letter unread on every card when the print shows it for two inks
    (`HexelObservation.ink_doubt`): such a frame is the table as it is, not a hand passing, so
    it becomes the stable table, doubt and all (the referee then asks for the colours)."""
    f = StableFilter(stable_s=0.5)
    for t in (0.0, 0.6):
        f.update(obs(A, B), t)
    a_in_doubt = SeenCard((0, 0), "???BBB", 0.0, True, (100.0, 100.0))
    b_in_doubt = SeenCard((1, 0), "?B?B?B", 0.0, True, (166.0, 100.0))
    doubt = HexelObservation((a_in_doubt, b_in_doubt), True, 0.0, notes=(ink_doubt_note("R"),),
                             ink_doubt="R")
    assert f.update(doubt, 0.7).cards == (A, B)
    stable = f.update(doubt, 1.3)
    assert stable.cards == (a_in_doubt, b_in_doubt) and stable.ink_doubt == "R"
    hidden = HexelObservation((A, B_HIDDEN), True, 0.0)   # a hand, as before: ignored
    assert f.update(hidden, 2.0).cards == (a_in_doubt, b_in_doubt)


@pytest.mark.parametrize("flag, note", [("unnamed_ink", unnamed_ink_note(2)),
                                        ("no_ring", no_ring_note(4)),
                                        ("no_disc", no_disc_note(1))])
def test_cards_left_unread_for_the_light_are_no_hand(flag, note):
    """A pale print in dim light leaves an ink no letter names (`HexelObservation.unnamed_ink`),
    or its blue discs read as the grey ring though their shape shows a disc
    (`HexelObservation.no_ring`), or a grey ring tinted by the light reads as a disc though its
    shape shows the hole (`HexelObservation.no_disc`): those symbols are unread on every card
    showing one, for as long as the light stays, so such frames are the table as it is and
    become the stable table (the referee then asks for light or the colours); a hand over a
    card is still ignored."""
    f = StableFilter(stable_s=0.5)
    for t in (0.0, 0.6):
        f.update(obs(A, B), t)
    a_unnamed = SeenCard((0, 0), "RRR???", 0.0, True, (100.0, 100.0))
    b_unnamed = SeenCard((1, 0), "R?R?R?", 0.0, True, (166.0, 100.0))
    unnamed = HexelObservation((a_unnamed, b_unnamed), True, 0.0, notes=(note,),
                               **{flag: 2})
    assert f.update(unnamed, 0.7).cards == (A, B)
    stable = f.update(unnamed, 1.3)
    assert stable.cards == (a_unnamed, b_unnamed) and getattr(stable, flag) == 2
    hidden = HexelObservation((A, B_HIDDEN), True, 0.0)   # a hand, as before: ignored
    assert f.update(hidden, 2.0).cards == (a_unnamed, b_unnamed)


def test_a_card_apart_counts_only_once_it_has_stayed():
    """A card off the lattice (`HexelObservation.loose`) is part of the table the filter times:
    one showing in a single frame never reaches the stable table (the referee would wait on
    it), one laid apart and left there does, after the stable time, and one taken away goes."""
    from dataclasses import replace

    from companion.vision.observation import LooseCard

    apart = LooseCard("BBBRRR", 0.99, False, (400.0, 300.0))
    f = StableFilter(stable_s=1.0)
    for t in (0.0, 1.0):
        f.update(obs(A, B), t)
    with_apart = replace(obs(A, B), loose=(apart,))
    assert f.update(with_apart, 1.2).loose == ()
    assert f.update(obs(A, B), 1.3).loose == ()
    for t in (1.5, 2.0, 2.4):
        assert f.update(with_apart, t).loose == ()
    assert f.update(with_apart, 2.6).loose == (apart,)
    assert f.update(obs(A, B), 2.8).loose == (apart,)
    assert f.update(obs(A, B), 3.9).loose == ()
