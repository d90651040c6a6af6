"""The service's readers get the calibrations saved in the config's `camera.calibration`
folder (`companion.vision.saved`, `commands.run.make_sensor`): a learned Hex'el ink model for
the match's edition, the camera's lens model, the Hexapod inks; a file that cannot be read
stops the service at start with its name, and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from companion.commands.run import make_sensor
from companion.faces import HEXAPOD_INKS, PAPER_RGB
from companion.vision.colour import builtin_model, colours_path
from companion.vision.hexapod_calibrate import ChartInks, colours_file
from companion.vision.hexapod_colour import KINDS
from companion.vision.saved import CalibrationError, load_saved


def paler_web_model():
    """The web edition's model with every ink halfway to the paper (a pale office print)."""
    model = builtin_model("web")
    protos = tuple(tuple(0.5 * v + 0.5 for v in p) for p in model.protos)
    return replace(model, protos=protos, source="test")


def hexapod_inks():
    """Our printed Hexapod inks relative to the card paper, as a chart would show them."""
    paper = np.array(PAPER_RGB, float)
    return ChartInks({k: tuple(np.array(HEXAPOD_INKS[k]) / paper) for k in KINDS},
                     {k: 4 for k in KINDS}, "test")


def referee(edition):
    return SimpleNamespace(options=SimpleNamespace(edition=edition))


def test_an_empty_or_missing_folder_leaves_every_reader_built_in(tmp_path):
    for folder in (tmp_path, tmp_path / "absent"):
        saved = load_saved(folder)
        assert saved.files == () and saved.camera is None and saved.hexapod is None
        assert saved.hexel == {e: builtin_model(e) for e in ("holodex", "web")}
        assert "no saved calibrations" in saved.describe()


def test_the_hexel_sensor_reads_with_the_saved_model_of_the_matchs_edition(tmp_path):
    pale = paler_web_model()
    colours_path(tmp_path, "web").write_text(json.dumps(pale.to_json()))
    saved = load_saved(tmp_path)
    assert saved.files == ("colours-web.json",)
    web = make_sensor("hexel", object(), referee("web"), None, saved).reader
    assert np.allclose(web.model.protos, pale.protos, atol=1e-4)
    assert not np.allclose(web.model.protos, builtin_model("web").protos, atol=0.05)
    holodex = make_sensor("hexel", object(), referee("holodex"), None, saved).reader
    assert holodex.model == builtin_model("holodex")


def test_the_hexel_sensor_takes_the_configs_marker_size(tmp_path):
    # (`[camera] marker_mm`: markers exported at 60 mm calibrate the table as 60 mm squares)
    for saved in (None, load_saved(tmp_path)):
        assert make_sensor("hexel", object(), referee("web"), None, saved).reader.marker_mm == 40
        reader = make_sensor("hexel", object(), referee("web"), None, saved,
                             marker_mm=60.0).reader
        assert reader.marker_mm == 60.0


def test_the_hexapod_sensor_reads_with_the_saved_inks(tmp_path):
    assert make_sensor("hexapod", object(), referee(None), None,
                       load_saved(tmp_path)).reader.params.colour.hues is None
    colours_file(tmp_path).write_text(json.dumps(hexapod_inks().to_json()))
    saved = load_saved(tmp_path)
    hues = make_sensor("hexapod", object(), referee(None), None, saved).reader.params.colour.hues
    assert hues is not None and len(hues) == len(KINDS)


@pytest.mark.parametrize("name", ["colours-holodex.json", "colours-hexapod.json", "camera.json"])
def test_a_file_that_cannot_be_read_is_named(tmp_path, name):
    (tmp_path / name).write_text('{"edition": "holodex", "names": ')
    with pytest.raises(CalibrationError, match=name):
        load_saved(tmp_path)


def test_the_service_refuses_to_start_on_a_broken_calibration(tmp_path):
    (tmp_path / "cal").mkdir()
    (tmp_path / "cal" / "colours-web.json").write_text("{}")
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nsource = "folder:{tmp_path}"\ncalibration = "cal"\n'
                      '[store]\npath = "game.db"\n[web]\nport = 1\n')
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(config),
                        "--pin-factory", "mock"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "camera.calibration" in r.stderr and "colours-web.json" in r.stderr


def test_recognize_names_a_calibration_file_it_cannot_use(tmp_path, capsys):
    from companion.cli import main

    (tmp_path / "cal").mkdir()
    (tmp_path / "cal" / "colours-hexapod.json").write_text('{"inks": {}}')
    photo = tmp_path / "table.png"
    import cv2

    cv2.imwrite(str(photo), np.full((72, 128, 3), 200, np.uint8))
    for game in ("hexel", "hexapod"):
        code = main(["recognize", str(photo), "--game", game, "--calibration",
                     str(tmp_path / "cal")])
        assert code == 2
        assert "colours-hexapod.json" in capsys.readouterr().err
