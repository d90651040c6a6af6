"""What the camera says the players did: a stable observation diffed against the committed game.

`propose` is the referee's judgement of one stable `HexelObservation`, as a `Proposal`: nothing
new (idle), not readable yet (wait: a hand over the table, an unclear card, an unfinished opening
line), a problem the players must fix (more than one new card, a moved or removed card, symbols no
deck card shows, a card already on the table), or exactly one candidate move (an opening `LayLine`
or a `Place` with its cell, deck card and rotation) together with the rules' verdict, obtained by
applying the action to the committed state (states are immutable, so nothing is changed). It is a
pure function of the state and the observation; the `Referee` decides what to commit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from ..rules.core import Action, RulesError
from ..rules.hexel import GAME, HexelState
from ..rules.hexel.game import LayLine, Place, Placed
from ..rules.hexgrid import Cell
from ..vision.observation import (
    FAINT_INK,
    GREY_PRINT_SAY_HEXEL,
    LOWER_EXPOSURE,
    NO_COLOUR_SAY,
    HexelObservation,
    SeenCard,
)
from .align import Alignment, align, deck_card, diff, line_alignments

__all__ = ["MIN_CONFIDENCE", "Proposal", "propose", "unclear"]

Kind = Literal["idle", "wait", "problem", "move"]

# The least confidence of a card the referee judges (below it the card is unclear: it waits).
MIN_CONFIDENCE = 0.6


@dataclass(frozen=True)
class Proposal:
    """The referee's reading of the table; `action` is set only for a candidate move."""

    kind: Kind
    message: str
    action: Action | None = None
    legal: bool = False
    error: str | None = None          # the rules' message when the candidate is illegal
    error_code: str | None = None     # the rules' error code (e.g. "edge_mismatch")
    name: str | None = None           # Hexba/Hexel/Hexla/Hexven/Hox'la! of a legal placement
    count: int | None = None
    cells: tuple[Cell, ...] = ()      # game cells the message is about (to highlight)
    symbols: str | None = None        # seen symbols of the new card, in game directions
    alignment: Alignment | None = None

    @property
    def key(self) -> str:
        """Identity of the proposal, for "is this still the same candidate?"."""
        return f"{self.kind}|{self.action!r}|{self.message}"

    def to_view(self, names: tuple[str, ...] = ()) -> dict:
        """JSON-ready form for the scoreboard."""
        out: dict = {"kind": self.kind, "message": self.message, "legal": self.legal,
                     "error": self.error, "error_code": self.error_code, "name": self.name,
                     "count": self.count, "cells": [list(c) for c in self.cells],
                     "symbols": self.symbols, "action": None}
        a = self.action
        if isinstance(a, Place):
            out["action"] = {"type": "place", "seat": a.seat, "card": a.card,
                             "cell": list(a.cell), "rotation": a.rotation}
        elif isinstance(a, LayLine):
            out["action"] = {"type": "lay_line", "cards": list(a.cards),
                             "rotations": list(a.rotations)}
        return out


IDLE = Proposal("idle", "No new card on the table.")


