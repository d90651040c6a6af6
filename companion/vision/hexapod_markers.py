"""Finding Hexapod display cases by their corner markers. A case board (printed by `companion
cards export --game hexapod`) carries four ArUco markers (DICT_4X4_50) that name its player p
and corner: ids 10p..10p+3 at the top-left, top-right, bottom-right and bottom-left, above and
below the grid. The geometry looked for is the one printed: `CaseLayout` is
`companion.faces.HexapodCase`, which `synth.hexapod_board` draws. Markers are detected with one
adaptive threshold window and a permissive bit decoder (blur and JPEG flip bits) that knows only
the case codes (OpenCV tries every code of its dictionary on every quad it finds: most of the
search's time on a textured table); a wrongly decoded id is caught by geometry: a case is
accepted only when at least three of its markers agree, through one homography, with the printed
layout. A marker the decoder gave up on (motion blur) is recovered from the quads it rejected,
where the case's decoded markers say it must be and when its inside shows its code at least
loosely (`recover`: a card tile there is as near, and three markers, one of them a tile, still
fit one homography); a case none of whose markers
decoded (motion blur wider than a module) is found by matching the rejected quads' insides
against the case markers' codes (`match_quads`), the same three-marker geometry deciding; a case
whose markers blur or size left without a quad each is found by its white sheet's outline and
verified by the codes at its marker places (`hexapod_boards.find_boards`), or by the quads of
the frame at half size, where a blurred marker's border closes again, matched as above
(`half_size`); both only for players still missing. A case still missing of which two
markers were seen (decoded, or matched at either size; else two its sheet's outline verified
at their places, a hand over a third bending the outline there) is looked for where those put
its others, each place in a window of its own under thresholds the whole-frame search cannot
afford, the same codes and three-marker geometry deciding (`partial_cases`); a sheet whose
four markers all show framed, two of them read, is placed by its measured corners and all four
markers' centres (`hexapod_boards.framed_pairs`). A case still missing of which one marker at
least was seen is looked for, within reach of those, among the dark blobs of a marker's size
(blur rounds a marker's corners off past any quad, yet it stays one dark square on the white
sheet), matched and fitted as above (`dark_cases`). A case fitted
through three markers extrapolates their corners' noise to the far grid corner (3-9 px there on
blurred scenes): when the fourth is a rejected quad where the three put it, of its size, turn
and code, the case is refitted through all four (`complete`). Corners stay as the detector finds
them: refining them on the straight edges (`calibration.refine_corners`, `refine=True`) halves
their error but did not change what the cells read; refitting only three-marker cases through
refined corners (`sharpen=True`, `sharpen`) brings most of those grids within 2 px, yet gained
no cell on the hard scenes and, through the reader's hand check, turned one hand-covered cell
into an empty one (hard 139), so it is off by default.
Every case found is then checked against the picture before it is reported
(`hexapod_verify`: its markers shown where its homography puts them; a three-marker case
refitted through its fourth marker's place or the paper's corner there).
`MarkerTracker` keeps the last poses, so that a video frame is searched only about the markers
it saw last, each window for its own marker's code and size, the quads it rejects recovered
where the decoded markers put them as in a whole-frame search (`recover`; a full search when
one goes missing); a colour frame is converted to grey only where it is searched (`FrameGrey`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

import cv2
import numpy as np

from ..faces import CASE_CORNERS, HEXAPOD_CASE, HEXAPOD_PLAYERS, HexapodCase
from .aruco_match import (
    code_scores,
    code_templates,
    dark_quads,
    plausible_quads,
    quad_side,
    quad_sides,
    sub_dictionary,
)
from .calibration import refine_corners
from .geometry import transform

CORNER_NAMES = CASE_CORNERS
PLAYERS = HEXAPOD_PLAYERS
GAME_CASES = 2   # display cases at a Hexapod table (RULES.md P: two players)
MARKER_DICT = HEXAPOD_CASE.dictionary


# The printed display-case board, in board millimetres (origin at the grid's top-left corner,
# x right, y down): the one geometry shared with the renderer.
CaseLayout = HexapodCase
LAYOUT = HEXAPOD_CASE


class FrameGrey:
    """One frame's grey levels, converted from its BGR only where a stage looks: a tracked
    frame is searched in windows about its markers, a tenth of the picture, while converting
    all of it costs about 1 ms at 1280 x 720. The grey of a pixel depends on that pixel alone,
    so a window converted on its own holds the same values as the same window of the whole."""

    def __init__(self, image: np.ndarray) -> None:
        self._bgr = image if image.ndim == 3 else None
        self.bgr: np.ndarray | None = self._bgr    # the colour frame, if it was one
        self._whole = image if image.ndim == 2 else None
        self.shape: tuple[int, int] = image.shape[:2]

    def whole(self) -> np.ndarray:
        """The whole frame's grey (converted once)."""
        if self._whole is None:
            self._whole = cv2.cvtColor(self._bgr, cv2.COLOR_BGR2GRAY)
        return self._whole

    def crop(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """The grey of the window [y0:y1, x0:x1]."""
        if self._whole is not None:
            return self._whole[y0:y1, x0:x1]
        return cv2.cvtColor(self._bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)

    def around(self, pts: np.ndarray, pad: int = 2) -> tuple[np.ndarray, tuple[int, int]]:
        """(grey, its top-left in the frame): the window about `pts` (frame px, any shape
        ending in 2) and `pad` px beyond, cut at the frame's edges, or the whole frame once
        it was converted (or a point is not finite: a degenerate pose). A point is sampled
        with its right and lower neighbours, so a pad of 2 holds every pixel a bilinear sample
        within the points' bounds reads."""
        xy = np.asarray(pts, np.float64).reshape(-1, 2)
        if self._whole is not None or not np.isfinite(xy).all():
            return self.whole(), (0, 0)
        h, w = self.shape
        x0 = min(max(math.floor(float(xy[:, 0].min())) - pad, 0), w - 1)
        y0 = min(max(math.floor(float(xy[:, 1].min())) - pad, 0), h - 1)
        x1 = min(max(math.ceil(float(xy[:, 0].max())) + pad + 1, x0 + 1), w)
        y1 = min(max(math.ceil(float(xy[:, 1].max())) + pad + 1, y0 + 1), h)
        return self.crop(x0, y0, x1, y1), (x0, y0)


def polygon_sides(corners: np.ndarray) -> list[float]:
    """The side lengths of a polygon (n x 2), each from a corner to the next, in plain floats:
    for float64 corners the same arithmetic as NumPy's norm, without its overhead on a few
    sides."""
    pts = corners.tolist()
    return [math.sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]))
            for a, b in zip(pts, pts[1:] + pts[:1], strict=True)]


def _whole(grey: np.ndarray | FrameGrey) -> np.ndarray:
    return grey.whole() if isinstance(grey, FrameGrey) else grey


@lru_cache(maxsize=64)
def printed_corners(layout: CaseLayout, player: int) -> dict[int, np.ndarray]:
    """`layout.marker_corners(player)`, worked out once (the arrays are read-only): every
    frame asks for them several times."""
    corners = layout.marker_corners(player)
    for c in corners.values():
        c.flags.writeable = False
    return corners


