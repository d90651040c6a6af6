"""Learning the Hexapod card inks from one photo of the printed colour chart
(`companion.colour_chart`), for a printer whose inks differ from ours. The chart is found by its
four markers (ids 46-49, all four, through one homography that fits their 16 corners within a
few pixels) and rectified; each swatch is read as the median of its inner part divided by the
local paper white (the median of the brighter 60 % of a ring of unprinted paper just outside it,
so a lamp's gradient cancels), a swatch being unreadable when its inner part is not one colour
(a hand's or shadow's edge across it) or clips (glare). An ink is the median of its swatches that
agree with the median of all its readable ones (`AGREE`), and needs at least three of its four
(a hand over two swatches of one ink is refused, not guessed). Then the inks must be plausible:
each hued kind saturated, within `MAX_TURN` of our design's hue and `MIN_SEPARATION` away from
every other kind's hue, black dark, the card paper near white. The result (`ChartInks`) is saved
as calibration/colours-hexapod.json (RGB relative to the chart's paper, as Hex'el's file is
relative to the card's), and `colour_params` turns a saved file into the `ColourParams` whose hue
centres (and ink brightness) the pixel labels use; without the file they are the design's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from ..colour_chart import CHART, CHART_IDS, PAPER_KIND, ColourChart
from .colourless import colourless
from .frames import check_frame
from .hexapod_colour import KINDS, ColourParams, hue_deg
from .hexapod_windows import DEFAULT, CellParams
from .observation import NO_COLOUR_LEARN

PX_PER_MM = 4.0        # the rectified chart's scale
MAX_REPROJ_PX = 4.0    # the markers' corners must fit one homography this well (photo px)
RING_MM = (0.8, 2.0)   # the paper ring about a swatch, this far outside its edge
UNIFORM = 0.1          # a swatch's parts are of its colour within this share of its
NOISE = 0.08           # brightest channel plus this share of the white, in every channel
AGREE = 0.12           # a swatch agrees with its ink's median within this share, or ABS_AGREE,
ABS_AGREE = 0.04       # in every channel (paper = 1)
MIN_AGREE = 3          # swatches of an ink that must agree
CLIPPED = 250.0
MIN_SAT = 0.15         # a hued ink's saturation at least
MAX_TURN = 45.0        # its hue at most this far (degrees) from our design's
MIN_SEPARATION = 20.0  # two kinds' hues at least this far apart
MAX_BLACK = 0.5        # black's brightest channel at most (paper = 1)
MIN_PAPER = 0.75       # the card paper's darkest channel at least


@dataclass(frozen=True)
class ChartInks:
    """The inks learned from a chart photo: kind -> RGB relative to the chart's paper, and how
    many swatches each came from."""

    inks: dict[str, tuple[float, float, float]]
    used: dict[str, int]
    source: str = ""

    def hues(self) -> dict[str, float]:
        """Hue angle (degrees, `hexapod_colour.hue_deg`) of each hued kind."""
        return {k: float(hue_deg(np.array(self.inks[k]))) for k in KINDS}

    def to_json(self) -> dict:
        return {"game": "hexapod", "relative_to": "the chart's paper (RGB, paper = 1, 1, 1)",
                "inks": {k: [round(float(v), 4) for v in rgb] for k, rgb in self.inks.items()},
                "hues": {k: round(v, 2) for k, v in self.hues().items()},
                "swatches_used": dict(self.used), "source": self.source}

    @classmethod
    def from_json(cls, data: dict, source: str = "") -> ChartInks:
        inks = {k: tuple(float(v) for v in rgb) for k, rgb in data["inks"].items()}
        missing = [k for k in KINDS if k not in inks]
        if missing:
            raise ValueError(f"the Hexapod colour file has no ink for {', '.join(missing)}")
        return cls(inks, {k: int(n) for k, n in data.get("swatches_used", {}).items()},
                   source or data.get("source", ""))


def find_chart(image: np.ndarray, chart: ColourChart = CHART) -> np.ndarray:
    """The homography (chart mm -> image px) of the chart in `image` (BGR); raises ValueError
    unless all four of its markers are found once each and fit one homography."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, chart.dictionary)), params)
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, list[np.ndarray]] = {}
    for c, i in zip(corners, ids.ravel() if ids is not None else [], strict=True):
        if int(i) in CHART_IDS:
            found.setdefault(int(i), []).append(c.reshape(4, 2))
    missing = [i for i in CHART_IDS if i not in found]
    if missing:
        raise ValueError("colour chart not found whole: marker(s) "
                         f"{', '.join(map(str, missing))} not seen (photograph the whole chart, "
                         "flat, its four corner markers in view)")
    if any(len(v) > 1 for v in found.values()):
        raise ValueError("more than one colour chart in the photo")
    printed = chart.marker_corners()
    src = np.vstack([printed[i] for i in CHART_IDS]).astype(np.float32)
    dst = np.vstack([found[i][0] for i in CHART_IDS]).astype(np.float32)
    hom, _ = cv2.findHomography(src, dst, 0)
    if hom is None:
        raise ValueError("the colour chart's markers do not fit one flat sheet")
    back = cv2.perspectiveTransform(src[None], hom)[0]
    if float(np.abs(back - dst).max()) > MAX_REPROJ_PX:
        raise ValueError("the colour chart's markers do not fit one flat sheet (is it bent?)")
    return hom


