"""The frame-source contract: `Frame`, the `FrameSource` protocol, its errors, and a pacer.

A source is opened, read repeatedly and closed. `read(timeout)` returns the next `Frame` (a BGR
uint8 image stamped with `time.monotonic()` and a sequence number), or None when no frame came
within `timeout` seconds; it raises `SourceError` when the device is gone, and `EndOfStream` when
a finite source (a video file or image folder that does not loop) has nothing more to give.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["EndOfStream", "Frame", "FrameSource", "Pacer", "SourceError", "check_image"]


class SourceError(Exception):
    """A frame source cannot open or deliver frames; the message says why and what to do."""


class EndOfStream(SourceError):
    """A finite source (file, folder) that does not loop has delivered its last frame."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One camera image: BGR uint8 `image` (H×W×3), monotonic time `t`, and sequence `seq`."""

    image: np.ndarray
    t: float
    seq: int


@runtime_checkable
class FrameSource(Protocol):
    """Anything that yields frames: a camera, a video, a folder, a synthetic table, a script."""

    name: str

    def open(self) -> None:
        """Acquire the device or file; raises `SourceError` with what to check."""

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The next frame, or None if none came within `timeout` seconds."""

    def close(self) -> None:
        """Release the device (idempotent, never raises)."""


def check_image(image: object, where: str) -> np.ndarray:
    """`image` if it is a BGR uint8 H×W×3 array, else a `SourceError` naming `where`."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 \
            or image.shape[2] != 3:
        shape = getattr(image, "shape", None)
        dtype = getattr(image, "dtype", type(image).__name__)
        raise SourceError(f"{where}: expected a BGR uint8 H×W×3 image, got {dtype} {shape}")
    return image


class Pacer:
    """Spaces reads `1/fps` seconds apart without drifting; interruptible by `cancel()`."""

    def __init__(self, fps: float) -> None:
        if not fps > 0:
            raise ValueError(f"fps must be positive, got {fps!r}")
        self.period = 1.0 / fps
        self._next: float | None = None
        self._cancel = threading.Event()

    def wait(self, timeout: float) -> bool:
        """Sleep until the next tick; False if it is more than `timeout` away (or cancelled)."""
        now = time.monotonic()
        if self._next is None:
            self._next = now
        delay = self._next - now
        if delay > timeout:
            self._cancel.wait(timeout)
            return False
        if delay > 0 and self._cancel.wait(delay):
            return False
        self._next = max(self._next + self.period, time.monotonic())  # no catch-up bursts
        return not self._cancel.is_set()

    def cancel(self) -> None:
        """Wake a sleeping `wait` (on close)."""
        self._cancel.set()

    def reset(self) -> None:
        """Start afresh (on open)."""
        self._cancel.clear()
        self._next = None
