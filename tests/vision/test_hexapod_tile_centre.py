"""A cell whose printed lines show along half of two opposite sides is empty board only when no
kind's hue covers its small window (`hexapod_cells.tile_centre`): a card on the cell, at most a
third of a cell off, covers that window with its tile, while board fill is printed neutral. A
dim, blurred tile keeps its hue at the pale level only, its ink's saturation lost, so its centre
passes the 'lit and no ink' test, and its gutters, legs and the card's border dip as lines do
along half its sides: on never-seen hard tables 1163 and 1282 a green beetle read empty. Under
a dim lamp a beetle's grey drawing reads neutral over half the window, its tile's hue the rest:
never-seen 22191's red beetle read empty."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hexapod_cells import CENTRE_KIND, tile_centre
from companion.vision.hexapod_colour import INK, LIGHT, N_LABELS, NK, PALE
from companion.vision.observation import UNKNOWN

from .hexapod_scenes import read_hard_case, visible_read_right


@pytest.mark.parametrize(("seed", "player", "cell"), [(1163, 1, (5, 3)), (1282, 1, (2, 2)),
                                                        (22191, 2, (5, 5))])
def test_a_dim_tile_lined_along_half_its_sides_is_not_read_empty(seed, player, cell):
    """Rendered hard tables 1163 and 1282 (a green beetle, dim and blurred) and 22191 (a red
    one in a corner's deep shade): the beetle of `cell`, in full view, is its own code or '?',
    never empty; no cell of the case reads a code it is not."""
    read, case = read_hard_case(seed, player)
    r, c = cell
    kind = case.grid[r][c]
    assert kind in ("G", "R") and case.visible[r][c] >= 1.0
    assert read.grid[r][c] in (kind, UNKNOWN)
    visible_read_right(case, read)


def _shares(**labels: float) -> np.ndarray:
    """One window's label shares (one row), from label index -> share keywords 'l<index>'."""
    h = np.zeros((1, N_LABELS))
    for k, v in labels.items():
        h[0, int(k[1:])] = v
    return h


def test_one_kinds_hue_over_half_the_window_is_a_tile_and_neutral_fill_is_not():
    """Shares a pale tile's centre, and neutral fill with a little of a neighbour's ink, give."""
    pale_tile = _shares(**{f"l{PALE + 1}": CENTRE_KIND + 0.05, f"l{LIGHT}": 0.45})
    fill = _shares(**{f"l{LIGHT}": 0.8, f"l{INK + 2}": 0.2})
    two_kinds = _shares(**{f"l{PALE}": 0.3, f"l{PALE + NK - 1}": 0.3, f"l{LIGHT}": 0.4})
    assert tile_centre(pale_tile).tolist() == [True]
    assert tile_centre(fill).tolist() == [False]
    assert tile_centre(two_kinds).tolist() == [False]
