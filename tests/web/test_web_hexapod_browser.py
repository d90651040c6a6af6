"""The Hexapod demo pipeline in Debian's Chromium at a phone's 390×844 viewport (issue 6 "Vision
II"): simulated display cases → truth sensor → stability window → referee → store → scoreboard.
A card laid in a case shows as a legal candidate, CONFIRM on the admin page commits it, and the
guest page shows the new P4 score (worked out by hand below)."""

from __future__ import annotations

import os

import pytest

from companion.commands.demo import build_hexapod
from companion.referee.compose import WebStack
from companion.referee.hexapod_table import LaidCard
from companion.referee.judges import hexapod_options
from companion.referee.pipeline import CameraLoop
from companion.referee.referee import Referee
from companion.referee.stability import StabilityFilter
from companion.store import GameStore

CHROMIUM = "/usr/bin/chromium"
PIN = "86420"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"Debian's Chromium not at {CHROMIUM}"),
]


@pytest.fixture
def phone(browser):
    """A fresh phone-sized browser context; page errors fail the test."""
    contexts, errors = [], []

    def new_page():
        context = browser.new_context(viewport={"width": 390, "height": 844})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield new_page
    for context in contexts:
        context.close()
    assert not errors, errors


@pytest.fixture
def demo(tmp_path):
    """The demo's Hexapod pipeline (truth sensor) behind a live server; players not started."""
    store = GameStore(tmp_path / "t.db")
    referee = Referee(store, game="hexapod", auto_confirm_s=None)
    assert referee.new_match(hexapod_options(("Ada", "Ben")), source="test").ok
    cases, sensor, how, players = build_hexapod(referee, seed=4, pace=0.05, illegal=0.0,
                                                camera=False, fps=25)
    assert "straight from the simulated cases" in how
    camera = CameraLoop(referee, sensor, StabilityFilter(0.2), period_s=0.01).start()
    web = WebStack(referee, store, camera, "127.0.0.1", 0, PIN, SSE_HEARTBEAT_S=1.0).start()
    yield referee, cases, players, web.server.url
    players.stop()
    camera.stop()
    web.stop()
    store.close()


def test_a_confirmed_placement_changes_the_score_on_the_guest_page(phone, demo):
    referee, cases, _players, url = demo
    guest = phone()
    guest.goto(url + "/")
    guest.wait_for_selector("body[data-conn=live]")
    assert guest.text_content("#hx-score-0") == "6"  # P4: 3 unspent coins x 2
    assert guest.locator("#hx-cases .hx-seat").count() == 2
    assert guest.locator("#hx-cases .hx-grid .cell").count() == 72
    card = referee.options.cards["I01"]  # B St / G Sb / G R
    assert card.rows == (("B", "St"), ("G", "Sb"), ("G", "R"))
    cases.hover(1, 0, 0)  # a hand reaches over Ada's case...
    guest.wait_for_selector("#candidate.kind-wait")
    cases.lay(1, LaidCard(card.name, card.rows, 0, 0))
    cases.hover(None)  # ...and leaves the card
    guest.wait_for_selector("#candidate.legal")
    assert guest.locator("#hx-cases .cell.ghost.legal").count() == 6
    assert guest.text_content("#hx-score-0") == "6"  # nothing committed yet

    admin = phone()
    admin.goto(url + "/admin/")
    admin.fill("#pin", PIN)
    admin.click("#login")
    admin.click("#btn-confirm")
    # P4 by hand: stag 5; the two greens in column 1 form a vertical run (2 x 2 = 4); the lone
    # red scores 1; the lone blue 0; coins 6: 16.
    guest.wait_for_function("document.getElementById('hx-score-0').textContent === '16'",
                            timeout=5000)
    assert guest.text_content("#announce-word") == "+10"
    assert "Ada" in guest.text_content("#announce-who")
    assert guest.text_content("#turn").startswith("Ben to play")
    assert "5" in guest.text_content("#hx-breakdown-0 .k-stag dd")
    assert guest.locator("#hx-cases .hx-seat").first.locator(".cell.c-St").count() == 1
    width = guest.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    assert len(referee.log) == 2 and referee.log[-1].rows == card.rows


def test_the_simulated_players_play_and_the_page_keeps_up(phone, demo):
    referee, _cases, players, url = demo
    referee.auto_confirm_s = 0.1
    guest = phone()
    guest.goto(url + "/")
    guest.wait_for_selector("body[data-conn=live]")
    players.start()
    guest.wait_for_function("Number(document.body.dataset.actions) >= 3", timeout=20000)
    players.stop()
    snap = referee.snapshot()
    guest.wait_for_function(f"Number(document.body.dataset.actions) === {snap['last']['n']}",
                            timeout=5000)
    for seat in snap["game"]["seats"]:
        assert guest.text_content(f"#hx-score-{seat['seat']}") == str(seat["score"])
    assert any(s["score"] != 6 for s in snap["game"]["seats"])
