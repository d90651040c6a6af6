"""What the table hears and sees besides the phones: the status LED, the buzzer and speech.

`Outputs` follows the referee's published updates in its own thread: the candidate drives the
status light (legal / illegal / waiting), the buzzer beeps on every committed move and plays its
tune for a Hox'la, and every announcement can be spoken. `Speaker` speaks through `espeak-ng`
when it is installed, in a worker thread so that nothing waits for the voice; lines that pile up
while it speaks are dropped rather than queued for minutes. Every device is optional.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shutil
import subprocess
import threading
from typing import Any

from .referee import Referee

__all__ = ["Outputs", "Speaker", "light_state"]

log = logging.getLogger(__name__)


def light_state(candidate: dict) -> str:
    """The status light for a candidate view: legal, illegal or waiting."""
    if candidate.get("kind") == "move":
        return "legal" if candidate.get("legal") else "illegal"
    if candidate.get("kind") == "problem":
        return "illegal"
    return "waiting"


class Speaker:
    """Speaks lines with espeak-ng, never blocking the caller."""

    def __init__(self, voice: str = "en", program: str | None = None) -> None:
        self.program = program or shutil.which("espeak-ng")
        self.voice = voice
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=3)
        self._thread: threading.Thread | None = None

    @property
    def available(self) -> bool:
        """True when espeak-ng is installed."""
        return self.program is not None

    def say(self, text: str) -> bool:
        """Queue a line (False if it was dropped or there is no voice)."""
        if not self.available or not text:
            return False
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()
        try:
            self._queue.put_nowait(text)
            return True
        except queue.Full:
            return False

    def close(self) -> None:
        """Stop the worker after the current line."""
        if self._thread is not None:
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(None)

    def _run(self) -> None:
        while (text := self._queue.get()) is not None:
            try:
                subprocess.run([self.program, "-v", self.voice, text], timeout=20,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            except (OSError, subprocess.SubprocessError) as exc:
                log.warning("speech failed: %s", exc)


def _set_light(light: Any, state: str) -> None:
    for name in ("show", "set", "set_state"):
        method = getattr(light, name, None)
        if callable(method):
            method(state)
            return
    light.state = state


class Outputs:
    """Drives the light, buzzer and speaker from the referee's updates."""

    def __init__(self, referee: Referee, light: Any = None, buzzer: Any = None,
                 speaker: Speaker | None = None) -> None:
        self.referee = referee
        self.light, self.buzzer, self.speaker = light, buzzer, speaker
        self._sub = referee.bus.subscribe(None)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outputs", daemon=True)

    def start(self) -> Outputs:
        """Start following the referee."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop, and switch the light off."""
        self._stop.set()
        self._sub.close()
        self._thread.join(timeout=2)
        if self.light is not None:
            with contextlib.suppress(Exception):
                _set_light(self.light, "off")
        if self.speaker is not None:
            self.speaker.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            update = self._sub.get(timeout=0.5)
            if update is None:
                continue
            try:
                self.handle(update.kind, update.data)
            except Exception:  # an output device must never stop the referee
                log.exception("output failed")

    def handle(self, kind: str, data: dict) -> None:
        """React to one update."""
        if kind == "state" and data.get("candidate") is not None and self.light is not None:
            _set_light(self.light, light_state(data["candidate"]))
        elif kind == "candidate" and self.light is not None:
            _set_light(self.light, light_state(data))
        elif kind == "announce":
            if self.buzzer is not None:
                if data.get("headline") == "Hox'la!":
                    self.buzzer.play_hoxla()
                elif data.get("action") is not None:
                    self.buzzer.beep()  # a committed move
            if self.speaker is not None:
                word = data.get("headline") or ""
                rest = "; ".join(data.get("lines") or [])
                self.speaker.say(f"{word}. {rest}" if word else rest)