def propose(state: HexelState, obs: HexelObservation, *,
            min_confidence: float = MIN_CONFIDENCE,
            prefer: Alignment | None = None) -> Proposal:
    """Judge a stable observation against the committed state (see the module docstring)."""
    wait = unclear(obs, min_confidence)
    if wait is not None:
        return wait
    seen = [(c.cell, c.symbols) for c in obs.cards]
    if state.phase == "setup":
        return _opening(state, obs.cards, prefer)
    committed = {p.cell: p.oriented for p in state.layout.placements}
    if not seen:
        if _line_dealt(state):
            return _lay_dealt_line(committed, 0)
        return Proposal("problem", f"The camera sees no cards but the game has {len(committed)} "
                        "on the table: is the table in view?")
    ranked = align(committed, seen)
    if not ranked:
        return Proposal("problem", "The cards on the table do not match the committed layout: "
                                   "was the layout changed? Put it back or use the admin page.")
    best = ranked[0][0]
    candidates = [a for n, a in ranked if n == best]
    chosen = prefer if prefer in candidates else candidates[0]
    d = diff(committed, seen, chosen)
    if d.missing and not d.changed and not d.new:
        if _line_dealt(state):
            return _lay_dealt_line(committed, len(seen))
        # a card the camera no longer sees, with nothing else changed, is most often under a
        # hand resting over it: the referee waits (and says what to do if it was moved); on a
        # table the camera over-exposes, as likely lost to the clip (`OVER_EXPOSED_SAY`)
        return Proposal("wait", "No card seen where the game has one at "
                        + ", ".join(map(_cell, d.missing)) + ": a hand over it? If it was "
                        "moved, put it back (or undo / override on the admin page)."
                        + _exposure(obs),
                        cells=d.missing, alignment=chosen)
    if d.missing or d.changed:
        return _moved(d.missing, d.changed, chosen)
    if not d.new:
        return Proposal("idle", IDLE.message, alignment=chosen)
    if len(d.new) > 1:
        cells = tuple(c for c, _, _ in d.new)
        return Proposal("problem", f"{len(d.new)} new cards on the table "
                        f"({', '.join(map(_cell, cells))}): lay one card per turn and take "
                        "the others back.", cells=cells, alignment=chosen)
    if state.phase == "over":
        return Proposal("problem", "The game is over: press NEXT to start the next game.",
                        cells=(d.new[0][0],), alignment=chosen)
    if state.phase == "stake":
        return Proposal("problem", "Stakes first: every seat enters its hedge before the first "
                        "card of the round.", cells=(d.new[0][0],), alignment=chosen)
    cell, symbols, _ = d.new[0]
    return _placement(state, cell, symbols, chosen)


# What the referee says of symbols the light leaves unread (an ink no letter names, a disc whose
# colour reads as the ring): no hand lifting clears them; light or the print's colours will.
MORE_LIGHT = ("those symbols are left unread. Put more light on the table, or learn the print's "
              "colours with `companion calibrate colours` (a photo of the three single-kind "
              "cards).")


# What the referee adds to its wait where the reader finds most cards' white paper at the
# camera's clip in two of its colours (`HexelObservation.over_exposed`): cards left '?' or
# unread there are as likely the exposure's doing as a hand's, and no waiting clears that.
OVER_EXPOSED_SAY = (" The camera over-exposes the cards' white paper, which loses the light's "
                    f"colour: {LOWER_EXPOSURE}.")


def _exposure(obs: HexelObservation) -> str:
    """What the referee adds to a wait on `obs` for the camera's exposure (`OVER_EXPOSED_SAY`
    where the reader finds the cards' paper over-exposed, else nothing)."""
    return OVER_EXPOSED_SAY if obs.over_exposed else ""


