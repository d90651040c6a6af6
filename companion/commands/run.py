"""`companion run --config companion.toml`: the referee on the Pi, as the systemd service runs it.

Validates the whole config first (every problem listed with its key path), opens the store (a
corrupt or foreign file is reported, never reset), then builds the supervised camera source, the
vision reader, the referee with its stability window, the buttons, the status light, the buzzer,
optional speech and the web server, and tells systemd it is ready. The main loop pets the
systemd watchdog only while the camera loop is alive, so a hung referee gets restarted.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

log = logging.getLogger("companion.run")


def register(sub: argparse._SubParsersAction) -> None:
    """Add `run`."""
    p = sub.add_parser("run", help="run the referee at a real table (camera, buttons, web)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--config", type=Path, default=Path("/etc/companion/companion.toml"),
                   help="TOML config (default /etc/companion/companion.toml)")
    p.add_argument("--check", action="store_true", help="validate the config and exit")
    p.add_argument("--pin-factory", choices=["default", "mock"], default="default",
                   help="gpiozero pin factory ('mock' to try it without a Pi)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Validate, build, serve; returns the exit code."""
    from ..config import ConfigError, load_config

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: "
                                                   "%(message)s", stream=sys.stderr)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        found = problems(config)
        if found:
            print(f"error: {args.config} has {len(found)} problem(s) beyond its syntax:",
                  file=sys.stderr)
            for problem in found:
                print(f"  - {problem}", file=sys.stderr)
            return 2
        print(f"{args.config}: OK")
        return 0
    code = Table(config, mock_pins=args.pin_factory == "mock").serve()
    # Everything is stopped and the store is closed. A worker that outlived its join timeout
    # (a camera or reader thread on a loaded machine) must not meet interpreter teardown inside
    # a C extension: once, under CI load, that ended the service with SIGABRT instead of 0.
    alive = [t.name for t in threading.enumerate()
             if t is not threading.main_thread() and t.is_alive()]
    if alive:
        logging.getLogger(__name__).warning("threads still running at exit: %s",
                                            ", ".join(alive))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def problems(config) -> list[str]:
    """What `serve` would refuse in a config whose syntax is valid, found without opening the
    camera, the store or the pins: the camera source's spec (`open_source`, unopened), the
    saved calibrations (`load_saved`) and the game's options (`game_options`)."""
    from ..rules.core import RulesError
    from ..sources import SourceError, open_source
    from ..vision.saved import CalibrationError, load_saved

    c, found = config, []
    try:
        open_source(c.camera.source, size=c.camera.size, settle_s=c.camera.settle_s,
                    exposure_ev=c.camera.exposure_ev)
    except SourceError as exc:
        found.append(f"camera.source: {exc}")
    try:
        load_saved(c.camera.calibration)
    except CalibrationError as exc:
        found.append(f"camera.calibration: {exc}")
    try:
        game_options(c.game)
    except RulesError as exc:
        found.append(f"game: {exc}")
    return found


