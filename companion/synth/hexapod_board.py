"""The printable Hexapod display-case board: a grid of `cols` x `rows` cells (6 x 6 by default)
of the card's cell size, on pale warm grey with thin grid lines and a dark frame, and four ArUco
markers (DICT_4X4_50, like the table markers) that locate the case and say whose it is. Player p
(1-4) owns ids 10p..10p+3 at the case's top-left, top-right, bottom-right and bottom-left corner
(player 1: 10-13, player 2: 20-23), never the table markers' 0-3. The markers sit above and below
the grid, flush with its left and right edges, `gap_mm` away from it so that a card sticking out
of the grid by up to a third of a cell never touches a marker's quiet zone. Board coordinates are
millimetres with the origin at the grid's top-left corner (x right, y down); the sheet (the
trimmed board) extends beyond the markers' quiet zones by `margin_mm`. A 6 x 6 board of 28 mm
cells is 184 x 260 mm and prints at 100 % on A4 and on Letter. `board_image` rasterises it
(colour, any resolution; markers via `boards.marker_rects`), `write_board_pdf` draws it as vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .boards import QUIET_ZONE_MODULES, TABLE_DICT, aruco_dictionary, marker_rects, rasterise
from .hexapod_face import CELL_MM

CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
PLAYERS = (1, 2, 3, 4)
GRID_FILL_RGB = (228, 224, 214)
GRID_LINE_RGB = (150, 146, 138)
FRAME_RGB = (60, 58, 64)
SHEET_RGB = (255, 255, 255)
TEXT_RGB = (60, 58, 64)


def marker_ids(player: int) -> tuple[int, int, int, int]:
    """The ArUco ids of a player's case, in corner order TL, TR, BR, BL."""
    if player not in PLAYERS:
        raise ValueError(f"a display case belongs to player 1-{PLAYERS[-1]}, got {player!r}")
    return tuple(10 * player + i for i in range(4))


def marker_owner(marker_id: int) -> tuple[int, str] | None:
    """(player, corner name) of a case marker id, or None if it is no case marker."""
    player, corner = divmod(int(marker_id), 10)
    if player in PLAYERS and corner < 4:
        return player, CORNERS[corner]
    return None


