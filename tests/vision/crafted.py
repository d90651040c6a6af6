"""Crafted Hex'el tables for the vision tests (not a test module), drawn with plain cv2,
independent of `companion.synth`: cards from the shared design in `companion.faces` laid on a
hex lattice in a table plane (mm), drawn on a textured surface with the four ArUco markers, then
seen through a known homography with a colour cast, a light gradient, blur and noise.
`draw_scene` returns the image and the truth (cell -> symbols by lattice direction, and the
plane->image homography).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.faces import BORDER_RGB, HEXEL_FACE, PAPER_RGB, SYMBOLS

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
PX_PER_MM = 3.0


def bgr(rgb):
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def texture(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table surface (BGR uint8, h x w)."""
    h, w = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        g = 0.5 + 0.5 * np.sin(xx / 9.0 + 3.0 * np.sin(yy / 60.0))
        base = np.array([40, 85, 140], np.float32)
        img = base * (0.75 + 0.35 * g[..., None])
    elif kind == "felt":
        img = np.array([50, 110, 30], np.float32) * np.ones((h, w, 1), np.float32)
    elif kind == "cloth":
        check = ((xx // 40 + yy // 40) % 2)[..., None]
        img = np.where(check > 0, np.array([200, 200, 205], np.float32),
                       np.array([60, 40, 150], np.float32))
    elif kind == "white":
        img = np.full((h, w, 3), 225, np.float32)
    else:  # a photograph
        from skimage import data

        photo = data.astronaut()[..., ::-1] if kind == "photo" else data.coffee()[..., ::-1]
        img = cv2.resize(photo, (w, h)).astype(np.float32)
    img = img + rng.normal(0, 8, img.shape if img.ndim == 3 else (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def draw_card(canvas: np.ndarray, centre: np.ndarray, symbols: str, edition: str,
              px_per_mm: float, rotation_deg: float = 0.0) -> None:
    """Draw one face (pointy-top when rotation is 0) onto a plane canvas in place."""
    f = HEXEL_FACE
    a = f.apothem_mm * px_per_mm
    rot = math.radians(rotation_deg)

    def corners(ap: float) -> np.ndarray:
        ang = rot + np.radians(-60.0 * np.arange(6) - 30.0)
        rr = ap * 2.0 / math.sqrt(3.0)
        return (centre + rr * np.c_[np.cos(ang), np.sin(ang)]) * 16

    cv2.fillPoly(canvas, [corners(a).astype(np.int32)], bgr(BORDER_RGB), cv2.LINE_AA, 4)
    cv2.fillPoly(canvas, [corners(a * (1 - f.border_frac)).astype(np.int32)], bgr(PAPER_RGB),
                 cv2.LINE_AA, 4)
    for d, letter in enumerate(symbols):
        _, shape, rgb = SYMBOLS[edition][letter]
        ang = rot + math.radians(-60.0 * d)
        n = np.array([math.cos(ang), math.sin(ang)])
        t = np.array([-n[1], n[0]])
        c = centre + f.symbol_centre_frac * a * n
        r = f.symbol_radius_frac * a
        ci = tuple(int(v) for v in c * 16)
        if shape == "disc":
            cv2.circle(canvas, ci, int(r * 16), bgr(rgb), -1, cv2.LINE_AA, 4)
        elif shape == "ring":
            cv2.circle(canvas, ci, int(r * (1 - f.ring_width_frac / 2) * 16), bgr(rgb),
                       max(1, round(r * f.ring_width_frac)), cv2.LINE_AA, 4)
        elif shape == "diamond":
            poly = np.array([c + 1.08 * r * n, c + 0.78 * r * t, c - 1.08 * r * n,
                             c - 0.78 * r * t])
            cv2.fillPoly(canvas, [(poly * 16).astype(np.int32)], bgr(rgb), cv2.LINE_AA, 4)
        else:
            poly = np.array([c + 1.12 * r * (math.cos(b) * n + math.sin(b) * t)
                             for b in (0.0, 2 * math.pi / 3, -2 * math.pi / 3)])
            cv2.fillPoly(canvas, [(poly * 16).astype(np.int32)], bgr(rgb), cv2.LINE_AA, 4)


@dataclass
class Scene:
    image: np.ndarray
    truth: dict[tuple[int, int], str]
    plane_to_image: np.ndarray
    visible: dict[tuple[int, int], bool] = field(default_factory=dict)


def lone_card(surface: str, size: int, centre: np.ndarray, card: bool, cover: bool,
              blur: int) -> np.ndarray:
    """A `size`-px square of `surface` with one holodex card "RBVRBV" at `centre` (1 px a mm;
    none where not `card`), a skin-toned fingertip reaching in from the top edge over its
    symbol 1 (up and right) where `cover`, blurred by a `blur`-px Gaussian."""
    img = texture(surface, (size, size), np.random.default_rng(5))
    if card:
        draw_card(img, centre, "RBVRBV", "holodex", 1.0)
    if cover:
        tip = centre + 0.62 * HEXEL_FACE.apothem_mm * np.array(
            [np.cos(np.radians(-60)), np.sin(np.radians(-60))])
        cv2.line(img, (int(tip[0]), 0), (int(tip[0]), int(tip[1])), (120, 160, 215), 17)
        cv2.circle(img, (int(tip[0]), int(tip[1])), 8, (120, 160, 215), -1)
    return cv2.GaussianBlur(img, (blur, blur), 0)


def random_layout(rng: np.random.Generator, n: int, edition: str) -> dict[tuple[int, int], str]:
    """n cells grown from (0, 0) with random symbols."""
    letters = list(SYMBOLS[edition])
    cells = [(0, 0)]
    while len(cells) < n:
        q, r = cells[rng.integers(len(cells))]
        dq, dr = DIRS[rng.integers(6)]
        if (q + dq, r + dr) not in cells:
            cells.append((q + dq, r + dr))
    return {c: "".join(rng.choice(letters, 6)) for c in cells}


def draw_scene(seed: int = 0, *, n_cards: int = 12, edition: str = "holodex",
               surface: str = "wood", tilt: float = 0.0, size=(1280, 720), markers: bool = True,
               kelvin_gain=(1.0, 1.0, 1.0), blur: float = 0.6, noise: float = 3.0,
               occluder: bool = False, card_px: float = 70.0, rotation_deg: float = 0.0,
               layout: dict | None = None) -> Scene:
    """A table seen by a camera; `tilt` (0..1) sets how strongly the homography is projective."""
    rng = np.random.default_rng(seed)
    layout = layout or random_layout(rng, n_cards, edition)
    plane_w, plane_h = 900.0, 560.0   # mm: marker centres at the corners
    pw, ph = int((plane_w + 80) * PX_PER_MM), int((plane_h + 80) * PX_PER_MM)
    canvas = texture(surface, (ph, pw), rng)
    off = np.array([40.0, 40.0])      # mm: plane origin (marker 0 centre) on the canvas
    if markers:
        d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        side = int(40 * PX_PER_MM)
        quiet = int(8 * PX_PER_MM)
        for i, (x, y) in enumerate([(0, 0), (plane_w, 0), (plane_w, plane_h), (0, plane_h)]):
            m = cv2.aruco.generateImageMarker(d, i, side)
            cx, cy = int((x + off[0]) * PX_PER_MM), int((y + off[1]) * PX_PER_MM)
            canvas[cy - side // 2 - quiet:cy + side // 2 + quiet + (side % 2),
                   cx - side // 2 - quiet:cx + side // 2 + quiet + (side % 2)] = 255
            canvas[cy - side // 2:cy - side // 2 + side, cx - side // 2:cx - side // 2 + side] = \
                m[..., None]
    spacing = HEXEL_FACE.flat_to_flat_mm + 1.0
    rot = math.radians(rotation_deg)
    centre = np.array([plane_w / 2.0, plane_h / 2.0])
    e_q = spacing * np.array([math.cos(rot), math.sin(rot)])
    e_r = spacing * np.array([math.cos(rot + math.pi / 3), math.sin(rot + math.pi / 3)])
    for (q, r), sym in layout.items():
        c = (centre + q * e_q + r * e_r + off) * PX_PER_MM
        draw_card(canvas, c, sym, edition, PX_PER_MM, rotation_deg)
    # camera: the plane seen by a homography with some perspective
    scale = card_px / (HEXEL_FACE.flat_to_flat_mm * PX_PER_MM)
    w, h = size
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    cx, cy = w / 2, h / 2
    hw, hh = pw * scale / 2, ph * scale / 2
    k = tilt * 0.25
    dst = np.array([[cx - hw * (1 - k), cy - hh], [cx + hw * (1 - k), cy - hh],
                    [cx + hw * (1 + k), cy + hh], [cx - hw * (1 + k), cy + hh]], np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    canvas = cv2.GaussianBlur(canvas, (0, 0), 0.45 / scale)   # anti-alias before shrinking
    image = cv2.warpPerspective(canvas, hom, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    img = image.astype(np.float32) * np.array(kelvin_gain, np.float32)
    grad = np.linspace(0.8, 1.1, w, dtype=np.float32)[None, :, None]
    img = img * grad
    if occluder:
        (q, r) = next(iter(layout))
        c = cv2.perspectiveTransform(
            ((centre + q * e_q + r * e_r + off) * PX_PER_MM)[None, None].astype(np.float32),
            hom)[0, 0]
        cv2.ellipse(img, (int(c[0] + card_px * 0.3), int(c[1])), (int(card_px * 0.45),
                    int(card_px * 1.5)), 20, 0, 360, (120, 150, 200), -1, cv2.LINE_AA)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img = img + rng.normal(0, noise, img.shape).astype(np.float32)
    image = np.clip(img, 0, 255).astype(np.uint8)
    # plane (mm, origin marker 0) -> image
    to_canvas = np.array([[PX_PER_MM, 0, off[0] * PX_PER_MM], [0, PX_PER_MM, off[1] * PX_PER_MM],
                          [0, 0, 1]])
    return Scene(image, layout, hom @ to_canvas)


def motion_blur(img: np.ndarray, length: int, angle_deg: float) -> np.ndarray:
    """The image smeared by straight camera motion of `length` pixels at `angle_deg`."""
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle_deg, 1.0)
    k = cv2.warpAffine(k, rot, (length, length))
    return cv2.filter2D(img, -1, k / k.sum())


def photograph(lit: np.ndarray, motion: int = 0) -> np.ndarray:
    """A lit float picture as a camera delivers it: smeared by `motion` px at 30° when given,
    sensor noise (sigma 2, seeded), JPEG at quality 70, decoded back to BGR uint8."""
    if motion:
        lit = motion_blur(lit, motion, 30.0)
    lit = lit + np.random.default_rng(1).normal(0, 2, lit.shape)
    _ok, enc = cv2.imencode(".jpg", np.clip(lit, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 70])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def colour_matrix(img: np.ndarray, boost: float) -> np.ndarray:
    """A camera's colour-correction matrix (rows summing to 1, so grey stays grey): each channel
    gains 1 + 2·boost and loses boost of each other one, which saturates colours; float out,
    not yet clipped."""
    m = np.full((3, 3), -boost, np.float32)
    np.fill_diagonal(m, 1.0 + 2.0 * boost)
    return img.astype(np.float32) @ m.T
