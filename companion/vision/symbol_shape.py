"""A web card's coloured symbol judged by its shape as well as its colour. The web edition prints
R a disc, B a diamond (square on its corner, long axis along the edge normal) and Y a triangle
(apex out through the edge): a disc has ink at the four diagonals of the symbol's bounding circle
where the diamond has paper, and at the triangle's front diagonals and behind its base, where
the triangle has paper. A coin of a symbol's size lying on a symbol is a disc of its own colour:
read by colour alone, a navy one reads as the blue diamond and a yellow one as the triangle.
Every symbol is sampled at those places (`SHAPE_PTS`, at the card's pose); how far each sample
lies from the paper round the symbol (its paper halo samples) towards the symbol's own core is
its ink fraction, counted only where the sample lies on the line between the two (a blend of
that ink with paper, not some third colour). A symbol whose four diagonals all show as much
ink as a disc's blurred edge does is no diamond, one whose front diagonals and back all do no
triangle (`ruled_out`). The read keeps the letter its colour gave, flagged
(`CardRead.not_shape`, kept through every re-read of the card: turned, shaded, by the lamp),
so that the table-wide ink doubt still sees it, and the reader's report leaves a symbol read as
a letter its shape rules out '?' (`symbols.undimmed`): the card unread rather than
misread. The shape has a say only
where it can show: symbols at least MIN_SHAPE_RADIUS px in bounding radius (MIN_TRIANGLE_RADIUS
for the triangle, whose yellow JPEG's coarse chroma spreads furthest), clear contrast between
core and paper, and a card whose printed border band, as thin as the paper a diamond leaves at
its diagonals, is not blurred pale (SHARP_BAND): blur that fills in the one fills in the other.
Holodex R and B are both discs: they cannot be told apart by shape, and are not judged so; nor
can a red coin on a web card, a disc over a disc-sized symbol, be told from the red disc.
But the holodex grey ring V has a hole, paper inside a stroke 0.42 of its radius wide, where
the symbol's core samples lie (0.35 radii out, the hole reaching 0.58): a symbol read as the
ring whose stroke shows plainly dark (RING_STROKE of the paper round it) and whose core shows
nearly as much ink (RING_FILLED of the stroke's), on a card whose border band is sharp
(RING_BAND), is a solid disc, no ring (`filled_rings`). An office print's blue photographed in
a dim room loses its colour to the phone's denoise, and its discs read as the ring on every
card (held-out `office-lowlight` 72: 17 cards read wrong, all on a table the referee would
judge; their cores show 0.89-1.05 of the stroke's ink, the stroke at 0.62-0.75 of the paper,
the band at 0.13-0.17). On hard tables 0-699, of 7800 symbols read as the ring with a stroke
at 0.5 of the paper or darker, the fullest core shows 0.50 of the stroke's ink (0.40 at
0.55). But blur fills a ring's hole while its stroke, printed as dark as the band, still shows
dark: drawn rings on 40-80 px cards reach the stroke and core shares above under a blur that
leaves their band at 0.41-0.48, and at a band of 0.3 or sharper their cores show at most 0.65
of the stroke's ink.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView
from .fast_reduce import median_rows
from .symbol_samples import CardRead, Pose, pose_points, sample

# Polar places (angle from the edge normal in degrees, radius in symbol radii) of the shape
# samples round each symbol's centre: the front diagonals, the back diagonals, straight back.
# At 0.85 radii a disc's edge lies 0.15 radii further out, the diamond's (half axes 1.08 and
# 0.78 radii, as printed) ~0.21 radii further in, the triangle's (circumradius 1.12) ~0.29 in
# at the front diagonals and behind its base (0.56 radii behind the centre).
_PLACES = ((55.0, 0.85), (-55.0, 0.85), (125.0, 0.85), (-125.0, 0.85), (180.0, 0.85))
FRONT, BACK_DIAG, BACK = [0, 1], [2, 3], [4]
# ink fraction (0 paper, 1 the symbol's core) at or above which a place shows ink: a disc's edge
# 0.15 radii beyond it, blurred, shows more; the diamond's or triangle's, 0.2 radii short, less
SHAPE_INK = 0.5
MIN_SHAPE_RADIUS = 3.4     # image px: a symbol's bounding radius, for its shape to have a say
MIN_TRIANGLE_RADIUS = 4.0  # and for the triangle's
MIN_CONTRAST = 30.0        # BGR distance between a symbol's core and the paper round it
CORE = 7                   # a symbol's first samples (its centre and inner ring) are its core
MIN_HALO_PAPER = 4         # of its 8 halo samples, paper, to stand for the paper round it
OFF_LINE = 0.35            # a blend lies this close (x contrast) to the paper-core line
BLEND_RANGE = (-0.3, 1.3)  # and this far along it (noise, and a darker rim, either side)
SHARP_BAND = 0.42          # the band no paler than this (`band_grey`), for the shape to show
RING_STROKE = 0.55         # a ring's stroke this much darker than its paper (luminance share)
RING_FILLED = 0.75         # and its core showing this share of the stroke's ink: a disc
RING_BAND = 0.3            # on a card whose band is this sharp (`band_grey`): blur fills holes


def _shape_pattern() -> np.ndarray:
    """Card-frame points (6 symbols x places x 2) of the shape samples."""
    f = HEXEL_FACE
    pts = []
    for d in range(6):
        a = math.radians(-60.0 * d)
        n, t = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        c = f.symbol_centre_frac * n
        pts.append([c + rho * f.symbol_radius_frac * (math.cos(math.radians(th)) * n
                                                      + math.sin(math.radians(th)) * t)
                    for th, rho in _PLACES])
    return np.array(pts)


SHAPE_PTS = _shape_pattern()
_CENTRES = np.array([HEXEL_FACE.symbol_centre_frac * np.array(
    [math.cos(math.radians(-60.0 * d)), math.sin(math.radians(-60.0 * d))]) for d in range(6)])
_LOCAL = np.concatenate([SHAPE_PTS.reshape(-1, 2), _CENTRES])


def ink_fractions(bgr: np.ndarray, poses: list[Pose], view: TableView, sym_vals: np.ndarray,
                  halo_vals: np.ndarray, halo_paper: np.ndarray, band: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cards x 6 x places ink fractions, NaN where a sample is no blend of the symbol's ink
    and paper; cards x 6 whether the shape has a say; cards x 6 bounding radius in image px)
    of every card's symbols: `sym_vals` (cards x 6 x N_SYMBOL x 3) their samples, `halo_vals`
    (cards x 6 x N_HALO x 3) their halo's, `halo_paper` (cards x 6 x N_HALO) which of those
    are paper, `band` (cards x depths x places x 3) the border samples against the card's
    white."""
    n = len(poses)
    img = view.to_image(pose_points(poses, _LOCAL).reshape(-1, 2)).reshape(n, -1, 2)
    k = len(_PLACES)
    at = img[:, :6 * k].reshape(n, 6, k, 2)
    vals, inside = sample(bgr, at)
    radius = (np.linalg.norm(at - img[:, 6 * k:, None, :], axis=-1).mean(-1)
              / _PLACES[0][1])
    core = sym_vals[:, :, :CORE].mean(2)
    n_paper = halo_paper.sum(-1)
    paper = (halo_vals * halo_paper[..., None]).sum(2) / np.maximum(n_paper, 1)[..., None]
    span = core - paper
    contrast = np.linalg.norm(span, axis=-1)
    rel = vals - paper[:, :, None]
    frac = (rel * span[:, :, None]).sum(-1) / np.maximum(contrast ** 2, 1e-6)[..., None]
    # (a sample off the line from the paper to the core is some third colour, an object or the
    # table, not a blend of this symbol's ink with its paper: no evidence of its shape)
    off = np.linalg.norm(rel - frac[..., None] * span[:, :, None], axis=-1)
    clear = ((off <= OFF_LINE * contrast[..., None]) & (frac >= BLEND_RANGE[0])
             & (frac <= BLEND_RANGE[1]))
    frac = np.where(clear, frac, np.nan)
    say = ((radius >= MIN_SHAPE_RADIUS) & (band_grey(band) <= SHARP_BAND)[:, None]
           & (contrast >= MIN_CONTRAST) & (n_paper >= MIN_HALO_PAPER) & inside.all(-1))
    return frac, say, radius


