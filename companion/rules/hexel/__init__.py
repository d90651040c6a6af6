"""Hex'el: hexagonal cards matched edge to edge, announced Hexba to Hexven, won by a Hox'la.

`cards` owns symbols, editions and decks (RULES.md H1), `layout` the table and its matching
rules (H2, H3's opening line), `game` the match as a state machine (H3-H6).
"""

from .cards import EDITIONS, Edition, bracelet_key, necklace_key, orient, standard_deck
from .game import *  # noqa: F403
from .game import HexelGame, HexelOptions, HexelState
from .layout import Layout, Placement, count_name, line_problems, propose_line

GAME = HexelGame()

__all__ = [
    "EDITIONS",
    "GAME",
    "Edition",
    "HexelGame",
    "HexelOptions",
    "HexelState",
    "Layout",
    "Placement",
    "bracelet_key",
    "count_name",
    "line_problems",
    "necklace_key",
    "orient",
    "propose_line",
    "standard_deck",
]
