"""A sleeve of one kind's colour running in from beyond the board is an occluder however noisy
the sensor (`hexapod_colour._edge_regions`): noise leaves pinholes in its labels (pixels read
as another kind or as neutral) that a plain opening widens into gaps, cutting the sleeve into
pieces each too small to be one. Held-out `hand` picture 23 (a navy sleeve over the case)
under Gaussian noise of 12 levels: the reader read four cards under the sleeve as blue
beetles."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_colour import _edge_regions
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells


def _noisy(image: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(image + rng.normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)


def test_a_navy_sleeve_on_a_noisy_sensor_hides_the_cards_under_it(exported):
    """Picture 23 with noise: no cell reads a code it is not; the four cards under the sleeve
    (Y, K, G, R) are '?'."""
    scene = heldout_case(exported, 23, VARIANTS["hand"])
    truth = scene.boards[0].grid
    grid = HexapodReader(track=False).read(_noisy(scene.image, 12.0, 1022)).cases[0].grid
    assert [truth[r][c] for r, c in ((3, 4), (4, 3), (5, 2), (5, 3))] == ["Y", "K", "G", "R"]
    assert all(grid[r][c] == UNKNOWN for r, c in ((3, 4), (4, 3), (5, 2), (5, 3)))
    assert wrong_cells(grid, truth) == []


def _sleeve_mask(n: int = 120) -> np.ndarray:
    """A band 40 px wide running in from the canvas's left edge (1 inside, 0 beyond)."""
    mask = np.zeros((n, n), np.uint8)
    mask[40:80, :90] = 1
    return mask


def test_pinholes_do_not_cut_a_sleeve_into_pieces():
    """A sleeve with a quarter of its pixels knocked out at random is still one region running
    in from the edge; specks of a kind's label scattered away from the edge are not."""
    mask = _sleeve_mask()
    rng = np.random.default_rng(5)
    holed = mask.copy()
    holed[rng.random(mask.shape) < 0.25] = 0
    specks = (rng.random(mask.shape) < 0.05).astype(np.uint8)
    specks[:, :20] = 0
    got = _edge_regions(holed | specks, 30 * 30, 12)
    assert got[40:80, 12:90].mean() > 0.9
    assert got[:36].sum() == 0 and got[84:].sum() == 0


def test_a_row_of_tiles_parted_by_gutters_stays_apart():
    """Tiles 20 px square parted by 2 px gutters, the first at the canvas's edge: filling
    pinholes does not join them into one region big enough to be a sleeve."""
    mask = np.zeros((120, 120), np.uint8)
    for x in range(0, 110, 22):
        mask[50:70, x:x + 20] = 1
    got = _edge_regions(mask, 30 * 30, 12)
    assert got.sum() == 0
