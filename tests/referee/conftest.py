"""Shared fixtures for the referee tests: a real store in a temp dir and a hand-driven clock."""

from __future__ import annotations

import pytest

from companion.referee.referee import Referee
from companion.rules.hexel import HexelOptions
from companion.store import GameStore


class Clock:
    """A hand-driven monotonic clock."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(tmp_path):
    s = GameStore(tmp_path / "table.db")
    yield s
    s.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def referee(store, clock):
    """A referee with a 3-seat tracked match already shuffled (seed 5) and dealt."""
    r = Referee(store, clock=clock)
    r.new_match(HexelOptions(seats=3, stake=2, names=("Ada", "Ben", "Cleo")), start="shuffle",
                seed=5)
    return r
