"""A dung beetle whose black tile a cast tints to a kind's hue, told by its drawing: a warm lamp
turns the tile brown, as a red or gold print would, so the colours leave the cell undecided and
the drawing alone named nothing where a kind's hue showed. A cast tints the black tile and the
grey beetle it rings alike, while a tile printed in a kind's ink differs from its beetle; so
there the reader names the dung beetle by its drawing at stricter bounds and where tile and
beetle show one tint (`hexapod_drawings.tint_gap`, TINT_GAP). Crafted canvases, and hard tables
whose dung beetles were left '?'."""

from __future__ import annotations

import numpy as np
import pytest

from companion.faces import HEXAPOD_INKS
from companion.synth.hexapod_face import render_card
from companion.vision.hexapod_drawings import (
    BEETLES_MODEL,
    TINT_GAP,
    drawings,
    dung_drawn,
    tint_gap,
)

from .hexapod_scenes import PX, M, assert_hard_cell_reads, lined_board

WHITE = np.array([205.0, 200.0, 195.0], np.float32)
CELL = (2, 2)


def _dung_table(light: tuple[float, float, float], veil: float = 0.0,
                ink: str | None = None, shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    """A crafted canvas: the dung beetle's card on CELL, `shift` (dx, dy) px off, seen under
    `light` (BGR, per channel) plus `veil` of the light's white; with `ink`, its black tile
    printed in that kind's ink at the same brightness (its darkest channel kept, as a print's
    dark ink would be at that level)."""
    img = lined_board(WHITE * np.asarray(light, np.float32))
    face = render_card((("K",),), PX)[:, :, :3].astype(np.float32)
    if ink is not None:
        v = face.max(axis=2)
        dark = v < 0.5 * v.max()
        colour = np.asarray(HEXAPOD_INKS[ink][::-1], np.float32)
        face[dark] = v[dark, None] * colour / colour.max()
    seen = np.minimum(face * np.asarray(light, np.float32) +
                      veil * WHITE * np.asarray(light, np.float32), 255.0)
    dx, dy = shift
    y0, x0 = M + CELL[0] * PX + dy, M + CELL[1] * PX + dx
    img[y0:y0 + face.shape[0], x0:x0 + face.shape[1]] = seen
    return img


def _named(img: np.ndarray) -> bool:
    """Whether the drawing names CELL a dung beetle where a kind's hue shows over it."""
    cell = np.array([CELL[0] * 6 + CELL[1]])
    return bool(dung_drawn(img, PX, M, 6, cell, np.array([True]))[0])


def _gap(img: np.ndarray) -> float:
    gap = tint_gap(img, PX, M, CELL, drawings(BEETLES_MODEL, PX)[0])
    assert gap is not None
    return gap


@pytest.mark.parametrize(("light", "veil", "shift"), [
    ((0.3, 0.55, 0.95), 0.0, (0, 0)),       # a warm lamp (BGR)
    ((0.25, 0.45, 0.9), 0.08, (6, -5)),     # warmer, a veil of its light, a fifth of a cell off
    ((0.9, 0.7, 0.4), 0.0, (-4, 3)),        # a cold daylight cast
])
def test_a_cast_dung_beetle_is_named_by_its_drawing(light, veil, shift):
    """Under a strong cast the tile and beetle are one tint (well within TINT_GAP), and a cell
    whose colours show a kind's hue is still named a dung beetle by its drawing."""
    img = _dung_table(light, veil, shift=shift)
    assert _gap(img) < TINT_GAP / 2
    assert _named(img)


@pytest.mark.parametrize("ink", ["R", "Y", "B", "G"])
@pytest.mark.parametrize("light", [(0.8, 0.78, 0.76), (0.3, 0.55, 0.95)])
def test_a_tile_printed_in_a_kinds_ink_is_no_dung_beetle(ink, light):
    """The same card with its black tile printed in a kind's ink (the drawing unchanged, so it
    matches as well as the dung beetle's own): its tile and beetle differ in tint beyond
    TINT_GAP, under a neutral and a warm light, and the drawing names nothing."""
    img = _dung_table(light, ink=ink)
    assert _gap(img) > TINT_GAP
    assert not _named(img)


def test_the_untinted_rule_is_unchanged():
    """Where no kind's hue shows (`tinted` False), a printed tile in a kind's ink is named by
    the drawing alone, as before: the tint test applies only where the colours are in doubt
    (the hue rule of `hexapod_cells` keeps such a tile from reaching the drawing at all)."""
    img = _dung_table((0.8, 0.78, 0.76), ink="R")
    cell = np.array([CELL[0] * 6 + CELL[1]])
    assert dung_drawn(img, PX, M, 6, cell)[0]
    assert dung_drawn(img, PX, M, 6, cell, np.array([False]))[0]


@pytest.mark.parametrize(("seed", "player", "cell"), [
    (187, 2, (4, 2)),   # a warm lamp: the tile reads gold over 0.38 of the cell
    (264, 1, (2, 4)),   # red over 0.26
    (499, 1, (3, 5)),   # blue over 0.98 of it
    (610, 2, (1, 2)),   # gold over 0.55
])
def test_hard_tables_cast_dung_beetles_read(seed, player, cell):
    """Hard tables whose listed dung beetle, in full view, was left undecided under a cast: it
    reads 'K', and no cell of the table reads a wrong code."""
    assert_hard_cell_reads(seed, player, cell, "K")
