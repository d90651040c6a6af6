"""The rules that turn cells read empty into '?' because something may lie over them. Board
fill reads as empty through the local gain, which takes a flat grey or pale sleeve over the
cards for fill as well, so a cell read empty is doubted when its middle is dim, tinted or
blind (its colour unmeasured), flat cloth across its sides with no trace of its printed lines,
joined to such cloth across an unlined side, or cloth running in over the board's hidden frame
(`unlined_dim_empty`, with `_sleeve_run`, `_frame_crossed` and `_off_fill`); when, under a
white clipped in all three channels, it shows no line and no lit middle, pale ink counting
as unlit where glare, not the exposure, clipped it, or, there, its ring shows a tile's hue
faintly along two sides about the clipped middle, lines or none (`blown_unlined_empty`, with
`_faint_ring`: glare lifts a tile's ink towards white and leaves its hue faint about the spot,
while the fill is printed neutral); or when the lamp's
specular glare covers it (`glare_unknown`), or stands above the fill, clipped or lit above the
white, its lines hidden (`glare_unlined_empty`), or lights it while its middle still shows a
card's print above the picture's noise, whatever lines it shows (`glare_print_empty`: glare
adds light smoothly, the fill is printed flat, a washed card keeps its drawing), or its middle
shows print standing out of the case's other empty cells, nothing dark about it, where a
lamp's spot washes a card short of the clip (`washed_print_empty`), or a
pool of it lies beside a card whose dark print it lifts towards the clip, rising towards the
cell (`glare_pool`, which also doubts that card under a white clipped in one channel or two,
where glare shifts its hue); or when the black of a dung beetle's tile shows about its middle along
two sides of the cell, no line on any (`black_ring_empty`: glare lifts the pale beetle to the
fill's brightness). What releases a cell is the board's printed lines (`hexapod_lines`), but
not from a washed card's print under glare, whose tile edge beside a paper gutter passes for a
line: never a guess.

A lit hand's crest (`lit_crest_empty`). Under a white clipped in all three channels the board
fill clips as one flat sheet, lit alike, that runs out to the sheet's margin; a patch of it
that clips beside fill just below the clip has more clipped fill about it. A hand is rounded:
its crest (the palm, the back of the hand) clips as the fill does, while its skin turns away
from the light and falls below the clip all round the crest, however pale. A pale hand so lit
keeps skin's hue only in a thin shaded rim, broken at the fingertips, that the masks' skin test
opens away, and no mask finds it; its skin below the clip may even pass for the fill's colour
(`fill_white`), so the cells under it read as fill lit all over. So a clipped region of half a
cell's area or more, short of the canvas's edge, ringed by a band half a cell wide of which at
most 5 % clips and in which the printed grid lines show at 8 % of their samples at most (about a
lamp's glare pool on the fill they show: 17-47 % in hard 962, 1118, 1222, 1817, 2111; about a
hand's crest, none), is a hand's crest, and it and its band are the hand: a cell read empty
whose small window lies over half or more in them is '?' unless lines show along two opposite
sides (a card hides one of each pair; one side's "line" may be the hand's edge along it).
Measured on the rendered hard tables: the 10 cells hidden under pale hands and read '.' in
never-seen 3034 (8) and 3065 (2) read '?' (2600-3099: right 26948 -> 26958, hidden read wrong
12 -> 2), and nothing changes in 0-699 (the tuning set) or 700-2299, nor in any held-out
variant; about 0.1 ms a frame (0.2 ms a case under such a white).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache, reduce

import cv2
import numpy as np

from .hexapod_colour import CLIP, DARK, DIM, INKS, Pixels
from .hexapod_lines import (
    COVER_FLAT,
    frame_hidden,
    line_channels,
    line_shares,
    lines_unseen,
    lines_within,
    opposite,
    unclipped,
)
from .hexapod_occluders import DARK_SLEEVE, EDGE_BAND
from .hexapod_windows import (
    DEFAULT,
    EMPTY,
    EMPTY_CODE,
    K_CODE,
    SIDE_STEPS,
    CellParams,
    cell_windows,
    gather,
    row_medians,
    window_index,
)
from .observation import UNKNOWN

# a cell read empty whose middle is at most this share of the white shows the board only by its
# lines along two opposite sides (`unlined_dim_empty`)
DIM_NOISE = 0.35


def glare_unknown(grid: list[list[str]], blown: np.ndarray, px: int, margin: int, size: int,
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


def glare_unlined_empty(cells: np.ndarray, planes: tuple[np.ndarray, np.ndarray, np.ndarray],
                        white: np.ndarray, blown: np.ndarray, grey: Callable[[], np.ndarray],
                        pix: Pixels, px: int, margin: int, rows: int, cols: int,
                        params: CellParams = DEFAULT) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty, under a white clipped in two
    channels at most) to be read '?' because the lamp's specular glare may have washed a card
    out there: whose large window is clipped in all three channels (`blown`) over
    `GLARE_TRACE` of it or more, or whose middle (small window, in the channels the `white`
    lies below the clip, the least of them over the white's) stands `COVER_LIT` above the
    white, whose middle is `GLARE_PEAK` times as bright as the middle of the cells read empty
    (their median: the case's fill as lit), and none of whose sides shows the printed grid
    line (`lines_unseen`). Nothing matte under the case's light is brighter than its white
    paper: a middle lit above it in every measured channel is the lamp's glare, which a dim
    exposure keeps below the clip (hard 2422: a dung beetle under a lit finger at 1.47 of the
    white, 1980: a green beetle at 1.19). Glare washes a card's print out to
    something as pale and flat as fill; it adds light to what lies under it, so it stands out
    as a peak above the fill about it, while a light gradient or an exposure that takes the
    fill itself into the clip lifts the fill of a whole region alike; and a card, not fill,
    hides the printed lines about the cell (fill under the glare keeps them along the sides
    the glare spares). A spot too small for `glare_unknown` over a washed card's middle is
    caught here; glare over bare fill that washes its lines out as well is '?' too: never a
    wrong code. Where the clip caps the measured channel short of that peak (a white within
    `GLARE_PEAK` of the clip) and the glare clips the cell's middle in all three channels
    (`GLARE_CORE` of its small window) while the fill read empty lies below the clip
    (`GLARE_FILL`), such a middle is not measured at all, and the cell is '?' unless its
    lines show along two opposite sides or along one in full."""
    if not len(cells):
        return cells
    large, small = round(params.large * px), round(params.small * px)
    inv = 1.0 / np.maximum(np.asarray(white, np.float32), 4.0)
    known = _known_channels(white)
    least = reduce(cv2.min, [planes[k] * inv[k] for k in known])
    mid = row_medians(cell_windows(least, px, margin, rows, cols, small, cells=cells))
    trace = cell_windows(blown, px, margin, rows, cols, large, cells=cells).mean(axis=1)
    fill = row_medians(mid)                # the case's fill as lit
    glare = cells[((trace >= GLARE_TRACE) | (mid >= COVER_LIT)) & (mid >= GLARE_PEAK * fill)]
    if len(glare):
        glare = glare[lines_unseen(glare, grey, pix, px, margin, rows, cols, params)]
    # ... or, where the clip caps the measured channel short of that peak above the fill (a
    # white within GLARE_PEAK of the clip), whose middle the glare clipped in all three
    # channels while the fill read empty lies below the clip (never-seen hard 11410: a gold
    # tile washed white, its middle capped at 1.23 of the fill's). Not where its lines show
    # along two opposite sides (a card hides one of each pair), or along one side in full
    # (`GLARE_LINE`: a washed card's gutter beside its neighbour passes for part of one)
    core = cell_windows(blown, px, margin, rows, cols, small, cells=cells).mean(axis=1)
    # (the clip, in the least measured channel against the white, short of the peak asked)
    cap = float((CLIP * inv[known]).min())
    capped = cells[(core >= GLARE_CORE) & (float(np.median(core)) < GLARE_FILL)] \
        if cap < GLARE_PEAK * float(fill) else cells[:0]
    capped = np.setdiff1d(capped, glare)
    if len(capped):
        shares = line_shares(capped, grey, pix, px, margin, rows, cols, params)
        lined = opposite(shares >= params.fill_line) | (shares >= GLARE_LINE).any(axis=1)
        glare = np.union1d(glare, capped[~lined])
    return glare


