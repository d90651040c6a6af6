"""`companion score hexapod` and `companion simulate hexapod` (RULES.md P4, P5)."""

from __future__ import annotations

import json

from companion.cli import main

P5_ROWS = ["B . G . G Y", "B B G . G .", "Ml Mr . . . K", ". G G G R .", ". . . St . R",
           "G G . Sb Ml Mr"]


def test_p5_score_command_prints_total_and_breakdown(tmp_path, capsys):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(P5_ROWS))
    assert main(["score", "hexapod", str(path), "--coins", "2"]) == 0
    out = capsys.readouterr().out
    assert "green    18" in out and "total    45" in out
    assert main(["score", "hexapod", str(path), "--coins", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 45 and data["breakdown"]["moth"] == 10


def test_p4_score_command_reads_coins_from_the_file_and_rejects_bad_cases(tmp_path, capsys):
    path = tmp_path / "case.json"
    path.write_text(json.dumps({"rows": P5_ROWS, "coins": 2}))
    assert main(["score", "hexapod", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 45
    path.write_text(json.dumps([["Ml", "B"]]))
    assert main(["score", "hexapod", str(path)]) == 2
    assert "needs Mr" in capsys.readouterr().out


def test_p3_simulate_command_runs(capsys):
    assert main(["simulate", "hexapod", "--games", "3", "--seed", "2"]) == 0
    assert "cards placed per case" in capsys.readouterr().out
