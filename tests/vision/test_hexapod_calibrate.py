"""The Hexapod colour chart and `calibrate colours --game hexapod`: the exported chart's markers
decode at the manifest's places and its swatches are the inks the manifest names; a photo of the
chart printed by another printer (`heldout._printer`) gives the hues that printer's model gives
each ink (worked out here from the model alone, on flat patches); a chart partly hidden, or with
two inks of one hue, is refused and nothing is written; the reader reads a pale office print
better with the learned inks; and without a calibration file everything reads as before."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main as cli_main
from companion.colour_chart import CHART, CHART_IDS, CHART_INKS
from companion.vision import hexapod_colour as hcol
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_calibrate import (
    colour_params,
    colours_file,
    hexapod_params,
    learn_chart,
)
from companion.vision.hexapod_markers import case_codes
from companion.vision.hexapod_windows import DEFAULT

from .heldout import _printer
from .hexapod_heldout import VARIANTS, Variant, _chart, chart_photo, heldout_case, wrong_cells

PRINTED = Variant(printed=True)   # another printer's inks, no halftone screen


def test_chart_export_markers_and_swatches(exported):
    manifest = json.loads((Path(exported) / "manifest.json").read_text())
    entry = manifest["colour_chart"]
    for page in ("A4", "Letter"):
        assert (Path(exported) / entry["sheets"][page]["file"]).stat().st_size > 1000
    img = cv2.imread(str(Path(exported) / entry["file"]), cv2.IMREAD_COLOR)
    ppm = manifest["dpi"] / 25.4
    assert img.shape[:2] == (round(entry["size_mm"][1] * ppm), round(entry["size_mm"][0] * ppm))
    # the markers decode, at the corners the manifest gives, with ids no case or table uses
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    seen = {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel(), strict=True)}
    assert sorted(seen) == sorted(int(k) for k in entry["marker_corners_mm"])
    assert not set(seen) & (set(case_codes()) | {0, 1, 2, 3})
    for mid, mm in entry["marker_corners_mm"].items():
        assert np.abs(seen[int(mid)] - np.array(mm) * ppm).max() < 2.0
    # each swatch shows its ink over its whole inner part, four swatches per kind, each kind
    # in four different columns
    kinds = [s["kind"] for s in entry["swatches"]]
    assert sorted(set(kinds)) == sorted("BGYRKSMP")
    assert all(kinds.count(k) == 4 for k in set(kinds))
    for s in entry["swatches"]:
        x, y, w, h = np.array(s["rect_mm"]) * ppm
        inner = img[round(y + 0.2 * h):round(y + 0.8 * h), round(x + 0.2 * w):round(x + 0.8 * w)]
        assert (inner.reshape(-1, 3) == np.array(s["rgb"][::-1])).all(), s
        columns = {round(t["rect_mm"][0]) for t in entry["swatches"] if t["kind"] == s["kind"]}
        assert len(columns) == 4


def _printed_hues(seed: int) -> dict[str, float]:
    """Each hued ink's hue relative to the paper, as printer `seed`'s model prints flat
    patches of it and of white paper (the chart's unprinted sheet)."""
    printer = _printer(seed, 8.0, 0.4)
    paper = printer(np.full((8, 8, 3), 255, np.uint8)).reshape(-1, 3).mean(0)
    out = {}
    for k in hcol.KINDS:
        patch = printer(np.full((8, 8, 3), CHART_INKS[k][::-1], np.uint8)).reshape(-1, 3).mean(0)
        out[k] = float(hcol.hue_deg((patch / paper)[::-1]))
    return out


def _turn(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("seed", [0, 5])
def test_learned_hues_match_the_printer(exported, seed):
    truth = _printed_hues(seed)
    # the printer turns some ink far from our design: the test means something
    assert max(_turn(truth[k], float(h)) for k, h in zip(hcol.KINDS, hcol.INK_HUES,
                                                         strict=True)) > 10.0
    hues = learn_chart(chart_photo(exported, seed, PRINTED)).hues()
    for k in hcol.KINDS:
        assert _turn(hues[k], truth[k]) < 3.0, (k, hues[k], truth[k])


def _photo_with(exported, seed: int, paint) -> np.ndarray:
    """`chart_photo` of the exported chart changed by `paint(image, px per mm)` (a copy)."""
    chart, ppm = _chart(str(exported))
    changed = chart.copy()
    paint(changed, ppm)
    return chart_photo(exported, seed, Variant(), changed)


def _cli_writes_nothing(tmp_path, image: np.ndarray) -> str:
    photo = tmp_path / "chart.png"
    cv2.imwrite(str(photo), image)
    out = tmp_path / "cal"
    code = cli_main(["calibrate", "colours", str(photo), "--game", "hexapod",
                     "--out-dir", str(out)])
    assert code == 2
    assert not colours_file(out).exists()
    return str(out)


def test_refuses_a_hidden_chart(exported, tmp_path, capsys):
    def hide_marker(img, ppm):      # a hand over the bottom-right marker
        c = CHART.marker_corners()[CHART_IDS[2]] * ppm
        x0, y0 = c.min(0).astype(int) - 5
        x1, y1 = c.max(0).astype(int) + 5
        img[y0:y1, x0:x1] = (90, 120, 180)

    def hide_swatches(img, ppm):    # a hand over two of the red swatches
        for _kind, (x, y, w, h) in [s for s in CHART.swatches() if s[0] == "R"][:2]:
            img[round(y * ppm):round((y + h) * ppm), round(x * ppm):round((x + w) * ppm)] = \
                (90, 120, 180)

    for paint, why in ((hide_marker, "not found whole"), (hide_swatches, "R swatches")):
        image = _photo_with(exported, 3, paint)
        with pytest.raises(ValueError, match=why):
            learn_chart(image)
        _cli_writes_nothing(tmp_path, image)
        assert "nothing saved" in capsys.readouterr().err


def test_refuses_two_inks_of_one_hue(exported, tmp_path, capsys):
    # a stag ink turned towards blue (within 45 degrees of ours, 10 of the blue's)
    bluish = np.round(0.7 * np.array(CHART_INKS["B"]) + 0.3 * np.array(CHART_INKS["S"]))

    def stag_as_blue(img, ppm):
        for kind, (x, y, w, h) in CHART.swatches():
            if kind == "S":
                img[round(y * ppm):round((y + h) * ppm),
                    round(x * ppm):round((x + w) * ppm)] = bluish[::-1]

    image = _photo_with(exported, 4, stag_as_blue)
    with pytest.raises(ValueError, match="nearly the same hue"):
        learn_chart(image)
    _cli_writes_nothing(tmp_path, image)


def test_a_photo_without_colour_is_refused_for_that(exported, tmp_path):
    # a greyscale photo of the chart: no ink to learn; said so, nothing saved
    photo = chart_photo(exported, 0, PRINTED)
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    with pytest.raises(ValueError, match="no colour"):
        learn_chart(grey)
    _cli_writes_nothing(tmp_path, grey)
    learn_chart(photo)   # the same photo in colour is learned


def test_calibration_round_trip_through_the_cli(exported, tmp_path):
    photo = tmp_path / "chart.png"
    cv2.imwrite(str(photo), chart_photo(exported, 0, PRINTED))
    assert cli_main(["calibrate", "colours", str(photo), "--game", "hexapod",
                     "--out-dir", str(tmp_path)]) == 0
    params = hexapod_params(tmp_path)
    truth = _printed_hues(0)
    for k, h in zip(hcol.KINDS, params.colour.hues, strict=True):
        assert _turn(h, truth[k]) < 3.0


# printed seeds (0-99) whose pale office print the design's hues leave '?' in some cells (the
# printed drawings and the nearest ink name most of a pale print's beetles without the chart:
# `hexapod_printed`; these keep a few '?' cells that the print's own inks read)
PALE = (19, 46, 84)


def test_pale_print_reads_better_calibrated(exported):
    """Three pale office prints: with the inks learned from the chart every cell of the three
    cases reads right, and without them (the design's hues, the printed drawings where the hue
    leads or the nearest ink, the case's own cells: `hexapod_twins`) at least four fewer (five
    before the case's own cells read one); no cell reads wrong either way."""
    right = {"without": 0, "with": 0}
    for seed in PALE:
        scene = heldout_case(exported, seed, VARIANTS["printed"])
        inks = learn_chart(chart_photo(exported, seed, VARIANTS["printed"]))
        calibrated = replace(DEFAULT, colour=colour_params(inks))
        for name, params in (("without", None), ("with", calibrated)):
            grid = HexapodReader(track=False, params=params).read(scene.image).cases[0].grid
            assert not wrong_cells(grid, scene.grid), (seed, name)
            right[name] += sum(g == t for row, truth in zip(grid, scene.grid, strict=True)
                               for g, t in zip(row, truth, strict=True))
    assert right["with"] == 36 * len(PALE), right
    assert right["with"] >= right["without"] + 4, right


def test_no_file_reads_as_before(exported, tmp_path):
    assert hexapod_params(tmp_path) is None
    assert hexapod_params(None) is None
    # the tables built for the design's own hues and brightness are the module's
    kind, near = hcol.hue_tables(tuple(float(h) for h in hcol.INK_HUES))
    assert np.array_equal(kind, hcol.HUE_KIND) and np.array_equal(near, hcol.HUE_NEAR)
    assert np.array_equal(hcol.inv_ink_v(tuple(float(v) for v in hcol.INK_V)), hcol.INV_INK_V)
    assert hcol.hue_tables(None)[0] is hcol.HUE_KIND
    assert hcol.inv_ink_v(None) is hcol.INV_INK_V
    # and the same picture reads the same with an empty calibration folder or none
    scene = heldout_case(exported, 55, VARIANTS["printed"])
    a = HexapodReader(track=False).read(scene.image).cases[0].grid
    b = HexapodReader(track=False, params=hexapod_params(tmp_path)).read(scene.image).cases[0].grid
    assert a == b


def test_recognize_uses_the_saved_file(exported, tmp_path, capsys):
    """`recognize --game hexapod` reads with colours-hexapod.json from --calibration: the pale
    print's grid it prints is the calibrated reader's, not the design's."""
    seed = PALE[0]
    scene = heldout_case(exported, seed, VARIANTS["printed"])
    picture, chart = tmp_path / "case.png", tmp_path / "chart.png"
    cv2.imwrite(str(picture), scene.image)
    cv2.imwrite(str(chart), chart_photo(exported, seed, VARIANTS["printed"]))
    cal, empty = tmp_path / "cal", tmp_path / "none"
    assert cli_main(["calibrate", "colours", str(chart), "--game", "hexapod",
                     "--out-dir", str(cal)]) == 0
    capsys.readouterr()
    grids = {}
    for name, folder in (("with", cal), ("without", empty)):
        assert cli_main(["recognize", str(picture), "--game", "hexapod", "--json",
                         "--calibration", str(folder)]) == 0
        grids[name] = json.loads(capsys.readouterr().out)["cases"][0]["grid"]
    params = hexapod_params(cal)
    want = HexapodReader(track=False, params=params).read(scene.image).cases[0].grid
    assert [list(r) for r in want] == grids["with"] != grids["without"]


def test_bench_reads_with_the_file(exported, tmp_path, capsys):
    """`bench vision --game hexapod --calibration DIR` reads the synthetic cases with the inks
    saved in DIR: learned from a photo of our own print (no other printer), the figures are the
    uncalibrated bench's; an empty DIR is no calibration at all."""
    cv2.imwrite(str(tmp_path / "chart.png"), chart_photo(exported, 7, Variant()))
    cal, empty = tmp_path / "cal", tmp_path / "none"
    assert cli_main(["calibrate", "colours", str(tmp_path / "chart.png"), "--game", "hexapod",
                     "--out-dir", str(cal)]) == 0
    capsys.readouterr()
    figures = {}
    for name, extra in (("plain", []), ("empty", ["--calibration", str(empty)]),
                        ("ours", ["--calibration", str(cal)])):
        assert cli_main(["bench", "vision", "--game", "hexapod", "--scenes", "2", "--bands",
                         "topdown", "--json", *extra]) == 0
        band = json.loads(capsys.readouterr().out)["topdown"]
        figures[name] = {k: v for k, v in band.items() if "ms" not in k}
    assert figures["plain"] == figures["empty"] == figures["ours"]
    assert figures["plain"]["cells"] > 0
