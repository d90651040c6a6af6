"""The table plane's card sizes (`cards.plane_sizes`) used only where they can be trusted.

Card sizes that follow one tilted plane let the lattice measure a steep view's hops and keep
its near-edge card. A plane fitted to cards that all lie in one row says nothing of a card off
that row: it extrapolates, and a few tenths of a pixel of noise across the row become any size
at all off it. Such a fit is refused, and the plane's sizes never move a hop more than a card's
own outline could.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision.calibration import TableView
from companion.vision.cards import Blob, CardFit, consistent_sizes, plane_sizes
from companion.vision.lattice import card_frame, grow_lattice


def _fits(centres: np.ndarray, apothems: np.ndarray) -> list[CardFit]:
    hull = np.zeros((6, 2))
    return [CardFit((float(c[0]), float(c[1])), float(a), 0.0, 0.95,
                    Blob(hull, hull, 3.0 * a * a, False))
            for c, a in zip(centres, apothems, strict=True)]


def _row(n: int = 6, step: float = 62.0, wobble: float = 0.5) -> np.ndarray:
    """`n` card centres along a row, each a fraction of a pixel off it (a fit's noise)."""
    return np.array([[300.0 + step * k, 360.0 + wobble * (-1) ** k] for k in range(n)])


def test_a_row_of_cards_gives_no_plane():
    """Cards in a row, or with a size not finite, give no plane's sizes; cards spread both
    ways do."""
    centres = _row()
    apothems = np.full(len(centres), 30.0)
    assert plane_sizes(centres, apothems) is None
    spread = np.r_[centres, centres[:3] + np.array([31.0, 53.7])]
    assert plane_sizes(spread, np.full(len(spread), 30.0)) == pytest.approx(30.0)
    bad = np.full(len(spread), 30.0)
    bad[2] = np.nan
    assert plane_sizes(spread, bad) is None


def test_a_card_too_large_off_a_row_stays_dropped():
    """Six cards in a row, their sizes a plane's whose slope across the row is set so that a
    card 35 % larger than its neighbours, a row below, lies on it exactly: the fit passes every
    card it was made from (their wobble across the row is half a pixel), but it is no evidence
    for that card, which stays dropped as the size check dropped it."""
    centres = _row()
    below = np.array([[300.0 + 62.0 * 2.5, 360.0 + 53.7]])
    # a^(2/3) = k + g * (y - 360): 1.35^(2/3) of k at the card below
    k, g = 30.0 ** (2.0 / 3.0), (1.35 ** (2.0 / 3.0) - 1.0) * 30.0 ** (2.0 / 3.0) / 53.7
    every = np.r_[centres, below]
    apothems = (k + g * (every[:, 1] - 360.0)) ** 1.5
    _, dropped = consistent_sizes(_fits(every, apothems))
    assert [f.apothem for f in dropped] == [pytest.approx(apothems[-1])]
    assert apothems[-1] / np.median(apothems[:-1]) > 1.3


@pytest.mark.parametrize("seed", range(40))
def test_untrusted_cards_off_a_trusted_row_keep_their_cells(seed):
    """A flat view: four cards in a row whose outlines are trusted and two ragged ones in the
    next row, each centre a pixel off and each size 1 % off. A plane fitted to the row would
    put any size at the ragged cards; every card keeps its cell."""
    rng = np.random.default_rng(seed)
    a, s = 30.0, 62.0
    cells = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)]
    centres = [(s * (q + r / 2.0) + rng.normal(0, 1.0), s * r * math.sqrt(3.0) / 2.0
                + rng.normal(0, 1.0)) for q, r in cells]
    frames = [card_frame(c, a * (1.0 + rng.normal(0, 0.01)), 0.0, np.eye(2)) for c in centres]
    lat = grow_lattice(frames, TableView(), sized=[True] * 4 + [False] * 2)
    assert len(lat.cells) == len(cells)
    q0, r0 = lat.cells[0]
    got = sorted((q - q0, r - r0) for q, r in (lat.cells[i] for i in range(len(cells))))
    assert len(set(got)) == len(cells)
