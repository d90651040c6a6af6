"""`Picamera2Source`: the Raspberry Pi camera through picamera2, with locked exposure and colour.

picamera2 is imported inside `open()`, so this module loads anywhere. The main stream is
XRGB8888, whose pixels picamera2 hands out as [B, G, R, 255]: dropping the last channel gives
OpenCV's BGR. After `settle_s` seconds of automatic exposure, white balance (and continuous
autofocus, on cameras with a focus motor), the settled values are read from the frame metadata
and frozen (`AeEnable`/`AwbEnable` off, focus manual at the settled lens position), so the colours
and sharpness the reader calibrated on do not drift while hands and cards move. Automatic exposure
aims at a mid grey over the whole picture, so under a lamp, with a dark table about them, the
white paper of the cards and boards may settle at the sensor's clip, where its colour and a
printed line's dip are lost: `exposure_ev` (negative: darker) shifts what it aims at while it
settles (libcamera's `ExposureValue`). Captures run in a
worker thread and `read(timeout)` waits for one at most `timeout` seconds: `capture_array` is
known to hang after hours, and a hung capture must look like a stall (which the supervisor
answers by reopening), not freeze the caller.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import numpy as np

from .frame import Frame, SourceError

__all__ = ["Picamera2Source", "xrgb_to_bgr"]

log = logging.getLogger(__name__)

_AF_MANUAL, _AF_CONTINUOUS = 0, 2  # libcamera's controls.AfModeEnum values

_INSTALL_HINT = (
    "picamera2 is not importable. On Raspberry Pi OS run `sudo apt install python3-picamera2` "
    "and create the venv with `python3 -m venv --system-site-packages`; off a Pi, use another "
    "camera.source (opencv:0, file:PATH, folder:PATH)."
)


def xrgb_to_bgr(array: np.ndarray) -> np.ndarray:
    """A contiguous BGR copy of an XRGB8888 capture (H×W×4, pixels [B, G, R, 255])."""
    if array.ndim != 3 or array.shape[2] != 4 or array.dtype != np.uint8:
        raise SourceError(f"picamera2: expected an H×W×4 uint8 XRGB8888 array, got "
                          f"{array.dtype} {array.shape}")
    return np.ascontiguousarray(array[:, :, :3])


class Picamera2Source:
    """The Pi camera `camera_num` at `size`, exposure and white balance locked after `settle_s`
    of settling with the exposure compensation `exposure_ev` (EV)."""

    def __init__(
        self, size: tuple[int, int] = (1280, 720), settle_s: float = 2.0, *, camera_num: int = 0,
        exposure_ev: float = 0.0,
    ) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.settle_s = settle_s
        self.exposure_ev = float(exposure_ev)
        self.camera_num = camera_num
        self.name = f"picamera2:{camera_num}"
        self.locked_controls: dict[str, Any] | None = None
        self._cam: Any = None
        self._worker: threading.Thread | None = None
        self._cond = threading.Condition()
        self._wanted = False
        self._result: tuple[np.ndarray, float] | BaseException | None = None
        self._stop = threading.Event()
        self._seq = 0

    def open(self) -> None:
        """Start the camera and the capture worker; raises `SourceError` with what to check."""
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError(_INSTALL_HINT) from exc
        if not Picamera2.global_camera_info():
            raise SourceError(
                "picamera2: no camera found. Check the ribbon cable (contacts facing the right "
                "way, both ends latched) and `rpicam-hello --list-cameras`."
            )
        try:
            cam = Picamera2(self.camera_num)
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "XRGB8888"}, buffer_count=4
            )
            cam.configure(config)
            cam.start()
            settling = self._settling_controls(getattr(cam, "camera_controls", {}))
            if settling:
                cam.set_controls(settling)
        except Exception as exc:
            raise SourceError(
                f"picamera2: cannot start camera {self.camera_num} at {self.size}: {exc}. Is "
                "another program (rpicam-*, a second companion) using it?"
            ) from exc
        self._cam = cam
        self._stop.clear()
        self._wanted, self._result, self.locked_controls = False, None, None
        self._worker = threading.Thread(
            target=self._capture_loop, args=(cam, time.monotonic()), name=f"{self.name} capture",
            daemon=True,
        )
        self._worker.start()

    def _settling_controls(self, known: dict[str, Any]) -> dict[str, Any]:
        """The controls set while the exposure settles, of those the camera has (`known`):
        continuous autofocus, and the exposure compensation when one is asked for."""
        controls: dict[str, Any] = {}
        if "AfMode" in known:
            controls["AfMode"] = _AF_CONTINUOUS
        if self.exposure_ev:
            if "ExposureValue" in known:
                controls["ExposureValue"] = self.exposure_ev
            else:
                log.warning("%s: the camera takes no exposure compensation (ExposureValue): "
                            "exposure_ev %g ignored", self.name, self.exposure_ev)
        return controls

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The next capture, or None if the camera gave none within `timeout` seconds."""
        if self._cam is None:
            raise SourceError(f"{self.name}: read() before open()")
        with self._cond:
            if self._result is None:
                self._wanted = True
                self._cond.notify_all()
                self._cond.wait_for(lambda: self._result is not None, timeout)
            result, self._result = self._result, None
        if result is None:
            return None
        if isinstance(result, BaseException):
            raise SourceError(f"{self.name}: capture failed: {result}") from result
        array, t = result
        self._seq += 1
        return Frame(xrgb_to_bgr(array), t, self._seq)

    def close(self) -> None:
        """Stop and release the camera (a hung driver may make this block; see the supervisor)."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        cam, self._cam = self._cam, None
        if cam is None:
            return
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception as exc:  # closing must not raise
                log.warning("%s: %s failed while closing: %s", self.name, step.__name__, exc)

    def _capture_loop(self, cam: Any, started: float) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._wanted or self._stop.is_set())
                if self._stop.is_set():
                    return
                self._wanted = False
            try:
                array = cam.capture_array("main")
                result: tuple[np.ndarray, float] | BaseException = (array, time.monotonic())
                if self.locked_controls is None and time.monotonic() - started >= self.settle_s:
                    self._lock_exposure(cam)
            except Exception as exc:
                result = exc
            with self._cond:
                self._result = result
                self._cond.notify_all()
            if isinstance(result, BaseException):
                return

    def _lock_exposure(self, cam: Any) -> None:
        metadata = cam.capture_metadata()
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if metadata.get(key) is not None:
                controls[key] = metadata[key]
        if "AfMode" in getattr(cam, "camera_controls", {}) and \
                metadata.get("LensPosition") is not None:
            controls["AfMode"] = _AF_MANUAL
            controls["LensPosition"] = metadata["LensPosition"]
        cam.set_controls(controls)
        self.locked_controls = controls
        log.info("%s: exposure and white balance locked at %s", self.name, controls)
