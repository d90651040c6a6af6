"""`Buzzer`: short sounds for the table — a beep on a committed move, a tune for Hox'la.

A passive piezo on a PWM-capable pin plays real notes through gpiozero's `TonalBuzzer`
(`tonal=True`); an active buzzer (`tonal=False`) can only sound or not, so a tune becomes its
rhythm. Sounds play in a background thread and never block the referee; a new sound cuts the one
playing. Without a pin the buzzer is a no-op that still records what it was asked to play.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from typing import Any

import gpiozero
from gpiozero.tones import Tone

from .pins import make_device

__all__ = ["BEEP", "HOXLA", "Buzzer", "Note"]

Note = tuple[str | None, float]  # (note name such as "C5", or None for a rest; seconds)

BEEP: tuple[Note, ...] = (("A5", 0.08),)
#: A rising fanfare for Hox'la: G4 C5 E5 G5 — E5 G5.
HOXLA: tuple[Note, ...] = (
    ("G4", 0.12), ("C5", 0.12), ("E5", 0.12), ("G5", 0.28), (None, 0.06), ("E5", 0.1), ("G5", 0.4),
)
_GAP = 0.02  # silence after each note, so repeated notes are heard as two


class Buzzer:
    """A buzzer on `pin` (a passive piezo playing notes if `tonal`), or a silent stand-in."""

    def __init__(
        self,
        pin: int | None = None,
        *,
        tonal: bool = False,
        active_high: bool = True,
        pin_factory: Any = None,
    ) -> None:
        self.tonal = tonal
        self.device: gpiozero.Buzzer | gpiozero.TonalBuzzer | None = None
        if pin is not None and tonal:
            self.device = make_device("tonal buzzer", gpiozero.TonalBuzzer, pin,
                                      mid_tone=Tone("A4"), octaves=2, pin_factory=pin_factory)
        elif pin is not None:
            self.device = make_device("buzzer", gpiozero.Buzzer, pin, active_high=active_high,
                                      initial_value=False, pin_factory=pin_factory)
        self.played: list[tuple[Note, ...]] = []
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    def beep(self) -> None:
        """A short beep (a move was committed)."""
        self.play(BEEP)

    def play_hoxla(self) -> None:
        """The Hox'la fanfare (about a second)."""
        self.play(HOXLA)

    def play(self, tune: Sequence[Note]) -> None:
        """Play `tune` in the background, cutting any tune still playing."""
        tune = tuple(tune)
        for name, seconds in tune:
            if name is not None:
                Tone(name)  # a bad note name fails here, in the caller
            if not seconds > 0:
                raise ValueError(f"note durations must be positive, got {seconds!r}")
        with self._lock:
            self._stop_playing()
            self.played.append(tune)
            if self.device is None:
                return
            self._cancel = threading.Event()
            self._thread = threading.Thread(target=self._play, args=(tune, self._cancel),
                                            name="buzzer", daemon=True)
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the current tune is over; False if it is still playing after `timeout`."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    @property
    def playing(self) -> bool:
        """True while a tune is sounding."""
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        """Stop any tune and release the pin (idempotent)."""
        with self._lock:
            self._stop_playing()
            if self.device is not None:
                self.device.close()
                self.device = None

    def __enter__(self) -> Buzzer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _stop_playing(self) -> None:
        self._cancel.set()
        if self._thread is not None:
            self._thread.join(1.0)
            self._thread = None

    def _play(self, tune: tuple[Note, ...], cancel: threading.Event) -> None:
        device = self.device
        if device is None:
            return
        try:
            for name, seconds in tune:
                if name is not None:
                    self._sound(device, name)
                if cancel.wait(seconds):
                    break
                self._silence(device)
                if cancel.wait(_GAP):
                    break
        finally:
            with contextlib.suppress(gpiozero.GPIOZeroError):  # closed while playing
                self._silence(device)

    @staticmethod
    def _silence(device: Any) -> None:
        if isinstance(device, gpiozero.TonalBuzzer):
            device.stop()
        else:
            device.off()

    @staticmethod
    def _sound(device: Any, name: str) -> None:
        if isinstance(device, gpiozero.TonalBuzzer):
            device.play(Tone(name))
        else:
            device.on()
