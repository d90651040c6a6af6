"""Hex'el against an independent reading of RULES.md H2-H6, over random legal games.

The shadow below is written from RULES.md alone (it shares no code with the engine beyond the
action classes): it orients cards by `symbols[(d - k) % 6]`, counts placed neighbours, looks for a
perfect triangle around every vertex of the new card, settles insurance (H4.2), busts (H4.3) and
the end of the game (H6) with its own chip book, and lists every legal placement from scratch.
After every action of a random match (three games, with buy-ins, cash-outs and stake changes
between them) the engine must agree with it: accepted placements, counts, Hox'la, whose turn it
is, every chip balance, and which cash-outs are refused. The engine's documented choices where
RULES.md is silent (no insurance to oneself or to a seat that is out, none on a Hox'la turn; the
last placer still in wins when the cards run out) are the shadow's too.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.hexel import GAME, HexelOptions
from companion.rules.hexel import game as hx

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # RULES.md shared notation


def facing(card: str, k: int, d: int) -> str:
    """H1: the symbol on the edge facing direction d of a card placed with rotation k."""
    return card[(d - k) % 6]


def step(cell, d):
    return (cell[0] + DIRS[d % 6][0], cell[1] + DIRS[d % 6][1])


class Shadow:
    """Hex'el chips and table as RULES.md H2-H6 describe them, kept beside a random game."""

    def __init__(self, state: hx.HexelState) -> None:
        self.stake = state.stake
        self.seats = state.seats
        self.web = state.options.edition == "web"
        self.book = dict(state.ledger.balances)
        self.table: dict[tuple[int, int], tuple[str, int]] = {}
        self.out: set[int] = set()
        self.last: tuple[int, int] | None = None
        self.placers: list[int] = []

    def begin(self, state: hx.HexelState) -> None:
        """A game's opening line is on the table (H3)."""
        self.table = {p.cell: (p.card, p.rotation) for p in state.layout.placements}
        cells = sorted(self.table)
        assert cells == [(0, 0), (1, 0), (2, 0)]
        for a, b in ((0, 0), (1, 0)), ((1, 0), (2, 0)):
            assert facing(*self.table[a], 0) == facing(*self.table[b], 3)
        # H3: no first-turn Hox'la: no empty cell beside two line cards with one symbol thrice
        for x in self.frontier():
            for d in range(6):
                a, b = step(x, d), step(x, d + 1)
                if a in self.table and b in self.table:
                    syms = {facing(*self.table[a], d + 3), facing(*self.table[b], d + 4),
                            facing(*self.table[a], d + 2)}
                    assert len(syms) > 1, (x, d)
        self.out, self.last, self.placers = set(), None, []

    def frontier(self):
        return {step(c, d) for c in self.table for d in range(6)} - set(self.table)

    def fits(self, card: str, cell, k: int) -> int | None:
        """H2: the count of a legal placement, None if illegal."""
        if cell in self.table:
            return None
        count = 0
        for d in range(6):
            n = step(cell, d)
            if n in self.table:
                if facing(card, k, d) != facing(*self.table[n], d + 3):
                    return None
                count += 1
        return count or None

    def legal(self, cards) -> set[tuple[str, tuple[int, int], str]]:
        """Every legal (card, cell, oriented symbols) for these cards."""
        out = set()
        for card in set(cards):
            for cell in self.frontier():
                for k in range(6):
                    if self.fits(card, cell, k):
                        out.add((card, cell, "".join(facing(card, k, d) for d in range(6))))
        return out

    def hoxla(self, cell) -> bool:
        """H2: the new card and two neighbours that touch each other, all three shared edges
        (so all six symbols at their common corner) one symbol."""
        card, k = self.table[cell]
        for d in range(6):
            a, b = step(cell, d), step(cell, d + 1)
            if a in self.table and b in self.table:
                shared = {facing(card, k, d), facing(card, k, d + 1),
                          facing(*self.table[a], d + 2)}
                if len(shared) == 1:
                    return True
        return False

    def move(self, source: str, target: str, amount: int) -> None:
        assert 0 <= amount <= self.book[source]
        self.book[source] -= amount
        self.book[target] += amount

    def win(self, seat: int | None) -> None:
        """H6: every hedge pot to the winner's stock (to its owner with no winner)."""
        for s in range(self.seats):
            self.move(f"hedge:{s}", f"stock:{seat if seat is not None else s}",
                      self.book[f"hedge:{s}"])

    def turn(self, seat: int, count: int) -> None:
        """H4.2 and H4.3 for a turn of `count` (0: a discard)."""
        last, self.last = self.last, (seat, count)
        if last is None:
            return
        receiver, previous = last
        if count >= previous or receiver == seat or receiver in self.out:
            return
        owed = self.stake * (previous - count)
        into = f"stock:{receiver}" if self.web else f"hand:{receiver}"
        have = self.book[f"hedge:{seat}"]
        self.move(f"hedge:{seat}", into, min(owed, have))
        if have < owed:
            self.out.add(seat)


