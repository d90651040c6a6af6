"""`companion bench rules`: how fast the Hex'el engine enumerates placements and plays games.

Measures (1) enumerating every legal placement of a 3-card hand on 30-card layouts built by
random legal play — cold (placement cache cleared before each call) and warm — and (2) whole
simulated games per second through the full protocol (apply, events, ledger). Figures are
medians/percentiles over many layouts; run on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ..cli import group
from ._argtypes import whole


def register(sub: argparse._SubParsersAction) -> None:
    """Add `bench rules`."""
    g = group(sub, "bench", "Benchmarks (not tests): speed figures for the README.")
    p = g.add_parser("rules", help="Hex'el placement enumeration and simulated games per second",
                     description=__doc__)
    p.add_argument("--layouts", type=whole(1), default=200, help="30-card layouts to time (200)")
    p.add_argument("--games", type=whole(1), default=200, help="games to simulate (200)")
    p.add_argument("--players", type=whole(1, 6), default=4,
                   help="seats at the table, 1-6 (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=run)


def _layout_with(n: int, rng: random.Random):
    """A layout of `n` cards built by random legal placements, and the cards left over."""
    from ..rules.hexel import standard_deck
    from ..rules.hexel.game import _draw_line, _line_layout
    from ..rules.hexel.layout import Placement

    while True:
        pile = list(standard_deck())
        rng.shuffle(pile)
        line, ks, _ = _draw_line(pile)
        layout = _line_layout(line, ks)
        while len(layout) < n and pile:
            options = list(layout.placements_for(pile))
            if not options:
                break
            card, cell, k, _ = rng.choice(options)
            layout = layout.with_placement(Placement(card, cell, k))
            pile.remove(card)
        if len(layout) == n and len(pile) >= 3:
            return layout, pile


def run(args: argparse.Namespace) -> int:
    """Print the figures."""
    from ..rules.hexel import GAME, HexelOptions
    from ..rules.hexel.game import Hedge
    from ..rules.hexel.layout import fitting_rotations
    from ..simulate import play_game

    rng = random.Random(args.seed)
    cold, warm, counts = [], [], []
    for _ in range(args.layouts):
        layout, pile = _layout_with(30, rng)
        hand = rng.sample(pile, 3)
        fitting_rotations.cache_clear()
        t0 = time.perf_counter()
        found = list(layout.placements_for(hand))
        cold.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        list(layout.placements_for(hand))
        warm.append(time.perf_counter() - t0)
        counts.append(len(found))

    def ms(xs, q):
        return 1000 * statistics.quantiles(xs, n=100)[q - 1] if q < 100 else 1000 * max(xs)

    print(f"Legal placements of a 3-card hand on a 30-card layout ({args.layouts} layouts, "
          f"mean {statistics.mean(counts):.1f} placements found):")
    for label, xs in (("cold", cold), ("warm", warm)):
        print(f"  {label} cache: median {1000 * statistics.median(xs):.3f} ms, "
              f"p95 {ms(xs, 95):.3f} ms, max {ms(xs, 100):.3f} ms")

    opts = HexelOptions(seats=args.players, stake=2)

    def policy(state, actions, r):
        hedges = [a for a in actions if isinstance(a, Hedge) and a.multiple <= 3]
        return r.choice(hedges or actions)

    t0 = time.perf_counter()
    actions = 0
    for g in range(args.games):
        played = play_game(GAME, GAME.initial_state(opts), random.Random(args.seed + g), policy)
        actions += len(played.log)
    dt = time.perf_counter() - t0
    print(f"Simulated Hex'el games ({args.players} seats): {args.games / dt:.1f} games/s, "
          f"{actions / dt:.0f} actions/s")
    return 0
