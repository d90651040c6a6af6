"""RULES.md H3-H6 on hand-built Hex'el positions: stakes, turns, insurance, busts, rounds, ends.

Layout used by most tests (worked by hand): A = RRRRRR at (0,0); B = BBRRBB at (1,0)
(E=B NE=B NW=R W=R SW=B SE=B). Useful placements:
* RRBBBB at (1,-1) rotation 4 (SW=R, SE=R): 2 edges and a Hox'la (A, B and it meet in red).
* BBBBBB at (2,0): 1 edge (Hexba). * RBBBBB at (0,1) rotation 2 (NW=R, NE=B): 2 edges (Hexel).
* BBBBBB at (2,-1) touches only B's NE (B): 1 edge.
"""

import dataclasses

import pytest

from companion.rules.core import RulesError, WrongPhase, WrongSeat, from_json, replay, to_json
from companion.rules.hexel import GAME, HexelOptions, line_problems
from companion.rules.hexel import game as hx
from companion.rules.hexel.layout import CellDetached, CellOccupied, EdgeMismatch
from companion.rules.ledger import InsufficientChips

from .hexel_positions import position

A = ("RRRRRR", (0, 0), 0)
B = ("BBRRBB", (1, 0), 0)


def play(state, *actions):
    events = []
    for a in actions:
        state, evs = GAME.apply(state, a)
        events.extend(evs)
    return state, events


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


# ---- H3 setup --------------------------------------------------------------------------------

def test_H3_shuffle_lays_a_valid_line_and_deals_three_each_from_the_dealers_left():
    opts = HexelOptions(seats=3, dealer=1)
    state, events = play(GAME.initial_state(opts), hx.Shuffle(42))
    line = of(events, hx.LineLaid)[0]
    assert [p.cell for p in state.layout.placements] == [(0, 0), (1, 0), (2, 0)]
    assert line_problems(line.cards, line.rotations) == []
    assert state.hand_sizes == (3, 3, 3) and len(state.pile) == 36 - 3 - 9
    assert state.phase == "stake"
    # deal order: seat 2 (dealer's left) gets the first card from the pile, then 0, then 1
    again = GAME.initial_state(opts)
    again2, _ = GAME.apply(again, hx.Shuffle(42))
    assert again2 == state  # deterministic by seed
    dealt = of(events, hx.Dealt)[0]
    assert dealt.counts == (3, 3, 3) and dealt.round == 1


def test_H3_deal_order_one_card_at_a_time_from_the_dealers_left():
    pile = tuple(f"{'RBV'[i % 3]}" * 6 for i in range(9))  # any labels: order is what matters
    pile = ("RRRRRR", "BBBBBB", "VVVVVV", "RRRRRB", "RRRRBB", "RRRBBB", "RRRRRV", "RRRRVV",
            "RRRVVV")
    state = position(seats=3, dealer=1, hands=((), (), ()), table=(A,), pile=pile, phase="stake")
    state, _dealt = hx._deal_round(state)
    # seats in deal order 2, 0, 1, 2, 0, 1, ...
    assert state.hands[2] == ("RRRRRR", "RRRRRB", "RRRRRV")
    assert state.hands[0] == ("BBBBBB", "RRRRBB", "RRRRVV")
    assert state.hands[1] == ("VVVVVV", "RRRBBB", "RRRVVV")


def test_H3_lay_line_from_real_cards_is_checked():
    state = GAME.initial_state(HexelOptions(seats=2))
    with pytest.raises(hx.IllegalAction, match="Hox'la"):
        GAME.apply(state, hx.LayLine(("RRRRRR", "BBBBRR", "BBBBBB"), (0, 4, 3)))
    state2, _events = GAME.apply(state, hx.LayLine(("RRRRRR", "BBBBBR", "BRRRRR"), (0, 4, 3)))
    assert not state2.tracked and state2.hands == ((None,) * 3, (None,) * 3)
    assert len(state2.pile) == 36 - 9


def test_H3_no_valid_opening_line_is_refused_with_a_clear_error():
    # four red 6 cards: every rotation shows an all-red vertex next to the line
    state = GAME.initial_state(HexelOptions(seats=1, deck=("RRRRRR",) * 4))
    with pytest.raises(hx.IllegalAction, match="no valid opening line"):
        GAME.apply(state, hx.Shuffle(0))


