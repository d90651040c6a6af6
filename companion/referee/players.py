"""Simulated players at a physical table, for `companion demo` and the benchmark.

`SimulatedPlayers` plays a tracked Hex'el match (the engine shuffled, so it knows every hand) the
way people do at a real table: the dealer shuffles and lays the opening line, every seat tells its
stake, and on its turn a seat reaches over the table, lays one of its cards and withdraws its hand
— and now and then lays it at a wrong rotation, waits for the referee to object, picks it up and
lays it right. The players only touch the `PhysicalTable` (and press NEXT when they cannot
place); the camera pipeline and the referee must notice everything else. At the start of each
turn the table is squared with the committed layout, so an undo on the admin page is followed by
the players taking their card back.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from ..rules.hexel import GAME
from ..rules.hexel.game import Hedge, Place, Shuffle
from ..rules.hexel.layout import EdgeMismatch
from .referee import Referee
from .simtable import PhysicalTable

__all__ = ["PlayerLoop", "SimulatedPlayers"]

log = logging.getLogger(__name__)


class PlayerLoop:
    """The thread every simulated table runs in: `step()` again and again at `pace_s`, until
    `stop()`; a failing step is logged and retried, never taking the demo down. Subclasses set
    `referee`, `pace_s` and `wait_for_commit_s`, and implement `step()`."""

    referee: Referee
    pace_s: float = 1.0
    wait_for_commit_s: float | None = 30.0
    name = "players"

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def step(self) -> None:
        """One gesture of the players."""
        raise NotImplementedError

    def start(self) -> PlayerLoop:
        """Start playing."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop after the current gesture (harmless if never started)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _pause(self, factor: float = 1.0) -> bool:
        """Wait; False if asked to stop."""
        return not self._stop.wait(self.pace_s * factor)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:  # a simulated player must not take the demo down
                log.exception("simulated %s failed", self.name)
                self._pause(2)

    def _wait_for_commit(self, n: int) -> None:
        """Wait until the referee's log grows past `n` actions (or `wait_for_commit_s`)."""
        deadline = None if self.wait_for_commit_s is None else \
            time.monotonic() + self.wait_for_commit_s
        while len(self.referee.log) == n and not self._stop.is_set():
            if deadline is not None and time.monotonic() > deadline:
                break
            self._stop.wait(0.05)

    def _wait_for(self, predicate: Callable[[Any], bool], timeout: float) -> bool:
        """Wait until `predicate(referee.proposal)` holds; False after `timeout`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and not self._stop.is_set():
            if predicate(self.referee.proposal):
                return True
            self._stop.wait(0.05)
        return False


class SimulatedPlayers(PlayerLoop):
    """Plays the referee's match on `table` in a thread (see the module docstring)."""

    def __init__(self, referee: Referee, table: PhysicalTable, seed: int = 1,
                 pace_s: float = 1.0, illegal_rate: float = 0.15, max_hedge: int = 3,
                 wait_for_commit_s: float | None = 30.0) -> None:
        self.referee = referee
        self.table = table
        self.rng = random.Random(seed)
        self.pace_s = pace_s
        self.illegal_rate = illegal_rate
        self.max_hedge = max_hedge
        self.wait_for_commit_s = wait_for_commit_s
        self.illegal_laid = 0
        self.illegal_caught = 0
        self.illegal_missed = 0  # judged "not illegal" or never flagged within the wait
        self.moves = 0
        super().__init__()

    def square_table(self) -> None:
        """Make the physical table show exactly the committed layout."""
        state = self.referee.state
        if state is None:
            return
        with self.table._lock:
            self.table.cards = {p.cell: p.oriented for p in state.layout.placements}
            self.table.hand = None

    def step(self) -> None:
        """One gesture of the table, depending on the phase."""
        state = self.referee.state
        if state is None or getattr(self.referee, "game", "hexel") != "hexel":
            self._pause()  # no match, or the admin page started another game
            return
        if state.phase == "setup":
            self.table.clear()
            self._pause()
            self.referee.submit(Shuffle(self.rng.getrandbits(31)), "dealer")
            self._lay_line()
        elif state.phase == "stake":
            self.square_table()
            for seat in state.in_game:
                if seat in state.hedged:
                    continue
                have = state.ledger[f"stock:{seat}"] // state.stake
                m = self.rng.randint(min(1, have), min(self.max_hedge, have))
                if not self._pause(0.5):
                    return
                self.referee.submit(Hedge(seat, m), "player")
                return
        elif state.phase == "play":
            self.square_table()
            self._turn()
        elif state.phase == "over" and self._pause(4):
            self.referee.next("dealer")

    def _lay_line(self) -> None:
        state = self.referee.state
        if state is None:
            return
        self.table.hover((1, 0))  # the dealer lays the line in one go, hand over it
        if not self._pause(0.5):
            return
        for p in state.layout.placements:
            self.table.lay(p.card, p.cell, p.rotation)
        self._pause(0.3)
        self.table.hover(None)

    def _turn(self) -> None:
        state = self.referee.state
        assert state is not None
        n = len(self.referee.log)
        places = [a for a in GAME.legal_actions(state) if isinstance(a, Place)]
        if not self._pause():
            return
        if not places:
            self.referee.next("player")  # cannot place: NEXT discards
            return
        edges = {a: 6 - state.layout.pattern(a.cell).count(".") for a in places}
        good = [a for a in places if edges[a] == max(edges.values())]
        move = self.rng.choice(good if self.rng.random() < 0.5 else places)
        wrong = self._wrong_rotation(state, move) if self.rng.random() < self.illegal_rate \
            else None
        if wrong is not None:
            self.illegal_laid += 1
            self._gesture(move, wrong)
            if self._wait_for(lambda p: p.kind == "move" and not p.legal, 6):
                self.illegal_caught += 1
            elif self._stop.is_set():
                self.illegal_laid -= 1  # interrupted before the referee could judge it
            else:
                self.illegal_missed += 1
            if not self._pause(2.0):
                return
            self.table.hover(move.cell)
            if not self._pause(0.4):
                return
            self.table.pick_up(move.cell)
        self._gesture(move, move.rotation)
        self.moves += 1
        self._wait_for_commit(n)

    def _gesture(self, move: Place, rotation: int) -> None:
        """Reach over the cell, lay the card, withdraw."""
        self.table.hover(move.cell)
        if not self._pause(0.5):
            return
        self.table.lay(move.card, move.cell, rotation)
        if not self._pause(0.3):
            return
        self.table.hover(None)

    def _wrong_rotation(self, state, move: Place) -> int | None:
        """A rotation of the same card on the same cell that breaks an edge (H2), if any."""
        options = list(range(6))
        self.rng.shuffle(options)
        for k in options:
            try:
                state.layout.check(move.card, move.cell, k)
            except EdgeMismatch:
                return k
        return None
