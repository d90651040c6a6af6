"""`companion run --check` finds what `run` would refuse in a config whose syntax is valid,
without opening the camera, the store or the pins (`commands.run.problems`): before, a camera
source of an unknown kind, a broken camera.json or a game the rules refuse passed the check and
stopped the service on its first start."""

from __future__ import annotations

from pathlib import Path

from companion.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "companion.toml.example"


def config(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    text = EXAMPLE.read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def test_the_shipped_example_passes_the_check(tmp_path, capsys):
    path = config(tmp_path)
    assert main(["run", "--config", str(path), "--check"]) == 0
    assert f"{path}: OK" in capsys.readouterr().out


def test_each_problem_beyond_the_syntax_is_named_by_its_key(tmp_path, capsys):
    path = config(tmp_path, ('source = "picamera2"', 'source = "webcam:0"'))
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / "camera.json").write_text("{not json")
    assert main(["run", "--config", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    assert "2 problem(s)" in err
    assert "camera.source: camera source 'webcam:0': unknown kind" in err
    assert "camera.calibration:" in err and "camera.json" in err
    assert "OK" not in err


def test_a_synthetic_source_is_for_the_demo_only(tmp_path, capsys):
    path = config(tmp_path, ('source = "picamera2"', 'source = "synthetic"'))
    assert main(["run", "--config", str(path), "--check"]) == 2
    assert "built by `companion demo`" in capsys.readouterr().err