def test_H1_H3_a_deck_must_leave_a_card_to_play_after_the_opening_line():
    # Three cards that make a valid line in any order leave nothing to deal: the game would
    # wait in its play phase with nobody to play. A deck needs 3 + 1 cards.
    line = ("BBBBBB", "BBBRBR", "BRBRBR")
    with pytest.raises(hx.MalformedMessage, match="at least 4 cards"):
        HexelOptions(seats=2, deck=line)
    # With a fourth card, VVVVVV (no line can hold it, no V on the table), the three make the
    # line whatever the shuffle and VVVVVV goes to the seat left of the dealer, who can only
    # discard; then the cards have run out with nobody having placed (H6: hedges go home).
    for seed in range(4):
        state, events = play(GAME.initial_state(HexelOptions(seats=2, deck=(*line, "VVVVVV"))),
                             hx.Shuffle(seed))
        assert state.hands == ((), ("VVVVVV",))
        state, _ = play(state, hx.Hedge(0, 1), hx.Hedge(1, 2))
        assert GAME.legal_actions(state) == [hx.Discard(1, "VVVVVV")]
        state, events = play(state, hx.Discard(1, "VVVVVV"))
        assert state.phase == "over" and of(events, hx.GameWon)[0].reason == "no_winner"
        assert state.ledger["stock:0"] == 100 and state.ledger["stock:1"] == 100


def test_H3_a_laid_line_with_an_unmatched_edge_or_an_unknown_card_is_refused():
    state = GAME.initial_state(HexelOptions(seats=2))
    with pytest.raises(hx.IllegalAction, match="cards 1 and 2 do not match: R against B"):
        GAME.apply(state, hx.LayLine(("RRRRRR", "BBBBBB", "BRRRRR"), (0, 0, 3)))
    with pytest.raises(hx.CardUnavailable):
        GAME.apply(state, hx.LayLine(("RRRRRR", "RRRRRR", "BRRRRR"), (0, 0, 3)))
    with pytest.raises(hx.MalformedMessage, match="outside RBV"):
        GAME.apply(state, hx.LayLine(("RRRRRR", "BBBBBY", "BRRRRR"), (0, 4, 3)))


def test_H3_shuffle_reports_the_cards_sent_to_the_bottom():
    # whatever the shuffle, the line laid is valid and no card is lost or doubled: the line, the
    # pile and the hands together are the deck
    opts = HexelOptions(seats=2, deck=("RRRRRR", "BBBBBR", "BBBBBB", "VVVVVV", "BRRRRR",
                                       "BBBVVV", "RRRBBB", "RRBBBB", "RBBBBB"))
    for seed in range(5):
        state, events = play(GAME.initial_state(opts), hx.Shuffle(seed))
        line = of(events, hx.LineLaid)[0]
        assert line_problems(line.cards, line.rotations) == []
        everything = [*line.cards, *state.pile, *(c for h in state.hands for c in h)]
        assert sorted(everything) == sorted(opts.cards)


# ---- H4 stake phase --------------------------------------------------------------------------

def test_H4_stake_moves_multiples_of_the_stake_and_play_starts_with_the_dealer():
    state = position(seats=3, stake=3, dealer=2, hands=(("RRRRRR",),) * 3, table=(A, B),
                     phase="stake")
    state = dataclasses.replace(state, hedged=frozenset())
    state, _events = play(state, hx.Hedge(0, 2), hx.Hedge(1, 0))
    assert state.ledger["hedge:0"] == 6 and state.ledger["stock:0"] == 94
    assert state.phase == "stake"
    state, _ = play(state, hx.Hedge(2, 3))
    assert state.phase == "play" and state.to_play == 2
    assert state.ledger["hedge:2"] == 9


def test_H4_stake_larger_than_the_chip_stock_is_refused_and_changes_nothing():
    state = position(seats=2, stake=5, stocks=(12, 100), hands=(("RRRRRR",),) * 2,
                     table=(A, B), phase="stake")
    state = dataclasses.replace(state, hedged=frozenset())
    with pytest.raises(InsufficientChips, match="stake of 15 chips refused: stock:0 holds only 12"):
        GAME.apply(state, hx.Hedge(0, 3))
    assert state.ledger["stock:0"] == 12 and state.hedged == frozenset()
    with pytest.raises(WrongSeat):
        GAME.apply(play(state, hx.Hedge(0, 1))[0], hx.Hedge(0, 1))  # twice in one round


