"""The shared rules engine: pure Python, no I/O, one protocol for every game.

`core` defines the protocol, JSON round-trip of actions and events, and `replay`; `hexgrid` the
axial hex coordinates; `ledger` the chip accounts. Each game lives in its own subpackage and is
listed in `GAMES` by name.
"""

from __future__ import annotations

from .core import Game, RulesError, replay


def games() -> dict[str, Game]:
    """Every game the engine knows, by name (imported lazily)."""
    from . import hexel

    return {"hexel": hexel.GAME}


__all__ = ["Game", "RulesError", "games", "replay"]
