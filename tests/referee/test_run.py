"""`companion run` as a process: config validation, start-up, SIGTERM, and a restart that
resumes the same state from the store (issue 4 "Running it", "Persistence")."""

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_bad_config_is_refused_with_every_problem(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[web]\nport = "x"\n[buttons]\nconfrim = 3\n')
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(bad)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "web.port" in r.stderr and "buttons.confrim" in r.stderr


def admin_sets_stake(port, pin, stake):
    """Log in with the PIN and set the stake, as a browser would (session cookie + CSRF)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    base = f"http://127.0.0.1:{port}/admin"
    page = opener.open(base + "/").read().decode()
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"pin": pin, "csrf": token}).encode()
    page = opener.open(base + "/login", body).read().decode()
    assert "CONFIRM" in page
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # a new session's token
    body = urllib.parse.urlencode({"action": "stake", "stake": stake}).encode()
    req = urllib.request.Request(base + "/act", body, {"X-CSRF-Token": token,
                                                       "X-Requested-With": "fetch"})
    assert json.load(opener.open(req))["ok"]


def start(config, env):
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", str(config),
                             "--pin-factory", "mock"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    line = proc.stdout.readline()
    assert "scoreboard on port" in line, line
    return proc


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0


def test_run_serves_and_a_new_process_resumes_the_same_state(tmp_path):
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "a.png"), np.full((360, 640, 3), 90, np.uint8))
    port = free_port()
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[camera]\nsource = "folder:{shots}"\n[web]\nhost = "127.0.0.1"\nport = {port}\n'
        f'pin = "2468"\n[store]\npath = "{tmp_path / "t.db"}"\n'
        '[game]\nseats = 2\nnames = ["Ana", "Bo"]\nstake = 3\n'
        '[buttons]\nconfirm = 17\nundo = 27\nnext = 22\n')
    env = {**os.environ, "NOTIFY_SOCKET": ""}
    url = f"http://127.0.0.1:{port}/state.json"
    proc = start(config, env)
    try:
        snap = json.load(urllib.request.urlopen(url, timeout=5))
        assert [s["name"] for s in snap["game"]["seats"]] == ["Ana", "Bo"]
        assert snap["game"]["phase"] == "setup" and snap["game"]["stake"] == 3
        deadline = time.monotonic() + 10
        while json.load(urllib.request.urlopen(url))["status"]["state"] != "ok":
            assert time.monotonic() < deadline, "camera status never became ok"
            time.sleep(0.2)
        admin_sets_stake(port, "2468", 5)
        snap = json.load(urllib.request.urlopen(url, timeout=5))
        assert snap["game"]["stake"] == 5
    finally:
        stop(proc)
    proc = start(config, env)
    try:
        again = json.load(urllib.request.urlopen(url, timeout=5))
        assert again["game"] == snap["game"]
        assert again["history"][0]["lines"] == ["Stake set to 5"]
    finally:
        stop(proc)
