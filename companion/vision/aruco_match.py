"""Matching quads against ArUco codes by correlation, for markers the ArUco decoder gave up on.
The decoder thresholds each module; motion blur or defocus wider than a module smears the bits
past its threshold, yet the blurred inside of the marker still correlates with its printed code
far better than with any other code. These helpers sample a quad module by module (the mean of
`SAMPLES` x `SAMPLES` bilinear points a module, a marker's own perspective being negligible)
and correlate the module means, zero-mean and unit-norm, with the expected markers' codes in
their four quarter turns (optionally with the black border and a ring of the white quiet zone).
What counts as a clear match is the caller's: `hexapod_markers.match_quads` for case markers,
`calibration.match_markers` for table markers. Where blur left the decoder no outline at all,
`dark_quads` proposes quads from the dark blobs of a marker's size.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SAMPLES = 4          # samples per marker module, each way
_MAX_ROWS = 32767    # cv2.remap's limit on a map's rows


@lru_cache(maxsize=8)
def code_templates(dictionary: str, ids: tuple[int, ...], modules: int, framed: bool = False
                   ) -> np.ndarray:
    """Every marker's code (one value a module), zero-mean and unit-norm, as rows: four a marker
    in `ids` order, its quarter turns 0-3 (a quad whose corners start t corners late shows turn
    t). `framed`: the code inside its one-module black border inside one module of the white
    quiet zone ((modules + 2)^2 values), else the code alone ((modules - 2)^2)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    rows = []
    for mid in ids:
        code = d.generateImageMarker(mid, modules, borderBits=1).astype(np.float32)
        code = np.pad(code, 1, constant_values=255.0) if framed else code[1:-1, 1:-1]
        rows += [np.rot90(code, -t).ravel() for t in range(4)]
    t = np.array(rows)
    t -= t.mean(axis=1, keepdims=True)
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    return t


@lru_cache(maxsize=8)
def sample_weights(modules: int, framed: bool = False, samples: int = SAMPLES) -> np.ndarray:
    """(4, points) bilinear weights of a quad's corners at `samples` x `samples` points a module
    over the code's modules (`framed`: also over the border and one module outside it; bilinear
    weights extrapolate the quad that far)."""
    first, cells = (-1, modules + 2) if framed else (1, modules - 2)
    k = cells * samples
    u = (first * samples + 0.5 + np.arange(k, dtype=np.float32)) / (modules * samples)
    uu, vv = np.meshgrid(u, u)
    return np.stack([(1 - uu) * (1 - vv), uu * (1 - vv), uu * vv, (1 - uu) * vv]).reshape(4, -1)


