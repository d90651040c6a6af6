"""Calibration targets as vector geometry: the four ArUco table markers (DICT_4X4_50, ids 0-3 at
the play area's top-left, top-right, bottom-right and bottom-left corners) and the ChArUco board
for camera intrinsics (`CHARUCO`). Both are described as lists of black rectangles in millimetres
(x right, y down, origin top-left of the target), so that the printable PDF, the 300-dpi PNG and
the synthetic scenes draw exactly the same thing. The reader builds its detector from the same
constants (`aruco_dictionary(TABLE_DICT)`, `CHARUCO.board()`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

TABLE_DICT = "DICT_4X4_50"
MARKER_MM = 40.0
MARKER_CORNERS = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
QUIET_ZONE_MODULES = 1.5  # white margin around each marker, in marker modules (cells)

Rect = tuple[float, float, float, float]  # x, y, w, h in mm


@lru_cache(maxsize=8)
def aruco_dictionary(name: str = TABLE_DICT) -> cv2.aruco.Dictionary:
    """The predefined OpenCV ArUco dictionary called `name` (e.g. "DICT_4X4_50")."""
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


@lru_cache(maxsize=256)
def marker_bits(marker_id: int, dictionary: str = TABLE_DICT) -> np.ndarray:
    """The marker as a (n+2)x(n+2) bool array of modules, True = black (border included)."""
    d = aruco_dictionary(dictionary)
    n = d.markerSize + 2
    img = cv2.aruco.generateImageMarker(d, int(marker_id), n, borderBits=1)
    bits = img < 128
    bits.setflags(write=False)
    return bits


def marker_rects(marker_id: int, x: float, y: float, size: float,
                 dictionary: str = TABLE_DICT) -> list[Rect]:
    """Black rectangles (mm) of marker `marker_id` with its top-left corner at (x, y)."""
    bits = marker_bits(marker_id, dictionary)
    m = size / bits.shape[0]
    out: list[Rect] = []
    for row in range(bits.shape[0]):
        cols = np.flatnonzero(bits[row])
        if cols.size == 0:
            continue
        # merge horizontal runs of black modules into one rectangle each
        breaks = np.flatnonzero(np.diff(cols) > 1)
        starts = np.r_[cols[0], cols[breaks + 1]]
        ends = np.r_[cols[breaks], cols[-1]]
        out += [(x + s * m, y + row * m, (e - s + 1) * m, m)
                for s, e in zip(starts, ends, strict=True)]
    return out


def quiet_zone_mm(size_mm: float = MARKER_MM, dictionary: str = TABLE_DICT) -> float:
    """Width of the white margin printed around a marker of `size_mm`."""
    return QUIET_ZONE_MODULES * size_mm / (aruco_dictionary(dictionary).markerSize + 2)


@dataclass(frozen=True)
class CharucoSpec:
    """A ChArUco board for camera calibration (fits A4 landscape at 100 % scale)."""

    squares_x: int = 9
    squares_y: int = 6
    square_mm: float = 28.0
    marker_mm: float = 21.0
    dictionary: str = "DICT_5X5_100"  # distinct from the table markers' dictionary

    @property
    def size_mm(self) -> tuple[float, float]:
        """Board width and height (without the white margin)."""
        return (self.squares_x * self.square_mm, self.squares_y * self.square_mm)

    def board(self) -> cv2.aruco.CharucoBoard:
        """The OpenCV board object (object points in mm, y down, origin top-left)."""
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm,
                                      self.marker_mm, aruco_dictionary(self.dictionary))

    def rects(self) -> list[Rect]:
        """Black rectangles (mm): the chessboard's dark squares and every marker's modules."""
        s = self.square_mm
        out: list[Rect] = [(i * s, j * s, s, s) for j in range(self.squares_y)
                           for i in range(self.squares_x) if (i + j) % 2 == 0]
        board = self.board()
        ids = board.getIds().ravel()
        for marker_id, corners in zip(ids, board.getObjPoints(), strict=True):
            x, y = np.asarray(corners)[0, :2]
            out += marker_rects(int(marker_id), float(x), float(y), self.marker_mm,
                                self.dictionary)
        return out


CHARUCO = CharucoSpec()


def rasterise(rects: list[Rect], width_mm: float, height_mm: float, px_per_mm: float,
              origin_mm: tuple[float, float] = (0.0, 0.0), supersample: int = 2) -> np.ndarray:
    """A white uint8 image of `width_mm` x `height_mm` with `rects` drawn black (anti-aliased).

    `origin_mm` is where the rects' (0, 0) lies on the image (mm from its top-left)."""
    s = max(1, int(supersample))
    k = px_per_mm * s
    w, h = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    img = np.full((h * s, w * s), 255, np.uint8)
    ox, oy = origin_mm
    for x, y, rw, rh in rects:
        x0, y0 = round((x + ox) * k), round((y + oy) * k)
        x1, y1 = round((x + ox + rw) * k), round((y + oy + rh) * k)
        img[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = 0
    return img if s == 1 else cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)