@dataclass(frozen=True)
class CaseBoard:
    """Geometry of a display-case board (mm)."""

    cols: int = 6
    rows: int = 6
    cell_mm: float = CELL_MM
    marker_mm: float = 22.0
    gap_mm: float = 10.0      # grid edge to a marker's quiet zone
    margin_mm: float = 3.0    # quiet zone to the sheet's edge
    side_mm: float = 8.0      # grid side to the sheet's edge
    dictionary: str = TABLE_DICT

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
        n = aruco_dictionary(self.dictionary).markerSize + 2
        return QUIET_ZONE_MODULES * self.marker_mm / n

    @property
    def sheet_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, width, height) of the trimmed sheet in board mm."""
        strip = self.gap_mm + 2.0 * self.quiet_mm + self.marker_mm + self.margin_mm
        return (-self.side_mm, -strip, self.width_mm + 2.0 * self.side_mm,
                self.height_mm + 2.0 * strip)

    def marker_corners(self, player: int) -> dict[int, np.ndarray]:
        """id -> (4, 2) corners (board mm) of each marker, in ArUco order (its own TL, TR, BR,
        BL; markers are printed upright)."""
        m, q, g = self.marker_mm, self.quiet_mm, self.gap_mm
        x = (0.0, self.width_mm - m, self.width_mm - m, 0.0)
        y_top, y_bot = -(g + q + m), self.height_mm + g + q
        y = (y_top, y_top, y_bot, y_bot)
        square = np.array([(0, 0), (m, 0), (m, m), (0, m)], float)
        return {mid: square + np.array((x[i], y[i])) for i, mid in enumerate(marker_ids(player))}

    def cell_polygon(self, col: int, row: int) -> np.ndarray:
        """(4, 2) corners (board mm, TL TR BR BL) of a grid cell."""
        s = self.cell_mm
        return np.array([(col, row), (col + 1, row), (col + 1, row + 1), (col, row + 1)],
                        float) * s

    def title(self, player: int) -> tuple[str, str]:
        """The two lines printed between the top markers."""
        ids = marker_ids(player)
        return (f"HEXAPOD  PLAYER {player}",
                f"{self.cols}x{self.rows} case, {self.cell_mm:g} mm cells, ids {ids[0]}-{ids[3]}")


BOARD = CaseBoard()


def _marker_rects(board: CaseBoard, player: int) -> list[tuple[float, float, float, float]]:
    rects = []
    for mid, c in board.marker_corners(player).items():
        rects += marker_rects(mid, float(c[0, 0]), float(c[0, 1]), board.marker_mm,
                              board.dictionary)
    return rects


def _grid_lines(board: CaseBoard) -> list[tuple[float, float, float, float, tuple]]:
    """(x, y, w, h, rgb) rectangles of the grid lines and frame (board mm)."""
    line, frame = 0.45, 0.9
    w, h, s = board.width_mm, board.height_mm, board.cell_mm
    out = [(i * s - line / 2, 0.0, line, h, GRID_LINE_RGB) for i in range(1, board.cols)]
    out += [(0.0, j * s - line / 2, w, line, GRID_LINE_RGB) for j in range(1, board.rows)]
    out += [(-frame, -frame, w + 2 * frame, frame, FRAME_RGB),
            (-frame, h, w + 2 * frame, frame, FRAME_RGB),
            (-frame, 0.0, frame, h, FRAME_RGB), (w, 0.0, frame, h, FRAME_RGB)]
    return out


def _board_image(board: CaseBoard, player: int, px_per_mm: float, supersample: int) -> np.ndarray:
    x0, y0, sw, sh = board.sheet_mm
    s = max(1, int(supersample))
    k = px_per_mm * s
    w, h = round(sw * px_per_mm), round(sh * px_per_mm)
    img = np.empty((h * s, w * s, 3), np.uint8)
    img[:] = SHEET_RGB[::-1]

    def fill(x, y, rw, rh, rgb):
        a0, b0 = round((x - x0) * k), round((y - y0) * k)
        a1, b1 = round((x - x0 + rw) * k), round((y - y0 + rh) * k)
        img[max(b0, 0):max(b1, 0), max(a0, 0):max(a1, 0)] = rgb[::-1]

    fill(0.0, 0.0, board.width_mm, board.height_mm, GRID_FILL_RGB)
    for x, y, rw, rh, rgb in _grid_lines(board):
        fill(x, y, rw, rh, rgb)
    if s > 1:
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    ink = rasterise(_marker_rects(board, player), sw, sh, px_per_mm, origin_mm=(-x0, -y0),
                    supersample=2 if s > 1 else 1)
    img = (img.astype(np.uint16) * ink[:, :, None] // 255).astype(np.uint8)
    if px_per_mm >= 2.0:  # text is illegible below ~2 px/mm anyway
        big, small = board.title(player)
        m, q = board.marker_mm, board.quiet_mm
        tx = (m + q + 3.0 - x0) * px_per_mm
        base = (-(board.gap_mm + q + m) - y0) * px_per_mm
        for text, height_mm, dy in ((big, 5.0, 8.0), (small, 2.6, 15.0)):
            thick = max(1, round(height_mm * px_per_mm / 10))
            scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX,
                                               round(height_mm * px_per_mm), thick)
            cv2.putText(img, text, (round(tx), round(base + dy * px_per_mm)),
                        cv2.FONT_HERSHEY_DUPLEX, scale, TEXT_RGB[::-1], thick, cv2.LINE_AA)
    return img


@lru_cache(maxsize=16)
def _cached_board(board: CaseBoard, player: int, px_per_mm: float) -> np.ndarray:
    img = _board_image(board, player, px_per_mm, 4 if px_per_mm < 8 else 1)
    img.setflags(write=False)
    return img


def board_image(player: int, px_per_mm: float = 300 / 25.4, board: CaseBoard = BOARD
                ) -> np.ndarray:
    """The trimmed board sheet of `player` as BGR uint8 (pixel (0, 0) is the sheet's top-left
    corner, `board.sheet_mm`); cached, read-only."""
    marker_ids(player)
    return _cached_board(board, player, float(px_per_mm))


def write_board_pdf(path: Path, players: tuple[int, ...] = (1, 2), page: str = "A4",
                    board: CaseBoard = BOARD) -> int:
    """A PDF with one page per player's board, centred at 100 % scale; returns the page count.
    Raises ValueError if the board does not fit the page (then print on A3)."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    from .printing import FOOTER_MM, PAGES_MM, _footer

    pw, ph = PAGES_MM[page]
    x0, y0, sw, sh = board.sheet_mm
    if sw > pw - 4.0 or sh > ph - FOOTER_MM - 2.0:
        raise ValueError(f"a {board.cols}x{board.rows} case board ({sw:.0f} x {sh:.0f} mm) "
                         f"does not fit on {page}: print it on A3")
    ox = (pw - sw) / 2.0 - x0                      # board mm -> page mm (top-left origin)
    oy = (ph - FOOTER_MM - sh) / 2.0 - y0

    def rect(c, x, y, w, h, rgb=None):
        if rgb is not None:
            c.setFillColorRGB(*(v / 255.0 for v in rgb))
        c.rect((x + ox) * mm, (ph - y - oy - h) * mm, w * mm, h * mm, stroke=0, fill=1)

    c = canvas.Canvas(str(path), pagesize=(pw * mm, ph * mm))
    c.setTitle("Hexapod display-case boards")
    c.setAuthor("Table Companion")
    for player in players:
        rect(c, 0.0, 0.0, board.width_mm, board.height_mm, GRID_FILL_RGB)
        for x, y, w, h, rgb in _grid_lines(board):
            rect(c, x, y, w, h, rgb)
        c.setFillGray(0.0)
        p = c.beginPath()
        for x, y, w, h in _marker_rects(board, player):
            p.rect((x + ox) * mm, (ph - y - oy - h) * mm, w * mm, h * mm)
        c.drawPath(p, stroke=0, fill=1, fillMode=1)
        c.setStrokeGray(0.75)
        c.setLineWidth(0.3)
        c.setDash(2, 2)
        c.rect((x0 + ox) * mm, (ph - y0 - oy - sh) * mm, sw * mm, sh * mm, stroke=1, fill=0)
        c.setDash()
        big, small = board.title(player)
        c.setFillColorRGB(*(v / 255.0 for v in TEXT_RGB))
        tx = board.marker_mm + board.quiet_mm + 3.0 + ox
        base = -(board.gap_mm + board.quiet_mm + board.marker_mm) + oy
        c.setFont("Helvetica-Bold", 14)
        c.drawString(tx * mm, (ph - base - 8.0) * mm, big)
        c.setFont("Helvetica", 7.5)
        c.drawString(tx * mm, (ph - base - 15.0) * mm, small)
        _footer(c, (pw, ph), [f"Hexapod display case, player {player}: print at 100 %, "
                              "optionally trim on the dashed line; keep it flat"])
        c.showPage()
    c.save()
    return len(players)
