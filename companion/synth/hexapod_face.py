"""Hexapod card faces (RULES.md P1) as images, with the printed design's constants shared by the
renderer and the reader: a portrait card of `CARD_COLS` x `CARD_ROWS` square cells of `CELL_MM`,
a thin dark border band at the cut line and, in every cell, a rounded *tile* of the kind's
saturated ink (`INKS`) inset by a paper gutter, so the card shows a thin white grid. On the tile a
simple stylised insect is drawn in a dark shade of the same ink with light highlights (the dung
beetle, on a black tile, is drawn in light grey), so that every pixel of a cell keeps the kind's
hue and a ~25-px cell is read by its mean colour alone: blue, green, gold, red, black, violet
(stag) and teal (moth) are >= 45 degrees of hue apart. Two-cell insects share one tile across
their two cells (no gutter between the halves) and their halves differ in shape: the stag's top
cell `St` shows the head with wide open mandibles, its bottom cell `Sb` the closed wing cases; the
moth's body lies on the line between `Ml` and `Mr`, each half a wing with an eyespot. The Spider
card is black with a pale web. Faces are BGRA uint8 (alpha 255 on the card, 0 outside: there is
no outside, the card is a rectangle) drawn supersampled and shrunk with INTER_AREA; coordinates
in the drawing code are in cells (x right, y down, the card is [0, 2] x [0, 3]).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..faces import HEXAPOD_CELL_MM, HEXAPOD_INKS, PAPER_RGB

RGB = tuple[int, int, int]
Rows = tuple[tuple[str, ...], ...]

CELL_MM = HEXAPOD_CELL_MM  # side of a cell on the card and on the display-case board
CARD_COLS, CARD_ROWS = 2, 3
BORDER_FRAC = 0.035     # dark band at the cut line, fraction of a cell (~1 mm)
GUTTER_FRAC = 0.05      # paper between a cell's edge and its tile (each side)
TILE_RADIUS_FRAC = 0.12  # rounded corners of a tile
SHADE = 0.36            # insect body = ink * SHADE
LIGHT = 0.55            # highlights = ink mixed this far towards paper
CARD_BORDER_RGB: RGB = (40, 38, 44)
SPIDER = "Spider"

# The ink of each kind (sRGB); the reader should classify by normalised hue and lightness.
INKS: dict[str, RGB] = HEXAPOD_INKS
K_INSECT_RGB: RGB = (150, 146, 140)  # the dung beetle and its ball, on the black tile
KIND_INK = {"B": "B", "G": "G", "Y": "Y", "R": "R", "K": "K",
            "St": "S", "Sb": "S", "Ml": "M", "Mr": "M"}
CODES = tuple(KIND_INK)
# Half of a two-cell insect -> (column step, row step) to its other half.
PARTNER_STEP = {"St": (0, 1), "Sb": (0, -1), "Ml": (1, 0), "Mr": (-1, 0)}


@dataclass(frozen=True)
class CardSize:
    """Physical size of a Hexapod card (mm)."""

    cell_mm: float = CELL_MM
    cols: int = CARD_COLS
    rows: int = CARD_ROWS

    @property
    def width_mm(self) -> float:
        """Card width."""
        return self.cols * self.cell_mm

    @property
    def height_mm(self) -> float:
        """Card height."""
        return self.rows * self.cell_mm


CARD = CardSize()


def ink(code: str) -> RGB:
    """The tile ink of a cell code."""
    return INKS[KIND_INK[code]]


def shade(code: str) -> RGB:
    """The colour the insect of `code` is drawn in."""
    if KIND_INK[code] == "K":
        return K_INSECT_RGB
    return tuple(round(v * SHADE) for v in ink(code))


def light(code: str) -> RGB:
    """Highlight colour on the insect of `code`."""
    base = ink(code) if KIND_INK[code] != "K" else (90, 86, 80)
    return tuple(round(v + (p - v) * LIGHT) for v, p in zip(base, PAPER_RGB, strict=True))


# -- a tiny supersampled pen working in cell units ----------------------------------------------

_SHIFT = 4


class Pen:
    """Draws filled shapes into a BGR uint8 canvas whose unit is one cell (`k` px per cell)."""

    def __init__(self, canvas: np.ndarray, k: float) -> None:
        self.canvas, self.k = canvas, k

    def _p(self, pts) -> np.ndarray:
        a = np.asarray(pts, float).reshape(-1, 2)
        return np.round((a * self.k - 0.5) * (1 << _SHIFT)).astype(np.int32)

    def poly(self, pts, rgb: RGB) -> None:
        """A filled polygon."""
        cv2.fillPoly(self.canvas, [self._p(pts).reshape(-1, 1, 2)], rgb[::-1], cv2.LINE_8,
                     _SHIFT)

    def ellipse(self, c, axes, deg: float, rgb: RGB) -> None:
        """A filled ellipse (centre, half axes in cells, rotation in degrees)."""
        pts = cv2.ellipse2Poly((0, 0), (1000, 1000), 0, 0, 360, 3).astype(float) / 1000.0
        a = math.radians(deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        self.poly(np.asarray(c, float) + (pts * np.asarray(axes, float)) @ rot.T, rgb)

    def circle(self, c, r: float, rgb: RGB) -> None:
        """A filled disc."""
        self.ellipse(c, (r, r), 0.0, rgb)

    def line(self, pts, width: float, rgb: RGB) -> None:
        """A polyline of `width` cells with round joins."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        for a, b in itertools.pairwise(pts):
            d = b - a
            n = np.array([-d[1], d[0]]) / (np.hypot(*d) or 1.0) * width / 2.0
            self.poly([a + n, b + n, b - n, a - n], rgb)
        for p in pts:
            self.circle(p, width / 2.0, rgb)

    def rounded_rect(self, x0: float, y0: float, x1: float, y1: float, r: float,
                     rgb: RGB) -> None:
        """A filled rectangle with rounded corners."""
        pts = []
        for (cx, cy), a0 in (((x1 - r, y0 + r), -90.0), ((x1 - r, y1 - r), 0.0),
                             ((x0 + r, y1 - r), 90.0), ((x0 + r, y0 + r), 180.0)):
            t = np.radians(np.linspace(a0, a0 + 90.0, 8))
            pts.append(np.c_[cx + r * np.cos(t), cy + r * np.sin(t)])
        pts = np.vstack(pts)
        self.poly(pts, rgb)


