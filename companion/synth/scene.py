"""Synthetic Hex'el table scenes with exact ground truth, deterministic by seed.

A scene is a list of `SceneCard`s (table cell, card symbols, rotation k: the symbol facing table
direction d is symbols[(d - k) % 6]) laid as printed faces on a hex lattice (centre spacing =
flat-to-flat + gap, with human placement jitter), four ArUco markers (ids 0-3 at the play area's
top-left, top-right, bottom-right and bottom-left corners) unless omitted, a table surface, and a
pinhole camera fitted over it. `SceneParams` holds every physical choice; `sample_params(seed,
band)` draws them from a difficulty band ("topdown" clean, "easy", "hard"). `render_scene` warps
each texture into the undistorted view, applies lens distortion with one remap, then hands,
light, glare, blur, noise and JPEG. `SceneTruth` gives, per card, its table cell, its symbols as
they appear in the image (by the image-aligned lattice's directions E..SE, where image-E is the
table lattice direction whose projection is nearest to image-right), its cell in that lattice,
its image polygon, centre and visible fraction; plus marker corners, the table-mm -> image
homography (undistorted) and the camera intrinsics and distortion.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from ..faces import HEXEL_FACE, SYMBOLS, corner_direction
from . import effects, surfaces
from .boards import QUIET_ZONE_MODULES, marker_image
from .camera import Camera, apply_h, fit_camera
from .cardface import FacePainter, Palette, face_atlas, face_centre

BANDS = ("topdown", "easy", "hard")
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
TEXTURE_WIDTHS = (40, 56, 72, 96, 128, 160, 192, 256)
MARKER_INK = (28, 28, 32)


@dataclass(frozen=True)
class SceneCard:
    """A card on the table: axial cell (table lattice), its own symbols and rotation k."""

    cell: tuple[int, int]
    symbols: str
    rotation: int = 0


def orient(symbols: str, rotation: int) -> str:
    """Symbols by table direction E..SE of a card placed at `rotation` (as the rules engine)."""
    k = rotation % 6
    return symbols[6 - k:] + symbols[:6 - k] if k else symbols


def rotate_cell(cell: tuple[int, int], k: int) -> tuple[int, int]:
    """Rotate an axial cell by k steps of 60 degrees counter-clockwise (direction d -> d + k)."""
    q, r = cell
    for _ in range(k % 6):
        q, r = q + r, -q
    return (q, r)


@dataclass(frozen=True)
class SceneParams:
    """Every physical choice of one scene (lengths in mm, angles in degrees)."""

    seed: int = 0
    band: str = "topdown"
    width: int = 1280
    height: int = 720
    # layout
    gap_mm: float = 2.0
    jitter_mm: float = 0.0
    jitter_deg: float = 0.0
    markers: bool = True
    marker_mm: float = 40.0
    # camera
    height_mm: float = 900.0
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    yaw_deg: float = 0.0
    fill: float = 0.8
    hfov_deg: float = 0.0  # lens horizontal field of view; 0: focal length fitted to the area
    distortion: float = 0.0  # relative radial displacement at the image corner (< 0 barrel)
    target_jitter: float = 0.0
    # table and print
    surface: str = "felt"
    surface_variant: int = 0
    surface_mm_per_px: float = 0.6
    surface_angle_deg: float = 0.0
    print_variation: float = 0.0
    miscut_mm: float = 0.0  # the cut misses the printed design by up to this (bleed shows)
    # light
    exposure: float = 1.0
    colour_temp_k: float = 6500.0
    wb_correction: float = 1.0
    gradient: float = 0.0
    vignette: float = 0.0
    shadows: int = 0
    shadow_depth: float = 0.0
    glare_spots: int = 0
    glare_strength: float = 0.0
    # optics and sensor
    defocus_px: float = 0.0
    motion_px: float = 0.0
    motion_deg: float = 0.0
    read_noise: float = 0.0
    shot_noise: float = 0.0
    jpeg_quality: int = 0  # 0 = no JPEG
    crosstalk: float = 0.0  # colour mixing of another sensor (0 = none)
    sharpen: float = 0.0    # unsharp masking of the camera's pipeline
    hands: int = 0


def sample_params(seed: int, band: str = "easy", width: int = 1280, height: int = 720
                  ) -> SceneParams:
    """Scene parameters drawn from difficulty `band` by `seed` ("topdown": clean, camera
    straight down, table axes along the image's; "easy": tilt < 10 deg, no occluders, mild
    light; "hard": every effect at full range)."""
    if band not in BANDS:
        raise ValueError(f"unknown band {band!r}: choose from {', '.join(BANDS)}")
    base = SceneParams(seed=seed, band=band, width=width, height=height)
    if band == "topdown":
        return base
    rng = np.random.default_rng([int(seed), BANDS.index(band), 1])
    u = rng.uniform
    hard = band == "hard"
    kind = surfaces.KINDS[int(rng.integers(len(surfaces.KINDS)))]
    return replace(
        base,
        gap_mm=u(1.5, 4.0), jitter_mm=u(1.0, 3.0), jitter_deg=u(1.0, 4.0),
        markers=bool(rng.random() < (0.9 if hard else 1.0)),
        height_mm=u(600, 1200), tilt_deg=u(0, 35) if hard else u(0, 9.5),
        tilt_azimuth_deg=u(0, 360),
        # people square a camera roughly with the table; sometimes not at all
        yaw_deg=(90.0 * int(rng.integers(4)) + rng.normal(0, 10)) % 360 if rng.random() < 0.6
        else u(0, 360),
        fill=u(0.6, 1.0) if hard else u(0.6, 0.85),
        distortion=u(-0.10, 0.03) if hard else u(-0.04, 0.01),
        target_jitter=u(0.0, 0.06),
        surface=kind, surface_variant=int(rng.integers(surfaces.VARIANTS)),
        surface_mm_per_px=u(*surfaces.MM_PER_PX[kind]), surface_angle_deg=u(0, 360),
        print_variation=u(0, 1) if hard else u(0, 0.5),
        miscut_mm=u(0, 0.8) if hard else u(0, 0.3),
        exposure=u(0.55, 1.5) if hard else u(0.85, 1.15),
        colour_temp_k=u(2800, 6500) if hard else u(4500, 6500),
        wb_correction=u(0.0, 0.9) if hard else u(0.7, 1.0),
        gradient=u(0, 0.5) if hard else u(0, 0.15),
        vignette=u(0, 0.4) if hard else u(0, 0.15),
        shadows=int(rng.integers(0, 4)) if hard else 0, shadow_depth=u(0.2, 0.6),
        glare_spots=int(rng.integers(0, 4)) if hard else 0, glare_strength=u(0.3, 1.0),
        defocus_px=u(0, 2.0) if hard else u(0, 0.8),
        motion_px=(u(1, 6) if rng.random() < 0.5 else 0.0) if hard else 0.0,
        motion_deg=u(0, 180),
        read_noise=u(1, 6) if hard else u(0.5, 2),
        shot_noise=u(0.05, 0.6) if hard else u(0, 0.05),
        jpeg_quality=int(rng.integers(55, 96)) if hard else int(rng.integers(85, 96)),
        hands=int(rng.choice([0, 1, 1, 2])) if hard else 0,
        crosstalk=u(0, 0.12) if hard else u(0, 0.03),
        sharpen=u(0, 0.8) if hard else u(0, 0.3),
        hfov_deg=_lens(seed, band),
    )


# Horizontal fields of view of the cameras a table would use: Pi Camera Module 2 (62.2 deg),
# Module 3 (66 deg) and Module 3 Wide (102 deg).
LENSES_DEG = (62.2, 66.0, 102.0)
LENS_WEIGHTS = (0.3, 0.5, 0.2)


def _lens(seed: int, band: str) -> float:
    """The lens of a scene, drawn from its own stream so the other choices stay as they were."""
    rng = np.random.default_rng([int(seed), BANDS.index(band), 2])
    return float(rng.choice(LENSES_DEG, p=LENS_WEIGHTS))


# -- ground truth ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CardTruth:
    """One card as the camera sees it."""

    cell: tuple[int, int]             # table lattice
    symbols: str                      # the card's own symbols
    rotation: int                     # table rotation k
    table_symbols: str                # by table direction E..SE
    image_cell: tuple[int, int]       # in the image-aligned lattice (origin arbitrary)
    image_symbols: str                # by image lattice direction E..SE
    polygon: tuple[tuple[float, float], ...]  # 6 corners, distorted image px
    centre: tuple[float, float]       # image px
    visible: float                    # 1 - fraction hidden by hands or outside the frame
    centre_mm: tuple[float, float]    # where it really lies on the table (with jitter)
    angle_deg: float                  # its true in-plane rotation on the table


@dataclass(frozen=True)
class MarkerTruth:
    """One ArUco table marker: corners in ArUco order (its own TL, TR, BR, BL)."""

    id: int
    corners: tuple[tuple[float, float], ...]     # distorted image px
    corners_mm: tuple[tuple[float, float], ...]  # table mm
    visible: float


@dataclass(frozen=True, eq=False)
class SceneTruth:
    """Exact ground truth of a rendered scene."""

    edition: str
    size: tuple[int, int]
    cards: tuple[CardTruth, ...]
    markers: tuple[MarkerTruth, ...]
    homography: np.ndarray      # table mm -> undistorted image px
    camera_matrix: np.ndarray   # K
    dist_coeffs: np.ndarray     # OpenCV (k1, k2, p1, p2, k3)
    image_e_direction: int      # the table direction that is image-E
    image_e_angle_deg: float    # its projected angle off image-right (near +-30: ambiguous)
    pitch_mm: float             # lattice centre spacing
    params: SceneParams
    hands: tuple[effects.Hand, ...] = field(default=())

    def to_json(self) -> dict:
        """A JSON-ready dict (lists instead of tuples and arrays)."""
        return {
            "edition": self.edition, "size": list(self.size),
            "cards": [asdict(c) for c in self.cards],
            "markers": [asdict(m) for m in self.markers],
            "homography": self.homography.tolist(),
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.tolist(),
            "image_e_direction": self.image_e_direction,
            "image_e_angle_deg": self.image_e_angle_deg,
            "pitch_mm": self.pitch_mm, "params": asdict(self.params),
        }


# -- layout in table millimetres --------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Placed:
    card: SceneCard
    centre: np.ndarray    # mm
    angle: float          # degrees, table frame (y down): face vector angle a -> a + angle
    corners: np.ndarray   # (6, 2) mm


def lattice_point(cell: tuple[int, int], pitch: float) -> np.ndarray:
    """Centre (mm) of an axial cell on a pointy-top lattice with centre spacing `pitch`."""
    q, r = cell
    return np.array([pitch * (q + r / 2.0), pitch * math.sqrt(3.0) / 2.0 * r])


def _rot(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _place(cards: list[SceneCard], params: SceneParams, rng: np.random.Generator,
           pitch: float) -> list[_Placed]:
    """Cards near their lattice centres as a player lays them: aimed halfway between the ideal
    centre and where the cards already down suggest, with placement jitter; then touching cards
    that overlap are pushed apart a little at a time until none do (players nudge them)."""
    circum = HEXEL_FACE.circumradius_mm
    unit = np.array([corner_direction(i) for i in range(6)])
    centres: dict[tuple[int, int], np.ndarray] = {}
    angles: dict[tuple[int, int], float] = {}
    for card in cards:
        cell = tuple(card.cell)
        ideal = lattice_point(cell, pitch)
        down = [(n, centres[n]) for n in _neighbours(cell) if n in centres]
        if down:
            ideal = 0.5 * ideal + 0.5 * np.mean(
                [c + ideal - lattice_point(n, pitch) for n, c in down], axis=0)
        centres[cell] = ideal + rng.uniform(-1, 1, 2) * params.jitter_mm
        angles[cell] = -60.0 * card.rotation + rng.uniform(-1, 1) * params.jitter_deg

    def outline(cell):
        return centres[cell] + circum * unit @ _rot(angles[cell]).T

    shapes = {cell: outline(cell) for cell in centres}
    pairs = [(a, b) for a in centres for b in _neighbours(a)[:3] if b in centres]
    for _ in range(200):
        moved = False
        for a, b in pairs:
            if _overlap(shapes[a], shapes[b]):
                d = centres[b] - centres[a]
                d = 0.15 * d / (np.linalg.norm(d) or 1.0)
                centres[a], centres[b] = centres[a] - d, centres[b] + d
                shapes[a], shapes[b] = outline(a), outline(b)
                moved = True
        if not moved:
            break
    return [_Placed(card, centres[tuple(card.cell)], angles[tuple(card.cell)],
                    shapes[tuple(card.cell)]) for card in cards]


def _neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS]


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """True if two convex polygons (mm) share more than a hair of area."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > 0.05


