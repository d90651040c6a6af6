"""A placed card's pose found from where its six symbols' ink lies. A glossy sleeve's clear rim,
lit by its sheen, joins the card's paper outline and its printed band alike (the rim's cut edge
is a bright line beside a band the sheen pales), and both fits can leave the card a tenth of an
apothem off: every symbol's samples then sit on one side of it, grey rings read with their hole
on one side and washed discs with paper in them ('?', held-out `sleeves` 58). The symbols are
the card's own print wherever its outline was drawn: ink (any channel darker than the card's
paper) inside each symbol's circle and bare paper just round it. `symbol_shifts` slides the
pose's symbol pattern over a grid of shifts in the card's frame (SHIFT_REACH either way, in
SHIFT_STEP steps, then SHIFT_FINE about the best, turned by each of TURNS_DEG) and takes the
shift and turn at which the ink inside the six circles most exceeds the ink in the rings just
outside them (held-out `sleeves` 0-99 1859 -> 1874 cards with `symbol_decide.solid_wash`,
`phone-photo` 1925 -> 1940, fresh 14000-14099 1778 -> 1798 and 1856 -> 1885; no misread on any
held-out variant nor hard 0-699; 1.7 ms of CPU a frame on `sleeves`); the shift is chosen by
where the print lies, never by what a read at it would say, so it is one more look, not a
search for the pose that reads most. `symbol_repose` re-reads the placed cards that did not read
whole at their pose at the shifted pose where it moves the card by MIN_SHIFT at least, on the
terms the band's pose is re-read on (`band_pose.band_repose`): no grey blob taken for a blurred
ring nor a washed symbol read by its mean colour, a re-read kept only where it is whole as first
made, keeps every letter the pose read and fills in none beside an edge whose band shows paper
(`probe.reread_stands`). Made pass by pass (`passes`)."""

from __future__ import annotations

import math

import numpy as np

from ..faces import HEXEL_FACE
from .band_pose import reread_at
from .calibration import TableView
from .colour import ColourModel
from .fast_reduce import min3
from .passes import Passes
from .probe import whole_read
from .reader_params import ReaderParams
from .symbol_samples import (
    PAPER_PTS,
    SYMBOL_PTS,
    CardRead,
    Pose,
    pose_matrices,
    pose_points,
    sample,
)

SHIFT_REACH = 0.15   # apothems either way, in the card's frame
SHIFT_STEP = 0.03
SHIFT_FINE = 0.01    # the second grid's step, SHIFT_STEP either way of the first's best
MIN_SHIFT = 0.03     # a shift shorter than this (apothems) confirms the pose
TURNS_DEG = (-4.0, -2.0, 0.0, 2.0, 4.0)   # turns tried with the second grid (card frame)
INSIDE_RADII = (0.35, 0.6, 0.85)    # of a symbol's radius: its ink
OUTSIDE_RADII = (1.2, 1.45)         # and the bare paper round it
SYMBOL_REACH = HEXEL_FACE.symbol_centre_frac   # how far a turn moves the symbols (apothems/rad)
# the least lead of the best shift's score over the pose's own (ink fractions): a flat score
# (a blank or washed-out card) says nothing of where its symbols lie
MIN_GAIN = 0.03


def _circles(radii: tuple[float, ...], n: int) -> np.ndarray:
    """Card-frame points (apothem 1) on circles of `radii` (symbol radii) about each of the
    six symbols' centres (`SYMBOL_PTS`' first), `n` a circle."""
    a = np.radians(np.arange(n) * 360.0 / n)
    ring = HEXEL_FACE.symbol_radius_frac * np.c_[np.cos(a), np.sin(a)]
    return np.concatenate([c + r * ring for c in SYMBOL_PTS[:, 0] for r in radii])


_INSIDE = _circles(INSIDE_RADII, 12)
_OUTSIDE = _circles(OUTSIDE_RADII, 12)


def _grid(centre: np.ndarray, reach: float, step: float) -> np.ndarray:
    """Shifts (n x 2) on a square grid about `centre`."""
    k = np.arange(-reach, reach + 1e-9, step)
    gx, gy = np.meshgrid(k, k)
    return centre + np.c_[gx.ravel(), gy.ravel()]