# -- the insects (cell units, drawn about a cell's centre) --------------------------------------


def _legs(pen: Pen, c, spread: float, length: float, width: float, rgb: RGB,
          ys=(-0.12, 0.0, 0.12)) -> None:
    """Three pairs of bent legs about centre c."""
    cx, cy = c
    for i, dy in enumerate(ys):
        bend = (-0.08, 0.0, 0.08)[i]
        for s in (-1, 1):
            p0 = (cx + s * spread, cy + dy)
            p1 = (cx + s * (spread + length * 0.6), cy + dy + bend - 0.03)
            p2 = (cx + s * (spread + length), cy + dy + 2.2 * bend + (0.04 if i else -0.04))
            pen.line([p0, p1, p2], width, rgb)


def _beetle(pen: Pen, c, code: str, w: float, h: float, long_antennae: bool = False,
            spots: bool = False) -> None:
    """A beetle seen from above, head up: wing cases (w x h), pronotum, head, legs, antennae."""
    cx, cy = c
    dark, hi = shade(code), light(code)
    _legs(pen, (cx, cy + 0.02), 0.6 * w, min(0.18, 0.4 - 0.6 * w), 0.035, dark)
    top = cy - 0.5 * h
    if long_antennae:
        for s in (-1, 1):
            pen.line([(cx + s * 0.05, top - 0.14), (cx + s * 0.2, top - 0.26),
                      (cx + s * 0.36, top - 0.2)], 0.03, dark)
    else:
        for s in (-1, 1):
            pen.line([(cx + s * 0.05, top - 0.14), (cx + s * 0.15, top - 0.26)], 0.035, dark)
    pen.ellipse((cx, cy + 0.12 * h), (0.5 * w, 0.5 * h), 0.0, dark)     # wing cases
    pen.ellipse((cx, top + 0.02), (0.36 * w, 0.16 * h + 0.02), 0.0, dark)  # pronotum
    pen.circle((cx, top - 0.11), 0.07, dark)                                 # head
    pen.line([(cx, top + 0.16), (cx, cy + 0.6 * h)], 0.025, hi)              # seam
    for s in (-1, 1):                                                        # shine
        pen.ellipse((cx + s * 0.22 * w, cy - 0.02), (0.07 * w, 0.28 * h), 0.0, hi)
    if spots:
        for s in (-1, 1):
            pen.circle((cx + s * 0.26 * w, cy + 0.32 * h), 0.045, hi)


