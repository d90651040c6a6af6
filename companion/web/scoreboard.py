"""The guest side: the scoreboard page, its live event stream, the camera image and the join page.

Everything here is read-only. `/events` is one Server-Sent Events stream per page: it starts with
what the client missed (by `Last-Event-ID`, or `?last=` when a page reconnects with a fresh
EventSource after a server restart) or with a full snapshot, then every update as it is
published, with a comment heartbeat when nothing happens so that dead connections are noticed.
"""

from __future__ import annotations

import json

import segno
from flask import Blueprint, Response, current_app, render_template, request

from .net import join_url

bp = Blueprint("scoreboard", __name__)


def table():
    """The injected table facade."""
    return current_app.extensions["table"]


def script_json(data: object) -> str:
    """JSON safe to embed in a <script> element (no "</script>" can end it early)."""
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e")


def page_config() -> dict:
    """Settings the page's script needs."""
    c = current_app.config
    return {"retry_ms": c["SSE_RETRY_MS"], "frame_ms": c["FRAME_INTERVAL_MS"]}


@bp.get("/")
def index():
    """The scoreboard (guests: everything visible, nothing changeable)."""
    snap = table().snapshot()
    return render_template("scoreboard.html", snap=snap, initial=script_json(snap),
                           page=script_json(page_config()), admin=False)


@bp.get("/state.json")
def state():
    """The current snapshot as JSON (for scripts and the benchmark)."""
    return current_app.response_class(json.dumps(table().snapshot()),
                                      mimetype="application/json",
                                      headers={"Cache-Control": "no-store"})


@bp.get("/events")
def events():
    """The live Server-Sent Events stream of one page."""
    last = request.headers.get("Last-Event-ID") or request.args.get("last")
    sub = table().subscribe(last)
    heartbeat = float(current_app.config["SSE_HEARTBEAT_S"])
    retry = int(current_app.config["SSE_RETRY_MS"])

    def stream():
        try:
            yield f"retry: {retry}\n: hello\n\n"
            while True:
                update = sub.get(timeout=heartbeat)
                if getattr(sub, "closed", False):
                    return
                yield update.sse() if update is not None else ": hb\n\n"
        finally:
            sub.close()

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/frame.jpg")
def frame():
    """The latest annotated camera image (204 when there is none yet)."""
    data = table().frame_jpeg()
    if not data:
        return Response(status=204, headers={"Cache-Control": "no-store"})
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/join")
def join():
    """A QR code of the scoreboard's address on the local network."""
    url = current_app.config.get("JOIN_URL") or join_url(request.host)
    qr = segno.make(url, error="m").svg_inline(border=2, dark="#111", light="#fff",
                                               omitsize=True)
    local_only = url.startswith(("http://127.", "http://localhost"))
    return render_template("join.html", url=url, qr=qr, local_only=local_only)


@bp.get("/healthz")
def healthz():
    """Liveness for scripts: 200 and the number of committed actions."""
    snap = table().snapshot()
    game = snap.get("game") or {}
    return {"ok": True, "game_id": game.get("game_id"), "turns": game.get("turns")}
