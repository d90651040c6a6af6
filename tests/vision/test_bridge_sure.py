"""A group of cards beyond an arm is placed by the whole placed layout's map (`lattice._bridge`)
only where that map is sure of its cell. Never-seen hard 12701: an arm splits a calibrated table
into six cards on the right and three seven steps away on the left. The homography through the
six, a compact group, carried the far group's perspective so poorly (standard error 1.5–1.9
steps there) that it put them one cell off: a misread and two false cards. On a calibrated
table the plane is metric, and the regular lattice (one step and one turn) through the same six
cards puts them on their cells, sure to 0.19 of a step. The layout below is the one the reader
passed to the bridge on that table (plane millimetres, provisional cells)."""

from __future__ import annotations

import numpy as np

from companion.vision.lattice import _bridge

from .hexel_scenes import read_hard, scored

CELLS = {0: (0, -2), 1: (1, -2), 4: (0, -1), 5: (-1, -1), 7: (0, 0), 8: (-1, 0)}
CENTRES = np.array([[109.86, 141.28], [177.51, 142.91], [626.35, 199.04], [558.78, 201.82],
                    [143.62, 201.13], [76.45, 201.27], [591.52, 258.44], [178.41, 260.65],
                    [111.18, 262.2]])
STEPS = np.array([67.56, 66.77, 67.17, 66.87, 67.15, 67.16, 68.78, 67.27, 67.77])
VECS = {0: [[67.44, 3.94], [30.31, 60.38]], 1: [[66.72, 2.44], [31.25, 59.0]],
        4: [[67.04, 3.86], [30.17, 59.99]], 5: [[67.14, -1.74], [35.08, 57.27]],
        7: [[67.21, 2.79], [31.19, 59.6]], 8: [[67.76, -1.35], [35.05, 58.01]]}


def _dist() -> np.ndarray:
    d = np.linalg.norm(CENTRES[:, None] - CENTRES[None], axis=2) / 33.6
    np.fill_diagonal(d, np.inf)
    return d


def test_a_metric_plane_carries_the_far_group_to_its_cells():
    """The regular lattice puts the three far cards on three neighbouring cells, as the cards
    lie (2 east of 3, 6 south-east of 3), seven and six steps from the group."""
    vecs = {i: np.array(v) for i, v in VECS.items()}
    found = _bridge(CELLS, CENTRES, STEPS, _dist(), vecs, True)
    assert found is not None
    cells = {j: cell for j, cell, _ in found}
    assert cells == {2: (7, -1), 3: (6, -1), 6: (6, 0)}, cells


def test_an_unsure_homography_places_nothing():
    """On the picture's plane the same six cards fix no perspective that reaches seven steps:
    the homography is not sure of any far cell (it put card 2 at (8, -1) before), so the
    bridge places none."""
    vecs = {i: np.array(v) for i, v in VECS.items()}
    found = _bridge(CELLS, CENTRES, STEPS, _dist(), vecs, False)
    assert found == [], found


def test_the_far_group_on_12701_reads_on_its_cells():
    """End to end on the rendered table: no misread and no false card, and the far group's
    three cards in full view read right with the right group's six."""
    _image, truth, reader, res = read_hard(12701, "web")
    assert reader.view.calibrated
    s = scored(truth, res.observation.cards)
    assert (s.misreads, s.false_cards) == (0, 0), s
    assert s.correct >= 8, s
    got = {c.symbols for c in res.observation.cards if not c.occluded}
    assert {"YRRRYR", "RYRYRY", "BRRRRR"} <= got
