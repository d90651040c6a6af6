"""`VideoCaptureSource`: OpenCV `VideoCapture` as a frame source — USB webcam, video file, stream.

`target` is a device index (0) or path (/dev/video0), a video file, or a stream URL (rtsp://,
http://...). A file is played at its own frame rate (`realtime`) and may loop; a device or stream
that stops delivering raises `SourceError`, which the supervisor answers by reopening it.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2

from .frame import EndOfStream, Frame, Pacer, SourceError

__all__ = ["VideoCaptureSource"]

_STREAM_SCHEMES = ("rtsp://", "rtsps://", "rtmp://", "http://", "https://", "udp://", "tcp://")
_TIMEOUT_MS = 5000


class VideoCaptureSource:
    """Frames from `cv2.VideoCapture(target)`; `size` asks a device for a resolution."""

    def __init__(
        self,
        target: int | str,
        *,
        loop: bool = True,
        size: tuple[int, int] | None = None,
        realtime: bool = True,
    ) -> None:
        if isinstance(target, bool) or not isinstance(target, int | str | Path):
            raise TypeError(f"target must be a device index, a path or a URL, got {target!r}")
        self.target: int | str = target if isinstance(target, int) else str(target)
        self.kind = _kind(self.target)
        self.name = f"opencv:{self.target}" if self.kind == "device" else str(self.target)
        self.loop = loop
        self.size = size
        self.realtime = realtime
        self._cap: cv2.VideoCapture | None = None
        self._pacer: Pacer | None = None
        self._seq = 0

    def open(self) -> None:
        """Open the device, file or stream; raises `SourceError` with what to check."""
        if self.kind == "file" and not Path(self.target).is_file():
            raise SourceError(f"{self.name}: no such video file; check the path")
        cap = self._capture()
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"{self.name}: {_HINTS[self.kind]}")
        if self.size and self.kind == "device":
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        if self.kind == "stream":
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._pacer = None
        if self.kind == "file" and self.realtime:
            fps = cap.get(cv2.CAP_PROP_FPS)
            self._pacer = Pacer(fps if 0 < fps < 1000 else 25.0)
        self._cap = cap

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The next frame (a file at its frame rate); None if not due within `timeout`."""
        cap = self._cap
        if cap is None:
            raise SourceError(f"{self.name}: read() before open()")
        if self._pacer is not None and not self._pacer.wait(timeout):
            return None
        ok, image = cap.read()
        if not ok and self.kind == "file":
            if not self.loop:
                raise EndOfStream(f"{self.name}: end of the video")
            cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = cap.read()
        if not ok or image is None:
            raise SourceError(f"{self.name}: the {self.kind} delivered no frame")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        self._seq += 1
        return Frame(image, time.monotonic(), self._seq)

    def close(self) -> None:
        """Release the capture (idempotent)."""
        if self._pacer is not None:
            self._pacer.cancel()
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()

    def _capture(self) -> cv2.VideoCapture:
        if self.kind == "stream":
            params = [
                getattr(cv2, "CAP_PROP_OPEN_TIMEOUT_MSEC", None), _TIMEOUT_MS,
                getattr(cv2, "CAP_PROP_READ_TIMEOUT_MSEC", None), _TIMEOUT_MS,
            ]
            if None not in params:
                return cv2.VideoCapture(self.target, cv2.CAP_FFMPEG, params)
        return cv2.VideoCapture(self.target)


_HINTS = {
    "device": "cannot open the camera; is it plugged in (`v4l2-ctl --list-devices`), not used by "
    "another program, and is this user in the 'video' group?",
    "file": "cannot decode the video file; is it a video format FFmpeg/OpenCV can read?",
    "stream": "cannot connect to the stream; check the URL, the network and the credentials",
}


def _kind(target: int | str) -> str:
    if isinstance(target, int) or target.startswith("/dev/video"):
        return "device"
    if target.lower().startswith(_STREAM_SCHEMES):
        return "stream"
    return "file"
