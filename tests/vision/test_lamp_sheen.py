"""A card whose paper clipped is read again against the paper the table's lamp makes of it
(`symbols._lamp_read`), and a sleeve's sheen does not follow the lamp: a symbol seen brighter
than its card's paper in a channel in which that paper did not clip lies under more light than
the lamp's, and is left unread there (`symbol_sheen.sheen_over`). Held-out `sleeves` 13227: a
pale yellow triangle under the sheen (its red 1.1 of the paper's, which clipped in blue and
green only) read as red against the lamp's paper, and the card in full view was reported whole
as RYBYRR for RYBYRY."""

from __future__ import annotations

import numpy as np

from companion.vision.symbol_samples import N_SYMBOL
from companion.vision.symbol_sheen import SHEEN_OVER, sheen_over

from .heldout import VARIANTS, heldout_scene, scored


def test_a_yellow_under_a_sleeve_sheen_is_not_read_red() -> None:
    """13227: no misread, no false card; the card is not reported whole as RYBYRR; the 19
    other cards in full view read right (and that card too, its washed yellow triangle read
    within the reads by its shape and hue, `washed`)."""
    scene = heldout_scene(13227, variant=VARIANTS["sleeves"])
    score, obs = scored(scene)
    assert (score.misreads, score.false_cards) == (0, 0), score
    assert not any(c.symbols == "RYBYRR" and not c.occluded for c in obs.cards)
    assert score.correct >= 19 and score.full == 20, score


def _symbols(bgr: tuple[float, float, float]) -> np.ndarray:
    """One card whose six symbols all read `bgr` at every sample (1 x 6 x N_SYMBOL x 3)."""
    return np.broadcast_to(np.array(bgr, np.float32), (1, 6, N_SYMBOL, 3)).copy()


def test_only_a_symbol_brighter_than_unclipped_paper_is_over_lit() -> None:
    """Paper clipped in blue and green, its red at 232: a symbol whose red is at the clip is
    over-lit; a printed yellow (its red the paper's, within noise) is not, nor a symbol
    brighter than the paper only in the clipped channels, nor on a card whose paper clipped in
    none but by less than SHEEN_OVER."""
    white = np.array([[254.0, 255.0, 232.0]])
    assert sheen_over(_symbols((180.0, 254.0, 255.0)), white).all()
    assert not sheen_over(_symbols((60.0, 250.0, 236.0)), white).any()
    assert not sheen_over(_symbols((255.0, 255.0, 200.0)), white).any()
    dim = np.array([[200.0, 200.0, 200.0]])
    assert not sheen_over(_symbols((0.99 * SHEEN_OVER * 200.0,) * 3), dim).any()
    assert sheen_over(_symbols((1.01 * SHEEN_OVER * 200.0, 150.0, 150.0)), dim).all()
