"""The design of the Hexapod deck shipped as `models/hexapod-deck.json` (RULES.md P1).

The published game does not list its 41 insect cards, so the project designs one. `deck_document`
builds the file's content from a fixed plan and a fixed seed, so the file is reproducible and a test
checks that it matches. The plan (`PLAN`; 2x3 cards, every cell an insect): 14 stags (always a
column of two cells) and 15 moths (always a whole row) spread over 25 cards, so a 5-point insect is
common but not on every card; 8 cards carry one dung beetle, the hazard that only another dung
beetle may cover; the other cells are blue, green, red and gold beetles drawn in the proportions
10:9:7:5, and every card with three or more such beetles holds two equal ones side by side or one
above the other, so that covering an insect of its own kind (P2.1) is usually possible and runs
build up. Pure: no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import SPIDER, Card

__all__ = ["PLAN", "deck_document", "design_deck"]

SEED = 4004
BEETLE_WEIGHTS = {"B": 10, "G": 9, "R": 7, "Y": 5}


@dataclass(frozen=True)
class Kind:
    """How many cards of one shape the deck holds."""

    count: int
    stags: int
    moths: int
    dung: int


# 41 insect cards in total.
PLAN: tuple[Kind, ...] = (
    Kind(count=8, stags=1, moths=0, dung=0),
    Kind(count=8, stags=0, moths=1, dung=0),
    Kind(count=3, stags=1, moths=1, dung=0),
    Kind(count=3, stags=1, moths=0, dung=1),
    Kind(count=2, stags=0, moths=1, dung=1),
    Kind(count=2, stags=0, moths=0, dung=1),
    Kind(count=1, stags=0, moths=2, dung=1),
    Kind(count=14, stags=0, moths=0, dung=0),
)


def _layout(rng: random.Random, kind: Kind) -> list[list[str]]:
    """One 2x3 card: place the two-cell insects, then dung, then beetles."""
    grid = [["", ""], ["", ""], ["", ""]]
    for _ in range(kind.stags):
        c, r = rng.choice([(c, r) for c in (0, 1) for r in (0, 1)])
        grid[r][c], grid[r + 1][c] = "St", "Sb"
    for _ in range(kind.moths):
        r = rng.choice([r for r in range(3) if grid[r] == ["", ""]])
        grid[r] = ["Ml", "Mr"]
    free = [(c, r) for r in range(3) for c in range(2) if not grid[r][c]]
    rng.shuffle(free)
    for _ in range(kind.dung):
        c, r = free.pop()
        grid[r][c] = "K"
    codes, weights = zip(*BEETLE_WEIGHTS.items(), strict=True)
    for c, r in free:
        grid[r][c] = rng.choices(codes, weights)[0]
    return grid


def _has_pair(grid: list[list[str]]) -> bool:
    """True if two equal beetles (B, G, Y, R) sit side by side or one above the other."""
    for r in range(3):
        for c in range(2):
            code = grid[r][c]
            if code not in BEETLE_WEIGHTS:
                continue
            if (c == 0 and grid[r][1] == code) or (r < 2 and grid[r + 1][c] == code):
                return True
    return False


def _needs_pair(grid: list[list[str]]) -> bool:
    beetles = sum(code in BEETLE_WEIGHTS for row in grid for code in row)
    return beetles >= 3


def design_deck(seed: int = SEED) -> tuple[Card, ...]:
    """The 41 insect cards of the plan, named I01..I41, drawn with a fixed seed."""
    rng = random.Random(seed)
    cards = []
    for kind in PLAN:
        for _ in range(kind.count):
            grid = _layout(rng, kind)
            while _needs_pair(grid) and not _has_pair(grid):
                grid = _layout(rng, kind)
            rows = tuple(tuple(row) for row in grid)
            cards.append(rows)
    rng.shuffle(cards)
    return tuple(Card(f"I{i + 1:02d}", rows) for i, rows in enumerate(cards))


def deck_document(seed: int = SEED) -> dict:
    """The content of models/hexapod-deck.json."""
    cards = design_deck(seed)
    cells = [code for card in cards for row in card.rows for code in row]
    counts = {code: cells.count(code) for code in ("B", "G", "Y", "R", "K", "St", "Ml")}
    return {
        "description": (
            "Hexapod deck (RULES.md P1): 41 insect cards plus the Spider. The published game "
            "does not list its cards, so this deck is the project's design, made reproducibly "
            "by companion.rules.hexapod.deck.deck_document(). Each card is 2 columns x 3 rows of "
            "cells, rows top to bottom, every cell an insect: B blue, G green, Y gold, R red leaf "
            "beetles, K dung beetle, St/Sb a stag beetle (top/bottom), Ml/Mr a moth (left/right). "
            f"Composition: {counts['St']} stags and {counts['Ml']} moths (5 points each, on "
            f"{sum(k.count for k in PLAN if k.stags or k.moths)} cards, so placing one is a real "
            f"choice), {counts['K']} dung beetles on {sum(k.count for k in PLAN if k.dung)} "
            "cards (a hazard: only a dung beetle may cover one), and "
            f"{counts['B']} blue, {counts['G']} green, {counts['R']} red and {counts['Y']} gold "
            "beetles (common low values, rarer high values). Every card with three or more "
            "single-cell beetles holds two equal ones side by side or stacked, so that covering "
            "an insect of the same kind (P2.1) is usually possible somewhere and runs build up. "
            "The Spider is not listed with the cards; the engine adds it. Playability, measured "
            "with `companion simulate hexapod --games 200 --seed 1` (players who place a card "
            "whenever they can): 97.5% of games end with the Spider, 15.8 cards placed and "
            "42 points per case on average (the rule book's example case scores 45)."
        ),
        "generated_by": "companion.rules.hexapod.deck.deck_document",
        "card_cols": 2,
        "card_rows": 3,
        "spider": SPIDER,
        "counts": counts,
        "cards": [
            {"name": card.name, "rows": [" ".join(row) for row in card.rows]} for card in cards
        ],
    }