# `glare_unlined_empty` (with `COVER_LIT`): the share of a cell's large window clipped in all
# three channels that shows the lamp's glare over it (one cell's worth of a spot's core a cell
# away reaches about a twentieth of the window), and how far above the case's fill its middle
# stands (a light gradient across the board or vignetting keeps the fill of one case within
# about a fifth of its median; bench hard 0-2299: 1.22 at most where the fill itself clipped
# without glare)
GLARE_TRACE = 0.05
GLARE_PEAK = 1.3
# ... and the share of a cell's small window clipped in all three channels that is the glare's
# core over its middle (hard 11410: 0.71 of the large window); there, a side whose printed line
# shows along this share of it is fill's (the board's line or frame in full: hard 258, 1461,
# 2162, the fill under a lamp's pool lifted to the clip), where a washed card's gutter beside
# its neighbour's tile shows for part of a side (11410: 0.71)
GLARE_CORE = 0.5
GLARE_LINE = 0.9


def glare_print_empty(cells: np.ndarray, planes: tuple[np.ndarray, np.ndarray, np.ndarray],
                      white: np.ndarray, blown: np.ndarray, px: int, margin: int, rows: int,
                      cols: int, params: CellParams = DEFAULT) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty) to be read '?' because the lamp's
    glare lies over them and their middle still shows a card's print: the cell lit by the glare
    (`GLARE_TOP` of it or more `COVER_LIT` above the white, or its small window clipped in all three
    channels, `blown`, over `GLARE_BLOWN` of it) and every half of its small window (top, bottom,
    left, right) departing from the plane that fits it best by `_print_spread` above `PRINT_NOISE`
    times the case's noise (`_print_floor`), `PRINT_MIN` of the white at least, in the least of the
    channels the `white` lies below the clip in, over the white's. Glare adds light, smoothly over a
    cell; the board fill is printed flat, so under any light, glare, a lamp's gradient or a shadow's
    soft edge, it stays a plane within the picture's noise across the small window, while a card
    washed pale enough to read as fill keeps its drawing's differences in level (the added light
    lifts them all alike) until they clip: a dung beetle's beetle and the black of its tile, an
    insect's body on its tile. The reader's labels judge the window against the local light, which
    the glare raises, so the washed print reads as pale fill, and its tile's edge, between a paper
    gutter and the lifted tile, passes for a printed line: lines do not release such a cell. A
    neighbouring card, at most a third of a cell off, reaches into one side of the small window, or
    one corner, and so leaves the half opposite it a plane. Where the glare stands above no white
    (a dim exposure, a white clipped in the channels it would show in), its sign is a large
    window with nothing dark left in it (`GLARE_DARK`): a cell so lit is '?' when its print stands
    `PRINT_CLEAR` clear."""
    if not len(cells):
        return cells
    small = round(params.small * px)
    inv = 1.0 / np.maximum(np.asarray(white, np.float32), 4.0)
    known = _known_channels(white)

    shape = planes[0].shape
    above = reduce(np.logical_and, [planes[k] >= COVER_LIT / inv[k] for k in known])
    lit = cell_windows(above.view(np.uint8), px, margin, rows, cols, px, cells=cells) \
        .mean(axis=1) >= GLARE_TOP
    clipped = cell_windows(blown, px, margin, rows, cols, small).mean(axis=1)
    lit |= clipped[cells] >= GLARE_BLOWN
    at = window_index(shape, px, margin, rows, cols, small)
    # (the case's noise, from every cell, only when a cell read empty may show print)
    first = _print_spread(_least_known(planes, white, at[cells]), small)
    if not (first >= np.where(lit, PRINT_MIN, PRINT_CLEAR)).any():
        return cells[:0]
    spread = _print_spread(_least_known(planes, white, at), small)
    floor = _print_floor(spread[clipped < 0.5])
    out = lit & (spread[cells] >= floor)
    # glare that stands above no white: a large window with nothing dark left in it
    clear = ~lit & (spread[cells] >= max(floor, PRINT_CLEAR))
    if clear.any():
        out[np.flatnonzero(clear)] = _nothing_dark(planes, white, px, margin, rows, cols,
                                                   cells[clear], params)
    return cells[out]


def washed_print_empty(cells: np.ndarray, planes: tuple[np.ndarray, np.ndarray, np.ndarray],
                       white: np.ndarray, px: int, margin: int, rows: int, cols: int,
                       params: CellParams = DEFAULT) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty, `FILL_PEERS` + 1 of them at
    least) to be read '?' because their middle shows a card's print beside the case's own
    fill: every half of the small window departing from its plane (`_print_spread`) by
    `PRINT_NOISE` times the median of the other cells read empty and by `PRINT_FILL` of the
    white at least, in the least of the channels the white lies below the clip in, and nothing
    dark left in the large window (`_nothing_dark`). A lamp's spot that stops short of the clip
    washes a dung beetle's black tile and grey beetle to the fill's pallor, and the local gain
    takes them for fill; nothing clips, so `glare_print_empty` sees no glare, and its noise,
    measured over every cell, is on a case full of cards the cards' own print. The board's fill
    is printed flat, as flat as the case's other empty cells show it under the same light; a
    washed card keeps its drawing. A neighbouring card reaching into the cell, or the frame
    beside it, leaves its dark print or line in the large window."""
    if len(cells) <= FILL_PEERS:
        return cells[:0]
    small = round(params.small * px)
    at = window_index(planes[0].shape, px, margin, rows, cols, small, cells=cells)
    spread = _print_spread(_least_known(planes, white, at), small)
    n = len(cells)
    med = np.median(np.broadcast_to(spread, (n, n))[~np.eye(n, dtype=bool)].reshape(n, n - 1),
                    axis=1)   # (each cell's others)
    todo = (spread >= PRINT_FILL) & (spread >= PRINT_NOISE * med)
    if not todo.any():
        return cells[:0]
    out = np.zeros(len(cells), bool)
    out[todo] = _nothing_dark(planes, white, px, margin, rows, cols, cells[todo], params)
    return cells[out]


