"""What hands, arms and dark cloth over the board hide, beyond what the occluder masks
(`hexapod_colour.occluder_masks`) say: a coloured kind read where only the closing of the gaps
between a hand's parts covers the cell shows its card's own tile (`tile_in_gap`), and so does
one whose middle the hand does not reach at all (`kind_clear_of_hand`); a dung beetle
read where a black occluder's own pixels reach, or whose black runs in from beyond the board
over more of the grid than a tile, or whose black is no darker than the fill beside it, is '?'
(`dark_occluder_dung`, `black_from_beyond`, `unblack_dung`); and
under a white clipped in all three channels, the occluders the clipped white's own skin test
finds running in from the canvas's edge (or from a margin read as the table, which cuts an arm
off) stay covered whatever the fill's colour says (`edge_occluders`, `arms_kept`); and a part of
an occluder's mask over which the board's printed grid lines show is lit fill, not an occluder
(`lined_parts_dropped`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .hexapod_colour import NK, close_gaps
from .hexapod_lines import lines_within
from .hexapod_windows import (
    EMPTY_CODE,
    K_CODE,
    SIDE_STEPS,
    cell_windows,
    gather,
    row_medians,
    window_index,
)

# an occluder's mask this far (cells) beyond a cell's large window lies beside it
NEAR_HAND = 0.25

DARK_SLEEVE = 0.2    # a black sleeve's largest channel: at most this share of the white's


def tile_in_gap(code: np.ndarray, own: np.ndarray, px: int, margin: int, rows: int,
                cols: int, cells: np.ndarray, size: int, max_hand: float) -> np.ndarray:
    """True for each of `cells` (flat indices; `code`, each one's reading as a CODES index)
    read as a coloured kind while the occluder's own pixels (`own`, before closing) cover less
    than `max_hand` of its window of side `size`: only the closing of the gaps between a
    hand's parts covers it. That closing stands for an arm's lit middle, clipped flat and pale
    between its shaded edges; such a middle shows no kind's ink with an insect's relief in it
    (what every stage needs to name a kind), so a cell read so there shows its card's own
    tile, not the hand. An empty or dung-beetle reading there is not trusted: a clipped arm's
    middle looks like light fill, a dark sleeve like a black tile."""
    return _kinds_clear(code, own, px, margin, rows, cols, cells, size,
                        lambda windows: windows.mean(axis=1) < max_hand)


def kind_clear_of_hand(code: np.ndarray, hand: np.ndarray, px: int, margin: int, rows: int,
                       cols: int, cells: np.ndarray, size: int) -> np.ndarray:
    """True for each of `cells` (flat indices; `code`, each one's reading as a CODES index)
    read as a coloured kind while the occluder mask `hand` reaches no pixel of its window of
    side `size` (the small window about its middle): the hand lies over the cell's edge only.
    A card lies on the grid at most a third of a cell off, and the tile its kind is read from
    fills the middle, so what the hand covers at the edge cannot change that reading (a hand's
    skin would have to reach the middle to be taken for a tile's hue). An empty or dung-beetle
    reading is not trusted so (as in `tile_in_gap`): a card may lie under the hand beside a
    middle of fill, and a dark sleeve looks like a black tile."""
    return _kinds_clear(code, hand, px, margin, rows, cols, cells, size,
                        lambda windows: ~windows.any(axis=1))


def _kinds_clear(code: np.ndarray, mask: np.ndarray, px: int, margin: int, rows: int,
                 cols: int, cells: np.ndarray, size: int,
                 clear: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """True for each of `cells` (flat indices; `code`, each one's reading as a CODES index)
    read as a coloured kind whose window of side `size` in the occluder `mask` is `clear`
    (given the windows, kind cells x window pixels; all of them where `mask` is empty): the
    frame shared by `tile_in_gap` and `kind_clear_of_hand`, which trust no empty or
    dung-beetle reading so."""
    out = np.zeros(len(cells), bool)
    kind = code < NK
    if not kind.any():
        return out
    if not mask.any():
        out[kind] = True
        return out
    windows = cell_windows(mask, px, margin, rows, cols, size, cells=cells[kind])
    out[np.flatnonzero(kind)[clear(windows)]] = True
    return out


# `lined_parts_dropped`: a mask's part must hold at least this many of the grid lines' samples
# (a side's line is some 17) for the lines seen in it to speak, and show them along this share
LINED_SAMPLES = 34
LINED_SHARE = 0.5


def lined_parts_dropped(hand: np.ndarray, own: np.ndarray, grey: np.ndarray, px: int,
                        margin: int, rows: int, cols: int, min_line: float
                        ) -> tuple[np.ndarray, np.ndarray]:
    """The occluder masks (`hand`, closed, and `own`, its own pixels; uint8 canvases) without
    their connected parts over which the board's printed grid lines show (`lines_within` in
    `grey`: along `LINED_SHARE` of the `LINED_SAMPLES` or more line samples wholly within the
    part). A hand, an arm or a sleeve is opaque and hides the lines under it (a pale hand's
    shading dips along a few samples, not half), while board fill that a warm lamp, its white
    clipped in a channel, tints as far as skin shows them as printed: the masks took it for
    skin, and every cell under it would be hidden or doubted for a hand beside it."""
    count, lab = cv2.connectedComponents(hand)
    if count <= 1:
        return hand, own
    keep = hand.copy()
    for k in range(1, count):
        part = (lab == k).view(np.uint8)
        if lines_within(grey, part, px, margin, rows, cols, min_line,
                        LINED_SAMPLES) >= LINED_SHARE:
            keep[part > 0] = 0
    if np.array_equal(keep, hand):
        return hand, own
    return keep, own & keep


def dark_occluder_dung(code: np.ndarray, own: np.ndarray, raw_v: np.ndarray,
                       white: np.ndarray, px: int, margin: int, rows: int, cols: int,
                       size: int) -> np.ndarray:
    """Flat indices of the cells read as a dung beetle (`code`, CODES indices) that a black
    occluder reaches: the occluder's own pixels (`own`, not the gaps closed between its parts)
    lie in the cell's window of side `size` grown by an eighth of a cell each way, and half or
    more of them are as dark as black ink, at most `DARK_SLEEVE` of the `white` in their
    largest channel (`raw_v`). A black sleeve is as dark as the beetle's black tile, and the
    mask stops short where the sleeve no longer stands out from the board (its rounded end over
    lit fill): black there with lit fill beside it reads as the tile with its grey beetle. Skin,
    even shaded, and lighter cloth beside a real black tile leave it read."""
    dung = np.flatnonzero(code == K_CODE)
    if not len(dung):
        return dung
    grown = size + 2 * max(1, round(0.125 * px))
    at = window_index(own.shape, px, margin, rows, cols, grown, cells=dung)
    on = gather(own, at) > 0
    dark = on & (gather(raw_v, at) <= DARK_SLEEVE * float(np.max(white)))
    return dung[on.any(axis=1) & (dark.sum(axis=1) >= 0.5 * on.sum(axis=1))]


# a tile is at most a cell's area (less its card's paper gutter): black over more of the grid
# than this many cells is no tile
TILE_CELLS = 1.5
# dark grey cloth in `black_from_beyond`: each channel at most this share of the white's
# (a dark grey sleeve reads about a quarter of it), and the channels' shares this close
CLOTH_DARK = 0.35
CLOTH_TINT = 0.06
# ... and the cell's part of the cloth at least this share of the cloth's middle level
CLOTH_SAME = 0.7
# ... after an opening this share of a cell wide (lines and outlines gone)
CLOTH_OPEN = 0.25
# ... its colour measured on the canvas smoothed over this share of a cell
CLOTH_SMOOTH = 0.2


def black_from_beyond(code: np.ndarray, raw_v: np.ndarray, white: np.ndarray, px: int,
                      margin: int, rows: int, cols: int, size: int,
                      planes: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                      ) -> np.ndarray:
    """Flat indices of the cells read as a dung beetle (`code`, CODES indices) whose black is
    no tile's: half or more of the pixels of their window of side `size` that are as dark as
    black ink (at most `DARK_SLEEVE` of the `white` in their largest channel, `raw_v`) belong
    to a black region that runs in from the canvas's outer edge (within `EDGE_BAND`) and covers
    more than `TILE_CELLS` cells' area of the grid. A dung beetle's black is printed on its
    tile, inside its card's paper gutter, a cell at most; black cloth lying over the board
    comes from beyond it, and the occluder masks miss it when it is neutral (the local gain
    takes its flat middle for fill in a shadow), so its end over lit fill looks like the black
    tile with its grey beetle. Given the canvas's `planes` (B, G, R), dark grey cloth counts
    too: a region so running in whose every channel is at most `CLOTH_DARK` of the white's
    and within `CLOTH_TINT` of the others (neutral under the lamp; a tile dark in its largest
    channel is coloured; both measured on the canvas smoothed over `CLOTH_SMOOTH` of a cell,
    since in so dark a picture the sensor's noise and JPEG speckle tint single pixels and break
    a flat sleeve into pieces that no longer reach the edge), wider than `CLOTH_OPEN` of a cell
    (a dim picture's printed lines are as dark and neutral, and join a tile to the edge), when
    the cell's part of it is as light as the region's middle (`CLOTH_SAME`): a sleeve is one
    flat grey, while a deep shadow running in over the board leaves a black tile within it far
    darker than the shaded fill about it."""
    dung = np.flatnonzero(code == K_CODE)
    if not len(dung):
        return dung
    at = window_index(raw_v.shape, px, margin, rows, cols, size, cells=dung)
    black = raw_v <= DARK_SLEEVE * float(np.max(white))
    out = _from_beyond(black.view(np.uint8), px, margin, rows, cols, at)[0]
    if planes is not None and not out.all():
        # measured on the canvas smoothed over a fifth of a cell: a sleeve is one flat grey,
        # while the sensor's noise and JPEG speckle tint a dark pixel here and there
        smooth = max(3, round(CLOTH_SMOOTH * px)) | 1
        share = [cv2.blur(p, (smooth, smooth)) * (1.0 / max(float(w), 4.0))
                 for p, w in zip(planes, white, strict=True)]
        top = cv2.max(cv2.max(share[0], share[1]), share[2])
        low = cv2.min(cv2.min(share[0], share[1]), share[2])
        grey = ((top <= CLOTH_DARK) & (top - low <= CLOTH_TINT)).view(np.uint8)
        # opened: the board's printed lines and a card's black outline are dark grey too, and
        # thin; a sleeve is wide
        k = max(3, round(CLOTH_OPEN * px)) | 1
        grey = cv2.morphologyEx(grey, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        cloth, lab = _from_beyond(grey, px, margin, rows, cols, at)
        inside = (slice(margin, margin + rows * px), slice(margin, margin + cols * px))
        for j in np.flatnonzero(cloth & ~out):
            win = gather(lab, at[j:j + 1])[0]
            part = np.bincount(win[win > 0]).argmax()
            whole = np.median(top[inside][lab[inside] == part])
            out[j] = np.median(gather(top, at[j:j + 1])[0][win == part]) \
                >= CLOTH_SAME * whole
    return dung[out]


def _from_beyond(dark: np.ndarray, px: int, margin: int, rows: int, cols: int,
                 at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each window (`at`, `window_index` rows), whether half or more of its `dark` pixels
    (uint8 mask) belong to a dark region running in from the canvas's outer edge (within
    `EDGE_BAND`) over more than `TILE_CELLS` cells' area of the grid; and the regions' labels."""
    k = EDGE_BAND
    lab = np.zeros(dark.shape, np.int32)
    if not (dark[:k].any() or dark[-k:].any() or dark[:, :k].any() or dark[:, -k:].any()):
        return np.zeros(len(at), bool), lab
    n, lab = cv2.connectedComponents(dark, connectivity=8)
    edge = np.zeros(n, bool)
    for side in (lab[:k], lab[-k:], lab[:, :k], lab[:, -k:]):
        edge[side] = True
    edge[0] = False
    if not edge.any():
        return np.zeros(len(at), bool), lab
    grid = lab[margin:margin + rows * px, margin:margin + cols * px]
    edge &= np.bincount(grid.reshape(-1), minlength=n) > TILE_CELLS * px * px
    win = gather(lab, at)
    cloth = edge[win].sum(axis=1)
    return (cloth > 0) & (cloth >= 0.5 * (win > 0).sum(axis=1)), lab


# an occluder within this many px of the canvas's edge runs in from beyond it (the masks'
# opening may leave an arm's region a pixel or two short of the edge)
EDGE_BAND = 3


def edge_occluders(own: np.ndarray, beyond: np.ndarray | None = None) -> np.ndarray:
    """The parts of the occluder mask `own` (uint8) that run in from the canvas's outer edge
    (8-connected regions reaching within `EDGE_BAND` of it), or of `beyond` when given
    (`hexapod_colour.arm_entries`: that edge and the inner line of a margin read as the table,
    where the masks cut an arm over a wooden table off): a hand or arm comes from beyond the
    board, a lamp's pool or a cast on the fill lies within it."""
    if not own.any():
        return own
    n, lab = cv2.connectedComponents(own, connectivity=8)
    edge = np.zeros(n, bool)
    k = EDGE_BAND
    for side in (lab[:k], lab[-k:], lab[:, :k], lab[:, -k:]):
        edge[side] = True
    if beyond is not None:
        near = cv2.dilate(beyond, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
        edge[lab[near > 0]] = True
    edge[0] = False
    return edge[lab].view(np.uint8)


def arms_kept(hand: np.ndarray, own: np.ndarray, kept: np.ndarray, px: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """The occluder masks (`hand`, `own`) found under the fill's colour, with the occluder
    pixels found under the clipped white itself that run in from the canvas's outer edge
    (`kept`, `edge_occluders` of the masks found under it; closed over gaps again, as
    `occluder_masks` closes them). A hand or arm comes from beyond the board, so what the
    clipped white's skin test finds reaching the edge stays covered whatever the fill says (a
    lit hand's pale rim may lose its cast against the fill's colour); a lamp's pool or a cast
    on the fill within the board is dropped."""
    if not kept.any():
        return hand, own
    own = own | kept
    return hand | close_gaps(own, px), own


# `unblack_dung`: a dung beetle's black tile is printed black ink, a tenth of the paper or less,
# and the board fill at 0.89 of it: lit alike, the tile's darkest tenth lies far below the fill's
# middle, and a shadow's edge between them (0.45 of the light at its deepest) keeps it at a
# fifth of it; this share of the fill's middle or more is no black print
DUNG_BLACK = 0.5
DUNG_FLOOR_Q = 0.1       # the tile's black: this quantile of its large window's largest channel


def unblack_dung(code: np.ndarray, raw_v: np.ndarray, px: int, margin: int, rows: int,
                 cols: int, small: int, large: int) -> np.ndarray:
    """Flat indices of the cells read as a dung beetle (`code`, CODES indices) whose black is
    no black print: the darkest `DUNG_FLOOR_Q` of their large window (side `large`, in the
    canvas's largest channel `raw_v`) is `DUNG_BLACK` or more of the middle (small window, side
    `small`) of the cells beside them across a side read empty (their median). Black ink lies
    far below the board fill lit alike, and a shadow's edge between the two dims the fill at
    most to about half; what reads as a black tile with a grey beetle while no darker than
    the fill beside it is fill in a deep shadow with a streak of the lamp's glare over it
    (or a tile the glare lifts: '?' either way, never a wrong code)."""
    dung = np.flatnonzero(code == K_CODE)
    if not len(dung):
        return dung
    empty = code == EMPTY_CODE
    if not empty.any():
        return dung[:0]
    r, c = np.divmod(dung, cols)
    beside = [[rr * cols + cc for rr, cc in ((i + dr, j + dc) for dr, dc in SIDE_STEPS)
               if 0 <= rr < rows and 0 <= cc < cols and empty[rr * cols + cc]]
              for i, j in zip(r.tolist(), c.tolist(), strict=True)]
    keep = np.array([len(b) > 0 for b in beside])
    if not keep.any():
        return dung[:0]
    dung = dung[keep]
    beside = [b for b, k in zip(beside, keep.tolist(), strict=True) if k]
    win = cell_windows(raw_v, px, margin, rows, cols, large, cells=dung)
    q = int(DUNG_FLOOR_Q * (win.shape[1] - 1))
    floor = np.partition(win, q, axis=1)[:, q]
    fill_cells = np.unique(np.concatenate([np.array(b) for b in beside]))
    mids = dict(zip(fill_cells.tolist(), row_medians(
        cell_windows(raw_v, px, margin, rows, cols, small, cells=fill_cells)).tolist(),
        strict=True))
    fill = np.array([row_medians(np.array([mids[i] for i in b])) for b in beside])
    return dung[floor >= DUNG_BLACK * fill]
