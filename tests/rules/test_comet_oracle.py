"""Seven Card Comet against an independent reading of RULES.md C1-C3.

C1 by brute force: every choice of three value *instances* from a set's cards is a line when the
three are equal (an Ace is then 14) or make a run (an Ace may be 1 or 14), and is worth the sum of
its values. C2/C3 by a shadow of each round kept beside random legal matches: antes into the six
pots and the Tail, the Tail call, the deal sizes, and every reveal (highest positive score wins,
ties split evenly with the odd chips left in the pot, bonus cards for the next round), checked
against the engine's chips after every action.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.comet import GAME, CometOptions, score_set, score_values, standard_deck
from companion.rules.comet import game as cg

DECK = standard_deck()


def brute_score(values: list[int]) -> int:
    """C1: the sum over all instance triples that form a line of the values they stand for."""
    total = 0
    for trio in itertools.combinations(values, 3):
        if len(set(trio)) == 1:
            total += 3 * trio[0]
            continue
        for reading in itertools.product(*[(1, 14) if v == 14 else (v,) for v in trio]):
            low = min(reading)
            if sorted(reading) == [low, low + 1, low + 2]:
                total += sum(reading)
                break
    return total


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=3))
def test_c1_score_of_any_set_from_the_deck_equals_brute_force(cards):
    assert score_set(cards) == brute_score([v for c in cards for v in c])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(2, 14), max_size=10))
def test_c1_score_of_any_values_equals_brute_force(values):
    assert score_values(values) == brute_score(values)


def test_c1_brute_force_reproduces_the_seed_checks():
    # the oracle itself, on RULES.md C1's list
    for values, total in (([2, 4, 5, 5, 5, 9, 9, 9, 10], 42), ([3, 4, 5, 6, 6, 6, 8, 11, 13], 75),
                          ([14, 2, 2, 3, 5, 9, 10, 10, 11], 72), ([2, 3, 4, 5, 6, 9, 9, 9], 63),
                          ([4, 12, 13, 13, 13, 14], 156), ([2, 2, 6, 7, 8, 9, 11, 12, 13], 81)):
        assert brute_score(values) == total


class Shadow:
    """Chips and bonus cards of a Comet match as RULES.md C2/C3 describe them."""

    def __init__(self, opts: CometOptions) -> None:
        self.opts = opts
        self.book = {f"stock:{s}": c for s, c in enumerate(opts.buy_ins)}
        self.book.update({f"pot:{p}": 0 for p in (*opts.pots, "Tail")})
        self.bonus = [0] * opts.seats
        self.sets: list[cg.PlaySet] = []

    def move(self, source: str, target: str, amount: int) -> None:
        assert 0 <= amount <= self.book[source]
        self.book[source] -= amount
        self.book[target] += amount

    def ante(self, seat: int) -> None:
        for p in self.opts.pots:
            self.move(f"stock:{seat}", f"pot:{p}", 25)
        self.move(f"stock:{seat}", "pot:Tail", 150)

    def pay(self, pot: str, scores: dict[int, int]) -> list[int]:
        best = max(scores.values(), default=0)
        won = [s for s, v in scores.items() if v == best and v > 0]
        if won:
            each = self.book[f"pot:{pot}"] // len(won)
            for s in won:
                if each:
                    self.move(f"pot:{pot}", f"stock:{s}", each)
        return won

    def reveal(self, tail: bool) -> None:
        bonus = [0] * self.opts.seats
        if tail:
            totals: dict[int, int] = {}
            for p in self.sets:
                totals[p.seat] = totals.get(p.seat, 0) + brute_score(
                    [v for c in p.cards for v in c])
            self.pay("Tail", totals)
        else:
            for pot in self.opts.pots:
                scores = {p.seat: brute_score([v for c in p.cards for v in c])
                          for p in self.sets if p.pot == pot}
                won = self.pay(pot, scores)
                for s, v in scores.items():
                    bonus[s] += (s in won) if self.opts.bonus_per == "pot_won" else (v > 0)
        self.bonus, self.sets = bonus, []


OPTIONS = st.tuples(st.integers(2, 5), st.lists(st.integers(0, 3000), min_size=5, max_size=5),
                    st.sampled_from(["pot_won", "valid_set"]), st.booleans()).map(
    lambda t: CometOptions(seats=t[0], chips=tuple(t[1][:t[0]]), bonus_per=t[2],
                           ante_every_round=t[3]))


@settings(max_examples=25, deadline=None)
@given(opts=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_c2_c3_random_matches_agree_with_an_independent_reading(opts, seed):
    rng = random.Random(seed)
    state = GAME.initial_state(opts)
    shadow = Shadow(opts)
    while not GAME.is_over(state):
        action = GAME.chance_action(state, rng)
        if action is None:
            legal = GAME.legal_actions(state)
            # lean towards playing sets and calling the Tail so that reveals have contenders
            sets = [a for a in legal if isinstance(a, cg.PlaySet | cg.CallTail)]
            action = rng.choice(sets if sets and rng.random() < 0.6 else legal)
        before = state
        state, events = GAME.apply(state, action)
        for e in events:
            if isinstance(e, cg.AntePaid):
                shadow.ante(e.seat)
            if isinstance(e, cg.Eliminated):  # C2: out when it cannot pay a due ante
                assert shadow.book[f"stock:{e.seat}"] < 300
        if isinstance(action, cg.CallTail):
            shadow.move(f"stock:{action.seat}", "pot:Tail", 600)
        if isinstance(action, cg.PlaySet):
            shadow.sets.append(action)
        if isinstance(action, cg.Shuffle | cg.Deal):
            for s in state.order:  # C2 deal sizes; C3: reserves plus cards up to 7
                want = (max(7, len(before.reserves[s])) if state.tail_round
                        else 7 + shadow.bonus[s])
                assert len(state.hands[s]) == want
        if any(isinstance(e, cg.PotRevealed) for e in events):
            shadow.reveal(before.tail_round)
            assert list(state.bonus) == shadow.bonus
        assert dict(state.ledger.balances) == shadow.book, (action, events)
