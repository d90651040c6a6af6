"""`companion score hexapod CASE.json`: the P4 score of a Hexapod display case and its breakdown.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..cli import group


def register(sub: argparse._SubParsersAction) -> None:
    """Add `score hexapod`."""
    g = group(sub, "score", "Score a position of a game without playing it.")
    p = g.add_parser(
        "hexapod", help="score a Hexapod display case (RULES.md P4)",
        description="Score a Hexapod display case. CASE.json holds the visible cells as rows "
                    "of cell codes, top to bottom: either a list of rows or {\"rows\": [...]}; "
                    "a row is a list of codes or one string of codes separated by spaces "
                    "(. B G Y R K St Sb Ml Mr).",
    )
    p.add_argument("case", type=Path, metavar="CASE.json", help="the display case")
    p.add_argument("--coins", type=int, default=None,
                   help="unspent coins, 2 points each (default: the file's 'coins', else 0)")
    p.add_argument("--json", action="store_true", help="print JSON for machines")
    p.set_defaults(run=run_score_hexapod)


def run_score_hexapod(args: argparse.Namespace) -> int:
    """Read the case, score it and print the total and the breakdown."""
    from ..rules.core import RulesError
    from ..rules.hexapod import parse_rows, score_case

    try:
        data = json.loads(args.case.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"error: cannot read {args.case}: {exc}")
        return 2
    coins = args.coins
    rows = data
    if isinstance(data, dict):
        rows = data.get("rows")
        if coins is None:
            coins = data.get("coins", 0)
    try:
        grid = parse_rows(rows, str(args.case))
        score = score_case(grid, 0 if coins is None else coins)
    except RulesError as exc:
        print(f"error: {exc}")
        return 2
    if args.json:
        print(json.dumps({"total": score.total, "breakdown": score.breakdown(),
                          "coins": coins or 0}, sort_keys=True))
        return 0
    for kind, points in score.breakdown().items():
        print(f"  {kind:<6} {points:>4}")
    print(f"  {'total':<6} {score.total:>4}")
    return 0
