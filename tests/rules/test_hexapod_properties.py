"""Hexapod properties (RULES.md P1-P4): random legal games end, replay, JSON, refusals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.core import RulesError, from_json, from_jsonable, replay, to_json, to_jsonable
from companion.rules.hexapod import GAME, SPIDER, HexapodOptions, load_deck, score_case
from companion.rules.hexapod.game import EndTurn, Pass, Play, Shuffle, SpendCoin, TakeStart
from companion.simulate import play_game

DECK = load_deck(Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json")
OPTS = HexapodOptions(deck=DECK)
NAMES = [c.name for c in DECK] + [SPIDER]
SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_p3_random_legal_games_end_and_replay_to_the_same_state(seed):
    played = play_game(GAME, GAME.initial_state(OPTS), random.Random(seed))
    state = played.state
    assert GAME.is_over(state) and state.end in ("spider", "passed")
    assert replay(GAME, OPTS, played.log) == state
    assert state.scores == tuple(score_case(state.cases[s], state.coins[s]).total for s in (0, 1))
    for message in (*played.log, *played.events):
        assert from_json(to_json(message)) == message


def test_p1_options_round_trip_through_json():
    assert from_jsonable(to_jsonable(OPTS), HexapodOptions) == OPTS


def candidates(state):
    seats = st.integers(0, 1)
    stacks = st.integers(-1, 3)
    names = st.sampled_from([*NAMES, *(n for h in state.hands for n in h),
                             *(t for t in state.tops() if t)])
    return st.one_of(
        st.builds(Play, seats, stacks, names, st.integers(-1, 5), st.integers(-1, 4)),
        st.builds(SpendCoin, seats, stacks, stacks),
        st.builds(EndTurn, seats),
        st.builds(Pass, seats),
        st.builds(TakeStart, seats, stacks),
    )


@settings(max_examples=15, deadline=None)
@given(data=st.data(), seed=SEEDS)
def test_p2_p3_illegal_actions_raise_and_change_nothing(data, seed):
    """Every candidate action succeeds exactly when `legal_actions` lists it."""
    rng = random.Random(seed)
    state, _ = GAME.apply(GAME.initial_state(OPTS), Shuffle(seed))
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        candidate = data.draw(candidates(state))
        snapshot = repr(state)
        if candidate in legal:
            GAME.apply(state, candidate)
        else:
            with pytest.raises(RulesError):
                GAME.apply(state, candidate)
        assert repr(state) == snapshot
        state, _ = GAME.apply(state, rng.choice(legal))
    with pytest.raises(RulesError):
        GAME.apply(state, Pass(0))
