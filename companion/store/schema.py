"""Opening, checking and creating the SQLite file behind the game store.

A store file is ours when its header carries our `PRAGMA application_id` and a `user_version` this
build knows. `open_database` creates a fresh file (or fills an empty one), and refuses — with a
`StoreError` naming the file and saying what to do — anything else: a file that is not SQLite, a
damaged one, another program's database, or one written by a newer schema. It never rewrites or
resets a file it refused. An accepted file is switched to WAL journaling with `synchronous=FULL`, so
every commit is on disk (fsynced) before `COMMIT` returns.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from pathlib import Path

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "StoreError", "open_database"]

log = logging.getLogger(__name__)

#: "TCOM" — marks a file as a Table Companion store (SQLite header offset 68).
APPLICATION_ID = 0x54434F4D
#: The newest schema this build writes and reads.
SCHEMA_VERSION = 1

_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA_V1 = (
    """CREATE TABLE games (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        game         TEXT NOT NULL,
        options_json TEXT NOT NULL,
        created      REAL NOT NULL
    )""",
    """CREATE TABLE log (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        seq         INTEGER NOT NULL CHECK (seq >= 1),
        kind        TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
        action_json TEXT,
        undoes      INTEGER,
        t           REAL NOT NULL,
        PRIMARY KEY (game_id, seq),
        CHECK ((kind = 'action' AND action_json IS NOT NULL AND undoes IS NULL)
            OR (kind = 'undo' AND action_json IS NULL AND undoes IS NOT NULL))
    ) WITHOUT ROWID""",
    """CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID""",
    *(
        f"""CREATE TRIGGER {table}_append_only_{op[0].lower()} BEFORE {op} ON {table}
            BEGIN SELECT RAISE(ABORT, 'the {table} table is append-only'); END"""
        for table in ("games", "log")
        for op in ("UPDATE", "DELETE")
    ),
)

_TABLES = {"games", "log", "meta"}


class StoreError(Exception):
    """The store file cannot be used as it is: corrupt, foreign, newer, or not writable.

    The message names the file and what to do; the file itself has been left untouched.
    """


def open_database(path: Path) -> sqlite3.Connection:
    """An autocommit connection to the checked (or newly created) store at `path`."""
    path = Path(path)
    _check_header(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh_file = not path.exists()
        conn = sqlite3.connect(
            path, timeout=10.0, isolation_level=None, check_same_thread=False
        )
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(
            f"cannot open the game store {path}: {exc}. Check the path (store.path in the "
            "config) and that this user may write to its directory."
        ) from exc
    try:
        _check_or_create(conn, path)
        _tune(conn, path)
    except BaseException:
        conn.close()
        raise
    if fresh_file:
        _fsync_directory(path.parent)
    return conn


def _check_header(path: Path) -> None:
    try:
        with path.open("rb") as fh:
            head = fh.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(
            f"cannot read the game store {path}: {exc}. Check the path (store.path in the "
            "config) and this user's permissions."
        ) from exc
    if head and head != _SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not an SQLite database, so it is not a Table Companion game store "
            "(it may be damaged or another kind of file). It was left untouched: move it "
            "away to start a new store, or set store.path to the right file."
        )


def _check_or_create(conn: sqlite3.Connection, path: Path) -> None:
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        raise _corrupt(path, exc) from exc
    if app_id == 0 and version == 0 and not names:
        _create(conn, path)
        return
    if app_id != APPLICATION_ID:
        raise StoreError(
            f"{path} is an SQLite database of another program (application_id "
            f"{app_id:#x}, tables {sorted(names)[:5]}), not a Table Companion game store. "
            "It was left untouched: set store.path to another file."
        )
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} was written by a newer Table Companion (store schema {version}; this "
            f"version reads up to {SCHEMA_VERSION}). Upgrade the software, or set store.path "
            "to another file; the file was left untouched."
        )
    if version < 1 or not names >= _TABLES:
        raise StoreError(
            f"{path} is a Table Companion store with an incomplete schema (version {version}, "
            f"tables {sorted(names)}); it may be damaged. It was left untouched: move it away "
            "(keep it for inspection) to start a new store."
        )
    try:
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        raise _corrupt(path, exc) from exc
    if problems != ["ok"]:
        raise _corrupt(path, "; ".join(problems))


def _create(conn: sqlite3.Connection, path: Path) -> None:
    try:
        conn.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA_V1:
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise StoreError(f"cannot create the game store {path}: {exc}") from exc
    log.info("created a new game store at %s", path)


def _tune(conn: sqlite3.Connection, path: Path) -> None:
    try:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise _corrupt(path, exc) from exc
    if str(mode).lower() != "wal":
        log.warning("%s: WAL journaling unavailable (journal_mode=%s); still fsynced", path, mode)


def _corrupt(path: Path, detail: object) -> StoreError:
    return StoreError(
        f"{path} is damaged ({detail}). It was left untouched: keep a copy, then move it away "
        "to start a new store (or try `sqlite3 FILE .recover` on the copy)."
    )


def _fsync_directory(directory: Path) -> None:
    """Make the new file's directory entry durable (power cut right after first start)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
