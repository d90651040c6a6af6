"""The scoreboard's view of a Hexapod game: plain JSON-ready dicts built from the rules' state.

`game_view` describes the committed state: per seat its display case (rows of cell codes, top to
bottom), the P4 score with its breakdown per kind (coins included), coins left, cards placed, and
whether it has passed or is to play; the phase, the Spider and the winners. `headline` picks the
big-letter word of a committed action (the points a card gained, "Coin", "Pass", "Spider!", the
winner). The web layer only renders these dicts; it never sees a rules object.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.core import Event
from ..rules.hexapod import HexapodState
from ..rules.hexapod.game import (
    CardLaid,
    CoinSpent,
    CoinUsed,
    GameOver,
    Passed,
    Played,
    SpiderCalled,
    SpiderRevealed,
    StacksLaid,
    TableOpened,
    TurnEnded,
)

__all__ = ["KIND_LABELS", "game_view", "headline"]

KIND_LABELS = {"blue": "Blue", "green": "Green", "gold": "Gold", "red": "Red",
               "stag": "Stag", "moth": "Moth", "dung": "Dung", "coins": "Coins"}

PHASE_TEXT = {
    "setup": "Setting up",
    "start": "Take your starting cards",
    "play": "Playing",
    "over": "Game over: NEXT starts the next game",
}


def game_view(state: HexapodState, game_id: int | None) -> dict:
    """The committed state as the scoreboard shows it."""
    opts = state.options
    names = opts.seat_names
    seats = []
    for s in range(len(names)):
        score = state.score(s)
        seats.append({
            "seat": s, "name": names[s], "player": s + 1,
            "case": [list(row) for row in state.cases[s]],
            "score": score.total, "breakdown": score.breakdown(),
            "coins": state.coins[s], "cards": state.placed[s],
            "laid": [{"card": n, "col": c, "row": r} for n, c, r in state.laid[s]],
            "passed": s in state.passed, "to_play": s == state.to_play,
            "winner": s in state.winners,
        })
    to_play = state.to_play
    if state.phase == "play" and to_play is not None:
        turn_text = (f"{names[to_play]} to play" + (" (coin spent: place a card or end the "
                                                    "turn)" if state.coin_spent else "")
                     + (" — final turn" if state.ending == "final" else "")
                     + (" — finishing the turn" if state.ending == "finish" else ""))
    elif state.phase == "over":
        win = " and ".join(names[s] for s in state.winners)
        turn_text = f"Game over: {win} {'win' if len(state.winners) > 1 else 'wins'}"
    else:
        turn_text = PHASE_TEXT.get(state.phase, state.phase)
    return {
        "game": "hexapod", "game_id": game_id, "phase": state.phase,
        "phase_text": PHASE_TEXT.get(state.phase, state.phase), "turn_text": turn_text,
        "to_play": to_play, "to_play_name": names[to_play] if to_play is not None else None,
        "coin_spent": state.coin_spent, "spider": state.spider, "ending": state.ending,
        "end": state.end, "winners": list(state.winners), "tracked": state.tracked,
        "turns": state.turns, "seats": seats,
        "case_cols": opts.case_cols, "case_rows": opts.case_rows,
        "card_cols": opts.card_cols, "card_rows": opts.card_rows,
        "deck_size": len(opts.deck), "cards_left": len(state.unplaced()),
        "deck": [{"name": c.name, "text": c.text()} for c in opts.deck],
        "kinds": KIND_LABELS,
    }


def headline(events: Sequence[Event], names: Sequence[str]) -> tuple[str, str | None]:
    """The big-letter word of a committed action and the seat it is about (if any)."""
    for e in events:
        if isinstance(e, GameOver):
            if len(e.winners) == 1:
                return "Winner!", _name(names, e.winners[0])
            return "A tie!", None
    for e in events:
        if isinstance(e, CardLaid | Played):
            gain = e.gain if isinstance(e, CardLaid) else None
            word = "Placed" if gain is None else (f"+{gain}" if gain >= 0 else f"−{-gain}")
            return word, _name(names, e.seat)
        if isinstance(e, SpiderCalled):
            return "Spider!", _name(names, e.seat)
        if isinstance(e, SpiderRevealed):
            return "Spider!", _name(names, e.finisher)
        if isinstance(e, CoinUsed | CoinSpent):
            return "Coin", _name(names, e.seat)
        if isinstance(e, Passed):
            return "Pass", _name(names, e.seat)
        if isinstance(e, TurnEnded):
            return "Turn ends", _name(names, e.seat)
        if isinstance(e, TableOpened | StacksLaid):
            return "New game", None
    return "", None


def _name(names: Sequence[str], seat: int | None) -> str | None:
    if seat is None:
        return None
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
