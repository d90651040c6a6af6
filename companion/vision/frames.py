"""What a frame must be before any reader, calibration or colour learning looks at it: a BGR
colour image of 8-bit channels (H x W x 3, as OpenCV reads a photo and the camera sources
deliver), at least MIN_SIDE pixels each way. Anything else — None, a grey or BGRA image, 16-bit
or float channels, an empty or sliver-thin picture — is refused with a ValueError that says
what the frame was and what is wanted, before it reaches OpenCV, whose own assertions name
neither (a 1 x 900 photo failed deep inside a resize). Nothing is read from a refused frame and
no reader's state changes."""

from __future__ import annotations

import numpy as np

# the least width and height of a frame, in pixels: a card is never smaller than several times
# this, and below it the readers' blurs, resizes and marker search have nothing to work on
MIN_SIDE = 16


def frame_problem(frame: object) -> str | None:
    """Why `frame` is no BGR colour frame the readers take (see the module docstring), or None
    where it is one."""
    if frame is None:
        return "no frame (None)"
    if not isinstance(frame, np.ndarray):
        return f"a frame must be a NumPy image array, got {type(frame).__name__}"
    if frame.ndim != 3 or frame.shape[2] != 3:
        what = ("a grey (single-channel) image" if frame.ndim == 2 else
                "an image with 4 channels (BGRA)" if frame.ndim == 3 and frame.shape[2] == 4
                else f"an array of shape {frame.shape}")
        return f"a BGR colour frame (H x W x 3) is needed, got {what}"
    if frame.dtype != np.uint8:
        return f"8-bit channels (uint8) are needed, got {frame.dtype}"
    h, w = frame.shape[:2]
    if min(h, w) < MIN_SIDE:
        return f"the frame is {w} x {h} px: at least {MIN_SIDE} px each way is needed"
    return None


def check_frame(frame: object, who: str = "the reader") -> np.ndarray:
    """`frame`, where it is a BGR colour frame the readers take; else ValueError naming `who`
    refused it and why (`frame_problem`)."""
    problem = frame_problem(frame)
    if problem is not None:
        raise ValueError(f"{who} cannot use this frame: {problem}")
    assert isinstance(frame, np.ndarray)
    return frame
