"""The printable Hexapod display-case board. Its geometry is `companion.faces.HexapodCase`
(`CaseBoard` here, the same class the reader calls `CaseLayout`): a grid of `cols` x `rows` cells
(6 x 6 by default) of the card's cell size and four ArUco markers (DICT_4X4_50, like the table
markers) that locate the case and say whose it is, player p (1-4) owning ids 10p..10p+3 at the
case's top-left, top-right, bottom-right and bottom-left corner (player 1: 10-13, player 2:
20-23), never the table markers' 0-3; the markers sit above and below the grid, `gap_mm` away from
it so that a card sticking out of the grid by up to a third of a cell never touches a marker's
quiet zone. This module adds only what is printed on that geometry: pale warm grey cells, thin
grid lines, a dark frame and a title between the top markers. A 6 x 6 board of 28 mm cells is
184 x 260 mm and prints at 100 % on A4 and on Letter. `board_image` rasterises it (colour, any
resolution; markers via `boards.marker_rects`), `write_board_pdf` draws it as vectors.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from ..faces import CASE_CORNERS, HEXAPOD_CASE, HEXAPOD_PLAYERS, HexapodCase
from .boards import aruco_dictionary, marker_rects, rasterise

CORNERS = CASE_CORNERS
PLAYERS = HEXAPOD_PLAYERS
GRID_FILL_RGB = (228, 224, 214)
GRID_LINE_RGB = (150, 146, 138)
FRAME_RGB = (60, 58, 64)
SHEET_RGB = (255, 255, 255)
TEXT_RGB = (60, 58, 64)


CaseBoard = HexapodCase
BOARD = HEXAPOD_CASE


def marker_ids(player: int) -> tuple[int, int, int, int]:
    """The ArUco ids of a player's case, in corner order TL, TR, BR, BL."""
    return BOARD.marker_ids(player)


def marker_owner(marker_id: int) -> tuple[int, str] | None:
    """(player, corner name) of a case marker id, or None if it is no case marker."""
    owner = BOARD.owner(marker_id)
    return None if owner is None else (owner[0], CORNERS[owner[1]])


def title(board: CaseBoard, player: int) -> tuple[str, str]:
    """The two lines printed between the top markers."""
    ids = board.marker_ids(player)
    return (f"HEXAPOD  PLAYER {player}",
            f"{board.cols}x{board.rows} case, {board.cell_mm:g} mm cells, ids {ids[0]}-{ids[3]}")


def _marker_rects(board: CaseBoard, player: int) -> list[tuple[float, float, float, float]]:
    modules = aruco_dictionary(board.dictionary).markerSize + 2
    if modules != board.marker_modules:
        raise ValueError(f"{board.dictionary} markers are {modules} modules wide, the board "
                         f"geometry says {board.marker_modules}")
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
        big, small = title(board, player)
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

    from .printing import _footer, centred, new_canvas

    x0, y0, sw, sh = board.sheet_mm
    try:
        at = centred(page, x0, y0, sw, sh, f"a {board.cols}x{board.rows} case board")
    except ValueError as e:
        raise ValueError(f"{e}: print it on A3") from None
    c = new_canvas(path, at.page_mm, "Hexapod display-case boards")
    for player in players:
        c.setFillColorRGB(*(v / 255.0 for v in GRID_FILL_RGB))
        at.fill_rect(c, 0.0, 0.0, board.width_mm, board.height_mm)
        for x, y, w, h, rgb in _grid_lines(board):
            c.setFillColorRGB(*(v / 255.0 for v in rgb))
            at.fill_rect(c, x, y, w, h)
        c.setFillGray(0.0)
        at.fill_rects(c, _marker_rects(board, player))
        c.setStrokeGray(0.75)
        c.setLineWidth(0.3)
        c.setDash(2, 2)
        c.rect(*at.point(x0, y0 + sh), sw * mm, sh * mm, stroke=1, fill=0)
        c.setDash()
        big, small = title(board, player)
        c.setFillColorRGB(*(v / 255.0 for v in TEXT_RGB))
        tx = board.marker_mm + board.quiet_mm + 3.0
        base = -(board.gap_mm + board.quiet_mm + board.marker_mm)
        c.setFont("Helvetica-Bold", 14)
        c.drawString(*at.point(tx, base + 8.0), big)
        c.setFont("Helvetica", 7.5)
        c.drawString(*at.point(tx, base + 15.0), small)
        _footer(c, at.page_mm, [f"Hexapod display case, player {player}: print at 100 %, "
                              "optionally trim on the dashed line; keep it flat"])
        c.showPage()
    c.save()
    return len(players)