def unclear(obs: HexelObservation, min_confidence: float = MIN_CONFIDENCE) -> Proposal | None:
    """Why the referee will not judge this observation yet (a `Proposal` to wait, or the
    problem of a picture or print without colour, of cards of the other edition than the
    match's, of inks it cannot tell apart or cannot name, or of discs whose colour reads as the
    grey ring, or rings whose colour reads as a disc), or None when it will: no card is
    covered, none lies off the lattice, none is read with a '?' or below `min_confidence`
    (where the camera over-exposes the cards' paper, a wait for covered or unclear cards says
    so too: `OVER_EXPOSED_SAY`). A misread on a frame it will not judge is never announced;
    `companion bench vision` counts the misreads on the frames it would."""
    if obs.no_colour:   # no hand and no light clears this: a grey picture shows no ink
        return Proposal("problem", NO_COLOUR_SAY)
    # (the web edition's cards printed without colour, laid for a holodex match, are both: the
    # web reads them by their shapes, so the other edition's match is the quicker help)
    if obs.other_edition:   # nor this: the cards laid are not this match's edition
        return Proposal("problem", f"The cards on the table read as the {obs.other_edition} "
                        "edition's, not this match's: start a new match with the "
                        f"{obs.other_edition} edition (admin page), or lay this match's cards.")
    if obs.grey_print:   # nor this: cards printed without colour show no ink
        return Proposal("problem", GREY_PRINT_SAY_HEXEL)
    doubt = obs.ink_doubt
    # (no hand clears this: the print's colours must be learnt; but a web card whose symbols
    # of those letters each show their letter by their printed shape too reads whole, and a
    # table of such cards is judged, `vision.shape_ink.shape_kept`)
    if doubt and any(c.occluded or "?" in c.symbols for c in obs.cards):
        return Proposal("problem", "The camera cannot tell this print's inks apart (letters in "
                        f"doubt: {', '.join(doubt)}): those symbols are left unread. Learn the "
                        "print's colours with `companion calibrate colours` (a photo of the "
                        "three single-kind cards), or check the light.")
    if obs.unnamed_ink and any(n.startswith(FAINT_INK) for n in obs.notes):
        # nor this: an ink so faint in this light that it reads only where it shows plainly
        return Proposal("problem", f"Symbols on {obs.unnamed_ink} card(s) show an ink too "
                        "faint in this light to read surely (a pale print, or a dim room): "
                        + MORE_LIGHT)
    if obs.unnamed_ink:   # nor this: a pale print in dim light shows an ink it cannot name
        return Proposal("problem", f"Symbols on {obs.unnamed_ink} card(s) show a colour the "
                        "camera cannot name (a pale print, or dim or coloured light): "
                        + MORE_LIGHT)
    if obs.no_ring:   # nor this: a pale blue disc in dim light reads as the grey ring
        return Proposal("problem", f"{obs.no_ring} symbol(s) whose colour reads as the grey "
                        "ring show a solid disc (a pale print's blue in dim light?): "
                        + MORE_LIGHT)
    if obs.no_disc:   # nor this: the grey ring tinted by the light reads as a coloured disc
        return Proposal("problem", f"{obs.no_disc} symbol(s) whose colour reads as a coloured "
                        "disc show the grey ring's hole (the ring tinted by the light?): "
                        + MORE_LIGHT)
    exposure = _exposure(obs)
    covered = [c for c in obs.cards if c.occluded]
    if covered:
        return Proposal("wait", "A card is covered (a hand over the table?): waiting for a "
                                "clear view." + exposure)
    if obs.loose:
        # a card off the lattice has no cell the move could be judged at: it may be the card
        # just laid, a little too far from its neighbours, or one of the layout's that the
        # lattice could not place surely (`HexelObservation.loose`)
        return Proposal("wait", f"{len(obs.loose)} card(s) lie apart from the layout, off its "
                                "grid: lay each card against its neighbours (or take it off "
                                "the table).")
    faint = [c for c in obs.cards if c.confidence < min_confidence or "?" in c.symbols]
    if faint:
        return Proposal("wait", f"{len(faint)} card(s) cannot be read clearly: straighten "
                                "them or improve the light." + exposure)
    return None


def _opening(state: HexelState, cards: tuple[SeenCard, ...],
             prefer: Alignment | None) -> Proposal:
    if len(cards) < 3:
        return Proposal("wait", f"Dealer: lay the opening line of three cards ({len(cards)} "
                                "seen).")
    if len(cards) > 3:
        return Proposal("problem", f"{len(cards)} cards on the table: clear it and lay the "
                                   "opening line of three cards.")
    options = state.options
    choices = line_alignments([c.cell for c in cards])
    if not choices:
        return Proposal("problem", "The opening line must be three cards in a straight row.")
    if prefer in choices:
        choices.remove(prefer)
        choices.insert(0, prefer)
    first: Proposal | None = None
    for a in choices:
        by_cell = {a.cell(c.cell): a.symbols(c.symbols) for c in cards}
        line = [by_cell[(i, 0)] for i in range(3)]
        found = [deck_card(s, options.cards) for s in line]
        if None in found:
            bad = line[found.index(None)]
            return Proposal("problem", f"Symbols {bad} match no card of the deck: a misread or "
                                       "foreign card?", symbols=bad, alignment=a)
        action = LayLine(tuple(f[0] for f in found), tuple(f[1] for f in found))  # type: ignore
        verdict = _verdict(state, action, "Opening line " + " ".join(action.cards), a, (),
                           None)
        if verdict.legal:
            return verdict
        first = first or verdict
    assert first is not None
    return first


