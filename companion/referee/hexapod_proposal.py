"""What the camera says a Hexapod player did: each display case read, diffed against the game.

`judge_cases` is the referee's judgement of one stable `HexapodObservation` against the committed
table-mode game, as a `CaseProposal`: no change (idle; a cell that changed and changed back, as a
hand passes, is no change), not readable yet (wait: a hand over a case, a case out of view or read
without confidence), a problem the players must fix (both cases changed, cells changed outside one
card's footprint or emptied — two cards at once or a card moved —, a code pattern that no card of
the deck shows — a misread, never committed), or exactly one candidate `TablePlay`: the changed
cells lie inside one card footprint aligned to the grid (RULES.md P1), the footprint's codes are a
deck card, and the rules' verdict (P2 placement, the deck, whose turn) is obtained by applying the
action to the committed state, which is immutable, so nothing changes. A card may cover cells with
the very codes they showed, so several footprints can hold the changed cells: those that read as
an unplaced deck card are tried, a legal one first (the case and its score are the same whichever
is recorded). Pure: the `Referee` decides what to commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..rules.core import Action, RulesError
from ..rules.hexapod import GAME, HexapodState
from ..rules.hexapod.cards import CODES, EMPTY, Grid
from ..rules.hexapod.game import CardLaid, TablePlay
from ..vision.observation import (
    GREY_PRINT_SAY,
    NO_COLOUR_SAY,
    UNKNOWN,
    HexapodObservation,
    SeenCase,
)
from .proposal import MIN_CONFIDENCE

__all__ = ["CaseProposal", "covered_cells", "judge_cases", "judged_case"]

Kind = Literal["idle", "wait", "problem", "move"]
Cell = tuple[int, int]  # (column, row) in a case, from the top left


@dataclass(frozen=True)
class CaseProposal:
    """The referee's reading of the display cases; `action` is set only for a candidate move."""

    kind: Kind
    message: str
    action: Action | None = None
    legal: bool = False
    error: str | None = None          # the rules' message when the candidate is illegal
    error_code: str | None = None     # the rules' error code (e.g. "no_direct_cover")
    seat: int | None = None           # the case the message is about
    cells: tuple[Cell, ...] = ()      # cells of that case to highlight
    card: str | None = None           # the deck card the new cells show
    rows: Grid | None = None          # the new cells, top to bottom
    score: int | None = None          # the seat's total after a legal candidate
    gain: int | None = None

    @property
    def key(self) -> str:
        """Identity of the proposal, for "is this still the same candidate?"."""
        return f"{self.kind}|{self.action!r}|{self.message}"

    def to_view(self, names: Sequence[str] = ()) -> dict:
        """JSON-ready form for the scoreboard."""
        out: dict = {"kind": self.kind, "message": self.message, "legal": self.legal,
                     "error": self.error, "error_code": self.error_code, "seat": self.seat,
                     "cells": [list(c) for c in self.cells], "card": self.card,
                     "rows": [list(r) for r in self.rows] if self.rows else None,
                     "score": self.score, "gain": self.gain, "action": None}
        a = self.action
        if isinstance(a, TablePlay):
            out["action"] = {"type": "table_play", "seat": a.seat, "card": self.card,
                             "rows": [list(r) for r in a.rows], "col": a.col, "row": a.row}
        return out


def judge_cases(state: HexapodState, obs: object, *,
                min_confidence: float = MIN_CONFIDENCE) -> CaseProposal:
    """Judge a stable observation against the committed state (see the module docstring)."""
    if not isinstance(obs, HexapodObservation):
        return CaseProposal("problem", f"The camera reports {type(obs).__name__}, not Hexapod "
                                       "display cases: is the reader set to the right game?")
    if obs.no_colour:   # no hand and no light changes this: the kinds are told by their inks
        return CaseProposal("problem", NO_COLOUR_SAY)
    if obs.grey_print:   # nor this: cards printed without colour show no ink
        return CaseProposal("problem", GREY_PRINT_SAY)
    if state.tracked:
        return CaseProposal("problem", "This game was dealt by the companion: the camera "
                                       "referees games played at the table (start one on the "
                                       "admin page).")
    names = state.options.seat_names
    seen, trouble = _seen_cases(state, obs, min_confidence)
    if trouble is not None:
        return trouble
    changed = {seat: _changes(state.cases[seat], case.grid) for seat, case in seen.items()}
    changed = {seat: cells for seat, cells in changed.items() if cells}
    if not changed:
        seat = state.to_play
        if state.phase == "play" and seat is not None and seat not in seen:
            return CaseProposal("wait", f"Cannot see {names[seat]}'s display case (player "
                                        f"{seat + 1}): bring it into view.", seat=seat)
        return CaseProposal("idle", "No new card in the display cases.")
    if len(changed) > 1:
        return CaseProposal("problem", "Both display cases changed: one card per turn, in the "
                                       "case of the player to play. Take the other card back.")
    ((seat, cells),) = changed.items()
    who = names[seat]
    if state.phase == "over":
        return CaseProposal("problem", f"The game is over, but {who}'s case changed: take the "
                                       "card back or start the next game.", seat=seat,
                            cells=cells)
    return _placement(state, seat, seen[seat].grid, cells)


