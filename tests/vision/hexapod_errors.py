"""The Hexapod reader's errors on rendered tables sorted by cause (not a test module): for each
scene of a band, every fully visible cell the reader left '?' with the rule that did it
(`CaseRead.why`; "case not found" when its case was missed), every cell read wrong (visible or
hidden), every case missed with what its markers showed, and every case reported for a player
with no case on the table (a false case). `--tiles PNG` writes the failing
cells cropped from the frame (through the truth's board homography, a quarter cell of margin)
and tiled with their truth and rule, to judge by eye whether each could be read.

    python tests/vision/hexapod_errors.py --seed 0 --scenes 100 [--band hard] [--tiles f.png]
        [--cache DIR] [--json out.json]

Rendered frames are kept in `--cache` (default none) so that repeated runs only read.
"""

from __future__ import annotations

import argparse
import collections
import json
import pickle
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.observation import UNKNOWN

TILE = 96          # px per cropped cell in the tiles


def scene(seed: int, band: str, cache: Path | None) -> tuple[np.ndarray, object]:
    """The bench's frame and truth of `seed` (rendered once into `cache` when given)."""
    if cache is not None:
        img_path, truth_path = cache / f"{band}_{seed}.png", cache / f"{band}_{seed}.pkl"
        if img_path.exists() and truth_path.exists():
            return cv2.imread(str(img_path)), pickle.loads(truth_path.read_bytes())
    params = replace(sample_params(seed, band, 1280, 720), hfov_deg=0.0)
    image, truth = hexapod_scene(seed, band, params=params)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(img_path), image)
        truth_path.write_bytes(pickle.dumps(truth))
    return image, truth


def crop(image: np.ndarray, board_to_image: np.ndarray, r: int, c: int, cell_mm: float,
         margin: float = 0.25) -> np.ndarray:
    """Cell (r, c) of a case and `margin` cells about it, warped to TILE x TILE px."""
    k = cell_mm * (1 + 2 * margin) / TILE
    off = -margin * cell_mm
    to_board = np.array([[k, 0, c * cell_mm + off], [0, k, r * cell_mm + off], [0, 0, 1.0]])
    return cv2.warpPerspective(image, board_to_image @ to_board, (TILE, TILE),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT)


def analyse(seeds: range, band: str, cache: Path | None) -> dict:
    """Errors of every scene of `seeds` (see the module docstring)."""
    cv2.setNumThreads(1)
    unread, wrong, missed, false = [], [], [], []
    crops = []
    n_cells = n_right = n_cases = n_exact = 0
    for seed in seeds:
        image, truth = scene(seed, band, cache)
        result = HexapodReader(track=True, keep_still=False).read_full(image, 0.0, 0)
        seen = {c.player: (c, r) for c, r in zip(result.observation.cases, result.reads,
                                                  strict=True)}
        false += [dict(seed=seed, player=p) for p in sorted(set(seen) -
                                                            {c.player for c in truth.cases})]
        for case in truth.cases:
            shown = [round(float(m.visible), 3) for m in case.markers]
            if sum(m.visible >= 0.999 for m in case.markers) < 3:
                if case.player in seen:
                    got = seen[case.player][0]
                    for r, row in enumerate(case.grid):
                        for c, code in enumerate(row):
                            if got.grid[r][c] not in (code, UNKNOWN):
                                wrong.append(dict(seed=seed, player=case.player, r=r, c=c,
                                                  truth=code, read=got.grid[r][c],
                                                  unscored=True))
                continue
            n_cases += 1
            cell_px = float(np.linalg.norm(np.subtract(case.corners[1], case.corners[0])) / 6)
            if case.player not in seen:
                others = sorted(p for p in seen)
                missed.append(dict(seed=seed, player=case.player, markers=shown,
                                   cell_px=round(cell_px, 1), other_found=others,
                                   motion=round(truth.params.motion_px, 1),
                                   defocus=round(truth.params.defocus_px, 1)))
            got, read = seen.get(case.player, (None, None))
            bad = 0
            for r, row in enumerate(case.grid):
                for c, code in enumerate(row):
                    n_cells += 1
                    value = got.grid[r][c] if got else UNKNOWN
                    visible = case.visible[r][c] >= 1.0
                    if value not in (code, UNKNOWN):
                        wrong.append(dict(seed=seed, player=case.player, r=r, c=c, truth=code,
                                          read=value, visible=visible))
                    ok = value == code if visible else value in (code, UNKNOWN)
                    n_right += ok
                    bad += not ok
                    if visible and value == UNKNOWN:
                        why = (read.why[r][c] or "other") if got else "case not found"
                        unread.append(dict(seed=seed, player=case.player, r=r, c=c,
                                           truth=code, why=why, cell_px=round(cell_px, 1)))
                        if got:
                            crops.append((crop(image, case.board_to_image, r, c,
                                               truth.cell_mm),
                                          f"{seed}/{case.player} {r}{c} {code}", why))
            n_exact += got is not None and bad == 0
    return dict(cells=n_cells, right=n_right, cases=n_cases, exact=n_exact, unread=unread,
                wrong=wrong, missed=missed, false=false, crops=crops)


def tiles(crops: list, path: Path, per_row: int = 12) -> None:
    """The crops tiled with their captions into one PNG."""
    if not crops:
        return
    h = TILE + 26
    rows = (len(crops) + per_row - 1) // per_row
    out = np.full((rows * h, per_row * TILE, 3), 255, np.uint8)
    for i, (img, caption, why) in enumerate(crops):
        y, x = (i // per_row) * h, (i % per_row) * TILE
        out[y:y + TILE, x:x + TILE] = img
        for j, text in enumerate((caption, why)):
            cv2.putText(out, text[:16], (x + 2, y + TILE + 10 + 12 * j),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.33, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.imwrite(str(path), out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--band", default="hard")
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--tiles", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    out = analyse(range(args.seed, args.seed + args.scenes), args.band, args.cache)
    print(f"{args.band} {args.seed}..{args.seed + args.scenes - 1}: per cell "
          f"{100 * out['right'] / max(out['cells'], 1):.3f} %, cases exact "
          f"{out['exact']}/{out['cases']}, visible '?' {len(out['unread'])}, wrong "
          f"{len(out['wrong'])}, false cases {len(out['false'])}")
    by_rule = collections.Counter(u["why"] for u in out["unread"])
    print("visible '?' by rule: " + ", ".join(f"{k} {v}" for k, v in by_rule.most_common()))
    by_code = collections.Counter((u["why"], u["truth"]) for u in out["unread"])
    print("by rule and truth: " + ", ".join(f"{k[0]}/{k[1]} {v}"
                                            for k, v in by_code.most_common()))
    for m in out["missed"]:
        print(f"  missed case: {m}")
    for w in out["wrong"]:
        print(f"  WRONG: {w}")
    for f in out["false"]:
        print(f"  FALSE CASE: {f}")
    if args.tiles:
        tiles(out["crops"], args.tiles)
    if args.json:
        out.pop("crops")
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
