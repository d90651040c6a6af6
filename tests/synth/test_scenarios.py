"""Scenarios: tables laid by legal play, rendered with truth that matches the layout."""

from __future__ import annotations

import pytest

from companion.rules.hexel import EDITIONS, Layout, Placement, standard_deck
from companion.scenarios import hexel_frames, hexel_layout, hexel_scene


@pytest.mark.parametrize(("seed", "edition"), [(1, "holodex"), (2, "web"), (3, "holodex")])
def test_layout_is_legal_play(seed, edition):
    cards = hexel_layout(seed, 20, edition)
    assert len(cards) == 20
    deck = standard_deck(EDITIONS[edition].symbols)
    assert len({c.symbols for c in cards}) == 20 and all(c.symbols in deck for c in cards)
    assert [c.cell for c in cards[:3]] == [(0, 0), (1, 0), (2, 0)]  # the opening line (H3)
    layout = Layout(tuple(Placement(c.symbols, c.cell, c.rotation) for c in cards[:3]))
    for c in cards[3:]:
        assert layout.check(c.symbols, c.cell, c.rotation) >= 1  # raises if illegal
        layout = layout.with_placement(Placement(c.symbols, c.cell, c.rotation))


def test_layout_is_deterministic_and_bounded():
    assert hexel_layout(7, 12) == hexel_layout(7, 12)
    assert hexel_layout(7, 12) != hexel_layout(8, 12)
    with pytest.raises(ValueError, match="36"):
        hexel_layout(1, 37)
    with pytest.raises(ValueError, match="edition"):
        hexel_layout(1, 5, "poker")


def test_scene_truth_matches_layout():
    img, truth = hexel_scene(4, "easy", n_cards=15, edition="web")
    cards = hexel_layout(4, 15, "web")
    assert img.shape == (720, 1280, 3)
    assert [(c.cell, c.symbols, c.rotation) for c in truth.cards] == \
        [(c.cell, c.symbols, c.rotation) for c in cards]
    assert all(c.visible == 1.0 for c in truth.cards)  # easy: no hands, all in view
    assert truth.edition == "web" and truth.params.band == "easy"


def test_frames_lay_a_card_under_a_passing_hand():
    frames = list(hexel_frames(5, "topdown", n_frames=5, n_cards=6))
    assert len(frames) == 5
    counts = [len(t.cards) for _, t in frames]
    assert counts == [5, 5, 6, 6, 6]
    # one camera for the whole clip
    h0 = frames[0][1].homography
    assert all(abs(t.homography - h0).max() < 1e-9 for _, t in frames)
    # the hand is over the new card while laying it, and gone by the end
    new = frames[2][1].cards[-1]
    assert new.visible < 0.9
    assert frames[-1][1].cards[-1].visible > frames[2][1].cards[-1].visible
