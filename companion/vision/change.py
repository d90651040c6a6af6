"""Which parts of a video frame changed since a key frame. A camera over a card table sees the
same still table in most of its frames: between moves nothing on it moves, and only sensor noise,
JPEG and the lamp's flicker differ from frame to frame. `FrameChange` keeps a coarse copy of the
key frame (the mean colour of each BLOCK x BLOCK pixel block, which averages sensor noise and
JPEG blocking away) and tells, for a new frame, which blocks differ from it by more than
`threshold` grey levels in any channel once one global gain is divided out (a lamp's flicker or
the camera's auto exposure brightens everything alike; the reader's white reference already
absorbs that). A card laid, moved, turned or taken, or a hand over the table, changes many blocks
by tens of levels; a still table changes none. Comparing with the key frame rather than with the
previous frame makes slow drift add up until it counts. `StillFrames` is a video reader's memory
of its last full read, kept while its frames stay still (both readers use it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import cv2
import numpy as np

BLOCK = 8            # pixels per side of a coarse block (a card is 7+ blocks across)
THRESHOLD = 12.0     # grey levels a block's mean may move in any channel and still be the same
MAX_GAIN = 0.12      # a global brightness change larger than this counts as a change everywhere
REREAD_FRAMES = 30   # a still table is read in full at least this often all the same (1-3 s)


@dataclass(frozen=True)
class Coarse:
    """A frame's block means (float32, H/BLOCK x W/BLOCK x 3), their grey level (the sum of the
    three channels) and the frame's shape."""

    means: np.ndarray
    level: np.ndarray
    shape: tuple[int, ...]


def coarse(frame: np.ndarray) -> Coarse:
    """The block means of a BGR frame (area averaging: one pass, no per-pixel Python)."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (max(1, w // BLOCK), max(1, h // BLOCK)),
                       interpolation=cv2.INTER_AREA)
    means = small.astype(np.float32)
    return Coarse(means, means[..., 0] + means[..., 1] + means[..., 2], frame.shape)


def gain(key: Coarse, now: Coarse) -> float:
    """The global brightness ratio now/key over the blocks that are neither dark nor clipped in
    the key (a dark block's ratio is noise; a clipped block hides its change). A local change
    (a hand) pulls this ratio too, but is itself far beyond the threshold: it still counts."""
    ok = (key.level > 3 * 40.0) & (key.level < 3 * 240.0)
    if int(np.count_nonzero(ok)) < 16:
        return 1.0
    return float(now.level[ok].sum() / key.level[ok].sum())


def changed_blocks(key: Coarse, now: Coarse, threshold: float = THRESHOLD) -> np.ndarray:
    """A bool map (H/BLOCK x W/BLOCK) of the blocks that changed from `key` to `now`: all of
    them when the frame size differs or the global brightness moved by more than MAX_GAIN."""
    if key.shape != now.shape:
        return np.ones(now.means.shape[:2], bool)
    g = gain(key, now)
    if abs(g - 1.0) > MAX_GAIN:
        return np.ones(now.means.shape[:2], bool)
    d = cv2.absdiff(now.means, np.minimum(key.means * np.float32(g), 255.0))
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) > threshold


R = TypeVar("R")


class StillFrames(Generic[R]):
    """A video reader's memory of its last full read: call `still(frame)` on every frame — True
    when the frame may keep `last` (nothing in it changed since the frame `last` was read from,
    and that was fewer than REREAD_FRAMES frames ago) — and `read(result)` after a full read."""

    def __init__(self) -> None:
        self.last: R | None = None
        self._key: Coarse | None = None
        self._now: Coarse | None = None
        self._since = 0

    def still(self, frame: np.ndarray) -> bool:
        self._now = coarse(frame)
        self._since += 1
        return (self.last is not None and self._key is not None
                and self._since < REREAD_FRAMES and not changed_blocks(self._key, self._now).any())

    def read(self, result: R) -> None:
        """`result` was read in full from the frame last given to `still`."""
        self._key, self.last, self._since = self._now, result, 0

    @property
    def now(self) -> Coarse | None:
        """The block means of the frame last given to `still`."""
        return self._now


def region(frame: Coarse, polygon: np.ndarray, pad: int = 1) -> Coarse:
    """The blocks of `frame` that a convex image `polygon` (N x 2 px) covers, `pad` blocks more
    each way, as a column of blocks: compared on their own (`changed_blocks`), their brightness
    ratio is their own, not pulled by a change elsewhere in the frame (a hand over another part
    of the table darkens the whole frame's mean)."""
    rows, cols = frame.means.shape[:2]
    lo = np.floor(polygon.min(axis=0) / BLOCK).astype(int) - pad
    hi = np.floor(polygon.max(axis=0) / BLOCK).astype(int) + pad + 1
    r0, c0 = int(np.clip(lo[1], 0, rows)), int(np.clip(lo[0], 0, cols))
    r1, c1 = int(np.clip(hi[1], 0, rows)), int(np.clip(hi[0], 0, cols))
    # the polygon in block units (a block's centre at +0.5), filled and grown by `pad` blocks
    # (a block the outline only clips is then in, whichever way rounding fell)
    inside = np.zeros((r1 - r0, c1 - c0), np.uint8)
    pts = np.round((polygon / BLOCK - 0.5 - (c0, r0)) * 16.0).astype(np.int32)
    cv2.fillConvexPoly(inside, pts, 1, cv2.LINE_8, 4)
    inside = cv2.dilate(inside, np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)).astype(bool)
    means = frame.means[r0:r1, c0:c1][inside]
    return Coarse(means[:, None, :], frame.level[r0:r1, c0:c1][inside][:, None], frame.shape)
