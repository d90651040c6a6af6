"""Files the store must refuse with a clear message — and leave byte-for-byte untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.store import GameStore, StoreError


def refused(path: Path, match: str) -> StoreError:
    before = path.read_bytes()
    with pytest.raises(StoreError, match=match) as info:
        GameStore(path)
    assert path.read_bytes() == before, "a refused file must not be modified"
    assert str(path) in str(info.value)
    return info.value


def test_a_file_that_is_not_sqlite(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"these are my holiday notes\n" * 100)
    err = refused(path, "not an SQLite database")
    assert "move it away" in str(err)


def test_another_programs_database(tmp_path):
    path = tmp_path / "games.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ada')")
    conn.commit()
    conn.close()
    refused(path, "another program")


def test_a_database_from_a_newer_version(tmp_path):
    path = tmp_path / "games.db"
    GameStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    err = refused(path, "newer Table Companion")
    assert "schema 99" in str(err)


def test_a_damaged_store(tmp_path):
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        gid = s.create_game("hexel", "{}")
        for i in range(300):
            s.append(gid, '{"type": "x", "pad": "' + "y" * 200 + f'", "n": {i}}}')
    # Fold the WAL into the main file, then scribble over the pages after the first.
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    for offset in range(page, len(data), 1024):
        data[offset:offset + 100] = b"\xa5" * 100
    path.write_bytes(bytes(data))
    refused(path, "damaged")


def test_an_unwritable_location(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a directory should be")
    with pytest.raises(StoreError, match=r"the game store .* Check the path"):
        GameStore(blocker / "games.db")


def test_an_empty_file_becomes_a_new_store(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"")
    with GameStore(path) as s:
        assert s.create_game("hexel", "{}") == 1
