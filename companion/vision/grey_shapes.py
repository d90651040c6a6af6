"""Web cards printed without colour, or seen by a camera without it, read by their symbols'
shapes alone. The web edition prints each letter in a shape of its own (R a disc, B a diamond,
Y a triangle, `shape_ink`), so a black-and-white printer's print of it still carries every
letter, as grey shapes: a person at the table reads it so, and so does the reader where the
frame's cards show no colour (`colourless.grey_symbols`) or the picture has none
(`colourless.colourless`). The holodex edition prints R and B both as discs: without colour
they cannot be told apart, and such a print stays unread (`observation.GREY_PRINT`).

Each symbol is sampled as `shape_ink` samples it (a GRID x GRID picture at the card's pose).
A soft shadow's edge or a lamp's fall-off across the symbol shades the paper round it from one
side to the other, which no silhouette has: the picture is first divided by the plane fitted
through its paper (`ring_shape.flattened`, the samples GREY_PAPER_FROM radii out and beyond,
clear of every silhouette at every shift), so that paper reads 1 all over it (held-out
`mono-lamp`, a lamp and a shadow: 94.75 % of cards read without it, 99.95 % with it). Each
sample is taken as its share of the way from that paper to the symbol's core (`grey_matches`),
clipped to 0..1: the face draws every symbol inside a darker rim, and a yellow triangle printed
grey is a pale fill inside a dark rim, which the clip makes one solid silhouette (unclipped, its
best match with the triangle falls to ~0.93 on a clean table, where a disc's or a diamond's
reaches ~0.98). The picture is correlated with the three silhouettes
(`shape_ink.correlations`), and the symbol reads as the best one's letter where that
correlation reaches its shape's floor and leads the next by GREY_LEAD (`grey_letters`), else '?'.

A diamond or a triangle smeared by motion blur rounds towards a disc. On held-out web tables
printed grey (ten conditions, `tests/vision/heldout.py`'s `mono` variants: plain, under a lamp,
in a dim room, smeared, sleeved, small, tilted, under arms, with fingertips, harsh; 100 tables
each, 19 140 hexagons, read at their fitted poses), of 103 362 symbols so read, 177 were wrong,
every one read as the disc (175 diamonds, 2 triangles), at a correlation of 0.931 at most: the
disc must reach DISC_MATCH, and then none of the 99 422 symbols read was wrong. Measured again
on fourteen conditions (those ten, and halftone, curled, office-printed and phone-photographed
prints; odd seeds 1-199, every card the lattice placed at its fitted pose, 26 312 of them in
full view): a triangle smeared or dim matches its silhouette at 0.84-0.88 with a clear lead,
and no other symbol read as the triangle leads by more than 0.009 from 0.84 (TRIANGLE_MATCH);
a disc there
matches at 0.92-0.94 and leads the diamond and the triangle by far, while every other symbol
read as the disc either matches it below 0.90 (a fingertip's round blob over a diamond leads
by up to 0.23 at 0.88) or leads by 0.094 at most (CLEAR_DISC_MATCH and CLEAR_DISC_LEAD). With
those, whole cards at the fitted poses: smeared 45.7 -> 52.8 %, harsh 40.7 -> 46.7 %, through
a phone 18.1 -> 33.9 %, halftone 98.1 -> 99.7 %; no symbol read wrong. Colour, the
second cue a colour print gives, is missing, so the shape alone must be plain; a card is
trusted only with all six symbols read so (at SHAPE_CONFIDENCE), and a hexagon of paper and
border that shows fewer than MIN_SHAPES plain shapes is taken for no card at all. The holodex
edition's cards laid for a web match, printed grey, are told by their rings (or by nothing but
discs, `holodex_print`) and left unread: read by the web's shapes, a card of discs reads
RRRRRR.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .calibration import TableView
from .ring_shape import MIN_HOLE_PX, flattened, hole_px, ring_plain, shape_of
from .shape_ink import CORE_AT, SHAPES, correlations, symbol_pictures, web_templates
from .symbol_samples import Pose

GREY_PAPER_FROM = 1.35    # symbol radii: paper round every silhouette at every shift (1.32)
GREY_MATCH = 0.88         # the best silhouette's correlation, at least (the diamond's)
DISC_MATCH = 0.94         # ... the disc's, at least
TRIANGLE_MATCH = 0.84     # ... the triangle's, at least
GREY_LEAD = 0.05          # ... and its lead over the next shape's
CLEAR_DISC_MATCH = 0.92   # or the disc's, at least, where it leads the next by
CLEAR_DISC_LEAD = 0.12    # ... this much
_FLOORS = {"R": DISC_MATCH, "B": GREY_MATCH, "Y": TRIANGLE_MATCH}   # each letter's shape's
MIN_SHAPES = 4            # plain shapes a hexagon shows, at least, to be taken for a card
SHAPE_CONFIDENCE = 0.8    # a card read whole by its shapes alone
RING_CARDS = 2            # hexagons plainly showing the holodex ring: holodex cards
DISCS_ONLY = 12           # plain shapes all discs, this many or more: holodex cards


def grey_matches(bgr: np.ndarray, poses: Sequence[Pose], view: TableView
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(cards x 6 x 3 each symbol's best correlation with the disc, the diamond and the
    triangle, `grey_scores`; cards whether all their samples lie in the frame) of the cards
    at `poses`."""
    vals, inside = symbol_pictures(bgr, poses, view)
    return grey_scores(vals), inside


