"""`companion score hexdragon BOARD.json`: every connection of a HexDragon board and the points.

BOARD.json lists the pieces in placement order, either as a list or as {"pieces": [...],
"names": [...]}; a piece is {"cell": [q, r], "rotation": k, "links": [...], "owner": seat}
(RULES.md D1 notation; `owner` is the 0-based seat that placed it and owns its head, null only
for the start piece). The pieces are placed one by one, so each connection is scored when it
closes, exactly as in play (D4); the totals are ranked with the D5 tie-break.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..cli import group


def register(sub: argparse._SubParsersAction) -> None:
    """Add `score hexdragon`."""
    g = group(sub, "score", "Score a position of a game without playing it.")
    p = g.add_parser(
        "hexdragon", help="score a HexDragon board (RULES.md D4, D5)",
        description="Replay a HexDragon board in placement order and print every connection "
                    "(dragon, two-headed dragon, worm, loop) with its length and points. "
                    "BOARD.json: a list of pieces or {\"pieces\": [...], \"names\": [...]}; a "
                    "piece is {\"cell\": [q, r], \"rotation\": k, \"links\": [6 entries], "
                    "\"owner\": seat or null}.",
    )
    p.add_argument("board", type=Path, metavar="BOARD.json", help="the pieces, in placement order")
    p.add_argument("--json", action="store_true", help="print JSON for machines")
    p.set_defaults(run=run_score_hexdragon)


def read_board(data: Any, where: str) -> tuple[list, tuple[str, ...]]:
    """The placements and seat names of a BOARD.json document (raises `MalformedMessage`)."""
    from ..rules.core import MalformedMessage, from_jsonable
    from ..rules.hexdragon import Placement

    names: Any = []
    pieces = data
    if isinstance(data, dict):
        pieces, names = data.get("pieces"), data.get("names", [])
    if not isinstance(pieces, list) or not pieces:
        raise MalformedMessage(f"{where}: expected a non-empty list of pieces")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise MalformedMessage(f"{where}: 'names' must be a list of strings")
    out = []
    for i, item in enumerate(pieces):
        try:
            out.append(from_jsonable(item, Placement))
        except MalformedMessage as exc:
            raise MalformedMessage(f"{where}: piece {i + 1}: {exc}") from None
    return out, tuple(names)


def score_document(data: Any, where: str = "board") -> dict:
    """Score a BOARD.json document: connections, points per seat and winners (pure)."""
    from ..rules.core import MalformedMessage, to_jsonable
    from ..rules.hexdragon import score_placements, winners

    placements, names = read_board(data, where)
    cells = [p.cell for p in placements]
    for i, cell in enumerate(cells):
        if cell in cells[:i]:
            raise MalformedMessage(f"{where}: piece {i + 1}: cell {list(cell)} is listed twice")
    _, connections = score_placements(placements)
    owners = [p.owner for p in placements if p.owner is not None]
    seats = max(len(names), max(owners, default=0) + 1)
    names = names + tuple(f"Seat {s + 1}" for s in range(len(names), seats))
    scores = [0] * seats
    for c in connections:
        for seat, points in c.awards:
            scores[seat] += points
    won, tie_break = winners(scores, connections)
    return {
        "pieces": len(placements),
        "names": list(names),
        "connections": [{**to_jsonable(c), "closed_by_piece": _closer(placements, c.cells)}
                        for c in connections],
        "scores": scores,
        "winners": list(won),
        "tie_break": tie_break,
    }


def _closer(placements: list, cells: tuple) -> int:
    """1-based number of the piece that closed a chain over `cells`: the last one placed."""
    return max(i for i, p in enumerate(placements, 1) if p.cell in cells)


def _describe(c: dict, names: list[str]) -> str:
    shape = {"dragon": "dragon", "two_headed": "two-headed dragon", "worm": "worm",
             "loop": "loop"}[c["shape"]]
    path = " ".join(f"({q},{r})" for q, r in c["cells"])
    points = ", ".join(f"{names[s]} +{p}" for s, p in c["awards"]) or "no points"
    return f"{shape}, L={c['length']}, closed by piece {c['closed_by_piece']}: {path} -> {points}"


def run_score_hexdragon(args: argparse.Namespace) -> int:
    """Read the board, score it and print the connections and totals."""
    from ..rules.core import RulesError

    try:
        data = json.loads(args.board.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"error: cannot read {args.board}: {exc}")
        return 2
    try:
        result = score_document(data, str(args.board))
    except RulesError as exc:
        print(f"error: {exc}")
        return 2
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return 0
    names = result["names"]
    print(f"HexDragon board: {result['pieces']} pieces, "
          f"{len(result['connections'])} connections")
    for i, c in enumerate(result["connections"], 1):
        print(f"  {i}. {_describe(c, names)}")
    print("Points: " + ", ".join(f"{n} {p}" for n, p in zip(names, result["scores"], strict=True)))
    who = " and ".join(names[s] for s in result["winners"])
    how = " (on the tie-break: longest connections first)" if result["tie_break"] else ""
    print(f"{'Winners' if len(result['winners']) > 1 else 'Winner'}: {who}{how}")
    return 0
