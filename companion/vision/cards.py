"""Stage 1 of the Hex'el reader: find card faces. A printed face is paper (the brightest thing in
its neighbourhood) enclosed by a dark border band, so `paper_mask` keeps pixels clearly brighter
than their local mean (any table: wood, felt, cloth, photographs, under any light), `paper_blobs`
takes the outer contours of that mask, and `fit_hexagons` keeps the blobs whose convex hull, seen
in the table plane, is a regular hexagon: centre, apothem and orientation by moments and the
sixth angular harmonic of the hull, and the overlap (IoU) with the fitted hexagon as its score.
Blobs that are too small or misshapen are kept aside as `partial` evidence for occluded cards,
except ragged ones (a small blurred card whose symbols' holes open to the outside: `Blob`), which
are tried as whole cards only; `cut_necks` splits a blob at its thin necks (two cards whose dark
gap a blur bridged), and `reseat_paper` finds a blob's paper again against the card's own border
band (where the wide local mean came close to the paper itself and only patches of it passed,
or a blur bridged two cards too broadly for a neck).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView
from .geometry import SQRT3, wrap60


@dataclass(frozen=True)
class DetectParams:
    """Tunables of the detection stage (sizes are fractions of the working image width)."""

    min_card_px: float = 40.0      # detection runs on the frame halved when cards stay this wide
    window_frac: float = 0.09      # local-mean window
    gain: float = 1.08             # paper > gain * local mean + offset
    offset: float = 6.0
    min_width_frac: float = 0.025  # smallest card (across the flats) in the working image
    # largest: a card photographed close up fills the picture's height, about half its width
    # in 16:9 (or all of it held upright); a larger pale region, the table or a sheet, must
    # still fit a hexagon and show a card's symbols and border to be read as one
    max_width_frac: float = 0.9
    min_iou: float = 0.88          # a whole card's hull overlaps its fitted hexagon this much
    min_compactness: float = 0.7   # 4·pi·area / perimeter² of a blob's hull (hexagon: 0.91)
    min_solidity: float = 0.6      # blob area / hull area
    min_ragged_solidity: float = 0.35  # a less solid blob may still be a whole card (only as
    min_ragged_compactness: float = 0.85  # one) when its hull is this compact: see `Blob`
    min_aspect: float = 0.55       # a card's hull, however foreshortened: minor / major axis


@dataclass(frozen=True)
class Blob:
    """A paper region: its hull in image pixels and in the table plane."""

    hull_img: np.ndarray
    hull_plane: np.ndarray
    area_plane: float
    touches_edge: bool
    # A card whose symbols come near its border: where blur and noise erase the thin paper strip
    # between a symbol and the border (small cards, a wide lens, dim paper), the symbol's hole
    # opens to the outside and the paper's outline turns ragged, though its hull stays a clean
    # hexagon. Such a blob (solidity below `min_solidity`, hull as compact as a hexagon's) is
    # tried as a whole card only, which must then show its symbols, paper and border band; it
    # is never evidence for an occluded card (a ragged texture patch could be anything). An
    # outline `reseat_paper` found again is trusted no further, so it is ragged too.
    ragged: bool = False


@dataclass(frozen=True)
class CardFit:
    """A blob seen as a whole card: plane centre, card apothem, edge-0 normal angle (wrapped to
    ±30°), and how well the blob matches a regular hexagon (IoU). Under perspective or lens
    distortion a card is an affinely squashed hexagon in the plane (always, when the plane is the
    image): `shape` (2 x 2, symmetric, determinant 1) maps the regular card onto it, and `angle`
    and `iou` are measured in that rectified frame (`shape` is about the identity for a card seen
    straight on)."""

    centre: tuple[float, float]
    apothem: float
    angle: float
    iou: float
    blob: Blob
    shape: tuple[tuple[float, float], tuple[float, float]] = ((1.0, 0.0), (0.0, 1.0))

    @property
    def aspect(self) -> float:
        """Minor / major axis of the card's squash (1: seen straight on)."""
        (a, b), (_, c) = self.shape
        mid, half = 0.5 * (a + c), math.hypot(0.5 * (a - c), b)
        return (mid - half) / (mid + half) if mid + half > 0 else 0.0


def work_scale(card_px: float | None, params: DetectParams = DetectParams()) -> float:
    """1/2 when cards (flat-to-flat, in frame pixels) stay at least `min_card_px` wide at half
    size, else 1: a card's dark border must survive the shrinking or touching cards merge."""
    if card_px is not None and card_px * 0.5 >= params.min_card_px:
        return 0.5
    return 1.0


