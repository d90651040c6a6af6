"""Printed Hexapod case sheets for the crafted-board tests (not a test module): a player's board
drawn at `PX_PER_MM` before a test warps it into a frame, and the sheet pixels of one of its
marker places, to blank a marker or swap in another's."""

from __future__ import annotations

import numpy as np

from companion.faces import HEXAPOD_CASE as LAYOUT
from companion.synth.hexapod_board import board_image

PX_PER_MM = 4.0          # the printed sheet's resolution before it is warped into the frame


def case_sheet(player: int) -> np.ndarray:
    """Player `player`'s printed board (RGB) at `PX_PER_MM`."""
    return np.array(board_image(player, PX_PER_MM))


def marker_box(place: int) -> tuple[slice, slice]:
    """The sheet pixels of marker place `place` (TL, TR, BR, BL) and half its quiet zone."""
    x0, y0, _, _ = LAYOUT.sheet_mm
    c = LAYOUT.marker_corners(1)[10 + place]
    q = LAYOUT.quiet_mm / 2.0
    (a, b), (e, f) = (c.min(axis=0) - q - (x0, y0)) * PX_PER_MM, \
        (c.max(axis=0) + q - (x0, y0)) * PX_PER_MM
    return slice(round(b), round(f)), slice(round(a), round(e))
