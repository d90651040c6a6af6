"""Builders for hand-worked Hex'el positions used by the tests (not a test module)."""

from __future__ import annotations

import dataclasses

from companion.rules.hexel import GAME, HexelOptions, Layout, Placement


def layout(*cards: tuple[str, tuple[int, int], int]) -> Layout:
    """A layout from (card, cell, rotation) triples."""
    return Layout(tuple(Placement(c, cell, k) for c, cell, k in cards))


def position(*, seats=2, hands, table, hedges=None, stocks=None, stake=1, dealer=0,
             to_play=None, pile=(), last_turn=None, edition="holodex", out=(),
             phase="play", placed_by=None, deck=()):
    """A state in the middle of a round, built by hand."""
    chips = tuple(stocks or (100,) * seats)
    options = HexelOptions(seats=seats, stake=stake, edition=edition, chips=chips,
                           dealer=dealer, deck=deck)
    state = GAME.initial_state(options)
    ledger = state.ledger
    for s, amount in enumerate(hedges or ()):
        if amount:
            ledger = ledger.transfer(f"stock:{s}", f"hedge:{s}", amount)
    lay = layout(*table)
    return dataclasses.replace(
        state, ledger=ledger, phase=phase, layout=lay, hands=tuple(tuple(h) for h in hands),
        pile=tuple(pile), to_play=dealer if to_play is None else to_play, last_turn=last_turn,
        out=frozenset(out), round=1, hedged=frozenset(range(seats)),
        placed_by=tuple(placed_by if placed_by is not None else [0] * len(lay)),
    )