def rectify(image: np.ndarray, hom: np.ndarray, chart: ColourChart = CHART) -> np.ndarray:
    """The chart (float32 BGR) at `PX_PER_MM`, pixel centres at (i + 0.5) / PX_PER_MM mm."""
    to_mm = np.array([[1 / PX_PER_MM, 0, 0.5 / PX_PER_MM], [0, 1 / PX_PER_MM, 0.5 / PX_PER_MM],
                      [0, 0, 1.0]])
    size = (round(chart.width_mm * PX_PER_MM), round(chart.height_mm * PX_PER_MM))
    # (the map given is the canvas's pixels -> the image's: an inverse map)
    return cv2.warpPerspective(image, hom @ to_mm, size,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)
                               ).astype(np.float32)


def _box(rect: tuple[float, float, float, float], grow_mm: float) -> tuple[int, int, int, int]:
    """Pixel bounds (x0, y0, x1, y1) of `rect` (mm) grown by `grow_mm` on each side."""
    x, y, w, h = rect
    return (round((x - grow_mm) * PX_PER_MM), round((y - grow_mm) * PX_PER_MM),
            round((x + w + grow_mm) * PX_PER_MM), round((y + h + grow_mm) * PX_PER_MM))


def _bright_median(samples: np.ndarray) -> np.ndarray:
    """The median (BGR) of the brighter 60 % of `samples` (n, 3): paper beside printed text."""
    lum = samples.sum(axis=1)
    return np.median(samples[lum >= np.percentile(lum, 40)], axis=0)


class Overexposed(ValueError):
    """The paper about a swatch reads at the sensor's clip: the ratio of ink to paper is
    unknown in that channel."""


def read_swatch(canvas: np.ndarray, rect: tuple[float, float, float, float], inner: float
                ) -> np.ndarray | None:
    """The swatch's colour (BGR) relative to the paper about it, or None when unreadable: its
    inner part clips (glare) or is not of one colour, or the paper about it is too dark to
    judge by; raises `Overexposed` when that paper clips."""
    x, y, w, h = rect
    cut = (1.0 - inner) / 2.0
    x0, y0, x1, y1 = _box((x + cut * w, y + cut * h, inner * w, inner * h), 0.0)
    block = canvas[y0:y1, x0:x1]
    part = block.reshape(-1, 3)
    a0, b0, a1, b1 = _box(rect, RING_MM[1])
    c0, d0, c1, d1 = _box(rect, RING_MM[0])
    ring = np.ones((b1 - b0, a1 - a0), bool)
    ring[d0 - b0:d1 - b0, c0 - a0:c1 - a0] = False
    around = canvas[b0:b1, a0:a1][ring]
    if not len(part) or not len(around):
        return None
    white = _bright_median(around)
    colour = np.median(part, axis=0)
    if float(white.max()) >= CLIPPED:
        raise Overexposed
    if float(colour.max()) >= CLIPPED or white.min() < 16.0:
        return None
    # of one colour: the medians of its 3 x 3 sub-squares (noise averages out over each, an
    # edge across the swatch does not) within UNIFORM of its brightest channel, plus NOISE of
    # the white, of its median in every channel
    tol = UNIFORM * float(colour.max()) + NOISE * float(white.max())
    h, w = block.shape[:2]
    for rows in np.array_split(np.arange(h), 3):
        for cols in np.array_split(np.arange(w), 3):
            sub = np.median(block[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].reshape(-1, 3),
                            axis=0)
            if float(np.abs(sub - colour).max()) > tol:
                return None
    return colour / white