def _seen_cases(state: HexapodState, obs: HexapodObservation, min_confidence: float
                ) -> tuple[dict[int, SeenCase], CaseProposal | None]:
    """The cases by seat, or the reason to wait / the problem with them."""
    names = state.options.seat_names
    cols, rows = state.options.case_cols, state.options.case_rows
    seen: dict[int, SeenCase] = {}
    for case in obs.cases:
        seat = case.player - 1
        if not 0 <= seat < len(names):
            continue  # a board of another player number: not part of this game
        if seat in seen:
            return seen, CaseProposal("problem", f"Two display cases carry player {case.player}'s "
                                                 "markers: take one away.", seat=seat)
        if len(case.grid) != rows or any(len(r) != cols for r in case.grid):
            return seen, CaseProposal("problem", f"{names[seat]}'s case reads as a grid of the "
                                                 f"wrong size; the game's case is {cols}x{rows}.",
                                      seat=seat)
        hidden = covered_cells(case)
        if hidden:
            return seen, CaseProposal("wait", f"{names[seat]}'s case is partly covered (a hand "
                                              "over it?): waiting for a clear view.", seat=seat,
                                      cells=hidden)
        if case.confidence < min_confidence:
            return seen, CaseProposal("wait", f"{names[seat]}'s case cannot be read clearly: "
                                              "straighten the cards or improve the light.",
                                      seat=seat)
        strange = tuple((c, r) for r, line in enumerate(case.grid) for c, code in enumerate(line)
                        if code not in CODES)
        if strange:
            return seen, CaseProposal("problem", f"{names[seat]}'s case shows cells no card "
                                                 "has (a misread?): check the light and the "
                                                 "cards.", seat=seat, cells=strange)
        seen[seat] = case
    return seen, None


def covered_cells(case: SeenCase) -> tuple[Cell, ...]:
    """The cells (column, row) of a case read '?' or flagged as under something: while there
    are any, the referee waits on the case."""
    return tuple((c, r) for r, line in enumerate(case.grid) for c, code in enumerate(line)
                 if code == UNKNOWN or _flag(case.occluded, c, r))


def judged_case(case: SeenCase, min_confidence: float = MIN_CONFIDENCE) -> bool:
    """Whether the referee judges this case as read (nothing covered, confidence at least
    `min_confidence`): a cell read wrong on a case it does not judge is never announced."""
    return not covered_cells(case) and case.confidence >= min_confidence


def _flag(occluded: tuple[tuple[bool, ...], ...], c: int, r: int) -> bool:
    return r < len(occluded) and c < len(occluded[r]) and bool(occluded[r][c])


def _changes(committed: Grid, seen: Grid) -> tuple[Cell, ...]:
    return tuple((c, r) for r, line in enumerate(committed) for c, code in enumerate(line)
                 if seen[r][c] != code)