def module_means(grey: np.ndarray, quads: np.ndarray, modules: int, framed: bool = False,
                 samples: int = SAMPLES, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """(quads, cells) the module means of each (n, 4, 2) quad, row by row, zero-mean and
    unit-norm (`framed`: over the border and one module outside it too), from `samples` x
    `samples` points a module (fewer for a quick first look). `origin`: where `grey`'s
    top-left pixel lies in the frame the quads' corners are given in (a crop of it, holding
    every sample point and its neighbour, or reaching the frame's edge where a point lies
    beyond it; see `_means`)."""
    per = max(1, _MAX_ROWS // ((modules + 2) * samples))   # quads a remap call can take
    return np.concatenate([_means(grey, quads[a:a + per], modules, framed, samples, origin)
                           for a in range(0, len(quads), per)])


def _means(grey: np.ndarray, quads: np.ndarray, modules: int, framed: bool, samples: int,
           origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    cells = modules + 2 if framed else modules - 2
    k = cells * samples
    n = len(quads)
    w = sample_weights(modules, framed, samples)
    # the (n, 2, 4) @ (4, k * k) product written straight into the x and y maps, each (n, k * k)
    # C-ordered as remap wants (the same small product per quad, no transposed copies)
    xy = np.empty((2, n, k * k), np.float32)
    np.matmul(quads.astype(np.float32).transpose(0, 2, 1), w, out=xy.transpose(1, 0, 2))
    if origin != (0, 0):
        # the sample points moved to the crop's pixels after they were worked out in the
        # frame's: a float32 coordinate less a whole number no larger than it is exact, and
        # remap's fixed-point position (x * 32, rounded half to even) moves by an even whole
        # number, so every sample reads the same pixels with the same weights
        xy[0] -= np.float32(origin[0])
        xy[1] -= np.float32(origin[1])
    mapx, mapy = xy[0].reshape(-1, k), xy[1].reshape(-1, k)
    vals = cv2.remap(grey, mapx, mapy, cv2.INTER_LINEAR)
    if vals.dtype == np.uint8 and samples in (1, 2, 4, 8):
        # a module's samples^2 samples averaged by area resampling: whole numbers times a power
        # of two (at most 64 x 255 before the scale, well inside float32's 24 bits) are exact in
        # any summation order, so this is exactly the mean of the samples, at a fraction of the
        # cost of NumPy's reductions over such small axes
        vals = cv2.resize(vals.astype(np.float32), (cells, n * cells),
                          interpolation=cv2.INTER_AREA).reshape(n, cells * cells)
    else:
        vals = vals.astype(np.float32).reshape(n, cells, samples, cells, samples)
        vals = vals.mean(axis=(2, 4)).reshape(n, -1)
    vals -= vals.mean(axis=1, keepdims=True)
    vals /= np.maximum(np.linalg.norm(vals, axis=1, keepdims=True), 1e-3)
    return vals


def code_scores(grey: np.ndarray, quads: np.ndarray, templates: np.ndarray, modules: int,
                framed: bool = False, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """(quads, templates) correlation of each quad's `module_means` with every
    `code_templates` row (built with the same `modules` and `framed`; `origin` as there)."""
    # module means against 16-64-value codes: a product small enough to stay off threaded BLAS
    return np.einsum("qm,tm->qt", module_means(grey, quads, modules, framed, SAMPLES, origin),
                     templates)


def sub_dictionary(dictionary: cv2.aruco.Dictionary, ids: tuple[int, ...]
                   ) -> cv2.aruco.Dictionary:
    """`dictionary` cut down to the codes `ids` (a quad then decodes as the index of its code in
    `ids`). OpenCV compares every quad it cannot decode with every code of its dictionary (~1 us
    a code and turn; a textured table gives hundreds of quads), so a detector that wants a few
    ids is much cheaper with only those. The codes of DICT_4X4_50 differ in at least 4 bits in
    any turn and at most one bit is corrected, so a quad decodes to the same id and turn either
    way; one that decoded to another id is among the rejected quads instead."""
    return cv2.aruco.Dictionary(dictionary.bytesList[list(ids)].copy(), dictionary.markerSize,
                                dictionary.maxCorrectionBits)


def quad_sides(quads: np.ndarray) -> np.ndarray:
    """(..., 4) the side lengths (pixels) of (..., 4, 2) quads, each from a corner to the next."""
    # the next corner of each (np.roll's values, without its overhead: this runs per quad)
    nxt = np.concatenate((quads[..., 1:, :], quads[..., :1, :]), axis=-2)
    return np.linalg.norm(nxt - quads, axis=-1)


def quad_side(quad: np.ndarray) -> float:
    """A quad's mean side length (pixels)."""
    return float(quad_sides(quad).mean())


def plausible_quads(quads: list[np.ndarray], sides: tuple[float, float]) -> np.ndarray:
    """(n, 4, 2) float32: the quads whose sides lie within `sides` (px, at least 8: fewer than
    two pixels a module carry no code) and differ by at most a factor 2 (a marker seen at up to
    60 degrees)."""
    q = np.array(quads, np.float32).reshape(-1, 4, 2)
    d = quad_sides(q)
    lo, hi = d.min(axis=1), d.max(axis=1)
    return q[(lo >= max(sides[0], 8.0)) & (hi <= sides[1]) & (hi <= 2.0 * lo)]


def dark_quads(grey: np.ndarray, sides: tuple[float, float], windows: tuple[int, ...],
               offsets: tuple[float, ...] = (5.0, 15.0), step: int = 1) -> list[np.ndarray]:
    """Quads (4 x 2, image pixels) outlining dark blobs of a marker's size: each blob of pixels
    darker by `offsets` than the mean of a `windows` square about them, its convex hull
    simplified to four corners. A marker blurred by about a module no longer shows the sharp
    corners the ArUco decoder's polygon fit wants (its outline rounds off into more vertices,
    or its border merges with the dark modules next to it), yet its black border and dark
    modules still make one dark, nearly convex blob on its white quiet zone. `sides`: the
    plausible side lengths (px). `step` > 1 labels the blobs on every `step`-th pixel each way
    (labelling is most of the cost; a blob of a marker's size stays one blob there) and
    outlines each one kept on the full thresholded image about it. The quads are proposals
    only: `code_scores` decides."""
    lo, hi = max(sides[0], 8.0), min(sides[1], float(max(grey.shape)))
    out: list[np.ndarray] = []
    for win in windows:
        for off in offsets:
            dark = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                         cv2.THRESH_BINARY_INV, win | 1, off)
            coarse = dark if step == 1 else np.ascontiguousarray(dark[::step, ::step])
            _, labels, stats, _ = cv2.connectedComponentsWithStats(coarse, connectivity=8)
            w, h, area = step * stats[:, 2], step * stats[:, 3], step * step * stats[:, 4]
            big = np.maximum(w, h)
            # a marker's square seen at up to 60 degrees, turned any way: its box spans its
            # side to 1.5 sides, and its dark pixels cover at least a third of its square
            keep = np.flatnonzero((big >= lo) & (big <= 1.5 * hi) & (area >= lo * lo / 3.0)
                                  & (np.minimum(w, h) >= 0.4 * big))
            for k in keep[keep > 0]:
                x, y = step * stats[k, 0], step * stats[k, 1]
                if step == 1:
                    bw, bh = w[k], h[k]
                    blob = (labels[y:y + bh, x:x + bw] == k).astype(np.uint8)
                    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL,
                                                   cv2.CHAIN_APPROX_SIMPLE)
                    outline = max(contours, key=len)
                else:
                    # the box on the full image, a step's margin round it for the pixels the
                    # coarse grid skipped: the largest outline there is the blob's
                    x, y = max(x - step, 0), max(y - step, 0)
                    bw, bh = w[k] + 2 * step, h[k] + 2 * step
                    contours, _ = cv2.findContours(dark[y:y + bh, x:x + bw].copy(),
                                                   cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                    outline = max(contours, key=cv2.contourArea)
                hull = cv2.convexHull(outline)
                if area[k] < 0.6 * cv2.contourArea(hull):
                    continue                  # a ragged blob: no square's border
                per = cv2.arcLength(hull, True)
                for eps in (0.03, 0.05, 0.08, 0.12):
                    p = cv2.approxPolyDP(hull, eps * per, True)
                    if len(p) == 4:
                        out.append(p.reshape(4, 2) + np.array([x, y], np.float64))
                        break
    return out
