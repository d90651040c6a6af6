"""The Hexapod reader: one frame in, a `HexapodObservation` out — for each display case whose
board shows at least three of its four corner markers, the player the markers name and the code
of every cell of its 6 x 6 grid (rows top to bottom as the player sees the board), '?' for a cell
that is hidden or unreadable (a hand, glare, the frame edge), never a guess.

Stages: the case markers are found and checked against the printed board (`hexapod_markers`),
each case found is checked against the picture, its markers where its homography puts them, and
one located by three markers refitted through its fourth's place or the paper's corner there
(`hexapod_verify`); each case's grid is rectified through its homography, its pixels labelled
against the board's own white (`hexapod_colour`), and its cells judged and its two-cell insects
named half by half (`hexapod_cells`). The reader keeps the last frame's case poses, so a video
is searched only about the markers it saw (`track=True`); pictures from different cameras want
`track=False`. A frame in which nothing changed since the last full read (`change`: no block
moved beyond sensor noise) keeps that read (`keep_still=True`, as the Hex'el reader); any
change, and every REREAD_FRAMES-th frame regardless, is read in full — except each case read
without a '?', none of whose blocks changed since, and whose board has not moved: it keeps its
reading (a hand over one player's case does not make the other's be read again), for at most
REREAD_FRAMES frames.

Framing (measured with `companion bench vision --game hexapod`, 50-100 synthetic tables a band).
The printed cell is 28 mm and the reader resamples every case to 24 px per cell, so it takes any
resolution; what matters is the cell size in the picture and the markers' (22 mm) sharpness. We
frame the two boards (about 0.45 x 0.26 m side by side) to fill a 1280 x 720 picture — a Camera
Module 3 (66 degrees) about 0.45 m above them — which gives 25-40 px cells: clean and easy tables
are read exactly and the hard band (tilt, hands, blur, glare, 2800-6500 K) at about 97 % of
cells with no wrong code. A camera that must hang higher (0.6-1.2 m) through the same lenses sees
20-35 px cells at 1280 x 720: easy tables stay exact, hard ones drop to about 95 % of cells;
there, use the sensor's 2304 x 1296 mode (cells ~50 px; hard tables about 99 % of cells), which
costs about 1.7 times the time per frame (the marker search grows with the frame, the cells do
not). The synthetic scenes (`companion.scenarios.hexapod_scene`) keep the fitted framing. A
camera calibration is not used: lens distortion over one board is absorbed by reading each cell
at its own centre with tolerant windows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .change import REREAD_FRAMES, Coarse, StillFrames, changed_blocks, region
from .colourless import colourless
from .frames import check_frame
from .hexapod_cells import CaseRead, read_case
from .hexapod_colour import clipped_channels
from .hexapod_markers import LAYOUT, CaseLayout, CasePose, MarkerTracker
from .hexapod_windows import CellParams
from .observation import (
    GREY_PRINT_NOTE,
    NO_COLOUR_NOTE,
    UNKNOWN,
    HexapodObservation,
    SeenCase,
    marker_unseen_note,
    over_exposed_note,
)

# A board whose white paper lies at the sensor's clip in two of its three channels is
# over-exposed as the reader cannot make up for: the light's colour is lost with the paper's
# (clipped in all three, the board's fill, printed darker, still gives it: `fill_white`), and
# lit fill, read against that white, is tinted as skin is (the reader then leaves more cells
# '?': on hard 0-299, 0.7 a case against 0.2-0.3 under other whites; a warm fill clipped in red
# and green is taken for a hand: never-seen hard 1039). The scoreboard's camera line says so
# (`observation.cases_camera_setup`): lower the camera's exposure.
OVER_EXPOSED_CHANNELS = 2


@dataclass(frozen=True, eq=False)
class HexapodRead:
    """Everything the reader worked out for one frame (the observation plus its evidence)."""

    observation: HexapodObservation
    poses: tuple[CasePose, ...] = ()
    reads: tuple[CaseRead, ...] = ()
    full_search: bool = True
    ms: dict[str, float] = field(default_factory=dict)
    kept: bool = False    # the last full read's result: nothing in the frame changed since
    kept_cases: tuple[int, ...] = ()   # players whose case's last reading was kept (unchanged)


@dataclass(frozen=True, eq=False)
class KeptCase:
    """A case's last reading, the block means of the frame it was read from, and that
    frame's number (`HexapodReader` counts the frames it is given)."""

    pose: CasePose
    read: CaseRead
    key: Coarse
    frame: int


