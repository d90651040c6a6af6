"""The scoreboard and admin web app (Flask): phones watch the table live, the admin acts.

`create_app(table, config)` is the application factory in the style of Flask's tutorial: the
`table` facade (see `table.Table`) is injected — the web layer imports neither the store nor the
hardware nor the rules, it renders the JSON views the facade hands it and forwards admin commands
as names and strings. Blueprints: `scoreboard` (the guest page, Server-Sent Events, the camera
JPEG, the join page with its QR code) and `admin` (PIN login, CSRF-protected commands, virtual
buttons). Configuration is a plain object (`config.DefaultConfig`) overridable by a mapping.
Every asset (CSS, JS) is served from `static/`; nothing comes from the internet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from .config import DefaultConfig
from .table import Table

__all__ = ["Table", "create_app"]


def create_app(table: Table, config: Mapping[str, Any] | None = None) -> Flask:
    """A Flask app showing `table`; `config` overrides `DefaultConfig` (PIN, SECRET_KEY...)."""
    app = Flask(__name__)
    app.config.from_object(DefaultConfig)
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        raise ValueError("the web app needs a SECRET_KEY (sessions sign the admin login)")
    if not app.config.get("TABLE_PIN"):
        raise ValueError("the web app needs a TABLE_PIN for the admin page")
    app.extensions["table"] = table

    from . import admin, scoreboard

    app.register_blueprint(scoreboard.bp)
    app.register_blueprint(admin.bp)

    @app.after_request
    def no_sniff(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    return app
