"""Reading the 6 x 6 cells of one located Hexapod display case. The grid (plus half a cell of
margin) is resampled through the case's homography onto a square canvas of `px_per_cell` pixels per
cell (warped at a multiple and shrunk with area averaging when the camera sees the cells much
bigger), labelled pixel by pixel (`hexapod_colour`; when the case's white clipped in all three
channels, so that it tells nothing of the light's colour, the colour is the grid's bright fill's
read below the clip, `fill_white`, with the occluders that the clipped white's own skin test
finds running in from the canvas's edge left out of it and kept covered, `_arms_kept`), and every
cell is judged at once from label counts and brightness quantiles in two windows about its centre
(`decide`): a small one (0.45 cell) that stays on the top card even when cards lie a third of a cell
off the grid, and a large one (0.8 cell) for the tile's structure. A kind needs its hue over most of
the small window, both its ink and its dark insect body in the large one (a sleeve of one flat
colour has no insect), and little else; a dung beetle needs black with its grey beetle in it; an
empty cell the light board fill. Pixels' saturation alone (`tint_levels`) backs up the labels where
a residual cast, the local gain, clipping or JPEG speckle push grey off its labels: a beetle whose
lit pixels are mostly no more saturated than grey, on a neutral black tile, is a dung beetle, and a
flat, not dark, greyish window (the small one flat will do when the large one shows no black) is
empty board fill. A cell undecided at its centre (a card edge there) is tried with the small window
nudged 0.15 cell each way and takes a code only when two nudges agree and none differs (a kind only
when its hue shows over a fifth of the band about the centre, `centre_shows`: nudges past an edge
near the centre see the tile beyond it); failing that, it is anchored on the band of a quarter cell
about its centre, which shows the top card's own tile however the cards lie (`anchored`): one kind's
hue there, over a good share of the large window, with an insect's relief in brightness and some of
the kind's ink (a dung beetle under a cast takes a kind's hue, never its ink), names the kind when
no nudge differs. Still undecided, a centre band of light fill only is an empty cell that a
neighbouring card reaches into (`anchored_empty`), and a cell that is one kind's hue and ink but
shows no dark body — its brightest channel clipped — names the kind when the insect's relief shows
in the two lesser channels (`lesser_relief`); again
only when no nudge differs (for the fill, a nudge that sees a card differs only when the one
nudged the other way does not read fill: a neighbour's card reaches in from one side,
`nudges_allow_empty`). Still undecided and not under a hand, the cell is looked for a card
lying off the grid (`tile_offsets`): the whole tile of one card that holds the cell's centre,
found by its own outline (its hue's region, ringed by the card's paper, a tile's size and solid),
is the cell's,
since a card a third of a cell off reaches no other cell's centre; the cell is judged as above
with every window centred on that tile (`read_at`: a kind the anchoring names there must show its
ink in the small window, inside the tile) and takes the code only when it names the tile's own
hue, or, where no stage names anything there (a blurred or washed-out print whose insect shows
no relief), when the tile's small window is its coloured kind's hue and ink and the band about
the cell's centre its hue (`tile_hue`: the outline, well inside the canvas, tells the tile from
a flat sleeve of its colour); a centre beyond the top card's tile (its gutter, its edge, a tile
cut short by a card over it) stays '?'. Still undecided, a dung beetle whose black tile a cast
tints off the neutral labels (its dark pixels take a kind's body hue or OTHER) is read as one
when the black
counted by brightness and saturation (dark, less saturated than ink: a kind's dark body keeps its
ink's saturation) meets the cast rule (`cast_dung`). Still undecided, a cell whose board's printed
grid lines show along two opposite sides, on lit fill either side of each, is empty (`bare_board`):
a card over its middle would hide one side of each pair, whatever colour the fill reads (a white
clipped in a channel leaves the fill's colour unmeasured there, and it reads tinted, as skin). A
cell read empty whose
middle is much dimmer than lit fill (it reads as fill only through the local gain, which takes a
flat grey sleeve lying over the cards for fill in a shadow as well; beside an occluder's mask,
measured in the channels the white does not clip), or tinted against the white (the fill is printed
neutral; a pale hand lit near the clip keeps a faint
warmth of skin), is '?' unless the board's printed grid line shows along one of its sides, with
the fill either side of it lit alike: a shadow dims the lines, a sleeve or hand hides them, and a
sleeve's edge running along a line puts the sleeve on one side of it; so is an unlined one whose
pixels clip in two channels (their colour unmeasured) joined to such a tinted cell, the same
hand's lit middle; so is one whose lines show along one side or two adjacent ones only and
that joins such an unlined cell across a side with no trace of its line, their middles lit
alike (a pale sleeve's edge along a line, a card's border beside a sleeve, or a sleeve's end
short of a side shows a line on fill along that side, but the cloth runs on over both middles:
`_sleeve_run`); and so is one whose middle is as dark as black cloth, lines or none (at that
level a printed line's dip is within the sensor's noise: `_unlined_dim_empty`). A cell read as
a dung beetle that a black occluder's own pixels reach is '?': a black sleeve's end beyond the
mask looks like the black tile with its grey beetle (`_dark_occluder_dung`); so is one whose
black runs on from beyond the board over more of the grid than a tile, the masks missing the
neutral cloth (`_black_from_beyond`). A cell that a hand or sleeve covers
(`occluder_masks`) is '?' — unless the board's printed grid lines show along all four of its sides
(`lines_all_round`): a hand is opaque and reaches a cell across a side, so lines seen all round mean
the mask took fill for skin (a lamp's pool, a cast left on it); unless it reads as a coloured kind
and only the closing of the gaps between the occluder's parts covers it (`_tile_in_gap`: that
closing stands for an arm's clipped, flat middle, which shows no printed insect); or unless it reads
empty and its lines show along two opposite sides with board fill beside them (`lines_across`: a
card, two cells or more across and at most a third of a cell off, hides one of each pair, so no card
lies there; looked for in the channels the white leaves below the clip, `line_grey`) — as is a cell
read empty that glare covers (under a white clipped in no channel, lit paper and fill stay below the
clip, so a window clipped in all three channels over a share of it is the lamp's specular
reflection, which washes a card out to something as pale and flat as fill: `_glare_unknown`), a cell
any part of which lies beyond the frame's edge (`off_frame`: the warp smears the edge pixels over
it), and anything else unclear — never a guess.
Two-cell insects are then named half by half (`name_halves`): a run of stag cells down a column
pairs from the top, a run of moth cells along a row from the left, when the run is closed by
known cells; when it touches a '?', the cells' own drawings decide (a stag's head shows ink and
few pale wing-case highlights, pale pixels as saturated as ink being ink beside a brighter patch,
not highlights; a moth's body lies on its partner's side) or the run stays '?'.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache, partial, reduce

import cv2
import numpy as np

from .hexapod_colour import (
    BODY,
    CLIP,
    DARK,
    DIM,
    FAINT,
    GREYISH,
    INK,
    KINDS,
    LIGHT,
    MID,
    N_LABELS,
    N_TINTS,
    NK,
    OTHER,
    PALE,
    TINTED,
    ColourParams,
    Pixels,
    case_white,
    clipped_channels,
    close_gaps,
    colour_unknown,
    fill_white,
    label_pixels,
    normalise,
    occluder_masks,
    select,
    tint_levels,
)
from .hexapod_markers import LAYOUT, CaseLayout, CasePose
from .observation import UNKNOWN

EMPTY = "."
STAG, MOTH = KINDS.index("S"), KINDS.index("M")


@dataclass(frozen=True)
class CellParams:
    """Tunables of the cell reader."""

    px_per_cell: int = 24
    margin_cells: float = 0.5
    small: float = 0.45            # window sides, in cells
    large: float = 0.8
    kind_share: float = 0.6        # a kind's share of the small window
    max_foreign: float = 0.2       # other kinds and OTHER in the small window
    min_ink: float = 0.1           # ink and body shares in the large window
    min_body: float = 0.03
    nudge: float = 0.15            # undecided cells are tried this far off their centre
    core: float = 0.25             # the band about the centre that always shows the top card
    core_share: float = 0.8        # an anchoring kind's share of that band
    anchor_share: float = 0.4      # its share (any level) of the large window
    max_relief: float = 0.6        # its pixels' 10th / 90th brightness percentile: an insect
    max_hand: float = 0.05         # a cell whose large window shows this much hand is hidden
    min_line: float = 0.03         # a printed grid line's dip below the fill beside it
    max_glare: float = 0.15        # an empty cell whose large window is this much specular glare
    max_grey: float = 0.76         # a dung beetle's middle is at most this bright, fill more
    half_margin: float = 0.08      # evidence needed to name a half without the run's parity
    max_tinted: float = 0.5        # a dung beetle: share of its lit pixels that are TINTED
    min_black: float = 0.15        # its black tile: DARK + DIM share of the large window
    max_faint: float = 0.15        # an empty cell: share of FAINT or TINTED pixels
    min_flat: float = 0.7          # its large window's 15th / 85th brightness percentile (K: 0.45)
    min_fill: float = 0.5          # and that 15th percentile
    max_fill_black: float = 0.02   # or its small window that flat, DARK + DIM of the large at most
    min_beetle: float = 1.5        # a dung beetle's small window: 85th / 15th brightness at least
    max_cast_ink: float = 0.1      # a tinted dung beetle: any kind's ink share of its small window
    min_anchor_ink: float = 0.015  # an anchored kind's ink share of the large window
    min_core_kind: float = 0.2     # a kind the nudges agree on: its hue's share of the core band
    dim_fill: float = 0.8          # an empty cell's middle dimmer than this share of the white
    fill_tint: float = 0.1         # or more saturated than this against it (fill is neutral)
    fill_line: float = 0.5         # shows its printed line along this share of a side at least
    line_balance: float = 0.8      # the fill either side of it: the darker this share of the other
    blown_unlit: float = 0.05      # white clipped in all three: an empty cell showing no line,
    # with this share of its small window clipped in all three channels or more, is lit (LIGHT)
    # over its large window but this share at most
    colour: ColourParams = field(default_factory=ColourParams)


DEFAULT = CellParams()


@dataclass(frozen=True, eq=False)
class CaseRead:
    """One case's cells as read, with the evidence."""

    grid: tuple[tuple[str, ...], ...]
    confidence: np.ndarray          # (rows, cols) 0..1, 0 where '?'
    canvas: np.ndarray              # BGR float32 canvas as seen
    labels: np.ndarray              # uint8 labels of the canvas
    px: int
    margin: int
    white: np.ndarray               # the case's white (BGR)
    # (rows, cols) the rule that made each '?' cell '?' ('' where read): evidence for
    # debugging and the bench's breakdown, never read by the reader itself
    why: tuple[tuple[str, ...], ...] | None = None


def canvas_to_image(pose: CasePose, px: float, margin_cells: float,
                    layout: CaseLayout = LAYOUT) -> np.ndarray:
    """3 x 3 homography: canvas px (`px` per cell, `margin_cells` around the grid) -> image."""
    k = layout.cell_mm / px
    off = (0.5 - margin_cells * px) * k
    return pose.homography @ np.array([[k, 0.0, off], [0.0, k, off], [0.0, 0.0, 1.0]])


def rectify(frame: np.ndarray, pose: CasePose, params: CellParams = DEFAULT,
            layout: CaseLayout = LAYOUT) -> np.ndarray:
    """The case's grid plus its margin as a float32 BGR canvas of `px_per_cell` px per cell."""
    return _warp(frame, pose, params, layout).astype(np.float32)


def _warp(frame: np.ndarray, pose: CasePose, params: CellParams = DEFAULT,
          layout: CaseLayout = LAYOUT) -> np.ndarray:
    """`rectify`'s canvas in the frame's own type (uint8 BGR)."""
    px = params.px_per_cell
    m = round(params.margin_cells * px)
    n_x, n_y = layout.cols * px + 2 * m, layout.rows * px + 2 * m
    f = int(min(3, max(1, round(pose.cell_px(layout) / (1.6 * px) + 0.4))))
    H = canvas_to_image(pose, px * f, params.margin_cells, layout)
    src = _bgra_source(frame, H, (n_x * f, n_y * f))
    out = cv2.warpPerspective(frame if src is None else src, H, (n_x * f, n_y * f),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    if f > 1:
        out = cv2.resize(out, (n_x, n_y), interpolation=cv2.INTER_AREA)
    return out if src is None else cv2.cvtColor(out, cv2.COLOR_BGRA2BGR)


SOURCE_PAD = 4      # px around the bounds of what the warp samples (bilinear reads one beyond)


def _bgra_source(frame: np.ndarray, H: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
    """The part of `frame` (BGR uint8) that warping through `H` (canvas -> image) onto a canvas
    of `size` (width, height) samples, as BGRA in an array of the frame's origin, cut short at
    that part's right and bottom ends unless the frame ends there (the pixels outside the part
    are never read; every pixel the warp reads, its border replication too, is the frame's).
    OpenCV warps four channels in about half the time of three, with the same values in each,
    and the conversion of the part costs less than that half. None (warp the frame as it is)
    for another frame type, or when a canvas corner maps behind the camera (the image of the
    canvas then need not lie within its corners' bounds)."""
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        return None
    w, h = size
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [0, h - 1, 1], [w - 1, h - 1, 1]],
                       np.float64) @ H.T
    if not (corners[:, 2] > 0).all():
        return None
    # the canvas is the convex hull of its corners, and so (a perspective map in front of the
    # camera keeps lines straight) its image is that of theirs
    xy = corners[:, :2] / corners[:, 2:]
    if not np.isfinite(xy).all():
        return None
    xs, ys = xy.T.tolist()
    fh, fw = frame.shape[:2]
    # (plain Python on these few numbers: NumPy's calls on scalars cost more than the rest)
    x0 = min(max(math.floor(min(xs)) - SOURCE_PAD, 0), fw - 1)
    y0 = min(max(math.floor(min(ys)) - SOURCE_PAD, 0), fh - 1)
    x1 = min(max(math.ceil(max(xs)) + SOURCE_PAD + 1, x0 + 1), fw)
    y1 = min(max(math.ceil(max(ys)) + SOURCE_PAD + 1, y0 + 1), fh)
    out = np.empty((y1, x1, 4), np.uint8)
    part = out[y0:y1, x0:x1]
    # OpenCV writes into the view it is given (and returns it); were it ever to write a new
    # array instead, the frame is warped as it is
    return out if cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2BGRA, dst=part) is part \
        else None


