"""Finding Hexapod display-case boards by their white outline, for cases whose markers motion
blur or size left undecoded and without a quad contour each (markers 15-22 px under 5-6 px of
blur). The printed board is a white sheet (`CaseLayout.sheet_mm`) brighter than the table:
bright regions of a half-size frame (its grey and its dimmest channel, each at Otsu's threshold
and halfway to its brightest pixels) whose outer contour's convex hull fits a quadrilateral,
or a pentagon with one corner cut, give the sheet's four corners, and through them a board mm
-> image homography in each quarter turn the sheet's proportions allow. The outline only
proposes: a board is accepted only when at least three of its four marker places show one
player's own codes, upright, and no place shows any other case code clearly. Each place is
searched over shifts of up to a module (the outline's corners are a pixel or two off) for the
best fit of a framed marker (black border in white quiet zone: a code's 16 modules alone, best
of many shifts, match some code by chance); there its modules must correlate `MIN_MATCH` with
the code and `MIN_LEAD` better than with any other case code in any turn, as in
`match_quads`. The case's pose is then fitted through the sheet's corners and the verified
markers' centres together, and kept only when one homography puts every one of them within a
module of where it was seen (`sheet_pose`): an outline warped by a glare spot or a hand at one
corner is caught there. A sheet of paper, a white card, or a board showing other codes at its
corners is no case.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from .aruco_match import code_templates, module_means, quad_side
from .geometry import transform
from .hexapod_markers import (
    LAYOUT,
    MIN_LEAD,
    MIN_MATCH,
    CaseLayout,
    CasePose,
    Quad,
    case_codes,
    case_templates,
    fit_cases,
    off_cases,
    printed_corners,
)

# a board whose markers carry a code spans at least 12 marker sides (~8 px each at the least)
# along its long edge; half-size pixels
MIN_SHEET_AREA = 1500.0
# cards on the sheet are darker than its paper and cut into its outline, deeply where they
# reach its edges, but the hull of what is left still spans the sheet's four corners
FILL = 0.35              # contour area / fitted quad's area, at least
HULL_FIT = 0.15          # |hull area - quad area| / quad area, at most (a cut corner included)
_KERNEL = np.ones((3, 3), np.uint8)
SHIFT_MODULES = 1.0      # marker places searched this far (modules) about the outline's place
SHIFT_STEPS = 7          # shifts each way
MIN_FRAMED = 0.7         # a marker place's best fit of a framed code: a marker is there
PRE_FRAMED = 0.5         # the same a module off at most, for the first look
JOINT_TOL = 1.0          # sheet corners and marker centres within this many modules of the fit
FAR_TOL = 2.0            # a corner no marker vouches for, from the others, in modules


def sheet_outlines(grey: np.ndarray, bgr: np.ndarray | None = None,
                   min_area: float = MIN_SHEET_AREA) -> list[Quad]:
    """Quadrilaterals (corners clockwise on screen, frame px) around bright regions of `grey`
    that could be a printed sheet. The paper is the brightest surface on a table: Otsu's
    threshold of a half-size frame separates it, and a level halfway to the brightest pixels
    separates it from pale stripes of the table's pattern (a thin opening cuts those off too);
    cards lying on the sheet break its inside, so only the outer contour's convex hull counts,
    fitted by four corners (`_quads`). With the frame's colours (`bgr`), the same is done on
    each pixel's dimmest channel too: paper reflects every colour alike, so it stays bright
    there, while a hand, a wooden or coloured table absorbs blue or red and drops away."""
    half = (grey.shape[1] // 2, grey.shape[0] // 2)
    sources = [cv2.resize(grey, half, interpolation=cv2.INTER_AREA)]
    if bgr is not None:
        b, g, r = cv2.split(cv2.resize(bgr, half, interpolation=cv2.INTER_AREA))
        sources.append(cv2.min(cv2.min(b, g), r))
    out: list[Quad] = []
    for small in sources:
        _outlines(small, min_area, out)
    return out


def _outlines(small: np.ndarray, min_area: float, out: list[Quad]) -> None:
    """`sheet_outlines` of one half-size image, added to `out` unless already there."""
    otsu, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    hist = cv2.calcHist([small], [0], None, [256], [0, 256]).ravel().cumsum()
    top = float(np.searchsorted(hist, 0.995 * hist[-1]))        # the brightest 0.5 %
    for level in (otsu, 0.5 * (otsu + top)):
        _, mask = cv2.threshold(small, level, 1, cv2.THRESH_BINARY)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            area = cv2.contourArea(c)
            if area < min_area or area > 0.5 * small.size:
                continue
            hull = cv2.convexHull(c)
            hull_area = cv2.contourArea(hull)
            for quad in _quads(hull):
                quad_area = cv2.contourArea(quad.astype(np.float32))
                if area < FILL * quad_area or abs(hull_area - quad_area) > HULL_FIT * quad_area:
                    continue
                quad = 2.0 * quad + 0.5               # half-size pixel centres -> frame pixels
                if not any(np.abs(quad - q).max() < 3.0 for q in out):
                    out.append(quad)


def _quads(hull: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals (clockwise on screen) that may be the sheet whose hull is `hull`: its
    best-fitting one, and, from its best-fitting pentagon, each quadrilateral that drops one
    short edge by extending its neighbours: a hand or a glare spot by one corner of the sheet
    cuts it off or bulges it out, and the sheet's own four edges stay straight."""
    out = [q for q in [_polygon(hull, 4)] if q is not None and _plausible(q)]
    p = _polygon(hull, 5)
    if p is None:
        return out
    sides = np.linalg.norm(np.roll(p, -1, 0) - p, axis=1)
    for e in np.flatnonzero(sides < 0.5 * np.sort(sides)[1:].min()):
        a, b, c, d = (p[(e + k) % 5] for k in (-1, 0, 1, 2))
        x = _meet(a, b, c, d)
        if x is None:
            continue
        q = np.array([a, x, d, p[(e + 3) % 5]])
        if _plausible(q) and cv2.contourArea(q.astype(np.float32), oriented=True) > 0:
            out.append(q)
    return out