# ---- H4 turns --------------------------------------------------------------------------------

def test_H4_turn_order_is_clockwise_and_skips_seats_that_are_out():
    hands = (("BBBBBB",), ("BBBBBB", "BBBBBB"), ("RRRRRR",), ("BBBBBB",))
    state = position(seats=4, dealer=1, hands=hands, table=(A, B), out=(3,))
    assert state.to_play == 1
    state, _ = play(state, hx.Place(1, "BBBBBB", (2, 0), 0))
    assert state.to_play == 2
    state, _ = play(state, hx.Place(2, "RRRRRR", (0, -1), 0))  # touches only A
    assert state.to_play == 0  # seat 3 is out


def test_H4_wrong_seat_card_not_in_hand_and_bad_cells_are_typed_errors():
    state = position(seats=2, hands=(("BBBBBB", "RBBBBB"), ("RRRRRR",)), table=(A, B))
    cases = [
        (hx.Place(1, "RRRRRR", (0, 1), 0), WrongSeat, "Seat 1's turn"),
        (hx.Place(0, "RRRRRR", (0, 1), 0), hx.CardNotInHand, "does not hold card RRRRRR"),
        (hx.Place(0, "BBBBBB", (0, 1), 0), EdgeMismatch, "NW edge shows B against R"),
        (hx.Place(0, "BBBBBB", (1, 0), 0), CellOccupied, r"\(1, 0\)"),
        (hx.Place(0, "BBBBBB", (4, 4), 0), CellDetached, "touches no card"),
        (hx.Hedge(0, 1), WrongPhase, "play phase"),
        (hx.Place(0, "BBBBBB", (2, 0), 6), hx.MalformedMessage, "rotation"),
    ]
    snapshot = to_json(state.ledger.snapshot()), state.hands, state.layout
    for action, error, message in cases:
        with pytest.raises(error, match=message):
            GAME.apply(state, action)
        assert (to_json(state.ledger.snapshot()), state.hands, state.layout) == snapshot


def test_H4_discard_only_when_no_card_fits_and_it_counts_zero():
    # VVVVVV fits nowhere next to R6 and BBRRBB (every frontier cell needs R or B on an edge)
    state = position(seats=2, hands=(("VVVVVV", "BBBBBB"), ("VVVVVV",)), table=(A, B),
                     hedges=(0, 5), stake=2)
    with pytest.raises(hx.MustPlace):
        GAME.apply(state, hx.Discard(0, "VVVVVV"))
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))  # count 1
    assert GAME.legal_actions(state) == [hx.Discard(1, "VVVVVV")]
    state, events = play(state, hx.Discard(1, "VVVVVV"))
    paid = of(events, hx.InsurancePaid)[0]
    assert (paid.payer, paid.receiver, paid.amount) == (1, 0, 2)  # (1 - 0) x stake 2
    assert state.last_turn == (1, 0) and state.discards == 1


# ---- H4.2 insurance --------------------------------------------------------------------------

def test_H4_2_lower_count_pays_stake_times_difference_into_the_hand_pot_holodex():
    state = position(seats=2, stake=3, hands=(("RBBBBB", "VVVVVV"), ("BBBBBB",)),
                     table=(A, B), hedges=(0, 10))
    state, _ = play(state, hx.Place(0, "RBBBBB", (0, 1), 2))   # Hexel (2)
    state, events = play(state, hx.Place(1, "BBBBBB", (2, 0), 0))  # Hexba (1)
    paid = of(events, hx.InsurancePaid)[0]
    assert (paid.payer, paid.receiver, paid.amount, paid.into) == (1, 0, 3, "hand")
    assert state.ledger["hedge:1"] == 7 and state.ledger["hand:0"] == 3
    assert state.ledger["stock:0"] == 100  # never into the stock in the holodex edition
    assert dict(paid.accounts)["hand:0"] == 3


def test_H4_2_web_edition_pays_into_the_chip_stock():
    state = position(seats=2, stake=3, edition="web", hands=(("RBBBBB",), ("BBBBBB",)),
                     table=(A, B), hedges=(0, 10))
    state, _events = play(state, hx.Place(0, "RBBBBB", (0, 1), 2), hx.Place(1, "BBBBBB", (2, 0), 0))
    assert state.ledger["stock:0"] == 103 and state.ledger["hand:0"] == 0