# `washed_print_empty`: judged against the median of this many other cells read empty at least,
# and a middle shows print beside them where each half departs from its plane by this share of
# the white at least (hard seeds 0-699 and never-seen 12000-12699: of the 1808 empty cells
# no other rule leaves '?' that stand 3 times their peers with nothing dark in the large
# window, the most 0.099; washed dung beetles there and on held-out glare 0.11-0.30)
FILL_PEERS = 2
PRINT_FILL = 0.1


def _least_known(planes: tuple[np.ndarray, np.ndarray, np.ndarray], white: np.ndarray,
                 at: np.ndarray) -> np.ndarray:
    """The least of the channels the `white` lies below the clip in (`_known_channels`), each
    over the white's, at the flat canvas indices `at`."""
    inv = 1.0 / np.maximum(np.asarray(white, np.float32), 4.0)
    return reduce(np.minimum, [gather(planes[k], at) * inv[k] for k in _known_channels(white)])


def _nothing_dark(planes: tuple[np.ndarray, np.ndarray, np.ndarray], white: np.ndarray,
                  px: int, margin: int, rows: int, cols: int, cells: np.ndarray,
                  params: CellParams = DEFAULT) -> np.ndarray:
    """(cells,) whether the large window of each of `cells` has nothing dark left in it: at
    most `GLARE_DARK_SHARE` of it below `GLARE_DARK` of the white (`_least_known`)."""
    large = round(params.large * px)
    win = _least_known(planes, white, window_index(planes[0].shape, px, margin, rows, cols,
                                                   large, cells=cells))
    return (win < GLARE_DARK).mean(axis=1) <= GLARE_DARK_SHARE


# `glare_print_empty`: a cell is lit by the glare when its small window is clipped in all three
# channels over this share of it (a white clipped in all three leaves the glare nothing to
# stand above), or this share of the cell (its brightest twentieth) stands `COVER_LIT` above the
# white in the channels the white lies below the clip in (matte fill under the case's light
# stays below it)
GLARE_BLOWN = 0.1
GLARE_TOP = 0.05
# ... and its middle shows print where each half departs from its plane (the spread between
# the 10th and 90th percentile of the residual) by this many times the case's noise (the lower
# quartile of the cells' spreads: fill, a plain tile, a hand) and by this share of the white at
# least (held-out glare: fill at most 0.069, washed dung beetles 0.10-0.22, washed green
# beetles 0.08-0.09)
PRINT_NOISE = 3.0
PRINT_MIN = 0.075
# ... or, where no light stands above the white (a dim exposure, a white clipped in the channels
# the glare would show in), a cell is lit by glare when its large window has nothing dark left
# in it (no more than this share of it below this share of the white: glare lifts a card's black
# and ink with the rest, while under the case's light alone a card keeps its dark print, and a
# neighbour's tile reaching in brings its own), and its print must then stand this clear (twice
# `PRINT_MIN`: a blurred neighbour's pale edge across a middle is no drawing)
GLARE_DARK = 0.3
GLARE_DARK_SHARE = 0.05
PRINT_CLEAR = 0.15


def _print_spread(win: np.ndarray, size: int) -> np.ndarray:
    """(windows,) the least, over the four halves of each size x size window (`win`, one row a
    window), of the spread between the 10th and 90th percentile of the half's departure from
    the plane fitted to it by least squares."""
    sq = win.reshape(-1, size, size)
    h = size // 2 + 1
    halves = (sq[:, :h], sq[:, size - h:], sq[:, :, :h], sq[:, :, size - h:])
    out = None
    for half in halves:
        x = half.reshape(len(win), -1)
        q = _plane_basis(half.shape[1], half.shape[2])
        res = x - (x @ q) @ q.T
        n = res.shape[1] - 1
        lo, hi = int(0.1 * n), int(0.9 * n)
        part = np.partition(res, (lo, hi), axis=1)
        spread = part[:, hi] - part[:, lo]
        out = spread if out is None else np.minimum(out, spread)
    return out


