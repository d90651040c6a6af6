"""Stage 2 of the Hex'el reader: fit the hex lattice to the whole cards and give each an axial cell.
The lattice orientation is the sixfold circular mean of the cards' orientations, the spacing the
median distance between neighbouring cards (two apothems when only one card is seen). Direction E
is the lattice direction nearest to image-right as seen in the camera image and SE the one 60°
clockwise of it on screen, so cells read as RULES.md's shared notation does on the image: E (+1,0),
NE (+1,-1), NW (0,-1), W (-1,0), SW (-1,+1), SE (0,+1). Origin: the card nearest the centroid of
all the cards is (0, 0) (ties broken by position: top, then left). With three or more cards the
lattice is then re-fitted (affine least squares) to absorb a small residual tilt.

The reader itself no longer fits one lattice: it uses `grow_lattice` (below), which places cards
card-to-card in each card's own frame and so follows perspective and lens distortion (from the
card nearest the centroid, or a card the caller names); the global `fit_lattice` stays as the
reference for a flat, straight-on view.
"""

from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .calibration import TableView
from .cards import plane_sizes
from .geometry import SQRT3, axial_distance, axial_round, wrap60


@dataclass(frozen=True)
class Lattice:
    """Plane position of cell (q, r) = origin + q * e_q + r * e_r."""

    origin: tuple[float, float]
    e_q: tuple[float, float]
    e_r: tuple[float, float]
    angle_e: float   # plane angle of lattice direction E
    turn: int        # +1: lattice direction d lies at angle_e - 60°*d in the plane (-1 if mirrored)

    @property
    def basis(self) -> np.ndarray:
        return np.array([self.e_q, self.e_r]).T

    @property
    def spacing(self) -> float:
        return float(math.hypot(*self.e_q) + math.hypot(*self.e_r)) / 2.0

    def centres(self, cells: np.ndarray) -> np.ndarray:
        """Plane centres (N x 2) of axial cells (N x 2)."""
        return np.asarray(self.origin) + np.asarray(cells, np.float64).reshape(-1, 2) @ self.basis.T

    def fractional(self, points: np.ndarray) -> np.ndarray:
        """Fractional axial coordinates of plane points."""
        d = np.asarray(points, np.float64).reshape(-1, 2) - np.asarray(self.origin)
        return np.linalg.solve(self.basis, d.T).T

    def direction_angle(self, d: int) -> float:
        """Plane angle of lattice direction d (0 = E … 5 = SE)."""
        return self.angle_e - self.turn * math.radians(60.0) * d


