"""RULES.md D2, D3, D5: HexDragon setup, turns, star tokens, skips, points, end and tie-break."""

import dataclasses
import random
from collections import Counter

import pytest

from companion.rules.core import MalformedMessage, WrongPhase, WrongSeat, from_json, to_json
from companion.rules.hexdragon import GAME, HexDragonOptions, links_of, oriented, winners
from companion.rules.hexdragon import game as hd
from companion.rules.hexdragon.chains import Connection, Placement, awards
from companion.simulate import play_game

NEXT, OPPOSING, ACROSS = "H2143T", "H21T54", "H4T513"
HEADS = (NEXT, OPPOSING, ACROSS)
BAG_ORDER = ("I", "H", "A", "O", "X", "I", "H", "A", "O", "I", "H", "A", "I", "H")


def deal(bodies=(("O", "A", "A"), ("X", "A", "H")), bag=BAG_ORDER, **options):
    """A two-seat game dealt by hand: both seats hold the three heads above."""
    opts = HexDragonOptions(**options)
    state = GAME.initial_state(opts)
    state, events = GAME.apply(state, hd.Deal((HEADS,) * opts.seats, bodies, bag))
    return state, events


def place(state, seat, name, cell, rotation):
    return GAME.apply(state, hd.Place(seat, links_of(name), cell, rotation))


# -- D2 ------------------------------------------------------------------------------------


def test_d2_start_piece_and_board_sizes():
    state = GAME.initial_state(HexDragonOptions())
    assert [p.cell for p in state.board.placements] == [(0, 0)]
    assert state.board.placements[0].links == ("T",) * 6
    assert len(state.options.cells) == 19
    assert len(HexDragonOptions(seats=3).cells) == 37
    assert len(HexDragonOptions(seats=4).cells) == 37
    assert GAME.legal_actions(state) == []
    assert isinstance(GAME.chance_action(state, random.Random(1)), hd.Shuffle)


@pytest.mark.parametrize("kwargs, match", [
    ({"seats": 1}, "seats"),
    ({"seats": 5}, "seats"),
    ({"radius": 4}, "radius"),
    ({"radius": 3}, "bags=2"),
    ({"bags": 3}, "bags"),
    ({"heads": "easy"}, "heads"),
    ({"first": 2}, "first"),
    ({"names": ("Ana",)}, "names"),
])
def test_d2_bad_options_are_refused(kwargs, match):
    with pytest.raises(MalformedMessage, match=match):
        HexDragonOptions(**kwargs)


def test_d2_options_round_trip_through_json():
    opts = HexDragonOptions(seats=3, heads="varied", names=("Ana", "Ben", "Cy"), first=2)
    assert from_json(to_json(opts), HexDragonOptions) == opts
    with pytest.raises(MalformedMessage, match="seats"):
        from_json('{"seats": 9}', HexDragonOptions)


def test_d2_options_that_can_fill_the_board():
    assert HexDragonOptions(radius=3, bags=2).bag_count == 2
    assert HexDragonOptions(seats=4, radius=2).board_radius == 2


@pytest.mark.parametrize("seats, bag", [(2, 14), (3, 31), (4, 28)])
def test_d2_shuffle_deals_three_heads_and_three_bodies(seats, bag):
    opts = HexDragonOptions(seats=seats)
    state, events = GAME.apply(GAME.initial_state(opts), hd.Shuffle(7))
    assert state.phase == "play" and state.to_play == 0
    assert all(len(set(h)) == 3 for h in state.heads)
    assert all(len(b) == 3 for b in state.bodies)
    assert len(state.bag) == bag
    assert Counter(b for hand in state.bodies for b in hand) + Counter(state.bag) == \
        opts.bag_contents()
    assert events == (hd.Dealt((3,) * seats, (3,) * seats, bag),)
    again, _ = GAME.apply(GAME.initial_state(opts), hd.Shuffle(7))
    assert again == state