@dataclass(frozen=True, eq=False)
class CasePose:
    """Where one case lies in the image: board mm -> image px homography and its evidence."""

    player: int
    homography: np.ndarray                 # board mm -> image px (3 x 3)
    markers: tuple[int, ...]               # the ids that located it
    rms_px: float                          # marker corners' reprojection error
    marker_px: float                       # mean marker side in the image

    def to_image(self, board_mm: np.ndarray) -> np.ndarray:
        """Board points (N, 2) mm -> image px."""
        return transform(board_mm, self.homography)

    def grid_corners(self, layout: CaseLayout = LAYOUT) -> np.ndarray:
        """The grid's TL, TR, BR, BL in the image (4, 2)."""
        w, h = layout.width_mm, layout.height_mm
        return self.to_image(np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]))

    def sheet_corners(self, layout: CaseLayout = LAYOUT) -> np.ndarray:
        """The trimmed sheet's TL, TR, BR, BL in the image (4, 2): grid, markers and margins."""
        x0, y0, w, h = layout.sheet_mm
        return self.to_image(np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]))

    def cell_px(self, layout: CaseLayout = LAYOUT) -> float:
        """Mean side of a grid cell in the image."""
        # (NumPy's mean of the four sides, the same additions in the same order: every case
        # read asks)
        s = polygon_sides(self.grid_corners(layout))
        return (((s[0] + s[1]) + s[2]) + s[3]) / 4 / ((layout.cols + layout.rows) / 2.0)


def make_detector(codes: tuple[int, ...] | None = None) -> cv2.aruco.ArucoDetector:
    """The ArUco detector for case markers: one adaptive-threshold window (the markers are
    15-60 px; one pass costs a third of the default three), a tolerant polygon fit and bit
    decoder (blur and JPEG flip bits; geometry rejects a wrong id), no corner refinement.
    `codes`: decode only these ids of the dictionary (the detector then reports each as its
    index in `codes`: see `detect`), else every id."""
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin = 15
    params.adaptiveThreshWinSizeMax = 15
    params.polygonalApproxAccuracyRate = 0.05
    params.errorCorrectionRate = 1.0
    params.maxErroneousBitsInBorderRate = 0.5
    params.perspectiveRemoveIgnoredMarginPerCell = 0.3
    params.minOtsuStdDev = 2.0
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return cv2.aruco.ArucoDetector(_dictionary(codes), params)


@lru_cache(maxsize=32)
def _dictionary(codes: tuple[int, ...] | None) -> cv2.aruco.Dictionary:
    """The case markers' dictionary, cut down to `codes` when given, built once: a reader
    makes a detector for each of its markers' windows, and the detector keeps its own copy."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICT))
    if codes is not None:
        # only the codes it wants (`sub_dictionary`: the bulk of a quad's cost is comparing it
        # with every code); a quad that decoded to another id is now undecoded, and `recover`
        # and `match_quads` test it by geometry, as any undecoded quad
        dictionary = sub_dictionary(dictionary, codes)
    return dictionary


@lru_cache(maxsize=8)
def case_codes(layout: CaseLayout = LAYOUT) -> tuple[int, ...]:
    """Every case marker id, players in order (the codes a case detector decodes); worked out
    once (the outline search asks for every sheet it tries)."""
    return tuple(mid for player in PLAYERS for mid in layout.marker_ids(player))


Quad = np.ndarray   # (4, 2) corners in frame px


def detect(grey: np.ndarray, detector: cv2.aruco.ArucoDetector, layout: CaseLayout = LAYOUT,
           origin: tuple[int, int] = (0, 0), codes: tuple[int, ...] | None = None
           ) -> tuple[list[tuple[int, Quad]], list[Quad]]:
    """Case markers in `grey` (a crop whose top-left is `origin` in the frame): (id, corners) for
    every decoded quad with a case id (an id may appear twice), and the quads the detector found
    but could not decode (blur, glare). `codes`: the ids a `make_detector(codes)` decodes."""
    corners, ids, rejected = detector.detectMarkers(grey)
    off = np.asarray(origin, np.float64)
    out = []
    if ids is not None:
        for c, i in zip(corners, ids.ravel(), strict=True):
            mid = int(i) if codes is None else codes[int(i)]
            if layout.owner(mid) is not None:
                out.append((mid, np.asarray(c, np.float64).reshape(4, 2) + off))
    # the rejected quads (a textured table gives dozens) converted in one go: rows of one array
    quads = list(np.asarray(rejected, np.float64).reshape(-1, 4, 2) + off) if len(rejected) \
        else []
    return out, quads



def doubled(grey: np.ndarray, detector: cv2.aruco.ArucoDetector, layout: CaseLayout = LAYOUT,
            codes: tuple[int, ...] | None = None) -> list[CasePose]:
    """The cases whose markers the decoder finds in `grey` enlarged twice (linear), back in
    the frame's pixels, fitted, recovered and completed as at full size: a marker 12-18 px
    wide has modules of two or three pixels, which the quad fit and the bit decoder lose,
    more so when it is turned. A search at twice the size costs about three at full size,
    so the reader makes it only when it found no case at all."""
    big = cv2.resize(grey, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    found, rejected = detect(big, detector, layout, codes=codes)
    found = [(i, (q + 0.5) / 2.0 - 0.5) for i, q in found]
    rejected = [(q + 0.5) / 2.0 - 0.5 for q in rejected]
    found = recover(found, rejected, layout, grey=grey)
    return complete(grey, fit_cases(found, layout), found, rejected, layout)


def _mean_side(quads: list[Quad]) -> float:
    """The mean of `quad_side` over `quads`: float64 quads (all the detector gives) at once, with
    the same per-quad arithmetic; any other kind one by one."""
    if all(q.dtype == np.float64 and q.shape == (4, 2) for q in quads):
        return float(np.mean(quad_sides(np.stack(quads)).mean(axis=1)))
    return float(np.mean([quad_side(c) for c in quads]))


RECOVER_CANDIDATES = 3   # undecoded quads tried for each missing marker
MAX_CHOICES = 10         # candidate quads of a case tried one choice at a time (`fit_matched`)


def _through_seen(printed: dict[int, np.ndarray], have: dict[int, Quad]
                  ) -> tuple[dict[int, Quad], float] | None:
    """Where the printed layout (`printed`: id -> corners in mm) through a case's markers seen
    (`have`: id -> corners in the frame) puts its others (an affine map from two or more, a
    similarity from one: perspective is not well seen on one side of a board), in layout
    order, and the seen markers' mean side; None when no map fits."""
    src = np.vstack([printed[i] for i in have]).astype(np.float32)
    dst = np.vstack(list(have.values())).astype(np.float32)
    fit = cv2.estimateAffine2D if len(have) >= 2 else cv2.estimateAffinePartial2D
    A, _ = fit(src, dst, method=cv2.LMEDS)
    if A is None:
        return None
    H = np.vstack([A, (0.0, 0.0, 1.0)])
    wanted = {mid: transform(mm, H) for mid, mm in printed.items() if mid not in have}
    return wanted, _mean_side(list(have.values()))