def _placement(state: HexapodState, seat: int, grid: Grid, cells: tuple[Cell, ...]
               ) -> CaseProposal:
    names = state.options.seat_names
    who = names[seat]
    emptied = tuple(cell for cell in cells if grid[cell[1]][cell[0]] == EMPTY)
    if emptied:
        return CaseProposal("problem", f"{who}'s case shows empty cells where the game has "
                            f"insects ({_cells(emptied)}): a card was moved or taken away. Put "
                            "it back (or undo on the admin page).", seat=seat, cells=emptied)
    footprints = _footprints(state, cells)
    if not footprints:
        return _scattered(state, seat, grid, cells)
    readings = [(col, row, _read(grid, state, col, row)) for col, row in footprints]
    known = [(col, row, rows) for col, row, rows in readings if _deck_card(state, rows)]
    if not known:
        shown = " ".join(grid[r][c] for c, r in cells)
        return CaseProposal("problem", f"The new cells in {who}'s case ({_cells(cells)}: "
                            f"{shown}) match no card of the deck: a misread or a foreign card? "
                            "Straighten the card; nothing is committed.", seat=seat,
                            cells=cells)
    verdicts = [_verdict(state, seat, rows, col, row, cells) for col, row, rows in known]
    return next((v for v in verdicts if v.legal), verdicts[0])


def _footprints(state: HexapodState, cells: tuple[Cell, ...]) -> list[Cell]:
    """Top-left corners of every card footprint inside the case that holds all `cells`."""
    o = state.options
    cs, rs = [c for c, _ in cells], [r for _, r in cells]
    return [(col, row)
            for row in range(max(0, max(rs) - o.card_rows + 1), min(rs) + 1)
            for col in range(max(0, max(cs) - o.card_cols + 1), min(cs) + 1)
            if col + o.card_cols <= o.case_cols and row + o.card_rows <= o.case_rows]


def _read(grid: Grid, state: HexapodState, col: int, row: int) -> Grid:
    o = state.options
    return tuple(tuple(grid[row + r][col:col + o.card_cols]) for r in range(o.card_rows))


def _deck_card(state: HexapodState, rows: Grid) -> bool:
    return any(card.rows == rows for card in state.options.deck)


def _scattered(state: HexapodState, seat: int, grid: Grid, cells: tuple[Cell, ...]
               ) -> CaseProposal:
    """Changed cells that no single footprint holds: two cards, or a card moved / misread."""
    who = state.options.seat_names[seat]
    o = state.options
    cards = [(col, row) for row in range(o.case_rows - o.card_rows + 1)
             for col in range(o.case_cols - o.card_cols + 1)
             if _deck_card(state, _read(grid, state, col, row))]
    covers = [set(_cells_of(state, col, row)) for col, row in cards]
    todo = set(cells)
    two = any(todo <= a | b for i, a in enumerate(covers) for b in covers[i:])
    if two:
        return CaseProposal("problem", f"Two new cards in {who}'s case ({_cells(cells)}): lay "
                            "one card per turn and take the other back.", seat=seat, cells=cells)
    return CaseProposal("problem", f"Cells of {who}'s case changed outside one card's place "
                        f"({_cells(cells)}): was a card moved, or is it a misread? Put the case "
                        "back as it was; nothing is committed.", seat=seat, cells=cells)


def _cells_of(state: HexapodState, col: int, row: int) -> list[Cell]:
    o = state.options
    return [(col + c, row + r) for r in range(o.card_rows) for c in range(o.card_cols)]


def _verdict(state: HexapodState, seat: int, rows: Grid, col: int, row: int,
             cells: tuple[Cell, ...]) -> CaseProposal:
    names = state.options.seat_names
    action = TablePlay(seat, rows, col, row)
    free = set(state.unplaced())
    same = [c.name for c in state.options.deck if c.rows == rows]
    card = next((name for name in same if name in free), same[0])
    what = f"{names[seat]}: {card} at column {col + 1}, row {row + 1}"
    footprint = tuple(_cells_of(state, col, row))
    try:
        _, events = GAME.apply(state, action)
    except RulesError as exc:
        return CaseProposal("move", f"{what}: not legal: {exc}", action=action, legal=False,
                            error=str(exc), error_code=exc.code, seat=seat, cells=footprint,
                            card=card, rows=rows)
    laid = next(e for e in events if isinstance(e, CardLaid))
    change = f"+{laid.gain}" if laid.gain >= 0 else str(laid.gain)
    return CaseProposal("move", f"{what} — {change}, {laid.score} points", action=action,
                        legal=True, seat=seat, cells=footprint, card=laid.card, rows=rows,
                        score=laid.score, gain=laid.gain)


def _cells(cells: Sequence[Cell]) -> str:
    return ", ".join(f"column {c + 1} row {r + 1}" for c, r in cells[:6]) + (
        ", …" if len(cells) > 6 else "")