def _red_couple(pen: Pen, c) -> None:
    """Two small leaf beetles, one up-left and one down-right, overlapping at the centre."""
    cx, cy = c
    for dx, dy, ang in ((-0.12, -0.1, -25.0), (0.12, 0.13, 20.0)):
        bx, by = cx + dx, cy + dy
        a = math.radians(ang)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

        def at(p, bx=bx, by=by, rot=rot):
            return np.asarray(p, float) @ rot.T + (bx, by)

        dark, hi = shade("R"), light("R")
        for y in (-0.06, 0.02, 0.1):
            for s in (-1, 1):
                pen.line(at([(s * 0.1, y), (s * 0.2, y + 0.05)]), 0.03, dark)
        pen.line(at([(-0.04, -0.2), (-0.1, -0.3)]), 0.03, dark)
        pen.line(at([(0.04, -0.2), (0.1, -0.3)]), 0.03, dark)
        pts = cv2.ellipse2Poly((0, 0), (1000, 1000), 0, 0, 360, 4).astype(float) / 1000.0
        pen.poly(at(pts * (0.14, 0.19) + (0, 0.03)), dark)
        pen.poly(at(pts * (0.07, 0.06) + (0, -0.18)), dark)
        pen.line(at([(0, -0.12), (0, 0.2)]), 0.02, hi)
        for s in (-1, 1):
            pen.poly(at(pts * 0.035 + (s * 0.07, -0.02)), hi)
            pen.poly(at(pts * 0.035 + (s * 0.06, 0.1)), hi)


def _dung(pen: Pen, c) -> None:
    """A dung beetle pushing its ball (light grey on the black tile)."""
    cx, cy = c
    g, hi = shade("K"), light("K")
    pen.circle((cx - 0.2, cy + 0.2), 0.17, g)             # the ball
    pen.circle((cx - 0.25, cy + 0.15), 0.05, hi)
    pen.circle((cx - 0.14, cy + 0.26), 0.035, hi)
    body = (cx + 0.1, cy - 0.08)
    a = math.radians(40.0)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def at(p):
        return np.asarray(p, float) @ rot.T + body

    for y in (-0.08, 0.02, 0.12):
        for s in (-1, 1):
            pen.line(at([(s * 0.12, y), (s * 0.22, y + 0.06), (s * 0.27, y + 0.14)]), 0.035, g)
    pts = cv2.ellipse2Poly((0, 0), (1000, 1000), 0, 0, 360, 4).astype(float) / 1000.0
    pen.poly(at(pts * (0.15, 0.18) + (0, 0.05)), g)
    pen.poly(at(pts * (0.12, 0.08) + (0, -0.14)), g)
    # the scooped head, facing the ball
    pen.poly(at([(-0.1, 0.2), (0.1, 0.2), (0.06, 0.3), (-0.06, 0.3)]), g)
    pen.line(at([(0, -0.08), (0, 0.22)]), 0.022, hi)