@lru_cache(maxsize=64)
def _window_index(shape: tuple[int, int], px: int, margin: int, rows: int, cols: int,
                  size: int, shift: tuple[int, int]) -> np.ndarray:
    """(rows * cols, size * size) flat indices into an image of `shape` of the size x size
    window about each cell's centre, moved by `shift` (see `cell_windows`): the same few
    windows are gathered for every case, so they are worked out once."""
    half = size // 2
    idx = np.arange(rows * cols)
    r, c = idx // cols, idx % cols
    y0 = np.clip(np.round(margin + (r + 0.5) * px - half).astype(int) + shift[1], 0,
                 shape[0] - size)
    x0 = np.clip(np.round(margin + (c + 0.5) * px - half).astype(int) + shift[0], 0,
                 shape[1] - size)
    d = np.arange(size)
    flat = (y0[:, None] + d)[:, :, None] * shape[1] + (x0[:, None] + d)[:, None, :]
    flat = flat.reshape(rows * cols, size * size).astype(np.intp)
    flat.flags.writeable = False
    return flat


def _gather(img: np.ndarray, index: np.ndarray) -> np.ndarray:
    """`img`'s values at flat `index` (one take from the flattened image)."""
    return np.ascontiguousarray(img).reshape(-1).take(index)


def window_index(shape: tuple[int, ...], px: int, margin: int, rows: int, cols: int,
                 size: int, shifts: tuple[tuple[int, int], ...] = ((0, 0),),
                 cells: np.ndarray | None = None) -> np.ndarray:
    """Flat indices of the windows `cell_windows` takes, for each shift in turn (stacked)."""
    out = [_window_index((int(shape[0]), int(shape[1])), px, margin, rows, cols, size,
                         (int(dx), int(dy))) for dx, dy in shifts]
    if cells is not None:
        cells = np.asarray(cells).astype(np.intp, copy=False)   # a list, even an empty one
        out = [i[cells] for i in out]
    return out[0] if len(out) == 1 else np.concatenate(out)


def cell_windows(img: np.ndarray, px: int, margin: int, rows: int, cols: int, size: int,
                 shift: tuple[int, int] = (0, 0), cells: np.ndarray | None = None
                 ) -> np.ndarray:
    """(cells, size * size) values of `img` in a size x size window about each cell's centre
    (moved by `shift` pixels, x then y), for every cell or the flat indices `cells`."""
    return _gather(img, window_index(img.shape, px, margin, rows, cols, size, (shift,), cells))


def histograms(win: np.ndarray, n_labels: int = N_LABELS) -> np.ndarray:
    """(windows, n_labels) shares of each label in each row of `win` (labels 0 .. n_labels-1)."""
    n, size2 = win.shape
    # offsets added in place to the index array bincount wants anyway (no temporaries)
    idx = win.astype(np.intp)
    idx += (np.arange(n) * n_labels)[:, None]
    shares = np.bincount(idx.ravel(), minlength=n * n_labels).reshape(n, n_labels) \
        .astype(np.float32)
    shares /= float(size2)
    return shares


def quantiles(win: np.ndarray) -> np.ndarray:
    """(windows, 3): the 15th, 50th and 85th percentile of each row of `win`."""
    n = win.shape[1]
    ks = [int(0.15 * (n - 1)), int(0.5 * (n - 1)), int(0.85 * (n - 1))]
    # the same order statistics as a partition: NumPy's vectorised sort is many times faster
    # than a three-way partition of these short rows
    return np.sort(win, axis=1)[:, ks]


def cell_histograms(labels: np.ndarray, px: int, margin: int, rows: int, cols: int,
                    size: int, shift: tuple[int, int] = (0, 0), cells: np.ndarray | None = None,
                    n_labels: int = N_LABELS) -> np.ndarray:
    """(cells, n_labels) shares of each label (0 .. n_labels - 1) in a size x size window about
    each cell's centre (see `cell_windows`)."""
    return histograms(cell_windows(labels, px, margin, rows, cols, size, shift, cells), n_labels)


def cell_quantiles(v: np.ndarray, px: int, margin: int, rows: int, cols: int, size: int,
                   shift: tuple[int, int] = (0, 0), cells: np.ndarray | None = None
                   ) -> np.ndarray:
    """(cells, 3): the 15th, 50th and 85th percentile of brightness in each cell's window."""
    return quantiles(cell_windows(v, px, margin, rows, cols, size, shift, cells))


KIND_OF = np.full(256, -1, np.int64)    # a label's kind index (-1: not a kind's hue)
KIND_OF[:3 * NK] = np.arange(3 * NK) % NK
KIND_OF.flags.writeable = False

CODES = (*KINDS, "K", EMPTY, UNKNOWN)
K_CODE, EMPTY_CODE, UNKNOWN_CODE = len(KINDS), len(KINDS) + 1, len(KINDS) + 2


def decide(h: np.ndarray, hl: np.ndarray, qs: np.ndarray, ql: np.ndarray,
           params: CellParams = DEFAULT, tint: np.ndarray | None = None,
           black: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(code index into CODES, confidence) of every cell (any leading shape) from its
    small-window (h) and large-window (hl) label shares, brightness quantiles (qs, ql: 15th,
    50th, 85th percentile) and small-window tint-level shares (`tint`, see
    `hexapod_colour.tint_levels`). A kind needs its hue over most of the small window, little
    else, and both ink and dark insect body in the large window. A dung beetle's cell is dark
    (its black tile) with light in it (the grey beetle, the paper gutter): in the large window
    the 15th percentile is at most 0.45 of the 85th, its grey beetle in the middle is darker
    than paper or board fill, and the small window shows both beetle and black (its 85th
    percentile at least `min_beetle` times its 15th: a shadow's edge across fill leaves the
    middle in flat shade); the beetle is neutral, or, when a colour cast the white did not
    remove tints it (labels of a pale kind or OTHER), at least mostly not TINTED while no
    kind's hue covers half the small window, no kind's ink more than `max_cast_ink` of it (a
    cast never tints a grey to an ink's saturation) and the black tile is neutral DARK / DIM
    over `min_black` of the large window (or `black`, that share measured otherwise: see
    `cast_dung`). An empty cell is light board fill: neutral light labels,
    or — when the local gain darkens it to MID or speckle and clipping give it pale labels —
    a large window as flat as fill (`min_flat`, no black), or a small window as flat with next
    to no black in the large one (`max_fill_black`: a neighbouring card's paper or lit fill past a
    shadow's edge brightens the large window's top end, never its dark end), not dark
    (`min_fill`) and a small window with hardly a pixel more saturated than grey (`max_faint`).
    Anything else is '?'."""
    chroma = h[..., INK:INK + NK] + h[..., BODY:BODY + NK] + h[..., PALE:PALE + NK]
    k = chroma.argmax(axis=-1)
    same = chroma.max(axis=-1)             # the value at `k`
    all_chroma = chroma.sum(axis=-1)
    neutral = h[..., DARK] + h[..., DIM] + h[..., MID] + h[..., LIGHT]
    foreign = 1.0 - same - neutral
    ink_l, body_l = _at_kind(hl, INK, k), _at_kind(hl, BODY, k)
    is_kind = (same >= params.kind_share) & (foreign <= params.max_foreign) & \
        (ink_l >= params.min_ink) & (body_l >= params.min_body)
    chroma_l = (hl[..., INK:INK + NK] + hl[..., BODY:BODY + NK] + hl[..., PALE:PALE + NK]
                ).sum(axis=-1)
    q15, q85 = ql[..., 0], ql[..., 2]
    contrast = q15 / np.maximum(q85, 1e-3)
    # the grey beetle lies in the middle of its black tile, so the small window about the
    # centre holds both (`min_beetle`); a shadow's edge across board fill leaves the middle in
    # flat shade and the lit fill beyond it at the large window's side
    dung_shape = (q15 <= 0.4) & (contrast <= 0.45) & (q85 >= 0.45) & \
        (qs[..., 1] <= params.max_grey) & (qs[..., 2] >= params.min_beetle * qs[..., 0])
    is_dung = dung_shape & (all_chroma <= 0.2) & (h[..., OTHER] <= 0.15) & \
        (chroma_l <= 0.35) & (hl[..., OTHER] <= 0.15)
    light_fill = (h[..., LIGHT] >= 0.75) & (h[..., LIGHT] + h[..., MID] >= 0.8) & \
        (all_chroma <= 0.2) & (h[..., OTHER] <= 0.1) & (h[..., DARK] + h[..., DIM] <= 0.05) & \
        (qs[..., 1] > params.max_grey)
    is_empty = light_fill
    if tint is not None:
        lit = tint[..., GREYISH] + tint[..., FAINT] + tint[..., TINTED]
        # a cast tints a grey faintly, never to an ink's saturation: a window with a kind's
        # ink in it is a coloured tile (blurred or half lit), not a tinted dung beetle
        is_dung |= dung_shape & (lit > 0.0) & (tint[..., TINTED] <= params.max_tinted * lit) & \
            (same < 0.5) & \
            ((hl[..., DARK] + hl[..., DIM] if black is None else black) >= params.min_black) & \
            (h[..., INK:INK + NK].max(axis=-1) <= params.max_cast_ink)
        # a neighbouring card's paper or lit fill past a shadow's edge may brighten the large
        # window's top end: a small window as flat is as good when none of the large one is
        # black (a dung beetle's tile always shows its black about the grey beetle)
        flat = (contrast >= params.min_flat) | \
            (qs[..., 0] >= params.min_flat * qs[..., 2]) & \
            (hl[..., DARK] + hl[..., DIM] <= params.max_fill_black)
        is_empty = light_fill | (tint[..., FAINT] + tint[..., TINTED] <= params.max_faint) & \
            flat & (q15 >= params.min_fill) & (h[..., DARK] + h[..., DIM] <= 0.05)
    code = np.where(is_kind, k, np.where(is_dung, K_CODE, np.where(is_empty, EMPTY_CODE,
                                                                   UNKNOWN_CODE)))
    conf = np.where(is_kind, np.minimum(same, 1.0), np.where(
        is_dung, np.clip((0.55 - contrast) / 0.2, 0.0, 1.0),
        np.where(is_empty, np.where(light_fill, h[..., LIGHT], contrast), 0.0)))
    return code, conf


def cast_dung(v: np.ndarray, sat: np.ndarray, hs: np.ndarray, hl: np.ndarray, qs: np.ndarray,
              ql: np.ndarray, ts: np.ndarray, px: int, margin: int, rows: int, cols: int,
              cells: np.ndarray, params: CellParams = DEFAULT) -> np.ndarray:
    """Which of `cells` (flat indices; hs, hl, qs, ql, ts: every cell's centre-window evidence
    as `decide` takes it) are a dung beetle under a colour cast the white did not remove, its
    black tile counted by brightness and saturation instead of by label: dark (below `dim_v`)
    and less saturated than ink (`ink_sat`, the labels' own bound for a kind's ink). A cast
    tints the black ink's dark pixels (their hue then takes a kind's body label or OTHER, so
    the neutral DARK / DIM share falls short of `min_black`) but never to an ink's saturation;
    a kind's dark insect body keeps its ink's saturation (0.66 and up in print), so it is not
    counted. Every other test of `decide`'s cast rule holds unchanged (the grey beetle mostly
    not TINTED, no kind's hue over half the small window, no kind's ink in it)."""
    large = round(params.large * px)
    at = window_index(v.shape, px, margin, rows, cols, large, cells=cells)
    grey = (_gather(v, at) < params.colour.dim_v) & \
        (_gather(sat, at) < params.colour.ink_sat)
    black = np.maximum(grey.mean(axis=1), hl[cells, DARK] + hl[cells, DIM])
    return decide(hs[cells], hl[cells], qs[cells], ql[cells], params, ts[cells], black
                  )[0] == K_CODE


def _at_kind(shares: np.ndarray, level: int, k: np.ndarray) -> np.ndarray:
    """`shares[..., level + k]` for each window's kind index `k` (any leading shape); rows
    picked by plain indexing where the shares are one row a window (a fraction of the cost of
    `take_along_axis` on these short arrays)."""
    if shares.ndim == 2:
        return shares[np.arange(len(k)), level + k]
    return np.take_along_axis(shares[..., level:level + NK], k[..., None], -1)[..., 0]


def centre_shows(labels: np.ndarray, px: int, margin: int, rows: int, cols: int,
                 cells: np.ndarray, code: np.ndarray, params: CellParams = DEFAULT
                 ) -> np.ndarray:
    """True for each of `cells` (flat indices) whose `code` (index into CODES, as the nudged
    windows agree on it) shows at its centre: a kind's hue (any level) over at least
    `min_core_kind` of the band about the centre (`core`, 0.25 cell); a dung beetle or an
    empty cell is not checked (a grey beetle reads as light as fill there). The nudges decide a
    cell whose centre a card's edge runs near; the card on top there lies at most a third of a
    cell off its place, so its tile holds the centre and some of its hue shows in that band
    however near the edge. Two nudged windows past an edge near the centre see the tile beyond
    it (another card's, or the one under the top card) and may agree on its kind while the band
    shows the top card's own tile (a dung beetle's black tile): that kind is not the cell's."""
    out = np.ones(len(cells), bool)
    kind = code < NK
    if not kind.any():
        return out
    core = cell_histograms(labels, px, margin, rows, cols, round(params.core * px),
                           cells=cells[kind])
    k = code[kind]
    hue = _at_kind(core, INK, k) + _at_kind(core, BODY, k) + _at_kind(core, PALE, k)
    out[kind] = hue >= params.min_core_kind
    return out


