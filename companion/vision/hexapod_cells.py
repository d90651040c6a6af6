"""Reading the 6 x 6 cells of one located Hexapod display case. The grid (plus half a cell of
margin) is resampled through the case's homography onto a square canvas of `px_per_cell` pixels per
cell (warped at a multiple and shrunk with area averaging when the camera sees the cells much
bigger), labelled pixel by pixel (`hexapod_colour`; when the case's white clipped in all three
channels, so that it tells nothing of the light's colour, the colour is the grid's bright fill's
read below the clip, `fill_white`, with the occluders that the clipped white's own skin test
finds running in from the canvas's edge left out of it and kept covered, `arms_kept`), and every
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
when its hue shows over a fifth of the band about the centre, and over more of it than black,
`centre_shows`: nudges past an edge near the centre see the tile beyond it); failing that, it is
anchored on the band of a quarter cell about its centre, which shows the top card's own tile
however the cards lie (`anchored`): one kind's hue there, over a good share of the large window
(and no other kind's hue over three quarters as much of it: a tile whose colour lies between two
kinds' hues is split between them), with an insect's relief in brightness and some of the kind's
ink (a dung beetle under a cast takes a kind's hue, never its ink), names the kind when no nudge
differs. Still undecided, a centre band of light fill only is an empty cell that a
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
ink's saturation) meets the cast rule (`cast_dung`); under a white clipped in one channel or
more, where no occluder's mask comes near, the grey beetle's middle may read as bright as fill
(clipped paper sets the local gain) and, clipped in two or three, its beetle may be tinted by
the cast the recovered white leaves (`clipped_dung`); there too, a cell whose grey drawing is the
dung beetle's as printed, lighter in the middle than about it as no other kind's print is, is one
(beside a mask, only where the drawing shows plainly: `DUNG_HAND_MATCH`)
whatever the light's level and colour (`hexapod_drawings.dung_drawn`: a dim lamp, a beetle washed
bright, a warm cast; on a glare spot's flank by the drawing's relief, the spot's smooth slope of
light taken off: `relief_matches`); a one-cell beetle whose kind's hue leads is that kind where
its drawing (or its relief) matches (`kind_drawn`), a stag's or moth's half by theirs; and a
coloured one-cell beetle whose print turned its hue out of its kind's range (an office printer's
blue halfway to the stag's violet) is named by its drawing and the ink nearest its hue
(`hexapod_printed`). Still undecided, a cell whose board's printed
grid lines show along two opposite sides, on lit fill either side of each (along most of each side,
or half of it where no occluder's mask comes near: a pale hand's edges dip as lines do), is empty
(`bare_board`): a card over its middle would hide one side of each pair, whatever colour the fill
reads (a white clipped in a channel leaves the fill's colour unmeasured there, and it reads
tinted, as skin). Still undecided, with no occluder's mask near, a cell takes the code of the
cell of its case it looks like in those shares and quantiles, among those the windows or the
printed lines decided (an empty one with its lines all round), where that cell names it plainly
(`hexapod_twins`: one print under one light and one blur). A cell read empty whose
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
`_sleeve_run`); so is an unlined one under flat cloth, lit below the clip, at the corner beside
a marker in view that did not locate the case and shows no black (something lies over it and
reaches in over the board there: `unseen_marker_cells`), with the cloth cells joined to it, as
where cloth hides the board's frame;
and so is one whose middle is as dark as black cloth, lines or none (at that
level a printed line's dip is within the sensor's noise: `unlined_dim_empty`). A cell read as
a dung beetle that a black occluder's own pixels reach is '?': a black sleeve's end beyond the
mask looks like the black tile with its grey beetle (`dark_occluder_dung`); so is one whose
black runs on from beyond the board over more of the grid than a tile, the masks missing the
neutral cloth (`black_from_beyond`). A cell that a hand or sleeve covers
(`occluder_masks`) is '?' — unless the board's printed grid lines show along all four of its sides
(`lines_all_round`): a hand is opaque and reaches a cell across a side, so lines seen all round mean
the mask took fill for skin (a lamp's pool, a cast left on it); unless it reads as a coloured
one-cell beetle whose own drawing shows plainly (skin shows none; the mask took an orange or gold
tile for skin: `hexapod_drawings.drawn_plainly`); unless it reads as a coloured kind
and only the closing of the gaps between the occluder's parts covers it (`tile_in_gap`: that
closing stands for an arm's clipped, flat middle, which shows no printed insect); or unless it reads
empty and its lines show along two opposite sides with board fill beside them (`lines_across`: a
card, two cells or more across and at most a third of a cell off, hides one of each pair, so no card
lies there; looked for in the channels the white leaves below the clip, `line_grey`) — as is a cell
read empty, under a white clipped in all three channels, that a lit hand's crest covers with its
unclipped band (a clipped region short of the canvas's edge ringed by skin below the clip that
shows no printed line: the fill clips as one lined sheet; `hexapod_cover.lit_crest_empty`), unless
its lines show along two opposite sides, as is a cell
read empty that glare covers (under a white clipped in no channel, lit paper and fill stay below the
clip, so a window clipped in all three channels over a share of it is the lamp's specular
reflection, which washes a card out to something as pale and flat as fill: `glare_unknown`), a cell
read empty beside a card whose dark print a glare pool lifts towards the clip, the lift rising
towards the cell, under any white (the pool's core, where a washed card and fill look alike:
`glare_pool`; under a white clipped in one channel or two the lifted card too when it reads as the
kind whose hue glare fakes there, `glare_hue`), a cell read empty whose ring shows a black tile
along two of its sides and no printed line on any (a dung beetle whose pale beetle glare lifts to
the fill's brightness: `black_ring_empty`), a cell read empty that glare lights while its middle
still shows a card's print, every half of it departing from a plane above the picture's noise,
whatever lines it seems to show (glare adds light smoothly and the fill is printed flat; a washed
card keeps its drawing: `glare_print_empty`), a cell read empty whose middle shows print
standing out of the case's other empty cells, nothing dark left about it (a lamp's spot short of
the clip washes a dung beetle to fill's pallor, and a case full of cards shows its fill only in
its empty cells: `washed_print_empty`) — the cells these glare rules doubt being asked again
whether they show the dung beetle's drawing (`dung_drawn`), away from any occluder's mask —, a
cell read as a kind whose middle shows none of
its ink and whose hue there is less than half as saturated as the kind's ink beside it (a blend
of that ink with a neutral, over half of it the neutral's: motion blur smears a neighbour's ink
over a dung beetle's black tile and grey beetle, `smeared_hue`), a cell
any part of which lies beyond the frame's edge (`off_frame`: the warp smears the edge pixels over
it), and anything else unclear — never a guess.
Two-cell insects are then named half by half (`name_halves`): a run of stag cells down a column
pairs from the top, a run of moth cells along a row from the left, when the run is closed by
known cells; when it touches a '?', the cells' own drawings decide (a stag's head shows ink and
few pale wing-case highlights, pale pixels as saturated as ink being ink beside a brighter patch,
not highlights; a moth's body lies on its partner's side) or the run stays '?', but for a stag
cell whose grey drawing matches the stag's printed head (`hexapod_halves.stag_drawn`), which is
the head, the lone stag cell below it its wing cases, or its printed wing cases better than the
head and every one-cell beetle, the lone stag cell above it then its head; a stag pair whose
column shows a line of paper between tiles across its shared side is two cards, '?'
(`hexapod_halves.split_stags`: a stag's tile runs on over it). On a pale
print under a colour cast, a cell read as a dung beetle only through the cast is no dung beetle
where its brighter half is tinted ink of one kind (`lit_inked`), nor, once the halves are named,
where the stag's hue leads in it and a stag's other half could lie above or below it
(`hexapod_halves.stag_hued_dung`): both are left '?'.
This module holds the warp and the cell decisions; the tunables, codes and windows live in
`hexapod_windows`, the printed lines' and frame's evidence in `hexapod_lines`, the rules that
doubt cells read empty in `hexapod_cover`, those of hands and dark cloth in
`hexapod_occluders`, and the naming of halves in `hexapod_halves`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache, lru_cache, partial

import cv2
import numpy as np

from .colourless import grey_tiles
from .hexapod_colour import (
    BODY,
    CLIP,
    DARK,
    DIM,
    FAINT,
    GREYISH,
    INK,
    LIGHT,
    MID,
    N_TINTS,
    NK,
    OTHER,
    PALE,
    TINTED,
    Pixels,
    arm_entries,
    case_white,
    clipped_channels,
    colour_unknown,
    fill_white,
    label_pixels,
    normalise,
    occluder_masks,
    select,
    tint_levels,
)
from .hexapod_cover import (
    black_ring_empty,
    blown_unlined_empty,
    glare_pool,
    glare_print_empty,
    glare_unknown,
    glare_unlined_empty,
    lit_crest_empty,
    unlined_dim_empty,
    washed_print_empty,
)
from .hexapod_drawings import (
    BEETLES,
    PLAIN_HUE,
    blown_dung,
    drawn_plainly,
    dung_drawn,
    kind_drawn,
    moth_drawn,
)
from .hexapod_halves import (
    half_evidence,
    name_halves,
    split_stags,
    stag_drawn,
    stag_hued_dung,
)
from .hexapod_lines import HAND_LINE_SHARE, bare_board, line_grey, lines_across, lines_all_round
from .hexapod_markers import LAYOUT, CaseLayout, CasePose, printed_corners
from .hexapod_occluders import (
    NEAR_HAND,
    arms_kept,
    black_from_beyond,
    dark_occluder_dung,
    edge_occluders,
    kind_clear_of_hand,
    lined_parts_dropped,
    tile_in_gap,
    unblack_dung,
)
from .hexapod_printed import coloured_drawn, nearest_ink
from .hexapod_twins import twin_codes
from .hexapod_windows import (
    CODES,
    DEFAULT,
    EMPTY_CODE,
    K_CODE,
    MOTH,
    STAG,
    UNKNOWN_CODE,
    CellParams,
    cell_histograms,
    cell_windows,
    gather,
    histograms,
    quantiles,
    row_medians,
    window_index,
)
from .observation import UNKNOWN


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
    grey_print: bool = False        # its cards printed without colour: none read (GREY_PRINT)


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


KIND_OF = np.full(256, -1, np.int64)    # a label's kind index (-1: not a kind's hue)
KIND_OF[:3 * NK] = np.arange(3 * NK) % NK
KIND_OF.flags.writeable = False


# the share of a cell's small window over which one kind's hue (any level) shows a tile at its
# centre: the nudged windows' agreement on empty board is not taken there (held-out glare 8041:
# a stag's head washed pale violet by the lamp's spot, 0.47 of the window, read as fill by the
# windows nudged right and down, past its edge)
FILL_HUE = 0.3


def decide(h: np.ndarray, hl: np.ndarray, qs: np.ndarray, ql: np.ndarray,
           params: CellParams = DEFAULT, tint: np.ndarray | None = None,
           black: np.ndarray | None = None, inked: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """(code index into CODES, confidence) of every cell (any leading shape) from its
    small-window (h) and large-window (hl) label shares, brightness quantiles (qs, ql: 15th,
    50th, 85th percentile) and small-window tint-level shares (`tint`, see
    `hexapod_colour.tint_levels`). A kind needs its hue over most of the small window, little
    else, and both ink and dark insect body in the large window. A dung beetle's cell is dark
    (its black tile) with light in it (the grey beetle, the paper gutter): in the large window
    the 15th percentile is at most 0.45 of the 85th, its grey beetle in the middle is darker
    than paper or board fill, and the small window shows both beetle and black (its 85th
    percentile at least `min_beetle` times its 15th: a shadow's edge across fill leaves the
    middle in flat shade), and its black tile is neutral DARK / DIM over `min_black` of the
    large window (or `black`: a hand's edge or the shading beside a finger gives fill a dark end
    of skin, labelled by its hue); the beetle is neutral, or, when a colour cast the white did not
    remove tints it (labels of a pale kind or OTHER), at least mostly not TINTED while no
    kind's hue covers half the small window and no kind's ink more than `max_cast_ink` of it (a
    cast never tints a grey to an ink's saturation; `black`, the black tile's share measured
    otherwise: see `cast_dung`) and, given `inked` (`lit_inked` of the large window), not a
    coloured tile's ink in its brighter half where one kind's hue covers `CAST_KIND` of the small
    window (a pale office print's stag, its dark body on its pale tile, under a cast of its own
    hue). An empty cell is light board fill: neutral light labels,
    or — when the local gain darkens it to MID or speckle and clipping give it pale labels —
    a large window as flat as fill (`min_flat`, no black), or a small window as flat with next
    to no black in the large one (`max_fill_black`: a neighbouring card's paper or lit fill past a
    shadow's edge brightens the large window's top end, never its dark end), not dark
    (`min_fill`) and a small window with hardly a pixel more saturated than grey (`max_faint`).
    Anything else is '?'."""
    chroma = kind_hues(h)
    k = chroma.argmax(axis=-1)
    same = chroma.max(axis=-1)             # the value at `k`
    all_chroma = chroma.sum(axis=-1)
    neutral = h[..., DARK] + h[..., DIM] + h[..., MID] + h[..., LIGHT]
    foreign = 1.0 - same - neutral
    ink_l, body_l = _at_kind(hl, INK, k), _at_kind(hl, BODY, k)
    is_kind = (same >= params.kind_share) & (foreign <= params.max_foreign) & \
        (ink_l >= params.min_ink) & (body_l >= params.min_body)
    chroma_l = kind_hues(hl).sum(axis=-1)
    q15, q85 = ql[..., 0], ql[..., 2]
    contrast = q15 / np.maximum(q85, 1e-3)
    # the grey beetle lies in the middle of its black tile, so the small window about the
    # centre holds both (`min_beetle`); a shadow's edge across board fill leaves the middle in
    # flat shade and the lit fill beyond it at the large window's side
    dung_shape = (q15 <= 0.4) & (contrast <= 0.45) & (q85 >= 0.45) & \
        (qs[..., 1] <= params.max_grey) & (qs[..., 2] >= params.min_beetle * qs[..., 0])
    # the black tile is neutral black over `min_black` of the large window (or `black`): the
    # dark end of a window on a hand's edge or under its shading is skin, not black ink
    black_l = hl[..., DARK] + hl[..., DIM] if black is None else black
    is_dung = dung_shape & (all_chroma <= 0.2) & (h[..., OTHER] <= 0.15) & \
        (chroma_l <= 0.35) & (hl[..., OTHER] <= 0.15) & (black_l >= params.min_black)
    light_fill = (h[..., LIGHT] >= 0.75) & (h[..., LIGHT] + h[..., MID] >= 0.8) & \
        (all_chroma <= 0.2) & (h[..., OTHER] <= 0.1) & (h[..., DARK] + h[..., DIM] <= 0.05) & \
        (qs[..., 1] > params.max_grey)
    is_empty = light_fill
    if tint is not None:
        lit = tint[..., GREYISH] + tint[..., FAINT] + tint[..., TINTED]
        # a cast tints a grey faintly, never to an ink's saturation: a window with a kind's
        # ink in it is a coloured tile (blurred or half lit), not a tinted dung beetle
        is_dung |= dung_shape & (lit > 0.0) & (tint[..., TINTED] <= params.max_tinted * lit) & \
            (same < 0.5) & (True if inked is None else ~(inked & (same >= CAST_KIND))) & \
            (black_l >= params.min_black) & \
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
              cells: np.ndarray, params: CellParams = DEFAULT,
              inked: np.ndarray | None = None) -> np.ndarray:
    """Which of `cells` (flat indices; hs, hl, qs, ql, ts and `inked`: every cell's
    centre-window evidence as `decide` takes it) are a dung beetle under a colour cast the white
    did not remove, its black tile counted by brightness and saturation instead of by label:
    dark (below `dim_v`) and less saturated than ink (`ink_sat`, the labels' own bound for a
    kind's ink). A cast
    tints the black ink's dark pixels (their hue then takes a kind's body label or OTHER, so
    the neutral DARK / DIM share falls short of `min_black`) but never to an ink's saturation;
    a kind's dark insect body keeps its ink's saturation (0.66 and up in print), so it is not
    counted. Every other test of `decide`'s cast rule holds unchanged (the grey beetle mostly
    not TINTED, no kind's hue over half the small window, no kind's ink in it)."""
    large = round(params.large * px)
    at = window_index(v.shape, px, margin, rows, cols, large, cells=cells)
    grey = (gather(v, at) < params.colour.dim_v) & \
        (gather(sat, at) < params.colour.ink_sat)
    black = np.maximum(grey.mean(axis=1), hl[cells, DARK] + hl[cells, DIM])
    return decide(hs[cells], hl[cells], qs[cells], ql[cells], params, ts[cells], black,
                  None if inked is None else inked[cells])[0] == K_CODE


# `clipped_dung`: under a white clipped in two channels or more, the share of a dung beetle's
# lit small-window pixels that may be TINTED (`decide`'s `max_tinted` elsewhere)
CLIPPED_TINTED = 0.8


def clipped_dung(v: np.ndarray, sat: np.ndarray, hs: np.ndarray, hl: np.ndarray,
                 qs: np.ndarray, ql: np.ndarray, ts: np.ndarray, px: int, margin: int,
                 rows: int, cols: int, cells: np.ndarray, n_clipped: int,
                 params: CellParams = DEFAULT, inked: np.ndarray | None = None
                 ) -> np.ndarray:
    """Which of `cells` (flat indices; the evidence as `cast_dung` takes it) are a dung beetle
    under a white clipped in `n_clipped` channels (one or more), judged as `decide` and
    `cast_dung` judge it but for what the clip leaves unmeasured. The local gain is the mean
    of the paper-like pixels about the cell, and clipped paper reads no brighter than the
    clip, so a grey beetle (0.6 of the paper, 0.66 of the fill) reads as bright as lit fill
    against it: its middle's brightness (`max_grey`) tells nothing. Under a white clipped in
    two channels or three, the light's colour is recovered from the greys or the fill and a
    cast of it stays on the grey beetle: it may be TINTED over `CLIPPED_TINTED` of its lit
    pixels (never an ink's: no kind's ink over `max_cast_ink` of the small window, no kind's
    hue over half of it). The dung beetle's shape holds unchanged: the large window's dark end
    and contrast, the small window's beetle on black, the black tile over `min_black` of the
    large window, neutral or less saturated than ink. A card's edge, fill beside a neighbour's
    black tile or a shadow's edge shows black on one side of a lit middle, which the small
    window's beetle test refuses as it does in `decide`."""
    if n_clipped < 1 or not len(cells):
        return np.zeros(len(cells), bool)
    tinted = CLIPPED_TINTED if n_clipped >= 2 else params.max_tinted
    loose = replace(params, max_grey=np.inf, max_tinted=tinted)
    got = decide(hs[cells], hl[cells], qs[cells], ql[cells], loose, ts[cells],
                 inked=None if inked is None else inked[cells])[0] == K_CODE
    return got | cast_dung(v, sat, hs, hl, qs, ql, ts, px, margin, rows, cols, cells, loose,
                           inked)


