"""Finding Hexapod display-case boards by their white outline, for cases whose markers motion
blur or size left undecoded and without a quad contour each (markers 15-22 px under 5-6 px of
blur). The printed board is a white sheet (`CaseLayout.sheet_mm`) brighter than the table; its
outline, found by `hexapod_outlines` (and, while a game's case is still missing, its second
look for a sheet a hand or an arm cuts into pieces, no larger or smaller than twice a sheet
already found), gives the sheet's four corners, and through them a board mm -> image
homography in each quarter turn the sheet's proportions allow. The outline only proposes: a
board is accepted only when at least three of its four marker places show one player's own
codes, upright, and no place shows any other case code clearly. Each place is searched over
shifts of up to a module (the outline's corners are a pixel or two off) for the best fit of a
framed marker (black border in white quiet zone: a code's 16 modules alone, best of many
shifts, match some code by chance); there its modules must correlate `MIN_MATCH` with the code
and `MIN_LEAD` better than with any other case code in any turn, as in `match_quads`. The
case's pose is then fitted through the sheet's corners and the verified markers' centres
together, and kept only when one homography puts every one of them within a module of where
it was seen, and a sheet corner no verified marker vouches for lies within two modules of
where the sheet's two straight edges through it, measured in the frame near the vouched
corners, meet (`sheet_pose`): an outline warped by a glare spot or a hand at one corner is
caught there. A sheet of paper, a white card, or a board showing other codes at its corners is
no case. Still a case short, the third look takes every outline of the first two again with
its corners where the paper's own edges, measured round after round, meet (`refined_outline`,
`_refined_look`: a bright patch of the table or a hand by a corner bends an outline by tens of
pixels), verified the same way. A sheet that shows all four markers but whose blur left only
two codes readable is a case only as `framed_pairs` checks it: the other two places framed,
the paper's measured corners and all four markers' centres through one homography.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from .aruco_match import SAMPLES, code_templates, module_means, quad_side
from .geometry import transform
from .hexapod_markers import (
    GAME_CASES,
    LAYOUT,
    MIN_LEAD,
    MIN_MATCH,
    CaseLayout,
    CasePose,
    FrameGrey,
    Quad,
    case_codes,
    case_templates,
    fit_cases,
    fit_matched,
    off_cases,
    polygon_sides,
    printed_corners,
)
from .hexapod_outlines import MIN_SHEET_AREA, bright_regions, line_meet, outlines_of

SHIFT_MODULES = 1.0      # marker places searched this far (modules) about the outline's place
SHIFT_STEPS = 7          # shifts each way
MIN_FRAMED = 0.7         # a marker place's best fit of a framed code: a marker is there
PRE_FRAMED = 0.5         # the same a module off at most, for the first look
JOINT_TOL = 1.0          # sheet corners and marker centres within this many modules of the fit
FAR_TOL = 2.0            # a corner no marker vouches for, from the others, in modules
# the paper's edge is measured on the stretch of an outline's edge by a vouched corner: past
# its corner's blur, short of the far part a hand or glare at the far corner may bend
EDGE_FROM, EDGE_TO = 0.05, 0.6   # fractions of the edge's length from the vouched corner
EDGE_STEPS = 16                  # places measured across the edge
EDGE_REACH = 2.0                 # modules either side of the outline's edge searched
EDGE_SMOOTH = 1.0                # px: profiles across the edge smoothed this much (sigma)
EDGE_CONTRAST = 0.2              # the table darker than the paper by this much of it...
EDGE_STEP = 0.02                 # ...and the drop this steep (of the paper's level per 0.5 px)
EDGE_FIT = 1.0                   # px: the paper's edge points within this of one line...
EDGE_MIN = 6                     # ...at least this many places (an arm across the rest)...
EDGE_SPAN = 0.15                 # ...spanning this much of the edge's length at least
SIZE_RATIO = 2.0         # a second sheet's image area within this factor of a found one's
# two read markers' centres within this many modules of where the paper's measured corners put
# them (`framed_pairs`): those corners are sub-pixel (hard 18: 0.1 module), not an outline's
PAIR_TOL = 0.5

# a sheet whose outline verified two of one player's codes, the other two places showing a
# framed marker each: (player, the two markers (id, corners), the sheet's TL, TR, BR, BL)
Paired = tuple[int, list[tuple[int, Quad]], Quad]


@lru_cache(maxsize=8)
def _shifts(layout: CaseLayout, steps: int, modules: float = SHIFT_MODULES) -> np.ndarray:
    """(steps^2, 2) board-mm offsets tried for each marker place, up to `modules` each way."""
    reach = modules * layout.marker_mm / layout.marker_modules
    d = np.linspace(-reach, reach, steps)
    return np.stack(np.meshgrid(d, d), axis=-1).reshape(-1, 2)


@lru_cache(maxsize=8)
def _place_mm(layout: CaseLayout, steps: int, modules: float = SHIFT_MODULES) -> np.ndarray:
    """(4 * steps^2 * 4, 2) board mm of the four marker places' corners (every player's markers
    lie at the same places: player 1's give them), each place shifted by `_shifts(layout,
    steps, modules)` in turn: the same points for every sheet tried, worked out once
    (read-only)."""
    places = np.stack(list(printed_corners(layout, 1).values()))            # (4, 4, 2)
    mm = (places[:, None] + _shifts(layout, steps, modules)[None, :, None]).reshape(-1, 2)
    mm.flags.writeable = False
    return mm


def find_boards(grey: np.ndarray, located: list[CasePose], layout: CaseLayout = LAYOUT,
                bgr: np.ndarray | None = None, outlines: list[Quad] | None = None,
                pairs: list[tuple[int, Quad]] | None = None,
                framed: list[Paired] | None = None) -> list[CasePose]:
    """Cases found by their sheet's outline and verified by their markers' codes, for players
    not `located` already. `bgr`: the frame's colours, if it has them; `outlines`: the sheets
    to try (else `hexapod_outlines.sheet_outlines`, and, while a game's cases are not all
    found, its second look for sheets a hand or an arm joins or cuts, and then the sheets of
    both with their corners measured on the paper's edges, `_refined_look`). `pairs`, if given,
    gathers the markers (id, corners) of each sheet that shows exactly two of one player's
    codes clearly at their own places and no other, in one quarter turn only: too few for a
    case, what `hexapod_markers.partial_cases` starts from; `framed`, if given, gathers those
    sheets whose other two places show a framed marker each (`framed_pairs`)."""
    skip = {p.player for p in located}
    poses: dict[int, list[CasePose]] = {}
    image = grey if bgr is None else bgr
    if outlines is not None:
        _verified(grey, off_cases(outlines, located, layout), skip, layout, poses, image, pairs,
                  framed)
        return _best(poses)
    regions = bright_regions(grey, bgr)
    tried = outlines_of(regions, MIN_SHEET_AREA, None)
    _verified(grey, off_cases(tried, located, layout), skip, layout, poses, image, pairs,
              framed)
    found = _best(poses)
    if len(located) + len(found) < GAME_CASES:
        # still a case short: look again for a sheet a hand or an arm joins or cuts, only
        # for players the first look saw no board of (one it found two boards of is in doubt)
        sizes = _size_range([*located, *found], layout)
        more = [q for q in outlines_of(regions, MIN_SHEET_AREA, sizes)
                if not any(np.abs(q - t).max() < 3.0 for t in tried)]
        rest: dict[int, list[CasePose]] = {}
        _verified(grey, off_cases(more, [*located, *found], layout),
                  skip | set(poses), layout, rest, image, pairs, framed)
        found += _best(rest)
        if len(located) + len(found) < GAME_CASES:
            # still short: the sheets of either look again, their corners measured
            found += _refined_look(grey, image, [*tried, *more], [*located, *found],
                                   skip | set(poses) | set(rest), layout, pairs, framed)
    return found


def _refined_look(grey: np.ndarray, image: np.ndarray, outlines: list[Quad],
                  cases: list[CasePose], skip: set[int], layout: CaseLayout,
                  pairs: list[tuple[int, Quad]] | None, framed: list[Paired] | None
                  ) -> list[CasePose]:
    """`find_boards`' third look, for players (not in `skip`) neither look saw a board of:
    every sheet of either look (`outlines`) off the `cases` found and of a sheet's size beside
    them, with its corners where the paper's own edges put them (`refined_outline`: a bright
    patch of the table or a hand by a corner bends the outline there), verified as any
    outline. An outline of the same corners in another order or within a few pixels (the two
    thresholds, the grey and the dimmest channel) is refined once, and only one through which
    two of the four marker places show a framed marker as it is (`_marker_like`: a bent
    corner moves the places by it; a case wants two read), every outline's turns looked at in
    one batch."""
    lo, hi = _size_range(cases, layout)
    done: list[Quad] = []
    for q in off_cases(outlines, cases, layout):
        if not lo <= cv2.contourArea(q.astype(np.float32)) <= hi:
            continue
        # each corner of q near some corner of a quad kept (any order): the same sheet
        if not done or (np.linalg.norm(np.stack(done)[:, None] - q[None, :, None], axis=3)
                        .min(axis=2).max(axis=1) >= 3.0).all():
            done.append(q)
    turns = [[H for _, H in _sheet_turns(q, layout)] for q in done]
    like = iter(_marker_like(grey, [H for each in turns for H in each], layout, 2).tolist())
    again: list[Quad] = []
    for q, each in zip(done, turns, strict=True):
        if not any([next(like) for _ in each]):
            continue
        r = refined_outline(image, q, layout)
        if r is not None and not any(np.abs(r - t).max() < 1.5 for t in [*outlines, *again]):
            again.append(r)
    poses: dict[int, list[CasePose]] = {}
    _verified(grey, again, skip, layout, poses, image, pairs, framed)
    return _best(poses)


REFINE_ROUNDS = 3         # an outline's corners measured again about the last ones at most...
REFINE_STILL = 0.5        # ...until none moves this far (px)


def refined_outline(image: np.ndarray, quad: Quad, layout: CaseLayout = LAYOUT
                    ) -> Quad | None:
    """`quad` (a sheet's outline, clockwise) with its corners where the paper's straight
    edges, measured in `image` about its edges (`_edge_corner`), meet; measured again about
    the corners found, up to `REFINE_ROUNDS` times (each edge is searched within two modules
    of where it was put, so a corner tens of pixels off comes in over a few rounds); None when
    a corner's edges are not clearly seen. When one corner's are not (an arm or a hand hides
    the paper by it), it is first put where the three others make a parallelogram, and its
    two edges are measured about that guess, each from its other corner or, where an arm lies
    across that end, from the guess's end. Only a proposal: a board is what its markers
    verify (`verify_sheet`, `sheet_pose`, `framed_pairs`)."""
    _, _, w, h = layout.sheet_mm
    module = sum(polygon_sides(quad)) / (2.0 * (w + h)) * layout.marker_mm \
        / layout.marker_modules
    now = quad
    for _ in range(REFINE_ROUNDS):
        new = _measured_corners(image, now, module)
        if new is None:
            return None if now is quad else now
        moved = float(np.abs(new - now).max())
        now = new
        if moved < REFINE_STILL:
            break
    return now


def _measured_corners(image: np.ndarray, quad: Quad, module: float) -> Quad | None:
    """One round of `refined_outline`: `quad`'s corners where the paper's edges about it meet,
    or None."""
    corners: list[np.ndarray | None] = []
    for k in range(4):
        corners.append(_edge_corner(image, quad, k, module))
        if sum(c is None for c in corners) > 1:
            return None                  # two corners unseen: no more edges measured
    gone = [k for k in range(4) if corners[k] is None]
    if not gone:
        return np.array(corners)
    k = gone[0]
    guess = corners[(k + 1) % 4] + corners[(k + 3) % 4] - corners[(k + 2) % 4]
    near = np.array([guess if j == k else corners[j] for j in range(4)])
    centre = near.mean(axis=0)
    lines = []
    for s in (-1, 1):
        other = near[(k + s) % 4]
        line = _edge_line(image, other, near[k], centre, module)
        lines.append(line if line is not None else
                     _edge_line(image, near[k], other, centre, module))
    if lines[0] is None or lines[1] is None:
        return None
    (p, d), (q, e) = lines
    meet = line_meet(p, p + d, q, q + e)
    if meet is None:
        return None
    near[k] = meet
    return near


def _size_range(cases: list[CasePose], layout: CaseLayout) -> tuple[float, float]:
    """The range of a sheet's image area (px) beside the sheets of `cases` (any if none): the
    boards are printed alike and lie on one table, and a tilt of up to 35 degrees changes a
    sheet's image area by less than `SIZE_RATIO` across the frame."""
    if not cases:
        return 0.0, np.inf
    areas = [cv2.contourArea(c.sheet_corners(layout).astype(np.float32)) for c in cases]
    return max(areas) / SIZE_RATIO, min(areas) * SIZE_RATIO


def _verified(grey: np.ndarray, outlines: list[Quad], skip: set[int], layout: CaseLayout,
              poses: dict[int, list[CasePose]], image: np.ndarray,
              pairs: list[tuple[int, Quad]] | None = None,
              framed: list[Paired] | None = None) -> None:
    """Poses of the sheets `outlines` that pass `verify_sheet` and `sheet_pose` (`image`: the
    frame, in colour if it has it), for players not in `skip`, added to `poses` by player;
    sheets showing two markers only add those to `pairs` and `framed` (if given,
    `find_boards`). The first
    look at every outline's turns is taken in one batch (`_marker_like`)."""
    turns = [_sheet_turns(quad, layout) for quad in outlines]
    like = iter(_marker_like(grey, [H for each in turns for _, H in each], layout).tolist())
    for each in turns:
        hit = _read_sheet(grey, each, [next(like) for _ in each], layout, pairs, framed)
        if hit is None or hit[0] in skip:
            continue
        pose = sheet_pose(*hit, layout, image)
        if pose is not None:
            poses.setdefault(pose.player, []).append(pose)


def _best(poses: dict[int, list[CasePose]]) -> list[CasePose]:
    """Each player's one board (`_one_board`) among `poses`, where not in doubt."""
    return [p for p in map(_one_board, poses.values()) if p is not None]


def sheet_pose(player: int, markers: list[tuple[int, Quad]], corners: Quad,
               layout: CaseLayout = LAYOUT, image: np.ndarray | None = None
               ) -> CasePose | None:
    """The case's pose through the sheet's corners (`corners`: TL, TR, BR, BL in the image) and
    the verified markers' centres, when one homography puts each within a module of where it
    was seen; else None. The markers were found by their centres (a shift about the outline's
    place), their outlines only drawn through the sheet's homography: three such quads, fitted
    alone, extrapolate any warp of it to the far corner (a glare spot bulging one corner of
    the outline put a grid corner 40 px off); the sheet and its markers are printed on one
    plane, so one homography must agree with all of them, and a corner that is not the
    sheet's is caught; the corner by an unverified marker is checked against the sheet's
    edges in the frame, `image` (colour or grey; without it, against the other points alone:
    `_far_corner_agrees`)."""
    printed = printed_corners(layout, player)
    ids = tuple(sorted(i for i, _ in markers))
    seen = dict(markers)
    src = np.vstack([_sheet_corners(layout),
                     *[printed[i].mean(axis=0, keepdims=True) for i in ids]])
    dst = np.vstack([corners, *[seen[i].mean(axis=0, keepdims=True) for i in ids]])
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        return None
    res = np.linalg.norm(transform(src, H) - dst, axis=1)
    side = float(np.mean([quad_side(transform(printed[i], H)) for i in ids]))
    module = side / layout.marker_modules
    if res.max() > JOINT_TOL * module:
        return None
    if len(ids) < len(printed):
        # no marker vouches for the sheet corner by the unverified one: a homography is free to
        # bend to a warped corner there, so that corner must lie where the others put it
        k = ({0, 1, 2, 3} - {layout.owner(i)[1] for i in ids}).pop()
        if not _far_corner_agrees(src, dst, k, module, image):
            return None
    if len(ids) == len(printed):
        # four markers span the sheet: their quads alone pin it more closely than the
        # outline's corners, which blur moves by a pixel or two
        fit = [p for p in fit_cases(markers, layout) if p.player == player]
        if fit:
            return fit[0]
    return CasePose(player, H / H[2, 2], ids, float(np.sqrt((res ** 2).mean())), side)


def _far_corner_agrees(src: np.ndarray, dst: np.ndarray, k: int, module: float,
                       image: np.ndarray | None) -> bool:
    """Whether sheet corner `k` (`dst[k]`, image px), which no verified marker vouches for,
    lies within `FAR_TOL` modules of where the rest of the board puts it: with the frame
    (`image`), where the sheet's two edges through it, measured near the corners the markers
    vouch for, meet (`_edge_corner`; not where either edge is unclear); without, where a
    homography through the other corners and the markers' centres (`src` board mm -> `dst`)
    puts it. That homography rests on three clusters of points (each corner by its marker),
    which fix its perspective loosely: a pixel's noise moves its fourth corner by 4-5
    modules, so it refuses good outlines and passes ones a glare spot bulged by 3-6."""
    if image is not None:
        corner = _edge_corner(image, dst[:4], k, module)
    else:
        rest = np.delete(np.arange(len(src)), k)
        H3, _ = cv2.findHomography(src[rest], dst[rest], 0)
        corner = None if H3 is None else transform(src[k:k + 1], H3)[0]
    return corner is not None and bool(np.linalg.norm(corner - dst[k]) <= FAR_TOL * module)


def _edge_corner(image: np.ndarray, corners: Quad, k: int, module: float) -> np.ndarray | None:
    """Where the sheet's two edges through corner `k` of `corners` (TL, TR, BR, BL) meet, each
    measured in `image` on the stretch of it by its other corner, or None where either edge is
    not clearly seen. The marker verified by each neighbouring corner vouches for that corner,
    and the sheet's edges are straight, so their meeting point depends on neither a glare spot
    nor a hand at corner `k`; the other corners and markers cluster at three places, which fix
    a homography's perspective too loosely to place the fourth corner (2.5-5 modules off on
    hard scenes whose outline was right)."""
    centre = corners.mean(axis=0)
    first = _edge_line(image, corners[(k - 1) % 4], corners[k], centre, module)
    if first is None:
        return None                      # (the second edge is not measured then)
    second = _edge_line(image, corners[(k + 1) % 4], corners[k], centre, module)
    if second is None:
        return None
    (p, d), (q, e) = first, second
    return line_meet(p, p + d, q, q + e)


def _edge_line(image: np.ndarray, start: np.ndarray, end: np.ndarray, centre: np.ndarray,
               module: float) -> tuple[np.ndarray, np.ndarray] | None:
    """(a point, the direction) of the paper's edge near `start` on the outline's edge from
    `start` to `end`, or None. Across the edge at `EDGE_STEPS` places of its first stretch,
    the edge is where brightness drops most steeply going outwards (away from `centre`): the
    paper is the brightest surface on the table, while a marker's border, a card or the
    paper's shade inside it rise going outwards. A hand or an arm over the edge breaks
    some places (no clear paper-to-table drop there); the line through most of the rest
    stands, within `EDGE_FIT` px, when they are enough and span enough of the edge to
    extrapolate it."""
    length = float(np.linalg.norm(end - start))
    d = (end - start) / max(length, 1e-6)
    n = np.array([-d[1], d[0]])
    if np.dot(n, 0.5 * (start + end) - centre) < 0:
        n = -n                                                   # outwards
    t = np.linspace(EDGE_FROM, EDGE_TO, EDGE_STEPS) * length
    s = np.arange(-EDGE_REACH * module, EDGE_REACH * module + 0.5, 0.5)
    pts = start + t[:, None, None] * d + s[None, :, None] * n     # (steps, samples, 2)
    vals = cv2.remap(image, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    if vals.ndim == 3:
        vals = vals.min(axis=2)          # paper is bright in every channel, a table is not
    # blur spreads the edge over a few pixels, where noise moves the steepest step: smoothed
    # across the edge first, the drop's centre stands out
    vals = cv2.GaussianBlur(vals, (0, 0), sigmaX=EDGE_SMOOTH / 0.5, sigmaY=1e-3)
    step = np.diff(vals, axis=1)
    j = step.argmin(axis=1)                                       # steepest drop outwards
    rows = np.arange(len(j))
    inside = np.maximum.accumulate(vals, axis=1)[rows, j]
    outside = np.minimum.accumulate(vals[:, ::-1], axis=1)[:, ::-1][rows, j + 1]
    # a place shows the paper's edge when paper meets a clearly darker table there (an arm or
    # a hand over the edge shows skin on both sides, or a smooth shade)
    shown = (inside - outside >= EDGE_CONTRAST * inside) & (-step[rows, j] >= EDGE_STEP * inside)
    # the drop's centre to a fraction of a sample: the parabola through its three steps
    a, b, c = (step[rows, np.clip(j + o, 0, step.shape[1] - 1)] for o in (-1, 0, 1))
    curve = a - 2.0 * b + c
    frac = np.where(curve > 1e-6, 0.5 * (a - c) / np.maximum(curve, 1e-6), 0.0)
    depth = s[j] + 0.25 + 0.5 * np.clip(frac, -0.5, 0.5)
    edge = (start + t[:, None] * d + depth[:, None] * n)[shown]
    line = _robust_line(edge) if len(edge) >= EDGE_MIN else None
    if line is None:
        return None
    along = (edge - start) @ d
    kept = np.abs((edge - line[0]) @ np.array([-line[1][1], line[1][0]])) <= EDGE_FIT
    if kept.sum() < EDGE_MIN or np.ptp(along[kept]) < EDGE_SPAN * length:
        return None
    return line


def _robust_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(a point, the unit direction) of the line through most of `pts` within `EDGE_FIT` px
    (the best of the lines through two of them, refitted to those), or None."""
    a, b = np.triu_indices(len(pts), 1)
    d = pts[b] - pts[a]
    d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-6)
    off = pts[None] - pts[a][:, None]                             # (pairs, points, 2)
    dist = np.abs(off[..., 0] * d[:, None, 1] - off[..., 1] * d[:, None, 0])
    inliers = dist <= EDGE_FIT
    keep = pts[inliers[int(inliers.sum(axis=1).argmax())]]
    vx, vy, x, y = cv2.fitLine(keep.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([x, y], np.float64), np.array([vx, vy], np.float64)


def _sheet_corners(layout: CaseLayout) -> np.ndarray:
    """The printed sheet's TL, TR, BR, BL in board mm (4, 2)."""
    x0, y0, w, h = layout.sheet_mm
    return np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)], np.float64)


def _one_board(poses: list[CasePose]) -> CasePose | None:
    """The best of one player's poses (most markers, then least error) when they all lie on
    one board (outlines of one sheet at two thresholds, or with a corner cut off); None when
    two boards show that player's codes: one of them is not what it seems."""
    corners = np.stack([p.grid_corners() for p in poses])
    if np.abs(corners - corners[0]).max() > 0.5 * poses[0].cell_px():
        return None
    return max(poses, key=lambda p: (len(p.markers), -p.rms_px))


def verify_sheet(grey: np.ndarray, quad: Quad, layout: CaseLayout = LAYOUT
                 ) -> tuple[int, list[tuple[int, Quad]], Quad] | None:
    """(player, [(id, corners)] of the markers verified, the sheet's corners TL, TR, BR, BL)
    when the sheet outlined by `quad` (clockwise) shows at least three of one player's markers
    at their own corners, upright, in exactly one of its quarter turns and no other case code
    clearly anywhere; else None."""
    turns = _sheet_turns(quad, layout)
    return _read_sheet(grey, turns, _marker_like(grey, [H for _, H in turns], layout).tolist(),
                       layout)


def _sheet_turns(quad: Quad, layout: CaseLayout) -> list[tuple[Quad, np.ndarray]]:
    """(the sheet's corners TL, TR, BR, BL, its board mm -> image px homography) for each
    quarter turn of the outline `quad` that its proportions allow (`_upright`)."""
    sheet = _sheet_corners(layout)
    out = []
    for turn in range(4):
        corners = np.concatenate((quad[turn:], quad[:turn]))    # np.roll(quad, -turn, 0)
        if not _upright(corners, layout):
            continue
        H, _ = cv2.findHomography(sheet, corners, 0)
        if H is not None:
            out.append((corners, H))
    return out


def _read_sheet(grey: np.ndarray, turns: list[tuple[Quad, np.ndarray]], like: list[bool],
                layout: CaseLayout, pairs: list[tuple[int, Quad]] | None = None,
                framed: list[Paired] | None = None
                ) -> tuple[int, list[tuple[int, Quad]], Quad] | None:
    """`verify_sheet` of one outline's `turns` (`_sheet_turns`), given which of them passed
    the first look (`like`, `_marker_like`). When no turn shows three markers and exactly one
    shows two, those two are added to `pairs` (if given), and, when the turn's other two
    places each show a framed marker (`MIN_FRAMED`) whose code is unclear, (player, the two,
    the sheet's corners) to `framed` (if given; `framed_pairs`)."""
    accepted, two = [], []
    for (corners, H), ok in zip(turns, like, strict=True):
        if not ok:
            continue
        score, frame, px = place_scores(grey, H, SHIFT_STEPS, layout)
        hit = _read_places(score, frame, px, layout)
        if hit is not None:
            if len(hit[1]) >= 3:
                accepted.append((*hit, corners))
            else:
                two.append((*hit, corners, bool((frame.max(axis=1) >= MIN_FRAMED).all())))
    if not accepted and len(two) == 1:
        player, markers, corners, all_framed = two[0]
        if pairs is not None:
            pairs += markers
        if framed is not None and all_framed:
            framed.append((player, markers, corners))
    return accepted[0] if len(accepted) == 1 else None


def _marker_like(grey: np.ndarray, Hs: list[np.ndarray], layout: CaseLayout,
                 places: int = 3) -> np.ndarray:
    """For each homography in `Hs` (board mm -> image px), whether at least `places` of the
    four marker places through it fit a framed marker `PRE_FRAMED` at one of a few shifts a
    module apart: a first look that lets most pale patches of a table and sheets of paper go
    at a fraction of the full search's cost, each module sampled at 2 x 2 points (the full
    search takes 4 x 4). The places of every homography are sampled in one batch (each quad's
    means are its own: the same values as one homography at a time)."""
    if not Hs:
        return np.zeros(0, bool)
    mm = _place_mm(layout, 3)
    quads = np.concatenate([transform(mm, H) for H in Hs]).reshape(-1, 4, 2).astype(np.float32)
    means = module_means(grey, quads, layout.marker_modules, framed=True, samples=2)
    per = len(mm) // 4                       # quads a homography
    out = np.zeros(len(Hs), bool)
    for k in range(len(Hs)):
        part = means[k * per:(k + 1) * per]
        best = np.einsum("qm,tm->qt", part, _framed(layout)).max(axis=1).reshape(4, -1)
        out[k] = int((best.max(axis=1) >= PRE_FRAMED).sum()) >= places
    return out


def place_scores(grey: np.ndarray | FrameGrey, H: np.ndarray, steps: int, layout: CaseLayout,
                 modules: float = SHIFT_MODULES, places: tuple[int, ...] = (0, 1, 2, 3),
                 samples: int = SAMPLES) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(code scores (places, shifts, templates), framed scores (places, shifts), corners
    (places, shifts, 4, 2)) of the marker places `places` (0-3: TL, TR, BR, BL; all four
    unless told) shifted by `_shifts(layout, steps, modules)` (board mm) through `H` (board
    mm -> image px), each module sampled at `samples` x `samples` points. A `FrameGrey` frame
    is converted to grey about those places only."""
    k = steps * steps
    mm = _place_mm(layout, steps, modules)
    if places != (0, 1, 2, 3):
        mm = mm.reshape(4, -1, 2)[list(places)].reshape(-1, 2)
    px = transform(mm, H).reshape(-1, 4, 2).astype(np.float32)
    n = layout.marker_modules + 2
    if isinstance(grey, FrameGrey):
        # the framed samples reach a module beyond each quad (its quiet zone's ring)
        mid = px.mean(axis=1, keepdims=True)
        image, origin = grey.around(mid + (px - mid) * (n / layout.marker_modules), pad=3)
    else:
        image, origin = grey, (0, 0)
    means = module_means(image, px, layout.marker_modules, framed=True, samples=samples,
                         origin=origin)
    # einsum: products this small stay off threaded BLAS (as `aruco_match.code_scores`)
    frame = np.einsum("qm,tm->qt", means, _framed(layout)).max(axis=1)
    # the code's modules are the framed grid's inner ones: sampled once, normalised anew
    inner = means.reshape(len(px), n, n)[:, 2:-2, 2:-2].reshape(len(px), -1)
    inner = inner - inner.mean(axis=1, keepdims=True)
    inner /= np.maximum(np.linalg.norm(inner, axis=1, keepdims=True), 1e-3)
    score = np.einsum("qm,tm->qt", inner, case_templates(layout)[0])
    m = len(places)
    return score.reshape(m, k, -1), frame.reshape(m, k), px.reshape(m, k, 4, 2)


@lru_cache(maxsize=8)
def _framed(layout: CaseLayout) -> np.ndarray:
    """Every case marker's code in its black border and white quiet zone, as template rows
    (`code_templates`' own cached array, looked up once a layout)."""
    return code_templates(layout.dictionary, case_codes(layout), layout.marker_modules,
                          framed=True)


def _upright(corners: Quad, layout: CaseLayout) -> bool:
    """Whether `corners` (the sheet's TL, TR, BR, BL in the image) can be the sheet in this
    quarter turn: it is 184 x 260 mm, and a tilt of up to 35 degrees shortens one direction by
    at most cos 35 = 0.82, so its short sides never look longer than its long sides."""
    sides = polygon_sides(corners)
    across, down = sides[0] + sides[2], sides[1] + sides[3]
    _, _, w, h = layout.sheet_mm
    return bool((across < down) == (w < h))


def _read_places(score: np.ndarray, frame: np.ndarray, quads: np.ndarray, layout: CaseLayout
                 ) -> tuple[int, list[tuple[int, Quad]]] | None:
    """(player, markers) from one quarter turn's (places, shifts, templates) code scores and
    (places, shifts) framed scores, when at least two places show one player's own upright
    code clearly and none another code (a case wants three: `_read_sheet`)."""
    ids = case_templates(layout)[1]
    shown: list[tuple[int, Quad]] = []
    for k in range(len(score)):
        clear = clear_code(score, frame, k)
        if clear is None:
            continue                                 # hidden, blank or unclear
        row, j = clear
        owner = layout.owner(int(ids[row]))
        if row % 4 != 0 or owner is None or owner[1] != k:
            return None                              # a clear code in the wrong place or turn
        shown.append((int(ids[row]), quads[k, j].astype(np.float64)))
    players = {layout.owner(i)[0] for i, _ in shown}
    if len(shown) < 2 or len(players) != 1:
        return None
    return players.pop(), shown


def clear_code(score: np.ndarray, frame: np.ndarray, k: int) -> tuple[int, int] | None:
    """(template row, shift) of the code marker place `k` shows clearly, from (places,
    shifts, templates) code scores and (places, shifts) framed scores: at the shift where a
    marker's black border in its white quiet zone fits best (the code's 16 modules alone, best
    of many shifts, match some code by chance), framed `MIN_FRAMED` or more, its best code at
    `MIN_MATCH` and `MIN_LEAD` over the next; None where no marker is framed there (hidden,
    blank) or no code leads (no evidence either way)."""
    j = int(frame[k].argmax())
    if frame[k, j] < MIN_FRAMED:
        return None
    s = score[k, j]
    row = int(s.argmax())
    if s[row] < MIN_MATCH or s[row] - np.partition(s, -2)[-2] < MIN_LEAD:
        return None
    return row, j


# A case of which two markers were read has its others where the homography through their eight
# corners puts them: two markers at a board's corners span it, so their shapes give its
# perspective to within a module or two at the other corners (hard 628: 4 px, where the
# affine map of `partial_cases` missed by two marker sides)
PLACE_MODULES = 2.0      # each other place searched this far about its prediction (modules)
PLACE_STEPS = 9          # shifts each way (half a module apart)


def placed_cases(grey: np.ndarray, seen: list[tuple[int, Quad]], located: list[CasePose],
                 layout: CaseLayout = LAYOUT, image: np.ndarray | None = None
                 ) -> list[CasePose]:
    """Cases, of players not `located`, of which `seen` (markers read: id, corners) holds
    exactly two: the homography through their corners puts the case's other marker places,
    each searched as a sheet's are (`place_scores`, shifts of up to `PLACE_MODULES`) for its
    own code, upright, framed `MIN_FRAMED`, `MIN_MATCH` and `MIN_LEAD` over every other case
    code and turn; the case is fitted through the two and those found (`fit_matched`), or none
    when a place shows another case code clearly, and kept only when its sheet's edges agree
    (`edges_agree`, in `image`, the frame in colour if it has it; else `grey`); its `markers`
    are the two read (the case's white comes from their quiet zones). For markers blur left
    without a quad (the detector's and `partial_cases`' thresholds find none)."""
    have = {p.player for p in located}
    ids = case_templates(layout)[1]
    poses = []
    for player in sorted({layout.owner(i)[0] for i, _ in seen} - have):
        printed = printed_corners(layout, player)
        two = dict(reversed([(i, c) for i, c in seen if i in printed]))
        if len(two) != 2:
            continue
        H, _ = cv2.findHomography(np.vstack([printed[i] for i in two]),
                                  np.vstack(list(two.values())), 0)
        if H is None:
            continue
        score, frame, px = place_scores(grey, H, PLACE_STEPS, layout, PLACE_MODULES)
        new: list[tuple[int, Quad]] | None = []
        for k, mid in enumerate(printed):
            if mid in two:
                continue
            clear = clear_code(score, frame, k)
            if clear is None:
                continue                             # hidden, blank or unclear
            row, j = clear
            if row % 4 != 0 or int(ids[row]) != mid:
                new = None                           # another code, clearly: no case
                break
            new.append((mid, px[k, j].astype(np.float64)))
        if new:
            poses += [p for p in fit_matched([*two.items(), *new], layout)
                      if p.player == player]
    # the case's white is read from the quiet zones of the markers that located it
    # (`case_white`): a marker found by its code alone may lie partly under a hand (its code
    # still correlates), one the decoder read has its border whole, so only those stand for it
    read = {i for i, _ in seen}
    return [replace(p, markers=tuple(i for i in p.markers if i in read))
            for p in edges_agree(poses, grey if image is None else image, layout)]


def edges_agree(poses: list[CasePose], image: np.ndarray, layout: CaseLayout = LAYOUT
                ) -> list[CasePose]:
    """`poses` whose sheet corner by a marker not found lies within `FAR_TOL` modules of where
    the sheet's two edges through it, measured in `image` near the corners found markers
    vouch for, meet (`_edge_corner`; a pose fitted through all four markers stands): a case
    fitted through three markers, two of them read on one side, extrapolates their corners'
    error to the fourth, the paper's straight edges do not (as `sheet_pose` checks an
    outline's corner no marker vouches for)."""
    kept = []
    for pose in poses:
        gone = [k for k, mid in enumerate(layout.marker_ids(pose.player))
                if mid not in pose.markers]
        if gone:
            corners = pose.sheet_corners(layout)
            module = pose.marker_px / layout.marker_modules
            corner = _edge_corner(image, corners, gone[0], module)
            if corner is None or np.linalg.norm(corner - corners[gone[0]]) > FAR_TOL * module:
                continue
        kept.append(pose)
    return kept


def _sheet_fit(layout: CaseLayout, corners: list[np.ndarray], printed: dict[int, np.ndarray],
               quads: dict[int, np.ndarray], ids: list[int]
               ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The homography (board mm -> image px) through the sheet's four corners (`corners`, as
    the image shows them) and the centres of the markers `ids` (printed: `printed`; seen:
    `quads`), each point's residual (px) and the mean side of those markers as it maps them;
    None where no homography fits."""
    src = np.vstack([_sheet_corners(layout), *[printed[i].mean(axis=0, keepdims=True)
                                               for i in ids]])
    dst = np.vstack([*corners, *[quads[i].mean(axis=0, keepdims=True) for i in ids]])
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        return None
    res = np.linalg.norm(transform(src, H) - dst, axis=1)
    side = float(np.mean([quad_side(transform(printed[i], H)) for i in ids]))
    return H, res, side


def framed_pairs(sheets: list[Paired], located: list[CasePose], image: np.ndarray,
                 layout: CaseLayout = LAYOUT, grey: np.ndarray | None = None
                 ) -> list[CasePose]:
    """Cases, of players not `located`, from sheets whose outline verified two of the player's
    codes clearly while its other two places each show a framed marker (a black border in its
    white quiet zone, `MIN_FRAMED`) whose code blur left unclear, none another case code
    clearly (`_read_sheet`): the board shows its four markers, two of them read. The outline,
    found at half size, is a few pixels off; the sheet's corners are taken where its straight
    edges, measured in `image` (the frame, in colour if it has it) near each corner's
    neighbours, meet (`_edge_corner`; every edge must be clearly seen), and those four corners
    and the two markers' centres must agree through one homography within `PAIR_TOL`
    modules: the two markers then lie where the paper's own edges put them. The far side,
    which the two markers cannot pin, is then checked by two measurements that do not share
    their errors: the other two markers' frames are looked for about where that homography
    puts them (shifts of up to `PLACE_MODULES`, in `grey`, the frame's grey levels), each must
    be framed `MIN_FRAMED` and show no other case code clearly, and the sheet's corners and
    all four markers' centres must agree through one homography within `JOINT_TOL` modules
    (hard 18: 0.7), the case's pose; so neither a hand's or a card's edge taken for the
    sheet's nor a warped outline passes. A player two sheets would name is in doubt
    (`_one_board`)."""
    if grey is None:
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    have = {p.player for p in located}
    ids_of = case_templates(layout)[1]
    poses: dict[int, list[CasePose]] = {}
    for player, markers, outline in sheets:
        if player in have:
            continue
        printed = printed_corners(layout, player)
        ids = [i for i, _ in markers]
        seen = dict(markers)
        module = float(np.mean([quad_side(seen[i]) for i in ids])) / layout.marker_modules
        corners = [_edge_corner(image, outline, k, module) for k in range(4)]
        if any(c is None for c in corners):
            continue
        fit = _sheet_fit(layout, corners, printed, seen, ids)
        if fit is None:
            continue
        H, res, side = fit
        if res.max() > PAIR_TOL * side / layout.marker_modules:
            continue
        # the other two markers' frames, about where the paper's corners put them
        score, frame, px = place_scores(grey, H, PLACE_STEPS, layout, PLACE_MODULES)
        far = []
        for k, mid in enumerate(printed):
            if mid in seen:
                continue
            j = int(frame[k].argmax())
            clear = clear_code(score, frame, k)
            if frame[k, j] < MIN_FRAMED or (clear is not None and (
                    clear[0] % 4 != 0 or int(ids_of[clear[0]]) != mid)):
                break
            far.append((mid, px[k, j].astype(np.float64)))
        else:
            fit = _sheet_fit(layout, corners, printed, dict(markers) | dict(far), list(printed))
            if fit is None:
                continue
            H, res, side = fit
            if res.max() > JOINT_TOL * side / layout.marker_modules:
                continue
            pose = CasePose(player, H / H[2, 2], tuple(sorted(ids)),
                            float(np.sqrt((res ** 2).mean())), side)
            poses.setdefault(player, []).append(pose)
    return _best(poses)
