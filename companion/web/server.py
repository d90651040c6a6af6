"""Serving the app with waitress in a background thread (the device, the tests, the benchmark).

Server-Sent Events hold one waitress thread per open page for as long as it is open, so the pool
must be sized for the phones at the table plus a few threads for ordinary requests:
`threads_for(phones)`. `WebServer` binds first (port 0 picks a free port), so `port` is known
before `start()`; `stop()` closes the listening socket and the open streams' subscriptions.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from waitress import wasyncore
from waitress.server import create_server

__all__ = ["WebServer", "threads_for"]


def threads_for(phones: int = 30, spare: int = 8) -> int:
    """Threads for `phones` live pages (one SSE stream each) plus `spare` for other requests."""
    return phones + spare


class WebServer:
    """A waitress server for `app` on host:port, run in a daemon thread."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 8000, threads: int = 38,
                 on_stop: Callable[[], None] | None = None) -> None:
        self._server = create_server(app, host=host, port=port, threads=threads,
                                     connection_limit=max(100, threads * 3),
                                     channel_timeout=60, ident="table-companion")
        self.host = host
        self.port = int(self._server.effective_port)
        self._on_stop = on_stop
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL (http://host:port)."""
        return f"http://{self.host}:{self.port}"

    def start(self) -> WebServer:
        """Serve in the background."""
        self._thread = threading.Thread(target=self._run, name="waitress", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        with contextlib.suppress(OSError, ValueError):  # closed under our feet by stop()
            self._server.run()

    def stop(self) -> None:
        """Stop accepting, end the live streams and shut the worker threads down."""
        if self._on_stop is not None:
            self._on_stop()  # live streams end at once, freeing their threads
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        with contextlib.suppress(Exception):
            wasyncore.close_all(self._server._map)  # the listener, the trigger, every channel
        if self._thread is not None:
            self._thread.join(timeout=3)