class Table:
    """Everything `companion run` builds from a config, started and stopped in order."""

    def __init__(self, config, mock_pins: bool = False) -> None:
        self.config = config
        self.mock_pins = mock_pins
        self.stop_event = threading.Event()

    def serve(self) -> int:
        """Build, start, loop until SIGTERM/Ctrl-C, stop."""
        import queue

        from .. import service
        from ..referee.buttons import ButtonLoop
        from ..referee.compose import WebStack, table_pin
        from ..referee.outputs import Outputs, Speaker
        from ..referee.pipeline import CameraLoop, GameSensor
        from ..referee.referee import Referee, RefereeError
        from ..referee.stability import StabilityFilter
        from ..rules.core import RulesError
        from ..sources import SourceError, SupervisedSource, open_source
        from ..store import GameStore, StoreError
        from ..vision.saved import CalibrationError, load_saved

        c = self.config
        try:
            c.store.path.parent.mkdir(parents=True, exist_ok=True)
            store = GameStore(c.store.path)
        except (StoreError, OSError) as exc:
            print(f"error: store {c.store.path}: {exc}", file=sys.stderr)
            return 2
        try:
            referee = Referee(store, game=c.game.name, auto_confirm_s=c.referee.auto_confirm_s)
        except RefereeError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if referee.state is None:
            try:
                options = game_options(c.game)
            except RulesError as exc:
                print(f"error: game: {exc}", file=sys.stderr)
                return 2
            referee.new_match(options, start="camera", source="config")

        def make_source():
            return open_source(c.camera.source, size=c.camera.size, settle_s=c.camera.settle_s,
                               exposure_ev=c.camera.exposure_ev)

        try:
            make_source()  # validate the spec now: a typo is a config error, not a retry loop
        except SourceError as exc:
            print(f"error: camera.source: {exc}", file=sys.stderr)
            return 2
        try:
            saved = load_saved(c.camera.calibration)
        except CalibrationError as exc:
            print(f"error: camera.calibration: {exc}", file=sys.stderr)
            return 2
        log.info("%s", saved.describe())
        source = SupervisedSource(make_source, stall_s=c.camera.stall_s)
        sensor = GameSensor(referee,
                            lambda game: make_sensor(game, source, referee, c.game, saved,
                                                     marker_mm=c.camera.marker_mm))
        camera = CameraLoop(referee, sensor, StabilityFilter(c.referee.stable_s))

        factory = None
        if self.mock_pins:
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
        from ..hardware import Buzzer, StatusLight, TableButtons

        events: queue.Queue = queue.Queue(maxsize=64)
        buttons = TableButtons(c.buttons.pins(), events, hold_s=c.buttons.hold_s,
                               debounce_s=c.buttons.debounce_s, pin_factory=factory)
        light = StatusLight(c.led.pin, rgb=c.led.rgb, active_high=c.led.active_high,
                            pin_factory=factory)
        buzzer = Buzzer(c.buzzer.pin, tonal=c.buzzer.tonal, pin_factory=factory)
        speaker = Speaker(c.speech.voice) if c.speech.enabled else None
        if speaker is not None and not speaker.available:
            log.warning("speech.enabled is true but espeak-ng is not installed "
                        "(sudo apt install espeak-ng)")
        pin = table_pin(store, c.web.pin)
        try:
            web = WebStack(referee, store, camera, c.web.host, c.web.port, pin,
                           threads=c.web.threads)
        except OSError as exc:
            print(f"error: web: cannot listen on {c.web.host}:{c.web.port}: {exc}",
                  file=sys.stderr)
            return 2

        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: self.stop_event.set())
        source.start()
        camera.start()
        loop = ButtonLoop(referee, events).start()
        outputs = Outputs(referee, light=light, buzzer=buzzer, speaker=speaker).start()
        web.start()
        log.info("scoreboard on http://%s:%d/ — table PIN %s", c.web.host, web.server.port, pin)
        print(f"Table Companion: scoreboard on port {web.server.port}, table PIN {pin}",
              flush=True)
        service.notify_ready("refereeing")
        interval = service.watchdog_interval()
        ping = min(5.0, interval / 2) if interval else 5.0
        last = ""
        try:
            while not self.stop_event.wait(ping if interval else 1.0):
                if time.monotonic() - camera.heartbeat < 10.0:
                    service.notify_watchdog()  # only while the camera loop goes round
                status = source.status()
                text = f"camera {status.state}; {len(referee.log)} actions"
                if text != last:
                    service.notify_status(text)
                    last = text
        except KeyboardInterrupt:
            pass
        service.notify_stopping()
        for part in (web.stop, outputs.stop, loop.stop, camera.stop, source.stop,
                     buttons.close, light.close, buzzer.close, store.close):
            try:
                part()
            except Exception:
                log.exception("stopping %s failed", part)
        return 0


def game_options(game):
    """The options of a new match from the `[game]` section (raises `RulesError`)."""
    if game.name == "hexapod":
        from ..referee.judges import hexapod_options

        return hexapod_options(game.names or ())
    from ..rules.hexel import HexelOptions

    return HexelOptions(seats=game.seats, stake=game.stake, edition=game.edition,
                        names=game.names or ())


def make_sensor(game: str, source, referee, config, saved=None, *, marker_mm: float = 40.0):
    """The camera reader for `game` on `source` (raises if it is not available), with the
    calibrations `saved` under the config's `camera.calibration` (`vision.saved.load_saved`;
    None: the built-in colours and no lens model) and Hex'el's table markers `marker_mm` wide
    (the config's `camera.marker_mm`)."""
    if game == "hexapod":
        from ..referee.hexapod_table import CasesFrameSensor
        from ..vision.hexapod import HexapodReader  # type: ignore[import-not-found]

        params = saved.hexapod if saved is not None else None
        return CasesFrameSensor(source, HexapodReader(params=params))
    from ..referee.pipeline import FrameSensor
    from ..vision.edition import EditionWatch, other_edition
    from ..vision.reader import HexelReader

    edition = referee.options.edition if referee.options is not None and \
        hasattr(referee.options, "edition") else config.edition

    def reader(e: str, **kw) -> HexelReader:
        if saved is None:
            return HexelReader(e, marker_mm=marker_mm, **kw)
        return HexelReader(e, model=saved.hexel[e], camera=saved.camera, marker_mm=marker_mm,
                           **kw)

    watch = EditionWatch(reader(other_edition(edition), find_markers=False, keep_still=False))
    return FrameSensor(source, reader(edition), watch=watch)