def _marker_squares(box: np.ndarray, params: SceneParams, rng: np.random.Generator
                    ) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(id, paper corners, marker corners) in mm for the four markers outside `box`."""
    m = params.marker_mm
    quiet = QUIET_ZONE_MODULES * m / 6.0
    half = m / 2.0 + quiet
    (x0, y0), (x1, y1) = box
    centres = [(x0 - half, y0 - half), (x1 + half, y0 - half), (x1 + half, y1 + half),
               (x0 - half, y1 + half)]
    square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float)
    out = []
    for marker_id, c in enumerate(centres):
        c = np.array(c) + rng.uniform(-1, 1, 2) * 2.0 * (params.jitter_mm > 0)
        R = _rot(rng.uniform(-1, 1) * params.jitter_deg)
        out.append((marker_id, c + half * square @ R.T, c + m / 2.0 * square @ R.T))
    return out


# -- rendering helpers ------------------------------------------------------------------------


def _paste(canvas: np.ndarray, tex: np.ndarray, M: np.ndarray, gain: float = 1.0) -> None:
    """Warp BGRA `tex` by homography M (canvas <- texture) and blend it over `canvas` in place,
    touching only the warped texture's bounding box."""
    h, w = tex.shape[:2]
    box = apply_h(M, np.array([(-1, -1), (w, -1), (w, h), (-1, h)], float))
    ch, cw = canvas.shape[:2]
    x0, y0 = np.floor(box.min(axis=0)).astype(int)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, cw), min(y1, ch)
    if x0 >= x1 or y0 >= y1:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
    warped = cv2.warpPerspective(tex, T @ M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:4].astype(np.float32) * (1.0 / 255.0)
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    roi += (warped[:, :, :3].astype(np.float32) * gain - roi) * a
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _miscut(face: np.ndarray, shift_px: np.ndarray) -> np.ndarray:
    """The printed design moved by `shift_px` inside the unchanged cut outline (alpha): on one
    side the border gets thinner, on the other the dark bleed widens it."""
    out = face.copy()
    M = np.float32([[1, 0, shift_px[0]], [0, 1, shift_px[1]]])
    h, w = face.shape[:2]
    out[:, :, :3] = cv2.warpAffine(face[:, :, :3], M, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
    return out


def _face_to_mm(p: _Placed, tex_w: int) -> np.ndarray:
    """3x3 affine: face texture pixel (index coords) -> table mm."""
    s = HEXEL_FACE.flat_to_flat_mm / tex_w
    A = _rot(p.angle) * s
    t = p.centre - A @ face_centre(tex_w)
    return np.array([[A[0, 0], A[0, 1], t[0]], [A[1, 0], A[1, 1], t[1]], [0, 0, 1]])


def _texture_width(cam: Camera, centre_mm: np.ndarray) -> int:
    """A face texture width ~1.3x the card's size in the image (from a fixed set, for caching)."""
    px = HEXEL_FACE.flat_to_flat_mm / cam.mm_per_px(tuple(centre_mm))
    for w in TEXTURE_WIDTHS:
        if w >= 1.3 * px:
            return w
    return TEXTURE_WIDTHS[-1]


def sample_palette(edition: str, rng: np.random.Generator, amount: float) -> Palette:
    """A printer's rendition of the design: inks, paper and border shifted by up to `amount`
    (0 = exact design colours, 1 = a cheap inkjet on cream paper)."""
    if amount <= 0:
        return Palette()

    def shift(rgb, spread):
        return tuple(int(np.clip(v + rng.uniform(-spread, spread) * amount, 0, 255))
                     for v in rgb)

    base = Palette()
    paper = tuple(int(np.clip(v - rng.uniform(0, 14) * amount * w, 0, 255))
                  for v, w in zip(base.paper, (0.3, 0.6, 1.0), strict=True))
    inks = tuple((k, shift(v[2], 28)) for k, v in SYMBOLS[edition].items())
    return Palette(paper=paper, border=shift(base.border, 12), emblem=base.emblem, inks=inks)


@lru_cache(maxsize=32)
def _surface(kind: str, variant: int, level: int) -> np.ndarray:
    """Surface texture shrunk by 2**level (an anti-aliasing pyramid)."""
    img = surfaces.texture(kind, variant)
    for _ in range(level):
        img = cv2.pyrDown(img)
    return img


def _background(canvas_size: tuple[int, int], Hc: np.ndarray, params: SceneParams,
                 cam: Camera, centre_mm: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The table surface warped into the (undistorted) canvas."""
    ratio = cam.mm_per_px(tuple(centre_mm)) / params.surface_mm_per_px
    level = int(np.clip(math.floor(math.log2(max(ratio, 1.0))), 0, 3))
    tex = _surface(params.surface, params.surface_variant, level)
    s = params.surface_mm_per_px * 2 ** level
    A = _rot(params.surface_angle_deg) * s
    c = np.array(tex.shape[1::-1], float) / 2.0
    t = centre_mm + rng.uniform(-200, 200, 2) - A @ c
    M = np.array([[A[0, 0], A[0, 1], t[0]], [A[1, 0], A[1, 1], t[1]], [0, 0, 1]])
    return cv2.warpPerspective(tex, Hc @ M, canvas_size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT_101)


def _coverage(poly: np.ndarray, occluded: np.ndarray) -> float:
    """Fraction of polygon `poly` (image px) that is inside the frame and not occluded."""
    h, w = occluded.shape
    x0, y0 = np.floor(poly.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 2
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round((poly - (x0, y0)) * 16).astype(np.int32).reshape(-1, 1, 2)],
                 1, cv2.LINE_8, 4)
    full = int(mask.sum())
    if full == 0:
        return 0.0
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return 0.0
    inside = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    seen = int((inside & (occluded[cy0:cy1, cx0:cx1] == 0)).sum())
    return seen / full


def _densify(poly: np.ndarray, n: int = 8) -> np.ndarray:
    """Points along a closed polygon's edges (n per edge), so distortion bends them."""
    t = np.linspace(0, 1, n, endpoint=False)[:, None]
    nxt = np.roll(poly, -1, axis=0)
    return np.vstack([a + (b - a) * t for a, b in zip(poly, nxt, strict=True)])


def image_lattice(cam: Camera, centre_mm: np.ndarray, pitch: float) -> tuple[int, float]:
    """(d0, angle): the table direction whose projection at `centre_mm` is nearest to
    image-right, and that projection's angle in degrees (image y down, so up is negative)."""
    angles = []
    for dq, dr in DIRECTIONS:
        step = lattice_point((dq, dr), pitch)
        a, b = cam.ideal(np.array([centre_mm, centre_mm + step]))
        angles.append(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])))
    d0 = int(np.argmin([abs(a) for a in angles]))
    return d0, angles[d0]