def marker_image(marker_id: int, px_per_module: int = 20, quiet_modules: float = 1.5,
                 dictionary: str = TABLE_DICT) -> np.ndarray:
    """A crisp grey marker image with a white quiet zone (for warping into scenes)."""
    bits = marker_bits(marker_id, dictionary)
    core = np.where(bits, 0, 255).astype(np.uint8)
    core = cv2.resize(core, None, fx=px_per_module, fy=px_per_module,
                      interpolation=cv2.INTER_NEAREST)
    q = round(quiet_modules * px_per_module)
    return cv2.copyMakeBorder(core, q, q, q, q, cv2.BORDER_CONSTANT, value=255)


@dataclass(frozen=True)
class Sheet:
    """A printable page of black rectangles, labels and dashed cut boxes (all mm, top-left
    origin); drawn as vectors in the PDF and rasterised for the PNG."""

    title: str
    page_mm: tuple[float, float]
    rects: tuple[Rect, ...]
    labels: tuple[tuple[float, float, str], ...] = ()  # (x, baseline y, text)
    cut_boxes: tuple[Rect, ...] = ()


def marker_sheet(size_mm: float = MARKER_MM, page_mm: tuple[float, float] = (210.0, 297.0)
                 ) -> Sheet:
    """The four table markers, two by two, each in a dashed cut box with its white quiet zone
    and a label naming the play-area corner it marks."""
    if size_mm <= 0:
        raise ValueError("the marker size must be positive")
    q = quiet_zone_mm(size_mm)
    label_h = 9.0
    box_w, box_h = size_mm + 2 * q, size_mm + 2 * q + label_h
    pw, ph = page_mm
    gap_x, gap_y = (pw - 2 * box_w) / 3.0, (ph - 30.0 - 2 * box_h) / 3.0
    if min(gap_x, gap_y) < 3.0:
        raise ValueError(f"four {size_mm:g} mm markers do not fit on one page; try a smaller "
                         "--size-mm")
    rects, labels, boxes = [], [], []
    for marker_id in range(4):
        col, row = ((0, 0), (1, 0), (1, 1), (0, 1))[marker_id]
        bx = gap_x + col * (box_w + gap_x)
        by = 15.0 + gap_y + row * (box_h + gap_y)
        boxes.append((bx, by, box_w, box_h))
        rects += marker_rects(marker_id, bx + q, by + q, size_mm)
        labels.append((bx + 2.0, by + box_h - 5.0,
                       f"id {marker_id}: {MARKER_CORNERS[marker_id]} corner"))
    labels.append((gap_x, 12.0, f"Table markers ({TABLE_DICT}, {size_mm:g} mm): cut out and put "
                                "each at its corner of the play area, upright as on this page"))
    return Sheet(f"Table Companion table markers, {size_mm:g} mm", page_mm, tuple(rects),
                 tuple(labels), tuple(boxes))


def charuco_sheet(spec: CharucoSpec | None = None,
                  page_mm: tuple[float, float] = (297.0, 210.0)) -> Sheet:
    """The ChArUco calibration board centred on a landscape page."""
    spec = spec or CHARUCO
    bw, bh = spec.size_mm
    ox, oy = (page_mm[0] - bw) / 2.0, (page_mm[1] - bh) / 2.0 - 3.0
    rects = tuple((x + ox, y + oy, w, h) for x, y, w, h in spec.rects())
    text = (f"ChArUco {spec.squares_x}x{spec.squares_y}, {spec.square_mm:g} mm squares, "
            f"{spec.marker_mm:g} mm markers, {spec.dictionary}: for `companion calibrate "
            "camera`; keep it flat")
    return Sheet(f"Table Companion ChArUco board {spec.squares_x}x{spec.squares_y}", page_mm,
                 rects, ((ox, oy - 4.0, text),))


def sheet_image(sheet: Sheet, dpi: float = 300.0) -> np.ndarray:
    """The sheet rasterised (grey uint8) at `dpi`, with labels and cut boxes."""
    k = dpi / 25.4
    img = rasterise(list(sheet.rects), *sheet.page_mm, px_per_mm=k)
    for x, y, w, h in sheet.cut_boxes:
        p0, p1 = (int(x * k), int(y * k)), (int((x + w) * k), int((y + h) * k))
        _dashed_rect(img, p0, p1, max(1, int(k * 0.2)), int(2 * k))
    for x, y, text in sheet.labels:
        cv2.putText(img, text, (int(x * k), int(y * k)), cv2.FONT_HERSHEY_SIMPLEX, k * 0.11,
                    40, max(1, int(k * 0.25)), cv2.LINE_AA)
    return img


def _dashed_rect(img: np.ndarray, p0: tuple[int, int], p1: tuple[int, int], width: int,
                 dash: int) -> None:
    """A grey dashed rectangle outline drawn in place."""
    (x0, y0), (x1, y1) = p0, p1
    mask = (np.arange(max(x1 - x0, y1 - y0) + 1) // dash) % 2 == 0
    xs, ys = np.arange(x0, x1 + 1), np.arange(y0, y1 + 1)
    for y in (y0, y1):
        img[y:y + width, xs[mask[:xs.size]]] = 150
    for x in (x0, x1):
        img[ys[mask[:ys.size]], x:x + width] = 150
