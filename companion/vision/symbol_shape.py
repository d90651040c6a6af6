"""A web card's coloured symbol judged by its shape as well as its colour. The web edition prints
R a disc, B a diamond (square on its corner, long axis along the edge normal) and Y a triangle
(apex out through the edge): a disc has ink at the four diagonals of the symbol's bounding circle
where the diamond has paper, and a triangle has paper at its front diagonals and behind its base
where a disc has ink. A coin of a symbol's size lying on one is a disc of its own colour: read
by colour alone, a navy one reads as the blue diamond and a yellow one as the triangle. Each
read B or Y symbol is sampled at those places (`SHAPE_PTS`, at the card's pose); how far each
sample lies from the paper round the symbol (its paper halo samples) towards the symbol's own
core is its ink fraction. A diamond read whose four diagonals, or a triangle read whose front
diagonals and back, all show as much ink as a disc's blurred edge does is no such print
('?'), which leaves the card unread rather than misread; no re-read of the card (turned, shaded,
by the lamp) fills that symbol in. The check speaks only on symbols at least
MIN_SHAPE_RADIUS px across their bounding radius with clear contrast between core and paper
(a small card's symbols are too few pixels for their shape to show). Holodex R and B are both
discs: they cannot be told apart by shape, and are not judged so.
"""

from __future__ import annotations

import math

import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView
from .symbol_samples import Pose, pose_points, sample

# Polar places (angle from the edge normal in degrees, radius in symbol radii) of the shape
# samples round each symbol's centre: the front diagonals, the back diagonals, straight back.
# At 0.85 radii a disc's edge lies 0.15 radii further out, the diamond's (half axes 1.08 and
# 0.78 radii) ~0.21 radii further in, the triangle's (circumradius 1.12) ~0.29 in at the front
# diagonals and 0.29 in behind its base (its base 0.56 radii behind the centre).
_PLACES = ((55.0, 0.85), (-55.0, 0.85), (125.0, 0.85), (-125.0, 0.85), (180.0, 0.85),
           (0.0, 0.85), (90.0, 0.85), (-90.0, 0.85))
FRONT, BACK_DIAG, BACK, TIP, SIDE = [0, 1], [2, 3], [4], [5], [6, 7]
# ink fraction (0 paper, 1 the symbol's core) at or above which a place shows ink: a disc's edge
# 0.15 radii beyond it, blurred, shows more; the diamond's or triangle's, 0.2 radii short, less
SHAPE_INK = 0.5
MIN_SHAPE_RADIUS = 3.4     # image px: a symbol's bounding radius, for its shape to have a say
# the triangle's yellow is its faintest ink, and JPEG's coarse chroma spreads it furthest: its
# paper places are judged only on larger symbols and at more ink
TRIANGLE_INK = 0.5
MIN_TRIANGLE_RADIUS = 4.0
MIN_CONTRAST = 30.0        # BGR distance between a symbol's core and the paper round it
CORE = 7                   # a symbol's first samples (its centre and inner ring) are its core
OFF_LINE = 0.35            # a blend lies this close (x contrast) to the paper-core line
BLEND_RANGE = (-0.3, 1.3)  # and this far along it (noise and a darker rim either side)
SHARP_BAND = 0.42          # the band no paler than this (`band_grey`), for the shape to show
MIN_HALO_PAPER = 4         # of its 8 halo samples, paper, to stand for the paper round it


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


def ink_fractions(bgr: np.ndarray, poses: list[Pose], view: TableView, sym_vals: np.ndarray,
                  halo_vals: np.ndarray, halo_paper: np.ndarray, band: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cards x 6 x places ink fractions, cards x 6 whether the shape has a say, cards x 6
    bounding radius in image px) of every
    card's symbols: `sym_vals` (cards x 6 x N_SYMBOL x 3) their samples, `halo_vals` (cards x
    6 x N_HALO x 3) their halo's, `halo_paper` (cards x 6 x N_HALO) which of those are paper,
    `band` (cards x depths x places x 3) the border samples against the card's white."""
    n = len(poses)
    local = np.concatenate([SHAPE_PTS.reshape(-1, 2), _CENTRES])
    plane = pose_points(poses, local)
    img = view.to_image(plane.reshape(-1, 2)).reshape(n, -1, 2)
    k = len(_PLACES)
    at = img[:, :6 * k].reshape(n, 6, k, 2)
    centre = img[:, 6 * k:]
    vals, inside = sample(bgr, at)
    radius = np.linalg.norm(at - centre[:, :, None, :], axis=-1).mean(-1) / _PLACES[0][1]
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
    (paper-relative luminance; the median round the card): the band is as thin as the paper
    gap a diamond leaves at its diagonals, so blur that fills the one in fills the other."""
    return np.median(band.mean(-1).min(1), -1)


def ruled_out(frac: np.ndarray, say: np.ndarray, radius: np.ndarray) -> list[tuple[str, ...]]:
    """Per card, per symbol, the web letters its shape samples rule out: "B" where it shows a
    disc's ink where the diamond has paper, "Y" where it does where the triangle has paper."""
    # (all of them: a pose shifted a little sideways brings one side of a diamond's diagonal
    # samples onto its ink, never both)
    with np.errstate(invalid="ignore"):
        disc_b = say & (frac[..., FRONT + BACK_DIAG] >= SHAPE_INK).all(-1)
        disc_y = say & (frac[..., FRONT + BACK] >= TRIANGLE_INK).all(-1) & (
            radius >= MIN_TRIANGLE_RADIUS)
    letters = np.where(disc_b, "B", "").astype(object) + np.where(disc_y, "Y", "").astype(object)
    return [tuple(row) for row in letters.tolist()]


def off_shape(text: list[str], ruled: list[tuple[str, ...]]) -> np.ndarray:
    """(cards x 6) the symbols of `text` read as a letter their shape rules out (`ruled_out`,
    one tuple per card, or () where it has no say)."""
    return np.array([[bool(r) and c in r[d] for d, c in enumerate(t)] if r else [False] * 6
                     for t, r in zip(text, ruled, strict=True)], bool).reshape(len(text), 6)
