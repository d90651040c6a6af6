"""The shared rules engine: pure Python, no I/O, one protocol for every game.

`core` defines the protocol, JSON round-trip of actions and events, and `replay`; `hexgrid` the
axial hex coordinates; `ledger` the chip accounts; `options` the option checks (seats, names,
buy-ins, dealer) and display names every game shares. Each game lives in its own subpackage that
exposes `GAME` (an object following `core.Game`); `games()` finds them all by name.
"""

from __future__ import annotations

import importlib
import pkgutil

from .core import Game, RulesError, replay


def games() -> dict[str, Game]:
    """Every game the engine knows, by name (each subpackage with a `GAME`)."""
    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            module = importlib.import_module(f"{__name__}.{info.name}")
            game = getattr(module, "GAME", None)
            if game is not None:
                found[game.name] = game
    return found


__all__ = ["Game", "RulesError", "games", "replay"]
