"""Hexapod boards printed on an office printer (held-out 'printed' / 'office-lowlight': another
printer's hue shift, pale inks, halftone) read no wrong code. Two rules: a stag half whose
partner is not in view is named only as a clear head (`hexapod_halves.LONE_HEAD`; a pale print's
head, and a blue beetle a hue shift takes for a stag, look like wing cases), and a window whose
brighter half is a kind's tinted ink, not grey, with that kind's hue over a quarter of its small
window, is no dung beetle under a colour cast (`hexapod_cells.lit_inked`: a pale stag's dark
body on its violet tile under a violet cast read 'K')."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_cells import lit_inked
from companion.vision.hexapod_colour import ColourParams
from companion.vision.hexapod_halves import LONE_HEAD, name_halves
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells

FAINT = ColourParams().faint_sat


def _window(dark_sat: float, lit_sat: float, n: int = 400, seed: int = 0
            ) -> tuple[np.ndarray, np.ndarray]:
    """One window's (v, sat) rows: half its pixels dark (v about 0.2, saturation about
    `dark_sat`), half bright (v about 0.6, saturation about `lit_sat`), shuffled, with noise."""
    rng = np.random.default_rng(seed)
    v = np.concatenate([rng.normal(0.2, 0.03, n // 2), rng.normal(0.6, 0.05, n // 2)])
    sat = np.concatenate([rng.normal(dark_sat, 0.03, n // 2), rng.normal(lit_sat, 0.03, n // 2)])
    order = rng.permutation(n)
    return v[order][None].astype(np.float32), np.clip(sat[order], 0, 1)[None].astype(np.float32)


def test_a_tinted_grey_is_no_ink_and_a_pale_tile_is():
    # a dung beetle under a cast: black ink tinted (and noisier) more than its grey beetle
    assert not lit_inked(*_window(0.30, 0.15), FAINT)[0]
    # ... under a strong cast whose grey beetle is tinted past the faint level: still no ink,
    # its black tinted as much
    assert not lit_inked(*_window(0.45, 0.30), FAINT)[0]
    # a neutral dung beetle: nothing tinted
    assert not lit_inked(*_window(0.05, 0.06), FAINT)[0]
    # a pale office print's stag: its pale violet tile as saturated as its dark body
    assert lit_inked(*_window(0.35, 0.38), FAINT)[0]


def test_lone_stag_halves_are_named_only_as_clear_heads():
    # a lone stag cell above a '?' (its partner hidden): a clear head is named, a weak one not
    col = [["S"], ["?"], ["."], ["S"], ["?"], ["."]]
    name_halves(col, np.array([[LONE_HEAD + 0.05], [0], [0], [LONE_HEAD - 0.1], [0], [0]]),
                np.zeros((6, 1)))
    assert [r[0] for r in col] == ["St", "?", ".", UNKNOWN, "?", "."]
    # wing cases are never named alone (below a '?'), however they score
    col = [["?"], ["S"], ["."]]
    name_halves(col, np.array([[0.0], [-0.3], [0.0]]), np.zeros((3, 1)))
    assert col[1][0] == UNKNOWN
    # a pair seen whole is named whatever its drawing says
    col = [["."], ["S"], ["S"], ["."]]
    name_halves(col, np.zeros((4, 1)), np.zeros((4, 1)))
    assert [r[0] for r in col] == [".", "St", "Sb", "."]


def _read(exported, seed: int, variant: str) -> tuple[list, tuple]:
    scene = heldout_case(exported, seed, VARIANTS[variant])
    seen = {c.player: c.grid for c in HexapodReader(track=False).read(scene.image).cases}
    return seen[scene.player], scene.grid


def test_pale_stags_under_a_violet_cast_are_not_dung_beetles(exported):
    """Held-out 'printed' seed 41: two stags' wing cases, (1, 4) and (5, 3), read 'K' by the
    cast rule of `decide`; seed 94: two more, (1, 1) and (2, 4), by `cast_dung`."""
    for seed, cells in ((41, ((1, 4), (5, 3))), (94, ((1, 1), (2, 4)))):
        got, truth = _read(exported, seed, "printed")
        assert all(truth[r][c] == "Sb" for r, c in cells)
        assert wrong_cells(got, truth) == [], seed
        # the dung beetles of seed 94's case are still read
        if seed == 94:
            assert [got[r][c] for r, c in ((2, 1), (3, 1))] == ["K", "K"]


def test_blue_beetles_a_hue_shift_takes_for_stags_are_not_named(exported):
    """Held-out 'office-lowlight' seed 19: blue beetles at (0, 1) and (2, 1), read as stag cells
    beside a '?', were named 'St' and 'Sb'; the stag pair seen whole at (0, 2), (1, 2) is still
    read."""
    got, truth = _read(exported, 19, "office-lowlight")
    assert truth[0][1] == truth[2][1] == "B"
    assert wrong_cells(got, truth) == []
    assert (got[0][2], got[1][2]) == ("St", "Sb")
