"""`companion recognize IMAGE|DIR --game hexapod [--json] [--annotate OUT.png]` on rendered display
cases: the JSON lists every case's player, grid and occluded cells as the truth has them."""

from __future__ import annotations

import json

import cv2

from companion.cli import main
from companion.scenarios import hexapod_scene


def test_recognize_prints_the_cases_as_json_and_annotates(tmp_path, capsys):
    image, truth = hexapod_scene(3, "easy")
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    out = tmp_path / "seen.png"
    assert main(["recognize", str(path), "--game", "hexapod", "--json",
                 "--annotate", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["source"] == "table.png"
    assert [c["player"] for c in data["cases"]] == [c.player for c in truth.cases]
    for got, case in zip(data["cases"], truth.cases, strict=True):
        assert got["grid"] == [list(r) for r in case.grid]
        assert got["occluded"] == [[False] * 6 for _ in range(6)]
    drawn = cv2.imread(str(out))
    assert drawn.shape == image.shape and (drawn != image).any()


def test_recognize_reads_a_folder_as_text(tmp_path, capsys):
    for seed in (0, 1):
        image, _ = hexapod_scene(seed, "topdown")
        cv2.imwrite(str(tmp_path / f"t{seed}.png"), image)
    (tmp_path / "notes.txt").write_text("not a picture")
    assert main(["recognize", str(tmp_path), "--game", "hexapod"]) == 0
    out = capsys.readouterr().out
    assert "t0.png: 2 display case(s)" in out and "t1.png:" in out
    _, truth = hexapod_scene(1, "topdown")
    first_row = " ".join(f"{code:2s}" for code in truth.cases[0].grid[0]).rstrip()
    assert first_row in out


def test_recognize_hexapod_reports_a_missing_file(tmp_path, capsys):
    assert main(["recognize", str(tmp_path / "none.png"), "--game", "hexapod"]) == 2
    assert "does not exist" in capsys.readouterr().err