def learn_chart(image: np.ndarray, chart: ColourChart = CHART, source: str = "") -> ChartInks:
    """The inks of the chart in `image` (BGR); raises ValueError (saying why) when the chart is
    not found whole, too many of an ink's swatches are unreadable or disagree, or an ink reads
    implausibly, or the photo has no colour at all (`colourless`) or is no BGR colour frame of
    8-bit channels (`frames.check_frame`)."""
    check_frame(image, "the colour chart calibration")
    if colourless(image):
        raise ValueError(NO_COLOUR_LEARN)
    canvas = rectify(image, find_chart(image, chart), chart)
    readings: dict[str, list[np.ndarray]] = {k: [] for k in chart.kinds}
    clipped = 0
    for kind, rect in chart.swatches():
        try:
            r = read_swatch(canvas, rect, chart.inner)
        except Overexposed:
            clipped += 1
            continue
        if r is not None:
            readings[kind].append(r[::-1])          # RGB
    if clipped > len(chart.swatches()) // 4:
        raise ValueError("the chart's paper reads at the sensor's clip (over-exposed): "
                         "photograph it with less light or a lower exposure")
    inks, used = {}, {}
    for kind, rs in readings.items():
        if len(rs) < MIN_AGREE:
            raise ValueError(f"only {len(rs)} of the {kind} swatches readable (a hand, a "
                             "shadow's edge or glare over the chart?)")
        rs_a = np.array(rs)
        med = np.median(rs_a, axis=0)
        near = np.abs(rs_a - med) <= np.maximum(AGREE * med, ABS_AGREE)
        agree = rs_a[near.all(axis=1)]
        if len(agree) < MIN_AGREE:
            raise ValueError(f"the {kind} swatches disagree (a hand, a shadow or glare over "
                             "some of them?)")
        inks[kind] = tuple(float(v) for v in np.median(agree, axis=0))
        used[kind] = len(agree)
    _check(inks)
    return ChartInks({k: inks[k] for k in chart.kinds}, used, source)


def _check(inks: dict[str, tuple[float, float, float]]) -> None:
    """Raise ValueError when the learned inks are implausible (see the module docstring)."""
    from .hexapod_colour import INK_HUES

    hues = {}
    for k in KINDS:
        rgb = np.array(inks[k])
        sat = (rgb.max() - rgb.min()) / max(float(rgb.max()), 1e-6)
        if sat < MIN_SAT:
            raise ValueError(f"ink {k} reads without colour (saturation {sat:.2f})")
        hues[k] = float(hue_deg(rgb))
    for i, a in enumerate(KINDS):
        for b in KINDS[i + 1:]:
            gap = abs((hues[a] - hues[b] + 180.0) % 360.0 - 180.0)
            if gap < MIN_SEPARATION:
                raise ValueError(f"inks {a} and {b} read nearly the same hue ({gap:.0f} "
                                 "degrees apart): the reader could not tell them apart")
    for i, k in enumerate(KINDS):
        turn = abs((hues[k] - float(INK_HUES[i]) + 180.0) % 360.0 - 180.0)
        if turn > MAX_TURN:
            raise ValueError(f"ink {k} reads {turn:.0f} degrees of hue from the design's "
                             "(is the chart printed in colour, the photo's colours true?)")
    if max(inks["K"]) > MAX_BLACK:
        raise ValueError("the black ink reads too pale")
    if min(inks[PAPER_KIND]) < MIN_PAPER:
        raise ValueError("the card paper swatches read too dark")


def colours_file(directory: str | Path) -> Path:
    """Where `companion calibrate colours --game hexapod` saves the inks."""
    return Path(directory) / "colours-hexapod.json"


def load_inks(directory: str | Path | None) -> ChartInks | None:
    """The saved inks under `directory`, or None without a file."""
    if directory is None:
        return None
    path = colours_file(directory)
    if not path.is_file():
        return None
    return ChartInks.from_json(json.loads(path.read_text()), str(path))


def colour_params(inks: ChartInks | None, base: ColourParams | None = None) -> ColourParams:
    """`base` (default `ColourParams()`) with the hue centres and ink brightness (largest
    channel, paper = 1, the measure of `hexapod_colour.INK_V`) of `inks`, or `base` itself
    without them."""
    base = base or ColourParams()
    if inks is None:
        return base
    hues = inks.hues()
    ink_v = tuple(round(max(inks.inks[k]), 4) for k in KINDS)
    return replace(base, hues=tuple(round(hues[k], 3) for k in KINDS), ink_v=ink_v)


def hexapod_params(directory: str | Path | None) -> CellParams | None:
    """The cell reader's parameters with the inks saved under `directory`
    (colours-hexapod.json), or None (the reader's defaults) without a file."""
    inks = load_inks(directory)
    return None if inks is None else cell_params(inks)


def cell_params(inks: ChartInks) -> CellParams:
    """The cell reader's default parameters with the hue centres and ink brightness of
    `inks` (`colour_params`)."""
    return replace(DEFAULT, colour=colour_params(inks, DEFAULT.colour))
