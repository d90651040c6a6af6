"""The camera lattice differs from the game's by a rotation (multiple of 60°) and a translation;
symbols rotate with it (RULES.md H1: symbol on direction d is symbols[(d - k) % 6])."""

import random

import pytest

from companion.referee.align import Alignment, align, deck_card, diff, line_alignments
from companion.rules.hexel import GAME, HexelOptions, orient, standard_deck
from companion.rules.hexel.game import Hedge, Place, Shuffle
from companion.rules.hexgrid import DIRECTIONS


def grown_layout(seed: int, placements: int):
    """A layout from a real tracked game after a number of placements."""
    rng = random.Random(seed)
    state, _ = GAME.apply(GAME.initial_state(HexelOptions(seats=2)), Shuffle(seed))
    while len(state.layout) < 3 + placements and state.phase != "over":
        legal = GAME.legal_actions(state)
        hedges = [a for a in legal if isinstance(a, Hedge) and a.multiple == 1]
        places = [a for a in legal if isinstance(a, Place)]
        state, _ = GAME.apply(state, (hedges or places or legal)[0] if hedges else
                              rng.choice(places or legal))
    return state


@pytest.mark.parametrize("k", range(6))
def test_alignment_inverts_and_rotates_symbols_with_cells(k):
    a = Alignment(k, (2, -3))
    for cell in [(0, 0), (1, -2), (-3, 1)]:
        assert a.cell(a.camera_cell(cell)) == cell
    assert a.symbols(a.camera_symbols("RRBVBV")) == "RRBVBV"
    # a card's edge facing camera direction d faces game direction d + k
    cam = "RBBBBB"  # the R edge faces camera-east
    assert a.symbols(cam)[k] == "R"
    assert a.cell(DIRECTIONS[0]) == (DIRECTIONS[k][0] + 2, DIRECTIONS[k][1] - 3)


@pytest.mark.parametrize("k", range(6))
def test_align_recovers_the_camera_transform_and_the_one_new_card(k):
    state = grown_layout(k, 8)
    committed = {p.cell: p.oriented for p in state.layout.placements}
    camera = Alignment(k, (k - 2, 5 - k))
    new_cell = next(c for c in state.layout.frontier())
    table = [*committed.items(), (new_cell, "RRRRRR")]
    seen = [(camera.camera_cell(c), camera.camera_symbols(s)) for c, s in table]
    votes, best = align(committed, seen)[0]
    assert votes == len(committed)
    d = diff(committed, seen, best)
    assert d.missing == () and d.changed == ()
    assert [(c, s) for c, s, _ in d.new] == [(new_cell, "RRRRRR")]


def test_diff_reports_moved_and_removed_cards():
    state = grown_layout(3, 6)
    committed = {p.cell: p.oriented for p in state.layout.placements}
    cells = list(committed)
    table = dict(committed)
    del table[cells[-1]]                      # removed
    table[cells[-2]] = orient(table[cells[-2]], 1)  # turned in place
    seen = list(table.items())
    _, best = align(committed, seen)[0]
    d = diff(committed, seen, best)
    assert d.missing == (cells[-1],)
    if orient(committed[cells[-2]], 1) != committed[cells[-2]]:
        assert [c for c, _, _ in d.changed] == [cells[-2]]


def test_deck_card_finds_card_and_rotation_and_rejects_mirror_images():
    deck = standard_deck()
    for card in deck:
        for k in range(6):
            found = deck_card(orient(card, k), deck)
            assert found is not None and found[0] == card
            assert orient(card, found[1]) == orient(card, k)
    chiral = [c for c in deck if all(orient(c, k) != c[::-1] for k in range(6))]
    assert chiral, "the standard deck holds mirror-image pairs (H1)"
    assert deck_card(chiral[0][::-1], deck) is None


def test_line_alignments_accept_straight_rows_only():
    for d in range(3):
        cells = [(0, 0), DIRECTIONS[d], (2 * DIRECTIONS[d][0], 2 * DIRECTIONS[d][1])]
        found = line_alignments(cells)
        assert len(found) == 2  # either end can be the line's first card
        for a in found:
            assert sorted(a.cell(c) for c in cells) == [(0, 0), (1, 0), (2, 0)]
    assert line_alignments([(0, 0), (1, 0), (1, 1)]) == []
