"""`companion bench referee`: how fast the table answers — placement to announcement, and SSE push.

1. Placement → announcement through the whole pipeline: a simulated player lays a legal card and
   withdraws the hand; the synthetic camera (renderer → supervised source), the vision reader, the
   stability window, the referee (auto-confirm at once), the store (fsync) and the bus follow; the
   clock stops when a subscriber receives the announcement. Reported beyond the stability window
   (target ≤ 300 ms). `--no-camera` observes the simulated table directly (referee only).
2. SSE push: 30 scoreboards (or `--clients`) hold Server-Sent Events streams on a real waitress
   server on loopback; full-state updates are published and the delay to each client is
   measured (target p95 ≤ 100 ms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

from ..cli import group
from ._argtypes import number, seconds, whole


def register(sub: argparse._SubParsersAction) -> None:
    """Add `bench referee`."""
    g = group(sub, "bench", "Benchmarks (not tests): print timings.")
    p = g.add_parser("referee", help="placement→announcement and SSE push latency",
                     description=__doc__.split("\n\n")[0])
    p.add_argument("--placements", type=whole(1), default=12, help="cards to lay (default 12)")
    p.add_argument("--stable", type=seconds, default=0.5, help="stability window, s (default 0.5)")
    p.add_argument("--fps", type=number(0.0, above=True), default=15.0,
                   help="synthetic camera fps (default 15)")
    p.add_argument("--clients", type=whole(1), default=30, help="SSE clients (default 30)")
    p.add_argument("--pushes", type=whole(1), default=40, help="SSE updates to time (default 40)")
    p.add_argument("--no-camera", action="store_true",
                   help="observe the simulated table directly (no rendering or reading)")
    p.add_argument("--seed", type=int, default=3)
    p.set_defaults(run=run)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def summary(name: str, ms: list[float], target: str) -> str:
    """One line of figures in milliseconds."""
    return (f"{name}: n={len(ms)}  p50 {pct(ms, .5):.0f} ms  p95 {pct(ms, .95):.0f} ms  "
            f"max {max(ms):.0f} ms  mean {statistics.fmean(ms):.0f} ms  ({target})")


def run(args: argparse.Namespace) -> int:
    """Run both benchmarks and print the figures."""
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        lat = placement_latency(Path(tmp) / "a.db", args)
        print(summary("placement → announcement beyond the stability window", lat,
                      "target p95 ≤ 300 ms"))
        push = sse_latency(Path(tmp) / "b.db", args.clients, args.pushes)
        print(summary(f"SSE push to {args.clients} clients", push, "target p95 ≤ 100 ms"))
        ok = pct(lat, .95) <= 300 and pct(push, .95) <= 100
    return 0 if ok else 1


def _match(path: Path, seed: int, auto: float | None = 0.0):
    from ..referee.referee import Referee
    from ..rules.hexel import HexelOptions
    from ..store import GameStore

    store = GameStore(path)
    referee = Referee(store, auto_confirm_s=auto)
    referee.new_match(HexelOptions(seats=3, stake=1, chips=(500,) * 3), start="shuffle",
                      seed=seed)
    referee.next("bench")  # stakes
    return store, referee


def placement_latency(path: Path, args: argparse.Namespace) -> list[float]:
    """Milliseconds from a settled placement to the announcement, minus the stability window."""
    from ..referee.pipeline import CameraLoop, FrameSensor, TableSensor
    from ..referee.simtable import PhysicalTable
    from ..referee.stability import StabilityFilter
    from ..rules.hexel import GAME
    from ..rules.hexel.game import Place, Shuffle

    store, referee = _match(path, args.seed)
    table = PhysicalTable()
    stop_source = None
    if args.no_camera:
        sensor = TableSensor(table, fps=args.fps, draw=False)
        how = "direct observation"
    else:
        from ..referee.scene import SceneCamera
        from ..sources import SupervisedSource, SyntheticSource
        from ..vision.reader import HexelReader

        render = SceneCamera(table, seed=args.seed)
        source = SupervisedSource(lambda: SyntheticSource(render, fps=args.fps), stall_s=5)
        source.start()
        stop_source = source.stop
        sensor = FrameSensor(source, HexelReader("holodex"), annotate=False)
        how = f"renderer {args.fps:g} fps → reader"
    print(f"placement latency: {how}, stability window {args.stable:g} s, auto-confirm at once")
    camera = CameraLoop(referee, sensor, StabilityFilter(args.stable), period_s=0.005).start()
    sub = referee.bus.subscribe(None)
    out: list[float] = []
    try:
        for _ in range(args.placements * 3):
            if len(out) >= args.placements:
                break
            state = referee.state
            if state is None:
                break
            if state.phase == "over":
                referee.next("bench")  # next game
                referee.submit(Shuffle(len(out)), "bench")
                continue
            if state.phase in ("stake", "setup"):
                if state.phase == "setup":
                    referee.submit(Shuffle(len(out)), "bench")
                referee.next("bench")
                continue
            table.cards = {p.cell: p.oriented for p in state.layout.placements}
            move = next((a for a in GAME.legal_actions(state) if isinstance(a, Place)), None)
            if move is None:
                referee.next("bench")
                continue
            time.sleep(args.stable + 0.3)  # the table is settled as committed
            while sub.get(0) is not None:
                pass
            table.hover(move.cell)
            time.sleep(0.3)
            table.lay(move.card, move.cell, move.rotation)
            time.sleep(0.2)
            table.hover(None)
            settled = time.perf_counter()
            deadline = settled + args.stable + 5
            while time.perf_counter() < deadline:
                u = sub.get(0.5)
                if u is not None and u.kind == "announce":
                    out.append((time.perf_counter() - settled - args.stable) * 1000)
                    break
            else:
                print(f"  no announcement for {move} ({referee.proposal.message})")
    finally:
        camera.stop()
        if stop_source is not None:
            stop_source()
        store.close()
    if not out:
        raise SystemExit("no placement was announced: is the reader working?")
    return out


def sse_latency(path: Path, clients: int, pushes: int) -> list[float]:
    """Milliseconds from publishing a full-state update to its arrival at each SSE client."""
    import http.client

    from ..referee.compose import WebStack

    store, referee = _match(path, 7, auto=None)
    web = WebStack(referee, store, None, "127.0.0.1", 0, "0000",
                   threads=clients + 8).start()
    delays: list[float] = []
    lock = threading.Lock()
    ready = threading.Barrier(clients + 1)
    done = threading.Event()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", web.server.port, timeout=10)
        conn.request("GET", "/events")
        resp = conn.getresponse()
        ready.wait()
        try:
            while not done.is_set():
                line = resp.fp.readline()
                if not line:
                    return
                if line.startswith(b"data: ") and b"bench_t" in line:
                    t = time.perf_counter()
                    sent = json.loads(line[6:])["bench_t"]
                    with lock:
                        delays.append((t - sent) * 1000)
        except OSError:
            pass
        finally:
            conn.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    ready.wait(timeout=20)
    time.sleep(0.5)
    snapshot = referee.snapshot()
    for _ in range(pushes):
        referee.bus.publish("state", {**snapshot, "bench_t": time.perf_counter()})
        time.sleep(0.05)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and len(delays) < clients * pushes:
        time.sleep(0.05)
    done.set()
    web.stop()
    store.close()
    if len(delays) < clients * pushes:
        print(f"  only {len(delays)} of {clients * pushes} deliveries arrived")
    print(f"SSE: {clients} clients, {pushes} full-state updates of "
          f"{len(json.dumps(snapshot)) // 1024} KiB, waitress {clients + 8} threads")
    return delays
