"""The scoreboard and admin app through Flask's test client (issue 4 "Scoreboard")."""

import re

from companion.referee.facade import TableFacade
from companion.rules.hexel import GAME, HexelOptions
from companion.rules.hexel.game import Place
from companion.web import create_app

PIN = "424242"


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def login(client, pin=PIN):
    page = client.get("/admin/").get_data(as_text=True)
    return client.post("/admin/login", data={"pin": pin, "csrf": csrf_of(page)})


def admin_token(client) -> str:
    assert login(client).status_code == 303
    html = client.get("/admin/").get_data(as_text=True)
    assert "CONFIRM" in html
    return csrf_of(html)


def test_guest_page_shows_the_table_with_local_assets_only(client):
    r = client.get("/")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    for name in ("Ada", "Ben", "Cleo", "Stake", "Cards left", "History"):
        assert name in html
    assert "CONFIRM" not in html and "/admin/act" not in html  # guests change nothing
    for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert "://" not in ref, f"external asset {ref}"
    for asset in ("/static/board.js", "/static/style.css"):
        assert client.get(asset).status_code == 200


def test_state_json_is_the_referee_snapshot(client, referee):
    data = client.get("/state.json").get_json()
    assert data["game"]["seats"][0]["name"] == "Ada"
    assert data["game"]["stake"] == 2 and data["game"]["phase"] == "stake"
    assert "hands" not in data["game"]  # hidden information stays hidden


def test_admin_action_without_the_pin_is_refused(client, store, referee):
    page = client.get("/admin/").get_data(as_text=True)
    assert "PIN" in page and "CONFIRM" not in page
    before = store.actions(referee.game_id)
    r = client.post("/admin/act", data={"action": "next", "csrf": csrf_of(page)},
                    headers={"X-Requested-With": "fetch"})
    assert r.status_code == 403 and not r.get_json()["ok"]
    r = client.post("/admin/act", data={"action": "hedge", "seat": "0", "multiple": "1",
                                        "csrf": csrf_of(page)})
    assert r.status_code == 403
    assert store.actions(referee.game_id) == before


def test_a_wrong_pin_does_not_log_in_and_too_many_lock_out(client):
    r = login(client, "000000")
    assert "CONFIRM" not in client.get("/admin/").get_data(as_text=True)
    for _ in range(5):
        login(client, "111111")
    login(client, PIN)  # the right PIN, but this address is paused
    html = client.get("/admin/").get_data(as_text=True)
    assert "CONFIRM" not in html and "Too many wrong PINs" in html
    assert r.status_code == 303


def test_commands_need_the_csrf_token(client, store, referee):
    admin_token(client)
    before = store.actions(referee.game_id)
    r = client.post("/admin/act", data={"action": "next"}, headers={"X-Requested-With": "fetch"})
    assert r.status_code == 400 and "CSRF" in r.get_json()["message"]
    r = client.post("/admin/act", data={"action": "next", "csrf": "forged"})
    assert r.status_code == 400
    assert store.actions(referee.game_id) == before


def test_without_javascript_a_command_answers_where_the_script_would(client, referee):
    """A phone without JavaScript (or a tap before the page's script ran) posts the form: the
    admin page it returns to shows the answer in the result line, marked accepted or
    refused, as the script shows it."""
    token = admin_token(client)
    r = client.post("/admin/act", data={"action": "hedge", "seat": "1", "multiple": "1",
                                        "csrf": token})
    assert r.status_code == 303
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    ok = re.search(r'<div id="result" class="result ok" role="status">([^<]+)</div>', html)
    assert ok and "hedge" in ok.group(1).lower(), html[:200]
    assert referee.state.ledger["hedge:1"] == 2
    r = client.post("/admin/act", data={"action": "hedge", "seat": "1", "multiple": "1",
                                        "csrf": token})
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    bad = re.search(r'<div id="result" class="result bad" role="status">([^<]+)</div>', html)
    assert bad and "already staked" in bad.group(1)
    assert referee.state.ledger["hedge:1"] == 2
    # shown once: the next visit starts with an empty result line
    html = client.get("/admin/").get_data(as_text=True)
    assert '<div id="result" class="result" role="status"></div>' in html


