"""RULES.md H1: Hex'el cards, rotation, and the standard 36-card deck."""

import itertools
import json
from pathlib import Path

from companion.rules.hexel import EDITIONS, orient, standard_deck
from companion.rules.hexel.cards import bracelet_key, load_deck, rotations

ROOT = Path(__file__).resolve().parents[2]


def _dihedral_images(word: str) -> set[str]:
    """All rotations and reflections of a 6-word, written out independently of the engine."""
    out = set()
    for i in range(6):
        rot = word[i:] + word[:i]
        out.add(rot)
        out.add(rot[::-1])
    return out


def _classes(alphabet: str) -> list[set[str]]:
    words = ["".join(w) for w in itertools.product(alphabet, repeat=6) if len(set(w)) <= 2]
    classes: list[set[str]] = []
    seen: set[str] = set()
    for w in words:
        if w not in seen:
            cls = _dihedral_images(w)
            seen |= cls
            classes.append(cls)
    return classes


def test_H1_deck_is_exactly_the_36_one_or_two_kind_bracelets():
    classes = _classes("RBV")
    assert len(classes) == 36  # 3 single-kind + 3 pairs x 11
    deck = standard_deck(("R", "B", "V"))
    assert len(deck) == 36 and len(set(deck)) == 36
    for cls in classes:
        assert sum(card in cls for card in deck) == 1


def test_H1_three_single_kind_cards():
    deck = standard_deck(("R", "B", "V"))
    assert [c for c in deck if len(set(c)) == 1] == ["BBBBBB", "RRRRRR", "VVVVVV"]


def test_H1_mirror_pair_keeps_the_member_with_the_smaller_rotation_minimal_string():
    # BBRBRR and BBRRBR are mirror images but not rotations of each other (worked by hand):
    # rotation-minimal strings are BBRBRR and BBRRBR, and BBRBRR < BBRRBR.
    deck = standard_deck(("R", "B", "V"))
    assert "BBRBRR" in deck and "BBRRBR" not in deck
    assert "BBRRBR"[::-1] in {"BBRBRR"[i:] + "BBRBRR"[:i] for i in range(6)}
    assert bracelet_key("RBRRBB") == "BBRBRR"


def test_H1_shipped_deck_file_matches_the_rules():
    data = json.loads((ROOT / "models" / "hexel-deck-36.json").read_text())
    assert tuple(data["cards"]) == standard_deck(("R", "B", "V"))
    assert load_deck(ROOT / "models" / "hexel-deck-36.json") == standard_deck(("R", "B", "V"))


def test_H1_web_edition_uses_yellow_triangles_in_place_of_void_rings():
    web = standard_deck(EDITIONS["web"].symbols)
    assert len(web) == 36 and "YYYYYY" in web and not any("V" in c for c in web)
    assert EDITIONS["holodex"].insurance_to == "hand" and EDITIONS["web"].insurance_to == "stock"


def test_H1_rotation_k_puts_symbol_d_minus_k_on_edge_d():
    # RRRBBB at rotation 1: edge E (d=0) shows symbols[5] = B, edge NE shows symbols[0] = R ...
    assert orient("RRRBBB", 1) == "BRRRBB"
    assert orient("RRRBBB", 0) == "RRRBBB"
    assert orient("RBVRBV", 3) == "RBVRBV"
    assert orient("RBBBBB", 3) == "BBBRBB"


def test_H1_symmetric_cards_have_fewer_distinct_orientations():
    assert rotations("RRRRRR") == (0,)
    assert rotations("RBRBRB") == (0, 1)
    assert rotations("RBBRBB") == (0, 1, 2)
    assert len(rotations("RRRBBB")) == 6


def _mirror_pair(x: str, y: str) -> tuple[str, str]:
    """For letters x < y the two-kind chiral pair, worked by hand: xxyxyy and its mirror
    xxyyxy (3 of each kind; neither is a rotation of the other). xxyxyy is the smaller."""
    return x + x + y + x + y + y, x + x + y + y + x + y


def test_H1_every_mirror_pair_keeps_the_smaller_member_in_both_editions():
    for edition in ("holodex", "web"):
        letters = sorted(EDITIONS[edition].symbols)
        deck = standard_deck(EDITIONS[edition].symbols)
        for x, y in itertools.combinations(letters, 2):
            keep, drop = _mirror_pair(x, y)
            assert keep in deck and drop not in deck, (edition, keep, drop)


def test_H1_a_deck_of_6_tuples_plays_like_a_deck_of_strings():
    # RULES.md H1: the engine accepts any deck (a list of 6-tuples). Such a deck must be read as
    # the same cards, so a card in hand can be placed by its letters.
    from companion.rules.hexel import GAME, HexelOptions
    from companion.rules.hexel import game as hx

    cards = ["RRRRRR", "BBBBBR", "BRRRRR", "RRRRRB", "RRRRBB", "RRRBBB", "RRBRBB", "BBBBBB"]
    opts = HexelOptions(seats=2, deck=tuple(tuple(c) for c in cards))
    assert opts.cards == tuple(cards)
    state = GAME.initial_state(opts)
    state, _ = GAME.apply(state, hx.Shuffle(3))
    assert all(isinstance(c, str) for h in state.hands for c in h)
    state, _ = GAME.apply(state, hx.Hedge(0, 0))
    state, _ = GAME.apply(state, hx.Hedge(1, 0))
    move = GAME.legal_actions(state)[0]
    state, events = GAME.apply(state, move)
    assert isinstance(events[0], (hx.Placed, hx.Discarded))
