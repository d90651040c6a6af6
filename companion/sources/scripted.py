"""`ScriptedSource`: a frame source that plays a fixed script, for tests of everything downstream.

Each script item is one `read()`: an image becomes a frame; None is a stall (the read waits its
timeout and returns None, like a camera that delivers nothing); an exception is raised (a device
that fails); `Hang(seconds)` blocks that long whatever the timeout (a driver call that hangs, as
picamera2's `capture_array` does after hours). When the script runs out the source stalls, ends
(`EndOfStream`) or loops. Counters (`opens`, `closes`, `reads`) let tests check how it was used.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .frame import EndOfStream, Frame, SourceError, check_image

__all__ = ["Hang", "ScriptedSource"]


@dataclass(frozen=True)
class Hang:
    """A script item: the read blocks for `seconds`, ignoring its timeout (close() wakes it)."""

    seconds: float = 3600.0


Item = np.ndarray | BaseException | Hang | None


class ScriptedSource:
    """Plays `frames` one per read; see the module docstring for what each item does."""

    def __init__(
        self,
        frames: Sequence[Item],
        *,
        interval: float = 0.0,
        at_end: Literal["stall", "end", "loop"] = "stall",
        open_error: BaseException | None = None,
        name: str = "scripted",
    ) -> None:
        if at_end not in ("stall", "end", "loop"):
            raise ValueError(f"at_end must be 'stall', 'end' or 'loop', got {at_end!r}")
        self.name = name
        self.frames = list(frames)
        self.interval = interval
        self.at_end = at_end
        self.open_error = open_error
        self.opens = 0
        self.closes = 0
        self.reads = 0
        self._pos = 0
        self._seq = 0
        self._open = False
        self._closed = threading.Event()

    def open(self) -> None:
        """Start the script from its first item (or raise `open_error`)."""
        self.opens += 1
        if self.open_error is not None:
            raise self.open_error
        self._pos = 0
        self._open = True
        self._closed.clear()

    def read(self, timeout: float = 1.0) -> Frame | None:
        """Play the next item of the script."""
        if not self._open:
            raise SourceError(f"{self.name}: read() before open()")
        self.reads += 1
        if self._pos >= len(self.frames):
            if self.at_end == "end":
                raise EndOfStream(f"{self.name}: the script has ended")
            if self.at_end == "loop" and self.frames:
                self._pos = 0
            else:
                self._closed.wait(timeout)
                return None
        item = self.frames[self._pos]
        self._pos += 1
        if self.interval and self._closed.wait(self.interval):
            return None
        if item is None:
            self._closed.wait(timeout)
            return None
        if isinstance(item, Hang):
            self._closed.wait(item.seconds)
            return None
        if isinstance(item, BaseException):
            raise item
        self._seq += 1
        return Frame(check_image(item, self.name), time.monotonic(), self._seq)

    def close(self) -> None:
        """Stop (wakes a stalled or hanging read)."""
        self.closes += 1
        self._open = False
        self._closed.set()