def test_admin_commands_go_through_the_rules(client, referee, store):
    token = admin_token(client)
    h = {"X-CSRF-Token": token, "X-Requested-With": "fetch"}
    r = client.post("/admin/act", data={"action": "hedge", "seat": "1", "multiple": "3"},
                    headers=h)
    assert r.get_json()["ok"], r.get_json()
    assert referee.state.ledger["hedge:1"] == 6
    r = client.post("/admin/act", data={"action": "hedge", "seat": "1", "multiple": "1"},
                    headers=h)
    assert r.status_code == 409 and "already staked" in r.get_json()["message"]
    r = client.post("/admin/act", data={"action": "hedge", "seat": "x", "multiple": "1"},
                    headers=h)
    assert "whole number" in r.get_json()["message"]
    assert client.post("/admin/act", data={"action": "next"}, headers=h).get_json()["ok"]
    assert referee.state.phase == "play"
    move = next(a for a in GAME.legal_actions(referee.state) if isinstance(a, Place))
    r = client.post("/admin/act", data={"action": "override", "q": str(move.cell[0]),
                                        "r": str(move.cell[1]), "card": move.card,
                                        "rotation": str(move.rotation)}, headers=h)
    assert r.get_json()["ok"], r.get_json()
    assert referee.log[-1] == move
    assert client.post("/admin/act", data={"action": "undo"}, headers=h).get_json()["ok"]
    assert move not in referee.log
    r = client.post("/admin/act", data={"action": "bogus"}, headers=h)
    assert not r.get_json()["ok"]


def test_a_plain_form_post_redirects_with_the_message(client, referee):
    token = admin_token(client)
    r = client.post("/admin/act", data={"action": "stake", "stake": "5", "csrf": token})
    assert r.status_code == 303
    html = client.get("/admin/").get_data(as_text=True)
    assert "not possible now" in html  # SetStake belongs to the setup phase


def test_new_match_from_the_admin_page(client, referee):
    token = admin_token(client)
    h = {"X-CSRF-Token": token, "X-Requested-With": "fetch"}
    r = client.post("/admin/act", data={"action": "new_match", "names": "Zoe, Yan",
                                        "stake": "3", "chips": "40", "start": "camera"},
                    headers=h)
    assert r.get_json()["ok"], r.get_json()
    g = client.get("/state.json").get_json()["game"]
    assert [s["name"] for s in g["seats"]] == ["Zoe", "Yan"]
    assert g["phase"] == "setup" and g["seats"][0]["stock"] == 40 and g["stake"] == 3
    r = client.post("/admin/act", data={"action": "new_match", "names": ""}, headers=h)
    assert "names" in r.get_json()["message"]


def test_join_page_has_a_qr_code_of_the_lan_address(client):
    html = client.get("/join", headers={"Host": "companion.local:8123"}).get_data(as_text=True)
    assert "<svg" in html
    assert re.search(r"http://\d+\.\d+\.\d+\.\d+:8123/", html)


def test_frame_endpoint_serves_the_latest_jpeg(referee):
    jpeg = b"\xff\xd8fakejpeg\xff\xd9"
    app = create_app(TableFacade(referee, frame_jpeg=lambda: jpeg),
                     {"SECRET_KEY": "s", "TABLE_PIN": PIN})
    r = app.test_client().get("/frame.jpg")
    assert r.status_code == 200 and r.data == jpeg and r.mimetype == "image/jpeg"


def test_no_frame_yet_is_no_content(client):
    assert client.get("/frame.jpg").status_code == 204


def test_names_cannot_inject_script(store):
    from companion.referee.referee import Referee

    ref = Referee(store)
    ref.new_match(HexelOptions(seats=2, names=("</script><script>alert(1)</script>", "B")))
    app = create_app(TableFacade(ref), {"SECRET_KEY": "s", "TABLE_PIN": PIN})
    html = app.test_client().get("/").get_data(as_text=True)
    assert "<script>alert(1)" not in html


def test_event_stream_starts_with_a_snapshot_and_resumes(client, referee):
    r = client.get("/events", buffered=False)
    assert r.mimetype == "text/event-stream"
    text = ""
    for chunk in r.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: state" in text:
            break
    r.close()
    assert "retry:" in text and "event: state" in text
    event_id = re.search(r"id: (\S+)\nevent: state", text).group(1)
    referee.next("test")  # stakes: several updates published
    r = client.get("/events", headers={"Last-Event-ID": event_id}, buffered=False)
    got = ""
    for chunk in r.response:
        got += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: announce" in got:
            break
    r.close()
    assert "event: state" in got and "event: announce" in got
    ids = [int(i.split(".")[1]) for i in re.findall(r"^id: (\S+)", got, re.M)]
    assert ids == sorted(ids) and ids[0] == int(event_id.split(".")[1]) + 1