def test_H4_2_equal_or_higher_count_owes_nothing_and_the_first_turn_owes_nothing():
    state = position(seats=2, hands=(("BBBBBB",), ("RBBBBB",)), table=(A, B), hedges=(5, 5))
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))
    assert not of(events, hx.InsurancePaid)  # first turn of the game
    state, events = play(state, hx.Place(1, "RBBBBB", (0, 1), 2))
    assert not of(events, hx.InsurancePaid)  # 2 >= 1


def test_H4_2_insurance_compares_with_the_last_turn_across_rounds():
    # seat 1 placed a Hexel as the last turn of round 1; seat 0 opens round 2 with a Hexba.
    state = position(seats=2, hands=(("BBBBBB",), ()), table=(A, B), hedges=(4, 0),
                     last_turn=(1, 2), stake=2)
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))
    paid = of(events, hx.InsurancePaid)[0]
    assert (paid.payer, paid.receiver, paid.amount) == (0, 1, 2)


# Three cards around (0,0), no two of them adjacent (so no triangle, no Hox'la), each showing R
# towards (0,0) (worked by hand): RRRRRB k0 at (1,0) (W = R); RRRRBB k2 at (0,-1) shows
# BBRRRR (SE = R); RRRBBB k0 at (-1,1) (NE = R). RBRBRB k0 at (0,0) shows R on E, NW and SW:
# a Hexla. Then RRBBBB k3 (BBBRRB, W = R) at (2,0) touches only (1,0): a Hexba. VVVVVV fits
# nowhere (every frontier cell faces an R or a B).
TRIO = (("RRRRRB", (1, 0), 0), ("RRRRBB", (0, -1), 2), ("RRRBBB", (-1, 1), 0))


def test_H4_2_a_shortfall_of_two_edges_pays_twice_the_stake_and_an_exact_hedge_stays_in():
    # The seed's stake example: stake 3, 6 chips hedged cover a shortfall of 2 x stake.
    state = position(seats=2, stake=3, hands=(("RBRBRB",), ("RRBBBB", "VVVVVV")),
                     table=TRIO, hedges=(0, 6))
    state, events = play(state, hx.Place(0, "RBRBRB", (0, 0), 0))
    assert of(events, hx.Placed)[0].name == "Hexla" and of(events, hx.Placed)[0].count == 3
    state, events = play(state, hx.Place(1, "RRBBBB", (2, 0), 3))
    assert of(events, hx.Placed)[0].name == "Hexba"
    paid = of(events, hx.InsurancePaid)[0]
    assert (paid.payer, paid.receiver, paid.amount) == (1, 0, 6)  # 3 x (3 - 1)
    # H4.3: bust only when the hedge holds *less* than owed; exactly enough pays and stays in
    assert not of(events, hx.Busted) and state.out == frozenset()
    assert state.ledger["hedge:1"] == 0 and state.ledger["hand:0"] == 6


@pytest.mark.parametrize(("hedge1", "bust"), [(9, False), (8, True)])
def test_H4_2_a_discard_after_a_hexla_owes_three_times_the_stake(hedge1, bust):
    state = position(seats=2, stake=3, hands=(("RBRBRB",), ("VVVVVV",)), table=TRIO,
                     hedges=(0, hedge1))
    state, _ = play(state, hx.Place(0, "RBRBRB", (0, 0), 0))
    state, events = play(state, hx.Discard(1, "VVVVVV"))
    if bust:
        b = of(events, hx.Busted)[0]
        assert (b.seat, b.receiver, b.owed, b.paid) == (1, 0, 9, 8)
        assert state.out == frozenset({1}) and state.ledger["hand:0"] == 8
    else:
        paid = of(events, hx.InsurancePaid)[0]
        assert (paid.payer, paid.receiver, paid.amount) == (1, 0, 9)
        assert state.ledger["hand:0"] == 9


