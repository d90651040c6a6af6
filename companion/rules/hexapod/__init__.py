"""Hexapod: two collectors overlap rectangular insect cards in a display case and score the view.

`cards` owns cell codes, cards and deck files (RULES.md P1), `case` the display case and placement
legality (P2), `scoring` the P4 score with its breakdown per kind (usable on its own), `deck` the
design of the shipped deck, and `game` the two-seat game as a state machine (P3), either with
full knowledge of the stacks (simulation) or in table mode, where real cards were shuffled and
only the display cases are known (the camera referee).
"""

from .cards import CODES, EMPTY, KINDS, SPIDER, Card, Grid, load_deck, parse_deck, parse_rows
from .case import (
    DungCovered,
    HalfCovered,
    NoDirectCover,
    OutsideCase,
    check_placement,
    empty_case,
    legal_positions,
    place,
)
from .game import *  # noqa: F403
from .game import HexapodGame, HexapodOptions, HexapodState
from .scoring import CaseScore, score_case

GAME = HexapodGame()

__all__ = [
    "CODES",
    "EMPTY",
    "GAME",
    "KINDS",
    "SPIDER",
    "Card",
    "CaseScore",
    "DungCovered",
    "Grid",
    "HalfCovered",
    "HexapodGame",
    "HexapodOptions",
    "HexapodState",
    "NoDirectCover",
    "OutsideCase",
    "check_placement",
    "empty_case",
    "legal_positions",
    "load_deck",
    "parse_deck",
    "parse_rows",
    "place",
    "score_case",
]
