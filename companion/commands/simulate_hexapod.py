"""`companion simulate hexapod`: random legal Hexapod games and a summary of how they went."""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from pathlib import Path

from ..cli import group

# the shipped deck, found from the package wherever the command is run
DECK_PATH = Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json"


def register(sub: argparse._SubParsersAction) -> None:
    """Add `simulate hexapod`."""
    g = group(sub, "simulate", "Play random legal games and summarise them.")
    p = g.add_parser("hexapod", help="random legal games of Hexapod",
                     description="Play random legal two-player Hexapod games and print how "
                                 "they went. Simulated players draw and play whenever they can; "
                                 "otherwise they usually spend a coin, else pass.")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--deck", type=Path, default=DECK_PATH,
                   help="deck file (default: the shipped models/hexapod-deck.json)")
    p.add_argument("--uniform", action="store_true",
                   help="pick uniformly among all legal actions (passes included)")
    p.set_defaults(run=run_hexapod)


def keen(state, actions, rng):
    """Play when possible; without a play, spend a coin 70% of the time; else end or pass."""
    from ..rules.hexapod.game import EndTurn, Play, SpendCoin

    plays = [a for a in actions if isinstance(a, Play)]
    if plays:
        return rng.choice(plays)
    coins = [a for a in actions if isinstance(a, SpendCoin)]
    if coins and rng.random() < 0.7:
        return rng.choice(coins)
    ends = [a for a in actions if isinstance(a, EndTurn)]
    return ends[0] if ends else rng.choice(actions)


def run_hexapod(args: argparse.Namespace) -> int:
    """Play and print the summary."""
    from ..rules.hexapod import GAME, HexapodOptions, load_deck
    from ..simulate import checked_options, play_game, uniform

    options = checked_options(lambda: HexapodOptions(deck=load_deck(args.deck)), args.games)
    if options is None:
        return 2
    rng = random.Random(args.seed)
    policy = uniform if args.uniform else keen
    ends: Counter[str] = Counter()
    placed: list[int] = []
    scores: list[int] = []
    kinds: Counter[str] = Counter()
    turns = ties = coins_spent = 0
    for _ in range(args.games):
        state = play_game(GAME, GAME.initial_state(options), rng, policy).state
        ends[state.end or "?"] += 1
        turns += state.turns
        ties += len(state.winners) > 1
        for seat in (0, 1):
            placed.append(state.placed[seat])
            scores.append(state.scores[seat])
            coins_spent += options.coins - state.coins[seat]
            kinds.update(state.score(seat).breakdown())
    n = args.games
    print(f"Hexapod, {n} games, seed {args.seed}, {'uniform' if args.uniform else 'keen'} players,"
          f" deck {args.deck}")
    print("  endings: " + ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in ends.most_common()))
    print(f"  mean turns per game: {turns / n:.1f}; ties: {ties}")
    print(f"  cards placed per case: mean {statistics.mean(placed):.1f}, "
          f"min {min(placed)}, max {max(placed)}")
    print(f"  score per case: mean {statistics.mean(scores):.1f}, min {min(scores)}, "
          f"max {max(scores)}")
    print("  mean points by kind: " + ", ".join(f"{k} {v / (2 * n):.1f}" for k, v in kinds.items()))
    print(f"  coins spent per game: {coins_spent / n:.2f}")
    return 0