# Cards round (0,0) showing R, B, R, B, R, B towards it (worked by hand, every shared edge of the
# ring matched in blue): RRBBBB k3 = BBBRRB at (1,0), BBBBBB at (1,-1), RBBBBB k5 = BBBBBR at
# (0,-1), BBBBVV k5 = BBBVVB at (-1,0), RRRBBB k5 = RRBBBR at (-1,1), RBRBBB k1 = BRBRBB at (0,1).
# RBRBRB k0 fits (0,0); no two neighbouring edges of it agree, so no Hox'la.
RING = (("RRBBBB", (1, 0), 3), ("BBBBBB", (1, -1), 0), ("RBBBBB", (0, -1), 5),
        ("BBBBVV", (-1, 0), 5), ("RRRBBB", (-1, 1), 5), ("RBRBBB", (0, 1), 1))


@pytest.mark.parametrize("count", [4, 5, 6])
def test_H2_counts_four_to_six_announce_hexven_with_the_number(count):
    state = position(seats=2, hands=(("RBRBRB",), ()), table=RING[:count])
    with pytest.raises(EdgeMismatch):
        GAME.apply(state, hx.Place(0, "RBRBRB", (0, 0), 1))
    state, events = play(state, hx.Place(0, "RBRBRB", (0, 0), 0))
    placed = of(events, hx.Placed)[0]
    assert (placed.count, placed.hoxla, placed.name) == (count, False, "Hexven")
    assert placed.announce(("Ana", "Ben")) == f"Ana: Hexven ({count} edges)"


# ---- H4.3 bust -------------------------------------------------------------------------------

def test_H4_3_bust_pays_the_whole_hedge_and_the_seat_is_out():
    state = position(seats=3, stake=5, hands=(("RBBBBB",), ("BBBBBB", "VVVVVV"), ("BBBBBB",)),
                     table=(A, B), hedges=(0, 3, 10))
    state, _ = play(state, hx.Place(0, "RBBBBB", (0, 1), 2))  # 2 edges
    state, events = play(state, hx.Place(1, "BBBBBB", (2, 0), 0))  # 1 edge: owes 5, has 3
    bust = of(events, hx.Busted)[0]
    assert (bust.seat, bust.receiver, bust.owed, bust.paid) == (1, 0, 5, 3)
    assert state.ledger["hand:0"] == 3 and state.ledger["hedge:1"] == 0
    assert 1 in state.out and state.hands[1] == ()  # remaining card discarded
    assert state.frozen_hand_pots == frozenset({1})
    assert state.to_play == 2


def test_H4_3_nothing_is_owed_to_a_seat_that_is_out_and_it_cannot_win_as_last_placer():
    # Choices documented in game.py / README (RULES.md silent): seat 1 busts on its own placement
    # (it placed last), seat 2 then can only discard (count 0 < seat 1's 1): nothing is owed to
    # the out seat. The cards run out; the last placer still in the game is seat 0.
    # After A, B, RBBBBB at (0,1) and BBBBBB at (2,0) every frontier cell faces R or B: V6 fits
    # nowhere.
    state = position(seats=3, stake=5, hands=(("RBBBBB",), ("BBBBBB",), ("VVVVVV",)),
                     table=(A, B), hedges=(2, 3, 10))
    state, _ = play(state, hx.Place(0, "RBBBBB", (0, 1), 2))  # Hexel (2)
    state, events = play(state, hx.Place(1, "BBBBBB", (2, 0), 0))  # Hexba: owes 5, holds 3
    assert of(events, hx.Busted) and state.out == frozenset({1})
    assert state.to_play == 2
    state, events = play(state, hx.Discard(2, "VVVVVV"))
    assert not of(events, hx.InsurancePaid) and not of(events, hx.Busted)
    assert state.ledger["hand:1"] == 0 and state.ledger["stock:2"] == 90
    won = of(events, hx.GameWon)[0]
    assert (won.seat, won.reason, won.amount) == (0, "cards_out", 2 + 0 + 10)
    assert state.ledger["stock:0"] == 98 + 12 and state.ledger["hand:0"] == 3


