"""HexDragon: hex pieces whose paths join into dragons, worms and loops on a hex board.

`pieces` owns the pieces written as `links`, their names, rotations and the bag (RULES.md D1),
`chains` the chains across edges and the incremental detection and scoring of closed connections
(D4), `game` the game as a state machine: deal, turns, star tokens, skips, end and ties (D2, D3,
D5).
"""

from .chains import Board, Connection, Placement, Terminal, awards, score_placements
from .game import *  # noqa: F403
from .game import HexDragonGame, HexDragonOptions, HexDragonState, winners
from .pieces import (
    BAG,
    BODY_TYPES,
    HEAD_PIECES,
    START,
    check_links,
    distinct_rotations,
    identify,
    is_head,
    links_of,
    oriented,
    tail_position,
)

GAME = HexDragonGame()

__all__ = [
    "BAG",
    "BODY_TYPES",
    "GAME",
    "HEAD_PIECES",
    "START",
    "Board",
    "Connection",
    "HexDragonGame",
    "HexDragonOptions",
    "HexDragonState",
    "Placement",
    "Terminal",
    "awards",
    "check_links",
    "distinct_rotations",
    "identify",
    "is_head",
    "links_of",
    "oriented",
    "score_placements",
    "tail_position",
    "winners",
]
