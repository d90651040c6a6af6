"""Naming the two-cell insects half by half. A stag beetle's card covers two cells down a
column (head 'St' over wing cases 'Sb'), a moth's two along a row ('Ml', 'Mr'): `name_halves`
pairs a run of such cells from its start when known cells close the run, and when it touches a
'?', lets the cells' own drawings decide (`half_evidence`: a stag's head shows ink and few pale
wing-case highlights, a moth's body lies on its partner's side; a cell whose pale pixels outnumber
its ink tells nothing: its print is paler than ours) or leaves the run '?'. A stag half whose
partner is not in view as a stag (a lone cell beside a '?', the end of an open run) is named only
when its own drawing shows a head clearly (`LONE_HEAD`), never as wing cases: a pale office print's
head shows little ink amid pale pixels, which is all the wing cases' evidence is, and a blue
beetle that a printer's hue shift takes for a stag's violet shows no head either. A stag cell
that no pairing names (its wing cases covered by another card, or the run beside a '?' either
way) is named the head when it shows the head as printed (`stag_drawn`: the stag's own drawing,
grey, matched within a third of a cell), the lone stag cell right below it then its wing cases;
and the wing cases when it shows them as printed, beating the head's drawing and every one-cell
beetle's (other beetles' bodies match the wing cases' drawing often, their own drawings better),
the lone stag cell right above it then its head. A dung beetle
read only through a colour cast, its window's leading hue the stag's, is '?' when the cell above
or below it could be the stag's other half (a head above it, wing cases below it, or '?' where
the stag's hue leads too: `stag_hued_dung`): a pale stag's half, its dark body on its violet
tile under a violet cast, is as tinted a dark-and-light window. A stag pair whose column shows a
line of paper across its shared side, tile above and below it, is '?' (`split_stags`): a stag's
card prints both halves on one tile, and two cards of another kind show the gutter between
their tiles.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .hexapod_colour import BODY, INK, PALE, ColourParams
from .hexapod_drawings import BEETLES_MODEL, STAG_MODEL, drawings, matches
from .hexapod_windows import MOTH, STAG
from .observation import UNKNOWN


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
    ink, highlight = _share(w == INK + STAG), _share(pale)
    stag = ink - highlight - 0.3
    # a printed highlight is a thin stroke on the wing cases, never more of the cell than the
    # ink around it: where "highlights" outnumber the ink, the print (or the light) is paler
    # than ours and its ink itself passes for highlights, so the drawing tells nothing
    stag = np.where(highlight > ink, 0.0, stag)
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


# the stag score (`half_evidence`) a stag half whose partner is not in view must reach to be
# named (a head: its ink over the pale pixels by this much above the offset); our print's heads
# score 0.04 at the median, a pale office print's -0.2, wing cases -0.23
LONE_HEAD = 0.15


# The stag's drawing as printed (grey, head over wing cases: `hexapod_drawings.STAG_MODEL`),
# which a stag cell left unnamed is matched against (`stag_drawn`): where its head's drawing
# matches the cell (`hexapod_drawings.matches`) by HEAD_MATCH at least and by HEAD_MARGIN more
# than the wing cases' drawing does, the cell is the head. Measured on every fully visible
# cell of hard 0-699: 951 of 990 heads pass, none of 973 wing cases, and 9 of the 25 786 other
# cells (board fill included; it matters only where one is also read as the stag's violet).
# The other beetles' bodies, dark ovals with legs on a tile, match the wing cases' drawing as
# often as one time in five, so alone it names nothing (see WING_MATCH).
HEAD_MATCH = 0.5
HEAD_MARGIN = 0.25

# A stag cell left unnamed is its wing cases where the wing cases' drawing matches it by
# WING_MATCH at least and by WING_MARGIN more than the head's drawing and each one-cell beetle's
# (`hexapod_drawings.BEETLES_MODEL`: a beetle's body matches its own drawing better than the
# stag's wing cases). Measured on every fully visible cell of hard 0-349: 396 of 462 wing cases
# pass, and none of the 13 921 other cells (heads, moths, the one-cell beetles and board fill,
# whose margin is 0.12 at most); 20 of the 25 wing cases in full view left '?' there pass.
WING_MATCH = 0.5
WING_MARGIN = 0.25


def stag_drawn(canvas: np.ndarray, px: int, margin: int, cells: list[tuple[int, int]]
               ) -> dict[tuple[int, int], str]:
    """Of `cells` ((row, col) on a case's `canvas`, BGR, `px` per cell after `margin` px),
    those whose drawing is the stag's head ('St', see HEAD_MATCH) or its wing cases ('Sb', not
    its head nor any one-cell beetle: see WING_MATCH), each matched once as
    `hexapod_drawings.matches` matches a cell (the beetles only for a cell that may be wing
    cases)."""
    stag, beetles = drawings(STAG_MODEL, px), drawings(BEETLES_MODEL, px)
    out = {}
    for cell in cells:
        got = matches(canvas, px, margin, cell, stag)
        if got is None:
            continue
        head, wing = got
        if head >= HEAD_MATCH and head - wing >= HEAD_MARGIN:
            out[cell] = "St"
        elif wing >= WING_MATCH and wing - head >= WING_MARGIN:
            others = matches(canvas, px, margin, cell, beetles)
            if others is not None and wing - max(others) >= WING_MARGIN:
                out[cell] = "Sb"
    return out


def name_halves(grid: list[list[str]], stag: np.ndarray, moth: np.ndarray,
                margin: float = 0.08,
                drawn: Callable[[list[tuple[int, int]]], dict[tuple[int, int], str]] | None = None
                ) -> None:
    """Replace the 'S' and 'M' cells of `grid` (in place) by St/Sb and Ml/Mr, or '?'. Given
    `drawn` (`stag_drawn` of the case: the cells among those asked whose drawing is the stag's
    head or wing cases, with the half each shows), a stag cell the pairing leaves '?' that shows
    the head is named so (its partner hidden or covered by another card), and a stag cell left
    '?' right below it is its wing cases: the drawing tells a head from the wing cases where no
    count of the run can. Then a stag cell still '?' that shows the wing cases is named so, and
    a stag cell left '?' right above it is its head."""
    rows, cols = len(grid), len(grid[0])
    stags = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == "S"]
    for c in range(cols):
        line = [grid[r][c] for r in range(rows)]
        for r, code in _pair(line, "S", ("St", "Sb"), stag[:, c], margin, LONE_HEAD):
            grid[r][c] = code
    left = [(r, c) for r, c in stags if grid[r][c] == UNKNOWN]
    if drawn is not None and left:
        shown = drawn(left)
        # heads first, each naming the '?' stag cell below it; then wing cases, each naming the
        # one above it (a cell already named as another's half keeps that name)
        for half, partner, step in (("St", "Sb", 1), ("Sb", "St", -1)):
            for r, c in sorted(cell for cell, got in shown.items() if got == half):
                if grid[r][c] != UNKNOWN:
                    continue
                grid[r][c] = half
                if (r + step, c) in left and grid[r + step][c] == UNKNOWN:
                    grid[r + step][c] = partner
    for r in range(rows):
        for c, code in _pair(grid[r], "M", ("Ml", "Mr"), moth[r, :], margin):
            grid[r][c] = code


def stag_hued_dung(grid: list[list[str]], doubtful: np.ndarray, lead: np.ndarray
                   ) -> list[tuple[int, int]]:
    """The (row, col) cells of `grid` (its stag halves named) read 'K' that `doubtful` (rows x
    cols: read as a dung beetle only through a colour cast, the stag's hue leading in its
    window) marks and that may be a stag's half whose partner was read: wing cases below a head
    ('St') or a head above wing cases ('Sb'), or either beside a '?' where the stag's hue leads
    too (`lead`, rows x cols). A stag's two halves lie down one column on its violet tile, and a
    cast of the stag's own hue makes a pale print's dark body on that tile a tinted
    dark-and-light window, as a dung beetle's black tile and grey beetle are. A cell with no
    such neighbour above or below keeps 'K'."""
    rows = len(grid)

    def partner(r: int, c: int, half: str) -> bool:
        return 0 <= r < rows and (grid[r][c] == half or
                                  (grid[r][c] == UNKNOWN and bool(lead[r, c])))

    return [(int(r), int(c)) for r, c in zip(*np.nonzero(doubtful), strict=True)
            if grid[r][c] == "K" and (partner(r - 1, c, "St") or partner(r + 1, c, "Sb"))]


def _pair(line: list[str], kind: str, names: tuple[str, str], score: np.ndarray,
          margin: float, lone: float | None = None) -> list[tuple[int, str]]:
    """(index, code) for every `kind` cell of one column or row: runs pair up from their start
    (first name, second name, ...); a run next to '?' may start or end with a half whose partner
    is hidden, and then the cells' scores (> 0: first name) must pick one pairing clearly. Given
    `lone`, a half whose partner lies outside the run in the pairing picked is named only when it
    is a first half scoring at least `lone`, else '?'."""
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
        if pick and lone is not None:
            # the halves whose partner lies beyond the run: the first when the pairing starts
            # with a second half, the last when it ends with a first half
            ends = ([0] if pick[0] == names[1] else []) + \
                ([length - 1] if pick[-1] == names[0] else [])
            pick = list(pick)
            for k in ends:
                if pick[k] != names[0] or score[i + k] < lone:
                    pick[k] = UNKNOWN
        out += [(i + k, pick[k] if pick else UNKNOWN) for k in range(length)]
        i = j
    return out


# `split_stags`: the band (cells) either side of a stag pair's shared side searched for a row of
# paper, the share of that row (over the middle `GUTTER_SPAN` of the column) that must be lit
# paper, and the share of paper in a row of the tile beyond it on either side at most (glare
# washing a stag's tile towards paper washes a broad patch, not a line between two tiles)
GUTTER_REACH = 0.4
GUTTER_SPAN = 0.5
GUTTER_PAPER = 0.6
GUTTER_TILE = 0.2


def split_stags(grid: list[list[str]], v: np.ndarray, sat: np.ndarray, px: int, margin: int,
                colour: ColourParams) -> list[tuple[int, int]]:
    """The (row, col) cells of the stag pairs of `grid` (its halves named: 'St' over 'Sb') to be
    read '?' because a row of paper runs across their column within `GUTTER_REACH` of their
    shared side, between rows of tile: lit (brightness `v` at `light_v` or more) and at most
    faintly tinted (saturation `sat` up to `faint_sat`) over `GUTTER_PAPER` of the column's
    middle `GUTTER_SPAN`, with a row above it and one below it that are such paper over
    `GUTTER_TILE` of it at most. A stag's card prints its head and wing cases on one tile,
    which runs on over the side its two halves share; two cards of another kind, one above the
    other, show the paper gutter between their tiles (their own card's, or the top card's
    border), wherever within a third of a cell of the side they lie. A pale print under a
    printer's hue shift takes a blue beetle's tiles for the stag's violet (held-out
    office-lowlight 6159), and two such cells in a column pair up as a stag."""
    reach, half = round(GUTTER_REACH * px), round(GUTTER_SPAN * px / 2)
    out = []
    for r in range(len(grid) - 1):
        for c in range(len(grid[0])):
            if grid[r][c] != "St" or grid[r + 1][c] != "Sb":
                continue
            y, x = margin + (r + 1) * px, margin + c * px + px // 2
            at = (slice(y - reach, y + reach), slice(x - half, x + half))
            share = ((v[at] >= colour.light_v) & (sat[at] <= colour.faint_sat)).mean(axis=1)
            above = np.minimum.accumulate(share)[:-2]
            below = np.minimum.accumulate(share[::-1])[::-1][2:]
            if ((share[1:-1] >= GUTTER_PAPER) & (above <= GUTTER_TILE) &
                    (below <= GUTTER_TILE)).any():
                out += [(r, c), (r + 1, c)]
    return out
