"""Printable output: cut sheets of card faces and sheets of calibration targets as PDF pages
(reportlab, imported lazily), laid out at 100 % scale in millimetres. Faces are packed either on a
honeycomb (hexagons, shared gap) or a grid, whichever fits more per page; each face gets a dark
bleed and a grey cut line, each page a footer naming its cards and a 50 mm scale bar to check that
the printer did not scale the page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..faces import BORDER_RGB
from .boards import Rect

PAGES_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
FOOTER_MM = 14.0


@dataclass(frozen=True)
class PrintFace:
    """One face to print: its PNG, physical size and cut outline (mm, relative to its centre)."""

    id: str
    png: Path
    width_mm: float
    height_mm: float
    outline_mm: tuple[tuple[float, float], ...]
    extra: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Placement:
    """Where a drawing in sheet millimetres (top-left origin, y down) lands on a PDF page
    (points, bottom-left origin, y up): the page's height and the sheet's offset on it."""

    page_mm: tuple[float, float]
    ox: float = 0.0
    oy: float = 0.0

    def point(self, x: float, y: float) -> tuple[float, float]:
        """The page point, in PDF units, of sheet point (x, y) mm."""
        from reportlab.lib.units import mm

        return (x + self.ox) * mm, (self.page_mm[1] - y - self.oy) * mm

    def fill_rect(self, c, x: float, y: float, w: float, h: float) -> None:
        """Fill one rectangle (sheet mm) with the canvas's fill colour."""
        from reportlab.lib.units import mm

        px, py = self.point(x, y + h)
        c.rect(px, py, w * mm, h * mm, stroke=0, fill=1)

    def fill_rects(self, c, rects: Sequence[Rect]) -> None:
        """Fill rectangles (sheet mm) as one path with the non-zero rule, so that touching
        rectangles (a marker's modules) print without seams."""
        from reportlab.lib.units import mm

        path = c.beginPath()
        for x, y, w, h in rects:
            path.rect(*self.point(x, y + h), w * mm, h * mm)
        c.drawPath(path, stroke=0, fill=1, fillMode=1)


def centred(page: str, x0: float, y0: float, w: float, h: float, what: str) -> Placement:
    """The placement of the sheet box (x0, y0, w, h) mm centred above the footer of a `page`
    page at 100 % scale; ValueError naming `what` if it does not fit."""
    pw, ph = PAGES_MM[page]
    if w > pw - 4.0 or h > ph - FOOTER_MM - 2.0:
        raise ValueError(f"{what} ({w:.0f} x {h:.0f} mm) does not fit on {page}")
    return Placement((pw, ph), (pw - w) / 2.0 - x0, (ph - FOOTER_MM - h) / 2.0 - y0)


