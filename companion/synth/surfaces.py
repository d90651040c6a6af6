"""Table surfaces as tileable-ish BGR textures with a physical scale: wood (planks with grain),
felt, patterned cloth (gingham, stripes, polka dots, woven plaid) and real photographs bundled
with scikit-image (brick, grass, gravel, coffee, a cat...), used offline; without scikit-image
the photo kind falls back to a procedural texture. Textures are cached by (kind, variant); the
scene samples a variant, an offset, a rotation and a scale.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

KINDS = ("wood", "felt", "cloth", "photo")
VARIANTS = 8
SIZE = 1024
PHOTOS = ("brick", "grass", "gravel", "coffee", "chelsea", "rocket", "astronaut",
          "immunohistochemistry", "hubble_deep_field", "moon")


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]
                 ) -> np.ndarray:
    """Zero-mean, unit-ish smooth noise (float32) from a `cells` grid upsampled to `shape`."""
    small = rng.standard_normal((cells[1], cells[0])).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per-pixel blend of two BGR colours by t in 0..1 (H, W)."""
    t = np.clip(t, 0.0, 1.0)[:, :, None]
    return a * (1.0 - t) + b * t


def wood(rng: np.random.Generator, size: int = SIZE) -> np.ndarray:
    """Planks along x with warped ring grain, pores and per-plank tone."""
    light = np.array(rng.choice([(120, 170, 210), (95, 140, 190), (70, 105, 150), (150, 190, 220),
                                 (60, 80, 110)]), np.float32)
    dark = light * rng.uniform(0.45, 0.7)
    planks = int(rng.integers(4, 9))
    y = np.arange(size, dtype=np.float32)[:, None]
    x = np.arange(size, dtype=np.float32)[None, :]
    warp = smooth_noise(rng, (size, size), (3, 12)) * 14.0 + smooth_noise(rng, (size, size),
                                                                           (6, 40)) * 3.0
    plank = np.floor(y / (size / planks)).astype(np.int32) % planks
    phase = rng.uniform(0, 100, planks).astype(np.float32)[plank]
    freq = rng.uniform(0.08, 0.2)
    grain = 0.5 + 0.5 * np.sin((y + warp) * freq + phase + 0.002 * x)
    grain = grain ** rng.uniform(1.5, 4.0)
    pores = cv2.resize(rng.standard_normal((size // 4, size)).astype(np.float32), (size, size),
                       interpolation=cv2.INTER_LINEAR)
    tone = rng.uniform(0.85, 1.15, planks).astype(np.float32)[plank][:, :, None]
    img = _mix(light[None, None], dark[None, None], grain * 0.8 + pores * 0.08) * tone
    seams = (np.abs(y % (size / planks)) < 2.0)
    img[np.broadcast_to(seams, (size, size))] *= 0.55
    return np.clip(img, 0, 255).astype(np.uint8)


def felt(rng: np.random.Generator, size: int = SIZE) -> np.ndarray:
    """Plain felt or baize: one colour, fine fibre noise, faint mottling."""
    base = np.array(rng.choice([(40, 110, 30), (35, 90, 20), (90, 50, 20), (40, 30, 110),
                                (50, 50, 55), (25, 25, 28), (120, 120, 118), (150, 80, 20)]),
                    np.float32)
    fibre = rng.standard_normal((size, size)).astype(np.float32)
    fibre = cv2.GaussianBlur(fibre, (0, 0), 0.8) * 0.12
    mottle = smooth_noise(rng, (size, size), (8, 8)) * 0.05
    return np.clip(base * (1.0 + fibre + mottle)[:, :, None], 0, 255).astype(np.uint8)


def cloth(rng: np.random.Generator, size: int = SIZE) -> np.ndarray:
    """A patterned tablecloth: gingham, stripes, polka dots or plaid, with a weave."""
    palette = [(60, 60, 200), (180, 90, 30), (40, 150, 40), (40, 190, 230), (250, 250, 250),
               (120, 40, 120), (30, 30, 30), (200, 200, 230)]
    i, j = rng.choice(len(palette), 2, replace=False)
    a, b = np.array(palette[i], np.float32), np.array(palette[j], np.float32)
    period = rng.uniform(12, 60)
    y = np.arange(size, dtype=np.float32)[:, None]
    x = np.arange(size, dtype=np.float32)[None, :]
    pattern = int(rng.integers(4))
    if pattern == 0:  # gingham: the overlap of two stripe sets is darkest
        t = ((x % period < period / 2).astype(np.float32) + (y % period < period / 2)) / 2.0
    elif pattern == 1:  # stripes
        t = np.broadcast_to((x % period < period * rng.uniform(0.2, 0.6)).astype(np.float32),
                            (size, size))
    elif pattern == 2:  # polka dots
        d = np.hypot(x % period - period / 2, y % period - period / 2)
        t = (d < period * rng.uniform(0.15, 0.35)).astype(np.float32)
    else:  # plaid: sums of stripes of different widths
        t = (np.sin(x / period * 6.283) > 0.3).astype(np.float32) * 0.6 + \
            (np.sin(y / (period * 1.7) * 6.283) > 0.6) * 0.4
    t = cv2.GaussianBlur(np.ascontiguousarray(t, np.float32), (0, 0), 0.7)
    img = _mix(a[None, None], b[None, None], t)
    weave = (np.sin(x * 2.2) * np.sin(y * 2.2)) * 0.05 + smooth_noise(rng, (size, size),
                                                                     (6, 6)) * 0.04
    return np.clip(img * (1.0 + weave)[:, :, None], 0, 255).astype(np.uint8)


@lru_cache(maxsize=16)
def _skimage_photo(name: str) -> np.ndarray | None:
    """A bundled scikit-image photograph as BGR uint8, or None if unavailable."""
    try:
        from skimage import data
    except ImportError:
        return None
    try:
        img = np.asarray(getattr(data, name)())
    except Exception:  # a data file missing from this installation
        return None
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    else:
        img = cv2.cvtColor(img[:, :, :3], cv2.COLOR_RGB2BGR)
    return np.ascontiguousarray(img.astype(np.uint8))


def photo(rng: np.random.Generator, size: int = SIZE) -> np.ndarray:
    """A real photograph (tinted if grey), mirrored to a square; procedural if unavailable."""
    img = _skimage_photo(PHOTOS[int(rng.integers(len(PHOTOS)))])
    if img is None:
        return cloth(rng, size) if rng.random() < 0.5 else wood(rng, size)
    if np.ptp(img.astype(np.int16).reshape(-1, 3).mean(axis=0)) < 3:  # grey: tint it
        img = np.clip(img * rng.uniform(0.6, 1.2, 3), 0, 255).astype(np.uint8)
    side = min(img.shape[:2])
    img = img[:side, :side]
    return cv2.resize(img, (size // 2, size // 2), interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=32)
def texture(kind: str, variant: int) -> np.ndarray:
    """The cached texture `variant` of surface `kind` (BGR uint8)."""
    makers = {"wood": wood, "felt": felt, "cloth": cloth, "photo": photo}
    if kind not in makers:
        raise ValueError(f"unknown surface {kind!r}: choose from {', '.join(KINDS)}")
    img = makers[kind](np.random.default_rng([KINDS.index(kind), int(variant)]))
    img.setflags(write=False)
    return img


MM_PER_PX = {"wood": (0.6, 1.2), "felt": (0.4, 0.8), "cloth": (0.4, 1.0), "photo": (0.8, 2.0)}
