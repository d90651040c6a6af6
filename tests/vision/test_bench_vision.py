"""`companion bench vision --game hexel` scores its tables as read, and `--no-markers` reads them
as a photo without table markers is read: the reader never calibrated, in image pixels."""

from __future__ import annotations

import json

from companion.cli import main


def _figures(capsys, *extra: str) -> dict:
    code = main(["bench", "vision", "--game", "hexel", "--bands", "easy", "--scenes", "2",
                 "--cards", "8", "--json", *extra])
    assert code == 0
    return json.loads(capsys.readouterr().out)["easy"]


def test_the_easy_tables_are_calibrated_from_their_markers(capsys):
    f = _figures(capsys)
    assert f["tables_calibrated"] == 2
    assert f["per_card"] == 1.0 and f["misreads"] == 0 and f["false_cards"] == 0


def test_no_markers_reads_the_same_tables_uncalibrated(capsys):
    f = _figures(capsys, "--no-markers")
    assert f["tables_calibrated"] == 0
    assert f["per_card"] == 1.0 and f["misreads"] == 0 and f["false_cards"] == 0


def test_true_markers_calibrates_every_table_from_its_laid_markers(capsys):
    f = _figures(capsys, "--true-markers")
    assert f["tables_calibrated"] == 2
    assert f["per_card"] == 1.0 and f["misreads"] == 0 and f["false_cards"] == 0


def test_the_true_calibration_is_the_rendered_homography():
    """`--true-markers` calibrates from the scene's true marker corners: on a tilted, turned
    scene without lens distortion that is the homography the scene was rendered with (up to the
    table frame's similarity), within 0.5 px over the play area; no markers laid, none."""
    import dataclasses

    import numpy as np

    from companion.commands.bench_vision import true_calibration
    from companion.scenarios import hexel_scene
    from companion.synth.scene import sample_params
    from companion.vision.geometry import transform

    from .test_calibration import _reprojection_px

    params = dataclasses.replace(sample_params(5, "topdown"), tilt_deg=30.0, yaw_deg=40.0,
                                 markers=True, jitter_deg=0.0, jitter_mm=0.0)
    _, truth = hexel_scene(5, "topdown", 8, "web", params=params)
    cal = true_calibration(truth)
    h = np.asarray(truth.homography)
    corners = np.concatenate([np.asarray(m.corners_mm) for m in truth.markers])
    (x0, y0), (x1, y1) = corners.min(0), corners.max(0)
    xs, ys = np.meshgrid(np.linspace(x0, x1, 9), np.linspace(y0, y1, 9))
    err, scale = _reprojection_px(cal, h, transform(np.c_[xs.ravel(), ys.ravel()], h))
    assert err < 0.5 and abs(scale - 1.0) < 0.01
    _, bare = hexel_scene(5, "topdown", 8, "web",
                          params=dataclasses.replace(params, markers=False))
    assert true_calibration(bare) is None


def _tampered(monkeypatch, reader: type, method: str, change) -> None:
    """Make `reader.method` return its result with the observation of its n-th call (from 0)
    replaced by `change(n, observation)`."""
    import dataclasses
    import itertools

    real, calls = getattr(reader, method), itertools.count()

    def read(self, *a, **k):
        result = real(self, *a, **k)
        obs = change(next(calls), result.observation)
        return dataclasses.replace(result, observation=obs)

    monkeypatch.setattr(reader, method, read)


def test_misreads_are_counted_apart_on_the_tables_the_referee_would_judge(capsys, monkeypatch):
    """A misread on a table the referee waits on (a card below its confidence floor, or a card
    covered) is never announced: the bench counts the misreads on the tables it would judge
    apart. Here one card of each table is made a misread, confidently on the first table, on the
    second below the floor, and on the third beside a card reported covered."""
    import dataclasses

    from companion.referee.proposal import MIN_CONFIDENCE
    from companion.vision.reader import HexelReader

    def misread(n, obs):
        cards = list(obs.cards)
        wrong = ("B" if cards[0].symbols[0] != "B" else "R") + cards[0].symbols[1:]
        cards[0] = dataclasses.replace(cards[0], symbols=wrong, confidence=(
            MIN_CONFIDENCE - 0.1 if n == 1 else 0.95))
        if n == 2:
            cards[1] = dataclasses.replace(cards[1], occluded=True)
        return dataclasses.replace(obs, cards=tuple(cards))

    _tampered(monkeypatch, HexelReader, "read", misread)
    code = main(["bench", "vision", "--game", "hexel", "--bands", "easy", "--scenes", "3",
                 "--cards", "8", "--json"])
    assert code == 0
    f = json.loads(capsys.readouterr().out)["easy"]
    assert f["misreads"] == 3
    assert f["tables_judged"] == 1 and f["misreads_judged"] == 1


def test_hexapod_cells_read_wrong_are_counted_apart_on_the_cases_the_referee_would_judge(
        capsys, monkeypatch):
    """A cell read wrong on a case the referee waits on (another cell '?') is never announced:
    the Hexapod bench counts the cells read wrong on the cases it would judge apart. Here the
    first case of the first table is given one wrong cell and nothing else, that of the second
    a wrong cell and a '?'."""
    import dataclasses

    from companion.vision.hexapod import HexapodReader

    def misread(n, obs):
        cases = list(obs.cases)
        grid = [list(row) for row in cases[0].grid]
        grid[0][0] = "B" if grid[0][0] != "B" else "G"
        if n == 1:
            grid[1][1] = "?"
        cases[0] = dataclasses.replace(cases[0], grid=tuple(map(tuple, grid)), confidence=0.95)
        return dataclasses.replace(obs, cases=tuple(cases))

    _tampered(monkeypatch, HexapodReader, "read_full", misread)
    code = main(["bench", "vision", "--game", "hexapod", "--bands", "topdown", "--scenes", "2",
                 "--json"])
    assert code == 0
    f = json.loads(capsys.readouterr().out)["topdown"]
    assert f["misread"] == 2
    assert f["judged_wrong"] == 1 and f["judged_cases"] == f["found"] - 1
