"""`companion recognize` on photo formats OpenCV cannot decode (HEIC, a phone's default): a clear
error naming the fix, not a video decoder's complaint; in a folder such files are named as
skipped and the readable pictures are still read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.scenarios import hexapod_scene


@pytest.mark.parametrize("game", ["hexel", "hexapod"])
def test_a_heic_photo_gets_a_clear_error(tmp_path, capsys, game):
    photo = tmp_path / "IMG_0001.HEIC"
    photo.write_bytes(b"\x00\x00\x00\x18ftypheic" + bytes(64))
    assert main(["recognize", str(photo), "--game", game]) != 0
    err = capsys.readouterr()
    text = err.out + err.err
    assert "IMG_0001.HEIC" in text and "JPEG" in text
    assert "video" not in text


def test_a_folder_names_the_heic_photos_it_skips(tmp_path, capsys):
    image, _ = hexapod_scene(0, "topdown")
    cv2.imwrite(str(tmp_path / "t0.png"), image)
    (tmp_path / "IMG_0002.heic").write_bytes(b"\x00\x00\x00\x18ftypheic" + bytes(64))
    assert main(["recognize", str(tmp_path), "--game", "hexapod"]) == 0
    out = capsys.readouterr()
    assert "t0.png: 2 display case(s)" in out.out
    assert "skipped IMG_0002.heic" in out.err and "JPEG" in out.err


@pytest.mark.parametrize("game", ["hexel", "hexapod"])
def test_a_sliver_of_a_picture_gets_a_clear_error(tmp_path, capsys, game):
    # a 900 x 1 px picture once failed inside OpenCV's resize with a traceback
    sliver = tmp_path / "strip.png"
    cv2.imwrite(str(sliver), np.full((1, 900, 3), 128, np.uint8))
    assert main(["recognize", str(sliver), "--game", game]) == 2
    text = "".join(capsys.readouterr())
    assert "strip.png" in text and "900 x 1 px" in text and "16 px" in text
    assert "Traceback" not in text and "OpenCV" not in text


def test_a_folder_skips_a_sliver_and_reads_the_rest(tmp_path, capsys):
    image, _ = hexapod_scene(0, "topdown")
    cv2.imwrite(str(tmp_path / "t0.png"), image)
    cv2.imwrite(str(tmp_path / "a_strip.png"), np.full((8, 700, 3), 200, np.uint8))
    assert main(["recognize", str(tmp_path), "--game", "hexapod"]) == 0
    out = capsys.readouterr()
    assert "t0.png: 2 display case(s)" in out.out
    assert "skipped a_strip.png" in out.err and "700 x 8 px" in out.err
    assert "a_strip.png:" not in out.out


def test_a_folder_names_a_damaged_picture_it_skips(tmp_path, capsys):
    image, _ = hexapod_scene(0, "topdown")
    cv2.imwrite(str(tmp_path / "t0.png"), image)
    (tmp_path / "b_torn.jpg").write_bytes(b"\xff\xd8\xff\xe0 not the rest of a JPEG")
    assert main(["recognize", str(tmp_path), "--game", "hexapod"]) == 0
    out = capsys.readouterr()
    assert "t0.png: 2 display case(s)" in out.out
    assert "skipped b_torn.jpg: cannot read it as a picture" in out.err


@pytest.mark.parametrize("game", ["hexel", "hexapod"])
def test_outputs_that_cannot_be_written_are_refused_before_the_read(tmp_path, capsys, game):
    # an annotation under a folder that could not be made was silently not written (exit 0), one
    # named .xyz failed in OpenCV after the whole read, --dump-stages naming a file raised
    image, _ = hexapod_scene(0, "topdown")
    photo = tmp_path / "t0.png"
    cv2.imwrite(str(photo), image)
    (tmp_path / "afile").write_text("x")
    for extra, words in ((["--annotate", str(tmp_path / "afile" / "seen.png")], "its folder"),
                         (["--annotate", str(tmp_path / "seen.xyz")], ".png, .jpg"),
                         (["--annotate", str(tmp_path)], "is a folder"),
                         (["--dump-stages", str(tmp_path / "afile")], "is a file")):
        assert main(["recognize", str(photo), "--game", game, *extra]) == 2
        out = capsys.readouterr()
        assert words in out.out + out.err and "Traceback" not in out.err
        assert "t0.png:" not in out.out   # (refused before reading)
    # a folder that does not exist yet is made
    seen = tmp_path / "new" / "deeper" / "seen.jpg"
    assert main(["recognize", str(photo), "--game", game, "--annotate", str(seen),
                 "--dump-stages", str(tmp_path / "stages")]) == 0
    assert cv2.imread(str(seen)).shape == image.shape
    assert any((tmp_path / "stages").iterdir())
