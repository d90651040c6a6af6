"""`companion bench vision --game hexel`: render synthetic tables in difficulty bands with
`companion.scenarios`, read them with the Hex'el reader on one thread, and print per band the
per-card and per-edge accuracy, whole-table exact rate, misreads (and those on the tables the
referee would judge, `referee.proposal.unclear`: the ones it could announce), false cards, how
occluded cards were handled, and the median time per frame (reading; the once-per-camera marker
calibration is timed separately); with --tracked also for the next frame of the same still table
(fresh sensor noise), which the reader keeps from the last full read unless a block of it
changed (`companion.vision.change`); with --no-markers the reader is never calibrated from the
table markers and works in image pixels, as on a photo without them; with --true-markers it is
calibrated from the markers the scene truly laid (their rendered corners, seen or not), as a
perfect marker search would calibrate it: the most any work on the markers can gain. Scoring
rules: `companion.vision.scoring`.

`--game hexapod` renders display cases (`companion.scenarios.hexapod_scene`) and scores the
Hexapod reader per band (topdown, easy, hard): per-cell accuracy (a cell is right when its code
is the truth's, or when it is '?' and a hand covers part of it in truth), whole-case exact rate,
score exact rate (the P4 score of the read grid equals the truth's; a case with a '?' has no
score), misread and false cells (and the cells read wrong on the cases the referee would judge,
`referee.hexapod_proposal.judged_case`: the ones it could announce), how hand-covered cells
were reported, cases not found, and the median and p95 time per frame on one thread — cold
(markers searched over the whole frame, as for a single picture) and, with --tracked, for the
next frame of the same table read in full (markers searched about the last ones) and kept from
the last read (nothing in it changed).
A case counts when at least three of its markers are wholly in view.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import TYPE_CHECKING

from ..cli import group
from ._argtypes import whole

if TYPE_CHECKING:
    import numpy as np


def register(sub: argparse._SubParsersAction) -> None:
    """Add `bench vision`."""
    g = group(sub, "bench", "Measure the project's parts against their targets.")
    p = g.add_parser("vision", help="accuracy and speed of the card reader on synthetic tables",
                     description="Render synthetic Hex'el tables (easy: tilt < 10°, no hands; "
                                 "hard: every effect) and score the reader on them.")
    p.add_argument("--game", choices=["hexel", "hexapod"], default="hexel")
    p.add_argument("--edition", choices=["holodex", "web", "both"], default="both",
                   help="card edition (default both, alternating by scene)")
    p.add_argument("--scenes", type=whole(1), default=100, help="scenes per band (default 100)")
    p.add_argument("--seed", type=int, default=0, help="first scene seed (default 0)")
    p.add_argument("--cards", type=whole(1, 36), default=20,
                   help="cards per table, 1-36 (default 20)")
    p.add_argument("--bands", default=None,
                   help="comma-separated bands (default easy,hard; hexapod: topdown,easy,hard)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--size", default="1280x720",
                   help="hexapod: frame size WxH (default 1280x720; the Pi camera's binned "
                        "mode is 2304x1296)")
    p.add_argument("--lens", action="store_true",
                   help="hexapod: see the boards through the band's real lens (62-102 degrees, "
                        "0.6-1.2 m up) instead of framing them to fill the picture")
    p.add_argument("--tracked", action="store_true",
                   help="also time the next frame of each still table (hexel: the last read "
                        "kept unless the frame changed; hexapod: markers tracked)")
    marks = p.add_mutually_exclusive_group()
    marks.add_argument("--no-markers", action="store_true",
                       help="hexel: read without calibrating from the table markers (image "
                            "pixels, as on a photo without them)")
    marks.add_argument("--true-markers", action="store_true",
                       help="hexel: calibrate from the scene's true marker corners instead of "
                            "the ones found (a perfect marker search; an upper bound)")
    p.add_argument("--calibration", metavar="DIR", default=None,
                   help="hexapod: read with the inks saved in DIR/colours-hexapod.json "
                        "(`calibrate colours --game hexapod`; default: the design's inks)")
    p.add_argument("--show-failures", action="store_true",
                   help="list the scenes that were not read exactly")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.game == "hexapod":
        return run_hexapod(args)
    if args.bands is None:
        args.bands = "easy,hard"
    import cv2

    from ..referee.proposal import MIN_CONFIDENCE, unclear
    from ..scenarios import hexel_scene
    from ..vision.calibration import TableView
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
        read_ms, cal_ms, failures, card_px, still_ms = [], [], [], [], []
        kept = calibrated = judged = judged_misreads = 0
        for i in range(args.scenes):
            seed = args.seed + i
            edition = (("holodex", "web")[i % 2] if args.edition == "both" else args.edition)
            image, truth = hexel_scene(seed, band, args.cards, edition)
            reader = HexelReader(edition, find_markers=False)
            t0 = time.perf_counter()
            if args.true_markers:
                table = true_calibration(truth)
                if table is not None:
                    reader.view = TableView(table)
            elif not args.no_markers:
                reader.calibrate(image)
            t1 = time.perf_counter()
            result = reader.read(image)
            t2 = time.perf_counter()
            calibrated += result.observation.calibrated
            if args.tracked:
                again, _ = hexel_scene(seed, band, args.cards, edition, frame=1)
                t3 = time.perf_counter()
                kept += reader.read(again, 0.04, 1).kept
                still_ms.append(1000 * (time.perf_counter() - t3))
            cal_ms.append(1000 * (t1 - t0))
            card_px.extend(_card_widths(truth))
            read_ms.append(1000 * (t2 - t1))
            s = score_table(result.observation.cards,
                            [TruthCard(c.image_cell, c.image_symbols, c.visible)
                             for c in truth.cards])
            for k, v in vars(s).items():
                totals[k] = totals.get(k, 0) + v
            exact += s.exact
            if unclear(result.observation) is None:
                judged += 1
                judged_misreads += s.misreads
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
            "tables_judged": judged,
            "misreads_judged": judged_misreads,
            "full_cards": int(totals["full"]),
            "full_flagged_occluded": int(totals["full_flagged"]),
            "occluded_truth": int(totals["occluded_truth"]),
            "occluded_flagged": int(totals["occluded_flagged"]),
            "occluded_unreported": int(totals["occluded_unreported"]),
            "occluded_read_right": int(totals["occluded_read"]),
            "median_ms_read": statistics.median(read_ms),
            "p90_ms_read": sorted(read_ms)[int(0.9 * (len(read_ms) - 1))],
            "median_ms_calibrate": statistics.median(cal_ms),
            "median_ms_still": statistics.median(still_ms) if still_ms else None,
            "still_frames_kept": kept if still_ms else None,
            "tables_calibrated": calibrated,
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
            print(f"  judged      {judged_misreads} misreads on the {judged} tables the referee "
                  f"would judge (no card covered, none with a '?' or below confidence "
                  f"{MIN_CONFIDENCE}): the misreads it could announce")
            print(f"  fully visible cards flagged occluded (missed, not wrong): "
                  f"{figures['full_flagged_occluded']}")
            print(f"  occluded truth (visible < {FULL_VISIBLE}): {figures['occluded_truth']} — "
                  f"flagged {figures['occluded_flagged']}, not reported "
                  f"{figures['occluded_unreported']}, read right {figures['occluded_read_right']}")
            calibration = (
                "not calibrated (--no-markers)" if args.no_markers else
                f"calibrated from the true markers on {calibrated} of {args.scenes} tables "
                "(--true-markers)" if args.true_markers else
                f"{figures['median_ms_calibrate']:.2f} ms marker calibration (once per camera; "
                f"{calibrated} of {args.scenes} tables calibrated)")
            print(f"  time        {figures['median_ms_read']:.2f} ms median read per frame "
                  f"(p90 {figures['p90_ms_read']:.2f}), one thread; {calibration}")
            if still_ms:
                print(f"  still table {figures['median_ms_still']:.2f} ms median for the next "
                      f"frame (fresh noise), last read kept in {kept} of {args.scenes}")
            if args.show_failures:
                for seed, edition, s in failures:
                    print(f"    seed {seed} {edition}: {s.correct}/{s.full} right, "
                          f"{s.misreads} misread, {s.false_cards} false, "
                          f"{s.full_flagged} flagged occluded")
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


def true_calibration(truth):
    """The table calibration a perfect marker search would give on a rendered scene: the
    rectangle fit (`calibration.fit_table`) to the true image corners of every marker the scene
    laid, in view or not, hidden or not (None when it laid none)."""
    import numpy as np

    from ..vision.calibration import fit_table

    if not truth.markers:
        return None
    return fit_table({m.id: np.asarray(m.corners, np.float64) for m in truth.markers},
                     truth.params.marker_mm)


def _card_widths(truth) -> list[float]:
    """Flat-to-flat width in image pixels of every card (from its true polygon's area)."""
    import math

    import cv2
    import numpy as np

    return [math.sqrt(abs(cv2.contourArea(np.float32(c.polygon))) * 2.0 / math.sqrt(3.0))
            for c in truth.cards]


def _percentile(values: list[float], q: float) -> float:
    import numpy as np

    return float(np.percentile(values, q)) if values else 0.0


def run_hexapod(args: argparse.Namespace) -> int:
    """`bench vision --game hexapod`."""
    from dataclasses import replace

    import cv2
    import numpy as np

    from ..referee.hexapod_proposal import judged_case
    from ..rules.hexapod import score_case
    from ..scenarios import hexapod_scene
    from ..synth.scene import sample_params
    from ..vision.frames import MIN_SIDE
    from ..vision.hexapod import HexapodReader
    from ..vision.hexapod_calibrate import hexapod_params
    from ..vision.observation import UNKNOWN

    cv2.setNumThreads(1)
    if args.scenes < 1:
        print("error: --scenes must be at least 1")
        return 2
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"error: --size must look like 1280x720, got {args.size!r}")
        return 2
    if min(width, height) < MIN_SIDE:
        print(f"error: --size must be at least {MIN_SIDE} px each way, got {args.size!r}")
        return 2
    cell_params = hexapod_params(getattr(args, "calibration", None))
    report = {}
    bands = [b.strip() for b in (args.bands or "topdown,easy,hard").split(",") if b.strip()]
    for band in bands:
        n = dict.fromkeys(("cells", "right", "visible", "visible_right", "misread",
                           "visible_unread", "hidden", "hidden_flagged", "hidden_right",
                           "hidden_wrong", "false_cells", "cases", "found", "exact",
                           "score_exact", "false_cases", "unexpected_found",
                           "unscored_wrong", "unscored_wrong_visible", "judged_cases",
                           "judged_wrong"), 0)
        cold, tracked, cell_px, failures, still, one_case, one_case_both = ([] for _ in range(7))
        # the rule that made each fully visible cell '?' (`CaseRead.why`; "case not found")
        rules: dict[str, int] = {}
        kept = one_case_kept = 0
        for i in range(args.scenes):
            seed = args.seed + i
            params = sample_params(seed, band, width, height)
            if not args.lens:
                params = replace(params, hfov_deg=0.0)
            image, truth = hexapod_scene(seed, band, params=params)
            reader = HexapodReader(track=True, keep_still=False, params=cell_params)
            t0 = time.perf_counter()
            result = reader.read_full(image, 0.0, 0)
            cold.append(1000 * (time.perf_counter() - t0))
            if args.tracked:
                again, _ = hexapod_scene(seed, band, params=params, frame=1)
                t0 = time.perf_counter()
                reader.read_full(again, 0.04, 1)
                tracked.append(1000 * (time.perf_counter() - t0))
                keeper = HexapodReader(track=True, params=cell_params)
                keeper.read_full(image, 0.0, 0)
                t0 = time.perf_counter()
                kept += keeper.read_full(again, 0.04, 1).kept
                still.append(1000 * (time.perf_counter() - t0))
                if len(truth.cases) == 2:
                    # a hand reaching into the second case: the first keeps its reading
                    handy = HexapodReader(track=True, params=cell_params)
                    handy.read_full(image, 0.0, 0)
                    reach = _hand_over(again, truth.cases[1].corners)
                    t0 = time.perf_counter()
                    one_case_kept += len(handy.read_full(reach, 0.04, 1).kept_cases)
                    one_case.append(1000 * (time.perf_counter() - t0))
                    t0 = time.perf_counter()
                    reader.read_full(reach, 0.08, 2)     # the same frame, both cases read
                    one_case_both.append(1000 * (time.perf_counter() - t0))
            seen = {c.player: c for c in result.observation.cases}
            why = {c.player: r.why for c, r in zip(result.observation.cases, result.reads,
                                                    strict=True)}
            players = {c.player for c in truth.cases}
            n["false_cases"] += sum(p not in players for p in seen)
            for case in truth.cases:
                tl, tr, _, bl = (np.asarray(p) for p in case.corners)
                cell_px.append(float(min(np.linalg.norm(tr - tl), np.linalg.norm(bl - tl)) / 6))
                if sum(m.visible >= 0.999 for m in case.markers) < 3:
                    n["unexpected_found"] += case.player in seen
                    if case.player in seen:
                        wrong, visible = _unscored_wrong(case, seen[case.player])
                        n["unscored_wrong"] += wrong
                        n["unscored_wrong_visible"] += visible
                    continue
                n["cases"] += 1
                got = seen.get(case.player)
                n["found"] += got is not None
                wrong = 0
                for r, row in enumerate(case.grid):
                    for c, code in enumerate(row):
                        read = got.grid[r][c] if got else UNKNOWN
                        n["cells"] += 1
                        if case.visible[r][c] >= 1.0:
                            n["visible"] += 1
                            n["visible_right"] += read == code
                            n["misread"] += read not in (code, UNKNOWN)
                            n["visible_unread"] += read == UNKNOWN
                            if read == UNKNOWN:
                                rule = (why[case.player][r][c] or "other") if got and \
                                    why[case.player] else "case not found"
                                rules[rule] = rules.get(rule, 0) + 1
                            n["false_cells"] += code == "." and read not in (".", UNKNOWN)
                            ok = read == code
                        else:
                            n["hidden"] += 1
                            n["hidden_flagged"] += read == UNKNOWN
                            n["hidden_right"] += read == code
                            n["hidden_wrong"] += read not in (code, UNKNOWN)
                            ok = read in (code, UNKNOWN)
                        n["right"] += ok
                        wrong += not ok
                n["exact"] += got is not None and wrong == 0
                if got is not None and judged_case(got):
                    n["judged_cases"] += 1
                    n["judged_wrong"] += sum(read != code for line, want in zip(
                        got.grid, case.grid, strict=True) for read, code in zip(
                        line, want, strict=True))
                score = _score(score_case, got.grid) if got is not None else None
                n["score_exact"] += score is not None and score == _score(score_case, case.grid)
                if got is None or wrong:
                    failures.append((seed, case.player, got is not None, wrong))
        cases = max(n["cases"], 1)
        figures = {
            "scenes": args.scenes, **n,
            "per_cell": n["right"] / max(n["cells"], 1),
            "per_visible_cell": n["visible_right"] / max(n["visible"], 1),
            "cases_exact": n["exact"] / cases,
            "score_exact": n["score_exact"] / cases,
            "median_ms": statistics.median(cold),
            "p95_ms": _percentile(cold, 95),
            "median_ms_tracked": statistics.median(tracked) if tracked else None,
            "p95_ms_tracked": _percentile(tracked, 95) if tracked else None,
            "median_ms_still": statistics.median(still) if still else None,
            "still_frames_kept": kept if still else None,
            "median_ms_one_case": statistics.median(one_case) if one_case else None,
            "median_ms_one_case_both": statistics.median(one_case_both) if one_case else None,
            "one_case_frames": len(one_case),
            "one_case_kept": one_case_kept,
            "cell_px_median": statistics.median(cell_px) if cell_px else 0.0,
            "cell_px_p10": _percentile(cell_px, 10),
            "visible_unread_by_rule": dict(sorted(rules.items(), key=lambda kv: -kv[1])),
        }
        report[band] = figures
        if not args.json:
            _print_hexapod(band, args, figures, failures)
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


