"""RULES.md D4: chains across edges and closed connections, on boards worked out by hand.

Directions: 0 E (+1,0), 1 NE (+1,-1), 2 NW (0,-1), 3 W (-1,0), 4 SW (-1,+1), 5 SE (0,+1); a piece
with rotation k turns its edge i to face direction i + k. Every expected value below was derived
on paper from those two rules and D4 (comments give the reasoning), not by running the engine.
"""

from collections import Counter

import pytest

from companion.rules.core import MalformedMessage
from companion.rules.hexdragon import Board, Placement, score_placements
from companion.rules.hexdragon.chains import CellOccupied, Strand, Terminal

START = ("T",) * 6
BODY_X = (3, 4, 5, 0, 1, 2)            # three straights
BODY_O = (1, 0, 3, 2, 5, 4)            # short curves 0-1, 2-3, 4-5
BODY_A = (2, 5, 0, 4, 3, 1)            # long curves 0-2, 1-5, short 3-4
OPPOSING = ("H", 2, 1, "T", 5, 4)  # head 0, tail 3, paths 1-2, 4-5
NEXT = ("H", 2, 1, 4, 3, "T")      # head 0, tail 5, paths 1-2, 3-4


def piece(cell, rotation, links, owner=None):
    return Placement(cell, rotation, links, owner)


def play(*pieces):
    """Place pieces one by one; the connections each placement closed."""
    board, closed = Board(), []
    for p in pieces:
        board, found = board.place(p.check())
        closed.append(found)
    return board, closed


def test_d4_start_piece_alone_has_six_open_tails():
    board, closed = play(piece((0, 0), 0, START))
    assert closed == [()]
    assert len(board.open_ends) == 6
    assert board.open_ends[((0, 0), 1)] == Strand(((0, 0),), Terminal("T", (0, 0), None))


def test_d4_dragon_scores_length_to_the_head_owner_not_the_placer():
    # Seat 0's head at (2,0), rotation 3, looks W at the empty (1,0). Seat 1 then lays an X
    # straight W-E on (1,0): start tail (E edge) -> X -> head. Segments: tail stub, X path,
    # head stub: L = 3, all 3 points to seat 0 although seat 1 closed it.
    _, closed = play(piece((0, 0), 0, START),
                     piece((2, 0), 3, OPPOSING, 0),
                     piece((1, 0), 0, BODY_X, 1))
    assert closed[:2] == [(), ()]
    (c,) = closed[2]
    assert (c.shape, c.length, c.heads, c.placer) == ("dragon", 3, (0,), 1)
    assert c.cells == ((2, 0), (1, 0), (0, 0))  # read from the head
    assert c.awards == ((0, 3),)


def test_d4_shortest_dragon_counts_both_stubs():
    # A head laid straight against a tail of the start piece: head stub + tail stub, L = 2.
    _, closed = play(piece((0, 0), 0, START), piece((1, 0), 3, OPPOSING, 1))
    (c,) = closed[1]
    assert (c.shape, c.length, c.awards) == ("dragon", 2, ((1, 2),))


@pytest.mark.parametrize("owners, awards", [((0, 1), ((0, 3), (1, 3))), ((0, 0), ((0, 6),))])
def test_d4_two_headed_dragon(owners, awards):
    # Row r = -2 touches no start edge. Head (0,-2) rot 0 looks E, X (1,-2) runs W-E, head
    # (2,-2) rot 3 looks W: head stub + X path + head stub, L = 3. L to each owner, 2L to one.
    _, closed = play(piece((0, 0), 0, START),
                     piece((0, -2), 0, OPPOSING, owners[0]),
                     piece((1, -2), 0, BODY_X, 1),
                     piece((2, -2), 3, OPPOSING, owners[1]))
    assert closed[:3] == [(), (), ()]
    (c,) = closed[3]
    assert (c.shape, c.length, c.awards) == ("two_headed", 3, awards)
    assert sorted(c.heads) == sorted(owners)
    assert Counter(c.cells) == Counter({(0, -2): 1, (1, -2): 1, (2, -2): 1})


def test_d4_worm_gives_one_point_to_the_placer():
    # O rot 0 on (1,0) bends W->NW; O rot 0 on (1,-1) bends SE->SW back into the start.
    # Tail (E of start) -> (1,0) -> (1,-1) -> tail (NE of start): L = 4, 1 point to seat 1.
    _, closed = play(piece((0, 0), 0, START),
                     piece((1, 0), 0, BODY_O, 0),
                     piece((1, -1), 0, BODY_O, 1))
    assert closed[1] == ()
    (c,) = closed[2]
    assert (c.shape, c.length, c.heads, c.placer, c.awards) == ("worm", 4, (), 1, ((1, 1),))
    assert Counter(c.cells) == Counter({(0, 0): 2, (1, 0): 1, (1, -1): 1})


def test_d4_loop_of_three_short_curves_around_a_corner():
    # O at rotation 1 bends NE-NW, W-SW and SE-E. On (1,0), (1,-1) and (2,-1), which meet at
    # one corner, the bends facing each other close a cycle of 3 segments: 1 point to the
    # placer of the third piece. The start's tails only lead into open ends.
    board, closed = play(piece((0, 0), 0, START),
                         piece((1, 0), 1, BODY_O, 0),
                         piece((1, -1), 1, BODY_O, 1),
                         piece((2, -1), 1, BODY_O, 0))
    assert closed[:3] == [(), (), ()]
    (c,) = closed[3]
    assert (c.shape, c.length, c.heads, c.awards) == ("loop", 3, (), ((0, 1),))
    assert sorted(c.cells) == [(1, -1), (1, 0), (2, -1)]
    # start tail E -> (1,0) W-SW -> open towards (0,1)
    assert board.open_ends[((1, 0), 4)].far == Terminal("T", (0, 0), None)


