"""A dung beetle under a white clipped in one channel or more (`hexapod_cells.clipped_dung`).
The local gain is taken from paper that reads no brighter than the clip, so the grey beetle
reads as bright as lit fill against it and failed `decide`'s middle-brightness test
(`max_grey`); under a white clipped in two channels or three, a cast stays on the grey beetle
and tinted more of it than `max_tinted` allows. Hard 132 (player 1, a warm light, the white
clipped in all three channels) had three dung beetles '?'; hard 85 one. A cell whose middle is
fill with black along one side only (a neighbour's black tile, a black sleeve's edge) is still
refused, as is a dung beetle's tile printed in a kind's ink."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXAPOD_INKS
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_cells import clipped_dung
from companion.vision.hexapod_colour import DARK, GREYISH, LIGHT, MID, N_TINTS, UNLIT
from companion.vision.hexapod_markers import LAYOUT
from companion.vision.hexapod_windows import DEFAULT, cell_histograms, cell_windows, quantiles
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import PX, M, hard_scene, read_hard_case

N = 6 * PX + 2 * M
CELL = 2 * 6 + 2        # (2, 2), the crafted canvases' cell


@pytest.mark.parametrize(("seed", "player", "cells"), [
    (132, 1, [(2, 1), (2, 4), (4, 4)]),     # the beetle tinted (OTHER) and as bright as fill
    (85, 1, [(3, 1)]),                      # the beetle as bright as fill
])
def test_dung_beetles_under_a_clipped_white_are_read(seed, player, cells):
    """The dung beetles '?' before read K, and no fully visible cell of the case reads a wrong
    code (a hidden one only '?' or its own)."""
    read, case = read_hard_case(seed, player)
    for r, c in cells:
        assert case.grid[r][c] == "K" and case.visible[r][c] >= 1.0
        assert read.grid[r][c] == "K"
    assert [(i, j) for i, row in enumerate(case.grid) for j, want in enumerate(row)
            if read.grid[i][j] not in (want, UNKNOWN)] == []


def _inked(image: np.ndarray, pose, kind: str, cell: tuple[int, int]) -> np.ndarray:
    """`image` with the dark pixels of `cell` (its black tile) printed in `kind`'s ink at the
    same brightness under the same light (its colour the cell's brightest pixels'), as
    `test_hexapod_dung_cast` paints its cell."""
    r, c = cell
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


def test_a_kind_tile_in_place_of_the_black_one_is_no_dung_beetle():
    """Hard 132, player 1: the black tile of (2, 1) printed in a kind's ink at the same
    brightness (a kind's dark insect body where the black was) does not read K."""
    image, _ = hard_scene(132)
    reader = HexapodReader(track=False, keep_still=False)
    pose = next(p for p in reader.read_full(image).poses if p.player == 1)
    for kind in ("R", "Y", "B"):
        painted = _inked(image, pose, kind, (2, 1))
        grid = next(c.grid for c in HexapodReader(track=False, keep_still=False)
                    .read(painted).cases if c.player == 1)
        assert grid[2][1] != "K", kind


def _evidence(v: np.ndarray, labels: np.ndarray, tints: np.ndarray):
    """`clipped_dung`'s evidence of every cell of crafted canvases (brightness `v`, labels,
    tint levels), as `read_case` gathers it."""
    small, large = round(DEFAULT.small * PX), round(DEFAULT.large * PX)
    hs = cell_histograms(labels, PX, M, 6, 6, small)
    hl = cell_histograms(labels, PX, M, 6, 6, large)
    ts = cell_histograms(tints, PX, M, 6, 6, small, n_labels=N_TINTS)
    qs = quantiles(cell_windows(v, PX, M, 6, 6, small))
    ql = quantiles(cell_windows(v, PX, M, 6, 6, large))
    return hs, hl, qs, ql, ts


def _canvas(beetle: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(v, labels, tints) of board fill (1.0, LIGHT) with, at CELL, a dung beetle's black tile
    (0.15, DARK) round a grey beetle as bright as the fill (`beetle`: a clipped white's gain),
    or fill with a neighbour's black tile reaching in from the left over a third of the cell."""
    v = np.full((N, N), 1.0, np.float32)
    labels = np.full((N, N), LIGHT, np.uint8)
    y0, x0 = M + 2 * PX, M + 2 * PX
    if beetle:
        v[y0 + 1:y0 + PX - 1, x0 + 1:x0 + PX - 1] = 0.15
        labels[y0 + 1:y0 + PX - 1, x0 + 1:x0 + PX - 1] = DARK
        b = PX // 3         # the beetle a third of the cell across, black all round it
        v[y0 + b:y0 + PX - b, x0 + b:x0 + PX - b] = 0.95
        labels[y0 + b:y0 + PX - b, x0 + b:x0 + PX - b] = MID
    else:
        v[y0:y0 + PX, x0:x0 + PX // 3] = 0.15
        labels[y0:y0 + PX, x0:x0 + PX // 3] = DARK
    tints = np.where(v >= DEFAULT.colour.lit_v, GREYISH, UNLIT).astype(np.uint8)
    return v, labels, tints


@pytest.mark.parametrize("n_clipped", [1, 2, 3])
def test_clipped_dung_reads_a_bright_beetle_only_on_its_black_tile(n_clipped):
    """Under a white clipped in `n_clipped` channels, a black tile round a beetle as bright as
    the fill is a dung beetle; fill with black along one side only is not."""
    cells = np.array([CELL])
    v, labels, tints = _canvas(beetle=True)
    sat = np.zeros_like(v)
    got = clipped_dung(v, sat, *_evidence(v, labels, tints), PX, M, 6, 6, cells, n_clipped)
    assert got.tolist() == [True]
    v, labels, tints = _canvas(beetle=False)
    got = clipped_dung(v, sat, *_evidence(v, labels, tints), PX, M, 6, 6, cells, n_clipped)
    assert got.tolist() == [False]


def test_clipped_dung_asks_a_clipped_white():
    """Under a white clipped in no channel, the middle's brightness still decides (`decide`):
    the same bright beetle is not read by this rule."""
    v, labels, tints = _canvas(beetle=True)
    got = clipped_dung(v, np.zeros_like(v), *_evidence(v, labels, tints), PX, M, 6, 6,
                       np.array([CELL]), 0)
    assert got.tolist() == [False]