def sample_hands(n: int, placed: list[_Placed], rng: np.random.Generator
                 ) -> tuple[effects.Hand, ...]:
    """`n` arms reaching from outside the view to near random cards."""
    hands = []
    for _ in range(n):
        target = placed[int(rng.integers(len(placed)))].centre if placed else np.zeros(2)
        palm = target + rng.uniform(-40, 40, 2)
        ang = rng.uniform(0, 2 * math.pi)
        entry = palm + 1100.0 * np.array([math.cos(ang), math.sin(ang)])
        hands.append(effects.Hand(
            entry_mm=tuple(entry), palm_mm=tuple(palm),
            skin_rgb=effects.SKIN_RGB[int(rng.integers(len(effects.SKIN_RGB)))],
            sleeve_rgb=effects.SLEEVE_RGB[int(rng.integers(len(effects.SLEEVE_RGB)))],
            scale=float(rng.uniform(0.85, 1.15)), spread_deg=float(rng.uniform(3, 20)),
            sleeve_frac=float(rng.uniform(0.0, 0.8)),
            shadow_px=tuple(rng.uniform(-30, 30, 2)),
        ))
    return tuple(hands)


# -- the scene --------------------------------------------------------------------------------


def render_scene(cards: list[SceneCard], edition: str = "holodex",
                 params: SceneParams | None = None, hands: tuple[effects.Hand, ...] | None = None,
                 area_mm: tuple[tuple[float, float], tuple[float, float]] | None = None,
                 frame: int = 0) -> tuple[np.ndarray, SceneTruth]:
    """Render `cards` (BGR uint8 image of params.width x params.height) and its ground truth.

    `hands` overrides the band's random hands; `area_mm` ((x0, y0), (x1, y1)) fixes the play area
    that markers and camera framing use (default: the cards' extent), so a sequence of frames
    can keep one camera while the layout changes; `frame` varies only the sensor noise.
    """
    params = params or SceneParams()
    if edition not in SYMBOLS:
        raise ValueError(f"unknown edition {edition!r}: choose from {', '.join(SYMBOLS)}")
    seed = int(params.seed)
    pitch = HEXEL_FACE.flat_to_flat_mm + params.gap_mm
    placed = _place(list(cards), params, np.random.default_rng([seed, 2]), pitch)
    box = _play_box(placed, area_mm)
    markers = _marker_squares(box, params, np.random.default_rng([seed, 3])) \
        if params.markers else []
    cam = _camera(params, box, markers, np.random.default_rng([seed, 4]))
    w, h = params.width, params.height
    maps, offset, canvas_size = _distortion_maps(cam)
    Hc = np.array([[1, 0, offset[0]], [0, 1, offset[1]], [0, 0, 1]], float) @ cam.homography
    centre_mm = box.mean(axis=0)

    rng = np.random.default_rng([seed, 5])
    canvas = _background(canvas_size, Hc, params, cam, centre_mm, rng)
    palette = sample_palette(edition, rng, params.print_variation)
    for marker_id, paper, _ in markers:
        _paste_marker(canvas, Hc, marker_id, paper, palette)
    painters: dict[int, FacePainter] = {}
    for p in placed:
        tex_w = _texture_width(cam, p.centre)
        if tex_w not in painters:
            painters[tex_w] = face_atlas(edition, tex_w).painter(palette)
        face = painters[tex_w].face(p.card.symbols)
        if params.miscut_mm > 0:
            shift = rng.uniform(-1, 1, 2) * params.miscut_mm * tex_w / HEXEL_FACE.flat_to_flat_mm
            face = _miscut(face, shift)
        gain = 1.0 + rng.uniform(-0.05, 0.03) * (params.print_variation > 0 or params.jitter_mm > 0)
        _paste(canvas, face, Hc @ _face_to_mm(p, tex_w), gain)

    img = cv2.remap(canvas, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE) \
        if maps is not None else canvas
    img = img.astype(np.float32)
    occluded = np.zeros((h, w), np.uint8)
    if hands is None:
        hands = sample_hands(params.hands, placed, np.random.default_rng([seed, 6]))
    for hand in hands:
        effects.draw_hand(img, occluded, hand, cam.project)
    img = _light_and_sensor(img, params, cam, seed, frame)
    truth = _truth(edition, placed, markers, cam, occluded, params, pitch, centre_mm,
                   tuple(hands))
    return img, truth


