"""A crafted sweep of pens over a Hex'el symbol (not a test module): one card on felt, a pen bar
of a given colour 0.16 or 0.22 of the card's width laid from beyond one edge onto that edge's
symbol (as `test_pen_over_symbol.py` draws it), defocused, optionally smeared, under a neutral or
warm lamp, JPEG 75, read with `symbols.read_cards` at the card's true pose. Counts misreads (a
letter read that is neither '?' nor the printed symbol, on any edge) and the symbols read right,
for the pens and for the same cards with no pen. `python tests/vision/pen_sweep.py [--pens
dark|ink|all] [--show]` prints the figures.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import ColourModel, builtin_model
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

try:   # imported by the tests (a package under pytest's importlib mode) or run as a script
    from .crafted import draw_card, motion_blur, texture
except ImportError:   # pragma: no cover
    from crafted import draw_card, motion_blur, texture  # type: ignore[no-redef]

NEUTRAL = (1.0, 0.95, 0.9)    # lamp gains (RGB)
WARM = (0.9, 0.7, 0.45)
CENTRE = np.array([160.0, 120.0])
TIP_DEPTH = 0.62              # the pen's tip, in apothems from the card's centre (on a symbol)
PEN_LENGTH = 0.98             # and how far on past it the pen runs (beyond the card's edge)
DARK_PENS = {"black": (20, 20, 20), "dark": (70, 70, 70), "grey": (110, 110, 110)}   # RGB
INK_PENS = {"R": (214, 34, 32), "B": (22, 92, 212), "Y": (246, 184, 0)}
SYMBOL_STRINGS = {"web": ("RBYRBY", "BBRRYY"), "holodex": ("RBVRBV", "BBRRVV")}
WIDTHS = (36, 44, 56)
BLURS = (1.2, 2.0, 2.8)
MOTIONS = (0, 6)
LAMPS = {"neutral": NEUTRAL, "warm": WARM}
THICKS = (0.16, 0.22)


def pen_card(symbols: str, edition: str, width: float, gains: tuple[float, float, float],
             blur: float, motion: int, edge: int | None, rgb: tuple[int, int, int],
             thick: float) -> np.ndarray:
    """A card `width` px across the flats on felt at CENTRE, a pen of `rgb` `thick` of the width
    wide lying from beyond `edge` onto its symbol (no pen where `edge` is None), lit by `gains`,
    defocused by `blur` px, smeared by `motion` px at 20°, JPEG 75 (BGR uint8)."""
    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, CENTRE, symbols, edition, width / HEXEL_FACE.flat_to_flat_mm, 0.0)
    if edge is not None:
        a = math.radians(-60.0 * edge)
        n = np.array([math.cos(a), math.sin(a)])
        tip = CENTRE + TIP_DEPTH * (width / 2) * n
        root = tip + PEN_LENGTH * (width / 2) * n
        colour = tuple(int(v) for v in rgb[::-1])
        pen = int(width * thick)
        cv2.line(img, tuple(int(v) for v in tip), tuple(int(v) for v in root), colour, pen)
        cv2.circle(img, tuple(int(v) for v in tip), pen // 2, colour, -1)
    lit = cv2.GaussianBlur(img.astype(np.float32) * np.float32(gains[::-1]), (0, 0), blur)
    if motion:
        lit = motion_blur(lit, motion, 20.0)
    _ok, enc = cv2.imencode(".jpg", np.clip(lit, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 75])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def read_one(img: np.ndarray, width: float, model: ColourModel) -> str:
    """The symbols `read_cards` reads on the card at CENTRE, `width` px across the flats."""
    return read_cards(img, [Pose(tuple(CENTRE), width / 2.0, 0.0)], TableView(), model)[0].symbols


@dataclass(frozen=True)
class Case:
    """One crafted card of the sweep (`pen` a key of DARK_PENS or INK_PENS; None: no pen)."""

    edition: str
    symbols: str
    width: int
    lamp: str
    blur: float
    motion: int
    edge: int | None
    pen: str | None
    thick: float

    def image(self) -> np.ndarray:
        """The card as photographed (`pen_card`)."""
        rgb = (DARK_PENS | INK_PENS)[self.pen] if self.pen else (0, 0, 0)
        return pen_card(self.symbols, self.edition, self.width, LAMPS[self.lamp], self.blur,
                        self.motion, self.edge, rgb, self.thick)


def cases(pens: tuple[str, ...]) -> Iterator[Case]:
    """Every pen case of the sweep for `pens`, then every clean card (no pen) once."""
    for edition, strings in SYMBOL_STRINGS.items():
        for pen in pens:
            for s, w, lamp, b, m, e, t in itertools.product(strings, WIDTHS, LAMPS, BLURS,
                                                            MOTIONS, range(6), THICKS):
                yield Case(edition, s, w, lamp, b, m, e, pen, t)
    for edition, strings in SYMBOL_STRINGS.items():
        for s, w, lamp, b, m in itertools.product(strings, WIDTHS, LAMPS, BLURS, MOTIONS):
            yield Case(edition, s, w, lamp, b, m, None, None, 0.0)


def misread(read: str, truth: str) -> bool:
    """Whether any letter read is neither '?' nor the printed symbol."""
    return any(r not in ("?", s) for r, s in zip(read, truth, strict=True))


def sweep(pens: tuple[str, ...], show: bool = False) -> dict[str, Counter]:
    """Per pen (and 'none' for clean cards): reads, misread cards, symbols read right, and
    the pen's own symbol read as '?'."""
    models = {e: builtin_model(e) for e in SYMBOL_STRINGS}
    out: dict[str, Counter] = {}
    for c in cases(pens):
        read = read_one(c.image(), c.width, models[c.edition])
        k = out.setdefault(c.pen or "none", Counter())
        k["reads"] += 1
        k["right"] += sum(r == s for r, s in zip(read, c.symbols, strict=True))
        if c.edge is not None:
            k["hidden ?"] += read[c.edge] == "?"
        if misread(read, c.symbols):
            k["misreads"] += 1
            k[f"misread {c.edition} {c.lamp}"] += 1
            if show:
                print(f"MISREAD {c} -> {read}", flush=True)
    return out


def main() -> None:
    """Run the sweep and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pens", choices=("dark", "ink", "all"), default="dark")
    ap.add_argument("--show", action="store_true", help="print every misread case")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    pens = {"dark": tuple(DARK_PENS), "ink": tuple(INK_PENS),
            "all": tuple(DARK_PENS) + tuple(INK_PENS)}[args.pens]
    t0 = time.process_time()
    out = sweep(pens, args.show)
    for pen, k in out.items():
        print(pen, dict(sorted(k.items())))
    total = sum(k["misreads"] for p, k in out.items() if p != "none")
    print(f"pen misreads: {total} of {sum(k['reads'] for p, k in out.items() if p != 'none')}"
          f" reads; clean misreads {out['none']['misreads']}, clean symbols read "
          f"{out['none']['right']} of {6 * out['none']['reads']}; "
          f"{time.process_time() - t0:.0f} s CPU")


if __name__ == "__main__":
    main()
