"""The admin's protections: the table PIN, the session login, CSRF tokens and a login throttle.

A browser becomes admin by entering the table PIN once; the signed session cookie then carries
`admin=True` and a random CSRF token that every state-changing request must echo (hidden form
field or `X-CSRF-Token` header). Wrong PINs from one address are counted and, past a limit,
refused for a while, so that a 6-digit PIN cannot be guessed from a phone at the table.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from functools import wraps

from flask import abort, current_app, jsonify, request, session

__all__ = ["Throttle", "csrf_token", "is_admin", "require_admin", "require_csrf"]


def csrf_token() -> str:
    """This session's CSRF token (created on first use)."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def is_admin() -> bool:
    """True once this browser has entered the PIN."""
    return bool(session.get("admin"))


def pin_matches(pin: str) -> bool:
    """Constant-time comparison with the configured table PIN."""
    expected = str(current_app.config["TABLE_PIN"])
    return hmac.compare_digest(pin.strip().encode(), expected.encode())


def refuse(status: int, message: str):
    if wants_json():
        response = jsonify(ok=False, message=message)
        response.status_code = status
        abort(response)
    abort(status, description=message)


def wants_json() -> bool:
    """The request came from our script (fetch) rather than a plain form post."""
    return request.headers.get("X-Requested-With") == "fetch" or request.is_json


def require_csrf(view):
    """Refuse a POST whose CSRF token does not match the session's."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf", "")
        token = session.get("csrf", "")
        if not token or not hmac.compare_digest(sent.encode(), token.encode()):
            refuse(400, "The form expired or came from elsewhere (CSRF check): reload the page.")
        return view(*args, **kwargs)

    return wrapped


def require_admin(view):
    """Refuse a request from a browser that has not entered the table PIN."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        if not is_admin():
            refuse(403, "Admin actions need the table PIN: log in on the admin page.")
        return view(*args, **kwargs)

    return wrapped


class Throttle:
    """Counts failed logins per address and locks an address out after too many."""

    def __init__(self, max_failures: int, lock_s: float) -> None:
        self.max_failures, self.lock_s = max_failures, lock_s
        self._failures: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def locked(self, who: str) -> float:
        """Seconds `who` must still wait (0: may try)."""
        with self._lock:
            n, since = self._failures.get(who, (0, 0.0))
            if n < self.max_failures:
                return 0.0
            left = since + self.lock_s - time.monotonic()
            if left <= 0:
                self._failures.pop(who, None)
                return 0.0
            return left

    def failed(self, who: str) -> None:
        """Record a wrong PIN."""
        with self._lock:
            n, _ = self._failures.get(who, (0, 0.0))
            self._failures[who] = (n + 1, time.monotonic())

    def succeeded(self, who: str) -> None:
        """Forget the failures of `who`."""
        with self._lock:
            self._failures.pop(who, None)
