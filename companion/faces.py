"""The physical design of our printed cards, shared by the renderer (`synth`) and the reader
(`vision`) so that what we print is what we look for.

Hex'el cards are pointy-top hexagons (flat sides left and right) with a white face, a dark border
band that separates the card from any table, and one large, saturated symbol per edge, centred on
the edge's normal. Distances are fractions of the apothem (centre-to-flat distance), so they hold
at any print size or camera resolution. Colours are sRGB ink targets; the reader must classify by
normalised colour (white reference from the face itself), never by these exact values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Edge order of the `symbols` strings everywhere: E, NE, NW, W, SW, SE (counter-clockwise,
# image y down). Edge d's outward normal points at angle -60*d degrees in image coordinates.
EDGE_NAMES = ("E", "NE", "NW", "W", "SW", "SE")


def edge_normal(d: int) -> tuple[float, float]:
    """Unit vector (x right, y down) from a pointy-top card's centre towards the middle of edge d."""
    a = math.radians(-60.0 * d)
    return (math.cos(a), math.sin(a))


@dataclass(frozen=True)
class HexFace:
    """Geometry of a printed Hex'el card face, in millimetres and apothem fractions."""

    flat_to_flat_mm: float = 64.0     # width across the flats (= 2 x apothem)
    border_frac: float = 0.07         # dark border band, inward from the cut line
    symbol_centre_frac: float = 0.66  # symbol centre along each edge normal
    symbol_radius_frac: float = 0.21  # symbol size (radius of its bounding circle)

    @property
    def apothem_mm(self) -> float:
        """Centre-to-flat distance."""
        return self.flat_to_flat_mm / 2.0

    @property
    def circumradius_mm(self) -> float:
        """Centre-to-corner distance."""
        return self.apothem_mm * 2.0 / math.sqrt(3.0)


HEXEL_FACE = HexFace()

# Ink colours (sRGB 0-255) and shapes of the symbol kinds, per edition.
PAPER_RGB = (247, 245, 238)
BORDER_RGB = (34, 34, 40)
SYMBOLS = {
    "holodex": {
        "R": ("red circle", "disc", (210, 36, 30)),
        "B": ("blue circle", "disc", (30, 80, 190)),
        "V": ("void ring", "ring", (30, 30, 34)),
    },
    "web": {
        "R": ("red circle", "disc", (210, 36, 30)),
        "B": ("blue diamond", "diamond", (30, 80, 190)),
        "Y": ("yellow triangle", "triangle", (240, 190, 0)),
    },
}
