"""Seven Card Comet cards and the 123-card deck (RULES.md C1).

A card shows three values in 2..14 (12 Princess, 13 Emperor, 14 Ace) and is written as the sorted
triple, e.g. (4, 12, 14); the order printed on the physical card does not matter to the score.
The deck is derived from the rule text (`standard_deck`, shipped as `models/comet-deck.json`):
123 cards, every one different; exactly three Triples (12-12-12, 13-13-13, 14-14-14), which are
the only cards carrying a score line on their own, so no other card holds a run (an Ace may be the
1 of 1-2-3) or a repeated value; and every example set the text prints can be dealt from it. The
text does not say which 120 of the 274 such cards are in the deck, so we spread the values evenly:
on the 13-value wheel (the Ace sits between 13 and 2) a card's *shape* is its three gaps; the nine
shapes in `SHAPES`, each in all 13 turns of the wheel, give 117 cards on which every value appears
exactly 27 times (the four shapes the examples force, two mirror images, and the first three that
make the remaining examples dealable); the three 3-step progressions 2-5-8, 3-6-9, 4-7-10 make 120.
With the Triples that is 123 = 3 x 41, matching the text's mention of three sub-decks.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..core import MalformedMessage

__all__ = [
    "ACE",
    "EXTRAS",
    "SHAPES",
    "TRIPLES",
    "Card",
    "check_card",
    "deck_document",
    "load_deck",
    "parse_deck",
    "standard_deck",
    "value_name",
]

Card = tuple[int, int, int]
LOW, ACE = 2, 14
SHAPES: tuple[tuple[int, int, int], ...] = (
    (1, 4, 8), (1, 8, 4), (3, 4, 6), (2, 3, 8),  # forced by the text's example sets
    (3, 6, 4), (2, 8, 3),                        # mirror images of two of them
    (1, 2, 10), (1, 3, 9), (1, 7, 5),            # first three making every example dealable
)
EXTRAS: tuple[Card, ...] = ((2, 5, 8), (3, 6, 9), (4, 7, 10))
TRIPLES: tuple[Card, ...] = ((12, 12, 12), (13, 13, 13), (14, 14, 14))
NAMES = {12: "Princess", 13: "Emperor", 14: "Ace"}


def value_name(value: int) -> str:
    """'Ace', 'Emperor', 'Princess' or the number."""
    return NAMES.get(value, str(value))


def check_card(card: Any, where: str = "card") -> Card:
    """Validate three values in 2..14; returns the sorted triple."""
    if (not isinstance(card, list | tuple) or len(card) != 3
            or any(isinstance(v, bool) or not isinstance(v, int) for v in card)):
        raise MalformedMessage(f"{where}: a card is three whole values, got {card!r}")
    if any(not LOW <= v <= ACE for v in card):
        raise MalformedMessage(f"{where}: values run from 2 to 14 (Ace), got {list(card)}")
    a, b, c = sorted(card)
    return (a, b, c)


def _wheel_turns(shape: tuple[int, int, int]) -> list[Card]:
    """The 13 cards of one shape: start anywhere on the wheel 2..14 and step by the gaps."""
    out = []
    for start in range(13):
        first = start
        second = (first + shape[0]) % 13
        third = (second + shape[1]) % 13
        out.append(check_card([LOW + first, LOW + second, LOW + third]))
    return out


@cache
def standard_deck() -> tuple[Card, ...]:
    """The 123 cards: nine shapes x 13, the three extras and the three Triples, sorted."""
    cards = {card for shape in SHAPES for card in _wheel_turns(shape)}
    cards.update(EXTRAS)
    cards.update(TRIPLES)
    return tuple(sorted(cards))


def parse_deck(data: Any) -> tuple[Card, ...]:
    """The cards of a decoded deck document ({"cards": [[v, v, v], ...]}); all different."""
    items = data.get("cards") if isinstance(data, dict) else data
    if not isinstance(items, list) or not items:
        raise MalformedMessage("a Comet deck lists its cards under 'cards'")
    cards = tuple(check_card(item, f"deck card {i + 1}") for i, item in enumerate(items))
    if len(set(cards)) != len(cards):
        raise MalformedMessage("a Comet deck holds every card once")
    return cards


def load_deck(path: str | Path) -> tuple[Card, ...]:
    """Read a deck file (see `parse_deck`); the CLI and tests call this, rules never do."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MalformedMessage(f"cannot read deck file {path}: {exc}") from None
    return parse_deck(data)


def deck_document() -> dict:
    """The content of models/comet-deck.json."""
    cards = standard_deck()
    return {
        "description": (
            "Seven Card Comet deck (RULES.md C1), derived from the rule text: 123 cards, each a "
            "different combination of three values 2..14 (12 Princess, 13 Emperor, 14 Ace), "
            "written sorted. Exactly three Triples (12-12-12, 13-13-13, 14-14-14) and, because "
            "the text says they are the only cards scoring on their own, no other card holds a "
            "repeated value or a run (the Ace counting as 1 or 14). Every example set printed in "
            "the text can be dealt from this deck. The text does not list the other 120 cards; "
            "we spread the values evenly: on the 13-value wheel (Ace between 13 and 2) a card's "
            "shape is its three gaps, and nine shapes (gaps 1-4-8, 1-8-4, 3-4-6, 2-3-8 forced by "
            "the examples; 3-6-4, 2-8-3 their mirror images; 1-2-10, 1-3-9, 1-7-5 the first "
            "that make every example dealable) in all 13 turns give 117 cards showing each "
            "value exactly 27 times; 2-5-8, 3-6-9 and 4-7-10 make 120; with the Triples, "
            "123 = 3 x 41 (the text mentions three sub-decks). Regenerate with "
            "companion.rules.comet.cards.deck_document()."
        ),
        "generated_by": "companion.rules.comet.cards.deck_document",
        "cards": [list(card) for card in cards],
    }
