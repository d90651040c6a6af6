"""A writer killed with SIGKILL mid-append loop: every append that returned is in the store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from companion.store import GameStore

WRITER = r"""
import json, sys
from companion.store import GameStore
store = GameStore(sys.argv[1])
gid = store.create_game("hexel", "{}")
print("game", gid, flush=True)
n = 0
while True:
    seq = store.append(gid, json.dumps({"type": "test.step", "n": n}))
    if n % 7 == 6:
        store.undo(gid)
    print("ok", seq, n, flush=True)
    n += 1
"""


def test_every_returned_append_survives_kill_9(tmp_path):
    path = tmp_path / "games.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    confirmed: list[int] = []
    try:
        header = proc.stdout.readline().split()
        assert header[0] == "game", header
        gid = int(header[1])
        deadline = time.monotonic() + 20
        while len(confirmed) < 60 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line.startswith("ok"), line
            confirmed.append(int(line.split()[2]))
        os.kill(proc.pid, signal.SIGKILL)  # mid-loop: appends are still going on
        proc.wait(timeout=10)
        for line in proc.stdout:  # lines printed before the kill landed also count
            if line.startswith("ok"):
                confirmed.append(int(line.split()[2]))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert len(confirmed) >= 60

    with GameStore(path) as store:
        kept = [json.loads(a)["n"] for a in store.actions(gid)]
        # Replay what the writer reported. At most one more append (and maybe its undo) was
        # committed after the last report, before the kill landed.
        assert confirmed == list(range(len(confirmed)))
        expected: list[int] = []
        for n in confirmed:
            expected.append(n)
            if n % 7 == 6:
                expected.pop()
        assert kept in (expected, [*expected, confirmed[-1] + 1]), (kept, expected)
        # The store is healthy: it resumes numbering after the last record.
        seq = store.append(gid, json.dumps({"type": "test.step", "n": -1}))
        assert seq == len(store.log(gid))