# a tinted dung beetle's large window: its brighter half's median saturation at most this share
# of its darker half's (`lit_inked`)
CAST_LIT_SAT = 0.7
# ... where one kind's hue covers at least this share of its small window (`decide`)
CAST_KIND = 0.25


def lit_inked(v: np.ndarray, sat: np.ndarray, tinted: float) -> np.ndarray:
    """For each window (rows of `v`, `sat`: its pixels' brightness and saturation), whether its
    brighter half is a coloured tile's ink rather than a tinted dung beetle's grey: the median
    saturation of its brighter half is over `tinted` (the tint levels' bound for a grey that a
    cast pushes off neutral) and over `CAST_LIT_SAT` of its darker half's. A cast the white did
    not remove tints a dung beetle's grey beetle and paper faintly, and no more than its black
    ink, whose dark pixels the sensor's noise pushes further off grey; a coloured tile (a pale
    office print's stag or moth, its dark insect on it) is its ink where it is bright."""
    order = np.argsort(v, axis=1)
    ranked = np.take_along_axis(sat, order, axis=1)
    half = ranked.shape[1] // 2
    lit = row_medians(ranked[:, half:])
    return (lit > tinted) & (lit > CAST_LIT_SAT * row_medians(ranked[:, :half]))


def kind_hues(h: np.ndarray) -> np.ndarray:
    """Each kind's hue share at any level (ink, dark body or pale) of windows' label shares `h`
    (any leading shape, labels last): kinds last."""
    return h[..., INK:INK + NK] + h[..., BODY:BODY + NK] + h[..., PALE:PALE + NK]


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
    shows the top card's own tile (a dung beetle's black tile): that kind is not the cell's;
    nor is it where black (DARK) covers more of the band than the kind's hue, which blur
    spills into the band from the tiles beyond it (hard 1898: a dung beetle's black tile, a
    third of a cell off between two gold tiles, nudged up and down into gold); a pale print's
    dark insect body reads DIM, not black (held-out printed 22: a stag's wing cases)."""
    out = np.ones(len(cells), bool)
    kind = code < NK
    if not kind.any():
        return out
    core = cell_histograms(labels, px, margin, rows, cols, round(params.core * px),
                           cells=cells[kind])
    k = code[kind]
    hue = _at_kind(core, INK, k) + _at_kind(core, BODY, k) + _at_kind(core, PALE, k)
    # black over more of the band than the kind's hue is a dung beetle's tile, blur or a
    # shifted tile beyond it spilling the kind's hue into the band (a pale print's dark insect
    # body reads dim, not black)
    out[kind] = (hue >= params.min_core_kind) & (core[:, DARK] <= hue)
    return out


# `anchored`: another kind's hue covers less than this share of what the anchored kind covers
# of the large window
ANCHOR_RIVAL = 0.75


def anchored(labels: np.ndarray, v: np.ndarray, px: int, margin: int, rows: int, cols: int,
             cells: np.ndarray, params: CellParams = DEFAULT, shift: tuple[int, int] = (0, 0)
             ) -> np.ndarray:
    """Kind index (or -1) of each of `cells` judged from the band about its centre that shows
    the top card's own tile however the cards lie (`core`, 0.25 cell): when that band is one
    kind's hue (`core_share`, no neutral, little else), the kind covers a good share of the
    large window (`anchor_share`, at any level) and its pixels there have relief (an insect:
    the 10th brightness percentile at most `max_relief` of the 90th) and some of its ink shows
    (`min_anchor_ink` of the large window at ink level), and no other kind's hue covers
    `ANCHOR_RIVAL` as much of the large window (a light that takes a tile's colour to between
    two kinds' hues splits its pixels between them: hard 1614, a moth's teal under a hand's
    warm light anchored as green), it is that kind. This decides cells
    whose small window a neighbouring card's edge crosses, or whose ink / body levels a light
    mislabels, without trusting anything beyond the tile; a flat sleeve, a black tile under a
    colour cast (black in the band, or the cast's hue at body and pale levels only) or another
    card's tile stay undecided. Every window is moved `shift` px (x, y) off the centre when
    given (a tile off the grid, `read_at`)."""
    core = cell_histograms(labels, px, margin, rows, cols, round(params.core * px), shift,
                           cells)
    chroma = kind_hues(core)
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
    # the other kinds' largest share of the large window (any level)
    others = kind_hues(histograms(lab))
    others[at, k] = 0.0
    rival = others.max(axis=1) * lab.shape[1]
    ok = (same >= params.core_share) & (neutral <= 0.05) & \
        (1.0 - same - neutral <= params.max_foreign) & \
        (n >= params.anchor_share * large * large) & (lo <= params.max_relief * hi) & \
        (ink >= params.min_anchor_ink) & (rival < ANCHOR_RIVAL * n)
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
    chroma = kind_hues(h)
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
    ink = kind_hues(hl)
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


def tile_beside(code: np.ndarray, reads: np.ndarray, asked: np.ndarray, cells: np.ndarray,
                rows: int, cols: int, shifts: tuple[tuple[int, int], ...]) -> np.ndarray:
    """(len(cells),) True for each of `cells` (flat indices) that is `asked` about (the nudged
    windows agree on a dung beetle) and one of whose nudged windows that reads it (`reads`,
    shifts x cells; `shifts` in pixels, x then y) looks towards the cell beside it that way,
    read as a dung beetle at its own centre (`code`, the centre readings, CODES indices). A
    card lies at most a third of a cell off its place: a black tile pushed that far towards a
    neighbour fills the neighbour's nudged window on that side, and the nudge above or below
    it too, while its own centre still reads it (never-seen hard 11178: a dung beetle a third
    of a cell off towards empty fill in a shadow, that fill read as a second dung beetle). Two
    dung beetles side by side with the second pushed onto the first are '?' too: never a
    wrong code."""
    out = np.zeros(len(cells), bool)
    r, c = np.divmod(cells, cols)
    for k, (dx, dy) in enumerate(shifts):
        rr, cc = r + int(np.sign(dy)), c + int(np.sign(dx))
        inside = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        beside = np.where(inside, rr * cols + cc, 0)
        out |= asked & reads[k] & inside & (code[beside] == K_CODE)
    return out


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
    chroma = kind_hues(core)
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
    hs, hl = histograms(gather(labels, at_s)), histograms(gather(labels, at_l))
    got = int(decide(hs, hl, quantiles(gather(v, at_s)), quantiles(gather(v, at_l)), params,
                     histograms(gather(tints, at_s), N_TINTS))[0][0])
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


def unseen_marker_cells(frame: np.ndarray, pose: CasePose, layout: CaseLayout = LAYOUT
                        ) -> np.ndarray:
    """Flat indices of the grid's corner cells beside the case's markers that did not locate
    the case (not in `pose.markers`) although they lie wholly in `frame` (all four corners
    `MARKER_INSIDE` of a marker's side within its edges) and show no black there: over the
    marker's quadrilateral the frame's grey 10th percentile is `MARKER_FLAT` of its 90th or
    more. A marker is printed black on white, its black border and modules a good share of
    it; blur, however heavy, mixes them with the white but leaves the quadrilateral's dark end
    far below its light end (markers in full view that blur kept from being found: 0.22 at
    most on hard 0-2299), while a hand or a sleeve lying over the whole marker is one surface
    (0.78 and more where it hides all of it but a few) and so is the lamp's glare washing it
    out (0.52-0.68). What covers the marker reaches in over the board's corner beside it."""
    rows, cols = layout.rows, layout.cols
    corner = (0, cols - 1, rows * cols - 1, (rows - 1) * cols)     # TL, TR, BR, BL
    h, w = frame.shape[:2]
    pad = MARKER_INSIDE * pose.marker_px
    out = []
    for k, (mid, pts) in enumerate(printed_corners(layout, pose.player).items()):
        if mid in pose.markers:
            continue
        quad = pose.to_image(pts)
        if not ((quad[:, 0] >= pad).all() and (quad[:, 0] <= w - 1 - pad).all() and
                (quad[:, 1] >= pad).all() and (quad[:, 1] <= h - 1 - pad).all()):
            continue
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        box = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2GRAY)
        inside = np.zeros(box.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(quad - (x0, y0)).astype(np.int32), 1)
        grey = box[inside > 0]
        if len(grey) < MARKER_PIXELS:
            continue
        low, high = np.percentile(grey, (10, 90))
        if low >= MARKER_FLAT * max(float(high), 1.0):
            out.append(corner[k])
    return np.array(out, np.int64)


