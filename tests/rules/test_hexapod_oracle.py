"""Hexapod against an independent reading of RULES.md P2-P4, over random legal games.

Written from RULES.md alone: P2's three placement rules checked cell by cell on the visible case,
P4's score counted per beetle by walking its row and column, and P3's turn order and ending (a
pass puts a seat out; once the Spider shows, the seat whose turn it is finishes it and the
opponent, unless passed, takes one final turn). After every action of a random game the engine
must agree: the positions each card may take, both scores, whose turn it is and when it ends.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.hexapod import GAME, SPIDER, HexapodOptions, legal_positions, load_deck
from companion.rules.hexapod import game as hp

DECK = load_deck(Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json")
OPTS = HexapodOptions(deck=DECK)
OTHER_HALF = {"St": (0, 1), "Sb": (0, -1), "Ml": (1, 0), "Mr": (-1, 0)}
KIND = {"St": "stag", "Sb": "stag", "Ml": "moth", "Mr": "moth"}


def kind(code: str) -> str:
    return KIND.get(code, code)


def may_place(case, rows, col, row) -> bool:
    """P1/P2 from scratch: inside the case; dung only under dung; a stag or moth covered whole
    or not at all; unless the case is empty, some cell on a visible insect of its own kind."""
    height, width = len(rows), len(rows[0])
    if min(col, row) < 0 or col + width > len(case[0]) or row + height > len(case):
        return False
    under = {(col + c, row + r): rows[r][c] for r in range(height) for c in range(width)}
    for (x, y), new in under.items():
        old = case[y][x]
        if old == "K" and new != "K":
            return False
        if old in OTHER_HALF:
            dx, dy = OTHER_HALF[old]
            if (x + dx, y + dy) not in under:
                return False
    if all(code == "." for line in case for code in line):
        return True
    return any(case[y][x] != "." and kind(case[y][x]) == kind(new) for (x, y), new in under.items())


def score(case, coins: int) -> int:
    """P4 from scratch, beetle by beetle."""
    h, w = len(case), len(case[0])
    total = 2 * coins
    for y in range(h):
        for x in range(w):
            code = case[y][x]
            if code in ("B", "G", "Y"):
                value = {"B": 1, "G": 2, "Y": 3}[code]
                for dx, dy in ((1, 0), (0, 1)):
                    run = 1
                    for sign in (1, -1):
                        i = 1
                        while (0 <= x + sign * i * dx < w and 0 <= y + sign * i * dy < h
                               and case[y + sign * i * dy][x + sign * i * dx] == code):
                            run, i = run + 1, i + 1
                    total += value if run >= 2 else 0
            elif code == "R":
                total += 1 + sum(case[y + dy][x + dx] == "R"
                                 for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                                 if (dx or dy) and 0 <= y + dy < h and 0 <= x + dx < w)
            elif code in ("St", "Ml"):
                total += 5
    return total


def test_p5_the_independent_scorer_reproduces_the_worked_example():
    case = [line.split() for line in (
        "B  .  G  .  G  Y", "B  B  G  .  G  .", "Ml Mr .  .  .  K",
        ".  G  G  G  R  .", ".  .  .  St .  R", "G  G  .  Sb Ml Mr")]
    assert score(case, 2) == 45


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), coin_bias=st.floats(0, 0.5))
def test_p2_p4_random_games_agree_with_an_independent_reading(seed, coin_bias):
    rng = random.Random(seed)
    state, _ = GAME.apply(GAME.initial_state(OPTS), hp.Shuffle(seed))
    while state.phase == "start":
        state, _ = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    spider_seen = SPIDER in state.tops()
    finisher = state.to_play if spider_seen else None
    final = None
    passed: set[int] = set()
    while not GAME.is_over(state):
        seat = state.to_play
        for name in {*state.hands[seat], *(t for t in state.tops() if t and t != SPIDER)}:
            rows = OPTS.cards[name].rows
            mine = {(c, r) for r in range(-1, 6) for c in range(-1, 6)
                    if may_place(state.cases[seat], rows, c, r)}
            assert set(legal_positions(state.cases[seat], OPTS.cards[name])) == mine
        legal = GAME.legal_actions(state)
        coins = [a for a in legal if isinstance(a, hp.SpendCoin)]
        plays = [a for a in legal if isinstance(a, hp.Play)]
        if coins and rng.random() < coin_bias:
            action = rng.choice(coins)
        elif plays and rng.random() < 0.97:
            action = rng.choice(plays)
        else:
            action = rng.choice(legal)
        state, _ = GAME.apply(state, action)
        for s in (0, 1):
            assert state.scores[s] == score(state.cases[s], state.coins[s])
        if not spider_seen and SPIDER in state.tops():
            spider_seen, finisher = True, seat  # P3: the seat whose turn it is finishes it
        if isinstance(action, hp.Pass):
            passed.add(seat)
        if isinstance(action, hp.SpendCoin):
            assert state.to_play == seat
            continue
        # the turn is over: who plays next (P3)?
        other = 1 - seat
        if final is not None or (finisher == seat and other in passed):
            assert GAME.is_over(state) and state.end == "spider"
        elif finisher == seat:
            final = other
            assert state.to_play == other
        elif other not in passed:
            assert state.to_play == other
        elif seat not in passed:
            assert state.to_play == seat
        else:
            assert GAME.is_over(state) and state.end == "passed"
    scores = [score(state.cases[s], state.coins[s]) for s in (0, 1)]
    assert state.winners == tuple(s for s in (0, 1) if scores[s] == max(scores))
