"""Buttons and outputs on the Pi's GPIO header, through gpiozero — the only package that imports it.

`TableButtons` turns CONFIRM / UNDO / NEXT buttons into a queue of debounced `ButtonPress` events
(tap or hold decided on release); `StatusLight` shows waiting / legal / illegal on an LED or RGB
LED; `Buzzer` beeps and plays the Hox'la tune. Every class takes `pin_factory`, so tests use
gpiozero's `MockFactory`, and the outputs accept None pins and then do nothing.
"""

from .buttons import ButtonPress, Role, TableButtons
from .buzzer import BEEP, HOXLA, Buzzer, Note
from .light import LIGHT_STATES, LightState, StatusLight
from .pins import GPIO_HINT

__all__ = [
    "BEEP",
    "GPIO_HINT",
    "HOXLA",
    "LIGHT_STATES",
    "ButtonPress",
    "Buzzer",
    "LightState",
    "Note",
    "Role",
    "StatusLight",
    "TableButtons",
]
