"""A free lattice cell seen at the pose the placed cards predict for it: the pose itself (a placed
card's size, squash and the lattice's orientation carried to the cell: `cell_pose`), the share
of its paper on the paper mask (`on_mask`), and whether the frame shows a card's contrast there
— bright even paper inside a darker border band (`card_contrast`, `paper_in_border`), which a
card keeps under shade or glare that the mask's fixed threshold does not follow. The probe
(`probe`) and the far-cell search (`far_cells`) decide where to look with these.
"""

from __future__ import annotations

import math

import numpy as np

from .calibration import TableView
from .lattice import (
    GrownLattice,
)
from .symbol_samples import (
    BORDER_DEPTHS,
    BORDER_PTS,
    HALO_PTS,
    N_PAPER,
    PAPER_PTS,
    SYMBOL_PTS,
    Pose,
    sample,
)


def card_apothems(lat: GrownLattice) -> list[float]:
    """Every placed card's apothem in the plane (the root of its frame's |determinant|), all
    determinants in one call: the same LU per 2 x 2 matrix as one call each, bit for bit."""
    dets = np.linalg.det(np.array([f.s for f in lat.frames])).tolist()
    return [math.sqrt(abs(d)) for d in dets]


def cell_pose(lat: GrownLattice, i: int, centre: np.ndarray, apothem: float | None = None
              ) -> Pose:
    """The pose of a card at plane point `centre` as placed card i sees it: that card's size
    (`apothem`, from `card_apothems`, when the caller has it) and squash (so perspective is
    followed) and the lattice's orientation there."""
    frame = lat.frames[i]
    if apothem is None:
        apothem = math.sqrt(abs(np.linalg.det(frame.s)))
    shape = frame.s / apothem
    return Pose((float(centre[0]), float(centre[1])), apothem, lat.rect_angle_e(i), lat.turn,
                ((shape[0, 0], shape[0, 1]), (shape[1, 0], shape[1, 1])))


def on_mask(mask: np.ndarray, scale: float, view: TableView | None, plane: np.ndarray
            ) -> np.ndarray:
    """Per cell (plane: cells x points x 2, table plane, or frame pixels when `view` is None),
    the share of its points that fall on the paper `mask` (worked at `scale` of the frame;
    points outside it are off the mask)."""
    pts = plane.reshape(-1, 2)
    img = ((pts if view is None else view.to_image(pts)) + 0.5) * scale - 0.5
    ix, iy = np.rint(img[:, 0]).astype(np.int64), np.rint(img[:, 1]).astype(np.int64)
    h, w = mask.shape
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    on = np.zeros(len(ix), bool)
    on[inside] = mask[iy[inside], ix[inside]] > 0
    return on.reshape(len(plane), -1).mean(1)


PROBE_EVEN = 0.8      # a probed cell's paper: its darker quartile this close to its median
PROBE_BAND = 0.7      # and its border band this much darker, at PROBE_BAND_SHARE of its places
PROBE_BAND_SHARE = 0.7   # (a neighbour's paper or a glare may light the rest)
PROBE_DIM = 16.0      # paper darker than this (of 255) is sensor noise more than light


def paper_in_border(frame: np.ndarray, view: TableView, plane: np.ndarray) -> np.ndarray:
    """Per cell (plane: cells x (paper + border points) x 2, table plane), whether the frame
    shows a card's contrast there: paper places bright and even (`PROBE_EVEN`), and around
    them the border band darker (`PROBE_BAND`) at most of its places, at any of its depths."""
    even, dark, _ = card_contrast(frame, view, plane)
    return even & (dark >= PROBE_BAND_SHARE)