@pytest.mark.parametrize("mode", ["varied", "next", "across", "opposing"])
def test_d2_head_options(mode):
    state, _ = GAME.apply(GAME.initial_state(HexDragonOptions(seats=4, heads=mode)),
                          hd.Shuffle(3))
    for heads in state.heads:
        positions = sorted(hd.tail_position(h) for h in heads)
        if mode == "varied":
            assert positions == ["across", "next", "opposing"]
        else:
            assert positions == [mode] * 3


@pytest.mark.parametrize("heads, bodies, bag, match", [
    ((HEADS,), (("O", "A", "A"), ("X", "A", "H")), BAG_ORDER, "each of the 2 seats"),
    (((NEXT, NEXT, ACROSS), HEADS), (("O", "A", "A"), ("X", "A", "H")), BAG_ORDER,
     "3 different"),
    ((HEADS, HEADS), (("O", "A"), ("X", "A", "H", "A")), BAG_ORDER, "3 body pieces"),
    ((HEADS, HEADS), (("O", "A", "A"), ("X", "A", "H")), BAG_ORDER[1:], "exactly"),
    ((HEADS, HEADS), (("O", "A", "Z"), ("X", "A", "H")), BAG_ORDER, "not body types"),
    ((HEADS, ("A", "O", "X")), (("O", "A", "A"), ("X", "A", "H")), BAG_ORDER, "head piece"),
])
def test_d2_a_deal_must_match_the_pieces(heads, bodies, bag, match):
    state = GAME.initial_state(HexDragonOptions())
    with pytest.raises(MalformedMessage, match=match):
        GAME.apply(state, hd.Deal(heads, bodies, bag))


def test_d2_varied_heads_are_checked_in_a_deal():
    state = GAME.initial_state(HexDragonOptions(heads="varied"))
    two_next = ("H2143T", "HT3254", OPPOSING)
    with pytest.raises(MalformedMessage, match="one next"):
        GAME.apply(state, hd.Deal((two_next, HEADS), (("O", "A", "A"), ("X", "A", "H")),
                                  BAG_ORDER))


# -- D3 ------------------------------------------------------------------------------------


def test_d3_body_placement_draws_the_top_of_the_bag_and_passes_the_turn():
    state, _ = deal()
    assert state.to_play == 0
    with pytest.raises(WrongSeat):
        place(state, 1, "X", (1, 0), 0)
    new, events = place(state, 0, "O", (-2, 0), 0)
    assert events == (hd.Placed(0, "O", (-2, 0), 0), hd.Drew(0, 13))
    assert new.bodies[0] == ("A", "A", "I")
    assert new.bag == BAG_ORDER[1:]
    assert new.to_play == 1 and new.turns == 1


def test_d3_head_placement_draws_nothing():
    state, _ = deal()
    new, events = place(state, 0, OPPOSING, (-2, 2), 0)
    assert events == (hd.Placed(0, OPPOSING, (-2, 2), 0),)
    assert new.heads[0] == (NEXT, ACROSS) and new.bag == state.bag


def test_d3_no_draw_from_an_empty_bag():
    state, _ = deal()
    state = dataclasses.replace(state, bag=())
    new, events = place(state, 0, "A", (0, 2), 0)
    assert new.bodies[0] == ("O", "A")
    assert not any(isinstance(e, hd.Drew) for e in events)


def test_d3_links_may_be_written_in_any_frame():
    # A seen turned by 2 and laid with rotation 1 is A laid with rotation 3 (D1)
    state, _ = deal()
    shown = oriented(links_of("A"), 2)
    new, events = GAME.apply(state, hd.Place(0, shown, (0, 2), 1))
    assert events[0] == hd.Placed(0, "A", (0, 2), 3)
    assert new.board.at((0, 2)).facing == oriented(links_of("A"), 3)


def test_d3_dragon_closed_by_another_seat_scores_for_the_head_owner():
    # as in test_hexdragon_chains: head (2,0) rot 3, then X W-E on (1,0): dragon L = 3
    state, _ = deal()
    state, _ = place(state, 0, OPPOSING, (2, 0), 3)
    state, events = place(state, 1, "X", (1, 0), 0)
    (connected,) = [e for e in events if isinstance(e, hd.Connected)]
    assert connected.connection.shape == "dragon" and connected.connection.length == 3
    assert state.scores == (3, 0)
    assert connected.announce(["Ana", "Ben"]) == "Dragon, length 3: Ana scores 3"


