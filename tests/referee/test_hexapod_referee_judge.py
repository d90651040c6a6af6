"""The Hexapod grid-diff judge on crafted display cases (issue 6 "Vision II": the changed cells
must be one card footprint, P2 legality from the grids, misreads never committed). Rules cited:
RULES.md P1 (cards are 2x3, aligned to the case grid), P2.1-P2.3 (placement), P3 (turns)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.referee.hexapod_proposal import judge_cases
from companion.rules.core import from_json, to_json
from companion.rules.hexapod import GAME, Card, HexapodOptions, load_deck
from companion.rules.hexapod.game import Shuffle, TablePlay, TableStart
from companion.vision.observation import (
    GREY_PRINT_NOTE,
    GREY_PRINT_SAY,
    NO_COLOUR_NOTE,
    NO_COLOUR_SAY,
    HexapodObservation,
    HexelObservation,
    SeenCard,
    SeenCase,
)

DECK_FILE = Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json"


def rows(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(r.split()) for r in text.split("/"))


BLUE, GREEN, STAG, RED = "B B/B B/B B", "G G/G G/G G", "St B/Sb B/B B", "R R/R R/R R"
TEXTS = {"blue": BLUE, "green": GREEN, "stag": STAG, "red": RED, "gold": "Y Y/Y Y/Y Y",
         "dung": "K B/B B/B B", "moth": "Ml Mr/B B/B B", "mix1": "B G/G B/B G",
         "mix2": "R B/B R/R B", "dung2": "K K/K K/K K", "mix3": "G Y/Y G/G Y"}
DECK = tuple(Card(n, rows(t)) for n, t in TEXTS.items())
EMPTY6 = tuple((".",) * 6 for _ in range(6))


def lay(grid, text, col, row):
    """`grid` with a card's cells written at col, row (what a camera sees after it lands)."""
    out = [list(line) for line in grid]
    for r, line in enumerate(rows(text)):
        for c, code in enumerate(line):
            out[row + r][col + c] = code
    return tuple(tuple(line) for line in out)


def setcell(grid, col, row, code):
    out = [list(line) for line in grid]
    out[row][col] = code
    return tuple(tuple(line) for line in out)


def game(*plays):
    """A table-mode game after `plays` ((seat, text, col, row), alternating seats)."""
    opts = HexapodOptions(deck=DECK, names=("Ada", "Ben"))
    state, _ = GAME.apply(GAME.initial_state(opts), TableStart())
    for seat, text, col, row in plays:
        state, _ = GAME.apply(state, TablePlay(seat, rows(text), col, row))
    return state


def seen(state, grids=None, hidden=None, confidence=0.97, players=(1, 2)):
    """An observation of both cases: the committed grids unless `grids` (seat -> grid) says
    otherwise; `hidden` maps a seat to cells (col, row) under a hand."""
    grids, hidden = grids or {}, hidden or {}
    cases = []
    for player in players:
        seat = player - 1
        grid = grids.get(seat, state.cases[seat])
        occ = [[False] * 6 for _ in range(6)]
        for c, r in hidden.get(seat, ()):
            occ[r][c] = True
            grid = setcell(grid, c, r, "?")
        cases.append(SeenCase(player, grid, tuple(tuple(o) for o in occ), confidence))
    return HexapodObservation(cases=tuple(cases))


def test_nothing_changed_is_idle():
    state = game((0, BLUE, 0, 0))
    p = judge_cases(state, seen(state))
    assert p.kind == "idle" and p.action is None


def test_p1_a_new_card_is_one_aligned_footprint_and_a_legal_candidate():
    state = game()
    p = judge_cases(state, seen(state, {0: lay(EMPTY6, BLUE, 2, 1)}))
    assert p.kind == "move" and p.legal, p.message
    assert p.action == TablePlay(0, rows(BLUE), 2, 1)
    assert p.card == "blue" and p.seat == 0
    # P4 by hand: a 2x3 blue block scores 3 rows x 2 + 2 columns x 3 = 12, plus 3 coins x 2.
    assert (p.score, p.gain) == (18, 12)
    assert set(p.cells) == {(c, r) for c in (2, 3) for r in (1, 2, 3)}
    assert from_json(to_json(p.action)) == p.action


