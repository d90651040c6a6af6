"""What every game of the engine promises through the common protocol (core, RULES.md defaults).

* Every registered action and event type, whatever its field values, comes back from JSON equal.
* A game is the fold of its log at *every* step: replaying any prefix of a random game's log (as
  it would be stored, through JSON, options included) gives exactly the state reached there, so
  undo is exact wherever it is pressed.
* Any action, whatever its fields, is either refused with a `RulesError` or is one of the
  decisions `legal_actions` lists (up to how it is written: an equivalent rotation, the links of
  a piece in another frame, the cards of a set in another order). Administrative and chance
  actions (buy-ins, stakes, shuffles, deals) are not decisions and are left out of the second half.
* The option defaults are the ones RULES.md settles (H1, P1, D1/D2, C1-C3).
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import games
from companion.rules.comet import CometOptions
from companion.rules.comet import game as cg
from companion.rules.core import (
    _REGISTRY,
    Action,
    RulesError,
    from_json,
    from_jsonable,
    replay,
    to_json,
    to_jsonable,
)
from companion.rules.hexapod import HexapodOptions, load_deck
from companion.rules.hexapod import game as hp
from companion.rules.hexdragon import HexDragonOptions, head_names
from companion.rules.hexdragon import game as hd
from companion.rules.hexdragon.pieces import oriented
from companion.rules.hexel import HexelOptions, orient, standard_deck
from companion.rules.hexel import game as hx

ROOT = Path(__file__).resolve().parents[2]
GAMES = games()
KINDS = sorted(_REGISTRY)


def test_every_game_is_found_and_registers_its_messages():
    assert sorted(GAMES) == ["comet", "hexapod", "hexdragon", "hexel"]
    for name in GAMES:
        assert any(kind.startswith(f"{name}.") for kind in KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_every_message_type_round_trips_through_json(kind):
    cls = _REGISTRY[kind]

    @settings(max_examples=25, deadline=None)
    @given(st.builds(cls))
    def check(message):
        back = from_json(to_json(message))
        assert back == message and type(back) is cls

    check()


def _options(name: str, rng: random.Random):
    if name == "hexel":
        seats = rng.randint(1, 4)
        return HexelOptions(seats=seats, stake=rng.randint(1, 3), dealer=rng.randrange(seats),
                            edition=rng.choice(["holodex", "web"]),
                            chips=tuple(rng.randrange(0, 30) for _ in range(seats)))
    if name == "hexapod":
        return HexapodOptions(deck=load_deck(ROOT / "models" / "hexapod-deck.json"),
                              first=rng.randrange(2))
    if name == "hexdragon":
        return HexDragonOptions(seats=rng.randint(2, 4), first=rng.randrange(2))
    return CometOptions(seats=rng.randint(2, 4), rounds=4, dealer=1)


@settings(max_examples=6, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1))
def test_undo_anywhere_replays_the_stored_log_to_the_state_reached_there(name, seed):
    game = GAMES[name]
    rng = random.Random(seed)
    options = _options(name, rng)
    stored_options = from_jsonable(to_jsonable(options), type(options))
    assert stored_options == options
    state = game.initial_state(options)
    states, log = [state], []
    while not game.is_over(state) and len(log) < 400:
        action = game.chance_action(state, rng) or rng.choice(game.legal_actions(state))
        state, _ = game.apply(state, action)
        states.append(state)
        log.append(action)
    stored = [from_json(to_json(a)) for a in log]
    for k in sorted({0, 1, len(log) // 2, len(log) - 1, len(log), *rng.sample(
            range(len(log) + 1), min(8, len(log) + 1))}):
        assert replay(game, stored_options, stored[:k]) == states[k], k


def test_H1_H3_default_options():
    opts = HexelOptions()
    assert opts.cards == standard_deck(("R", "B", "V")) and len(opts.cards) == 36
    assert len(HexelOptions(edition="web").cards) == 36  # H1: 36 cards in both editions
    assert set("".join(HexelOptions(edition="web").cards)) == {"R", "B", "Y"}
    assert 1 <= opts.seats <= 6 and opts.stake >= 1


def test_P1_default_options():
    opts = HexapodOptions(deck=load_deck(ROOT / "models" / "hexapod-deck.json"))
    assert (opts.card_cols, opts.card_rows, opts.case_cols, opts.case_rows) == (2, 3, 6, 6)
    assert opts.coins == 3 and len(opts.deck) == 41


def test_D1_D2_default_options():
    two, three, four = (HexDragonOptions(seats=n) for n in (2, 3, 4))
    assert (two.board_radius, len(two.cells), two.bag_count) == (2, 19, 1)
    assert (three.board_radius, len(three.cells), three.bag_count) == (3, 37, 2)
    assert (four.board_radius, four.bag_count) == (3, 2)
    assert sum(two.bag_contents().values()) == 20 and sum(four.bag_contents().values()) == 40


def test_C1_C3_default_options():
    opts = CometOptions()
    assert opts.pots == ("Desten", "Kinro", "Nivek", "Trinovat", "Vain", "Polos")
    assert (opts.ante_pot, opts.ante_tail, opts.ante, opts.tail_call) == (25, 150, 300, 600)
    assert opts.ante_every_round is False and opts.bonus_per == "pot_won"
    assert opts.single_triple_set is True and opts.hand_size == 7 and len(opts.cards) == 123


# -- any action: refused, or one of the listed decisions ------------------------------------------

HEXAPOD_DECK = load_deck(ROOT / "models" / "hexapod-deck.json")
WORDS = [*standard_deck(("R", "B", "V"))[:12], "RRRRRR", "X", "O", "I", "H", "A", "start",
         *head_names()[:4], "Tail", "Desten", "Moon", "stock", "hand", "hedge", "Spider",
         *(c.name for c in HEXAPOD_DECK[:6]), "B", "G", "K", "St", "Sb", "Ml", "Mr", ".", "T", ""]
NOT_DECISIONS = (hx.BuyIn, hx.CashOut, hx.TakeHandPot, hx.SetStake, hx.Shuffle, hx.LayLine,
                 hp.Shuffle, hp.Deal, hp.TableStart, hd.Shuffle, hd.Deal, cg.Shuffle, cg.Deal)


def fields_like(tp):
    """Values for an annotation, small enough to hit seats, cells, stacks and rotations."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is int:
        return st.integers(-2, 8)
    if tp is bool:
        return st.booleans()
    if tp is str:
        return st.sampled_from(WORDS)
    if tp is type(None):
        return st.none()
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*[fields_like(a) for a in args])
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(fields_like(args[0]), max_size=7).map(tuple)
    if origin is tuple:
        return st.tuples(*[fields_like(a) for a in args])
    hints = typing.get_type_hints(tp)
    return st.builds(tp, **{f.name: fields_like(hints[f.name]) for f in dataclasses.fields(tp)})