def multi_board(head_owner=1):
    """Six pieces; the last, a head piece on (1,0), closes three chains at once.

    (1,-1) O rot 0 bends SE-SW: start NE tail -> open towards (1,0).
    (-1,1) O rot 0 bends E-NE: start SW tail -> open towards (0,1).
    (1,1)  O rot 0 bends NW-W: joins (1,0) and (0,1).
    (0,1)  A rot 1 pairs NE-W, NW-E, SW-SE: start SE tail -> (0,1) -> (1,1) -> open towards
           (1,0); start SW tail -> (-1,1) -> (0,1) -> open towards (1,0).
    (1,0)  head piece NEXT rot 3: head faces W (start E tail), tail faces NW, path SW-SE,
           path E-NE (both open).
    """
    return (piece((0, 0), 0, START),
            piece((1, -1), 0, BODY_O, 1),
            piece((-1, 1), 0, BODY_O, 0),
            piece((1, 1), 0, BODY_O, 1),
            piece((0, 1), 1, BODY_A, 0),
            piece((1, 0), 3, NEXT, head_owner))


def test_d4_one_piece_closes_several_chains_and_a_chain_passes_a_piece_twice():
    _, closed = play(*multi_board(head_owner=1))
    assert closed[:5] == [(), (), (), (), ()]
    found = {(c.shape, c.length): c for c in closed[5]}
    assert set(found) == {("dragon", 2), ("worm", 3), ("worm", 7)}
    # dragon: head stub on (1,0) + the start's E tail stub
    assert found["dragon", 2].awards == ((1, 2),)
    # worm: tail stub on (1,0) -> (1,-1) bend -> start NE tail stub
    assert Counter(found["worm", 3].cells) == Counter({(1, 0): 1, (1, -1): 1, (0, 0): 1})
    # worm: start SW tail, (-1,1), (0,1) NE-W, (1,0) SW-SE, (1,1), (0,1) NW-E, start SE tail
    long_worm = found["worm", 7]
    assert Counter(long_worm.cells) == Counter(
        {(0, 0): 2, (0, 1): 2, (-1, 1): 1, (1, 0): 1, (1, 1): 1})
    assert long_worm.awards == ((1, 1),)
    _, all_closed = score_placements(multi_board(head_owner=1))
    assert sum(p for c in all_closed for _, p in c.awards) == 4


def test_d4_loop_passing_the_closing_piece_twice():
    # A bare board (no start piece) around (0,0). Two U-turns of short curves:
    # (1,0) O rot 0 bends W-NW and (1,-1) O rot 0 bends SE-SW: joins edges E and NE of (0,0);
    # (-1,0) O rot 1 bends E-SE and (-1,1) O rot 1 bends NW-NE: joins edges W and SW of (0,0).
    # An X on (0,0) runs E-W and NE-SW: E-W, U-turn, SW-NE, U-turn, back to E. One loop of
    # 6 segments passing (0,0) twice; its third straight (NW-SE) stays open.
    _, closed = play(piece((1, 0), 0, BODY_O, 0),
                     piece((1, -1), 0, BODY_O, 0),
                     piece((-1, 0), 1, BODY_O, 0),
                     piece((-1, 1), 1, BODY_O, 0),
                     piece((0, 0), 0, BODY_X, 1))
    assert closed[:4] == [(), (), (), ()]
    (c,) = closed[4]
    assert (c.shape, c.length, c.awards) == ("loop", 6, ((1, 1),))
    assert Counter(c.cells) == Counter(
        {(0, 0): 2, (1, 0): 1, (1, -1): 1, (-1, 0): 1, (-1, 1): 1})


def test_d4_open_chains_score_nothing():
    # a head looking at an empty cell, a body piece away from everything
    _, closed = play(piece((0, 0), 0, START), piece((2, 0), 0, OPPOSING, 0),
                     piece((-2, 0), 0, BODY_A, 1))
    assert closed == [(), (), ()]


def test_d4_occupied_cell_and_missing_head_owner_are_refused():
    board, _ = play(piece((0, 0), 0, START))
    with pytest.raises(CellOccupied):
        board.place(piece((0, 0), 0, BODY_X, 0))
    with pytest.raises(MalformedMessage, match="needs an owner"):
        piece((1, 0), 0, OPPOSING, None).check()
    with pytest.raises(MalformedMessage, match="rotation"):
        piece((1, 0), 6, BODY_X, 0).check()


def test_d4_detection_is_incremental_untouched_chains_are_not_rebuilt():
    # The multi board minus its last piece, then A rot 0 on (-2,1): its E end (path E-NW) meets
    # the W end of (-1,1)'s W-NW bend, its only placed neighbour. That chain gets a new far
    # end; every other open chain keeps its very object (nothing else was looked at).
    board, _ = play(*multi_board()[:5])
    new, closed = board.place(piece((-2, 1), 0, BODY_A, 0))
    assert closed == ()
    joined, extended = ((-1, 1), 3), ((-1, 1), 2)
    assert joined not in new.open_ends
    assert new.open_ends[extended] == Strand(((-1, 1), (-2, 1)), ((-2, 1), 2))
    assert new.open_ends[((-2, 1), 2)] == Strand(((-2, 1), (-1, 1)), extended)
    for port, strand in board.open_ends.items():
        if port not in (joined, extended):
            assert new.open_ends[port] is strand
    assert len(new.open_ends) == len(board.open_ends) - 1 + 5