def _stag(pen: Pen, x: float, y: float) -> None:
    """A stag beetle over cells (x, y) [top] and (x, y + 1) [bottom]."""
    cx = x + 0.5
    dark, hi = shade("St"), light("St")
    # top cell: wide head with open mandibles and antennae
    for s in (-1, 1):
        pen.line([(cx + s * 0.12, y + 0.62), (cx + s * 0.3, y + 0.42), (cx + s * 0.3, y + 0.22),
                  (cx + s * 0.16, y + 0.1)], 0.075, dark)
        pen.line([(cx + s * 0.27, y + 0.34), (cx + s * 0.18, y + 0.32)], 0.045, dark)  # tooth
        pen.line([(cx + s * 0.2, y + 0.66), (cx + s * 0.38, y + 0.58), (cx + s * 0.4, y + 0.46)],
                 0.03, dark)
    pen.ellipse((cx, y + 0.72), (0.22, 0.12), 0.0, dark)   # head
    pen.circle((cx - 0.12, y + 0.7), 0.03, hi)               # eyes
    pen.circle((cx + 0.12, y + 0.7), 0.03, hi)
    pen.ellipse((cx, y + 0.97), (0.25, 0.13), 0.0, dark)    # pronotum, across the halves
    # bottom cell: wing cases with seam and legs
    _legs(pen, (cx, y + 1.35), 0.2, 0.18, 0.035, dark, ys=(-0.25, -0.05, 0.15))
    pen.ellipse((cx, y + 1.42), (0.26, 0.4), 0.0, dark)
    pen.line([(cx, y + 1.1), (cx, y + 1.8)], 0.03, hi)
    for s in (-1, 1):
        pen.ellipse((cx + s * 0.13, y + 1.35), (0.04, 0.2), 0.0, hi)


def _moth(pen: Pen, x: float, y: float) -> None:
    """A moth over cells (x, y) [left] and (x + 1, y) [right], its body on the line between."""
    cx, cy = x + 1.0, y + 0.5
    dark, hi = shade("Ml"), light("Ml")
    fore = [(0.04, -0.06), (0.3, -0.36), (0.72, -0.34), (0.84, -0.22), (0.6, 0.02), (0.06, 0.06)]
    hind = [(0.04, 0.02), (0.5, 0.06), (0.62, 0.22), (0.46, 0.36), (0.2, 0.34), (0.04, 0.12)]
    for s in (-1, 1):
        for wing in (hind, fore):
            pen.poly([(cx + s * u, cy + v) for u, v in wing], dark)
        pen.circle((cx + s * 0.5, cy - 0.17), 0.09, hi)       # eyespot
        pen.circle((cx + s * 0.5, cy - 0.17), 0.04, dark)
        pen.line([(cx + s * 0.12, cy + 0.0), (cx + s * 0.56, cy + 0.02)], 0.02, hi)
        pen.line([(cx + s * 0.02, cy - 0.24), (cx + s * 0.12, cy - 0.38),
                  (cx + s * 0.2, cy - 0.4)], 0.03, dark)      # feathery antennae
    pen.ellipse((cx, cy), (0.06, 0.3), 0.0, dark)               # body
    pen.circle((cx, cy - 0.3), 0.06, dark)


def _spider(pen: Pen, w: float, h: float) -> None:
    """The Spider card: a pale web on black and a spider hanging in it."""
    web, body, mark = (200, 196, 188), (235, 232, 224), (214, 38, 44)
    c = np.array([w / 2.0, h * 0.42])
    for i in range(12):
        a = 2.0 * math.pi * i / 12.0
        pen.line([c, c + 2.0 * np.array([math.cos(a), math.sin(a)])], 0.012, web)
    for r in (0.18, 0.34, 0.52, 0.72, 0.95, 1.2):
        ring = [c + r * np.array([math.cos(2 * math.pi * i / 12), math.sin(2 * math.pi * i / 12)])
                for i in range(13)]
        pen.line(ring, 0.012, web)
    sp = c + np.array((0.0, 0.55))
    pen.line([c, sp], 0.014, web)
    for s in (-1, 1):
        for i, (a, b) in enumerate(((0.3, -0.35), (0.36, -0.08), (0.36, 0.14), (0.3, 0.38))):
            knee = sp + np.array((s * a, b - 0.12 + 0.02 * i))
            foot = sp + np.array((s * (a + 0.16), b + 0.08 + 0.05 * i))
            pen.line([sp + np.array((s * 0.05, 0.0)), knee, foot], 0.035, body)
    pen.ellipse(sp + np.array((0.0, 0.12)), (0.16, 0.2), 0.0, body)
    pen.circle(sp + np.array((0.0, -0.1)), 0.1, body)
    pen.poly(sp + np.array([(0.0, 0.02), (0.06, 0.12), (0.0, 0.22), (-0.06, 0.12)]), mark)