def new_canvas(path: Path, page_mm: tuple[float, float], title: str):
    """A reportlab canvas of one page size, titled and signed."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=(page_mm[0] * mm, page_mm[1] * mm))
    c.setTitle(title)
    c.setAuthor("Table Companion")
    return c


def hexagon_outline_mm(flat_to_flat_mm: float) -> tuple[tuple[float, float], ...]:
    """Corners of a pointy-top hexagon (x right, y down) about its centre."""
    r = flat_to_flat_mm / math.sqrt(3.0)
    angles = [math.radians(-60 * i - 30) for i in range(6)]
    return tuple((r * math.cos(a), r * math.sin(a)) for a in angles)


def pack_centres(page_mm: tuple[float, float], w: float, h: float, gap: float, margin: float,
                 honeycomb: bool) -> list[tuple[float, float]]:
    """Card centres (mm from the page's top-left) filling the page above the footer.

    Honeycomb rows are (w + gap) * sqrt(3)/2 apart and alternately shifted by half a pitch; both
    phases and a plain grid are tried, the fullest wins; the result is centred horizontally."""
    pw, ph = page_mm
    left, right, top, bottom = margin, pw - margin, margin, ph - margin - FOOTER_MM
    options = [(h + gap, 0.0, 0.0)]
    if honeycomb:
        dy = (w + gap) * math.sqrt(3.0) / 2.0
        options += [(dy, 0.0, 0.5), (dy, 0.5, 0.0)]
    best: list[tuple[float, float]] = []
    for row_pitch, shift_even, shift_odd in options:
        centres = []
        y, row = top + h / 2.0, 0
        while y + h / 2.0 <= bottom + 1e-9:
            x = left + w / 2.0 + (shift_even if row % 2 == 0 else shift_odd) * (w + gap)
            while x + w / 2.0 <= right + 1e-9:
                centres.append((x, y))
                x += w + gap
            y, row = y + row_pitch, row + 1
        if len(centres) > len(best):
            best = centres
    if best:
        xs = [x for x, _ in best]
        dx = (pw - (max(xs) - min(xs))) / 2.0 - min(xs)
        best = [(x + dx, y) for x, y in best]
    return best


def _footer(c, page_mm: tuple[float, float], lines: Sequence[str]) -> None:
    """Footer text and a 50 mm scale bar at the page bottom."""
    from reportlab.lib.units import mm

    pw, _ = page_mm
    c.setFillGray(0.25)
    c.setFont("Helvetica", 6.5)
    y = 10.0
    for line in lines:
        c.drawString(12 * mm, y * mm, line)
        y -= 3.0
    c.setLineWidth(0.6)
    c.setStrokeGray(0.0)
    x0 = (pw - 12.0 - 50.0) * mm
    c.line(x0, 9 * mm, x0 + 50 * mm, 9 * mm)
    for t in (0, 10, 20, 30, 40, 50):
        c.line(x0 + t * mm, 9 * mm, x0 + t * mm, (10.5 if t % 50 == 0 else 9.8) * mm)
    c.drawString(x0, 5.5 * mm, "50 mm: print at 100 % (actual size)")


def _chunks(text: Sequence[str], width: int) -> list[str]:
    lines, cur = [], ""
    for item in text:
        add = (", " if cur else "") + item
        if len(cur) + len(add) > width:
            lines.append(cur + ",")
            cur = item
        else:
            cur += add
    return [*lines, cur] if cur else lines


def write_cut_sheets(path: Path, faces: Sequence[PrintFace], page: str = "A4",
                     title: str = "", gap_mm: float = 3.0, margin_mm: float = 6.0,
                     bleed_mm: float = 1.0, honeycomb: bool = True) -> int:
    """Write a PDF of cut sheets; returns the number of pages."""
    if not faces:
        raise ValueError("no faces to print")
    page_mm = PAGES_MM[page]
    w = max(f.width_mm for f in faces)
    h = max(f.height_mm for f in faces)
    bleed_mm = min(bleed_mm, gap_mm / 3.0)  # the bleed lives inside the gap between cut lines
    centres = pack_centres(page_mm, w, h, gap_mm, margin_mm, honeycomb)
    if not centres:
        raise ValueError(f"a {w:.0f} x {h:.0f} mm card does not fit on {page}")
    per = len(centres)
    pages = math.ceil(len(faces) / per)
    c = new_canvas(path, page_mm, title or "cut sheets")
    ph = page_mm[1]
    for p in range(pages):
        batch = faces[p * per:(p + 1) * per]
        for face, (cx, cy) in zip(batch, centres, strict=False):
            _draw_face(c, face, cx, ph - cy, bleed_mm)
        ids = [f.id for f in batch]
        head = f"{title} | sheet {p + 1}/{pages} | cut on the grey lines | cards left to right, " \
               "top to bottom:"
        _footer(c, page_mm, [head, *_chunks(ids, 110)][:3])
        c.showPage()
    c.save()
    return pages


def _scaled(outline: Sequence[tuple[float, float]], grow: float) -> list[tuple[float, float]]:
    """The outline pushed outwards by `grow` mm (for a regular polygon about the origin)."""
    out = []
    n = len(outline)
    apothem_scale = math.cos(math.pi / n)
    for x, y in outline:
        r = math.hypot(x, y)
        k = (r + grow / apothem_scale) / r if r else 1.0
        out.append((x * k, y * k))
    return out


def _path(c, points: Sequence[tuple[float, float]], cx: float, cy: float):
    from reportlab.lib.units import mm

    p = c.beginPath()
    for i, (x, y) in enumerate(points):
        (p.moveTo if i == 0 else p.lineTo)((cx + x) * mm, (cy - y) * mm)
    p.close()
    return p


def _draw_face(c, face: PrintFace, cx: float, cy: float, bleed_mm: float) -> None:
    """One face centred at (cx, cy) mm in PDF coordinates (y up): bleed, image, cut line."""
    from reportlab.lib.units import mm

    if bleed_mm > 0:
        c.setFillColorRGB(*(v / 255.0 for v in BORDER_RGB))
        c.drawPath(_path(c, _scaled(face.outline_mm, bleed_mm), cx, cy), stroke=0, fill=1)
    c.drawImage(str(face.png), (cx - face.width_mm / 2) * mm, (cy - face.height_mm / 2) * mm,
                face.width_mm * mm, face.height_mm * mm, mask="auto")
    c.setStrokeGray(0.62)
    c.setLineWidth(0.35)
    c.drawPath(_path(c, face.outline_mm, cx, cy), stroke=1, fill=0)


def write_rect_sheet(path: Path, rects: Sequence[Rect], labels: Sequence[tuple[float, float, str]],
                     page_mm: tuple[float, float], title: str,
                     dashed: Sequence[Rect] = ()) -> None:
    """A one-page PDF of black rectangles (mm, top-left origin), text labels and dashed cut
    boxes: the vector form of a marker sheet or a ChArUco board."""
    from reportlab.lib.units import mm

    ph = page_mm[1]
    c = new_canvas(path, page_mm, title)
    c.setFillGray(0.0)
    Placement(page_mm).fill_rects(c, rects)
    c.setStrokeGray(0.6)
    c.setLineWidth(0.4)
    c.setDash(2, 2)
    for x, y, w, h in dashed:
        c.rect(x * mm, (ph - y - h) * mm, w * mm, h * mm, stroke=1, fill=0)
    c.setDash()
    c.setFillGray(0.15)
    for x, y, text in labels:
        c.setFont("Helvetica", 9)
        c.drawString(x * mm, (ph - y) * mm, text)
    _footer(c, page_mm, [title])
    c.showPage()
    c.save()
