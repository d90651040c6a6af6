"""Hex'el card faces as images: the upright (pointy-top) face of a card drawn from its symbol
string with the shared design in `companion.faces`. Every element (hexagon, border, emblem, and
each symbol kind at each edge) is drawn once per (edition, width) as an anti-aliased coverage
mask (supersampled, shrunk with INTER_AREA) into a cached `FaceAtlas`; a face is then painted
from the masks with a `Palette` in well under a millisecond, so scenes can simulate another
printer per card. A face is BGRA (OpenCV order), transparent outside the hexagon, symbol i on
edge i (E, NE, NW, W, SW, SE).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..faces import (
    BORDER_RGB,
    EMBLEM_RGB,
    HEXEL_FACE,
    PAPER_RGB,
    SYMBOLS,
    HexFace,
    corner_direction,
    edge_normal,
)

RGB = tuple[int, int, int]
_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT
RIM_SHADE = 0.68  # a coloured symbol's rim is its ink at this brightness


@dataclass(frozen=True)
class Palette:
    """Paper, border, emblem and symbol ink colours (sRGB) used to paint a face."""

    paper: RGB = PAPER_RGB
    border: RGB = BORDER_RGB
    emblem: RGB = EMBLEM_RGB
    inks: tuple[tuple[str, RGB], ...] = ()

    def ink(self, edition: str, letter: str) -> RGB:
        """The ink of `letter` (the edition's design colour unless overridden)."""
        for name, rgb in self.inks:
            if name == letter:
                return rgb
        return SYMBOLS[edition][letter][2]


DEFAULT_PALETTE = Palette()


def face_size(width_px: int) -> tuple[int, int]:
    """(width, height) in pixels of a face `width_px` across the flats."""
    return int(width_px), round(width_px * 2.0 / math.sqrt(3.0))


def face_centre(width_px: int) -> np.ndarray:
    """The face centre in cv2 pixel-index coordinates (pixel (0, 0) is centred at 0.0)."""
    w, h = face_size(width_px)
    return np.array([w / 2.0 - 0.5, h / 2.0 - 0.5])


def hexagon_points(centre: tuple[float, float], circumradius: float) -> np.ndarray:
    """The six corners (float, x right, y down) of a pointy-top hexagon, corner i between edges
    i and i+1."""
    cx, cy = centre
    return np.array([(cx + circumradius * dx, cy + circumradius * dy)
                     for dx, dy in (corner_direction(i) for i in range(6))], np.float64)


def symbol_centres_px(width_px: int, face: HexFace = HEXEL_FACE) -> np.ndarray:
    """(6, 2) pixel centres (cv2 index coordinates) of the symbols on an upright face."""
    a = face_size(width_px)[0] / 2.0
    return np.array([face_centre(width_px) + face.symbol_centre_frac * a * np.array(edge_normal(d))
                     for d in range(6)])


# -- primitives: ("circle", centre, radius) | ("poly", points) | ("ellipse", centre, axes, deg) --


def _draw(mask: np.ndarray, prim: tuple, origin: np.ndarray, s: int) -> None:
    """Draw primitive `prim` (target pixel coordinates) white into a supersampled `mask` whose
    top-left target pixel is `origin`."""

    def ss(p):  # target index coords -> supersampled fixed point
        return np.round((s * (np.asarray(p, float) - origin + 0.5) - 0.5) * _ONE).astype(np.int32)

    if prim[0] == "circle":
        cv2.circle(mask, tuple(ss(prim[1]).tolist()), round(prim[2] * s * _ONE), 255, -1,
                   cv2.LINE_8, _SHIFT)
    elif prim[0] == "poly":
        cv2.fillPoly(mask, [ss(prim[1]).reshape(-1, 1, 2)], 255, cv2.LINE_8, _SHIFT)
    elif prim[0] == "ellipse":
        axes = tuple(round(v * s * _ONE) for v in prim[2])
        cv2.ellipse(mask, tuple(ss(prim[1]).tolist()), axes, prim[3], 0, 360, 255, -1,
                    cv2.LINE_8, _SHIFT)
    else:
        raise ValueError(f"unknown primitive {prim[0]!r}")


def _coverage(prims: list[tuple], x0: int, y0: int, w: int, h: int, s: int) -> np.ndarray:
    """Anti-aliased coverage (float32 0..1, h x w) of the union of `prims` over a patch."""
    mask = np.zeros((h * s, w * s), np.uint8)
    for prim in prims:
        _draw(mask, prim, np.array([x0, y0], float), s)
    if s > 1:
        mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA)
    return mask.astype(np.float32) / 255.0


