"""`TableButtons`: the physical CONFIRM / UNDO / NEXT buttons, as a queue of `ButtonPress` events.

Each button is a gpiozero `Button` (wired from the GPIO pin to ground, internal pull-up). Tap or
hold is decided when the button is released, following gpiozero's documented pattern: `when_held`
only remembers that the hold time was reached, `when_released` decides. Debouncing is done here
in software, because mechanical contacts chatter for a few milliseconds: a press that starts within
`debounce_s` of the last accepted release is the release chattering and is ignored, and a press
released again within `debounce_s` is a chatter (or a glitch), not a tap. The callbacks only put
`ButtonPress` objects on the queue the caller gave; the referee consumes them in its own thread.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

import gpiozero

from .pins import make_device

__all__ = ["ButtonPress", "Role", "TableButtons"]

log = logging.getLogger(__name__)


class Role(Enum):
    """What a button means to the referee."""

    CONFIRM = "confirm"  # commit the candidate move (hold: commit a deposit/override prompt)
    UNDO = "undo"  # take back the last committed move
    NEXT = "next"  # advance when a seat must discard, skip a prompt


@dataclass(frozen=True)
class ButtonPress:
    """One decided press: which button, whether it was held, and when it was released.

    `t` is `time.monotonic()` at the release (the clock of `Frame.t`); `duration` is how long the
    button was down, in seconds.
    """

    role: Role
    hold: bool
    t: float
    duration: float = 0.0


class _Debounced:
    """The press/release state machine of one button (called from gpiozero's threads)."""

    def __init__(self, role: Role, owner: TableButtons) -> None:
        self.role = role
        self.owner = owner
        self.lock = threading.Lock()
        self.pressed_at: float | None = None
        self.held = False
        self.last_release = float("-inf")

    def pressed(self) -> None:
        now = time.monotonic()
        with self.lock:
            if now - self.last_release < self.owner.debounce_s:
                return  # the release is still chattering
            self.pressed_at = now
            self.held = False

    def was_held(self) -> None:
        with self.lock:
            if self.pressed_at is not None:
                self.held = True

    def released(self) -> None:
        now = time.monotonic()
        with self.lock:
            if self.pressed_at is None:
                return  # its press was ignored
            duration = now - self.pressed_at
            self.pressed_at = None
            if duration < self.owner.debounce_s:
                return  # a chatter, not a tap
            self.last_release = now
            hold = self.held or duration >= self.owner.hold_s
        self.owner._emit(ButtonPress(self.role, hold, now, duration))


class TableButtons:
    """gpiozero buttons on `pins` (role → BCM GPIO number) that report to `events`."""

    def __init__(
        self,
        pins: Mapping[Role | str, int | None],
        events: queue.Queue,
        hold_s: float = 1.0,
        debounce_s: float = 0.05,
        pin_factory: Any = None,
    ) -> None:
        if not 0 <= debounce_s < hold_s:
            raise ValueError(f"need 0 <= debounce_s < hold_s, got {debounce_s} and {hold_s}")
        self.events = events
        self.hold_s = hold_s
        self.debounce_s = debounce_s
        self.buttons: dict[Role, gpiozero.Button] = {}
        self._states: dict[Role, _Debounced] = {}
        wanted = _roles(pins)
        try:
            for role, pin in wanted.items():
                self._add(role, pin, pin_factory)
        except BaseException:
            self.close()
            raise

    def _add(self, role: Role, pin: int, pin_factory: Any) -> None:
        button = make_device(
            f"button {role.value}", gpiozero.Button, pin, pin_factory=pin_factory,
            pull_up=True, bounce_time=None, hold_time=self.hold_s, hold_repeat=False,
        )
        state = _Debounced(role, self)
        button.when_pressed = state.pressed
        button.when_held = state.was_held
        button.when_released = state.released
        self.buttons[role] = button
        self._states[role] = state

    def _emit(self, press: ButtonPress) -> None:
        try:
            self.events.put_nowait(press)
        except queue.Full:
            log.warning("button event queue is full; dropped %s", press)

    def close(self) -> None:
        """Release the pins (idempotent)."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        pins = {r.value: b.pin.info.name if b.pin else None for r, b in self.buttons.items()}
        return f"TableButtons({pins})"


def _roles(pins: Mapping[Role | str, int | None]) -> dict[Role, int]:
    out: dict[Role, int] = {}
    for key, pin in pins.items():
        try:
            role = key if isinstance(key, Role) else Role(str(key).lower())
        except ValueError:
            raise ValueError(
                f"unknown button role {key!r}; expected one of {[r.value for r in Role]}"
            ) from None
        if pin is None:
            continue
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise ValueError(f"button {role.value}: expected a GPIO number, got {pin!r}")
        if pin in out.values():
            other = next(r for r, p in out.items() if p == pin)
            raise ValueError(f"buttons {other.value} and {role.value} both use GPIO{pin}")
        out[role] = pin
    return out
