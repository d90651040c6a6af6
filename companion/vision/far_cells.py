"""Far cells: free cells anywhere in the play area, beyond the cells next to the placed cards (a
group of cards past an arm, which the lattice growth cannot link). The placed cards carry a
regular lattice through the table plane (`lattice.fit_regular`; uncalibrated, a projective
one), which predicts every cell with a standard error; a cell is looked at only where that fit
is sure of it (`far_grid`), its paper lies on the mask and its border band shows about the
predicted place (`_band_shares`: the band's profile along each border place's normal, sampled
once per cell and shifted for every pose tried). The probe then reads the cells found, and a
card counts only when it reads whole.
"""

from __future__ import annotations

import math

import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView
from .cell_poses import (
    CONTRAST_PTS,
    PROBE_BAND,
    PROBE_BAND_SHARE,
    PROBE_DIM,
    card_apothems,
    card_contrast,
    cell_pose,
    on_mask,
)
from .lattice import (
    GrownLattice,
    ProjectiveLattice,
    RegularLattice,
    fit_projective,
    fit_regular,
)
from .symbol_samples import BORDER_DEPTHS, BORDER_PTS, PAPER_PTS, Pose, pose_matrices, sample

FAR_MASK = 0.25    # a free cell far from the cards is looked at where this much of its paper
                   # places lie on the paper mask (a card's paper is brighter than the table
                   # round it nearly everywhere; a pale table's cards the probe's rounds follow)
FAR_FIT = 0.1      # the placed cards must lie this close to the lattice carried (steps, rms)
FAR_CARDS = 6      # uncalibrated, at least this many placed cards carry it (a homography)
FAR_STEPS = 8      # (cells are looked for at most this many steps beyond the placed ones)
FAR_JITTER = 0.05  # a card's place is taken to be this far off its cell (steps, at least)
FAR_SD = 0.2       # and a far cell looked at only where the lattice is this sure of it (steps,
FAR_SD_PICTURE = 0.15   # standard error; on the picture, uncalibrated: a card beside it lies
                   # a step off, and fits simulated with hand-laid jitter erred by at most 1.7
                   # (metric) and 4 (picture) such errors)
FAR_REACH = 0.32   # how far (apothems) `far_cells` looks about a cell's predicted place,
FAR_STEP = 0.08    # in steps of this (within a disc)
FAR_GRID = 0.08    # (along each border place's normal, the band is looked for this far apart)


def _far_shifts() -> np.ndarray:
    """The shifts (apothems, card frame) `far_cells` tries, within FAR_REACH."""
    k = np.arange(-FAR_REACH, FAR_REACH + 1e-9, FAR_STEP)
    grid = np.stack(np.meshgrid(k, k), -1).reshape(-1, 2)
    return grid[np.hypot(grid[:, 0], grid[:, 1]) <= FAR_REACH + 1e-9]


_FAR_SHIFTS = _far_shifts()
# The band profiles `_band_shares` samples: along the normal of each of the 18 border places
# (`symbol_samples.BORDER_PTS`: three along each edge), from the paper inside to beyond the band,
# FAR_GRID apart, as far either way as a shift moves the band; at any shift a place's band
# depths (`symbol_samples.BORDER_DEPTHS`) are a window of BAND_WINDOW of its profile's samples
_N_PLACES = len(BORDER_PTS) // len(BORDER_DEPTHS)
_BAND_DEPTH0 = min(BORDER_DEPTHS)
BAND_WINDOW = round((max(BORDER_DEPTHS) - _BAND_DEPTH0) / FAR_GRID) + 1
_FAR_RHO = _BAND_DEPTH0 + FAR_GRID * np.arange(-round(FAR_REACH / FAR_GRID) - 1,
                                               round(FAR_REACH / FAR_GRID) + BAND_WINDOW + 1)