# -- faces --------------------------------------------------------------------------------------


def check_rows(rows: Sequence[Sequence[str]]) -> Rows:
    """The rows as a tuple grid; raises ValueError for unknown codes or split two-cell insects."""
    grid = tuple(tuple(r) for r in rows)
    if not grid or any(len(r) != len(grid[0]) for r in grid):
        raise ValueError(f"a card is a rectangle of cell codes, got {rows!r}")
    for y, row in enumerate(grid):
        for x, code in enumerate(row):
            if code not in KIND_INK:
                raise ValueError(f"unknown cell code {code!r}: use one of {' '.join(CODES)}")
            if code in PARTNER_STEP:
                dx, dy = PARTNER_STEP[code]
                ok = 0 <= y + dy < len(grid) and 0 <= x + dx < len(row) and \
                    KIND_INK[grid[y + dy][x + dx]] == KIND_INK[code] and \
                    grid[y + dy][x + dx] != code
                if not ok:
                    raise ValueError(f"half insect {code} at column {x + 1}, row {y + 1} has no "
                                     "other half next to it")
    return grid


def _canvas(cols: int, rows: int, cell_px: int, supersample: int | None
            ) -> tuple[np.ndarray, Pen, int]:
    s = supersample or max(2, min(6, 480 // max(cell_px, 1)))
    canvas = np.empty((rows * cell_px * s, cols * cell_px * s, 3), np.uint8)
    return canvas, Pen(canvas, cell_px * s), s


def _finish(canvas: np.ndarray, s: int) -> np.ndarray:
    h, w = canvas.shape[0] // s, canvas.shape[1] // s
    small = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA) if s > 1 else canvas
    out = np.empty((h, w, 4), np.uint8)
    out[:, :, :3] = small
    out[:, :, 3] = 255
    return out


def _border(pen: Pen, cols: int, rows: int) -> None:
    b = BORDER_FRAC
    for rect in ((0, 0, cols, b), (0, rows - b, cols, rows), (0, 0, b, rows),
                 (cols - b, 0, cols, rows)):
        x0, y0, x1, y1 = rect
        pen.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], CARD_BORDER_RGB)


@lru_cache(maxsize=1024)
def _render_card(rows: Rows, cell_px: int, supersample: int | None) -> np.ndarray:
    n_rows, n_cols = len(rows), len(rows[0])
    canvas, pen, s = _canvas(n_cols, n_rows, cell_px, supersample)
    canvas[:] = PAPER_RGB[::-1]
    g, r = GUTTER_FRAC, TILE_RADIUS_FRAC
    for y, row in enumerate(rows):
        for x, code in enumerate(row):
            if code in ("Sb", "Mr"):
                continue  # drawn with its first half
            w, h = {"St": (1, 2), "Ml": (2, 1)}.get(code, (1, 1))
            pen.rounded_rect(x + g, y + g, x + w - g, y + h - g, r, ink(code))
            c = (x + 0.5, y + 0.5)
            if code == "St":
                _stag(pen, x, y)
            elif code == "Ml":
                _moth(pen, x, y)
            elif code == "R":
                _red_couple(pen, c)
            elif code == "K":
                _dung(pen, c)
            elif code == "B":
                _beetle(pen, (c[0], c[1] + 0.06), code, 0.4, 0.46)
            elif code == "G":
                _beetle(pen, (c[0], c[1] + 0.1), code, 0.32, 0.52, long_antennae=True)
            else:  # Y: a broad scarab
                _beetle(pen, (c[0], c[1] + 0.06), code, 0.5, 0.42, spots=True)
    _border(pen, n_cols, n_rows)
    out = _finish(canvas, s)
    out.setflags(write=False)
    return out