@lru_cache(maxsize=16)
def _plane_basis(h: int, w: int) -> np.ndarray:
    """(h * w, 3) an orthonormal basis of the planes over an h x w window (row-major)."""
    yy, xx = np.mgrid[0:h, 0:w].reshape(2, -1).astype(np.float32)
    q, _ = np.linalg.qr(np.stack([np.ones_like(xx), xx, yy], axis=1))
    q = q.astype(np.float32)
    q.flags.writeable = False
    return q


def _print_floor(spread: np.ndarray) -> float:
    """The spread above which a window shows print: `PRINT_NOISE` times the lower quartile of
    `spread` (the case's cells whose middle is measured), `PRINT_MIN` at least."""
    if len(spread) < 3:
        return PRINT_MIN
    q = int(0.25 * (len(spread) - 1))
    return max(PRINT_MIN, PRINT_NOISE * float(np.partition(spread, q)[q]))


def black_ring_empty(cells: np.ndarray, labels: np.ndarray, grey: Callable[[], np.ndarray],
                     pix: Pixels, px: int, margin: int, rows: int, cols: int,
                     params: CellParams = DEFAULT) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty) to be read '?' because a dung
    beetle's black tile rings their middle: the ring between the small and the large window
    shows neutral black (`labels` DARK or DIM) over `BLACK_SIDE` of its strip along two of the
    cell's sides or more (each strip as long as the small window is wide, the corners left
    out), and no side shows the printed grid line (`lines_unseen`). The empty read comes from
    the small window alone, light and neutral: a dung beetle's pale grey beetle fills it, and
    glare or a bright light lifts it to the fill's brightness (held-out glare 114: 0.96 of the
    fill) while its black tile still shows about it on the sides the glare spares. A
    neighbouring card, at most a third of a cell off, brings its tile into one side's strip
    only, a diagonal neighbour's into the corners left out; fill shows its printed lines on
    the sides no card reaches. Two cards pushed in from two sides over an empty cell with its
    lines washed out are '?' too: never a wrong code."""
    if not len(cells):
        return cells
    small, large = round(params.small * px), round(params.large * px)
    dark = ((labels == DARK) | (labels == DIM)).view(np.uint8)
    win = cell_windows(dark, px, margin, rows, cols, large, cells=cells).reshape(
        -1, large, large).astype(np.float32)
    d = (large - small) // 2
    a, b = d, large - d
    sides = np.stack([win[:, :d, a:b].mean(axis=(1, 2)), win[:, large - d:, a:b].mean(axis=(1, 2)),
                      win[:, a:b, :d].mean(axis=(1, 2)), win[:, a:b, large - d:].mean(axis=(1, 2))],
                     axis=1)
    cells = cells[np.sort(sides, axis=1)[:, -2] >= BLACK_SIDE]
    if not len(cells):
        return cells
    return cells[lines_unseen(cells, grey, pix, px, margin, rows, cols, params)]


# `black_ring_empty`: the share of a side's strip of the ring that shows a black tile there
# (glare lifts the part of the tile facing the spot out of the dark labels: held-out glare 295,
# a fifth of the second side's strip left black; a neighbour's tile fills one strip, the
# printed lines release fill beside it)
BLACK_SIDE = 0.2


def unlined_dim_empty(cells: np.ndarray, planes: tuple[np.ndarray, np.ndarray, np.ndarray],
                      white: np.ndarray, grey: Callable[[], np.ndarray], pix: Pixels, px: int,
                      margin: int, size: int, rows: int, cols: int,
                      params: CellParams = DEFAULT, near: np.ndarray | None = None,
                      why: dict[int, str] | None = None,
                      unseen: np.ndarray | None = None) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty) to be read '?': whose middle
    (window of side `size`) is dimmer than `dim_fill` of the white (middle value of the largest
    channel over the `white`'s) or tinted (middle value of the normalised saturation in `pix`
    above `fill_tint`), while no side shows the printed grid line (`lines_unseen`). The board
    fill is printed at 0.89 of the white; a cell that much dimmer reads as fill only through
    the local gain, which takes a flat grey thing lying over the cards (a sleeve, dark or pale)
    for fill in a shadow just as well. The fill is printed neutral, so against the white (the
    light's colour) it reads all but untinted; a window tinted over half of it is fill under a
    second light's colour or lens blur's spill of a card beside it, or something lying over it
    (a pale hand lit near the clip keeps only a faint warmth of skin). A shadow or a second
    light dims or tints the printed lines with the fill beside them, and a card a third of a
    cell off hides one side's at most, or two adjacent ones' in part; a sleeve or hand over
    the cell hides them all. Under a white clipped in one channel or two, the middle is
    measured in the channels where it lies below the clip too (`_known_channels`): a clipped
    white is only a lower bound of the paper's reading, so a share of it read there is only an
    upper bound of the cell's, and a lit arm clips there as the paper does (never-seen 21169
    and 21543: a pale arm over ten cells, dim in blue alone, read empty); dim there with no
    line on any side, the cell is '?', and beside an occluder (`near`, True per cell of the
    grid: its mask reaches the cell's surroundings), where a sleeve carries the arm on beyond
    its skin, it is doubted as any dim cell is. A cell whose pixels clip in
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
    whatever the picture's other lines show; so is such cloth, lit below the clip, over a
    corner cell of `unseen` (flat indices: beside a marker in view that did not locate the case
    and shows no black, `unseen_marker_cells`), which runs in over the board there as over the
    frame, and the cloth joined to either. Fill whose lines are lost to a sub-pixel
    misregistration on small cells may be left '?' too: never a wrong code."""
    if not len(cells):
        return cells
    # the largest channel over the white's, in the windows only, and its middle value
    inv = 1.0 / np.maximum(np.asarray(white, np.float32), 4.0)
    at = window_index(planes[0].shape, px, margin, rows, cols, size, cells=cells)
    raw = [gather(p, at) for p in planes]
    ratio = [x * k for x, k in zip(raw, inv, strict=True)]
    v0 = np.maximum(np.maximum(ratio[0], ratio[1]), ratio[2])
    h = v0.shape[1] // 2
    mid = np.partition(v0, h, axis=1)[:, h]
    doubt = mid < params.dim_fill
    # as dark as black cloth: no lit board, whatever "lines" the noise shows
    unlit = mid <= DARK_SLEEVE
    known = _known_channels(white)
    # dim in the channels where the white lies below the clip: a lit arm clips in the others
    # as the paper does, so only these measure it ('?' when no side shows its line; beside an
    # occluder, a doubt as a dim middle is, which the sleeve rules below take up too)
    known_dim = np.zeros(len(cells), bool)
    if len(known) < 3:
        vk = ratio[known[0]] if len(known) == 1 else np.maximum(ratio[known[0]],
                                                               ratio[known[1]])
        known_dim = np.partition(vk, h, axis=1)[:, h] < params.dim_fill
        if near is not None:
            doubt |= near[cells] & known_dim
    tinted = np.partition(gather(pix.sat, at), h, axis=1)[:, h] > params.fill_tint
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
    # (a side's line seen, at the best shift about its place; a trace of it, at its place:
    # `line_shares`)
    trace = np.zeros((len(cells), 4), np.float64)
    shares[ask], flat[ask], trace[ask] = line_shares(cells[ask], grey, pix, px, margin, rows,
                                                     cols, params, flat=True)
    lined = shares >= params.fill_line
    unlined[ask] = ~lined[ask].any(axis=1)
    # as dark as dark cloth: a "line" along one side, or two adjacent ones, is noise (a printed
    # line dips the fill by a few hundredths, a level or two here); lines along two opposite
    # sides are the board's
    noisy = ask & doubt & (mid <= DIM_NOISE)
    unlined[noisy] = ~opposite(lined[noisy])
    out = (doubt | known_dim) & unlined
    _note(why, cells, out & unlit, "dim:unlit")
    _note(why, cells, out & tinted, "dim:tinted")
    _note(why, cells, out & doubt, "dim:dim")
    _note(why, cells, out, "dim:known")
    if blind.any():
        out |= _joined(cells, tinted & unlined, blind & unlined & ~doubt, rows, cols)
        _note(why, cells, out, "dim:blind_joined")
    # light cloth as bright as fill: lit below the clip (a clipped middle shows no printed
    # line whatever lies there), no trace of a line on any side, one flat surface across two
    # sides or more, no glare (`COVER_LIT`), while another empty cell shows its lines clearly
    # (lit in the channels the lines are looked for in, `line_grey`: under a white clipped in
    # one or two channels, those where it lies below the clip; a white sleeve clips in the
    # others as the fill does, while the fill's lines still dip in these)
    line = line_channels(white)
    top = reduce(np.maximum, [raw[k] for k in line])
    lit = np.partition(top, h, axis=1)[:, h] < CLIP - 5.0
    if len(line) == 3:
        # (under a white clipped in all three channels, or none, a cell whose least channel
        # lies well below the clip shows lines there: a pale, warm arm over a blown board)
        low = np.minimum(np.minimum(raw[0], raw[1]), raw[2])
        lit |= np.partition(low, h, axis=1)[:, h] < LIT_LOW
    cloth = ask & ~doubt & (trace <= CLOTH_TRACE).all(axis=1) & \
        ((flat >= COVER_FLAT).sum(axis=1) >= COVER_SIDES)
    # cloth that hides the board's dark frame where it runs in from beyond the grid: what the
    # lines' absence, its brightness or the clip leave in doubt, the frame settles
    edge = ask & ~opposite(lined)
    clip = CLIP * len(line)    # the clip's level in `line_grey`
    edge[edge] = frame_hidden(grey(), pix, px, margin, rows, cols, cells[edge], cells, clip,
                              params)
    if unseen is not None and len(unseen):
        # a corner cell under cloth, lit below the clip (a clipped middle shows no line
        # whatever lies there), beside a marker in view that was not found and shows no black:
        # what covers the marker reaches in over the board there, as over a hidden frame
        edge |= cloth & lit & np.isin(cells, unseen)
    crossed = _frame_crossed(cells, cloth, edge, rows, cols)
    cover = cloth & (mid <= COVER_LIT) & lit
    if cover.any():
        # (the lined fill, and its lines seen clearly, at the lines' own places, as the cloth's
        # want of a trace is judged: lines a pixel off their places everywhere show no trace
        # there, on fill as on cloth)
        other = np.flatnonzero(ask & ~cover & opposite(trace >= params.fill_line))
        strong = line_shares(cells[other], grey, pix, px, margin, rows, cols,
                             replace(params, min_line=COVER_SEEN * params.min_line),
                             at_place=True) if len(other) else np.zeros((0, 4))
        if not opposite(strong >= params.fill_line).any():
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
    weak = ~opposite(lined) & ~unlit
    out |= _sleeve_run(cells, out, weak & doubt & ~unlined, trace, mid, rows, cols,
                       params.line_balance)
    _note(why, cells, out, "dim:sleeve_run")
    if cover.any():
        out |= _sleeve_run(cells, cover, weak & ~doubt, trace, mid, rows, cols,
                           params.line_balance)
        _note(why, cells, out, "dim:cover_run")
    if crossed.any():
        # ... and to cloth over the frame, a cell next to it only: the frame shows where the
        # cloth runs in, not how far the fill's faint lines beyond it are the cloth's
        out |= _sleeve_run(cells, crossed, weak & ~doubt, trace, mid, rows, cols,
                           params.line_balance, reach=False)
        _note(why, cells, out, "dim:frame_run")
    return cells[out]