def _bust_seat_1(edition):
    """Seat 1 (with 7 chips in its hand pot) busts to seat 0; seat 2's Hox'la ends the game."""
    state = position(seats=3, stake=5, hands=(("RBBBBB",), ("BBBBBB", "VVVVVV"), ("BBBBBB",)),
                     table=(A, B), hedges=(0, 3, 10), edition=edition)
    state = dataclasses.replace(state, ledger=state.ledger.transfer("stock:1", "hand:1", 7))
    state, _ = play(state, hx.Place(0, "RBBBBB", (0, 1), 2))
    state, events = play(state, hx.Place(1, "BBBBBB", (2, 0), 0))
    assert of(events, hx.Busted)
    # (2,-1) faces B's NE (B) and (2,0)'s NW (B) across B's E edge (B): an all-blue vertex
    state, events = play(state, hx.Place(2, "BBBBBB", (2, -1), 0))
    assert of(events, hx.HoxlaCalled) and state.phase == "over"
    return state


def test_H4_3_a_frozen_hand_pot_cannot_be_cashed_out_until_the_next_game_starts():
    state = _bust_seat_1("holodex")
    assert state.frozen_hand_pots == frozenset({1})
    with pytest.raises(hx.HandPotFrozen, match="frozen until the next game"):
        GAME.apply(state, hx.CashOut(1, 7, "hand"))
    assert state.ledger["hand:1"] == 7
    # the stock is not frozen, and other seats' hand pots are not
    state, _ = play(state, hx.CashOut(1, 1, "stock"), hx.CashOut(0, 3, "hand"))
    # H6: the next game thaws it
    state, _ = play(state, hx.NextGame())
    assert state.frozen_hand_pots == frozenset()
    state, _ = play(state, hx.CashOut(1, 7, "hand"))
    assert state.ledger["hand:1"] == 0


def test_H4_3_web_edition_freezes_no_hand_pot():
    state = _bust_seat_1("web")
    assert state.frozen_hand_pots == frozenset()
    assert state.ledger["stock:0"] == 100 + 3  # the bust's hedge went to the chip stock
    state, _ = play(state, hx.CashOut(1, 7, "hand"))
    assert state.ledger["hand:1"] == 0


def test_H4_3_out_seats_are_not_dealt_and_take_no_turns():
    state = position(seats=3, hands=(("BBBBBB",), (), ()), table=(A, B), out=(1,),
                     pile=("RRRRRR",) * 7)
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))
    dealt = of(events, hx.Dealt)[0]
    assert dealt.counts == (3, 0, 3) and dealt.round == 2 and state.phase == "stake"
    state, _ = play(state, hx.Hedge(0, 0), hx.Hedge(2, 0))
    assert state.phase == "play"
    with pytest.raises(WrongSeat, match="out of this game"):
        GAME.apply(dataclasses.replace(state, phase="stake", hedged=frozenset()), hx.Hedge(1, 0))


# ---- H5 rounds -------------------------------------------------------------------------------

def test_H5_short_pile_deals_one_card_at_a_time_until_empty():
    state = position(seats=3, dealer=0, hands=(("BBBBBB",), (), ()), table=(A, B),
                     pile=("RRRRRB", "RRRRBB", "RRRBBB", "RRRRRV"))
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))
    assert of(events, hx.Dealt)[0].counts == (1, 2, 1)  # seats 1, 2, 0, 1
    assert state.hands[1] == ("RRRRRB", "RRRRRV") and state.pile == ()


def test_H5_a_seat_with_an_empty_hand_is_skipped():
    state = position(seats=3, hands=(("BBBBBB",), (), ("BBBBBB",)), table=(A, B))
    state, _ = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))
    assert state.to_play == 2


def test_H5_a_new_round_stakes_again_and_opens_with_the_dealer():
    # dealer 2; seat 0 plays the round's last card. The next seat clockwise would be 1, but a
    # new round starts with the dealer (H4), after 3 cards each from the dealer's left (0, 1, 2)
    # and a new stake phase where hedges add to what the pots hold.
    pile = ("RRRRRB", "RRRRBB", "RRRBBB", "RRRRRV", "RRRRVV", "RRRVVV", "BBBBBV", "BBBBVV",
            "BBBVVV", "RBRBRB")
    state = position(seats=3, dealer=2, to_play=0, stake=2, hands=(("BBBBBB",), (), ()),
                     table=(A, B), pile=pile, hedges=(4, 0, 0))
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))
    assert of(events, hx.Dealt)[0].round == 2 and state.phase == "stake"
    assert state.hands == (("RRRRRB", "RRRRRV", "BBBBBV"), ("RRRRBB", "RRRRVV", "BBBBVV"),
                           ("RRRBBB", "RRRVVV", "BBBVVV"))
    assert state.pile == ("RBRBRB",)
    state, _ = play(state, hx.Hedge(0, 1), hx.Hedge(1, 0), hx.Hedge(2, 2))
    assert state.phase == "play" and state.to_play == 2
    assert state.ledger["hedge:0"] == 4 + 2 and state.ledger["hedge:2"] == 4


