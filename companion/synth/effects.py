"""Image-space effects of a synthetic table scene, each a short vectorised function on a float32
BGR image (0-255): illumination (gradient, vignette, soft shadows), colour temperature with an
imperfect white balance, glare spots, defocus and motion blur, sensor noise and JPEG
re-encoding; plus hands and arms (skin-toned, shaded, with soft cast shadows) as occluders.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

SKIN_RGB = ((255, 224, 196), (241, 194, 161), (224, 172, 125), (198, 134, 90), (160, 105, 70),
            (120, 78, 52), (92, 60, 42))
SLEEVE_RGB = ((30, 40, 90), (150, 20, 30), (40, 40, 44), (220, 220, 215), (60, 110, 60),
              (200, 150, 40), (90, 90, 100))


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """Approximate RGB (0-1) of a black body at `kelvin` (Tanner Helland's fit)."""
    t = kelvin / 100.0
    r = 1.0 if t <= 66 else min(1.0, 1.292936186 * (t - 60) ** -0.1332047592)
    g = (0.390081579 * math.log(t) - 0.631841444) if t <= 66 else \
        1.129890861 * (t - 60) ** -0.0755148492
    b = 1.0 if t >= 66 else (0.0 if t <= 19 else 0.543206789 * math.log(t - 10) - 1.19625408)
    return np.clip(np.array([r, g, b]), 0.05, 1.0)


def white_balance_gains(kelvin: float, correction: float) -> np.ndarray:
    """BGR gains of light at `kelvin` after a camera that corrects `correction` (0-1) of the
    cast; normalised so the mean gain is 1."""
    cast = kelvin_rgb(kelvin) / kelvin_rgb(6500.0)
    gains = cast ** (1.0 - correction)
    return (gains / gains.mean())[::-1].astype(np.float32)


def illumination(rng: np.random.Generator, size: tuple[int, int], gradient: float,
                 vignette: float, shadows: int, shadow_depth: float) -> np.ndarray:
    """A smooth gain field (H, W) float32 around 1: linear gradient, vignette and soft shadow
    blobs, computed at 1/8 resolution and upsampled."""
    w, h = size
    sw, sh = max(w // 8, 2), max(h // 8, 2)
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32)
    x, y = (x / sw - 0.5) * 2.0, (y / sh - 0.5) * 2.0 * (h / w)
    a = rng.uniform(0, 2 * math.pi)
    g = 1.0 + gradient * (x * math.cos(a) + y * math.sin(a)) / 1.2
    g *= 1.0 - vignette * (x * x + y * y) / 1.6
    for _ in range(shadows):
        mask = np.zeros((sh, sw), np.float32)
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
        axes = (int(rng.uniform(0.15, 0.6) * sw), int(rng.uniform(0.1, 0.4) * sh))
        cv2.ellipse(mask, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2.0, 8.0))
        g *= 1.0 - shadow_depth * mask
    return cv2.resize(np.maximum(g, 0.05), (w, h), interpolation=cv2.INTER_LINEAR)


def add_glare(img: np.ndarray, rng: np.random.Generator, spots: int, strength: float,
              scale_px: float) -> None:
    """Add `spots` specular glare blobs (elliptical Gaussians) in place."""
    h, w = img.shape[:2]
    for _ in range(spots):
        sx, sy = (rng.uniform(0.3, 1.0) * scale_px for _ in range(2))
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = int(3 * max(sx, sy))
        x0, x1, y0, y1 = max(int(cx) - r, 0), min(int(cx) + r, w), max(int(cy) - r, 0), \
            min(int(cy) + r, h)
        if x0 >= x1 or y0 >= y1:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        a = rng.uniform(0, math.pi)
        u = (xx - cx) * math.cos(a) + (yy - cy) * math.sin(a)
        v = -(xx - cx) * math.sin(a) + (yy - cy) * math.cos(a)
        blob = np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2)) * (255.0 * strength)
        img[y0:y1, x0:x1] += blob[:, :, None]


def colour_matrix(rng: np.random.Generator, crosstalk: float) -> np.ndarray:
    """A 3x3 colour mixing matrix near identity (another sensor's spectral response), rows
    summing to 1 so greys stay grey."""
    m = np.eye(3) + rng.uniform(-1, 1, (3, 3)) * crosstalk
    return (m / m.sum(axis=1, keepdims=True)).astype(np.float32)