@cache
def states(name: str) -> tuple:
    """States along a random game (and, for Hex'el and Hexapod, a game at a real table)."""
    game, rng = GAMES[name], random.Random(1)
    starts = [game.initial_state({
        "hexel": HexelOptions(seats=3), "hexapod": HexapodOptions(deck=HEXAPOD_DECK),
        "hexdragon": HexDragonOptions(seats=3), "comet": CometOptions(seats=3)}[name])]
    if name == "hexel":
        starts.append(game.apply(starts[0], hx.LayLine(("RRRRRR", "BBBBBR", "BRRRRR"),
                                                       (0, 4, 3)))[0])
    if name == "hexapod":
        starts.append(game.apply(starts[0], hp.TableStart())[0])
    out = []
    for state in starts:
        out.append(state)
        while not game.is_over(state) and len(out) < 400:
            state, _ = game.apply(state, game.chance_action(state, rng)
                                  or rng.choice(game.legal_actions(state)))
            out.append(state)
    return tuple(out)


def written_alike(action):
    """An action in a form that is the same for every way of writing the same decision."""
    if isinstance(action, hx.Place):
        return ("hexel.place", action.seat, action.card, tuple(action.cell),
                orient(action.card, action.rotation))
    if isinstance(action, hd.Place):
        return ("hexdragon.place", action.seat, tuple(action.cell),
                oriented(tuple(action.links), action.rotation))
    if isinstance(action, cg.PlaySet):
        return ("comet.play_set", action.seat, action.pot,
                tuple(sorted(tuple(sorted(c)) for c in action.cards)))
    if isinstance(action, cg.Reserve):
        return ("comet.reserve", action.seat, tuple(sorted(action.card)))
    return action


@pytest.mark.parametrize("kind", [k for k in KINDS if issubclass(_REGISTRY[k], Action)])
def test_any_action_is_refused_or_is_a_listed_decision(kind):
    cls = _REGISTRY[kind]
    name = kind.split(".")[0]
    game = GAMES[name]

    @settings(max_examples=80, deadline=None)
    @given(st.sampled_from(states(name)), fields_like(cls))
    def check(state, action):
        try:
            game.apply(state, action)
        except RulesError:
            return
        if isinstance(action, NOT_DECISIONS):
            return
        assert written_alike(action) in {written_alike(a) for a in game.legal_actions(state)}

    check()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_listed_decision_is_accepted(name):
    game, rng = GAMES[name], random.Random(7)
    for state in states(name)[::3]:
        legal = game.legal_actions(state)
        for action in rng.sample(legal, min(25, len(legal))):
            game.apply(state, action)
