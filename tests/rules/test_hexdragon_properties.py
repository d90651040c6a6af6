"""Property tests over random HexDragon boards and games (RULES.md D1-D5 as a whole).

The test oracle `rescan` finds every closed chain of a board from scratch — segments as graph
nodes, joined across shared edges, one connected component per chain — written here without
the engine's chain code, so the engine's incremental detection (D4) is checked against it.
"""

import copy
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.core import RulesError, WrongPhase, from_json, replay, to_json
from companion.rules.hexdragon import GAME, HEAD_PIECES, HexDragonOptions, Placement, links_of
from companion.rules.hexdragon import game as hd
from companion.rules.hexdragon.chains import Board
from companion.rules.hexgrid import hexagon
from companion.simulate import play_game

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
STEP = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# -- the oracle ------------------------------------------------------------------------------


def facing(links, k):
    """Links by direction: edge i faces direction i + k (D1)."""
    out = [None] * 6
    for i, x in enumerate(links):
        out[(i + k) % 6] = (x + k) % 6 if isinstance(x, int) else x
    return out


def rescan(placements):
    """Every closed chain of the board, from scratch, as comparable keys (see `key`)."""
    info = {p.cell: (facing(p.links, p.rotation), i, p.owner) for i, p in enumerate(placements)}

    def segment(cell, d):
        x = info[cell][0][d]
        return (cell, frozenset((d, x)) if isinstance(x, int) else frozenset((d,)))

    def beyond(seg):
        """The segments across each edge of `seg` (None: nothing placed there)."""
        cell, edges = seg
        out = []
        for d in edges:
            n = (cell[0] + STEP[d][0], cell[1] + STEP[d][1])
            out.append(segment(n, (d + 3) % 6) if n in info else None)
        return out

    seen, found = set(), Counter()
    for start in {segment(c, d) for c in info for d in range(6)}:
        if start in seen:
            continue
        comp, stack = [], [start]
        seen.add(start)
        while stack:
            seg = stack.pop()
            comp.append(seg)
            for nxt in beyond(seg):
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if any(n is None for seg in comp for n in beyond(seg)):
            continue  # an open end: not closed
        marks = [(info[c][0][next(iter(e))], info[c][2]) for c, e in comp if len(e) == 1]
        cells = [c for c, _ in comp]
        closer = info[max(cells, key=lambda c: info[c][1])][2]
        heads = tuple(sorted(o for m, o in marks if m == "H"))
        shape = {0: "loop", 1: "dragon", 2: "two_headed"}[len(heads)]
        if marks and not heads:
            shape = "worm"
        length = len(comp)
        if shape == "dragon":
            points = ((heads[0], length),)
        elif shape == "two_headed":
            points = ((heads[0], 2 * length),) if heads[0] == heads[1] else \
                ((heads[0], length), (heads[1], length))
        else:
            points = ((closer, 1),)
        found[(shape, length, tuple(sorted(cells)), heads, closer, points)] += 1
    return found


def key(c):
    return (c.shape, c.length, tuple(sorted(c.cells)), tuple(sorted(c.heads)), c.placer,
            c.awards)


# -- random boards of arbitrary pieces ---------------------------------------------------------


def make_links(order, pairs, marks):
    links = list(marks)
    for i in range(pairs):
        a, b = order[2 * i], order[2 * i + 1]
        links[a], links[b] = b, a
    return tuple(links)


any_links = st.builds(make_links, st.permutations(range(6)), st.integers(0, 3),
                      st.lists(st.sampled_from("HT"), min_size=6, max_size=6))
body_links = st.sampled_from([links_of(n) for n in ("X", "O", "I", "H", "A")])
game_links = st.one_of(body_links, body_links, body_links,
                       st.sampled_from([links_of("start"), *HEAD_PIECES]))


@st.composite
def boards(draw, links=any_links):
    radius = draw(st.sampled_from([2, 3]))
    cells = draw(st.permutations(hexagon(radius)))
    count = draw(st.integers(1, len(cells)))
    return [Placement(c, draw(st.integers(0, 5)), draw(links), draw(st.integers(0, 3)))
            for c in cells[:count]]


@settings(SETTINGS, max_examples=100)
@given(boards(any_links))
def test_d4_incremental_closing_agrees_with_a_full_rescan_any_links(placements):
    board, closed = Board(), Counter()
    for i, p in enumerate(placements):
        board, found = board.place(p.check())
        closed.update(key(c) for c in found)
        assert closed == rescan(placements[: i + 1])


