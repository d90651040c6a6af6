"""Hexapod rules (RULES.md P1-P5) on positions worked out by hand."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from companion.rules.core import IllegalAction, MalformedMessage, WrongPhase, WrongSeat
from companion.rules.hexapod import (
    GAME,
    SPIDER,
    Card,
    DungCovered,
    HalfCovered,
    HexapodOptions,
    NoDirectCover,
    OutsideCase,
    check_placement,
    empty_case,
    legal_positions,
    load_deck,
    parse_rows,
    place,
    score_case,
)
from companion.rules.hexapod.deck import deck_document
from companion.rules.hexapod.game import (
    CardNotAvailable,
    CoinAlreadySpent,
    Deal,
    EmptyStack,
    EndTurn,
    GameOver,
    NoCoins,
    Pass,
    Play,
    Shuffle,
    SpendCoin,
    SpiderNotPlayable,
    SpiderRevealed,
    TakeStart,
)

ROOT = Path(__file__).resolve().parents[2]
DECK_FILE = ROOT / "models" / "hexapod-deck.json"


def card(name: str, text: str) -> Card:
    """A card from 'B G/St R/Sb K' (rows top to bottom separated by '/')."""
    return Card(name, tuple(tuple(row.split()) for row in text.split("/")))


def grid(*rows: str):
    return parse_rows(list(rows), "test case")


BLUE = "B B/B B/B B"


# --------------------------------------------------------------------------------------------
# P1 components


def test_p1_cell_codes_and_cards_are_checked():
    card("ok", "B G/St R/Sb K")
    with pytest.raises(MalformedMessage, match="unknown cell code"):
        card("x", "B Q/B B/B B")
    with pytest.raises(MalformedMessage, match="every cell"):
        card("x", "B ./B B/B B")
    with pytest.raises(MalformedMessage, match="needs Sb"):
        card("x", "B B/B B/B St")  # a stag top half on the bottom row has no bottom half
    with pytest.raises(MalformedMessage, match="needs Mr"):
        card("x", "Ml B/B B/B B")


def test_p1_a_case_never_shows_half_an_insect():
    with pytest.raises(MalformedMessage, match="needs Ml"):
        score_case(grid(". Mr", ". ."))


def test_p1_geometry_is_an_option():
    wide = [card(f"W{i}", "B B B/B B B") for i in range(11)]
    opts = HexapodOptions(deck=tuple(wide), card_cols=3, card_rows=2, case_cols=5, case_rows=4)
    state = GAME.initial_state(opts)
    assert state.cases[0] == empty_case(5, 4)
    assert legal_positions(state.cases[0], wide[0]) == [(c, r) for r in range(3) for c in range(3)]
    with pytest.raises(MalformedMessage, match="2x3 cells, the options say 3x2"):
        HexapodOptions(deck=tuple(card(f"C{i}", BLUE) for i in range(11)),
                       card_cols=3, card_rows=2)


def test_p1_deck_size_is_eight_plus_three_stacks():
    with pytest.raises(MalformedMessage, match="8 \\+ a multiple of 3"):
        HexapodOptions(deck=tuple(card(f"C{i}", BLUE) for i in range(12)))
    with pytest.raises(MalformedMessage, match="no deck"):
        HexapodOptions()


def test_p1_shipped_deck_has_41_cards_and_is_reproducible():
    cards = load_deck(DECK_FILE)
    assert len(cards) == 41
    assert len({c.name for c in cards}) == 41
    assert all((c.cols, c.height) == (2, 3) for c in cards)
    assert json.loads(DECK_FILE.read_text()) == deck_document()


def test_p1_shuffle_builds_three_stacks_with_the_spider_in_a_bottom_three():
    opts = HexapodOptions(deck=load_deck(DECK_FILE))
    for seed in range(20):
        state, _ = GAME.apply(GAME.initial_state(opts), Shuffle(seed))
        assert [len(s) for s in state.stacks] == [14, 14, 14]  # 11 + 3 each
        assert sorted(n for s in state.stacks for n in s) == sorted([*opts.cards, SPIDER])
        assert any(SPIDER in s[-3:] for s in state.stacks)
        assert state.coins == (3, 3)


# --------------------------------------------------------------------------------------------
# P2 placement


def test_p2_first_card_is_exempt_but_must_fit_in_the_case():
    case = empty_case(6, 6)
    g = card("g", "G G/G G/G G")
    check_placement(case, g, 4, 3)  # bottom-right corner
    with pytest.raises(OutsideCase):
        check_placement(case, g, 5, 0)
    with pytest.raises(OutsideCase):
        check_placement(case, g, 0, 4)
    assert len(legal_positions(case, g)) == 5 * 4


def test_p2_1_needs_a_direct_same_kind_cover():
    case = place(empty_case(6, 6), card("a", BLUE), 0, 0)
    greens = card("g", "G G/G G/G G")
    with pytest.raises(NoDirectCover):
        check_placement(case, greens, 1, 0)  # covers blues only with greens
    with pytest.raises(NoDirectCover):
        check_placement(case, greens, 2, 0)  # touches nothing
    check_placement(case, card("bg", "B G/G G/G G"), 1, 0)  # its B lands on column 2, row 1
    # Worked by hand: "B G/G G/G G" needs its top-left B on a visible B: only on columns 1-2.
    assert legal_positions(case, card("bg", "B G/G G/G G")) == [(0, 0), (1, 0), (0, 1), (1, 1),
                                                                (0, 2), (1, 2)]


def test_p2_1_stag_half_over_stag_half_is_a_direct_cover():
    a = card("a", "St B/Sb B/G G")
    case = place(empty_case(6, 6), a, 0, 1)  # stag at column 1, rows 2-3
    n = card("n", "St G/Sb G/B G")
    # n at (0, 0): its Sb lands on a's St, its B on a's Sb (the stag is covered whole); its
    # greens land on blues. The only same-kind cover is stag over stag, which is enough.
    check_placement(case, n, 0, 0)
    after = place(case, n, 0, 0)
    assert [row[:2] for row in after[:4]] == [("St", "G"), ("Sb", "G"), ("B", "G"), ("G", "G")]


def test_p2_2_dung_only_under_dung():
    case = place(empty_case(6, 6), card("k", "K B/B B/B B"), 0, 0)
    with pytest.raises(DungCovered):
        check_placement(case, card("b", BLUE), 0, 0)
    check_placement(case, card("k2", "K G/G G/G G"), 0, 0)  # K over K is also the direct cover
    check_placement(case, card("b", BLUE), 1, 0)  # leaves the K visible
    check_placement(case, card("b", BLUE), 0, 1)  # so does this one, a row lower


def test_p2_3_stag_and_moth_whole_or_not_at_all():
    moth = place(empty_case(6, 6), card("m", "Ml Mr/B B/B B"), 0, 0)
    with pytest.raises(HalfCovered):
        check_placement(moth, card("b", BLUE), 1, 0)  # covers Mr, not Ml (B over B exists)
    check_placement(moth, card("b", BLUE), 0, 0)  # covers the moth whole, indirectly
    check_placement(moth, card("b", BLUE), 1, 1)  # leaves it alone
    stag = place(empty_case(6, 6), card("s", "St B/Sb B/B B"), 0, 1)
    with pytest.raises(HalfCovered):
        check_placement(stag, card("b", BLUE), 0, 2)  # covers Sb at row 3, not St at row 2
    check_placement(stag, card("b", BLUE), 0, 0)  # rows 1-3 take St (row 2) and Sb (row 3)
    check_placement(stag, card("b", BLUE), 1, 2)  # columns 2-3 only


# --------------------------------------------------------------------------------------------
# P4 scoring and the P5 example


P5_CASE = grid(
    "B  .  G  .  G  Y",
    "B  B  G  .  G  .",
    "Ml Mr .  .  .  K",
    ".  G  G  G  R  .",
    ".  .  .  St .  R",
    "G  G  .  Sb Ml Mr",
)


def test_p5_worked_example_scores_45():
    s = score_case(P5_CASE, coins=2)
    assert (s.blue, s.green, s.gold, s.red, s.stag + s.moth, s.dung, s.coins) == (
        4, 18, 0, 4, 15, 0, 4)
    assert s.total == 45


def test_p4_runs_count_per_row_and_per_column():
    # Gold L: row of 3 (9) + column of 2 through the corner (6); the corner scores twice.
    s = score_case(grid("Y Y Y", "Y . .", ". . Y"))
    assert s.gold == 9 + 6
    assert score_case(grid("G . G", ". G .")).green == 0  # no two adjacent in a line
    assert score_case(grid("B B B B")).blue == 4
    assert score_case(grid("B B G G")).blue == 2 and score_case(grid("B B G G")).green == 4


def test_p4_red_counts_itself_and_eight_neighbours():
    # Centre R touches 3 reds (1+3); each corner-ish R touches the centre only... worked by hand:
    # (0,0) neighbours: (1,1) -> 2; (2,0) neighbours: (1,1) -> 2; (1,1): (0,0),(2,0),(1,2) -> 4;
    # (1,2) neighbours: (1,1) -> 2.  Total 10.
    assert score_case(grid("R . R", ". R .", ". R .")).red == 10
    assert score_case(grid("R")).red == 1


def test_p4_stag_moth_dung_and_coins():
    s = score_case(grid("St Ml Mr", "Sb K K"), coins=3)
    assert (s.stag, s.moth, s.dung, s.coins, s.total) == (5, 5, 0, 6, 16)
    with pytest.raises(MalformedMessage):
        score_case(P5_CASE, coins=-1)


# --------------------------------------------------------------------------------------------
# P3 turns and the end


DECK = tuple(card(f"C{i}", BLUE) for i in range(1, 12))
STACKS = (("C1", "C2", "C3", SPIDER), ("C4", "C5", "C6", "C7"), ("C8", "C9", "C10", "C11"))


def started(first: int = 0):
    """Both seats took their starting card: seat 0 C1 (stack 1), seat 1 C4 (stack 2)."""
    opts = HexapodOptions(deck=DECK, first=first)
    s, _ = GAME.apply(GAME.initial_state(opts), Deal(STACKS))
    assert s.phase == "start" and s.to_play == first
    s, _ = GAME.apply(s, TakeStart(first, 0))
    s, _ = GAME.apply(s, TakeStart(1 - first, 1))
    return s


def test_p3_starting_cards_first_seat_first():
    s = started()
    assert s.phase == "play" and s.to_play == 0
    assert s.hands == (("C1",), ("C4",))
    assert s.tops() == ("C2", "C5", "C8")
    s1 = started(first=1)
    assert s1.hands == (("C4",), ("C1",)) and s1.to_play == 1


def test_p3_draw_and_play_then_spider_by_draw_gives_a_final_turn():
    s = started()
    s, _ = GAME.apply(s, Play(0, 0, "C2", 0, 0))
    assert s.hands[0] == ("C1",) and s.to_play == 1
    s, _ = GAME.apply(s, Play(1, 1, "C4", 0, 0))  # plays the held card, keeps the drawn C5
    assert s.hands[1] == ("C5",)
    s, events = GAME.apply(s, Play(0, 0, "C3", 0, 1))  # draws C3: the Spider shows on stack 1
    assert SpiderRevealed(0, 0, 1) in events
    assert s.spider and s.to_play == 1 and s.ending == "final"
    s, events = GAME.apply(s, Play(1, 2, "C8", 1, 0))
    assert s.phase == "over" and s.end == "spider"
    # Seat 0: blues on columns 1-2, rows 1-4 -> rows 4 x 2 + columns 2 x 4 = 16, coins 6 -> 22.
    # Seat 1: a 3x3 block of blues -> rows 3 x 3 + columns 3 x 3 = 18, coins 6 -> 24.
    assert s.scores == (22, 24)
    assert events[-1] == GameOver("spider", (22, 24), (1,))


def test_p3_spider_by_coin_the_turn_goes_on_then_final_turn():
    s = started()
    s, _ = GAME.apply(s, Play(0, 0, "C2", 0, 0))
    s, _ = GAME.apply(s, Play(1, 1, "C5", 0, 0))
    s, events = GAME.apply(s, SpendCoin(0, 0, 2))  # C3 onto stack 3: the Spider shows
    assert s.coins == (2, 3) and s.stacks[2][0] == "C3" and s.spider
    assert any(isinstance(e, SpiderRevealed) for e in events)
    with pytest.raises(SpiderNotPlayable):
        GAME.apply(s, Play(0, 0, "C1", 0, 1))
    s, _ = GAME.apply(s, Play(0, 2, "C3", 0, 1))  # the finishing turn goes on after the coin
    assert s.to_play == 1 and s.ending == "final"
    s, events = GAME.apply(s, Pass(1))  # declines the final turn
    assert s.phase == "over" and s.end == "spider"


def test_p3_a_coin_may_move_the_spider_and_the_game_still_ends():
    s = started()
    s, _ = GAME.apply(s, Play(0, 0, "C2", 0, 0))
    s, _ = GAME.apply(s, Play(1, 0, "C3", 0, 0))  # Spider shows: seat 1's turn is over,
    assert s.to_play == 0 and s.ending == "final"  # seat 0 takes the final turn
    s, _ = GAME.apply(s, SpendCoin(0, 0, 1))  # moves the Spider itself onto stack 2
    assert s.stacks[1][0] == SPIDER and s.stacks[0] == ()
    with pytest.raises(EmptyStack):
        GAME.apply(s, Play(0, 0, "C1", 0, 1))
    s, _ = GAME.apply(s, EndTurn(0))
    assert s.phase == "over" and s.end == "spider"


def test_p3_opponent_who_passed_takes_no_final_turn():
    s = started()
    s, _ = GAME.apply(s, Play(0, 0, "C2", 0, 0))
    s, events = GAME.apply(s, Pass(1))
    assert s.passed == {1} and s.to_play == 0
    s, _ = GAME.apply(s, Play(0, 1, "C5", 0, 1))
    assert s.to_play == 0  # plays on alone
    s, events = GAME.apply(s, Play(0, 0, "C3", 0, 2))  # Spider shows, nobody left for a final
    assert SpiderRevealed(0, 0, None) in events
    assert s.phase == "over" and s.end == "spider"


def test_p3_both_pass_ends_the_game():
    s = started()
    s, _ = GAME.apply(s, Pass(0))
    s, events = GAME.apply(s, Pass(1))
    assert s.phase == "over" and s.end == "passed"
    assert events[-1] == GameOver("passed", (6, 6), (0, 1))  # coins only; a shared win


def test_p3_coin_rules():
    s = started()
    s, _ = GAME.apply(s, SpendCoin(0, 1, 2))
    with pytest.raises(CoinAlreadySpent):
        GAME.apply(s, SpendCoin(0, 2, 1))
    with pytest.raises(CoinAlreadySpent):
        GAME.apply(s, Pass(0))
    s, _ = GAME.apply(s, EndTurn(0))
    assert s.to_play == 1
    with pytest.raises(IllegalAction, match="ends by itself"):
        GAME.apply(s, EndTurn(1))
    poor = dataclasses.replace(s, coins=(3, 0))
    with pytest.raises(NoCoins):
        GAME.apply(poor, SpendCoin(1, 0, 1))
    with pytest.raises(IllegalAction, match="different stack"):
        GAME.apply(s, SpendCoin(1, 0, 0))


def test_p3_refusals_are_typed():
    s = started()
    with pytest.raises(WrongSeat):
        GAME.apply(s, Play(1, 0, "C2", 0, 0))
    with pytest.raises(CardNotAvailable):
        GAME.apply(s, Play(0, 0, "C9", 0, 0))
    with pytest.raises(WrongPhase):
        GAME.apply(s, TakeStart(0, 0))
    with pytest.raises(MalformedMessage):
        GAME.apply(s, Play(0, 3, "C2", 0, 0))
    with pytest.raises(OutsideCase):
        GAME.apply(s, Play(0, 0, "C2", 5, 0))
    with pytest.raises(MalformedMessage, match="exactly once"):
        GAME.apply(GAME.initial_state(s.options), Deal((("C1",), (), ())))


def test_p3_legal_actions_at_a_turn_start():
    s = started()
    actions = GAME.legal_actions(s)
    # 3 stacks x 2 distinct cards x 20 positions (first card) + 6 coin moves + pass.
    assert len([a for a in actions if isinstance(a, Play)]) == 3 * 2 * 20
    assert len([a for a in actions if isinstance(a, SpendCoin)]) == 6
    assert actions[-1] == Pass(0)
