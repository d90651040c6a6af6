"""Checks and defaults that every game's options share: seat counts, names, buy-ins, seat indices.

Each game's options dataclass validates itself in `__post_init__`; the checks that mean the same
in every game live here so that they accept the same values and refuse with the same words. A
`check_*` function returns nothing or raises `MalformedMessage` prefixed with the `where` it is
given (e.g. "Hex'el options: names lists 1 names for 2 seats"). `display_names` and
`display_name` give the names the referee announces ("Seat 1", "Seat 2", ... unless names were
given). All functions are pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from .core import MalformedMessage

__all__ = [
    "check_buy_ins",
    "check_names",
    "check_seat",
    "check_seat_count",
    "display_name",
    "display_names",
    "is_whole",
]


def is_whole(value: object) -> TypeGuard[int]:
    """True for an integer that is not a bool (JSON's true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_seat_count(where: str, seats: object, low: int, high: int) -> None:
    """Refuse a number of seats that is not a whole number from `low` to `high`."""
    if not is_whole(seats) or not low <= seats <= high:
        raise MalformedMessage(f"{where}: seats must be {low} to {high}, got {seats!r}")


def check_names(where: str, names: Sequence[str], seats: int) -> None:
    """Names are optional; when given there must be one per seat."""
    if names and len(names) != seats:
        raise MalformedMessage(f"{where}: names lists {len(names)} names for {seats} seats")


def check_buy_ins(where: str, chips: Sequence[int], seats: int) -> None:
    """Buy-ins are optional; when given, one per seat, each a whole number of chips, 0 or more."""
    if chips and len(chips) != seats:
        raise MalformedMessage(f"{where}: chips lists {len(chips)} buy-ins for {seats} seats")
    if any(not is_whole(c) or c < 0 for c in chips):
        raise MalformedMessage(f"{where}: buy-ins must be whole numbers of chips, 0 or more")


def check_seat(where: str, field: str, value: object, seats: int) -> None:
    """Refuse a seat index (`field`: the dealer, the first to play) outside 0..seats-1."""
    if not is_whole(value) or not 0 <= value < seats:
        raise MalformedMessage(f"{where}: {field} must be a seat 0..{seats - 1}, got {value!r}")


def display_name(names: Sequence[str], seat: int) -> str:
    """The display name of `seat`: its given name, else "Seat 1", "Seat 2", ..."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def display_names(names: tuple[str, ...], seats: int) -> tuple[str, ...]:
    """Every seat's display name: the given names, or "Seat 1" to "Seat <seats>"."""
    return names or tuple(display_name((), seat) for seat in range(seats))
