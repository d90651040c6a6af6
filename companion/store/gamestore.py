"""`GameStore`: the append-only, fsynced log of committed actions per game, in one SQLite file.

A game is a header (rules name, options JSON) plus a log of records numbered 1, 2, 3... within
the game. A record is either a committed action or an "undo" that takes back the latest action
still in effect; nothing is ever updated or deleted, so the file is a complete history and the
effective log (`actions`) is the fold of the records. Every write is one transaction committed
with `synchronous=FULL` in WAL mode: when `append` or `undo` returns, the record survives a power
cut or `kill -9`. One connection is shared by all threads behind a lock, so a store may be used
from the referee, the web server's threads and the button handler at once.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from .records import GameRecord, LogRecord
from .schema import StoreError, open_database

__all__ = ["GameStore", "UnknownGame"]


class UnknownGame(LookupError):
    """A game id that is not in this store."""


class GameStore:
    """The game store at `path` (created when missing; see `open_database` for refusals)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = open_database(self.path)

    # -- games -----------------------------------------------------------------------------

    def create_game(self, game: str, options_json: str) -> int:
        """Start a new game of rules module `game` with these options; returns its id."""
        if not game or not isinstance(game, str):
            raise ValueError(f"game must be a rules module name such as 'hexel', got {game!r}")
        _check_json(options_json, "options_json")
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO games (game, options_json, created) VALUES (?, ?, ?)",
                (game, options_json, time.time()),
            )
            return int(cur.lastrowid)

    def game(self, game_id: int) -> GameRecord:
        """The header of game `game_id` (raises `UnknownGame`)."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT id, game, options_json, created FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            raise UnknownGame(f"no game {game_id!r} in {self.path}")
        return GameRecord(*row)

    def latest_game(self) -> GameRecord | None:
        """The most recently created game, or None in an empty store."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT id, game, options_json, created FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return GameRecord(*row) if row else None

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT id, game, options_json, created FROM games ORDER BY id"
            ).fetchall()
        return [GameRecord(*r) for r in rows]

    # -- the log ---------------------------------------------------------------------------

    def append(self, game_id: int, action_json: str) -> int:
        """Commit one action to the game's log; returns its sequence number once it is on disk."""
        _check_json(action_json, "action_json")
        with self._write() as conn:
            seq = self._next_seq(conn, game_id)
            conn.execute(
                "INSERT INTO log (game_id, seq, kind, action_json, undoes, t) "
                "VALUES (?, ?, 'action', ?, NULL, ?)",
                (game_id, seq, action_json, time.time()),
            )
            return seq

    def undo(self, game_id: int) -> str | None:
        """Take back the latest action in effect (by appending an undo record); returns its JSON.

        Returns None, and writes nothing, when no action is in effect.
        """
        with self._write() as conn:
            seq = self._next_seq(conn, game_id)
            effective = self._effective(conn, game_id)
            if not effective:
                return None
            undone_seq, undone_json = effective[-1]
            conn.execute(
                "INSERT INTO log (game_id, seq, kind, action_json, undoes, t) "
                "VALUES (?, ?, 'undo', NULL, ?, ?)",
                (game_id, seq, undone_seq, time.time()),
            )
            return undone_json

    def actions(self, game_id: int) -> list[str]:
        """The effective log: the JSON of every action still in effect, in order."""
        return [text for _, text in self.effective(game_id)]

    def effective(self, game_id: int) -> list[tuple[int, str]]:
        """Like `actions`, with each action's sequence number."""
        with self._read() as conn:
            self._require_game(conn, game_id)
            return self._effective(conn, game_id)

    def log(self, game_id: int) -> list[LogRecord]:
        """The raw log of a game, undo records included, in order."""
        with self._read() as conn:
            self._require_game(conn, game_id)
            rows = conn.execute(
                "SELECT seq, kind, action_json, undoes, t FROM log WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [LogRecord(*r) for r in rows]

    # -- settings --------------------------------------------------------------------------

    def set_meta(self, key: str, value: str) -> None:
        """Remember a setting (the table PIN, the current game...) durably."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"meta keys and values are strings, got {key!r}: {value!r}")
        with self._write() as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def get_meta(self, key: str) -> str | None:
        """A setting stored with `set_meta`, or None."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # -- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file (idempotent). Everything returned earlier is already on disk."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"GameStore({str(self.path)!r})"

    # -- internals -------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"the game store {self.path} is closed")
        return self._conn

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._connection()
            try:
                yield conn
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"reading the game store {self.path} failed: {exc}") from exc

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot write to the game store {self.path}: {exc}") from exc
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(
                        f"writing to the game store {self.path} failed, nothing was "
                        f"committed: {exc}"
                    ) from exc
                raise

    def _require_game(self, conn: sqlite3.Connection, game_id: int) -> None:
        if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGame(f"no game {game_id!r} in {self.path}")

    def _next_seq(self, conn: sqlite3.Connection, game_id: int) -> int:
        self._require_game(conn, game_id)
        (last,) = conn.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM log WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(last) + 1

    def _effective(self, conn: sqlite3.Connection, game_id: int) -> list[tuple[int, str]]:
        stack: list[tuple[int, str]] = []
        rows = conn.execute(
            "SELECT seq, kind, action_json, undoes FROM log WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        for seq, kind, text, undoes in rows:
            if kind == "action":
                stack.append((seq, text))
            elif stack and stack[-1][0] == undoes:
                stack.pop()
            else:
                raise StoreError(
                    f"the log of game {game_id} in {self.path} is inconsistent: record {seq} "
                    f"undoes {undoes}, which is not the latest action in effect. The file was "
                    "left untouched; keep a copy and start a new game."
                )
        return stack


def _check_json(text: str, what: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be JSON text (str), got {type(text).__name__}")
    try:
        json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{what} is not valid JSON ({exc}): {text[:80]!r}") from None