def paper_mask(bgr: np.ndarray, scale: float = 1.0, params: DetectParams = DetectParams(),
               roi: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Binary mask (uint8 0/255, at `scale`) of pixels clearly brighter than their surroundings,
    without the specks far from any region at least 3 x 3 pixels wide. With `roi` (x0, y0, x1,
    y1 in frame pixels) only that part is worked out; the rest of the mask is 0."""
    return _in_roi(bgr, scale, roi, lambda part: _mask(part, scale, params, bgr.shape[1]))


def _in_roi(bgr: np.ndarray, scale: float, roi: tuple[int, int, int, int] | None,
            make: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The mask `make` gives for the frame `bgr` (at `scale`), worked out only inside `roi`
    (x0, y0, x1, y1 in frame pixels; None: everywhere) and 0 elsewhere."""
    if roi is None:
        return make(bgr)
    h, w = bgr.shape[:2]
    x0, y0 = max(0, roi[0]) & ~1, max(0, roi[1]) & ~1   # even: halving stays aligned
    x1, y1 = min(w, roi[2]), min(h, roi[3])
    out = np.zeros((round(h * scale), round(w * scale)), np.uint8)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return out
    part = make(bgr[y0:y1, x0:x1])
    ox, oy = round(x0 * scale), round(y0 * scale)
    ph, pw = min(part.shape[0], out.shape[0] - oy), min(part.shape[1], out.shape[1] - ox)
    out[oy:oy + ph, ox:ox + pw] = part[:ph, :pw]
    return out


def _grey_window(bgr: np.ndarray, scale: float, params: DetectParams,
                 frame_w: int) -> tuple[np.ndarray, int]:
    """The grey picture at `scale` and the side of the square window the masks compare with."""
    small = bgr if scale == 1.0 else cv2.resize(bgr, None, fx=scale, fy=scale,
                                                interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return grey, max(3, int(params.window_frac * frame_w * scale) | 1)


def _despeckled(mask: np.ndarray) -> np.ndarray:
    """`mask` without the speckle a textured table leaves (grain, weave, noise): only pixels
    within 3 px of a region that survives a 3 x 3 opening are kept. On cloth this cuts tracing
    time 5-30x; a card's paper keeps its exact outline, thin bits included. (The opening's
    3 x 3 dilation and the 7 x 7 one make one 9 x 9 dilation of the erosion: the same pixels,
    one pass fewer.)"""
    core = cv2.erode(mask, _OPEN_KERNEL)
    return cv2.bitwise_and(mask, cv2.dilate(core, _NEAR_KERNEL))


def _mask(bgr: np.ndarray, scale: float, params: DetectParams, frame_w: int) -> np.ndarray:
    grey, k = _grey_window(bgr, scale, params, frame_w)
    mean = cv2.boxFilter(grey, cv2.CV_16U, (k, k), normalize=True, borderType=cv2.BORDER_REPLICATE)
    thresh = cv2.convertScaleAbs(mean, alpha=params.gain, beta=params.offset)
    return _despeckled(cv2.compare(grey, thresh, cv2.CMP_GT))


def contrast_mask(bgr: np.ndarray, scale: float = 1.0, params: DetectParams = DetectParams(),
                  roi: tuple[int, int, int, int] | None = None, level: float = 0.5
                  ) -> np.ndarray:
    """`paper_mask`'s twin by the local range instead of the local mean: pixels brighter than
    `level` of the way from the darkest to the brightest pixel in the same window, where that
    range is at least MIN_CONTRAST. A layout of cards packed edge to edge on a pale table (a
    white or light cloth) lifts the wide local mean close to the paper itself; where blur has
    thinned the paper between the symbols and the border band, only patches of it pass the
    mean's test and no card keeps a hexagon's outline. The card's paper against its own
    border band (the darkest thing beside it) does not depend on how much else in the window
    is bright. (The outlines it gives are trusted as `reseat_paper`'s are: whole cards only.)"""
    return _in_roi(bgr, scale, roi,
                   lambda part: _contrast(part, scale, params, bgr.shape[1], level))


MIN_CONTRAST = 40   # grey levels from the border band to the paper (`reseat_paper`'s too)


def _contrast(bgr: np.ndarray, scale: float, params: DetectParams, frame_w: int,
              level: float) -> np.ndarray:
    grey, k = _grey_window(bgr, scale, params, frame_w)
    window = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    hi, lo = cv2.dilate(grey, window), cv2.erode(grey, window)
    span = cv2.subtract(hi, lo)
    thresh = cv2.addWeighted(lo, 1.0, span, level, 0.0)
    mask = cv2.compare(grey, thresh, cv2.CMP_GT)
    return _despeckled(cv2.bitwise_and(mask, cv2.compare(span, MIN_CONTRAST, cv2.CMP_GE)))


_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
_NEAR_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (9, 9))


def _piece_bounds(w: int, params: DetectParams) -> tuple[float, float, float]:
    """(least area, largest area, longest box side) in px of a piece of paper worth tracing in
    a working image `w` px wide: a quarter of the smallest card (`min_width_frac`), the largest
    card (`max_width_frac`), and that card's side with room for a tilt."""
    min_w = params.min_width_frac * w
    return (0.25 * (SQRT3 / 2.0) * min_w * min_w,
            (SQRT3 / 2.0) * (params.max_width_frac * w) ** 2,
            params.max_width_frac * w * 1.3)


def outer_contours(mask: np.ndarray) -> list[np.ndarray]:
    """The outer contours of a mask's regions, those lying in another's hole too (cards on a
    pale table's region, in a hole it leaves), but not the holes (the symbols'), as
    `paper_blobs` and `gathered_blobs` both take them."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    return [contours[k] for k in np.flatnonzero(hierarchy[0, :, 3] < 0).tolist()]


def paper_blobs(mask: np.ndarray, scale: float, view: TableView,
                params: DetectParams = DetectParams(),
                contours: list[np.ndarray] | None = None) -> list[Blob]:
    """Outer contours of the mask (`contours` where given: `outer_contours(mask)`) large
    enough to be a card (or a good part of one)."""
    h, w = mask.shape
    min_area, max_area, max_side = _piece_bounds(w, params)
    if contours is None:
        contours = outer_contours(mask)
    # a texture speck is a few points
    hulls = []
    for c in contours:
        if len(c) < 6:
            continue
        rect = cv2.boundingRect(c)
        if rect[2] * rect[3] < min_area or rect[2] > max_side or rect[3] > max_side:
            continue   # most texture specks
        hull = _blob_hull(c, rect, (h, w), params, min_area, max_area)
        if hull is not None:
            hulls.append(hull)
    return _blobs(hulls, scale, view)


def _blob_hull(c: np.ndarray, rect: tuple[int, int, int, int], shape: tuple[int, int],
               params: DetectParams, min_area: float, max_area: float,
               offset: tuple[int, int] = (0, 0)) -> tuple[np.ndarray, bool, bool] | None:
    """(convex hull in working-image pixels, touches the edge, ragged: see `Blob`) of one outer
    contour (less `offset`, its bounding box `rect` already small enough) of a mask of `shape`,
    or None when it is too small, too large or too ragged to be (part of) a card."""
    h, w = shape
    area = cv2.contourArea(c)
    if not min_area <= area <= max_area:
        return None
    hull = cv2.convexHull(c)
    hull_area = cv2.contourArea(hull)
    perimeter = cv2.arcLength(hull, True)
    roundness = 4.0 * math.pi * hull_area
    if (roundness < params.min_compactness * perimeter * perimeter
            or area < params.min_ragged_solidity * hull_area):
        return None
    ragged = area < params.min_solidity * hull_area
    if ragged and roundness < params.min_ragged_compactness * perimeter * perimeter:
        return None
    x, y, bw, bh = rect
    x, y = x + offset[0], y + offset[1]
    hull = hull.reshape(-1, 2).astype(np.float64)
    if offset != (0, 0):
        hull += np.array(offset, np.float64)
    return hull, x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1, ragged


def _blobs(hulls: list[tuple[np.ndarray, bool, bool]], scale: float, view: TableView
           ) -> list[Blob]:
    """The blobs of hulls in working-image pixels, all mapped to the plane in one call."""
    if not hulls:
        return []
    pts = np.concatenate([hull for hull, _, _ in hulls])
    img = (pts + 0.5) / scale - 0.5
    plane = view.to_plane(img)
    ends = np.cumsum([len(hull) for hull, _, _ in hulls]).tolist()
    blobs = []
    for (_, touches, ragged), a, b in zip(hulls, [0, *ends[:-1]], ends, strict=True):
        hull_plane = plane[a:b]
        area_plane = cv2.contourArea(hull_plane.astype(np.float32))
        blobs.append(Blob(img[a:b], hull_plane, area_plane, touches, ragged))
    return blobs


GATHER_REACH = 1.2      # a piece of paper is gathered to a larger one whose radius, this many
                        # times over, reaches its centre (`gathered_blobs`)
GATHER_MIN_PIECE = 1 / 16   # pieces smaller than this share of the smallest card are specks
GATHER_NEAREST = 8      # pieces tried for each middle, nearest first


def gathered_blobs(mask: np.ndarray, scale: float, view: TableView,
                   params: DetectParams = DetectParams(),
                   contours: list[np.ndarray] | None = None, at_least: int = 0) -> list[Blob]:
    """Cards whose paper the mask keeps in pieces, each gathered again into one blob: on a small
    card in a smear, blur closes the thin strips of paper between the symbols and the border
    band, and the paper falls apart into a middle (a cross between the symbols, into which
    they bite deep: less solid than `min_solidity`) and caps along the edges, the middle's
    hull at best a loose hexagon. From each such middle at least a quarter of a small card's
    size (largest first), the GATHER_NEAREST nearest smaller pieces whose centres its radius
    (GATHER_REACH times over) reaches are taken nearest first, each only where it makes the
    joint hull more compact; a gathering of two pieces or more whose hull is then as compact
    as a hexagon's (`min_ragged_compactness`) is a blob, its pieces taken. Its blob is
    `ragged`: trusted as a whole card only (its hull must still fit a hexagon,
    `fit_hexagons`), which must show its symbols, paper and border. (`contours`:
    `outer_contours(mask)`, where already traced; none where fewer than `at_least` pieces
    could be middles, a caller's use for fewer.)"""
    h, w = mask.shape
    min_area, _, max_side = _piece_bounds(w, params)
    if contours is None:
        contours = outer_contours(mask)
    pieces = [c for c in contours if len(c) >= 3]
    if len(pieces) < 2:
        return []
    boxes = np.array([cv2.boundingRect(c) for c in pieces]).reshape(-1, 4)
    box_area = boxes[:, 2] * boxes[:, 3]
    centres = boxes[:, :2] + 0.5 * boxes[:, 2:]
    areas = np.full(len(pieces), np.nan)   # worked out only where asked (most pieces are specks)

    def area(ks: np.ndarray) -> np.ndarray:
        todo = ks[np.isnan(areas[ks])]
        areas[todo] = [cv2.contourArea(pieces[k]) for k in todo.tolist()]
        return areas[ks]

    # a middle's hull, and so its box, is larger than its area over min_solidity: the box
    # rules out the solid pieces without their hulls
    big = np.flatnonzero((box_area >= min_area) & (boxes[:, 2:] <= max_side).all(axis=1))
    big_area = area(big)
    middles = big[(big_area >= min_area) & (big_area < params.min_solidity * box_area[big])]
    if len(middles) < at_least:
        return []
    small = box_area >= GATHER_MIN_PIECE * min_area    # a piece's box holds its area
    taken = np.zeros(len(pieces), bool)
    gathered: list[tuple[np.ndarray, bool]] = []
    for i in middles[np.argsort(-areas[middles])].tolist():
        if taken[i]:
            continue
        bw, bh = boxes[i, 2:]
        hull = cv2.convexHull(pieces[i])
        if areas[i] >= params.min_solidity * cv2.contourArea(hull):
            continue   # no card's middle: its symbols would bite deep into it
        dist = np.hypot(*(centres - centres[i]).T)
        reach = GATHER_REACH * 0.5 * math.hypot(bw, bh)
        near = np.flatnonzero((dist < reach) & ~taken & small)
        near_area = area(near)
        near = near[(near_area >= GATHER_MIN_PIECE * min_area) & (near_area < areas[i])]
        near = near[np.argsort(dist[near])][:GATHER_NEAREST]
        if not len(near):
            continue
        group, best = [i], _compactness(hull)
        for j in near.tolist():
            joint = cv2.convexHull(np.vstack([hull, pieces[j]]))
            compact = _compactness(joint)
            if compact > best:
                group, hull, best = [*group, j], joint, compact
        if len(group) < 2 or best < params.min_ragged_compactness:
            continue
        taken[group] = True
        x, y, gw, gh = cv2.boundingRect(hull)
        gathered.append((hull.reshape(-1, 2).astype(np.float64),
                         x <= 1 or y <= 1 or x + gw >= w - 1 or y + gh >= h - 1))
    return _blobs([(hull, touches, True) for hull, touches in gathered], scale, view)


def _compactness(hull: np.ndarray) -> float:
    """4·pi·area / perimeter² of a convex hull (a circle 1, a regular hexagon 0.91)."""
    perimeter = cv2.arcLength(hull, True)
    return 4.0 * math.pi * cv2.contourArea(hull) / (perimeter * perimeter) if perimeter else 0.0


def cut_necks(mask: np.ndarray, blob: Blob, scale: float, view: TableView, paper_area: float,
              params: DetectParams = DetectParams(), width: int = 2) -> list[Blob]:
    """The pieces of a blob once every neck of paper narrower than 2·`width` + 1 pixels (of the
    working mask) is cut: two cards laid edge to edge whose dark bands a blur (defocus, motion)
    has bridged in a spot or two form one blob, and so does a card touching a bright patch of
    the table through a thin link. The blob's mask is eroded by `width`, split into connected
    parts, and each part grown back by `width` within the mask (so a piece keeps its outline,
    its corners barely rounded). `paper_area` is a card's paper area in plane units (it sets
    the size of a symbol's hole). Pieces too small or ragged for a card are left out; a blob
    with no neck comes back as one piece, its thin spurs trimmed."""
    h, w = mask.shape
    hull = (blob.hull_img + 0.5) * scale - 0.5
    pad = 2 * width + 2
    x0 = max(0, math.floor(hull[:, 0].min()) - pad)
    y0 = max(0, math.floor(hull[:, 1].min()) - pad)
    x1 = min(w, math.ceil(hull[:, 0].max()) + pad + 1)
    y1 = min(h, math.ceil(hull[:, 1].max()) + pad + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return []
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(region, np.round(hull - (x0, y0)).astype(np.int32), 255)
    region = cv2.bitwise_and(region, mask[y0:y1, x0:x1])    # this blob's paper only
    # with the symbols' holes filled (the paper between two symbols is thin and must not split).
    # A printed symbol (disc, ring, diamond, triangle) is a compact hole, at least 0.7 as wide
    # as long and a good part of a symbol's printed size; the dark gap between two bridged
    # cards is a slot, or a chain of specks where it is bridged often, and stays open
    hull_px = cv2.contourArea(hull.astype(np.float32))
    apothem_px = math.sqrt(paper_area * hull_px / max(blob.area_plane, 1e-9) / (2.0 * SQRT3))
    symbol_px = HEXEL_FACE.symbol_radius_frac * apothem_px / (1.0 - HEXEL_FACE.border_frac)
    min_hole = 0.25 * math.pi * symbol_px * symbol_px
    contours, tree = cv2.findContours(region, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is not None:
        for c, (_, _, _, parent) in zip(contours, tree[0], strict=True):
            if parent >= 0 and cv2.contourArea(c) >= min_hole:
                _, (rw, rh), _ = cv2.minAreaRect(c)
                if min(rw, rh) >= 0.55 * max(rw, rh):
                    cv2.drawContours(region, [c], 0, 255, cv2.FILLED)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * width + 1, 2 * width + 1))
    core = cv2.erode(region, kernel)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    min_area, max_area, max_side = _piece_bounds(w, params)
    rh, rw = region.shape
    pieces = []
    for k in range(1, n):
        sx, sy, sw, sh = (int(v) for v in stats[k, :4])
        if (sw + 2 * width) * (sh + 2 * width) < min_area:
            continue   # grown back, its box is still too small for `_blob`: a speck
        # grown back within its own box and `width` (+1 for a clear border) all round
        ax, ay = max(sx - width - 1, 0), max(sy - width - 1, 0)
        bx, by = min(sx + sw + width + 1, rw), min(sy + sh + width + 1, rh)
        own = (labels[ay:by, ax:bx] == k).view(np.uint8)
        part = cv2.bitwise_and(cv2.dilate(own, kernel), region[ay:by, ax:bx])
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        c = max(contours, key=cv2.contourArea)
        x, y, bw, bh = cv2.boundingRect(c)
        if bw * bh < min_area or bw > max_side or bh > max_side:
            continue
        piece = _blob_hull(c, (x, y, bw, bh), (h, w), params, min_area, max_area,
                           (x0 + ax, y0 + ay))
        if piece is not None:
            pieces.append(piece)
    return _blobs(pieces, scale, view)


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


_RESAMPLE = np.arange(96) / 96.0


def hexagon_pose(poly: np.ndarray, poly32: np.ndarray | None = None
                 ) -> tuple[np.ndarray, float, float]:
    """Centre, apothem and edge-0 normal angle (±30°) of the regular hexagon best matching a
    convex polygon (N x 2), from its area moments and the sixth harmonic of its outline.
    `poly32` is the polygon as float32 when the caller has it already."""
    m = cv2.moments(poly.astype(np.float32) if poly32 is None else poly32)
    area = abs(m["m00"])
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    apothem = math.sqrt(area / (2.0 * SQRT3))
    # the outline as complex numbers about the centre, closed (real and imaginary parts set
    # directly: the same values as x + 1j * y, without the complex products)
    z = np.empty(len(poly) + 1, np.complex128)
    z.real[:-1] = poly[:, 0] - cx
    z.imag[:-1] = poly[:, 1] - cy
    z[-1] = z[0]
    arc = np.empty(len(z))
    arc[0] = 0.0
    np.abs(z[1:] - z[:-1]).cumsum(out=arc[1:])
    w = np.interp(_RESAMPLE * arc[-1], arc, z)     # 96 points evenly along the outline
    r = np.maximum(np.abs(w), 1e-9)
    c6 = (w ** 6 / (r * r * r * r * r)).sum()
    corner = np.arctan2(c6.imag, c6.real) / 6.0    # np.angle(c6), without its checks
    return np.array([cx, cy]), apothem, float(wrap60(corner + math.pi / 6.0))


def hexagon_poses(polys: list[np.ndarray], polys32: list[np.ndarray]
                  ) -> list[tuple[np.ndarray, float, float]]:
    """`hexagon_pose` of every polygon (N_i x 2, and each as float32), worked out for all of
    them at once (cheaper than one by one from about FIT_TOGETHER of them), each polygon's
    numbers its own, bit for bit: its outline (padded out with its first
    point) resampled at 96 points evenly along it as `np.interp` does it (the slope of each
    segment, times the way into it, plus its start; a knot's own value where a point falls on
    one), the sixth harmonic summed along each row."""
    n = len(polys)
    moments = np.array([[m["m00"], m["m10"], m["m01"]] for m in map(cv2.moments, polys32)])
    m00, m10, m01 = moments.T
    cx, cy = m10 / m00, m01 / m00
    lens = np.fromiter(map(len, polys), np.int64, n)
    width = int(lens.max()) + 1
    starts = np.cumsum(lens) - lens
    # each row the polygon's points about its centre, then its first point again (closed)
    k = np.arange(width)[None, :]
    src = starts[:, None] + np.where(k < lens[:, None], k, 0)
    pts = np.concatenate(polys)
    z = np.empty((n, width), np.complex128)   # (parts set directly: as x + 1j * y gives)
    z.real = pts[src, 0] - cx[:, None]
    z.imag = pts[src, 1] - cy[:, None]
    arc = np.zeros((n, width))
    np.cumsum(np.abs(z[:, 1:] - z[:, :-1]), axis=1, out=arc[:, 1:])   # (0 past the end)
    rows = np.arange(n)[:, None]
    at = _RESAMPLE[None, :] * arc[rows[:, 0], lens][:, None]          # n x 96
    j = np.array([np.searchsorted(a, x, "right") for a, x in zip(arc, at, strict=True)]) - 1
    j = np.minimum(j, lens[:, None])
    x0, x1 = arc[rows, j], arc[rows, np.minimum(j + 1, lens[:, None])]
    f0, f1 = z[rows, j], z[rows, np.minimum(j + 1, lens[:, None])]
    with np.errstate(divide="ignore", invalid="ignore"):   # (a knot's own value there)
        inv = 1.0 / (x1 - x0)
        step = at - x0
        wr = (f1.real - f0.real) * inv * step + f0.real
        wi = (f1.imag - f0.imag) * inv * step + f0.imag
    knot = (x0 == at) | (j == lens[:, None])
    w = np.empty((n, len(_RESAMPLE)), np.complex128)
    w.real = np.where(knot, f0.real, wr)
    w.imag = np.where(knot, f0.imag, wi)
    r = np.maximum(np.abs(w), 1e-9)
    c6 = (w ** 6 / (r * r * r * r * r)).sum(1)
    corner = np.arctan2(c6.imag, c6.real) / 6.0    # np.angle(c6), without its checks
    angle = wrap60(corner + math.pi / 6.0)
    return [(np.array([x, y]), math.sqrt(abs(a) / (2.0 * SQRT3)), g)
            for x, y, a, g in zip(cx.tolist(), cy.tolist(), m00.tolist(), angle.tolist(),
                                  strict=True)]


_HALF_STEP = np.radians(30.0)
_CORNER_STEPS = np.radians(60.0) * np.arange(6)


def _hexagons(centres: np.ndarray, apothems: np.ndarray, normal_angles: np.ndarray
              ) -> np.ndarray:
    """`geometry.hexagon` of each centre (n x 2), apothem and angle (n), the same arithmetic
    for all at once (n x 6 x 2), its constants worked out once."""
    corner_r = apothems * 2.0 / SQRT3
    ang = normal_angles[:, None] + _HALF_STEP - _CORNER_STEPS[None, :]
    corners = np.empty((len(ang), 6, 2))
    corners[..., 0] = np.cos(ang)   # contiguous in and out, as geometry.hexagon computes them
    corners[..., 1] = np.sin(ang)
    return centres[:, None, :] + corner_r[:, None, None] * corners


def iou(poly_a: np.ndarray, poly_b: np.ndarray) -> float:
    """Intersection over union of two convex polygons."""
    return _iou32(poly_a.astype(np.float32), poly_b.astype(np.float32))


def _iou32(a32: np.ndarray, b32: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    union = cv2.contourArea(a32) + cv2.contourArea(b32) - inter
    return float(inter / union) if union > 0 else 0.0


_HEX_VAR = 5.0 / 18.0   # per-axis second moment / area of a regular hexagon of apothem 1


def affine_shape(poly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(centre, shape): the symmetric determinant-1 map that, applied to a regular hexagon,
    gives the second moments of the convex polygon (a regular hexagon's are isotropic)."""
    m = cv2.moments(poly.astype(np.float32))
    if abs(m["m00"]) < 1e-9:
        return np.asarray(poly, np.float64).mean(0), np.eye(2)
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    a, b, c = m["mu20"] / abs(m["m00"]), m["mu11"] / abs(m["m00"]), m["mu02"] / abs(m["m00"])
    det = a * c - b * b
    if det <= 0 or a <= 0:
        return centre, np.eye(2)
    # the square root of the 2 x 2 covariance in closed form, scaled to determinant 1
    sd = math.sqrt(det)
    root = np.array([[a + sd, b], [b, c + sd]]) / math.sqrt(a + c + 2.0 * sd)
    return centre, root / math.sqrt(math.sqrt(det))


def fit_card(blob: Blob, affine: bool = False) -> CardFit:
    """The whole-card reading of a blob (its hull is the paper inside the border band). With
    `affine` (the plane is not metric: uncalibrated, the image itself), in the frame where the
    hull's second moments are isotropic (see `CardFit`); else as a regular hexagon."""
    if not affine:
        poly32 = blob.hull_plane.astype(np.float32)
        centre, a_in, angle = hexagon_pose(blob.hull_plane, poly32)
        score = _iou32(poly32, _hexagons(centre[None], np.array([a_in]), np.array([angle]))[0]
                       .astype(np.float32))
        apothem = a_in / (1.0 - HEXEL_FACE.border_frac)
        return CardFit((float(centre[0]), float(centre[1])), apothem, angle, score, blob)
    centre, shape = affine_shape(blob.hull_plane)
    (a, b), (_, c) = shape
    inv = np.array([[c, -b], [-b, a]]) / (a * c - b * b)
    rect = (blob.hull_plane - centre) @ inv.T
    rect32 = rect.astype(np.float32)
    c_rect, a_in, angle = hexagon_pose(rect, rect32)
    score = _iou32(rect32, _hexagons(c_rect[None], np.array([a_in]), np.array([angle]))[0]
                   .astype(np.float32))
    apothem = a_in / (1.0 - HEXEL_FACE.border_frac)
    return CardFit((float(centre[0]), float(centre[1])), apothem, angle, score, blob,
                   ((float(shape[0, 0]), float(shape[0, 1])), (float(shape[1, 0]),
                                                               float(shape[1, 1]))))


FIT_TOGETHER = 6   # blobs from which fitting all at once costs less than one by one


def fit_cards(blobs: list[Blob], affine: bool = False) -> list[CardFit]:
    """`fit_card` of every blob, from FIT_TOGETHER of them their hexagons worked out for all
    at once (`hexagon_poses`, `_hexagons`): the same numbers, each blob's its own."""
    if len(blobs) < FIT_TOGETHER:
        return [fit_card(b, affine) for b in blobs]
    shapes = [affine_shape(b.hull_plane) for b in blobs] if affine else []
    polys = [b.hull_plane for b in blobs]
    if affine:
        polys = []
        for b, (centre, shape) in zip(blobs, shapes, strict=True):
            (a, s, c) = shape[0, 0], shape[0, 1], shape[1, 1]
            inv = np.array([[c, -s], [-s, a]]) / (a * c - s * s)
            polys.append((b.hull_plane - centre) @ inv.T)
    polys32 = [q.astype(np.float32) for q in polys]
    poses = hexagon_poses(polys, polys32)
    hexes = _hexagons(np.array([c for c, _, _ in poses]), np.array([a for _, a, _ in poses]),
                      np.array([g for _, _, g in poses])).astype(np.float32)
    fits = []
    for k, (blob, q32, (centre, a_in, angle)) in enumerate(zip(blobs, polys32, poses,
                                                               strict=True)):
        score = _iou32(q32, hexes[k])
        apothem = a_in / (1.0 - HEXEL_FACE.border_frac)
        if not affine:
            fits.append(CardFit((float(centre[0]), float(centre[1])), apothem, angle, score,
                                blob))
            continue
        at, shape = shapes[k]
        fits.append(CardFit((float(at[0]), float(at[1])), apothem, angle, score, blob,
                            ((float(shape[0, 0]), float(shape[0, 1])),
                             (float(shape[1, 0]), float(shape[1, 1])))))
    return fits


def fitted_card(blob: Blob, affine: bool, fitted: dict[int, CardFit] | None) -> CardFit:
    """`fit_card(blob, affine)`, as `fit_hexagons` gave it in `fitted` where it fitted the
    blob so (the same numbers: a fit depends on the blob alone)."""
    fit = None if fitted is None else fitted.get(id(blob))
    return fit if fit is not None and fit.blob is blob else fit_card(blob, affine)


def fit_hexagons(blobs: list[Blob], params: DetectParams = DetectParams(), affine: bool = False,
                 card_area: float | None = None, fitted: dict[int, CardFit] | None = None
                 ) -> tuple[list[CardFit], list[Blob]]:
    """Split blobs into candidate whole cards (regular hexagons not cut by the frame edge) and the
    rest. Candidates still have to show six symbols (a ring's paper centre is a hexagon too).
    With `card_area` (a card face's area in plane units, known on a calibrated table), a blob
    whose area is far from a card's paper (below 0.45 or above 2.2 times: a card printed at
    another scale still passes) is no whole card and is not fitted. `fitted` (by the blob's
    `id`) takes every blob's `fit_card`, for a caller that asks again (`fitted_card`)."""
    whole, rest = [], []
    sized = [card_area is None or printed_size(blob.area_plane, card_area) for blob in blobs]
    fits = iter(fit_cards([b for b, ok in zip(blobs, sized, strict=True) if ok], affine))
    for blob, ok in zip(blobs, sized, strict=True):
        if not ok:
            if not blob.ragged:
                rest.append(blob)
            continue
        fit = next(fits)
        if fitted is not None:
            fitted[id(blob)] = fit
        if fit.iou >= params.min_iou and fit.aspect >= params.min_aspect and not blob.touches_edge:
            whole.append(fit)
        elif not blob.ragged:   # a ragged blob is a whole card or nothing (see `Blob`)
            rest.append(blob)
    return whole, rest


PRINTED_SLACK = (0.45, 2.2)   # a card's paper area against the printed one's (`printed_size`)


def paper_area(card_area: float) -> float:
    """The paper inside the border band of a card face `card_area` large (plane units)."""
    return card_area * (1.0 - HEXEL_FACE.border_frac) ** 2


def printed_size(area: float, card_area: float) -> bool:
    """Whether a blob of paper `area` large can be a card face `card_area` large (both in plane
    units): within PRINTED_SLACK of its paper's area, so that a card printed at a somewhat
    other scale than the table markers (0.67-1.48 times as wide) still passes."""
    paper = paper_area(card_area)
    return PRINTED_SLACK[0] * paper <= area <= PRINTED_SLACK[1] * paper


def consistent_sizes(cards: list[CardFit], near: int = 4) -> tuple[list[CardFit], list[CardFit]]:
    """Cards of one table share one size, but perspective makes far cards smaller: (kept,
    dropped) by each card's apothem against the median of its `near` nearest cards'. At the
    near edge of a steep view all of a card's neighbours lie farther off and are smaller, so a
    card dropped so is kept when the others follow one tilted plane's sizes closely and its
    own size is that plane's at its place (`_perspective_sizes`)."""
    if len(cards) < 3:
        return cards, []
    c = np.array([f.centre for f in cards])
    a = np.array([f.apothem for f in cards])
    d = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(d, np.inf)
    nearest = np.argsort(d, axis=1)[:, :min(near, len(cards) - 1)]
    med = np.median(a[nearest], axis=1)
    ok = (a >= 0.8 * med) & (a <= 1.25 * med)
    if not ok.all() and ok.sum() >= 6:
        ok |= _perspective_sizes(c, a, ok)
    return ([f for f, k in zip(cards, ok, strict=True) if k],
            [f for f, k in zip(cards, ok, strict=True) if not k])


def plane_sizes(centres: np.ndarray, apothems: np.ndarray, trusted: np.ndarray | None = None
                ) -> np.ndarray | None:
    """The apothem one flat table seen in perspective gives a card at each centre: a plane seen
    through a pinhole is magnified (in area) by w³, w the inverse homography's denominator,
    which is affine in the position, so apothem^(2/3) is affine in the centre; fitted by least
    squares to the `trusted` cards (default all). None when fewer than four are trusted, when
    they do not spread across the table in both directions (MIN_PLANE_SPREAD: a plane fitted
    to cards in a row says nothing of a card off it, and extrapolates wildly there) or when a
    size is not finite."""
    ok = np.ones(len(apothems), bool) if trusted is None else np.asarray(trusted, bool)
    if ok.sum() < 4 or not np.isfinite(apothems[ok]).all():
        return None
    spread = np.linalg.svd(centres[ok] - centres[ok].mean(0), compute_uv=False)
    if spread[1] < MIN_PLANE_SPREAD * spread[0]:
        return None
    design = np.c_[centres, np.ones(len(centres))]
    coef, _, rank, _ = np.linalg.lstsq(design[ok], apothems[ok] ** (2.0 / 3.0), rcond=None)
    if rank < 3:
        return None
    size = np.maximum(design @ coef, 1e-9) ** 1.5
    return size if np.isfinite(size).all() else None


# the trusted cards' spread across their main direction, at least this share of it along it
MIN_PLANE_SPREAD = 0.2


def _perspective_sizes(centres: np.ndarray, apothems: np.ndarray, ok: np.ndarray,
                       fit_tol: float = 0.03, tol: float = 0.08) -> np.ndarray:
    """Which cards' apothems are within `tol` of the size the table's plane gives a card at
    their centres (`plane_sizes`, fitted to the cards `ok` marks). None are when that fit
    misses a marked card by more than `fit_tol` (the sizes then are not one tilted plane's:
    lens distortion, cards fitted small or large) or cannot be made (`plane_sizes`: the
    marked cards in a row)."""
    size = plane_sizes(centres, apothems, ok)
    if size is None:
        return np.zeros(len(apothems), bool)
    err = np.abs(apothems / size - 1.0)
    if err[ok].max() > fit_tol:
        return np.zeros(len(apothems), bool)
    return err <= tol


def reseat_paper(bgr: np.ndarray, blob: Blob, scale: float, view: TableView,
                 params: DetectParams = DetectParams(),
                 levels: tuple[float, ...] = (0.35, 0.5, 0.65)) -> Iterator[list[Blob]]:
    """The blob's paper found again by its own contrast: pixels brighter than a level between
    the darkest of its surroundings (the border band) and its paper (the bright end of its
    hull), kept in the parts whose middle lies inside the blob's hull and that stay clear of
    the edge of the box searched (a quarter of the hull's size around it); the pieces of one
    level at a time, for each level in `levels` (the lowest first: a higher level parts a
    card from a neighbour or the table where a blur has lightened the border band between
    them).
    `paper_mask` compares each pixel with a wide local mean, which a layout of dim paper
    packed card to card, or a pale table, lifts close to the paper itself, so only patches
    of a card's paper pass; a card's own paper against its own border band does not depend
    on what else lies in the window. Pieces that are no (part of a) card (`_blob_hull`) are
    left out; nothing when the box shows too little contrast. Each piece is `ragged`: an
    outline found again is trusted as a ragged one is (see `Blob`), a whole card or nothing,
    and re-posed by the reader when its fitted pose does not read whole."""
    h, w = round(bgr.shape[0] * scale), round(bgr.shape[1] * scale)
    hull = (blob.hull_img + 0.5) * scale - 0.5
    lo, hi = hull.min(0), hull.max(0)
    pad = 0.25 * float((hi - lo).max())    # room for the border band and a little beyond
    x0, y0 = max(0, math.floor(lo[0] - pad)), max(0, math.floor(lo[1] - pad))
    x1, y1 = min(w, math.ceil(hi[0] + pad) + 1), min(h, math.ceil(hi[1] + pad) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return
    if scale == 1.0:
        crop = bgr[y0:y1, x0:x1]
    else:
        f0x, f0y = math.floor(x0 / scale), math.floor(y0 / scale)
        f1x, f1y = math.ceil(x1 / scale), math.ceil(y1 / scale)
        crop = cv2.resize(bgr[f0y:f1y, f0x:f1x], (x1 - x0, y1 - y0),
                          interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    by, bx = grey.shape
    inside = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(hull - (x0, y0)).astype(np.int32), 1)
    within = grey[inside > 0]
    if within.size == 0:
        return
    paper = _quantile_u8(within, 0.85)   # bare paper: symbols cover less than a fifth
    dark = _quantile_u8(grey.ravel(), 0.05)   # the border band (or darker table)
    if paper - dark < 40:
        return   # no dark band to part the paper from
    min_area, max_area, _ = _piece_bounds(w, params)
    hull_local = (hull - (x0, y0)).astype(np.float32)
    for level in levels:
        local = cv2.compare(grey, dark + level * (paper - dark), cv2.CMP_GT)
        contours, _ = cv2.findContours(local, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        found = []
        for c in contours:
            x, y, bw, bh = cv2.boundingRect(c)
            # the paper the blob lost lies within the box around its hull, about its hull's
            # middle; a part reaching the box's edge is a neighbour or the table the box cuts
            if (bw * bh < min_area or x == 0 or y == 0 or x + bw == bx or y + bh == by
                    or cv2.pointPolygonTest(hull_local, (x + 0.5 * bw, y + 0.5 * bh),
                                            False) < 0):
                continue
            one = _blob_hull(c, (x, y, bw, bh), (h, w), params, min_area, max_area, (x0, y0))
            if one is not None:
                found.append((one[0], one[1], True))
        if found:
            yield _blobs(found, scale, view)


def _quantile_u8(values: np.ndarray, q: float) -> int:
    """The q-quantile of uint8 values, by their histogram (cheaper than a sort)."""
    counts = np.bincount(values, minlength=256).cumsum()
    return int(np.searchsorted(counts, q * counts[-1]))
