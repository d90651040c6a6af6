"""Stage 2 of the Hex'el reader: fit the hex lattice to the whole cards and give each an axial cell.
The lattice orientation is the sixfold circular mean of the cards' orientations, the spacing the
median distance between neighbouring cards (two apothems when only one card is seen). Direction E
is the lattice direction nearest to image-right as seen in the camera image and SE the one 60°
clockwise of it on screen, so cells read as RULES.md's shared notation does on the image: E (+1,0),
NE (+1,-1), NW (0,-1), W (-1,0), SW (-1,+1), SE (0,+1). Origin: the card nearest the centroid of
all the cards is (0, 0) (ties broken by position: top, then left). With three or more cards the
lattice is then re-fitted (affine least squares) to absorb a small residual tilt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .calibration import TableView
from .geometry import axial_round, wrap60


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
