"""Plane geometry the reader shares between its stages: the six lattice directions in axial
coordinates (pointy-top, x right, y down, as in RULES.md "Shared notation" — re-stated here
because vision imports no rules), cube rounding, regular-hexagon polygons and the mapping of
points through a homography. Pure NumPy, vectorised over many points at once.
"""

from __future__ import annotations

import math

import numpy as np

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
SQRT3 = math.sqrt(3.0)


def axial_round(frac: np.ndarray) -> np.ndarray:
    """Nearest axial cells (N x 2 int) of fractional axial coordinates (N x 2), by cube rounding."""
    frac = np.asarray(frac, dtype=np.float64).reshape(-1, 2)
    q, r = frac[:, 0], frac[:, 1]
    s = -q - r
    rq, rr, rs = np.round(q), np.round(r), np.round(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return np.stack([rq, rr], axis=1).astype(np.int64)


def axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two axial cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hexagon(centre: np.ndarray, apothem: float, normal_angle: float) -> np.ndarray:
    """The 6 corners (6 x 2) of a regular hexagon whose edge 0 normal points at `normal_angle`."""
    corner_r = apothem * 2.0 / SQRT3
    ang = normal_angle + np.radians(30.0) - np.radians(60.0) * np.arange(6)
    return np.asarray(centre, dtype=np.float64) + corner_r * np.stack([np.cos(ang), np.sin(ang)], 1)


def wrap60(angle: np.ndarray | float) -> np.ndarray | float:
    """An angle (radians) folded into [-30°, 30°)."""
    step = math.pi / 3.0
    return (np.asarray(angle) + step / 2.0) % step - step / 2.0


def transform(points: np.ndarray, h: np.ndarray | None) -> np.ndarray:
    """Points (N x 2) mapped through homography `h` (identity when None). Each coordinate is
    worked out on whole columns (x h_i0 + y h_i1 + h_i2, over the third): NumPy's matrix
    product of an N x 2 by a 2 x 3 is several times slower for the hundred thousand points a
    symbol pose search maps, and gives the same values to within 1e-13."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if h is None:
        return pts
    x, y = pts[:, 0], pts[:, 1]
    w = x * h[2, 0] + y * h[2, 1] + h[2, 2]
    out = np.empty_like(pts)
    np.divide(x * h[0, 0] + y * h[0, 1] + h[0, 2], w, out=out[:, 0])
    np.divide(x * h[1, 0] + y * h[1, 1] + h[1, 2], w, out=out[:, 1])
    return out
