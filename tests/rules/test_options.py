"""The option checks every game shares (`companion.rules.options`) and the shared stock account."""

import pytest

from companion.rules.comet import GAME as COMET
from companion.rules.comet import CometOptions
from companion.rules.core import MalformedMessage
from companion.rules.hexapod import HexapodOptions
from companion.rules.hexdragon import HexDragonOptions
from companion.rules.hexel import GAME as HEXEL
from companion.rules.hexel import HexelOptions
from companion.rules.ledger import stock
from companion.rules.options import (
    check_buy_ins,
    check_names,
    check_seat,
    check_seat_count,
    display_name,
    display_names,
    is_whole,
)

WHERE = "Test options"


@pytest.mark.parametrize(
    "value, whole",
    [(0, True), (7, True), (-3, True), (True, False), (False, False), (2.0, False), ("2", False)],
)
def test_whole_numbers_are_ints_but_not_bools(value, whole):
    assert is_whole(value) is whole


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_seat_count_within_the_range_is_accepted(seats):
    check_seat_count(WHERE, seats, 2, 4)


@pytest.mark.parametrize("seats", [1, 5, 0, -2, True, 3.0, "3", None])
def test_seat_count_outside_the_range_or_not_whole_is_refused(seats):
    with pytest.raises(MalformedMessage, match=r"^Test options: seats must be 2 to 4, got "):
        check_seat_count(WHERE, seats, 2, 4)


def test_names_are_optional_or_one_per_seat():
    check_names(WHERE, (), 3)
    check_names(WHERE, ("Ana", "Ben", "Cy"), 3)
    with pytest.raises(MalformedMessage, match=r"^Test options: names lists 2 names for 3 seats$"):
        check_names(WHERE, ("Ana", "Ben"), 3)
    with pytest.raises(MalformedMessage, match="names lists 4 names for 3 seats"):
        check_names(WHERE, ("Ana", "Ben", "Cy", "Dee"), 3)


def test_buy_ins_are_optional_or_one_whole_non_negative_number_per_seat():
    check_buy_ins(WHERE, (), 2)
    check_buy_ins(WHERE, (0, 250), 2)
    with pytest.raises(
        MalformedMessage, match=r"^Test options: chips lists 3 buy-ins for 2 seats$"
    ):
        check_buy_ins(WHERE, (10, 10, 10), 2)
    for bad in ((10, -1), (10, True), (10, 2.5)):
        with pytest.raises(MalformedMessage, match="buy-ins must be whole numbers of chips"):
            check_buy_ins(WHERE, bad, 2)


def test_seat_index_is_a_seat_at_the_table():
    check_seat(WHERE, "dealer", 0, 3)
    check_seat(WHERE, "dealer", 2, 3)
    for bad in (3, -1, True, "1", None):
        with pytest.raises(
            MalformedMessage, match=r"^Test options: dealer must be a seat 0\.\.2, got "
        ):
            check_seat(WHERE, "dealer", bad, 3)
    with pytest.raises(
        MalformedMessage, match=r"^Test options: first must be a seat 0\.\.1, got 2$"
    ):
        check_seat(WHERE, "first", 2, 2)


def test_display_names_default_to_seat_numbers_from_one():
    assert display_names((), 3) == ("Seat 1", "Seat 2", "Seat 3")
    assert display_names(("Ana", "Ben"), 2) == ("Ana", "Ben")
    assert display_name(("Ana", "Ben"), 1) == "Ben"
    assert display_name(("Ana", "Ben"), 2) == "Seat 3"
    assert display_name((), 0) == "Seat 1"


def test_stock_is_the_account_every_game_opens_for_a_seat():
    assert stock(3) == "stock:3"
    hexel = HEXEL.initial_state(HexelOptions(seats=2, chips=(40, 60)))
    comet = COMET.initial_state(CometOptions(seats=2, chips=(700, 900)))
    assert (hexel.ledger[stock(0)], hexel.ledger[stock(1)]) == (40, 60)
    assert (comet.ledger[stock(0)], comet.ledger[stock(1)]) == (700, 900)


# Each game refuses through the shared checks, naming itself.

GAMES = {"Hex'el": HexelOptions, "Comet": CometOptions, "HexDragon": HexDragonOptions}


@pytest.mark.parametrize("label", GAMES)
def test_games_refuse_a_name_count_that_is_not_the_seat_count(label):
    with pytest.raises(
        MalformedMessage, match=f"^{label} options: names lists 1 names for 3 seats$"
    ):
        GAMES[label](seats=3, names=("Ana",))
    assert GAMES[label](seats=3).seat_names == ("Seat 1", "Seat 2", "Seat 3")
    assert GAMES[label](seats=2, names=("Ana", "Ben")).seat_names == ("Ana", "Ben")


@pytest.mark.parametrize(
    "label, field", [("Hex'el", "dealer"), ("Comet", "dealer"), ("HexDragon", "first")]
)
def test_games_refuse_a_dealer_or_first_seat_off_the_table(label, field):
    with pytest.raises(
        MalformedMessage, match=rf"^{label} options: {field} must be a seat 0\.\.2, got 3$"
    ):
        GAMES[label](seats=3, **{field: 3})
    assert getattr(GAMES[label](seats=3, **{field: 2}), field) == 2


def test_hexel_and_hexdragon_seat_ranges():
    HexelOptions(seats=1)
    HexelOptions(seats=6)
    with pytest.raises(MalformedMessage, match=r"^Hex'el options: seats must be 1 to 6, got 7$"):
        HexelOptions(seats=7)
    with pytest.raises(MalformedMessage, match=r"^HexDragon options: seats must be 2 to 4, got 1$"):
        HexDragonOptions(seats=1)


def test_hexel_and_comet_refuse_buy_ins_for_the_wrong_seat_count():
    with pytest.raises(MalformedMessage, match=r"^Hex'el options: chips lists 2 buy-ins for 3"):
        HexelOptions(seats=3, chips=(10, 10))
    with pytest.raises(MalformedMessage, match=r"^Comet options: buy-ins must be whole numbers"):
        CometOptions(seats=2, chips=(1500, -1))


def test_hexapod_is_two_seats_and_checks_names_and_first_seat():
    with pytest.raises(
        MalformedMessage, match=r"^Hexapod options: first must be a seat 0\.\.1, got 2$"
    ):
        HexapodOptions(first=2)
    with pytest.raises(
        MalformedMessage, match=r"^Hexapod options: names lists 3 names for 2 seats"
    ):
        HexapodOptions(names=("Ana", "Ben", "Cy"))