_PLACE_NORMAL = np.array([[math.cos(math.radians(-60.0 * (k // 3))),
                           math.sin(math.radians(-60.0 * (k // 3)))] for k in range(_N_PLACES)])
_FAR_PROFILE = (_FAR_RHO[None, :, None] * _PLACE_NORMAL[:, None, :]
                + (BORDER_PTS[:_N_PLACES] - _BAND_DEPTH0 * _PLACE_NORMAL)[:, None, :])
# each shift's window start in each place's profile (shifts x places)
_FAR_START = np.rint((_BAND_DEPTH0 + _FAR_SHIFTS @ _PLACE_NORMAL.T - _FAR_RHO[0])
                     / FAR_GRID).astype(np.int64)
# the paper the band is judged against: the inner part of the profiles beside the corners
# (a symbol lies on each edge's middle normal), on the paper at most shifts
_FAR_PAPER = np.ix_([k for k in range(_N_PLACES) if k % 3 != 1],
                    np.flatnonzero(_FAR_RHO <= 0.75))


def _band_shares(frame: np.ndarray, centres: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """Per cell (frame `centres` and card frame -> frame `maps`, cells x 2 x 2) and shift of
    _FAR_SHIFTS (cells x shifts), the share of a card's border band places darker than
    PROBE_BAND of its paper at any of their depths, were a card there moved by that shift;
    -1 where the paper is dim (PROBE_DIM) or not all in the frame. `card_contrast`'s band
    test for every shift at once, from one profile along each place's normal (a shift moves
    the band along it), against the median of the paper inside them all."""
    pts = centres[:, None] + _FAR_PROFILE.reshape(-1, 2) @ maps.transpose(0, 2, 1)
    vals, inside = sample(frame, pts.reshape(len(centres), _N_PLACES, len(_FAR_RHO), 2))
    grey = vals @ np.full(3, 1.0 / 3.0, vals.dtype)                    # cells x places x radii
    paper = grey[:, _FAR_PAPER[0], _FAR_PAPER[1]].reshape(len(centres), -1)
    mid = np.median(paper, axis=1)
    dark = grey <= PROBE_BAND * mid[:, None, None]
    # any of a window's samples dark, by a running count
    run = np.zeros((*dark.shape[:2], dark.shape[2] + 1), np.int32)
    np.cumsum(dark, -1, dtype=np.int32, out=run[..., 1:])
    win = run[..., BAND_WINDOW:] > run[..., :-BAND_WINDOW]           # cells x places x starts
    got = win[:, np.arange(_N_PLACES)[None, :], _FAR_START]           # cells x shifts x places
    ok = (mid >= PROBE_DIM) & inside.all((1, 2))
    return np.where(ok[:, None], got.mean(-1), -1.0)


def far_cells(frame: np.ndarray, mask: np.ndarray, scale: float, lat: GrownLattice,
              view: TableView, skip: set[tuple[int, int]]) -> dict[tuple[int, int], Pose]:
    """The free cells anywhere on the table (`_far_grid`) where the frame shows a card's
    contrast (`_band_shares`, then `card_contrast` there: even paper, and around it the dark
    border band at PROBE_BAND_SHARE of its places) within FAR_REACH of the place the layout's
    lattice predicts, each at the middle of the shifts that show it best, at the squash and
    orientation of the placed card nearest to it and the size the lattice gives it there
    (`cell_pose`). Only the cells whose paper places lie on the paper mask (FAR_MASK) are
    looked at; cells in `skip` are left out."""
    grid = _far_grid(lat, view, skip, frame.shape)
    if grid is None:
        return {}
    cells, centres, near, size = grid
    apothems = card_apothems(lat)
    bases = {i: cell_pose(lat, i, lat.centres[i], apothems[i]) for i in set(near.tolist())}
    at = {i: k for k, i in enumerate(bases)}
    maps = pose_matrices(list(bases.values()))[[at[i] for i in near.tolist()]]
    maps *= size[:, None, None]
    # each cell's card frame carried into the picture by the plane-to-frame map's derivative
    # there (a card is small beside the distances over which that map bends)
    step = 0.1 * float(np.median(apothems)) * np.eye(2)
    ends = view.to_image(np.concatenate([centres, centres + step[0], centres + step[1]]))
    c_img = ends[:len(centres)]
    jac = np.stack([ends[len(centres):2 * len(centres)] - c_img,
                    ends[2 * len(centres):] - c_img], -1) / step[0, 0]
    img_maps = jac @ maps                                       # card frame -> frame pixels
    on = np.flatnonzero(on_mask(mask, scale, None, c_img[:, None]
                                + PAPER_PTS @ img_maps.transpose(0, 2, 1)) >= FAR_MASK)
    if not len(on):
        return {}
    shares = _band_shares(frame, c_img[on], img_maps[on])
    top = shares.max(1)
    keep = top >= PROBE_BAND_SHARE
    if not keep.any():
        return {}
    # the middle of the shifts at which the band shows best (a band a few px wide shows all
    # round over a small range of them), checked there as `card_contrast` checks a card
    best = shares[keep] >= top[keep, None]
    mid = (best[:, :, None] * _FAR_SHIFTS).sum(1) / best.sum(1)[:, None]
    sel = on[keep]
    even, dark, _ = card_contrast(frame, None, (c_img[sel] + np.einsum(
        "cab,cb->ca", img_maps[sel], mid))[:, None] + CONTRAST_PTS @ img_maps[sel].transpose(
            0, 2, 1))
    card = (even & (dark >= PROBE_BAND_SHARE)).tolist()
    moved = centres[sel] + np.einsum("cab,cb->ca", maps[sel], mid)
    out = {}
    for (q, r), i, k, (x, y), ok in zip(cells[sel].tolist(), near[sel].tolist(),
                                        size[sel].tolist(), moved.tolist(), card, strict=True):
        if ok:
            b = bases[i]
            out[(q, r)] = Pose((x, y), b.apothem * k, b.angle, b.turn, b.shape)
    return out


def _far_grid(lat: GrownLattice, view: TableView, skip: set[tuple[int, int]],
              shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray
                                               ] | None:
    """The free cells (not in `skip`) of the layout's lattice farther on the table, for
    `far_cells`: (cells, their plane centres, the placed card nearest each, the size of a
    card there in that card's), or None where the lattice cannot be carried. On a calibrated
    table the plane is metric, so one step length and one turn (`lattice.fit_regular`) carry
    the layout across an arm or a gap that the growth and the probe cannot cross, where the
    placed cards lie on one regular lattice (FAR_FIT) whose step is a card's width and a gap;
    its cells are those in the play area and a card beyond (cards lie there). Uncalibrated,
    the plane is the picture: the table's lattice is carried by one homography
    (`lattice.fit_projective`) where at least FAR_CARDS placed cards fit it (FAR_FIT), within
    FAR_STEPS of them and the picture, and a card's size at each cell follows it. Either way
    only the cells the fit is sure of (its standard error there within FAR_SD of a step, or
    FAR_SD_PICTURE, each card taken FAR_JITTER of a step off or as far as the fit says): far
    from the cards, or where few carry the lattice, a cell may be off by more than the search
    reaches, and then a card beside it could be taken for it."""
    order = sorted(lat.cells)
    if len(order) < 2:
        return None
    idx = np.array(order, np.int64)
    at = np.array([lat.cells[i] for i in order], np.float64)
    e_q = np.array([lat.e_q[i] for i in order])
    e_r = np.array([lat.e_r[i] for i in order])
    fitted: RegularLattice | ProjectiveLattice | None
    if view.calibrated and view.table is not None:
        fitted = fit_regular(at, lat.centres[idx], e_q.mean(0), e_r.mean(0), FAR_JITTER)
        m = HEXEL_FACE.flat_to_flat_mm
        if fitted.rms > FAR_FIT or not 0.9 * m <= fitted.step <= 1.5 * m:
            return None   # the placed cards are no regular lattice of cards this size
        w, h = view.table.play_area_mm
        lo, hi = np.array([-m, -m]), np.array([w + m, h + m])
    else:
        fitted = (fit_projective(at, lat.centres[idx], e_q, e_r, FAR_JITTER)
                  if len(order) >= FAR_CARDS else None)
        if fitted is None or fitted.rms > FAR_FIT:
            return None
        lo, hi = np.zeros(2), np.array([shape[1] - 1.0, shape[0] - 1.0])
    frac = fitted.fractional(np.array([lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]]))
    # (a corner of the picture beyond the table's horizon maps nowhere: the box bounds it)
    frac = np.clip(np.nan_to_num(frac, nan=0.0), at.min(0) - FAR_STEPS, at.max(0) + FAR_STEPS)
    (q0, r0), (q1, r1) = np.floor(frac.min(0)).astype(int), np.ceil(frac.max(0)).astype(int)
    free = np.ones((q1 - q0 + 1, r1 - r0 + 1), bool)
    gone = np.array([c for c in skip if q0 <= c[0] <= q1 and r0 <= c[1] <= r1], int)
    if len(gone):
        free[gone[:, 0] - q0, gone[:, 1] - r0] = False
    cells = np.argwhere(free) + np.array([q0, r0])
    centres = fitted.centres(cells)
    inside = ((centres >= lo) & (centres <= hi)).all(1)
    cells, centres = cells[inside], centres[inside]
    if not len(cells):
        return None
    d = lat.centres[idx][None] - centres[:, None]
    k = np.argmin(np.einsum("cnk,cnk->cn", d, d), 1)
    if isinstance(fitted, RegularLattice):
        size, sure = np.ones(len(cells)), fitted.spread(cells) <= FAR_SD
    else:   # the lattice's step there against its step at that card (area, square-rooted)
        j = fitted.axes(cells)                                     # cells x axis x 2
        area = np.abs(j[:, 0, 0] * j[:, 1, 1] - j[:, 0, 1] * j[:, 1, 0])
        own = np.abs(e_q[k, 0] * e_r[k, 1] - e_q[k, 1] * e_r[k, 0])
        size = np.sqrt(area / own)
        sure = fitted.spread(cells) <= FAR_SD_PICTURE * np.linalg.norm(j[:, 0], axis=1)
    if not sure.any():
        return None
    return cells[sure], centres[sure], idx[k[sure]], size[sure]
