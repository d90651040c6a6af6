"""`companion simulate hexdragon`: random legal HexDragon games and a summary of how they went."""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter

from ..cli import group


def register(sub: argparse._SubParsersAction) -> None:
    """Add `simulate hexdragon`."""
    g = group(sub, "simulate", "Play random legal games and summarise them.")
    p = g.add_parser("hexdragon", help="random legal games of HexDragon",
                     description="Play random legal HexDragon games (every turn picked uniformly "
                                 "among the legal placements and star tokens) and print how "
                                 "they went: connections by shape, points, wins and ties.")
    p.add_argument("--players", type=int, default=2, help="seats at the table, 2-4 (default 2)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--heads", choices=["random", "varied", "next", "across", "opposing"],
                   default="random", help="how each seat's 3 heads are chosen (default random)")
    p.add_argument("--radius", type=int, choices=[2, 3], default=None,
                   help="board radius (default 2 for two players, 3 for more)")
    p.add_argument("--bags", type=int, choices=[1, 2], default=None,
                   help="body-piece sets in the bag (default 1 for two players, 2 for more)")
    p.set_defaults(run=run_hexdragon)


def run_hexdragon(args: argparse.Namespace) -> int:
    """Play and print the summary."""
    from ..rules.hexdragon import GAME, HexDragonOptions
    from ..rules.hexdragon.chains import SHAPES
    from ..rules.hexdragon.game import GameOver, Skipped, StarPlaced
    from ..simulate import checked_options, play_game

    options = checked_options(lambda: HexDragonOptions(
        seats=args.players, radius=args.radius, bags=args.bags, heads=args.heads), args.games)
    if options is None:
        return 2
    rng = random.Random(args.seed)
    n, seats = args.games, args.players
    ends: Counter[str] = Counter()
    count: Counter[str] = Counter()
    lengths: dict[str, list[int]] = {s: [] for s in SHAPES}
    points: list[list[int]] = [[] for _ in range(seats)]
    wins: Counter[int] = Counter()
    turns = stars = skips = shared = tie_breaks = 0
    for _ in range(n):
        played = play_game(GAME, GAME.initial_state(options), rng)
        state = played.state
        ends[state.end or "?"] += 1
        turns += state.turns
        for c in state.connections:
            count[c.shape] += 1
            lengths[c.shape].append(c.length)
        for s in range(seats):
            points[s].append(state.scores[s])
        if len(state.winners) > 1:
            shared += 1
        else:
            wins[state.winners[0]] += 1
        for e in played.events:
            stars += isinstance(e, StarPlaced)
            skips += isinstance(e, Skipped)
            tie_breaks += isinstance(e, GameOver) and e.tie_break
    print(f"HexDragon, {seats} seats, radius {options.board_radius}, {options.bag_count} bag(s),"
          f" heads {args.heads}, {n} games, seed {args.seed}, uniform random players")
    print("  endings: " + ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in ends.most_common()))
    print(f"  mean turns per game: {turns / n:.1f} (star tokens placed {stars / n:.2f}, "
          f"skips {skips / n:.2f} per game)")
    for shape in SHAPES:
        ls = lengths[shape]
        spread = (f", L mean {statistics.mean(ls):.1f} min {min(ls)} max {max(ls)}"
                  if ls else "")
        print(f"  {shape:<10} {count[shape] / n:5.2f} per game{spread}")
    print("  mean points per seat: " + ", ".join(
        f"{statistics.mean(p):.1f}" for p in points) + f" (highest single score "
        f"{max(max(p) for p in points)})")
    print("  wins per seat: " + ", ".join(str(wins[s]) for s in range(seats))
          + f"; shared {shared}; decided by the tie-break {tie_breaks}")
    return 0
