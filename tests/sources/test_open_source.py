"""`open_source`: every spec form builds the right source; malformed specs say what is expected."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.sources import (
    ImageFolderSource,
    Picamera2Source,
    SourceError,
    SyntheticSource,
    VideoCaptureSource,
    open_source,
)


def test_picamera2_spec_takes_size_and_settle():
    src = open_source("picamera2", size=(2304, 1296), settle_s=1.5, fps=7)
    assert isinstance(src, Picamera2Source)
    assert (src.size, src.settle_s, src.camera_num) == ((2304, 1296), 1.5, 0)
    assert open_source("picamera2:1").camera_num == 1
    assert src.exposure_ev == 0.0
    assert open_source("picamera2", exposure_ev=-1.5).exposure_ev == -1.5
    # (an option of the Pi camera's only: a webcam's spec takes it and goes on without it)
    assert isinstance(open_source("opencv:0", exposure_ev=-1.0), VideoCaptureSource)


def test_opencv_specs():
    dev = open_source("opencv:0", size=(640, 480), settle_s=2.0)
    assert isinstance(dev, VideoCaptureSource)
    assert (dev.target, dev.kind, dev.size) == (0, "device", (640, 480))
    assert open_source("opencv:/dev/video2").target == "/dev/video2"
    rtsp = open_source("rtsp://user:pw@10.0.0.5:554/stream1")
    assert (rtsp.kind, rtsp.target) == ("stream", "rtsp://user:pw@10.0.0.5:554/stream1")
    f = open_source("file:/tmp/table.mp4", loop=False)
    assert (f.kind, f.target, f.loop) == ("file", "/tmp/table.mp4", False)


def test_folder_and_synthetic_specs():
    folder = open_source("folder:shots", fps=2, loop=False, size=(1, 1))
    assert isinstance(folder, ImageFolderSource)
    assert (folder.path, folder.loop, folder._pacer.period) == (Path("shots"), False, 0.5)
    synth = open_source("synthetic", render=lambda t: np.zeros((2, 2, 3), np.uint8), fps=4)
    assert isinstance(synth, SyntheticSource) and synth.fps == 4


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "expected one of"),
        ("webcam", "unknown kind"),
        ("picamera2:left", "camera number"),
        ("opencv:front", "device index"),
        ("file:", "video file path"),
        ("folder:", "folder of images"),
        ("synthetic", "render function"),
    ],
)
def test_malformed_specs(spec, message):
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_unknown_options_are_refused():
    with pytest.raises(SourceError, match="unknown option"):
        open_source("picamera2", exposure=3)
