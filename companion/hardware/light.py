"""`StatusLight`: one LED (or an RGB LED) that tells the table what the referee thinks.

"waiting" (nothing to judge) is a slow blink, "legal" (a candidate move the rules accept) is
steady, "illegal" (the move on the table is refused) is a fast blink, and "off" is off. An RGB LED
adds colour: blue, green, red. Blinking runs in gpiozero's background thread. Without a pin the
light is a no-op that still remembers its state, so the referee never has to check.
"""

from __future__ import annotations

from typing import Any, Literal

import gpiozero

from .pins import make_device

__all__ = ["LIGHT_STATES", "LightState", "StatusLight"]

LightState = Literal["off", "waiting", "legal", "illegal"]
LIGHT_STATES: tuple[LightState, ...] = ("off", "waiting", "legal", "illegal")

SLOW = (0.2, 1.3)  # on, off seconds: waiting
FAST = (0.1, 0.1)  # illegal
_COLOURS = {"waiting": (0, 0, 1), "legal": (0, 1, 0), "illegal": (1, 0, 0)}


class StatusLight:
    """A status LED on `pin`, or an RGB LED on `rgb` = (red, green, blue) pins, or nothing."""

    def __init__(
        self,
        pin: int | None = None,
        *,
        rgb: tuple[int, int, int] | None = None,
        active_high: bool = True,
        pin_factory: Any = None,
    ) -> None:
        if pin is not None and rgb is not None:
            raise ValueError("give a status LED either one pin or three rgb pins, not both")
        self.device: gpiozero.LED | gpiozero.RGBLED | None = None
        if pin is not None:
            self.device = make_device("status LED", gpiozero.LED, pin, active_high=active_high,
                                      initial_value=False, pin_factory=pin_factory)
        elif rgb is not None:
            if len(rgb) != 3:
                raise ValueError(f"rgb needs three pins (red, green, blue), got {rgb!r}")
            self.device = make_device("status RGB LED", gpiozero.RGBLED, *rgb, pwm=False,
                                      active_high=active_high, pin_factory=pin_factory)
        self._state: LightState = "off"

    @property
    def state(self) -> LightState:
        """The state last set."""
        return self._state

    def set(self, state: LightState) -> None:
        """Show `state` ("off", "waiting", "legal" or "illegal"); setting it again is a no-op."""
        if state not in LIGHT_STATES:
            raise ValueError(f"status light state must be one of {LIGHT_STATES}, got {state!r}")
        if state == self._state:
            return
        self._state = state
        device = self.device
        if device is None:
            return
        if state == "off":
            device.off()
        elif isinstance(device, gpiozero.RGBLED):
            colour = _COLOURS[state]
            if state == "legal":
                device.color = colour
            else:
                on, off = SLOW if state == "waiting" else FAST
                device.blink(on_time=on, off_time=off, on_color=colour, off_color=(0, 0, 0))
        elif state == "legal":
            device.on()
        else:
            on, off = SLOW if state == "waiting" else FAST
            device.blink(on_time=on, off_time=off)

    def close(self) -> None:
        """Turn off and release the pins (idempotent)."""
        if self.device is not None:
            self.device.close()
            self.device = None
        self._state = "off"

    def __enter__(self) -> StatusLight:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