def test_H4_2_after_a_discard_any_count_owes_nothing():
    # the last turn counted 0 (a discard): no count can be lower
    state = position(seats=2, hands=(("BBBBBB",), ()), table=(A, B), hedges=(0, 0),
                     last_turn=(1, 0), stake=4)
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0))
    assert not of(events, hx.InsurancePaid) and not of(events, hx.Busted)
    assert state.last_turn == (0, 1)


# ---- H6 endings ------------------------------------------------------------------------------

def test_H6_hoxla_wins_every_hedge_pot_and_leaves_stocks_and_hand_pots():
    state = position(seats=3, hands=(("RRBBBB",), ("BBBBBB",), ("BBBBBB",)), table=(A, B),
                     hedges=(4, 6, 8), stocks=(50, 60, 70))
    state = dataclasses.replace(state, ledger=state.ledger.transfer("stock:1", "hand:1", 5))
    state, events = play(state, hx.Place(0, "RRBBBB", (1, -1), 4))
    placed = of(events, hx.Placed)[0]
    assert placed.hoxla and placed.name == "Hox'la!" and placed.count == 2
    won = of(events, hx.GameWon)[0]
    assert (won.seat, won.reason, won.amount) == (0, "hoxla", 18)
    assert state.ledger["stock:0"] == 46 + 18
    assert state.ledger["hand:1"] == 5 and state.ledger["stock:2"] == 62
    assert state.phase == "over" and GAME.legal_actions(state) == [hx.NextGame()]


def test_H6_hoxla_owes_no_insurance_even_with_a_lower_count():
    state = position(seats=2, hands=(("RRBBBB",), ()), table=(A, B), hedges=(5, 5),
                     last_turn=(1, 4))
    state, events = play(state, hx.Place(0, "RRBBBB", (1, -1), 4))
    assert not of(events, hx.InsurancePaid) and state.ledger["stock:0"] == 105


def test_H6_cards_run_out_last_placer_wins():
    state = position(seats=2, hands=(("BBBBBB",), ("VVVVVV",)), table=(A, B), hedges=(3, 9))
    state, events = play(state, hx.Place(0, "BBBBBB", (2, 0), 0), hx.Discard(1, "VVVVVV"))
    won = of(events, hx.GameWon)[0]
    # seat 1 discarded (count 0 < 1) and paid 1 insurance; seat 0 placed last and wins both hedges
    assert (won.seat, won.reason, won.amount) == (0, "cards_out", 3 + 8)
    assert state.ledger["hand:0"] == 1


def test_H6_last_seat_standing_wins():
    state = position(seats=2, stake=10, hands=(("RBBBBB",), ("BBBBBB",)), table=(A, B),
                     hedges=(7, 4))
    state, events = play(state, hx.Place(0, "RBBBBB", (0, 1), 2), hx.Place(1, "BBBBBB", (2, 0), 0))
    won = of(events, hx.GameWon)[0]
    assert (won.seat, won.reason, won.amount) == (0, "last_standing", 7)
    assert state.ledger["hand:0"] == 4  # the bust paid its whole hedge first


def test_H6_next_game_moves_the_dealer_clockwise_and_thaws_everyone():
    state = position(seats=3, dealer=2, hands=(("RRBBBB",), (), ()), table=(A, B),
                     out=(1,), to_play=0)
    state, _ = play(state, hx.Place(0, "RRBBBB", (1, -1), 4))
    state, events = play(state, hx.NextGame())
    assert state.dealer == 0 and state.out == frozenset() and state.game_no == 2
    assert state.phase == "setup" and len(state.layout) == 0
    assert of(events, hx.GameStarted)[0].dealer == 0


# ---- announcements ---------------------------------------------------------------------------

