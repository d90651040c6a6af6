"""The camera side and the demo's players: stability window, camera loop, outputs, buttons
(issue 4 "Referee", "Running it": a passing hand never becomes a move; illegal moves caught)."""

import queue
import time

import pytest

from companion.referee.buttons import ButtonLoop
from companion.referee.outputs import Outputs, light_state
from companion.referee.pipeline import CameraLoop, TableSensor
from companion.referee.players import SimulatedPlayers
from companion.referee.referee import Referee
from companion.referee.simtable import PhysicalTable, observe
from companion.referee.stability import StabilityFilter
from companion.rules.hexel import HexelOptions
from companion.rules.hexel.game import Place


def test_the_stability_window_passes_settled_content_once():
    f = StabilityFilter(0.5)
    a = observe([((0, 0), "RRRRRR")])
    b = observe([((0, 0), "RRRRRR"), ((1, 0), "RRRRRR")])
    covered = observe([((0, 0), "RRRRRR"), ((1, 0), "RRRRRR")], hand=(1, 0))
    assert f.feed(a, 0.0) is None
    assert f.feed(a, 0.6) is a
    assert f.feed(a, 1.0) is None                      # already passed on
    assert f.feed(covered, 1.1) is None                # a hand passing over...
    assert f.feed(b, 1.3) is None                      # ...lays a card
    assert f.feed(covered, 1.5) is None                # and passes again
    assert f.feed(b, 1.6) is None
    assert f.feed(b, 2.05) is None
    assert f.feed(b, 2.15) is b and f.settled_at == 1.6
    shifted = observe([((5, 5), "RRRRRR"), ((6, 5), "RRRRRR")])  # lattice origin moved
    assert f.feed(shifted, 2.2) is None and f.feed(shifted, 3.0) is None


def test_outputs_drive_light_and_buzzer(store):
    class Light:
        def __init__(self):
            self.states = []

        def set(self, s):
            self.states.append(s)

    class Buzz:
        def __init__(self):
            self.calls = []

        def beep(self):
            self.calls.append("beep")

        def play_hoxla(self):
            self.calls.append("hoxla")

    ref = Referee(store)
    light, buzz = Light(), Buzz()
    out = Outputs(ref, light=light, buzzer=buzz)
    out.handle("candidate", {"kind": "move", "legal": False})
    out.handle("candidate", {"kind": "wait"})
    out.handle("announce", {"headline": "Hexel", "action": {"type": "hexel.place"}})
    out.handle("announce", {"headline": "Hox'la!", "action": {"type": "hexel.place"}})
    assert light.states == ["illegal", "waiting"]
    assert buzz.calls == ["beep", "hoxla"]
    assert light_state({"kind": "move", "legal": True}) == "legal"


@pytest.mark.parametrize("pin_factory", ["mock"])
def test_a_mock_button_press_confirms_through_the_button_loop(store, pin_factory):
    from gpiozero.pins.mock import MockFactory

    from companion.hardware import Role, TableButtons

    ref = Referee(store)
    ref.new_match(HexelOptions(seats=2), start="shuffle", seed=4)
    factory = MockFactory()
    events: queue.Queue = queue.Queue()
    with TableButtons({Role.CONFIRM: 5, Role.UNDO: 6, Role.NEXT: 13}, events,
                      debounce_s=0.02, pin_factory=factory):
        loop = ButtonLoop(ref, events).start()
        try:
            factory.pin(13).drive_low()
            time.sleep(0.05)
            factory.pin(13).drive_high()   # NEXT: default stakes
            deadline = time.monotonic() + 2
            while ref.state.phase != "play" and time.monotonic() < deadline:
                time.sleep(0.01)
            assert ref.state.phase == "play"
        finally:
            loop.stop()


def test_simulated_players_play_through_the_camera_loop_and_illegal_moves_are_caught(store):
    ref = Referee(store, auto_confirm_s=0.05)
    ref.new_match(HexelOptions(seats=2, stake=1), source="test")
    table = PhysicalTable()
    camera = CameraLoop(ref, TableSensor(table, fps=50, draw=True), StabilityFilter(0.1),
                        period_s=0.005).start()
    players = SimulatedPlayers(ref, table, seed=2, pace_s=0.03, illegal_rate=0.5).start()
    try:
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline and (
                sum(isinstance(a, Place) for a in ref.log) < 6 or players.illegal_caught < 2):
            time.sleep(0.05)
    finally:
        players.stop()
        camera.stop()
    placed = [a for a in ref.log if isinstance(a, Place)]
    assert len(placed) >= 6
    assert players.illegal_caught >= 2
    assert players.illegal_missed == 0  # every wrong rotation the referee saw was flagged
    assert players.illegal_caught == players.illegal_laid
    assert camera.jpeg()[:2] == b"\xff\xd8"  # the schematic camera picture
    again = Referee(store)
    assert again.snapshot()["game"] == ref.snapshot()["game"]


def test_the_real_pipeline_renderer_source_reader_commits_a_move(store):
    pytest.importorskip("companion.synth.scene")
    from companion.referee.pipeline import FrameSensor
    from companion.referee.scene import SceneCamera
    from companion.rules.hexel import GAME
    from companion.sources import SupervisedSource, SyntheticSource
    from companion.vision.reader import HexelReader

    ref = Referee(store, auto_confirm_s=0.0)
    ref.new_match(HexelOptions(seats=2), start="shuffle", seed=6)
    ref.next("test")
    table = PhysicalTable()
    table.cards = {p.cell: p.oriented for p in ref.state.layout.placements}
    source = SupervisedSource(lambda: SyntheticSource(SceneCamera(table), fps=12), stall_s=5)
    source.start()
    camera = CameraLoop(ref, FrameSensor(source, HexelReader()), StabilityFilter(0.2)).start()
    try:
        move = next(a for a in GAME.legal_actions(ref.state) if isinstance(a, Place))
        n = len(ref.log)
        table.hover(move.cell)
        time.sleep(0.3)
        table.lay(move.card, move.cell, move.rotation)
        table.hover(None)
        deadline = time.monotonic() + 10
        while len(ref.log) == n and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ref.log[-1] == move or (
            isinstance(ref.log[-1], Place) and ref.log[-1].cell == move.cell
            and ref.log[-1].card == move.card), ref.proposal.message
        assert camera.jpeg() is not None
    finally:
        camera.stop()
        source.stop()
