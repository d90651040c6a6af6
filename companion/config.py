"""The device's configuration file (TOML): its sections as frozen dataclasses, validated on load.

`load_config(path)` reads the file with `tomllib` and returns a `Config`; every section and key
is optional and has the default shown in `systemd/companion.toml.example`. Anything wrong — an
unknown section or key (usually a typo), a value of the wrong type or out of range, a GPIO pin
used twice — raises one `ConfigError` listing every problem with its key path, e.g.
"buttons.confirm: expected a GPIO number 2-27, got 'x'". A relative `store.path` is taken
relative to the config file's folder. This module imports nothing else of ours.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ButtonsConfig",
    "BuzzerConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "GameConfig",
    "LedConfig",
    "RefereeConfig",
    "SpeechConfig",
    "StoreConfig",
    "WebConfig",
    "as_dict",
    "default_config",
    "load_config",
    "parse_config",
]


class ConfigError(Exception):
    """The configuration cannot be used; `problems` lists each one with its key path."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


# --------------------------------------------------------------------------------------------
# The sections


@dataclass(frozen=True)
class CameraConfig:
    """Where frames come from (see `companion.sources.open_source` for the spec forms)."""

    source: str = "picamera2"
    size: tuple[int, int] = (1280, 720)
    settle_s: float = 2.0
    # exposure compensation (EV) while the exposure settles (picamera2): negative keeps white
    # paper below the sensor's clip under a lamp (see `sources.picamera`)
    exposure_ev: float = 0.0
    stall_s: float = 5.0
    # the folder of saved calibrations (camera.json, colours-*.json: `vision.saved`); a
    # relative path is taken from the config file's folder
    calibration: Path = Path("calibration")
    # the table markers' printed size, the black square's side (`markers export --size-mm`)
    marker_mm: float = 40.0


@dataclass(frozen=True)
class ButtonsConfig:
    """BCM GPIO numbers of the buttons (None: no such button) and their timing."""

    confirm: int | None = None
    undo: int | None = None
    next: int | None = None
    hold_s: float = 1.0
    debounce_s: float = 0.05

    def pins(self) -> dict[str, int]:
        """Role name ("confirm", "undo", "next") → GPIO number, for the buttons that exist."""
        wired = {"confirm": self.confirm, "undo": self.undo, "next": self.next}
        return {role: pin for role, pin in wired.items() if pin is not None}


@dataclass(frozen=True)
class LedConfig:
    """The status light: one LED on `pin`, or an RGB LED on `rgb` = [red, green, blue]."""

    pin: int | None = None
    rgb: tuple[int, int, int] | None = None
    active_high: bool = True


@dataclass(frozen=True)
class BuzzerConfig:
    """A buzzer on `pin`; `tonal` for a passive piezo that can play notes."""

    pin: int | None = None
    tonal: bool = False


@dataclass(frozen=True)
class WebConfig:
    """The scoreboard server; `pin` is the table PIN (None: generated at first start)."""

    host: str = "0.0.0.0"
    port: int = 8000
    pin: str | None = None
    threads: int = 32


@dataclass(frozen=True)
class StoreConfig:
    """Where the game log lives."""

    path: Path = Path("/var/lib/companion/companion.db")


@dataclass(frozen=True)
class GameConfig:
    """The game a new table starts with (the rules engine checks the details)."""

    name: str = "hexel"
    seats: int = 2
    names: tuple[str, ...] = ()
    stake: int = 1
    edition: str = "holodex"


@dataclass(frozen=True)
class RefereeConfig:
    """How long the table must be still before a move is judged, and optional auto-confirm."""

    stable_s: float = 1.0
    auto_confirm_s: float | None = None


@dataclass(frozen=True)
class SpeechConfig:
    """Spoken announcements through espeak-ng (when installed)."""

    enabled: bool = False
    voice: str = "en"


