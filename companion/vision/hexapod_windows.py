"""The cell reader's shared ground: its tunables (`CellParams`), the codes a cell reads as
(`CODES`: a kind, 'K' a dung beetle, '.' empty board, '?' unknown) and the windows about each
cell's centre on the rectified canvas (`window_index`, `cell_windows`, `gather`), with the label
shares and brightness quantiles taken over them (`histograms`, `quantiles`), which the cell
decisions (`hexapod_cells`) and the evidence of lines, cover and occluders (`hexapod_lines`,
`hexapod_cover`, `hexapod_occluders`) all read. A window's flat indices depend only on the
canvas's geometry, so each is worked out once and cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .hexapod_colour import KINDS, N_LABELS, ColourParams
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
    half_margin: float = 0.1       # evidence needed to name a half without the run's parity
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


def gather(img: np.ndarray, index: np.ndarray) -> np.ndarray:
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
    return gather(img, window_index(img.shape, px, margin, rows, cols, size, (shift,), cells))


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


def row_medians(x: np.ndarray) -> np.ndarray:
    """`np.median(x, axis=-1)` of finite float values, bit for bit: the middle of each sorted
    row, or the mean of the middle two in x's dtype (NumPy's median checks every row for NaN
    and partitions; one vectorised sort of these short rows costs a fraction of it)."""
    n = x.shape[-1]
    s = np.sort(x, axis=-1)
    h = n // 2
    return s[..., h] if n % 2 else (s[..., h - 1] + s[..., h]) / 2


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


CODES = (*KINDS, "K", EMPTY, UNKNOWN)
K_CODE, EMPTY_CODE, UNKNOWN_CODE = len(KINDS), len(KINDS) + 1, len(KINDS) + 2
# a cell's neighbours across its sides (row, column steps): above, below, left, right, the
# order of `hexapod_lines._side_lines`' sides
SIDE_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
