"""The board's printed grid lines and frame as evidence of what lies on a cell. The board is
printed with thin dark lines between its cells and a thick dark frame round the grid, under
every card and hand: lines seen along a cell's sides, with board fill lit alike either side of
them, tell what cannot lie over it (`lines_all_round`: nothing from beyond the board;
`lines_across`, `bare_board`: no card), and the share of each side showing its line or one flat
surface across it (`line_shares`, `lines_unseen`, `opposite`), or the frame hidden under one
flat surface (`frame_hidden`), tells cloth from fill. The lines are looked for in the channels
that the case's white leaves below the clip (`line_grey`, `unclipped`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import lru_cache, reduce

import numpy as np

from .hexapod_colour import CLIP, Pixels
from .hexapod_windows import DEFAULT, CellParams, row_medians

LINE_SPAN = (0.15, 0.85)    # the stretch of each side sampled: clear of the lines' crossings
LINE_SIDE = 3               # px (at `px_per_cell` 24) from the line to the fill sampled beside it
LINE_SHARE = 0.8            # a side's line must dip at this share of its samples
# a cell read empty under an occluder's mask is read when its line dips along this share of
# each of two opposite sides (`lines_across`): the hand's edge or its shade over the fill beside
# a side, or a lit finger's rim, hides a part of a line it runs near, and a card on the cell
# hides the whole of one side of each pair
HAND_LINE_SHARE = 0.5
# A side's line is looked for this far (px at 24 a cell) either side of where the case's pose
# puts it, at one shift for the whole side (the best): a pose fitted through the markers puts
# the grid a pixel or two off its printed place, more so through three markers under blur
# (hard 652: lines a pixel beside their place, dipping the shaded fill by 6-10 %, read as
# none), and a printed line 0.45 mm wide covers a fifth of a canvas pixel, so the two pixels
# sampled at its place miss it when it falls a pixel off. A line seen needs its dip along
# most of the side at one shift, which flat cloth's noise does not give at any; the test of
# no trace of a line (cloth, `COVER_FLAT`) keeps the line's own place only.
LINE_REACH = 1


@lru_cache(maxsize=32)
def _line_index(shape: tuple[int, ...], px: int, margin: int, rows: int, cols: int,
                shift: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Flat indices (cells, 4 * n) of the samples along each cell's four sides (top, bottom,
    left, right; `LINE_SPAN` of each): the two pixels on either side of the line's position
    (where the printed line falls, between them), and pixels `LINE_SIDE` px out on each side;
    every sample moved `shift` px across its side (down for the top and bottom sides, right
    for the left and right ones: `LINE_REACH`)."""
    t = np.arange(round(LINE_SPAN[0] * px), round(LINE_SPAN[1] * px) + 1)
    d = max(2, round(LINE_SIDE * px / 24))
    r, c = np.divmod(np.arange(rows * cols), cols)
    y0, x0 = (margin + r * px)[:, None] + shift, (margin + c * px)[:, None] + shift
    w = shape[1]
    on_a, on_b, out_a, out_b = [], [], [], []
    for edge, across in ((y0, False), (y0 + px, False), (x0, True), (x0 + px, True)):
        along = (x0 - shift if not across else y0 - shift) + t[None, :]
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


def _shifts(px: int) -> range:
    """The shifts (px) a side's line is looked for at (`LINE_REACH`, scaled to `px`)."""
    reach = round(LINE_REACH * px / 24)
    return range(-reach, reach + 1)


def lines_all_round(grey: np.ndarray, px: int, margin: int, rows: int, cols: int,
                    cells: np.ndarray, min_line: float = 0.03) -> np.ndarray:
    """True for each of `cells` (flat indices) whose four printed grid lines show along each
    side in `grey` (any brightness, e.g. the canvas's channel sum): at `LINE_SHARE` or more of
    the samples along every side, the line is darker than the fill a few pixels to either side
    by `min_line` of the brighter of the two. The lines are printed on the board under every
    card and hand; a hand over any part of a cell must cross a side (it comes from beyond the
    board), hiding the line there, so lines all round mean that nothing but what lies within
    them (a tile on the grid) covers the cell."""
    return (_seen_lines(grey, px, margin, rows, cols, cells, min_line) >= LINE_SHARE) \
        .all(axis=1)