def _ink(frame: np.ndarray, view: TableView, poses: list[Pose], local: np.ndarray,
         white: np.ndarray) -> np.ndarray:
    """Per pose and point (`local`: poses x points x 2 card-frame points, or points x 2 for
    all): how far below the card's paper (`white`, poses x 3) its darkest channel lies, 0-1
    (the channels' least taken by `min3`: the same values, without NumPy's slow reduction of a
    last axis of three over the hundreds of thousands of points a coarse grid samples)."""
    pts = np.stack([pose_points([q], loc)[0] for q, loc in zip(
        poses, np.broadcast_to(local, (len(poses), *local.shape[-2:])), strict=True)])
    img = view.to_image(pts.reshape(-1, 2)).reshape(pts.shape)
    vals, _ = sample(frame, img)
    return np.clip(1.0 - min3(vals / white[:, None, :]), 0.0, 1.0)


def _scores(frame: np.ndarray, view: TableView, poses: list[Pose], white: np.ndarray,
            shifts: np.ndarray, turn: float = 0.0) -> np.ndarray:
    """Per pose and shift (poses x shifts, card frame): the mean ink inside the symbols'
    circles less the mean ink just outside them, the pattern turned by `turn` (radians) about
    the card's centre and moved by the shift."""
    n_in = len(_INSIDE)
    local = np.concatenate([_INSIDE, _OUTSIDE])
    c, s = math.cos(turn), math.sin(turn)
    local = local @ np.array([[c, s], [-s, c]])
    moved = (local[None, :, :] + shifts[:, None, :]).reshape(-1, 2)
    ink = _ink(frame, view, poses, moved, white).reshape(len(poses), len(shifts), -1)
    return ink[..., :n_in].mean(-1) - ink[..., n_in:].mean(-1)


def symbol_shifts(frame: np.ndarray, view: TableView, poses: list[Pose]
                  ) -> list[tuple[np.ndarray, float] | None]:
    """Per pose, the shift (card frame, apothems) and turn (radians) that centre its symbol
    pattern on its card's symbols (see the module docstring); None where none leads the
    pose's own score by MIN_GAIN."""
    if not poses:
        return []
    paper, _ = sample(frame, view.to_image(
        pose_points(poses, PAPER_PTS).reshape(-1, 2)).reshape(len(poses), -1, 2))
    white = np.maximum(np.percentile(paper, 75, axis=1), 8.0)
    zero = np.zeros((1, 2))
    coarse = np.concatenate([zero, _grid(np.zeros(2), SHIFT_REACH, SHIFT_STEP)])
    s = _scores(frame, view, poses, white, coarse)
    best = coarse[s.argmax(1)]
    out: list[tuple[np.ndarray, float] | None] = []
    for i, q in enumerate(poses):
        fine = _grid(best[i], SHIFT_STEP, SHIFT_FINE)
        top = (-np.inf, fine[0], 0.0)
        for deg in TURNS_DEG:
            f = _scores(frame, view, [q], white[i:i + 1], fine, math.radians(deg))[0]
            k = int(f.argmax())
            if f[k] > top[0]:
                top = (float(f[k]), fine[k], math.radians(deg))
        out.append(top[1:] if top[0] - s[i, 0] >= MIN_GAIN else None)
    return out


def shifted(pose: Pose, shift: np.ndarray, turn: float = 0.0) -> Pose:
    """`pose` turned by `turn` (radians, card frame) about its centre and moved by `shift` in
    its card frame (apothems)."""
    m = pose_matrices([pose])[0]
    c = np.asarray(pose.centre, np.float64) + m @ shift
    return Pose((float(c[0]), float(c[1])), pose.apothem, pose.angle + pose.turn * turn,
                pose.turn, pose.shape)


def symbol_repose(frame: np.ndarray, poses: list[Pose], reads: list[CardRead], view: TableView,
                  model: ColourModel, p: ReaderParams
                  ) -> Passes[dict[int, tuple[Pose, CardRead]]]:
    """The placed cards (`poses`, `reads`) that do not read whole at their pose re-read where
    their symbols put it (`symbol_shifts`), where that moves the card by MIN_SHIFT at least;
    a re-read that is whole as first made, keeps every letter of the card's read and fills in
    no symbol beside an edge whose band shows paper replaces the card's pose and read, in place
    (see the module docstring). Returns the cards replaced: by index, the pose and read they
    replaced. Made pass by pass."""
    failing = [k for k, r in enumerate(reads) if not whole_read(r, p)]
    if not failing:
        return {}
    found = symbol_shifts(frame, view, [poses[k] for k in failing])
    todo = [(k, shifted(poses[k], *d)) for k, d in zip(failing, found, strict=True)
            if d is not None and (float(np.hypot(*d[0])) >= MIN_SHIFT
                                  or abs(d[1]) * SYMBOL_REACH >= MIN_SHIFT)]
    if not todo:
        return {}
    return (yield from reread_at(frame, todo, poses, reads, view, model, p))
