"""The Hexapod referee (issue 6 "Vision II", referee half): placements seen in the display cases
are confirmed, undone, auto-confirmed, stored before they are announced and resumed after a
restart; illegal placements (RULES.md P2) and bad observations never change the game; coins,
passes and the Spider go through the rules (P3); the score shown is P4's."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.referee.facade import TableFacade
from companion.referee.hexapod_table import (
    CasesFrameSensor,
    LaidCard,
    PhysicalCases,
    observe_cases,
)
from companion.referee.pipeline import CameraLoop, GameSensor, Sensed
from companion.referee.referee import Referee
from companion.referee.stability import StabilityFilter
from companion.rules.core import to_json
from companion.rules.hexapod import Card, HexapodOptions
from companion.rules.hexapod.game import EndTurn, Pass, TableCoin, TablePlay, TableSpider
from companion.rules.hexel import HexelOptions
from companion.vision.observation import HexapodObservation, SeenCase

DECK_FILE = Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json"


def rows(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(r.split()) for r in text.split("/"))


BLUE, GREEN, STAG, RED = "B B/B B/B B", "G G/G G/G G", "St B/Sb B/B B", "R R/R R/R R"
TEXTS = {"blue": BLUE, "green": GREEN, "stag": STAG, "red": RED, "gold": "Y Y/Y Y/Y Y",
         "dung": "K B/B B/B B", "moth": "Ml Mr/B B/B B", "mix1": "B G/G B/B G",
         "mix2": "R B/B R/R B", "dung2": "K K/K K/K K", "mix3": "G Y/Y G/G Y"}
DECK = tuple(Card(n, rows(t)) for n, t in TEXTS.items())
OPTIONS = HexapodOptions(deck=DECK, names=("Ada", "Ben"))


def hexapod_referee(store, clock, **kw) -> Referee:
    ref = Referee(store, game="hexapod", clock=clock, **kw)
    out = ref.new_match(OPTIONS, source="test")
    assert out.ok, out.message
    return ref


def card(name: str, col: int, row: int) -> LaidCard:
    return LaidCard(name, rows(TEXTS[name]), col, row)


def table_of(ref: Referee) -> PhysicalCases:
    """Physical cases showing exactly the committed game."""
    cases = PhysicalCases()
    for seat in (0, 1):
        cases.set_cards(seat + 1, (card(n, c, r) for n, c, r in ref.state.laid[seat]))
    return cases


def lay(ref: Referee, seat: int, name: str, col: int, row: int):
    """A player lays a card; the (settled) camera view reaches the referee."""
    cases = table_of(ref)
    cases.lay(seat + 1, card(name, col, row))
    return ref.observe(cases.observe())


def test_confirm_commits_durably_then_publishes_state_and_announcement(store, clock):
    ref = hexapod_referee(store, clock)
    sub = ref.bus.subscribe(None)
    assert sub.get(0).kind == "state"
    p = lay(ref, 0, "blue", 1, 2)
    assert p.kind == "move" and p.legal, p.message
    assert sub.get(0).kind == "candidate"
    n = len(store.actions(ref.game_id))
    out = ref.confirm("button")
    assert out.ok, out.message
    assert store.actions(ref.game_id)[-1] == to_json(TablePlay(0, rows(BLUE), 1, 2))
    assert len(store.actions(ref.game_id)) == n + 1
    kinds = []
    while (u := sub.get(0)) is not None:
        kinds.append(u.kind)
    assert kinds[-2:] == ["state", "announce"]
    snap = ref.snapshot()
    ada = snap["game"]["seats"][0]
    # P4 by hand: the blue block scores 3 rows x 2 + 2 columns x 3 = 12; 3 coins x 2 = 6.
    assert (ada["score"], ada["breakdown"]["blue"], ada["breakdown"]["coins"]) == (18, 12, 6)
    assert ada["case"][2][1:3] == ["B", "B"] and ada["case"][1][1] == "."
    assert snap["game"]["to_play_name"] == "Ben"
    assert ref.history[-1]["headline"] == "+12" and ref.history[-1]["who"] == "Ada"
    assert ref.proposal.kind == "idle"  # the cases now match the committed game


def test_the_store_is_written_before_anything_is_announced(store, clock):
    ref = hexapod_referee(store, clock)
    lay(ref, 0, "blue", 0, 0)
    seen_in_store = []
    original = ref.bus.publish

    def spy(kind, data, t=0.0):
        if kind in ("state", "announce"):
            seen_in_store.append(len(store.actions(ref.game_id)))
        return original(kind, data, t)

    ref.bus.publish = spy
    n = len(store.actions(ref.game_id))
    assert ref.confirm().ok
    assert seen_in_store == [n + 1, n + 1]


def test_an_illegal_placement_is_refused_and_nothing_changes(store, clock):
    ref = hexapod_referee(store, clock, auto_confirm_s=0.5)
    lay(ref, 0, "blue", 0, 0)
    assert ref.confirm().ok
    lay(ref, 1, "green", 0, 0)
    assert ref.confirm().ok
    state, n = ref.state, len(store.actions(ref.game_id))
    p = lay(ref, 0, "red", 1, 0)  # P2.1: reds over blues only
    assert p.kind == "move" and not p.legal and p.error_code == "no_direct_cover"
    out = ref.confirm()
    assert not out.ok and "own kind" in out.message
    clock.t += 60
    assert ref.tick() is None  # never auto-confirmed
    assert ref.state is state and len(store.actions(ref.game_id)) == n
    assert ref.snapshot()["candidate"]["legal"] is False


def test_a_bad_observation_never_commits(store, clock):
    ref = hexapod_referee(store, clock, auto_confirm_s=0.5)
    state, n = ref.state, len(store.actions(ref.game_id))
    misread = table_of(ref)
    misread.lay(1, LaidCard("?", rows("B B/B B/B G"), 0, 0))  # no deck card shows this
    bad = [
        misread.observe(),
        HexapodObservation(cases=(SeenCase(1, (("Q",) * 6,) * 6, ((False,) * 6,) * 6),)),
        HexapodObservation(cases=(SeenCase(1, (("B",) * 6,) * 3, ((False,) * 6,) * 3),)),
        "not an observation",
    ]
    for obs in bad:
        p = ref.observe(obs)
        assert p.kind in ("problem", "wait") and p.action is None, p.message
        assert not ref.confirm().ok
        clock.t += 60
        assert ref.tick() is None
    assert ref.state is state and len(store.actions(ref.game_id)) == n


def test_undo_replays_and_a_restart_resumes_the_same_game(store, clock):
    ref = hexapod_referee(store, clock)
    lay(ref, 0, "stag", 0, 0)
    assert ref.confirm().ok
    before = ref.snapshot()["game"]
    lay(ref, 1, "blue", 2, 2)
    assert ref.confirm().ok
    after = ref.snapshot()["game"]
    again = Referee(store, clock=clock)  # a fresh process: the store decides the game
    assert again.game == "hexapod"
    assert again.snapshot()["game"] == after
    assert [h["headline"] for h in again.history][-2:] == ["+10", "+12"]
    assert again.undo().ok
    assert again.snapshot()["game"] == before
    third = Referee(store, game="hexel", clock=clock)
    assert third.game == "hexapod" and third.snapshot()["game"] == before


def test_auto_confirm_after_a_stable_period_but_not_right_after_an_undo(store, clock):
    ref = hexapod_referee(store, clock, auto_confirm_s=1.5)
    lay(ref, 0, "blue", 0, 0)
    clock.t += 1.0
    assert ref.tick() is None
    clock.t += 1.0
    out = ref.tick()
    assert out is not None and out.ok
    assert ref.undo().ok
    lay(ref, 0, "blue", 0, 0)  # the card is still in the case: the same candidate comes back
    clock.t += 10
    assert ref.tick() is None
    assert ref.confirm().ok


def test_coins_passes_and_the_spider_go_through_the_rules(store, clock):
    ref = hexapod_referee(store, clock)
    assert not ref.next().ok  # NEXT without a coin: nothing to end
    assert not ref.submit(TableCoin(1)).ok  # not Ben's turn
    assert ref.submit(TableCoin(0)).ok
    assert ref.snapshot()["game"]["seats"][0]["coins"] == 2
    assert ref.snapshot()["game"]["seats"][0]["breakdown"]["coins"] == 4
    assert not ref.submit(Pass(0)).ok  # after a coin: play or end the turn (P3)
    assert ref.next().ok and isinstance(ref.log[-1], EndTurn)  # NEXT ends the turn
    assert ref.state.to_play == 1
    assert ref.submit(TableSpider(1)).ok
    assert ref.history[-1]["headline"] == "Spider!"
    assert ref.submit(Pass(1)).ok
    assert ref.state.phase == "play" and ref.state.to_play == 0  # Ada's final turn
    assert ref.submit(Pass(0)).ok
    assert ref.state.phase == "over"
    old = ref.game_id
    assert ref.next().ok  # NEXT after the game: the next game, same players
    assert ref.game_id != old and ref.state.phase == "play" and ref.game == "hexapod"


def test_admin_commands_through_the_facade(store, clock):
    ref = hexapod_referee(store, clock)
    facade = TableFacade(ref)
    n = len(ref.log)
    assert facade.command("hedge", {"seat": "0", "multiple": "1"}, "t")[0] is False
    ok, msg = facade.command("place", {"card": "blue", "col": "9", "row": "1"}, "t")
    assert not ok and "does not fit" in msg
    ok, msg = facade.command("place", {"card": "nope", "col": "1", "row": "1"}, "t")
    assert not ok and "no card named" in msg
    assert len(ref.log) == n
    ok, msg = facade.command("place", {"card": "blue", "col": "2", "row": "3"}, "t")
    assert ok, msg
    assert ref.log[-1] == TablePlay(0, rows(BLUE), 1, 2)
    assert facade.command("coin", {}, "t")[0] and ref.state.coins == (3, 2)
    assert facade.command("end_turn", {}, "t")[0] and ref.state.to_play == 0
    assert facade.command("spider", {"seat": "0"}, "t")[0] and ref.state.spider
    assert facade.command("pass", {}, "t")[0] and ref.state.passed == {0}
    ok, msg = facade.command("new_match", {"game": "hexapod", "names": "Zoe"}, "t")
    assert not ok and "two players" in msg
    ok, msg = facade.command("new_match", {"game": "hexel", "names": "Zoe, Yan, Xi"}, "t")
    assert ok, msg
    assert ref.game == "hexel" and ref.snapshot()["game"]["game"] == "hexel"
    assert facade.command("coin", {}, "t")[0] is False  # a Hexapod command at a Hex'el table
    ok, msg = facade.command("new_match", {"game": "hexapod", "names": "Ada, Ben"}, "t")
    assert ok, msg
    assert ref.game == "hexapod" and len(ref.options.deck) == 41  # the shipped deck


def test_a_hexel_referee_keeps_working_next_to_hexapod(store, clock):
    ref = Referee(store, clock=clock)
    assert ref.new_match(HexelOptions(seats=2), start="shuffle", seed=2).ok
    assert ref.game == "hexel" and ref.snapshot()["game_name"] == "hexel"
    p = ref.observe(observe_cases([(1, [])]))
    assert p.kind == "problem" and p.action is None


class Scripted:
    """A sensor replaying (t, observation) readings."""

    def __init__(self, readings):
        self.readings = list(readings)

    def sense(self):
        if not self.readings:
            return None
        t, obs = self.readings.pop(0)
        return Sensed(obs, None, int(t * 100), t)

    def status(self):
        return "ok", "scripted"


def test_a_passing_hand_is_no_change_and_a_laid_card_commits_once_it_settles(store, clock):
    ref = hexapod_referee(store, clock, auto_confirm_s=0.0)
    empty = PhysicalCases()
    hand = PhysicalCases()
    hand.hover(1, 2, 2)
    laid = PhysicalCases()
    laid.lay(1, card("blue", 2, 2))
    over = PhysicalCases()
    over.lay(1, card("blue", 2, 2))
    over.hover(1, 2, 2)
    script = [(0.0, empty), (0.5, hand), (0.6, hand), (0.7, empty), (0.9, empty),  # passes by
              (1.5, empty), (2.0, hand), (2.2, over), (2.4, laid), (2.6, laid), (3.5, laid)]
    loop = CameraLoop(ref, Scripted((t, c.observe(t)) for t, c in script),
                      StabilityFilter(0.5))
    logs = []
    for _ in script:
        loop.step()
        logs.append(len(ref.log))
    assert logs[:8] == [1] * 8  # only TableStart: the hand never became a move
    assert logs[-1] == 2 and ref.log[-1] == TablePlay(0, rows(BLUE), 2, 2)


def test_the_frame_sensor_reads_frames_with_the_hexapod_reader():
    class Frame:
        def __init__(self, seq):
            self.seq, self.t, self.image = seq, seq * 0.1, np.zeros((60, 80, 3), np.uint8)

    class Source:
        def __init__(self):
            self.frame = Frame(1)

        def latest(self):
            return self.frame

        def status(self):
            return type("S", (), {"state": "ok", "message": "fine"})()

    class Reader:
        def __init__(self):
            self.calls = []

        def read(self, image, t, frame_seq):
            self.calls.append((t, frame_seq))
            case = SeenCase(1, (("B",) * 6,) * 6, ((False,) * 6,) * 6,
                            corners_px=((5, 5), (70, 5), (70, 50), (5, 50)))
            return HexapodObservation(cases=(case,), t=t, frame_seq=frame_seq)

    source, reader = Source(), Reader()
    sensor = CasesFrameSensor(source, reader)
    sensed = sensor.sense()
    assert sensed is not None and sensed.observation.cases[0].player == 1
    assert reader.calls == [(0.1, 1)]
    assert sensed.image is not None and sensed.image.any()  # the case outline was drawn
    assert sensor.sense() is None  # the same frame is not read twice
    assert sensor.status() == ("ok", "fine")


def test_the_game_sensor_follows_the_game_and_reports_a_missing_reader(store, clock):
    ref = hexapod_referee(store, clock)
    made = []

    def make(game):
        made.append(game)
        if game == "hexapod":
            raise ImportError("no module named companion.vision.hexapod")
        return Scripted([])

    sensor = GameSensor(ref, make)
    assert sensor.sense() is None
    state, message = sensor.status()
    assert state == "error" and "companion.vision.hexapod" in message
    assert made == ["hexapod"]  # not retried at once
    ref.new_match(HexelOptions(seats=2), start="shuffle", seed=1)
    assert sensor.status() == ("ok", "scripted") and made == ["hexapod", "hexel"]


def test_the_game_sensor_builds_a_new_reader_for_a_match_of_the_other_edition(store, clock):
    # a Hex'el reader is built for one edition's inks: a new match of the other edition must
    # not be read with them
    ref = hexapod_referee(store, clock)
    ref.new_match(HexelOptions(seats=2, edition="holodex"), start="shuffle", seed=1)
    made = []

    def make(game):
        made.append((game, ref.options.edition))
        return Scripted([])

    sensor = GameSensor(ref, make)
    sensor.sense()
    sensor.sense()
    assert made == [("hexel", "holodex")]
    ref.new_match(HexelOptions(seats=2, edition="web"), start="shuffle", seed=2)
    sensor.sense()
    assert made == [("hexel", "holodex"), ("hexel", "web")]


def test_the_demo_camera_photographs_the_cases_with_the_hand_over_the_footprint():
    from companion.referee.hexapod_table import CasesCamera

    cases = PhysicalCases()
    cases.lay(1, card("stag", 0, 0))
    camera = CasesCamera(cases, seed=2, size=(640, 360))
    image = camera(0.0)
    assert image.shape == (360, 640, 3)
    truth = {c.player: c for c in camera.truth.cases}
    assert truth[1].grid[0][:2] == ("St", "B") and truth[2].grid == ((".",) * 6,) * 6
    cases.hover(2, 3, 2)  # a hand over the footprint at column 4, row 3 of player 2's case
    camera(0.1)
    visible = {c.player: c.visible for c in camera.truth.cases}
    assert min(visible[2][r][c] for r in (2, 3, 4) for c in (3, 4)) < 0.5
    assert min(v for row in visible[1] for v in row) > 0.99  # the other case stays clear


def test_the_demo_reads_rendered_frames_with_the_hexapod_reader_when_there_is_one(
        store, clock, monkeypatch):
    import sys
    import time
    import types

    from companion.commands.demo import build_hexapod

    frames = []

    class FakeReader:
        """Stands in for companion.vision.hexapod.HexapodReader (written elsewhere)."""

        def read(self, image, t=0.0, frame_seq=0):
            frames.append(image.shape)
            return observe_cases([(1, []), (2, [])], t=t, seq=frame_seq)

    module = types.ModuleType("companion.vision.hexapod")
    module.HexapodReader = FakeReader
    monkeypatch.setitem(sys.modules, "companion.vision.hexapod", module)
    ref = hexapod_referee(store, clock)
    _cases, sensor, how, _players = build_hexapod(ref, seed=3, camera=True)
    try:
        assert "Hexapod reader" in how
        deadline = time.monotonic() + 20
        sensed = None
        while sensed is None and time.monotonic() < deadline:
            sensed = sensor.sense()
            time.sleep(0.05)
        assert sensed is not None and frames and frames[0] == (720, 1280, 3)
        assert sensed.observation.cases[0].player == 1
    finally:
        sensor.close()
    monkeypatch.delitem(sys.modules, "companion.vision.hexapod")
    monkeypatch.setitem(sys.modules, "companion.vision.hexapod", None)  # no reader at all
    _cases, sensor, how, _players = build_hexapod(ref, seed=3, camera=True)
    assert "straight from the simulated cases" in how


def test_the_engine_cannot_shuffle_a_table_game(store, clock):
    ref = hexapod_referee(store, clock)
    games, game_id = len(store.games()), ref.game_id
    out = ref.new_match(OPTIONS, start="shuffle")
    assert not out.ok and "start='camera'" in out.message
    assert len(store.games()) == games and ref.game_id == game_id
