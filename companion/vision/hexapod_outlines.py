"""Proposing a Hexapod display-case board's white sheet in a frame, for `hexapod_boards` to
verify by its markers' codes. The paper is the brightest surface on a table: bright regions of a
half-size frame (its grey and its dimmest channel, each at Otsu's threshold and halfway to its
brightest pixels) whose outer contour's convex hull fits a quadrilateral, or a pentagon with one
corner cut, give a sheet's four corners (`sheet_outlines`). The second look, for a sheet a hand
or an arm cuts into pieces (in the dimmest channel skin drops out), takes a few near bright
regions together and proposes their hull's quadrilateral, or the tightest ones past one or two
corners the arm cut off (four edges of its pentagon or hexagon extended), within a given range
of a sheet's area. Nothing here is accepted as a board: it only proposes quadrilaterals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import combinations

import cv2
import numpy as np

from .hexapod_markers import Quad

Point = np.ndarray | Sequence[float]   # (x, y)

# a board whose markers carry a code spans at least 12 marker sides (~8 px each at the least)
# along its long edge; half-size pixels
MIN_SHEET_AREA = 1500.0
# cards on the sheet are darker than its paper and cut into its outline, deeply where they
# reach its edges, but the hull of what is left still spans the sheet's four corners
FILL = 0.35              # contour area / fitted quad's area, at least
HULL_FIT = 0.15          # |hull area - quad area| / quad area, at most (a cut corner included)
_KERNEL = np.ones((3, 3), np.uint8)
# pieces of a sheet split by an arm or a row of cards (`_groups`), as fractions of MIN_SHEET_AREA
SEED_AREA = 0.25         # the largest piece of a group, at least
PIECE_AREA = 0.03        # any other piece, at least (smaller: a pale speck of the table)
MAX_PIECES = 8           # the largest pieces of a frame looked at
MAX_NEAR = 3             # pieces near a seed taken with it
NEAR = 0.5               # their gap from it, at most, in the seed's longer side
MIN_PIECE = 0.05         # their area, at least, in the seed's
MAX_EXTENDED = 3         # quads extended past a hull's cut corners tried, the tightest first
CUT = 0.03               # a hull whose 4-corner fit is off by this much of its area is cut
GROW = 1.1               # a group's hull is this much larger than its largest piece's alone
GROUP_FILL = 0.25        # FILL of pieces together: the arm between them hides paper too


def sheet_outlines(grey: np.ndarray, bgr: np.ndarray | None = None,
                   min_area: float = MIN_SHEET_AREA,
                   pieces: tuple[float, float] | None = None) -> list[Quad]:
    """Quadrilaterals (corners clockwise on screen, frame px) around bright regions of `grey`
    that could be a printed sheet. The paper is the brightest surface on a table: Otsu's
    threshold of a half-size frame separates it, and a level halfway to the brightest pixels
    separates it from pale stripes of the table's pattern (a thin opening cuts those off too);
    cards lying on the sheet break its inside, so only the outer contour's convex hull counts,
    fitted by four corners (`_quads`). With the frame's colours (`bgr`), the same is done on
    each pixel's dimmest channel too: paper reflects every colour alike, so it stays bright
    there, while a hand, a wooden or coloured table absorbs blue or red and drops away.
    With `pieces` (the range of a sheet's area, frame px), the second look, for a sheet a
    hand or an arm cuts into pieces: near bright regions together (`_groups`), their hull
    fitted, or past one or two cut corners (`_extended_quads`), instead."""
    return outlines_of(bright_regions(grey, bgr), min_area, pieces)


# one half-size image's bright regions at each threshold: (outer contours, their areas), and
# the image's pixel count
Regions = tuple[list[tuple[list[np.ndarray], list[float]]], int]


def bright_regions(grey: np.ndarray, bgr: np.ndarray | None) -> list[Regions]:
    """The bright regions `sheet_outlines` fits, of the half-size grey and, with `bgr`, of its
    dimmest channel (last): found once, for both the first look and the second."""
    half = (grey.shape[1] // 2, grey.shape[0] // 2)
    sources = [cv2.resize(grey, half, interpolation=cv2.INTER_AREA)]
    if bgr is not None:
        sources.append(least_channel(cv2.resize(bgr, half, interpolation=cv2.INTER_AREA)))
    out = []
    for small in sources:
        otsu, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        hist = cv2.calcHist([small], [0], None, [256], [0, 256]).ravel().cumsum()
        top = float(np.searchsorted(hist, 0.995 * hist[-1]))        # the brightest 0.5 %
        levels = []
        for level in (otsu, 0.5 * (otsu + top)):
            _, mask = cv2.threshold(small, level, 1, cv2.THRESH_BINARY)
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            levels.append((list(contours), [cv2.contourArea(c) for c in contours]))
        out.append((levels, small.size))
    return out


_ROW3 = np.ones((1, 3), np.uint8)


def least_channel(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's dimmest channel of a BGR uint8 image (the least of its split planes, the
    same values at about half the cost): its rows read as one channel (B, G, R, B, ...) and
    eroded over three neighbours, taken at each pixel's G, whose neighbours are that pixel's
    own B and R (never the row's ends, where the erosion's border would count)."""
    h, w = bgr.shape[:2]
    rows = cv2.erode(np.ascontiguousarray(bgr).reshape(h, 3 * w), _ROW3)
    return np.ascontiguousarray(rows[:, 1::3])


def outlines_of(regions: list[Regions], min_area: float,
              pieces: tuple[float, float] | None) -> list[Quad]:
    """`sheet_outlines` of the bright `regions`: each region's outer contour alone, or with
    `pieces` a few near regions together whose hull's area (frame px) lies in that range, less
    HULL_FIT, in the dimmest channel only (an arm cuts the sheet's paper into pieces where its
    skin drops out there; in grey it is about as pale as paper and joins them instead)."""
    out: list[Quad] = []
    for levels, size in (regions if pieces is None else regions[-1:]):
        for contours, areas in levels:
            if pieces is None:
                for c, area in zip(contours, areas, strict=True):
                    if min_area <= area <= 0.5 * size:
                        _add(cv2.convexHull(c), area, FILL, _quads, out)
            else:
                _pieces(contours, areas, size, min_area, pieces, out)
    return out


def _pieces(contours: list[np.ndarray], areas: list[float], size: int, min_area: float,
            pieces: tuple[float, float], out: list[Quad]) -> None:
    """The second look's quadrilaterals of one threshold's regions, added to `out`."""
    lo, hi = pieces[0] / 4.0 / (1.0 + HULL_FIT), pieces[1] / 4.0 / (1.0 - HULL_FIT)
    hull_areas: dict[int, float] = {}
    for group in _groups(contours, areas, min_area):
        area = sum(areas[k] for k in group)
        hull = cv2.convexHull(np.vstack([contours[k] for k in group]))
        hull_area = cv2.contourArea(hull)
        if not lo <= hull_area <= min(hi, 0.5 * size):
            continue
        for k in group:
            if k not in hull_areas:
                hull_areas[k] = cv2.contourArea(cv2.convexHull(contours[k]))
        # a group whose hull is hardly its largest piece's is that piece, tried alone
        if hull_area >= GROW * max(hull_areas[k] for k in group):
            _add(hull, area, GROUP_FILL, _extended_quads, out)


def _add(hull: np.ndarray, area: float, fill: float,
         fit: Callable[[np.ndarray], list[np.ndarray]], out: list[Quad]) -> None:
    """The quadrilaterals `fit` finds for `hull` (half-size px) whose bright `area` fills at
    least `fill` of them, added to `out` in frame px unless already there."""
    hull_area = cv2.contourArea(hull)
    if area < fill * hull_area / (1.0 + HULL_FIT):
        return                     # every quad the hull fits is as large, less HULL_FIT
    for quad in fit(hull):
        quad_area = cv2.contourArea(quad.astype(np.float32))
        if area < fill * quad_area or abs(hull_area - quad_area) > HULL_FIT * quad_area:
            continue
        quad = 2.0 * quad + 0.5                       # half-size pixel centres -> frame pixels
        # every quad kept so far at once (the same differences as one by one)
        if not out or not (np.abs(np.stack(out) - quad).max(axis=(1, 2)) < 3.0).any():
            out.append(quad)


def _groups(contours: list[np.ndarray], areas: list[float], min_area: float
            ) -> list[tuple[int, ...]]:
    """Index groups of bright regions that may be pieces of one sheet: an arm lying across it
    (dark in the dimmest channel: skin absorbs blue) or a row of cards reaching two of its
    edges splits its paper into pieces, each short of the sheet's corners, so a sizeable piece
    is taken with one or two pieces near it: an arm is narrower than half the sheet, so they
    lie within half the seed's size of it, and a piece of a sheet is not a speck next to it."""
    order = sorted(range(len(areas)), key=lambda k: -areas[k])
    pieces = [k for k in order if areas[k] >= PIECE_AREA * min_area][:MAX_PIECES]
    boxes = {k: cv2.boundingRect(contours[k]) for k in pieces}
    out: list[tuple[int, ...]] = []
    for k in pieces:
        if areas[k] < SEED_AREA * min_area:
            break
        reach = NEAR * max(boxes[k][2:])
        near = [j for j in pieces if j != k and areas[j] >= MIN_PIECE * areas[k]
                and _gap(boxes[k], boxes[j]) <= reach][:MAX_NEAR]
        out += [(k, j) for j in near]
        out += [(k, i, j) for a, i in enumerate(near) for j in near[a + 1:]]
    # a group of the same pieces is tried once, whichever of them seeded it
    return list(dict.fromkeys(tuple(sorted(g)) for g in out))


def _gap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The gap (px) between two bounding boxes (x, y, w, h), 0 when they overlap."""
    dx = max(a[0] - (b[0] + b[2]), b[0] - (a[0] + a[2]), 0)
    dy = max(a[1] - (b[1] + b[3]), b[1] - (a[1] + a[3]), 0)
    return float(np.hypot(dx, dy))


def _quads(hull: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals (clockwise on screen) that may be the sheet whose hull is `hull`: its
    best-fitting one, and, from its best-fitting pentagon, each quadrilateral that drops one
    short edge by extending its neighbours: a hand or a glare spot by one corner of the sheet
    cuts it off or bulges it out, and the sheet's own four edges stay straight."""
    out = [q for q in [_polygon(hull, 4)] if q is not None and _plausible(q)]
    p = _polygon(hull, 5)
    if p is None:
        return out
    sides = np.linalg.norm(_next(p) - p, axis=1)
    for e in np.flatnonzero(sides < 0.5 * np.sort(sides)[1:].min()):
        a, b, c, d = (p[(e + k) % 5] for k in (-1, 0, 1, 2))
        x = line_meet(a, b, c, d)
        if x is None:
            continue
        q = np.array([a, x, d, p[(e + 3) % 5]])
        if _plausible(q) and cv2.contourArea(q.astype(np.float32), oriented=True) > 0:
            out.append(q)
    return out


def _extended_quads(hull: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals (clockwise on screen) that keep four edges of the hull's best-fitting
    pentagon or hexagon and extend them past the others, the `MAX_EXTENDED` tightest: a hand
    or an arm over one or two corners of the sheet cuts them off, however long the cut, and
    the sheet's own four edges stay straight. A hull that a quadrilateral fits closely is
    that quadrilateral alone (nothing cut it), and the sheet's own edges bound what is left of
    it closely: a quad far past the hull dropped one of them for a hand's or a card's edge."""
    q4 = _polygon(hull, 4)
    hull_area = cv2.contourArea(hull)
    if q4 is not None and abs(cv2.contourArea(q4.astype(np.float32)) - hull_area) \
            < CUT * hull_area:
        return [q4] if _plausible(q4) else []
    found = []
    for n in (5, 6):
        p = _polygon(hull, n)
        if p is not None:
            found += [q for q in _extended(p) if _plausible(q)]
    found.sort(key=lambda q: cv2.contourArea(q.astype(np.float32)))
    out: list[np.ndarray] = []
    for q in found:
        if len(out) == MAX_EXTENDED:
            break
        if not any(np.abs(q - o).max() < 1.5 for o in out):
            out.append(q)
    return out


def _extended(p: np.ndarray) -> list[np.ndarray]:
    """The quadrilaterals bounded by the lines of four of convex polygon `p`'s edges (edge e
    runs from corner e to e + 1; clockwise on screen), where they bound one: each turn from
    one kept edge's direction to the next must be under half a turn. Each holds all of `p`,
    the dropped edges only cutting its corners off."""
    n = len(p)
    d = _next(p) - p
    angle = np.arctan2(d[:, 1], d[:, 0])
    turn = np.mod(_next(angle) - angle, 2 * np.pi)              # at each corner, clockwise
    # (plain floats from here: NumPy's scalars cost more than the arithmetic, same values)
    cum = np.concatenate([[0.0], np.cumsum(np.tile(turn, 2))]).tolist()   # twice round: wraps
    pts = p.tolist()
    meets: dict[tuple[int, int], np.ndarray | None] = {}
    out = []
    for keep in combinations(range(n), 4):
        pairs = list(zip(keep, [*keep[1:], keep[0] + n], strict=True))
        if any(cum[b] - cum[a] >= math.pi for a, b in pairs):
            continue
        for a, b in pairs:
            if (a, b % n) not in meets:
                meets[a, b % n] = line_meet(pts[a], pts[(a + 1) % n], pts[b % n],
                                            pts[(b + 1) % n])
        q = [meets[a, b % n] for a, b in pairs]
        if all(x is not None for x in q):
            out.append(np.array(q))
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
    if np.dot(x, _next(y)) - np.dot(_next(x), y) < 0:   # y down: clockwise > 0
        q = q[::-1].copy()
    return q


def _next(a: np.ndarray) -> np.ndarray:
    """`np.roll(a, -1, 0)`: each row's next, the first after the last (the same values in a new
    array, without `np.roll`'s overhead: it runs for every hull's polygons)."""
    return np.concatenate((a[1:], a[:1]))


def line_meet(a: Point, b: Point, c: Point, d: Point) -> np.ndarray | None:
    """Where the line through a, b meets the line through c, d (None if nearly parallel); the
    points as arrays or as (x, y) sequences of plain floats."""
    # plain floats: called for every pair of edges of many hulls, where numpy's overhead on
    # 2-vectors is most of the cost
    ax, ay, cx, cy = float(a[0]), float(a[1]), float(c[0]), float(c[1])
    rx, ry = float(b[0]) - ax, float(b[1]) - ay
    sx, sy = float(d[0]) - cx, float(d[1]) - cy
    den = rx * sy - ry * sx
    if abs(den) < 1e-6 * math.hypot(rx, ry) * math.hypot(sx, sy):
        return None
    t = ((cx - ax) * sy - (cy - ay) * sx) / den
    return np.array([ax + t * rx, ay + t * ry])


def _plausible(q: np.ndarray) -> bool:
    """Whether `q` can be the sheet: a sheet 184 x 260 mm stays within a factor ~3 of square
    under 35 degrees of tilt."""
    pts = q.tolist()
    sides = [math.dist(pts[k], pts[k - 1]) for k in range(len(pts))]
    return min(sides) >= 0.25 * max(sides)