def recover(found: list[tuple[int, Quad]], rejected: list[Quad], layout: CaseLayout = LAYOUT,
            min_markers: int = 3, grey: np.ndarray | FrameGrey | None = None
            ) -> list[tuple[int, Quad]]:
    """`found` plus undecoded quads that sit where a case's missing markers must be. For a
    player with one or two decoded markers, the printed layout through those markers (an affine
    map from two, a similarity from one: perspective is not well seen on one side of a board)
    predicts the others roughly; the undecoded quad of about the right size nearest to a
    prediction (within 1.2 marker sides) is taken as that marker, in the turn that fits best,
    when its inside, in `grey` (the frame), shows that marker's code in that turn at least
    loosely (`_loosely_shows`: blur or glare made the decoder give it up). Without `grey` the
    quads are taken on geometry alone. `fit_cases` then checks the whole case through one
    homography, to a third of a side."""
    if not rejected:
        return found
    quads = np.array(rejected)                                   # (n, 4, 2)
    centres = quads.mean(axis=1)
    out = list(found)
    for player in {layout.owner(i)[0] for i, _ in found}:
        printed = printed_corners(layout, player)
        have = {i: c for i, c in found if i in printed}
        if not 0 < len(have) < min_markers:
            continue
        predicted = _through_seen(printed, have)
        if predicted is None:
            continue
        wanted, side = predicted
        for mid, want in wanted.items():
            d = np.linalg.norm(centres - want.mean(axis=0), axis=1)
            # every quad of about the right size within reach is a candidate, nearest first: the
            # prediction through one or two markers misses perspective (a wide lens, a tilted
            # board) by up to a side, and a card's drawing by the grid's corner (a dung
            # beetle's black tile) makes a marker-like quad as near as the marker itself;
            # `fit_cases` keeps the one that fits the case (taking only the nearest dropped the
            # marker, and a case fitted from three is off by a third of a cell at the fourth)
            for k in np.argsort(d)[:RECOVER_CANDIDATES]:
                if d[k] > 1.2 * side or not 0.6 < quad_side(quads[k]) / side < 1.6:
                    continue
                err, turned = _best_turn(quads[k], want)
                if err < 1.5 * side and (grey is None or _loosely_shows(grey, turned, mid,
                                                                          layout)):
                    out.append((mid, turned))
    return out


# A quad the decoder rejected is a marker's only when its inside shows that marker's code:
# where two markers are decoded, the third one's place holds 1-3 card tiles and their drawings
# as near as the marker, and three markers, one of them wrong, still fit one homography within
# a third of a side (the perspective bends to it; never-seen hard 2759, 2837: a whole case read
# a cell off). Blurred or glared markers the decoder gave up on correlate 0.47-0.99 with their
# own code in the turn the case says, never more than 0.11 worse than with another case code
# (hard 0-3099: 553 recovered); the card tiles that made wrong cases -0.24 and 0.08
RECOVER_MATCH = 0.4      # a recovered quad's own code correlates at least this well...
RECOVER_LEAD = -0.2      # ...and no other case code (any turn) better by more than this


def _loosely_shows(grey: np.ndarray | FrameGrey, quad: Quad, mid: int, layout: CaseLayout
                   ) -> bool:
    """Whether `quad` (corners in the marker's own order) shows marker `mid`'s code upright at
    `RECOVER_MATCH`, no other case code in any turn `-RECOVER_LEAD` better."""
    templates, ids = case_templates(layout)
    own, rest = _own_score(grey, quad, mid, templates, ids, layout)
    return own >= RECOVER_MATCH and own - rest >= RECOVER_LEAD


def _best_turn(quad: Quad, want: Quad) -> tuple[float, Quad]:
    """(farthest corner's distance, corners) of `quad` in the quarter turn whose corners lie
    nearest `want`'s (a rejected quad's corners start at any of its corners)."""
    turns = [np.concatenate((quad[t:], quad[:t])) for t in range(4)]   # np.roll(quad, -t, 0)
    errs = [np.linalg.norm(q - want, axis=1).max() for q in turns]
    t = int(np.argmin(errs))
    return float(errs[t]), turns[t]


# markers blurred 5-7 px correlate 0.65-0.95 with their own code and lead every other case id
# by 0.15-0.5 (rendered hard scenes); quads on drawings can match too: geometry rejects them
MIN_MATCH = 0.6      # a quad's code must correlate this well with a case marker's...
MIN_LEAD = 0.12      # ...and this much better than with any other case id
PER_ID = 2           # candidates kept per id


@lru_cache(maxsize=4)
def case_templates(layout: CaseLayout = LAYOUT) -> tuple[np.ndarray, np.ndarray]:
    """(templates, ids): every case marker's code as `aruco_match.code_templates` rows, four a
    marker (its quarter turns), and the id of each row."""
    ids = case_codes(layout)
    templates = code_templates(layout.dictionary, ids, layout.marker_modules)
    return templates, np.repeat(np.array(ids), 4)


def match_quads(grey: np.ndarray, quads: list[Quad], layout: CaseLayout = LAYOUT,
                sides: tuple[float, float] = (8.0, np.inf),
                size: tuple[float, float] = (0.0, np.inf)) -> list[tuple[int, Quad]]:
    """(id, corners in ArUco order) for the undecoded quads whose inside matches one case
    marker's code clearly (`MIN_MATCH`, `MIN_LEAD` over any other id). Motion blur wider than a
    module smears bits past the decoder's threshold, yet the blurred code still correlates with
    the printed one far better than with any other marker's; a wrong match is caught by
    `fit_cases`, which wants three markers of one case in the printed layout. Only quads whose
    sides lie within `sides` (px) and differ by at most a factor 2, and whose mean side lies
    within `size` (px), are tried."""
    if not quads:
        return []
    q = plausible_quads(quads, sides)                                 # (n, 4, 2)
    mean = quad_sides(q).mean(axis=1)
    q = q[(mean >= size[0]) & (mean <= size[1])]
    if not len(q):
        return []
    templates, ids = case_templates(layout)
    score = code_scores(grey, q, templates, layout.marker_modules)
    score = score.reshape(len(q), -1, 4)                              # (quads, ids, turns)
    per_id = score.max(axis=2)
    top2 = -np.partition(-per_id, 1, axis=1)[:, :2]
    best = per_id.argmax(axis=1)
    turn = score[np.arange(len(q)), best].argmax(axis=1)
    ok = np.flatnonzero((top2[:, 0] >= MIN_MATCH) & (top2[:, 0] - top2[:, 1] >= MIN_LEAD))
    # the best `PER_ID` quads of each id: a marker is one quad (perhaps two nested outlines),
    # and every extra candidate costs the geometric check time
    ok = ok[np.lexsort((-top2[ok, 0], best[ok]))]
    first = np.r_[True, best[ok][1:] != best[ok][:-1]]
    rank = np.arange(len(ok)) - np.maximum.accumulate(np.where(first, np.arange(len(ok)), 0))
    return [(int(ids[4 * best[i]]), np.roll(q[i], -int(turn[i]), 0).astype(np.float64))
            for i in ok[rank < PER_ID]]


