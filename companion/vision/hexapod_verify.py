"""Checking a located Hexapod display case against the picture before its cells are read.
The marker search (`hexapod_markers`, `hexapod_boards`) fits each case through at least three
markers of one player in the printed layout. Three markers one of which is wrong still fit one
homography (its perspective bends to the wrong one), and a case whose grid lies a cell off reads
a column's cells as its neighbour's: a wrong move committed. So every case is checked here, in
this order, and only a case that passes is read.

1. Its markers (`CasePose.markers`, those that located it) must show themselves where the case's
   own homography puts them (`markers_shown`): at each one's place, at the best of a few shifts
   up to half a module, its own code upright correlates `SHOWN_MATCH` or more, no other case
   code or turn `-SHOWN_LEAD` better. Markers the decoder read, blurred, glared or partly under
   a hand show 0.53-1.0 there, leading by 0.08 or more (hard 0-3099, every case within a third
   of a cell), the cases read a cell off (never-seen hard 2759, 2837) 0.18-0.19 at their wrong
   marker, 0.34-0.48 behind another code. A case that fails is not reported. A case located by
   all four markers is not looked at again: four markers around the grid, each within a third
   of a side of one homography and each one's code read or matched when it was found, pin it.
2. A case located by three markers extrapolates their corners' noise to its far side, 3-9 px
   at the far grid corner on blurred tables (a third of a cell), where the fourth marker lies.
   Its place is searched through the case's homography (`fourth_place`), up to `PLACE_MODULES`
   from where the three put it: a marker framed in its white quiet zone there that clearly
   shows its own code (`hexapod_boards.clear_code`) is that marker, and the case is refitted
   through all four. Where the place shows no clear code of its own (a hand, glare, blur), the
   sheet's corner there is taken where the paper's two straight edges, measured near the
   corners the markers vouch for (each within `VOUCH` modules of its own corner as the case
   puts it: else a hand's or a card's edge), meet (`_paper_corner`), and when that lies more
   than `EDGE_MIN` and at most `EDGE_MAX` modules from where the three put it, the case is
   refitted through it too (weighted as a marker's four corners). A place beyond the frame's
   edge, or a corner the edges do not show, leaves the case as the three put it; a refit that
   no longer passes check 1 is not taken. The markers that located the case (whose quiet
   zones give its white) stay the three. A place showing another code clearly is no ground to
   drop the case: a blurred or half-hidden marker correlates as clearly with some other code
   (hard 539, 607).

On the three-marker cases of hard 0-3099 whose far corner both edges show, the paper's corner
lies 0.30 module from the three's where their fit was right (within 0.04 cell; 0.77 at the 95th
percentile) and 2.0 where it was off by 0.15 cell or more (1.36 at the 10th). `EDGE_MIN` is
`hexapod_boards.FAR_TOL`, the two modules within which the outline search and `edges_agree` take
a corner no marker vouches for to agree with the paper's edges: beyond it (98 of 1329 cases
within `EDGE_MAX`) the refit brings 80 far grid corners in by 0.05 cell or more and puts 9 out
(a hand or an arm along an edge, as on hard 3065); the cases 0.2 cell off or more fall from 75
to 27. From 1.5 modules on it brought 171 in and put 24 out (16 left 0.2 cell off), but also
refitted hard 2005's case, and from one module on (0.053 cell on average against 0.083 before)
hard 615's, and cells beside a hand there then read '?' where the cell tests want them read
(`test_hexapod_unseen_marker`, `test_hexapod_masks`). The board's printed dark frame, looked for
along the two far edges as an arbiter between the two fits, chose worse on average than the
edges alone, so it is not used. `CaseChecks` keeps each player's last result: a video frame
whose markers put the case where they did (`KEEP_PX`) takes it again."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .hexapod_boards import (
    FAR_TOL,
    PLACE_MODULES,
    PLACE_STEPS,
    _edge_line,
    _sheet_corners,
    clear_code,
    place_scores,
)
from .hexapod_markers import (
    LAYOUT,
    CaseLayout,
    CasePose,
    FrameGrey,
    case_templates,
    printed_corners,
)
from .hexapod_outlines import line_meet

SHOWN_MATCH = 0.4        # a locating marker's own code at its place through the case...
SHOWN_LEAD = -0.1        # ...no other case code or turn better than this (check 1)
SHOWN_MODULES = 0.5      # ...at the best of shifts up to this many modules each way
SHOWN_STEPS = 3          # ...this many a way
PLACE_SAMPLES = 2        # samples a module each way at a marker's place (4 x 4 costs 4 times)
EDGE_MIN = FAR_TOL       # the paper's corner more than this many modules from the three's...
EDGE_MAX = 3.0           # ...and at most this many: the case is refitted through it (check 2)
VOUCH = 1.0              # each paper edge within this many modules of the corner it starts by
EDGE_WEIGHT = 4          # the paper's corner counts as this many points in the refit
KEEP_PX = 1.0            # a case's grid within this of the last one's: the same result


def markers_shown(frame: np.ndarray | FrameGrey, pose: CasePose,
                  layout: CaseLayout = LAYOUT) -> bool:
    """Check 1 (module docstring): whether every marker that located `pose` shows its own code
    where the case's homography puts it in `frame` (grey, BGR, or its `FrameGrey`)."""
    grey = _frame_grey(frame)
    printed = list(printed_corners(layout, pose.player))
    places = tuple(k for k, mid in enumerate(printed) if mid in pose.markers)
    if not places:
        return False
    score, _, _ = place_scores(grey, pose.homography, SHOWN_STEPS, layout, SHOWN_MODULES,
                               places, PLACE_SAMPLES)
    ids = case_templates(layout)[1]
    for at, k in enumerate(places):
        own = int(np.flatnonzero(ids == printed[k])[0])     # its code's upright row
        mine = score[at, :, own]
        best = int(mine.argmax())
        rest = np.delete(score[at, best], own).max()
        if mine[best] < SHOWN_MATCH or mine[best] - rest < SHOWN_LEAD:
            return False
    return True


