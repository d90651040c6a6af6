"""A coloured symbol told by its channel differences (its chroma) alone, where its ink fractions
fail. White light added over part of a card (a glossy sleeve's sheen, a glare) raises every
channel of a symbol and of the paper beside it by the same amount against the card's white,
and a phone's saturation boost scales every pixel's differences from its own grey: both leave a
sample's chroma (its colour less the mean of its channels, paper-relative) pointing along its
ink's, and a sheen leaves its length too, while they take the sample off its ink's
paper-to-ink line (washed pale, the vote falls short; boosted past the paper in the ink's
bright channel, a shade `ColourModel.explain` does not accept, unexplained). Held-out
`phone-photo` 0-99: of the 174 symbols left unread on its cards, 46 had 6-16 unexplained samples
and no other ink at all, 21 of them with no sample and no white clipped; nearly every washed
symbol of `sleeves` has a sample clipped in some channel (left unread, as below).

`chroma_read` reads such a symbol, on a whole card, as the coloured ink whose chroma its samples
show: every sample with any chroma within a few degrees of that ink's direction (`CHROMA_TURN`;
the web inks lie 58-180 degrees apart) but a few unexplained, strongly in its middle (a ring's
hole is bare paper: no coloured symbol is hollow, and a grey ring tinted by a lamp or JPEG's
coarse colour shows its chroma in its band only), with a vote as `decide`'s (the chroma's length
in units of the ink's, summed). A channel that clipped at white holds only a bound: its true
value lies from as seen up to OVEREXPOSED_MAX of it, or further where a sheen the sample's other
channels show could take it further (`clip_reach`). A sample clipped in some channels but not
all is judged at every corner of the values its clipped channels may truly hold, and counts for
an ink only by the least it shows of it at any, and as unexplained where it is no ink's, or
another's, at any: a washed red disc clipped in red and lit unevenly shows a yellow's chroma as
seen and a red's at a brighter red (unexplained, and such samples leave it unread), while a
saturated print keeps its hue at every value (a phone's boost drives a red disc to (255, 0, 3),
held-out `portrait` 56, and a blue disc's blue past the clip, held-out `phone-photo` 20016). A
sample clipped white in every channel shows nothing and counts for no ink. A channel crushed to
black is known to within the sensor's black (a phone's contrast curve crushes a red disc's green
and blue): such a sample counts as seen where its white is bright enough that this is a small
part of an ink's chroma (`CRUSH_FLOOR`), and leaves its symbol unread under a dimmer one. Where
the card's white clipped in a channel, its paper lies brighter there than seen by an unknown
factor (up to OVEREXPOSED_MAX): the symbol must read as the same ink whatever that factor."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from .colour import CLIP_LOW, OVEREXPOSED_MAX, ColourModel
from .fast_reduce import fast_mean
from .symbol_samples import CLIP_NEAR, N_CORE

CHROMA_VOTE = 2.5      # the summed chroma strength a symbol needs (as `decide`'s vote)
CHROMA_PEAK = 0.55     # its strongest sample's (as `decide`'s)
CHROMA_CORE = 0.5      # its middle samples' mean strength: ink right through, not a ring
CHROMA_TURN = 0.3      # a sample's chroma off its ink's direction, per unit along it (~17°)
CHROMA_SOME = 0.15     # a sample with chroma this strong (of the weakest ink's) is an ink's ...
CHROMA_OTHER = 5       # ... or unexplained: at most this many (as `decide` allows)
CHROMA_FAINT = 0.3     # a sample of an ink at less than this does not count for it
# A channel crushed to black (at most CLIP_LOW) is off its true value by at most CLIP_LOW of the
# sensor, CLIP_LOW / white of the paper. Where that is at most CRUSH_FLOOR (a white of 100 or
# more), it moves the sample's chroma by at most 0.025 of the paper: under a twentieth of a
# coloured ink's chroma length (0.57-0.73), where CHROMA_TURN lets a sample turn 0.3 of it
CRUSH_FLOOR = 0.03


def chroma_strength(x: np.ndarray, model: ColourModel) -> tuple[np.ndarray, np.ndarray]:
    """Per sample (… x 3 paper-relative RGB) and coloured ink (… x inks, in `model.letters`
    order; 0 for a grey ink): its chroma's length along the ink's, in units of the ink's
    (`model.chroma_units`), and how far it lies off that direction in the same units."""
    along, off, _ = _strength(x, model)
    grey = model.neutral
    return np.where(grey, 0.0, along), np.where(grey, np.inf, off)


@cache
def _inks(model: ColourModel) -> tuple[np.ndarray, float]:
    """The inks' chroma lengths squared (letters) and the least coloured ink's chroma length
    squared times CHROMA_SOME² (a chroma no less than this is some ink's or unexplained)."""
    chroma = model.inks - model.inks.mean(-1, keepdims=True)
    sq = (chroma * chroma).sum(-1)
    coloured = ~model.neutral
    weakest = float(sq[coloured].min()) if coloured.any() else 1.0
    return sq, CHROMA_SOME * CHROMA_SOME * weakest


def _strength(x: np.ndarray, model: ColourModel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`chroma_strength` for every ink, grey ones too, and each sample's chroma length
    squared (…)."""
    c = x - x.mean(-1, keepdims=True)
    along = c @ model.chroma_units.T                                 # … x letters
    sq = _inks(model)[0]
    cc = (c * c).sum(-1)
    # (the distance from the ink's direction: |c|² less its part along it, by Pythagoras)
    off2 = cc[..., None] - along * along * sq
    return along, np.sqrt(np.maximum(off2, 0.0) / np.maximum(sq, 1e-12)), cc


def wanted_samples(raw: np.ndarray, white: np.ndarray, want: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(flat index into cards x 6, samples k x 19 x 3 BGR, its card's white k x 3 BGR) of each
    symbol `want` marks, from the samples as sampled (`raw`: cards x 6 x 19 x 3 BGR) and each
    card's white (`white`: cards x 3 BGR), as float32."""
    at = np.flatnonzero(want.ravel())
    seen = np.asarray(raw, np.float32)[want]
    return at, seen, np.asarray(white, np.float32)[at // want.shape[1]]


def chroma_read(raw: np.ndarray, white: np.ndarray, want: np.ndarray, model: ColourModel
                ) -> tuple[np.ndarray, np.ndarray]:
    """(letter index, read) per symbol (cards x 6) for the symbols `want` marks, from their
    samples as sampled (`raw`: cards x 6 x 19 x 3 BGR) and each card's white (`white`: cards x
    3 BGR). A sample clipped at white in every channel is bright paper or ink washed out of
    sight: it shows no chroma and counts for no ink. A sample clipped in some channels but not
    all is judged at every value its clipped channels may hold (see the module docstring). A
    symbol with a sample crushed to black in a channel under a dim white is not read.
    Where the white clipped in a channel, the paper there lies brighter than seen by a factor
    up to OVEREXPOSED_MAX: the symbol is read only when it reads as one ink at every corner of
    those factors (the chroma is linear in them and each test convex or counted per sample:
    the corners stand for the whole range)."""
    best = np.zeros(want.shape, np.int64)
    read = np.zeros(want.shape, bool)
    if not want.any():
        return best, read
    at, seen, w = wanted_samples(raw, white, want)
    high = seen >= CLIP_NEAR
    # a channel crushed to black lies below CLIP_LOW: known to within that of its white
    low = (seen <= CLIP_LOW) & (CLIP_LOW / np.maximum(w, 1.0) > CRUSH_FLOOR)[:, None, :]
    blank = high.all(-1)
    # (a symbol with a sample crushed in a channel under a dim white is never read: left out
    # at once; a sample clipped at white in some channels but not all is judged at every
    # corner of what its clipped channels may truly hold, `_judge`)
    kept = ~(low.any(-1) & ~blank).any(-1)  # k
    at = at[kept]
    if not at.size:
        return best, read
    seen, blank, high = seen[kept], blank[kept], high[kept] & ~blank[kept][..., None]
    w = np.maximum(w[kept], 8.0)
    over = w >= CLIP_NEAR
    free = [c for c in range(3) if over[:, c].any()]
    k0 = None
    for corner in itertools.product((1.0, OVEREXPOSED_MAX), repeat=len(free)):
        f = np.ones_like(w)
        for c, v in zip(free, corner, strict=True):
            f[:, c] = np.where(over[:, c], v, 1.0)
        x = (seen / (w * f)[:, None, :])[..., ::-1]                  # RGB, paper-relative
        x = np.where(blank[..., None], x.mean(-1, keepdims=True), x)
        k, good = _judge(x, model, high[..., ::-1])
        # (a symbol must read as one ink at every corner: the others are judged no further)
        good &= k == (k if k0 is None else k0)
        k0 = k[good] if k0 is None else k0[good]
        at, seen, blank, w, over, high = (at[good], seen[good], blank[good], w[good],
                                          over[good], high[good])
        if not at.size:
            return best, read
    assert k0 is not None
    best.ravel()[at] = k0
    read.ravel()[at] = True
    return best, read


def clip_reach(x: np.ndarray, high: np.ndarray) -> np.ndarray:
    """How many times brighter than seen each channel of samples `x` (… x 3, paper-relative)
    may truly be where it clipped (`high`, … x 3, not all three; 1 elsewhere): OVEREXPOSED_MAX,
    or more where the sheen its other channels show allows more. A sheen adds white light, the
    same share w of the paper to every channel, over ink that takes light away (each channel at
    most the paper's, 1): each channel lies between w and 1 + w, so a clipped one at most 1
    plus the least the sample's unclipped channels show, however far past the clip. (Under a
    strongly tinted lamp, a yellow washed far past the clip in green keeps red and blue below
    it; its green, truly twice as bright as seen, judged at no more than OVEREXPOSED_MAX,
    turned it red.)"""
    seen = np.where(high, np.inf, x).min(-1, keepdims=True)
    return np.where(high, np.maximum(OVEREXPOSED_MAX, (1.0 + seen) / np.maximum(x, 1e-6)),
                    1.0)


def _judge(x: np.ndarray, model: ColourModel, high: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """(letter index, read) per symbol of samples `x` (k x 19 x 3, paper-relative RGB): the
    coloured ink whose chroma its samples show (see the module docstring). A sample's
    channels clipped at white (`high`, k x 19 x 3 RGB, not all three) lie brighter than
    seen, each by its own factor up to `clip_reach`: the sample is judged at every corner of
    those factors, and counts for an ink by the least it shows of it at any, and as
    unexplained where it is at any (its chroma is linear in the factors and an ink's cone of
    directions convex: the corners bound the range)."""
    ends: list[tuple[bool, ...] | None] = [None]
    reach = np.ones_like(x)
    if high is not None and high.any():
        # (per RGB channel that clipped in some sample, at its reach or as seen; a channel
        # that clipped nowhere is as seen at every corner and adds none)
        clipped = np.flatnonzero(high.reshape(-1, 3).any(0))
        ends += [tuple(np.isin(np.arange(3), clipped[list(on)]))
                 for on in itertools.product((False, True), repeat=len(clipped)) if any(on)]
        reach = clip_reach(x, high)
    coloured = ~model.neutral
    strength = unexplained = inks = None
    for corner in ends:
        xc = x if corner is None else np.where(high & np.asarray(corner), x * reach, x)
        along, off, cc = _strength(xc, model)                        # k x 19 x letters
        is_ink = (along >= CHROMA_FAINT) & (off <= CHROMA_TURN * along) & coloured
        s = np.where(is_ink, np.minimum(along, 1.2), 0.0)
        u = (cc >= _inks(model)[1]) & ~is_ink.any(-1)
        strength = s if strength is None else np.minimum(strength, s)
        unexplained = u if unexplained is None else unexplained | u
        inks = is_ink if inks is None else inks | is_ink
    assert strength is not None and unexplained is not None and inks is not None
    # (a sample one ink's at one corner and another's at another is no ink's: unexplained)
    unexplained |= np.count_nonzero(inks, -1) > 1
    vote = strength.sum(-2)                                          # k x letters
    srt = np.sort(vote, -1)
    top, second = srt[:, -1], srt[:, -2]
    k = vote.argmax(-1)
    own = np.take_along_axis(strength, k[:, None, None], -1)[..., 0]  # k x 19
    # a sample with chroma that is no ink's is unexplained (as `decide` counts them)
    other = np.count_nonzero(unexplained, -1)
    margin = top - 4.0 * second - 0.5 * other
    ok = ((top >= CHROMA_VOTE) & (second <= 0.12 * top + 0.3) & (other <= CHROMA_OTHER)
          & (margin > 0.0) & (own.max(-1) >= CHROMA_PEAK)
          & (fast_mean(own[:, :N_CORE]) >= CHROMA_CORE) & coloured[k])
    return k, ok


__all__ = ["chroma_read", "chroma_strength", "wanted_samples"]