def test_events_announce_what_a_referee_says():
    names = ("Ana", "Ben")
    assert hx.Placed(0, "R" * 6, (0, 1), 0, 3, False, ()).announce(names) == "Ana: Hexla (3 edges)"
    assert hx.Placed(1, "R" * 6, (0, 1), 0, 1, False, ()).announce(names) == "Ben: Hexba (1 edge)"
    assert hx.Placed(1, "R" * 6, (0, 1), 0, 5, False, ()).announce(names) == "Ben: Hexven (5 edges)"
    assert hx.Placed(0, "R" * 6, (0, 1), 0, 2, True, ()).announce(names) == "Ana: Hox'la!"
    assert hx.InsurancePaid(
        1, 0, 4, "hand", ()).announce(names) == "Ben pays 4 insurance to Ana's hand pot"


# ---- table mode (real cards, hidden hands) ---------------------------------------------------

def test_table_mode_accepts_seen_cards_and_refuses_cards_already_on_the_table():
    state = GAME.initial_state(HexelOptions(seats=2))
    state, _ = play(state, hx.LayLine(("RRRRRR", "BBBBBR", "BRRRRR"), (0, 4, 3)),
                    hx.Hedge(0, 0), hx.Hedge(1, 2))
    with pytest.raises(hx.CardUnavailable, match="already on the table"):
        GAME.apply(state, hx.Place(0, "RRRRRR", (0, 1), 0))
    with pytest.raises(hx.CardUnavailable):
        GAME.apply(state, hx.Place(0, "BBRRBR", (0, 1), 0))  # a mirror image: not in the deck
    state, events = play(state, hx.Place(0, "BBBBRR", (-1, 0), 1))
    assert state.hand_sizes == (2, 3) and of(events, hx.Placed)[0].count == 1
    state, events = play(state, hx.Discard(1, None))
    assert state.hand_sizes == (2, 2) and state.to_play == 0
    assert of(events, hx.InsurancePaid)[0].amount == 1  # a face-down discard counts 0


def test_actions_and_options_survive_json_and_replay():
    opts = HexelOptions(seats=2, stake=2, names=("Ana", "Ben"))
    log = [hx.Shuffle(5), hx.Hedge(0, 1), hx.Hedge(1, 2)]
    state = replay(GAME, opts, [from_json(to_json(a)) for a in log])
    assert state.phase == "play" and state.ledger["hedge:1"] == 4
    assert from_json(to_json(opts), HexelOptions) == opts


def test_H6_hand_pot_chips_are_used_in_the_next_game_through_the_stock():
    # H6: hand pots stay the seat's and may serve another game; H4: a hedge comes from the stock
    state = _bust_seat_1("holodex")
    total = state.ledger.total
    assert state.ledger["hand:1"] == 7 and state.ledger["hand:0"] == 3
    # H4.3: frozen until the next game starts — refused, nothing moves
    with pytest.raises(hx.HandPotFrozen):
        GAME.apply(state, hx.TakeHandPot(1, 7))
    state, events = play(state, hx.TakeHandPot(0, 2))   # seat 0's pot is not frozen
    took = of(events, hx.TookHandPot)[0]
    assert (took.seat, took.amount) == (0, 2)
    assert state.ledger["hand:0"] == 1 and dict(took.accounts)["stock:0"] == state.ledger["stock:0"]
    state, _ = play(state, hx.NextGame())
    stock_before = state.ledger["stock:1"]
    state, _ = play(state, hx.TakeHandPot(1, 7))
    assert state.ledger["hand:1"] == 0 and state.ledger["stock:1"] == stock_before + 7
    assert state.ledger.total == total   # a move between accounts: no chip made or lost
    # more than the pot holds is refused and changes nothing
    with pytest.raises(InsufficientChips):
        GAME.apply(state, hx.TakeHandPot(0, 2))


def test_H6_hand_pot_is_taken_only_between_games():
    state = position(seats=3, hands=(("BBBBBB",), (), ()), table=(A, B))
    state = dataclasses.replace(state, ledger=state.ledger.transfer("stock:1", "hand:1", 4))
    assert state.phase == "play"
    with pytest.raises(RulesError, match="TakeHandPot"):
        GAME.apply(state, hx.TakeHandPot(1, 4))
    for bad in (0, -1, True, "3"):
        with pytest.raises(RulesError):
            GAME.apply(dataclasses.replace(state, phase="setup"), hx.TakeHandPot(1, bad))
