"""Symbols printed in an ink the colour model names none of. A print on plain paper photographed
in a dim room can lose most of an ink's colour: the office inkjet's blue keeps about 0.6 of our
chroma, and a phone at high ISO blurs the colour of a small symbol into the paper around it
(its denoise smooths chroma over a few pixels), so a blue diamond shows as a dark violet-grey
with a sixth of its chroma, half-way round to magenta. No letter fits it, the reader leaves it
unread, and every card that shows one reads '?': to the referee, covered. Waiting for a hand to
lift would wait for ever; more light on the table will read them (the same print in
normal light reads whole), or the print's colours learned (`companion calibrate colours`). So
the symbols left unread on the cards plainly whole (their paper and border band nearly all
there, UNNAMED_WHOLE: no hand over them) are looked at: where their cores (as
`inks.symbol_cores` measures them) show one ink, coloured beyond noise (UNNAMED_CHROMA) and
agreeing on a hue (within UNNAMED_DEG of it), on UNNAMED_CARDS cards or more, the print has an
ink the model cannot name (`unnamed_ink`). A fingertip or a glare spot leaves a symbol unread
too, but seldom on three cards at once with one colour, and a crossed symbol (something across
the card's edge onto it, `CardRead.crossed`) is not counted. And the unnamed ink is one of the
print's, so some letter is then read on the table fewer times than the ink shows. Nothing is
read otherwise: the cards stay as read, and only the reason for their '?' is told
(`HexelObservation.unnamed_ink`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from .inks import MIN_CORES, chroma, wrap_angle

UNNAMED_CHROMA = 0.07   # a core of a symbol left unread this far from grey shows an ink
UNNAMED_DEG = 20.0      # the cores of one ink lie within this of their hue
UNNAMED_CARDS = 3       # on this many cards at least (and MIN_CORES cores)
UNNAMED_WHOLE = 0.85    # each card's paper and border band as nearly all there (`CardRead`)


def unnamed_ink(cores: np.ndarray, read: Sequence[str], named: Mapping[str, int],
                crossed: Sequence[Sequence[bool]] = ()) -> int:
    """The number of cards showing symbols of one ink that no letter names (see the module
    docstring), or 0 where too few do. `cores` (cards x 6 x 3) are the symbol cores of the
    plainly whole cards read `read` (a 6-letter string each, '?' unread), `named` every letter
    of the edition with the number of symbols read as it on the table, `crossed` per card and
    symbol whether something lies across the card's edge onto it (none when empty)."""
    letters = np.array([c for text in read for c in text], dtype="<U1")
    if letters.size == 0:
        return 0
    card = np.repeat(np.arange(len(read)), 6)
    length, hue = chroma(np.asarray(cores, np.float64).reshape(-1, 3))
    over = (np.array([bool(x) for c in crossed for x in (tuple(c) or (False,) * 6)])
            if crossed else np.zeros(letters.size, bool))
    sel = np.flatnonzero((letters == "?") & (length >= UNNAMED_CHROMA) & ~over)
    if sel.size < MIN_CORES:
        return 0
    # the hue most of them share: each one's fellows within UNNAMED_DEG, the largest such set
    near = np.abs(wrap_angle(hue[sel, None] - hue[None, sel])) <= math.radians(UNNAMED_DEG)
    best = near[int(near.sum(1).argmax())]
    cards = np.unique(card[sel[best]])
    if best.sum() < MIN_CORES or cards.size < UNNAMED_CARDS:
        return 0
    # (the unnamed ink is one of the print's: a letter read fewer times than it shows)
    return int(cards.size) if min(named.values(), default=0) < best.sum() else 0
