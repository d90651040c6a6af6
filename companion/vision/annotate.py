"""Drawing what was read on the camera frame (`companion recognize --annotate`): each card's
outline (green when trusted, orange when occluded), its cell, and its six letters placed towards
the edges they were read from, so a glance at the picture checks the reading; a card off the
lattice (`HexelObservation.loose`) in magenta, marked "off" where a cell would be.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .calibration import TableView
from .geometry import hexagon
from .observation import HexelObservation
from .symbol_samples import Pose

GOOD = (60, 200, 60)
OCCLUDED = (0, 140, 255)
LOOSE = (255, 0, 255)
LETTER_AT = 0.55     # of the apothem from the centre: clear of the cell label in the middle
FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(frame: np.ndarray, obs: HexelObservation, poses: tuple[Pose, ...] | list[Pose],
             view: TableView, loose_poses: tuple[Pose, ...] | list[Pose] = ()) -> np.ndarray:
    """A copy of `frame` with the observation drawn on it (`loose_poses`: the poses of
    `obs.loose`, in its order)."""
    out = frame.copy()
    centres = np.array([view.to_image(np.array([p.centre]))[0] for p in poses]).reshape(-1, 2)
    for card in obs.cards:
        if not len(centres):
            break
        i = int(np.argmin(np.linalg.norm(centres - np.asarray(card.centre_px), axis=1)))
        _card(out, poses[i], view, card.symbols, card.centre_px,
              f"{card.cell[0]},{card.cell[1]}", OCCLUDED if card.occluded else GOOD)
    for loose, pose in zip(obs.loose, loose_poses, strict=False):
        _card(out, pose, view, loose.symbols, loose.centre_px, "off", LOOSE)
    note = "calibrated" if obs.calibrated else "UNCALIBRATED"
    off = f", {len(obs.loose)} off the lattice" if obs.loose else ""
    cv2.putText(out, f"{len(obs.cards)} cards{off}, {note}", (8, 20), FONT, 0.5,
                (255, 255, 255), 1, cv2.LINE_AA)
    return out


def _card(out: np.ndarray, pose: Pose, view: TableView, symbols: str,
          centre_px: tuple[float, float], label: str, colour: tuple[int, int, int]) -> None:
    """One card's outline, its letters towards the edges they were read from (E first, as
    `symbols` lists them by `pose`'s directions) and `label` in its middle, drawn on `out`."""
    poly = view.to_image(pose.to_plane(hexagon(np.zeros(2), 1.0, 0.0)))
    cv2.polylines(out, [np.round(poly).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
    width = float(np.ptp(poly[:, 0]))    # the card's width in the image, px
    scale = max(0.3, width / 170.0)
    for d, letter in enumerate(symbols):
        a = -math.radians(60.0) * d
        p = pose.to_plane(LETTER_AT * np.array([math.cos(a), math.sin(a)]))[0]
        _centred(out, letter, view.to_image(p[None])[0], scale, colour)
    _centred(out, label, centre_px, 0.8 * scale, (255, 255, 255))


def _centred(out: np.ndarray, text: str, at: np.ndarray | tuple[float, float], scale: float,
             colour: tuple[int, int, int]) -> None:
    """`text` centred on `at` (image px), outlined in black so it shows on any card."""
    (w, h), _ = cv2.getTextSize(text, FONT, scale, 1)
    org = (round(at[0] - w / 2), round(at[1] + h / 2))
    cv2.putText(out, text, org, FONT, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(out, text, org, FONT, scale, colour, 1, cv2.LINE_AA)
