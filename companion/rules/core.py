"""The protocol every game of the rules engine speaks, and the errors it raises.

A game is a small object with `initial_state(options)`, `legal_actions(state)` and
`apply(state, action) -> (state, events)`. States, options, actions and events are frozen
dataclasses; actions and events are registered by a stable `kind` name so that they round-trip
through JSON (`to_json` / `from_json`). A game *is* the fold of its action log: `replay` rebuilds
the exact state from the options and the log, which is how the store persists games and how undo
works (replay without the last action). Chance (shuffles, deals) enters only through logged actions
that carry a seed, so every replay is deterministic. Nothing here does I/O.
"""

from __future__ import annotations

import dataclasses
import json
import random
import types
import typing
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

__all__ = [
    "Action",
    "CardNotInHand",
    "Event",
    "Game",
    "IllegalAction",
    "MalformedMessage",
    "RulesError",
    "WrongPhase",
    "WrongSeat",
    "from_json",
    "from_jsonable",
    "message",
    "replace_at",
    "replay",
    "replay_events",
    "require_phase",
    "to_json",
    "to_jsonable",
]


# --------------------------------------------------------------------------------------------
# Errors


class RulesError(Exception):
    """Base of every refusal by the rules engine. The state it was given is left unchanged."""

    code: ClassVar[str] = "rules_error"


class MalformedMessage(RulesError):
    """An action, event or options object that does not have the expected shape or types."""

    code = "malformed"


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow in this state."""

    code = "illegal"


class WrongPhase(IllegalAction):
    """The action belongs to another phase of the game (e.g. placing a card during the stake)."""

    code = "wrong_phase"


class WrongSeat(IllegalAction):
    """The action names a seat whose turn it is not."""

    code = "wrong_seat"


class CardNotInHand(IllegalAction):
    """The seat does not hold the card the action names."""

    code = "card_not_in_hand"


def require_phase(phase: str, action: object, *phases: str, what: str = "game") -> None:
    """Raise `WrongPhase` unless `phase` is one of `phases` (the `what` is the game or match)."""
    if phase not in phases:
        raise WrongPhase(
            f"{type(action).__name__} is not possible now: the {what} is in its "
            f"{phase} phase (allowed in: {', '.join(phases)})"
        )


def replace_at(items: tuple, index: int, value: object) -> tuple:
    """A copy of `items` with the entry at `index` replaced (per-seat tuples in states)."""
    return (*items[:index], value, *items[index + 1:])


# --------------------------------------------------------------------------------------------
# Messages: registered frozen dataclasses with a JSON form


class Message:
    """Base of actions and events: a frozen dataclass registered under a stable `kind`."""

    kind: ClassVar[str] = ""


class Action(Message):
    """Something a seat (or the table, for chance) does; the unit of the action log."""


class Event(Message):
    """Something the referee can announce, produced by applying an action."""

    def announce(self, names: Sequence[str]) -> str:
        """A sentence a referee can say out loud; `names` are the seats' display names."""
        return self.kind


_REGISTRY: dict[str, type] = {}
M = TypeVar("M", bound=type)


def message(kind: str):
    """Class decorator: make a frozen dataclass and register it under `kind` for JSON."""

    def wrap(cls: M) -> M:
        if kind in _REGISTRY and _REGISTRY[kind].__qualname__ != cls.__qualname__:
            raise ValueError(f"message kind {kind!r} registered twice")
        dc = dataclasses.dataclass(frozen=True)(cls)
        dc.kind = kind
        _REGISTRY[kind] = dc
        return dc

    return wrap