# The board has not moved when the tracker's corners agree with the kept pose's within this
# (px; the detector's jitter on a still marker is a few tenths of a pixel)
KEEP_CASE_PX = 1.5


def case_confidence(read: CaseRead) -> float:
    """A case's confidence: the share of cells read times their mean confidence."""
    known = np.array([[code != UNKNOWN for code in row] for row in read.grid])
    if not known.any():
        return 0.0
    return float(known.mean() * read.confidence[known].mean())


class HexapodReader:
    """Reads Hexapod display cases from camera frames (see the module docstring)."""

    def __init__(self, *, layout: CaseLayout = LAYOUT, params: CellParams | None = None,
                 track: bool = True, keep_still: bool = True) -> None:
        self.layout = layout
        self.params = params or CellParams()
        self.tracker = MarkerTracker(layout, track=track)
        self.keep_still = keep_still
        self._still: StillFrames[HexapodRead] = StillFrames()
        self._owed = False
        self._kept: dict[int, KeptCase] = {}
        self._frames = 0      # frames given to read_full

    def read(self, frame_bgr: np.ndarray, t: float = 0.0, frame_seq: int = 0
             ) -> HexapodObservation:
        """The display cases seen in `frame_bgr` (BGR uint8)."""
        return self.read_full(frame_bgr, t, frame_seq).observation

    def read_full(self, frame_bgr: np.ndarray, t: float = 0.0, frame_seq: int = 0
                  ) -> HexapodRead:
        """Like `read`, with the poses, per-case evidence and stage timings. A frame that is no
        BGR colour image of 8-bit channels, MIN_SIDE px each way, is refused
        (`frames.check_frame`: ValueError) before the reader's state changes."""
        check_frame(frame_bgr, "the Hexapod reader")
        self._frames += 1
        if not self.keep_still:
            return self._read_full(frame_bgr, t, frame_seq)
        t0 = time.perf_counter()
        last = self._still.last
        # a whole-frame marker search is owed after a change the tracker only searched about
        # the known cases for (a case brought into view): a still frame does not put it off
        owed = self._owed and self.tracker.full_search_due()
        if self._still.still(frame_bgr) and last is not None and not owed:
            self.tracker.skip()
            obs = replace(last.observation, t=float(t), frame_seq=int(frame_seq))
            return replace(last, observation=obs, full_search=False, kept=True,
                           ms={"unchanged": 1000 * (time.perf_counter() - t0)})
        result = self._read_full(frame_bgr, t, frame_seq, self._still.now)
        self._still.read(result)
        self._owed = not result.full_search
        return result

    def _read_full(self, frame_bgr: np.ndarray, t: float, frame_seq: int,
                   now: Coarse | None = None) -> HexapodRead:
        """Read one frame in full. With `now` (the frame's block means, on video), a case none
        of whose blocks changed since it was last read, and whose board has not moved, keeps
        that reading: a hand over one player's case does not make the other's be read again."""
        t0 = time.perf_counter()
        # the tracker converts the frame to grey only where it searches
        poses, full = self.tracker.find(frame_bgr)
        t1 = time.perf_counter()
        cases, reads, notes, used, kept = [], [], [], [], []
        for pose in sorted(poses, key=lambda p: p.player):
            last = self._keepable(pose, now)
            if last is not None:
                pose, read = last.pose, last.read
                kept.append(pose.player)
            else:
                read = read_case(frame_bgr, pose, self.params, self.layout)
            used.append(pose)
            reads.append(read)
            corners = tuple((float(x), float(y)) for x, y in pose.grid_corners(self.layout))
            cases.append(SeenCase(
                pose.player, read.grid,
                tuple(tuple(code == UNKNOWN for code in row) for row in read.grid),
                round(case_confidence(read), 4), corners))
            missing = [i for i in self.layout.marker_ids(pose.player) if i not in pose.markers]
            if missing:
                notes.append(marker_unseen_note(pose.player, missing[0]))
        if not poses:
            notes.append("no display case found: each board needs three of its four markers "
                         "in view")
        over = [p.player for p, r in zip(used, reads, strict=True)
                if clipped_channels(r.white) == OVER_EXPOSED_CHANNELS]
        if over:
            notes.append(over_exposed_note(over))
        if now is not None:
            self._kept = {p.player: self._kept[p.player] if p.player in kept
                          else KeptCase(p, r, now, self._frames)
                          for p, r in zip(used, reads, strict=True)}
        grey = colourless(frame_bgr)
        if grey:   # (the kinds are told by their inks: a grey picture reads none, `colourless`)
            cases = [replace(c, grid=tuple((UNKNOWN,) * len(r) for r in c.grid),
                             occluded=tuple((True,) * len(r) for r in c.grid), confidence=0.0)
                     for c in cases]
            notes.append(NO_COLOUR_NOTE)
        # (a case of cards printed without colour is read as none: `colourless.grey_tiles`)
        grey_print = not grey and any(r.grey_print for r in reads)
        if grey_print:
            notes.append(GREY_PRINT_NOTE)
        t2 = time.perf_counter()
        obs = HexapodObservation(tuple(cases), float(t), int(frame_seq), tuple(notes), grey,
                                 grey_print)
        return HexapodRead(obs, tuple(used), tuple(reads), full,
                           {"markers": 1000 * (t1 - t0), "cells": 1000 * (t2 - t1)},
                           kept_cases=tuple(kept))

    def _keepable(self, pose: CasePose, now: Coarse | None) -> KeptCase | None:
        """The kept reading of `pose`'s case, if it may stand for this frame (`now`): read
        fewer than REREAD_FRAMES frames ago (still frames count: a case is read afresh as
        often as a still table), its board where it was, no block of its sheet (markers and
        quiet zones included: the white comes from there) changed since, and no cell unsure:
        a '?' on a case in plain view may be settled by the next frame's fresh noise."""
        last = self._kept.get(pose.player)
        if now is None or last is None or self._frames - last.frame >= REREAD_FRAMES:
            return None
        if any(code == UNKNOWN for row in last.read.grid for code in row):
            return None
        if np.abs(pose.grid_corners(self.layout) - last.pose.grid_corners(self.layout)).max() \
                > KEEP_CASE_PX:
            return None
        sheet = last.pose.sheet_corners(self.layout)
        return None if changed_blocks(region(last.key, sheet), region(now, sheet)).any() \
            else last


