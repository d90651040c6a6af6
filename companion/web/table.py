"""What the web app needs of the table: the narrow facade the app factory is given.

The referee package implements it (`companion.referee.facade.TableFacade`); tests may pass any
object with these methods. Views are JSON-ready dicts; commands are a name plus string parameters
as they come from a form, answered with (ok, message).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Update(Protocol):
    """One published change, ready to be written as a Server-Sent Event."""

    def sse(self) -> str: ...


class Subscription(Protocol):
    """A live feed of updates for one page."""

    def get(self, timeout: float | None = None) -> Update | None: ...
    def close(self) -> None: ...


class Table(Protocol):
    """The table as the web app sees it."""

    def snapshot(self) -> dict: ...
    def subscribe(self, last_event_id: str | None) -> Subscription: ...
    def frame_jpeg(self) -> bytes | None: ...
    def command(self, name: str, params: Mapping[str, str], who: str) -> tuple[bool, str]: ...
