"""`companion simulate comet`: random legal Seven Card Comet matches and a summary."""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter

from ..cli import group


def register(sub: argparse._SubParsersAction) -> None:
    """Add `simulate comet`."""
    g = group(sub, "simulate", "Play random legal games and summarise them.")
    p = g.add_parser("comet", help="random legal matches of Seven Card Comet",
                     description="Play random legal Seven Card Comet matches and print how they "
                                 "went. Simulated players lay their best-scoring valid set on "
                                 "each free pot most of the time, sometimes reserve a card, and "
                                 "dealers call the Tail now and then.")
    p.add_argument("--players", type=int, default=4, help="seats, 2-8 (default 4)")
    p.add_argument("--games", type=int, default=20, help="matches to play (default 20)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--rounds", type=int, default=0,
                   help="rounds per match (default: one per player, the minimum)")
    p.add_argument("--chips", type=int, default=1500, help="buy-in per seat (default 1500)")
    p.add_argument("--bonus-per", choices=["pot_won", "valid_set"], default="pot_won")
    p.add_argument("--uniform", action="store_true",
                   help="pick uniformly among all legal actions instead")
    p.set_defaults(run=run_comet)


def keen(state, actions, rng):
    """Best valid set 80% of the time (else any valid one); reserve 20%; Tail call 30%; never
    stop early."""
    from ..rules.comet.game import CallTail, EndTurn, PlaySet, Reserve
    from ..rules.comet.scoring import score_set

    if state.phase in ("setup", "between"):
        return actions[0]  # BeginRound: the match ends after --rounds rounds
    if state.phase == "tail":
        calls = [a for a in actions if isinstance(a, CallTail)]
        return calls[0] if calls and rng.random() < 0.3 else actions[0]
    scores: dict[tuple, int] = {}
    valid = []
    for a in actions:
        if isinstance(a, PlaySet):
            if a.cards not in scores:
                scores[a.cards] = score_set(a.cards)
            if scores[a.cards] > 0:
                valid.append(a)
    reserves = [a for a in actions if isinstance(a, Reserve)]
    if reserves and rng.random() < 0.2:
        return rng.choice(reserves)
    if valid:
        if rng.random() < 0.8:
            return max(valid, key=lambda a: scores[a.cards])
        return rng.choice(valid)
    return next(a for a in actions if isinstance(a, EndTurn))


def run_comet(args: argparse.Namespace) -> int:
    """Play and print the summary."""
    from ..rules.comet import GAME, CometOptions
    from ..rules.comet.game import Eliminated, PotRevealed, TailCalled
    from ..simulate import checked_options, play_game, uniform

    options = checked_options(lambda: CometOptions(
        seats=args.players, chips=(args.chips,) * args.players,
        rounds=args.rounds or args.players, bonus_per=args.bonus_per), args.games)
    if options is None:
        return 2
    rng = random.Random(args.seed)
    policy = uniform if args.uniform else keen
    ends: Counter[str] = Counter()
    pots: Counter[str] = Counter()
    rounds = tails = eliminated = 0
    winning: list[int] = []
    conserved = True
    for _ in range(args.games):
        start = GAME.initial_state(options)
        played = play_game(GAME, start, rng, policy)
        state = played.state
        conserved &= state.ledger.total == start.ledger.total
        ends[state.end or "?"] += 1
        rounds += state.round
        for e in played.events:
            if isinstance(e, PotRevealed):
                kind = "tail " if e.pot == "Tail" else ""
                pots[kind + ("kept" if not e.winners else "split" if len(e.winners) > 1
                             else "won")] += 1
                if e.winners:
                    winning.append(max(score for _, score in e.scores))
            tails += isinstance(e, TailCalled) and e.called
            eliminated += isinstance(e, Eliminated)
    n = args.games
    print(f"Seven Card Comet, {args.players} players, {n} matches, seed {args.seed}, "
          f"{'uniform' if args.uniform else 'keen'} players")
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in ends.most_common())
          + f"; mean rounds {rounds / n:.1f}")
    print("  pots: " + ", ".join(f"{k} {v}" for k, v in sorted(pots.items())))
    if winning:
        print(f"  winning score: mean {statistics.mean(winning):.1f}, "
              f"median {statistics.median(winning)}, max {max(winning)}")
    print(f"  Tail calls: {tails}; players eliminated: {eliminated}")
    print(f"  chips on the table: {'conserved' if conserved else 'NOT CONSERVED'} "
          f"({args.chips * args.players} per match)")
    return 0 if conserved else 1
