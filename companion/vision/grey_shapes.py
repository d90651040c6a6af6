"""Web cards printed without colour, or seen by a camera without it, read by their symbols'
shapes alone. The web edition prints each letter in a shape of its own (R a disc, B a diamond,
Y a triangle, `shape_ink`), so a black-and-white printer's print of it still carries every
letter, as grey shapes: a person at the table reads it so, and so does the reader where the
frame's cards show no colour (`colourless.grey_symbols`) or the picture has none
(`colourless.colourless`). The holodex edition prints R and B both as discs: without colour
they cannot be told apart, and such a print stays unread (`observation.GREY_PRINT`).

Each symbol is sampled as `shape_ink` samples it (a GRID x GRID picture at the card's pose),
each sample taken as its share of the way from the card's paper to the symbol's core
(`grey_matches`). A soft shadow's edge or a lamp's fall-off across the symbol shades the paper
round it from one side to the other, which no silhouette has: the plane fitted to the
picture's outer ring of samples (paper round every silhouette, at every shift) is taken off
first. The shares are then clipped to 0..1: the face draws every symbol inside a darker rim,
and a yellow triangle printed grey is a pale fill inside a dark rim, which the clip makes one
solid silhouette (unclipped, its best match with the triangle falls to ~0.93 on a clean table,
where a disc's or a diamond's reaches ~0.98). The picture is correlated with the three
silhouettes (`shape_ink.correlations`), and the symbol reads as the best one's letter where that
correlation reaches GREY_MATCH and leads the next by GREY_LEAD (`grey_letters`), else '?'.
A diamond or a triangle smeared by motion blur rounds towards a disc: on held-out web tables
printed grey (ten conditions, `tests/vision/heldout.py`'s `mono` variants: plain, under a lamp,
in a dim room, smeared, sleeved, small, tilted, under arms, with fingertips, harsh; 100 tables
each, 19 140 hexagons, read at their fitted poses), of 103 910 symbols read so, 199 read
wrong, every one as the disc (191 diamonds, 8 triangles), at a correlation of 0.931 at most: the
disc must reach DISC_MATCH, and then none of the 99 945 symbols read was read wrong.
Colour, the second cue a colour print gives, is missing, so the shape alone must be plain; a
card is trusted only with all six symbols read so (at SHAPE_CONFIDENCE), and a hexagon of paper
and border that shows fewer than MIN_SHAPES plain shapes is taken for no card at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from .calibration import TableView
from .shape_ink import GRID, SHAPES, correlations, symbol_pictures, web_templates
from .symbol_samples import Pose

GREY_MATCH = 0.88         # the best silhouette's correlation, at least
DISC_MATCH = 0.94         # ... the disc's, at least
GREY_LEAD = 0.05          # ... and its lead over the next shape's
MIN_SHAPES = 4            # plain shapes a hexagon shows, at least, to be taken for a card
SHAPE_CONFIDENCE = 0.8    # a card read whole by its shapes alone


def grey_matches(bgr: np.ndarray, poses: Sequence[Pose], view: TableView,
                 whites: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cards x 6 x 3 each symbol's best correlation with the disc, the diamond and the
    triangle; cards whether all their samples lie in the frame) of the cards at `poses`, their
    paper's colour `whites` (cards x 3 BGR): each sample's share of the way from the paper to the
    symbol's core (the mean of the picture's middle 3 x 3), less the plane fitted to the
    picture's outer ring (paper round every silhouette: `_ring_plane`), rescaled so that the
    core is 1 again, and clipped to 0..1."""
    vals, inside = symbol_pictures(bgr, poses, view)
    mid = GRID // 2
    core_at = [(mid + i) * GRID + mid + j for i in (-1, 0, 1) for j in (-1, 0, 1)]
    white = np.asarray(whites, np.float64).reshape(-1, 1, 1, 3)
    span = vals[:, :, core_at].mean(2, keepdims=True) - white
    share = ((vals - white) * span).sum(-1) / np.maximum((span * span).sum(-1), 1e-6)
    ring, fit, design = _ring_plane()
    plane = (share[..., ring] @ fit.T) @ design.T
    core = (share - plane)[..., core_at].mean(-1, keepdims=True)
    share = (share - plane) / np.maximum(core, 1e-3)
    return correlations(np.clip(share, 0.0, 1.0), web_templates()), inside


@cache
def _ring_plane() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the picture's outer ring of samples, the least-squares map from their values to a
    plane's three coefficients, the plane's design over all GRID² samples): the ring lies
    EXTENT symbol radii out, beyond every silhouette at every shift."""
    at = np.linspace(-1.0, 1.0, GRID)
    u, v = np.meshgrid(at, at, indexing="ij")
    design = np.stack([np.ones(GRID * GRID), u.ravel(), v.ravel()], 1)
    ring = np.flatnonzero(((np.abs(u) == 1.0) | (np.abs(v) == 1.0)).ravel())
    return ring, np.linalg.pinv(design[ring]), design


def grey_letters(scores: np.ndarray) -> list[str]:
    """Each card's six letters (cards x 6 x 3 `grey_matches` scores): the best silhouette's
    letter where its correlation reaches GREY_MATCH (the disc's DISC_MATCH) and leads the next
    by GREY_LEAD, else '?'."""
    order = np.sort(scores, -1)
    best = scores.argmax(-1)
    floor = np.where(best == SHAPES.index("R"), DISC_MATCH, GREY_MATCH)
    plain = (order[..., -1] >= floor) & (order[..., -1] - order[..., -2] >= GREY_LEAD)
    letters = np.where(plain, np.array(list(SHAPES))[best], "?")
    return ["".join(row) for row in letters.reshape(-1, 6)]


def plain_count(symbols: str) -> int:
    """How many of a card's symbols read (`grey_letters`)."""
    return sum(c != "?" for c in symbols)
