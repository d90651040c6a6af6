"""Fixtures for the web tests: a real store and referee behind the facade, and the Flask app."""

from __future__ import annotations

import pytest

from companion.referee.facade import TableFacade
from companion.referee.referee import Referee
from companion.rules.hexel import HexelOptions
from companion.store import GameStore
from companion.web import create_app

PIN = "424242"


@pytest.fixture
def store(tmp_path):
    s = GameStore(tmp_path / "table.db")
    yield s
    s.close()


@pytest.fixture
def referee(store):
    r = Referee(store)
    r.new_match(HexelOptions(seats=3, stake=2, names=("Ada", "Ben", "Cleo")), start="shuffle",
                seed=5)
    return r


@pytest.fixture
def facade(referee):
    return TableFacade(referee, frame_jpeg=lambda: None)


@pytest.fixture
def app(facade):
    return create_app(facade, {"SECRET_KEY": "test-secret", "TABLE_PIN": PIN,
                               "SSE_HEARTBEAT_S": 0.2, "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()
