"""The physical design of our printed cards, shared by the renderer (`synth`) and the reader
(`vision`) so that what we print is what we look for.

Hex'el cards are pointy-top hexagons (flat sides left and right) with a white face, a dark border
band that separates the card from any table, and one large, saturated symbol per edge, centred on
the edge's normal, with a clear paper gap between symbols and between symbol and border. The
centre carries a faint, colourless rosette that no reader needs. Distances are fractions of the
apothem (centre-to-flat distance), so they hold at any print size or camera resolution; at 60
pixels across the flats a symbol is still ~12 px wide with a 3 px paper gap to the border. Colours
are sRGB ink targets; the reader must classify by normalised colour (white reference from the
face itself), never by these exact values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Edge order of the `symbols` strings everywhere: E, NE, NW, W, SW, SE (counter-clockwise,
# image y down). Edge d's outward normal points at angle -60*d degrees in image coordinates.
EDGE_NAMES = ("E", "NE", "NW", "W", "SW", "SE")


def edge_normal(d: int) -> tuple[float, float]:
    """Unit vector (x right, y down) from a pointy-top card's centre to the middle of edge d."""
    a = math.radians(-60.0 * d)
    return (math.cos(a), math.sin(a))


def corner_direction(i: int) -> tuple[float, float]:
    """Unit vector towards corner i, the corner between edges i and i+1 (angle -60*i - 30 deg)."""
    a = math.radians(-60.0 * i - 30.0)
    return (math.cos(a), math.sin(a))


@dataclass(frozen=True)
class HexFace:
    """Geometry of a printed Hex'el card face, in millimetres and apothem fractions."""

    flat_to_flat_mm: float = 64.0     # width across the flats (= 2 x apothem)
    border_frac: float = 0.08         # dark border band, inward from the cut line
    symbol_centre_frac: float = 0.60  # symbol centre along each edge normal
    symbol_radius_frac: float = 0.20  # symbol size (radius of its bounding circle)
    ring_width_frac: float = 0.42     # stroke of a ring symbol, as a fraction of its radius
    rim_width_frac: float = 0.10      # darker rim of a coloured symbol, fraction of its radius
    emblem_radius_frac: float = 0.24  # faint centre rosette (decoration only)

    @property
    def apothem_mm(self) -> float:
        """Centre-to-flat distance."""
        return self.flat_to_flat_mm / 2.0

    @property
    def circumradius_mm(self) -> float:
        """Centre-to-corner distance."""
        return self.apothem_mm * 2.0 / math.sqrt(3.0)

    @property
    def height_mm(self) -> float:
        """Corner-to-corner height of the upright (pointy-top) card."""
        return 2.0 * self.circumradius_mm


HEXEL_FACE = HexFace()

# Ink colours (sRGB 0-255) and shapes of the symbol kinds, per edition. Shapes: "disc" (filled
# circle), "ring" (circle outline, paper inside), "diamond" (square on its corner, long axis along
# the edge normal), "triangle" (apex pointing out through the edge).
PAPER_RGB = (247, 245, 238)
BORDER_RGB = (34, 34, 40)
EMBLEM_RGB = (226, 222, 212)
SYMBOLS = {
    "holodex": {
        "R": ("red circle", "disc", (214, 34, 32)),
        "B": ("blue circle", "disc", (22, 92, 212)),
        "V": ("void ring", "ring", (28, 28, 32)),
    },
    "web": {
        "R": ("red circle", "disc", (214, 34, 32)),
        "B": ("blue diamond", "diamond", (22, 92, 212)),
        "Y": ("yellow triangle", "triangle", (246, 184, 0)),
    },
}
