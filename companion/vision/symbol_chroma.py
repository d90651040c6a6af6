"""A coloured symbol told by its channel differences (its chroma) alone, where its ink fractions
fail. White light added over part of a card (a glossy sleeve's sheen, a glare) raises every
channel of a symbol and of the paper beside it by the same amount against the card's white,
and a phone's saturation boost scales every pixel's differences from its own grey: both leave a
sample's chroma (its colour less the mean of its channels, paper-relative) pointing along its
ink's, and a sheen leaves its length too, while they take the sample off its ink's
paper-to-ink line (washed pale, the vote falls short; boosted past the paper in the ink's
bright channel, a shade `ColourModel.explain` does not accept, unexplained). Held-out
`phone-photo` 0-99: a sheen and the boost left 37 of 190 unread symbols with 6-16
unexplained samples and no other ink at all.

`chroma_read` reads such a symbol, on a whole card whose white did not clip and where no sample
of the symbol clipped in any channel (a clipped channel holds no difference: a washed red disc
clipped in red and lit unevenly can show a yellow's or no ink's chroma), as the coloured ink
whose chroma every sample with any chroma shows (`CHROMA_TURN`: within a few degrees of its
direction, far from any other ink's: the web inks lie 58-180 degrees apart), strongly in its
middle (a ring's hole is bare paper: no coloured symbol is hollow, and a grey ring tinted by a
lamp or JPEG's coarse colour shows its chroma in its band only) and with a vote as `decide`'s
(the chroma's length in units of the ink's, summed)."""

from __future__ import annotations

import numpy as np

from .colour import CLIP_LOW, ColourModel
from .fast_reduce import fast_mean
from .symbol_samples import CLIP_NEAR, N_CORE

CHROMA_VOTE = 2.5      # the summed chroma strength a symbol needs (as `decide`'s vote)
CHROMA_PEAK = 0.55     # its strongest sample's (as `decide`'s)
CHROMA_CORE = 0.5      # its middle samples' mean strength: ink right through, not a ring
CHROMA_TURN = 0.3      # a sample's chroma off its ink's direction, per unit along it (~17°)
CHROMA_SOME = 0.15     # a sample with chroma this strong (of the weakest ink's) is an ink's ...
CHROMA_OTHER = 5       # ... or unexplained: at most this many (as `decide` allows)
CHROMA_FAINT = 0.3     # a sample of an ink at less than this does not count for it


def chroma_strength(x: np.ndarray, model: ColourModel) -> tuple[np.ndarray, np.ndarray]:
    """Per sample (… x 3 paper-relative RGB) and coloured ink (… x inks, in `model.letters`
    order; 0 for a grey ink): its chroma's length along the ink's, in units of the ink's
    (`model.chroma_units`), and how far it lies off that direction in the same units."""
    c = x - x.mean(-1, keepdims=True)
    units = model.chroma_units                                       # letters x 3
    along = c @ units.T                                              # … x letters
    chroma = model.inks - model.inks.mean(-1, keepdims=True)
    off = np.linalg.norm(c[..., None, :] - along[..., None] * chroma, axis=-1)
    length = np.linalg.norm(chroma, axis=-1)
    off = off / np.maximum(length, 1e-6)
    grey = model.neutral
    return np.where(grey, 0.0, along), np.where(grey, np.inf, off)


def chroma_read(x: np.ndarray, usable: np.ndarray, want: np.ndarray, model: ColourModel
                ) -> tuple[np.ndarray, np.ndarray]:
    """(letter index, read) per symbol (cards x 6) for the symbols `want` marks: `x` their
    samples (cards x 6 x 19 x 3, paper-relative RGB), `usable` (cards x 6 x 19) which samples
    did not clip in any channel, on a card whose white did not clip. A symbol is read as the
    coloured ink whose chroma its samples show (see the module docstring) only when all of its
    samples are usable."""
    best = np.zeros(want.shape, np.int64)
    read = np.zeros(want.shape, bool)
    todo = want & usable.all(-1)
    if not todo.any():
        return best, read
    xs = x[todo]                                                     # k x 19 x 3
    along, off = chroma_strength(xs, model)                          # k x 19 x letters
    coloured = ~model.neutral
    is_ink = (along >= CHROMA_FAINT) & (off <= CHROMA_TURN * along) & coloured
    strength = np.where(is_ink, np.minimum(along, 1.2), 0.0)
    vote = strength.sum(-2)                                          # k x letters
    srt = np.sort(vote, -1)
    top, second = srt[:, -1], srt[:, -2]
    k = vote.argmax(-1)
    own = np.take_along_axis(strength, k[:, None, None], -1)[..., 0]  # k x 19
    # a sample with chroma that is no ink's is unexplained (as `decide` counts them)
    chroma = xs - xs.mean(-1, keepdims=True)
    size = np.linalg.norm(model.inks - model.inks.mean(-1, keepdims=True), axis=-1)
    weakest = float(size[coloured].min()) if coloured.any() else 1.0
    some = np.linalg.norm(chroma, axis=-1) >= CHROMA_SOME * weakest
    other = np.count_nonzero(some & ~is_ink.any(-1), -1)
    margin = top - 4.0 * second - 0.5 * other
    ok = ((top >= CHROMA_VOTE) & (second <= 0.12 * top + 0.3) & (other <= CHROMA_OTHER)
          & (margin > 0.0) & (own.max(-1) >= CHROMA_PEAK)
          & (fast_mean(own[:, :N_CORE]) >= CHROMA_CORE) & coloured[k])
    best[todo] = k
    read[todo] = ok
    return best, read


def usable_samples(raw: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Per symbol sample (cards x 6 x 19, from `raw`: cards x 6 x 19 x 3 BGR as sampled),
    whether it and its card's white (`white`, cards x 3 BGR) hold every channel's difference:
    no channel of either at or past CLIP_NEAR, none of the sample at or below CLIP_LOW."""
    fine = ((raw < CLIP_NEAR) & (raw > CLIP_LOW)).all(-1)
    return fine & (white < CLIP_NEAR).all(-1)[:, None, None]


__all__ = ["chroma_read", "chroma_strength", "usable_samples"]
