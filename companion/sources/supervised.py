"""`SupervisedSource`: keeps a frame source running — reports failures and stalls, and reopens.

The supervisor builds a source with the factory, opens it and reads it in a capture thread of its
own. A source that raises is reported as "failed" at once; one that delivers no frame for
`stall_s` seconds (a read or open that hangs included) is reported as "stalled" then. Either way
the attempt is abandoned — its source closed from a helper thread, so a hung driver cannot block
the supervisor — and a fresh source is built after an exponential backoff (`backoff_s` doubling
up to `backoff_max_s`, reset once an attempt has run well for `stall_s`). A finite source that
ends is reported as "ended" and not reopened. Nothing here ever raises into the caller: the
latest frame and the status are always available, and frames carry one sequence number that keeps
increasing across reopens. `stop()` closes the source and waits (up to `close_timeout`) for the
capture thread to leave its read, so no thread is left inside a driver or a render at exit.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .frame import EndOfStream, Frame, FrameSource, SourceError

__all__ = ["SourceState", "SourceStatus", "SupervisedSource"]

log = logging.getLogger(__name__)

SourceState = Literal["starting", "ok", "stalled", "failed", "reopening", "ended", "stopped"]


@dataclass(frozen=True)
class SourceStatus:
    """How the camera is doing, for the scoreboard and the log.

    `since` is the `time.monotonic()` at which `state` began; `frames` counts every frame
    delivered since `start()`; `reopens` counts attempts after the first.
    """

    state: SourceState
    message: str
    frames: int
    since: float
    reopens: int = 0
    last_frame_t: float | None = None


class _Attempt:
    """One factory() → open() → read loop; abandoned on failure, stall or stop."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.progress = self.started
        self.first_frame: float | None = None
        self.source: FrameSource | None = None
        self.thread: threading.Thread | None = None  # the capture thread reading `source`
        self.abandoned = threading.Event()
        self.done = threading.Event()
        self.outcome: tuple[SourceState, str] = ("failed", "")
        self._close_lock = threading.Lock()
        self._closed = False

    def finish(self, state: SourceState, message: str) -> None:
        if not self.done.is_set():
            self.outcome = (state, message)
            self.done.set()

    def close_once(self) -> None:
        with self._close_lock:
            if self._closed or self.source is None:
                return
            self._closed = True
            source = self.source
        try:
            source.close()
        except Exception as exc:
            log.warning("closing %s failed: %s", getattr(source, "name", source), exc)


