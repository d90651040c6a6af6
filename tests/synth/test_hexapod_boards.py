"""Hexapod printables: `cards export --game hexapod` (faces, manifest, cut sheets) and the
display-case boards whose ArUco markers say whose case it is."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.rules.hexapod import load_deck
from companion.synth.boards import aruco_dictionary
from companion.synth.hexapod_board import BOARD, CORNERS, CaseBoard, marker_ids, marker_owner
from companion.synth.hexapod_face import cell_centres_px

_h = importlib.util.spec_from_file_location(
    "hexapod_helpers", Path(__file__).with_name("hexapod_helpers.py"))
helpers = importlib.util.module_from_spec(_h)
_h.loader.exec_module(helpers)

DPI = 100


def detect(img) -> dict[int, np.ndarray]:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(aruco_dictionary(), params).detectMarkers(img)
    return {int(i): c.reshape(4, 2) for i, c in zip(np.ravel(ids), corners, strict=True)} \
        if ids is not None else {}


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    out = tmp_path_factory.mktemp("hexapod")
    assert main(["cards", "export", "--game", "hexapod", "--out", str(out),
                 "--dpi", str(DPI)]) == 0
    return out, json.loads((out / "manifest.json").read_text())


def test_manifest_lists_every_card_with_its_cells(export):
    out, manifest = export
    deck = load_deck(Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json")
    assert manifest["game"] == "hexapod" and manifest["edition"] == "standard"
    faces = manifest["faces"]
    assert [f["id"] for f in faces] == [c.name for c in deck] + ["Spider"]
    for face, card in zip(faces, deck, strict=False):
        assert face["cells"] == [list(r) for r in card.rows]
    assert faces[-1]["cells"] is None and faces[-1]["spider"] is True
    for page in ("A4", "Letter"):
        assert (out / manifest["sheets"][page]["file"]).read_bytes().startswith(b"%PDF")
        assert (out / manifest["board_sheets"][page]["file"]).read_bytes().startswith(b"%PDF")
        assert manifest["board_sheets"][page]["pages"] == 2


def test_exported_faces_show_their_manifest_cells(export):
    out, manifest = export
    px = round(28.0 / 25.4 * DPI)
    centres = cell_centres_px(px)
    for face in manifest["faces"][:-1]:
        img = cv2.imread(str(out / face["file"]), cv2.IMREAD_UNCHANGED)
        assert img.shape == (3 * px, 2 * px, 4)
        for r, row in enumerate(face["cells"]):
            for c, code in enumerate(row):
                mean = helpers.window_mean(img, centres[r, c], px / 8)
                assert helpers.kind_class(mean) == helpers.code_class(code)


@pytest.mark.parametrize("player", [1, 2])
def test_board_png_markers_name_the_player_and_corners(export, player):
    out, manifest = export
    entry = manifest["boards"][player - 1]
    assert entry["player"] == player and (entry["cols"], entry["rows"]) == (6, 6)
    assert list(entry["markers"].values()) == list(marker_ids(player))
    img = cv2.imread(str(out / entry["file"]), cv2.IMREAD_GRAYSCALE)
    found = detect(img)
    assert sorted(found) == list(marker_ids(player))
    # detected corners are where the board geometry puts them (board mm -> PNG px)
    k = DPI / 25.4
    x0, y0, _, _ = BOARD.sheet_mm
    for mid, corners in BOARD.marker_corners(player).items():
        expected = (corners - (x0, y0)) * k - 0.5
        assert np.abs(found[mid] - expected).max() < 1.0
        assert marker_owner(mid) == (player, CORNERS[mid % 10])
        assert entry["marker_corners_mm"][str(mid)] == corners.tolist()
    # the grid's cells are empty board: pale and neutral
    for r in range(6):
        for c in range(6):
            centre = (BOARD.cell_polygon(c, r).mean(axis=0) - (x0, y0)) * k
            colour = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
            assert helpers.kind_class(helpers.window_mean(colour, centre, 3)) == "."


def test_marker_ids_avoid_the_table_markers():
    ids = [i for p in (1, 2, 3, 4) for i in marker_ids(p)]
    assert len(set(ids)) == 16 and min(ids) >= 10 and max(ids) < 50
    assert marker_owner(2) is None and marker_owner(14) is None
    with pytest.raises(ValueError, match="player"):
        marker_ids(5)
    # a card sticking out a third of a cell never reaches a marker's quiet zone
    assert BOARD.gap_mm > BOARD.cell_mm / 3
    with pytest.raises(ValueError):
        CaseBoard(cols=1)


def test_hexel_export_is_unchanged_by_the_new_game(tmp_path):
    assert main(["cards", "export", "--game", "hexel", "--out", str(tmp_path),
                 "--dpi", "40"]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert set(manifest) == {"game", "edition", "dpi", "deck", "sheets", "faces"}


def test_hexapod_export_refuses_a_malformed_deck(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"cards": [{"name": "X", "rows": ["St B", "B B", "G G"]}]}))
    assert main(["cards", "export", "--game", "hexapod", "--out", str(tmp_path / "o"),
                 "--deck", str(bad)]) == 2
    assert "half insect" in capsys.readouterr().out


def test_sheets_are_centred_above_the_footer_or_refused():
    from reportlab.lib.units import mm

    from companion.synth.hexapod_board import write_board_pdf
    from companion.synth.printing import FOOTER_MM, centred

    # a 100 x 50 mm sheet on A4 (210 x 297): 55 mm either side, centred in the 283 mm above
    # the footer; its top-left corner is 116.5 mm below the page's top edge
    at = centred("A4", 0.0, 0.0, 100.0, 50.0, "a test sheet")
    assert at.point(0.0, 0.0) == pytest.approx((55.0 * mm, (297.0 - 116.5) * mm))
    assert at.point(100.0, 50.0) == pytest.approx((155.0 * mm, (297.0 - 166.5) * mm))
    # a box that starts at (-10, -20) in sheet mm is centred by its own corner
    shifted = centred("A4", -10.0, -20.0, 100.0, 50.0, "a test sheet")
    assert shifted.point(-10.0, -20.0) == pytest.approx(at.point(0.0, 0.0))
    with pytest.raises(ValueError, match=r"a test sheet .* does not fit on Letter"):
        centred("Letter", 0.0, 0.0, 100.0, 279.4 - FOOTER_MM, "a test sheet")
    big = CaseBoard(cols=9, rows=9)
    with pytest.raises(ValueError, match=r"9x9 case board .* does not fit on A4: print it on A3"):
        write_board_pdf(Path("/nonexistent/never-written.pdf"), board=big)