def grey_scores(vals: np.ndarray) -> np.ndarray:
    """(cards x 6 x 3) each symbol picture's (`vals`, cards x 6 x GRID² x 3 BGR,
    `shape_ink.symbol_pictures`) best correlation with the disc, the diamond and the triangle:
    the picture divided by the plane through its paper (`ring_shape.flattened`, its samples
    GREY_PAPER_FROM radii out and beyond), each sample's share of the way from that paper to
    the symbol's core (`shape_ink.CORE_AT`), clipped to 0..1."""
    flat = flattened(vals, GREY_PAPER_FROM) - 1.0          # paper 0, whatever its shade
    span = flat[:, :, list(CORE_AT)].mean(2, keepdims=True)
    share = (flat * span).sum(-1) / np.maximum((span * span).sum(-1), 1e-6)
    return correlations(np.clip(share, 0.0, 1.0), web_templates())


def grey_letters(scores: np.ndarray) -> list[str]:
    """Each card's six letters (cards x 6 x 3 `grey_matches` scores): the best silhouette's
    letter where its correlation reaches its shape's floor (the disc's DISC_MATCH, the
    diamond's GREY_MATCH, the triangle's TRIANGLE_MATCH) and leads the next by GREY_LEAD, or,
    a disc, where it reaches CLEAR_DISC_MATCH and leads by CLEAR_DISC_LEAD; else '?'."""
    order = np.sort(scores, -1)
    best = scores.argmax(-1)
    top, lead = order[..., -1], order[..., -1] - order[..., -2]
    floor = np.array([_FLOORS[letter] for letter in SHAPES])[best]
    disc = best == SHAPES.index("R")
    plain = ((top >= floor) & (lead >= GREY_LEAD)
             | disc & (top >= CLEAR_DISC_MATCH) & (lead >= CLEAR_DISC_LEAD))
    letters = np.where(plain, np.array(list(SHAPES))[best], "?")
    return ["".join(row) for row in letters.reshape(-1, 6)]


def plain_count(symbols: str) -> int:
    """How many of a card's symbols read (`grey_letters`)."""
    return sum(c != "?" for c in symbols)


def holodex_print(vals: np.ndarray, poses: Sequence[Pose], view: TableView,
                  letters: Sequence[str]) -> bool:
    """Whether the hexagons at `poses` (their symbol pictures `vals`,
    `shape_ink.symbol_pictures`; their shapes read `letters`, `grey_letters`) are the holodex
    edition's cards, laid for a web match: RING_CARDS of them or more show the holodex ring
    plainly (`ring_shape.ring_plain` on the pictures flattened by their paper, as
    `ring_shape.flat_matches` takes them, a hole of MIN_HOLE_PX), or DISCS_ONLY plain shapes or
    more are every one a disc (the holodex prints R and B both as discs; a web table, whose
    cards mostly carry diamonds or triangles, shows so many discs alone only laid with the
    RRRRRR card twice over). Read by the web's shapes, a holodex card of discs reads RRRRRR.
    Measured on held-out tables printed grey (`mono`, 0-15): web hexagons match the ring at
    0.82 at most, none plainly; holodex tables show 17-20 cards with a ring."""
    if not poses:
        return False
    scores, contrast = shape_of(flattened(vals), np.ones((1, 1, 3)))
    rings = ring_plain(scores, contrast) & (hole_px(poses, view) >= MIN_HOLE_PX)[:, None]
    shapes = "".join(letters).replace("?", "")
    return (int(rings.any(1).sum()) >= RING_CARDS
            or (len(shapes) >= DISCS_ONLY and set(shapes) == {"R"}))
