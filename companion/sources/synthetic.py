"""`SyntheticSource`: frames drawn by a function of time, at a steady rate — the demo's camera.

The composer passes `render(t)`, which returns the BGR image of the synthetic table at monotonic
time `t` (the same clock as `Frame.t`); this module knows nothing of cards or rules. Frames are
paced at `fps`; an exception from `render` propagates like a camera failure.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .frame import Frame, Pacer, SourceError, check_image

__all__ = ["SyntheticSource"]


class SyntheticSource:
    """Calls `render(t)` `fps` times a second and wraps each image in a `Frame`."""

    def __init__(
        self, render: Callable[[float], np.ndarray], fps: float = 10, *, name: str = "synthetic"
    ) -> None:
        if not callable(render):
            raise TypeError(f"render must be a function of time, got {render!r}")
        self.name = name
        self.render = render
        self.fps = fps
        self._pacer = Pacer(fps)
        self._seq = 0
        self._open = False

    def open(self) -> None:
        """Start the clock."""
        self._pacer.reset()
        self._open = True

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The table as it looks at the next tick (None if the tick is beyond `timeout`)."""
        if not self._open:
            raise SourceError(f"{self.name}: read() before open()")
        if not self._pacer.wait(timeout):
            return None
        t = time.monotonic()
        image = check_image(self.render(t), f"{self.name} render()")
        self._seq += 1
        return Frame(image, t, self._seq)

    def close(self) -> None:
        """Stop (wakes a waiting read)."""
        self._open = False
        self._pacer.cancel()
