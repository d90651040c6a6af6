"""The scoreboard's view of a Hex'el match: plain JSON-ready dicts built from the rules' state.

`game_view` describes the committed state (seats with stock, hedge and hand pot, frozen pots,
who deals and who plays, the stake, round, cards left, every card on the layout with its oriented
symbols and who placed it); `history_entry` turns one committed action and its events into a line
of the move history with a headline for the big letters (Hexba ... Hox'la!, Bust!, a win). The web
layer only renders these dicts; it never sees a rules object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules.core import Action, Event, to_jsonable
from ..rules.hexel import HexelState
from ..rules.hexel.cards import EDITIONS
from ..rules.hexel.game import (
    BoughtIn,
    Busted,
    CashedOut,
    Dealt,
    Discarded,
    GameStarted,
    GameWon,
    Hedged,
    HoxlaCalled,
    InsurancePaid,
    LineLaid,
    Placed,
    StakeSet,
    TookHandPot,
)

__all__ = ["game_view", "headline", "history_entry"]

PHASE_TEXT = {
    "setup": "Setting up: lay the opening line",
    "stake": "Stakes: every seat enters its hedge",
    "play": "Playing",
    "over": "Game over: NEXT starts the next game",
}


def game_view(state: HexelState, game_id: int | None) -> dict:
    """The committed state as the scoreboard shows it."""
    opts = state.options
    names = opts.seat_names
    ledger = state.ledger
    first = len(state.layout.placements) - len(state.placed_by)
    seats = []
    for s in range(state.seats):
        seats.append({
            "seat": s, "name": names[s],
            "stock": ledger[f"stock:{s}"], "hedge": ledger[f"hedge:{s}"],
            "hand": ledger[f"hand:{s}"],
            "frozen": s in state.frozen_hand_pots, "out": s in state.out,
            "dealer": s == state.dealer, "to_play": s == state.to_play,
            "hedged": s in state.hedged, "cards": state.hand_sizes[s],
        })
    layout = []
    for i, p in enumerate(state.layout.placements):
        by = state.placed_by[i - first] if i >= first else None
        layout.append({"cell": list(p.cell), "card": p.card, "rotation": p.rotation,
                       "oriented": p.oriented, "by": by, "n": i})
    to_play = state.to_play
    return {
        "game_id": game_id, "game_no": state.game_no, "phase": state.phase,
        "phase_text": PHASE_TEXT.get(state.phase, state.phase),
        "edition": opts.edition, "symbols": list(EDITIONS[opts.edition].symbols),
        "symbol_names": list(EDITIONS[opts.edition].symbol_names),
        "stake": state.stake, "round": state.round, "turns": state.turns,
        "cards_left": len(state.pile), "tracked": state.tracked,
        "deck_size": len(opts.cards), "deck": sorted(set(opts.cards)),
        "to_play": to_play, "to_play_name": names[to_play] if to_play is not None else None,
        "dealer": state.dealer, "seats": seats, "layout": layout,
        "winner": state.winner, "end": state.end, "chips_total": ledger.total,
    }


def headline(events: Sequence[Event], names: Sequence[str]) -> tuple[str, str | None]:
    """The big-letter word of a committed action and the seat it is about (if any)."""
    for e in events:
        if isinstance(e, HoxlaCalled):
            return "Hox'la!", _name(names, e.seat)
    for e in events:
        if isinstance(e, Placed):
            return e.name, _name(names, e.seat)
    for e in events:
        if isinstance(e, Busted):
            return "Bust!", _name(names, e.seat)
        if isinstance(e, GameWon):
            return ("Game over" if e.seat is None else "Winner!"), _name(names, e.seat)
    for e in events:
        if isinstance(e, Discarded):
            return "Discard", _name(names, e.seat)
        if isinstance(e, LineLaid):
            return "Opening line", None
        if isinstance(e, Dealt):
            return f"Round {e.round}", None
        if isinstance(e, GameStarted):
            return f"Game {e.game_no}", _name(names, e.dealer)
        if isinstance(e, InsurancePaid):
            return "Insurance", _name(names, e.payer)
        if isinstance(e, Hedged):
            return "Hedge", _name(names, e.seat)
        if isinstance(e, BoughtIn):
            return "Buy-in", _name(names, e.seat)
        if isinstance(e, CashedOut):
            return "Cash-out", _name(names, e.seat)
        if isinstance(e, TookHandPot):
            return "Hand pot", _name(names, e.seat)
        if isinstance(e, StakeSet):
            return f"Stake {e.stake}", None
    return "", None


def history_entry(n: int, action: Action, events: Sequence[Event], names: Sequence[str],
                  source: str = "", t: float | None = None,
                  headline_of: Callable[[Sequence[Event], Sequence[str]],
                                        tuple[str, str | None]] | None = None) -> dict:
    """One line of the move history (n = position in the log, from 1); `headline_of` picks the
    big word (default: Hex'el's `headline`)."""
    word, who = (headline_of or headline)(events, names)
    lines = [e.announce(names) for e in events]
    return {"n": n, "action": to_jsonable(action), "headline": word, "who": who,
            "lines": lines, "source": source, "t": t}


def _name(names: Sequence[str], seat: int | None) -> str | None:
    if seat is None:
        return None
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
