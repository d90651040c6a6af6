"""Seven Card Comet: three-number cards played in sets against six table pots and the Tail.

`cards` owns the card values and the derived 123-card deck (RULES.md C1), `scoring` the score
lines of a set (C1, usable on its own), and `game` the match as a state machine: antes, the Tail
call, deals with bonus cards, reserves, turns, the reveal and the end (C2-C4).
"""

from .cards import Card, check_card, deck_document, load_deck, parse_deck, standard_deck
from .game import *  # noqa: F403
from .game import CometGame, CometOptions, CometState
from .scoring import Line, check_set, is_valid, score_lines, score_set, score_values

GAME = CometGame()

__all__ = [
    "GAME",
    "Card",
    "CometGame",
    "CometOptions",
    "CometState",
    "Line",
    "check_card",
    "check_set",
    "deck_document",
    "is_valid",
    "load_deck",
    "parse_deck",
    "score_lines",
    "score_set",
    "score_values",
    "standard_deck",
]