# A case fitted through three markers extrapolates its homography to the grid's far corner:
# a pixel of blur on those twelve corners puts that corner 3-9 px off (hard scenes), a third of
# a cell. The fourth marker, when the decoder rejected it, is among the quads it gave up on,
# 5-9 px (up to a third of its side) from where the three put it (`complete`).
COMPLETE_REACH = 0.5     # a fourth marker's corners lie within this share of a side of the fit's


def complete(grey: np.ndarray | FrameGrey, poses: list[CasePose],
             found: list[tuple[int, Quad]], rejected: list[Quad], layout: CaseLayout = LAYOUT
             ) -> list[CasePose]:
    """`poses` with each three-marker case refitted through its fourth marker when an
    undecoded quad lies where the three put it (every corner within `COMPLETE_REACH` of a
    side, about the decoded markers' size) and its inside shows that marker's code in the
    turn the case says (`MIN_MATCH`, `MIN_LEAD` over every other case id and turn): a quad
    at the predicted place, of the printed size, turn and code is the marker itself, and four
    markers around the grid pin its corners where three only extrapolate. The refit keeps the
    fourth only if `fit_cases` finds it within a third of a side of the four-marker fit."""
    if not rejected or all(len(p.markers) != 3 for p in poses):
        return poses
    quads = np.array(rejected)                                   # (n, 4, 2)
    centres = quads.mean(axis=1)
    templates, ids = case_templates(layout)
    out = []
    for pose in poses:
        printed = printed_corners(layout, pose.player)
        missing = [i for i in printed if i not in pose.markers]
        if len(pose.markers) != 3 or len(missing) != 1:
            out.append(pose)
            continue
        mid = missing[0]
        want = pose.to_image(printed[mid])
        side = pose.marker_px
        near = np.linalg.norm(centres - want.mean(axis=0), axis=1) < COMPLETE_REACH * side
        best = None
        for k in np.flatnonzero(near):
            if not 0.7 < quad_side(quads[k]) / side < 1.4:
                continue
            err, turned = _best_turn(quads[k], want)
            if err < COMPLETE_REACH * side and (best is None or err < best[0]):
                best = (err, turned)
        if best is None or not _shows_code(grey, best[1], mid, templates, ids, layout):
            out.append(pose)
            continue
        mine = [(i, c) for i, c in found if i in pose.markers]
        refit = [p for p in fit_cases([*mine, (mid, best[1])], layout) if p.player == pose.player]
        out.append(refit[0] if refit and len(refit[0].markers) == 4 else pose)
    return out


# a marker's four edges show the same black and white within half the contrast (fully visible
# hard markers: 0.06 median, 0.2 at the 90th percentile); beyond it glare or a hand is over it
EVEN_EDGES = 0.5


def sharpen(grey: np.ndarray, poses: list[CasePose], found: list[tuple[int, Quad]],
            layout: CaseLayout = LAYOUT) -> list[CasePose]:
    """`poses` with each three-marker case refitted through its markers' corners refined on
    their straight edges (`refine_corners`: the detector's corners are ~1 px off under blur,
    its edges' intersections ~0.5 px). Four markers around the grid interpolate their corners'
    noise, three extrapolate it to the far grid corner (3-9 px there, hard scenes): only those
    cases pay for refining. All three or none: the detector's corners share a bias (blur pulls
    a convex corner inwards) that a fit through a mix of refined and raw corners turns into a
    tilt, so a case one of whose markers will not refine (low contrast, a broken edge, glare or
    a hand over part of it: `EVEN_EDGES`) keeps its raw fit."""
    out = []
    for pose in poses:
        if len(pose.markers) != 3:
            out.append(pose)
            continue
        printed = printed_corners(layout, pose.player)
        quads = []
        for mid in pose.markers:
            # the quad of that id the fit placed (recovered ids may have several candidates)
            want = pose.to_image(printed[mid])
            raw = min((c for i, c in found if i == mid), key=lambda c: np.abs(c - want).max())
            quads.append((mid, refine_corners(grey, raw, even=EVEN_EDGES)))
            if quads[-1][1] is raw:
                break
        else:
            refit = [p for p in fit_cases(quads, layout) if p.player == pose.player]
            if refit and refit[0].markers == pose.markers:
                out.append(refit[0])
                continue
        out.append(pose)
    return out


def _shows_code(grey: np.ndarray | FrameGrey, quad: Quad, mid: int, templates: np.ndarray,
                ids: np.ndarray, layout: CaseLayout) -> bool:
    """Whether `quad` (corners in the marker's own order) shows marker `mid`'s code upright,
    `MIN_MATCH` and `MIN_LEAD` better than any other case id in any turn, or its own code
    in another turn (`_own_score`)."""
    own, rest = _own_score(grey, quad, mid, templates, ids, layout)
    return own >= MIN_MATCH and own - rest >= MIN_LEAD


def _own_score(grey: np.ndarray | FrameGrey, quad: Quad, mid: int, templates: np.ndarray,
               ids: np.ndarray, layout: CaseLayout) -> tuple[float, float]:
    """(correlation of `quad`'s inside with marker `mid`'s code upright, the best with any
    other case code and turn, `ids`' rows of `templates`, its own other turns included). A
    tracked frame is converted to grey about the quad only (its code's samples lie within its
    corners: `FrameGrey.around`), not as a whole."""
    quads = quad[None].astype(np.float32)
    if isinstance(grey, FrameGrey):
        image, origin = grey.around(quads)
    else:
        image, origin = grey, (0, 0)
    score = code_scores(image, quads, templates, layout.marker_modules, origin=origin)[0]
    own = int(np.flatnonzero(ids == mid)[0])               # row of turn 0 of `mid`
    return float(score[own]), float(np.delete(score, own).max())


def fit_cases(found: list[tuple[int, Quad]], layout: CaseLayout = LAYOUT,
              min_markers: int = 3) -> list[CasePose]:
    """One `CasePose` per player with at least `min_markers` markers that fit the printed
    layout through one homography (a marker off by more than a third of its side is dropped)."""
    poses = []
    for player in PLAYERS:
        printed = printed_corners(layout, player)
        cand = [(i, c) for i, c in found if i in printed]
        if len({i for i, _ in cand}) < min_markers:
            continue
        if len({i for i, _ in cand}) < len(cand) <= MAX_CHOICES:
            # several quads for one id (`recover` keeps every near one): three markers do not
            # pin a fourth, so RANSAC may bend the perspective to a drawing by the grid's
            # corner; the choice that fits best, as for matched quads, is the case
            poses += fit_matched(cand, layout, min_markers)
            continue
        tol = max(1.5, 0.3 * _mean_side([c for _, c in cand]))
        fit = _agreed_fit(cand, printed, tol) or _ransac_fit(cand, printed, tol, min_markers)
        if fit is None:
            continue
        ids, src, dst, H = fit
        res = np.linalg.norm(transform(src, H) - dst, axis=1)
        side = _mean_side([dst[4 * k:4 * k + 4] for k in range(len(ids))])
        poses.append(CasePose(player, H / H[2, 2], ids, float(np.sqrt((res ** 2).mean())), side))
    return poses


Fit = tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray]   # ids, board mm, px, H