def render_card(rows: Sequence[Sequence[str]], cell_px: int = 64,
                supersample: int | None = None) -> np.ndarray:
    """The face of an insect card (rows top to bottom of cell codes) as BGRA uint8, `cell_px`
    pixels per cell; cached, so treat the result as read-only."""
    return _render_card(check_rows(rows), int(cell_px), supersample)


@lru_cache(maxsize=16)
def _render_spider(cols: int, rows: int, cell_px: int, supersample: int | None) -> np.ndarray:
    canvas, pen, s = _canvas(cols, rows, cell_px, supersample)
    canvas[:] = CARD_BORDER_RGB[::-1]
    pen.rounded_rect(0.08, 0.08, cols - 0.08, rows - 0.08, 0.12, (22, 20, 26))
    _spider(pen, cols, rows)
    out = _finish(canvas, s)
    title_h = max(1, round(0.16 * cell_px))
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX, title_h, max(1, cell_px // 40))
    (tw, _), _ = cv2.getTextSize(SPIDER.upper(), cv2.FONT_HERSHEY_DUPLEX, scale,
                                 max(1, cell_px // 40))
    cv2.putText(out, SPIDER.upper(), ((out.shape[1] - tw) // 2, round((rows - 0.3) * cell_px)),
                cv2.FONT_HERSHEY_DUPLEX, scale, (188, 196, 200, 255), max(1, cell_px // 40),
                cv2.LINE_AA)
    out.setflags(write=False)
    return out


def render_spider(cell_px: int = 64, size: CardSize = CARD,
                  supersample: int | None = None) -> np.ndarray:
    """The face of the Spider card (same size as an insect card) as BGRA uint8."""
    return _render_spider(size.cols, size.rows, int(cell_px), supersample)


def cell_centres_px(cell_px: int, size: CardSize = CARD) -> np.ndarray:
    """(rows, cols, 2) pixel centres (x, y; cv2 index coordinates) of a face's cells."""
    ys, xs = np.mgrid[0:size.rows, 0:size.cols]
    return np.stack([(xs + 0.5) * cell_px - 0.5, (ys + 0.5) * cell_px - 0.5], axis=-1)


STAG_MODEL_PX = 96   # px per cell of the stag's grey drawing the reader matches (models/)


def stag_grey(cell_px: int = STAG_MODEL_PX) -> np.ndarray:
    """The stag beetle's two cells (head over wing cases) as printed, grey (the mean of the
    three channels, uint8), `cell_px` per cell: the drawing the Hexapod reader tells a lone
    stag's head by (models/hexapod-stag.png, written from this)."""
    return _grey(render_card((("St",), ("Sb",)), cell_px, supersample=3))


def moth_grey(cell_px: int = STAG_MODEL_PX) -> np.ndarray:
    """The moth's two cells (its left half over its right, one cell wide as the reader cuts its
    drawings) as printed, grey (the mean of the three channels, uint8), `cell_px` per cell: the
    drawing the Hexapod reader tells a moth's cell by (models/hexapod-moth.png, written from
    this)."""
    face = _grey(render_card((("Ml", "Mr"),), cell_px, supersample=3))
    return np.concatenate([face[:, :cell_px], face[:, cell_px:2 * cell_px]])


BEETLES = ("K", "B", "G", "R", "Y")   # the one-cell kinds, top to bottom in models/


def beetles_grey(cell_px: int = STAG_MODEL_PX) -> np.ndarray:
    """The one-cell kinds' cells (`BEETLES`, top to bottom) as printed, grey (the mean of the
    three channels, uint8), `cell_px` per cell: the drawings the Hexapod reader tells a dung
    beetle's by (models/hexapod-beetles.png, written from this)."""
    return _grey(np.concatenate([render_card(((code,),), cell_px, supersample=3)
                                 for code in BEETLES]))


def _grey(face: np.ndarray) -> np.ndarray:
    """A rendered face (BGRA) as grey: the mean of its three colour channels, rounded, uint8."""
    return np.round(face[:, :, :3].astype(np.float64).mean(axis=2)).astype(np.uint8)

