"""The printed Hexapod colour chart's geometry, shared by the printer (`synth.hexapod_chart`) and
the calibration that reads a photo of it (`vision.hexapod_calibrate`): a sheet of `cols` x `rows`
square swatches, each one of the card inks as the faces print them (the six hued kinds, K black)
or the card's paper, every ink on `rows` swatches in different columns and rows (row r shifts
the order by `stride`), so that a lamp's gradient, a glare spot or a hand spoils only some of an
ink's swatches; and four ArUco markers (DICT_4X4_50, ids `CHART_IDS` = 46-49 at the top-left,
top-right, bottom-right and bottom-left, ids no case board (10-43) or table corner (0-3) uses)
that locate and rectify it. Lengths are chart millimetres, origin at the sheet's top-left corner,
x right, y down. Needs numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .faces import HEXAPOD_INKS, PAPER_RGB

CHART_IDS = (46, 47, 48, 49)
PAPER_KIND = "P"
# the chart's swatch kinds: the faces' inks in `HEXAPOD_INKS` order, then the card paper
CHART_INKS: dict[str, tuple[int, int, int]] = {**HEXAPOD_INKS, PAPER_KIND: PAPER_RGB}


@dataclass(frozen=True)
class ColourChart:
    """Geometry of the printed colour chart (mm). Markers `marker_mm` wide (6 modules) with
    their top-left corners `inset_mm` from the sheet's corners; swatches `swatch_mm` square at
    a `pitch_mm` pitch, the grid centred across the sheet with its top at `grid_top_mm`; the
    inner `inner` share of a swatch (per side) is what is sampled."""

    width_mm: float = 190.0
    height_mm: float = 156.0
    marker_mm: float = 20.0
    inset_mm: float = 6.0
    cols: int = 8
    rows: int = 4
    stride: int = 3
    swatch_mm: float = 19.0
    pitch_mm: float = 22.0
    grid_top_mm: float = 34.0
    inner: float = 0.6
    dictionary: str = "DICT_4X4_50"
    marker_modules: int = 6

    @property
    def kinds(self) -> tuple[str, ...]:
        """The swatch kinds, in `CHART_INKS` order."""
        return tuple(CHART_INKS)

    @property
    def quiet_mm(self) -> float:
        """The white margin kept about each marker (1.5 modules)."""
        return 1.5 * self.marker_mm / self.marker_modules

    def marker_corners(self) -> dict[int, np.ndarray]:
        """Marker id -> its four corners (4, 2) in ArUco order (TL, TR, BR, BL), chart mm."""
        m, e = self.marker_mm, self.inset_mm
        tl = ((e, e), (self.width_mm - e - m, e), (self.width_mm - e - m, self.height_mm - e - m),
              (e, self.height_mm - e - m))
        unit = np.array([(0.0, 0.0), (m, 0.0), (m, m), (0.0, m)])
        return {mid: unit + np.array(p) for mid, p in zip(CHART_IDS, tl, strict=True)}

    def swatches(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """(kind, (x, y, w, h) mm) of every swatch, row by row."""
        kinds = self.kinds
        x0 = (self.width_mm - (self.cols * self.pitch_mm - (self.pitch_mm - self.swatch_mm))) / 2
        out = []
        for r in range(self.rows):
            for c in range(self.cols):
                kind = kinds[(c + self.stride * r) % len(kinds)]
                out.append((kind, (x0 + c * self.pitch_mm, self.grid_top_mm + r * self.pitch_mm,
                                   self.swatch_mm, self.swatch_mm)))
        return out


CHART = ColourChart()
