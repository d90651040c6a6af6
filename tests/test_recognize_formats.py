"""`companion recognize` on photo formats OpenCV cannot decode (HEIC, a phone's default): a clear
error naming the fix, not a video decoder's complaint; in a folder such files are named as
skipped and the readable pictures are still read."""

from __future__ import annotations

import cv2
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
