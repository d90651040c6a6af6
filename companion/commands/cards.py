"""`companion cards export`: print-and-play card faces for a game, as one 300-dpi PNG per face
(transparent outside the card), cut sheets for A4 and Letter (PDF) and a manifest.json that the
recogniser's tests can use as ground truth. A game is a small plug-in in `GAMES`: a function that
turns (edition, deck file, dpi) into face images with their physical size, cut outline and
manifest fields, and optionally more printables (`extras`). Hex'el is the first; Hexapod adds
its display-case boards.
"""

from __future__ import annotations

import argparse
import json
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..cli import group
from ._argtypes import dpi


@dataclass(frozen=True)
class FaceArt:
    """One face of a game's deck, ready to write: image (BGRA), size, outline, manifest fields."""

    id: str
    stem: str
    image: object = field(repr=False, compare=False)  # numpy BGRA uint8
    width_mm: float = 0.0
    height_mm: float = 0.0
    outline_mm: tuple[tuple[float, float], ...] = ()
    fields: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class GamePrint:
    """A game's printing plug-in."""

    name: str
    editions: tuple[str, ...]
    faces: Callable[[str, str | None, int], list[FaceArt]]  # (edition, deck file, dpi)
    honeycomb: bool = False  # pack hexagonal cards on a honeycomb
    extras: Callable[[Path, int], dict] | None = None  # (out, dpi) -> more manifest entries


def unique_ids(cards: list[str]) -> list[str]:
    """Card strings as ids, with '#2', '#3'... appended to repeats of the same card."""
    seen: dict[str, int] = {}
    out = []
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
        out.append(c if seen[c] == 1 else f"{c}#{seen[c]}")
    return out


def hexel_faces(edition: str, deck: str | None, dpi: int) -> list[FaceArt]:
    """Hex'el faces of the standard 36-card deck (or a deck file) in `edition`."""
    from ..faces import HEXEL_FACE
    from ..rules.hexel import EDITIONS, standard_deck
    from ..rules.hexel.cards import load_deck
    from ..synth.cardface import render_face
    from ..synth.printing import hexagon_outline_mm

    alphabet = EDITIONS[edition].symbols
    cards = list(load_deck(deck, alphabet) if deck else standard_deck(alphabet))
    face = HEXEL_FACE
    px = round(face.flat_to_flat_mm / 25.4 * dpi)
    outline = hexagon_outline_mm(face.flat_to_flat_mm)
    return [
        FaceArt(id=cid, stem=f"hexel-{edition}-{i + 1:02d}-{card}",
                image=render_face(card, edition, px, face, supersample=3),
                width_mm=face.flat_to_flat_mm, height_mm=face.height_mm, outline_mm=outline,
                fields={"flat_to_flat_mm": face.flat_to_flat_mm, "symbols": card})
        for i, (card, cid) in enumerate(zip(cards, unique_ids(cards), strict=True))
    ]


HEXAPOD_DECK = Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json"


def hexapod_faces(edition: str, deck: str | None, dpi: int) -> list[FaceArt]:
    """Hexapod faces: the 41 insect cards of models/hexapod-deck.json (or a deck file) and the
    Spider, portrait, `cells` giving each face's rows of cell codes top to bottom."""
    from ..rules.hexapod import SPIDER, load_deck
    from ..synth.hexapod_face import CARD, render_card, render_spider

    cards = load_deck(deck or HEXAPOD_DECK)
    px = round(CARD.cell_mm / 25.4 * dpi)
    w, h = CARD.width_mm, CARD.height_mm
    outline = ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
    size = {"width_mm": w, "height_mm": h, "cell_mm": CARD.cell_mm}
    arts = [FaceArt(id=card.name, stem=f"hexapod-{edition}-{i + 1:02d}-{card.name}",
                    image=render_card(card.rows, px, supersample=3), width_mm=w, height_mm=h,
                    outline_mm=outline, fields={**size, "cells": [list(r) for r in card.rows]})
            for i, card in enumerate(cards)]
    arts.append(FaceArt(id=SPIDER, stem=f"hexapod-{edition}-{len(cards) + 1:02d}-{SPIDER}",
                        image=render_spider(px, supersample=3), width_mm=w, height_mm=h,
                        outline_mm=outline, fields={**size, "cells": None, "spider": True}))
    return arts