def card_contrast(frame: np.ndarray, view: TableView | None, pts: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell (pts: ... x (paper + border points) x 2, table plane, or frame pixels when
    `view` is None): (whether its paper places are lit, in the frame and brighter than
    `PROBE_DIM`, and even, `PROBE_EVEN`; the share of its border band places darker than
    `PROBE_BAND` of that paper at any depth; whether they are lit)."""
    img = pts if view is None else view.to_image(pts.reshape(-1, 2)).reshape(pts.shape)
    vals, inside = sample(frame, img)
    grey = vals @ np.full(3, 1.0 / 3.0, vals.dtype)
    paper = np.sort(grey[..., :N_PAPER], -1)   # median and lower quartile from one sort
    mid = 0.5 * (paper[..., (N_PAPER - 1) // 2] + paper[..., N_PAPER // 2])
    q = 0.25 * (N_PAPER - 1)
    lo, frac = int(q), q - int(q)
    low = paper[..., lo] + frac * (paper[..., lo + 1] - paper[..., lo])
    even = low >= PROBE_EVEN * mid
    depths = grey[..., N_PAPER:].reshape(*grey.shape[:-1], len(BORDER_DEPTHS), -1)
    dark = np.count_nonzero(depths.min(-2) <= PROBE_BAND * mid[..., None], -1) / depths.shape[-1]
    lit = inside.all(-1) & (mid >= PROBE_DIM)
    return even & lit, dark, lit


def pose_at(pose: Pose, centre: tuple[float, float]) -> Pose:
    """`pose` moved to `centre` (built directly: dataclasses.replace re-inspects the fields
    on every call)."""
    return Pose(centre, pose.apothem, pose.angle, pose.turn, pose.shape)


CONTRAST_PTS = np.concatenate([PAPER_PTS, BORDER_PTS])   # `card_contrast`'s points
# `symbol_contrast`'s points: every other sample of each of the six symbols (`SYMBOL_PTS`:
# its middle, three of its inner ring and six of its outer one), symbol by symbol, then the
# paper places and the bare paper round each symbol
_SYMBOL_SAMPLES = SYMBOL_PTS[:, ::2]
_N_SYMBOL_PTS = _SYMBOL_SAMPLES.shape[0] * _SYMBOL_SAMPLES.shape[1]
SYMBOL_CONTRAST_PTS = np.concatenate([_SYMBOL_SAMPLES.reshape(-1, 2), PAPER_PTS, HALO_PTS])
SYMBOL_PAPER_TOL = 0.15   # a paper place within this (of the paper's grey) of the paper's colour
SYMBOL_INK = 0.2          # a symbol's sample at least this far from it in some channel
SYMBOL_INKED = 0.4        # at this share of a symbol's samples: the symbol shows
SYMBOL_ENOUGH = 1.55      # `symbol_contrast` a pose must score: six symbols and 0.55 of the
                          # paper places, or five and 0.72


def symbol_contrast(frame: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Per pose (pts: ... x SYMBOL_CONTRAST_PTS x 2, frame pixels), how plainly the frame shows
    a card's symbols there: the share of its paper places (and the paper round each symbol)
    within SYMBOL_PAPER_TOL of the paper places' median colour, plus the share of its six
    symbols inked, SYMBOL_INKED of a symbol's samples SYMBOL_INK from that colour in some
    channel (a holodex ring shows ink round its bare middle); out of 2, -1 where a point
    leaves the frame or the paper is darker than PROBE_DIM. A card's symbols are broad marks
    set in even paper: only at its own place do all six fall on ink and the rings round them
    on paper, where its thin border band, smeared on a small card, no longer shows."""
    vals, inside = sample(frame, pts)
    # the paper's colour: the median of the paper places alone (those round the symbols only
    # count towards the share); each point's distance from it, its largest channel's
    ref = np.median(vals[..., _N_SYMBOL_PTS:_N_SYMBOL_PTS + N_PAPER, :], axis=-2)   # ... x 3
    mid = ref.mean(-1)
    d = np.abs(vals - ref[..., None, :])
    far = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    share = np.count_nonzero(far[..., _N_SYMBOL_PTS:] <= (SYMBOL_PAPER_TOL * mid)[..., None],
                             -1) / (far.shape[-1] - _N_SYMBOL_PTS)
    ink = far[..., :_N_SYMBOL_PTS] >= (SYMBOL_INK * mid)[..., None]
    ink = np.count_nonzero(ink.reshape(*ink.shape[:-1], 6, -1), -1) >= (
        SYMBOL_INKED * _SYMBOL_SAMPLES.shape[1])
    score = share + np.count_nonzero(ink, -1) / 6.0
    return np.where(inside.all(-1) & (mid >= PROBE_DIM), score, -1.0)
