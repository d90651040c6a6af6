"""The Hexapod scoreboard and admin commands through Flask's test client (issue 6 "Vision II":
both players' cases and P4 scores on the scoreboard; coins, passes and the Spider entered on the
admin page go through the rules, RULES.md P3, P4)."""

from __future__ import annotations

import re

import pytest

from companion.referee.facade import TableFacade
from companion.referee.judges import hexapod_options
from companion.referee.referee import Referee
from companion.web import create_app

PIN = "13579"


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


@pytest.fixture
def hx_referee(store):
    ref = Referee(store, game="hexapod")
    assert ref.new_match(hexapod_options(("Ada", "Ben"))).ok
    return ref


@pytest.fixture
def hx_client(hx_referee):
    app = create_app(TableFacade(hx_referee), {"SECRET_KEY": "s", "TABLE_PIN": PIN,
                                               "TESTING": True})
    return app.test_client()


def admin(client) -> dict:
    page = client.get("/admin/").get_data(as_text=True)
    client.post("/admin/login", data={"pin": PIN, "csrf": csrf_of(page)})
    html = client.get("/admin/").get_data(as_text=True)
    assert "btn-coin" in html and "Spider!" in html
    return {"X-CSRF-Token": csrf_of(html), "X-Requested-With": "fetch"}


def test_the_guest_page_shows_both_cases_with_local_assets_only(hx_client):
    r = hx_client.get("/")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'data-game="hexapod"' in html and 'id="hx-cases"' in html
    assert "CONFIRM" not in html and "/admin/act" not in html
    for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert "://" not in ref, f"external asset {ref}"
    for asset in ("/static/hexapod.js", "/static/board.js", "/static/style.css"):
        assert hx_client.get(asset).status_code == 200


def test_state_json_has_each_case_and_its_p4_breakdown(hx_client):
    g = hx_client.get("/state.json").get_json()["game"]
    assert g["game"] == "hexapod" and g["phase"] == "play" and g["to_play_name"] == "Ada"
    for seat in g["seats"]:
        assert len(seat["case"]) == 6 and all(row == ["."] * 6 for row in seat["case"])
        assert seat["coins"] == 3
        assert seat["breakdown"] == {"blue": 0, "green": 0, "gold": 0, "red": 0, "stag": 0,
                                     "moth": 0, "dung": 0, "coins": 6}  # P4: 2 per coin
        assert seat["score"] == 6
    assert "stacks" not in g and "hands" not in g  # the table's secrets are not ours


def test_admin_turn_commands_go_through_the_rules(hx_client, hx_referee, store):
    h = admin(hx_client)
    act = lambda **data: hx_client.post("/admin/act", data=data, headers=h)  # noqa: E731
    before = store.actions(hx_referee.game_id)
    r = act(action="end_turn")
    assert r.status_code == 409 and not r.get_json()["ok"]  # no coin spent: nothing to end
    r = act(action="hedge", seat="0", multiple="1")
    assert r.status_code == 409  # a Hex'el command
    assert store.actions(hx_referee.game_id) == before
    assert act(action="coin").get_json()["ok"]
    assert act(action="pass").status_code == 409  # P3: after a coin, play or end the turn
    name = hx_referee.options.deck[0].name
    r = act(action="place", card=name, col="3", row="2")
    assert r.get_json()["ok"], r.get_json()["message"]
    g = hx_client.get("/state.json").get_json()["game"]
    ada = g["seats"][0]
    assert ada["coins"] == 2 and ada["laid"] == [{"card": name, "col": 2, "row": 1}]
    assert ada["case"][1][2] != "." and g["to_play_name"] == "Ben"
    assert act(action="spider", seat="0").get_json()["ok"]  # shown in Ada's turn, just ended
    assert act(action="pass").get_json()["ok"]  # Ben's final turn
    g = hx_client.get("/state.json").get_json()["game"]
    assert g["phase"] == "over" and g["winners"] == [0]


def test_a_hexapod_game_can_be_started_from_a_hexel_table(client, referee):
    page = client.get("/admin/").get_data(as_text=True)
    client.post("/admin/login", data={"pin": "424242", "csrf": csrf_of(page)})
    html = client.get("/admin/").get_data(as_text=True)
    h = {"X-CSRF-Token": csrf_of(html), "X-Requested-With": "fetch"}
    r = client.post("/admin/act", data={"action": "new_match", "game": "hexapod",
                                        "names": "Zoe, Yan", "coins": "2", "first": "2"},
                    headers=h)
    assert r.get_json()["ok"], r.get_json()
    g = client.get("/state.json").get_json()["game"]
    assert g["game"] == "hexapod" and g["to_play_name"] == "Yan"
    assert [s["coins"] for s in g["seats"]] == [2, 2]
    assert 'data-game="hexapod"' in client.get("/").get_data(as_text=True)
