"""Colour calibration (`calibrate colours`) and the `recognize` command line."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.cli import main
from companion.vision.colour import builtin_model, load_model
from companion.vision.learn_inks import learn_colours
from companion.vision.reader import HexelReader

from .crafted import draw_scene


def _other_printer(image: np.ndarray) -> np.ndarray:
    """Shift the blue ink towards cyan and the reds towards orange (another printer)."""
    img = image.astype(np.int16)
    b, g, r = img[..., 0], img[..., 1], img[..., 2]
    blue = (b > r + 40) & (b > 90)
    red = (r > b + 60) & (r > g + 60)
    img[blue, 1] += 45
    img[red, 1] += 40
    return np.clip(img, 0, 255).astype(np.uint8)


def test_learned_colours_follow_the_print(tmp_path):
    layout = {(0, 0): "RRRRRR", (1, 0): "BBBBBB", (2, 0): "VVVVVV"}
    scene = draw_scene(11, layout=layout, surface="felt")
    image = _other_printer(scene.image)
    model = learn_colours(image, "holodex")
    base = builtin_model("holodex")
    i_b = model.names.index("B")
    assert model.protos[i_b][1] > base.protos[i_b][1] + 0.08   # learned the greener blue
    path = tmp_path / "colours-holodex.json"
    path.write_text(json.dumps(model.to_json()))
    loaded = load_model("holodex", tmp_path)
    assert loaded.protos == tuple(tuple(round(v, 4) for v in p) for p in model.protos)
    table = _other_printer(draw_scene(12, n_cards=10, surface="wood").image)
    obs = HexelReader("holodex", model=loaded).read(table).observation
    assert len(obs.cards) == 10 and not any(c.occluded for c in obs.cards)


def test_calibrate_colours_command_saves_a_model(tmp_path):
    layout = {(0, 0): "RRRRRR", (1, 0): "BBBBBB", (2, 0): "YYYYYY"}
    img = tmp_path / "three.png"
    cv2.imwrite(str(img), draw_scene(13, layout=layout, edition="web", surface="wood").image)
    assert main(["calibrate", "colours", str(img), "--edition", "web",
                 "--out-dir", str(tmp_path)]) == 0
    assert load_model("web", tmp_path).source.endswith("colours-web.json")


def test_recognize_prints_json_annotates_and_dumps_stages(tmp_path, capsys):
    scene = draw_scene(14, n_cards=8, surface="cloth")
    img = tmp_path / "table.png"
    cv2.imwrite(str(img), scene.image)
    out = tmp_path / "seen.png"
    stages = tmp_path / "stages"
    assert main(["recognize", str(img), "--game", "hexel", "--json", "--annotate", str(out),
                 "--dump-stages", str(stages), "--calibration", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert len(data["cards"]) == 8
    assert set(data["cards"][0]) == {"cell", "symbols", "confidence", "occluded"}
    assert data["calibrated"] is True
    assert out.is_file() and len(list(stages.glob("*.png"))) >= 5


def test_recognize_explains_a_missing_file(tmp_path, capsys):
    assert main(["recognize", str(tmp_path / "nope.png")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_calibration_that_cannot_be_saved_is_refused_before_the_photos_are_read(tmp_path,
                                                                                 capsys):
    # a place it could not be saved at failed with a traceback once the calibration had been
    # worked out (the photo path here does not exist: the place is checked first)
    (tmp_path / "afile").write_text("x")
    missing = str(tmp_path / "no-such-photo.jpg")
    for argv, words in (
            (["calibrate", "colours", missing, "--out-dir", str(tmp_path / "afile" / "c")],
             "nothing learned"),
            (["calibrate", "colours", missing, "--game", "hexapod", "--out-dir",
              str(tmp_path / "afile")], "nothing learned"),
            (["calibrate", "camera", missing, "--out", str(tmp_path / "afile" / "cam.json")],
             "nothing calibrated"),
            (["calibrate", "camera", missing, "--out", str(tmp_path)], "is a folder")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and "cannot read" not in err and "Traceback" not in err


def test_a_calibration_saved_where_its_folder_is_missing_makes_the_folder(tmp_path):
    layout = {(0, 0): "RRRRRR", (1, 0): "BBBBBB", (2, 0): "YYYYYY"}
    photo = tmp_path / "three.png"
    cv2.imwrite(str(photo), draw_scene(13, layout=layout, edition="web", surface="wood").image)
    out = tmp_path / "new" / "calibration"
    assert main(["calibrate", "colours", str(photo), "--edition", "web",
                 "--out-dir", str(out)]) == 0
    assert load_model("web", out).source.endswith("colours-web.json")