def _play_box(placed: list[_Placed], area_mm) -> np.ndarray:
    """((x0, y0), (x1, y1)) of the play area in mm: the cards plus a 15 mm margin."""
    if area_mm is not None:
        return np.array(area_mm, float)
    if not placed:
        return np.array([(-100.0, -100.0), (100.0, 100.0)])
    pts = np.vstack([p.corners for p in placed])
    return np.array([pts.min(axis=0) - 15.0, pts.max(axis=0) + 15.0])


def _camera(params: SceneParams, box: np.ndarray, markers, rng: np.random.Generator) -> Camera:
    """The camera framing the play area and markers."""
    pts = [box[0], (box[1][0], box[0][1]), box[1], (box[0][0], box[1][1])]
    pts += [c for _, paper, _ in markers for c in paper]
    pts = np.array(pts, float)
    span = pts.max(axis=0) - pts.min(axis=0)
    target = (pts.min(axis=0) + pts.max(axis=0)) / 2.0 + \
        rng.uniform(-1, 1, 2) * span * params.target_jitter
    fitted = fit_camera(pts, (params.width, params.height), params.height_mm, params.tilt_deg,
                        params.tilt_azimuth_deg, params.yaw_deg, params.fill, params.distortion,
                        target)
    return fitted if not params.hfov_deg else _with_lens(pts, params, target, fitted)


