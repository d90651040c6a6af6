"""A dung beetle under a colour cast the white did not remove (`hexapod_cells.cast_dung`). The
cast tints its black tile's dark pixels, whose hue then takes a kind's body label or OTHER, so
the neutral DARK / DIM share of the cell falls short of `min_black` and the cell was '?'. Counted
by brightness and saturation (dark, less saturated than any ink) the black tile is there; a
kind's dark insect body keeps its ink's saturation under the same light and is not counted, so
a gold or red tile is never read as a dung beetle."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.faces import HEXAPOD_INKS
from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_markers import LAYOUT
from companion.vision.observation import UNKNOWN

SEED, PLAYER, CELL = 2, 2, (4, 2)     # hard band: a dung beetle under a warm cast


def _scene() -> tuple[np.ndarray, object]:
    params = replace(sample_params(SEED, "hard", 1280, 720), hfov_deg=0.0)
    return hexapod_scene(SEED, "hard", params=params)


def _read(image: np.ndarray):
    cv2.setNumThreads(1)
    return HexapodReader(track=False, keep_still=False).read_full(image, 0.0, 0)


def _inked(image: np.ndarray, pose, kind: str) -> np.ndarray:
    """`image` with the dark pixels of CELL (its black tile) printed in `kind`'s ink instead,
    at the same brightness under the same light (the light's colour taken from the case's
    brightest pixels about the cell): a kind's dark insect body where the black was."""
    r, c = CELL
    s = LAYOUT.cell_mm
    quad = pose.to_image(np.array([(c * s, r * s), ((c + 1) * s, r * s),
                                   ((c + 1) * s, (r + 1) * s), (c * s, (r + 1) * s)], float))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    pix = image.reshape(-1, 3).astype(np.float32)
    inside = mask.reshape(-1).astype(bool)
    v = pix.max(axis=1)
    light = np.percentile(pix[inside & (v >= np.percentile(v[inside], 95))], 50, axis=0)
    dark = inside & (v < 0.5 * light.max())
    ink = np.array(HEXAPOD_INKS[kind][::-1], np.float32) / 255.0 * light
    out = pix.copy()
    out[dark] = v[dark, None] * ink / ink.max()
    return np.clip(out, 0, 255).astype(np.uint8).reshape(image.shape)


def test_a_dung_beetle_under_a_warm_cast_is_read():
    """Hard-band scene 2, player 2: the dung beetle at (4, 2), '?' before, reads K, and no cell
    of either case reads a wrong code."""
    image, truth = _scene()
    seen = {c.player: c.grid for c in _read(image).observation.cases}
    for case in truth.cases:
        for r, row in enumerate(case.grid):
            for c, code in enumerate(row):
                assert seen[case.player][r][c] in (code, UNKNOWN)
    assert truth.cases[[c.player for c in truth.cases].index(PLAYER)].grid[CELL[0]][CELL[1]] \
        == "K"
    assert seen[PLAYER][CELL[0]][CELL[1]] == "K"


def test_a_dark_gold_or_red_body_under_the_same_cast_is_not_a_dung_beetle():
    """The same cell with its black tile's dark pixels printed in gold or red ink at the same
    brightness (a kind's dark insect body under the same warm light): not read as K."""
    image, _ = _scene()
    pose = next(p for p in _read(image).poses if p.player == PLAYER)
    for kind in ("Y", "R"):
        seen = {c.player: c.grid for c in _read(_inked(image, pose, kind)).observation.cases}
        assert seen[PLAYER][CELL[0]][CELL[1]] in (kind, UNKNOWN)