class SupervisedSource:
    """Runs `factory()`'s source in a thread, watching it; see the module docstring."""

    def __init__(
        self,
        factory: Callable[[], FrameSource],
        *,
        stall_s: float = 5.0,
        backoff_s: float = 0.5,
        backoff_max_s: float = 30.0,
        read_timeout: float | None = None,
        close_timeout: float = 2.0,
        on_frame: Callable[[Frame], None] | None = None,
        name: str = "camera",
    ) -> None:
        if not stall_s > 0 or not backoff_s > 0 or backoff_max_s < backoff_s:
            raise ValueError(
                f"need stall_s > 0 and 0 < backoff_s <= backoff_max_s, got {stall_s}, "
                f"{backoff_s}, {backoff_max_s}"
            )
        self.factory = factory
        self.stall_s = stall_s
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        self.read_timeout = read_timeout if read_timeout is not None else min(1.0, stall_s / 4)
        self.close_timeout = close_timeout
        self.on_frame = on_frame
        self.name = name
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._frames = 0
        self._reopens = 0
        self._status = SourceStatus("starting", f"starting {name}", 0, time.monotonic())
        self._stopping = threading.Event()
        self._attempt: _Attempt | None = None
        self._thread: threading.Thread | None = None

    # -- the caller's side -----------------------------------------------------------------

    def start(self) -> SupervisedSource:
        """Start capturing in the background (returns self)."""
        if self._thread is not None:
            raise RuntimeError(f"{self.name}: already started")
        self._thread = threading.Thread(target=self._supervise, name=f"{self.name} supervisor",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop capturing and close the source (idempotent)."""
        self._stopping.set()
        attempt = self._attempt
        if attempt is not None:
            attempt.finish("stopped", "")
        if self._thread is not None:
            self._thread.join(timeout)
        self._set_status("stopped", f"{self.name} stopped")

    def latest(self) -> Frame | None:
        """The most recent frame, or None before the first."""
        with self._cond:
            return self._latest

    def next_frame(self, after: int | None = None, timeout: float = 1.0) -> Frame | None:
        """The first frame with `seq > after` (any frame if `after` is None), waiting `timeout`."""
        def ready() -> bool:
            return self._latest is not None and (after is None or self._latest.seq > after)

        with self._cond:
            self._cond.wait_for(ready, timeout)
            return self._latest if ready() else None

    def status(self) -> SourceStatus:
        """What the source is doing now."""
        with self._cond:
            return self._status

    def __enter__(self) -> SupervisedSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the supervisor thread --------------------------------------------------------------

    def _supervise(self) -> None:
        failures = 0
        while not self._stopping.is_set():
            attempt = _Attempt()
            self._attempt = attempt
            attempt.thread = threading.Thread(target=self._capture, args=(attempt,), daemon=True,
                                              name=f"{self.name} capture")
            attempt.thread.start()
            state, message = self._watch(attempt)
            attempt.abandoned.set()
            if state == "stopped" or self._stopping.is_set():
                self._close(attempt, wait=True)
                return
            ran_well = attempt.first_frame is not None and \
                attempt.progress - attempt.first_frame >= self.stall_s
            failures = 1 if ran_well else failures + 1
            if state == "ended":
                self._set_status("ended", message)
                self._close(attempt)
                return
            delay = min(self.backoff_max_s, self.backoff_s * 2 ** (failures - 1))
            self._set_status(state, f"{message}; reopening in {delay:.1f} s")
            log.warning("%s %s: %s; reopening in %.1f s", self.name, state, message, delay)
            self._close(attempt)
            if self._stopping.wait(delay):
                return
            with self._cond:
                self._reopens += 1
            self._set_status("reopening", f"reopening {self.name} (attempt {failures + 1})")

    def _watch(self, attempt: _Attempt) -> tuple[SourceState, str]:
        tick = min(0.1, self.stall_s / 10)
        while not attempt.done.wait(tick):
            if self._stopping.is_set():
                return "stopped", ""
            idle = time.monotonic() - attempt.progress
            if idle >= self.stall_s:
                what = "no frame" if attempt.first_frame is not None else "no first frame"
                return "stalled", f"{what} for {idle:.1f} s"
        return attempt.outcome

    def _capture(self, attempt: _Attempt) -> None:
        try:
            source = self.factory()
            attempt.source = source
            if attempt.abandoned.is_set():
                return
            source.open()
            while not attempt.abandoned.is_set():
                frame = source.read(self.read_timeout)
                if frame is not None and not attempt.abandoned.is_set():
                    self._deliver(frame, attempt)
        except EndOfStream as exc:
            attempt.finish("ended", str(exc) or "the source has ended")
        except Exception as exc:
            attempt.finish("failed", _describe(exc))
        finally:
            if attempt.abandoned.is_set():
                attempt.close_once()  # a hung open() or read() that came back late

    def _deliver(self, frame: Frame, attempt: _Attempt) -> None:
        now = time.monotonic()
        with self._cond:
            self._frames += 1
            frame = dataclasses.replace(frame, seq=self._frames)
            self._latest = frame
            attempt.progress = now
            if attempt.first_frame is None:
                attempt.first_frame = now
                h, w = frame.image.shape[:2]
                self._set_status("ok", f"{self.name}: {w}×{h}", locked=True)
            self._status = dataclasses.replace(self._status, frames=self._frames,
                                               last_frame_t=frame.t)
            self._cond.notify_all()
        if self.on_frame is not None:
            try:
                self.on_frame(frame)
            except Exception:
                log.exception("%s: on_frame callback failed (frame %d)", self.name, frame.seq)

    def _close(self, attempt: _Attempt, *, wait: bool = False) -> None:
        """Close the attempt's source from a helper thread (a hung driver cannot block us).

        With `wait` (on stop), also wait for the capture thread to leave its read: a daemon
        thread still inside native code (a render, a driver call) when the interpreter exits is
        torn down mid-call, which can abort the process at exit.
        """
        deadline = time.monotonic() + self.close_timeout
        closer = threading.Thread(target=attempt.close_once, daemon=True,
                                  name=f"{self.name} close")
        closer.start()
        closer.join(self.close_timeout)
        if closer.is_alive():
            log.warning("%s: closing the old source hangs; abandoned it", self.name)
        elif wait and attempt.thread is not None:
            attempt.thread.join(max(0.0, deadline - time.monotonic()))
            if attempt.thread.is_alive():
                log.warning("%s: the capture thread did not finish its read; left it", self.name)

    def _set_status(self, state: SourceState, message: str, *, locked: bool = False) -> None:
        if not locked:
            with self._cond:
                self._set_status(state, message, locked=True)
            return
        if state != self._status.state:
            log.info("%s: %s (%s)", self.name, state, message)
        self._status = SourceStatus(state, message, self._frames, time.monotonic(),
                                    self._reopens, self._status.last_frame_t)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SourceError) and str(exc):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