def _with_lens(pts: np.ndarray, params: SceneParams, target: np.ndarray, fitted: Camera
               ) -> Camera:
    """A real lens (fixed field of view) at the height that frames the play area as `fitted`
    does, kept within the 0.6-1.2 m a camera arm allows: a small layout from high up shows
    small cards, a large one from low down may leave the frame, as at a real table."""
    w, h = params.width, params.height
    f_lens = (w / 2.0) / math.tan(math.radians(params.hfov_deg) / 2.0)
    height = float(np.clip(params.height_mm * f_lens / fitted.K[0, 0], 600.0, 1200.0))
    cam = fit_camera(pts, (w, h), height, params.tilt_deg, params.tilt_azimuth_deg,
                     params.yaw_deg, params.fill, params.distortion, target)
    K = cam.K.copy()
    K[0, 0] = K[1, 1] = f_lens
    r_corner2 = ((w / 2.0) ** 2 + (h / 2.0) ** 2) / f_lens ** 2
    return replace(cam, K=K, k1=params.distortion / r_corner2)


def _distortion_maps(cam: Camera):
    """(maps or None, canvas offset, canvas size) for rendering undistorted then remapping."""
    w, h = cam.size
    if cam.k1 == 0.0 and cam.k2 == 0.0:
        return None, (0.0, 0.0), (w, h)
    mx, my = cam.render_maps((0.0, 0.0))
    x0, y0 = math.floor(float(mx.min())) - 2, math.floor(float(my.min())) - 2
    x1, y1 = math.ceil(float(mx.max())) + 2, math.ceil(float(my.max())) + 2
    x0, y0 = max(x0, -w), max(y0, -h)
    x1, y1 = min(x1, 2 * w), min(y1, 2 * h)
    mx -= x0
    my -= y0
    fixed = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    return fixed, (-float(x0), -float(y0)), (x1 - x0, y1 - y0)


