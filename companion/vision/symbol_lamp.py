"""The lamp's colour and the paper it makes, for cards whose paper clipped the sensor. The lamp's
colour is read from the cards whose paper did not clip (`lamp_of_reads`), or from the printed
border bands of cards whose band is nearly all there (`lamp_of_bands`, `dark_band_lamp`). A
clipped card's white is raised in its clipped channels to the least paper of that colour at
least as bright as seen (`lamp_white`); where no card escaped the clip, each card's own band
tells how far its paper lies past it (`band_white`). `dark_band` judges a border band grey
under such a lamp, and `rival_explains` asks whether another ink explains a pale symbol once
the clipped channels are scaled back. The symbol reader (`symbols`) re-reads with these.
"""

from __future__ import annotations

import math

import numpy as np

from ..faces import BORDER_RGB, PAPER_RGB
from .calibration import TableView
from .colour import (
    CLIP_HIGH,
    OVEREXPOSED_MAX,
    ColourModel,
)
from .fast_reduce import (
    max3,
    min3,
)
from .symbol_samples import (
    BORDER_DEPTHS,
    CLIP_NEAR,
    MIN_TURN_LETTERS,
    N_BORDER,
    N_PAPER,
    N_SYMBOL,
    NEUTRAL_SPREAD,
    CardRead,
    Pose,
    sample_cards,
)

# The lamp's colour, from the cards of a read whose paper did not clip (see `_lamp_read`): a
# card counts when it reads as a card (MIN_TURN_LETTERS letters, its paper and border band
# nearly all there) and every channel of its white is below CLIP_NEAR and above
# LAMP_MIN_WHITE (a dark card's ratios are noise); at least LAMP_CARDS of them, agreeing within
# LAMP_SPREAD (the median absolute deviation of each channel's log ratio: one lamp, not a
# window and a lamp); and a clipped card's own unclipped channels must fit that colour within
# LAMP_FIT (log ratio).
LAMP_MIN_WHITE = 60.0
LAMP_CARDS = 2
LAMP_SPREAD = 0.04
LAMP_FIT = 0.08
LAMP_WHOLE = 0.8   # paper and border band shares of a card the lamp is read from

# A card whose white paper lies at the sensor's clip (CLIP_NEAR) in exactly two of its three
# channels has lost the light's colour with its paper: the one channel left cannot tell a warm
# lamp's tint from the paper's, and every pale blend on the card (a ring's grey, a smeared
# disc's fringe) is seen too bright in the clipped two. Where every channel clipped, the
# card's printed band still tells the light (`band_white`, `dark_band_lamp`). On hard tables
# 0-699, the 65 tables where OVER_EXPOSED_SHARE of the whole cards or more clipped so missed 25
# of their 911 cards in full view (2.74 %), the other 635 tables 31 of 8782 (0.35 %; those
# whose cards clipped in all three channels about 0.5 %): the reader says so (`over_exposed`,
# `observation.over_exposed_cards_note`), for the camera's exposure to be lowered, as the Hexapod
# reader does for its boards (`hexapod.OVER_EXPOSED_CHANNELS`).
OVER_EXPOSED_CHANNELS = 2
OVER_EXPOSED_SHARE = 0.5


def over_exposed(whites: np.ndarray) -> int:
    """How many of the cards whose white references are `whites` (cards x 3 BGR) clip in
    exactly OVER_EXPOSED_CHANNELS channels, where they are OVER_EXPOSED_SHARE of the cards or
    more; else 0 (a glare spot over one card is no over-exposed camera)."""
    w = np.asarray(whites, np.float64).reshape(-1, 3)
    if not len(w):
        return 0
    n = int(np.count_nonzero((w >= CLIP_NEAR).sum(1) == OVER_EXPOSED_CHANNELS))
    return n if n >= OVER_EXPOSED_SHARE * len(w) else 0


