"""The Hex'el reader's misses on rendered hard-band tables, read as the bench reads them (not a
test module): for each table, every card in full view that was not read right, and how — not
reported at all, reported occluded (its '?' symbols shown), or read wrong — with the reader's
notes for the table (uncalibrated, cards off the lattice, inks measured on the table…), then
the misses counted by how and by note. `--tiles PNG` writes each missed card cropped from the
frame about its true centre and tiled with its truth and what was reported, to judge by eye
whether each could be read.

    python tests/vision/hexel_errors.py --seed 0 --scenes 100 [--tiles f.png] [--json out.json]
"""

from __future__ import annotations

import argparse
import collections
import json
import re

import cv2
import numpy as np
from hexel_scenes import read_hard

from companion.vision.scoring import FULL_VISIBLE, TruthCard, aligned, laid

TILE = 160     # px per cropped card in the tiles


def misses(seed: int) -> tuple[dict, list[np.ndarray]]:
    """Table `seed`'s misses (the JSON row) and its tiles."""
    edition = "holodex" if seed % 2 == 0 else "web"
    image, truth, _reader, res = read_hard(seed, edition)
    obs = res.observation
    alignment, score = aligned(obs.cards, [TruthCard(c.image_cell, c.image_symbols, c.visible)
                                           for c in truth.cards])
    seen = {}
    for c in obs.cards:
        cell, symbols = laid(c.cell, c.symbols, alignment)
        seen[cell] = (c, symbols)
    rows, tiles = [], []
    pitch = float(np.median([np.ptp(np.asarray(c.polygon), axis=0).max() for c in truth.cards]))
    for t in truth.cards:
        if t.visible < FULL_VISIBLE:
            continue
        got = seen.get(t.image_cell)
        if got is None:
            how, said = "not reported", None
        elif got[0].occluded:
            how, said = "reported occluded", got[1]
        elif got[1] != t.image_symbols:
            how, said = "read wrong", got[1]
        else:
            continue
        rows.append({"cell": list(t.image_cell), "truth": t.image_symbols, "reported": said,
                     "how": how, "centre_px": [round(v, 1) for v in t.centre]})
        tiles.append(_tile(image, t.centre, pitch, f"{seed} {t.image_symbols} {said or '-'}"))
    return {"seed": seed, "edition": edition, "correct": score.correct, "full": score.full,
            "misreads": score.misreads, "false_cards": score.false_cards,
            "notes": list(obs.notes), "misses": rows}, tiles


def _tile(image: np.ndarray, centre: tuple[float, float], size: float, label: str
          ) -> np.ndarray:
    """The frame about `centre`, `size` px across and a quarter more, scaled to TILE, labelled."""
    r = round(0.625 * size)
    x, y = (round(v) for v in centre)
    pad = cv2.copyMakeBorder(image, r, r, r, r, cv2.BORDER_CONSTANT)
    crop = cv2.resize(pad[y:y + 2 * r, x:x + 2 * r], (TILE, TILE),
                      interpolation=cv2.INTER_NEAREST)
    crop = cv2.copyMakeBorder(crop, 0, 22, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    cv2.putText(crop, label, (2, TILE + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
    return crop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--tiles", help="PNG of the missed cards")
    ap.add_argument("--json", help="write every table's row here")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    rows, tiles = [], []
    for seed in range(a.seed, a.seed + a.scenes):
        row, t = misses(seed)
        rows.append(row)
        tiles += t
        for m in row["misses"]:
            print(seed, m["how"], m["truth"], m["reported"] or "-", flush=True)
    by_how = collections.Counter(m["how"] for r in rows for m in r["misses"])
    # (each note cut to its gist: before its colon or bracket, its numbers N)
    by_note = collections.Counter(re.sub(r"\d+", "N", n.split(":")[0].split(" (")[0])
                                  for r in rows for n in r["notes"] for _ in r["misses"])
    correct, full = sum(r["correct"] for r in rows), sum(r["full"] for r in rows)
    print(f"{correct}/{full} cards in full view read right ({100 * correct / max(full, 1):.2f} %), "
          f"{sum(r['misreads'] for r in rows)} misreads, "
          f"{sum(r['false_cards'] for r in rows)} false cards; "
          f"{sum(not r['misses'] for r in rows)}/{len(rows)} tables without a miss")
    print("misses by how:", dict(by_how))
    print("misses by the table's notes:", dict(by_note.most_common()))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    if a.tiles and tiles:
        while len(tiles) % 6:
            tiles.append(np.full_like(tiles[0], 255))
        cv2.imwrite(a.tiles, np.vstack([np.hstack(tiles[i:i + 6])
                                        for i in range(0, len(tiles), 6)]))


if __name__ == "__main__":
    main()
