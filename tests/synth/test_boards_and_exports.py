"""Printable outputs: ChArUco board, table markers and card exports (PNG, PDF, manifest)."""

from __future__ import annotations

import importlib.util
import json
import math
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.faces import HEXEL_FACE, edge_normal
from companion.synth.boards import (
    CHARUCO,
    MARKER_CORNERS,
    aruco_dictionary,
    marker_sheet,
    rasterise,
    sheet_image,
)
from companion.synth.printing import PAGES_MM, pack_centres

_h = importlib.util.spec_from_file_location("synth_helpers", Path(__file__).with_name("helpers.py"))
helpers = importlib.util.module_from_spec(_h)
_h.loader.exec_module(helpers)


def detect(img):
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(aruco_dictionary(), params).detectMarkers(img)
    return {int(i): c.reshape(4, 2) for i, c in zip(np.ravel(ids), corners, strict=True)} \
        if ids is not None else {}


def test_charuco_raster_detects_every_corner_where_drawn():
    ppmm = 300 / 25.4
    w, h = CHARUCO.size_mm
    img = rasterise(CHARUCO.rects(), w + 20, h + 20, ppmm, origin_mm=(10, 10))
    corners, ids, _, _ = cv2.aruco.CharucoDetector(CHARUCO.board()).detectBoard(img)
    assert ids is not None and len(ids) == (CHARUCO.squares_x - 1) * (CHARUCO.squares_y - 1)
    ref = np.asarray(CHARUCO.board().getChessboardCorners())[ids.ravel(), :2]
    expected = (ref + 10) * ppmm - 0.5  # pixel centres are at integer coordinates
    assert np.abs(corners.reshape(-1, 2) - expected).max() < 0.5


def test_marker_sheet_has_ids_at_their_corners():
    sheet = marker_sheet(40.0)
    img = sheet_image(sheet, dpi=150)
    found = detect(img)
    assert sorted(found) == [0, 1, 2, 3]
    centre = {i: c.mean(axis=0) for i, c in found.items()}
    assert centre[0][0] < centre[1][0] and centre[0][1] < centre[3][1]  # 0 top-left
    assert centre[2][0] > centre[3][0] and centre[2][1] > centre[1][1]  # 2 bottom-right
    side = np.linalg.norm(found[0][1] - found[0][0]) / (150 / 25.4)
    assert side == pytest.approx(40.0, abs=0.5)
    assert set(MARKER_CORNERS) == {0, 1, 2, 3}


def test_marker_sheet_refuses_markers_too_big_for_the_page():
    with pytest.raises(ValueError, match="do not fit"):
        marker_sheet(120.0)


def test_honeycomb_packs_ten_cards_per_page():
    h = HEXEL_FACE.height_mm
    for page in PAGES_MM.values():
        centres = pack_centres(page, HEXEL_FACE.flat_to_flat_mm, h, 3.0, 6.0, True)
        assert len(centres) >= 10
        pts = np.array(centres)
        d = min(math.dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1:])
        assert d >= HEXEL_FACE.flat_to_flat_mm + 3.0 - 1e-6  # no two cards overlap


def test_markers_export_cli(tmp_path):
    assert main(["markers", "export", "--out", str(tmp_path), "--dpi", "100"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["charuco-9x6.pdf", "charuco-9x6.png", "table-markers-40mm.pdf",
                     "table-markers-40mm.png"]
    assert (tmp_path / "table-markers-40mm.pdf").read_bytes().startswith(b"%PDF")
    img = cv2.imread(str(tmp_path / "table-markers-40mm.png"), cv2.IMREAD_GRAYSCALE)
    assert sorted(detect(img)) == [0, 1, 2, 3]
    board = cv2.imread(str(tmp_path / "charuco-9x6.png"), cv2.IMREAD_GRAYSCALE)
    _, ids, _, _ = cv2.aruco.CharucoDetector(CHARUCO.board()).detectBoard(board)
    assert ids is not None and len(ids) == 40


def read_png_dpi(path: Path) -> float:
    data = path.read_bytes()
    i = data.index(b"pHYs")
    ppm, _, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    assert unit == 1
    return ppm * 0.0254


def test_cards_export_cli_with_a_deck_file(tmp_path):
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"cards": ["RRBBYY", "RYRYRY", "RRBBYY"]}))
    out = tmp_path / "out"
    assert main(["cards", "export", "--game", "hexel", "--edition", "web", "--out", str(out),
                 "--deck", str(deck)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert [f["id"] for f in manifest["faces"]] == ["RRBBYY", "RYRYRY", "RRBBYY#2"]
    assert manifest["sheets"]["A4"]["pages"] == 1
    for page in ("A4", "Letter"):
        assert (out / manifest["sheets"][page]["file"]).read_bytes().startswith(b"%PDF")
    for face in manifest["faces"]:
        assert face["flat_to_flat_mm"] == HEXEL_FACE.flat_to_flat_mm
        path = out / face["file"]
        assert read_png_dpi(path) == pytest.approx(300, abs=0.1)
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        assert img.shape[2] == 4 and img[0, 0, 3] == 0
        assert img.shape[1] == round(HEXEL_FACE.flat_to_flat_mm / 25.4 * 300)
        # the manifest's symbols are what the upright PNG shows on edges E, NE, NW, W, SW, SE
        a = img.shape[1] / 2
        c = np.array([img.shape[1] / 2 - 0.5, img.shape[0] / 2 - 0.5])
        for d, letter in enumerate(face["symbols"]):
            p = c + HEXEL_FACE.symbol_centre_frac * a * np.array(edge_normal(d))
            assert helpers.colour_class(helpers.sample(img, p), "web") == letter


def test_cards_export_standard_deck(tmp_path):
    assert main(["cards", "export", "--out", str(tmp_path), "--dpi", "60"]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["edition"] == "holodex" and len(manifest["faces"]) == 36
    assert len({f["symbols"] for f in manifest["faces"]}) == 36
    assert manifest["sheets"]["A4"]["pages"] == 4
    assert len(list(tmp_path.glob("*.png"))) == 36


def test_cards_export_errors(tmp_path, capsys):
    assert main(["cards", "export", "--edition", "nope", "--out", str(tmp_path)]) == 2
    assert "editions" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('{"cards": ["RRR"]}')
    assert main(["cards", "export", "--out", str(tmp_path), "--deck", str(bad)]) == 2
    assert "error" in capsys.readouterr().out
