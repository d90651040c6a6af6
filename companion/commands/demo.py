"""`companion demo`: a synthetic table refereed through the real pipeline, on your screen.

Simulated players lay real cards on a simulated table (now and then wrongly — Hex'el: at a wrong
rotation; Hexapod, `--game hexapod`: where P2 forbids it —, which the referee must catch); the
renderer photographs the table with hands passing over it; the vision reader reads each frame;
the stability window, the referee, the store and the scoreboard are the ones the Pi runs. Open the
printed address on a phone or browser; the admin page (PIN printed) has the virtual CONFIRM /
UNDO / NEXT buttons. `--no-camera` skips the pixels (observations come straight from the
simulated table); it is also the fallback when the renderer or reader is missing. Ctrl-C stops
everything cleanly.
"""

from __future__ import annotations

import argparse
import logging
import signal
import tempfile
import threading
import time
from pathlib import Path

from ._argtypes import number, port, seconds, share

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay")


def register(sub: argparse._SubParsersAction) -> None:
    """Add `demo`."""
    p = sub.add_parser("demo", help="a synthetic table refereed live (open the scoreboard)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=["hexel", "hexapod"], default="hexel",
                   help="the game at the table (default hexel; hexapod: two display cases)")
    p.add_argument("--port", type=port, default=8000,
                   help="web port, 0-65535 (default 8000; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to serve on (default 127.0.0.1; 0.0.0.0 for phones on the LAN)")
    p.add_argument("--seed", type=int, default=1, help="random seed of the players (default 1)")
    p.add_argument("--players", type=int, default=None,
                   help="seats at the table: Hex'el 1-6 (default 3), Hexapod 2")
    p.add_argument("--no-camera", action="store_true",
                   help="skip rendering and reading images: observe the simulated table directly")
    p.add_argument("--manual", action="store_true",
                   help="no auto-confirm: moves wait for CONFIRM on the admin page")
    p.add_argument("--pace", type=number(0.0, above=True), default=1.0,
                   help="seconds per player gesture (default 1.0; smaller is faster)")
    p.add_argument("--illegal", type=share, default=0.15,
                   help="share of moves first laid wrongly (default 0.15)")
    p.add_argument("--store", type=Path, default=None,
                   help="game store file to keep (default: a fresh temporary one)")
    p.add_argument("--pin", default=None, help="admin PIN (default: random, printed)")
    p.add_argument("--edition", choices=["holodex", "web"], default="holodex")
    p.add_argument("--stable", type=seconds, default=0.8, help="stability window, s (default 0.8)")
    p.add_argument("--speak", action="store_true",
                   help="speak announcements through espeak-ng (if installed)")
    p.add_argument("--duration", type=number(0.0, above=True), default=None,
                   help="stop after this many seconds (default: run until Ctrl-C)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build the table, the players, the pipeline and the web server; run until Ctrl-C."""
    from ..referee.compose import WebStack, table_pin
    from ..referee.outputs import Outputs, Speaker
    from ..referee.pipeline import CameraLoop
    from ..referee.referee import Referee, RefereeError
    from ..referee.stability import StabilityFilter
    from ..rules.core import RulesError
    from ..store import GameStore, StoreError

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    game = getattr(args, "game", "hexel")
    players_n = args.players if args.players is not None else (2 if game == "hexapod" else 3)
    if game == "hexapod" and players_n != 2:
        print("error: Hexapod is for two players (--players 2)")
        return 2
    if not 1 <= players_n <= 6:
        print("error: --players must be 1 to 6")
        return 2
    path = args.store or Path(tempfile.mkdtemp(prefix="companion-demo-")) / "demo.db"
    try:
        store = GameStore(path)
        referee = Referee(store, game=game, auto_confirm_s=None if args.manual else 1.0)
    except (StoreError, RefereeError) as exc:
        print(f"error: {exc}")
        return 2
    if referee.state is None or referee.game != game or referee.state.phase == "over":
        try:
            options = _options(game, players_n, args)
        except RulesError as exc:
            print(f"error: {exc}")
            return 2
        referee.new_match(options, start="camera", source="demo")

    if game == "hexapod":
        _table, sensor, how, players = build_hexapod(
            referee, seed=args.seed, pace=args.pace, illegal=args.illegal,
            camera=not args.no_camera, manual=args.manual)
    else:
        _table, sensor, how, players = build_hexel(args, referee)
    camera = CameraLoop(referee, sensor, StabilityFilter(args.stable))
    pin = table_pin(store, args.pin)
    try:
        web = WebStack(referee, store, camera, args.host, args.port, pin,
                       join_url=None if args.host not in ("127.0.0.1", "localhost")
                       else f"http://127.0.0.1:{args.port}/")
    except OSError as exc:
        print(f"error: cannot serve on {args.host}:{args.port}: {exc} (try --port)")
        # (nothing started yet: let go of the sensor's camera and the store as a stop does)
        _close(sensor)
        store.close()
        return 2
    speaker = Speaker() if args.speak else None
    if speaker is not None and not speaker.available:
        print("note: --speak needs espeak-ng (sudo apt install espeak-ng)")
    outputs = Outputs(referee, speaker=speaker)

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C, or `kill`: stop cleanly
        signal.signal(sig, lambda *_: stop.set())
    camera.start()
    web.start()
    outputs.start()
    players.start()
    url = f"http://{args.host if args.host != '0.0.0.0' else '127.0.0.1'}:{web.server.port}"
    title = "Hexapod" if game == "hexapod" else "Hex'el"
    print(f"Table Companion demo: {title}, {players_n} simulated players, {how}")
    print(f"  scoreboard  {url}/")
    print(f"  admin       {url}/admin/   PIN {pin}")
    print(f"  join (QR)   {url}/join")
    print(f"  store       {path}")
    print("  Ctrl-C to stop.")
    started = time.monotonic()
    try:
        while not stop.wait(0.5):
            if args.duration is not None and time.monotonic() - started > args.duration:
                break
    except KeyboardInterrupt:
        pass
    print("\nstopping...")
    players.stop()
    camera.stop()
    outputs.stop()
    web.stop()
    _close(sensor)
    store.close()
    wrong = "at a wrong rotation" if game == "hexel" else "where P2 forbids it"
    print(f"{players.moves} cards laid, {players.illegal_laid} {wrong} "
          f"({players.illegal_caught} caught by the referee); {len(referee.log)} actions "
          f"committed.")
    return 0


def _close(sensor) -> None:
    """Close the sensor's camera source, where it has one to close."""
    closer = getattr(sensor, "close", None)
    if closer is not None:
        closer()


def _options(game: str, players: int, args: argparse.Namespace):
    """The options of the demo's match."""
    if game == "hexapod":
        from ..referee.judges import hexapod_options

        return hexapod_options(NAMES[:2])
    from ..rules.hexel import HexelOptions

    return HexelOptions(seats=players, stake=2, edition=args.edition, names=NAMES[:players],
                        chips=(100,) * players)


def build_hexel(args: argparse.Namespace, referee):
    """The Hex'el table, its sensor, how it is seen, and the simulated players."""
    from ..referee.players import SimulatedPlayers
    from ..referee.simtable import PhysicalTable

    table = PhysicalTable()
    sensor, how = _sensor(args, table)
    players = SimulatedPlayers(referee, table, seed=args.seed, pace_s=args.pace,
                               illegal_rate=args.illegal,
                               wait_for_commit_s=None if args.manual else 30.0)
    return table, sensor, how, players


def build_hexapod(referee, *, seed: int = 1, pace: float = 1.0, illegal: float = 0.15,
                  camera: bool = True, manual: bool = False, fps: float = 10.0):
    """The Hexapod display cases, their sensor, how they are seen, and the two simulated
    players. With `camera`, frames are rendered and read by `HexapodReader` when both the
    renderer and the reader are available; otherwise the sensor observes the cases directly."""
    from ..referee.hexapod_players import SimulatedHexapodPlayers
    from ..referee.hexapod_table import CasesSensor, PhysicalCases

    cases = PhysicalCases()
    sensor, how = None, "observations straight from the simulated cases (no camera)"
    if camera:
        sensor, note = _hexapod_camera(cases, seed)
        if sensor is None:
            print(f"note: {note}; observing the simulated cases directly")
        else:
            how = note
    if sensor is None:
        sensor = CasesSensor(cases, fps=fps)
    players = SimulatedHexapodPlayers(referee, cases, seed=seed, pace_s=pace,
                                      illegal_rate=illegal,
                                      wait_for_commit_s=None if manual else 30.0)
    return cases, sensor, how, players


def _hexapod_camera(cases, seed: int):
    """(renderer → source → HexapodReader sensor, description), or (None, why not)."""
    try:
        from ..referee.hexapod_table import CasesCamera, CasesFrameSensor
        from ..sources import SupervisedSource, SyntheticSource
        from ..vision.hexapod import HexapodReader  # type: ignore[import-not-found]

        reader = HexapodReader()
        render = CasesCamera(cases, seed=seed)
    except Exception as exc:  # the reader or renderer missing or not ready yet
        return None, f"no Hexapod renderer/reader ({type(exc).__name__}: {exc})"
    source = SupervisedSource(lambda: SyntheticSource(render, fps=6), stall_s=5)
    source.start()
    sensor = CasesFrameSensor(source, reader)
    sensor.close = source.stop  # type: ignore[attr-defined]
    return sensor, "synthetic camera → Hexapod reader → referee"


def _sensor(args: argparse.Namespace, table):
    """The real pipeline (renderer → source → reader) if available, else direct observation."""
    from ..referee.pipeline import FrameSensor, TableSensor

    if not args.no_camera:
        try:
            from ..referee.scene import SceneCamera
            from ..sources import SupervisedSource, SyntheticSource
            from ..vision.edition import EditionWatch, other_edition
            from ..vision.reader import HexelReader
        except ImportError as exc:
            print(f"note: no renderer/reader ({exc}); observing the simulated table directly")
        else:
            render = SceneCamera(table, edition=args.edition, seed=args.seed)
            source = SupervisedSource(lambda: SyntheticSource(render, fps=8), stall_s=5)
            source.start()
            watch = EditionWatch(HexelReader(other_edition(args.edition), find_markers=False,
                                             keep_still=False))
            sensor = FrameSensor(source, HexelReader(args.edition), watch=watch)
            sensor.close = source.stop  # type: ignore[attr-defined]
            return sensor, "synthetic camera → vision reader → referee"
    return TableSensor(table, fps=10, edition=args.edition), \
        "observations straight from the simulated table (no camera)"