def _least_squares(best: dict[int, Quad], printed: dict[int, np.ndarray]) -> Fit | None:
    """The least-squares homography through the markers `best` (one quad an id), ids in order."""
    ids = tuple(sorted(best))
    src = np.vstack([printed[i] for i in ids])
    dst = np.vstack([best[i] for i in ids])
    H, _ = cv2.findHomography(src, dst, 0)
    return None if H is None else (ids, src, dst, H)


def _agreed_fit(cand: list[tuple[int, Quad]], printed: dict[int, np.ndarray], tol: float
                ) -> Fit | None:
    """The least-squares fit through every candidate, when the ids are distinct and it puts
    every corner within half the outlier tolerance `tol`; else None. RANSAC keeps the largest
    set of markers one homography fits within `tol`: here that is all of them, and its fit
    would be this one, so it is skipped (most frames: it costs twice the final fit)."""
    if len({i for i, _ in cand}) < len(cand):
        return None
    fit = _least_squares(dict(cand), printed)
    if fit is None:
        return None
    _, src, dst, H = fit
    return fit if (np.linalg.norm(transform(src, H) - dst, axis=1) < 0.5 * tol).all() else None


def _ransac_fit(cand: list[tuple[int, Quad]], printed: dict[int, np.ndarray], tol: float,
                min_markers: int) -> Fit | None:
    """The least-squares fit through the markers RANSAC finds within `tol` of one homography
    (the nearest quad of an id seen twice), when there are at least `min_markers`."""
    src = np.vstack([printed[i] for i, _ in cand]).astype(np.float32)
    dst = np.vstack([c for _, c in cand]).astype(np.float32)
    H, _ = cv2.findHomography(src, dst, cv2.RANSAC, tol)
    if H is None:
        return None
    err = np.linalg.norm(transform(src, H) - dst, axis=1).reshape(-1, 4).max(1)
    best: dict[int, Quad] = {}
    least: dict[int, float] = {}
    for (i, c), e in zip(cand, err, strict=True):
        if e < tol and (i not in best or e < least[i]):
            best[i], least[i] = c, float(e)
    return _least_squares(best, printed) if len(best) >= min_markers else None


def off_cases(quads: list[Quad], poses: list[CasePose], layout: CaseLayout = LAYOUT
              ) -> list[Quad]:
    """The quads whose centre lies on none of the located cases' sheets: boards do not overlap,
    so a quad on a located sheet is its own drawing, never another case's marker."""
    if not quads or not poses:
        return quads
    x0, y0, w, h = layout.sheet_mm
    centres = np.array(quads).mean(axis=1)
    keep = np.ones(len(quads), bool)
    for pose in poses:
        mm = transform(centres, np.linalg.inv(pose.homography))
        keep &= ~((mm[:, 0] >= x0) & (mm[:, 0] <= x0 + w) & (mm[:, 1] >= y0) &
                  (mm[:, 1] <= y0 + h))
    return [q for q, k in zip(quads, keep, strict=True) if k]


def fit_matched(found: list[tuple[int, Quad]], layout: CaseLayout = LAYOUT,
                min_markers: int = 3) -> list[CasePose]:
    """Like `fit_cases` for a few candidates an id (`match_quads`): every choice of one quad
    (or none) per id with at least `min_markers` ids is fitted by least squares, and the choice
    with the most markers, each within a third of its side of the fit, then the smallest error,
    is the case. Quads on drawings that match by chance rarely reach a consensus, and RANSAC
    spends all its samples (milliseconds) finding that out; the few choices here do not."""
    poses = []
    for player in PLAYERS:
        printed = printed_corners(layout, player)
        by_id: dict[int, list[Quad]] = {}
        for i, c in found:
            if i in printed:
                by_id.setdefault(i, []).append(c)
        if len(by_id) < min_markers:
            continue
        best: tuple[int, float, list[tuple[int, Quad]]] | None = None
        for pick in product(*[[None, *cs] for cs in by_id.values()]):
            chosen = [(i, c) for i, c in zip(by_id, pick, strict=True) if c is not None]
            if len(chosen) < min_markers:
                continue
            src = np.vstack([printed[i] for i, _ in chosen])
            dst = np.vstack([c for _, c in chosen])
            H, _ = cv2.findHomography(src, dst, 0)
            if H is None:
                continue
            err = np.linalg.norm(transform(src, H) - dst, axis=1).reshape(-1, 4).max(axis=1)
            if all(e < max(1.5, 0.3 * quad_side(c)) for e, (_, c) in zip(err, chosen, strict=True)):
                key = (len(chosen), -float(err.mean()))
                if best is None or key > best[:2]:
                    best = (*key, chosen)
        if best is not None:
            poses += fit_cases(best[2], layout, min_markers)
    return poses


# Motion blur of 4-6 px over markers of 14-25 px (modules of 2.5-4 px) smears the border into
# the code and the quiet zone: the detector's 15 px threshold window, smaller than the marker,
# then thresholds the blurred marker against its own grey inside, and the border's contour
# breaks (no quad, so `match_quads` has nothing to match). At half size the blur spans 2-3 px
# and the same window covers a whole marker with its quiet zone (30 px of the frame): the
# blurred border closes into a quad again, whose inside is matched on the full frame.
HALF_WINDOW = 15


@lru_cache(maxsize=1)
def _half_detector() -> cv2.aruco.ArucoDetector:
    """The case detector for half-size frames (`half_size`), built once."""
    detector = make_detector(case_codes())
    params = detector.getDetectorParameters()
    params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = HALF_WINDOW
    detector.setDetectorParameters(params)
    return detector


def decoded_case(found: list[tuple[int, Quad]], layout: CaseLayout = LAYOUT) -> bool:
    """Whether the decoder read at least three distinct markers of one case (`found`: its
    (id, corners))."""
    ids = {i for i, _ in found}
    return any(len(ids & set(layout.marker_ids(player))) >= 3 for player in PLAYERS)


def half_size(grey: np.ndarray, located: list[CasePose], size: tuple[float, float],
              layout: CaseLayout = LAYOUT) -> list[CasePose]:
    """Cases, of players not `located`, found on the frame `grey` at half size: its quads
    (decoded or not, corners scaled back to the frame) off the located sheets are matched
    against the case codes on the full frame (`match_quads`, mean sides within `size` px),
    and fitted as `fit_matched` does, three markers of one case in the printed layout. For
    markers motion blur left without a quad at full size (`HALF_WINDOW`)."""
    found = half_matched(grey, located, size, layout)
    return fit_matched(found, layout) if found else []


def half_matched(grey: np.ndarray, located: list[CasePose], size: tuple[float, float],
                 layout: CaseLayout = LAYOUT) -> list[tuple[int, Quad]]:
    """The markers `half_size` matches on the half-size frame (id, corners in the frame), of
    players not `located`, before any fit: two of a case are what `partial_cases` starts
    from."""
    small = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    corners, _, rejected = _half_detector().detectMarkers(small)
    quads = [2.0 * np.asarray(q, np.float64).reshape(4, 2) + 0.5 for q in (*corners, *rejected)]
    have = {p.player for p in located}
    return [(i, c) for i, c in match_quads(grey, off_cases(quads, located, layout), layout,
                                           size=size) if layout.owner(i)[0] not in have]