def test_p2_1_cells_covered_with_the_same_code_do_not_hide_the_footprint():
    # Ada's blue block at column 3: the stag card lands on it, covering the right column of
    # blues with blues (unchanged cells) and the left with the stag (P2.1: B over B).
    state = game((0, BLUE, 2, 0), (1, GREEN, 0, 0))
    grid = lay(state.cases[0], STAG, 2, 0)
    p = judge_cases(state, seen(state, {0: grid}))
    assert p.kind == "move" and p.legal, p.message
    assert p.action == TablePlay(0, rows(STAG), 2, 0)  # not the footprint one column left


def test_p2_an_illegal_placement_is_a_candidate_the_rules_refuse_with_the_reason():
    state = game((0, BLUE, 0, 0), (1, GREEN, 0, 0))
    grid = lay(state.cases[0], RED, 1, 0)  # P2.1: reds over blues only
    p = judge_cases(state, seen(state, {0: grid}))
    assert p.kind == "move" and not p.legal
    assert p.error_code == "no_direct_cover" and "not legal" in p.message


def test_p2_3_half_a_stag_covered_is_refused():
    state = game((0, STAG, 0, 0), (1, GREEN, 0, 0))
    grid = lay(state.cases[0], BLUE, 0, 1)  # covers the stag's bottom half only
    p = judge_cases(state, seen(state, {0: grid}))
    assert p.kind == "move" and not p.legal and p.error_code == "half_covered"


def test_p3_a_card_in_the_case_of_the_seat_not_to_play_is_refused():
    state = game()
    p = judge_cases(state, seen(state, {1: lay(EMPTY6, BLUE, 0, 0)}))
    assert p.kind == "move" and not p.legal and p.error_code == "wrong_seat"


def test_a_card_already_in_a_case_is_refused_by_the_deck():
    state = game((0, STAG, 0, 0))
    p = judge_cases(state, seen(state, {1: lay(EMPTY6, STAG, 0, 0)}))
    assert p.kind == "move" and not p.legal and p.error_code == "card_placed"


def test_a_hand_over_a_case_means_wait_even_when_cells_changed():
    state = game((0, BLUE, 0, 0))
    grid = lay(state.cases[1], GREEN, 0, 0)
    p = judge_cases(state, seen(state, {1: grid}, hidden={1: [(1, 1), (2, 1)]}))
    assert p.kind == "wait" and p.action is None and (1, 1) in p.cells
    # a '?' without the occluded flag is just as unreadable
    q = judge_cases(state, seen(state, {0: setcell(state.cases[0], 4, 4, "?")}))
    assert q.kind == "wait"


def test_a_picture_without_colour_is_a_problem_not_a_hand():
    # a greyscale picture: every cell unread (`HexapodObservation.no_colour`); no hand lifting
    # clears that, so the referee asks for a colour camera
    state = game((0, BLUE, 0, 0))
    every = [(c, r) for c in range(6) for r in range(6)]
    grey = dataclasses.replace(seen(state, hidden={0: every, 1: every}), no_colour=True,
                               notes=(NO_COLOUR_NOTE,))
    p = judge_cases(state, grey)
    assert p.kind == "problem" and p.message == NO_COLOUR_SAY and p.action is None
    assert judge_cases(state, dataclasses.replace(grey, no_colour=False)).kind == "wait"


def test_cards_printed_without_colour_are_a_problem_not_a_hand():
    # a black-and-white printer's cards: every cell unread (`HexapodObservation.grey_print`);
    # no hand lifting clears that, so the referee asks for a colour print
    state = game((0, BLUE, 0, 0))
    every = [(c, r) for c in range(6) for r in range(6)]
    grey = dataclasses.replace(seen(state, hidden={0: every}), grey_print=True,
                               notes=(GREY_PRINT_NOTE,))
    p = judge_cases(state, grey)
    assert p.kind == "problem" and p.message == GREY_PRINT_SAY and p.action is None
    assert judge_cases(state, dataclasses.replace(grey, grey_print=False)).message != \
        GREY_PRINT_SAY


def test_a_case_read_without_confidence_means_wait():
    state = game()
    p = judge_cases(state, seen(state, {0: lay(EMPTY6, BLUE, 0, 0)}, confidence=0.2))
    assert p.kind == "wait" and p.action is None


def test_p1_two_cards_at_once_is_a_problem():
    state = game()
    grid = lay(lay(EMPTY6, BLUE, 0, 0), GREEN, 4, 3)
    p = judge_cases(state, seen(state, {0: grid}))
    assert p.kind == "problem" and p.action is None and "Two new cards" in p.message