def sixfold_mean(angles: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Mean of angles defined modulo 60° (radians, result in ±30°)."""
    z = np.exp(6j * np.asarray(angles, np.float64))
    w = np.ones(len(z)) if weights is None else np.asarray(weights, np.float64)
    return float(np.angle(np.sum(w * z)) / 6.0)


def lattice_spacing(centres: np.ndarray, apothem: float) -> float:
    """Median centre distance between neighbouring cards (2 apothems if none touch)."""
    if len(centres) < 2:
        return 2.0 * apothem
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    nearest = d.min(1)
    near = nearest[(nearest > 1.7 * apothem) & (nearest < 2.5 * apothem)]
    return float(np.median(near)) if len(near) else 2.0 * apothem


def _image_angle(view: TableView, at: np.ndarray, angle: float, step: float) -> float:
    """Angle in the camera image of a plane direction at plane point `at`."""
    p = np.array([at, at + step * np.array([math.cos(angle), math.sin(angle)])])
    q = view.to_image(p)
    v = q[1] - q[0]
    return math.atan2(v[1], v[0])


def orient(view: TableView, at: np.ndarray, angle: float, step: float) -> tuple[float, int]:
    """(angle of E in the plane, turn) for a lattice whose directions lie at `angle` + k·60°."""
    cands = [angle + math.radians(60.0) * k for k in range(6)]
    img = [_image_angle(view, at, a, step) for a in cands]
    k = int(np.argmax(np.cos(img)))
    e_img = img[k]
    se_img = _image_angle(view, at, cands[k] + math.radians(60.0), step)
    turn = 1 if math.sin(se_img - e_img) > 0 else -1
    return float(cands[k]), turn


def fit_lattice(centres: np.ndarray, angles: np.ndarray, apothems: np.ndarray,
                view: TableView, weights: np.ndarray | None = None) -> Lattice:
    """The lattice through the card centres (plane), see the module docstring."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    angle = sixfold_mean(angles, weights)
    apothem = float(np.median(apothems))
    spacing = lattice_spacing(centres, apothem)
    centroid = centres.mean(0)
    angle_e, turn = orient(view, centroid, angle, spacing)
    u_q = np.array([math.cos(angle_e), math.sin(angle_e)])
    a_r = angle_e + turn * math.radians(60.0)
    u_r = np.array([math.cos(a_r), math.sin(a_r)])
    dist = np.linalg.norm(centres - centroid, axis=1)
    order = np.lexsort((centres[:, 0], centres[:, 1], np.round(dist / (0.05 * spacing))))
    origin = centres[order[0]]
    lat = Lattice(tuple(origin), tuple(spacing * u_q), tuple(spacing * u_r), angle_e, turn)
    return refine(lat, centres)


def refine(lat: Lattice, centres: np.ndarray, tolerance: float = 0.3) -> Lattice:
    """Affine least-squares re-fit from the rounded cells (cards within `tolerance` spacing)."""
    if len(centres) < 3:
        return lat
    cells = axial_round(lat.fractional(centres))
    resid = np.linalg.norm(lat.centres(cells) - centres, axis=1) / lat.spacing
    ok = resid < tolerance
    a = np.c_[np.ones(int(ok.sum())), cells[ok]]
    if ok.sum() < 3 or np.linalg.matrix_rank(a) < 3:
        return lat
    sol, *_ = np.linalg.lstsq(a, centres[ok], rcond=None)
    origin, e_q, e_r = sol[0], sol[1], sol[2]
    # keep the origin card at (0, 0): shift by the rounded cell of the old origin
    shift = axial_round(np.linalg.solve(np.array([e_q, e_r]).T, np.asarray(lat.origin) - origin))
    origin = origin + shift[0] @ np.array([e_q, e_r])
    return Lattice(tuple(origin), tuple(e_q), tuple(e_r), lat.angle_e, lat.turn)


def assign_cells(lat: Lattice, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Axial cells (N x 2) of plane centres and their distance to the cell centre in spacings."""
    cells = axial_round(lat.fractional(centres))
    resid = np.linalg.norm(lat.centres(cells) - np.asarray(centres).reshape(-1, 2), axis=1)
    return cells, resid / lat.spacing


def angle_offset(lat: Lattice, angle: float) -> float:
    """How far (radians, ±30°) a card's orientation is from the lattice's."""
    return float(wrap60(angle - lat.angle_e))


@dataclass(frozen=True)
class RegularLattice:
    """A regular hex lattice in a metric plane (a calibrated table, in millimetres): cell
    (q, r) at origin + q·e_q + r·e_r, e_r being e_q turned by 60° one way (`fit_regular`);
    `rms` is how far the cards it was fitted to lie from their cells (root mean square, in
    steps); `spread` how far off it may put a cell."""

    origin: np.ndarray
    e_q: np.ndarray
    e_r: np.ndarray
    rms: float
    # the fit's normal equations (sum of the cells' complex positions u = q + w·r, of |u|²,
    # their number) and the error of one card's place it assumes (plane units)
    sums: tuple[complex, float, int] = (0j, 0.0, 0)
    sigma: float = 0.0

    @property
    def step(self) -> float:
        return float(math.hypot(*self.e_q))

    def centres(self, cells: np.ndarray) -> np.ndarray:
        """Plane centres (N x 2) of axial cells (N x 2)."""
        cells = np.asarray(cells, np.float64).reshape(-1, 2)
        return self.origin + cells[:, :1] * self.e_q + cells[:, 1:] * self.e_r

    def fractional(self, points: np.ndarray) -> np.ndarray:
        """Fractional axial coordinates (N x 2) of plane points (N x 2)."""
        d = np.asarray(points, np.float64).reshape(-1, 2) - self.origin
        return np.linalg.solve(np.array([self.e_q, self.e_r]).T, d.T).T

    def spread(self, cells: np.ndarray) -> np.ndarray:
        """Per cell (N x 2), the standard error of its predicted centre (in steps): the
        least-squares fit's, the cards' places each off by `sigma` (infinite where the cards
        all share one cell: their own steps then carry the lattice, unchecked)."""
        su, suu, n = self.sums
        det = n * suu - abs(su) ** 2
        cells = np.asarray(cells, np.float64).reshape(-1, 2)
        if n < 2 or det <= 1e-9 * n * n:
            return np.full(len(cells), np.inf)
        w = complex(*self.e_r) / complex(*self.e_q)
        u = cells[:, 0] + w * cells[:, 1]
        v = (suu - 2.0 * (np.conj(su) * u).real + n * np.abs(u) ** 2) / det
        return self.sigma * np.sqrt(np.maximum(v, 0.0)) / self.step


def fit_regular(cells: np.ndarray, centres: np.ndarray, e_q: np.ndarray, e_r: np.ndarray,
                jitter: float = 0.0) -> RegularLattice:
    """The regular lattice through cards at axial `cells` (N x 2) with plane `centres` (N x 2),
    by least squares over its origin, step and turn (a similarity: on a metric plane a hex
    lattice has one step length and its directions lie 60° apart, so a few cards anywhere
    fix it, where a general map would need many spread wide). `e_q`, `e_r`: one step along
    E and SE as the cards' own frames give it (their means); they tell the lattice's
    handedness, and its step and turn where all the cards share one cell. Each card's place
    is taken to be off by the fit's own residual (unbiased) or `jitter` steps, the larger
    (`RegularLattice.spread`)."""
    cells = np.asarray(cells, np.float64).reshape(-1, 2)
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    cross = e_q[0] * e_r[1] - e_q[1] * e_r[0]
    w = complex(0.5, math.copysign(SQRT3 / 2.0, cross))       # SE = E turned by ±60°
    z = centres[:, 0] + 1j * centres[:, 1]
    u = cells[:, 0] + w * cells[:, 1]
    n, su, sz = len(u), complex(u.sum()), complex(z.sum())
    suu = float(np.vdot(u, u).real)
    det = n * suu - abs(su) ** 2
    if det > 1e-9 * n * n:   # the normal equations of z = o + step·u, solved
        step = (n * complex(np.vdot(u, z)) - su.conjugate() * sz) / det
    else:                    # (all the cards at one cell)
        step = complex(e_q[0], e_q[1])
    o = (sz - step * su) / n
    resid = np.abs(o + step * u - z)
    e = np.array([step.real, step.imag])
    sw = step * w
    size = max(abs(step), 1e-9)
    sigma = max(float(np.sqrt(np.sum(resid ** 2) / (n - 2))) if n > 2 else 0.0, jitter * size)
    return RegularLattice(np.array([o.real, o.imag]), e, np.array([sw.real, sw.imag]),
                          float(np.sqrt(np.mean(resid ** 2)) / size), (su, suu, n), sigma)


@dataclass(frozen=True)
class ProjectiveLattice:
    """A hex lattice seen through a camera (uncalibrated: the plane is the picture): cell
    (q, r) at `h` applied to (q, r) (`fit_projective`); `rms` is how far the cards it was
    fitted to lie from their cells (root mean square, in their own steps); `spread` how far
    off it may put a cell."""

    h: np.ndarray
    rms: float
    cov: np.ndarray     # covariance of the homography's eight free entries (h[2, 2] = 1)

    def centres(self, cells: np.ndarray) -> np.ndarray:
        """Plane centres (N x 2) of axial cells (N x 2)."""
        c = np.asarray(cells, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(c, self.h).reshape(-1, 2)

    def fractional(self, points: np.ndarray) -> np.ndarray:
        """Fractional axial coordinates (N x 2) of plane points (N x 2)."""
        p = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, np.linalg.inv(self.h)).reshape(-1, 2)

    def axes(self, cells: np.ndarray) -> np.ndarray:
        """Per cell (N x 2), the plane vectors of one lattice step along axes q and r there
        (N x 2 axes x 2): twice the way from its centre half a step along each."""
        cells = np.asarray(cells, np.float64).reshape(-1, 2)
        half = np.array([[0.5, 0.0], [0.0, 0.5]])
        ends = self.centres((cells[:, None, :] + half[None]).reshape(-1, 2)).reshape(-1, 2, 2)
        return (ends - self.centres(cells)[:, None, :]) * 2.0

    def spread(self, cells: np.ndarray) -> np.ndarray:
        """Per cell (N x 2), the standard error of its predicted centre (plane units), the
        homography's uncertainty carried there to first order."""
        cells = np.asarray(cells, np.float64).reshape(-1, 2)
        g = _homography_jacobian(self.h, cells)
        c = np.einsum("nap,pq,nbq->nab", g, self.cov, g)
        sd = np.sqrt(np.maximum(c[:, 0, 0] + c[:, 1, 1], 0.0))
        # (a cell the map sends beyond the horizon, or near it, is nowhere the cards are)
        w = self.h[2, 0] * cells[:, 0] + self.h[2, 1] * cells[:, 1] + self.h[2, 2]
        return np.where(np.isfinite(sd) & (w > 0.1), sd, np.inf)


def _homography_jacobian(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(N x 2 x 8) derivatives of `h` applied to points (N x 2) by its eight free entries
    (row by row, h[2, 2] = 1)."""
    x, y = pts[:, 0], pts[:, 1]
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    px = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    py = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    z, one = np.zeros_like(x), np.ones_like(x)
    gx = np.stack([x, y, one, z, z, z, -px * x, -px * y], 1) / w[:, None]
    gy = np.stack([z, z, z, x, y, one, -py * x, -py * y], 1) / w[:, None]
    return np.stack([gx, gy], 1)


def fit_projective(cells: np.ndarray, centres: np.ndarray, e_q: np.ndarray, e_r: np.ndarray,
                   jitter: float = 0.0) -> ProjectiveLattice | None:
    """The homography from axial cells to plane centres through cards at `cells` (N x 2) with
    `centres` (N x 2) and one step along E and SE at each (`e_q`, `e_r`, N x 2 each: half a
    step either way along them is a card-sized sample of the same map, as `_bridge` takes
    it). A flat table seen through a pinhole maps its lattice by one homography whatever the
    tilt. Its uncertainty (`ProjectiveLattice.spread`) is that of the fit to the card centres
    alone (the samples of a card's own frame share its errors), each centre off by the fit's
    residual (unbiased) or `jitter` of its step, the larger. None where it cannot be fitted."""
    cells = np.asarray(cells, np.float64).reshape(-1, 2)
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    du = np.array([[0.5, 0.0], [-0.5, 0.0], [0.0, 0.5], [0.0, -0.5]])
    src = np.concatenate([cells, (cells[:, None, :] + du[None]).reshape(-1, 2)])
    vecs = np.stack([e_q, e_r], 1)                                  # N x 2 (axis) x 2
    dst = np.concatenate([centres, (centres[:, None, :] + du @ vecs).reshape(-1, 2)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None or not np.isfinite(h).all() or abs(h[2, 2]) < 1e-12:
        return None
    h = h / h[2, 2]
    fit = cv2.perspectiveTransform(cells[:, None, :], h)[:, 0]
    steps = np.hypot(e_q[:, 0], e_q[:, 1])
    off = np.linalg.norm(fit - centres, axis=1)
    n = len(cells)
    dof = 2 * n - 8
    var = max(float(np.sum(off ** 2)) / dof if dof > 0 else 0.0,
              (jitter * float(np.median(steps))) ** 2) / 2.0      # per coordinate
    g = _homography_jacobian(h, cells).reshape(-1, 8)
    try:
        cov = var * np.linalg.inv(g.T @ g)
    except np.linalg.LinAlgError:
        return None   # (the cards in a row: a homography is not fixed by them)
    return ProjectiveLattice(h, float(np.sqrt(np.mean((off / steps) ** 2))), cov)

# --- local lattice growth ---------------------------------------------------------------------
#
# Under strong perspective or lens distortion, and always when the table is not calibrated (the
# plane is then the image), one lattice cannot fit every card: the spacing and the directions
# drift across the frame. `grow_lattice` therefore never fits a global lattice. Each card's hull
# gives its own local frame — the affine map `S` (from its second moments: a regular hexagon's
# are isotropic) that turns the hull back into a regular hexagon, and the card's orientation in
# that rectified frame (sixth harmonic). The card nearest the centroid is (0, 0); from every
# placed card, the vector to an unplaced one, measured in the placed card's frame, is a whole
# number of lattice steps along its six directions (or it is not on the lattice). Cards are placed
# best-first (shortest, best-fitting hop first) and each placement must agree with every placed
# card around it — the cell predicted from their frames, the cell not taken, the card turned like
# its neighbour — or the card is left out (never guessed); a card beyond a gap no hop can cross is
# then placed by the map of the placed layout (see `_bridge`: the regular lattice on a calibrated
# table, the homography on the picture), when that map is sure of its cell. Image-E and the
# handedness are decided at the end from the cards' own directions seen in the image (averaged
# over the cards).

_PROV = np.array([(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)])  # at +60°·k (provisional)
_PROV_T = tuple((int(a), int(b)) for a, b in _PROV)


@dataclass(frozen=True)
class CardFrame:
    """A card's local frame in the plane: centre, affine map `s` from the rectified frame (card
    apothem 1) to the plane, and the rectified angle of one of its edge normals (±30°)."""

    centre: np.ndarray
    s: np.ndarray
    phi: float


def card_frame(centre: tuple[float, float], apothem: float, angle: float,
               shape: tuple[tuple[float, float], tuple[float, float]] | np.ndarray) -> CardFrame:
    """A card's local frame from its fit (`cards.CardFit`: rectified angle and shape)."""
    return CardFrame(np.asarray(centre, np.float64), apothem * np.asarray(shape, np.float64),
                     float(angle))


@dataclass(frozen=True)
class GrownLattice:
    """The result of `grow_lattice`: a cell for every placed card (index into the cards given),
    each placed card's plane vectors of lattice directions E and SE (one step), and `turn` (+1:
    lattice direction d at angle_e - 60°·d in the plane, as `Lattice.turn`)."""

    cells: dict[int, tuple[int, int]]
    e_q: dict[int, np.ndarray]
    e_r: dict[int, np.ndarray]
    centres: np.ndarray
    frames: tuple[CardFrame, ...]
    turn: int
    spacing: float   # lattice step in card apothems
    # filled on first use (`_lookup`, `rect_angle_e`): the reader re-grows a lattice when cards
    # are left out, and only the last one is asked where points and angles lie
    _idx: np.ndarray = field(default=None, init=False, repr=False,  # type: ignore[assignment]
                             compare=False)
    _binv: np.ndarray = field(default=None, init=False, repr=False,  # type: ignore[assignment]
                              compare=False)
    _sinv: np.ndarray = field(default=None, init=False, repr=False,  # type: ignore[assignment]
                              compare=False)
    _at: np.ndarray = field(default=None, init=False, repr=False,  # type: ignore[assignment]
                            compare=False)
    _rect: dict[int, float] = field(default=None, init=False, repr=False,  # type: ignore[assignment]
                                    compare=False)

    def _lookup(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(placed cards ascending, their inverse lattice bases, inverse frames, centres)."""
        if self._idx is None:
            idx = np.array(sorted(self.cells), np.int64)
            binv = sinv = at = None
            if len(idx):
                basis = np.stack([np.array([self.e_q[i] for i in idx]),
                                  np.array([self.e_r[i] for i in idx])], 2)  # columns e_q, e_r
                s = np.array([self.frames[i].s for i in idx])
                inv = np.linalg.inv(np.concatenate([basis, s]))   # one call, each its own
                binv, sinv, at = inv[:len(idx)], inv[len(idx):], self.centres[idx]
            object.__setattr__(self, "_binv", binv)
            object.__setattr__(self, "_sinv", sinv)
            object.__setattr__(self, "_at", at)
            object.__setattr__(self, "_idx", idx)
        return self._idx, self._binv, self._sinv, self._at

    def angle_e(self, i: int) -> float:
        """Plane angle of lattice direction E at placed card i."""
        return float(math.atan2(self.e_q[i][1], self.e_q[i][0]))

    def rect_angle_e(self, i: int) -> float:
        """Angle of lattice direction E at placed card i in the card's rectified frame."""
        if self._rect is None:   # all placed cards at once (each solved on its own, as alone)
            idx = sorted(self.cells)
            rect: dict[int, float] = {}
            if idx:
                v = np.linalg.solve(np.array([self.frames[k].s for k in idx]),
                                    np.array([self.e_q[k] for k in idx])[:, :, None])
                rect = {k: math.atan2(y, x) for k, (x, y) in zip(idx, v[:, :, 0].tolist(),
                                                                   strict=True)}
            object.__setattr__(self, "_rect", rect)
        return self._rect[i]

    def locate(self, point: np.ndarray, near: int = 3, tolerance: float = 0.3
               ) -> tuple[tuple[int, int], np.ndarray, int] | None:
        """(cell, its plane centre, the placed card whose frame gave it) for a plane point, when
        the `near` nearest placed cards agree on the cell and the point lies within `tolerance`
        steps of it; else None."""
        return self.locate_many(np.asarray(point, np.float64).reshape(1, 2), near, tolerance)[0]

    def locate_many(self, points: np.ndarray, near: int = 3, tolerance: float = 0.3
                    ) -> list[tuple[tuple[int, int], np.ndarray, int] | None]:
        """`locate` of each of several plane points (n x 2), the arrays worked out for all of
        them at once (each point's numbers its own: every product and sum is per point)."""
        idx, binv, sinv, at = self._lookup()
        n = len(points)
        if not len(idx) or near < 1:
            return [None] * n
        v = np.asarray(points, np.float64).reshape(n, 1, 2) - at         # points x placed x 2
        d = _norm(_apply(sinv, v.transpose(1, 0, 2)), 2).T               # points x placed
        picks = np.argsort(d, axis=1)[:, :near]
        k = picks.shape[1]
        frac = _apply(binv[picks].reshape(-1, 2, 2),
                      v[np.arange(n)[:, None], picks].reshape(-1, 1, 2)).reshape(n, k, 2)
        return [self._located(ks, fr, tolerance)
                for ks, fr in zip(picks.tolist(), frac.tolist(), strict=True)]

    def _located(self, ks: list[int], frac: list[list[float]], tolerance: float
                 ) -> tuple[tuple[int, int], np.ndarray, int] | None:
        """`locate`'s answer for one point from its nearest placed cards (`ks`, indices into
        `_lookup`'s) and its lattice coordinates in the frame of each (`frac`)."""
        idx = self._idx
        step = [_round_cell(fq, fr) for fq, fr in frac]
        cell = None
        for k, (a, b) in zip(ks, step, strict=True):
            c = self.cells[int(idx[k])]
            c = (c[0] + a, c[1] + b)
            if cell is not None and c != cell:
                return None
            cell = c
        i = int(idx[ks[0]])
        b = np.array([self.e_q[i], self.e_r[i]]).T
        centre = self.centres[i] + b @ np.array(step[0], np.int64)
        du0, du1 = frac[0][0] - step[0][0], frac[0][1] - step[0][1]
        resid = math.hypot(du0 + 0.5 * du1, SQRT3 / 2.0 * du1)   # in steps
        if resid > tolerance:
            return None
        return cell, centre, i


def _apply(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """`np.einsum("iab,ijb->ija", m, v)`: each 2 x 2 matrix m[i] applied to the vectors v[i, j],
    with einsum's arithmetic (0 plus the two products, in order: the same values and signed
    zeros) at a fraction of its cost on the small arrays here."""
    out = np.empty(v.shape)
    v0, v1 = v[..., 0], v[..., 1]
    out[..., 0] = 0.0 + m[:, None, 0, 0] * v0 + m[:, None, 0, 1] * v1
    out[..., 1] = 0.0 + m[:, None, 1, 0] * v0 + m[:, None, 1, 1] * v1
    return out


def _norm(x: np.ndarray, axis: int) -> np.ndarray:
    """`np.linalg.norm(x, axis=axis)` of a real array, as it computes it, without its checks."""
    return np.sqrt(np.add.reduce(x * x, axis=axis))


def _round_cell(q: float, r: float) -> tuple[int, int]:
    """`axial_round` of one point (the same cell), without array overhead."""
    s = -q - r
    if not (abs(q) < 1e15 and abs(r) < 1e15):   # not finite, or beyond exact rounding here
        a = axial_round(np.array([q, r]))[0]
        return int(a[0]), int(a[1])
    rq, rr, rs = float(round(q)), float(round(r)), float(round(s))
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def _unit(a: float) -> np.ndarray:
    return np.array([math.cos(a), math.sin(a)])


def _angle_diff(a: float, b: float) -> float:
    return float((a - b + math.pi) % (2.0 * math.pi) - math.pi)


BRIDGE_SD = 0.35      # a card beyond a gap is placed only where the layout's map is this sure
                      # of its cell (standard error, steps): a whole step off is then more
                      # than twice that either way
BRIDGE_JITTER = 0.05  # each placed card's centre taken this far off its cell at least (steps)


def _bridge(cells: dict[int, tuple[int, int]], centres: np.ndarray, steps: np.ndarray,
            dist: np.ndarray, vecs: dict[int, np.ndarray], metric: bool, min_cards: int = 6,
            max_fit: float = 0.12, max_off: float = 0.15
            ) -> list[tuple[int, tuple[int, int], int]] | None:
    """Unplaced cards the map from the placed cards' (provisional) cells to their plane
    centres puts within `max_off` steps of a cell, where its standard error there is within
    BRIDGE_SD of a step: (card, cell, nearest placed card), best first. On a `metric` plane (a
    calibrated table) the map is the regular lattice (`fit_regular`: one step length and one
    turn, which a few cards fix); on the picture, the homography (`fit_projective`, exact for
    a pinhole camera whatever the tilt, but its perspective is poorly fixed by a small group
    of cards and carries a far cell a step or more off). None when fewer than `min_cards` are
    placed or the map misses one of them by more than `max_fit` steps (then the layout is not
    one flat lattice the map can extend). `steps` is each card's lattice step in plane units,
    `dist` grow_lattice's card distances, `vecs` each placed card's plane vectors of one step
    along provisional axes 0 and 1."""
    placed = sorted(cells)
    if len(placed) < min_cards:
        return None
    src = np.array([cells[i] for i in placed], np.float64)
    dst = centres[placed]
    e_q = np.array([vecs[i][0] for i in placed])
    e_r = np.array([vecs[i][1] for i in placed])
    fitted: RegularLattice | ProjectiveLattice | None = (
        fit_regular(src, dst, e_q.mean(0), e_r.mean(0), BRIDGE_JITTER) if metric
        else fit_projective(src, dst, e_q, e_r, BRIDGE_JITTER))
    if fitted is None:
        return None
    if (np.linalg.norm(fitted.centres(src) - dst, axis=1) / steps[placed]).max() > max_fit:
        return None
    rest = np.array([j for j in range(len(centres)) if j not in cells], np.int64)
    frac = fitted.fractional(centres[rest])
    finite = np.isfinite(frac).all(1)
    frac = np.where(finite[:, None], frac, 0.0)
    cell = axial_round(frac)
    du = frac - cell
    off = np.hypot(du[:, 0] + 0.5 * du[:, 1], SQRT3 / 2.0 * du[:, 1])
    sd = fitted.spread(cell.astype(np.float64))
    if isinstance(fitted, ProjectiveLattice):   # (plane units: in the map's own step there)
        sd = sd / np.maximum(np.linalg.norm(fitted.axes(cell)[:, 0], axis=1), 1e-9)
    near = np.array(placed)[np.argmin(dist[np.ix_(placed, rest)], axis=0)]
    order = np.argsort(off)
    return [(int(rest[m]), (int(cell[m, 0]), int(cell[m, 1])), int(near[m])) for m in order
            if finite[m] and off[m] <= max_off and sd[m] <= BRIDGE_SD]


_ROT = ((1, 0, 0, 1), (1, 1, -1, 0), (0, 1, -1, -1), (-1, 0, 0, -1), (-1, -1, 1, 0), (0, -1, 1, 1))
# provisional steps (a, b) turned by -60°·k: (r0·a + r1·b, r2·a + r3·b) for r = _ROT[k]


def _median(values: np.ndarray) -> float:
    """`np.median` of a non-empty 1-D array (the same value), without its overhead."""
    v = sorted(values.tolist())
    if any(x != x for x in v):
        return float(np.median(values))
    h = len(v) // 2
    return v[h] if len(v) % 2 else (v[h - 1] + v[h]) / 2.0


def _split(items: list, rows: np.ndarray, n: int) -> list[list]:
    """`items` (one per entry, rows ascending as `np.nonzero` gives them) grouped by row."""
    ends = np.searchsorted(rows, np.arange(n + 1)).tolist()
    return [items[a:b] for a, b in itertools.pairwise(ends)]


# The lattice spacing, in apothems, is the median of the cards' nearest-neighbour distances
# between these bounds (2.0 where none lies between them: cards side by side are 2 apothems
# apart). Cards overlapping a little come nearer than 2; players leave gaps, and loosely laid
# cards a third or even half a card apart still lie on a lattice, only a wider one. Measured
# against the spacing of cards side by side, such a layout's neighbours fall between two steps
# and are left out, while a card three of its steps away is a whole number of the narrower
# steps off and is placed at a wrong cell: held-out tables of 20 cards laid 10-45 % of a card
# apart (jittered by 0.12 of a card, turned up to 15°), seeds 0-19, read 2 cards at wrong cells
# and 1 false card when the bound stood at 2.6 (a gap of 30 %); 0 with MAX_SPACING (a gap of
# 65 %), and 5 more cards right. Laid 20-60 % apart and turned up to 20°: 4 wrong and 2 false,
# then 1 and 0, and 40 more cards right.
MIN_SPACING = 1.7
MAX_SPACING = 3.3
# Cards laid by hand lie unevenly apart, each against one neighbour with a gap of its own. A hop
# of several steps across cards the growth has not placed then spans uneven steps, and measured
# at the table's median spacing it can round to a step more or fewer: a wrong cell. Such a hop
# is taken only where measured at the spacings' SPREAD_PERCENTILES (the least and the greatest
# below SPREAD_MIN_CARDS cards) it rounds to the same steps; otherwise the card is left off the
# lattice (listed apart) or reached by shorter hops. Crafted tables of 16 cards laid one by one
# against a placed card with gaps of 0 to G of a card (steps turned up to 3°), 30 tables each:
# G = 0.5: 9 cards at wrong cells before, 1 after (398 read right, 408 before); G = 0.6: 17 and
# 4; G = 0.7: 31 and 6; G = 0.25: 475 of 480 right, none wrong, before and after. Hard 0-699 and
# never-seen hard 12000-14699 read the same.
SPREAD_PERCENTILES = (10.0, 90.0)
SPREAD_MIN_CARDS = 5
# A card is placed only where every placed card near it predicts the same cell for it, each
# whose prediction misses a lattice point by SURE_MISFIT of a step at most: a prediction off
# by nearly half a step lies between two cells and says nothing either way. At 0.5 such a
# prediction, from a card two steps off across uneven gaps, left cards laid by hand off the
# lattice: held-out `laid` 0-39 786 of 800 (the 14 listed apart, the referee waiting on 9
# tables), 796 now; with gaps to half a card (`laid=0.5`) 676 -> 711 read, still 0 misreads and
# the 1 false card; crafted tables laid card by card (see SPREAD_PERCENTILES) with gaps to 50 %:
# 398 -> 414 right and 1 -> 0 at a wrong cell, to 60 %: 341 -> 362 and 4 wrong either way, to
# 25 %: unchanged. At 0.4: `laid` 798, but `laid=0.5` read 1 misread and 2 false cards.
SURE_MISFIT = 0.45
# Cards laid by hand drift: a card two or more steps off predicts a card nearly halfway between
# two cells, on the far side of SURE_MISFIT's bound, while the cards beside it agree. Such a
# prediction is outvoted where it lies within SPLIT_OFF steps of the cell the others agree on
# (a prediction of another cell misses that cell by 1 - SURE_MISFIT = 0.55 steps at least) and
# comes from no adjacent card, where the predictions agreeing number at least SPLIT_VOTES times
# those split so, and SPLIT_NEAR adjacent cards agree, each both ways within SPLIT_NEAR_MISFIT
# of a step (the cards beside it, not only those beyond a gap, place it there).
SPLIT_OFF = 0.65
SPLIT_VOTES = 3
SPLIT_NEAR = 2
SPLIT_NEAR_MISFIT = 0.3


def _outvoted(split: list[tuple[int, int, int, tuple[int, int], tuple[int, int]]],
              agree: list[tuple[int, int, tuple[int, int]]], cell: tuple[int, int],
              frac: np.ndarray, resid: np.ndarray) -> bool:
    """Whether the predictions `split` from a card being placed at `cell` (each: the card
    predicting, the card predicted, the predicting card's turn, its cell and the predicted
    card's) are outvoted by those that meet it (`agree`, each: the card predicting, the card
    predicted and the other card's cell): see SPLIT_OFF. `frac` and `resid` are the cards'
    steps to one another in their provisional frames and how far those miss a lattice point
    (`grow_lattice`)."""
    if len(agree) < SPLIT_VOTES * len(split):
        return False
    # (the cards beside it, each by its own word both ways: a card agreeing one way only, or
    # missing the cell by more either way, is no such card)
    worst: dict[tuple[int, int], float] = {}
    for a, b, at in agree:
        worst[at] = max(worst.get(at, 0.0), float(resid[a, b]))
    for _, _, _, at, want in split:
        worst[want if at == cell else at] = math.inf
    near = sum(axial_distance(cell, at) <= 1 and w <= SPLIT_NEAR_MISFIT for at, w in worst.items())
    if near < SPLIT_NEAR:
        return False
    for a, b, k, at, want in split:
        if axial_distance(at, want) <= 1:
            return False   # (an adjacent card's word is never outvoted)
        dq, dr = want[0] - at[0], want[1] - at[1]
        r0, r1, r2, r3 = _ROT[k % 6]
        fa, fb = float(frac[a, b, 0]), float(frac[a, b, 1])
        du0 = r0 * fa + r1 * fb - dq
        du1 = r2 * fa + r3 * fb - dr
        if math.hypot(du0 + 0.5 * du1, SQRT3 / 2.0 * du1) > SPLIT_OFF:
            return False
    return True


def grow_lattice(frames: list[CardFrame] | tuple[CardFrame, ...], view: TableView,
                 max_offset: float = 0.3, max_turn_deg: float = 10.0,
                 max_steps: int = 4, origin: int | None = None,
                 sized: list[bool] | None = None) -> GrownLattice:
    """Cells of cards by local lattice growth (see the comment above), from card `origin`
    (default: the card nearest the centroid). `sized` (one flag per card, default all): the
    cards whose fitted size is trusted for the lattice spacing, in their own apothems (a card
    whose outline its symbols bit into is fitted a few per cent small, which would stretch
    the spacing every other card's steps are predicted with); all cards when none is."""
    frames = tuple(frames)
    centres = np.array([f.centre for f in frames], np.float64).reshape(-1, 2)
    n = len(centres)
    if not n:
        raise IndexError("grow_lattice needs at least one card")
    smat = np.array([f.s for f in frames], np.float64).reshape(-1, 2, 2)
    apothems = np.sqrt(np.abs(np.linalg.det(smat)))
    phi = np.array([f.phi for f in frames])
    basis = np.empty((n, 2, 2))                           # n x 2 x 2, columns e1, e2
    basis[:, 0, 0], basis[:, 1, 0] = np.cos(phi), np.sin(phi)
    basis[:, 0, 1], basis[:, 1, 1] = np.cos(phi + math.pi / 3.0), np.sin(phi + math.pi / 3.0)
    inv = np.linalg.inv(np.concatenate([smat, basis]))   # one call, each matrix its own
    sinv, binv = inv[:n], inv[n:]
    # w[i, j]: card j's centre seen from card i, in card i's rectified frame, in apothems,
    # scaled by the two cards' mean size as the table's plane gives it (`cards.plane_sizes`,
    # fitted to the trusted cards: a card's own outline may be fitted a little off; bounded
    # to what the size check lets a card's own size differ from its neighbours', so that no
    # poor fit bends a hop further than its own outline would): the hop runs half across each
    # card, and under a steep view a card nearer the camera is larger (in i's apothems alone a
    # hop to a larger card is too long, two or three such hops a whole step off; on a flat
    # view the plane's sizes are all about one). The spacing stays measured in each card's
    # own apothems (`own`), as the poses it predicts are
    w = _apply(sinv, centres[None, :, :] - centres[:, None, :])
    own = _norm(w, 2)
    np.fill_diagonal(own, np.inf)
    nearest = own.min(1) if n > 1 else np.array([np.inf])
    size = plane_sizes(centres, apothems, sized if sized is not None and any(sized) else None)
    if size is not None:
        size = np.clip(size, 0.8 * apothems, 1.25 * apothems)
        w *= (2.0 * size[:, None] / (size[:, None] + size[None, :]))[:, :, None]
    dist = _norm(w, 2)
    np.fill_diagonal(dist, np.inf)
    if sized is not None and any(sized):   # the spacing from the trusted sizes only
        nearest = nearest[np.array(sized, bool)]
    near = nearest[(nearest > MIN_SPACING) & (nearest < MAX_SPACING)]
    rho = _median(near) if len(near) else 2.0
    max_turn = math.radians(max_turn_deg)

    centroid = centres.mean(0)
    dc = _norm(centres - centroid, 1)
    if origin is None:
        order = np.lexsort((centres[:, 0], centres[:, 1], np.round(dc / (0.1 * rho * _median(
            apothems)))))
        origin = int(order[0])
    beta: dict[int, float] = {}                    # rectified angle of provisional direction 0
    turns: dict[int, int] = {}                     # beta = phi + 60°·turns
    cells: dict[int, tuple[int, int]] = {}
    taken: dict[tuple[int, int], int] = {}
    # every card seen from every card, in the frame where provisional direction 0 is the card's
    # own phi: steps (n x n x 2), misfit in steps, hop length; a card whose direction 0 is turned
    # by k·60° sees the same vector at the steps turned by -k·60° (same misfit)
    frac = _apply(binv, w) / rho
    step0 = axial_round(frac.reshape(-1, 2)).reshape(n, n, 2)
    resid = _norm(_apply(basis, frac - step0), 2)
    n_steps = (np.abs(step0[..., 0]) + np.abs(step0[..., 1]) + np.abs(step0.sum(2))) // 2
    reach = (dist <= (max_steps + 0.5) * rho) & (n_steps >= 1) & (resid <= max_offset)
    # a hop of two steps or more is taken only where its steps do not hang on the spacing
    # (`SPREAD_PERCENTILES`): measured at the narrow and at the wide end of the spacings the
    # cards lie at, it rounds to the same steps
    if len(near) >= 2:
        low, high = SPREAD_PERCENTILES if len(near) >= SPREAD_MIN_CARDS else (0.0, 100.0)
        for spacing in np.percentile(near, [low, high]).tolist():
            other = axial_round((frac * (rho / spacing)).reshape(-1, 2)).reshape(n, n, 2)
            reach &= ~((n_steps >= 2) & (other != step0).any(axis=2))
    # the same as plain Python values: the growth below looks at them one at a time
    step_q, step_r = step0[..., 0].tolist(), step0[..., 1].tolist()
    sure = (resid <= SURE_MISFIT).tolist()                 # sure[i][j]: a misfit to heed
    jj, qq = np.nonzero((dist <= 2.5 * rho).T)
    around = _split(qq.tolist(), jj, n)                    # around[j]: q with dist[q, j] near
    ii, jj = np.nonzero(reach)
    cost = resid[ii, jj] + 0.15 * (n_steps[ii, jj] - 1)   # heap entries: hops from i, by i
    hops = _split(list(zip(cost.tolist(), ii.tolist(), jj.tolist(), strict=True)), ii, n)
    phi_l = phi.tolist()
    s_l = [f.s for f in frames]
    sinv_l = list(sinv)
    unit: dict[int, np.ndarray] = {}                # _unit(beta[i])

    def cell_of(i: int, j: int, k: int, at: tuple[int, int]) -> tuple[int, int]:
        """Provisional cell of j seen from card i turned k, i at cell `at`."""
        a, b = step_q[i][j], step_r[i][j]
        r0, r1, r2, r3 = _ROT[k % 6]
        return (at[0] + r0 * a + r1 * b, at[1] + r2 * a + r3 * b)

    def place(j: int, k: int, cell: tuple[int, int]) -> None:
        turns[j] = k % 6
        beta[j] = phi_l[j] + k * math.pi / 3.0
        unit[j] = _unit(beta[j])
        cells[j] = cell
        taken[cell] = j

    heap: list[tuple[float, int, int]] = []

    def push(i: int) -> None:
        for e in hops[i]:
            if e[2] not in cells:
                heapq.heappush(heap, e)

    def turn_to(i: int, j: int) -> int | None:
        """The turn k placing j like placed card i (i's direction 0 carried into j's frame
        must be one of j's edge normals, within `max_turn`), or None."""
        cx, cy = (sinv_l[j] @ s_l[i] @ unit[i]).tolist()
        tau = math.atan2(cy, cx)
        k = round(_angle_diff(tau, phi_l[j]) / (math.pi / 3.0))
        if abs(_angle_diff(tau, phi_l[j] + k * math.pi / 3.0)) > max_turn:
            return None
        return k

    def neighbours_agree(j: int, k: int, cell: tuple[int, int]) -> bool:
        """Whether the placed cards around j predict j at `cell` (and j them): every one of
        them, but for a prediction nearly halfway to a neighbouring cell from a card two steps
        or more off, where the others outvote it (`_outvoted`)."""
        r0, r1, r2, r3 = _ROT[k % 6]
        q_j, r_j, sure_j = step_q[j], step_r[j], sure[j]
        for q in around[j]:
            at = cells.get(q)
            if at is None:
                continue
            if sure[q][j] and cell_of(q, j, turns[q], at) != cell:
                return _outvoted(*words(j, k, cell), cell, frac, resid)
            if sure_j[q]:   # cell_of(j, q, k, cell), inline: this is the growth's inner loop
                a, b = q_j[q], r_j[q]
                if (cell[0] + r0 * a + r1 * b, cell[1] + r2 * a + r3 * b) != at:
                    return _outvoted(*words(j, k, cell), cell, frac, resid)
        return True

    def words(j: int, k: int, cell: tuple[int, int]
              ) -> tuple[list[tuple[int, int, int, tuple[int, int], tuple[int, int]]],
                         list[tuple[int, int, tuple[int, int]]]]:
        """The sure predictions between j, placed at `cell` turned k, and the placed cards
        around it, as `_outvoted` takes them: (those that split from it, those that agree)."""
        split, agree = [], []
        for q in around[j]:
            at = cells.get(q)
            if at is None:
                continue
            if sure[q][j]:
                if cell_of(q, j, turns[q], at) != cell:
                    split.append((q, j, turns[q], at, cell))
                else:
                    agree.append((q, j, at))
            if sure[j][q]:
                if cell_of(j, q, k, cell) != at:
                    split.append((j, q, k, cell, at))
                else:
                    agree.append((j, q, at))
        return split, agree

    def grow() -> None:
        while heap:
            _, i, j = heapq.heappop(heap)
            if j in cells:
                continue
            cell = cell_of(i, j, turns[i], cells[i])
            if cell in taken:
                continue
            # j's own orientation must match i's direction 0 carried into j's frame
            k = turn_to(i, j)
            if k is None:
                continue
            # j, seen in its own frame, must see i where i is: a long hop across a gap is where a
            # frame's error (perspective, a card's outline cut by a hand) grows to a whole step
            if cell_of(j, i, k, cell) != cells[i]:
                continue
            # every placed card around j must predict the same cell (and j them)
            if not neighbours_agree(j, k, cell):
                continue
            place(j, k, cell)
            push(j)

    place(origin, 0, (0, 0))
    push(origin)
    grow()
    # A card beyond a gap (an arm lying across the layout) that the hops above could not place
    # (each card's own frame is only locally right: a long hop's error grows to a whole step)
    # is placed by the whole placed layout instead: the table is flat, so lattice cells map to
    # the plane by one regular lattice on a calibrated table and by one homography on the
    # picture (exact for a pinhole camera whatever the tilt). Only when that map fits every
    # placed card closely, is sure of the card's cell and puts the card squarely on it (a
    # free cell), turned like its nearest placed card and agreeing with its neighbours; the
    # growth then goes on from it.
    metric = view.calibrated and view.table is not None
    while len(cells) < n:
        # plane vectors of one step along provisional axes 0 and 1 at each placed card
        vecs = {i: rho * np.stack([smat[i] @ _unit(beta[i]),
                                   smat[i] @ _unit(beta[i] + math.pi / 3.0)]) for i in cells}
        found = _bridge(cells, centres, apothems * rho, dist, vecs, metric)
        if found is None:
            break
        placed_any = False
        for j, cell, i in found:
            if cell in taken or j in cells:
                continue
            k = turn_to(i, j)
            if k is None or not neighbours_agree(j, k, cell):
                continue
            place(j, k, cell)
            push(j)
            grow()
            placed_any = True
            break
        if not placed_any:
            break

    # image-E: the provisional direction whose image direction, averaged over the cards, is
    # nearest to image-right; SE the one 60° clockwise of it on screen. Where two placed cards
    # are adjacent, the direction is the one between their centres as the camera shows them
    # (the projection of one lattice step, as the convention is stated); along an axis with no
    # adjacent pair, the cards' own hexagon orientations
    placed = sorted(cells)
    ks = np.arange(6) * math.pi / 3.0
    ang6 = np.array([beta[i] for i in placed])[:, None] + ks[None, :]       # placed x 6
    units = np.empty((len(placed), 6, 2))                                    # placed x 6 x 2
    units[..., 0], units[..., 1] = np.cos(ang6), np.sin(ang6)
    dirs = _apply(smat[placed], units)
    step = 0.25 * rho
    ends = view.to_image((centres[placed][:, None, :] + step * dirs).reshape(-1, 2))
    img_c = view.to_image(centres)
    img_p = img_c if len(placed) == n else view.to_image(centres[placed])
    v = ends.reshape(len(placed), 6, 2) - img_p[:, None, :]
    mean = (v / np.maximum(_norm(v, 2)[:, :, None], 1e-9)).sum(0)
    # adjacent placed pairs (i ascending, then axis k), their unit image vectors summed in order
    adj = []
    for i in placed:
        q, r = cells[i]
        for k in range(3):
            j = taken.get((q + _PROV_T[k][0], r + _PROV_T[k][1]))
            if j is not None:
                adj.append((k, i, j))
    if adj:
        _, from_i, to_j = zip(*adj, strict=True)
        d = img_c[list(to_j)] - img_c[list(from_i)]
        # |d| as np.linalg.norm gives it for one vector (a dot product each, as `matmul` does)
        norm = np.sqrt((d[:, None, :] @ d[:, :, None])[:, 0, 0])
        along = (d / np.maximum(norm, 1e-9)[:, None]).tolist()
        pairs = [[0.0, 0.0] for _ in range(6)]
        count = [0, 0, 0]
        for (k, _, _), (ux, uy) in zip(adj, along, strict=True):
            pairs[k][0] += ux
            pairs[k][1] += uy
            pairs[k + 3][0] -= ux
            pairs[k + 3][1] -= uy
            count[k] += 1
        for k in range(6):
            if count[k % 3]:
                mean[k] = pairs[k]
    ang = np.arctan2(mean[:, 1], mean[:, 0])
    k_e = int(np.argmax(np.cos(ang)))
    cw = math.sin(ang[(k_e + 1) % 6] - ang[k_e]) > 0
    k_se = (k_e + 1) % 6 if cw else (k_e - 1) % 6
    turn = 1 if k_se == (k_e + 1) % 6 else -1
    # final (q, r) -> provisional is m = [E | SE], columns the provisional steps; two adjacent
    # directions, so det m = ±1 and its inverse (det · adjugate) is whole
    (m00, m10), (m01, m11) = _PROV_T[k_e], _PROV_T[k_se]
    det = m00 * m11 - m01 * m10
    i00, i01, i10, i11 = det * m11, -det * m01, -det * m10, det * m00
    final = {i: (i00 * cells[i][0] + i01 * cells[i][1], i10 * cells[i][0] + i11 * cells[i][1])
             for i in placed}
    e_qs, e_rs = rho * dirs[:, k_e], rho * dirs[:, k_se]
    e_q = {i: e_qs[n_i] for n_i, i in enumerate(placed)}
    e_r = {i: e_rs[n_i] for n_i, i in enumerate(placed)}
    return GrownLattice(final, e_q, e_r, centres, frames, turn, rho)
