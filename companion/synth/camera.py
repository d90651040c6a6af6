"""A pinhole camera over the table plane, with OpenCV's radial distortion model.

The table frame is in millimetres, x right and y "down" as seen from above (the same handedness
as an image), z pointing into the table; the camera sits at negative z looking down. `homography`
maps table mm to *undistorted* image pixels; `project` adds lens distortion exactly as
`cv2.projectPoints` with `dist = (k1, k2, 0, 0, 0)` would, and `render_maps` gives the cv2.remap
maps that turn an undistorted rendering into the distorted image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True, eq=False)
class Camera:
    """Intrinsics (K, k1, k2), pose (R world->camera, centre C in table mm) and image size."""

    K: np.ndarray
    k1: float
    k2: float
    R: np.ndarray
    C: np.ndarray
    size: tuple[int, int]

    @property
    def dist(self) -> np.ndarray:
        """OpenCV distortion coefficients (k1, k2, p1, p2, k3)."""
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    @cached_property
    def homography(self) -> np.ndarray:
        """3x3 table-mm -> undistorted pixel homography (H[2, 2] = 1)."""
        t = -self.R @ self.C
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])
        return H / H[2, 2]

    def ideal(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table points (N, 2) mm -> undistorted pixels (N, 2)."""
        return apply_h(self.homography, pts_mm)

    def distort(self, px: np.ndarray) -> np.ndarray:
        """Undistorted pixels -> distorted (real) pixels."""
        f, c = np.array([self.K[0, 0], self.K[1, 1]]), self.K[:2, 2]
        n = (np.asarray(px, float) - c) / f
        r2 = np.minimum((n ** 2).sum(axis=-1, keepdims=True), self._r2_limit)
        return n * (1.0 + self.k1 * r2 + self.k2 * r2 ** 2) * f + c

    @cached_property
    def _r2_limit(self) -> float:
        """Squared radius beyond which the distortion factor is held constant, so that points
        far outside the view (an arm's shoulder) never fold back into it; in view the model is
        exactly OpenCV's."""
        r = np.linspace(0.0, 4.0, 4001)
        fwd = r * (1.0 + self.k1 * r ** 2 + self.k2 * r ** 4)
        bad = np.flatnonzero(np.diff(fwd) <= 0)
        return float((0.9 * r[bad[0]]) ** 2) if bad.size else 16.0

    def undistort(self, px: np.ndarray) -> np.ndarray:
        """Distorted pixels -> undistorted pixels (inverse of `distort`)."""
        f, c = np.array([self.K[0, 0], self.K[1, 1]]), self.K[:2, 2]
        n = (np.asarray(px, float) - c) / f
        rd = np.sqrt((n ** 2).sum(axis=-1, keepdims=True))
        return n * self._inverse_scale(rd) * f + c

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table points (N, 2) mm -> distorted image pixels (N, 2)."""
        return self.distort(self.ideal(pts_mm))

    def unproject(self, px: np.ndarray) -> np.ndarray:
        """Distorted image pixels -> table points (mm)."""
        return apply_h(np.linalg.inv(self.homography), self.undistort(px))

    def mm_per_px(self, pt_mm: tuple[float, float]) -> float:
        """Approximate size of one image pixel on the table around `pt_mm`."""
        p = np.array([pt_mm, (pt_mm[0] + 10.0, pt_mm[1]), (pt_mm[0], pt_mm[1] + 10.0)])
        q = self.project(p)
        d1, d2 = q[1] - q[0], q[2] - q[0]
        return 10.0 / math.sqrt(abs(d1[0] * d2[1] - d1[1] * d2[0]))

    def _inverse_scale(self, rd: np.ndarray) -> np.ndarray:
        """r_u / r_d as a function of the distorted normalised radius (1-D table lookup)."""
        if self.k1 == 0.0 and self.k2 == 0.0:
            return np.ones_like(rd)
        ru = np.linspace(0.0, 3.0, 3001)
        fwd = ru * (1.0 + self.k1 * ru ** 2 + self.k2 * ru ** 4)
        ok = np.r_[True, np.diff(fwd) > 0]
        stop = int(np.argmin(ok)) if not ok.all() else ru.size  # keep the monotonic part
        ru, fwd = ru[1:stop], fwd[1:stop]
        scale = np.interp(rd, fwd, ru / fwd, left=1.0, right=ru[-1] / fwd[-1])
        return scale.astype(rd.dtype, copy=False)

    def _inverse_scale_poly(self, rd_max: float):
        """A fast polynomial in r_d^2 for `_inverse_scale` over [0, rd_max], or None if it would
        be off by more than 0.01 px."""
        rd = np.linspace(0.0, rd_max, 400)
        target = self._inverse_scale(rd)
        for degree in range(2, 8):
            coef = np.polyfit(rd ** 2, target, degree)
            if np.abs(np.polyval(coef, rd ** 2) - target).max() * rd_max * self.K[0, 0] < 0.01:
                break
        else:
            return None
        coef = coef.astype(np.float32)

        def scale(r2: np.ndarray) -> np.ndarray:
            out = np.full_like(r2, coef[0])
            for c in coef[1:]:
                out *= r2
                out += c
            return out

        return scale

    def render_maps(self, offset: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps (float32, image size): for each output (distorted) pixel, where it lies
        in an undistorted rendering whose pixel (0, 0) is the ideal pixel -offset."""
        w, h = self.size
        f, c = np.array([self.K[0, 0], self.K[1, 1]]), self.K[:2, 2]
        xs = ((np.arange(w, dtype=np.float32) - c[0]) / f[0])[None, :]
        ys = ((np.arange(h, dtype=np.float32) - c[1]) / f[1])[:, None]
        r2 = xs * xs + ys * ys
        s = self._inverse_scale_poly(float(np.sqrt(r2.max())))
        s = s(r2) if s is not None else self._inverse_scale(np.sqrt(r2))
        return ((xs * s) * f[0] + (c[0] + offset[0])).astype(np.float32), \
            ((ys * s) * f[1] + (c[1] + offset[1])).astype(np.float32)


