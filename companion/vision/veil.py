"""A glare veil taken off one card at its own pose. A specular spot (a lamp mirrored in glossy
print) adds light on top of what the print reflects — seen = reflectance x light + veil — so
under it the paper, the border band and the ink are all lifted and the ink's contrast and
chroma wash out (red turns pink, blue cyan). Measured in units of the table's paper white (the
white of the cards read whole, per channel) the veil is one number per place, the same in every
channel. Every Hex'el card carries its own black and white: the border band's dark neutral
print and the paper. `card_veil` samples both at a candidate card's pose (a free cell the
probe searched, a blob that did not read whole): where the band is lifted well above the other
cards' bands and the paper reaches the table's white (a veil lifts both; a shade or a grey
cloth lifts neither), the band's and the paper's levels round the card are kept as its veil.
`deveiled` maps that card's pixels back — the local band level onto the band's reflectance and
the local paper level onto the paper, interpolated over the card between the places measured,
one gain and one offset for all three channels (so it invents no hue) — and leaves a pixel
with a channel at the sensor's top as seen (its hue is in doubt: the reader's checks leave it
'?'). The reader then reads those cards again through it, under the probe's own tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..faces import BORDER_RGB, PAPER_RGB
from .calibration import TableView
from .symbol_samples import (
    BORDER_DEPTHS,
    BORDER_PTS,
    HALO_PTS,
    PAPER_PTS,
    Pose,
    pose_points,
    sample,
)

BAND = float(np.mean(BORDER_RGB)) / float(np.mean(PAPER_RGB))   # the band's reflectance
LIFT_MIN = 0.2      # a band lifted this far (of the white) over the other cards' bands is veiled
PAPER_MIN = 0.95    # and its paper reaches this much of the white (a veil lifts the paper too)
SPAN_MIN = 0.12     # paper over band (of the white) a veiled place must keep to be mapped back
MAX_GAIN = 6.0      # contrast is restored by at most this much
CLIP = 250          # a channel at or above this has clipped: the pixel is left as seen
REACH = 1.12        # the pixels mapped back: within this many apothems of the card's centre
_PLACES = len(BORDER_PTS) // len(BORDER_DEPTHS)


@dataclass(frozen=True)
class CardVeil:
    """One card's veil: image points (n x 2) with the band's level there, and image points
    (m x 2) with the paper's level there, both in units of the table's white; the card's centre
    and reach in image pixels."""

    band_xy: np.ndarray
    band: np.ndarray
    paper_xy: np.ndarray
    paper: np.ndarray
    centre: tuple[float, float]
    reach: float


def band_level(frame: np.ndarray, view: TableView, pose: Pose, white: np.ndarray) -> float:
    """The median over a card's band places of the band's level (its darkest depth's mean
    channel, of the `white`)."""
    return float(np.median(_band(frame, view, pose, white)[1]))


def _band(frame: np.ndarray, view: TableView, pose: Pose, white: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """Per band place (`symbol_samples.BORDER_PTS`), its image point at the darkest depth and
    that depth's mean channel (of the `white`)."""
    plane = pose_points([pose], BORDER_PTS)[0]
    img = view.to_image(plane).reshape(len(BORDER_DEPTHS), _PLACES, 2)
    vals, _ = sample(frame, img)
    mean = (vals / white).mean(-1)
    k = mean.argmin(0)
    idx = np.arange(_PLACES)
    return img[k, idx], mean[k, idx]


def card_veil(frame: np.ndarray, view: TableView, pose: Pose, white: np.ndarray,
              others: float) -> CardVeil | None:
    """The veil over the card at `pose` (see the module), or None where its band is not lifted
    LIFT_MIN over `others` (the other cards' band level) or its paper stays below PAPER_MIN of
    the `white` (B G R of the table's paper)."""
    band_xy, band = _band(frame, view, pose, white)
    if float(np.median(band)) < others + LIFT_MIN:
        return None
    plane = pose_points([pose], np.concatenate([PAPER_PTS, HALO_PTS]))[0]
    paper_xy = view.to_image(plane)
    vals, inside = sample(frame, paper_xy)
    # the paper's level: its dimmest channel (ink keeps one channel low; paper none)
    paper = (vals / white).min(-1)
    if not inside.all() or float(np.median(paper)) < PAPER_MIN:
        return None
    centre = view.to_image(np.array([pose.centre], np.float64))[0]
    edge = view.to_image(np.array(pose.to_plane(np.array([[1.0, 0.0]])), np.float64))[0]
    reach = REACH * float(np.hypot(*(edge - centre))) / np.cos(np.pi / 6)
    return CardVeil(band_xy, band, paper_xy, paper, (float(centre[0]), float(centre[1])),
                    reach)


def deveiled(frame: np.ndarray, veils: list[CardVeil], white: np.ndarray) -> np.ndarray:
    """A copy of `frame` with each veiled card's pixels (within its reach) mapped back through
    its veil (see the module); the frame as it is elsewhere."""
    out = frame.copy()
    h, w = frame.shape[:2]
    for v in veils:
        x0, y0 = (max(0, int(c - v.reach)) for c in v.centre)
        x1, y1 = min(w, int(v.centre[0] + v.reach) + 1), min(h, int(v.centre[1] + v.reach) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        inside = (xx - v.centre[0]) ** 2 + (yy - v.centre[1]) ** 2 <= v.reach ** 2
        floor = _spread(v.band_xy, v.band, xx, yy)
        top = _spread(v.paper_xy, v.paper, xx, yy)
        span = top - floor
        gain = np.clip((1.0 - BAND) / np.maximum(span, 1e-3), 1.0, MAX_GAIN)
        crop = frame[y0:y1, x0:x1]
        seen = crop.astype(np.float32) / white
        through = BAND + (seen - floor[..., None]) * gain[..., None]
        keep = ~inside | (span < SPAN_MIN) | (crop.max(-1) >= CLIP)
        mapped = np.clip(through * white, 0, 255).astype(np.uint8)
        out[y0:y1, x0:x1] = np.where(keep[..., None], crop, mapped)
    return out


def _spread(xy: np.ndarray, values: np.ndarray, xx: np.ndarray, yy: np.ndarray) -> np.ndarray:
    """`values` measured at image points `xy`, spread over the pixel grid (`xx`, `yy`) by
    inverse squared distance weighting."""
    d2 = ((xx[..., None] - xy[:, 0].astype(np.float32)) ** 2
          + (yy[..., None] - xy[:, 1].astype(np.float32)) ** 2)
    wts = 1.0 / (d2 + 4.0)
    return (wts @ values.astype(np.float32)) / wts.sum(-1)



