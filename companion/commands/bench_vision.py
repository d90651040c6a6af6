"""`companion bench vision --game hexel`: render synthetic tables in difficulty bands with
`companion.scenarios`, read them with the Hex'el reader on one thread, and print per band the
per-card and per-edge accuracy, whole-table exact rate, misreads, false cards, how occluded
cards were handled, and the median time per frame (reading; the once-per-camera marker
calibration is timed separately). Scoring rules: `companion.vision.scoring`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from ..cli import group


def register(sub: argparse._SubParsersAction) -> None:
    """Add `bench vision`."""
    g = group(sub, "bench", "Measure the project's parts against their targets.")
    p = g.add_parser("vision", help="accuracy and speed of the card reader on synthetic tables",
                     description="Render synthetic Hex'el tables (easy: tilt < 10°, no hands; "
                                 "hard: every effect) and score the reader on them.")
    p.add_argument("--game", choices=["hexel"], default="hexel")
    p.add_argument("--edition", choices=["holodex", "web", "both"], default="both",
                   help="card edition (default both, alternating by scene)")
    p.add_argument("--scenes", type=int, default=100, help="scenes per band (default 100)")
    p.add_argument("--seed", type=int, default=0, help="first scene seed (default 0)")
    p.add_argument("--cards", type=int, default=20, help="cards per table (default 20)")
    p.add_argument("--bands", default="easy,hard", help="comma-separated bands (default easy,hard)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--show-failures", action="store_true",
                   help="list the scenes that were not read exactly")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from ..scenarios import hexel_scene
    from ..vision.reader import HexelReader
    from ..vision.scoring import FULL_VISIBLE, TruthCard, score_table

    cv2.setNumThreads(1)
    if args.scenes < 1:
        print("error: --scenes must be at least 1")
        return 2
    report = {}
    for band in [b.strip() for b in args.bands.split(",") if b.strip()]:
        totals: dict[str, float] = {}
        exact = 0
        read_ms, cal_ms, failures, card_px = [], [], [], []
        for i in range(args.scenes):
            seed = args.seed + i
            edition = (("holodex", "web")[i % 2] if args.edition == "both" else args.edition)
            image, truth = hexel_scene(seed, band, args.cards, edition)
            reader = HexelReader(edition, find_markers=False)
            t0 = time.perf_counter()
            reader.calibrate(image)
            t1 = time.perf_counter()
            result = reader.read(image)
            t2 = time.perf_counter()
            cal_ms.append(1000 * (t1 - t0))
            card_px.extend(_card_widths(truth))
            read_ms.append(1000 * (t2 - t1))
            s = score_table(result.observation.cards,
                            [TruthCard(c.image_cell, c.image_symbols, c.visible)
                             for c in truth.cards], truth.image_e_angle_deg)
            for k, v in vars(s).items():
                totals[k] = totals.get(k, 0) + v
            exact += s.exact
            if not s.exact:
                failures.append((seed, edition, s))
        full = max(totals["full"], 1)
        figures = {
            "scenes": args.scenes,
            "per_card": totals["correct"] / full,
            "per_edge": totals["edges_right"] / max(totals["edges"], 1),
            "tables_exact": exact / args.scenes,
            "misreads": int(totals["misreads"]),
            "false_cards": int(totals["false_cards"]),
            "full_cards": int(totals["full"]),
            "full_flagged_occluded": int(totals["full_flagged"]),
            "occluded_truth": int(totals["occluded_truth"]),
            "occluded_flagged": int(totals["occluded_flagged"]),
            "occluded_unreported": int(totals["occluded_unreported"]),
            "occluded_read_right": int(totals["occluded_read"]),
            "median_ms_read": statistics.median(read_ms),
            "p90_ms_read": sorted(read_ms)[int(0.9 * (len(read_ms) - 1))],
            "median_ms_calibrate": statistics.median(cal_ms),
            "card_px_median": statistics.median(card_px),
            "card_px_p10": sorted(card_px)[int(0.1 * (len(card_px) - 1))],
        }
        report[band] = figures
        if not args.json:
            print(f"band {band}: {args.scenes} scenes x {args.cards} cards "
                  f"(edition {args.edition}, seeds {args.seed}..{args.seed + args.scenes - 1})")
            print(f"  card width  {figures['card_px_median']:.0f} px median across the flats "
                  f"(10 % of cards below {figures['card_px_p10']:.0f} px)")
            print(f"  per card    {100 * figures['per_card']:7.3f} %  "
                  f"({int(totals['correct'])}/{int(totals['full'])} fully visible cards, position "
                  f"and all six symbols right)")
            print(f"  per edge    {100 * figures['per_edge']:7.3f} %")
            print(f"  tables      {100 * figures['tables_exact']:7.3f} % exact")
            print(f"  misreads    {figures['misreads']}   false cards {figures['false_cards']}")
            print(f"  fully visible cards flagged occluded (missed, not wrong): "
                  f"{figures['full_flagged_occluded']}")
            print(f"  occluded truth (visible < {FULL_VISIBLE}): {figures['occluded_truth']} — "
                  f"flagged {figures['occluded_flagged']}, not reported "
                  f"{figures['occluded_unreported']}, read right {figures['occluded_read_right']}")
            print(f"  time        {figures['median_ms_read']:.2f} ms median read per frame "
                  f"(p90 {figures['p90_ms_read']:.2f}), one thread; "
                  f"{figures['median_ms_calibrate']:.2f} ms marker calibration (once per camera)")
            if args.show_failures:
                for seed, edition, s in failures:
                    print(f"    seed {seed} {edition}: {s.correct}/{s.full} right, "
                          f"{s.misreads} misread, {s.false_cards} false, "
                          f"{s.full_flagged} flagged occluded")
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


def _card_widths(truth) -> list[float]:
    """Flat-to-flat width in image pixels of every card (from its true polygon's area)."""
    import math

    import cv2
    import numpy as np

    return [math.sqrt(abs(cv2.contourArea(np.float32(c.polygon))) * 2.0 / math.sqrt(3.0))
            for c in truth.cards]
