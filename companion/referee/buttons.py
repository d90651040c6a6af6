"""The table's buttons acting on the referee: CONFIRM, UNDO and NEXT presses from a queue.

`companion.hardware.TableButtons` (or the admin page's virtual buttons, or a test) puts
`ButtonPress` events on a queue; `ButtonLoop` takes them off in its own thread and calls the
referee — tap or hold alike: CONFIRM commits the candidate, UNDO takes back the last committed
action, NEXT discards for a seat that cannot place, enters default stakes, or starts the next
game. Roles are matched by name so that this module does not import gpiozero.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from .referee import Outcome, Referee

__all__ = ["ButtonLoop", "press"]

log = logging.getLogger(__name__)


def role_name(role: object) -> str:
    """"confirm", "undo" or "next" for a `Role` (or a string)."""
    value = getattr(role, "value", role)
    return str(value).lower()


def press(referee: Referee, role: object, source: str = "button") -> Outcome:
    """Act on one press of the button with `role`."""
    name = role_name(role)
    if name == "confirm":
        return referee.confirm(source)
    if name == "undo":
        return referee.undo(source)
    if name == "next":
        return referee.next(source)
    return Outcome(False, f"unknown button {name!r}")


class ButtonLoop:
    """Consumes presses from `events` and applies them to the referee."""

    def __init__(self, referee: Referee, events: queue.Queue,
                 on_outcome: Callable[[object, Outcome], None] | None = None) -> None:
        self.referee = referee
        self.events = events
        self.on_outcome = on_outcome
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)

    def start(self) -> ButtonLoop:
        """Start consuming."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop consuming (returns once the thread ended)."""
        self._stop.set()
        self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                event = self.events.get(timeout=0.2)
            except queue.Empty:
                continue
            try:
                outcome = press(self.referee, getattr(event, "role", event))
                log.info("button %s: %s", role_name(getattr(event, "role", event)),
                         outcome.message)
                if self.on_outcome is not None:
                    self.on_outcome(event, outcome)
            except Exception:  # a button press must never stop the loop
                log.exception("button press failed")
