"""Putting the pieces together for `companion demo`, `companion run` and the benchmark.

The table PIN and the session secret live in the store's meta table (random at first start, so a
restart keeps both; a PIN from the config or the command line wins). `WebStack` builds the facade,
the Flask app and the waitress server around a referee and a camera loop, sized for the phones at
the table, and takes them down again in the right order.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from ..web import create_app
from ..web.server import WebServer, threads_for
from .facade import TableFacade
from .pipeline import CameraLoop
from .referee import Referee

__all__ = ["WebStack", "secret_key", "table_pin"]

log = logging.getLogger(__name__)


def table_pin(store: Any, override: str | None = None) -> str:
    """The admin PIN: `override`, else the stored one, else a new random 6-digit PIN (stored)."""
    if override:
        return str(override)
    pin = store.get_meta("table_pin")
    if not pin:
        pin = f"{secrets.randbelow(10**6):06d}"
        store.set_meta("table_pin", pin)
    return pin


def secret_key(store: Any) -> str:
    """The session-signing key, kept in the store so admin logins survive a restart."""
    key = store.get_meta("web_secret")
    if not key:
        key = secrets.token_hex(32)
        store.set_meta("web_secret", key)
    return key


class WebStack:
    """Facade + app + waitress server for a referee (and its camera loop, if any)."""

    def __init__(self, referee: Referee, store: Any, camera: CameraLoop | None, host: str,
                 port: int, pin: str, threads: int | None = None,
                 join_url: str | None = None, **config: Any) -> None:
        self.facade = TableFacade(referee, camera.jpeg if camera is not None else None)
        settings = {"SECRET_KEY": secret_key(store), "TABLE_PIN": pin, "JOIN_URL": join_url,
                    **config}
        self.app = create_app(self.facade, settings)
        self.server = WebServer(self.app, host=host, port=port,
                                threads=max(threads or 0, threads_for(30)),
                                on_stop=self.facade.close)

    def start(self) -> WebStack:
        """Serve in the background."""
        self.server.start()
        return self

    def stop(self) -> None:
        """End the live streams and stop serving."""
        self.server.stop()