def blur_kernel(defocus_px: float, motion_px: float, motion_deg: float,
                sharpen: float = 0.0) -> np.ndarray | None:
    """One kernel combining a defocus disc, a linear motion streak and the unsharp masking of a
    camera pipeline (halos at edges), or None if all are negligible."""
    k = None
    if defocus_px >= 0.5:
        r = math.ceil(defocus_px)
        disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(disc, (r * 8 + 3, r * 8 + 3), int(defocus_px * 8), 1.0, -1, cv2.LINE_AA, 3)
        k = disc
    if motion_px >= 1.0:
        n = math.ceil(motion_px) | 1
        line = np.zeros((n, n), np.float32)
        c = (n - 1) / 2.0
        dx, dy = math.cos(math.radians(motion_deg)), math.sin(math.radians(motion_deg))
        p0 = (int((c - dx * motion_px / 2) * 8), int((c - dy * motion_px / 2) * 8))
        p1 = (int((c + dx * motion_px / 2) * 8), int((c + dy * motion_px / 2) * 8))
        cv2.line(line, p0, p1, 1.0, 1, cv2.LINE_AA, 3)
        k = line if k is None else cv2.filter2D(np.pad(line, k.shape[0] // 2), -1, k)
    if sharpen > 0.02:
        g = cv2.getGaussianKernel(7, 1.2)
        unsharp = -sharpen * (g @ g.T).astype(np.float32)
        unsharp[3, 3] += 1.0 + sharpen
        k = unsharp if k is None else cv2.filter2D(np.pad(k / k.sum(), 3), -1, unsharp,
                                                   borderType=cv2.BORDER_CONSTANT)
    if k is None or k.sum() <= 0:
        return None
    return k / k.sum()


def sensor_noise(img: np.ndarray, rng: np.random.Generator, read_sigma: float,
                 shot: float) -> None:
    """Add signal-dependent Gaussian noise in place: sigma^2 = read^2 + shot * value."""
    if read_sigma <= 0 and shot <= 0:
        return
    sigma = np.maximum(img, 0.0)
    sigma *= np.float32(shot)
    sigma += np.float32(read_sigma ** 2)
    np.sqrt(sigma, out=sigma)
    bank = _noise_bank()
    n = img.size
    if n > bank.size // 2:
        noise = rng.standard_normal(img.shape, dtype=np.float32)
    else:
        start = int(rng.integers(0, bank.size - n))
        noise = bank[start:start + n].reshape(img.shape)
    sigma *= noise
    img += sigma


@lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    """A fixed bank of standard normal samples; each frame takes a random window (much faster
    than drawing 2.7 M fresh samples, and still deterministic by seed)."""
    bank = np.random.default_rng(20240607).standard_normal(1 << 23, dtype=np.float32)
    bank.setflags(write=False)
    return bank


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    """Re-encode a uint8 BGR image as JPEG of `quality` (returned decoded)."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


# -- hands --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """An arm reaching over the table: from `entry_mm` (usually outside the view) to the hand
    whose palm centre is at `palm_mm` (table mm, projected onto the table plane)."""

    entry_mm: tuple[float, float]
    palm_mm: tuple[float, float]
    skin_rgb: tuple[int, int, int] = SKIN_RGB[2]
    sleeve_rgb: tuple[int, int, int] = SLEEVE_RGB[0]
    scale: float = 1.0        # hand size (1 = an adult's, ~90 mm palm)
    spread_deg: float = 12.0  # finger spread
    sleeve_frac: float = 0.5  # part of the arm covered by a sleeve
    shadow_px: tuple[float, float] = (18.0, 12.0)


def _capsule(p0: np.ndarray, p1: np.ndarray, r0: float, r1: float, n: int = 10) -> np.ndarray:
    """Outline of a tapered capsule from p0 (radius r0) to p1 (radius r1)."""
    d = p1 - p0
    length = float(np.hypot(*d)) or 1e-6
    u = d / length
    v = np.array([-u[1], u[0]])
    a0 = np.linspace(math.pi / 2, 3 * math.pi / 2, n)
    a1 = np.linspace(-math.pi / 2, math.pi / 2, n)
    cap0 = p0 + r0 * (np.cos(a0)[:, None] * u + np.sin(a0)[:, None] * v)
    cap1 = p1 + r1 * (np.cos(a1)[:, None] * u + np.sin(a1)[:, None] * v)
    return np.vstack([cap0, cap1])


def hand_shapes(hand: Hand) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(sleeve polygons, skin polygons) in table mm."""
    s = hand.scale
    entry, palm = np.array(hand.entry_mm, float), np.array(hand.palm_mm, float)
    d = palm - entry
    u = d / (np.hypot(*d) or 1.0)
    v = np.array([-u[1], u[0]])
    wrist = palm - u * 55 * s
    cuff = entry + (wrist - entry) * hand.sleeve_frac
    sleeve = [_capsule(entry, cuff, 52 * s, 46 * s)] if hand.sleeve_frac > 0 else []
    skin = [_capsule(cuff if sleeve else entry, wrist, 36 * s, 30 * s),
            _capsule(palm - u * 25 * s, palm + u * 20 * s, 44 * s, 42 * s, 14)]
    for i, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
        ang = math.radians(off * hand.spread_deg)
        dirn = u * math.cos(ang) + v * math.sin(ang)
        base = palm + u * 30 * s + v * off * 21 * s
        length = (62, 72, 68, 52)[i] * s
        skin.append(_capsule(base, base + dirn * length, 10 * s, 8.5 * s, 8))
    ang = math.radians(-70)
    thumb = u * math.cos(ang) + v * math.sin(ang)
    base = palm - u * 5 * s - v * 38 * s
    skin.append(_capsule(base, base + thumb * 55 * s + u * 25 * s, 13 * s, 10 * s, 8))
    return sleeve, skin


def draw_hand(img: np.ndarray, occluded: np.ndarray, hand: Hand, project) -> None:
    """Draw `hand` (projected with `project`: table mm -> image px) over `img` in place with a
    rounded shading and a soft cast shadow; mark its pixels in `occluded` (uint8 0/255)."""
    h, w = img.shape[:2]
    sleeve, skin = hand_shapes(hand)
    polys = [(p, hand.sleeve_rgb) for p in sleeve] + [(p, hand.skin_rgb) for p in skin]
    px = [(project(p), c) for p, c in polys]
    allpts = np.vstack([p for p, _ in px])
    pad = int(max(abs(hand.shadow_px[0]), abs(hand.shadow_px[1]))) + 40
    x0 = max(int(allpts[:, 0].min()) - pad, 0)
    y0 = max(int(allpts[:, 1].min()) - pad, 0)
    x1 = min(int(allpts[:, 0].max()) + pad, w)
    y1 = min(int(allpts[:, 1].max()) + pad, h)
    if x0 >= x1 or y0 >= y1:
        return
    rw, rh = x1 - x0, y1 - y0
    mask = np.zeros((rh, rw), np.uint8)
    colour = np.zeros((rh, rw, 3), np.uint8)
    for p, rgb in px:
        pts = [np.round((p - (x0, y0)) * 16).astype(np.int32).reshape(-1, 1, 2)]
        cv2.fillPoly(colour, pts, tuple(int(v) for v in rgb[::-1]), cv2.LINE_AA, 4)
        cv2.fillPoly(mask, pts, 255, cv2.LINE_AA, 4)
    alpha = mask.astype(np.float32) * (1.0 / 255.0)
    # cast shadow on what lies below (computed at quarter resolution), then the shaded arm
    sx, sy = hand.shadow_px
    small = cv2.resize(alpha, (max(rw // 4, 1), max(rh // 4, 1)), interpolation=cv2.INTER_AREA)
    small = cv2.warpAffine(small, np.float32([[1, 0, sx / 4], [0, 1, sy / 4]]), small.shape[::-1])
    small = cv2.GaussianBlur(small, (0, 0), 1.0 + 0.06 * math.hypot(sx, sy))
    shadow = cv2.resize(small, (rw, rh), interpolation=cv2.INTER_LINEAR)
    roi = img[y0:y1, x0:x1]
    roi *= (1.0 - 0.45 * shadow)[:, :, None]
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    rim = max(float(dist.max()), 1.0) * 0.8
    shade = (0.55 + 0.5 * np.sqrt(np.clip(dist / rim, 0.0, 1.0))) * alpha
    roi *= (1.0 - alpha)[:, :, None]
    roi += colour.astype(np.float32) * shade[:, :, None]
    occ = occluded[y0:y1, x0:x1]
    occ[mask > 127] = 255
