"""A run out of a symbol is also sampled along three lines a pixel apart side by side, averaged
point by point, and its spread is the lesser of the two (`symbol_crossings.RUN_SIDE_PX`): a
run's spread is the extreme of its samples, and the camera's noise alone widened it past
RUN_FLAT on a dim table. Never-seen hard 14132: a fingertip
over a blue disc at a card's edge (the card 0.85 in view, lit at about 60 of 255) read as red and
the card reported whole, VVVBBR for VVVBBB; 14171: a fingertip over a blue diamond read as a
yellow triangle, BYYYYY for BYYYBY. The scenes are rendered here from their seeds; their truth
comes from the renderer. Averaging across a run leaves print's steps along it whole: a thin
ring line crossing the run keeps its full depth, where smoothing all round halves it."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.calibration import TableView
from companion.vision.symbol_crossings import RUN_SIDE_PX, _run_spread
from companion.vision.symbol_samples import Pose, pose_matrices

from .hexel_scenes import read_without


@pytest.mark.parametrize("seed, edition, misread", [(14132, "holodex", "VVVBBR"),
                                                    (14171, "web", "BYYYYY")])
def test_a_fingertip_on_a_dim_table_is_not_read_as_an_ink(seed, edition, misread):
    """No misread and no false card; the covered card is not reported whole with the
    fingertip's letter; every card in full view still reads right."""
    s = read_without(seed, edition, misread)
    assert s.correct == s.full >= 12, s


CENTRE, APOTHEM = (80.0, 60.0), 30.0
WHITE = np.array([[230.0, 230.0, 230.0]])


def _spreads(frame: np.ndarray, angles_deg: np.ndarray, side_px: float) -> np.ndarray:
    """`_run_spread` (as sampled) of runs of 21 points from the card's centre out to 1.2 apothems at
    `angles_deg` (card frame), with the three lines `side_px` apart (0: the run's own line
    three times, its spread as sampled on it alone)."""
    pose = Pose(CENTRE, APOTHEM, 0.0)
    m, centres = pose_matrices([pose]), np.array([CENTRE])
    a = np.radians(angles_deg)
    local = np.linspace(0.0, 1.2, 21)[:, None, None] * np.c_[np.cos(a), np.sin(a)][None]
    return _run_spread(frame, TableView(), local, m[[0] * len(a)], centres[[0] * len(a)],
                       WHITE[[0] * len(a)], side_px)[0]


def test_noise_spreads_a_flat_run_far_less_averaged_across():
    """On a flat grey with sensor noise (8 levels), runs averaged across three lines spread
    (median over 19 directions) at most 0.7 of the same runs sampled on one line, and no run
    more than on its own line."""
    rng = np.random.default_rng(11)
    frame = np.clip(120 + rng.normal(0, 8, (120, 160, 3)), 0, 255).astype(np.uint8)
    angles = np.arange(-90, 91, 10.0)
    raw, across = _spreads(frame, angles, 0.0), _spreads(frame, angles, RUN_SIDE_PX)
    assert np.median(across) < 0.7 * np.median(raw), (across, raw)
    assert (across <= raw).all()


def test_a_thin_line_across_the_run_keeps_its_full_depth():
    """A one-pixel line of the ring's grey (40 on paper 230) crossing a run at right angles:
    averaged across, the run spreads as much as raw (the three lines each cross it), where a
    3 x 3 smoothing would have halved the line."""
    frame = np.full((120, 160, 3), 230, np.uint8)
    x = int(CENTRE[0] + 0.6 * APOTHEM)
    frame[:, x] = 40
    raw = _spreads(frame, np.array([0.0]), 0.0)[0]
    across = _spreads(frame, np.array([0.0]), RUN_SIDE_PX)[0]
    assert raw > 0.75, raw
    assert across == pytest.approx(raw, abs=0.01)


def test_the_lines_lie_a_pixel_either_side_of_the_run():
    """A run along a row of the frame (its card's x axis): where the row dips (150 to 50 over
    ten pixels) and the rows a pixel above and below rise as much between them (to 200), the
    run's own line spreads by the dip, three lines a pixel apart average it away (one colour),
    and lines two pixels apart (on rows that stay at 150) keep a third of it."""
    frame = np.full((120, 160, 3), 150, np.uint8)
    y, x0, x1 = int(CENTRE[1]), 95, 106
    frame[y, x0:x1] = 50
    frame[[y - 1, y + 1], x0:x1] = 200
    run = np.array([0.0])
    assert _spreads(frame, run, 0.0)[0] == pytest.approx(100 / 230, abs=0.01)
    assert _spreads(frame, run, 1.0)[0] == pytest.approx(0.0, abs=0.01)
    assert _spreads(frame, run, 2.0)[0] == pytest.approx(100 / 3 / 230, abs=0.01)