# `unseen_marker_cells`: a marker counts as in view when it lies this share of its side inside
# the frame's edges (one cut off by the edge is not found, whatever lies over it), and as
# covered when its quadrilateral (this many pixels at least) is this flat
MARKER_INSIDE = 0.25
MARKER_PIXELS = 16
MARKER_FLAT = 0.6


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
    # edge (or from a margin read as the table, which the masks cut an arm off at), each
    # worked out once, when first asked for (when the fill gives no colour, that read is the
    # case's)
    read_white = cache(partial(read_as, white))
    edge_skin = cache(lambda: edge_occluders(read_white()[2][1],
                                             arm_entries(read_white()[0], m)))
    lit_white = fill_white(white, planes, raw_v, m, skin=edge_skin, levels=levels) \
        if colour_unknown(white) else white
    pix, labels, (hand, own) = read_white() if lit_white is white else read_as(lit_white)
    v = pix.v
    tints = tint_levels(pix, params.colour)
    if lit_white is not white:
        hand, own = arms_kept(hand, own, edge_skin(), px)
    rows, cols = layout.rows, layout.cols
    # the canvas brightness the printed grid lines are looked for in, worked out once, when
    # first asked for
    grey = cache(partial(line_grey, planes, white))
    # the canvas's channel sum the lines all round a cell are looked for in, worked out once,
    # when first asked for (`lines_all_round`)
    channel_sum = cache(lambda: b + g + r)
    if hand.any():
        # a part of the masks over which the printed lines show is lit fill
        hand, own = lined_parts_dropped(hand, own, grey(), px, m, rows, cols, params.min_line)
    small, large = round(params.small * px), round(params.large * px)
    # the cells an occluder's mask comes near (their large window widened by NEAR_HAND each
    # side), worked out once for every cell, when first asked for; none without a mask
    near_hand = cache(lambda: cell_windows(hand, px, m, rows, cols,
                                           large + 2 * round(NEAR_HAND * px)).any(axis=1)
                      if hand.any() else np.zeros(rows * cols, bool))
    at_large = window_index(labels.shape, px, m, rows, cols, large)
    hl = histograms(gather(labels, at_large))
    v_large = gather(v, at_large)
    ql = quantiles(v_large)
    at_small = window_index(labels.shape, px, m, rows, cols, small)
    hs = histograms(gather(labels, at_small))
    # whether a window's bright half is a kind's ink, where `decide`'s cast rule asks it (one
    # kind's hue over `CAST_KIND` of the small window, short of the half that rule allows;
    # before the nudged windows are judged, for every cell they are tried on): worked out there
    # only, a share of the cells
    inked, asked = np.zeros(len(hs), bool), np.zeros(len(hs), bool)

    def ask(cells: np.ndarray) -> None:
        cells = cells[~asked[cells]]
        if len(cells):
            inked[cells] = lit_inked(v_large[cells], gather(pix.sat, at_large[cells]),
                                     params.colour.faint_sat)
            asked[cells] = True

    hues = kind_hues(hs)
    hue = hues.max(axis=1)
    ask(np.flatnonzero((hue >= CAST_KIND) & (hue < 0.5)))
    qs, ts = quantiles(gather(v, at_small)), histograms(gather(tints, at_small), N_TINTS)
    code, conf = decide(hs, hl, qs, ql, params, ts, inked=inked)
    # a cell undecided at its centre (a card edge, a tile off the grid) is decided by windows
    # nudged a little each way when at least two agree and none says otherwise
    todo = np.flatnonzero(code == UNKNOWN_CODE)
    if len(todo):
        ask(todo)
        step = round(params.nudge * px)
        # the four nudges of every such cell judged in one batch (`decide` is per window)
        shifts = ((step, 0), (-step, 0), (0, step), (0, -step))
        at = window_index(labels.shape, px, m, rows, cols, small, shifts, todo)
        again = np.tile(todo, len(shifts))
        tries = decide(histograms(gather(labels, at)), hl[again], quantiles(gather(v, at)),
                       ql[again], params, histograms(gather(tints, at), N_TINTS),
                       inked=inked[again])[0].reshape(len(shifts), len(todo))
        known = tries != UNKNOWN_CODE
        first = np.where(known, tries, -1).max(axis=0)
        fix = (known.sum(axis=0) >= 2) & ((~known) | (tries == first)).all(axis=0)
        # a kind they agree on must show at the centre, on the top card's own tile
        fix[fix] = centre_shows(labels, px, m, rows, cols, todo[fix], first[fix], params)
        # a dung beetle's tile is one cell's: where a nudge that reads it looks towards a cell
        # read as a dung beetle at its own centre, it is that cell's tile reaching over
        fix[fix] = ~tile_beside(code, tries[:, fix] == K_CODE, first[fix] == K_CODE,
                                todo[fix], rows, cols, shifts)
        # and empty board they agree on must not show a kind's hue over the centre: a tile
        # washed pale by the lamp's glare keeps its hue there
        fix[fix] = ~((first[fix] == EMPTY_CODE) & (hue[todo[fix]] >= FILL_HUE))
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
    # (the cells the windows decide, at the centre, nudged or anchored, or at a tile off the
    # grid, and the bare board below: the twins a cell left undecided is judged against,
    # `hexapod_twins`; the rules between judge one cell's drawing or cast alone)
    plain = code != UNKNOWN_CODE
    # still undecided: a dung beetle whose black tile a cast tints off the neutral labels
    left = np.flatnonzero(code == UNKNOWN_CODE)
    if len(left):
        dung = left[cast_dung(v, pix.sat, hs, hl, qs, ql, ts, px, m, rows, cols, left, params,
                              inked)]
        code[dung], conf[dung] = K_CODE, 0.5
        # ... or whose grey beetle a clipped white lifts to fill's brightness or tints, where no
        # occluder's mask comes near the cell
        left = np.setdiff1d(left, dung)
        # (beside a mask, only a dung beetle's drawing shown plainly: `DUNG_HAND_MATCH`)
        near = near_hand()[left]
        beside = left[near]
        if len(beside):
            drawn = beside[dung_drawn(canvas, px, m, cols, beside,
                                      kind_hues(hs[beside]).sum(axis=-1) > DUNG_HUE,
                                      beside_hand=True)]
            code[drawn], conf[drawn] = K_CODE, 0.5
        left = left[~near]
        dung = left[clipped_dung(v, pix.sat, hs, hl, qs, ql, ts, px, m, rows, cols, left,
                                 n_clipped, params, inked)]
        code[dung], conf[dung] = K_CODE, 0.5
        # ... or whose drawing is the dung beetle's as printed, a grey beetle lighter than the
        # black tile about it, which no other kind's print shows, whatever the light's level
        # and colour (`hexapod_drawings.dung_drawn`: a dim lamp, a washed beetle, a warm cast);
        # where a kind's hue shows over the cell's small window (a cast's or a print's: the grey
        # drawing is blind to colour), by stricter bounds, its black tile and grey beetle tinted
        # alike (a cast tints both; a tile printed in a kind's ink is no dung beetle's)
        left = np.setdiff1d(left, dung)
        dung = left[dung_drawn(canvas, px, m, cols, left,
                               kind_hues(hs[left]).sum(axis=-1) > DUNG_HUE)]
        code[dung], conf[dung] = K_CODE, 0.5
        # ... or a one-cell beetle of the kind whose hue leads its small window, told by the
        # kind's own drawing (`hexapod_drawings.kind_drawn`), where a warm cast's labels no
        # kind's, a body washed pale or a dim ink left `decide` short of the kind it shows
        left = np.setdiff1d(left, dung)
        shown = hues[left]
        leading, share = shown.argmax(axis=-1), shown.max(axis=-1)
        led = share >= KIND_DRAWN_HUE
        others_hue = shown.sum(axis=-1) - share
        clear = led & (others_hue <= KIND_DRAWN_REST)
        beetle_led = clear & np.isin(leading, DRAWN_KINDS)
        cells, kinds = left[beetle_led], leading[beetle_led]
        drawn = kind_drawn(canvas, px, m, cols, cells, [CODES[k] for k in kinds])
        code[cells[drawn]], conf[cells[drawn]] = kinds[drawn], 0.5
        # ... or a stag's head or wing cases where the stag's violet leads, told by its drawing
        # (`stag_drawn`; the halves are named from 'S' as any stag's, below)
        stags = left[clear & (leading == STAG)]
        if len(stags):
            named = stag_drawn(canvas, px, m, [divmod(int(i), cols) for i in stags])
            drawn = np.array([divmod(int(i), cols) in named for i in stags])
            code[stags[drawn]], conf[stags[drawn]] = STAG, 0.5
        # ... or a moth's half where its teal leads, told by the moth's drawing (`moth_drawn`;
        # the halves are named from 'M' as any moth's, below)
        moths = left[led & (others_hue <= MOTH_DRAWN_REST) & (leading == MOTH)]
        drawn = moth_drawn(canvas, px, m, cols, moths)
        code[moths[drawn]], conf[moths[drawn]] = MOTH, 0.5
        # ... or a coloured one-cell beetle whose print turned its hue out of its kind's range
        # (an office printer's blue halfway to the stag's violet), named by its drawing and
        # the ink nearest its hue (`hexapod_printed`)
        left = left[code[left] == UNKNOWN_CODE]
        if len(left):
            left = left[coloured_drawn(canvas, px, m, cols, left)]
            kind = nearest_ink(pix, px, m, rows, cols, left, small, params.colour.hues)
            code[left[kind >= 0]], conf[left[kind >= 0]] = kind[kind >= 0], 0.5
    # still undecided: the board's printed lines along two opposite sides, on lit fill, mean
    # that no card lies on the cell (`bare_board`)
    left = np.flatnonzero(code == UNKNOWN_CODE)
    if len(left):
        bare = left[bare_board(grey(), pix.sat, v, px, m, rows, cols, left, params)]
        code[bare], conf[bare], plain[bare] = EMPTY_CODE, 0.5, True
        # ... along half of each side, where no occluder's mask comes near the cell, its very
        # centre is lit and no ink and no kind's hue covers its small window: a card hides the
        # whole of one side of each pair, while a pale hand's edges and shading beside a side
        # dip as a line does, a card half a cell off (beyond the third the reader is built for)
        # leaves half of two sides lined, its edge through the centre (`bare_board`,
        # `CENTRE_FILL`), and a dim, blurred tile's gutter, legs and card border dip as lines
        # do about its pale middle (`tile_centre`)
        left = np.flatnonzero(code == UNKNOWN_CODE)
        left = left[~near_hand()[left]]
        if len(left):
            centre = round(CENTRE_FILL * px)
            lit = (cell_windows(v, px, m, rows, cols, centre, cells=left) >=
                   params.colour.dim_v) & \
                (cell_windows(pix.sat, px, m, rows, cols, centre, cells=left) <
                 params.colour.ink_sat)
            left = left[lit.all(axis=1) & ~tile_centre(hs[left])]
        if len(left):
            bare = left[bare_board(grey(), pix.sat, v, px, m, rows, cols, left, params,
                                   HAND_LINE_SHARE)]
            code[bare], conf[bare], plain[bare] = EMPTY_CODE, 0.5, True
    # still undecided, no occluder's mask near: the code of the case's decided cells it looks
    # like, where they name one plainly (`hexapod_twins`); an empty cell is a twin only with
    # its lines all round (a pale hand read as fill on a noisy sensor, its lines' dips noise,
    # named the cards under the rest of it empty: held-out `hand` 67)
    left = np.flatnonzero(code == UNKNOWN_CODE)
    if len(left):
        clear = ~near_hand()
        twins = np.flatnonzero(plain & clear)
        empty = twins[code[twins] == EMPTY_CODE]
        if len(empty):
            lined = lines_all_round(channel_sum(), px, m, rows, cols, empty, params.min_line)
            twins = np.setdiff1d(twins, empty[~lined])
        cells, named = twin_codes(code, UNKNOWN_CODE, left[clear[left]], twins, hs, hl, qs, ql,
                                  ts)
        code[cells], conf[cells] = named, 0.5
    why: dict[int, str] = {int(i): "undecided" for i in np.flatnonzero(code == UNKNOWN_CODE)}
    code = code.reshape(rows, cols)
    conf = conf.reshape(rows, cols)
    grid = [[CODES[i] for i in row] for row in code]
    # the cells read empty and not hidden, and (under a white clipped in one channel or more,
    # the only ones it changes anything for: `unlined_dim_empty` under one or two,
    # `blown_unlined_empty` under three) those an occluder's mask reaches about
    open_empty = code.reshape(-1) == EMPTY_CODE
    near = None
    if hand.any():
        if n_clipped > 0:
            near = near_hand()
        cover = cell_windows(hand, px, m, rows, cols, large).mean(axis=1)
        hidden = np.flatnonzero(cover >= params.max_hand)
        if len(hidden):
            # a hand is opaque and comes from beyond the cell: the board's grid lines seen all
            # round a cell show that nothing lies over it (the mask took lit fill for skin)
            hidden = hidden[~lines_all_round(channel_sum(), px, m, rows, cols, hidden,
                                             params.min_line)]
        if len(hidden):
            hidden = hidden[~tile_in_gap(code.reshape(-1)[hidden], own, px, m, rows, cols,
                                         hidden, large, params.max_hand)]
        if len(hidden):
            # ... and where the hand lies over the cell's edge only, clear of its middle
            hidden = hidden[~kind_clear_of_hand(code.reshape(-1)[hidden], hand, px, m, rows,
                                                cols, hidden, small)]
        if len(hidden):
            # ... and where a coloured beetle's tile shows its own drawing plainly (skin shows
            # none; the masks may take an orange or gold tile for skin: `drawn_plainly`)
            k = code.reshape(-1)[hidden]
            asked = np.isin(k, PLAIN_KINDS)
            asked[asked] = hues[hidden[asked], k[asked]] >= PLAIN_HUE
            if asked.any():
                plain = drawn_plainly(canvas, px, m, cols, hidden[asked],
                                      [CODES[i] for i in k[asked]])
                asked[asked] = plain
                hidden = hidden[~asked]
        empty = hidden[code.reshape(-1)[hidden] == EMPTY_CODE]
        if len(empty):
            # lines along two opposite sides: no card lies on the cell, so it is empty
            # whatever lies over it — along half of each side at their own places, or along
            # most of it a pixel off (`LINE_REACH`): a pale hand's edges and shading beside
            # them dip as a line does, and half a side at one of several shifts is too little
            free = empty[lines_across(grey(), pix.sat, v, px, m, rows, cols, empty,
                                      params.min_line, params.colour.ink_sat,
                                      params.colour.dim_v, share=HAND_LINE_SHARE,
                                      reach=False) |
                         lines_across(grey(), pix.sat, v, px, m, rows, cols, empty,
                                      params.min_line, params.colour.ink_sat,
                                      params.colour.dim_v)]
            hidden = np.setdiff1d(hidden, free)
        open_empty[hidden] = False
        for i in hidden:
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "hand")
        for i in dark_occluder_dung(code.reshape(-1), own, raw_v, white, px, m, rows, cols,
                                    large):
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "dark_occluder_dung")
    for i in black_from_beyond(code.reshape(-1), raw_v, white, px, m, rows, cols, small,
                               planes):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "black_from_beyond")
    for i in unblack_dung(code.reshape(-1), raw_v, px, m, rows, cols, small, large):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "unblack_dung")
    dim = unlined_dim_empty(np.flatnonzero(open_empty), planes, white, grey, pix, px, m,
                            small, rows, cols, params, near, why,
                            unseen_marker_cells(frame, pose, layout))
    for i in dim:
        grid[i // cols][i % cols] = UNKNOWN
    undim = np.setdiff1d(np.flatnonzero(open_empty), dim)   # read empty, not doubted as dim
    if n_clipped == 3:
        # an occluder's mask that reaches about a cell keeps the outer-ring release off it
        for i in blown_unlined_empty(undim, blown, grey, pix, px, m, rows, cols, params, near):
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "blown_unlined")
        # a lit hand's crest, clipped as the fill is, ringed by its unclipped skin
        for i in lit_crest_empty(undim, blown, grey, pix, px, m, rows, cols, params):
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "lit_crest")
        # a dung beetle washed to the fill's pallor, its drawing showing faintly
        for i in undim[blown_dung(canvas, px, m, cols, undim)]:
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "blown_dung")
    if n_clipped == 0:
        glare_unknown(grid, blown, px, m, large, params.max_glare)
        _note_new(why, grid, "glare")
    if n_clipped < 3:
        # glare over a washed card's middle (clipped, or lit above the white), its lines hidden
        for i in glare_unlined_empty(undim, planes, white, blown, grey, pix, px, m, rows, cols,
                                     params):
            grid[i // cols][i % cols] = UNKNOWN
            why.setdefault(int(i), "glare_unlined")
    # a card washed by glare to fill's pallor whose middle still shows its print
    for i in glare_print_empty(undim, planes, white, blown, px, m, rows, cols, params):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "glare_print")
    # ... or by a lamp's spot short of the clip, its print standing out of the case's flat fill
    for i in washed_print_empty(undim, planes, white, px, m, rows, cols, params):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "washed_print")
    # a dung beetle's pale beetle lifted to the fill's brightness, its black tile about it
    for i in black_ring_empty(undim, labels, grey, pix, px, m, rows, cols, params):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "black_ring")
    # a pool of glare: cards about it lifted towards the clip, the one under its core washed out
    # to fill's pale flatness
    now = np.array([CODES.index(got) for row in grid for got in row])
    for i in glare_pool(now, planes, white, px, m, rows, cols, large):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "glare_pool")
    # the cards the glare's rules doubt show a dung beetle where its drawing shows (by its
    # relief, the spot's slope of light taken off: `dung_drawn`), away from any occluder's mask
    glared = np.array(sorted(i for i, rule in why.items() if rule in GLARE_DOUBTS
                             and grid[i // cols][i % cols] == UNKNOWN), np.int64)
    glared = glared[~near_hand()[glared]]
    if len(glared):
        for i in glared[dung_drawn(canvas, px, m, cols, glared,
                                   kind_hues(hs[glared]).sum(axis=-1) > DUNG_HUE)]:
            grid[i // cols][i % cols] = CODES[K_CODE]
            conf[i // cols, i % cols] = 0.5
            del why[int(i)]
    # a kind's hue in a middle that shows none of its ink, a blend of a neighbour's ink smeared
    # over a neutral tile rather than the tile's own colour (the codes as read before the pool)
    for i in smeared_hue(now, labels, pix.sat, hs, px, m, rows, cols, small, large):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "smeared_hue")
    for i in np.flatnonzero(off_frame(frame.shape, pose, layout)):
        grid[i // cols][i % cols] = UNKNOWN
        why.setdefault(int(i), "off_frame")
    # only stag and moth cells are named half by half: without any, the evidence is not needed
    if any(code in ("S", "M") for row in grid for code in row):
        stag, moth = half_evidence(labels, px, m, rows, cols, pix.sat, params.colour.ink_sat)
        name_halves(grid, stag, moth, params.half_margin,
                    lambda cells: stag_drawn(canvas, px, m, cells))
        _note_new(why, grid, "halves")
        for r, c in split_stags(grid, v, pix.sat, px, m, params.colour):
            grid[r][c] = UNKNOWN
            why.setdefault(int(r * cols + c), "split_stag")
    # a dung beetle read through a cast of the stag's hue where a stag's half may lie (once the
    # halves are named: whether a head or wing cases lies beside it)
    lead = stag_leads(hues)
    for r, c in stag_hued_dung(grid, cast_stag_dung(hs, hl, qs, ql, code.reshape(-1), lead,
                                                    params).reshape(rows, cols),
                               lead.reshape(rows, cols)):
        grid[r][c] = UNKNOWN
        why.setdefault(int(r * cols + c), "stag_hued_dung")
    # cards printed without colour (a black-and-white printer's): every tile grey, read as
    # dung beetles where any cell is read at all; none is read (`colourless.grey_tiles`)
    grey_print = grey_tiles(labels, pix.sat, cv2.max(hand, own), px, m, rows, cols,
                            [code for row in grid for code in row], params.colour.ink_sat)
    if grey_print:
        grid = [[UNKNOWN] * cols for _ in range(rows)]
        why = dict.fromkeys(range(rows * cols), "grey_print")
    conf = np.where(np.array([[c == UNKNOWN for c in row] for row in grid]), 0.0, conf)
    return CaseRead(tuple(tuple(row) for row in grid), conf, canvas, labels, px, m, white,
                    tuple(tuple(why.get(r * cols + c, "") if grid[r][c] == UNKNOWN else ""
                                for c in range(cols)) for r in range(rows)), grey_print)


# the share of a cell's small window any kinds' hues may cover for its drawing alone to make it a
# dung beetle (`dung_drawn`), as `decide`'s neutral dung beetle; above it, the drawing must match
# by stricter bounds and its tile and beetle show one tint (`hexapod_drawings.DUNG_MATCH_TINTED`,
# `TINT_GAP`). On hard 0-699 the drawing names 27 dung beetles, all right, whose small windows
# show kinds' hues over 0.03-0.98 of them (a cast tints a black tile as a print's red does); 5
# lie under this share.
DUNG_HUE = 0.2
# the coloured one-cell beetles (kind indices) whose tile, under an occluder's mask, is read
# where it shows its own drawing plainly (`drawn_plainly`)
PLAIN_KINDS = np.array([CODES.index(c) for c in ("B", "G", "Y", "R")])
# the rules that doubt a card the glare washed towards fill (or lifted, about a pool of it):
# the cells they leave '?' are asked again whether they show the dung beetle's drawing
GLARE_DOUBTS = ("glare_print", "washed_print", "glare_pool")
# a kind's hue over this share of an undecided cell's small window, and all other kinds' over
# KIND_DRAWN_REST at most, asks the kind's drawing (`kind_drawn`) of a one-cell beetle's kind
KIND_DRAWN_HUE = 0.4
KIND_DRAWN_REST = 0.2
DRAWN_KINDS = np.array([CODES.index(c) for c in BEETLES if c in CODES[:NK]])
# ... and for the moth's drawing, others' hues up to this share: a moth's teal lies between the
# blue's and the green's hues, and a cast or a pale print shifts a third of it to one of them
# (hard 2271, never-seen 2881 and 11487); the drawing tells it (`moth_drawn`)
MOTH_DRAWN_REST = 0.4


# the band (cells) about a cell's centre that must be lit and no ink for its lines along half of
# two opposite sides to make it bare board: a card's dark border band or tile there is a card
# whose edge runs through the centre; a card a third of a cell off beside the cell, blurred,
# reaches 0.1 cell from it
CENTRE_FILL = 0.15


# the share of a cell's small window over which one kind's hue (any level) shows a card's tile
# at its centre (`tile_centre`). A one-cell beetle's grey drawing covers about half that window:
# under a dim lamp it reads neutral and its tile's hue is left the rest (never-seen 22191, a red
# beetle at 0.47, was read empty). On hard 0-2299 and never-seen 20000-22699 the half-lines pass
# reads 113 empty cells, all right; one kind's hue shows over at most 0.46 of their windows, and
# over 0.4 in 2 (now '?')
CENTRE_KIND = 0.4


def tile_centre(h: np.ndarray) -> np.ndarray:
    """True for each window (`h`: label shares of cells' small windows, one row a cell) over
    `CENTRE_KIND` of which one kind's hue shows, at any level: a card's tile lies over the
    cell's centre. A card on the cell, at most a third of a cell off, covers the small window
    (0.45 cell) with its tile nearly whole; a neighbour's card as far off reaches no more than
    its paper gutter into it; and board fill is printed neutral, so under the case's white it
    takes a kind's hue only where a light's cast tints the whole board alike. A dim, blurred
    tile shows its hue at the pale level alone, its ink's saturation lost, and its gutters,
    legs and card border dip as printed lines do."""
    hue = kind_hues(h)
    return hue.max(axis=1) >= CENTRE_KIND


def stag_leads(hue: np.ndarray) -> np.ndarray:
    """For each cell (`hue`: its small window's `kind_hues`), whether the stag's hue (any
    level) leads the kinds' hues there, over none."""
    return (hue.argmax(axis=1) == STAG) & (hue[:, STAG] > 0)


def cast_stag_dung(hs: np.ndarray, hl: np.ndarray, qs: np.ndarray, ql: np.ndarray,
                   code: np.ndarray, lead: np.ndarray, params: CellParams = DEFAULT
                   ) -> np.ndarray:
    """For each cell (`code`: as read, one a cell; hs, hl, qs, ql: its centre windows'
    evidence as `decide` takes it; `lead`: `stag_leads`), whether it is read 'K' while the
    stag's hue leads the kinds' hues in its small window and `decide`'s neutral rule (no cast)
    does not read it a dung beetle: only the cast rules (`decide` given tint levels,
    `cast_dung`) took it for one (`hexapod_halves.stag_hued_dung`)."""
    out = (code == K_CODE) & lead
    cells = np.flatnonzero(out)
    if len(cells):
        out[cells] = decide(hs[cells], hl[cells], qs[cells], ql[cells], params)[0] != K_CODE
    return out


# `smeared_hue`: a cell read as a kind whose small window shows the kind's ink over less than
# this share of it (its middle shows the kind's hue only at its body and pale levels) ...
SMEAR_INK = 0.1
# ... and whose hued pixels there are, at their median, less than this share as saturated as
# the kind's ink in its large window (median): over half of the light in them is a neutral's.
# Hard 0-699, 2600-3099, held-out variants and glare 0-599, the cells read as a kind by their
# centre windows: 0.53 at least on a kind's own tile, washed stag wing cases and glare-lifted
# middles among them; hard 215 and 786, a blue beetle and a moth's half, 0.49 ('?' now); hard
# 2982, a dung beetle's grey beetle under a red neighbour's smear, 0.44
SMEAR_SAT = 0.5


def smeared_hue(code: np.ndarray, labels: np.ndarray, sat: np.ndarray, hs: np.ndarray, px: int,
                margin: int, rows: int, cols: int, small: int, large: int) -> np.ndarray:
    """The flat indices of the cells (`code`: as read, one a cell; `hs`: their small windows'
    label shares) read as a kind that are to be read '?' because their kind's hue is a blend,
    not the tile's own: the small window shows the kind's ink over less than `SMEAR_INK` of it,
    and its pixels of the kind's hue (ink, body or pale; saturation `sat`) are, at their
    median, less than `SMEAR_SAT` times as saturated as the kind's ink pixels in the large
    window. A tile's ink is printed flat about its insect, whose dark body keeps the ink's
    saturation, so the tile's own middle keeps most of the saturation its ink shows beside it
    under the same light, blur and cast; where a pixel is a blend of the ink and a neutral about
    as bright, its saturation falls with the ink's share of it. Motion blur mixes a card's
    tile with its neighbours' along one direction: a neighbour's ink smeared over a dung
    beetle's black tile and grey beetle tints them with the ink's hue at a fraction of its
    saturation, and with a cast of the same hue left on the grey (a warm lamp's, for red) the
    labels take the middle for the kind's pale and dark body levels while the neighbour's ink
    reaches the large window from one side (hard 2982: a dung beetle read red). A middle whose
    hue is less than half as saturated as that ink is mostly a neutral's: never a guess."""
    cells = np.flatnonzero(code < NK)
    if not len(cells):
        return cells
    k = code[cells]
    keep = hs[cells, INK + k] < SMEAR_INK
    cells, k = cells[keep], k[keep, None]
    if not len(cells):
        return cells
    lab_s = cell_windows(labels, px, margin, rows, cols, small, cells=cells)
    hued = (lab_s == INK + k) | (lab_s == BODY + k) | (lab_s == PALE + k)
    ink = cell_windows(labels, px, margin, rows, cols, large, cells=cells) == INK + k
    ok = hued.any(axis=1) & ink.any(axis=1)
    mid = _masked_medians(cell_windows(sat, px, margin, rows, cols, small, cells=cells), hued)
    ref = _masked_medians(cell_windows(sat, px, margin, rows, cols, large, cells=cells), ink)
    return cells[ok & (mid < SMEAR_SAT * ref)]


def _masked_medians(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """(rows,) the median of each row of `x` over its pixels in `mask` (inf where none)."""
    n = mask.sum(axis=1)
    s = np.sort(np.where(mask, x, np.inf), axis=1)
    at = np.arange(len(x))
    lo, hi = np.maximum(n - 1, 0) // 2, np.minimum(n // 2, x.shape[1] - 1)
    return (s[at, lo] + s[at, hi]) / 2


def _note_new(why: dict[int, str], grid: list[list[str]], rule: str) -> None:
    """Record `rule` (in `why`, flat cell index -> rule) for the '?' cells of `grid` that no
    earlier rule took."""
    cols = len(grid[0])
    for r, row in enumerate(grid):
        for c, got in enumerate(row):
            if got == UNKNOWN:
                why.setdefault(r * cols + c, rule)