def _paste_marker(canvas: np.ndarray, Hc: np.ndarray, marker_id: int, paper: np.ndarray,
                  palette: Palette) -> None:
    """Warp one marker (with its white quiet zone) onto the canvas."""
    grey = marker_image(marker_id, px_per_module=12, quiet_modules=QUIET_ZONE_MODULES)
    t = grey.astype(np.float32)[:, :, None] / 255.0
    ink, pap = np.array(MARKER_INK[::-1], np.float32), np.array(palette.paper[::-1], np.float32)
    bgra = np.empty((*grey.shape, 4), np.uint8)
    bgra[:, :, :3] = np.clip(ink + (pap - ink) * t, 0, 255)
    bgra[:, :, 3] = 255
    n = grey.shape[0]
    # texture index coords -> mm: pixel centres at (u + 0.5) / n along the paper's edges
    src = np.array([(-0.5, -0.5), (n - 0.5, -0.5), (n - 0.5, n - 0.5), (-0.5, n - 0.5)],
                   np.float32)
    M = cv2.getPerspectiveTransform(src, paper.astype(np.float32))
    _paste(canvas, bgra, Hc @ M)


def _light_and_sensor(img: np.ndarray, params: SceneParams, cam: Camera,
                      seed: int, frame: int = 0) -> np.ndarray:
    """Illumination, colour temperature, glare, blur, noise and JPEG; returns BGR uint8. The
    lamp, its glare and the sensor's colour mixing are the same in every frame of one table;
    frame > 0 draws only fresh sensor noise (frame 0 keeps the one stream it always used)."""
    rng = np.random.default_rng([seed, 8, 0])
    size = (params.width, params.height)
    gain = effects.illumination(rng, size, params.gradient, params.vignette, params.shadows,
                                params.shadow_depth) * params.exposure
    wb = effects.white_balance_gains(params.colour_temp_k, params.wb_correction)
    colour = np.diag(wb).astype(np.float32)
    if params.crosstalk > 0:  # the sensor's colour mixing after the light's colour
        colour = effects.colour_matrix(rng, params.crosstalk) @ colour
    if params.gradient or params.vignette or params.shadows or params.exposure != 1.0:
        np.multiply(img, gain[:, :, None], out=img)
    if not np.allclose(colour, np.eye(3), atol=1e-4):
        img = cv2.transform(img, colour)
    if params.glare_spots:
        card_px = HEXEL_FACE.flat_to_flat_mm / cam.mm_per_px((0.0, 0.0))
        effects.add_glare(img, rng, params.glare_spots, params.glare_strength, 0.4 * card_px)
    kernel = effects.blur_kernel(params.defocus_px, params.motion_px, params.motion_deg,
                                 params.sharpen)
    if kernel is not None:
        img = cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REPLICATE)
    noise = rng if frame == 0 else np.random.default_rng([seed, 8, int(frame)])
    effects.sensor_noise(img, noise, params.read_noise, params.shot_noise)
    out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    return effects.jpeg(out, params.jpeg_quality) if params.jpeg_quality else out