def _frame_crossed(cells: np.ndarray, cloth: np.ndarray, entry: np.ndarray, rows: int,
                   cols: int) -> np.ndarray:
    """(len(cells),) True for each of `cells` (flat grid indices of cells read empty) marked
    `entry` (on the grid's edge, no lines along two opposite sides, the board's printed frame
    hidden under one flat surface: `frame_hidden`) or marked `cloth` (no trace of a line on
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


# a side that cloth covers shows its printed line's dip along at most this share of it: on flat
# cloth only an odd sample dips by the line's `min_line` (sensor and JPEG noise; one of the 17
# samples of a side at 24 px a cell is 0.06), while a printed line that a shadow, blur or noise
# takes below `fill_line` still dips along a good part of the side
CLOTH_TRACE = 0.1


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
    two opposite ones — that joins a cell marked `unlined` (a doubted cell showing no line at
    all: cloth over it) across a side showing no trace of its line (at most `trace` of it at its
    place: `shares`, cells x 4, the share of each side along which its line shows there, as
    `line_shares` gives it with `flat`), their
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


def blown_unlined_empty(cells: np.ndarray, blown: np.ndarray, grey: Callable[[], np.ndarray],
                        pix: Pixels, px: int, margin: int, rows: int, cols: int,
                        params: CellParams = DEFAULT, near: np.ndarray | None = None
                        ) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty under a white clipped in all
    three channels) to be read '?': whose small window is clipped in all three channels
    (`blown`) over `blown_unlit` of it or more, that show no printed grid line on any side
    (`lines_unseen`) and are not lit over their whole large window (more than `blown_unlit` of it
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
    released here. Where the fill read empty lies below the clip (`GLARE_FILL`), a clipped
    middle is the lamp's glare, which washes a tile's ink pale, never to the fill's neutral:
    there pale ink (`_unlit`) over `PALE_INK` of a window is a tile as unlit pixels are (hard
    2179: a green beetle washed white in its middle, its pale green tile about it read as
    fill lit all over). There, too, a tile the glare lifts keeps its hue faintly about the
    spot's core (`_faint_ring`, along two sides of the ring or more): such a cell is '?' whatever
    else it shows, its lines too (a washed tile's edge beside a paper gutter passes for one; hard
    2827: a stag's violet tile about a spot in its middle, read empty)."""
    if not len(cells):
        return cells
    small = round(params.small * px)
    share = cell_windows(blown, px, margin, rows, cols, small, cells=cells).mean(axis=1)
    # the lamp's glare, not the exposure, clips the middle where the fill read empty lies
    # below the clip (their median small window clipped over less than `GLARE_FILL`)
    glare = float(np.median(share)) < GLARE_FILL
    cells = cells[share >= params.blown_unlit]
    if not len(cells):
        return cells
    # a tile the glare lifts shows its hue faintly about the spot, lines or none
    washed = cells[_faint_ring(cells, blown, pix.sat, px, margin, rows, cols, params)] \
        if glare else cells[:0]
    return np.union1d(_blown_unlit(cells, blown, grey, pix, px, margin, rows, cols, params, near,
                                   glare), washed)


