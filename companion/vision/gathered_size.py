"""A gathered card's size, from how it reads. The blur that breaks a small card's paper into
pieces (`cards.gathered_blobs`) also eats the strip of paper along its border band: the mask keeps
only paper clearly brighter than its surround, and next to the dark band, smeared inwards, the
paper is not. The hull of the pieces gathered again is the card's own hexagon, centred and turned
as the card is, only smaller, by the blur's reach: on a card 40-50 px across under a smear of
a quarter of it, a tenth or more. At that size the card's border band samples fall on its
paper and its symbols' on their inner halves, and the card is turned down as no card (held-out
`cloth-small`: whole tables of twenty cards gathered, none read). So each gathered hexagon is read
at GATHERED_SIZES times its size, never smaller (the hull lies within the card), and takes the
size at which its border band and its symbols read most whole (the smallest of the sizes that
read equally well: the hull is grown only as far as the card's read asks, and a card whose
paper the mask kept up to its band keeps its hull's size). Its paper share is left out: the
paper samples lie between the symbols, and as the size grows they move off the symbols' smear,
so the share of them that reads as paper keeps rising past the card's own size. The reader then
tells it as any hexagon: whether it is a card at all is decided there, by the same tests.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .calibration import TableView
from .cards import CardFit
from .colour import ColourModel
from .symbol_samples import Pose
from .symbols import read_cards

# the sizes a gathered hexagon is read at, of its hull's (a blur's reach is up to a quarter of
# a small card's apothem)
GATHERED_SIZES = (1.0, 1.05, 1.1, 1.15, 1.2, 1.25)


def sized_by_read(frame: np.ndarray, view: TableView, model: ColourModel,
                  fits: list[CardFit]) -> list[CardFit]:
    """`fits` (gathered hexagons) each at the size of GATHERED_SIZES at which it reads most
    whole (see the module), centre, angle and squash as fitted."""
    if not fits:
        return []
    n = len(GATHERED_SIZES)
    poses = [Pose(f.centre, f.apothem * k, f.angle, 1, f.shape)
             for f in fits for k in GATHERED_SIZES]
    scores = np.array([r.border_ok + r.letters / 6.0
                       for r in read_cards(frame, poses, view, model)])
    out = []
    for f, score in zip(fits, scores.reshape(len(fits), n), strict=True):
        out.append(replace(f, apothem=f.apothem * GATHERED_SIZES[int(np.argmax(score))]))
    return out
