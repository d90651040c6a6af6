"""The printable Hexapod colour chart (`companion.colour_chart.ColourChart`): each card ink's
swatches in the ink's exact sRGB (as the faces print a tile), the card paper's swatches, the four
locating markers, a title and a line of small print saying what the chart is for. Printed with
the same printer and paper as the cards and photographed under the table's light, it lets
`companion calibrate colours PHOTO --game hexapod` learn the inks as that printer prints them.
`chart_image` rasterises it (BGR, any resolution), `write_chart_pdf` draws it as vectors on one
page.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..colour_chart import CHART, CHART_INKS, PAPER_KIND, ColourChart
from .boards import marker_rects, rasterise

TEXT_RGB = (60, 58, 64)
TITLE = "HEXAPOD COLOUR CHART"
SMALL = ("Print at 100 % with the cards' printer and paper. Lay it flat under the table's light,",
         "photograph it whole, without glare:  companion calibrate colours PHOTO --game hexapod")
NAMES = {"B": "blue", "G": "green", "Y": "gold", "R": "red", "K": "black", "S": "stag",
         "M": "moth", PAPER_KIND: "card paper"}


def _marker_rects(chart: ColourChart) -> list[tuple[float, float, float, float]]:
    rects = []
    for mid, c in chart.marker_corners().items():
        rects += marker_rects(mid, float(c[0, 0]), float(c[0, 1]), chart.marker_mm,
                              chart.dictionary)
    return rects


def _text_lines(chart: ColourChart) -> list[tuple[str, float, float, float]]:
    """(text, x mm, baseline y mm, height mm) of the title and small print."""
    x = chart.inset_mm + chart.marker_mm + chart.quiet_mm + 3.0
    top = chart.inset_mm
    bottom = chart.height_mm - chart.inset_mm - chart.marker_mm
    return [(TITLE, x, top + 9.0, 5.0), (SMALL[0], x, bottom + 8.0, 2.2),
            (SMALL[1], x, bottom + 12.0, 2.2)]


def chart_image(px_per_mm: float = 300 / 25.4, chart: ColourChart = CHART) -> np.ndarray:
    """The chart sheet as BGR uint8 (pixel (0, 0) is the sheet's top-left corner)."""
    w, h = round(chart.width_mm * px_per_mm), round(chart.height_mm * px_per_mm)
    img = np.full((h, w, 3), 255, np.uint8)
    for kind, (x, y, sw, sh) in chart.swatches():
        a0, b0 = round(x * px_per_mm), round(y * px_per_mm)
        a1, b1 = round((x + sw) * px_per_mm), round((y + sh) * px_per_mm)
        img[b0:b1, a0:a1] = CHART_INKS[kind][::-1]
    ink = rasterise(_marker_rects(chart), chart.width_mm, chart.height_mm, px_per_mm)
    img = (img.astype(np.uint16) * ink[:, :, None] // 255).astype(np.uint8)
    if px_per_mm >= 2.0:  # text is illegible below ~2 px/mm anyway
        lines = _text_lines(chart)
        for kind, (x, y, _sw, sh) in chart.swatches():
            lines.append((f"{kind} {NAMES[kind]}", x, y + sh + 2.2, 1.6))
        for text, x, y, height in lines:
            thick = max(1, round(height * px_per_mm / 10))
            scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX,
                                               max(1, round(height * px_per_mm)), thick)
            cv2.putText(img, text, (round(x * px_per_mm), round(y * px_per_mm)),
                        cv2.FONT_HERSHEY_SIMPLEX, scale, TEXT_RGB[::-1], thick, cv2.LINE_AA)
    return img


def write_chart_pdf(path: Path, page: str = "A4", chart: ColourChart = CHART) -> int:
    """A one-page PDF with the chart centred at 100 % scale; returns the page count."""
    from .printing import _footer, centred, new_canvas

    at = centred(page, 0.0, 0.0, chart.width_mm, chart.height_mm, "the colour chart")
    c = new_canvas(path, at.page_mm, "Hexapod colour chart")
    for kind, (x, y, sw, sh) in chart.swatches():
        c.setFillColorRGB(*(v / 255.0 for v in CHART_INKS[kind]))
        at.fill_rect(c, x, y, sw, sh)
    c.setFillGray(0.0)
    at.fill_rects(c, _marker_rects(chart))
    c.setFillColorRGB(*(v / 255.0 for v in TEXT_RGB))
    for text, x, y, _height in _text_lines(chart):
        title = text == TITLE
        c.setFont("Helvetica-Bold" if title else "Helvetica", 14 if title else 6.5)
        c.drawString(*at.point(x, y), text)
    c.setFont("Helvetica", 4.5)
    for kind, (x, y, _sw, sh) in chart.swatches():
        c.drawString(*at.point(x, y + sh + 2.2), f"{kind} {NAMES[kind]}")
    _footer(c, at.page_mm, ["Hexapod colour chart: print at 100 % on the cards' printer and "
                            "paper; do not trim; keep it flat and clean"])
    c.showPage()
    c.save()
    return 1
