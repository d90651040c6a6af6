"""Hexapod cells, cards and decks (RULES.md P1).

A cell shows one code: `.` empty, `B` blue, `G` green, `Y` gold, `R` red leaf beetles, `K` black
dung beetle, `St`/`Sb` the top and bottom halves of a stag beetle (vertical), `Ml`/`Mr` the left and
right halves of a moth (horizontal). A grid is a tuple of rows, top to bottom, each a tuple of
codes; a `Card` is a named grid of `card_rows` x `card_cols` cells that shows an insect in every
cell (no `.`; a referee's reading of "a card of insects") and holds its two-cell insects whole. The
deck is data (`models/hexapod-deck.json`): `parse_deck` checks a decoded document, `load_deck`
reads a file; the Spider is not an insect card and is named by `SPIDER`. In JSON a row may be a
list of codes or one string of codes separated by spaces.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import MalformedMessage

__all__ = [
    "CODES",
    "EMPTY",
    "KINDS",
    "PARTNERS",
    "SPIDER",
    "Card",
    "Grid",
    "check_grid",
    "kind_of",
    "load_deck",
    "parse_deck",
    "parse_rows",
]

Grid = tuple[tuple[str, ...], ...]

EMPTY = "."
SPIDER = "Spider"

# Cell code -> insect kind (the name used in score breakdowns).
KINDS: dict[str, str] = {
    "B": "blue", "G": "green", "Y": "gold", "R": "red", "K": "dung",
    "St": "stag", "Sb": "stag", "Ml": "moth", "Mr": "moth",
}
CODES: tuple[str, ...] = (EMPTY, *KINDS)

# Half of a two-cell insect -> (column step, row step, code) of its other half.
PARTNERS: dict[str, tuple[int, int, str]] = {
    "St": (0, 1, "Sb"), "Sb": (0, -1, "St"), "Ml": (1, 0, "Mr"), "Mr": (-1, 0, "Ml"),
}


def kind_of(code: str) -> str | None:
    """The insect kind a cell shows (`blue`, `stag`...), or None for an empty cell."""
    return KINDS.get(code)


def parse_rows(data: Any, where: str) -> Grid:
    """A grid from JSON rows (lists of codes or space-separated strings); checks codes only."""
    if not isinstance(data, list | tuple) or not data:
        raise MalformedMessage(f"{where}: expected a non-empty list of rows")
    rows = []
    for i, row in enumerate(data):
        cells = row.split() if isinstance(row, str) else row
        if not isinstance(cells, list | tuple) or not cells:
            raise MalformedMessage(f"{where}: row {i + 1} must list cell codes")
        rows.append(tuple(cells))
    return check_grid(tuple(rows), where)


def check_grid(grid: Grid, where: str, allow_empty: bool = True) -> Grid:
    """Validate a grid: rectangular, known codes, every stag and moth whole; returns it."""
    if not isinstance(grid, tuple) or not grid or not all(isinstance(r, tuple) for r in grid):
        raise MalformedMessage(f"{where}: a grid is a non-empty tuple of rows")
    width = len(grid[0])
    for i, row in enumerate(grid):
        if len(row) != width or width == 0:
            raise MalformedMessage(
                f"{where}: row {i + 1} has {len(row)} cells, row 1 has {width}; rows must be equal"
            )
        for code in row:
            if code not in CODES:
                raise MalformedMessage(
                    f"{where}: unknown cell code {code!r} (use one of {' '.join(CODES)})"
                )
            if code == EMPTY and not allow_empty:
                raise MalformedMessage(f"{where}: a card shows an insect in every cell, not '.'")
    for r, row in enumerate(grid):
        for c, code in enumerate(row):
            if code in PARTNERS:
                dc, dr, other = PARTNERS[code]
                rr, cc = r + dr, c + dc
                if not (0 <= rr < len(grid) and 0 <= cc < width and grid[rr][cc] == other):
                    raise MalformedMessage(
                        f"{where}: half insect {code} at column {c + 1}, row {r + 1} needs "
                        f"{other} next to it (stags and moths are always whole)"
                    )
    return grid


@dataclass(frozen=True)
class Card:
    """An insect card: a name unique in its deck and its cells, rows top to bottom."""

    name: str
    rows: Grid

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or self.name == SPIDER:
            raise MalformedMessage(f"a card needs a name other than {SPIDER!r}, got {self.name!r}")
        check_grid(self.rows, f"card {self.name}", allow_empty=False)

    @property
    def cols(self) -> int:
        """Cells per row."""
        return len(self.rows[0])

    @property
    def height(self) -> int:
        """Rows of cells."""
        return len(self.rows)

    def text(self) -> str:
        """The card's rows joined by '/', e.g. 'B G/St R/Sb K'."""
        return "/".join(" ".join(row) for row in self.rows)


def parse_deck(data: Any) -> tuple[Card, ...]:
    """The insect cards of a decoded deck document ({"cards": [{"name", "rows"}...]})."""
    cards_data = data.get("cards") if isinstance(data, dict) else data
    if not isinstance(cards_data, list) or not cards_data:
        raise MalformedMessage("a Hexapod deck lists its insect cards under 'cards'")
    cards = []
    for i, item in enumerate(cards_data):
        if not isinstance(item, dict) or set(item) != {"name", "rows"}:
            raise MalformedMessage(f"deck card {i + 1}: expected an object with name and rows")
        name = item["name"]
        cards.append(Card(name, parse_rows(item["rows"], f"card {name}")))
    return unique_names(cards)


def unique_names(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards as a tuple, refusing two cards with one name."""
    out = tuple(cards)
    seen: set[str] = set()
    for card in out:
        if card.name in seen:
            raise MalformedMessage(f"two cards are named {card.name!r}: names must be unique")
        seen.add(card.name)
    return out


def load_deck(path: str | Path) -> tuple[Card, ...]:
    """Read a Hexapod deck file (see `parse_deck`); the CLI and tests call this, rules never do."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MalformedMessage(f"cannot read deck file {path}: {exc}") from None
    return parse_deck(data)