def hexapod_boards(out: Path, dpi: int) -> dict:
    """The display-case boards of players 1 and 2: a PNG each and a PDF per page size."""
    import cv2

    from ..synth.hexapod_board import BOARD, CORNERS, board_image, marker_ids, write_board_pdf
    from ..synth.printing import PAGES_MM

    players = (1, 2)
    boards = []
    for player in players:
        name = f"hexapod-case-p{player}.png"
        ok, buf = cv2.imencode(".png", board_image(player, dpi / 25.4))
        if not ok:
            raise OSError(f"cannot encode {name}")
        (out / name).write_bytes(png_with_dpi(buf.tobytes(), dpi))
        x0, y0, sw, sh = BOARD.sheet_mm
        boards.append({
            "file": name, "player": player, "cols": BOARD.cols, "rows": BOARD.rows,
            "cell_mm": BOARD.cell_mm, "marker_mm": BOARD.marker_mm,
            "dictionary": BOARD.dictionary,
            "markers": {corner: mid for corner, mid in zip(CORNERS, marker_ids(player),
                                                           strict=True)},
            "marker_corners_mm": {str(mid): c.tolist()
                                  for mid, c in BOARD.marker_corners(player).items()},
            "sheet_mm": [x0, y0, sw, sh],
        })
    sheets = {}
    for page in PAGES_MM:
        name = f"hexapod-cases-{page}.pdf"
        sheets[page] = {"file": name, "pages": write_board_pdf(out / name, players, page)}
    return {"boards": boards, "board_sheets": sheets, "colour_chart": hexapod_chart(out, dpi),
            "board_frame": "mm, origin at the grid's top-left corner, x right, y down; marker "
                           "corners in ArUco order (TL, TR, BR, BL of the upright marker)"}


def hexapod_chart(out: Path, dpi: int) -> dict:
    """The colour chart (`companion.colour_chart`): a PNG and an A4 and a Letter PDF, and its
    geometry for the manifest (chart mm, origin at the sheet's top-left corner)."""
    import cv2

    from ..colour_chart import CHART, CHART_INKS
    from ..synth.hexapod_chart import chart_image, write_chart_pdf
    from ..synth.printing import PAGES_MM

    name = "hexapod-colour-chart.png"
    ok, buf = cv2.imencode(".png", chart_image(dpi / 25.4))
    if not ok:
        raise OSError(f"cannot encode {name}")
    (out / name).write_bytes(png_with_dpi(buf.tobytes(), dpi))
    sheets = {}
    for page in PAGES_MM:
        pdf = f"hexapod-colour-chart-{page}.pdf"
        sheets[page] = {"file": pdf, "pages": write_chart_pdf(out / pdf, page)}
    return {"file": name, "sheets": sheets, "size_mm": [CHART.width_mm, CHART.height_mm],
            "dictionary": CHART.dictionary, "marker_mm": CHART.marker_mm,
            "marker_corners_mm": {str(mid): c.tolist()
                                  for mid, c in CHART.marker_corners().items()},
            "swatches": [{"kind": kind, "rgb": list(CHART_INKS[kind]), "rect_mm": list(rect),
                          "inner": CHART.inner} for kind, rect in CHART.swatches()]}


GAMES: dict[str, GamePrint] = {
    "hexel": GamePrint("hexel", ("holodex", "web"), hexel_faces, honeycomb=True),
    "hexapod": GamePrint("hexapod", ("standard",), hexapod_faces, extras=hexapod_boards),
}


