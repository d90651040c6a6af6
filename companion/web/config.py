"""Configuration of the web app: defaults as a config object (Flask's `from_object` pattern)."""

from __future__ import annotations


class DefaultConfig:
    """Defaults; the command that builds the app supplies the PIN and the secret key."""

    SECRET_KEY: str = ""
    TABLE_PIN: str = ""
    TITLE = "Table Companion"
    JOIN_URL: str | None = None            # None: http://<LAN IP>:<port>/ from the request
    SSE_HEARTBEAT_S = 15.0                 # comment lines keep proxies and dead peers honest
    SSE_RETRY_MS = 1500                    # how soon a browser reconnects after a drop
    FRAME_INTERVAL_MS = 1000               # how often the page refreshes the camera image
    LOGIN_MAX_FAILURES = 5                 # wrong PINs from one address before a pause
    LOGIN_LOCK_S = 30.0
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Strict"
    MAX_CONTENT_LENGTH = 64 * 1024
    SEND_FILE_MAX_AGE_DEFAULT = 300