def _truth(edition: str, placed: list[_Placed], markers, cam: Camera, occluded: np.ndarray,
           params: SceneParams, pitch: float, centre_mm: np.ndarray,
           hands: tuple[effects.Hand, ...]) -> SceneTruth:
    """Assemble the ground truth of a rendered scene."""
    layout_centre = np.mean([p.centre for p in placed], axis=0) if placed else centre_mm
    d0, angle = image_lattice(cam, layout_centre, pitch)
    cards = []
    for p in placed:
        table = orient(p.card.symbols, p.card.rotation)
        cards.append(CardTruth(
            cell=tuple(p.card.cell), symbols=p.card.symbols, rotation=p.card.rotation % 6,
            table_symbols=table, image_cell=rotate_cell(p.card.cell, -d0),
            image_symbols=table[d0:] + table[:d0],
            polygon=_points(cam.project(p.corners)),
            centre=tuple(float(v) for v in cam.project(p.centre[None])[0]),
            visible=_coverage(cam.project(_densify(p.corners)), occluded),
            centre_mm=tuple(float(v) for v in p.centre), angle_deg=float(p.angle)))
    marks = tuple(MarkerTruth(marker_id, _points(cam.project(corners)), _points(corners),
                              _coverage(cam.project(_densify(corners)), occluded))
                  for marker_id, _, corners in markers)
    K = cam.K.copy()
    return SceneTruth(edition, (params.width, params.height), tuple(cards), marks,
                      cam.homography.copy(), K, cam.dist, d0, float(angle), pitch, params, hands)


def _points(a: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in a)