def _blown_unlit(cells: np.ndarray, blown: np.ndarray, grey: Callable[[], np.ndarray],
                 pix: Pixels, px: int, margin: int, rows: int, cols: int, params: CellParams,
                 near: np.ndarray | None, glare: bool) -> np.ndarray:
    """`blown_unlined_empty`'s cells (clipped over `blown_unlit` of their small window) with a
    tile's black or ink about the middle, no occluder near a mere ring of it, and no line."""
    large = round(params.large * px)
    at = window_index(pix.v.shape, px, margin, rows, cols, large, cells=cells)
    unlit, pale = _unlit(pix, at, params)
    cells = cells[(unlit > params.blown_unlit) | (glare & (pale >= PALE_INK))]
    if not len(cells):
        return cells
    inner = window_index(pix.v.shape, px, margin, rows, cols, round(BLOWN_INNER * px),
                         cells=cells)
    unlit, pale = _unlit(pix, inner, params)
    ring = (unlit <= BLOWN_MIDDLE) & ~(glare & (pale >= PALE_INK))
    if near is not None:
        ring &= ~near[cells]
    cells = cells[~ring]
    if not len(cells):
        return cells
    return cells[lines_unseen(cells, grey, pix, px, margin, rows, cols, params)]


# `lit_crest_empty`: gaps this wide (px at `px_per_cell` 24) in the clipped pixels are closed
# (a blurred printed line, two pixels, does not part the fill either side of it)
CREST_CLOSE = 3
# ... a crest covers at least this many cells' area (a lit palm or back of a hand is two cells
# across; fill that clips alone beside unclipped fill does so in specks of the sensor's noise)
CREST_CELLS = 0.5
# ... and meets the canvas's outer edge along this many cells at most: the clipped crest of an arm
# coming in across a side (never-seen 11015: 0.6 cell), not a clipped sheet of fill running on
# into the margin (hard 2051 and 2844: 5.5 and 2.8 cells)
CREST_ARM = 1.0
# ... and is ringed by a band this wide (cells) in which at most this share clips
CREST_BAND = 0.5
CREST_RING = 0.05
# ... and shows the printed grid line at this share of its line samples at most
CREST_LINES = 0.08
# ... a cell whose small window lies over this share or more in the crest or its band is hidden
CREST_SHARE = 0.5


