"""Seven Card Comet rules (RULES.md C1-C4) on positions worked out by hand."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

from companion.rules.comet import (
    GAME,
    CometOptions,
    check_set,
    deck_document,
    load_deck,
    score_lines,
    score_values,
    standard_deck,
)
from companion.rules.comet.game import (
    BeginRound,
    CallTail,
    CardNotInHand,
    Deal,
    EndTurn,
    MatchOver,
    PlaySet,
    PotRevealed,
    PotUnavailable,
    Reserve,
    Shuffle,
    SkipTail,
    Stop,
    pot,
)
from companion.rules.core import IllegalAction, MalformedMessage, WrongSeat
from companion.rules.ledger import InsufficientChips

DECK_FILE = Path(__file__).resolve().parents[2] / "models" / "comet-deck.json"


def card(text: str):
    a, b, c = (int(v) for v in text.split("-"))
    return (a, b, c)


def cards(*texts: str):
    return tuple(card(t) for t in texts)


# --------------------------------------------------------------------------------------------
# C1 score lines


@pytest.mark.parametrize(("values", "total"), [
    ([2, 4, 5, 5, 5, 9, 9, 9, 10], 42),
    ([3, 4, 5, 6, 6, 6, 8, 11, 13], 75),
    ([14, 2, 2, 3, 5, 9, 10, 10, 11], 72),
    ([2, 3, 4, 5, 6, 9, 9, 9], 63),
    ([4, 12, 13, 13, 13, 14], 156),
    ([2, 2, 6, 7, 8, 9, 11, 12, 13], 81),
])
def test_c1_seed_checks(values, total):
    assert score_values(values) == total


def test_c1_lines_of_the_seed_examples():
    assert [(x.values, x.worth, x.count) for x in score_lines([3, 4, 5, 6, 6, 6, 8, 11, 13])] == [
        ((6, 6, 6), 18, 1), ((3, 4, 5), 12, 1), ((4, 5, 6), 15, 3)]
    assert [(x.values, x.count) for x in score_lines([14, 2, 2, 3, 5, 9, 10, 10, 11])] == [
        ((1, 2, 3), 2), ((9, 10, 11), 2)]


def test_c1_ace_is_1_or_14_but_never_wraps():
    assert score_values([14, 2, 3]) == 6          # 1-2-3
    assert score_values([12, 13, 14]) == 39       # 12-13-14
    assert score_values([14, 14, 14]) == 42       # three Aces are 14+14+14
    assert score_values([13, 14, 2]) == 0         # no 13-1-2
    assert score_values([14, 2, 3, 12, 13]) == 6 + 39  # one Ace in both lines


def test_c1_every_combination_of_instances_counts():
    assert score_values([5, 5, 5, 5]) == 4 * 15             # C(4,3) lines of 5-5-5
    assert score_values([4, 4, 5, 5, 6, 6]) == 8 * 15       # 2*2*2 lines of 4-5-6
    assert score_values([7, 8]) == 0


def test_c1_sets_and_validity():
    check_set(cards("2-3-5", "4-6-9"))
    check_set(cards("2-3-5", "4-6-9", "7-8-10"))
    check_set(cards("12-12-12"))                          # a lone Triple (option on)
    with pytest.raises(MalformedMessage, match="lone Triple"):
        check_set(cards("2-3-5"))
    with pytest.raises(MalformedMessage):
        check_set(cards("12-12-12"), single_triple_set=False)
    with pytest.raises(MalformedMessage):
        check_set(cards("2-3-5", "4-6-9", "7-8-10", "8-9-11"))
    assert score_values([2, 10, 13, 5, 8, 12]) == 0          # invalid: no line


def test_c1_deck_is_derived_and_shipped():
    deck = standard_deck()
    assert len(deck) == 123 and len(set(deck)) == 123
    assert [c for c in deck if len(set(c)) < 3] == [(12, 12, 12), (13, 13, 13), (14, 14, 14)]
    assert [c for c in deck if score_values(c) and len(set(c)) == 3] == []
    counts = Counter(v for c in deck for v in c)
    assert all(27 <= counts[v] <= 30 for v in range(2, 15))
    assert load_deck(DECK_FILE) == deck
    assert json.loads(DECK_FILE.read_text()) == deck_document()


@pytest.mark.parametrize("values", [
    [2, 4, 5, 5, 5, 9, 9, 9, 10], [3, 4, 5, 6, 6, 6, 8, 11, 13], [14, 2, 2, 3, 5, 9, 10, 10, 11],
    [4, 12, 13, 13, 13, 14], [2, 2, 6, 7, 8, 9, 11, 12, 13],
])
def test_c1_every_seed_example_can_be_dealt_from_the_deck(values):
    want = Counter(values)
    fits = [c for c in standard_deck() if not Counter(c) - want]
    assert any(Counter(v for c in combo for v in c) == want
               for combo in itertools.combinations(fits, len(values) // 3))


# --------------------------------------------------------------------------------------------
# C2 pots, antes, deals, turns, reveal


R1_HANDS = (
    cards("12-12-12", "2-10-13", "5-8-12", "9-10-12", "9-10-13", "9-10-14", "11-12-14"),
    cards("2-3-5", "4-6-9", "7-8-10", "8-9-11", "10-11-13", "3-7-13", "5-6-8"),
    cards("2-3-6", "4-5-9", "6-7-9", "6-7-10", "6-7-11", "7-8-11", "7-8-12"),
)


def round_one(**kw):
    """Three seats, 1500 chips each, dealer seat 0: antes paid, R1_HANDS dealt."""
    s = GAME.initial_state(CometOptions(seats=3, **kw))
    s, _ = GAME.apply(s, BeginRound())
    s, _ = GAME.apply(s, SkipTail(0))
    s, _ = GAME.apply(s, Deal(R1_HANDS))
    return s


def test_c2_ante_fills_six_pots_and_the_tail():
    s = round_one()
    assert [s.chips(i) for i in range(3)] == [1200, 1200, 1200]
    assert [s.ledger[pot(p)] for p in s.options.pots] == [75] * 6
    assert s.ledger[pot("Tail")] == 450


def test_c2_turns_go_from_the_dealers_left_and_reveal_splits_ties():
    round_one_revealed()


def round_one_revealed():
    """Round one played by hand (the C2 test); returns the state between rounds."""
    s = round_one()
    assert s.to_play == 1
    with pytest.raises(WrongSeat):
        GAME.apply(s, EndTurn(0))
    # Seat 1: 2,3,4,5,6,9 -> 2-3-4 (9) + 3-4-5 (12) + 4-5-6 (15) = 36 against Desten.
    s, _ = GAME.apply(s, PlaySet(1, "Desten", cards("2-3-5", "4-6-9")))
    with pytest.raises(PotUnavailable):  # one set per pot
        GAME.apply(s, PlaySet(1, "Desten", cards("7-8-10", "8-9-11")))
    with pytest.raises(CardNotInHand):
        GAME.apply(s, PlaySet(1, "Kinro", cards("2-3-5", "7-8-10")))
    s, _ = GAME.apply(s, Reserve(1, card("5-6-8")))
    with pytest.raises(IllegalAction, match="one card"):
        GAME.apply(s, Reserve(1, card("7-8-10")))
    s, _ = GAME.apply(s, EndTurn(1))
    # Seat 2: the same values, 36, against Desten: a tie.
    s, _ = GAME.apply(s, PlaySet(2, "Desten", cards("2-3-6", "4-5-9")))
    s, _ = GAME.apply(s, EndTurn(2))
    # Seat 0 (the dealer, last): a lone Triple Princess (36) on Kinro, an invalid set on Nivek.
    s, _ = GAME.apply(s, PlaySet(0, "Kinro", cards("12-12-12")))
    s, _ = GAME.apply(s, PlaySet(0, "Nivek", cards("2-10-13", "5-8-12")))
    s, events = GAME.apply(s, EndTurn(0))
    reveal = {e.pot: e for e in events if isinstance(e, PotRevealed)}
    assert (reveal["Desten"].winners, reveal["Desten"].each, reveal["Desten"].left) == (
        (1, 2), 37, 1)  # 75 split two ways, the odd chip stays
    assert (reveal["Kinro"].winners, reveal["Kinro"].each) == ((0,), 75)
    assert (reveal["Nivek"].winners, reveal["Nivek"].left) == ((), 75)  # invalid set: kept
    assert [s.chips(i) for i in range(3)] == [1275, 1237, 1237]
    assert s.ledger.total == 4500
    assert s.bonus == (1, 1, 1) and s.reserves[1] == cards("5-6-8")
    assert s.phase == "between"
    return s


def test_c2_dealer_moves_right_and_bonus_cards_are_dealt():
    s = round_one_revealed()
    s, _ = GAME.apply(s, BeginRound())
    assert s.dealer == 2 and s.round == 2  # right of seat 0 among 3 seats
    assert [s.chips(i) for i in range(3)] == [1275, 1237, 1237]  # no ante: not all have dealt
    s, _ = GAME.apply(s, SkipTail(2))
    s, _ = GAME.apply(s, Shuffle(7))
    assert [len(h) for h in s.hands] == [8, 8, 8]  # 7 + 1 pot won each
    assert card("5-6-8") not in [c for h in s.hands for c in h]  # the reserve stays aside
    assert s.to_play == 0  # dealer 2's left


def test_c2_bonus_per_valid_set_counts_lost_valid_sets():
    for bonus_per, expected in (("pot_won", (1, 0)), ("valid_set", (1, 1))):
        s = GAME.initial_state(CometOptions(seats=2, bonus_per=bonus_per))
        s, _ = GAME.apply(s, BeginRound())
        s, _ = GAME.apply(s, SkipTail(0))
        s, _ = GAME.apply(s, Deal((R1_HANDS[0], R1_HANDS[1])))
        s, _ = GAME.apply(s, PlaySet(1, "Vain", cards("2-3-5", "4-6-9")))  # 36
        s, _ = GAME.apply(s, EndTurn(1))
        s, _ = GAME.apply(s, PlaySet(0, "Vain", cards("9-10-12", "9-10-13", "11-12-14")))
        # Seat 0: 9,9,10,10,11,12,12,13,14: 9-10-11 x4 (30), 10-11-12 x4 (33), 11-12-13 x2
        # (36), 12-13-14 x2 (39) = 120 + 132 + 72 + 78 = 402 beats 36.
        s, events = GAME.apply(s, EndTurn(0))
        vain = next(e for e in events if isinstance(e, PotRevealed) and e.pot == "Vain")
        assert vain.scores == ((0, 402), (1, 36)) and vain.winners == (0,)
        assert s.bonus == expected


def test_c2_ante_schedule_and_option():
    s = GAME.initial_state(CometOptions(seats=2, rounds=4))
    paid = []
    for _ in range(4):
        before = s.chips(0)
        s, _ = GAME.apply(s, BeginRound())
        paid.append(before - s.chips(0))
        s, _ = GAME.apply(s, SkipTail(s.dealer))
        s, _ = GAME.apply(s, Shuffle(1))
        s, _ = GAME.apply(s, EndTurn(s.to_play))
        s, _ = GAME.apply(s, EndTurn(s.to_play))
    assert paid == [300, 0, 300, 0]  # due again once both seats have dealt
    assert s.phase == "over" and s.end == "rounds"
    every = GAME.initial_state(CometOptions(seats=2, ante_every_round=True))
    every, _ = GAME.apply(every, BeginRound())
    for action in (SkipTail(0), Shuffle(1), EndTurn(1), EndTurn(0), BeginRound()):
        every, _ = GAME.apply(every, action)
    assert every.chips(0) == 900


def test_c2_a_seat_that_cannot_pay_the_ante_is_out():
    s = GAME.initial_state(CometOptions(seats=3, chips=(1500, 1500, 299), dealer=2))
    s, _ = GAME.apply(s, BeginRound())
    assert s.out == {2} and s.dealer == 1  # the button moves on to the right
    assert s.chips(2) == 299 and s.ledger.total == 3299
    duo = GAME.initial_state(CometOptions(seats=2, chips=(1500, 299)))
    duo, events = GAME.apply(duo, BeginRound())
    assert duo.phase == "over" and events[-1] == MatchOver("last_standing", (1200, 299))


# --------------------------------------------------------------------------------------------
# C3 the Tail


def test_c3_tail_round():
    tail_round_revealed()


def tail_round_revealed():
    """Round two, a Tail round called by seat 2 (the C3 test); returns the state after it."""
    s = round_one_revealed()
    s, _ = GAME.apply(s, BeginRound())  # dealer seat 2
    with pytest.raises(WrongSeat):
        GAME.apply(s, CallTail(0))
    s, _ = GAME.apply(s, CallTail(2))
    assert s.chips(2) == 637 and s.ledger[pot("Tail")] == 450 + 600
    with pytest.raises(IllegalAction, match="due 6 cards"):  # 7 minus one reserve, no bonus
        GAME.apply(s, Deal((cards(*["2-3-5"] * 7), (), ())))
    hands = (
        cards("13-13-13", "14-14-14", "2-3-5", "2-3-6", "2-3-7", "2-3-10", "2-3-11"),
        cards("4-7-9", "12-12-12", "3-4-6", "3-4-7", "3-4-8", "3-4-11"),
        cards("4-5-7", "4-5-8", "4-5-9", "4-5-12", "4-5-13", "4-6-9", "4-6-14"),
    )
    s, _ = GAME.apply(s, Deal(hands))
    assert len(s.hands[1]) == 7 and card("5-6-8") in s.hands[1] and s.reserves[1] == ()
    s, _ = GAME.apply(s, PlaySet(0, "Tail", cards("13-13-13")))        # 39
    s, _ = GAME.apply(s, PlaySet(0, "Tail", cards("14-14-14")))        # 42 -> 81
    with pytest.raises(PotUnavailable, match="only the Tail"):
        GAME.apply(s, PlaySet(0, "Kinro", cards("2-3-5", "2-3-6")))
    s, _ = GAME.apply(s, EndTurn(0))
    # 4,5,6,7,8,9: 4-5-6 + 5-6-7 + 6-7-8 + 7-8-9 = 15+18+21+24 = 78, plus Triple Princess 36.
    s, _ = GAME.apply(s, PlaySet(1, "Tail", cards("4-7-9", "5-6-8")))
    s, _ = GAME.apply(s, PlaySet(1, "Tail", cards("12-12-12")))
    s, _ = GAME.apply(s, EndTurn(1))
    s, events = GAME.apply(s, EndTurn(2))
    (tail,) = [e for e in events if isinstance(e, PotRevealed)]
    assert tail.scores == ((0, 81), (1, 114)) and tail.winners == (1,) and tail.each == 1050
    assert s.chips(1) == 1237 + 1050 and s.bonus == (0, 0, 0)
    return s


def test_c3_tail_call_needs_600_chips():
    s = GAME.initial_state(CometOptions(seats=2, chips=(899, 1500)))
    s, _ = GAME.apply(s, BeginRound())
    assert GAME.legal_actions(s) == [SkipTail(0)]
    with pytest.raises(InsufficientChips):
        GAME.apply(s, CallTail(0))


# --------------------------------------------------------------------------------------------
# C4 end


def test_c4_stop_only_after_everyone_dealt():
    s = tail_round_revealed()  # seats 0 and 2 have dealt
    with pytest.raises(IllegalAction, match="Seat 2"):
        GAME.apply(s, Stop())
    s, _ = GAME.apply(s, BeginRound())
    assert s.dealer == 1 and s.chips(0) == 1275  # still no ante
    for action in (SkipTail(1), Shuffle(3), EndTurn(2), EndTurn(0), EndTurn(1)):
        s, _ = GAME.apply(s, action)
    assert Stop() in GAME.legal_actions(s)
    s, events = GAME.apply(s, Stop())
    assert events == (MatchOver("stopped", (1275, 2287, 637)),)