def to_jsonable(obj: Any) -> Any:
    """Turn messages, option dataclasses, tuples and frozensets into JSON-ready values."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {}
        kind = getattr(type(obj), "kind", "") if isinstance(obj, Message) else ""
        if kind:
            out["type"] = kind
        for f in dataclasses.fields(obj):
            out[f.name] = to_jsonable(getattr(obj, f.name))
        return out
    if isinstance(obj, tuple | list):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, frozenset | set):
        return sorted(to_jsonable(x) for x in obj)
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if obj is None or isinstance(obj, bool | int | str | float):
        return obj
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def to_json(obj: Any) -> str:
    """Compact, key-sorted JSON text of a message or options object."""
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"))


def from_jsonable(data: Any, cls: type | None = None) -> Any:
    """Rebuild a registered message (by its `type` key) or a dataclass `cls` from JSON values.

    Every field is checked against its annotation; a wrong shape raises `MalformedMessage`
    naming the field, so a bad web request can never reach the rules as a half-valid object.
    """
    if cls is None:
        if not isinstance(data, dict) or "type" not in data:
            raise MalformedMessage("expected an object with a 'type' key")
        kind = data["type"]
        if kind not in _REGISTRY:
            raise MalformedMessage(f"unknown message type {kind!r}")
        cls = _REGISTRY[kind]
    return _convert(data, cls, cls.__name__)


def from_json(text: str | bytes, cls: type | None = None) -> Any:
    """Parse JSON text into a message (or into `cls`)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise MalformedMessage(f"not valid JSON: {exc}") from None
    return from_jsonable(data, cls)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _convert(value: Any, tp: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert(value, arg, where)
            except MalformedMessage as exc:
                errors.append(str(exc))
        raise MalformedMessage("; ".join(errors) or f"{where}: unexpected null")
    if origin is typing.Literal:
        if value not in args:
            raise MalformedMessage(f"{where}: expected one of {list(args)}, got {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise MalformedMessage(f"{where}: expected a list, got {type(value).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise MalformedMessage(f"{where}: expected {len(args)} items, got {len(value)}")
        pairs = enumerate(zip(value, args, strict=True))
        return tuple(_convert(v, a, f"{where}[{i}]") for i, (v, a) in pairs)
    if origin is frozenset:
        if not isinstance(value, list | tuple | set | frozenset):
            raise MalformedMessage(f"{where}: expected a list, got {type(value).__name__}")
        return frozenset(_convert(v, args[0], f"{where}[]") for v in value)
    if tp is bool:
        if not isinstance(value, bool):
            raise MalformedMessage(f"{where}: expected true/false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedMessage(f"{where}: expected an integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise MalformedMessage(f"{where}: expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise MalformedMessage(f"{where}: expected a string, got {value!r}")
        return value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise MalformedMessage(f"{where}: expected an object, got {type(value).__name__}")
        kind = getattr(tp, "kind", "")
        if kind and value.get("type", kind) != kind:
            raise MalformedMessage(f"{where}: expected type {kind!r}, got {value.get('type')!r}")
        hints = _hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        extra = set(value) - names - {"type"}
        if extra:
            raise MalformedMessage(f"{where}: unknown field(s) {sorted(extra)}")
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in value:
                kwargs[f.name] = _convert(value[f.name], hints[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise MalformedMessage(f"{where}: missing field {f.name!r}")
        try:
            return tp(**kwargs)
        except (TypeError, ValueError) as exc:
            raise MalformedMessage(f"{where}: {exc}") from None
    raise TypeError(f"{where}: unsupported annotation {tp!r}")


# --------------------------------------------------------------------------------------------
# The game protocol

S = TypeVar("S")
Opt = TypeVar("Opt")


class Game(Protocol[Opt, S]):
    """What every game module provides. All functions are pure."""

    name: str
    options_type: type

    def initial_state(self, options: Opt) -> S:
        """The state before the first action of a match."""

    def legal_actions(self, state: S) -> list[Action]:
        """Every decision some seat may take now (empty when only chance can move)."""

    def chance_action(self, state: S, rng: random.Random) -> Action | None:
        """The seeded chance action to log now (a shuffle), or None if a seat must decide."""

    def apply(self, state: S, action: Action) -> tuple[S, tuple[Event, ...]]:
        """The state after `action` and what to announce; raises `RulesError` if refused."""

    def is_over(self, state: S) -> bool:
        """True when the current game has ended (a new game may still follow)."""


def replay(game: Game[Opt, S], options: Opt, log: Iterable[Action]) -> S:
    """Fold an action log into the state it produces (raises if any action is refused)."""
    state = game.initial_state(options)
    for action in log:
        state, _ = game.apply(state, action)
    return state


def replay_events(
    game: Game[Opt, S], options: Opt, log: Iterable[Action]
) -> tuple[S, list[tuple[Event, ...]]]:
    """Like `replay`, also returning the events of each action, in order."""
    state = game.initial_state(options)
    out: list[tuple[Event, ...]] = []
    for action in log:
        state, events = game.apply(state, action)
        out.append(events)
    return state, out
