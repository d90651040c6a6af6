"""The referee: the committed match, the move the camera proposes, and every change to it.

A `Referee` owns one match at a time, of any game it has a `Judge` for (`judges`: Hex'el and
Hexapod). Its options and action log live in the store; its state is the replay of that log
through the rules engine, so a restart (or an undo) is a replay, and a restart resumes whichever
game the store holds. The judge turns each stable observation (`observe`) into a proposal; the
referee commits the candidate move on a confirm (button, web, or automatically once a legal
candidate has been stable for `auto_confirm_s`), undoes the last committed action, and takes every
other action (stakes, coins, passes, next game, a manual placement) through the same path: the
rules check it on the current state, the store makes it durable, and only then is the new state
published. Every change is published on `bus` with an increasing id (the scoreboard's Server-Sent
Events). All public methods are thread-safe (camera, buttons and web threads call them) and turn
errors into an `Outcome` instead of raising: one bad frame or request never takes it down.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..rules.core import Action, RulesError, from_json, replay_events, to_json
from ..rules.hexel.game import Place
from .bus import Broadcaster
from .judges import NEW_MATCH, Judge, ProposalLike, judge_for, judge_for_options
from .proposal import MIN_CONFIDENCE, Proposal
from .view import history_entry

__all__ = ["GameStoreLike", "Outcome", "Referee", "RefereeError"]

log = logging.getLogger(__name__)


class RefereeError(Exception):
    """The stored match cannot be loaded (its log does not replay)."""


class GameStoreLike(Protocol):
    """What the referee needs of `companion.store.GameStore`."""

    def create_game(self, game: str, options_json: str) -> int: ...
    def append(self, game_id: int, action_json: str) -> int: ...
    def undo(self, game_id: int) -> str | None: ...
    def actions(self, game_id: int) -> list[str]: ...
    def latest_game(self) -> Any: ...


@dataclass(frozen=True)
class Outcome:
    """The answer to a command: did it change anything, and a sentence for the players."""

    ok: bool
    message: str


class Referee:
    """The committed match plus the live proposal; see the module docstring."""

    def __init__(self, store: GameStoreLike, *, game: str = "hexel",
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, min_confidence: float = MIN_CONFIDENCE,
                 auto_confirm_s: float | None = None, default_hedge: int = 1,
                 history: int = 200, buffer: int = 256) -> None:
        """`game` is the game of a fresh store; a store with a match resumes that match."""
        self._store = store
        try:
            self.judge: Judge = judge_for(game)
        except ValueError as exc:
            raise RefereeError(str(exc)) from None
        self._clock = clock
        self._wall = wall
        self.min_confidence = min_confidence
        self.auto_confirm_s = auto_confirm_s
        self.default_hedge = default_hedge
        self._history_max = history
        self._lock = threading.RLock()
        self.bus = Broadcaster(self.snapshot, buffer=buffer)
        self.game_id: int | None = None
        self.options: Any = None
        self.state: Any = None
        self.log: list[Action] = []
        self.history: list[dict] = []
        self._proposal: ProposalLike = Proposal("idle", "Waiting for the camera.")
        self._proposal_since = clock()
        self._observation: Any = None
        self._status: dict = {"state": "none", "message": "no camera"}
        self._notice: dict | None = None
        self._no_auto_key: str | None = None  # a candidate that was just undone: no auto-confirm
        self._load()

    # -- loading ------------------------------------------------------------------------------

    def _load(self) -> None:
        record = self._store.latest_game()
        if record is None:
            return
        try:
            judge = judge_for(record.game)
        except ValueError as exc:
            raise RefereeError(f"the store's latest match (#{record.id}) cannot be resumed: "
                               f"{exc}") from None
        if judge.name != self.judge.name:
            log.info("the store holds a match of %s: resuming it", judge.title)
        try:
            options = from_json(record.options_json, judge.options_type)
            actions = [from_json(a) for a in self._store.actions(record.id)]
            state, events = replay_events(judge.game, options, actions)
        except RulesError as exc:
            raise RefereeError(f"match {record.id} in the store does not replay: {exc}") from exc
        self.judge = judge
        self.game_id, self.options, self.state, self.log = record.id, options, state, actions
        names = options.seat_names
        entries = [history_entry(i + 1, a, ev, names, "log", headline_of=judge.headline)
                   for i, (a, ev) in enumerate(zip(actions, events, strict=True))]
        self.history = entries[-self._history_max:]

    # -- reading ----------------------------------------------------------------------------

    @property
    def game(self) -> str:
        """The name of the game being refereed ("hexel", "hexapod")."""
        return self.judge.name

    @property
    def proposal(self) -> ProposalLike:
        """The current judgement of the table."""
        return self._proposal

    def snapshot(self) -> dict:
        """Everything the scoreboard shows, as JSON-ready data."""
        with self._lock:
            names = self.options.seat_names if self.options else ()
            return {
                "game_name": self.judge.name, "game_title": self.judge.title,
                "game": (self.judge.game_view(self.state, self.game_id)
                         if self.state is not None else None),
                "candidate": self._candidate_view(),
                "history": list(reversed(self.history[-40:])),
                "last": self.history[-1] if self.history else None,
                "status": dict(self._status),
                "notice": self._notice,
                "names": list(names),
                "auto_confirm_s": self.auto_confirm_s,
            }

    def _candidate_view(self) -> dict:
        names = self.options.seat_names if self.options else ()
        view = self._proposal.to_view(names)
        view["since"] = self._proposal_since
        return view

    # -- the camera -------------------------------------------------------------------------

    def observe(self, observation: Any) -> ProposalLike:
        """Judge a stable observation and publish the proposal if it changed."""
        with self._lock:
            self._observation = observation
            self._repropose()
            return self._proposal

    def _repropose(self) -> None:
        obs = self._observation
        if self.state is None:
            p = Proposal("idle", "No match yet: start one on the admin page.")
        elif obs is None:
            p = Proposal("idle", "Waiting for the camera.")
        else:
            try:
                p = self.judge.propose(self.state, obs, self.min_confidence)
            except Exception as exc:  # a bad observation must never stop the referee
                log.exception("could not judge observation")
                p = Proposal("problem", f"Could not read the table ({exc}); waiting for the "
                                        "next view.")
        self._set_proposal(p)

    def _set_proposal(self, p: ProposalLike) -> None:
        if p.key == self._proposal.key:
            return
        self._proposal = p
        self._proposal_since = self._clock()
        self.bus.publish("candidate", self._candidate_view(), self._wall())

    def set_status(self, state: str, message: str, **extra: Any) -> None:
        """The camera pipeline's health (published when it changes)."""
        status = {"state": state, "message": message, **extra}
        with self._lock:
            if (status["state"], status["message"]) == (self._status.get("state"),
                                                         self._status.get("message")):
                self._status = status
                return
            self._status = status
            self.bus.publish("status", status, self._wall())

    def tick(self) -> Outcome | None:
        """Auto-confirm a legal candidate that has been stable long enough (call often)."""
        with self._lock:
            p = self._proposal
            if (self.auto_confirm_s is None or p.kind != "move" or not p.legal
                    or p.key == self._no_auto_key
                    or self._clock() - self._proposal_since < self.auto_confirm_s):
                return None
            return self.confirm("auto")

    # -- commands -----------------------------------------------------------------------------

    def confirm(self, source: str = "button") -> Outcome:
        """Commit the candidate move if there is one and it is legal."""
        with self._lock:
            p = self._proposal
            if p.kind != "move" or p.action is None:
                return self._refuse(f"Nothing to confirm: {p.message}")
            if not p.legal:
                return self._refuse(f"Not committed: {p.error}")
            return self._commit(p.action, source)

    def undo(self, source: str = "button") -> Outcome:
        """Take back the last committed action (the store forgets it; the state is replayed)."""
        with self._lock:
            if self.game_id is None or not self.log:
                return self._refuse("Nothing to undo.")
            try:
                undone = self._store.undo(self.game_id)
                if undone is None:
                    return self._refuse("Nothing to undo.")
                actions = [from_json(a) for a in self._store.actions(self.game_id)]
                assert self.options is not None
                state, _ = replay_events(self.judge.game, self.options, actions)
            except Exception as exc:
                log.exception("undo failed")
                return self._refuse(f"Undo failed: {exc}")
            self.log, self.state = actions, state
            gone = self.history.pop() if self.history else None
            what = "; ".join(gone["lines"]) if gone else undone
            entry = {"n": len(self.log), "headline": "Undo", "who": None,
                     "lines": [f"Undone: {what}"], "source": source, "t": self._wall(),
                     "action": None}
            self._after_change(entry)
            self._no_auto_key = self._proposal.key
            return Outcome(True, f"Undone: {what}")

    def next(self, source: str = "button") -> Outcome:
        """The NEXT button; what it does depends on the game (see the judges)."""
        with self._lock:
            if self.state is None:
                return self._refuse("No match yet: start one on the admin page.")
            todo = self.judge.next_actions(self.state, self.default_hedge)
            if todo == NEW_MATCH:
                return self.new_match(self.options, start="camera", source=source)
            if isinstance(todo, str):
                return self._refuse(todo)
            outcome = Outcome(False, "Nothing to do.")
            for action in todo:
                outcome = self._commit(action, source)
                if not outcome.ok:
                    break
            return outcome

    def override(self, cell: tuple[int, int], card: str, rotation: int,
                 source: str = "admin") -> Outcome:
        """Commit a placement typed in by hand (when the camera cannot see)."""
        with self._lock:
            if self.judge.name != "hexel":
                return self._refuse(f"{self.judge.title}: place a card by hand with its own form.")
            if self.state is None or self.state.to_play is None:
                return self._refuse("No seat is to play now.")
            return self._commit(Place(self.state.to_play, card, cell, rotation), source)

    def submit(self, action: Action, source: str = "admin") -> Outcome:
        """Commit any action through the rules (stakes, buy-ins, discards, shuffles...)."""
        with self._lock:
            return self._commit(action, source)

    def new_match(self, options: Any, start: Literal["camera", "shuffle"] = "camera",
                  seed: int | None = None, source: str = "admin") -> Outcome:
        """Start a new match in the store (its game follows from the options); `shuffle` lets
        the engine shuffle and deal at once (Hex'el), `camera` leaves the table to the players."""
        with self._lock:
            try:
                judge = judge_for_options(options)
                seed = seed if seed is not None else int(self._wall() * 1000) & 0x7FFFFFFF
                opening, message = judge.opening(options, start, seed)
                game_id = self._store.create_game(judge.name, to_json(options))
            except Exception as exc:
                log.exception("could not create a match")
                return self._refuse(f"Could not start a match: {exc}")
            if judge.name != self.judge.name:
                self.judge = judge
            self.judge.reset()
            self.game_id, self.options = game_id, options
            self.state, self.log, self.history = self.judge.game.initial_state(options), [], []
            entry = {"n": 0, "headline": "New match", "who": None, "action": None,
                     "lines": [self.judge.match_line(options)], "source": source,
                     "t": self._wall()}
            self._after_change(entry)
            outcome = Outcome(True, message or "New match.")
            for action in opening:
                outcome = self._commit(action, source)
                if not outcome.ok:
                    break
            return outcome

    # -- internals ----------------------------------------------------------------------------

    def _refuse(self, message: str) -> Outcome:
        self._notice = {"text": message, "t": self._wall(), "ok": False}
        self.bus.publish("notice", self._notice, self._wall())
        return Outcome(False, message)

    def _commit(self, action: Action, source: str) -> Outcome:
        if self.state is None or self.game_id is None or self.options is None:
            return self._refuse("No match yet: start one on the admin page.")
        try:
            new, events = self.judge.game.apply(self.state, action)
        except RulesError as exc:
            return self._refuse(f"Refused: {exc}")
        except Exception as exc:  # a malformed action from a request
            log.exception("action failed")
            return self._refuse(f"Refused: {exc}")
        try:
            self._store.append(self.game_id, to_json(action))  # durable before announcing
        except Exception as exc:
            log.exception("store append failed")
            return self._refuse(f"Could not save the move, nothing committed: {exc}")
        self.log.append(action)
        self.state = new
        entry = history_entry(len(self.log), action, events, self.options.seat_names, source,
                              self._wall(), headline_of=self.judge.headline)
        self.history.append(entry)
        del self.history[:-self._history_max]
        self._after_change(entry)
        return Outcome(True, "; ".join(entry["lines"]) or "Done.")

    def _after_change(self, entry: dict) -> None:
        """Re-judge the table against the new state and publish state then announcement."""
        self._notice = None
        self._repropose()
        t = self._wall()
        self.bus.publish("state", self.snapshot(), t)
        self.bus.publish("announce", entry, t)
