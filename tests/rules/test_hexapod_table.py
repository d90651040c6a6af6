"""Hexapod's table mode (the camera referee): cards named by their cells, coins, passes and the
Spider entered by the players, checked against RULES.md P2-P4 and the deck. Expected scores are
worked out by hand in the comments."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.rules.core import (
    IllegalAction,
    MalformedMessage,
    WrongPhase,
    WrongSeat,
    from_json,
    replay,
    to_json,
)
from companion.rules.hexapod import (
    GAME,
    Card,
    DungCovered,
    HalfCovered,
    HexapodOptions,
    NoDirectCover,
    OutsideCase,
    load_deck,
)
from companion.rules.hexapod.game import (
    CardAlreadyPlaced,
    CardLaid,
    CoinAlreadySpent,
    CoinUsed,
    EndTurn,
    GameOver,
    NoCoins,
    Pass,
    Play,
    Shuffle,
    SpendCoin,
    SpiderAlreadyShown,
    SpiderCalled,
    TableCoin,
    TableOpened,
    TablePlay,
    TableSpider,
    TableStart,
    UnknownCard,
    WrongMode,
)

DECK_FILE = Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json"


def rows(text: str) -> tuple[tuple[str, ...], ...]:
    """'B G/St R/Sb K' -> rows top to bottom."""
    return tuple(tuple(r.split()) for r in text.split("/"))


BLUE = "B B/B B/B B"
GREEN = "G G/G G/G G"
DUNG = "K B/B B/B B"
STAG = "St B/Sb B/B B"
MOTH = "Ml Mr/B B/B B"
# 11 cards (8 + one per stack): two blue blocks with the same cells on purpose.
TEXTS = {"blue1": BLUE, "blue2": BLUE, "green": GREEN, "dung": DUNG, "stag": STAG,
         "moth": MOTH, "red": "R R/R R/R R", "gold": "Y Y/Y Y/Y Y", "mix1": "B G/G B/B G",
         "mix2": "R B/B R/R B", "dung2": "K K/K K/K K"}
DECK = tuple(Card(name, rows(t)) for name, t in TEXTS.items())


def start(names=("Ada", "Ben"), first=0):
    opts = HexapodOptions(deck=DECK, names=names, first=first)
    state, events = GAME.apply(GAME.initial_state(opts), TableStart())
    return state, events


def play(state, action):
    new, events = GAME.apply(state, action)
    return new, events


def test_table_start_opens_play_at_once_without_stacks():
    state, events = start(first=1)
    assert events == (TableOpened(1),)
    assert state.phase == "play" and not state.tracked and state.to_play == 1
    assert state.stacks == () and state.hands == ((), ())
    assert state.coins == (3, 3)
    assert "Ben plays first" in events[0].announce(("Ada", "Ben"))
    with pytest.raises(WrongPhase):
        GAME.apply(state, TableStart())


def test_p2_first_card_is_recorded_by_its_cells_and_scored_per_p4():
    state, _ = start()
    state, events = play(state, TablePlay(0, rows(BLUE), 0, 0))
    laid = events[0]
    # P4: blue block 2x3 at the top left: three rows of two (2 each) + two columns of three
    # (3 each) = 12 blue points, plus 3 unspent coins x 2 = 6: 18 in all, up from 6.
    assert laid == CardLaid(0, "blue1", 0, 0, 18, 12)
    assert state.score(0).blue == 12 and state.scores == (18, 6)
    assert state.cases[0][0][:3] == ("B", "B", ".")
    assert state.laid == ((("blue1", 0, 0),), ())
    assert state.to_play == 1 and state.last == 0
    assert "+12, 18 points" in laid.announce(("Ada", "Ben"))


def test_table_actions_round_trip_through_json():
    for action in (TableStart(), TablePlay(1, rows(STAG), 2, 3), TableCoin(0), TableSpider(1)):
        assert from_json(to_json(action)) == action


@pytest.mark.parametrize("text, col, row, error", [
    ("R R/R R/R R", 1, 0, NoDirectCover),   # P2.1: reds over blues only
    (STAG, 4, 0, NoDirectCover),    # P2.1: lands on no insect at all
    (BLUE, 5, 0, OutsideCase),      # P1: wholly inside the case
])
def test_p2_a_second_card_must_cover_its_own_kind(text, col, row, error):
    state, _ = start()
    state, _ = play(state, TablePlay(0, rows(BLUE), 0, 0))
    state, _ = play(state, TablePlay(1, rows(GREEN), 0, 0))
    with pytest.raises(error):
        GAME.apply(state, TablePlay(0, rows(text), col, row))


def test_p2_2_a_visible_dung_beetle_only_under_a_dung_beetle():
    state, _ = start()
    state, _ = play(state, TablePlay(0, rows(DUNG), 0, 0))  # K at column 1, row 1
    state, _ = play(state, TablePlay(1, rows(BLUE), 0, 0))
    with pytest.raises(DungCovered):
        GAME.apply(state, TablePlay(0, rows(BLUE), 0, 0))  # B over the K
    state, events = play(state, TablePlay(0, rows("K K/K K/K K"), 0, 0))
    assert events[0].card == "dung2"


def test_p2_3_a_stag_is_covered_whole_or_not_at_all():
    state, _ = start()
    state, _ = play(state, TablePlay(0, rows(STAG), 0, 0))  # St/Sb in column 1, rows 1-2
    state, _ = play(state, TablePlay(1, rows(BLUE), 0, 0))
    with pytest.raises(HalfCovered):
        GAME.apply(state, TablePlay(0, rows(BLUE), 0, 1))  # covers Sb only
    state, events = play(state, TablePlay(0, rows(BLUE), 0, 0))  # covers both halves
    # Before: stag 5 + blues (a column of three 3, the bottom pair 2) + coins 6 = 16;
    # after: the blue block 12 + coins 6 = 18.
    assert state.score(0).stag == 0 and (events[0].score, events[0].gain) == (18, 2)


def test_the_deck_decides_which_cards_exist_and_each_lands_once():
    state, _ = start()
    with pytest.raises(UnknownCard, match="no card of the deck shows B B/B B/B G"):
        GAME.apply(state, TablePlay(0, rows("B B/B B/B G"), 0, 0))
    with pytest.raises(MalformedMessage, match="every cell"):
        GAME.apply(state, TablePlay(0, rows("B B/B ./B B"), 0, 0))
    with pytest.raises(MalformedMessage, match="needs Sb"):
        GAME.apply(state, TablePlay(0, rows("St B/B B/B B"), 0, 0))
    with pytest.raises(MalformedMessage, match="2x3"):
        GAME.apply(state, TablePlay(0, rows("B B B/B B B"), 0, 0))
    state, _ = play(state, TablePlay(0, rows(STAG), 0, 0))
    with pytest.raises(CardAlreadyPlaced):  # the only stag card is in Ada's case
        GAME.apply(state, TablePlay(1, rows(STAG), 0, 0))
    # Two deck cards show the same cells: the first unplaced one is recorded, then the second.
    state, e1 = play(state, TablePlay(1, rows(BLUE), 0, 0))
    state, e2 = play(state, TablePlay(0, rows(BLUE), 0, 0))
    assert (e1[0].card, e2[0].card) == ("blue1", "blue2")
    with pytest.raises(CardAlreadyPlaced):
        GAME.apply(state, TablePlay(1, rows(BLUE), 2, 0))


def test_p3_turn_order_is_checked():
    state, _ = start()
    with pytest.raises(WrongSeat, match="Ada's turn, not Ben's"):
        GAME.apply(state, TablePlay(1, rows(BLUE), 0, 0))
    with pytest.raises(MalformedMessage):
        GAME.apply(state, TablePlay(2, rows(BLUE), 0, 0))


def test_p3_a_coin_then_a_card_or_the_end_of_the_turn():
    state, _ = start()
    state, events = play(state, TableCoin(0))
    assert events == (CoinUsed(0, 2),) and state.coins == (2, 3) and state.to_play == 0
    assert state.score(0).coins == 4  # P4: 2 per unspent coin
    with pytest.raises(CoinAlreadySpent):
        GAME.apply(state, TableCoin(0))
    with pytest.raises(CoinAlreadySpent):
        GAME.apply(state, Pass(0))  # after a coin: play or end the turn
    ended, _ = play(state, EndTurn(0))
    assert ended.to_play == 1 and not ended.coin_spent
    placed, events = play(state, TablePlay(0, rows(BLUE), 0, 0))
    assert placed.to_play == 1 and events[0].score == 12 + 4
    with pytest.raises(IllegalAction):
        GAME.apply(ended, EndTurn(1))  # no coin spent: nothing to end


def test_p3_no_coin_left_to_spend():
    opts = HexapodOptions(deck=DECK, coins=0)
    state, _ = GAME.apply(GAME.initial_state(opts), TableStart())
    with pytest.raises(NoCoins):
        GAME.apply(state, TableCoin(0))


def test_p3_both_pass_ends_the_game_and_p4_decides():
    state, _ = start()
    state, _ = play(state, TablePlay(0, rows(BLUE), 0, 0))      # Ada 12 + 6
    state, _ = play(state, TablePlay(1, rows("Y Y/Y Y/Y Y"), 0, 0))  # Ben gold 3 x 12 = 36 + 6
    state, events = play(state, Pass(0))
    assert state.to_play == 1 and state.phase == "play"  # Ben plays on alone
    state, events = play(state, Pass(1))
    assert state.phase == "over" and state.end == "passed"
    assert events[-1] == GameOver("passed", (18, 42), (1,))
    with pytest.raises(WrongPhase):
        GAME.apply(state, TablePlay(0, rows(GREEN), 0, 0))


def test_p3_spider_in_the_current_turn_gives_the_opponent_a_final_turn():
    state, _ = start()
    state, events = play(state, TableSpider(0))
    assert events == (SpiderCalled(0, False, 1),)
    assert "Ada finishes this turn, then Ben takes a final turn" in events[0].announce(
        ("Ada", "Ben"))
    with pytest.raises(SpiderAlreadyShown):
        GAME.apply(state, TableSpider(0))
    state, _ = play(state, TablePlay(0, rows(BLUE), 0, 0))
    assert state.to_play == 1 and state.phase == "play"
    state, events = play(state, TablePlay(1, rows(GREEN), 0, 0))
    assert state.phase == "over" and state.end == "spider"
    assert isinstance(events[-1], GameOver)


def test_p3_spider_reported_after_the_placement_that_revealed_it():
    state, _ = start()
    state, _ = play(state, TablePlay(0, rows(BLUE), 0, 0))   # Ada's turn ends by the placement
    state, events = play(state, TableSpider(0))              # ...then someone presses "Spider"
    assert events == (SpiderCalled(0, True, 1),)
    assert state.to_play == 1                                # Ben's turn is the final one
    state, events = play(state, Pass(1))
    assert state.phase == "over" and isinstance(events[-1], GameOver)


def test_p3_legal_actions_list_every_spider_report_the_rules_accept():
    # After Ada's placement both reports are accepted (P3: Ada's finished turn, or Ben's turn
    # now), so both are listed; Ben's is refused at the start, when only Ada may report.
    state, _ = start()
    assert [a for a in GAME.legal_actions(state) if isinstance(a, TableSpider)] == [
        TableSpider(0)]
    state, _ = play(state, TablePlay(0, rows(BLUE), 0, 0))
    listed = [a for a in GAME.legal_actions(state) if isinstance(a, TableSpider)]
    assert sorted(listed, key=lambda a: a.seat) == [TableSpider(0), TableSpider(1)]
    for report in listed:
        GAME.apply(state, report)


def test_p3_spider_cannot_be_reported_for_a_seat_that_has_not_played_since():
    state, _ = start()
    with pytest.raises(IllegalAction, match="report the Spider"):
        GAME.apply(state, TableSpider(1))


def test_p3_spider_when_the_opponent_has_passed_ends_after_the_current_turn():
    state, _ = start()
    state, _ = play(state, Pass(0))
    state, _ = play(state, TablePlay(1, rows(BLUE), 0, 0))
    assert state.to_play == 1
    state, events = play(state, TableSpider(1))
    assert events == (SpiderCalled(1, False, None),)
    state, events = play(state, TablePlay(1, rows(BLUE), 0, 0))
    assert state.phase == "over" and state.end == "spider"


def test_modes_do_not_mix():
    state, _ = start()
    with pytest.raises(WrongMode, match="played at the table"):
        GAME.apply(state, Play(0, 0, "blue1", 0, 0))
    with pytest.raises(WrongMode):
        GAME.apply(state, SpendCoin(0, 0, 1))
    opts = HexapodOptions(deck=load_deck(DECK_FILE))
    tracked, _ = GAME.apply(GAME.initial_state(opts), Shuffle(3))
    with pytest.raises(WrongPhase):
        GAME.apply(tracked, TableStart())
    while tracked.phase == "start":
        tracked, _ = GAME.apply(tracked, GAME.legal_actions(tracked)[0])
    card = opts.cards[tracked.hands[0][0]]
    with pytest.raises(WrongMode, match="tracks the stacks"):
        GAME.apply(tracked, TablePlay(0, card.rows, 0, 0))
    with pytest.raises(WrongMode):
        GAME.apply(tracked, TableCoin(0))


@pytest.mark.parametrize("seed", range(6))
def test_random_table_games_replay_exactly_and_every_legal_action_applies(seed):
    rng = random.Random(seed)
    opts = HexapodOptions(deck=load_deck(DECK_FILE), names=("Ada", "Ben"))
    state = GAME.initial_state(opts)
    log = [TableStart()]
    state, _ = GAME.apply(state, log[0])
    while state.phase != "over" and len(log) < 200:
        legal = GAME.legal_actions(state)
        assert legal, "a seat to play always has a decision (at least Pass or EndTurn)"
        plays = [a for a in legal if isinstance(a, TablePlay)]
        others = [a for a in legal if not isinstance(a, TablePlay | TableSpider)]
        spider = [a for a in legal if isinstance(a, TableSpider)]
        pick = rng.random()
        action = (rng.choice(spider) if spider and pick < 0.03 else
                  rng.choice(plays) if plays and pick < 0.85 else rng.choice(others))
        state, _ = GAME.apply(state, action)
        log.append(from_json(to_json(action)))
    assert state.phase == "over"
    assert replay(GAME, opts, log) == state
    laid = [name for seat in state.laid for name, _, _ in seat]
    assert len(laid) == len(set(laid)) == sum(state.placed)