def _shape_outline(shape: str, centre: np.ndarray, n: np.ndarray, r: float) -> np.ndarray:
    """Polygon of a diamond or triangle of bounding radius `r`, oriented along normal `n`."""
    t = np.array([-n[1], n[0]])
    if shape == "diamond":
        a, b = 1.08 * r, 0.78 * r
        return np.array([centre + a * n, centre + b * t, centre - a * n, centre - b * t])
    if shape == "triangle":
        rt = 1.12 * r
        return np.array([centre + rt * (math.cos(a) * n + math.sin(a) * t)
                         for a in (0.0, 2.0 * math.pi / 3.0, -2.0 * math.pi / 3.0)])
    raise ValueError(f"unknown symbol shape {shape!r}")


def _symbol_layers(shape: str, c: np.ndarray, n: np.ndarray, r: float,
                   face: HexFace) -> list[tuple[str, list[tuple]]]:
    """Painter's layers (role, primitives) of one symbol: roles are rim, ink and paper."""
    inset = 1.0 - face.rim_width_frac
    if shape == "ring":
        return [("ink", [("circle", c, r)]),
                ("paper", [("circle", c, r * (1.0 - face.ring_width_frac))])]
    if shape == "disc":
        return [("rim", [("circle", c, r)]), ("ink", [("circle", c, r * inset)])]
    outer = _shape_outline(shape, c, n, r)
    g = outer.mean(axis=0)
    scale = 1.0 - face.rim_width_frac * (2.0 if shape == "triangle" else 1.4)
    return [("rim", [("poly", outer)]), ("ink", [("poly", g + (outer - g) * scale)])]


@dataclass(frozen=True, eq=False)
class Layer:
    """A coverage patch painted with one role's colour at (x0, y0)."""

    role: str
    x0: int
    y0: int
    cov: np.ndarray


@dataclass(frozen=True, eq=False)
class FaceAtlas:
    """Coverage masks of every face element of one edition at one size."""

    edition: str
    width: int
    height: int
    base: tuple[Layer, ...]                               # hexagon, paper, emblem
    symbols: dict[tuple[str, int], tuple[Layer, ...]]     # (letter, edge) -> layers

    def compose(self, symbols: str, palette: Palette = DEFAULT_PALETTE) -> np.ndarray:
        """Paint the face of card `symbols` (BGRA uint8)."""
        return self.painter(palette).face(symbols)

    def painter(self, palette: Palette = DEFAULT_PALETTE) -> FacePainter:
        """A painter of faces in `palette` that reuses its painted symbols (one per scene)."""
        return FacePainter(self, palette)


class FacePainter:
    """Paints faces of one atlas in one palette: the base (border, paper, emblem) once, each
    (symbol, edge) patch once, then a face is the base with six patches copied in. Symbol
    patches never overlap another symbol or the emblem, so this equals painting every layer."""

    def __init__(self, atlas: FaceAtlas, palette: Palette) -> None:
        self.atlas, self.palette = atlas, palette
        img = np.empty((atlas.height, atlas.width, 3), np.float32)
        img[:] = palette.border[::-1]  # outside the card the colour is the border's, alpha 0
        roles = {"paper": palette.paper, "emblem": palette.emblem}
        for layer in atlas.base[1:]:
            _paint(img, layer, roles[layer.role])
        self._base_f = img
        self.base = np.empty((atlas.height, atlas.width, 4), np.uint8)
        self.base[:, :, :3] = np.clip(img + 0.5, 0, 255)
        self.base[:, :, 3] = np.clip(atlas.base[0].cov * 255.0 + 0.5, 0, 255)
        self._patches: dict[tuple[str, int], tuple[int, int, np.ndarray]] = {}

    def face(self, symbols: str) -> np.ndarray:
        """The BGRA uint8 face of card `symbols`."""
        atlas = self.atlas
        if len(symbols) != 6 or any((s, 0) not in atlas.symbols for s in symbols):
            kinds = "".join(SYMBOLS[atlas.edition])
            raise ValueError(f"a {atlas.edition} card is 6 letters from {kinds}, got {symbols!r}")
        out = self.base.copy()
        for d, letter in enumerate(symbols):
            x0, y0, patch = self._patch(letter, d)
            out[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1], :3] = patch
        return out

    def _patch(self, letter: str, d: int) -> tuple[int, int, np.ndarray]:
        key = (letter, d)
        if key not in self._patches:
            layers = self.atlas.symbols[key]
            x0, y0 = layers[0].x0, layers[0].y0
            h, w = layers[0].cov.shape
            region = self._base_f[y0:y0 + h, x0:x0 + w].copy()
            ink = self.palette.ink(self.atlas.edition, letter)
            roles = {"ink": ink, "rim": tuple(v * RIM_SHADE for v in ink),
                     "paper": self.palette.paper}
            for layer in layers:
                _paint(region, Layer(layer.role, 0, 0, layer.cov), roles[layer.role])
            self._patches[key] = (x0, y0, np.clip(region + 0.5, 0, 255).astype(np.uint8))
        return self._patches[key]