def anchored(labels: np.ndarray, v: np.ndarray, px: int, margin: int, rows: int, cols: int,
             cells: np.ndarray, params: CellParams = DEFAULT, shift: tuple[int, int] = (0, 0)
             ) -> np.ndarray:
    """Kind index (or -1) of each of `cells` judged from the band about its centre that shows
    the top card's own tile however the cards lie (`core`, 0.25 cell): when that band is one
    kind's hue (`core_share`, no neutral, little else), the kind covers a good share of the
    large window (`anchor_share`, at any level) and its pixels there have relief (an insect:
    the 10th brightness percentile at most `max_relief` of the 90th) and some of its ink shows
    (`min_anchor_ink` of the large window at ink level), it is that kind. This decides cells
    whose small window a neighbouring card's edge crosses, or whose ink / body levels a light
    mislabels, without trusting anything beyond the tile; a flat sleeve, a black tile under a
    colour cast (black in the band, or the cast's hue at body and pale levels only) or another
    card's tile stay undecided. Every window is moved `shift` px (x, y) off the centre when
    given (a tile off the grid, `read_at`)."""
    core = cell_histograms(labels, px, margin, rows, cols, round(params.core * px), shift,
                           cells)
    chroma = core[:, INK:INK + NK] + core[:, BODY:BODY + NK] + core[:, PALE:PALE + NK]
    k = chroma.argmax(axis=1)
    same = chroma.max(axis=1)
    neutral = core[:, DARK] + core[:, DIM] + core[:, MID] + core[:, LIGHT]
    large = round(params.large * px)
    lab = cell_windows(labels, px, margin, rows, cols, large, shift, cells)
    mine = KIND_OF[lab] == k[:, None]
    n = mine.sum(axis=1)
    vals = np.sort(select(mine, cell_windows(v, px, margin, rows, cols, large, shift, cells),
                          np.inf), axis=1)
    at = np.arange(len(k))
    lo = vals[at, (0.1 * np.maximum(n - 1, 0)).astype(int)]
    hi = vals[at, (0.9 * np.maximum(n - 1, 0)).astype(int)]
    # a tile is printed in its kind's ink, some of which shows at ink level whatever the light;
    # a dung beetle's black tile and grey beetle under a cast the white did not remove take a
    # kind's hue as body and pale levels only, never its ink
    ink = (lab == INK + k[:, None]).mean(axis=1)
    ok = (same >= params.core_share) & (neutral <= 0.05) & \
        (1.0 - same - neutral <= params.max_foreign) & \
        (n >= params.anchor_share * large * large) & (lo <= params.max_relief * hi) & \
        (ink >= params.min_anchor_ink)
    return np.where(ok, k, -1)