def fourth_place(frame: np.ndarray | FrameGrey, pose: CasePose, layout: CaseLayout = LAYOUT
                 ) -> CasePose:
    """Check 2 (module docstring): `pose`, located by three of its markers, refitted through
    its fourth where its place in `frame` (grey, BGR, or its `FrameGrey`) shows that marker's
    code, else through the sheet's corner there where the paper's edges put it (in colour when
    the frame has it), else as it is. A pose not lacking exactly one of its four markers, or
    whose fourth marker's place (and the search's reach) is not wholly in the frame, is
    returned as it is."""
    grey = _frame_grey(frame)
    printed = printed_corners(layout, pose.player)
    ids = list(printed)
    missing = [k for k, mid in enumerate(ids) if mid not in pose.markers]
    if len(missing) != 1 or len(pose.markers) != 3:
        return pose
    k = missing[0]
    want = pose.to_image(printed[ids[k]])
    reach = (PLACE_MODULES + 1.5) * pose.marker_px / layout.marker_modules
    h, w = grey.shape[:2]
    if not (np.isfinite(want).all() and (want.min(axis=0) >= reach).all()
            and want[:, 0].max() < w - 1 - reach and want[:, 1].max() < h - 1 - reach):
        return pose
    score, frame, px = place_scores(grey, pose.homography, PLACE_STEPS, layout,
                                    PLACE_MODULES, (k,), PLACE_SAMPLES)
    clear = clear_code(score, frame, 0)
    if clear is not None and clear[0] % 4 == 0 \
            and int(case_templates(layout)[1][clear[0]]) == ids[k]:
        return _refit(pose, printed, printed[ids[k]], px[0, clear[1]], 1)
    image = grey.bgr if grey.bgr is not None else grey.whole()
    module = pose.marker_px / layout.marker_modules
    sheet = pose.sheet_corners(layout)
    corner = _paper_corner(image, sheet, k, module)
    if corner is None or not EDGE_MIN * module < np.linalg.norm(corner - sheet[k]) \
            <= EDGE_MAX * module:
        return pose
    return _refit(pose, printed, _sheet_corners(layout)[k:k + 1], corner[None], EDGE_WEIGHT)


