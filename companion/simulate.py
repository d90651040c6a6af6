"""Random legal play through the common game protocol, for the CLI, tests and benchmarks.

`play_game` drives any game from its current state to the end of one game: chance actions come
from the game's `chance_action` with a seeded RNG, decisions from a policy that picks among
`legal_actions` (uniformly by default). Everything is deterministic for a given seed, and the
log it returns replays to the same state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .rules.core import Action, Event, Game, RulesError

Policy = Callable[[Any, list[Action], random.Random], Action]


def uniform(state: Any, actions: list[Action], rng: random.Random) -> Action:
    """Pick any legal action with equal probability."""
    return rng.choice(actions)


@dataclass(frozen=True)
class Played:
    """One game played to its end: final state, the actions taken and their events."""

    state: Any
    log: tuple[Action, ...]
    events: tuple[Event, ...]


def play_game(game: Game, state: Any, rng: random.Random, policy: Policy = uniform,
              max_actions: int = 100_000) -> Played:
    """Play from `state` until `game.is_over`; raises if the game does not end."""
    log: list[Action] = []
    events: list[Event] = []
    for _ in range(max_actions):
        if game.is_over(state):
            return Played(state, tuple(log), tuple(events))
        action = game.chance_action(state, rng)
        if action is None:
            actions = game.legal_actions(state)
            if not actions:
                raise RuntimeError(f"{game.name}: no legal action and no chance action")
            action = policy(state, actions, rng)
        state, evs = game.apply(state, action)
        log.append(action)
        events.extend(evs)
    raise RuntimeError(f"{game.name}: game did not end within {max_actions} actions")


def checked_options(build: Callable[[], Any], games: int) -> Any | None:
    """Options from `build()`, or None after printing why they (or `games`) are unusable."""
    try:
        options = build()
    except RulesError as exc:
        print(f"error: {exc}")
        return None
    if games < 1:
        print("error: --games must be at least 1")
        return None
    return options
