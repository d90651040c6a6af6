"""`companion models hexel-deck`: regenerate the data files under `models/` reproducibly."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..cli import group

DECK_PATH = Path("models/hexel-deck-36.json")


def hexel_deck_document() -> dict:
    """The standard Hex'el deck file's content (RULES.md H1), in holodex letters."""
    from ..rules.hexel import standard_deck

    cards = standard_deck(("R", "B", "V"))
    return {
        "description": (
            "The standard 36-card Hex'el deck (RULES.md H1): every card carrying one or two "
            "symbol kinds, counted once up to rotation and mirror image (the 36 two-colour "
            "bracelets of length 6 over three kinds). Each card is written as 6 edge symbols in "
            "the card's own counter-clockwise order, using the lexicographically smallest "
            "rotation or reflection. Letters: R red circle, B blue circle (web: blue diamond), "
            "V void ring (web edition: Y yellow triangle replaces V)."
        ),
        "generated_by": "companion models hexel-deck",
        "edition_letters": {"holodex": "RBV", "web": "RBY"},
        "cards": list(cards),
    }


def register(sub: argparse._SubParsersAction) -> None:
    """Add `models hexel-deck`."""
    g = group(sub, "models", "Regenerate the data files under models/.")
    p = g.add_parser("hexel-deck", help="write the standard 36-card Hex'el deck file",
                     description="Write models/hexel-deck-36.json from RULES.md H1.")
    p.add_argument("--out", type=Path, default=DECK_PATH, help=f"output file ({DECK_PATH})")
    p.set_defaults(run=run_hexel_deck)


def run_hexel_deck(args: argparse.Namespace) -> int:
    """Write the deck file."""
    doc = hexel_deck_document()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {len(doc['cards'])} cards to {args.out}")
    return 0
