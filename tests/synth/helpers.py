"""Shared helpers for the synth tests: colour classes by nearest design colour."""

from __future__ import annotations

import numpy as np

from companion.faces import BORDER_RGB, PAPER_RGB, SYMBOLS


def classes(edition: str) -> dict[str, np.ndarray]:
    """Design colours (BGR) by class name: paper, border and the edition's letters."""
    out = {"paper": PAPER_RGB, "border": BORDER_RGB}
    out.update({k: v[2] for k, v in SYMBOLS[edition].items()})
    return {k: np.array(v[::-1], float) for k, v in out.items()}


def colour_class(bgr, edition: str) -> str:
    """The class whose design colour is nearest to `bgr`; "V" and "border" count as "dark"."""
    c = classes(edition)
    name = min(c, key=lambda k: float(np.linalg.norm(c[k] - np.asarray(bgr, float))))
    return "dark" if name in ("V", "border") else name


def sample(img: np.ndarray, xy) -> np.ndarray:
    """The mean BGR of the 3x3 pixels around (x, y) (rounded)."""
    x, y = (round(float(v)) for v in xy)
    return img[y - 1:y + 2, x - 1:x + 2, :3].reshape(-1, 3).mean(axis=0)