def lit_crest_empty(cells: np.ndarray, blown: np.ndarray, grey: Callable[[], np.ndarray],
                    pix: Pixels, px: int, margin: int, rows: int, cols: int,
                    params: CellParams = DEFAULT) -> np.ndarray:
    """Those of `cells` (flat indices of the cells read empty under a white clipped in all
    three channels) to be read '?' as under a lit hand's crest: a region of pixels clipped in
    all three channels (`blown`, gaps of `CREST_CLOSE` closed), of `CREST_CELLS` or more,
    short of the canvas's outer edge (`EDGE_BAND`), whose band `CREST_BAND` wide about it clips
    over `CREST_RING` of it at most and shows the printed grid lines in `grey()` at
    `CREST_LINES` of their samples at most (`lines_within`), is a hand, with that band; a cell
    whose small window lies over `CREST_SHARE` or more in it is '?' unless its printed lines
    show along two opposite sides (`line_shares`, `opposite`). Under such a white the board
    fill clips as one flat sheet lit alike: a patch of it that clips beside fill just below the
    clip has more clipped fill about it, and fill shows its lines. A lit hand is rounded: its
    crest (a palm, the back of a hand) clips as the fill does, and the skin about it turns
    from the light and falls below the clip all round it, however pale, hiding the lines, so
    the crest clips alone, ringed by unclipped skin; that band is the hand too (fill there
    would clip). The masks miss such a hand when its skin is too pale to pass the skin test
    and only a thin shaded rim, broken at the fingertips, outlines it (hard 3034, 3065: cards
    under a pale hand read as fill lit all over). A card hides one of each pair of opposite
    sides; one side's "line" may be the hand's edge running along it."""
    if not len(cells) or not blown.any():
        return cells[:0]
    k = max(3, round(CREST_CLOSE * px / 24)) | 1
    shut = cv2.morphologyEx(blown, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    # (16-bit labels where the pixels fit: OpenCV's statistics in about half the time)
    ltype = cv2.CV_16U if shut.size <= np.iinfo(np.uint16).max else cv2.CV_32S
    _, lab, stats, _ = cv2.connectedComponentsWithStats(shut, connectivity=8, ltype=ltype)
    cand = stats[:, cv2.CC_STAT_AREA] >= CREST_CELLS * px * px
    cand[0] = False
    # the canvas's outer edge, a band `EDGE_BAND` deep: how long a stretch of it each region
    # meets (a clipped sheet of fill runs along the margin all round the grid; an arm comes in
    # across one side over its own width)
    rim = np.concatenate([lab[:EDGE_BAND].T, lab[-EDGE_BAND:].T, lab[:, :EDGE_BAND],
                          lab[:, -EDGE_BAND:]])
    meets = np.zeros(len(cand), np.int64)
    for b in range(rim.shape[1]):
        np.maximum(meets, np.bincount(rim[:, b], minlength=len(cand)), out=meets)
    cand &= meets <= CREST_ARM * px
    if not cand.any():
        return cells[:0]
    band = np.ones((2 * round(CREST_BAND * px) + 1,) * 2, np.uint8)
    hand = np.zeros_like(blown)
    for i in np.flatnonzero(cand):       # the few large clipped regions within the canvas
        region = (lab == i).view(np.uint8)
        grown = cv2.dilate(region, band)
        ring = (grown > 0) & (region == 0)
        if np.count_nonzero(blown[ring]) <= CREST_RING * np.count_nonzero(ring) and \
                lines_within(grey(), ring.view(np.uint8), px, margin, rows, cols,
                             params.min_line) <= CREST_LINES:
            hand |= grown
    if not hand.any():
        return cells[:0]
    small = round(params.small * px)
    cells = cells[cell_windows(hand, px, margin, rows, cols, small, cells=cells).mean(axis=1)
                  >= CREST_SHARE]
    if not len(cells):
        return cells
    # lines along two opposite sides: no card lies on the cell (a card hides one of each
    # pair), whatever lies over it; one side's "line" may be the hand's edge along it
    lined = line_shares(cells, grey, pix, px, margin, rows, cols, params) >= params.fill_line
    return cells[~opposite(lined)]


def _faint_ring(cells: np.ndarray, blown: np.ndarray, sat: np.ndarray, px: int, margin: int,
                rows: int, cols: int, params: CellParams = DEFAULT) -> np.ndarray:
    """(len(cells),) True for each of `cells` (flat indices) whose ring between the small and
    the large window shows pixels below the clip (`blown`) faintly tinted (saturation `sat`
    from `fill_tint` up to a kind's `min_sat`) over `FAINT_SIDE` of its strip along two of the
    cell's sides or more (the strips as `black_ring_empty` takes them, the corners left out).
    Glare adds the lamp's light to whatever lies under it: the fill is printed neutral and
    stays below `fill_tint` about a spot, while a tile's ink lifted towards the clip keeps its
    hue, paled below a kind's saturation, all round the spot's core (hard 2827: a stag's violet
    about a spot in the middle of its tile, three sides at 0.41-0.52; held-out glare 340: a red
    beetle, two at 0.39-0.46). A neighbouring card, at most a third of a cell off, brings its
    tile or its blurred edge into one side's strip only, and one the glare does not lift keeps
    its ink's saturation, beyond the faint band. Two neighbours' faint edges on two sides of
    fill read empty are '?' too: never a wrong code."""
    small, large = round(params.small * px), round(params.large * px)
    at = window_index(blown.shape, px, margin, rows, cols, large, cells=cells)
    s = gather(sat, at)
    faint = (gather(blown, at) == 0) & (s >= params.fill_tint) & (s < params.colour.min_sat)
    win = faint.reshape(-1, large, large)
    d = (large - small) // 2
    a, b = d, large - d
    sides = np.stack([win[:, :d, a:b].mean(axis=(1, 2)), win[:, large - d:, a:b].mean(axis=(1, 2)),
                      win[:, a:b, :d].mean(axis=(1, 2)), win[:, a:b, large - d:].mean(axis=(1, 2))],
                     axis=1)
    return (sides >= FAINT_SIDE).sum(axis=1) >= 2


# `_faint_ring`: the share of a side's strip of the ring faintly tinted that shows a lifted tile
# there (as `BLACK_SIDE`, the same ring and the same reasoning). Lifted tiles (hard 2827,
# held-out glare 340): 0.39-0.52 on two or three sides. Fill read empty under glare with the
# fill below the clip, neighbours' faint edges on two sides, the lesser of them at 0.2-0.34:
# hard 676, 2829, 2901, and 873, 1132, 1845 of 700-2299 ('?' now)
FAINT_SIDE = 0.2


def _unlit(pix: Pixels, at: np.ndarray, params: CellParams) -> tuple[np.ndarray, np.ndarray]:
    """(windows,) twice: the share of each window (the pixels at flat indices `at`, one row a
    window) below `light_v` in the normalised `pix`, and the share of it lit and pale ink (as
    saturated as a kind's hue, `min_sat`, short of `ink_sat`): a tile's ink that glare lifts to
    the fill's brightness keeps a paler kind's colour."""
    unlit = gather(pix.v, at) < params.colour.light_v
    sat = gather(pix.sat, at)
    pale = ~unlit & (sat >= params.colour.min_sat) & (sat < params.colour.ink_sat)
    return unlit.mean(axis=1), pale.mean(axis=1)


# `blown_unlined_empty`: the middle window (cells) about a cell's centre in which a card's own
# tile shows whatever way the card lies, and the share of it unlit at most (noise) when only a
# neighbour's border reaches the cell's large window
BLOWN_INNER = 0.6
BLOWN_MIDDLE = 0.02
# ... and the median share of the small windows of the cells read empty clipped in all three
# channels below which the fill lies below the clip, so that a clipped middle is the lamp's
# glare, not the exposure; there, the share of a window in pale ink (glare washes a tile's ink
# pale, never to the fill's neutral) that is a card's tile like the unlit share
GLARE_FILL = 0.5
PALE_INK = 0.1


def _known_channels(white: np.ndarray) -> list[int]:
    """The channels (BGR indices) in which `white` lies below the clip; all three when it
    clips in every one (nothing is known then, and every channel is taken alike)."""
    return unclipped(white) or [0, 1, 2]


def _blind(raw: list[np.ndarray], white: np.ndarray) -> np.ndarray:
    """(windows,) True where half or more of a window's pixels (`raw`: B, G, R values, one row
    a window) clip in two channels or more, one of them a channel the `white` lies below the
    clip in: at most one channel of them is measured, so their colour is not (the reading is
    the least saturated colour it allows). Never under a white clipped in all three channels,
    where lit fill clips as a rule."""
    known = unclipped(white)
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


# `glare_pool`: a cell's dark floor is this quantile of its large window's least channel over
# the white's: a card's tile, whatever its kind, is a saturated or black print whose least
# channel lies far below the paper's over most of the window, its insect and ink darker still
GLARE_FLOOR_Q = 0.1
# ... a card lifted by glare has its floor this far (share of the white) above the median floor
# of the case's cards read as kinds, measured over this many such cards at least
GLARE_LIFT = 0.2
GLARE_CARDS = 4
# ... and the half of its window facing the pool's core floored this much above the opposite
# half
GLARE_RISE = 0.05


def glare_hue(white: np.ndarray) -> int:
    """The kind (index into `KINDS`) whose printed ink lies nearest in hue (cosine, BGR) to the
    colour of the channels in which `white` lies below the clip: the hue towards which glare
    moves a card's colour when the white clips in the others (only they still rise); -1 when
    it clips in none or all three (glare then only pales a card)."""
    low = np.array([w < CLIP - 5.0 for w in white], np.float64)
    if low.sum() in (0, 3):
        return -1
    inks = np.array([v[::-1] for v in INKS.values()], np.float64)
    return int(np.argmax(inks @ low / np.linalg.norm(inks, axis=1)))


def glare_pool(code: np.ndarray, planes: tuple[np.ndarray, np.ndarray, np.ndarray],
               white: np.ndarray, px: int, margin: int, rows: int, cols: int, size: int
               ) -> np.ndarray:
    """Flat indices of the cells to be read '?' because a pool of the lamp's specular glare
    lies over them. Glare adds light, so it lifts a card's dark print (its tile's least
    channel, its insect's body and ink) towards the clip where it lies, while a whole board
    over-exposed keeps its print's dark structure (the exposure scales the print; only the
    paper and fill reach the clip). A card read as a kind whose dark floor (`GLARE_FLOOR_Q` of
    its large window, side `size`, in the least channel over the `white`'s) lies `GLARE_LIFT`
    above the median of the case's cards so read is under the pool's rim; the pool's core,
    where a card is washed out to something as pale and flat as board fill, lies next to it on
    the side the glare lifts more, so a cell read empty next to such a card (its 8 neighbours)
    is '?' when the floor of the half of the card's window facing it lies `GLARE_RISE` above
    that of the opposite half (a diagonal neighbour's: neither facing half below its opposite,
    the two rises together that much): inside one cell a washed card and fill look alike, and
    a card's floor lifted by something else (a pale print, blur with its paper) rises towards
    no side in particular. `code` is the flat grid of code indices (`CODES`). Under a white
    clipped in one channel or two, glare lifts the unclipped channels only, so a lifted card's
    hue moves towards theirs: a lifted card read as the kind whose ink lies nearest that colour
    (`glare_hue`: teal, the moth, under a white clipped in red) may be another kind washed, and
    is '?' as well."""
    kind = code < K_CODE + 1
    if kind.sum() < GLARE_CARDS:
        return np.zeros(0, np.int64)
    inv = 1.0 / np.maximum(np.asarray(white, np.float32), 4.0)
    least = cv2.min(cv2.min(planes[0] * inv[0], planes[1] * inv[1]), planes[2] * inv[2])
    win = cell_windows(least, px, margin, rows, cols, size)
    q = int(GLARE_FLOOR_Q * (win.shape[1] - 1))
    floor = np.partition(win, q, axis=1)[:, q]
    lifted = kind & (floor >= row_medians(floor[kind]) + GLARE_LIFT)
    if not lifted.any():
        return np.zeros(0, np.int64)
    out = lifted & (code == glare_hue(white))
    # the pool's core lies on the side of a lifted card that glare lifts more: the floor of the
    # half of its window facing a neighbour above that of the opposite half (a diagonal one:
    # of neither half facing it below its opposite, and of both together above)
    at = np.flatnonzero(lifted)
    sq = win[at].reshape(-1, size, size)
    h = size // 2
    qh = int(GLARE_FLOOR_Q * (h * size - 1))
    # (lifted cards, 4): the floors of the top, bottom, left and right halves of each window
    halves = np.stack([np.partition(x.reshape(len(at), -1), qh, axis=1)[:, qh] for x in
                       (sq[:, :h], sq[:, size - h:], sq[:, :, :h], sq[:, :, size - h:])], axis=1)
    for i, (top, bottom, left, right) in zip(at.tolist(), halves.tolist(), strict=True):
        r, c = divmod(i, cols)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < rows and 0 <= cc < cols) or code[rr * cols + cc] != EMPTY_CODE:
                    continue
                rise = [(top - bottom) * -dr, (left - right) * -dc]
                if min(rise) >= 0.0 and sum(rise) >= GLARE_RISE:
                    out[rr * cols + cc] = True
    return np.flatnonzero(out)