@pytest.mark.parametrize("action, error", [
    (hd.Place(0, links_of("I"), (1, 0), 0), hd.PieceNotInHand),
    (hd.Place(0, links_of("start"), (1, 0), 0), hd.PieceNotInHand),
    (hd.Place(0, links_of("X"), (0, 0), 0), hd.CellOccupied),
    (hd.Place(0, links_of("A"), (3, 0), 0), hd.OffBoard),
    (hd.Place(0, links_of("A"), (1, 0), 6), MalformedMessage),
    (hd.Place(0, ("H", "H", 3, 2, 5, 4), (1, 0), 0), MalformedMessage),
    (hd.Place(0, links_of("A"), (1, 0, 2), 0), MalformedMessage),
    (hd.Place(2, links_of("A"), (1, 0), 0), MalformedMessage),
    (hd.PlaceStar(1, (1, 0)), WrongSeat),
    (hd.Shuffle(3), WrongPhase),
])
def test_d3_refused_turns_raise_typed_errors_and_change_nothing(action, error):
    state, _ = deal()
    before = dataclasses.replace(state)
    with pytest.raises(error):
        GAME.apply(state, action)
    assert state == before


def test_d3_start_piece_is_nobodys_to_place():
    state, _ = deal()
    with pytest.raises(hd.PieceNotInHand, match="start piece"):
        GAME.apply(state, hd.Place(0, links_of("start"), (1, 0), 0))


def test_d3_star_token_reserves_a_cell_for_its_owner_once_per_game():
    state, _ = deal()
    state, events = GAME.apply(state, hd.PlaceStar(0, (1, 0)))
    assert events == (hd.StarPlaced(0, (1, 0)),)
    assert state.to_play == 1 and state.reserved_by((1, 0)) == 0
    # seat 1 may neither place a piece nor its own star there
    with pytest.raises(hd.CellReserved):
        place(state, 1, "X", (1, 0), 0)
    with pytest.raises(hd.CellReserved):
        GAME.apply(state, hd.PlaceStar(1, (1, 0)))
    assert all(a.cell != (1, 0) for a in GAME.legal_actions(state))
    state, _ = place(state, 1, "X", (-1, 0), 0)
    # seat 0 has used its star
    with pytest.raises(hd.StarUsed):
        GAME.apply(state, hd.PlaceStar(0, (2, 0)))
    assert not any(isinstance(a, hd.PlaceStar) for a in GAME.legal_actions(state))
    # the owner may fill its cell; the reservation then ends
    state, events = place(state, 0, "A", (1, 0), 0)
    assert events[0] == hd.Placed(0, "A", (1, 0), 0)
    assert state.stars == (None, None) and state.stars_used == frozenset({0})


def test_d3_a_seat_with_no_possible_turn_skips():
    state, _ = deal()
    # seat 1 has placed everything and used its star
    state = dataclasses.replace(state, heads=(HEADS, ()), bodies=(("O", "A", "A"), ()),
                                stars_used=frozenset({1}))
    new, events = place(state, 0, "O", (-2, 0), 0)
    assert events[-1] == hd.Skipped(1)
    assert new.to_play == 0 and new.skips == 1
    assert hd.Skipped(1).announce(["Ana", "Ben"]) == "Ben cannot move and skips"


def test_d3_all_free_cells_reserved_by_another_seat_means_a_skip():
    # every cell but (1,0) and (2,0) already holds an X; seat 0's star lies on (2,0)
    state, _ = deal()
    board = state.board
    for cell in state.empty_cells():
        if cell not in ((1, 0), (2, 0)):
            board, _ = board.place(Placement(cell, 0, links_of("X"), 0))
    state = dataclasses.replace(state, board=board, stars=((2, 0), None),
                                stars_used=frozenset({0, 1}))
    state, events = place(state, 0, "A", (1, 0), 0)
    assert hd.Skipped(1) in events and state.to_play == 0
    with pytest.raises(hd.CellReserved):
        GAME.apply(dataclasses.replace(state, to_play=1), hd.Place(1, links_of("X"), (2, 0), 0))
    state, events = place(state, 0, "A", (2, 0), 0)
    assert isinstance(events[-1], hd.GameOver) and state.end == "full"


