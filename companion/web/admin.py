"""The admin side: PIN login, the admin page, and every command that changes the game.

All commands go through one endpoint, `POST /admin/act` with `action=<name>` and its fields; the
table facade parses and checks them (through the rules engine) and answers (ok, message). Our
script posts with `fetch` and gets JSON; a plain form post (no JavaScript) is redirected back to
the page with the message flashed. Every POST needs the session's CSRF token; commands also need
the admin login.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from .scoreboard import page_config, script_json, table
from .security import (
    Throttle,
    csrf_token,
    is_admin,
    pin_matches,
    refuse,
    require_admin,
    require_csrf,
    wants_json,
)

bp = Blueprint("admin", __name__, url_prefix="/admin")

COMMANDS = ("confirm", "undo", "next", "hedge", "buy_in", "cash_out", "take_hand_pot",
            "stake", "discard",
            "override", "next_game", "new_match", "coin", "end_turn", "pass", "spider", "place")


def throttle() -> Throttle:
    """The app's login throttle (one per app)."""
    ext = current_app.extensions
    if "login_throttle" not in ext:
        c = current_app.config
        ext["login_throttle"] = Throttle(int(c["LOGIN_MAX_FAILURES"]), float(c["LOGIN_LOCK_S"]))
    return ext["login_throttle"]


@bp.get("/")
def page():
    """The admin page, or the PIN form."""
    token = csrf_token()
    if not is_admin():
        return render_template("login.html", csrf=token)
    snap = table().snapshot()
    return render_template("admin.html", snap=snap, initial=script_json(snap),
                           page=script_json(page_config()), csrf=token, admin=True)


@bp.post("/login")
@require_csrf
def login():
    """Check the table PIN and mark this session as admin."""
    who = request.remote_addr or "?"
    wait = throttle().locked(who)
    if wait:
        flash(f"Too many wrong PINs: try again in {int(wait) + 1} s.")
        return redirect(url_for("admin.page")), 303
    if not pin_matches(request.form.get("pin", "")):
        throttle().failed(who)
        flash("Wrong PIN.")
        return redirect(url_for("admin.page")), 303
    throttle().succeeded(who)
    session.clear()
    session["admin"] = True
    csrf_token()
    return redirect(url_for("admin.page")), 303


@bp.post("/logout")
@require_csrf
def logout():
    """Forget the admin login of this browser."""
    session.clear()
    return redirect(url_for("scoreboard.index")), 303


@bp.post("/act")
@require_csrf
@require_admin
def act():
    """Run one admin command (see `COMMANDS`). A JSON body must be one object of strings
    and numbers (`{"action": "next"}`): anything else is refused (400) and changes nothing."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            refuse(400, "The request must be a JSON object such as {\"action\": \"next\"}"
                   + (": its body is not JSON." if body is None else "."))
        params = dict(body)
    else:
        params = request.form.to_dict()
    name = str(params.pop("action", ""))
    params.pop("csrf", None)
    if name not in COMMANDS:
        ok, message = False, f"Unknown action {name!r}."
    else:
        ok, message = table().command(name, {k: str(v) for k, v in params.items()},
                                      f"admin@{request.remote_addr}")
    if wants_json():
        return jsonify(ok=ok, message=message), (200 if ok else 409)
    # (without JavaScript the form posts here: the page it returns to shows the outcome where
    # the script would have put it, marked accepted or refused)
    flash(message, "ok" if ok else "bad")
    return redirect(url_for("admin.page")), 303