@settings(SETTINGS, max_examples=100)
@given(boards(game_links))
def test_d4_incremental_closing_agrees_with_a_full_rescan_game_pieces(placements):
    board, closed = Board(), Counter()
    for p in placements:
        board, found = board.place(p)
        closed.update(key(c) for c in found)
    assert closed == rescan(placements)


def test_d4_incremental_agrees_with_rescan_after_every_placement_of_random_games():
    shapes = Counter()
    for seed in range(30):
        opts = HexDragonOptions(seats=2 + seed % 3)
        state = GAME.initial_state(opts)
        rng = random.Random(seed)
        state, _ = GAME.apply(state, GAME.chance_action(state, rng))
        while not GAME.is_over(state):
            state, _ = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
            assert Counter(key(c) for c in state.connections) == rescan(state.board.placements)
        shapes.update(c.shape for c in state.connections)
    assert set(shapes) == {"dragon", "two_headed", "worm", "loop"}


def test_oracle_agrees_with_a_hand_worked_loop():
    o = links_of("O")
    placements = [Placement((0, 0), 0, links_of("start")), Placement((1, 0), 1, o, 0),
                  Placement((1, -1), 1, o, 1), Placement((2, -1), 1, o, 0)]
    assert rescan(placements) == Counter(
        {("loop", 3, ((1, -1), (1, 0), (2, -1)), (), 0, ((0, 1),)): 1})


# -- random legal games --------------------------------------------------------------------------

options = st.builds(HexDragonOptions, seats=st.integers(2, 4),
                    heads=st.sampled_from(["random", "varied", "next", "across", "opposing"]))


@SETTINGS
@given(options, st.integers(0, 2**32 - 1))
def test_d5_random_games_fill_the_board_and_replay(opts, seed):
    played = play_game(GAME, GAME.initial_state(opts), random.Random(seed))
    state = played.state
    assert state.end == "full" and set(p.cell for p in state.board.placements) == opts.cells
    assert replay(GAME, opts, played.log) == state
    for message in (*played.log, *played.events):
        assert from_json(to_json(message)) == message
    assert Counter(key(c) for c in state.connections) == rescan(state.board.placements)
    totals = [0] * opts.seats
    for c in state.connections:
        for seat, points in c.awards:
            totals[seat] += points
    assert tuple(totals) == state.scores
    assert state.winners == hd.winners(state.scores, state.connections)[0]
    assert len(state.stars_used) <= opts.seats and all(s is None for s in state.stars)


def illegal_actions(state):
    """Actions the rules must refuse in `state` (a game in play)."""
    seat = state.to_play
    other = (seat + 1) % state.seats
    held = [*state.heads[seat], *state.bodies[seat]]
    not_held = [n for n in ("X", "O", "I", "H", "A", *hd.head_names()) if n not in held]
    free = state.open_cells(seat)
    cell = free[0] if free else (0, 1)
    piece = links_of(held[0]) if held else links_of("A")
    out = [
        hd.Place(other, piece, cell, 0),
        hd.Place(seat, piece, (0, 0), 0),
        hd.Place(seat, piece, (9, 9), 0),
        hd.Place(seat, links_of(not_held[0]), cell, 0),
        hd.Place(seat, piece, cell, 6),
        hd.Place(seat, (1, 2, 0, 4, 5, 3), cell, 0),
        hd.Place(seat, links_of("start"), cell, 0),
        hd.PlaceStar(seat, (0, 0)),
        hd.Shuffle(1),
        hd.Deal((), (), ()),
    ]
    if seat in state.stars_used:
        out.append(hd.PlaceStar(seat, cell))
    for s, star in enumerate(state.stars):
        if star is not None and s != seat and state.reserved_by(star) == s:
            out += [hd.Place(seat, piece, star, 0), hd.PlaceStar(seat, star)]
    return out


@SETTINGS
@given(options, st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_d3_illegal_actions_raise_typed_errors_and_leave_the_state_unchanged(opts, seed, when):
    rng = random.Random(seed)
    state = GAME.initial_state(opts)
    state, _ = GAME.apply(state, GAME.chance_action(state, rng))
    stop = int(when * (len(opts.cells) - 1))
    for _ in range(stop):
        if GAME.is_over(state):
            break
        state, _ = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    before = copy.deepcopy(state)
    if GAME.is_over(state):
        candidates = [hd.PlaceStar(0, (1, 0)), hd.Place(0, links_of("A"), (1, 0), 0)]
    else:
        candidates = illegal_actions(state)
    expected = WrongPhase if GAME.is_over(state) else RulesError
    for action in candidates:
        with pytest.raises(expected) as refused:
            GAME.apply(state, action)
        assert refused.value.code != RulesError.code, action  # a typed subclass
        assert state == before