@dataclass(frozen=True)
class Config:
    """The whole configuration; `path` is the file it came from (None for defaults)."""

    camera: CameraConfig = field(default_factory=CameraConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    led: LedConfig = field(default_factory=LedConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    web: WebConfig = field(default_factory=WebConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    game: GameConfig = field(default_factory=GameConfig)
    referee: RefereeConfig = field(default_factory=RefereeConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    path: Path | None = None


# --------------------------------------------------------------------------------------------
# Value checks: each takes the TOML value and returns the converted one or raises _Bad


class _Bad(ValueError):
    pass


Check = Callable[[Any], Any]


def _got(value: Any) -> str:
    return repr(value)


def _number(lo: float = 0.0, *, zero_ok: bool = False, unit: str = "seconds") -> Check:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                not math.isfinite(value) or value < lo or (value == lo and not zero_ok):
            bound = f">= {lo}" if zero_ok else f"> {lo}"
            raise _Bad(f"expected a number of {unit} {bound}, got {_got(value)}")
        return float(value)
    return check


def _integer(lo: int, hi: int, what: str = "a whole number") -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _Bad(f"expected {what} {lo}-{hi}, got {_got(value)}")
        return value
    return check


_gpio = _integer(2, 27, "a GPIO number")


def _exposure_ev(value: Any) -> float:
    """An exposure compensation in EV, within what libcamera's `ExposureValue` takes."""
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            not math.isfinite(value) or not -EV_LIMIT <= value <= EV_LIMIT:
        raise _Bad(f"expected an exposure compensation in EV from {-EV_LIMIT:g} to "
                   f"{EV_LIMIT:g} (negative: darker), got {_got(value)}")
    return float(value)


EV_LIMIT = 8.0   # libcamera's ExposureValue range is -8.0 to 8.0


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(f"expected a non-empty string in quotes, got {_got(value)}")
    return value.strip()


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"expected true or false, got {_got(value)}")
    return value


def _size(value: Any) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= 8192 for v in value):
        raise _Bad(f"expected [width, height] in pixels, e.g. [1280, 720], got {_got(value)}")
    return (value[0], value[1])


def _rgb(value: Any) -> tuple[int, int, int]:
    if not isinstance(value, list) or len(value) != 3:
        raise _Bad(f"expected three GPIO numbers [red, green, blue], got {_got(value)}")
    return tuple(_gpio(v) for v in value)  # type: ignore[return-value]


def _table_pin(value: Any) -> str:
    if not isinstance(value, str) or not value.isdigit() or not 4 <= len(value) <= 12:
        raise _Bad(f'expected the table PIN as 4 to 12 digits in quotes, e.g. "4821", '
                   f"got {_got(value)}")
    return value


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _Bad(f'expected a list of names in quotes, e.g. ["Ana", "Ben"], got {_got(value)}')
    return tuple(v.strip() for v in value)


GAMES = ("hexel", "hexapod")


def _game_name(value: Any) -> str:
    name = _text(value)
    if name not in GAMES:
        raise _Bad(f"expected one of {', '.join(repr(g) for g in GAMES)} (the games the camera "
                   f"referee plays), got {_got(value)}")
    return name


def _path(value: Any) -> Path:
    return Path(_text(value)).expanduser()


_SECTIONS: dict[str, tuple[type, dict[str, Check]]] = {
    "camera": (CameraConfig, {
        "source": _text, "size": _size, "settle_s": _number(zero_ok=True),
        "exposure_ev": _exposure_ev, "stall_s": _number(), "calibration": _path,
        "marker_mm": _number(unit="millimetres"),
    }),
    "buttons": (ButtonsConfig, {
        "confirm": _gpio, "undo": _gpio, "next": _gpio, "hold_s": _number(),
        "debounce_s": _number(zero_ok=True),
    }),
    "led": (LedConfig, {"pin": _gpio, "rgb": _rgb, "active_high": _flag}),
    "buzzer": (BuzzerConfig, {"pin": _gpio, "tonal": _flag}),
    "web": (WebConfig, {
        "host": _text, "port": _integer(1, 65535, "a TCP port"), "pin": _table_pin,
        "threads": _integer(1, 256, "a thread count"),
    }),
    "store": (StoreConfig, {"path": _path}),
    "game": (GameConfig, {
        "name": _game_name, "seats": _integer(1, 12, "a number of seats"), "names": _names,
        "stake": _integer(1, 1_000_000, "a stake of chips"), "edition": _text,
    }),
    "referee": (RefereeConfig, {"stable_s": _number(), "auto_confirm_s": _number()}),
    "speech": (SpeechConfig, {"enabled": _flag, "voice": _text}),
}


# --------------------------------------------------------------------------------------------
# Loading


def load_config(path: str | Path) -> Config:
    """Read and validate the TOML file at `path`; raises `ConfigError` listing every problem."""
    path = Path(path).expanduser()
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(
            f"config file {path} not found: copy systemd/companion.toml.example there and edit "
            "it (every setting is optional)"
        ) from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    return parse_config(data, base_dir=path.parent.resolve(), source=str(path), path=path)


def parse_config(
    data: Mapping[str, Any],
    *,
    base_dir: Path | None = None,
    source: str = "the config",
    path: Path | None = None,
) -> Config:
    """Validate already-parsed TOML data (a mapping of sections) into a `Config`."""
    problems: list[str] = []
    sections: dict[str, Any] = {}
    for name, value in data.items():
        if name not in _SECTIONS:
            problems.append(f"[{name}]: unknown section; expected one of "
                            f"{', '.join(_SECTIONS)}")
            continue
        if not isinstance(value, Mapping):
            problems.append(f"{name}: expected a [{name}] section, got {_got(value)}")
            continue
        sections[name] = _section(name, value, problems)
    if "store" in sections and base_dir is not None and not sections["store"].path.is_absolute():
        sections["store"] = StoreConfig(base_dir / sections["store"].path)
    camera = sections.get("camera", CameraConfig())
    if base_dir is not None and not camera.calibration.is_absolute():
        sections["camera"] = dataclasses.replace(camera, calibration=base_dir / camera.calibration)
    config = Config(**sections, path=path)
    if not problems:
        problems.extend(_cross_checks(config))
    if problems:
        lines = "\n".join(f"  - {p}" for p in problems)
        noun = "problem" if len(problems) == 1 else "problems"
        raise ConfigError(f"{source} has {len(problems)} {noun}:\n{lines}", problems)
    return config


def _section(name: str, values: Mapping[str, Any], problems: list[str]) -> Any:
    cls, checks = _SECTIONS[name]
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        check = checks.get(key)
        if check is None:
            problems.append(f"{name}.{key}: unknown key; expected one of {', '.join(checks)}")
            continue
        try:
            kwargs[key] = check(value)
        except _Bad as exc:
            problems.append(f"{name}.{key}: {exc}")
    return cls(**kwargs)


def _cross_checks(config: Config) -> list[str]:
    problems: list[str] = []
    used: dict[int, str] = {}
    wired = [(f"buttons.{role}", pin) for role, pin in config.buttons.pins().items()]
    wired.append(("led.pin", config.led.pin))
    wired += [(f"led.rgb[{i}]", pin) for i, pin in enumerate(config.led.rgb or ())]
    wired.append(("buzzer.pin", config.buzzer.pin))
    for key, pin in wired:
        if pin is None:
            continue
        if pin in used:
            problems.append(f"{key}: GPIO{pin} is already used by {used[pin]}")
        used.setdefault(pin, key)
    if config.led.pin is not None and config.led.rgb is not None:
        problems.append("led: give either pin (one LED) or rgb (an RGB LED), not both")
    if config.buttons.debounce_s >= config.buttons.hold_s:
        problems.append(f"buttons.debounce_s: must be shorter than buttons.hold_s "
                        f"({config.buttons.debounce_s} >= {config.buttons.hold_s})")
    if config.game.name == "hexapod" and config.game.seats != 2:
        problems.append(f"game.seats: Hexapod is for 2 players, got {config.game.seats}")
    if config.game.names and len(config.game.names) != config.game.seats:
        problems.append(f"game.names: lists {len(config.game.names)} names for "
                        f"{config.game.seats} seats")
    return problems


def default_config() -> Config:
    """Every setting at its default."""
    return Config()


def as_dict(config: Config) -> dict[str, Any]:
    """The configuration as plain data (for logging and the admin page; the PIN is masked)."""
    data = dataclasses.asdict(config)
    if data["web"]["pin"] is not None:
        data["web"]["pin"] = "****"
    return data
