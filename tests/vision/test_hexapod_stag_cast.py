"""A pale office print's stag half under a cast of its own violet reads as a tinted dung beetle
(its dark body on its pale tile, as a dung beetle's black tile about its grey beetle): a dung
beetle read only through the cast, the stag's hue leading in its window, where a stag's other
half may lie (a head above it, wing cases below it, or a '?' showing the stag's hue) is '?'
(`hexapod_halves.stag_hued_dung`, `hexapod_cells.cast_stag_dung`)."""

from __future__ import annotations

import numpy as np

from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_halves import stag_hued_dung
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells


def test_a_doubtful_dung_beetle_where_a_stag_half_may_lie_is_unknown():
    grid = [["?", "B", "St", "?", "Sb"],
            ["K", "K", "K", "K", "K"],
            ["G", ".", "Sb", "?", "."],
            ["K", "K", "K", "B", "St"],
            ["St", ".", "?", "Sb", "K"]]
    lead = np.zeros((5, 5), bool)        # the stag's hue leads in these cells' windows
    lead[0, 0] = lead[2, 3] = lead[4, 2] = True
    doubtful = np.zeros((5, 5), bool)    # read 'K' only through a cast of the stag's hue
    doubtful[1, :] = doubtful[3, :] = doubtful[4, 4] = True
    got = stag_hued_dung(grid, doubtful, lead)
    # (1, 0): a stag-hued '?' above; (1, 2): a head above; (1, 3): a stag-hued '?' below;
    # (3, 2): a stag-hued '?' below; (4, 4): a head above
    # kept: (1, 1) 'B' above, '.' below; (1, 4): wing cases above (their head is above them);
    # (3, 0): 'G' above, a head below (its wing cases are below it); (3, 1): '.' both ways
    assert sorted(got) == [(1, 0), (1, 2), (1, 3), (3, 2), (4, 4)]
    # a '?' where another hue leads is no stag half
    lead[0, 0] = False
    assert (1, 0) not in stag_hued_dung(grid, doubtful, lead)
    # a cell read otherwise than 'K', or read 'K' without the cast, is never taken
    grid[1][2] = "B"
    doubtful[1, 3] = False
    assert not {(1, 2), (1, 3)} & set(stag_hued_dung(grid, doubtful, lead))


def test_pale_stag_wing_cases_under_a_violet_cast_are_not_dung_beetles(exported):
    """Held-out 'office-lowlight' 6149 (1, 2), 6164 (1, 2) and (1, 4), 'printed' 6125 (2, 0):
    stags' wing cases whose heads read '?' read 'K' through the cast rules; the true dung
    beetles of the same cases (read through the same rules, in other hues) are still read."""
    for variant, seed, wings, dung in (
            ("office-lowlight", 6149, ((1, 2),), ((2, 2), (3, 2))),
            ("office-lowlight", 6164, ((1, 2), (1, 4)), ((2, 2), (2, 4), (1, 5))),
            ("printed", 6125, ((2, 0),), ())):
        scene = heldout_case(exported, seed, VARIANTS[variant])
        seen = {c.player: c.grid for c in HexapodReader(track=False).read(scene.image).cases}
        got, truth = seen[scene.player], scene.grid
        assert all(truth[r][c] == "Sb" for r, c in wings)
        assert [got[r][c] for r, c in wings] == [UNKNOWN] * len(wings), (variant, seed)
        assert wrong_cells(got, truth) == [], (variant, seed)
        assert all(truth[r][c] == "K" and got[r][c] == "K" for r, c in dung), (variant, seed)