def test_join_qr_scales_to_its_box_and_warns_when_phones_cannot_reach_it(facade):
    app = create_app(facade, {"SECRET_KEY": "s", "TABLE_PIN": PIN,
                              "JOIN_URL": "http://127.0.0.1:8765/"})
    html = app.test_client().get("/join").get_data(as_text=True)
    svg = re.search(r"<svg[^>]*>", html).group(0)
    assert "viewBox" in svg and "width=" not in svg  # sized by CSS, not a fixed pixel box
    assert 'id="local-only"' in html and "--host 0.0.0.0" in html
    lan = create_app(facade, {"SECRET_KEY": "s", "TABLE_PIN": PIN,
                              "JOIN_URL": "http://192.168.1.20:8000/"})
    assert 'id="local-only"' not in lan.test_client().get("/join").get_data(as_text=True)


def _play_to_the_end(referee, rng) -> None:
    """Random legal decisions through the referee until the game is over."""
    while referee.state.phase != "over":
        choices = GAME.legal_actions(referee.state)
        assert referee.submit(rng.choice(choices)).ok


def test_a_hand_pot_is_taken_into_the_stock_between_games_only(client, referee, store):
    """H6: chips won into a hand pot may be used in another game — the admin moves them to the
    stock between games; during a game the same command is refused and nothing is stored."""
    import random

    token = admin_token(client)
    h = {"X-CSRF-Token": token, "X-Requested-With": "fetch"}
    before = store.actions(referee.game_id)
    r = client.post("/admin/act", data={"action": "take_hand_pot", "seat": "0", "amount": "1"},
                    headers=h)
    assert r.status_code == 409 and not r.get_json()["ok"]
    assert store.actions(referee.game_id) == before
    rng = random.Random(3)
    for _ in range(20):   # games until one ends with chips in a hand pot (insurance paid)
        _play_to_the_end(referee, rng)
        pots = {s: referee.state.ledger[f"hand:{s}"] for s in range(3)}
        if any(pots.values()):
            break
        assert client.post("/admin/act", data={"action": "next_game"},
                           headers=h).get_json()["ok"]
        assert referee.submit(GAME.chance_action(referee.state, rng)).ok
    seat, chips = max(pots.items(), key=lambda kv: kv[1])
    assert chips > 0
    stock = referee.state.ledger[f"stock:{seat}"]
    total = referee.state.ledger.total
    r = client.post("/admin/act", data={"action": "take_hand_pot", "seat": str(seat),
                                        "amount": str(chips + 1)}, headers=h)
    assert r.status_code == 409 and referee.state.ledger[f"hand:{seat}"] == chips
    r = client.post("/admin/act", data={"action": "take_hand_pot", "seat": str(seat),
                                        "amount": str(chips)}, headers=h)
    assert r.get_json()["ok"], r.get_json()
    assert referee.state.ledger[f"hand:{seat}"] == 0
    assert referee.state.ledger[f"stock:{seat}"] == stock + chips
    assert referee.state.ledger.total == total
    assert "form-take-hand-pot" in client.get("/admin/").get_data(as_text=True)


def test_a_json_body_that_is_no_object_is_refused_and_changes_nothing(client, store, referee,
                                                                     facade):
    # a list, a string or a number as the body once raised inside the view (HTTP 500)
    token = admin_token(client)
    before, snap = store.actions(referee.game_id), facade.snapshot()
    for body in ('["next"]', '"next"', "7", "null", '{"action": "next"', "\xff\xfe"):
        r = client.post("/admin/act", data=body, content_type="application/json",
                        headers={"X-CSRF-Token": token})
        assert r.status_code == 400, body
        assert r.get_json() == {"ok": False, "message": r.get_json()["message"]}
        assert "JSON object" in r.get_json()["message"]
    assert store.actions(referee.game_id) == before
    assert facade.snapshot() == snap
    # and the same command as an object is taken
    r = client.post("/admin/act", json={"action": "next"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.get_json()["ok"]
    assert len(store.actions(referee.game_id)) > len(before)
