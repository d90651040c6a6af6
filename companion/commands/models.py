"""`companion models …`: regenerate the files under `models/`: the deck files byte for byte, the
Hexapod drawings the case reader matches cells against pixel for pixel."""

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
    """Add `models hexel-deck`, `hexapod-deck`, `comet-deck` and `hexapod-drawings`."""
    g = group(sub, "models", "Regenerate the data files under models/.")
    p = g.add_parser("hexel-deck", help="write the standard 36-card Hex'el deck file",
                     description="Write models/hexel-deck-36.json from RULES.md H1.")
    p.add_argument("--out", type=Path, default=DECK_PATH, help=f"output file ({DECK_PATH})")
    p.set_defaults(run=run_hexel_deck)
    for name, default, what in (
        ("hexapod-deck", Path("models/hexapod-deck.json"), "the Hexapod deck (RULES.md P1)"),
        ("comet-deck", Path("models/comet-deck.json"), "the 123-card Seven Card Comet deck (C1)"),
    ):
        q = g.add_parser(name, help=f"write {what}", description=f"Write {what} to {default}.")
        q.add_argument("--out", type=Path, default=default, help=f"output file ({default})")
        q.set_defaults(run=run_document, document=name)
    d = g.add_parser("hexapod-drawings", help="write the Hexapod drawings the reader matches",
                     description="Write models/hexapod-stag.png, models/hexapod-moth.png and "
                                 "models/hexapod-beetles.png (grey, as the cards print them) "
                                 "from the card renderer.")
    d.add_argument("--out", type=Path, default=Path("models"), help="output folder (models)")
    d.set_defaults(run=run_hexapod_drawings)


def run_hexel_deck(args: argparse.Namespace) -> int:
    """Write the deck file."""
    return _write(hexel_deck_document(), args.out)


def run_document(args: argparse.Namespace) -> int:
    """Write the Hexapod or Comet deck file from its rules module."""
    if args.document == "hexapod-deck":
        from ..rules.hexapod.deck import deck_document
    else:
        from ..rules.comet.cards import deck_document
    return _write(deck_document(), args.out)


def run_hexapod_drawings(args: argparse.Namespace) -> int:
    """Write the stag's, the moth's and the one-cell beetles' grey drawings
    (`vision.hexapod_drawings`)."""
    import cv2

    from ..synth.hexapod_face import beetles_grey, moth_grey, stag_grey

    args.out.mkdir(parents=True, exist_ok=True)
    for name, grey in (("hexapod-stag.png", stag_grey()), ("hexapod-moth.png", moth_grey()),
                       ("hexapod-beetles.png", beetles_grey())):
        path = args.out / name
        if not cv2.imwrite(str(path), grey):
            print(f"error: cannot write {path}")
            return 1
        print(f"wrote {path} ({grey.shape[1]} x {grey.shape[0]} px)")
    return 0


def dump_document(doc: dict) -> str:
    """JSON text of a deck document: indented, one card per line."""
    cards = doc.get("cards", [])
    head = json.dumps({k: v for k, v in doc.items() if k != "cards"}, indent=2)
    lines = ",\n".join("    " + json.dumps(c, separators=(", ", ": ")) for c in cards)
    return head[:-2] + ',\n  "cards": [\n' + lines + "\n  ]\n}\n"


def _write(doc: dict, out: Path) -> int:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump_document(doc), encoding="utf-8")
    print(f"wrote {len(doc['cards'])} cards to {out}")
    return 0
