"""Shared helpers for the Hexapod synth tests: a cell's kind from its mean colour by hue."""

from __future__ import annotations

import colorsys

import numpy as np

from companion.synth.hexapod_face import INKS, KIND_INK

CHROMATIC = {k: colorsys.rgb_to_hsv(*(v / 255.0 for v in rgb))[0]
             for k, rgb in INKS.items() if k != "K"}


def kind_class(bgr) -> str:
    """'.', 'K' or an ink key (B G Y R S M) for a mean BGR colour: neutral colours by lightness,
    the rest by the nearest ink hue."""
    b, g, r = (float(v) / 255.0 for v in bgr)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    if s < 0.3:
        return "K" if v < 0.75 else "."
    return min(CHROMATIC, key=lambda k: min(abs(h - CHROMATIC[k]), 1 - abs(h - CHROMATIC[k])))


def code_class(code: str) -> str:
    """The class a cell code should read as."""
    return "." if code == "." else KIND_INK[code]


def window_mean(img: np.ndarray, centre, radius: float) -> np.ndarray:
    """Mean BGR of the square window of `radius` px about (x, y)."""
    x, y = (round(float(v)) for v in centre)
    r = max(1, round(radius))
    return img[y - r:y + r + 1, x - r:x + r + 1, :3].reshape(-1, 3).mean(axis=0)
