"""Property tests over random legal Hex'el games (RULES.md H1-H6 as a whole)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.core import RulesError, from_json, replay, to_json
from companion.rules.hexel import GAME, HexelOptions, orient
from companion.rules.hexel import game as hx
from companion.rules.hexgrid import neighbour

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def random_game(opts: HexelOptions, seed: int, games: int = 1, max_hedge: int = 3):
    rng = random.Random(seed)
    state = GAME.initial_state(opts)
    total = state.ledger.total
    log, states = [], [state]
    played = 0
    while True:
        if GAME.is_over(state):
            played += 1
            if played == games:
                return state, log, states, total
        action = GAME.chance_action(state, rng)
        if action is None:
            actions = GAME.legal_actions(state)
            hedges = [a for a in actions if isinstance(a, hx.Hedge) and a.multiple <= max_hedge]
            action = rng.choice(hedges or actions)
        state, events = GAME.apply(state, action)
        log.append(action)
        states.append(state)
        for e in events:
            assert from_json(to_json(e)) == e


def assert_layout_is_legal(layout):
    """Every pair of adjacent cards shows one symbol on both sides (checked from scratch)."""
    cells = {p.cell: orient(p.card, p.rotation) for p in layout.placements}
    for cell, o in cells.items():
        for d in range(6):
            other = cells.get(neighbour(cell, d))
            if other is not None:
                assert o[d] == other[(d + 3) % 6], (cell, d)
    # and the cards on the table are distinct deck cards (standard deck has no duplicates)
    cards = [p.card for p in layout.placements]
    assert len(cards) == len(set(cards))


@SETTINGS
@given(seats=st.integers(1, 6), seed=st.integers(0, 2**32 - 1), web=st.booleans(),
       stake=st.integers(1, 5))
def test_random_games_end_conserve_chips_and_replay(seats, seed, web, stake):
    opts = HexelOptions(seats=seats, stake=stake, edition="web" if web else "holodex",
                        chips=tuple(random.Random(seed).randrange(0, 60) for _ in range(seats)))
    final, log, states, total = random_game(opts, seed)
    assert final.phase == "over" and final.end in ("hoxla", "cards_out", "last_standing",
                                                    "no_winner")
    for s in states:
        assert s.ledger.total == total
        assert sum(s.ledger.balances.values()) == total
    assert all(s.ledger[f"hedge:{i}"] == 0 for i in range(seats) for s in [final])
    assert_layout_is_legal(final.layout)
    # a game is the fold of its log; undo = replay without the last action; redo gives it back
    assert replay(GAME, opts, [from_json(to_json(a)) for a in log]) == final
    undone = replay(GAME, opts, log[:-1])
    assert undone == states[-2]
    assert GAME.apply(undone, log[-1])[0] == final


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 6))
def test_a_match_of_several_games_rotates_the_dealer_and_keeps_chips(seed, seats):
    opts = HexelOptions(seats=seats)
    final, _log, _states, total = random_game(opts, seed, games=3)
    assert final.game_no == 3 and final.dealer == 2 % seats
    assert final.ledger.total == total


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 4), data=st.data())
def test_illegal_actions_are_refused_and_change_nothing(seed, seats, data):
    opts = HexelOptions(seats=seats)
    _final, _log, states, _ = random_game(opts, seed)
    state = data.draw(st.sampled_from(states[:-1]))
    legal = GAME.legal_actions(state)
    candidates = [
        hx.Place(0, "RRRRRR", (9, 9), 0),
        hx.Place((state.to_play or 0) + 1, "RRRRRR", (0, 1), 0),
        hx.Hedge(0, 10**6),
        hx.Discard(state.to_play or 0, "RRRRRR"),
        hx.NextGame(),
        hx.Shuffle(1),
    ]
    before = to_json(state.ledger.snapshot()), state.hands, state.layout, state.phase
    for action in candidates:
        allowed = action in legal or (state.phase == "setup" and isinstance(action, hx.Shuffle))
        try:
            GAME.apply(state, action)
        except RulesError:
            assert not allowed, action
        else:
            assert allowed, action
        assert (to_json(state.ledger.snapshot()), state.hands, state.layout,
                state.phase) == before


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_table_mode_games_with_hidden_hands_end_and_conserve(seed):
    rng = random.Random(seed)
    opts = HexelOptions(seats=3)
    state = GAME.initial_state(opts)
    state, _ = GAME.apply(state, hx.LayLine(("RRRRRR", "BBBBBR", "BRRRRR"), (0, 4, 3)))
    total = state.ledger.total
    while not GAME.is_over(state):
        actions = GAME.legal_actions(state)
        if state.phase == "play" and rng.random() < 0.9 and len(actions) > 1:
            actions = [a for a in actions if isinstance(a, hx.Place)]
        if state.phase == "stake":
            actions = [a for a in actions if a.multiple <= 2]
        state, _ = GAME.apply(state, rng.choice(actions))
        assert state.ledger.total == total
    assert_layout_is_legal(state.layout)