# A case seen by two markers has its others where the printed layout through those puts them
# (`recover`'s prediction, within a side). A marker whose outline gave no quad to the frame's
# one threshold (15 px window, offset 7) is looked for there again, in a window of its own,
# with the thresholds the whole-frame search cannot afford: a stricter offset, which cuts off a
# dark neighbour (a hand, a sleeve, a shadow) joined to the black border through a quiet zone
# blur has greyed, while the printed black stays darker than the offset; and the window at
# half size with a milder offset, where a border motion blur spread into its quiet zone closes
# again (as `half_size`). (scale, threshold window px, offset in grey levels)
PARTIAL_THRESHOLDS = ((1.0, 15, 20.0), (0.5, 15, 3.0))
PARTIAL_REACH = 1.2      # a marker's centre within this many sides of its predicted place
PARTIAL_PAD = 1.5        # window: the predicted marker and this many sides about it


@lru_cache(maxsize=4)
def _partial_detector(window: int, offset: float) -> cv2.aruco.ArucoDetector:
    """The case detector with one threshold window and offset (`PARTIAL_THRESHOLDS`)."""
    detector = make_detector(case_codes())
    params = detector.getDetectorParameters()
    params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = window
    params.adaptiveThreshConstant = offset
    detector.setDetectorParameters(params)
    return detector


def _place_quads(grey: np.ndarray, want: Quad, side: float) -> list[Quad]:
    """Every quad (decoded or not, frame px) the `PARTIAL_THRESHOLDS` detectors find in the
    window about the predicted marker `want` whose centre lies within `PARTIAL_REACH` sides of
    it and whose mean side is 0.6-1.6 times `side`; none when `want` is not wholly in the frame
    (a marker cut by the frame's edge has no closed border)."""
    h, w = grey.shape
    if not (np.isfinite(want).all() and (want >= 0).all() and (want[:, 0] <= w - 1).all()
            and (want[:, 1] <= h - 1).all()):
        return []
    pad = PARTIAL_PAD * side
    x0, y0 = (max(int(v), 0) for v in want.min(axis=0) - pad)
    x1, y1 = int(min(want[:, 0].max() + pad, w)), int(min(want[:, 1].max() + pad, h))
    crop = grey[y0:y1, x0:x1]
    if min(crop.shape) < 8:          # no marker fits (and the half-size window would be empty)
        return []
    quads = []
    for scale, window, offset in PARTIAL_THRESHOLDS:
        image = crop if scale == 1.0 else cv2.resize(crop, None, fx=scale, fy=scale,
                                                     interpolation=cv2.INTER_AREA)
        corners, _, rejected = _partial_detector(window, offset).detectMarkers(image)
        quads += [(np.asarray(q, np.float64).reshape(4, 2) + 0.5) / scale - 0.5 + (x0, y0)
                  for q in (*corners, *rejected)]
    if not quads:
        return []
    q = np.array(quads)
    near = np.linalg.norm(q.mean(axis=1) - want.mean(axis=0), axis=1) < PARTIAL_REACH * side
    size = quad_sides(q).mean(axis=1) / side
    return list(q[near & (size > 0.6) & (size < 1.6)])


def partial_cases(grey: np.ndarray, seen: list[tuple[int, Quad]], located: list[CasePose],
                  layout: CaseLayout = LAYOUT) -> list[CasePose]:
    """Cases, of players not `located`, of which `seen` (markers decoded or matched: id,
    corners) holds exactly two: the layout through them (an affine map, as `recover`)
    predicts the other two, each is looked for in a window about its place (`_place_quads`),
    and a quad there counts only when its inside shows that marker's code (`match_quads`:
    `MIN_MATCH`, `MIN_LEAD` over every other case code and turn). The case is then fitted as
    `fit_matched` does: three markers of one player in the printed layout through one
    homography, each within a third of its side, or no case. One marker is too little to
    start from: its similarity misses perspective and shear by up to a side at the far
    corners, and two places would have to be found (on hard 0..699 it found no case and cost
    more than the two-marker search)."""
    have = {p.player for p in located}
    poses = []
    for player in sorted({layout.owner(i)[0] for i, _ in seen} - have):
        printed = printed_corners(layout, player)
        mine = [(i, c) for i, c in seen if i in printed]
        first = dict(reversed(mine))            # one quad an id (the first seen) to predict
        if len(first) != 2:
            continue
        predicted = _through_seen(printed, first)
        if predicted is None:
            continue
        wanted, side = predicted
        new = []
        for mid, want in wanted.items():
            # a quad on a located case's sheet is that case's drawing (`off_cases`)
            quads = off_cases(_place_quads(grey, want, side), located, layout)
            new += [(i, c) for i, c in match_quads(grey, quads, layout) if i == mid]
        if new:
            poses += [p for p in fit_matched(mine + new, layout) if p.player == player]
    return poses


# Motion blur of 4-6 px over markers of 14-25 px rounds their corners off and merges the border
# with the dark modules and the quiet zone's shade: the decoder's threshold gives no quad at any
# size, and fewer than two markers of the case were read to look from (`partial_cases`). The
# blurred marker still makes one dark, nearly convex blob of its size on the white sheet
# (`aruco_match.dark_quads`), whose inside matches its code (`match_quads`). The blobs are
# thresholded against the mean of a `DARK_WINDOW` px square (about two of the smallest markers'
# sides; a 41 px window found no case on hard 0..699 that 25 px missed, at twice the cost) and
# labelled on every other pixel, with every located case's sheet painted white first (its card
# drawings make most of a frame's dark blobs, and no missing case lies on it). The search is
# made only for a case of which one marker at least was seen (decoded or matched), and only
# within reach of those markers: without this bound it ran on twice as many frames of hard
# 0..699 and 20000..20699 and found one case more (20697). The fit
# (`fit_matched`) sees at most `DARK_PER_ID` places an id, near duplicates merged, the markers
# seen first: every choice of one place an id is one homography to fit.
DARK_WINDOW = 25
DARK_OFFSETS = (5.0, 15.0)   # grey levels under the window's mean: a dim blob, a hand's edge cut
DARK_REACH = 1.3         # the sheet's diagonal in marker sides, times this for perspective
DARK_PER_ID = 2
DARK_SAME = 0.5          # two places of one id whose centres lie within this share of a side


def _distinct(found: list[tuple], per_id: int = DARK_PER_ID) -> list[tuple]:
    """`found` ((id, corners, ...) each) with a place dropped when an earlier one of its id
    lies within `DARK_SAME` of a side of it (one marker outlined twice), and at most `per_id`
    places an id (the first)."""
    kept: list[tuple] = []
    for place in found:
        i, c = place[0], place[1]
        mine = [k[1] for k in kept if k[0] == i]
        if len(mine) >= per_id:
            continue
        centre, side = c.mean(axis=0), quad_side(c)
        if all(np.linalg.norm(k.mean(axis=0) - centre) > DARK_SAME * side for k in mine):
            kept.append(place)
    return kept


