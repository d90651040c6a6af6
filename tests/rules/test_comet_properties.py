"""Seven Card Comet properties (RULES.md C1-C4): games end, chips are conserved at every step,
replay, JSON round-trip, refusals change nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.comet import GAME, CometOptions, score_values, standard_deck
from companion.rules.comet.game import (
    BeginRound,
    CallTail,
    EndTurn,
    PlaySet,
    Reserve,
    SkipTail,
    Stop,
)
from companion.rules.core import RulesError, from_json, from_jsonable, replay, to_json, to_jsonable

SEEDS = st.integers(0, 2**32 - 1)
OPTIONS = st.builds(
    CometOptions,
    seats=st.integers(2, 5),
    chips=st.just(()),
    ante_every_round=st.booleans(),
    bonus_per=st.sampled_from(["pot_won", "valid_set"]),
    single_triple_set=st.booleans(),
)


def play(options, seed, check=None):
    """A random legal match; `check(state, action)` runs before each decision."""
    rng = random.Random(seed)
    state = GAME.initial_state(options)
    log, events = [], []
    while not GAME.is_over(state):
        action = GAME.chance_action(state, rng)
        if action is None:
            legal = GAME.legal_actions(state)
            if check is not None:
                check(state, legal)
            action = rng.choice(legal)
        state, evs = GAME.apply(state, action)
        log.append(action)
        events.extend(evs)
        assert state.ledger.total == sum(options.buy_ins) == sum(state.ledger.balances.values())
    return state, log, events


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=SEEDS)
def test_c2_c4_random_matches_end_conserve_chips_and_replay(options, seed):
    state, log, events = play(options, seed)
    assert state.end in ("stopped", "rounds", "last_standing")
    assert replay(GAME, options, log) == state
    for message in (*log, *events):
        assert from_json(to_json(message)) == message
    assert from_jsonable(to_jsonable(options), CometOptions) == options


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(2, 14), max_size=12))
def test_c1_score_is_order_free_and_counts_aces_both_ways(values):
    assert score_values(values) == score_values(sorted(values, reverse=True))
    assert score_values(values) >= 0


DECK = standard_deck()


def candidates(state):
    seats = st.integers(0, state.seats - 1)
    hand_cards = sorted({c for h in state.hands for c in h}) or [DECK[0]]
    some = st.sampled_from(hand_cards + list(DECK[:5]))
    sets = st.lists(some, min_size=0, max_size=4, unique=True).map(lambda cs: tuple(sorted(cs)))
    pots = st.sampled_from([*state.options.pots, "Tail", "Moon"])
    return st.one_of(
        st.builds(PlaySet, seats, pots, sets),
        st.builds(Reserve, seats, some),
        st.builds(EndTurn, seats),
        st.builds(CallTail, seats),
        st.builds(SkipTail, seats),
        st.just(BeginRound()),
        st.just(Stop()),
    )


@settings(max_examples=12, deadline=None)
@given(data=st.data(), seed=SEEDS)
def test_c2_c3_illegal_actions_raise_and_change_nothing(data, seed):
    """Every candidate decision succeeds exactly when `legal_actions` lists it."""

    def check(state, legal):
        candidate = data.draw(candidates(state))
        snapshot = repr(state)
        if candidate in legal:
            GAME.apply(state, candidate)
        else:
            with pytest.raises(RulesError):
                GAME.apply(state, candidate)
        assert repr(state) == snapshot

    play(CometOptions(seats=3, rounds=3), seed, check)
