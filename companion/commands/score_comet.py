"""`companion score comet 2 4 5 5 5 9 9 9 10`: the score lines of a Seven Card Comet set (C1)."""

from __future__ import annotations

import argparse
import json

from ..cli import group

LETTERS = {"A": 14, "E": 13, "P": 12}


def register(sub: argparse._SubParsersAction) -> None:
    """Add `score comet`."""
    g = group(sub, "score", "Score a position of a game without playing it.")
    p = g.add_parser(
        "comet", help="score a Seven Card Comet set (RULES.md C1)",
        description="Print the score lines and the total of a set's values. Values are 2-14; "
                    "an Ace may be written 14, 1 or A (it counts as 1 or 14 as suits each line), "
                    "the Emperor 13 or E, the Princess 12 or P.",
    )
    p.add_argument("values", nargs="+", metavar="VALUE", help="every value on the set's cards")
    p.add_argument("--json", action="store_true", help="print JSON for machines")
    p.set_defaults(run=run_score_comet)


def parse_value(text: str) -> int:
    """A value from '2'..'14', '1' or 'A' (Ace), 'E', 'P'."""
    word = text.strip().upper()
    if word in LETTERS:
        return LETTERS[word]
    if not word.isdigit() or not 1 <= int(word) <= 14:
        raise ValueError(f"{text!r} is not a card value: use 2-14, 1 or A for an Ace, E, P")
    return 14 if int(word) == 1 else int(word)


def run_score_comet(args: argparse.Namespace) -> int:
    """Score the values and print each line and the total."""
    from ..rules.comet import score_lines

    try:
        values = [parse_value(v) for v in args.values]
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    lines = score_lines(values)
    total = sum(line.points for line in lines)
    if args.json:
        print(json.dumps({
            "values": values, "total": total, "valid": bool(lines),
            "lines": [{"values": list(x.values), "worth": x.worth, "count": x.count}
                      for x in lines],
        }, sort_keys=True))
        return 0
    print("values: " + " ".join(map(str, sorted(values))))
    for line in lines:
        shown = "-".join(map(str, line.values))
        times = f"x{line.count}" if line.count > 1 else ""
        print(f"  {shown:<9} {line.worth:>3} {times:<4} {line.points:>4}")
    if not lines:
        print("  no score line: an invalid set, it scores 0")
    print(f"  {'total':<18} {total:>4}")
    return 0
