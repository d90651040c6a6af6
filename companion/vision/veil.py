"""A glare veil taken off one card at its own pose. A specular spot (a lamp mirrored in glossy
print) adds light on top of what the print reflects — seen = reflectance x light + veil — so
under it the paper, the border band and the ink are all lifted and the ink's contrast and
chroma wash out (red turns pink, blue cyan). Measured in units of the table's paper white (the
white of the cards read whole, per channel) the veil is one number per place, the same in every
channel. Every Hex'el card carries its own black and white: the border band's dark neutral
print and the paper. `card_veils` samples both at the candidate cards' poses (free cells the
probe searched, blobs that did not read whole; their bands and those of the cards read whole
in one pass): where the band is lifted
well above the other cards' bands and the paper reaches the table's white (a veil lifts
both; a shade or a grey cloth lifts neither), the band's and the paper's levels round the
card are kept as its veil.
`deveiled` maps that card's pixels back — the local band level onto the band's reflectance and
the local paper level onto the paper, interpolated over the card between the places measured,
one gain and one offset for all three channels (so it invents no hue) — and leaves a pixel
with a channel at the sensor's top as seen. Such a pixel's true level is unknown, and beside
pixels mapped darker it fakes structure (a red disc whose R clipped at its centre keeps a pale
centre inside a rim mapped dark: a void ring), so a symbol holding one (`clipped_symbols`) is
not read through the veil. The reader then reads those cards again through it, under the
probe's own tests, and keeps only those with no such symbol.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..faces import BORDER_RGB, HEXEL_FACE, PAPER_RGB
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
DISC = 1.1          # a symbol's disc checked for clipped pixels: this many symbol radii
# the probe moves a symbol at most 0.77 symbol radii off its predicted place (shifts of 0.08
# then 0.04 apothems each way, or a 2.5 degree turn, or 4 % in size): a clipped pixel this
# near a symbol's predicted centre lies within DISC of it wherever the probe settles
NEAR = 0.3
_PLACES = len(BORDER_PTS) // len(BORDER_DEPTHS)


def _disc_pattern(radius: float, step: float = 0.1) -> np.ndarray:
    """Card-frame points (6 x k x 2) filling each symbol's disc (`radius` symbol radii) on a
    grid `step` symbol radii apart."""
    f = HEXEL_FACE
    g = np.arange(-radius, radius + 1e-9, step)
    gx, gy = np.meshgrid(g, g)
    keep = gx ** 2 + gy ** 2 <= radius ** 2
    local = f.symbol_radius_frac * np.c_[gx[keep], gy[keep]]
    a = -np.radians(60.0 * np.arange(6))
    centres = f.symbol_centre_frac * np.c_[np.cos(a), np.sin(a)]
    return centres[:, None, :] + local[None]


DISC_PTS = _disc_pattern(DISC)
NEAR_PTS = _disc_pattern(NEAR)


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


def band_levels(frame: np.ndarray, view: TableView, poses: list[Pose], white: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Per pose and band place (`symbol_samples.BORDER_PTS`), the image point at the band's
    darkest depth (poses x places x 2) and that depth's mean channel, of the `white` (poses x
    places): every pose sampled in one pass."""
    n = len(poses)
    plane = pose_points(poses, BORDER_PTS)
    img = view.to_image(plane.reshape(-1, 2)).reshape(n, len(BORDER_DEPTHS), _PLACES, 2)
    vals, _ = sample(frame, img)
    mean = (vals / white).mean(-1)
    k = mean.argmin(1)[:, None, :, None]
    return (np.take_along_axis(img, k, 1)[:, 0],
            np.take_along_axis(mean, k[..., 0], 1)[:, 0])


def card_veils(frame: np.ndarray, view: TableView, cand: list[Pose], ref: list[Pose],
               white: np.ndarray) -> list[CardVeil | None]:
    """The veil over each card at the `cand` poses (see the module), None where its band is
    not lifted LIFT_MIN over the band level of the cards at the `ref` poses (read whole: the
    median of their bands' medians) or its paper stays below PAPER_MIN of the `white` (B G R
    of the table's paper). Every band is sampled in one pass."""
    out: list[CardVeil | None] = [None] * len(cand)
    if not cand or not ref:
        return out
    # every band in one pass: the candidates' and the reference cards'
    band_xy, band = band_levels(frame, view, [*cand, *ref], white)
    level = np.median(band, axis=1)
    others = float(np.median(level[len(cand):]))
    lifted = np.flatnonzero(level[:len(cand)] >= others + LIFT_MIN)
    if not len(lifted):
        return out
    poses = [cand[i] for i in lifted]
    plane = pose_points(poses, np.concatenate([PAPER_PTS, HALO_PTS]))
    paper_xy = view.to_image(plane.reshape(-1, 2)).reshape(plane.shape)
    vals, inside = sample(frame, paper_xy)
    # the paper's level: its dimmest channel (ink keeps one channel low; paper none)
    paper = (vals / white).min(-1)
    centres = view.to_image(np.array([q.centre for q in poses], np.float64))
    edges = view.to_image(np.concatenate([q.to_plane(np.array([[1.0, 0.0]])) for q in poses]))
    reach = REACH * np.hypot(*(edges - centres).T) / np.cos(np.pi / 6)
    for j, i in enumerate(lifted):
        if inside[j].all() and float(np.median(paper[j])) >= PAPER_MIN:
            out[i] = CardVeil(band_xy[i], band[i], paper_xy[j], paper[j],
                              (float(centres[j, 0]), float(centres[j, 1])), float(reach[j]))
    return out


def clipped(frame: np.ndarray) -> np.ndarray:
    """Per pixel and channel, 255 where the channel is at or above CLIP, else 0 (the frame's
    shape): what `clipped_symbols` looks in."""
    return cv2.threshold(frame, CLIP - 1, 255, cv2.THRESH_BINARY)[1]


def clipped_symbols(top: np.ndarray, view: TableView, poses: list[Pose],
                    disc: np.ndarray = DISC_PTS) -> np.ndarray:
    """Per pose and symbol (poses x 6), whether any pixel within the symbol's `disc` (card-frame
    points, 6 x k x 2) has a channel clipped (`top`: `clipped` of the frame). Such a pixel is
    left as seen by `deveiled`, so a symbol holding one is read from a mix of pixels mapped
    back and pixels not: its hue and its rings are in doubt and it may not be read through the
    veil."""
    if not poses:
        return np.zeros((0, 6), bool)
    n = len(poses)
    plane = pose_points(poses, disc.reshape(-1, 2))
    img = view.to_image(plane.reshape(-1, 2)).reshape(n, 6, -1, 2)
    # bilinear: a point takes a share of each of its four pixels, so any clipped one shows
    vals, _ = sample(top, img)
    return (vals > 0).any(-1).any(-1)


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



