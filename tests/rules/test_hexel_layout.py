"""RULES.md H2 (matching, counts, Hox'la) and H3 (the opening line), on hand-drawn layouts."""

import itertools

import pytest

from companion.rules.hexel import Layout, count_name, line_problems, orient, propose_line
from companion.rules.hexel.game import _draw_line
from companion.rules.hexel.layout import CellDetached, CellOccupied, EdgeMismatch

from .hexel_positions import layout

# A: all red at (0,0). B: BBRRBB at (1,0) rotation 0 shows E=B NE=B NW=R W=R SW=B SE=B,
# so its W edge (R) matches A's E edge (R), and its NW edge is red: the cell (1,-1), touching
# A's NE edge (R) and B's NW edge (R) across an A-B edge that is also R, is a Hox'la threat.
A = ("RRRRRR", (0, 0), 0)
B = ("BBRRBB", (1, 0), 0)


def test_H2_counts_are_named_hexba_to_hexven():
    assert [count_name(n) for n in range(1, 7)] == [
        "Hexba", "Hexel", "Hexla", "Hexven", "Hexven", "Hexven"]


def test_H2_a_matching_placement_reports_its_count():
    lay = layout(A, B)
    # (2,0) touches only B (its W edge faces B's E edge = B)
    assert lay.check("BBBBBB", (2, 0), 0) == 1
    # (0,1) touches A (NW edge, A shows R) and B (NE edge, B's SW shows B):
    # RBBBBB at rotation 2 shows E=B NE=B NW=R W=B SW=B SE=B.
    assert orient("RBBBBB", 2) == "BBRBBB"
    assert lay.check("RBBBBB", (0, 1), 2) == 2


def test_H2_every_touching_edge_must_match():
    lay = layout(A, B)
    with pytest.raises(EdgeMismatch, match="NE edge shows R against B"):
        lay.check("RRRRRR", (0, 1), 0)  # NW matches A but NE meets B's blue


def test_H2_occupied_and_detached_cells_are_refused():
    lay = layout(A, B)
    with pytest.raises(CellOccupied):
        lay.check("RRRRRR", (0, 0), 0)
    with pytest.raises(CellDetached):
        lay.check("RRRRRR", (5, 5), 0)


def test_H2_hoxla_when_the_six_symbols_at_a_vertex_are_one_kind():
    lay = layout(A, B)
    # At (1,-1): SW faces A (R), SE faces B's NW (R). RRBBBB at rotation 4 shows SW=R, SE=R.
    assert orient("RRBBBB", 4) == "BBBBRR"
    assert lay.check("RRBBBB", (1, -1), 4) == 2
    assert lay.completes_hoxla((1, -1), "BBBBRR")
    assert lay.hoxla_threats() == [(1, -1)]


def test_H2_a_matched_triangle_of_mixed_symbols_is_no_hoxla():
    lay = layout(A, B)
    # At (0,1) the triangle A, B, new card meets R (A-B), R (A-new) and B (B-new): matched only.
    assert not lay.completes_hoxla((0, 1), orient("RBBBBB", 2))


def test_H2_a_matched_triangle_with_two_kinds_at_the_vertex_is_no_hoxla():
    # A'=B6 at (0,0); RBBBBB at (1,0) shows E=R NE=B NW=B W=B: the all-blue vertex at (1,-1)
    # is open, and a blue card there completes it.
    lay = layout(("BBBBBB", (0, 0), 0), ("RBBBBB", (1, 0), 0))
    assert lay.check("BBBBBB", (1, -1), 0) == 2
    assert lay.completes_hoxla((1, -1), "BBBBBB")
    # BRBBBB at rotation 1 shows E=B NE=B NW=R W=B SW=B SE=B: its NW edge is red, so a legal
    # card at (1,-1) shows SW=B, SE=R: the vertex carries blue and red, no Hox'la.
    assert orient("BRBBBB", 1) == "BBRBBB"
    lay2 = layout(("BBBBBB", (0, 0), 0), ("BRBBBB", (1, 0), 1))
    assert lay2.check("BBBBBR", (1, -1), 0) == 2
    assert not lay2.completes_hoxla((1, -1), "BBBBBR")
    assert lay2.hoxla_threats() == [] or (1, -1) not in lay2.hoxla_threats()


def _brute_force(lay: Layout, cards):
    out = set()
    for card in cards:
        seen = set()
        for cell in {(q, r) for q in range(-4, 7) for r in range(-4, 5)}:
            for k in range(6):
                o = orient(card, k)
                if (card, cell, o) in seen:
                    continue
                try:
                    lay.check(card, cell, k)
                except (EdgeMismatch, CellOccupied, CellDetached):
                    continue
                seen.add((card, cell, o))
                out.add((card, cell, o))
    return out


def test_H2_enumeration_equals_brute_force_on_a_hand_layout():
    lay = layout(A, B, ("BRRRRB", (0, 1), 0), ("VVBBVV", (2, 0), 0))
    hand = ["RRRRRR", "RBBBBB", "BBBVVV", "BBBBBB"]
    fast = {(c, cell, orient(c, k)) for c, cell, k, _ in lay.placements_for(hand)}
    assert fast == _brute_force(lay, hand)
    assert fast  # the layout admits placements


# ---- H3 ------------------------------------------------------------------------------------

def test_H3_line_must_match_both_shared_edges():
    problems = line_problems(("RRRRRR", "BBBBBB", "BBBBBB"), (0, 0, 0))
    assert problems and "do not match" in problems[0]


def test_H3_line_must_not_offer_a_first_turn_hoxla():
    # A=R6, B=BBRRBB rot 0 (W=R, NW=R): the cell (1,-1) sees R, R across an R edge.
    problems = line_problems(("RRRRRR", "BBRRBB", "BBBBBB"), (0, 0, 3))
    assert any("Hox'la" in p and "(1, -1)" in p for p in problems)


def test_H3_valid_line_and_proposer():
    # R6 then BBBBBR (one red edge with blue both sides) then BRRRRR (one blue edge, red around)
    cards = ("RRRRRR", "BBBBBR", "BRRRRR")
    ks = propose_line(cards)
    assert ks is not None and line_problems(cards, ks) == []
    # worked by hand: BBBBBR needs its R (index 5) to face W: (3 - k) % 6 == 5 -> k = 4;
    # then its E edge shows index 2 (B); BRRRRR needs its B (index 0) facing W: k = 3.
    assert ks[1:] == (4, 3)


def test_H3_no_line_exists_for_two_same_single_kind_cards():
    assert propose_line(("RRRRRR", "RRRRRR", "RRRRRR")) is None
    for ks in itertools.product(range(6), repeat=3):
        assert line_problems(("RRRRRR", "RRRRRR", "BBBBBB"), ks)


def test_H3_failed_lines_send_the_third_card_then_the_second_to_the_bottom():
    # R6 + BBBBBR works; no third card among B6, V6 works; BRRRRR does.
    pile = ["RRRRRR", "BBBBBR", "BBBBBB", "VVVVVV", "BRRRRR", "BBBVVV"]
    line, ks, returned = _draw_line(pile)
    assert line == ("RRRRRR", "BBBBBR", "BRRRRR")
    assert returned == 2
    assert pile == ["BBBVVV", "BBBBBB", "VVVVVV"]
    # the second card is replaced once no third card can work with it
    pile = ["RRRRRR", "RRRRRR", "BBBBBB", "BBBBBR", "BRRRRR"]
    line, ks, returned = _draw_line(pile)
    assert line[0] == "RRRRRR" and line[1] != "RRRRRR"
    assert line_problems(line, ks) == []
