"""Scoring a Hexapod display case (RULES.md P4), as a pure function usable on its own.

Only visible cells count. Blue, green and gold beetles (1, 2, 3) score their value once for every
maximal horizontal run of two or more of their colour they belong to and once more for such a
vertical run; a beetle in no run scores nothing. Each red leaf-beetle cell scores 1 plus 1 per red
cell among its eight neighbours. Each whole stag or moth scores 5 (counted at its `St` / `Ml` half;
`check_grid` guarantees the other half is there). Dung beetles score 0 and unspent coins 2 each.
`score_case` returns a `CaseScore` with the breakdown per kind and the total.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import MalformedMessage
from .cards import Grid, check_grid

__all__ = ["BEETLE_VALUES", "CaseScore", "score_case"]

BEETLE_VALUES: dict[str, int] = {"B": 1, "G": 2, "Y": 3}
TWO_CELL_VALUE = 5
COIN_VALUE = 2


@dataclass(frozen=True)
class CaseScore:
    """Points of one display case by kind; `total` is their sum."""

    blue: int = 0
    green: int = 0
    gold: int = 0
    red: int = 0
    stag: int = 0
    moth: int = 0
    dung: int = 0
    coins: int = 0

    @property
    def total(self) -> int:
        """All points together."""
        return sum(self.breakdown().values())

    def breakdown(self) -> dict[str, int]:
        """Points per kind, in a fixed order (blue, green, gold, red, stag, moth, dung, coins)."""
        return {
            "blue": self.blue, "green": self.green, "gold": self.gold, "red": self.red,
            "stag": self.stag, "moth": self.moth, "dung": self.dung, "coins": self.coins,
        }


def _run_points(line: tuple[str, ...]) -> dict[str, int]:
    """Points of B/G/Y beetles for the maximal runs of 2+ along one row or column."""
    out = {code: 0 for code in BEETLE_VALUES}
    i = 0
    while i < len(line):
        j = i
        while j < len(line) and line[j] == line[i]:
            j += 1
        code = line[i]
        if code in BEETLE_VALUES and j - i >= 2:
            out[code] += (j - i) * BEETLE_VALUES[code]
        i = j
    return out


def _red_points(grid: Grid) -> int:
    rows, cols = len(grid), len(grid[0])
    total = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != "R":
                continue
            total += 1 + sum(
                1
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
                and grid[r + dr][c + dc] == "R"
            )
    return total


def score_case(grid: Grid, coins: int = 0) -> CaseScore:
    """The P4 score of a display case (rows top to bottom) with `coins` unspent coins."""
    check_grid(grid, "display case")
    if isinstance(coins, bool) or not isinstance(coins, int) or coins < 0:
        raise MalformedMessage(f"unspent coins must be a whole number, 0 or more, got {coins!r}")
    lines = [*grid, *zip(*grid, strict=True)]
    beetles = {code: 0 for code in BEETLE_VALUES}
    for line in lines:
        for code, points in _run_points(tuple(line)).items():
            beetles[code] += points
    cells = [code for row in grid for code in row]
    return CaseScore(
        blue=beetles["B"],
        green=beetles["G"],
        gold=beetles["Y"],
        red=_red_points(grid),
        stag=TWO_CELL_VALUE * cells.count("St"),
        moth=TWO_CELL_VALUE * cells.count("Ml"),
        dung=0,
        coins=COIN_VALUE * coins,
    )
