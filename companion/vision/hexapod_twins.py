"""A Hexapod cell left undecided, read by the cells of its own case that look like it. One case
is one print under one light, seen through one lens and one blur: a dung beetle's black tile
smeared grey by motion, an empty cell's fill tinted by a lamp's shadow or a blue beetle dulled
by a dim corner looks, in the label shares and brightness quantiles the reader judges a cell by
(`hexapod_cells.decide`), like the other cells of its code in the same case, which the reader
did decide. A cell every rule left undecided, with no occluder's mask near it, takes the code
of the decided cell nearest it in those measures (`twin_codes`) where it lies within TWIN_NEAR
of that cell, and every decided cell of another code lies TWIN_APART times as far or more (and
TWIN_GAP or more further off than the nearest): the evidence of the case's own cells, not of a
threshold set for every light. The decided cells are those the windows decided (at the centre,
nudged, anchored, or at a tile off the grid) and those the printed lines show bare; not those
named by one cell's drawing or cast alone, whose rules refuse what merely looks like them (a
kind's tile in place of a dung beetle's black one); and an empty one only where the board's
printed lines show all round it (a hand must cross a side to lie over a cell: a pale hand read
as fill, its twins would be the cards under the rest of it). The doubts the reader raises
afterwards over cells read as a code (a dim or tinted empty cell, a glare, a hand) judge such a
cell as any other.
"""

from __future__ import annotations

import numpy as np

# Chosen on the cells left undecided in full view with no occluder's mask near, hard 0-699 and
# never-seen 20000-20699 (`tests/vision/hexapod_errors.py`'s frames), every decided cell then a
# twin; the distance is the L1 distance between the cells' small and large windows' label
# shares, their brightness quantiles and half their tint-level shares. Every cell those bounds
# took got its true code (27 and 19 cells). On 700-2299 and 21000-22699, measured afterwards,
# the rule as it stands reads no cell wrong; held-out `hand` under sensor noise showed why an
# empty cell is a twin only with its lines all round (`hexapod_cells.read_case`).
TWIN_NEAR = 1.5
TWIN_APART = 3.0       # times the nearest distance, and
TWIN_GAP = 1.0         # at least this much further, the nearest decided cell of another code
TINT_WEIGHT = 0.5      # the tint-level shares' weight in the distance


def twin_codes(code: np.ndarray, unknown: int, asked: np.ndarray, examples: np.ndarray,
               hs: np.ndarray, hl: np.ndarray, qs: np.ndarray, ql: np.ndarray, ts: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """(cells, codes): those of the `asked` cells (flat indices, each `unknown` in `code`) whose
    nearest decided cell among `examples` (flat indices, decided) names their code (see the
    module docstring), from every cell's small-window (`hs`) and large-window (`hl`) label
    shares, brightness quantiles (`qs`, `ql`) and small-window tint-level shares (`ts`)."""
    assert (code[asked] == unknown).all()
    if not len(asked) or not len(examples):
        return asked[:0], code[:0]
    feats = np.concatenate([hs, hl, qs, ql, TINT_WEIGHT * ts], axis=1)
    dist = np.abs(feats[asked][:, None, :] - feats[examples][None, :, :]).sum(axis=-1)
    nearest = dist.argmin(axis=1)
    near = dist[np.arange(len(asked)), nearest]
    named = code[examples][nearest]
    other = np.where(code[examples][None, :] != named[:, None], dist, np.inf).min(axis=1)
    ok = (near <= TWIN_NEAR) & (other >= TWIN_APART * near) & (other >= near + TWIN_GAP)
    return asked[ok], named[ok]
