"""The plain records the game store hands out: a game's header and one entry of its log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["GameRecord", "LogRecord"]


@dataclass(frozen=True)
class GameRecord:
    """One game: its id, the rules module's name, its options as JSON, and when it began.

    `created` is wall-clock time (seconds since the epoch), for display.
    """

    id: int
    game: str
    options_json: str
    created: float


@dataclass(frozen=True)
class LogRecord:
    """One entry of a game's raw, append-only log.

    `kind` is "action" (then `action_json` is the committed action) or "undo" (then `undoes` is
    the sequence number of the action it took back). `t` is wall-clock time of the commit.
    """

    seq: int
    kind: Literal["action", "undo"]
    action_json: str | None
    undoes: int | None
    t: float
