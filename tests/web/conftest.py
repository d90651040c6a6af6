"""Fixtures for the web tests: a real store and referee behind the facade, the Flask app, and
Debian's Chromium for the browser tests (launched once per module)."""

from __future__ import annotations

import pytest

from companion.referee.facade import TableFacade
from companion.referee.referee import Referee
from companion.rules.hexel import HexelOptions
from companion.store import GameStore
from companion.web import create_app

PIN = "424242"
CHROMIUM = "/usr/bin/chromium"


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


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield b
        b.close()