def between_games(state: hx.HexelState, shadow: Shadow, rng: random.Random) -> hx.HexelState:
    """Buy-ins, cash-outs, hand pots taken into the stock (some refused) and a new stake, as a
    table does between games."""
    for _ in range(rng.randrange(5)):
        seat = rng.randrange(state.seats)
        pot = rng.choice(["stock", "hand"])
        account = f"{pot}:{seat}"
        frozen = not shadow.web and seat in shadow.out  # H4.3
        if rng.random() < 0.3:
            action, ok = hx.BuyIn(seat, rng.randint(1, 30)), True
            account = f"stock:{seat}"
        elif rng.random() < 0.35:   # H6: a hand pot's chips used in another game
            amount = rng.randint(1, shadow.book[f"hand:{seat}"] + 3)
            action = hx.TakeHandPot(seat, amount)
            ok = amount <= shadow.book[f"hand:{seat}"] and not frozen
            account = f"hand:{seat}"
        else:
            amount = rng.randint(1, shadow.book[account] + 3)
            ok = amount <= shadow.book[account] and not (pot == "hand" and frozen)
            action = hx.CashOut(seat, amount, pot)
        try:
            state, _ = GAME.apply(state, action)
        except hx.IllegalAction:
            assert not ok, action
        else:
            assert ok, action
            sign = 1 if isinstance(action, hx.BuyIn) else -1
            shadow.book[account] += sign * action.amount
            if isinstance(action, hx.TakeHandPot):
                shadow.book[f"stock:{seat}"] += action.amount
        assert dict(state.ledger.balances) == shadow.book, action
        assert sum(shadow.book.values()) == state.ledger.total
    return state


def random_game(seed: int, opts: HexelOptions, games: int = 1):
    """Play random games, checking the engine against the shadow after every action."""
    rng = random.Random(seed)
    state = GAME.initial_state(opts)
    shadow = Shadow(state)
    played = 0
    while True:
        if state.phase in ("setup", "over"):
            state = between_games(state, shadow, rng)
        if GAME.is_over(state):
            played += 1
            if played == games:
                return state
            dealer = state.dealer
            state, _ = GAME.apply(state, hx.NextGame())
            assert state.dealer == (dealer + 1) % opts.seats  # H6: the button moves clockwise
            shadow.out = set()  # H6: frozen hand pots thaw
            if rng.random() < 0.5:
                shadow.stake = rng.randint(1, 3)
                state, _ = GAME.apply(state, hx.SetStake(shadow.stake))
            continue
        action = GAME.chance_action(state, rng)
        if action is None:
            legal = GAME.legal_actions(state)
            if state.phase == "play":
                seat = state.to_play
                mine = shadow.legal(state.hands[seat])
                theirs = {(a.card, tuple(a.cell),
                           "".join(facing(a.card, a.rotation, d) for d in range(6)))
                          for a in legal if isinstance(a, hx.Place)}
                assert theirs == mine
                if not mine:  # H4: a discard only when no card in hand fits
                    assert legal and all(isinstance(a, hx.Discard) for a in legal)
            hedges = [a for a in legal if isinstance(a, hx.Hedge) and a.multiple <= 3]
            action = rng.choice(hedges or legal)
        before = state
        state, events = GAME.apply(state, action)
        if isinstance(action, hx.Shuffle):
            shadow.begin(state)
        elif isinstance(action, hx.Hedge):
            shadow.move(f"stock:{action.seat}", f"hedge:{action.seat}",
                        action.multiple * shadow.stake)
        elif isinstance(action, hx.Place):
            count = shadow.fits(action.card, tuple(action.cell), action.rotation)
            assert count is not None and before.to_play == action.seat
            shadow.table[tuple(action.cell)] = (action.card, action.rotation)
            placed = next(e for e in events if isinstance(e, hx.Placed))
            assert placed.count == count
            shadow.placers.append(action.seat)
            if shadow.hoxla(tuple(action.cell)):
                assert placed.hoxla and state.winner == action.seat and state.end == "hoxla"
                shadow.win(action.seat)
            else:
                assert not placed.hoxla
                shadow.turn(action.seat, count)
        elif isinstance(action, hx.Discard):
            shadow.turn(action.seat, 0)
        if state.phase == "over" and state.end != "hoxla":
            standing = [s for s in range(opts.seats) if s not in shadow.out]
            if opts.seats >= 2 and len(standing) == 1:
                assert state.end == "last_standing" and state.winner == standing[0]
            else:
                assert not state.pile and not any(state.hands)  # H6: the cards ran out
                placers = [s for s in shadow.placers if s not in shadow.out]
                assert state.winner == (placers[-1] if placers else None)
            shadow.win(state.winner)
        assert set(state.out) == shadow.out
        if state.phase == "play" and before.phase in ("stake", "play"):
            # H4: the dealer opens each round, then clockwise, skipping seats out or with no card
            start, skip = (state.dealer, 0) if before.phase == "stake" else (action.seat, 1)
            order = [(start + i) % opts.seats for i in range(skip, opts.seats + skip)]
            assert state.to_play == next(s for s in order
                                         if s not in shadow.out and state.hands[s])
        assert dict(state.ledger.balances) == shadow.book, (action, events)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 6), web=st.booleans(),
       stake=st.integers(1, 4))
def test_H2_H6_random_matches_agree_with_an_independent_reading(seed, seats, web, stake):
    chips = tuple(random.Random(seed).randrange(0, 40) for _ in range(seats))
    opts = HexelOptions(seats=seats, stake=stake, edition="web" if web else "holodex",
                        chips=chips, dealer=seed % seats)
    final = random_game(seed, opts, games=3)
    assert all(final.ledger[f"hedge:{s}"] == 0 for s in range(seats))
