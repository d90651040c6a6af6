"""The TOML configuration: defaults, the shipped example, and messages that name the key path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.config import (
    ButtonsConfig,
    CameraConfig,
    Config,
    ConfigError,
    as_dict,
    load_config,
    parse_config,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "companion.toml.example"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text))
    return info.value.problems


def test_an_empty_file_gives_the_defaults(tmp_path):
    config = load_config(write(tmp_path, ""))
    assert config == Config(camera=CameraConfig(calibration=tmp_path / "calibration"),
                            path=tmp_path / "companion.toml")
    assert config.camera.source == "picamera2" and config.camera.size == (1280, 720)
    assert config.web.threads == 32 and config.web.pin is None
    assert config.referee.stable_s == 1.0 and config.referee.auto_confirm_s is None
    assert config.buttons.pins() == {}


def test_the_shipped_example_loads_and_documents_every_key():
    config = load_config(EXAMPLE)
    assert config.buttons == ButtonsConfig(confirm=17, undo=27, next=22)
    assert config.buttons.pins() == {"confirm": 17, "undo": 27, "next": 22}
    assert (config.led.pin, config.buzzer.pin) == (23, 12)
    assert config.store.path == Path("/var/lib/companion/companion.db")
    text = EXAMPLE.read_text()
    from companion.config import _SECTIONS

    for section, (_, checks) in _SECTIONS.items():
        assert f"[{section}]" in text
        for key in checks:
            assert re.search(rf"^#? ?{key} = ", text, re.M), f"{section}.{key} is not documented"


def test_a_full_file(tmp_path):
    config = load_config(write(tmp_path, """
[camera]
source = "opencv:0"
size = [2304, 1296]
settle_s = 0
exposure_ev = -1
marker_mm = 60
[buttons]
confirm = 5
hold_s = 0.8
[led]
rgb = [16, 20, 21]
active_high = false
[buzzer]
pin = 13
tonal = true
[web]
host = "127.0.0.1"
port = 8080
pin = "0042"
threads = 40
[store]
path = "data/games.db"
[game]
seats = 3
names = ["Ana", "Ben", "Cy"]
stake = 5
edition = "web"
[referee]
stable_s = 0.7
auto_confirm_s = 3
[speech]
enabled = true
voice = "en-gb"
"""))
    assert config.camera.size == (2304, 1296) and config.camera.settle_s == 0.0
    assert config.camera.marker_mm == 60.0 and config.camera.exposure_ev == -1.0
    assert config.led.rgb == (16, 20, 21) and not config.led.active_high
    assert config.web.pin == "0042"
    assert config.store.path == tmp_path / "data" / "games.db"  # relative to the file
    assert config.game.names == ("Ana", "Ben", "Cy")
    assert config.referee.auto_confirm_s == 3.0
    assert as_dict(config)["web"]["pin"] == "****"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[buttons]\nconfirm = "x"', "buttons.confirm: expected a GPIO number 2-27, got 'x'"),
        ("[buttons]\nconfirm = 40", "buttons.confirm: expected a GPIO number 2-27, got 40"),
        ("[buttons]\nconfirm = true", "buttons.confirm: expected a GPIO number 2-27, got True"),
        ("[buttons]\nconfrim = 17", "buttons.confrim: unknown key; expected one of confirm"),
        ("[camera]\nsize = [1280]", "camera.size: expected [width, height] in pixels"),
        ("[camera]\nstall_s = 0", "camera.stall_s: expected a number of seconds > 0.0, got 0"),
        ("[camera]\nmarker_mm = -40", "camera.marker_mm: expected a number of millimetres > 0.0"),
        ("[camera]\nexposure_ev = 9", "camera.exposure_ev: expected an exposure compensation in "
         "EV from -8 to 8 (negative: darker), got 9"),
        ('[camera]\nexposure_ev = "dark"', "camera.exposure_ev: expected an exposure compensation"),
        ("[web]\npin = 4821", 'web.pin: expected the table PIN as 4 to 12 digits in quotes'),
        ('[web]\npin = "12"', "web.pin: expected the table PIN"),
        ("[web]\nport = 70000", "web.port: expected a TCP port 1-65535, got 70000"),
        ('[speech]\nenabled = "yes"', "speech.enabled: expected true or false, got 'yes'"),
        ("[game]\nnames = [1, 2]", "game.names: expected a list of names"),
        ('[referee]\nauto_confirm_s = "soon"', "referee.auto_confirm_s: expected a number"),
        ("[led]\nrgb = [5, 6]", "led.rgb: expected three GPIO numbers"),
        ("[led]\nrgb = [5, 6, 99]", "led.rgb: expected a GPIO number 2-27, got 99"),
        ("[cameras]\nsource = 'x'", "[cameras]: unknown section; expected one of camera"),
        ("camera = 3", "camera: expected a [camera] section, got 3"),
    ],
)
def test_each_mistake_is_named_by_its_key_path(tmp_path, text, expected):
    [problem] = problems(tmp_path, text)
    assert problem.startswith(expected), problem


def test_every_problem_is_listed_at_once(tmp_path):
    found = problems(tmp_path, '[buttons]\nconfirm = "x"\nundo = 99\n[web]\nport = 0\n')
    assert [p.split(":")[0] for p in found] == ["buttons.confirm", "buttons.undo", "web.port"]
    with pytest.raises(ConfigError, match=r"has 3 problems:\n  - buttons.confirm"):
        load_config(write(tmp_path, '[buttons]\nconfirm = "x"\nundo = 99\n[web]\nport = 0\n'))


def test_cross_checks(tmp_path):
    assert problems(tmp_path, "[buttons]\nconfirm = 17\n[buzzer]\npin = 17") == [
        "buzzer.pin: GPIO17 is already used by buttons.confirm"]
    assert problems(tmp_path, "[led]\npin = 5\nrgb = [6, 7, 8]") == [
        "led: give either pin (one LED) or rgb (an RGB LED), not both"]
    assert problems(tmp_path, "[buttons]\nhold_s = 0.05\ndebounce_s = 0.1")[0].startswith(
        "buttons.debounce_s: must be shorter than buttons.hold_s")
    assert problems(tmp_path, '[game]\nseats = 3\nnames = ["A", "B"]') == [
        "game.names: lists 2 names for 3 seats"]


def test_file_level_errors(tmp_path):
    with pytest.raises(ConfigError, match=r"not found: copy systemd/companion\.toml\.example"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match=r"not valid TOML: .*line 2"):
        load_config(write(tmp_path, "[camera]\nsource = \n"))


def test_parse_config_takes_parsed_data():
    config = parse_config({"game": {"seats": 4}})
    assert config.game.seats == 4 and config.path is None
    with pytest.raises(ConfigError, match=r"game\.seats"):
        parse_config({"game": {"seats": 0}})


def test_the_calibration_folder_is_taken_from_the_config_files_folder(tmp_path):
    assert load_config(write(tmp_path, "")).camera.calibration == tmp_path / "calibration"
    config = load_config(write(tmp_path, '[camera]\ncalibration = "cal/table2"\n'))
    assert config.camera.calibration == tmp_path / "cal" / "table2"
    config = load_config(write(tmp_path, '[camera]\ncalibration = "/srv/cal"\n'))
    assert config.camera.calibration == Path("/srv/cal")
    assert any("camera.calibration" in p for p in problems(tmp_path, "[camera]\ncalibration = 3\n"))
