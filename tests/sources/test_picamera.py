"""Picamera2Source against a stand-in `picamera2` module (this machine has no camera).

The stand-in mimics the parts of the picamera2 API the source uses: XRGB8888 arrays laid out as
[B, G, R, 255], `capture_metadata`, `set_controls`, and a `capture_array` that can be made to hang.
"""

from __future__ import annotations

import sys
import threading
import time
import types
from typing import ClassVar

import numpy as np
import pytest

from companion.sources import Picamera2Source, SourceError, xrgb_to_bgr


class FakePicamera2:
    cameras: ClassVar[list[dict]] = [{"Model": "imx708"}]
    instances: ClassVar[list[FakePicamera2]] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.camera_controls = {"ExposureTime": (1, 100000, 10000)}
        self.controls: list[dict] = []
        self.config = None
        self.started = self.stopped = self.closed = False
        self.hang = threading.Event()  # set → capture_array blocks until released
        self.release = threading.Event()
        self.captures = 0
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info():
        return FakePicamera2.cameras

    def create_video_configuration(self, main, buffer_count=4):
        return {"main": main, "buffer_count": buffer_count}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_array(self, name="main"):
        assert name == "main" and self.started
        if self.hang.is_set():
            self.release.wait(30)
        self.captures += 1
        w, h = self.config["main"]["size"]
        array = np.empty((h, w, 4), np.uint8)
        array[..., 0], array[..., 1], array[..., 2], array[..., 3] = 10, 20, 30, 255  # B G R X
        return array

    def capture_metadata(self):
        return {"ExposureTime": 8000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6),
                "Lux": 300, "LensPosition": 3.2}

    def set_controls(self, controls):
        self.controls.append(dict(controls))

    def stop(self):
        self.stopped = True

    def close(self):
        self.closed = True
        self.release.set()


@pytest.fixture
def fake_picamera2(monkeypatch):
    FakePicamera2.instances = []
    FakePicamera2.cameras = [{"Model": "imx708"}]
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_xrgb_to_bgr_drops_the_padding_byte():
    xrgb = np.array([[[1, 2, 3, 255], [4, 5, 6, 255]]], np.uint8)
    bgr = xrgb_to_bgr(xrgb)
    assert bgr.tolist() == [[[1, 2, 3], [4, 5, 6]]]
    assert bgr.flags["C_CONTIGUOUS"]
    with pytest.raises(SourceError, match="XRGB8888"):
        xrgb_to_bgr(np.zeros((2, 2, 3), np.uint8))


def test_frames_are_bgr_and_exposure_locks_after_settling(fake_picamera2):
    src = Picamera2Source(size=(64, 32), settle_s=0.15)
    src.open()
    cam = fake_picamera2.instances[0]
    assert cam.config["main"] == {"size": (64, 32), "format": "XRGB8888"}
    frame = src.read(1.0)
    assert frame.image.shape == (32, 64, 3)
    assert frame.image[0, 0].tolist() == [10, 20, 30]
    assert cam.controls == []  # still settling: automatic exposure and white balance
    time.sleep(0.2)
    src.read(1.0)
    assert cam.controls == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000,
                             "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}]
    assert src.locked_controls == cam.controls[0]
    assert [src.read(1.0).seq for _ in range(3)] == [3, 4, 5]
    assert len(cam.controls) == 1  # locked once
    src.close()
    assert cam.stopped and cam.closed


def test_autofocus_runs_while_settling_then_is_fixed(fake_picamera2, monkeypatch):
    monkeypatch.setattr(FakePicamera2, "__init__", _with_focus_motor(FakePicamera2.__init__))
    src = Picamera2Source(size=(16, 8), settle_s=0)
    src.open()
    cam = fake_picamera2.instances[0]
    src.read(1.0)
    assert cam.controls[0] == {"AfMode": 2}  # continuous while settling
    assert cam.controls[1]["AfMode"] == 0 and cam.controls[1]["LensPosition"] == 3.2
    src.close()


def test_exposure_compensation_is_set_while_settling_then_the_exposure_locks(fake_picamera2,
                                                                           monkeypatch):
    """`exposure_ev` is handed to automatic exposure (libcamera's ExposureValue) from the start,
    so the exposure it settles at, and that is then locked, is that much darker."""
    monkeypatch.setattr(FakePicamera2, "__init__", _with_ev(FakePicamera2.__init__))
    src = Picamera2Source(size=(16, 8), settle_s=0.15, exposure_ev=-1.5)
    src.open()
    cam = fake_picamera2.instances[0]
    assert cam.controls == [{"ExposureValue": -1.5}]
    src.read(1.0)
    time.sleep(0.2)
    src.read(1.0)
    assert cam.controls[1] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000,
                               "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}
    src.close()


def test_a_camera_without_exposure_compensation_runs_without_it(fake_picamera2, caplog):
    src = Picamera2Source(size=(16, 8), settle_s=10, exposure_ev=-1.0)
    with caplog.at_level("WARNING", logger="companion.sources.picamera"):
        src.open()
    cam = fake_picamera2.instances[0]
    assert cam.controls == []
    assert "exposure_ev -1 ignored" in caplog.text
    assert src.read(1.0) is not None
    src.close()


def _with_ev(init):
    def wrapped(self, camera_num: int = 0) -> None:
        init(self, camera_num)
        self.camera_controls["ExposureValue"] = (-8.0, 8.0, 0.0)
    return wrapped


def _with_focus_motor(init):
    def wrapped(self, camera_num: int = 0) -> None:
        init(self, camera_num)
        self.camera_controls["AfMode"] = (0, 2, 0)
    return wrapped


def test_a_hanging_capture_times_out_instead_of_blocking(fake_picamera2):
    src = Picamera2Source(size=(16, 8), settle_s=10)
    src.open()
    cam = fake_picamera2.instances[0]
    assert src.read(1.0) is not None
    cam.hang.set()
    t0 = time.monotonic()
    assert src.read(0.2) is None
    assert src.read(0.2) is None
    assert time.monotonic() - t0 < 1.0
    src.close()  # releases the hung capture


def test_capture_errors_surface_as_source_errors(fake_picamera2, monkeypatch):
    src = Picamera2Source(size=(16, 8))
    src.open()
    cam = fake_picamera2.instances[0]
    monkeypatch.setattr(cam, "capture_array", lambda name: (_ for _ in ()).throw(
        RuntimeError("dma buffer lost")))
    with pytest.raises(SourceError, match="capture failed: dma buffer lost"):
        src.read(1.0)
    src.close()


def test_no_camera_is_reported_with_what_to_check(fake_picamera2):
    fake_picamera2.cameras = []
    with pytest.raises(SourceError, match=r"no camera found.*ribbon cable"):
        Picamera2Source().open()


def test_missing_picamera2_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    with pytest.raises(SourceError, match=r"apt install python3-picamera2.*system-site-packages"):
        Picamera2Source().open()
