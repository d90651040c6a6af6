"""Symbols left unread by their colour that an object lies over, told before their shape and hue
may name them. A symbol the colour reading leaves unread with nothing found over it
(`CardRead.unread_ink`) may still be read by its printed shape and faint hue (`shape_ink`,
`washed_holodex`, `washed`): a sheen or a glare washes an ink pale. But the crossing guards of
the read (`symbol_crossings`) judge the letters it read, and a pale object lying over a symbol
is as pale and of a hue as near an ink as a washed symbol: a tan pen's tip over a blue disc is a
red disc washed pale to its colour and its shape alike (held-out `plain-busy` 18, the pen come
in aslant over the neighbouring card: the card, 0.9 in view, reported whole with the disc read
red, confidence 0.8). What print never does, an object does: its one colour runs straight from
the symbol's middle on past the card's outline (`symbol_crossings.runs_out`, asked here as of a
coloured reading). A symbol whose colour runs out so is no longer free to be named; it stays
unread, and its card is reported with its '?'. Only the symbols free to be named are asked, so
the read itself and the searches that pick a card's pose by it are as before."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .calibration import TableView
from .colour import normalise
from .symbol_crossings import runs_out
from .symbol_samples import (
    BORDER_DEPTHS,
    N_BORDER,
    N_PAPER,
    N_SYMBOL,
    CardRead,
    Pose,
    sample_cards,
)


def run_out(bgr: np.ndarray, poses: Sequence[Pose], view: TableView,
            reads: Sequence[CardRead]) -> np.ndarray:
    """Per card and symbol (cards x 6): of the symbols each read leaves free to be named
    (`CardRead.unread_ink`), those whose colour runs straight on past the card's outline
    (`symbol_crossings.runs_out`, as from a coloured reading: from the symbol's middle, or from
    its halo sample facing its edge where an object shows there)."""
    free = np.array([r.unread_ink or (False,) * 6 for r in reads], bool).reshape(-1, 6)
    out = np.zeros(free.shape, bool)
    at = np.flatnonzero(free.any(1))
    if not at.size:
        return out
    some = [poses[k] for k in at]
    vals, _ = sample_cards(bgr, some, view)
    white = np.array([reads[k].white_bgr for k in at], np.float64).reshape(-1, 3)
    ns = 6 * N_SYMBOL
    halo_at = ns + N_PAPER + N_BORDER
    band = normalise(vals[:, ns + N_PAPER:halo_at], white[:, None, :]).reshape(
        len(some), len(BORDER_DEPTHS), -1, 3)
    asked = free[at]
    out[at] = runs_out(bgr, some, view, white, asked, vals[:, :ns], vals[:, halo_at:], band,
                       None, asked)
    return out


def unfree_run_out(bgr: np.ndarray, poses: Sequence[Pose], view: TableView,
                   reads: Sequence[CardRead]) -> list[CardRead]:
    """`reads` with every symbol whose colour runs out past the card's outline (`run_out`) no
    longer free to be named (taken out of `CardRead.unread_ink`; it stays '?')."""
    out = list(reads)
    gone = run_out(bgr, poses, view, reads)
    for k in np.flatnonzero(gone.any(1)):
        r = out[k]
        left = tuple(bool(u and not g) for u, g in zip(r.unread_ink, gone[k], strict=True))
        out[k] = replace(r, unread_ink=left if any(left) else ())
    return out
