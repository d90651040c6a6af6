"""`companion simulate hexel`: random legal Hex'el games and a summary of how they went."""

from __future__ import annotations

import argparse
import random
from collections import Counter

from ..cli import group
from ._argtypes import whole


def register(sub: argparse._SubParsersAction) -> None:
    """Add `simulate hexel`."""
    g = group(sub, "simulate", "Play random legal games and summarise them.")
    p = g.add_parser("hexel", help="random legal games of Hex'el",
                     description="Play a match of random legal Hex'el games (chips carry over, "
                                 "the dealer moves on) and print how they went.")
    p.add_argument("--players", type=int, default=4, help="seats at the table, 1-6 (default 4)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--edition", choices=["holodex", "web"], default="holodex")
    p.add_argument("--stake", type=int, default=2, help="chips per stake multiple (default 2)")
    p.add_argument("--chips", type=int, default=100, help="buy-in per seat (default 100)")
    p.add_argument("--deck", type=str, default=None,
                   help="deck file (JSON with a 'cards' list; default: the standard 36)")
    p.add_argument("--max-hedge", type=whole(0), default=3,
                   help="simulated players hedge 0..N stakes a round (default 3)")
    p.set_defaults(run=run_hexel)


def run_hexel(args: argparse.Namespace) -> int:
    """Play and print the summary."""
    from ..rules.hexel import EDITIONS, GAME, HexelOptions
    from ..rules.hexel.cards import load_deck
    from ..rules.hexel.game import Busted, Hedge, InsurancePaid, NextGame, Placed
    from ..simulate import checked_options, play_game

    options = checked_options(lambda: HexelOptions(
        seats=args.players, stake=args.stake, edition=args.edition,
        chips=(args.chips,) * args.players,
        deck=load_deck(args.deck, EDITIONS[args.edition].symbols) if args.deck else ()),
        args.games)
    if options is None:
        return 2

    def policy(state, actions, rng):
        hedges = [a for a in actions if isinstance(a, Hedge) and a.multiple <= args.max_hedge]
        return rng.choice(hedges or actions)

    rng = random.Random(args.seed)
    state = GAME.initial_state(options)
    before = state.ledger.total
    ends: Counter[str] = Counter()
    turns = placements = insurance = busts = 0
    counts: Counter[int] = Counter()
    for g in range(args.games):
        if g:
            state, _ = GAME.apply(state, NextGame())
        played = play_game(GAME, state, rng, policy)
        state = played.state
        ends[state.end] += 1
        turns += state.turns
        for e in played.events:
            if isinstance(e, Placed):
                placements += 1
                counts["H" if e.hoxla else e.count] += 1
            insurance += isinstance(e, InsurancePaid)
            busts += isinstance(e, Busted)
    after = state.ledger.total
    n = args.games
    print(f"Hex'el ({args.edition}), {args.players} seats, {n} games, seed {args.seed}")
    print("  endings: " + ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in ends.most_common()))
    print(f"  mean turns per game: {turns / n:.1f}")
    print(f"  Hox'la rate: {100 * ends['hoxla'] / n:.1f}% of games")
    named = {1: "Hexba", 2: "Hexel", 3: "Hexla", 4: "Hexven+"}
    spread = Counter()
    for k, v in counts.items():
        spread["Hox'la" if k == "H" else named[min(int(k), 4)]] += v
    print("  placements: " + ", ".join(f"{k} {spread[k]}" for k in
                                       ("Hexba", "Hexel", "Hexla", "Hexven+", "Hox'la")))
    print(f"  insurance payments: {insurance}, busts: {busts}")
    print(f"  chips on the table: before {before}, after {after}"
          f" ({'conserved' if before == after else 'NOT CONSERVED'})")
    stocks = [state.ledger[f"stock:{s}"] + state.ledger[f"hand:{s}"] for s in range(args.players)]
    print("  final stock + hand pot per seat: " + ", ".join(map(str, stocks)))
    return 0 if before == after else 1
