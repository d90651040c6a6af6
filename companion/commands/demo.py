"""`companion demo`: a synthetic Hex'el table refereed through the real pipeline, on your screen.

Simulated players lay real cards on a simulated table (now and then at a wrong rotation, which the
referee must catch); the renderer photographs the table with hands passing over it; the vision
reader reads each frame; the stability window, the referee, the store and the scoreboard are the
ones the Pi runs. Open the printed address on a phone or browser; the admin page (PIN printed)
has the virtual CONFIRM / UNDO / NEXT buttons. `--no-camera` skips the pixels (observations come
straight from the simulated table); it is also the fallback when the renderer or reader is
missing. Ctrl-C stops everything cleanly.
"""

from __future__ import annotations

import argparse
import logging
import signal
import tempfile
import threading
import time
from pathlib import Path

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay")


def register(sub: argparse._SubParsersAction) -> None:
    """Add `demo`."""
    p = sub.add_parser("demo", help="a synthetic Hex'el table refereed live (open the scoreboard)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=8000, help="web port (default 8000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to serve on (default 127.0.0.1; 0.0.0.0 for phones on the LAN)")
    p.add_argument("--seed", type=int, default=1, help="random seed of the players (default 1)")
    p.add_argument("--players", type=int, default=3, help="seats at the table, 1-6 (default 3)")
    p.add_argument("--no-camera", action="store_true",
                   help="skip rendering and reading images: observe the simulated table directly")
    p.add_argument("--manual", action="store_true",
                   help="no auto-confirm: moves wait for CONFIRM on the admin page")
    p.add_argument("--pace", type=float, default=1.0,
                   help="seconds per player gesture (default 1.0; smaller is faster)")
    p.add_argument("--illegal", type=float, default=0.15,
                   help="share of moves first laid at a wrong rotation (default 0.15)")
    p.add_argument("--store", type=Path, default=None,
                   help="game store file to keep (default: a fresh temporary one)")
    p.add_argument("--pin", default=None, help="admin PIN (default: random, printed)")
    p.add_argument("--edition", choices=["holodex", "web"], default="holodex")
    p.add_argument("--stable", type=float, default=0.8, help="stability window, s (default 0.8)")
    p.add_argument("--speak", action="store_true",
                   help="speak announcements through espeak-ng (if installed)")
    p.add_argument("--duration", type=float, default=None,
                   help="stop after this many seconds (default: run until Ctrl-C)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build the table, the players, the pipeline and the web server; run until Ctrl-C."""
    from ..referee.compose import WebStack, table_pin
    from ..referee.outputs import Outputs, Speaker
    from ..referee.pipeline import CameraLoop
    from ..referee.players import SimulatedPlayers
    from ..referee.referee import Referee
    from ..referee.simtable import PhysicalTable
    from ..referee.stability import StabilityFilter
    from ..rules.core import RulesError
    from ..rules.hexel import HexelOptions
    from ..store import GameStore, StoreError

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if not 1 <= args.players <= 6:
        print("error: --players must be 1 to 6")
        return 2
    path = args.store or Path(tempfile.mkdtemp(prefix="companion-demo-")) / "demo.db"
    try:
        store = GameStore(path)
    except StoreError as exc:
        print(f"error: {exc}")
        return 2
    auto = None if args.manual else 1.0
    referee = Referee(store, auto_confirm_s=auto)
    if referee.state is None or referee.state.phase == "over":
        try:
            options = HexelOptions(seats=args.players, stake=2, edition=args.edition,
                                   names=NAMES[:args.players], chips=(100,) * args.players)
        except RulesError as exc:
            print(f"error: {exc}")
            return 2
        referee.new_match(options, start="camera", source="demo")

    table = PhysicalTable()
    sensor, how = _sensor(args, table)
    camera = CameraLoop(referee, sensor, StabilityFilter(args.stable))
    pin = table_pin(store, args.pin)
    try:
        web = WebStack(referee, store, camera, args.host, args.port, pin,
                       join_url=None if args.host not in ("127.0.0.1", "localhost")
                       else f"http://127.0.0.1:{args.port}/")
    except OSError as exc:
        print(f"error: cannot serve on {args.host}:{args.port}: {exc} (try --port)")
        return 2
    players = SimulatedPlayers(referee, table, seed=args.seed, pace_s=args.pace,
                               illegal_rate=args.illegal,
                               wait_for_commit_s=None if args.manual else 30.0)
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
    print(f"Table Companion demo: {args.players} simulated players, {how}")
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
    closer = getattr(sensor, "close", None)
    if closer is not None:
        closer()
    store.close()
    print(f"{players.moves} cards laid, {players.illegal_laid} at a wrong rotation "
          f"({players.illegal_caught} caught by the referee); {len(referee.log)} actions "
          f"committed.")
    return 0


def _sensor(args: argparse.Namespace, table):
    """The real pipeline (renderer → source → reader) if available, else direct observation."""
    from ..referee.pipeline import FrameSensor, TableSensor

    if not args.no_camera:
        try:
            from ..referee.scene import SceneCamera
            from ..sources import SupervisedSource, SyntheticSource
            from ..vision.reader import HexelReader
        except ImportError as exc:
            print(f"note: no renderer/reader ({exc}); observing the simulated table directly")
        else:
            render = SceneCamera(table, edition=args.edition, seed=args.seed)
            source = SupervisedSource(lambda: SyntheticSource(render, fps=8), stall_s=5)
            source.start()
            sensor = FrameSensor(source, HexelReader(args.edition))
            sensor.close = source.stop  # type: ignore[attr-defined]
            return sensor, "synthetic camera → vision reader → referee"
    return TableSensor(table, fps=10, edition=args.edition), \
        "observations straight from the simulated table (no camera)"