def test_d3_a_star_does_not_bind_while_its_owner_holds_no_piece():
    state, _ = deal()
    state = dataclasses.replace(state, heads=((), HEADS), bodies=((), ("X", "A", "H")),
                                stars=((1, 0), None), stars_used=frozenset({0}), to_play=1)
    assert state.reserved_by((1, 0)) is None
    new, _ = place(state, 1, "X", (1, 0), 0)
    assert new.board.at((1, 0)).owner == 1 and new.stars == (None, None)


# -- D5 ------------------------------------------------------------------------------------


def test_d5_game_ends_when_every_cell_holds_a_piece():
    played = play_game(GAME, GAME.initial_state(HexDragonOptions()), random.Random(11))
    state = played.state
    assert GAME.is_over(state) and state.end == "full"
    assert len(state.board) == 19 and not state.empty_cells()
    over = played.events[-1]
    assert isinstance(over, hd.GameOver)
    assert over.scores == state.scores and over.winners == state.winners
    assert over.winners == winners(state.scores, state.connections)[0]
    assert GAME.legal_actions(state) == []
    with pytest.raises(WrongPhase):
        GAME.apply(state, hd.PlaceStar(0, (1, 0)))


def conn(shape, length, seats):
    """A connection by hand: `seats` are the head owners (dragon/two-headed) or the placer."""
    heads = tuple(seats) if shape in ("dragon", "two_headed") else ()
    placer = seats[0]
    return Connection(shape, length, ((0, 0),) * length, heads, placer,
                      awards(shape, length, heads, placer))


def test_d5_tie_break_longest_connection_first():
    # 6 points each: seat 0 dragon 5 + worm 3 -> [5, 3]; seat 1 dragons 3 + 3 -> [3, 3]
    cs = [conn("dragon", 5, [0]), conn("worm", 3, [0]), conn("dragon", 3, [1]),
          conn("dragon", 3, [1])]
    assert winners([6, 6], cs) == ((0,), True)


def test_d5_tie_break_second_longest_then_a_longer_list():
    # seat 0: dragon 4 + worm 3 + worm 2 = 6 -> [4, 3, 2]; seat 1: dragon 4 + dragon 2 -> [4, 2]
    cs = [conn("dragon", 4, [0]), conn("worm", 3, [0]), conn("worm", 2, [0]),
          conn("dragon", 4, [1]), conn("dragon", 2, [1])]
    assert winners([6, 6], cs) == ((0,), True)
    # seat 0: dragons 4 + 2 -> [4, 2]; seat 1: dragon 4 + two worms of 2 -> [4, 2, 2]
    cs = [conn("dragon", 4, [0]), conn("dragon", 2, [0]),
          conn("dragon", 4, [1]), conn("worm", 2, [1]), conn("worm", 2, [1])]
    assert winners([6, 6], cs) == ((1,), True)


def test_d5_two_headed_dragon_counts_once_per_seat_and_full_ties_share():
    # seat 0 owns both heads of a 3-long two-headed dragon (6 points, lengths [3]);
    # seat 1 has two 3-long dragons (6 points, [3, 3]) and wins the tie-break
    cs = [conn("two_headed", 3, [0, 0]), conn("dragon", 3, [1]), conn("dragon", 3, [1])]
    assert winners([6, 6], cs) == ((1,), True)
    # a shared two-headed dragon is in both lists: a full tie is a shared win
    cs = [conn("two_headed", 3, [0, 1])]
    assert winners([3, 3], cs) == ((0, 1), False)
    # no tie, no tie-break
    assert winners([4, 3, 1], [conn("dragon", 4, [0])]) == ((0,), False)
