"""A held-out check for the Hexapod reader (not a test module), independent of
`companion.synth.hexapod_scene`: the PNGs that `companion cards export --game hexapod` writes (the
case board with its markers and the card faces, read back from disk with their manifest) are
composed here — cards laid on the board in a legal order (`companion.scenarios.hexapod_cases`),
each off its grid position by a random shift and turn — and the board is pasted onto a real
photograph bundled with scikit-image through a random homography (any turn, mild perspective,
cells of 22-40 px), then a colour cast, a light gradient, blur, noise and JPEG.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.scenarios import hexapod_cases

from .heldout import camera, photo

BACKGROUNDS = ("coffee", "astronaut", "rocket", "chelsea", "brick", "grass", "gravel", "camera")
SIZE = (1280, 720)


@dataclass(frozen=True)
class HeldOutCase:
    """One composed picture and the grid the camera should read."""

    image: np.ndarray
    player: int
    grid: tuple[tuple[str, ...], ...]
    cell_px: float


@lru_cache(maxsize=4)
def _export(folder: str) -> tuple[dict, dict[str, np.ndarray], np.ndarray, float]:
    """(manifest, face id -> BGR image, board p1 BGR, px per mm) of an export folder."""
    root = Path(folder)
    manifest = json.loads((root / "manifest.json").read_text())
    faces = {f["id"]: cv2.imread(str(root / f["file"]), cv2.IMREAD_COLOR)
             for f in manifest["faces"] if f.get("cells")}
    board = cv2.imread(str(root / manifest["boards"][0]["file"]), cv2.IMREAD_COLOR)
    return manifest, faces, board, manifest["dpi"] / 25.4


def _affine(a: np.ndarray, t: np.ndarray) -> np.ndarray:
    return np.array([[a[0, 0], a[0, 1], t[0]], [a[1, 0], a[1, 1], t[1]], [0.0, 0.0, 1.0]])


def heldout_case(folder: str | Path, seed: int) -> HeldOutCase:
    """A picture of player 1's case (deterministic by seed) from the export in `folder`."""
    manifest, faces, board, ppm = _export(str(folder))
    rng = np.random.default_rng([seed, 515151])
    meta = manifest["boards"][0]
    x0, y0 = meta["sheet_mm"][:2]
    cell = meta["cell_mm"]
    sheet = board.astype(np.float32)
    # board mm -> sheet px (pixel centres at (i + 0.5) / ppm from the sheet's corner)
    to_px = np.array([[ppm, 0.0, -x0 * ppm - 0.5], [0.0, ppm, -y0 * ppm - 0.5], [0, 0, 1.0]])
    case = hexapod_cases(seed, int(rng.integers(4, 15)), players=1)[0]
    grid = [["."] * 6 for _ in range(6)]
    for card in case.cards:
        face = faces[card.name]
        fh, fw = face.shape[:2]
        ang = math.radians(rng.uniform(-2.0, 2.0))
        shift = rng.uniform(-0.22, 0.22, 2) * cell
        w_mm, h_mm = 2 * cell, 3 * cell
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        centre = np.array([(card.col + 1) * cell, (card.row + 1.5) * cell]) + shift
        # face px -> card mm (centred) -> board mm -> sheet px
        k = w_mm / fw
        face_to_mm = _affine(np.eye(2) * k, np.array([(0.5 * k) - w_mm / 2, (0.5 * k) - h_mm / 2]))
        m = to_px @ _affine(rot, centre) @ face_to_mm
        warped = cv2.warpPerspective(face, m, (sheet.shape[1], sheet.shape[0]),
                                     flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m,
                                   (sheet.shape[1], sheet.shape[0]), flags=cv2.INTER_LINEAR)
        alpha = mask.astype(np.float32)[..., None] / 255.0
        sheet += (warped.astype(np.float32) - sheet) * alpha
        for dy, line in enumerate(card.rows):
            for dx, code in enumerate(line):
                grid[card.row + dy][card.col + dx] = code
    # the sheet onto a photograph: any turn, cells of 22-40 px, mild perspective
    cell_px = float(rng.uniform(22.0, 40.0))
    s = cell_px / (cell * ppm)
    theta = rng.uniform(-math.pi, math.pi)
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]]) * s
    mid = np.array([sheet.shape[1], sheet.shape[0]]) / 2.0
    place = np.array(SIZE, float) / 2.0 + rng.uniform(-60, 60, 2)
    sim = _affine(rot, place - rot @ mid)
    p = rng.uniform(-1, 1, 2) * 1.0e-4
    persp = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [p[0], p[1], 1.0]])
    c = np.array([[1, 0, -place[0]], [0, 1, -place[1]], [0, 0, 1.0]])
    hom = np.linalg.inv(c) @ persp @ c @ sim
    img = _background(rng).astype(np.float32)
    warped = cv2.warpPerspective(sheet, hom, SIZE, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones(sheet.shape[:2], np.float32), hom, SIZE,
                               flags=cv2.INTER_LINEAR)[..., None]
    img += (warped - img) * mask
    return HeldOutCase(camera(img, rng), 1, tuple(tuple(r) for r in grid), cell_px)


def _background(rng: np.random.Generator) -> np.ndarray:
    img = photo(BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))])
    h, w = img.shape[:2]
    frac = rng.uniform(0.5, 1.0)
    cw, ch = int(w * frac), int(min(h, w * frac * SIZE[1] / SIZE[0]))
    x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
    return cv2.resize(img[y0:y0 + ch, x0:x0 + cw], SIZE, interpolation=cv2.INTER_LINEAR)
