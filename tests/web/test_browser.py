"""The scoreboard in Debian's Chromium at a phone's 390×844 viewport, against a real waitress
server on 127.0.0.1 (issue 4 "Checks"): a guest page follows a mocked button press within 1 s,
an admin action without the PIN is refused, and a restart mid-game resumes the same state on a
page that reconnects by itself."""

from __future__ import annotations

import os
import queue
import time

import pytest

from companion.referee.buttons import ButtonLoop
from companion.referee.facade import TableFacade
from companion.referee.referee import Referee
from companion.referee.simtable import PhysicalTable
from companion.rules.hexel import GAME, HexelOptions
from companion.rules.hexel.game import Place
from companion.store import GameStore
from companion.web import create_app
from companion.web.server import WebServer

CHROMIUM = "/usr/bin/chromium"
PIN = "97531"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"Debian's Chromium not at {CHROMIUM}"),
]


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def serve(store_path, port=0, seed=5):
    """A referee on the store (a new match if it is empty) behind a live waitress server."""
    store = GameStore(store_path)
    referee = Referee(store)
    if referee.state is None:
        referee.new_match(HexelOptions(seats=3, stake=2, names=("Ada", "Ben", "Cleo")),
                          start="shuffle", seed=seed)
    facade = TableFacade(referee)
    app = create_app(facade, {"SECRET_KEY": "k", "TABLE_PIN": PIN, "SSE_HEARTBEAT_S": 1.0,
                              "SSE_RETRY_MS": 300})
    server = WebServer(app, port=port, threads=12, on_stop=facade.close).start()
    return store, referee, server


def lay_legal_card(referee, table: PhysicalTable):
    """A simulated player lays a legal card; the (settled) camera view reaches the referee."""
    move = next(a for a in GAME.legal_actions(referee.state) if isinstance(a, Place))
    table.cards = {p.cell: p.oriented for p in referee.state.layout.placements}
    table.lay(move.card, move.cell, move.rotation)
    p = referee.observe(table.observe())
    assert p.kind == "move" and p.legal, p.message
    return move


def actions_shown(page) -> int:
    return int(page.evaluate("document.body.dataset.actions || '0'"))


def test_guest_page_updates_within_a_second_of_a_mocked_button_press(page, tmp_path):
    from gpiozero.pins.mock import MockFactory

    from companion.hardware.buttons import Role, TableButtons

    store, referee, server = serve(tmp_path / "t.db")
    factory = MockFactory()
    events: queue.Queue = queue.Queue()
    buttons = TableButtons({Role.CONFIRM: 17, Role.UNDO: 27, Role.NEXT: 22}, events,
                           hold_s=1.0, debounce_s=0.02, pin_factory=factory)
    loop = ButtonLoop(referee, events).start()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-conn=live]")
        referee.next("test")  # default stakes: now a seat is to play
        page.wait_for_function(f"document.body.dataset.actions == '{len(referee.log)}'")
        seat = referee.state.to_play
        move = lay_legal_card(referee, PhysicalTable())
        page.wait_for_selector("#candidate.legal")
        before = actions_shown(page)
        pin = factory.pin(17)
        pin.drive_low()
        time.sleep(0.06)
        pin.drive_high()  # released: a tap of CONFIRM
        t0 = time.monotonic()
        page.wait_for_function(f"document.body.dataset.actions == '{before + 1}'", timeout=1000)
        elapsed = time.monotonic() - t0
        assert elapsed < 1.0
        assert referee.log[-1] == move
        word = page.text_content("#announce-word")
        assert word in ("Hexba", "Hexel", "Hexla", "Hexven", "Hox'la!")
        assert referee.options.seat_names[seat] in page.text_content("#announce-who")
        assert page.locator("#board polygon.card").count() == 4
    finally:
        loop.stop()
        buttons.close()
        server.stop()
        store.close()


def test_an_admin_action_without_the_pin_is_refused(page, tmp_path):
    store, referee, server = serve(tmp_path / "t.db")
    try:
        page.goto(server.url + "/admin/")
        assert page.locator("#pin").is_visible()
        assert page.locator("#btn-next").count() == 0
        n = len(store.actions(referee.game_id))
        token = page.get_attribute("input[name=csrf]", "value")
        status = page.evaluate("""async (token) => {
            const r = await fetch('/admin/act', {method: 'POST',
              headers: {'X-CSRF-Token': token, 'X-Requested-With': 'fetch'},
              body: new URLSearchParams({action: 'next'})});
            return r.status; }""", token)
        assert status == 403
        assert len(store.actions(referee.game_id)) == n
        page.fill("#pin", "00000")
        with page.expect_navigation():  # the form posts and is redirected back
            page.click("#login")
        assert "Wrong PIN." in page.text_content(".flash")
        assert page.locator("#pin").is_visible()  # wrong PIN: still the login form
        assert page.locator("#btn-next").count() == 0
        page.fill("#pin", PIN)
        page.click("#login")
        page.wait_for_selector("#btn-next")
        page.wait_for_load_state("load")   # admin.js has run: the answer comes in place
        page.click("#btn-next")  # the virtual NEXT button: default stakes
        page.wait_for_function("document.getElementById('result').textContent.length > 0")
        assert "ok" in page.get_attribute("#result", "class"), page.text_content("#result")
        assert len(store.actions(referee.game_id)) == n + 3
        assert referee.state.phase == "play"
    finally:
        server.stop()
        store.close()


def test_a_restart_mid_game_resumes_the_same_state_and_the_page_reconnects(page, tmp_path):
    path = tmp_path / "t.db"
    store, referee, server = serve(path)
    port = server.port
    referee.next("test")
    lay_legal_card(referee, PhysicalTable())
    assert referee.confirm().ok
    before = referee.snapshot()["game"]
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-conn=live]")
    shown = actions_shown(page)
    assert shown == len(referee.log)
    server.stop()
    store.close()
    page.wait_for_selector("body[data-conn=down]", timeout=5000)

    store, referee, server = serve(path, port=port)  # a new app on the same store file
    try:
        assert referee.snapshot()["game"] == before
        page.wait_for_selector("body[data-conn=live]", timeout=5000)
        assert actions_shown(page) == shown
        lay_legal_card(referee, PhysicalTable())
        assert referee.confirm().ok
        page.wait_for_function(f"document.body.dataset.actions == '{shown + 1}'", timeout=2000)
        cells = page.locator("#board polygon.card").count()
        assert cells == len(referee.state.layout)
    finally:
        server.stop()
        store.close()