def _unscored_wrong(truth, got) -> tuple[int, int]:
    """(cells read wrong, of them fully visible) of a case found with fewer than three of its
    markers wholly in view (not scored): a cell read another code than its truth, whether
    visible or hidden ('?' is never wrong)."""
    from ..vision.observation import UNKNOWN

    wrong = visible = 0
    for r, row in enumerate(truth.grid):
        for c, code in enumerate(row):
            bad = got.grid[r][c] not in (code, UNKNOWN)
            wrong += bad
            visible += bad and truth.visible[r][c] >= 1.0
    return wrong, visible


def _hand_over(frame: np.ndarray, corners) -> np.ndarray:
    """`frame` with a flat skin-coloured hand (an ellipse a third of the grid across) over
    the middle of the grid whose image corners are `corners`."""
    import cv2
    import numpy as np

    quad = np.asarray(corners, np.float64)
    centre = quad.mean(axis=0)
    size = float(np.linalg.norm(quad[2] - quad[0])) / 3.0
    out = frame.copy()
    cv2.ellipse(out, (round(centre[0]), round(centre[1])), (round(size), round(0.6 * size)),
                30.0, 0.0, 360.0, (95, 125, 190), -1, cv2.LINE_AA)
    return out


def _score(score_case, grid) -> int | None:
    """The P4 total of a grid, None if it cannot be scored (a '?', a split insect)."""
    from ..rules.core import MalformedMessage

    if any(code == "?" for row in grid for code in row):
        return None
    try:
        return score_case(tuple(tuple(r) for r in grid)).total
    except (MalformedMessage, ValueError):
        return None


