"""Hex'el cards, editions and decks (RULES.md H1).

A card is written as a 6-letter string of edge symbols in the card's own counter-clockwise order,
e.g. "RRRBBB". Placed with rotation `k`, the symbol on the edge facing direction `d` is
`symbols[(d - k) % 6]`; `orient` gives those six symbols in direction order E, NE, NW, W, SW, SE.
The standard deck is every card with one or two symbol kinds up to rotation *and* mirror image
(the 36 two-colour bracelets of length 6 over three kinds), each written as its lexicographically
smallest rotation or reflection, which is exactly RULES.md's choice for the mirror-image pairs.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..core import MalformedMessage

__all__ = [
    "EDITIONS",
    "Edition",
    "bracelet_key",
    "check_card",
    "load_deck",
    "necklace_key",
    "orient",
    "rotations",
    "standard_deck",
]


@dataclass(frozen=True)
class Edition:
    """An edition of Hex'el: its symbol letters, their names and where insurance is paid."""

    name: str
    symbols: tuple[str, str, str]
    symbol_names: tuple[str, str, str]
    insurance_to: str  # "hand" (hand pot) or "stock" (chip stock)


EDITIONS: dict[str, Edition] = {
    "holodex": Edition("holodex", ("R", "B", "V"), ("red circle", "blue circle", "void ring"),
                       "hand"),
    "web": Edition("web", ("R", "B", "Y"), ("red circle", "blue diamond", "yellow triangle"),
                   "stock"),
}


def orient(symbols: str, rotation: int) -> str:
    """The card's symbols by table direction (E, NE, NW, W, SW, SE) when placed at `rotation`."""
    k = rotation % 6
    return symbols[6 - k:] + symbols[: 6 - k] if k else symbols


def rotations(symbols: str) -> tuple[int, ...]:
    """The rotations giving distinct orientations (one per orientation, smallest k first)."""
    seen: dict[str, int] = {}
    for k in range(6):
        seen.setdefault(orient(symbols, k), k)
    return tuple(seen.values())


def necklace_key(symbols: str) -> str:
    """Smallest rotation: equal for two cards iff one is a rotation of the other."""
    return min(symbols[i:] + symbols[:i] for i in range(6))


def bracelet_key(symbols: str) -> str:
    """Smallest rotation or reflection: equal iff the cards are the same physical card."""
    return min(necklace_key(symbols), necklace_key(symbols[::-1]))


def check_card(symbols: object, alphabet: tuple[str, ...] | None = None) -> str:
    """Validate a card written as 6 symbol letters (or a 6-sequence); returns the string."""
    if isinstance(symbols, list | tuple):
        symbols = "".join(str(s) for s in symbols)
    if not isinstance(symbols, str) or len(symbols) != 6:
        raise MalformedMessage(f"a card is 6 symbol letters, got {symbols!r}")
    if alphabet is not None and not set(symbols) <= set(alphabet):
        raise MalformedMessage(
            f"card {symbols!r} uses symbols outside {''.join(alphabet)}"
        )
    return symbols


@cache
def standard_deck(alphabet: tuple[str, str, str] = ("R", "B", "V")) -> tuple[str, ...]:
    """The 36 cards with one or two symbol kinds, one per bracelet, sorted."""
    reps = {
        bracelet_key("".join(word))
        for word in itertools.product(alphabet, repeat=6)
        if len(set(word)) <= 2
    }
    return tuple(sorted(reps))


def load_deck(path: str | Path, alphabet: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Read a deck file: JSON with a "cards" list of 6-letter strings (duplicates allowed)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MalformedMessage(f"cannot read deck file {path}: {exc}") from None
    cards = data.get("cards") if isinstance(data, dict) else data
    if not isinstance(cards, list) or len(cards) < 3:
        raise MalformedMessage(f"deck file {path} must list at least 3 cards under 'cards'")
    return tuple(check_card(c, alphabet) for c in cards)