def band_grey(band: np.ndarray) -> np.ndarray:
    """(cards) how pale each card's printed border band shows at its darkest across the band
    (paper-relative luminance; the median round the card)."""
    return median_rows(band.mean(-1).min(1))


def ruled_out(frac: np.ndarray, say: np.ndarray, radius: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """(cards x 6 each) the symbols whose shape samples rule out the diamond (B: a disc's ink
    at all four diagonals) and the triangle (Y: at both front diagonals and the back)."""
    # (all of them: a pose shifted a little sideways brings one side of a diamond's diagonal
    # samples onto its ink, never both; NaN, no evidence, is no ink)
    with np.errstate(invalid="ignore"):
        ink = frac >= SHAPE_INK
    not_b = say & ink[..., FRONT + BACK_DIAG].all(-1)
    not_y = say & ink[..., FRONT + BACK].all(-1) & (radius >= MIN_TRIANGLE_RADIUS)
    return not_b, not_y


def filled_rings(sym_vals: np.ndarray, halo_vals: np.ndarray, halo_paper: np.ndarray,
                 band: np.ndarray) -> np.ndarray:
    """(cards x 6) the symbols that are no ring for a solid core (see the module docstring):
    `sym_vals` (cards x 6 x N_SYMBOL x 3) their samples, the core's first, `halo_vals` (cards x
    6 x N_HALO x 3) their halo's, `halo_paper` (cards x 6 x N_HALO) which of those are paper
    (MIN_HALO_PAPER of them at least, for the paper's light), `band` (cards x depths x places x
    3) the border samples against the card's white (its band as sharp as RING_BAND)."""
    lum = sym_vals.mean(-1)
    n_paper = halo_paper.sum(-1)
    paper = (halo_vals.mean(-1) * halo_paper).sum(-1) / np.maximum(n_paper, 1)
    stroke = paper - lum[..., CORE:].mean(-1)
    core = paper - lum[..., :CORE].mean(-1)
    return ((band_grey(band) <= RING_BAND)[:, None] & (n_paper >= MIN_HALO_PAPER)
            & (stroke >= RING_STROKE * paper) & (core >= RING_FILLED * stroke))


def as_letters(ruled: dict[str, np.ndarray]) -> list[tuple[str, ...]]:
    """Per card, per symbol, the letters ruled out as a string ("", "B", "Y", "BY", "V"), from
    each letter's symbols ruled out (cards x 6); () for a card where none is
    (`CardRead.not_shape`)."""
    some = np.zeros(next(iter(ruled.values())).shape, bool)
    for where in ruled.values():
        some |= where
    out: list[tuple[str, ...]] = [()] * len(some)
    for i in np.flatnonzero(some.any(1)):
        out[i] = tuple("".join(n for n, where in ruled.items() if where[i, d])
                       for d in range(some.shape[1]))
    return out


def either_ruled_out(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """The letters ruled out per symbol by either of two `CardRead.not_shape` (() for none)."""
    if not b:
        return a
    if not a:
        return b
    return tuple("".join(sorted(set(x) | set(y))) for x, y in zip(a, b, strict=True))


def kept_ruled_out(read: CardRead, was: CardRead) -> CardRead:
    """`read`, a card's read at another pose replacing (or kept over) `was`, with the letters
    `was`'s shape rules out (`CardRead.by_shape`, index for index: both at poses of the card
    facing alike) ruled out too. The shape's evidence at one pose stands at every other: a
    triangle never shows ink at both front diagonals and behind its base, nor a diamond at all
    four diagonals, however its pose is taken, while a glossy sleeve's sheen over part of a red
    disc hides the disc's ink at one pose's places and not at another's (held-out
    `phone-photo` 14073: a red disc washed orange, ruled out as the triangle at its band's
    pose, read as the triangle at a searched pose whose front diagonal fell on the sheen). A
    letter ruled out as a washed darker ink (`symbol_sheen`) is judged at each pose alone: a
    pose whose samples miss the sheen reads the symbol's own ink (kept too, held-out
    `sleeves` 81 and 14007, 14047, 14071 lost a yellow triangle each)."""
    if not was.by_shape or was.by_shape == read.by_shape:
        return read
    return replace(read, not_shape=either_ruled_out(read.not_shape, was.by_shape),
                   by_shape=either_ruled_out(read.by_shape, was.by_shape))