def lamp_whites(bgr: np.ndarray, poses: list[Pose], view: TableView, reads: list[CardRead],
                 todo: list[int], lamp: np.ndarray | None,
                 samples: tuple[np.ndarray, np.ndarray] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the white references of cards `todo`, the paper the lamp makes of them: by the `lamp`
    measured on the cards whose paper did not clip, else by each card's own border band, and
    the indices into `todo` of the cards where that differs), for `_lamp_plan` and
    `_lamp_read` (`samples`: every card's `sample_cards`, where the caller has them)."""
    white = np.array([reads[i].white_bgr for i in todo], np.float32)
    if lamp is not None:
        ink_white = lamp_white(white, lamp)
    else:
        ink_white = band_white(bgr, [poses[i] for i in todo], view, white,
                                None if samples is None else
                                (samples[0][todo], samples[1][todo]))
    return white, ink_white, np.flatnonzero((ink_white != white).any(1))


# Where no card's paper escaped the clip (`lamp_of_reads` finds none to read the lamp from), each
# card's own border band tells it. The band is printed a dark grey of known colour against the paper
# (the card design's BORDER_RGB over PAPER_RGB, `_BAND_SHARE`, per channel), and blur mixes it
# with the paper beside it: a band sample holding a share f of band ink reads, normalised by the
# paper, 1 - f + f·share in every channel in which the paper did not clip, which tells f, and as
# much times the paper's excess past the clip in every channel in which it did, which then tells
# that excess. Only samples well inside the band (BAND_LAMP_DEPTHS of BORDER_DEPTHS) mostly of
# band ink (f at least BAND_LAMP_INK) and not clipped themselves count, BAND_LAMP_MIN of them at
# least; the table beyond the band may tint some, so a low quantile of their excesses
# (BAND_LAMP_Q) is taken: a lower bound on the paper, never past OVEREXPOSED_MAX, as
# `lamp_white`'s is.
_BAND_SHARE = (np.array(BORDER_RGB[::-1], np.float32) / np.array(PAPER_RGB[::-1], np.float32))
BAND_LAMP_DEPTHS = (1, 2)
BAND_LAMP_INK = 0.5
BAND_LAMP_MIN = 12
BAND_LAMP_Q = 25.0
BAND_LAMP_GAIN = 1.03     # an excess below this is no excess
BAND_LAMP_REF = 235.0     # a white channel below this did not clip


def band_white(bgr: np.ndarray, poses: list[Pose], view: TableView, white: np.ndarray,
                samples: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Per card (`white`: cards x 3 BGR, the white references of the cards at `poses`), its
    white with the channels in which its paper clipped raised by the excess its own border band
    shows there (see `_BAND_SHARE`); a card whose paper clipped in every channel, or whose band
    does not tell, keeps its white. (`samples`: the cards' `sample_cards`, where the caller
    has them: each point is sampled on its own, whatever cards it is sampled with.)"""
    vals, inside = sample_cards(bgr, poses, view) if samples is None else samples
    ns = 6 * N_SYMBOL
    k = N_BORDER // len(BORDER_DEPTHS)
    band = vals[:, ns + N_PAPER:ns + N_PAPER + N_BORDER].reshape(len(poses), -1, k, 3)
    ok = inside[:, ns + N_PAPER:ns + N_PAPER + N_BORDER].reshape(len(poses), -1, k)
    band = band[:, list(BAND_LAMP_DEPTHS)].reshape(len(poses), -1, 3)
    ok = ok[:, list(BAND_LAMP_DEPTHS)].reshape(len(poses), -1)
    out = white.copy()
    for c in range(len(poses)):
        # (a channel JPEG pulled a little below CLIP_NEAR may have clipped too: only those well
        # below it tell the band's ink; the rest are measured, and stay where the band says so)
        hot = white[c] >= BAND_LAMP_REF
        if not (white[c] >= CLIP_NEAR).any() or hot.all():
            continue
        norm = band[c] / np.maximum(white[c], 1.0)                   # samples x 3 BGR
        ink = ((1.0 - norm[:, ~hot]) / (1.0 - _BAND_SHARE[~hot])).mean(1)
        use = ok[c] & (ink >= BAND_LAMP_INK) & (band[c][:, hot].max(1) < CLIP_NEAR)
        if np.count_nonzero(use) < BAND_LAMP_MIN:
            continue
        f = np.minimum(ink[use], 1.0)[:, None]
        excess = norm[use][:, hot] / (1.0 - f + f * _BAND_SHARE[hot])
        ratio = np.percentile(excess, BAND_LAMP_Q, axis=0)
        gain = np.where(ratio >= BAND_LAMP_GAIN, np.minimum(ratio, OVEREXPOSED_MAX), 1.0)
        out[c, hot] = white[c, hot] * gain
    return out.astype(np.float32)


def lamp_of_reads(reads: list[CardRead]) -> np.ndarray | None:
    """The lamp's colour (3 log channel ratios, BGR, summing to 0) from the cards of `reads`
    whose paper did not clip (see LAMP_CARDS), or None where too few such cards agree."""
    return _lamp_of(np.array([r.white_bgr for r in reads
                              if r.letters >= MIN_TURN_LETTERS
                              and r.paper_ok >= LAMP_WHOLE and r.border_ok >= LAMP_WHOLE
                              and max(r.white_bgr) < CLIP_NEAR
                              and min(r.white_bgr) >= LAMP_MIN_WHITE],
                             np.float64).reshape(-1, 3))


def _lamp_of(white: np.ndarray) -> np.ndarray | None:
    """The lamp's colour (as `lamp_of_reads`) from the white references (cards x 3 BGR) of cards
    whose paper did not clip, or None where there are fewer than LAMP_CARDS or they disagree."""
    if len(white) < LAMP_CARDS:
        return None
    logs = np.log(white.astype(np.float64))
    logs -= logs.mean(1, keepdims=True)
    lamp = np.median(logs, 0)
    if (np.median(np.abs(logs - lamp), 0) > LAMP_SPREAD).any():
        return None
    return lamp


def lamp_white(white: np.ndarray, lamp: np.ndarray) -> np.ndarray:
    """Per card (cards x 3 BGR), its white reference with the channels in which its paper
    clipped (CLIP_NEAR) raised to the least paper of the lamp's colour (`lamp_of_reads`) that is at
    least as bright as seen in every channel, and never past OVEREXPOSED_MAX of the seen
    value: a lower bound on the true paper, so a blend judged against it is still seen no
    darker than it is, and every judgement made for clipped paper stands. A card whose
    unclipped channels do not fit the lamp's colour (LAMP_FIT: another light on it) keeps
    its white."""
    hot = white >= CLIP_NEAR
    rel = np.log(np.maximum(white, 1.0)) - lamp                  # cards x 3
    scale = rel.max(1, keepdims=True)
    est = np.exp(lamp + scale)
    # the unclipped channels lie on the scaled lamp: none darker than it by more than LAMP_FIT
    off = np.where(hot, 0.0, scale - rel).max(1)
    fits = hot.any(1) & (off <= LAMP_FIT)
    out = np.where(hot & fits[:, None], np.clip(est, white, OVEREXPOSED_MAX * white), white)
    return out.astype(np.float32)


# How bright, relative to the paper seen, a channel in which the paper clipped may truly be
# (see `rival_explains`): from as seen to OVEREXPOSED_MAX, in these steps.
_CLIP_STEPS = (1.0, 1.0 / math.sqrt(OVEREXPOSED_MAX), 1.0 / OVEREXPOSED_MAX)
# every scaling of the three channels by those steps (the first: none), each row RGB
_CLIP_SCALES = np.array(np.meshgrid(_CLIP_STEPS, _CLIP_STEPS, _CLIP_STEPS, indexing="ij"),
                        np.float32).reshape(3, -1).T
# Where the paper clipped in every channel (`lamp_grey`), of those scalings only the ones a
# lamp can call for: a black-body lamp through a camera white-balanced near daylight leaves the
# channels in the order red, green, blue (warm) or the reverse (cool), so the band reads too
# bright most in red or in blue, least in the other, green between; and only its tint, not its
# level: the channel the lamp lights least is taken as just at the clip, where the white
# reference puts it (one channel unscaled; 11 of the 27, the first none).
LAMP_SCALES = _CLIP_SCALES[((np.diff(_CLIP_SCALES, axis=1) >= 0).all(1)
                             | (np.diff(_CLIP_SCALES, axis=1) <= 0).all(1))
                            & (_CLIP_SCALES.max(1) == 1.0)]
# Under such a lamp a grey band is seen with green between red and blue, to within this much
# (paper-relative: blur and JPEG's coarse colour mix the band with the table beside it): a
# green or a magenta is no grey under any lamp.
LAMP_GREEN = 0.1


def rival_explains(means: np.ndarray, white: np.ndarray, cast: np.ndarray, where: np.ndarray,
                 best: np.ndarray, model: ColourModel) -> np.ndarray:
    """Per symbol (cards x 6; True only where `where`), whether an ink other than `best`
    explains its mean colour (`means`: cards x 6 x 3, paper-normalised RGB) as seen or once the
    channels in which its card's paper (`white`, cards x 3 BGR) clipped are scaled down, each
    on its own, by up to OVEREXPOSED_MAX. Where the paper clipped, the white reference is
    darker than the paper in those channels, so a blend of paper and ink is seen too bright in
    them, by an unknown factor, and its hue pulled towards them: a grey ring's blends fit red
    under a warm lamp, a red disc's yellow where red and green clipped. A reading that no other ink
    explains anywhere in that range does not owe its hue to the clip (under a warm lamp that
    clipped red alone, no red, blue or grey blend gains yellow's green over its blue).
    `cast`: the cards' `colour.chroma_cast`, as the mean fit used it."""
    ci, si = np.nonzero(where)
    hot = white[ci, ::-1] >= CLIP_NEAR                            # k x 3 (RGB)
    scale = np.where(hot[:, None, :], _CLIP_SCALES[None], np.float32(1.0))   # k x 27 x 3
    seen = means[ci, si][:, None, :] * scale
    kind, _, _ = model.explain(seen, None, np.broadcast_to(cast[ci][:, None, :], seen.shape))
    rival = ((kind >= 0) & (kind != best[ci, si][:, None])).any(1)
    out = np.zeros(where.shape, bool)
    out[ci, si] = rival
    return out


def dark_band(band: np.ndarray, white: np.ndarray, whole: np.ndarray | None = None
               ) -> np.ndarray:
    """Per border sample (band: cards x depths x k x 3, RGB normalised by `white`, the cards'
    BGR paper): dark (mean < 0.7) and neutral (channels within 0.25). Where the paper clipped
    in a channel the light is brighter there than its white reference says, so a grey band
    normalised by it reads too bright and tinted towards that channel (a warm lamp turns a
    grey border orange): its darkness and hue are then judged by the channels that did not
    clip. A clipped channel may read brighter than those, but by no more than the paper can
    be past clipping (OVEREXPOSED_MAX), and never darker; under a strong cast too (the paper's
    dimmest channel far below the clip, down to LAMP_MIN_WHITE, where it still carries a
    reference), as the band is lit as the paper is in every channel. Where all three clipped,
    the white reference says nothing of the lamp's colour: the band is grey if one scaling of
    the channels that a lamp can call for makes it so (`lamp_grey`), once the white has reached
    the clip (CLIP_HIGH in some channel: paper at CLIP_NEAR in every channel may be merely well
    exposed); the lamp's colour is then the one the white of the cards of the read whose paper
    did not clip shows (`whole`: those that read as cards; their band nearly all there), where
    they agree (`_lamp_of`). What the strict test takes for the band it still takes."""
    return dark_band_lamp(band, white, whole)[0]


def dark_band_lamp(band: np.ndarray, white: np.ndarray, whole: np.ndarray | None = None,
                    lamp: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """(`dark_band`, the lamp's scaling (RGB) its cards whose paper clipped in every channel
    were judged by: `lamp` where given, else the one `_lamp_scale` chose, None where no card
    called for one)."""
    b0, b1, b2 = band[..., 0], band[..., 1], band[..., 2]
    # mean, max and min over the 3 channels, unrolled (NumPy sums them in this order)
    low = np.minimum(np.minimum(b0, b1), b2)
    dark = (b0 + b1 + b2) / 3.0 < 0.7
    strict = dark & (np.maximum(np.maximum(b0, b1), b2) - low < NEUTRAL_SPREAD)
    clipped = white[:, ::-1] >= CLIP_NEAR          # RGB, like the band
    every = clipped.all(1)
    lit = every & (white.max(1) >= CLIP_HIGH)
    if lit.any():
        # (the band of those cards, and which of its samples are dark and ordered, once)
        seen = band[lit]
        ordered = _lamp_ordered(seen, dark[lit])
        if lamp is None:
            lamp = _lamp_scale(seen, ordered, lamp_of_bands(white, strict, whole))
        strict = strict | lamp_grey(seen, lit, ordered, lamp)
    clipped &= ~every[:, None]
    # ... under any lamp, warm or cool, near white or left far from it by the camera's white
    # balance, where the paper's dimmest channel is at least LAMP_MIN_WHITE (a card whose
    # white is darker than that in some channel says nothing of its band's hue)
    clipped &= (white.min(1) >= LAMP_MIN_WHITE)[:, None]
    if not clipped.any():
        return strict, lamp
    use = ~clipped[:, None, None, :]
    high = max3(np.where(use, band, -np.inf))
    mean = np.where(use, band, 0.0).sum(-1) / use.sum(-1)
    over = max3(np.where(use, -np.inf, band))    # the brightest clipped channel
    return strict | ((mean < 0.7) & (high - low < NEUTRAL_SPREAD)
                     & (over < OVEREXPOSED_MAX * high + 0.05)), lamp


def lamp_of_bands(white: np.ndarray, dark: np.ndarray, whole: np.ndarray | None
               ) -> np.ndarray | None:
    """The lamp's colour (`_lamp_of`) from the cards `whole` marks whose paper did not clip
    (every channel of their white below CLIP_NEAR, above LAMP_MIN_WHITE) and whose band, as
    the strict test sees it (`dark`), is nearly all there (LAMP_WHOLE), or None."""
    if whole is None:
        return None
    share = np.count_nonzero(dark.any(1), 1) / dark.shape[2]
    use = (whole & (share >= LAMP_WHOLE) & (white.max(1) < CLIP_NEAR)
           & (white.min(1) >= LAMP_MIN_WHITE))
    return _lamp_of(white[use])


def _lamp_ordered(seen: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """Per border sample (`seen`: m cards x depths x k x 3, RGB normalised by their white):
    dark as seen (`dark`, m x depths x k) and its green between its red and blue
    (LAMP_GREEN), as a grey band under a lamp is."""
    r, g, b = seen[..., 0], seen[..., 1], seen[..., 2]
    return (dark & (g <= np.maximum(r, b) + LAMP_GREEN)
            & (g >= np.minimum(r, b) - LAMP_GREEN))


def _lamp_scale(seen: np.ndarray, ordered: np.ndarray, lamp: np.ndarray | None = None
                ) -> np.ndarray | None:
    """The scaling (RGB) that undoes the lamp's excess in each channel of the band `seen` (m
    x depths x k x 3) of the cards whose paper clipped in every channel, its samples dark and
    ordered as `_lamp_ordered` gives them (`ordered`; see `lamp_grey`). With `lamp`
    (its colour, from cards whose paper did not clip: `lamp_of_bands`) that excess is known;
    without, one of `LAMP_SCALES` stands for it, one for every card of the read (one lamp
    lights the table): the one that leaves their band greyest (the median spread of its dark
    samples, so that a few places covered by a coloured object do not choose the lamp); None
    where no sample is dark and ordered (nothing to choose by)."""
    if lamp is not None:
        rgb = lamp[::-1]
        return np.clip(np.exp(rgb.min() - rgb), 1.0 / OVEREXPOSED_MAX, 1.0).astype(np.float32)
    if not ordered.any():
        return None
    # (only the dark, ordered samples choose: their spreads under each scaling, worked out
    # channel by channel as 11 x samples planes, the same products as samples x 11 x 3)
    samples = seen[ordered]
    r, g, b = (LAMP_SCALES[:, k, None] * samples[:, k] for k in range(3))
    spread = np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)
    return LAMP_SCALES[np.median(spread, 1).argmin()]


def lamp_grey(seen: np.ndarray, every: np.ndarray, ordered: np.ndarray,
               scale: np.ndarray | None) -> np.ndarray:
    """Per border sample (cards x depths x k), for the cards `every` marks, whose paper
    clipped in every channel (`seen`: their band, m x depths x k x 3, RGB normalised by the
    cards' white reference): dark as seen (the true paper, brighter, only deepens it), its
    green between its red and blue (LAMP_GREEN) (`ordered`, `_lamp_ordered`) and grey once the
    channels are scaled back as the lamp left them (`scale`, `_lamp_scale`; None: no sample
    is). There the white reference is the sensor's neutral limit, whatever the lamp's colour:
    each channel of the band reads too bright by the lamp's excess in it over its least-lit
    channel, up to OVEREXPOSED_MAX."""
    out = np.zeros((len(every), *seen.shape[1:-1]), bool)
    if scale is None:
        return out
    scaled = seen * scale
    out[every] = (max3(scaled) - min3(scaled) < NEUTRAL_SPREAD) & ordered
    return out