def png_with_dpi(png: bytes, dpi: int) -> bytes:
    """PNG bytes with a pHYs chunk declaring `dpi` (inserted right after IHDR)."""
    ppm = round(dpi / 0.0254)
    data = struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", len(data)) + b"pHYs" + data
    chunk += struct.pack(">I", zlib.crc32(b"pHYs" + data) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4
    return png[:ihdr_end] + chunk + png[ihdr_end:]


def export(game: GamePrint, edition: str, out: Path, deck: str | None = None,
           dpi: int = 300) -> dict:
    """Write PNGs, cut-sheet PDFs and manifest.json into `out`; returns the manifest."""
    import cv2

    from ..synth.printing import PAGES_MM, PrintFace, write_cut_sheets

    out.mkdir(parents=True, exist_ok=True)
    arts = game.faces(edition, deck, dpi)
    entries, prints = [], []
    for art in arts:
        ok, buf = cv2.imencode(".png", art.image)
        if not ok:
            raise OSError(f"cannot encode {art.stem}.png")
        path = out / f"{art.stem}.png"
        path.write_bytes(png_with_dpi(buf.tobytes(), dpi))
        entries.append({"file": path.name, "id": art.id, **art.fields})
        prints.append(PrintFace(art.id, path, art.width_mm, art.height_mm, art.outline_mm))
    title = f"{game.name} {edition} edition, {len(arts)} cards"
    sheets = {}
    for page in PAGES_MM:
        name = f"{game.name}-{edition}-{page}.pdf"
        sheets[page] = {"file": name,
                        "pages": write_cut_sheets(out / name, prints, page, title,
                                                  honeycomb=game.honeycomb)}
    manifest = {"game": game.name, "edition": edition, "dpi": dpi,
                "deck": deck or "standard", "sheets": sheets, "faces": entries}
    if game.extras is not None:
        manifest.update(game.extras(out, dpi))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def run_export(args: argparse.Namespace) -> int:
    """The `cards export` command."""
    game = GAMES[args.game]
    edition = args.edition or game.editions[0]
    if edition not in game.editions:
        print(f"error: {args.game} has editions {', '.join(game.editions)}, not {edition!r}")
        return 2
    from ..rules.core import RulesError

    try:
        manifest = export(game, edition, Path(args.out), args.deck, args.dpi)
    except (OSError, ValueError, RulesError) as exc:  # e.g. an unreadable or malformed deck
        print(f"error: {exc}")
        return 2
    sheets = ", ".join(f"{s['file']} ({s['pages']} pages)" for s in manifest["sheets"].values())
    print(f"wrote {len(manifest['faces'])} faces, {sheets} and manifest.json to {args.out}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add `cards export`."""
    g = group(sub, "cards", "Printable card faces and cut sheets.")
    p = g.add_parser(
        "export", help="write card PNGs, A4/Letter cut-sheet PDFs and manifest.json",
        description="Write one 300-dpi PNG per card face (transparent outside the card), cut "
                    "sheets for A4 and Letter (print at 100 %, cut on the grey lines) and "
                    "manifest.json listing each face's file, id, size and symbols (Hex'el: "
                    "edges E, NE, NW, W, SW, SE of the upright PNG) or cells (Hexapod: rows "
                    "of cell codes, top to bottom; plus the display-case boards of players 1 "
                    "and 2 and the colour chart for `calibrate colours --game hexapod`, as "
                    "PNG and A4/Letter PDF).")
    p.add_argument("--game", choices=sorted(GAMES), default="hexel", help="game (default hexel)")
    p.add_argument("--edition", default=None,
                   help="edition, e.g. holodex or web for hexel (default: the game's first)")
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--deck", default=None,
                   help="deck file (JSON with a 'cards' list); default: the standard deck")
    p.add_argument("--dpi", type=dpi, default=300, help="PNG resolution (default 300)")
    p.set_defaults(run=run_export)
