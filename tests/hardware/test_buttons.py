"""TableButtons on gpiozero mock pins: tap vs hold on release, and the software debounce.

Mock pins do not bounce, so the tests make them chatter: a burst of drive_low()/drive_high()
microseconds apart is what a mechanical contact does for a few milliseconds on press and release.
Buttons are wired to ground with the internal pull-up: pressed = low.
"""

from __future__ import annotations

import queue
import random
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware import ButtonPress, Role, TableButtons

DEBOUNCE = 0.05
HOLD = 0.4   # far above TAP: on a loaded machine gpiozero's callback thread runs late
TAP = 0.09  # longer than the debounce, shorter than the hold
PINS = {Role.CONFIRM: 17, Role.UNDO: 27, Role.NEXT: 22}


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def rig(factory):
    events: queue.Queue = queue.Queue()
    buttons = TableButtons(PINS, events, hold_s=HOLD, debounce_s=DEBOUNCE, pin_factory=factory)
    yield buttons, events, {role: factory.pin(pin) for role, pin in PINS.items()}
    buttons.close()


def drain(events: queue.Queue) -> list[ButtonPress]:
    out = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


def chatter(pin, edges: int, end_low: bool) -> None:
    """`edges` alternating transitions, ending low (pressed) or high (released)."""
    for i in range(edges):
        low = (edges - i) % 2 == 1 if end_low else (edges - i) % 2 == 0
        pin.drive_low() if low else pin.drive_high()


def press(pin, seconds: float, bounce: int = 0) -> None:
    chatter(pin, 2 * bounce + 1, end_low=True)
    time.sleep(seconds)
    chatter(pin, 2 * bounce + 1, end_low=False)


def test_a_clean_tap(rig):
    _, events, pins = rig
    t0 = time.monotonic()
    press(pins[Role.CONFIRM], TAP)
    [ev] = drain(events)
    assert (ev.role, ev.hold) == (Role.CONFIRM, False)
    assert TAP - 0.01 <= ev.duration < TAP + 0.1
    assert t0 + TAP <= ev.t <= time.monotonic()


def test_a_hold_is_decided_on_release(rig):
    buttons, events, pins = rig
    pin = pins[Role.UNDO]
    pin.drive_low()
    time.sleep(HOLD + 0.1)
    assert buttons.buttons[Role.UNDO].is_held  # gpiozero's when_held has fired...
    assert drain(events) == []  # ...but nothing is reported before the release
    pin.drive_high()
    [ev] = drain(events)
    assert (ev.role, ev.hold) == (Role.UNDO, True)
    assert ev.duration >= HOLD


def test_when_held_alone_marks_a_hold(rig):
    """The gpiozero pattern: the flag set in when_held decides, whatever the measured time."""
    buttons, events, pins = rig
    state = buttons._states[Role.NEXT]
    pins[Role.NEXT].drive_low()
    time.sleep(TAP)
    state.was_held()  # as gpiozero's hold thread would
    pins[Role.NEXT].drive_high()
    [ev] = drain(events)
    assert ev.hold and ev.duration < HOLD


def test_press_and_release_chatter_make_one_tap(rig):
    _, events, pins = rig
    press(pins[Role.CONFIRM], TAP, bounce=4)
    presses = drain(events)
    assert [(p.role, p.hold) for p in presses] == [(Role.CONFIRM, False)]


def test_a_glitch_shorter_than_the_debounce_is_not_a_tap(rig):
    _, events, pins = rig
    pin = pins[Role.CONFIRM]
    pin.drive_low()
    time.sleep(DEBOUNCE / 3)
    pin.drive_high()
    pin.drive_low()
    pin.drive_high()
    assert drain(events) == []


def test_a_press_right_after_a_release_is_release_chatter(rig):
    _, events, pins = rig
    pin = pins[Role.CONFIRM]
    press(pin, TAP)
    press(pin, TAP)  # starts microseconds after the release: chatter, ignored whole
    assert len(drain(events)) == 1
    time.sleep(DEBOUNCE)
    press(pin, TAP)
    assert len(drain(events)) == 1


def test_separate_taps_and_roles(rig):
    _, events, pins = rig
    for role in (Role.CONFIRM, Role.NEXT, Role.CONFIRM, Role.UNDO):
        press(pins[role], TAP, bounce=2)
        time.sleep(DEBOUNCE + 0.01)
    assert [p.role for p in drain(events)] == [Role.CONFIRM, Role.NEXT, Role.CONFIRM, Role.UNDO]


def test_random_chatter_never_adds_or_loses_a_press(rig):
    _, events, pins = rig
    rng = random.Random(4)
    expected = []
    for _ in range(6):
        role = rng.choice(list(Role))
        hold = rng.random() < 0.3
        press(pins[role], HOLD + 0.05 if hold else TAP, bounce=rng.randint(0, 6))
        expected.append((role, hold))
        time.sleep(DEBOUNCE + 0.01)
    assert [(p.role, p.hold) for p in drain(events)] == expected


def test_roles_by_name_and_missing_pins(factory):
    events: queue.Queue = queue.Queue()
    with TableButtons({"confirm": 5, "undo": None}, events, pin_factory=factory) as buttons:
        assert set(buttons.buttons) == {Role.CONFIRM}
        assert factory.pin(5).pull == "up"


def test_a_full_queue_drops_instead_of_raising(factory):
    events: queue.Queue = queue.Queue(maxsize=1)
    with TableButtons({Role.CONFIRM: 5}, events, hold_s=HOLD, debounce_s=0.01,
                      pin_factory=factory):
        for _ in range(2):
            press(factory.pin(5), 0.03)
            time.sleep(0.02)
    assert events.qsize() == 1


@pytest.mark.parametrize(
    ("pins", "kwargs", "message"),
    [
        ({Role.CONFIRM: 5, Role.UNDO: 5}, {}, "both use GPIO5"),
        ({"fire": 5}, {}, "unknown button role 'fire'"),
        ({Role.CONFIRM: "5"}, {}, "expected a GPIO number"),
        ({Role.CONFIRM: 5}, {"debounce_s": 1.0, "hold_s": 0.5}, "debounce_s < hold_s"),
    ],
)
def test_bad_setups_are_refused(factory, pins, kwargs, message):
    with pytest.raises(ValueError, match=message):
        TableButtons(pins, queue.Queue(), pin_factory=factory, **kwargs)


def test_an_unusable_pin_says_what_to_check(factory):
    with pytest.raises(RuntimeError, match=r"button undo: cannot use GPIO99.*gpio' group"):
        TableButtons({Role.CONFIRM: 5, Role.UNDO: 99}, queue.Queue(), pin_factory=factory)
    # the button built before the failure was released again
    TableButtons({Role.CONFIRM: 5}, queue.Queue(), pin_factory=factory).close()
