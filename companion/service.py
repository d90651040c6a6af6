"""Talking to systemd without dependencies: the sd_notify protocol and a watchdog pacer.

Under a `Type=notify` unit, systemd puts the path of a datagram socket in `$NOTIFY_SOCKET`
("@name" for a socket in the abstract namespace). `notify_ready()` says start-up is complete,
`notify_status(text)` sets the line `systemctl status` shows, and `notify_watchdog()` pets the
watchdog, which must happen more often than `WatchdogSec` (`watchdog_interval()` reads it from
`$WATCHDOG_USEC`) or systemd restarts the service. `Watchdog` does the petting from a thread, and
only while a health check passes, so a hung main loop gets the service restarted. Outside systemd
every call is a silent no-op (it returns False).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable

__all__ = [
    "Watchdog",
    "notify",
    "notify_ready",
    "notify_status",
    "notify_stopping",
    "notify_watchdog",
    "watchdog_interval",
]

log = logging.getLogger(__name__)


def _address() -> str | None:
    """The notify socket's address, with the abstract namespace's leading NUL, or None."""
    addr = os.environ.get("NOTIFY_SOCKET", "")
    if addr.startswith("@"):
        return "\0" + addr[1:]
    if addr.startswith("/"):
        return addr
    return None  # unset, or a kind we do not speak (vsock:...)


def notify(*assignments: str) -> bool:
    """Send `KEY=value` lines to systemd; True if sent, False outside systemd or on failure."""
    addr = _address()
    if addr is None:
        return False
    message = "\n".join(assignments).encode()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(addr)
            sock.sendall(message)
    except OSError as exc:
        log.debug("sd_notify to %r failed: %s", addr, exc)
        return False
    return True


def notify_ready(status: str | None = None) -> bool:
    """Tell systemd start-up is complete (`READY=1`), optionally with a status line."""
    return notify("READY=1", *([_status(status)] if status else []))


def notify_status(text: str) -> bool:
    """Set the one-line status shown by `systemctl status`."""
    return notify(_status(text))


def notify_watchdog() -> bool:
    """Pet the watchdog (`WATCHDOG=1`)."""
    return notify("WATCHDOG=1")


def notify_stopping() -> bool:
    """Tell systemd a clean shutdown has begun (`STOPPING=1`)."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """`WatchdogSec` in seconds if systemd expects this process to pet it, else None."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None  # meant for another process (e.g. our parent)
    return int(usec) / 1_000_000


def _status(text: str) -> str:
    return "STATUS=" + " ".join(str(text).split())


class Watchdog:
    """Pets the systemd watchdog every half interval while `healthy()` is true.

    With no watchdog configured (`watchdog_interval()` is None) `start()` does nothing.
    """

    def __init__(
        self, healthy: Callable[[], bool] | None = None, interval: float | None = None
    ) -> None:
        self.healthy = healthy or (lambda: True)
        self.interval = interval if interval is not None else watchdog_interval()
        self.pets = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Watchdog:
        """Start petting in a daemon thread (returns self)."""
        if self.interval and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop petting (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None

    def _run(self) -> None:
        period = max(0.01, self.interval / 2)
        while not self._stop.wait(period):
            try:
                ok = self.healthy()
            except Exception:
                log.exception("watchdog health check failed")
                ok = False
            if ok:
                notify_watchdog()
                self.pets += 1
            else:
                log.warning("not petting the watchdog: the health check failed")