def _paint(img: np.ndarray, layers: tuple[Layer, ...], palette: Palette) -> None:
        roles = {"paper": palette.paper, "emblem": palette.emblem, "border": palette.border}
        for layer in layers:
            _paint(img, layer, roles[layer.role])


def _paint(img: np.ndarray, layer: Layer, rgb: tuple[float, float, float]) -> None:
    """Paint `layer` over `img` (float BGR) in place: img += (colour - img) * coverage."""
    h, w = layer.cov.shape
    roi = img[layer.y0:layer.y0 + h, layer.x0:layer.x0 + w]
    roi += (np.array(rgb[::-1], np.float32) - roi) * layer.cov[:, :, None]


def _patch_layers(layers: list[tuple[str, list[tuple]]], c: np.ndarray, r: float, w: int, h: int,
                  s: int) -> tuple[Layer, ...]:
    """Rasterise layers confined to a square patch of radius `r` about `c`."""
    x0, y0 = max(math.floor(c[0] - r) - 1, 0), max(math.floor(c[1] - r) - 1, 0)
    x1, y1 = min(math.ceil(c[0] + r) + 2, w), min(math.ceil(c[1] + r) + 2, h)
    return tuple(Layer(role, x0, y0, _coverage(prims, x0, y0, x1 - x0, y1 - y0, s))
                 for role, prims in layers)


@lru_cache(maxsize=64)
def face_atlas(edition: str, width_px: int, face: HexFace = HEXEL_FACE,
               supersample: int = 4) -> FaceAtlas:
    """The cached coverage masks for faces of `edition`, `width_px` across the flats."""
    if edition not in SYMBOLS:
        raise ValueError(f"unknown edition {edition!r}: choose from {', '.join(SYMBOLS)}")
    w, h = face_size(width_px)
    s = max(1, min(int(supersample), max(2, 1600 // max(w, 1))))
    a = w / 2.0
    c = face_centre(width_px)
    circum = a * 2.0 / math.sqrt(3.0)
    er = face.emblem_radius_frac * a
    emblem = [("ellipse", c + 0.52 * er * np.array(corner_direction(i)), (0.50 * er, 0.17 * er),
               -60.0 * i - 30.0) for i in range(6)] + [("circle", c, 0.16 * er)]
    base = (
        Layer("border", 0, 0, _coverage([("poly", hexagon_points(tuple(c), circum))],
                                        0, 0, w, h, s)),
        Layer("paper", 0, 0, _coverage(
            [("poly", hexagon_points(tuple(c), (1.0 - face.border_frac) * circum))],
            0, 0, w, h, s)),
        Layer("emblem", 0, 0, _coverage(emblem, 0, 0, w, h, s)),
    )
    r = face.symbol_radius_frac * a
    symbols = {}
    for letter, (_, shape, _) in SYMBOLS[edition].items():
        for d in range(6):
            n = np.array(edge_normal(d))
            sc = c + face.symbol_centre_frac * a * n
            symbols[(letter, d)] = _patch_layers(_symbol_layers(shape, sc, n, r, face), sc,
                                                 1.2 * r, w, h, s)
    return FaceAtlas(edition, w, h, base, symbols)


def render_face(symbols: str, edition: str = "holodex", width_px: int = 256,
                face: HexFace = HEXEL_FACE, palette: Palette = DEFAULT_PALETTE,
                supersample: int = 4) -> np.ndarray:
    """The upright face of card `symbols` as BGRA uint8, `width_px` across the flats.

    Colour is not premultiplied: outside the hexagon BGR is the border colour with alpha 0, so
    the anti-aliased rim blends correctly over any background."""
    return face_atlas(edition, int(width_px), face, supersample).compose(symbols, palette)