def dark_cases(grey: np.ndarray, seen: list[tuple[int, Quad]], located: list[CasePose],
               size: tuple[float, float], layout: CaseLayout = LAYOUT) -> list[CasePose]:
    """Cases, of players not `located` of whom `seen` (markers decoded or matched: id,
    corners) holds one marker at least, found from the dark blobs of a marker's size within
    reach of those markers (see `DARK_WINDOW`) whose insides match one of those players'
    codes (`match_quads`, mean sides within `size` px), their corners refined on their edges,
    fitted with the markers seen as `fit_matched` does: three markers of one case in the
    printed layout through one homography, or no case."""
    have = {p.player for p in located}
    mine = [(i, c) for i, c in seen if layout.owner(i)[0] not in have]
    want = {layout.owner(i)[0] for i, _ in mine}
    if not want:
        return []
    # one printed size on one sheet: the case's other markers are about as big as those seen
    # (a tilted sheet foreshortens its far markers by far less than these bounds allow)
    quads = np.array([c for _, c in mine])
    mean_sides = quad_sides(quads).mean(axis=1)
    side = float(np.median(mean_sides))
    sides = (max(size[0], 0.6 * side), min(size[1], 1.6 * side))
    # the case's other markers lie within its sheet's diagonal of a marker seen (in that
    # marker's sides, with room for perspective): the blobs are looked for only there
    _, _, w, h = layout.sheet_mm
    reach = DARK_REACH * math.hypot(w, h) / layout.marker_mm
    centres = quads.mean(axis=1)
    radius = reach * mean_sides[:, None]
    lo = np.maximum(np.floor((centres - radius).min(axis=0)), 0).astype(int)
    hi = np.minimum(np.ceil((centres + radius).max(axis=0)),
                    (grey.shape[1], grey.shape[0])).astype(int)
    if (hi - lo).min() < 8:
        return []
    image = grey[lo[1]:hi[1], lo[0]:hi[0]].copy()
    for pose in located:
        sheet = pose.sheet_corners(layout) - lo
        if np.isfinite(sheet).all():
            cv2.fillConvexPoly(image, np.round(sheet).astype(np.int32), 255)
    blobs = [q + lo for q in dark_quads(image, sides, (DARK_WINDOW,), DARK_OFFSETS, step=2)]
    matched = [(i, c) for i, c in match_quads(grey, blobs, layout, size=size)
               if layout.owner(i)[0] in want]
    if not matched:
        return []
    # (a blob's corners refined only once it is kept: refining costs about a millisecond)
    kept = _distinct([(i, c, False) for i, c in mine] + [(i, c, True) for i, c in matched])
    return fit_matched([(i, refine_corners(grey, c) if blob else c) for i, c, blob in kept],
                       layout)


FULL_SEARCH_EVERY = 15   # frames between whole-frame marker searches while tracking
OUTLINE_EVERY = 5        # whole-frame searches per outline search while one finds nothing
# From one video frame to the next a board moves a few millimetres, so a marker's outline keeps
# its length within a factor ~1.4 (and its pixel outline lies between 1/sqrt(2) and 1 times the
# Euclidean perimeter, by its turn): a window looks only at quads whose outline is 0.35-2 times
# the marker's last perimeter. Every quad the detector finds costs decoding time, and a window
# around a marker holds eight on average (its modules, the grid's lines, card drawings).
WINDOW_PERIMETER = (0.35, 2.0)


