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

Hexapod display-case boards (`HexapodCase`, `HEXAPOD_CASE`) are described here too: a grid of
square cells the size of a card's cells, with four ArUco markers that name the case's player and
corner, above and below the grid; `synth.hexapod_board` prints exactly this geometry (adding only
colours, grid lines and the title text) and `vision.hexapod_markers` fits exactly this geometry to
the markers it detects. Lengths are board millimetres, origin at the grid's top-left corner, x
right, y down. This module needs numpy but not OpenCV: the marker dictionary is named, not built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

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


# -- Hexapod display-case boards -------------------------------------------------------------------

HEXAPOD_CELL_MM = 28.0   # side of a cell on a Hexapod card and on the display-case board
# The Hexapod cards' tile inks (sRGB), one per insect kind: what the renderer prints and the
# reader's hue classes are built from. K, the dung beetle's black tile, is read as a neutral.
HEXAPOD_INKS: dict[str, tuple[int, int, int]] = {
    "B": (30, 92, 222),    # blue beetle
    "G": (38, 160, 64),    # green beetle
    "Y": (246, 186, 0),    # gold beetle
    "R": (216, 38, 44),    # red leaf beetles (a couple)
    "K": (40, 38, 36),     # black dung beetle
    "S": (138, 62, 182),   # stag beetle (violet), St top / Sb bottom
    "M": (0, 168, 160),    # moth (teal, a luna moth), Ml left / Mr right
}
HEXAPOD_PLAYERS = (1, 2, 3, 4)
CASE_CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True)
class HexapodCase:
    """Geometry of a printed Hexapod display-case board (mm; origin at the grid's top-left
    corner, x right, y down). Player p (1-4) owns the ArUco ids 10p..10p+3 at the case's TL, TR,
    BR and BL corner; the markers sit above and below the grid, flush with its left and right
    edges, `gap_mm` from the grid to their quiet zone. Markers are `marker_modules` modules wide
    (a 4x4 code plus its one-module black border, as `dictionary` says) with a white quiet zone
    of `quiet_modules` modules around them. The trimmed sheet extends `margin_mm` beyond the
    quiet zones and `side_mm` beyond the grid's sides."""

    cols: int = 6
    rows: int = 6
    cell_mm: float = HEXAPOD_CELL_MM
    marker_mm: float = 22.0
    gap_mm: float = 10.0           # grid edge to a marker's quiet zone
    margin_mm: float = 3.0         # quiet zone to the sheet's edge
    side_mm: float = 8.0           # grid side to the sheet's edge
    dictionary: str = "DICT_4X4_50"
    marker_modules: int = 6        # a 4x4 marker with its one-module black border
    quiet_modules: float = 1.5     # white margin around a marker, in marker modules

    def __post_init__(self) -> None:
        if self.cols < 2 or self.rows < 3:
            raise ValueError("a display case holds at least one 2 x 3 card")
        if 2 * self.quiet_mm + 2 * self.marker_mm > self.width_mm:
            raise ValueError("the case is too narrow for its two markers side by side")

    @property
    def width_mm(self) -> float:
        """Grid width."""
        return self.cols * self.cell_mm

    @property
    def height_mm(self) -> float:
        """Grid height."""
        return self.rows * self.cell_mm

    @property
    def quiet_mm(self) -> float:
        """White margin around each marker."""
        return self.quiet_modules * self.marker_mm / self.marker_modules

    @property
    def sheet_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, width, height) of the trimmed sheet in board mm."""
        strip = self.gap_mm + 2.0 * self.quiet_mm + self.marker_mm + self.margin_mm
        return (-self.side_mm, -strip, self.width_mm + 2.0 * self.side_mm,
                self.height_mm + 2.0 * strip)

    def marker_ids(self, player: int) -> tuple[int, int, int, int]:
        """The ArUco ids of a player's case, in corner order TL, TR, BR, BL."""
        if player not in HEXAPOD_PLAYERS:
            raise ValueError(
                f"a display case belongs to player 1-{HEXAPOD_PLAYERS[-1]}, got {player!r}")
        return tuple(10 * player + i for i in range(4))

    def owner(self, marker_id: int) -> tuple[int, int] | None:
        """(player, corner index 0-3) of a case marker id, None for any other id."""
        player, corner = divmod(int(marker_id), 10)
        if player in HEXAPOD_PLAYERS and corner < 4:
            return player, corner
        return None

    def marker_corners(self, player: int) -> dict[int, np.ndarray]:
        """id -> (4, 2) corners (board mm) of each marker, in ArUco order (its own TL, TR, BR,
        BL; markers are printed upright)."""
        m, q, g = self.marker_mm, self.quiet_mm, self.gap_mm
        x = (0.0, self.width_mm - m, self.width_mm - m, 0.0)
        y_top, y_bot = -(g + q + m), self.height_mm + g + q
        y = (y_top, y_top, y_bot, y_bot)
        square = np.array([(0, 0), (m, 0), (m, m), (0, m)], float)
        return {mid: square + np.array((x[i], y[i]))
                for i, mid in enumerate(self.marker_ids(player))}

    def cell_polygon(self, col: int, row: int) -> np.ndarray:
        """(4, 2) corners (board mm, TL TR BR BL) of a grid cell."""
        s = self.cell_mm
        return np.array([(col, row), (col + 1, row), (col + 1, row + 1), (col, row + 1)],
                        float) * s


HEXAPOD_CASE = HexapodCase()