def lesser_relief(canvas: np.ndarray, labels: np.ndarray, h: np.ndarray, hl: np.ndarray,
                  white: np.ndarray, px: int, margin: int, rows: int, cols: int,
                  cells: np.ndarray, params: CellParams = DEFAULT,
                  shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Kind index (or -1) of each of `cells` whose windows name a kind by everything but the
    insect's dark body (its hue over most of the small window, little else, its ink over the
    large window) when the kind's pixels in the large window show an insect's relief in the
    two lesser channels of the raw canvas (their sum's 10th percentile at most `max_relief` of
    its 90th, that 90th at least 0.15 of the white's lesser two). A tile's brightest channel
    (red and gold ink: red) clips or carries too little of the drawing for the body to be
    darker there, but the other two still show it; a flat sleeve or cloth of a kind's colour
    stays flat in every channel. The large window is moved `shift` px (x, y) off the centre
    when given (`h` and `hl` are then the moved windows' shares)."""
    chroma = h[:, INK:INK + NK] + h[:, BODY:BODY + NK] + h[:, PALE:PALE + NK]
    k = chroma.argmax(axis=1)
    same = chroma.max(axis=1)
    neutral = h[:, DARK] + h[:, DIM] + h[:, MID] + h[:, LIGHT]
    ink_l = np.take_along_axis(hl[:, INK:INK + NK], k[:, None], 1)[:, 0]
    cand = (same >= params.kind_share) & (1.0 - same - neutral <= params.max_foreign) & \
        (ink_l >= params.min_ink)
    out = np.full(len(cells), -1, np.int64)
    if not cand.any():
        return out
    large = round(params.large * px)
    lab = cell_windows(labels, px, margin, rows, cols, large, shift, cells[cand])
    # each channel gathered straight from the interleaved canvas (no copy of its planes)
    at = window_index(canvas.shape, px, margin, rows, cols, large, (shift,), cells[cand]) * 3
    flat = np.ascontiguousarray(canvas).reshape(-1)
    bgr = [flat.take(at + i) for i in range(3)]
    vals = bgr[0] + bgr[1] + bgr[2] - np.maximum(np.maximum(bgr[0], bgr[1]), bgr[2])
    mine = KIND_OF[lab] == k[cand][:, None]
    n = mine.sum(axis=1)
    vals = np.sort(select(mine, vals, np.inf), axis=1)
    at = np.arange(len(n))
    lo = vals[at, (0.1 * np.maximum(n - 1, 0)).astype(int)]
    hi = vals[at, (0.9 * np.maximum(n - 1, 0)).astype(int)]
    # no white seen (too few quiet-zone samples in the frame): the canvas's bright end stands in
    ref = white if white.max() >= 16.0 else np.full(3, np.percentile(canvas, 95), np.float32)
    floor = 0.15 * float(np.sort(ref)[:2].sum())
    ok = (n >= params.anchor_share * large * large) & (hi >= floor) & \
        (lo <= params.max_relief * hi)
    out[np.flatnonzero(cand)[ok]] = k[cand][ok]
    return out


def anchored_empty(labels: np.ndarray, tints: np.ndarray, hl: np.ndarray, px: int, margin: int,
                   rows: int, cols: int, cells: np.ndarray, params: CellParams = DEFAULT
                   ) -> np.ndarray:
    """True for each of `cells` whose band about its centre (`core`, 0.25 cell) is light board
    fill — all LIGHT and hardly a pixel more saturated than grey (`max_faint`) — while the fill
    still covers a good share of the large window (`anchor_share`, LIGHT) with no kind's ink
    over more of it than the fill. A neighbouring card a third of a cell off the grid reaches
    into an empty cell's small window, never its centre band: a card's tile covers its cell's
    middle 0.9 whatever way it lies, and no tile's centre band is light neutral (a dung beetle's
    grey beetle is darker, an insect's pale parts keep their hue)."""
    size = round(params.core * px)
    core = cell_histograms(labels, px, margin, rows, cols, size, cells=cells)
    tint = cell_histograms(tints, px, margin, rows, cols, size, cells=cells, n_labels=N_TINTS)
    ink = hl[:, INK:INK + NK] + hl[:, BODY:BODY + NK] + hl[:, PALE:PALE + NK]
    return (core[:, LIGHT] >= 0.98) & \
        (tint[:, FAINT] + tint[:, TINTED] <= params.max_faint) & \
        (hl[:, LIGHT] >= params.anchor_share) & (ink.max(axis=1) < hl[:, LIGHT]) & \
        (hl[:, OTHER] <= 0.1)


def nudges_allow_empty(tries: np.ndarray) -> np.ndarray:
    """(cells,) True where the nudged windows' readings (`tries`, 4 x cells: CODES indices,
    nudged +x, -x, +y, -y) let a centre band of light fill (`anchored_empty`) stand: each reads
    empty or nothing, or, where one reads a card, the one nudged the other way reads empty.
    A neighbouring card a third of a cell off reaches into the cell from one side, so only
    the windows nudged towards it see it. The one card whose tile's middle is light neutral
    is the dung beetle (its grey beetle), and a centre band on that beetle lies well inside
    the black tile (0.9 cell, the beetle 0.35 across within it, the card at most a third of a
    cell off), which then surrounds the band on every side: every nudged window (reaching
    0.375 cell out) shows its black, none reads light fill."""
    quiet = (tries == UNKNOWN_CODE) | (tries == EMPTY_CODE)
    fill = tries == EMPTY_CODE
    # (+x, -x) and (+y, -y) are opposite pairs
    across = fill[[1, 0, 3, 2]]
    return (quiet | across).all(axis=0)


TILE = 0.9          # a tile's side on the card, in cells (the paper gutter takes 0.05 each side)
TILE_TURN = 8.0     # degrees a card may lie turned off the grid
TILE_SOLID = 0.65   # a tile's pixels fill this share of its outline's box at least
MAX_SHIFT = 0.45    # a tile's centre lies at most this far (cells, per axis) off its cell's


def _filled(mask: np.ndarray) -> np.ndarray:
    """`mask` (uint8 0/1) with its holes filled: what no path from beyond the canvas reaches
    through the mask's background (an insect's dark body, a beetle on its black tile)."""
    out = np.pad(mask, 1)
    cv2.floodFill(out, None, (0, 0), 2, flags=4)
    return (out[1:-1, 1:-1] != 2).view(np.uint8)


def tile_offsets(labels: np.ndarray, px: int, margin: int, rows: int, cols: int,
                 cells: np.ndarray, params: CellParams = DEFAULT
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(class, offset) of each of `cells`: the whole tile of a card lying off the grid that holds
    the cell's centre, found by its own outline, and the offset (dx, dy px) of that tile's
    centre from the cell's. A tile is a rounded square (`TILE`) of one kind's hue (a dung
    beetle's: black with a grey beetle; a stag's or moth's spans its two cells), ringed by its
    card's paper gutter and, at the cut line, the card's dark border. The pixels of the hue
    that is most of the band about the centre, and those of the black tile (`_tile_masks`), make
    regions (holes filled, eroded by a pixel: a blurred bridge across a gutter is cut); the one
    whose box holds the centre is the tile when it is a tile's size, turned up to `TILE_TURN`,
    and solid (`_tile_boxes`: a tile partly under another card is cut short, two tiles run
    together are too big), centred at most `MAX_SHIFT` off the cell. The centre then lies on
    that tile's card, a gutter and the border (0.085 cell) or more inside its edge, and a card
    off its place by less than half a cell reaches no other cell's centre: the card on top at
    the centre is the last one laid on the cell, and that tile is its tile for the cell. All six
    tiles of a card move with it, so the offset is the card's there. Class: a kind index,
    `K_CODE` for the black tile, or -1 where no one such tile is found (the centre beyond a
    tile, on a tile cut short or run into another, or both a coloured and a black tile)."""
    n = len(cells)
    cls, off = np.full(n, -1, np.int64), np.zeros((n, 2), np.int64)
    if not n:
        return cls, off
    # the kind whose hue is most of the band about the centre, and the black tile, are tried
    core = cell_histograms(labels, px, margin, rows, cols, round(params.core * px), cells=cells)
    chroma = core[:, INK:INK + NK] + core[:, BODY:BODY + NK] + core[:, PALE:PALE + NK]
    want = np.where(chroma.max(axis=1) > 0.0, chroma.argmax(axis=1), -1)
    r, c = np.divmod(cells, cols)
    cy = margin + (r + 0.5) * px - 0.5
    cx = margin + (c + 0.5) * px - 0.5
    # the regions are made in the part of the canvas two cells about the centres and more: a
    # tile that holds a centre (a two-cell one too, `MAX_SHIFT` off) lies within it, and one
    # that runs out of it is too big (none is cut short by the cut)
    reach = 2 * px + 2
    y0, x0 = max(int(cy.min()) - reach, 0), max(int(cx.min()) - reach, 0)
    y1 = min(int(cy.max()) + reach + 2, labels.shape[0])
    x1 = min(int(cx.max()) + reach + 2, labels.shape[1])
    part = labels[y0:y1, x0:x1]
    cut = (x0 > 0, y0 > 0, x1 < labels.shape[1], y1 < labels.shape[0])
    cy, cx = cy - y0, cx - x0
    found = np.zeros(n, np.int64)
    for k in [*np.unique(want[want >= 0]).tolist(), NK]:
        todo = np.flatnonzero(want == k) if k < NK else np.arange(n)
        long_w, long_h = (px if k == MOTH else 0), (px if k == STAG else 0)
        for mask in _tile_masks(part, k):
            if not len(todo):
                break
            x, y, w, h = _tile_boxes(mask, px, long_w, long_h, cut)
            if not len(x):
                continue
            inside = (x <= cx[todo, None]) & (cx[todo, None] <= x + w - 1) & \
                (y <= cy[todo, None]) & (cy[todo, None] <= y + h - 1)
            j = inside.argmax(axis=1)
            dx = x[j] + (w[j] - 1) / 2.0 - cx[todo]
            dy = y[j] + (h[j] - 1) / 2.0 - cy[todo]
            # a two-cell tile's middle lies on the line between its halves
            dx -= np.where(dx >= 0.0, 0.5, -0.5) * long_w
            dy -= np.where(dy >= 0.0, 0.5, -0.5) * long_h
            ok = (inside.sum(axis=1) == 1) & (np.maximum(abs(dx), abs(dy)) <= MAX_SHIFT * px)
            hit = todo[ok]
            found[hit] += 1
            cls[hit] = K_CODE if k == NK else k
            off[hit] = np.c_[np.round(dx[ok]), np.round(dy[ok])]
            todo = todo[~ok]
    # a coloured tile and a black one both about the centre: no one tile holds it
    cls[found > 1] = -1
    return cls, off


def read_at(labels: np.ndarray, v: np.ndarray, tints: np.ndarray, canvas: np.ndarray,
            white: np.ndarray, px: int, margin: int, rows: int, cols: int, cell: int,
            shift: tuple[int, int], params: CellParams = DEFAULT) -> int:
    """Code index (into CODES) of `cell` judged with all its windows moved `shift` px (x, y) off
    its centre, onto the tile of a card lying off the grid (`tile_offsets`): `decide`, else
    `anchored`, else `lesser_relief`, as a cell on the grid is judged at its centre. A kind
    `anchored` names must show its ink in the small window (`min_anchor_ink`): centred on the
    tile found, that window lies well inside it (a region a tile's size takes in at most a few
    pixels beyond its tile), so its ink is the tile's own, while the large window's ink that
    `anchored` counts may be a strip of the card beneath beside the tile. A dung beetle under a
    cast the white did not remove takes a kind's hue on its black tile and grey beetle, never
    its ink."""
    small, large = round(params.small * px), round(params.large * px)
    at_s = window_index(labels.shape, px, margin, rows, cols, small, (shift,), [cell])
    at_l = window_index(labels.shape, px, margin, rows, cols, large, (shift,), [cell])
    hs, hl = histograms(_gather(labels, at_s)), histograms(_gather(labels, at_l))
    got = int(decide(hs, hl, quantiles(_gather(v, at_s)), quantiles(_gather(v, at_l)), params,
                     histograms(_gather(tints, at_s), N_TINTS))[0][0])
    if got != UNKNOWN_CODE:
        return got
    cells = np.array([cell])
    kind = int(anchored(labels, v, px, margin, rows, cols, cells, params, shift)[0])
    if kind >= 0 and hs[0, INK + kind] < params.min_anchor_ink:
        return UNKNOWN_CODE
    if kind < 0:
        kind = int(lesser_relief(canvas, labels, hs, hl, white, px, margin, rows, cols, cells,
                                 params, shift)[0])
    return kind if kind >= 0 else UNKNOWN_CODE


# a whole tile found off the grid (`tile_hue`) lies at least this share of a cell inside the
# canvas's outer edge: a card a third of a cell off reaches 0.22 cell short of it, while a
# sleeve comes in from beyond the board, across the edge (a bound `MAX_SHIFT` and the core band
# about the centre keep as well; stated here, where the reading rests on the outline alone)
TILE_EDGE = 0.1


def tile_hue(labels: np.ndarray, px: int, margin: int, rows: int, cols: int, cell: int,
             k: int, shift: tuple[int, int], params: CellParams = DEFAULT) -> bool:
    """Whether `cell`, whose centre the whole tile of kind index `k` holds (`tile_offsets`:
    one card's tile, found by its own outline — its hue's region a tile's size, solid, turned
    little, ringed by its card's paper — centred `shift` px, x and y, off the cell's), is of
    that kind when its insect shows no relief (a blurred or washed-out print, its dark body
    as light as the rest: `read_at` names no kind): the small window centred on the tile is
    the kind's hue over `kind_share` with `max_foreign` at most of other hues and shows the
    kind's ink (`min_anchor_ink`), and the band about the cell's own centre (`core`) is its
    hue over `core_share` (the centre lies on the tile, not on its gutter or edge). The
    insect's relief tells a tile from a flat sleeve of its colour; the outline does as much
    here: a sleeve comes from beyond the board, so its region runs across the canvas's edge
    (a tile lies `TILE_EDGE` inside it at least) and is longer than a tile, and one over a
    tile joins it or cuts it short. The dung beetle's black tile is not read so."""
    if k >= NK:
        return False
    h, w = labels.shape
    r, c = divmod(cell, cols)
    half = TILE * px / 2.0 + TILE_EDGE * px
    cx, cy = margin + (c + 0.5) * px + shift[0], margin + (r + 0.5) * px + shift[1]
    if min(cx - half, cy - half) < 0 or cx + half > w or cy + half > h:
        return False
    small = cell_histograms(labels, px, margin, rows, cols, round(params.small * px), shift,
                            np.array([cell]))[0]
    hue = small[INK + k] + small[BODY + k] + small[PALE + k]
    neutral = small[DARK] + small[DIM] + small[MID] + small[LIGHT]
    core = cell_histograms(labels, px, margin, rows, cols, round(params.core * px),
                           cells=np.array([cell]))[0]
    return bool(hue >= params.kind_share and 1.0 - hue - neutral <= params.max_foreign and
                small[INK + k] >= params.min_anchor_ink and
                core[INK + k] + core[BODY + k] + core[PALE + k] >= params.core_share)


def _tile_masks(labels: np.ndarray, k: int) -> tuple[np.ndarray, ...]:
    """The masks (bool) a tile of kind index `k` (`NK`: the dung beetle's black tile) is looked
    for in: a kind's ink and body levels (its saturated print; a gutter's paper blurred with the
    tiles beside it takes the pale level) and then every level of its hue; the black tile's
    neutral DARK, DIM and MID (its grey beetle)."""
    if k == NK:
        return ((labels == DARK) | (labels == DIM) | (labels == MID),)
    ink = (labels == INK + k) | (labels == BODY + k)
    return (ink, ink | (labels == PALE + k))


def _tile_boxes(mask: np.ndarray, px: int, long_w: int, long_h: int,
                cut: tuple[bool, bool, bool, bool] = (False, False, False, False)
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, w, h) of the boxes of `mask`'s regions (holes filled, eroded by a pixel) that are
    a tile's size and solid (see `tile_offsets`); `long_w` / `long_h` px added to a tile's side
    along the axis a two-cell tile runs. A region that reaches a side `cut` (left, top, right,
    bottom: `mask` is part of a larger picture there) is left out."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(
        cv2.erode(_filled(mask.view(np.uint8)), np.ones((3, 3), np.uint8)), connectivity=4)
    x, y, w, h, area = stats[1:].T
    # the box of a turned tile is larger, that of one eroded by a pixel each side (and
    # blurred) smaller
    sin, cos = math.sin(math.radians(TILE_TURN)), math.cos(math.radians(TILE_TURN))
    tw, th = TILE * px + long_w, TILE * px + long_h
    tile = (w >= tw - 4) & (w <= tw * cos + th * sin - 1) & (h >= th - 4) & \
        (h <= tw * sin + th * cos - 1) & (area >= TILE_SOLID * w * h)
    # (the erosion leaves a pixel's border: a region reaching the side ends one short of it)
    rows, cols = mask.shape
    tile &= ~((cut[0] & (x <= 1)) | (cut[1] & (y <= 1)) | (cut[2] & (x + w >= cols - 1)) |
              (cut[3] & (y + h >= rows - 1)))
    return x[tile], y[tile], w[tile], h[tile]


LINE_SPAN = (0.15, 0.85)    # the stretch of each side sampled: clear of the lines' crossings
LINE_SIDE = 3               # px (at `px_per_cell` 24) from the line to the fill sampled beside it
LINE_SHARE = 0.8            # a side's line must dip at this share of its samples
# a cell read empty under an occluder's mask is read when its line dips along this share of
# each of two opposite sides (`lines_across`): the hand's edge or its shade over the fill beside
# a side, or a lit finger's rim, hides a part of a line it runs near, and a card on the cell
# hides the whole of one side of each pair
HAND_LINE_SHARE = 0.5


@lru_cache(maxsize=16)
def _line_index(shape: tuple[int, ...], px: int, margin: int, rows: int, cols: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Flat indices (cells, 4 * n) of the samples along each cell's four sides (top, bottom,
    left, right; `LINE_SPAN` of each): the two pixels on either side of the line's position
    (where the printed line falls, between them), and pixels `LINE_SIDE` px out on each side."""
    t = np.arange(round(LINE_SPAN[0] * px), round(LINE_SPAN[1] * px) + 1)
    d = max(2, round(LINE_SIDE * px / 24))
    r, c = np.divmod(np.arange(rows * cols), cols)
    y0, x0 = (margin + r * px)[:, None], (margin + c * px)[:, None]
    w = shape[1]
    on_a, on_b, out_a, out_b = [], [], [], []
    for edge, across in ((y0, False), (y0 + px, False), (x0, True), (x0 + px, True)):
        along = (x0 if not across else y0) + t[None, :]
        ey = np.broadcast_to(edge, along.shape)

        def at(offset: int, ey: np.ndarray = ey, along: np.ndarray = along,
               across: bool = across) -> np.ndarray:
            y, x = (along, ey + offset) if across else (ey + offset, along)
            return np.clip(y, 0, shape[0] - 1) * w + np.clip(x, 0, w - 1)

        on_a.append(at(-1))
        on_b.append(at(0))
        out_a.append(at(-d))
        out_b.append(at(d - 1))
    idx = tuple(np.concatenate(a, axis=1).astype(np.intp) for a in (on_a, on_b, out_a, out_b))
    for a in idx:
        a.flags.writeable = False
    return idx


def lines_all_round(grey: np.ndarray, px: int, margin: int, rows: int, cols: int,
                    cells: np.ndarray, min_line: float = 0.03) -> np.ndarray:
    """True for each of `cells` (flat indices) whose four printed grid lines show along each
    side in `grey` (any brightness, e.g. the canvas's channel sum): at `LINE_SHARE` or more of
    the samples along every side, the line is darker than the fill a few pixels to either side
    by `min_line` of the brighter of the two. The lines are printed on the board under every
    card and hand; a hand over any part of a cell must cross a side (it comes from beyond the
    board), hiding the line there, so lines all round mean that nothing but what lies within
    them (a tile on the grid) covers the cell."""
    return (_side_lines(grey, px, margin, rows, cols, cells, min_line) >= LINE_SHARE) \
        .all(axis=1)


def lines_across(grey: np.ndarray, sat: np.ndarray, v: np.ndarray, px: int, margin: int,
                 rows: int, cols: int, cells: np.ndarray, min_line: float = 0.03,
                 ink_sat: float = 0.45, min_v: float = 0.5, balance: float = 0.0,
                 share: float = LINE_SHARE) -> np.ndarray:
    """True for each of `cells` (flat indices) whose printed grid lines show along two
    opposite sides (top and bottom, or left and right; see `lines_all_round`: along `share`
    of each side's samples at least), counting a
    line sample only where the pixels beside it on both sides are no ink (saturation below
    `ink_sat`) and not dark (normalised brightness `v` at least `min_v`): board fill, not the
    tiles either side of a card's dark border band; and (`balance`, see `_side_lines`) lit
    alike. A card is two cells or more across either
    way and lies at most a third of a cell off the grid, and it hides the board's lines under
    it, so a card over a cell's middle hides one of each pair of opposite sides: lines along
    two opposite sides mean that no card lies on the cell, whatever else may lie over it.
    (The card, two cells or more across, hides the far side of the pair in full, turned or
    not, so a line seen along half a side is as good as along all of it against a card; the
    share asked for only guards against noise taken for a line.)"""
    fill = _fill_beside(sat, v, px, margin, rows, cols, cells, ink_sat, min_v)
    seen = _side_lines(grey, px, margin, rows, cols, cells, min_line, fill,
                       balance) >= share
    return (seen[:, 0] & seen[:, 1]) | (seen[:, 2] & seen[:, 3])


def bare_board(grey: np.ndarray, sat: np.ndarray, v: np.ndarray, px: int, margin: int,
               rows: int, cols: int, cells: np.ndarray, params: CellParams = DEFAULT
               ) -> np.ndarray:
    """True for each of `cells` (flat indices) whose printed grid lines show in `grey` along
    two opposite sides (`lines_across`), each with board fill either side of it lit alike (the
    darker at least `line_balance` of the brighter: an occluder's or a card's edge along the
    line has it on one side only). A card, two cells or more across either way and at most a
    third of a cell off the grid, hides one side of each opposite pair of every cell whose
    middle it covers, so no card lies on such a cell: it is empty, whatever its fill's colour
    reads (a white clipped in a channel leaves the fill's colour unmeasured there) and whatever
    lies over it."""
    return lines_across(grey, sat, v, px, margin, rows, cols, cells, params.min_line,
                        params.colour.ink_sat, params.colour.dim_v, params.line_balance)


def _fill_beside(sat: np.ndarray, v: np.ndarray, px: int, margin: int, rows: int, cols: int,
                 cells: np.ndarray, ink_sat: float = 0.45, min_v: float = 0.5) -> np.ndarray:
    """(cells, 4 * n) bool: the line samples of `cells` (`_line_index`) with board fill on both
    sides of the line, no ink (saturation below `ink_sat`) and not dark (normalised brightness
    `v` at least `min_v`): a printed grid line, not a card's dark border band beside its
    tile."""
    _, _, out_a, out_b = (a[cells] for a in _line_index(sat.shape, px, margin, rows, cols))
    fill = np.ones(out_a.shape, bool)
    for img, lo, hi in ((sat, -np.inf, ink_sat), (v, min_v, np.inf)):
        flat = np.ascontiguousarray(img, np.float32).reshape(-1)
        for at in (out_a, out_b):
            x = flat.take(at)
            fill &= (x >= lo) & (x < hi)
    return fill


def line_grey(planes: tuple[np.ndarray, np.ndarray, np.ndarray], white: np.ndarray
              ) -> np.ndarray:
    """The canvas brightness to find the printed grid lines in: the sum of the channels
    (`planes`, B G R) in which the case's `white` lies below the clip, or of all three when it
    clips in none or in all. A printed line darkens the paper in every channel, but in one the
    light clips (warm light: red and green first) the fill beside it and the line itself
    read the clip alike: that channel shows no line, and added in, it only thins the dip that
    the unclipped channels show."""
    keep = [planes[k] for k in _unclipped(white)]
    if len(keep) in (0, 3):
        return planes[0] + planes[1] + planes[2]
    return keep[0] if len(keep) == 1 else keep[0] + keep[1]


def _side_lines(grey: np.ndarray, px: int, margin: int, rows: int, cols: int,
                cells: np.ndarray, min_line: float, where: np.ndarray | None = None,
                balance: float = 0.0, even: bool = False
                ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """(cells, 4): the share of samples along each side (top, bottom, left, right) of each of
    `cells` where the printed line shows in `grey` (`lines_all_round`), counting only the
    samples `where` (cells, 4 * n) allows, when given, and whose two sides are alike: the
    darker at least `balance` of the brighter (a line printed on the fill has the same fill
    under the same light either side of it; an occluder's edge lying along it has the
    occluder on one side). With `even`, also (cells, 4) the share of each side's samples with
    one surface either side (`where`, alike) when their mean dip is below `COVER_DIP` of
    `min_line`, else 0: one flat surface running across the line's position (cloth over it)."""
    on_a, on_b, out_a, out_b = (a[cells] for a in _line_index(grey.shape, px, margin, rows,
                                                              cols))
    flat = np.ascontiguousarray(grey, np.float32).reshape(-1)
    on = np.minimum(flat.take(on_a), flat.take(on_b))
    a, b = flat.take(out_a), flat.take(out_b)
    lo, hi = np.minimum(a, b), np.maximum(np.maximum(a, b), 1e-3)
    dip = (lo - on) >= min_line * hi
    alike = lo >= balance * hi
    if balance > 0.0:
        dip &= alike
    if where is not None:
        dip &= where
    shares = dip.reshape(len(cells), 4, -1).mean(axis=2)
    if not even:
        return shares
    same = alike if where is None else alike & where
    same = same.reshape(len(cells), 4, -1)
    rel = ((lo - on) / hi).reshape(len(cells), 4, -1)
    depth = (rel * same).sum(axis=2) / np.maximum(same.sum(axis=2), 1)
    return shares, np.where(depth < COVER_DIP * min_line, same.mean(axis=2), 0.0)


def half_evidence(labels: np.ndarray, px: int, margin: int, rows: int, cols: int,
                  sat: np.ndarray | None = None, ink_sat: float = 0.45
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(stag, moth) per-cell scores: stag > 0 looks like a head (ink, few pale wing-case
    highlights), < 0 like wing cases; moth > 0 has its body on the right (a left half), < 0 on
    the left. Given the pixels' saturation `sat`, a pale stag pixel counts as a highlight only
    when it is less saturated than ink (`ink_sat`)."""
    whole, left, right = _half_index(labels.shape, px, margin, rows, cols)
    flat = np.ascontiguousarray(labels).reshape(-1)
    w = flat.take(whole)
    pale = w == PALE + STAG
    if sat is not None:
        # a printed highlight is the ink thinned with white, so less saturated than the ink; a
        # pixel as saturated as ink that is only labelled pale because a brighter patch lies
        # near (glare on the head, light falling off across the tile) is ink, not a highlight
        pale &= np.ascontiguousarray(sat).reshape(-1).take(whole) < ink_sat
    # shares as counts over window sizes: the same float64 quotients as a boolean mean
    stag = _share(w == INK + STAG) - _share(pale) - 0.3
    moth = _share(flat.take(right) == BODY + MOTH) - _share(flat.take(left) == BODY + MOTH)
    return stag.reshape(rows, cols), moth.reshape(rows, cols)


@lru_cache(maxsize=16)
def _half_index(shape: tuple[int, ...], px: int, margin: int, rows: int, cols: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat indices (cells, n) of each cell's inset window (an eighth of a cell in from each
    side), and of its left and right halves' columns (`half_evidence`)."""
    inset = max(1, px // 8)
    size = px - 2 * inset
    half = size // 2
    r, c = np.divmod(np.arange(rows * cols), cols)
    y0, x0 = margin + r * px + inset, margin + c * px + inset

    def index(dx0: int, dx1: int) -> np.ndarray:
        ys = y0[:, None, None] + np.arange(size)[None, :, None]
        xs = x0[:, None, None] + np.arange(dx0, dx1)[None, None, :]
        flat = (ys * shape[1] + xs).reshape(rows * cols, -1).astype(np.intp)
        flat.flags.writeable = False
        return flat

    return index(0, size), index(0, half), index(size - half, size)


def _share(mask: np.ndarray) -> np.ndarray:
    """The share of True in each row of `mask` (as `mask.mean(axis=1)`)."""
    return np.count_nonzero(mask, axis=1) / mask.shape[1]


def name_halves(grid: list[list[str]], stag: np.ndarray, moth: np.ndarray,
                margin: float = 0.08) -> None:
    """Replace the 'S' and 'M' cells of `grid` (in place) by St/Sb and Ml/Mr, or '?'."""
    rows, cols = len(grid), len(grid[0])
    for c in range(cols):
        line = [grid[r][c] for r in range(rows)]
        for r, code in _pair(line, "S", ("St", "Sb"), stag[:, c], margin):
            grid[r][c] = code
    for r in range(rows):
        for c, code in _pair(grid[r], "M", ("Ml", "Mr"), moth[r, :], margin):
            grid[r][c] = code


def _pair(line: list[str], kind: str, names: tuple[str, str], score: np.ndarray,
          margin: float) -> list[tuple[int, str]]:
    """(index, code) for every `kind` cell of one column or row: runs pair up from their start
    (first name, second name, ...); a run next to '?' may start or end with a half whose partner
    is hidden, and then the cells' scores (> 0: first name) must pick one pairing clearly."""
    out = []
    n = len(line)
    i = 0
    while i < n:
        if line[i] != kind:
            i += 1
            continue
        j = i
        while j < n and line[j] == kind:
            j += 1
        length = j - i
        open_start = i > 0 and line[i - 1] == UNKNOWN
        open_end = j < n and line[j] == UNKNOWN
        options = []
        for shift in (0, 1):                       # 1: the first cell's partner is hidden
            if shift and not open_start:
                continue
            odd_end = (length - shift) % 2 == 1    # the last cell's partner is hidden
            if odd_end and not open_end:
                continue
            options.append([names[(k + shift) % 2] for k in range(length)])
        pick = None
        if len(options) == 1:
            pick = options[0]
        elif len(options) == 2:
            votes = [sum(score[i + k] * (1.0 if name == names[0] else -1.0)
                         for k, name in enumerate(opt)) for opt in options]
            if abs(votes[0] - votes[1]) >= 2.0 * margin * length:
                pick = options[int(np.argmax(votes))]
        out += [(i + k, pick[k] if pick else UNKNOWN) for k in range(length)]
        i = j
    return out


def _tile_in_gap(code: np.ndarray, own: np.ndarray, px: int, margin: int, rows: int,
                 cols: int, cells: np.ndarray, size: int, max_hand: float) -> np.ndarray:
    """True for each of `cells` (flat indices; `code`, each one's reading as a CODES index)
    read as a coloured kind while the occluder's own pixels (`own`, before closing) cover less
    than `max_hand` of its window of side `size`: only the closing of the gaps between a
    hand's parts covers it. That closing stands for an arm's lit middle, clipped flat and pale
    between its shaded edges; such a middle shows no kind's ink with an insect's relief in it
    (what every stage needs to name a kind), so a cell read so there shows its card's own
    tile, not the hand. An empty or dung-beetle reading there is not trusted: a clipped arm's
    middle looks like light fill, a dark sleeve like a black tile."""
    out = np.zeros(len(cells), bool)
    kind = code < NK
    if not kind.any():
        return out
    if not own.any():
        out[kind] = True
        return out
    share = cell_windows(own, px, margin, rows, cols, size, cells=cells[kind]).mean(axis=1)
    out[np.flatnonzero(kind)[share < max_hand]] = True
    return out


def _glare_unknown(grid: list[list[str]], blown: np.ndarray, px: int, margin: int, size: int,
                   max_glare: float) -> None:
    """Set to '?' (in place) the empty cells of `grid` whose window of side `size` is clipped in
    all three channels (`blown`) over `max_glare` of it or more. Call it only when the case's
    white clipped in no channel: paper and fill lit like the white then stay below the clip,
    and what clips in every channel beyond it is the lamp's specular reflection, which washes
    a card's print out to something as pale and flat as empty fill."""
    rows, cols = len(grid), len(grid[0])
    if not blown.any():
        return
    share = cell_windows(blown, px, margin, rows, cols, size).mean(axis=1)
    for i in np.flatnonzero(share >= max_glare):
        if grid[i // cols][i % cols] == EMPTY:
            grid[i // cols][i % cols] = UNKNOWN


def _unlined_dim_empty(cells: np.ndarray, planes: tuple[np.ndarray, np.ndarray, np.ndarray],
                       white: np.ndarray, grey: Callable[[], np.ndarray], pix: Pixels, px: int,
                       margin: int, size: int, rows: int, cols: int,
                       params: CellParams = DEFAULT, near: np.ndarray | None = None,
                       why: dict[int, str] | None = None) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty) to be read '?': whose middle
    (window of side `size`) is dimmer than `dim_fill` of the white (middle value of the largest
    channel over the `white`'s) or tinted (middle value of the normalised saturation in `pix`
    above `fill_tint`), while no side shows the printed grid line (`_unlined`). The board
    fill is printed at 0.89 of the white; a cell that much dimmer reads as fill only through
    the local gain, which takes a flat grey thing lying over the cards (a sleeve, dark or pale)
    for fill in a shadow just as well. The fill is printed neutral, so against the white (the
    light's colour) it reads all but untinted; a window tinted over half of it is fill under a
    second light's colour or lens blur's spill of a card beside it, or something lying over it
    (a pale hand lit near the clip keeps only a faint warmth of skin). A shadow or a second
    light dims or tints the printed lines with the fill beside them, and a card a third of a
    cell off hides one side's at most, or two adjacent ones' in part; a sleeve or hand over
    the cell hides them all. Beside an occluder (`near`, True per cell of the grid: its mask
    reaches the cell's surroundings), where a sleeve carries the arm on beyond its skin, the
    middle is measured in the channels where the white lies below the clip only
    (`_known_channels`): a clipped white is only a lower bound of the paper's reading, so a
    share of it read there is only an upper bound of the cell's. A cell whose pixels clip in
    two channels or more (`_blind`: their colour unmeasured, read as the least saturated one
    the reading allows) is '?' too when it shows no line and joins an unlined tinted cell
    through such cells (`_joined`): a pale hand's lit middle between its faintly warm, shaded
    parts. A cell whose middle is at most `DARK_SLEEVE` of the white (black cloth; the fill is
    printed at 0.89 of it) is '?' whatever its sides show: a printed line dips the fill by a few
    hundredths of its level, a level or two there, within the sensor's and JPEG's noise, so
    "lines" found on it are noise; up to `DIM_NOISE` of it, only lines along two opposite sides
    are the board's (dark grey cloth shows noise "lines" along a side). A doubted cell whose
    lines show along one side or two adjacent ones only is '?' when it joins a cell '?' so
    across a side with no trace of its line, their middles lit alike (`_sleeve_run`): one line
    shows the strip along its side to be fill, not the middle, which the cloth beside may cover.
    A light sleeve (white or light grey, 0.8-0.95 of the paper) is as bright and as neutral as
    fill, so nothing above doubts it; its one tell is the printed lines it hides: a cell lit
    below the clip (in the channels the lines are looked for in, `line_grey`) whose sides show
    no trace of their line (`CLOTH_TRACE`) and one flat surface across two sides or more
    (`COVER_FLAT`, `COVER_DIP`, `COVER_SIDES`), not glare (`COVER_LIT`), is '?' when another
    empty cell shows its lines clearly (`COVER_SEEN`: blur fades them all alike) or, where none
    does, when its colour lies off the lined fill's (`_off_fill`: the fill is printed a warm
    grey), and every lit cell read empty with lines along one side or two adjacent ones only may
    join it (`_sleeve_run`). Where such cloth, or an edge cell showing no two opposite lines,
    hides the board's dark printed frame under one flat surface (`_frame_crossed`: it runs in
    from beyond the grid), it is '?' however bright, clipped or fill-coloured it is, and
    whatever the picture's other lines show. Fill whose lines are lost to a sub-pixel
    misregistration on small cells may be left '?' too: never a wrong code."""
    if not len(cells):
        return cells
    # the largest channel over the white's, in the windows only, and its middle value
    inv = 1.0 / np.maximum(np.asarray(white, np.float32), 4.0)
    at = window_index(planes[0].shape, px, margin, rows, cols, size, cells=cells)
    raw = [_gather(p, at) for p in planes]
    ratio = [x * k for x, k in zip(raw, inv, strict=True)]
    v0 = np.maximum(np.maximum(ratio[0], ratio[1]), ratio[2])
    h = v0.shape[1] // 2
    mid = np.partition(v0, h, axis=1)[:, h]
    doubt = mid < params.dim_fill
    # as dark as black cloth: no lit board, whatever "lines" the noise shows
    unlit = mid <= DARK_SLEEVE
    known = _known_channels(white)
    if near is not None and len(known) < 3 and near[cells].any():
        vk = ratio[known[0]] if len(known) == 1 else np.maximum(ratio[known[0]],
                                                               ratio[known[1]])
        doubt |= near[cells] & (np.partition(vk, h, axis=1)[:, h] < params.dim_fill)
    tinted = np.partition(_gather(pix.sat, at), h, axis=1)[:, h] > params.fill_tint
    doubt |= tinted
    blind = _blind(raw, white) if tinted.any() else np.zeros(len(cells), bool)
    # every lit cell's sides are looked at: a pale sleeve lit as fill is doubted by its sides
    ask = ~unlit
    if not ask.any():
        _note(why, cells, unlit, "dim:unlit")
        return cells[unlit]
    unlined = unlit.copy()
    shares = np.zeros((len(cells), 4), np.float64)
    flat = np.zeros((len(cells), 4), np.float64)
    shares[ask], flat[ask] = _line_shares(cells[ask], grey, pix, px, margin, rows, cols,
                                          params, flat=True)
    lined = shares >= params.fill_line
    unlined[ask] = ~lined[ask].any(axis=1)
    # as dark as dark cloth: a "line" along one side, or two adjacent ones, is noise (a printed
    # line dips the fill by a few hundredths, a level or two here); lines along two opposite
    # sides are the board's
    noisy = ask & doubt & (mid <= DIM_NOISE)
    unlined[noisy] = ~_opposite(lined[noisy])
    out = doubt & unlined
    _note(why, cells, out & unlit, "dim:unlit")
    _note(why, cells, out & tinted, "dim:tinted")
    _note(why, cells, out, "dim:dim")
    if blind.any():
        out |= _joined(cells, tinted & unlined, blind & unlined & ~doubt, rows, cols)
        _note(why, cells, out, "dim:blind_joined")
    # light cloth as bright as fill: lit below the clip (a clipped middle shows no printed
    # line whatever lies there), no trace of a line on any side, one flat surface across two
    # sides or more, no glare (`COVER_LIT`), while another empty cell shows its lines clearly
    # (lit in the channels the lines are looked for in, `line_grey`: under a white clipped in
    # one or two channels, those where it lies below the clip; a white sleeve clips in the
    # others as the fill does, while the fill's lines still dip in these)
    below = _unclipped(white)
    top = reduce(np.maximum, [raw[k] for k in below] if 0 < len(below) < 3 else raw)
    lit = np.partition(top, h, axis=1)[:, h] < CLIP - 5.0
    if len(below) in (0, 3):
        # (under a white clipped in all three channels, or none, a cell whose least channel
        # lies well below the clip shows lines there: a pale, warm arm over a blown board)
        low = np.minimum(np.minimum(raw[0], raw[1]), raw[2])
        lit |= np.partition(low, h, axis=1)[:, h] < LIT_LOW
    cloth = ask & ~doubt & (shares <= CLOTH_TRACE).all(axis=1) & \
        ((flat >= COVER_FLAT).sum(axis=1) >= COVER_SIDES)
    # cloth that hides the board's dark frame where it runs in from beyond the grid: what the
    # lines' absence, its brightness or the clip leave in doubt, the frame settles
    edge = ask & ~_opposite(lined)
    clip = CLIP * (len(below) if 0 < len(below) < 3 else 3)    # the clip in `line_grey`
    edge[edge] = _frame_hidden(grey(), pix, px, margin, rows, cols, cells[edge], cells, clip,
                               params)
    crossed = _frame_crossed(cells, cloth, edge, rows, cols)
    cover = cloth & (mid <= COVER_LIT) & lit
    if cover.any():
        other = np.flatnonzero(ask & ~cover & _opposite(lined))
        strong = _line_shares(cells[other], grey, pix, px, margin, rows, cols,
                              replace(params, min_line=COVER_SEEN * params.min_line)) \
            if len(other) else np.zeros((0, 4))
        if not _opposite(strong >= params.fill_line).any():
            # lines too faint in this picture to tell cloth by their absence alone (blur
            # fades them all): cloth then only where its colour is not the fill's
            cover &= _off_fill(ratio, h, cover, other)
    out |= cover
    _note(why, cells, out, "dim:cover")
    out |= crossed
    _note(why, cells, out, "dim:frame")
    # joined to cloth across a side with no trace of its line: a doubted cell showing a line
    # (to any cloth), or a cell lit as fill (to light cloth only: a light sleeve's edge cells,
    # lines along one side or two adjacent ones; lit fill beside a dim sleeve's or hand's shade
    # is the fill it looks)
    weak = ~_opposite(lined) & ~unlit
    out |= _sleeve_run(cells, out, weak & doubt & ~unlined, shares, mid, rows, cols,
                       params.line_balance)
    _note(why, cells, out, "dim:sleeve_run")
    if cover.any():
        out |= _sleeve_run(cells, cover, weak & ~doubt, shares, mid, rows, cols,
                           params.line_balance)
        _note(why, cells, out, "dim:cover_run")
    if crossed.any():
        # ... and to cloth over the frame, a cell next to it only: the frame shows where the
        # cloth runs in, not how far the fill's faint lines beyond it are the cloth's
        out |= _sleeve_run(cells, crossed, weak & ~doubt, shares, mid, rows, cols,
                           params.line_balance, reach=False)
        _note(why, cells, out, "dim:frame_run")
    return cells[out]


def _frame_crossed(cells: np.ndarray, cloth: np.ndarray, entry: np.ndarray, rows: int,
                   cols: int) -> np.ndarray:
    """(len(cells),) True for each of `cells` (flat grid indices of cells read empty) marked
    `entry` (on the grid's edge, no lines along two opposite sides, the board's printed frame
    hidden under one flat surface: `_frame_hidden`) or marked `cloth` (no trace of a line on
    any side, one flat surface across two sides or more) and joined to such a cell through
    cells so marked, across their sides: cloth that runs in over the frame from beyond the
    grid, as a sleeve or an arm does."""
    if not entry.any():
        return entry
    r, c = np.divmod(cells, cols)
    grid = np.zeros((rows, cols), np.uint8)
    grid[r[cloth | entry], c[cloth | entry]] = 1
    _, lab = cv2.connectedComponents(grid, connectivity=4)
    keep = np.unique(lab[r[entry], c[entry]])
    return entry | (cloth & np.isin(lab[r, c], keep))


# `_frame_hidden`: the band (px at `px_per_cell` 24, either way from the frame's drawn position)
# searched for the board's printed frame: wide enough for the pose's misregistration under an
# uncalibrated lens, narrow enough to stay on the board's margin beyond it (0.29 cell at the
# sides) and on the cell within
FRAME_BAND = 6
# the band's profile across it (the median along the side) is one flat surface when its darkest
# point lies within this share of its brightest: the frame, printed at a quarter of the white,
# dips it by half or more however blurred; a sleeve's shading across a quarter cell, a few
# hundredths
FRAME_FLAT = 0.05
# ... and it shows plainly where it dips the band by this share below the brightest either
# side of it, along this many outer sides of the board in the same direction at least (a
# picture blown or blurred until it is faint everywhere hides it as cloth would; motion blur
# fades it across one direction only)
FRAME_SEEN = 0.12
FRAME_SIDES = 1
# the surfaces either side of a line seen, sampled this far (px at 24 a cell) from the frame's
# drawn position: the paper and the fill, whose lightness tells it from a card's dark band
FRAME_BESIDE = 3
# ... and, where the band clips, by this share: a clipped band tells only that the frame lies
# less than its dip elsewhere below the clip, so a frame a lamp's fall-off across the board can
# lift to the clip is no evidence
FRAME_SEEN_CLIPPED = 0.3


@lru_cache(maxsize=16)
def _frame_index(shape: tuple[int, ...], px: int, margin: int, rows: int, cols: int
                 ) -> np.ndarray:
    """(rows * cols, 4, k, n) flat canvas indices of the band across the board's printed frame
    along each cell's outer sides (top, bottom, left, right; -1 where the side is not the
    grid's edge): `k` offsets across the band (`FRAME_BAND` either way), `n` samples along the
    side (`LINE_SPAN`)."""
    t = np.arange(round(LINE_SPAN[0] * px), round(LINE_SPAN[1] * px) + 1)
    f = max(2, round(FRAME_BAND * px / 24))
    off = np.arange(-f, f + 1)
    out = np.full((rows * cols, 4, len(off), len(t)), -1, np.intp)
    h, w = shape[:2]
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        y0, x0 = margin + r * px, margin + c * px
        sides = ((r == 0, y0, x0, False), (r == rows - 1, y0 + px, x0, False),
                 (c == 0, x0, y0, True), (c == cols - 1, x0 + px, y0, True))
        for s, (outer, edge, start, across) in enumerate(sides):
            if not outer:
                continue
            a = edge + off[:, None] + np.zeros_like(t)[None, :]
            b = start + t[None, :] + np.zeros_like(off)[:, None]
            y, x = (b, a) if across else (a, b)
            out[i, s] = np.clip(y, 0, h - 1) * w + np.clip(x, 0, w - 1)
    out.flags.writeable = False
    return out


def _frame_hidden(grey: np.ndarray, pix: Pixels, px: int, margin: int, rows: int, cols: int,
                  cells: np.ndarray, empty: np.ndarray, clip: float,
                  params: CellParams = DEFAULT) -> np.ndarray:
    """(len(cells),) True for each of `cells` (flat grid indices) along an outer side of which
    the board's dark printed frame does not show in `grey` (`line_grey`): the band searched
    for it (`FRAME_BAND`) is one flat surface across (`FRAME_FLAT`) and no ink (saturation in
    `pix` below `ink_sat`), while the frame shows plainly (`FRAME_SEEN`, between light
    surfaces) along `FRAME_SIDES` outer sides in the same direction (motion blur fades a line
    across it only) of cells read empty (`empty`, flat grid indices: no card's edge beside
    it); where the band clips (`clip`, the clip's level in `grey`), plainly by
    `FRAME_SEEN_CLIPPED`. The frame is printed thick, at a quarter of the white, so blur or an
    exposure that leaves it plain elsewhere does not fade it to a flat surface here; a card, a
    third of a cell off at most, hides it under its tile's colour or black, which is ink or
    dark. What hides it flat comes from beyond the grid, over the board's margin: a sleeve or
    an arm (or the lamp's glare, which washes the cell's print out too). A picture blown or
    blurred until the frame is faint all round tells nothing here."""
    out = np.zeros(len(cells), bool)
    if not len(cells):
        return out
    idx = _frame_index(grey.shape, px, margin, rows, cols)
    outer = idx[:, :, 0, 0] >= 0
    at = idx[outer]                                        # (sides, k, n)
    prof = np.median(np.ascontiguousarray(grey, np.float32).reshape(-1).take(at), axis=2)
    low = prof.min(axis=1)
    flat = low >= (1.0 - FRAME_FLAT) * prof.max(axis=1)
    v, sat = (np.ascontiguousarray(x, np.float32).reshape(-1) for x in (pix.v, pix.sat))
    c = params.colour

    def light(j: int) -> np.ndarray:
        """The sides whose band at offset `j` is lit and no ink (median along the side)."""
        return (np.median(v.take(at[:, j]), axis=1) >= c.dim_v) & \
            (np.median(sat.take(at[:, j]), axis=1) < c.ink_sat)

    # a line: its darkest point below the brightest either side of it (the band's ends may
    # lie beyond the board's edge, on the table; a card's or an arm's edge across the band is
    # a step, not a line), the surfaces beside it light
    k, mid = prof.shape[1], prof.shape[1] // 2
    before = np.arange(k)[None, :] < prof.argmin(axis=1)[:, None]
    beside = np.minimum(np.where(before, prof, 0.0).max(axis=1),
                        np.where(before, 0.0, prof).max(axis=1))
    step = max(1, round(FRAME_BESIDE * px / 24))
    ends = light(mid - step) & light(mid + step)
    other = np.ones(rows * cols, bool)
    other[empty] = False
    seen, plain = np.zeros(outer.shape, bool), np.zeros(outer.shape, bool)
    seen[outer] = ends & (low <= (1.0 - FRAME_SEEN) * beside)
    plain[outer] = ends & (low <= (1.0 - FRAME_SEEN_CLIPPED) * beside)
    seen[other] = plain[other] = False
    hidden, clipped = np.zeros(outer.shape, bool), np.zeros(outer.shape, bool)
    hidden[outer] = flat & (np.median(sat.take(at[:, mid]), axis=1) < c.ink_sat)
    clipped[outer] = prof.max(axis=1) >= clip - 5.0
    # (motion blur fades a line across its direction only: the frame is judged against its
    # sides of the same direction, top and bottom or left and right)
    for pair in ((0, 1), (2, 3)):
        if seen[:, pair].sum() < FRAME_SIDES:
            hidden[:, pair] = False
        if plain[:, pair].sum() < FRAME_SIDES:
            hidden[:, pair] &= ~clipped[:, pair]
    return hidden[cells].any(axis=1)


def _off_fill(ratio: list[np.ndarray], h: int, cand: np.ndarray, fill: np.ndarray
              ) -> np.ndarray:
    """True for each candidate window (`cand`, a mask over the rows of the `ratio` windows,
    each channel over the white's) whose colour is not the board fill's: its channels' middle
    values, over their largest, lie `COVER_HUE` or more from those of the fill, the median
    over the windows `fill` (indices; cells showing their lines along two opposite sides,
    `COVER_FILLS` of them at least). The board's fill is printed a warm light grey; a sleeve
    of that very colour is left to the lines."""
    out = np.zeros(len(cand), bool)
    if len(fill) < COVER_FILLS or not cand.any():
        return out
    rows = np.concatenate([np.flatnonzero(cand), fill])
    med = np.stack([np.partition(r[rows], h, axis=1)[:, h] for r in ratio], axis=1)
    hue = med / np.maximum(med.max(axis=1, keepdims=True), 1e-3)
    ref = np.median(hue[-len(fill):], axis=0)
    far = np.abs(hue[:-len(fill)] - ref).max(axis=1) >= COVER_HUE
    out[np.flatnonzero(cand)] = far
    return out


def _note(why: dict[int, str] | None, cells: np.ndarray, mask: np.ndarray, rule: str) -> None:
    """Record (`why`, flat cell index -> rule, when given) `rule` for those of `cells` marked
    in `mask` that no earlier rule took."""
    if why is None:
        return
    for i in cells[mask].tolist():
        why.setdefault(i, rule)


def _unlined(cells: np.ndarray, grey: Callable[[], np.ndarray], pix: Pixels, px: int,
             margin: int, rows: int, cols: int, params: CellParams = DEFAULT) -> np.ndarray:
    """True for each of `cells` (flat indices) none of whose sides shows the printed grid line
    along `fill_line` of it (`_line_shares`)."""
    return (_line_shares(cells, grey, pix, px, margin, rows, cols, params)
            < params.fill_line).all(axis=1)


def _line_shares(cells: np.ndarray, grey: Callable[[], np.ndarray], pix: Pixels, px: int,
                 margin: int, rows: int, cols: int, params: CellParams = DEFAULT,
                 flat: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """(cells, 4): the share of each side (top, bottom, left, right) of each of `cells` (flat
    indices) along which the printed grid line shows in `grey()` (`line_grey`, asked for only
    then), with board fill either side of it (`_fill_beside`, in the normalised `pix`) as
    bright within `line_balance`; a side shows its line at `fill_line`. A sleeve's edge that
    lies along a side, the line seen just beyond it, is no line on fill when the sleeve on one
    side of it is much darker or brighter than the fill on the other (the fill either side of a
    printed line 1/8 cell away is lit alike; a shadow's edge dims it gradually); a pale one is
    not, and `_sleeve_run` looks at what lies on the cell's other sides. With `flat`, also each
    side's flat share (`_side_lines`' `even`)."""
    fill = _fill_beside(pix.sat, pix.v, px, margin, rows, cols, cells, params.colour.ink_sat,
                        params.colour.dim_v)
    return _side_lines(grey(), px, margin, rows, cols, cells, params.min_line, fill,
                       params.line_balance, even=flat)


def _opposite(lined: np.ndarray) -> np.ndarray:
    """(cells,) True where `lined` (cells, 4: top, bottom, left, right) holds for two opposite
    sides."""
    return (lined[:, 0] & lined[:, 1]) | (lined[:, 2] & lined[:, 3])


# a side's neighbour in the grid (row, column steps), in `_side_lines`' order
SIDE_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
# a side that cloth covers shows its printed line's dip along at most this share of it: on flat
# cloth only an odd sample dips by the line's `min_line` (sensor and JPEG noise; one of the 17
# samples of a side at 24 px a cell is 0.06), while a printed line that a shadow, blur or noise
# takes below `fill_line` still dips along a good part of the side
CLOTH_TRACE = 0.1
# Light cloth as bright as fill (`_unlined_dim_empty`'s cover): a side is flat when this share
# of its samples has one surface either side of the line's position (no ink, lit, alike within
# `line_balance`) and their mean dip there is below `COVER_DIP` of `min_line`: flat cloth dips
# only by noise, which averages out over a side's 13-17 samples, while a printed line blurred or
# faded to a trace still dips on average
COVER_FLAT = 0.8
COVER_DIP = 0.33
# a cell under cloth (its middle covered, no side showing a trace of its line) is crossed by
# the cloth along two sides at least: a cell under the sleeve's middle along four, one under
# its edge along the grid along three, a corner two
COVER_SIDES = 2
# the picture shows its printed lines at 1.5 times their least dip along two opposite sides of
# another empty cell: motion blur, defocus or a blown exposure fade every printed line of the
# picture alike (synthetic hard pictures lose them all), so where another cell shows its lines
# clearly, blur is not what hides them here
COVER_SEEN = 1.5
# a middle brighter than the white by a tenth is a specular glare on the paper, which washes its
# printed lines out; matte cloth under the same light is at most as bright as white paper
COVER_LIT = 1.1
# ... and a cell whose largest channel clips is lit when its least lies below this level
LIT_LOW = 230.0
# ... and on a picture whose lines are too faint for `COVER_SEEN`, a cell so covered is cloth
# when its colour lies this far from the lined fill's (channel shares over their largest),
# measured on this many lined cells at least
COVER_HUE = 0.03
COVER_FILLS = 2


def _sleeve_run(cells: np.ndarray, unlined: np.ndarray, weak: np.ndarray, shares: np.ndarray,
                mid: np.ndarray, rows: int, cols: int, balance: float,
                trace: float = CLOTH_TRACE, reach: bool = True) -> np.ndarray:
    """(len(cells),) True for each of `cells` (flat grid indices of cells read empty) marked
    `weak` — doubted, its printed line showing along one side or two adjacent ones only, never
    two opposite ones (`shares`, cells x 4: the share of each side along which its line shows,
    `_line_shares`) — that joins a cell marked `unlined` (a doubted cell showing no line at all:
    cloth over it) across a side showing no trace of its line (at most `trace` of it), their
    middles (`mid`, brightness against the white) lit alike within `balance`; joined again
    through the cells so found. One line says that the strip along that side is board fill, not
    that the middle is: a sleeve lying over the middle hides the lines it covers and shows those
    beyond its edge, and its edge may run along a side (a pale sleeve is lit within
    `line_balance` of the fill beyond it, so the line there passes for one on fill) or between a
    side and the middle; and beside a card, the card's cut border between its tile and the
    sleeve dips as a line does. A side with no trace of the line that the cell shares with a cell
    showing none, its middle lit as this one's, is that cloth running on over both middles. Two
    opposite sides lined mean that no card and no sleeve (wider than a cell, its edge straight
    across it) lies over the middle. Fill whose lines a deep shadow or blur takes below every
    trace beside another such cell is left '?' too: never a wrong code. Without `reach`, only
    the cells next to one marked `unlined` are found, not joined on through them."""
    out = np.zeros(len(cells), bool)
    if not (weak.any() and unlined.any()):
        return out
    at = np.full(rows * cols, -1, np.int64)
    at[cells] = np.arange(len(cells))
    r, c = np.divmod(cells, cols)
    cloth = unlined.copy()
    grow = True
    while grow:
        grow = False
        for i in np.flatnonzero(weak & ~cloth):
            for s, (dr, dc) in enumerate(SIDE_STEPS):
                rr, cc = r[i] + dr, c[i] + dc
                if shares[i, s] > trace or not (0 <= rr < rows and 0 <= cc < cols):
                    continue
                j = at[rr * cols + cc]
                if j >= 0 and (cloth if reach else unlined)[j] and \
                        min(mid[i], mid[j]) >= balance * max(mid[i], mid[j]):
                    cloth[i] = out[i] = True
                    grow = reach
                    break
    return out


def _blown_unlined_empty(cells: np.ndarray, blown: np.ndarray, grey: Callable[[], np.ndarray],
                         pix: Pixels, px: int, margin: int, rows: int, cols: int,
                         params: CellParams = DEFAULT, near: np.ndarray | None = None
                         ) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty under a white clipped in all
    three channels) to be read '?': whose small window is clipped in all three channels
    (`blown`) over `blown_unlit` of it or more, that show no printed grid line on any side
    (`_unlined`) and are not lit over their whole large window (more than `blown_unlit` of it
    below `light_v` in the normalised `pix`). Under such a white a light surface clipped in
    every channel is not measured: the board fill, a card's paper and a dung beetle's pale
    grey beetle all clip to the same flat white, so a light centre is no evidence of an empty
    cell (hard 541: a grey beetle a quarter cell off its cell read as fill); a middle measured
    below the clip is (`decide` tells fill from a beetle's grey by brightness). Bare board is:
    its printed lines, or fill lit all over the cell's middle, where a card lying over the
    cell (at most a third of a cell off) brings its tile's black or ink. Unlit pixels in the
    large window's outer ring only, next to none (`BLOWN_MIDDLE`) within its middle
    `BLOWN_INNER`, are a neighbouring card's border or edge, not the cell's own tile, when no
    occluder's mask comes near the cell (`near`, True per cell of the grid): a card on the
    cell, at most a third of a cell off, covers the band of a quarter cell about the centre
    with its tile, and a dung beetle's grey ball and body lie well inside its black tile (0.35
    cell across at most), so that black shows within the middle 0.6 cell however the card
    lies; a hand's clipped middle beside its shaded rim is the masks' to find, and is not
    released here."""
    if not len(cells):
        return cells
    small, large = round(params.small * px), round(params.large * px)
    cells = cells[cell_windows(blown, px, margin, rows, cols, small, cells=cells)
                  .mean(axis=1) >= params.blown_unlit]
    if not len(cells):
        return cells
    at = window_index(pix.v.shape, px, margin, rows, cols, large, cells=cells)
    cells = cells[(_gather(pix.v, at) < params.colour.light_v).mean(axis=1)
                  > params.blown_unlit]
    if not len(cells):
        return cells
    inner = window_index(pix.v.shape, px, margin, rows, cols, round(BLOWN_INNER * px),
                         cells=cells)
    ring = (_gather(pix.v, inner) < params.colour.light_v).mean(axis=1) <= BLOWN_MIDDLE
    if near is not None:
        ring &= ~near[cells]
    cells = cells[~ring]
    if not len(cells):
        return cells
    return cells[_unlined(cells, grey, pix, px, margin, rows, cols, params)]


# `_blown_unlined_empty`: the middle window (cells) about a cell's centre in which a card's own
# tile shows whatever way the card lies, and the share of it unlit at most (noise) when only a
# neighbour's border reaches the cell's large window
BLOWN_INNER = 0.6
BLOWN_MIDDLE = 0.02


def _unclipped(white: np.ndarray) -> list[int]:
    """The channels (BGR indices) in which `white` lies below the clip."""
    return [k for k, w in enumerate(white) if w < CLIP - 5.0]


def _known_channels(white: np.ndarray) -> list[int]:
    """The channels (BGR indices) in which `white` lies below the clip; all three when it
    clips in every one (nothing is known then, and every channel is taken alike)."""
    return _unclipped(white) or [0, 1, 2]


def _blind(raw: list[np.ndarray], white: np.ndarray) -> np.ndarray:
    """(windows,) True where half or more of a window's pixels (`raw`: B, G, R values, one row
    a window) clip in two channels or more, one of them a channel the `white` lies below the
    clip in: at most one channel of them is measured, so their colour is not (the reading is
    the least saturated colour it allows). Never under a white clipped in all three channels,
    where lit fill clips as a rule."""
    known = _unclipped(white)
    if not known:
        return np.zeros(len(raw[0]), bool)
    hot = [x >= CLIP for x in raw]
    two = hot[0].view(np.uint8) + hot[1].view(np.uint8) + hot[2].view(np.uint8) >= 2
    return (two & np.logical_or.reduce([hot[k] for k in known])).mean(axis=1) >= 0.5


def _joined(cells: np.ndarray, seed: np.ndarray, through: np.ndarray, rows: int, cols: int
            ) -> np.ndarray:
    """(len(cells),) True for each of `cells` (flat grid indices) marked `through` that joins
    a `seed` cell across a side through `through` cells only (4-connected regions of the
    grid)."""
    grid = np.zeros(rows * cols, np.uint8)
    grid[cells[seed | through]] = 1
    n, lab = cv2.connectedComponents(grid.reshape(rows, cols), connectivity=4)
    keep = np.zeros(n, bool)
    keep[lab.reshape(-1)[cells[seed]]] = True
    keep[0] = False
    return through & keep[lab.reshape(-1)[cells]]


# an occluder's mask this far (cells) beyond a cell's large window lies beside it
NEAR_HAND = 0.25

DARK_SLEEVE = 0.2    # a black sleeve's largest channel: at most this share of the white's
# a cell read empty whose middle is at most this share of the white shows the board only by its
# lines along two opposite sides (`_unlined_dim_empty`)
DIM_NOISE = 0.35


def _dark_occluder_dung(code: np.ndarray, own: np.ndarray, raw_v: np.ndarray,
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
    on = _gather(own, at) > 0
    dark = on & (_gather(raw_v, at) <= DARK_SLEEVE * float(np.max(white)))
    return dung[on.any(axis=1) & (dark.sum(axis=1) >= 0.5 * on.sum(axis=1))]


# a tile is at most a cell's area (less its card's paper gutter): black over more of the grid
# than this many cells is no tile
TILE_CELLS = 1.5
# dark grey cloth in `_black_from_beyond`: each channel at most this share of the white's
# (a dark grey sleeve reads about a quarter of it), and the channels' shares this close
CLOTH_DARK = 0.35
CLOTH_TINT = 0.06
# ... and the cell's part of the cloth at least this share of the cloth's middle level
CLOTH_SAME = 0.7
# ... after an opening this share of a cell wide (lines and outlines gone)
CLOTH_OPEN = 0.25


def _black_from_beyond(code: np.ndarray, raw_v: np.ndarray, white: np.ndarray, px: int,
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
    channel is coloured), wider than `CLOTH_OPEN` of a cell (a dim picture's printed lines
    are as dark and neutral, and join a tile to the edge), when the cell's part of it is as
    light as the region's middle (`CLOTH_SAME`): a sleeve is one flat grey, while a deep
    shadow running in over the board leaves a black tile within it far darker than the shaded
    fill about it."""
    dung = np.flatnonzero(code == K_CODE)
    if not len(dung):
        return dung
    at = window_index(raw_v.shape, px, margin, rows, cols, size, cells=dung)
    black = raw_v <= DARK_SLEEVE * float(np.max(white))
    out = _from_beyond(black.view(np.uint8), px, margin, rows, cols, at)[0]
    if planes is not None and not out.all():
        share = [p * (1.0 / max(float(w), 4.0)) for p, w in zip(planes, white, strict=True)]
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
            win = _gather(lab, at[j:j + 1])[0]
            part = np.bincount(win[win > 0]).argmax()
            whole = np.median(top[inside][lab[inside] == part])
            out[j] = np.median(_gather(top, at[j:j + 1])[0][win == part]) \
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
    win = _gather(lab, at)
    cloth = edge[win].sum(axis=1)
    return (cloth > 0) & (cloth >= 0.5 * (win > 0).sum(axis=1)), lab


# an occluder within this many px of the canvas's edge runs in from beyond it (the masks'
# opening may leave an arm's region a pixel or two short of the edge)
EDGE_BAND = 3


def _edge_occluders(own: np.ndarray) -> np.ndarray:
    """The parts of the occluder mask `own` (uint8) that run in from the canvas's outer edge
    (8-connected regions reaching within `EDGE_BAND` of it): a hand or arm comes from beyond
    the board, a lamp's pool or a cast on the fill lies within it."""
    if not own.any():
        return own
    n, lab = cv2.connectedComponents(own, connectivity=8)
    edge = np.zeros(n, bool)
    k = EDGE_BAND
    for side in (lab[:k], lab[-k:], lab[:, :k], lab[:, -k:]):
        edge[side] = True
    edge[0] = False
    return edge[lab].view(np.uint8)


def _arms_kept(hand: np.ndarray, own: np.ndarray, kept: np.ndarray, px: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The occluder masks (`hand`, `own`) found under the fill's colour, with the occluder
    pixels found under the clipped white itself that run in from the canvas's outer edge
    (`kept`, `_edge_occluders` of the masks found under it; closed over gaps again, as
    `occluder_masks` closes them). A hand or arm comes from beyond the board, so what the
    clipped white's skin test finds reaching the edge stays covered whatever the fill says (a
    lit hand's pale rim may lose its cast against the fill's colour); a lamp's pool or a cast
    on the fill within the board is dropped."""
    if not kept.any():
        return hand, own
    own = own | kept
    return hand | close_gaps(own, px), own


@lru_cache(maxsize=8)
def _cell_corners_mm(layout: CaseLayout) -> np.ndarray:
    """((rows + 1) * (cols + 1), 2) board mm of the grid's cell corners, row by row (read-only:
    the same points for every case read)."""
    s = layout.cell_mm
    y, x = np.mgrid[0:layout.rows + 1, 0:layout.cols + 1]
    pts = np.c_[x.ravel() * s, y.ravel() * s]
    pts.flags.writeable = False
    return pts


def off_frame(shape: tuple[int, ...], pose: CasePose, layout: CaseLayout = LAYOUT
              ) -> np.ndarray:
    """(rows * cols,) True for each cell any part of which lies outside a frame of `shape`:
    the camera did not see all of it, and the canvas there holds the frame's edge pixels
    smeared outwards by the warp's border (`BORDER_REPLICATE`), not the cell. A cell's image
    is a convex quadrilateral, so it lies in the frame exactly when its four corners do."""
    rows, cols = layout.rows, layout.cols
    pts = pose.to_image(_cell_corners_mm(layout)).reshape(rows + 1, cols + 1, 2)
    h, w = shape[:2]
    out = (pts[..., 0] < 0) | (pts[..., 0] > w - 1) | (pts[..., 1] < 0) | (pts[..., 1] > h - 1)
    return (out[:-1, :-1] | out[:-1, 1:] | out[1:, :-1] | out[1:, 1:]).reshape(-1)


def read_case(frame: np.ndarray, pose: CasePose, params: CellParams = DEFAULT,
              layout: CaseLayout = LAYOUT) -> CaseRead:
    """Every cell of the case located by `pose` in `frame`."""
    px = params.px_per_cell
    m = round(params.margin_cells * px)
    warped = _warp(frame, pose, params, layout)
    canvas = warped.astype(np.float32)
    white = case_white(frame, pose, layout)
    # the planes split from the 8-bit canvas (a quarter of the bytes), then made float
    levels = tuple(cv2.split(warped))
    planes = tuple(p.astype(np.float32) for p in levels)
    # the canvas's largest channel, worked out once for `normalise` and the hand masks
    # (channel extremes from the planes: a NumPy reduction over the last axis is far slower)
    b, g, r = planes
    raw_v = cv2.max(cv2.max(b, g), r)
    # a white clipped in all three channels tells nothing of the light's colour: the board
    # fill's, read below the clip, does (a lit hand's skin, which its own skin test finds
    # running in from beyond the board, is left out of that evidence)
    blown = (cv2.min(cv2.min(b, g), r) >= CLIP).view(np.uint8)
    # under a white clipped in two channels, a clipped arm looks as neutral as clipped paper;
    # under one clipped in all three, a lit hand's middle too: only its shaded rim shows it
    n_clipped = clipped_channels(white)
    clipped = (raw_v >= CLIP).view(np.uint8) if n_clipped == 2 else None

    def read_as(lit: np.ndarray) -> tuple[Pixels, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """The canvas's pixels, labels and occluder masks under the white `lit`."""
        pix = Pixels.of(normalise(canvas, lit, px, planes, raw_v, levels))
        labels = label_pixels(pix, px, params.colour)
        return pix, labels, occluder_masks(pix, labels, px, clipped=clipped, margin=m,
                                           blown=blown, raw_v=raw_v)

    # the read under the case's own white, and the occluders it finds running in from the
    # edge, each worked out once, when first asked for (when the fill gives no colour, that
    # read is the case's)
    read_white = cache(partial(read_as, white))
    edge_skin = cache(lambda: _edge_occluders(read_white()[2][1]))
    lit_white = fill_white(white, planes, raw_v, m, skin=edge_skin, levels=levels) \
        if colour_unknown(white) else white
    pix, labels, (hand, own) = read_white() if lit_white is white else read_as(lit_white)
    v = pix.v
    tints = tint_levels(pix, params.colour)
    if lit_white is not white:
        hand, own = _arms_kept(hand, own, edge_skin(), px)
    rows, cols = layout.rows, layout.cols
    small, large = round(params.small * px), round(params.large * px)
    at_large = window_index(labels.shape, px, m, rows, cols, large)
    hl = histograms(_gather(labels, at_large))
    ql = quantiles(_gather(v, at_large))
    at_small = window_index(labels.shape, px, m, rows, cols, small)
    hs = histograms(_gather(labels, at_small))
    qs, ts = quantiles(_gather(v, at_small)), histograms(_gather(tints, at_small), N_TINTS)
    code, conf = decide(hs, hl, qs, ql, params, ts)
    # a cell undecided at its centre (a card edge, a tile off the grid) is decided by windows
    # nudged a little each way when at least two agree and none says otherwise
    todo = np.flatnonzero(code == UNKNOWN_CODE)
    if len(todo):
        step = round(params.nudge * px)
        # the four nudges of every such cell judged in one batch (`decide` is per window)
        shifts = ((step, 0), (-step, 0), (0, step), (0, -step))
        at = window_index(labels.shape, px, m, rows, cols, small, shifts, todo)
        again = np.tile(todo, len(shifts))
        tries = decide(histograms(_gather(labels, at)), hl[again], quantiles(_gather(v, at)),
                       ql[again], params, histograms(_gather(tints, at), N_TINTS)
                       )[0].reshape(len(shifts), len(todo))
        known = tries != UNKNOWN_CODE
        first = np.where(known, tries, -1).max(axis=0)
        fix = (known.sum(axis=0) >= 2) & ((~known) | (tries == first)).all(axis=0)
        # a kind they agree on must show at the centre, on the top card's own tile
        fix[fix] = centre_shows(labels, px, m, rows, cols, todo[fix], first[fix], params)
        code[todo[fix]] = first[fix]
        conf[todo[fix]] = 0.5
        # still undecided: anchor on the band about the centre (the top card's own tile)
        # when no nudged window says otherwise
        rest = todo[~fix]
        if len(rest):
            kind = anchored(labels, v, px, m, rows, cols, rest, params)
            others = tries[:, ~fix]
            ok = (kind >= 0) & ((others == UNKNOWN_CODE) | (others == kind)).all(axis=0)
            code[rest[ok]] = kind[ok]
            conf[rest[ok]] = 0.5
            # still undecided: light fill over the centre band is an empty cell that a
            # neighbouring card's edge reaches into, when no nudged window sees a card there
            # but one whose opposite nudge reads fill (the card reaches in from that side)
            left = ~ok
            empty = anchored_empty(labels, tints, hl[rest[left]], px, m, rows, cols, rest[left],
                                   params) & nudges_allow_empty(others[:, left])
            code[rest[left][empty]] = EMPTY_CODE
            conf[rest[left][empty]] = 0.5
            # still undecided: a kind whose insect shows in the lesser channels only (its
            # brightest channel clipped), when no nudged window says otherwise
            left = np.flatnonzero(left)[~empty]
            if len(left):
                cells = rest[left]
                kind = lesser_relief(canvas, labels, hs[cells], hl[cells], white, px, m, rows,
                                     cols, cells, params)
                ok = (kind >= 0) & ((others[:, left] == UNKNOWN_CODE) |
                                    (others[:, left] == kind)).all(axis=0)
                code[cells[ok]] = kind[ok]
                conf[cells[ok]] = 0.5
        # still undecided: a card off the grid, read at its own tile over the cell's centre
        # (not where a hand covers the cell: it is hidden)
        left = np.flatnonzero(code == UNKNOWN_CODE)
        if len(left) and hand.any():
            left = left[cell_windows(hand, px, m, rows, cols, large, cells=left).mean(axis=1)
                        < params.max_hand]
        if len(left):
            found, off = tile_offsets(labels, px, m, rows, cols, left, params)
            for i, k, d in zip(left[found >= 0], found[found >= 0], off[found >= 0],
                               strict=True):
                shift = (int(d[0]), int(d[1]))
                got = read_at(labels, v, tints, canvas, white, px, m, rows, cols, int(i),
                              shift, params)
                if got == k or (got == UNKNOWN_CODE and
                                tile_hue(labels, px, m, rows, cols, int(i), int(k), shift,
                                         params)):
                    code[i], conf[i] = k, 0.5
    # still undecided: a dung beetle whose black tile a cast tints off the neutral labels
    left = np.flatnonzero(code == UNKNOWN_CODE)
    if len(left):
        dung = left[cast_dung(v, pix.sat, hs, hl, qs, ql, ts, px, m, rows, cols, left, params)]
        code[dung], conf[dung] = K_CODE, 0.5
    # the canvas brightness the printed grid lines are looked for in, worked out once, when
    # first asked for
    grey = cache(partial(line_grey, planes, white))
    # still undecided: the board's printed lines along two opposite sides, on lit fill, mean
    # that no card lies on the cell (`bare_board`)
    left = np.flatnonzero(code == UNKNOWN_CODE)
    if len(left):
        bare = left[bare_board(grey(), pix.sat, v, px, m, rows, cols, left, params)]
        code[bare], conf[bare] = EMPTY_CODE, 0.5
    why: dict[int, str] = {int(i): "undecided" for i in np.flatnonzero(code == UNKNOWN_CODE)}
    code = code.reshape(rows, cols)
    conf = conf.reshape(rows, cols)
    grid = [[CODES[i] for i in row] for row in code]
    # the cells read empty and not hidden, and (under a white clipped in one channel or more,
    # the only ones it changes anything for: `_unlined_dim_empty` under one or two,
    # `_blown_unlined_empty` under three) those an occluder's mask reaches about
    open_empty = code.reshape(-1) == EMPTY_CODE
    near = None
    if hand.any():
        if n_clipped > 0:
            near = cell_windows(hand, px, m, rows, cols, large + 2 * round(NEAR_HAND * px)
                                ).any(axis=1)
        cover = cell_windows(hand, px, m, rows, cols, large).mean(axis=1)
        hidden = np.flatnonzero(cover >= params.max_hand)
        if len(hidden):
            # a hand is opaque and comes from beyond the cell: the board's grid lines seen all
            # round a cell show that nothing lies over it (the mask took lit fill for skin)
            hidden = hidden[~lines_all_round(b + g + r, px, m, rows, cols, hidden,
                                             params.min_line)]
        if len(hidden):
            hidden = hidden[~_tile_in_gap(code.reshape(-1)[hidden], own, px, m, rows, cols,
                                          hidden, large, params.max_hand)]
        empty = hidden[code.reshape(-1)[hidden] == EMPTY_CODE]
        if len(empty):
            # lines along two opposite sides: no card lies on the cell, so it is empty
            # whatever lies over it
            free = empty[lines_across(grey(), pix.sat, v, px, m, rows, cols, empty,
                                      params.min_line, params.colour.ink_sat,
                                      params.colour.dim_v, share=HAND_LINE_SHARE)]
            hidden = np.setdiff1d(hidden, free)
        open_empty[hidden] = False
        for i in hidden:
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "hand")
        for i in _dark_occluder_dung(code.reshape(-1), own, raw_v, white, px, m, rows, cols,
                                     large):
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "dark_occluder_dung")
    for i in _black_from_beyond(code.reshape(-1), raw_v, white, px, m, rows, cols, small,
                                planes):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "black_from_beyond")
    dim = _unlined_dim_empty(np.flatnonzero(open_empty), planes, white, grey, pix, px, m,
                             small, rows, cols, params, near, why)
    for i in dim:
        grid[i // cols][i % cols] = UNKNOWN
    if n_clipped == 3:
        # an occluder's mask that reaches about a cell keeps the outer-ring release off it
        for i in _blown_unlined_empty(np.setdiff1d(np.flatnonzero(open_empty), dim), blown,
                                      grey, pix, px, m, rows, cols, params, near):
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "blown_unlined")
    if n_clipped == 0:
        _glare_unknown(grid, blown, px, m, large, params.max_glare)
        _note_new(why, grid, "glare")
    for i in np.flatnonzero(off_frame(frame.shape, pose, layout)):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "off_frame")
    # only stag and moth cells are named half by half: without any, the evidence is not needed
    if any(code in ("S", "M") for row in grid for code in row):
        stag, moth = half_evidence(labels, px, m, rows, cols, pix.sat, params.colour.ink_sat)
        name_halves(grid, stag, moth, params.half_margin)
        _note_new(why, grid, "halves")
    conf = np.where(np.array([[c == UNKNOWN for c in row] for row in grid]), 0.0, conf)
    return CaseRead(tuple(tuple(row) for row in grid), conf, canvas, labels, px, m, white,
                    tuple(tuple(why.get(r * cols + c, "") if grid[r][c] == UNKNOWN else ""
                                for c in range(cols)) for r in range(rows)))


def _note_new(why: dict[int, str], grid: list[list[str]], rule: str) -> None:
    """Record `rule` (in `why`, flat cell index -> rule) for the '?' cells of `grid` that no
    earlier rule took."""
    cols = len(grid[0])
    for r, row in enumerate(grid):
        for c, got in enumerate(row):
            if got == UNKNOWN:
                why.setdefault(r * cols + c, rule)
