"""Building gpiozero devices with an error that says what to check when a pin cannot be used."""

from __future__ import annotations

from typing import Any

import gpiozero

__all__ = ["GPIO_HINT", "make_device"]

GPIO_HINT = (
    "On a Raspberry Pi: install lgpio (`sudo apt install python3-lgpio`, or `pip install lgpio` "
    "in the venv), add the service user to the 'gpio' group, and check no other program uses "
    "the pin. Off a Pi: leave the pin unset in the config (or set GPIOZERO_PIN_FACTORY=mock)."
)


def make_device(what: str, cls: type, *pins: Any, **kwargs: Any) -> Any:
    """`cls(*pins, **kwargs)`, or a `RuntimeError` naming `what`, the pins and what to check."""
    try:
        return cls(*pins, **kwargs)
    except gpiozero.GPIOZeroError as exc:
        names = "/".join(f"GPIO{p}" for p in pins)
        reason = str(exc).rstrip(".!") or type(exc).__name__
        raise RuntimeError(f"{what}: cannot use {names}: {reason}. {GPIO_HINT}") from exc