def _print_hexapod(band: str, args: argparse.Namespace, f: dict, failures: list) -> None:
    from ..referee.proposal import MIN_CONFIDENCE

    framing = "real lens" if args.lens else "boards framed to fill the picture"
    print(f"band {band}: {args.scenes} scenes (seeds {args.seed}..{args.seed + args.scenes - 1}),"
          f" {args.size}, {framing}; {f['cases']} display cases with 3+ markers in view")
    print(f"  cell size   {f['cell_px_median']:.0f} px median (10 % below "
          f"{f['cell_px_p10']:.0f} px)")
    print(f"  per cell    {100 * f['per_cell']:7.3f} %  ({f['right']}/{f['cells']}; a hidden "
          "cell counts as right when reported '?')")
    print(f"  visible     {100 * f['per_visible_cell']:7.3f} %  ({f['visible_right']}/"
          f"{f['visible']} fully visible cells read right; {f['visible_unread']} reported '?', "
          f"{f['misread']} misread, {f['false_cells']} of them empty cells read as a card)")
    print(f"  hidden      {f['hidden']} cells partly under a hand: {f['hidden_flagged']} "
          f"reported '?', {f['hidden_right']} read right, {f['hidden_wrong']} read wrong")
    print(f"  cases       {100 * f['cases_exact']:7.3f} % exact, score exact "
          f"{100 * f['score_exact']:.3f} %  (found {f['found']}/{f['cases']}, false cases "
          f"{f['false_cases']})")
    print(f"  judged      {f['judged_wrong']} cells read wrong on the {f['judged_cases']} cases "
          "the referee would judge (no cell '?' or covered, confidence at least "
          f"{MIN_CONFIDENCE}): the ones it could announce")
    print(f"  unscored    {f['unexpected_found']} cases found with < 3 markers in view: "
          f"{f['unscored_wrong']} cells read wrong ({f['unscored_wrong_visible']} visible)")
    line = f"  time        {f['median_ms']:.2f} ms median per frame (p95 {f['p95_ms']:.2f}) cold"
    if f["median_ms_tracked"] is not None:
        line += f", {f['median_ms_tracked']:.2f} ms (p95 {f['p95_ms_tracked']:.2f}) tracked"
    print(line + "; one thread")
    if f["median_ms_still"] is not None:
        print(f"  still table {f['median_ms_still']:.2f} ms median for the next frame (fresh "
              f"noise), last read kept in {f['still_frames_kept']} of {args.scenes}")
    if f["median_ms_one_case"] is not None:
        print(f"  one case    a hand over the second case in the next frame: "
              f"{f['median_ms_one_case']:.2f} ms median with the first case's reading kept "
              f"where it may be ({f['one_case_kept']} of {f['one_case_frames']}), "
              f"{f['median_ms_one_case_both']:.2f} ms reading both")
    if args.show_failures:
        print("  visible '?' by rule: " + ", ".join(
            f"{rule} {k}" for rule, k in f["visible_unread_by_rule"].items()))
        for seed, player, found, wrong in failures:
            print(f"    seed {seed} player {player}: " +
                  (f"{wrong} cell(s) wrong or unread" if found else "case not found"))