def _line_dealt(state: HexelState) -> bool:
    """Only the opening line the engine dealt (a shuffled, tracked game) is committed and no
    seat has played yet: cards missing from the table are the dealer's still to lay, not
    cards moved away. A line the camera saw laid (`LayLine`) was on the table already."""
    return state.tracked and state.turns == 0 and bool(state.layout.placements)


def _lay_dealt_line(committed: dict[Cell, str], seen: int) -> Proposal:
    return Proposal("wait", f"Dealer: lay the dealt opening line as the scoreboard shows it "
                            f"({seen} of {len(committed)} cards seen).",
                    cells=tuple(committed))


def _moved(missing: tuple[Cell, ...], changed: tuple[tuple[Cell, str, str], ...],
           alignment: Alignment) -> Proposal:
    parts = []
    if missing:
        parts.append("no card where the game has one at " + ", ".join(map(_cell, missing)))
    for cell, want, got in changed:
        parts.append(f"the card at {_cell(cell)} shows {got}, the game has {want}")
    cells = (*missing, *(c for c, _, _ in changed))
    return Proposal("problem", "A card was moved or removed: " + "; ".join(parts)
                    + ". Put it back (or undo / override on the admin page).", cells=cells,
                    alignment=alignment)


def _placement(state: HexelState, cell: Cell, symbols: str, alignment: Alignment) -> Proposal:
    options = state.options
    found = deck_card(symbols, options.cards)
    if found is None:
        return Proposal("problem", f"The new card at {_cell(cell)} shows {symbols}, which no "
                        "card of the deck shows: a misread or foreign card?", cells=(cell,),
                        symbols=symbols, alignment=alignment)
    card, k = found
    on_table = Counter(state.layout.cards())[card]
    if on_table >= Counter(options.cards)[card]:
        return Proposal("problem", f"The new card at {_cell(cell)} reads as {card}, which is "
                        "already on the table: the deck has no other copy.", cells=(cell,),
                        symbols=symbols, alignment=alignment)
    seat = state.to_play if state.to_play is not None else 0
    action = Place(seat, card, cell, k)
    who = options.seat_names[seat]
    return _verdict(state, action, f"{who}: {card} at {_cell(cell)}, rotation {k}", alignment,
                    (cell,), symbols)


def _verdict(state: HexelState, action: Action, what: str, alignment: Alignment,
             cells: tuple[Cell, ...], symbols: str | None) -> Proposal:
    try:
        _, events = GAME.apply(state, action)
    except RulesError as exc:
        # (an edge mismatch names the card and cell `what` already names: only its edges)
        edges = getattr(exc, "edges", ())
        why = f"its edges do not match: {', '.join(edges)}" if edges else str(exc)
        return Proposal("move", f"{what}: not legal: {why}", action=action, legal=False,
                        error=str(exc), error_code=exc.code, cells=cells, symbols=symbols,
                        alignment=alignment)
    placed = next((e for e in events if isinstance(e, Placed)), None)
    name = placed.name if placed else None
    count = placed.count if placed else None
    tail = f" — {name} ({count} edge{'s' if count != 1 else ''})" if placed else " — legal"
    return Proposal("move", what + tail, action=action, legal=True, name=name, count=count,
                    cells=cells, symbols=symbols, alignment=alignment)


def _cell(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"
