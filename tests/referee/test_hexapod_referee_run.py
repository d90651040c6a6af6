"""`companion run` with `game.name = "hexapod"` (issue 6 "Vision II"): the config is accepted, a
Hexapod table game is opened in the store, and a restart resumes it; the camera status says
whether the Hexapod reader is there."""

import json
import os
import subprocess
import sys
import time
import urllib.request

import pytest

from companion.config import ConfigError, parse_config


def test_the_config_accepts_hexapod_for_two_players_only():
    assert parse_config({"game": {"name": "hexapod"}}).game.name == "hexapod"
    with pytest.raises(ConfigError, match=r"game\.seats: Hexapod is for 2 players"):
        parse_config({"game": {"name": "hexapod", "seats": 3}})
    with pytest.raises(ConfigError, match=r"game\.name: expected one of 'hexel', 'hexapod'"):
        parse_config({"game": {"name": "chess"}})


def start(config, env):
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", str(config),
                             "--pin-factory", "mock"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    line = proc.stdout.readline()
    assert "scoreboard on port" in line, line
    return proc


def test_run_referees_hexapod_and_resumes_it(tmp_path):
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    from companion.referee.judges import hexapod_options
    from companion.rules.core import to_json
    from companion.rules.hexapod.game import TableCoin

    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "a.png"), np.full((360, 640, 3), 90, np.uint8))
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[camera]\nsource = "folder:{shots}"\n[web]\nhost = "127.0.0.1"\nport = {port}\n'
        f'pin = "2468"\n[store]\npath = "{tmp_path / "t.db"}"\n'
        '[game]\nname = "hexapod"\nnames = ["Ana", "Bo"]\n')
    env = {**os.environ, "NOTIFY_SOCKET": ""}
    url = f"http://127.0.0.1:{port}/state.json"
    proc = start(config, env)
    try:
        snap = json.load(urllib.request.urlopen(url, timeout=5))
        assert snap["game_name"] == "hexapod"
        assert [s["name"] for s in snap["game"]["seats"]] == ["Ana", "Bo"]
        assert snap["game"]["phase"] == "play" and snap["game"]["to_play_name"] == "Ana"
        deadline = time.monotonic() + 10
        while (status := json.load(urllib.request.urlopen(url))["status"])["state"] == "none":
            assert time.monotonic() < deadline, "the camera status never came"
            time.sleep(0.2)
        assert status["state"] == "ok" or "hexapod" in status["message"], status
    finally:
        proc.terminate()
        assert proc.wait(timeout=20) == 0
    from companion.store import GameStore

    with GameStore(tmp_path / "t.db") as store:  # a coin spent while the service was down
        game = store.latest_game()
        assert game.game == "hexapod"
        assert json.loads(game.options_json)["names"] == ["Ana", "Bo"]
        assert len(json.loads(game.options_json)["deck"]) == len(hexapod_options().deck)
        store.append(game.id, to_json(TableCoin(0)))
    proc = start(config, env)
    try:
        again = json.load(urllib.request.urlopen(url, timeout=5))
        assert again["game"]["seats"][0]["coins"] == 2
        assert again["last"]["headline"] == "Coin"
    finally:
        proc.terminate()
        assert proc.wait(timeout=20) == 0