class MarkerTracker:
    """Finds the cases in successive frames of one camera: a full-frame search when needed, else
    a search in small windows around the markers of the last frame's cases."""

    def __init__(self, layout: CaseLayout = LAYOUT, track: bool = True,
                 refine: bool = False, full_every: int = FULL_SEARCH_EVERY,
                 sharpen: bool = False, outlines: bool = True) -> None:
        self.layout = layout
        self.outlines = outlines   # look for boards by their outline (`hexapod_boards`)
        self._outline_wait = 0     # whole-frame searches left before the next outline search
        self.track = track
        self.refine = refine
        self.sharpen = sharpen
        self.full_every = full_every
        self.codes = case_codes(layout)
        self.detector = make_detector(self.codes)
        # one detector a marker id for the windows (the window knows which marker it holds),
        # with its parameters: its size bounds are set for each window
        self._window_detectors: dict[int, tuple[cv2.aruco.ArucoDetector,
                                                cv2.aruco.DetectorParameters]] = {}
        self.last: list[CasePose] = []
        self.known: set[int] = set()   # every player whose case was ever seen
        from .hexapod_verify import CaseChecks  # (it builds on this module)
        self.checks = CaseChecks()     # each case checked at its fourth marker's place
        self._since_full = 0

    def full_search_due(self) -> bool:
        """Whether the next `find` searches the whole frame."""
        return not (self.track and self.last and self._since_full + 1 < self.full_every
                    and {p.player for p in self.last} >= self.known)

    def skip(self) -> None:
        """A frame not searched (nothing in it changed): it counts towards the next whole-frame
        search all the same."""
        self._since_full += 1

    def find(self, image: np.ndarray | FrameGrey) -> tuple[list[CasePose], bool]:
        """(case poses, whether the whole frame was searched) in `image`, a grey or BGR frame
        (a BGR frame is converted to grey only where searched). The windows only follow the
        cases of the last frame, so the whole frame is searched whenever a case seen before is
        missing (a hand hid its markers for a moment) and every `full_every` frames (a case
        brought into view)."""
        frame = image if isinstance(image, FrameGrey) else FrameGrey(image)
        self._since_full += 1
        if (self.track and self.last and self._since_full < self.full_every
                and {p.player for p in self.last} >= self.known):
            found, rejected = self._windows(frame)
            # a marker the decoder gives up on (blur, a hand's shade) is among the quads its
            # window rejects, where the case's decoded markers put it: recovered as in the
            # whole-frame search, the case stays tracked
            found = recover(found, rejected, self.layout, grey=frame)
            poses = fit_cases(found, self.layout)
            # the windows of markers the decoder rejects in every frame (a fourth marker
            # recovered by `complete`) keep their quads: the case stays whole without a
            # full search
            poses = self._sharpened(frame, complete(frame, poses, found, rejected, self.layout),
                                    found)
            poses = self.checks.checked(frame, poses, self.layout)
            seen = {p.player: p for p in poses}
            # keep the windowed result only if every tracked case is still whole
            if all(p.player in seen and len(seen[p.player].markers) >= len(p.markers)
                   for p in self.last):
                self.last = poses
                return poses, False
        grey = frame.whole()
        found, rejected = detect(grey, self.detector, self.layout, codes=self.codes)
        blurred = not decoded_case(found, self.layout)
        decoded = found
        found = self._refined(grey, recover(found, rejected, self.layout, grey=grey))
        poses = complete(grey, fit_cases(found, self.layout), found, rejected, self.layout)
        poses = self._sharpened(grey, poses, found)
        # cases whose markers motion blur left undecoded: match the rejected quads' codes, only
        # for players not located yet (a located case keeps the decoder's markers)
        have = {p.player for p in poses}
        # the boards lie on one table: a blurred marker is about as big as the decoded ones
        # (its mean side; a tilted board foreshortens a marker's sides across it by up to
        # cos 35 deg, so its shortest side alone is no measure of its size)
        size = (0.0, np.inf)
        if found:
            side = float(np.median(quad_sides(np.array([c for _, c in found]))))
            size = (0.6 * side, 1.6 * side)
        extra = [(i, c) for i, c in match_quads(grey, off_cases(rejected, poses, self.layout),
                                                 self.layout, size=size)
                 if self.layout.owner(i)[0] not in have]
        if extra:
            rest = [(i, c) for i, c in found if self.layout.owner(i)[0] not in have]
            poses += fit_matched(rest + self._refined(grey, extra), self.layout)
        located = {p.player for p in poses}
        if self.outlines and (len(located) < GAME_CASES or self.known - located):
            # boards whose markers are too blurred or small for a quad each: found by the
            # sheet's white outline, verified by the codes at its marker places. Only while a
            # case is missing — fewer than a game's two, or one seen before — as the outline
            # search costs about half a marker search; and after one that found nothing, only
            # every OUTLINE_EVERY-th time (a hand over a board keeps it missing for many frames).
            # A case still missing then is looked for at half size (`half_size`, about a
            # third of a marker search), unless the decoder read three markers of one case:
            # blur is the frame's (camera shake, focus), and within the decoder's reach there
            # a case is missing for what half size does not cure (a hand, the frame's edge)
            if self._outline_wait:
                self._outline_wait -= 1
            else:
                # (it builds on this module)
                from .hexapod_boards import find_boards, framed_pairs, placed_cases
                pairs: list[tuple[int, Quad]] = []    # two markers verified on a sheet
                framed: list = []     # ... whose other two places show a framed marker each
                boards = find_boards(grey, poses, self.layout, frame.bgr, pairs=pairs,
                                     framed=framed)
                located |= {p.player for p in boards}
                seen = decoded + extra    # markers whose code was read or matched
                if blurred and (len(located) < GAME_CASES or self.known - located):
                    half = half_matched(grey, [*poses, *boards], size, self.layout)
                    boards += fit_matched(half, self.layout) if half else []
                    located |= {p.player for p in boards}
                    seen += half
                if len(located) < GAME_CASES or self.known - located:
                    # a case of which two markers were seen: the others looked for where
                    # those put them (`partial_cases`)
                    boards += partial_cases(grey, seen, [*poses, *boards], self.layout)
                    located |= {p.player for p in boards}
                if pairs and (len(located) < GAME_CASES or self.known - located):
                    # a sheet whose outline verified two of a case's markers (a hand over a
                    # third bends the outline's corner by it): the others looked for where
                    # those two put them, as for two markers seen
                    boards += partial_cases(grey, pairs, [*poses, *boards], self.layout)
                    located |= {p.player for p in boards}
                if len(located) < GAME_CASES or self.known - located:
                    # two markers read whose others blur left without a quad: those looked
                    # for by their codes where the two put them (`placed_cases`)
                    boards += placed_cases(grey, decoded, [*poses, *boards], self.layout,
                                           grey if frame.bgr is None else frame.bgr)
                    located |= {p.player for p in boards}
                if framed and (len(located) < GAME_CASES or self.known - located):
                    # a sheet showing its four markers, two of them read, the others' codes
                    # blurred past reading: its outline's corners, where the paper's own
                    # edges meet, pin the case (`framed_pairs`)
                    boards += framed_pairs(framed, [*poses, *boards],
                                           grey if frame.bgr is None else frame.bgr,
                                           self.layout, grey)
                    located |= {p.player for p in boards}
                if len(located) < GAME_CASES or self.known - located:
                    # a case whose blurred markers left no quad and no outline: found by its
                    # markers' dark blobs (`dark_cases`)
                    boards += dark_cases(grey, seen, [*poses, *boards], size, self.layout)
                if not poses and not boards:
                    # no case at all: markers too small for the decoder (under ~18 px, a
                    # module under three pixels, turned) are looked for in the frame at
                    # twice its size, where their modules are wide enough to decode
                    boards = doubled(grey, self.detector, self.layout, self.codes)
                poses += boards
                self._outline_wait = 0 if boards else OUTLINE_EVERY - 1
        poses = self.checks.checked(frame, poses, self.layout)
        self.last = poses
        self.known |= {p.player for p in poses}
        self._since_full = 0
        return poses, True

    def _windows(self, frame: FrameGrey) -> tuple[list[tuple[int, Quad]], list[Quad]]:
        """(markers decoded, quads rejected) in windows around the last frame's markers."""
        h, w = frame.shape
        found, rejected = [], []
        for pose in self.last:
            printed = printed_corners(self.layout, pose.player)
            for mid in pose.markers:
                quad = pose.to_image(printed[mid])
                pad = 0.9 * pose.marker_px + 6.0
                # (plain floats and ints: the same bounds as NumPy's on four corners)
                pts = quad.tolist()
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                if not all(map(math.isfinite, xs + ys)):     # a degenerate pose
                    continue
                x0 = max(math.floor(min(xs) - pad), 0)
                y0 = max(math.floor(min(ys) - pad), 0)
                x1 = min(math.ceil(max(xs) + pad), w)
                y1 = min(math.ceil(max(ys) + pad), h)
                if x1 - x0 < 8 or y1 - y0 < 8:
                    continue
                if mid not in self._window_detectors:
                    made = make_detector((mid,))
                    self._window_detectors[mid] = (made, made.getDetectorParameters())
                perimeter = sum(math.dist(pts[k - 1], pts[k]) for k in range(len(pts)))
                detector = self._sized(*self._window_detectors[mid], perimeter,
                                       max(x1 - x0, y1 - y0))
                hits, quads = detect(frame.crop(x0, y0, x1, y1), detector, self.layout,
                                     (x0, y0), (mid,))
                found += [(i, c) for i, c in hits if i == mid]
                rejected += quads
        return self._refined(frame, found), rejected

    @staticmethod
    def _sized(detector: cv2.aruco.ArucoDetector, params: cv2.aruco.DetectorParameters,
               perimeter: float, crop: int) -> cv2.aruco.ArucoDetector:
        """`detector` set to take only quads whose outline is `WINDOW_PERIMETER` times the
        marker's last `perimeter` (px), in a window whose longer side is `crop` px. `params`
        are its parameters, kept with it (the detector takes a copy; reading them back out
        for every window costs as much as setting them)."""
        lo, hi = WINDOW_PERIMETER
        params.minMarkerPerimeterRate = lo * perimeter / crop
        params.maxMarkerPerimeterRate = hi * perimeter / crop
        detector.setDetectorParameters(params)
        return detector

    def _sharpened(self, grey: np.ndarray | FrameGrey, poses: list[CasePose],
                   found: list[tuple[int, Quad]]) -> list[CasePose]:
        return sharpen(_whole(grey), poses, found, self.layout) if self.sharpen else poses

    def _refined(self, grey: np.ndarray | FrameGrey, found: list[tuple[int, np.ndarray]]
                 ) -> list[tuple[int, np.ndarray]]:
        if not self.refine:
            return found
        whole = _whole(grey)
        return [(i, refine_corners(whole, c)) for i, c in found]
