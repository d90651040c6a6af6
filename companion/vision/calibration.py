"""Table and camera calibration. The table standard is four ArUco markers (DICT_4X4_50, ids 0, 1,
2, 3 at the top-left, top-right, bottom-right and bottom-left corners of the play area, each a
square of known side, 40 mm by default). `calibrate_table` finds them and fits the homography from
the image to the table plane in millimetres (origin at the centre of marker 0, x towards marker 1,
y towards marker 3), first assuming that the marker centres form a rectangle: the rectangle's
aspect comes from the markers' own squares, so the plane is metric and cards are regular hexagons
in it. Three markers are enough (a hand or a cup on the fourth is common at a table): their
twelve corners still fix the homography and the rectangle's two sides. Markers laid by hand form
no exact rectangle and lie turned a little each; where the rectangle misses their corners by far
more than each marker fitted as its own square on one plane does (`fit_free`), that fit is
used. Markers the decoder cannot read are matched by their code among the quads it rejected
(`match_markers`) and, while fewer than three are found, among the dark blobs of a marker's
size, whose corners motion blur rounded off (`dark_markers`). Optional camera intrinsics
(`CameraCalibration`, from ChArUco views) remove lens distortion before the homography.
`TableView` is what the reader uses: image <-> plane for many points at once (identity when
there is no calibration: the camera is then assumed to look nearly straight down).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from .geometry import transform

MARKER_DICT = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
MARKER_MM = 40.0
MIN_MARKERS = 3    # of the four: three fix the homography and the rectangle's sides
MAX_RMS_SIDE = 0.1   # a fit's rms corner error above this fraction of a marker's side: inconsistent
_UNIT = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])  # marker centres, unit square


@dataclass(frozen=True)
class CharucoSpec:
    """A ChArUco calibration board; the defaults equal `companion.synth.boards.CHARUCO`, the board
    we print (vision imports no synth; the calibrate command passes the printed spec in)."""

    squares_x: int = 9
    squares_y: int = 6
    square_mm: float = 28.0
    marker_mm: float = 21.0
    dictionary: str = "DICT_5X5_100"

    def board(self):
        """The OpenCV board object."""
        import cv2

        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm,
                                      self.marker_mm, d)


# `CameraCalibration.for_size`: frames whose width-to-height ratio is within this share of the
# calibration's are the same picture scaled (1920 x 1080 and 1280 x 720, or 1640 x 1232 and
# 820 x 616 on the Pi camera); any other ratio is a mode that crops the sensor
SAME_SHAPE = 0.005


@dataclass(frozen=True)
class CameraCalibration:
    """Pinhole intrinsics and distortion coefficients (OpenCV model) for one image size."""

    matrix: tuple[tuple[float, ...], ...]
    distortion: tuple[float, ...]
    image_size: tuple[int, int]
    rms_px: float = 0.0

    @property
    def k(self) -> np.ndarray:
        return np.asarray(self.matrix, np.float64)

    @property
    def dist(self) -> np.ndarray:
        return np.asarray(self.distortion, np.float64)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Image points (N x 2) with lens distortion removed (still in pixels)."""
        import cv2

        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.k, self.dist, P=self.k).reshape(-1, 2)

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Ideal pixel points (N x 2) as the real, distorting lens shows them."""
        import cv2

        pts = np.asarray(points, np.float64).reshape(-1, 2)
        rays = np.linalg.solve(self.k, np.c_[pts, np.ones(len(pts))].T).T
        out, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), self.k,
                                   self.dist)
        return out.reshape(-1, 2)

    def for_size(self, width: int, height: int) -> CameraCalibration | None:
        """These intrinsics for frames `width` x `height` px: themselves at their own size; for
        the same picture scaled (the camera's other output size of the same shape, within
        SAME_SHAPE), the focal lengths and principal point scaled with it (pixel centres on
        pixel centres; the distortion, a function of the normalised image point, unchanged);
        None for frames of another shape (a mode that crops the sensor: the lens correction
        would be laid off centre)."""
        w0, h0 = self.image_size
        if (width, height) == (w0, h0):
            return self
        if w0 <= 0 or h0 <= 0 or abs((width / height) / (w0 / h0) - 1.0) > SAME_SHAPE:
            return None
        sx, sy = width / w0, height / h0
        k = self.k
        matrix = ((k[0, 0] * sx, k[0, 1] * sx, (k[0, 2] + 0.5) * sx - 0.5),
                  (0.0, k[1, 1] * sy, (k[1, 2] + 0.5) * sy - 0.5),
                  (0.0, 0.0, 1.0))
        return CameraCalibration(tuple(tuple(float(v) for v in r) for r in matrix),
                                 self.distortion, (width, height), self.rms_px * sx)

    def to_json(self) -> dict:
        return {"matrix": [list(r) for r in self.matrix], "distortion": list(self.distortion),
                "image_size": list(self.image_size), "rms_px": self.rms_px}

    @classmethod
    def from_json(cls, data: dict) -> CameraCalibration:
        return cls(tuple(tuple(float(v) for v in r) for r in data["matrix"]),
                   tuple(float(v) for v in data["distortion"]),
                   (int(data["image_size"][0]), int(data["image_size"][1])),
                   float(data.get("rms_px", 0.0)))


@dataclass(frozen=True)
class TableCalibration:
    """Homography from (undistorted) image pixels to the table plane in millimetres."""

    homography: tuple[tuple[float, ...], ...]
    play_area_mm: tuple[float, float]
    marker_mm: float = MARKER_MM
    rms_px: float = 0.0
    camera: CameraCalibration | None = None
    markers: tuple[int, ...] = MARKER_IDS   # the marker ids the fit used (three or four)

    @property
    def h(self) -> np.ndarray:
        return np.asarray(self.homography, np.float64)

    @property
    def marker_centres_mm(self) -> np.ndarray:
        """The four markers' centres in the plane (ids 0-3: the play area's corners), 4 x 2."""
        return _UNIT * np.asarray(self.play_area_mm, np.float64)

    @property
    def complete(self) -> bool:
        """Whether all four markers were used."""
        return len(self.markers) == len(MARKER_IDS)

    def to_json(self) -> dict:
        return {"homography": [list(r) for r in self.homography],
                "play_area_mm": list(self.play_area_mm), "marker_mm": self.marker_mm,
                "rms_px": self.rms_px,
                "camera": self.camera.to_json() if self.camera else None,
                "markers": list(self.markers)}

    @classmethod
    def from_json(cls, data: dict) -> TableCalibration:
        cam = data.get("camera")
        return cls(tuple(tuple(float(v) for v in r) for r in data["homography"]),
                   (float(data["play_area_mm"][0]), float(data["play_area_mm"][1])),
                   float(data.get("marker_mm", MARKER_MM)), float(data.get("rms_px", 0.0)),
                   CameraCalibration.from_json(cam) if cam else None,
                   tuple(int(i) for i in data.get("markers", MARKER_IDS)))


@dataclass(frozen=True)
class TableView:
    """Image <-> plane mapping used by the reader (plane = image pixels when uncalibrated)."""

    table: TableCalibration | None = None
    camera: CameraCalibration | None = None
    _h: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    _hinv: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        h = None if self.table is None else self.table.h
        object.__setattr__(self, "_h", h)
        object.__setattr__(self, "_hinv", None if h is None else np.linalg.inv(h))

    @property
    def calibrated(self) -> bool:
        return self.table is not None

    def to_plane(self, image_pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(image_pts, np.float64).reshape(-1, 2)
        if self.camera is not None:
            pts = self.camera.undistort(pts)
        return transform(pts, self._h)

    def to_image(self, plane_pts: np.ndarray) -> np.ndarray:
        pts = transform(plane_pts, self._hinv)
        if self.camera is not None:
            pts = self.camera.distort(pts)
        return pts


def _dictionary(name: str = MARKER_DICT):
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def _table_dictionary():
    """DICT_4X4_50 cut down to the table's ids 0-3 (`aruco_match.sub_dictionary`: a quad
    decodes as its index here, which is its id; one that decoded to another id is now among the
    rejected quads, which `match_markers` tests against the table codes as any other)."""
    from .aruco_match import sub_dictionary

    return sub_dictionary(_dictionary(), tuple(MARKER_IDS))


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Table markers found in `image`: id -> 4 x 2 corners (ArUco order, clockwise from the
    marker's own top-left), sub-pixel refined. Only ids 0-3 are decoded. Markers no pass could
    decode are looked for among the quads the passes rejected, by their code
    (`match_markers`), and while fewer than three are found, among the dark blobs of a
    marker's size (`dark_markers`)."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 3
    table = _table_dictionary()
    detector = cv2.aruco.ArucoDetector(table, params)
    # Motion blur of about one module smears a marker's corners and flips a bit or two: a
    # last pass accepts one corrected bit (ids 0-3 of a 50-word dictionary stay far apart; a
    # misread quad's corners would not fit the others' squares, see `calibrate_table`),
    # rounder outlines, bits read from their modules' middles and
    # finer threshold windows.
    relaxed = cv2.aruco.DetectorParameters()
    relaxed.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    relaxed.cornerRefinementWinSize = 3
    relaxed.errorCorrectionRate = 1.0
    relaxed.polygonalApproxAccuracyRate = 0.06
    relaxed.perspectiveRemoveIgnoredMarginPerCell = 0.35
    relaxed.adaptiveThreshWinSizeMin, relaxed.adaptiveThreshWinSizeMax = 3, 33
    relaxed.adaptiveThreshWinSizeStep = 6
    blurred_detector = cv2.aruco.ArucoDetector(table, relaxed)
    found: dict[int, np.ndarray] = {}
    rejected: list[np.ndarray] = []
    sharp = None
    # as seen; then, for markers still missing, on a sharpened copy (motion blur and defocus
    # soften the module edges), on a copy upsampled 2x (small markers at a high camera), and
    # on the sharpened copy with the relaxed parameters
    for view, scale, det in ((grey, 1.0, detector), ("sharp", 1.0, detector),
                             (None, 2.0, detector), ("sharp", 1.0, blurred_detector)):
        if all(i in found for i in MARKER_IDS):
            break
        if isinstance(view, str):
            if sharp is None:
                sharp = cv2.addWeighted(grey, 2.0, cv2.GaussianBlur(grey, (0, 0), 2.0), -1.0, 0)
            view = sharp
        elif view is None:
            view = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        corners, ids, quads = det.detectMarkers(view)
        rejected += [(np.asarray(c, np.float64).reshape(4, 2) + 0.5) / scale - 0.5
                     for c in quads]
        if ids is None:
            continue
        for c, k in zip(corners, ids.ravel(), strict=True):
            i = MARKER_IDS[int(k)]              # the table dictionary's index k holds this id
            if i not in found:
                c = (np.asarray(c, np.float64).reshape(4, 2) + 0.5) / scale - 0.5
                found[i] = refine_corners(grey, c)
    missing = tuple(i for i in MARKER_IDS if i not in found)
    if missing and rejected:
        found |= match_markers(grey, rejected, missing, [*found.values()])
    missing = tuple(i for i in MARKER_IDS if i not in found)
    if len(found) < MIN_MARKERS:
        # too few for a calibration: the markers blur left without an outline (`dark_markers`)
        found |= match_markers(grey, dark_markers(grey, missing, [*found.values()]), missing,
                               [*found.values()])
    return found


DARK_WINDOW = 2.5    # `dark_quads`' threshold window, in the decoded markers' sides
DARK_CODE = 0.6      # a dark blob's quad is refined when its code correlates this well


def dark_markers(grey: np.ndarray, missing: tuple[int, ...], decoded: list[np.ndarray]
                 ) -> list[np.ndarray]:
    """Quads outlining dark blobs of a marker's size (`aruco_match.dark_quads`) whose code
    looks like a missing marker's, each with its corners refined on its edges: proposals for
    `match_markers` where the decoder found no outline at all (motion blur of about a module
    rounds a small marker's corners off: rendered hard tables, sides 20-30 px, blur 4-6 px)."""
    from .aruco_match import code_scores, code_templates, dark_quads, plausible_quads, quad_side

    if decoded:
        side = float(np.median([quad_side(c) for c in decoded]))
        sides, windows = (side / SIDE_RATIO, side * SIDE_RATIO), (round(DARK_WINDOW * side),)
    else:   # (a marker a quarter of the frame across decodes: no blur smears it that far)
        sides, windows = (8.0, min(grey.shape[:2]) / 4.0), (31, 61)
    q = plausible_quads(dark_quads(grey, sides, windows), sides)
    if not len(q):
        return []
    n = _dictionary().markerSize + 2
    flat = code_scores(grey, q, code_templates(MARKER_DICT, MARKER_IDS, n), n)
    want = np.repeat(np.isin(np.asarray(MARKER_IDS), missing), 4)
    close = np.flatnonzero(flat[:, want].max(axis=1) >= DARK_CODE)
    return [refine_corners(grey, q[k].astype(np.float64)) for k in close]


# Blurred table markers the decoder rejected (rendered hard tables, motion blur 5-6 px, defocus
# 1-2 px): their code correlates 0.76-0.96 with their own and leads the other table ids and
# the other turns by over 0.44; with border and quiet zone 0.73-0.95. Quads on cards, hands
# and cloth reach 0.9 on the code alone, but then at most 0.77 with the rings: both must hold.
MIN_CODE = 0.75      # a quad's code must correlate this well with a missing marker's...
MIN_CODE_LEAD = 0.4  # ...this much better than with another table id or another turn...
MIN_FRAMED = 0.8     # ...and with its black border and white quiet zone this well
MIN_QUIET = 0.7      # quiet zone's lightness over the border, as a share of the code's light
SIDE_RATIO = 2.0     # a matched marker's side within this factor of the decoded markers'


def match_markers(grey: np.ndarray, quads: list[np.ndarray], missing: tuple[int, ...],
                  decoded: list[np.ndarray]) -> dict[int, np.ndarray]:
    """Missing table markers among the quads the decoder rejected: id -> refined corners (ArUco
    order) for each id in `missing` that exactly one place matches clearly (`MIN_CODE`,
    `MIN_CODE_LEAD` over the other table ids and the other turns, `MIN_FRAMED`, `MIN_QUIET`)
    with a whole outline (`_whole`). A wrong match that slips through is left to
    `calibrate_table`, whose fit wants every marker's square on one rectangle."""
    from .aruco_match import (
        code_scores,
        code_templates,
        module_means,
        plausible_quads,
        quad_side,
    )

    sides = (8.0, np.inf)
    if decoded:
        # one printed size on one table: perspective alone changes a marker's side far less
        # than 2x between the play area's corners
        side = float(np.median([quad_side(c) for c in decoded]))
        sides = (side / SIDE_RATIO, side * SIDE_RATIO)
    q = plausible_quads(quads, sides)
    q = q[_whole(q)]
    if not len(q):
        return {}
    n = _dictionary().markerSize + 2
    flat = code_scores(grey, q, code_templates(MARKER_DICT, MARKER_IDS, n), n)  # (quads, id x turn)
    order = np.argsort(-flat, axis=1)
    top = flat[np.arange(len(q)), order[:, 0]]
    best, turn = np.divmod(order[:, 0], 4)
    ids = np.asarray(MARKER_IDS)[best]
    # the runner-up among every other (id, turn): another table id or another turn of this one
    lead = top - flat[np.arange(len(q)), order[:, 1]]
    keep = np.flatnonzero((top >= MIN_CODE) & (lead >= MIN_CODE_LEAD) & np.isin(ids, missing))
    if not len(keep):
        return {}
    rows = code_templates(MARKER_DICT, MARKER_IDS, n, True)[4 * best[keep] + turn[keep]]
    vals = module_means(grey, q[keep], n, True)
    framed = np.einsum("qm,qm->q", vals, rows)
    good = (framed >= MIN_FRAMED) & (_quiet(vals, rows, n) >= MIN_QUIET)
    out = {}
    for mid in missing:
        hits = [(f, np.roll(q[k], -int(turn[k]), 0).astype(np.float64))
                for k, f in zip(keep[good], framed[good], strict=True) if ids[k] == mid]
        if hits and _one_place([c for _, c in hits]):
            out[mid] = refine_corners(grey, max(hits, key=lambda h: h[0])[1])
    return out


def _quiet(vals: np.ndarray, templates: np.ndarray, modules: int) -> np.ndarray:
    """(n,) how light each quad's ring outside its border is: (ring - border) / (code's light
    modules - border), from framed module means and the framed code each is matched with. A
    printed marker lies on white paper, as light as its code's light modules (blur darkens
    those small islands more than the wide quiet zone: 0.9-1.7 on rendered hard tables); a
    code-like square drawn on a card or a cloth has no such margin."""
    c = modules + 2
    v, t = vals.reshape(-1, c, c), templates.reshape(-1, c, c)
    ring = np.ones((c, c), bool)
    ring[1:-1, 1:-1] = False
    border = np.zeros((c, c), bool)
    border[1:-1, 1:-1] = True
    border[2:-2, 2:-2] = False
    light = np.zeros_like(t, bool)
    light[:, 2:-2, 2:-2] = t[:, 2:-2, 2:-2] > 0
    dark = v[:, border].mean(axis=1)
    lit = (v * light).sum(axis=(1, 2)) / np.maximum(light.sum(axis=(1, 2)), 1)
    return (v[:, ring].mean(axis=1) - dark) / np.maximum(lit - dark, 1e-3)


def _whole(quads: np.ndarray) -> np.ndarray:
    """(n,) whether each quad's opposite sides agree within 5 % + 2 px. A marker spans a few
    degrees of the view, so perspective changes its opposite sides by a few percent, and the
    outline's corners are whole pixels; an outline cut by a shadow, a glare or a finger does
    not close on the marker's corners (the code may still match: rendered hard tables, a
    shadow across one corner put it 8 px off)."""
    d = np.linalg.norm(np.roll(quads, -1, 1) - quads, axis=2)        # (n, 4) sides
    a, b = d[:, :2], d[:, 2:]
    return np.all(np.abs(a - b) <= 0.05 * np.maximum(a, b) + 2.0, axis=1)


def _one_place(quads: list[np.ndarray]) -> bool:
    """Whether the quads (one marker's outline found by several passes) all lie within a quarter
    of a side of one another: a table has one marker of each id, so two places that both look
    like it leave it unknown."""
    from .aruco_match import quad_side

    corners = np.array(quads)
    spread = np.linalg.norm(corners - corners[:1], axis=2).max()
    return bool(spread <= 0.25 * min(quad_side(c) for c in quads))


def refine_corners(grey: np.ndarray, corners: np.ndarray, samples: int = 12,
                   even: float | None = None) -> np.ndarray:
    """Marker corners as the intersections of its four straight edges, each located at the
    half-way level between the black border and the white quiet zone along many profiles.
    Corner detectors pull a blurred convex corner inwards (here ~0.2 px, a 1 % scale error on a
    40 px marker); straight edges are unbiased under any symmetric blur. `even`: leave the
    corners as given unless the four edges' border blacks and quiet-zone whites each agree within
    this share of the contrast (one print on one paper under one light: a glare, a hand or a
    shadow over part of the marker moves the half-way level off its edges there)."""
    import cv2

    from .aruco_match import quad_side

    centre = corners.mean(0)
    side = quad_side(corners)
    reach = max(2.0, side / 12.0)            # stays within the border module and quiet zone
    t = np.linspace(0.2, 0.8, samples)
    offs = np.linspace(-reach, reach, 17)
    # the profiles lie within `reach` of the outline: sample a float copy of that patch only
    # (converting the whole frame cost ~1 ms a marker); the patch keeps a pixel beyond every
    # sample and stops at the frame's edge, so interpolation and the border are unchanged
    h, w = grey.shape[:2]
    x0, y0 = np.floor(corners.min(0) - reach - 2.0).astype(int)
    x1, y1 = np.ceil(corners.max(0) + reach + 3.0).astype(int)
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return corners
    patch = grey[y0:y1, x0:x1].astype(np.float32)
    origin = np.array([x0, y0], np.float64)
    # the four edges at once: one remap and array arithmetic instead of four rounds
    a, b = corners, np.roll(corners, -1, 0)                      # each edge's ends, (4, 2)
    d = (b - a) / np.linalg.norm(b - a, axis=1, keepdims=True)
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)
    n *= np.where(np.einsum("ij,ij->i", (a + b) / 2.0 - centre, n) < 0, -1.0, 1.0)[:, None]
    base = a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]           # (4, samples, 2)
    pts = base[:, :, None, :] + offs[None, None, :, None] * n[:, None, None, :] - origin
    prof = cv2.remap(patch, pts[..., 0].reshape(4 * samples, -1).astype(np.float32),
                     pts[..., 1].reshape(4 * samples, -1).astype(np.float32),
                     cv2.INTER_LINEAR).reshape(4, samples, -1)
    dark = np.median(prof[:, :, :3].reshape(4, -1), axis=1)[:, None]      # outward: inside...
    light = np.median(prof[:, :, -3:].reshape(4, -1), axis=1)[:, None]    # ...to quiet zone
    if np.any(light - dark < 20):
        return corners
    contrast = float(np.median(light) - np.median(dark))
    if even is not None and max(np.ptp(light), np.ptp(dark)) > even * contrast:
        return corners
    half = (dark + light) / 2.0
    above = prof >= half[..., None]
    k = np.argmax(above, axis=2)                 # first sample past half-way, inside -> out
    ok = (k > 0) & above.any(2)
    if np.any(ok.sum(axis=1) < samples // 2):
        return corners
    k = np.clip(k, 1, len(offs) - 1)
    v0 = np.take_along_axis(prof, (k - 1)[..., None], 2)[..., 0]
    v1 = np.take_along_axis(prof, k[..., None], 2)[..., 0]
    frac = (half - v0) / np.maximum(v1 - v0, 1e-6)
    edge = base + (offs[k - 1] + frac * (offs[1] - offs[0]))[..., None] * n[:, None, :]
    lines = []
    for i in range(4):
        e = edge[i][ok[i]]
        m = e.mean(0)
        val, vec = np.linalg.eigh((e - m).T @ (e - m))   # principal direction: the edge's line
        lines.append((m, vec[:, np.argmax(val)]))
    out = np.empty_like(corners)
    for i in range(4):
        (p1, d1), (p2, d2) = lines[(i - 1) % 4], lines[i]
        m2 = np.array([d1, -d2]).T
        if abs(np.linalg.det(m2)) < 1e-6:
            return corners
        u = np.linalg.solve(m2, p2 - p1)
        out[i] = p1 + u[0] * d1
    return out if np.abs(out - corners).max() < 2.0 else corners


def _ideal_corners(centres: np.ndarray, marker_mm: float) -> np.ndarray:
    """The four axis-aligned squares (16 x 2) of side marker_mm around plane `centres` (4 x 2)."""
    half = marker_mm / 2.0
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return (centres[:, None, :] + square[None]).reshape(-1, 2)


def _rotation(plane_corners: np.ndarray, ideal: np.ndarray) -> int:
    """The cyclic shift k with np.roll(ideal, -k) best matching the order of `plane_corners`."""
    errs = [np.square(np.roll(ideal, -k, 0) - plane_corners).sum() for k in range(4)]
    return int(np.argmin(errs))


def fit_table(markers: dict[int, np.ndarray], marker_mm: float = MARKER_MM,
              camera: CameraCalibration | None = None) -> TableCalibration:
    """The table homography from the markers' image corners (see module docstring), from all
    four markers or any three: the play area's width and height are found by Gauss-Newton so
    that the printed corners, through the best homography, land on the detected ones (least
    squares in pixels)."""
    import cv2

    ids = [i for i in MARKER_IDS if i in markers]
    if len(ids) < MIN_MARKERS:
        missing = [i for i in MARKER_IDS if i not in markers]
        raise ValueError(f"table markers {missing} not found: at least {MIN_MARKERS} of the "
                         f"four ids 0-3 must be visible")
    n = len(ids)
    img = np.concatenate([markers[i] for i in ids])
    if camera is not None:
        img = camera.undistort(img)
    centres_img = img.reshape(n, 4, 2).mean(1)
    unit = _UNIT[ids]
    # a first mapping image -> unit square from the marker centres (four: a homography; three:
    # an affine map, close enough to tell each marker's turn and to start the size estimate)
    if n == 4:
        h = cv2.getPerspectiveTransform(centres_img.astype(np.float32), unit.astype(np.float32))
    else:
        h = np.vstack([cv2.getAffineTransform(centres_img.astype(np.float32),
                                              unit.astype(np.float32)), [0.0, 0.0, 1.0]])
    corners_unit = transform(img, h).reshape(n, 4, 2)
    widths = np.linalg.norm(corners_unit[:, 1] - corners_unit[:, 0], axis=1).mean()
    heights = np.linalg.norm(corners_unit[:, 3] - corners_unit[:, 0], axis=1).mean()
    size = np.array([marker_mm / max(widths, 1e-9), marker_mm / max(heights, 1e-9)])
    # which corner of each printed square each detected corner is (markers may lie turned)
    plane = transform(img, h).reshape(n, 4, 2) * size
    first = _ideal_corners(unit * size, marker_mm).reshape(n, 4, 2)
    shifts = [_rotation(plane[m], first[m]) for m in range(n)]

    def residuals(sz: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ideal = _ideal_corners(unit * sz, marker_mm).reshape(n, 4, 2)
        ideal = np.concatenate([np.roll(ideal[m], -shifts[m], 0) for m in range(n)])
        to_img, _ = cv2.findHomography(ideal, img, 0)
        return (transform(ideal, to_img) - img).ravel(), to_img

    for _ in range(12):   # Gauss-Newton on the play area's size: corners' pixel error
        r0, _ = residuals(size)
        jac = np.empty((len(r0), 2))
        for k in range(2):
            step = np.zeros(2)
            step[k] = 1e-3 * size[k]
            jac[:, k] = (residuals(size + step)[0] - r0) / step[k]
        delta, *_ = np.linalg.lstsq(jac, -r0, rcond=None)
        size = size + delta
        if np.abs(delta).max() < 1e-4 * size.max():
            break
    r, to_img = residuals(size)
    h = np.linalg.inv(to_img)
    h = h / h[2, 2]
    rms = float(np.sqrt(np.square(r.reshape(-1, 2)).sum(1).mean()))
    return TableCalibration(tuple(tuple(float(v) for v in row) for row in h),
                            (float(size[0]), float(size[1])), marker_mm, rms, camera, tuple(ids))


def fit_free(markers: dict[int, np.ndarray], marker_mm: float = MARKER_MM,
             camera: CameraCalibration | None = None,
             start: TableCalibration | None = None) -> TableCalibration:
    """The table homography from markers laid by hand: each a square of side `marker_mm` on the
    table, anywhere and turned any way (not on an exact rectangle, not square with each
    other). The homography and every marker's place and turn but the first's (which fixes the
    plane's origin and axes) are fitted together by Levenberg-Marquardt so that the printed
    corners land on the detected ones (least squares in pixels), starting from the rectangle's
    fit (`start`, else `fit_table`'s). The plane is then laid as `fit_table` lays it, on the
    rectangle that fits the centres best (`_rectangle_frame`): its marker-0 corner at the
    origin, x along its side towards marker 1, y towards marker 3. Needs three markers or
    more."""
    start = start or fit_table(markers, marker_mm, camera)
    ids = list(start.markers)
    n = len(ids)
    img = np.concatenate([markers[i] for i in ids]).astype(np.float64)
    if camera is not None:
        img = camera.undistort(img)
    half = marker_mm / 2.0
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    # each marker's place and turn on the rectangle's plane, from its corners seen there
    on_plane = transform(img, start.h).reshape(n, 4, 2)
    poses = np.array([_square_pose(square, c) for c in on_plane])     # n x (x, y, turn)
    to_img = np.linalg.inv(start.h)
    to_img = to_img / to_img[2, 2]
    params = np.concatenate([to_img.ravel()[:8], poses[1:].ravel()])

    def corners(q: np.ndarray) -> np.ndarray:
        h = np.append(q[:8], 1.0).reshape(3, 3)
        pose = np.vstack([poses[:1], q[8:].reshape(n - 1, 3)])
        c, s_ = np.cos(pose[:, 2]), np.sin(pose[:, 2])
        rot = np.stack([np.stack([c, s_], -1), np.stack([-s_, c], -1)], 1)   # n x 2 x 2
        plane = np.einsum("kj,nji->nki", square, rot) + pose[:, None, :2]
        return transform(plane.reshape(-1, 2), h)

    params = _levenberg_marquardt(lambda q: (corners(q) - img).ravel(), params)
    r = (corners(params) - img).reshape(-1, 2)
    rms = float(np.sqrt(np.square(r).sum(1).mean()))
    to_img = np.append(params[:8], 1.0).reshape(3, 3)
    centres = np.vstack([poses[:1, :2], params[8:].reshape(n - 1, 3)[:, :2]])
    frame, size = _rectangle_frame(centres, _UNIT[ids])
    h = frame @ np.linalg.inv(to_img)
    h = h / h[2, 2]
    return TableCalibration(tuple(tuple(float(v) for v in row) for row in h),
                            (float(size[0]), float(size[1])), marker_mm, rms, camera, tuple(ids))


def _square_pose(square: np.ndarray, seen: np.ndarray) -> tuple[float, float, float]:
    """(x, y, turn) of `square` (4 x 2, centred) moved and turned to fit `seen` (4 x 2, the same
    corners in the same order) best in least squares (Procrustes, no scaling: the printed size
    is known). A point p of the square lands at p @ [[cos, sin], [-sin, cos]] + (x, y)."""
    centre = seen.mean(0)
    m = square.T @ (seen - centre)
    turn = math.atan2(m[0, 1] - m[1, 0], m[0, 0] + m[1, 1])
    return float(centre[0]), float(centre[1]), turn


def _levenberg_marquardt(residuals, x: np.ndarray, steps: int = 50) -> np.ndarray:
    """`x` moved to a local least-squares minimum of `residuals(x)` (a vector): Levenberg-
    Marquardt with Marquardt's scaling (the parameters differ in scale by orders of magnitude:
    a homography's perspective terms against its translation) and a forward-difference
    Jacobian."""
    r = residuals(x)
    cost = float(r @ r)
    damping = 1e-3
    for _ in range(steps):
        jac = np.empty((len(r), len(x)))
        for k in range(len(x)):
            dx = 1e-7 * max(abs(x[k]), 1e-6)
            step = x.copy()
            step[k] += dx
            jac[:, k] = (residuals(step) - r) / dx
        jtj, jtr = jac.T @ jac, jac.T @ r
        scale = np.maximum(np.diag(jtj), 1e-30)
        while True:
            delta = np.linalg.solve(jtj + damping * np.diag(scale), -jtr)
            trial = x + delta
            r_t = residuals(trial)
            c_t = float(r_t @ r_t)
            if c_t < cost:
                x, r, damping = trial, r_t, damping / 3.0
                break
            damping *= 4.0
            if damping > 1e8:
                return x
        if cost - c_t < 1e-10 * max(cost, 1e-12):
            cost = c_t
            break
        cost = c_t
    return x


def _rectangle_frame(centres: np.ndarray, unit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(3 x 3 rigid map of the plane, (width, height)): the play-area rectangle whose corners
    (`unit` times its size: marker i at the unit square's corner i) fit the marker `centres`
    best, and the map that puts it at the origin, x along its width. Width and height are the
    mean lengths of the centres' sides along each."""
    sides = {0: [], 1: []}
    for a, b in itertools.combinations(range(len(unit)), 2):
        d = unit[b] - unit[a]
        if np.count_nonzero(d) == 1:          # a side of the rectangle, not its diagonal
            sides[int(d[1] != 0)].append(float(np.linalg.norm(centres[b] - centres[a])))
    size = np.array([np.mean(sides[0]), np.mean(sides[1])])
    target = unit * size
    # the rigid map (Procrustes) taking the centres onto the rectangle's corners
    mc, mt = centres.mean(0), target.mean(0)
    u, _, vt = np.linalg.svd((centres - mc).T @ (target - mt))
    d = np.sign(np.linalg.det(u @ vt))
    rot = u @ np.diag([1.0, d]) @ vt
    frame = np.eye(3)
    frame[:2, :2] = rot.T
    frame[:2, 2] = mt - mc @ rot
    return frame, size


# Markers laid by hand (held-out tables: a third of a side off, turned up to 8 degrees) are
# missed by the rectangle's fit by 0.02-0.2 of a marker's side, and fitted each as its own
# square on one plane 10-180 times closer (0.001-0.01 of a side). A wide lens's distortion
# bends the squares themselves, which the free fit absorbs only in part (3-7 times closer):
# the rectangle, which extrapolates best, is kept there. On rendered hard tables (markers up
# to 2 mm and 4 degrees off) 10 of 700 take the free fit; 9 of them land closer to the true
# homography over the play area (at most 5.6 -> 0.5 px), one 1.3 -> 1.4 px; no reading changes.
RECT_NOISE = 0.03      # a rectangle's fit off by more than this (of a side) may be hand-laid
MAX_RMS_FREE = 0.05    # free squares must fit this well (of a side): true 40 mm squares
FREE_GAIN = 8.0        # and that many times closer than the rectangle


def calibrate_table(image: np.ndarray, marker_mm: float = MARKER_MM,
                    camera: CameraCalibration | None = None) -> TableCalibration | None:
    """The table calibration of `image`, or None when fewer than three markers are visible or
    they do not agree on one rectangle."""
    markers = {i: c for i, c in detect_markers(image).items() if i in MARKER_IDS}
    if len(markers) < MIN_MARKERS:
        return None
    # The markers' squares must agree on one plane and one printed size: corners off the fit
    # by more than a tenth of a marker's side (lens distortion alone leaves ~2 px on a 40 px
    # marker) mean one is not a true table marker (a misread quad, one of another size or
    # lifted off the table): leave it out. (A true marker merely moved along the table cannot
    # be told: any four points are some rectangle's perspective image.)
    side = float(np.mean([np.linalg.norm(np.diff(c, axis=0, append=c[:1]), axis=1).mean()
                          for c in markers.values()]))
    fits = [fit_table(markers, marker_mm, camera)]
    # Markers laid by hand lie on no exact rectangle and are turned a little each: the
    # rectangle's fit then misses their corners by several pixels and bends the plane (cards
    # stop being regular hexagons in it), where each marker fitted as its own square on one
    # plane (`fit_free`) lands within the corners' noise. Printed on one sheet or laid square,
    # the rectangle fits as well as that and is kept (it extrapolates best).
    if fits[0].rms_px > RECT_NOISE * side:
        free = fit_free(markers, marker_mm, camera, fits[0])
        if (free.rms_px <= MAX_RMS_FREE * side
                and fits[0].rms_px > FREE_GAIN * free.rms_px):
            return free
    if len(markers) > MIN_MARKERS and fits[0].rms_px > MAX_RMS_SIDE * side:
        fits = [fit_table({k: v for k, v in markers.items() if k != drop}, marker_mm, camera)
                for drop in markers]
    best = min(fits, key=lambda f: f.rms_px)
    return best if best.rms_px <= MAX_RMS_SIDE * side else None


def calibrate_camera(images: list[np.ndarray], spec: CharucoSpec | None = None
                     ) -> CameraCalibration:
    """Intrinsics from several views of a ChArUco board (at least 3 usable views)."""
    import cv2

    spec = spec or CharucoSpec()
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    obj_all, img_all = [], []
    size = None
    for image in images:
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        size = (grey.shape[1], grey.shape[0])
        ch_corners, ch_ids, _, _ = detector.detectBoard(grey)
        if ch_ids is None or len(ch_ids) < 6:
            continue
        obj, imgp = board.matchImagePoints(ch_corners, ch_ids)
        obj_all.append(obj)
        img_all.append(imgp)
    if len(obj_all) < 3 or size is None:
        raise ValueError(f"only {len(obj_all)} image(s) show the ChArUco board well enough; "
                         "take at least 3 views from different angles")
    rms, k, dist, _, _ = cv2.calibrateCamera(obj_all, img_all, size, None, None)
    return CameraCalibration(tuple(tuple(float(v) for v in r) for r in k),
                             tuple(float(v) for v in np.ravel(dist)), size, float(rms))


class Saveable(Protocol):
    """A calibration `save_json` writes: the table's or camera's here, a learned colour model,
    the Hexapod chart's inks."""

    def to_json(self) -> dict: ...


def save_json(obj: Saveable, path: str | Path) -> Path:
    """Write a calibration as JSON (creating the folder)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj.to_json(), indent=2) + "\n")
    return path


def load_camera(path: str | Path) -> CameraCalibration | None:
    """A saved camera calibration, or None if the file does not exist."""
    path = Path(path)
    return CameraCalibration.from_json(json.loads(path.read_text())) if path.is_file() else None