def _paper_corner(image: np.ndarray, sheet: np.ndarray, k: int, module: float
                  ) -> np.ndarray | None:
    """Where the paper's two straight edges through sheet corner `k` meet, each measured in
    `image` on its stretch by its other corner (`hexapod_boards._edge_line`, as `_edge_corner`
    does), or None where either is not clearly seen or passes more than `VOUCH` modules from
    that other corner as the case puts it: the markers pin the corners they vouch for, so an
    edge that misses its own corner is a hand's or a card's, not the paper's."""
    centre = sheet.mean(axis=0)
    lines = []
    for other in ((k - 1) % 4, (k + 1) % 4):
        line = _edge_line(image, sheet[other], sheet[k], centre, module)
        if line is None:
            return None
        (x, y), (dx, dy) = line
        if abs((sheet[other][0] - x) * dy - (sheet[other][1] - y) * dx) > VOUCH * module:
            return None
        lines.append(line)
    (p, d), (q, e) = lines
    return line_meet(p, p + d, q, q + e)


def _frame_grey(frame: np.ndarray | FrameGrey) -> FrameGrey:
    """`frame` as a `FrameGrey` (converted to grey only where looked at)."""
    return frame if isinstance(frame, FrameGrey) else FrameGrey(frame)


def _refit(pose: CasePose, printed: dict[int, np.ndarray], mm: np.ndarray, px: np.ndarray,
           weight: int) -> CasePose:
    """`pose` refitted by least squares through its markers' corners where it puts them and
    the points `mm` (board) seen at `px` (image), counted `weight` times."""
    src = np.vstack([*(printed[i] for i in pose.markers), np.repeat(mm, weight, axis=0)])
    dst = np.vstack([*(pose.to_image(printed[i]) for i in pose.markers),
                     np.repeat(px, weight, axis=0)])
    H, _ = cv2.findHomography(src, dst, 0)
    return pose if H is None or not np.isfinite(H).all() else replace(pose,
                                                                        homography=H / H[2, 2])


def check_case(frame: np.ndarray | FrameGrey, pose: CasePose, layout: CaseLayout = LAYOUT
               ) -> CasePose | None:
    """`pose` checked in `frame` (grey, BGR, or its `FrameGrey`; module docstring): None when
    its markers do not show where it puts them, else the pose refitted through its fourth
    marker or the paper's corner (when that refit still shows its markers) or as it is."""
    grey = _frame_grey(frame)
    if len(pose.markers) < len(printed_corners(layout, pose.player)) \
            and not markers_shown(grey, pose, layout):
        return None
    refit = fourth_place(grey, pose, layout)
    return refit if refit is pose or markers_shown(grey, refit, layout) else pose


@dataclass
class CaseChecks:
    """Each player's last check: (the pose checked, its result)."""

    last: dict[int, tuple[CasePose, CasePose | None]] = field(default_factory=dict)

    def checked(self, frame: np.ndarray | FrameGrey, poses: list[CasePose],
                layout: CaseLayout = LAYOUT) -> list[CasePose]:
        """`poses` checked in `frame` (`check_case`), those that fail left out; a pose with the
        markers of the last one checked for its player and its grid within `KEEP_PX` of that
        one's takes that check's result again (a still board in a video): dropped again, or
        refitted by the same correction (`_carried`), not by the last frame's homography."""
        grey = _frame_grey(frame)
        out = []
        for pose in poses:
            last = self.last.get(pose.player)
            if last is not None and last[0].markers == pose.markers and np.abs(
                    last[0].grid_corners(layout) - pose.grid_corners(layout)).max() <= KEEP_PX:
                result = _carried(last[0], last[1], pose)
            else:
                result = check_case(grey, pose, layout)
            self.last[pose.player] = (pose, result)
            if result is not None:
                out.append(result)
        return out


def _carried(checked: CasePose, result: CasePose | None, pose: CasePose) -> CasePose | None:
    """The result of checking `checked` carried over to `pose` (the same markers a pixel or
    less away): None if it was dropped, `pose` itself if it was kept as it was, else the
    refit's homography moved as the case moved (`checked`'s inverse, then `pose`'s)."""
    if result is None:
        return None
    if result is checked:
        return pose
    if np.array_equal(pose.homography, checked.homography):
        return result
    H = pose.homography @ np.linalg.inv(checked.homography) @ result.homography
    return replace(pose, homography=H / H[2, 2])
