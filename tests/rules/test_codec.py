"""Actions and events are frozen dataclasses that round-trip through JSON, with checked types."""

import dataclasses

import pytest

from companion.rules.core import MalformedMessage, from_json, to_json
from companion.rules.hexel import game as hx


def test_round_trip_of_actions():
    for action in [hx.Shuffle(7), hx.Place(1, "RRRBBB", (2, -1), 4), hx.Discard(0, None),
                   hx.Discard(2, "BBBBBB"), hx.Hedge(3, 2), hx.LayLine(("RRRRRR", "RRRBBB",
                   "BBBBBB"), (0, 1, 2)), hx.NextGame(), hx.CashOut(1, 5, "hand")]:
        text = to_json(action)
        back = from_json(text)
        assert back == action and type(back) is type(action)
        assert isinstance(back.__dict__.get("cell", ()), tuple)


def test_json_form_is_stable_and_readable():
    assert to_json(hx.Place(1, "RRRBBB", (2, -1), 4)) == (
        '{"card":"RRRBBB","cell":[2,-1],"rotation":4,"seat":1,"type":"hexel.place"}'
    )


def test_messages_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        hx.Place(1, "RRRBBB", (0, 0), 0).seat = 2  # type: ignore[misc]


@pytest.mark.parametrize("text, problem", [
    ('{"type":"hexel.place","seat":"1","card":"RRRBBB","cell":[0,0],"rotation":0}', "seat"),
    ('{"type":"hexel.place","seat":1,"card":"RRRBBB","cell":[0],"rotation":0}', "cell"),
    ('{"type":"hexel.place","seat":1,"card":"RRRBBB","cell":[0,0]}', "rotation"),
    ('{"type":"hexel.place","seat":1,"card":"RRRBBB","cell":[0,0],"rotation":0,"x":1}', "x"),
    ('{"type":"hexel.nope"}', "unknown message type"),
    ('{"seat":1}', "type"),
    ('not json', "JSON"),
    ('{"type":"hexel.hedge","seat":true,"multiple":1}', "seat"),
    ('{"type":"hexel.cash_out","seat":1,"amount":1,"pot":"hedge"}', "pot"),
])
def test_malformed_messages_are_rejected_with_the_field_named(text, problem):
    with pytest.raises(MalformedMessage, match=problem):
        from_json(text)


def test_a_plain_dataclass_with_a_field_named_kind_gets_no_type_key():
    from companion.rules.core import to_jsonable

    @dataclasses.dataclass(frozen=True)
    class Shape:
        kind: str
        size: int

    assert to_jsonable(Shape("worm", 3)) == {"kind": "worm", "size": 3}
    assert to_jsonable(hx.NextGame()) == {"type": "hexel.next_game"}
