"""`companion score hexdragon` and `companion simulate hexdragon` (RULES.md D4, D5)."""

import json

import pytest

from companion.cli import main

START = ["T"] * 6
BODY_O = [1, 0, 3, 2, 5, 4]
BODY_A = [2, 5, 0, 4, 3, 1]
NEXT = ["H", 2, 1, 4, 3, "T"]

# the hand-worked board of test_hexdragon_chains.multi_board: the last piece closes a dragon
# (L 2, head owner +2), a worm (L 3, +1) and a worm passing (0,1) twice (L 7, +1)
MULTI = {
    "names": ["Ana", "Ben"],
    "pieces": [
        {"cell": [0, 0], "rotation": 0, "links": START, "owner": None},
        {"cell": [1, -1], "rotation": 0, "links": BODY_O, "owner": 1},
        {"cell": [-1, 1], "rotation": 0, "links": BODY_O, "owner": 0},
        {"cell": [1, 1], "rotation": 0, "links": BODY_O, "owner": 1},
        {"cell": [0, 1], "rotation": 1, "links": BODY_A, "owner": 0},
        {"cell": [1, 0], "rotation": 3, "links": NEXT, "owner": 1},
    ],
}


def write(tmp_path, doc):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_d4_score_prints_every_connection_and_the_points(tmp_path, capsys):
    assert main(["score", "hexdragon", write(tmp_path, MULTI)]) == 0
    out = capsys.readouterr().out
    assert "6 pieces, 3 connections" in out
    assert "dragon, L=2, closed by piece 6: (1,0) (0,0) -> Ben +2" in out
    assert "worm, L=3" in out and "worm, L=7" in out
    assert "Points: Ana 0, Ben 4" in out
    assert "Winner: Ben" in out


def test_d4_score_json_for_machines(tmp_path, capsys):
    assert main(["score", "hexdragon", write(tmp_path, MULTI["pieces"]), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["scores"] == [0, 4] and result["winners"] == [1]
    assert sorted((c["shape"], c["length"]) for c in result["connections"]) == [
        ("dragon", 2), ("worm", 3), ("worm", 7)]
    assert result["names"] == ["Seat 1", "Seat 2"]


BODY_X = [3, 4, 5, 0, 1, 2]


def test_d5_score_reports_a_tie_break(tmp_path, capsys):
    # seat 0: head (1,0) rot 3 on the start's E tail, dragon L 2 (+2); O rot 1 on (-1,0) and
    # (-1,1) lead the start's W tail round to its SW tail, worm L 4 (+1): 3 points, [4, 2].
    # seat 1: X rot 0 on (1,-1) runs SW-NE from the start's NE tail to a head on (2,-2)
    # looking SW (rot 4), dragon L 3 (+3): 3 points, [3]. Tied on points; 4 > 3: seat 0.
    doc = {"pieces": [
        {"cell": [0, 0], "rotation": 0, "links": START, "owner": None},
        {"cell": [1, 0], "rotation": 3, "links": NEXT, "owner": 0},
        {"cell": [1, -1], "rotation": 0, "links": BODY_X, "owner": 1},
        {"cell": [-1, 0], "rotation": 1, "links": BODY_O, "owner": 0},
        {"cell": [2, -2], "rotation": 4, "links": NEXT, "owner": 1},
        {"cell": [-1, 1], "rotation": 1, "links": BODY_O, "owner": 0},
    ]}
    assert main(["score", "hexdragon", write(tmp_path, doc), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [(c["shape"], c["length"], c["awards"]) for c in result["connections"]] == [
        ("dragon", 2, [[0, 2]]), ("dragon", 3, [[1, 3]]), ("worm", 4, [[0, 1]])]
    assert result["scores"] == [3, 3]
    assert result["winners"] == [0] and result["tie_break"] is True
    assert main(["score", "hexdragon", write(tmp_path, doc)]) == 0
    assert "Winner: Seat 1 (on the tie-break" in capsys.readouterr().out


def test_d5_equal_points_and_lengths_share_the_win(tmp_path, capsys):
    # two 2-long dragons on the start's E and NW tails: head (1,0) rot 3 and head (0,-1)
    # rot 5 (its head turned SE onto the start): 2 : 2 and [2] : [2]
    doc = {"pieces": [
        {"cell": [0, 0], "rotation": 0, "links": START, "owner": None},
        {"cell": [1, 0], "rotation": 3, "links": NEXT, "owner": 0},
        {"cell": [0, -1], "rotation": 5, "links": NEXT, "owner": 1},
    ]}
    assert main(["score", "hexdragon", write(tmp_path, doc), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["scores"] == [2, 2]
    assert result["winners"] == [0, 1] and result["tie_break"] is False


@pytest.mark.parametrize("doc, message", [
    ([], "non-empty list"),
    ([{"cell": [0, 0], "rotation": 0, "links": NEXT}], "needs an owner"),
    ([{"cell": [0, 0], "rotation": 0, "links": BODY_O, "owner": 0},
      {"cell": [0, 0], "rotation": 1, "links": BODY_O, "owner": 1}], "listed twice"),
    ([{"cell": [0, 0], "rotation": 9, "links": BODY_O, "owner": 0}], "rotation"),
    ([{"cell": [0, 0], "rotation": 0, "links": [1, 1, 3, 2, 5, 4], "owner": 0}], "piece 1"),
    ([{"cell": "a1", "rotation": 0, "links": BODY_O, "owner": 0}], "cell"),
])
def test_score_refuses_bad_boards_with_a_message(tmp_path, capsys, doc, message):
    assert main(["score", "hexdragon", write(tmp_path, doc)]) == 2
    out = capsys.readouterr().out
    assert out.startswith("error:") and message in out


def test_score_unreadable_file(tmp_path, capsys):
    assert main(["score", "hexdragon", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().out


def test_d5_simulate_prints_a_summary(capsys):
    assert main(["simulate", "hexdragon", "--players", "3", "--games", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "HexDragon, 3 seats, radius 3, 2 bag(s)" in out
    assert "endings: full 3 (100.0%)" in out
    assert "wins per seat" in out
    assert main(["simulate", "hexdragon", "--players", "5", "--games", "1"]) == 2