def apply_h(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply homography H to points (N, 2)."""
    pts = np.asarray(pts, float).reshape(-1, 2)
    q = np.c_[pts, np.ones(len(pts))] @ np.asarray(H, float).T
    return q[:, :2] / q[:, 2:3]


def look_at(target: np.ndarray, height_mm: float, tilt_deg: float, azimuth_deg: float,
            yaw_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """(R, C): a camera `height_mm` above the table looking at `target` (table mm), its axis
    tilted `tilt_deg` from straight down towards azimuth `azimuth_deg`, and turned about its
    axis by `yaw_deg` (0 = image x along table x when looking straight down)."""
    tilt, az, yaw = (math.radians(v) for v in (tilt_deg, azimuth_deg, yaw_deg))
    v = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)])
    C = np.array([target[0], target[1], 0.0]) - v * (height_mm / math.cos(tilt))
    a = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    x = a - (a @ v) * v
    if np.linalg.norm(x) < 1e-6:  # yaw along the tilt: fall back to a perpendicular
        x = np.cross(v, np.array([0.0, 0.0, 1.0]))
    x /= np.linalg.norm(x)
    y = np.cross(v, x)
    return np.vstack([x, y, v]), C


def fit_camera(points_mm: np.ndarray, size: tuple[int, int], height_mm: float, tilt_deg: float,
               azimuth_deg: float, yaw_deg: float, fill: float, distortion: float,
               target: np.ndarray | None = None) -> Camera:
    """A camera whose focal length makes `points_mm` span `fill` of the frame (the tighter of
    width and height), with barrel (< 0) or pincushion (> 0) `distortion` given as the relative
    radial displacement at the image corner."""
    pts = np.asarray(points_mm, float)
    if target is None:
        target = (pts.min(axis=0) + pts.max(axis=0)) / 2.0
    R, C = look_at(np.asarray(target, float), height_mm, tilt_deg, azimuth_deg, yaw_deg)
    cam = (np.c_[pts, np.zeros(len(pts))] - C) @ R.T
    n = cam[:, :2] / cam[:, 2:3]
    w, h = size
    f = min(w / 2.0 * fill / max(np.abs(n[:, 0]).max(), 1e-9),
            h / 2.0 * fill / max(np.abs(n[:, 1]).max(), 1e-9))
    K = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
    r_corner2 = ((w / 2.0) ** 2 + (h / 2.0) ** 2) / f ** 2
    return Camera(K, distortion / r_corner2, 0.0, R, C, (int(w), int(h)))
