"""`companion score comet` and `companion simulate comet` (RULES.md C1-C4)."""

from __future__ import annotations

import json

from companion.cli import main


def test_c1_score_command_prints_lines_and_total(capsys):
    assert main(["score", "comet", "2", "4", "5", "5", "5", "9", "9", "9", "10"]) == 0
    out = capsys.readouterr().out
    assert "5-5-5" in out and "9-9-9" in out
    assert out.strip().splitlines()[-1].split() == ["total", "42"]


def test_c1_score_command_reads_aces_and_json(capsys):
    assert main(["score", "comet", "A", "2", "2", "3", "5", "9", "10", "10", "11", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 72 and data["lines"][0] == {"values": [1, 2, 3], "worth": 6,
                                                         "count": 2}
    assert main(["score", "comet", "4", "12", "13", "13", "13", "1"]) == 0
    assert "156" in capsys.readouterr().out
    assert main(["score", "comet", "15"]) == 2


def test_c2_simulate_command_runs_and_conserves_chips(capsys):
    assert main(["simulate", "comet", "--players", "3", "--games", "3", "--seed", "4"]) == 0
    assert "conserved" in capsys.readouterr().out