def _polygon(hull: np.ndarray, n: int) -> np.ndarray | None:
    """The hull's best-fitting convex n-gon, corners clockwise on screen, or None (a hull of
    fewer corners: a rectangle seen square on is a hull of four)."""
    if len(hull) < n:
        return None
    q = cv2.approxPolyN(hull, n, ensure_convex=True)
    if q is None or len(q.reshape(-1, 2)) != n:
        return None
    q = q.reshape(n, 2).astype(np.float64)
    x, y = q[:, 0], q[:, 1]
    if np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) < 0:   # y down: clockwise > 0
        q = q[::-1].copy()
    return q


def _meet(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray | None:
    """Where the line through a, b meets the line through c, d (None if nearly parallel)."""
    r, s = b - a, d - c
    den = r[0] * s[1] - r[1] * s[0]
    if abs(den) < 1e-6 * np.linalg.norm(r) * np.linalg.norm(s):
        return None
    t = ((c - a)[0] * s[1] - (c - a)[1] * s[0]) / den
    return a + t * r


def _plausible(q: np.ndarray) -> bool:
    """Whether `q` can be the sheet: a sheet 184 x 260 mm stays within a factor ~3 of square
    under 35 degrees of tilt."""
    sides = np.linalg.norm(np.roll(q, -1, 0) - q, axis=1)
    return bool(sides.min() >= 0.25 * sides.max())


@lru_cache(maxsize=8)
def _shifts(layout: CaseLayout, steps: int) -> np.ndarray:
    """(steps^2, 2) board-mm offsets tried for each marker place, up to a module each way."""
    reach = SHIFT_MODULES * layout.marker_mm / layout.marker_modules
    d = np.linspace(-reach, reach, steps)
    return np.stack(np.meshgrid(d, d), axis=-1).reshape(-1, 2)


def find_boards(grey: np.ndarray, located: list[CasePose], layout: CaseLayout = LAYOUT,
                bgr: np.ndarray | None = None, outlines: list[Quad] | None = None
                ) -> list[CasePose]:
    """Cases found by their sheet's outline and verified by their markers' codes, for players
    not `located` already. `bgr`: the frame's colours, if it has them; `outlines`: the sheets
    to try (else `sheet_outlines`)."""
    if outlines is None:
        outlines = sheet_outlines(grey, bgr)
    # boards do not overlap: an outline centred on a located sheet is that sheet
    outlines = off_cases(outlines, located, layout)
    skip = {p.player for p in located}
    poses: dict[int, list[CasePose]] = {}
    for quad in outlines:
        hit = verify_sheet(grey, quad, layout)
        if hit is None or hit[0] in skip:
            continue
        pose = sheet_pose(*hit, layout)
        if pose is not None:
            poses.setdefault(pose.player, []).append(pose)
    return [p for p in map(_one_board, poses.values()) if p is not None]


def sheet_pose(player: int, markers: list[tuple[int, Quad]], corners: Quad,
               layout: CaseLayout = LAYOUT) -> CasePose | None:
    """The case's pose through the sheet's corners (`corners`: TL, TR, BR, BL in the image) and
    the verified markers' centres, when one homography puts each within a module of where it
    was seen; else None. The markers were found by their centres (a shift about the outline's
    place), their outlines only drawn through the sheet's homography: three such quads, fitted
    alone, extrapolate any warp of it to the far corner (a glare spot bulging one corner of
    the outline put a grid corner 40 px off); the sheet and its markers are printed on one
    plane, so one homography must agree with all of them, and a corner that is not the
    sheet's is caught."""
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
        rest = np.delete(np.arange(len(src)), k)
        H3, _ = cv2.findHomography(src[rest], dst[rest], 0)
        if H3 is None or np.linalg.norm(transform(src[k:k + 1], H3) - dst[k]) > \
                FAR_TOL * module:
            return None
    if len(ids) == len(printed):
        # four markers span the sheet: their quads alone pin it more closely than the
        # outline's corners, which blur moves by a pixel or two
        fit = [p for p in fit_cases(markers, layout) if p.player == player]
        if fit:
            return fit[0]
    return CasePose(player, H / H[2, 2], ids, float(np.sqrt((res ** 2).mean())), side)


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
    sheet = _sheet_corners(layout)
    accepted = []
    for turn in range(4):
        corners = np.roll(quad, -turn, 0)
        if not _upright(corners, layout):
            continue
        H, _ = cv2.findHomography(sheet, corners, 0)
        if H is None:
            continue
        # a few shifts a module apart first: a sheet without three marker-like places (most
        # pale patches of a table, a sheet of paper) is let go at a fifth of the cost
        _, frame, _ = _place_scores(grey, H, _shifts(layout, 3), layout)
        if (frame.max(axis=1) >= PRE_FRAMED).sum() < 3:
            continue
        score, frame, px = _place_scores(grey, H, _shifts(layout, SHIFT_STEPS), layout)
        hit = _read_places(score, frame, px, layout)
        if hit is not None:
            accepted.append((*hit, corners))
    return accepted[0] if len(accepted) == 1 else None


def _place_scores(grey: np.ndarray, H: np.ndarray, shifts: np.ndarray, layout: CaseLayout
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(code scores (places, shifts, templates), framed scores (places, shifts), corners
    (places, shifts, 4, 2)) of the four marker places shifted by `shifts` (board mm) through
    `H` (board mm -> image px)."""
    # every player's markers lie at the same places: player 1's give the places
    places = np.stack(list(printed_corners(layout, 1).values()))            # (4, 4, 2)
    mm = (places[:, None] + shifts[None, :, None]).reshape(-1, 2)
    px = transform(mm, H).reshape(-1, 4, 2).astype(np.float32)
    means = module_means(grey, px, layout.marker_modules, framed=True)
    # einsum: products this small stay off threaded BLAS (as `aruco_match.code_scores`)
    frame = np.einsum("qm,tm->qt", means, _framed(layout)).max(axis=1)
    # the code's modules are the framed grid's inner ones: sampled once, normalised anew
    n = layout.marker_modules + 2
    inner = means.reshape(len(px), n, n)[:, 2:-2, 2:-2].reshape(len(px), -1)
    inner = inner - inner.mean(axis=1, keepdims=True)
    inner /= np.maximum(np.linalg.norm(inner, axis=1, keepdims=True), 1e-3)
    score = np.einsum("qm,tm->qt", inner, case_templates(layout)[0])
    k = len(shifts)
    return score.reshape(4, k, -1), frame.reshape(4, k), px.reshape(4, k, 4, 2)


def _framed(layout: CaseLayout) -> np.ndarray:
    """Every case marker's code in its black border and white quiet zone, as template rows."""
    return code_templates(layout.dictionary, case_codes(layout), layout.marker_modules,
                          framed=True)


def _upright(corners: Quad, layout: CaseLayout) -> bool:
    """Whether `corners` (the sheet's TL, TR, BR, BL in the image) can be the sheet in this
    quarter turn: it is 184 x 260 mm, and a tilt of up to 35 degrees shortens one direction by
    at most cos 35 = 0.82, so its short sides never look longer than its long sides."""
    sides = np.linalg.norm(np.roll(corners, -1, 0) - corners, axis=1)
    across, down = sides[0] + sides[2], sides[1] + sides[3]
    _, _, w, h = layout.sheet_mm
    return bool((across < down) == (w < h))


def _read_places(score: np.ndarray, frame: np.ndarray, quads: np.ndarray, layout: CaseLayout
                 ) -> tuple[int, list[tuple[int, Quad]]] | None:
    """(player, markers) from one quarter turn's (places, shifts, templates) code scores and
    (places, shifts) framed scores, when at least three places show one player's own upright
    code clearly and none another code."""
    ids = case_templates(layout)[1]
    shown: list[tuple[int, Quad]] = []
    for k in range(len(score)):
        # the marker is where its black border in its white quiet zone fits best: the code's
        # 16 modules alone, best of many shifts, match some code by chance
        j = int(frame[k].argmax())
        if frame[k, j] < MIN_FRAMED:
            continue                                 # no marker there (hidden, blank)
        s = score[k, j]
        row = int(s.argmax())
        lead = s[row] - np.partition(s, -2)[-2]
        if s[row] < MIN_MATCH or lead < MIN_LEAD:
            continue                                 # unclear: no evidence either way
        owner = layout.owner(int(ids[row]))
        if row % 4 != 0 or owner is None or owner[1] != k:
            return None                              # a clear code in the wrong place or turn
        shown.append((int(ids[row]), quads[k, j].astype(np.float64)))
    players = {layout.owner(i)[0] for i, _ in shown}
    if len(shown) < 3 or len(players) != 1:
        return None
    return players.pop(), shown
