"""Drawing what was read on the camera frame (`companion recognize --annotate`): each card's
outline (green when trusted, orange when occluded), its cell, and its six letters placed on the
edges they were read from, so a glance at the picture checks the reading.
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


def annotate(frame: np.ndarray, obs: HexelObservation, poses: tuple[Pose, ...] | list[Pose],
             view: TableView) -> np.ndarray:
    """A copy of `frame` with the observation drawn on it."""
    out = frame.copy()
    centres = np.array([view.to_image(np.array([p.centre]))[0] for p in poses]).reshape(-1, 2)
    for card in obs.cards:
        if not len(centres):
            break
        i = int(np.argmin(np.linalg.norm(centres - np.asarray(card.centre_px), axis=1)))
        pose = poses[i]
        colour = OCCLUDED if card.occluded else GOOD
        poly = view.to_image(pose.to_plane(hexagon(np.zeros(2), 1.0, 0.0)))
        cv2.polylines(out, [np.round(poly).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        scale = max(0.3, pose.apothem / 60.0)
        for d, letter in enumerate(card.symbols):
            a = -math.radians(60.0) * d
            p = pose.to_plane(0.3 * np.array([math.cos(a), math.sin(a)]))[0]
            x, y = view.to_image(p[None])[0]
            cv2.putText(out, letter, (int(x) - 4, int(y) + 4), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        (0, 0, 0), 2, cv2.LINE_AA)
            cv2.putText(out, letter, (int(x) - 4, int(y) + 4), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        colour, 1, cv2.LINE_AA)
        x, y = card.centre_px
        label = f"{card.cell[0]},{card.cell[1]}"
        cv2.putText(out, label, (int(x) - 12, int(y) + 4), cv2.FONT_HERSHEY_SIMPLEX, scale * 0.8,
                    (0, 0, 0), 2, cv2.LINE_AA)
        cv2.putText(out, label, (int(x) - 12, int(y) + 4), cv2.FONT_HERSHEY_SIMPLEX, scale * 0.8,
                    (255, 255, 255), 1, cv2.LINE_AA)
    note = "calibrated" if obs.calibrated else "UNCALIBRATED"
    cv2.putText(out, f"{len(obs.cards)} cards, {note}", (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                (255, 255, 255), 1, cv2.LINE_AA)
    return out
