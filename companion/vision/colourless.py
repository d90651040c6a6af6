"""A picture without colour: a greyscale photo, or a camera set to a monochrome mode. Both
games' cards are told by their inks, and a grey picture of them reads wrong where it reads at
all (a Hexapod blue card's grey is a dung beetle's black; a holodex red disc is a grey blob
beside the grey ring), so neither reader reads one: it reports what it found unread, with a
note saying why (`observation.NO_COLOUR`), and the referee asks for a colour camera. A colour
camera never gives one, even of a grey table: sensor noise, demosaicing and the white balance
leave a little colour in every region of its picture, and the cards' inks far more. So a frame
is colourless where, on a grid of its pixels (about THUMB_PX across, so that it costs next to
nothing on every full read), all but ALLOWED_SHARE of them hold their three channels within
GREY_SPREAD grey levels of each other: a grey picture's JPEG keeps them so, while a colour
camera's noise alone takes many of its pixels further apart. A blank frame (a lens cap, a
camera looking at a wall: less than MIN_DETAIL of spread in its levels) is no grey picture of
a table, and is not called one."""

from __future__ import annotations

import cv2
import numpy as np

THUMB_PX = 160        # pixels across the grid looked at (about)
GREY_SPREAD = 2       # grey levels between a pixel's channels, at most, in a grey picture
ALLOWED_SHARE = 0.001  # of the grid's pixels, those allowed more
MIN_DETAIL = 8.0      # grey levels of standard deviation: a picture of something, not a blank


def colourless(frame: np.ndarray) -> bool:
    """Whether the BGR `frame` holds no colour (see the module docstring)."""
    h, w = frame.shape[:2]
    if w <= 0 or h <= 0:
        return False
    step = max(1, w // THUMB_PX)
    b, g, r = cv2.split(np.ascontiguousarray(frame[step // 2::step, step // 2::step]))
    top = cv2.max(cv2.max(b, g), r)
    spread = cv2.subtract(top, cv2.min(cv2.min(b, g), r))
    return (float(cv2.meanStdDev(top)[1][0, 0]) >= MIN_DETAIL
            and cv2.countNonZero(cv2.compare(spread, GREY_SPREAD, cv2.CMP_GT))
            <= ALLOWED_SHARE * spread.size)


__all__ = ["colourless"]
