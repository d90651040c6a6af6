"""StatusLight and Buzzer on gpiozero mock pins, and their no-op forms without pins."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.hardware import BEEP, HOXLA, Buzzer, StatusLight


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def transitions(pin) -> list[tuple[float, bool]]:
    """(seconds since the previous change, new state) for each change after the first record."""
    return [(s.timestamp, bool(s.state)) for s in pin.states[1:]]


def test_single_led_states(factory):
    light = StatusLight(18, pin_factory=factory)
    pin = factory.pin(18)
    assert light.state == "off" and not pin.state
    light.set("legal")
    assert pin.state
    light.set("illegal")
    pin.clear_states()
    time.sleep(0.75)
    changes = transitions(pin)
    assert len(changes) >= 3  # fast blink: a change every 0.1 s
    # (the median: on a loaded machine the blink thread now and then wakes late)
    gaps = sorted(dt for dt, _ in changes[1:])
    assert 0.05 < gaps[len(gaps) // 2] < 0.2
    light.set("off")
    pin.clear_states()
    light.set("waiting")
    time.sleep(0.3)
    light.set("off")
    changes = transitions(pin)
    assert changes[0][1] is True and changes[1][1] is False
    assert 0.15 < changes[1][0] < 0.3  # slow blink: on for 0.2 s, then a long pause
    assert not pin.state
    light.close()
    light.close()


def test_rgb_led_colours(factory):
    light = StatusLight(rgb=(5, 6, 13), pin_factory=factory)
    red, green, blue = (factory.pin(p) for p in (5, 6, 13))
    light.set("legal")
    assert (red.state, green.state, blue.state) == (False, True, False)
    light.set("illegal")
    red.clear_states()
    time.sleep(0.35)
    assert len(transitions(red)) >= 2 and not green.state and not blue.state
    light.set("waiting")
    time.sleep(0.05)
    assert (red.state, green.state, blue.state) == (False, False, True)
    light.close()


def test_light_refuses_unknown_states_and_double_wiring(factory):
    light = StatusLight(pin_factory=factory)
    with pytest.raises(ValueError, match="must be one of"):
        light.set("happy")
    with pytest.raises(ValueError, match="not both"):
        StatusLight(18, rgb=(5, 6, 13), pin_factory=factory)


def test_without_pins_the_outputs_are_silent_stand_ins():
    light = StatusLight()
    light.set("illegal")
    assert light.state == "illegal" and light.device is None
    buzzer = Buzzer()
    buzzer.beep()
    buzzer.play_hoxla()
    assert buzzer.played == [BEEP, HOXLA]
    assert not buzzer.playing and buzzer.wait(0)
    buzzer.close()


def test_plain_buzzer_plays_the_rhythm_without_blocking(factory):
    buzzer = Buzzer(12, pin_factory=factory)
    pin = factory.pin(12)
    pin.clear_states()
    t0 = time.monotonic()
    buzzer.play_hoxla()
    assert time.monotonic() - t0 < 0.05 and buzzer.playing
    assert buzzer.wait(3)
    changes = transitions(pin)
    ons = [c for c in changes if c[1]]
    assert len(ons) == sum(1 for note, _ in HOXLA if note)  # one sound per note, rests silent
    durations = [dt for dt, state in changes if not state]  # time spent on before each off
    assert durations[0] == pytest.approx(0.12, abs=0.04)
    assert durations[-1] == pytest.approx(0.4, abs=0.06)
    assert not pin.state
    buzzer.close()


def test_tonal_buzzer_plays_the_notes(factory):
    factory.pin_class = MockPWMPin
    buzzer = Buzzer(13, tonal=True, pin_factory=factory)
    heard: list[str] = []
    done = threading.Event()

    def listen() -> None:
        while not done.is_set():
            tone = buzzer.device.tone
            note = tone.note if tone is not None else None
            if note and (not heard or heard[-1] != note):
                heard.append(note)
            elif note is None and heard and heard[-1] != "-":
                heard.append("-")
            time.sleep(0.002)

    listener = threading.Thread(target=listen)
    listener.start()
    buzzer.play_hoxla()
    assert buzzer.wait(3)
    done.set()
    listener.join()
    assert [n for n in heard if n != "-"] == [n for n, _ in HOXLA if n]
    assert buzzer.device.tone is None  # silent at the end
    buzzer.close()


def test_a_new_sound_cuts_the_tune_playing(factory):
    buzzer = Buzzer(12, pin_factory=factory)
    buzzer.play_hoxla()
    time.sleep(0.05)
    t0 = time.monotonic()
    buzzer.beep()
    assert buzzer.wait(1)
    assert time.monotonic() - t0 < 0.4  # the fanfare (about 1.2 s) did not finish first
    assert buzzer.played == [HOXLA, BEEP]
    assert not factory.pin(12).state
    buzzer.close()


def test_bad_tunes_are_refused_in_the_caller():
    buzzer = Buzzer()
    with pytest.raises(ValueError):
        buzzer.play([("H9", 0.1)])
    with pytest.raises(ValueError, match="positive"):
        buzzer.play([("A4", 0)])