GOOD = (60, 200, 60)
HIDDEN = (0, 140, 255)


def annotate(frame: np.ndarray, result: HexapodRead, layout: CaseLayout = LAYOUT) -> np.ndarray:
    """A copy of `frame` with each case's grid outline and every cell's code drawn on it
    (green when read, orange '?' when hidden)."""
    out = frame.copy()
    s = layout.cell_mm
    for pose, case in zip(result.poses, result.observation.cases, strict=True):
        corners = np.round(pose.grid_corners(layout)).astype(np.int32)
        cv2.polylines(out, [corners], True, GOOD, 2, cv2.LINE_AA)
        centres = pose.to_image(np.array([((c + 0.5) * s, (r + 0.5) * s)
                                          for r in range(layout.rows)
                                          for c in range(layout.cols)]))
        scale = max(0.3, pose.cell_px(layout) / 60.0)
        for (x, y), code in zip(centres, (c for row in case.grid for c in row), strict=True):
            colour = HIDDEN if code == UNKNOWN else GOOD
            org = (int(x) - int(8 * scale * len(code)), int(y) + int(8 * scale))
            cv2.putText(out, code, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3,
                        cv2.LINE_AA)
            cv2.putText(out, code, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
        x, y = corners[0]
        cv2.putText(out, f"player {case.player}  {case.confidence:.2f}", (int(x), int(y) - 6),
                    cv2.FONT_HERSHEY_SIMPLEX, max(0.4, scale), GOOD, 1, cv2.LINE_AA)
    return out