def test_p1_cells_changed_outside_one_footprint_are_a_problem():
    state = game((0, BLUE, 0, 0), (1, GREEN, 0, 0))
    grid = setcell(setcell(state.cases[0], 0, 0, "G"), 5, 5, "Y")  # far apart, no card
    p = judge_cases(state, seen(state, {0: grid}))
    assert p.kind == "problem" and p.action is None and "outside one card" in p.message


def test_a_misread_pattern_that_no_card_shows_is_never_a_candidate():
    state = game()
    misread = setcell(lay(EMPTY6, BLUE, 0, 0), 1, 2, "G")  # B B/B B/B G is no deck card
    p = judge_cases(state, seen(state, {0: misread}))
    assert p.kind == "problem" and p.action is None and "match no card" in p.message
    half = setcell(lay(EMPTY6, BLUE, 0, 0), 0, 0, "St")  # a stag top without its bottom
    assert judge_cases(state, seen(state, {0: half})).kind == "problem"
    strange = setcell(EMPTY6, 0, 0, "X")
    q = judge_cases(state, seen(state, {0: strange}))
    assert q.kind == "problem" and q.action is None


def test_an_emptied_cell_means_a_card_moved():
    state = game((0, BLUE, 0, 0), (1, GREEN, 0, 0))
    p = judge_cases(state, seen(state, {0: setcell(state.cases[0], 0, 0, ".")}))
    assert p.kind == "problem" and p.action is None and "moved or taken away" in p.message


def test_both_cases_changed_is_a_problem():
    state = game()
    p = judge_cases(state, seen(state, {0: lay(EMPTY6, BLUE, 0, 0),
                                        1: lay(EMPTY6, GREEN, 0, 0)}))
    assert p.kind == "problem" and p.action is None


def test_the_case_to_play_out_of_view_means_wait():
    state = game()
    p = judge_cases(state, seen(state, players=(2,)))
    assert p.kind == "wait" and "Ada's display case" in p.message
    assert judge_cases(state, seen(state, players=(1,))).kind == "idle"


def test_a_grid_of_the_wrong_size_or_a_doubled_case_is_a_problem():
    state = game()
    small = HexapodObservation(cases=(SeenCase(1, (("B",) * 6,) * 5,
                                               ((False,) * 6,) * 5),))
    assert judge_cases(state, small).kind == "problem"
    twice = seen(state, players=(1, 1))
    assert judge_cases(state, twice).kind == "problem"


def test_a_change_after_the_game_is_over_is_a_problem():
    from companion.rules.hexapod.game import Pass

    state = game((0, BLUE, 0, 0))
    state, _ = GAME.apply(state, Pass(1))
    state, _ = GAME.apply(state, Pass(0))
    assert state.phase == "over"
    p = judge_cases(state, seen(state, {1: lay(EMPTY6, GREEN, 0, 0)}))
    assert p.kind == "problem" and "over" in p.message


def test_the_wrong_kind_of_observation_or_a_tracked_game_is_a_problem():
    state = game()
    hexel = HexelObservation(cards=(SeenCard((0, 0), "RRRRRR", 0.9),))
    assert judge_cases(state, hexel).kind == "problem"
    opts = HexapodOptions(deck=load_deck(DECK_FILE))
    tracked, _ = GAME.apply(GAME.initial_state(opts), Shuffle(1))
    p = judge_cases(tracked, seen(game()))
    assert p.kind == "problem" and "at the table" in p.message


@pytest.mark.parametrize("seed", range(3))
def test_every_legal_placement_of_the_shipped_deck_is_proposed_as_itself(seed):
    """P2 from the grids: for real cards in a real game, the grid after any legal placement
    reads back as exactly that placement (or one with the same cells and score)."""
    import random

    rng = random.Random(seed)
    opts = HexapodOptions(deck=load_deck(DECK_FILE), names=("Ada", "Ben"))
    state, _ = GAME.apply(GAME.initial_state(opts), TableStart())
    for _ in range(10):
        plays = [a for a in GAME.legal_actions(state) if isinstance(a, TablePlay)]
        if not plays:
            break
        move = rng.choice(plays)
        grid = lay(state.cases[move.seat], "/".join(" ".join(r) for r in move.rows),
                   move.col, move.row)
        p = judge_cases(state, seen(state, {move.seat: grid}))
        assert p.kind == "move" and p.legal, p.message
        after, _ = GAME.apply(state, p.action)
        assert after.cases[move.seat] == grid
        state, _ = GAME.apply(state, move)
