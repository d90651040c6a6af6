"""The game store: append-only log, undo as a record, restart, and threads (real SQLite files)."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from companion.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    GameRecord,
    GameStore,
    StoreError,
    UnknownGame,
)


def act(n: int) -> str:
    return json.dumps({"type": "test.step", "n": n})


@pytest.fixture
def store(tmp_path):
    s = GameStore(tmp_path / "games.db")
    yield s
    s.close()


def test_create_game_and_read_it_back(store):
    gid = store.create_game("hexel", '{"seats": 3}')
    rec = store.game(gid)
    assert isinstance(rec, GameRecord)
    assert (rec.id, rec.game, rec.options_json) == (gid, "hexel", '{"seats": 3}')
    assert rec.created > 1_600_000_000
    assert store.latest_game() == rec
    assert store.games() == [rec]
    assert store.actions(gid) == []


def test_empty_store_has_no_latest_game(store):
    assert store.latest_game() is None
    assert store.games() == []


def test_append_numbers_records_per_game(store):
    a = store.create_game("hexel", "{}")
    b = store.create_game("hexel", "{}")
    assert [store.append(a, act(i)) for i in range(3)] == [1, 2, 3]
    assert store.append(b, act(9)) == 1
    assert store.actions(a) == [act(0), act(1), act(2)]
    assert store.actions(b) == [act(9)]
    assert store.latest_game().id == b
    assert [g.id for g in store.games()] == [a, b]


def test_undo_appends_a_record_and_returns_the_undone_action(store):
    gid = store.create_game("hexel", "{}")
    for i in range(3):
        store.append(gid, act(i))
    assert store.undo(gid) == act(2)
    assert store.undo(gid) == act(1)
    assert store.actions(gid) == [act(0)]
    assert store.append(gid, act(5)) == 6  # undo records take numbers too
    assert store.effective(gid) == [(1, act(0)), (6, act(5))]
    kinds = [(r.seq, r.kind, r.undoes) for r in store.log(gid)]
    assert kinds == [
        (1, "action", None), (2, "action", None), (3, "action", None),
        (4, "undo", 3), (5, "undo", 2), (6, "action", None),
    ]


def test_undo_with_nothing_in_effect_returns_none_and_writes_nothing(store):
    gid = store.create_game("hexel", "{}")
    assert store.undo(gid) is None
    store.append(gid, act(1))
    assert store.undo(gid) == act(1)
    assert store.undo(gid) is None
    assert len(store.log(gid)) == 2


def test_undo_survives_a_restart(tmp_path):
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        gid = s.create_game("hexel", '{"seats": 2}')
        for i in range(4):
            s.append(gid, act(i))
        s.undo(gid)
    with GameStore(path) as s:
        assert s.latest_game().id == gid
        assert s.actions(gid) == [act(0), act(1), act(2)]
        assert s.undo(gid) == act(2)
        assert s.append(gid, act(7)) == 7
    with GameStore(path) as s:
        assert s.actions(gid) == [act(0), act(1), act(7)]


def test_meta_is_kept_and_overwritten(tmp_path):
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        assert s.get_meta("pin") is None
        s.set_meta("pin", "1234")
        s.set_meta("pin", "0042")
    with GameStore(path) as s:
        assert s.get_meta("pin") == "0042"


def test_unknown_game_and_bad_json_are_refused_without_writing(store):
    with pytest.raises(UnknownGame, match="no game 42"):
        store.append(42, act(1))
    with pytest.raises(UnknownGame):
        store.game(42)
    with pytest.raises(UnknownGame):
        store.undo(42)
    with pytest.raises(UnknownGame):
        store.actions(42)
    gid = store.create_game("hexel", "{}")
    with pytest.raises(ValueError, match="not valid JSON"):
        store.append(gid, "{not json")
    with pytest.raises(ValueError, match="options_json"):
        store.create_game("hexel", "")
    assert store.log(gid) == []


def test_the_log_cannot_be_rewritten_even_with_sql(tmp_path):
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        gid = s.create_game("hexel", "{}")
        s.append(gid, act(1))
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM log")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE log SET action_json = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM games")
    conn.close()


def test_file_is_marked_as_ours_and_uses_wal_with_full_sync(tmp_path):
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        assert s._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_parent_directories_are_created(tmp_path):
    with GameStore(tmp_path / "a" / "b" / "games.db") as s:
        assert s.create_game("hexel", "{}") == 1


def test_closed_store_says_so(tmp_path):
    s = GameStore(tmp_path / "games.db")
    s.close()
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.games()


def test_threads_share_one_store_without_losing_or_duplicating(store):
    gid = store.create_game("hexel", "{}")
    seqs: list[int] = []
    lock = threading.Lock()

    def worker(k: int) -> None:
        for i in range(25):
            seq = store.append(gid, act(k * 100 + i))
            with lock:
                seqs.append(seq)
            store.actions(gid)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seqs) == list(range(1, 101))
    assert sorted(json.loads(a)["n"] for a in store.actions(gid)) == sorted(
        k * 100 + i for k in range(4) for i in range(25)
    )


def test_two_stores_on_one_file_see_each_others_commits(tmp_path):
    path = tmp_path / "games.db"
    with GameStore(path) as a, GameStore(path) as b:
        gid = a.create_game("hexel", "{}")
        a.append(gid, act(1))
        assert b.append(gid, act(2)) == 2
        assert a.actions(gid) == [act(1), act(2)]