def lines_across(grey: np.ndarray, sat: np.ndarray, v: np.ndarray, px: int, margin: int,
                 rows: int, cols: int, cells: np.ndarray, min_line: float = 0.03,
                 ink_sat: float = 0.45, min_v: float = 0.5, balance: float = 0.0,
                 share: float = LINE_SHARE, reach: bool = True) -> np.ndarray:
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
    share asked for only guards against noise taken for a line.) Without `reach`, a line is
    looked for at its own place only (not `LINE_REACH` about it)."""
    fill = (sat, v, ink_sat, min_v)
    if reach:
        seen = _seen_lines(grey, px, margin, rows, cols, cells, min_line, fill, balance)
    else:
        seen = _side_lines(grey, px, margin, rows, cols, cells, min_line,
                           _fill_beside(sat, v, px, margin, rows, cols, cells, ink_sat, min_v),
                           balance)
    seen = seen >= share
    return (seen[:, 0] & seen[:, 1]) | (seen[:, 2] & seen[:, 3])


def bare_board(grey: np.ndarray, sat: np.ndarray, v: np.ndarray, px: int, margin: int,
               rows: int, cols: int, cells: np.ndarray, params: CellParams = DEFAULT,
               share: float = LINE_SHARE) -> np.ndarray:
    """True for each of `cells` (flat indices) whose printed grid lines show in `grey` along
    two opposite sides (`lines_across`), each with board fill either side of it lit alike (the
    darker at least `line_balance` of the brighter: an occluder's or a card's edge along the
    line has it on one side only). A card, two cells or more across either way and at most a
    third of a cell off the grid, hides one side of each opposite pair of every cell whose
    middle it covers, so no card lies on such a cell: it is empty, whatever its fill's colour
    reads (a white clipped in a channel leaves the fill's colour unmeasured there) and whatever
    lies over it. The line shows along `share` of each side: the card hides the whole of one
    side of each pair, so half a side is as good as all of it against a card, where nothing
    else lies near (a pale hand's edges and shading beside a side dip as a line does: the
    reader asks half only of cells no occluder's mask comes near)."""
    return lines_across(grey, sat, v, px, margin, rows, cols, cells, params.min_line,
                        params.colour.ink_sat, params.colour.dim_v, params.line_balance,
                        share=share)


def _fill_beside(sat: np.ndarray, v: np.ndarray, px: int, margin: int, rows: int, cols: int,
                 cells: np.ndarray, ink_sat: float = 0.45, min_v: float = 0.5, shift: int = 0
                 ) -> np.ndarray:
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
    return reduce(operator.add, [planes[k] for k in line_channels(white)])


def line_channels(white: np.ndarray) -> list[int]:
    """The channels (BGR indices) the printed lines are looked for in (`line_grey`): those in
    which `white` lies below the clip, or all three when it clips in none or in all."""
    below = unclipped(white)
    return below if 0 < len(below) < 3 else [0, 1, 2]


def _seen_lines(grey: np.ndarray, px: int, margin: int, rows: int, cols: int,
                cells: np.ndarray, min_line: float,
                fill: tuple[np.ndarray, np.ndarray, float, float] | None = None,
                balance: float = 0.0, even: bool = False
                ) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cells, 4): the share of samples along each side of each of `cells` where the printed
    line shows (`_side_lines`), at the best of the shifts across the side within `LINE_REACH`
    of its place; with `fill` (the normalised saturation and brightness, and the bounds of
    `_fill_beside`), only where board fill lies beside the line at that shift. With `even`,
    also `_side_lines`' two arrays (`even=True`) at the line's own place (shift 0), from the
    same samples as that shift's share (worked out once for both)."""
    best, placed = None, ()
    for shift in _shifts(px):
        where = None if fill is None else _fill_beside(fill[0], fill[1], px, margin, rows,
                                                       cols, cells, fill[2], fill[3], shift)
        got = _side_lines(grey, px, margin, rows, cols, cells, min_line, where, balance,
                          even=even and shift == 0, shift=shift)
        if even and shift == 0:
            placed = got
            got = got[0]
        best = got if best is None else np.maximum(best, got)
    return (best, *placed) if even else best


def _side_lines(grey: np.ndarray, px: int, margin: int, rows: int, cols: int,
                cells: np.ndarray, min_line: float, where: np.ndarray | None = None,
                balance: float = 0.0, even: bool = False, shift: int = 0
                ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """(cells, 4): the share of samples along each side (top, bottom, left, right) of each of
    `cells` where the printed line shows in `grey` (`lines_all_round`), counting only the
    samples `where` (cells, 4 * n) allows, when given, and whose two sides are alike: the
    darker at least `balance` of the brighter (a line printed on the fill has the same fill
    under the same light either side of it; an occluder's edge lying along it has the
    occluder on one side). With `even`, also (cells, 4) the share of each side's samples with
    one surface either side (`where`, alike) when their mean dip is below `COVER_DIP` of
    `min_line`, else 0: one flat surface running across the line's position (cloth over it).
    Every sample is moved `shift` px across its side (`_line_index`)."""
    on_a, on_b, out_a, out_b = (a[cells] for a in _line_index(grey.shape, px, margin, rows,
                                                              cols, shift))
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


# Light cloth as bright as fill (`unlined_dim_empty`'s cover): a side is flat when this share
# of its samples has one surface either side of the line's position (no ink, lit, alike within
# `line_balance`) and their mean dip there is below `COVER_DIP` of `min_line`: flat cloth dips
# only by noise, which averages out over a side's 13-17 samples, while a printed line blurred or
# faded to a trace still dips on average
COVER_FLAT = 0.8
COVER_DIP = 0.33


def lines_unseen(cells: np.ndarray, grey: Callable[[], np.ndarray], pix: Pixels, px: int,
                 margin: int, rows: int, cols: int, params: CellParams = DEFAULT) -> np.ndarray:
    """True for each of `cells` (flat indices) none of whose sides shows the printed grid line
    along `fill_line` of it (`line_shares`)."""
    return (line_shares(cells, grey, pix, px, margin, rows, cols, params)
            < params.fill_line).all(axis=1)


def line_shares(cells: np.ndarray, grey: Callable[[], np.ndarray], pix: Pixels, px: int,
                margin: int, rows: int, cols: int, params: CellParams = DEFAULT,
                flat: bool = False, at_place: bool = False
                ) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cells, 4): the share of each side (top, bottom, left, right) of each of `cells` (flat
    indices) along which the printed grid line shows in `grey()` (`line_grey`, asked for only
    then), with board fill either side of it (`_fill_beside`, in the normalised `pix`) as
    bright within `line_balance`; a side shows its line at `fill_line`. A sleeve's edge that
    lies along a side, the line seen just beyond it, is no line on fill when the sleeve on one
    side of it is much darker or brighter than the fill on the other (the fill either side of a
    printed line 1/8 cell away is lit alike; a shadow's edge dims it gradually); a pale one is
    not, and `_sleeve_run` looks at what lies on the cell's other sides. The line is looked for
    at the best shift within `LINE_REACH` of its place. With `flat`, also each side's flat
    share (`_side_lines`' `even`) and the share along which the line shows at its own place
    (a trace of it: cloth is what shows none there, `CLOTH_TRACE`; at the best of several
    shifts flat cloth's noise would show one more often)."""
    fill = (pix.sat, pix.v, params.colour.ink_sat, params.colour.dim_v)
    if not flat:
        return _seen_lines(grey(), px, margin, rows, cols, cells, params.min_line, fill,
                           params.line_balance)
    # the share at the line's own place and the flat share come from the samples of shift 0
    shares, trace, even = _seen_lines(grey(), px, margin, rows, cols, cells, params.min_line,
                                      fill, params.line_balance, even=True)
    return shares, even, trace


def lines_within(grey: np.ndarray, mask: np.ndarray, px: int, margin: int, rows: int,
                 cols: int, min_line: float, least: int = 1) -> float:
    """The share of the printed grid lines' samples (`_line_index`, every cell's four sides)
    lying wholly within `mask` (the line's two pixels and the fill beside it on both sides)
    where the line shows in `grey` (`_side_lines`' dip), at the best of the shifts within
    `LINE_REACH` of its place; 0 when fewer than `least` samples lie within it."""
    inside = np.ascontiguousarray(mask).reshape(-1) > 0
    flat = np.ascontiguousarray(grey, np.float32).reshape(-1)
    best = 0.0
    for shift in _shifts(px):
        on_a, on_b, out_a, out_b = (a.reshape(-1) for a in
                                    _line_index(grey.shape, px, margin, rows, cols, shift))
        sel = inside.take(on_a) & inside.take(on_b) & inside.take(out_a) & inside.take(out_b)
        if np.count_nonzero(sel) < max(least, 1):
            continue
        a, b = flat.take(out_a[sel]), flat.take(out_b[sel])
        on = np.minimum(flat.take(on_a[sel]), flat.take(on_b[sel]))
        lo, hi = np.minimum(a, b), np.maximum(np.maximum(a, b), 1e-3)
        best = max(best, float(np.mean((lo - on) >= min_line * hi)))
    return best


def opposite(lined: np.ndarray) -> np.ndarray:
    """(cells,) True where `lined` (cells, 4: top, bottom, left, right) holds for two opposite
    sides."""
    return (lined[:, 0] & lined[:, 1]) | (lined[:, 2] & lined[:, 3])


def unclipped(white: np.ndarray) -> list[int]:
    """The channels (BGR indices) in which `white` lies below the clip."""
    return [k for k, w in enumerate(white) if w < CLIP - 5.0]


# `frame_hidden`: the band (px at `px_per_cell` 24, either way from the frame's drawn position)
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


def frame_hidden(grey: np.ndarray, pix: Pixels, px: int, margin: int, rows: int, cols: int,
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
    prof = row_medians(np.ascontiguousarray(grey, np.float32).reshape(-1).take(at))
    low = prof.min(axis=1)
    flat = low >= (1.0 - FRAME_FLAT) * prof.max(axis=1)
    v, sat = (np.ascontiguousarray(x, np.float32).reshape(-1) for x in (pix.v, pix.sat))
    c = params.colour
    # a line: its darkest point below the brightest either side of it (the band's ends may
    # lie beyond the board's edge, on the table; a card's or an arm's edge across the band is
    # a step, not a line), the surfaces beside it light
    k, mid = prof.shape[1], prof.shape[1] // 2
    before = np.arange(k)[None, :] < prof.argmin(axis=1)[:, None]
    beside = np.minimum(np.where(before, prof, 0.0).max(axis=1),
                        np.where(before, 0.0, prof).max(axis=1))
    step = max(1, round(FRAME_BESIDE * px / 24))
    # the band at offsets mid - step, mid and mid + step, median along the side: the two
    # beside the line lit and no ink, the middle one no ink
    band = at[:, [mid - step, mid, mid + step]]
    lit = row_medians(v.take(band[:, ::2])) >= c.dim_v
    ink = row_medians(sat.take(band)) >= c.ink_sat
    ends = lit[:, 0] & ~ink[:, 0] & lit[:, 1] & ~ink[:, 2]
    other = np.ones(rows * cols, bool)
    other[empty] = False
    seen, plain = np.zeros(outer.shape, bool), np.zeros(outer.shape, bool)
    seen[outer] = ends & (low <= (1.0 - FRAME_SEEN) * beside)
    plain[outer] = ends & (low <= (1.0 - FRAME_SEEN_CLIPPED) * beside)
    seen[other] = plain[other] = False
    hidden, clipped = np.zeros(outer.shape, bool), np.zeros(outer.shape, bool)
    hidden[outer] = flat & ~ink[:, 1]
    clipped[outer] = prof.max(axis=1) >= clip - 5.0
    # (motion blur fades a line across its direction only: the frame is judged against its
    # sides of the same direction, top and bottom or left and right)
    for pair in ((0, 1), (2, 3)):
        if seen[:, pair].sum() < FRAME_SIDES:
            hidden[:, pair] = False
        if plain[:, pair].sum() < FRAME_SIDES:
            hidden[:, pair] &= ~clipped[:, pair]
    return hidden[cells].any(axis=1)
