"""A coloured symbol washed by white light past the sensor's clip, told by the channels that did
not clip. A glossy sleeve's sheen or a glare adds the same light to every channel of a symbol
(`symbol_sheen`), so the middle of a symbol printed in ink `m` (paper-relative RGB) shows
`1 + a·(m - 1) + L`: `a` the ink's strength there (1 as printed; a camera's tone curve flattens
it towards the clip), `L` the light added. A washed ink clips first in its brightest channel,
and `symbol_chroma` leaves it unread (a clipped channel holds no difference). `wash_read` reads
it as the ink that model fits in its middle samples (`N_CORE`), for some strength within
WASH_STRENGTH and some light no less than -WASH_TOL, within WASH_TOL in every unclipped channel
and reaching every clipped one, in all but one sample that shows any channel, while every other
ink, grey ones too, and bare paper miss by more than WASH_RIVAL_TOL in at least WASH_AGAINST of
them. Where the card's white clipped in a channel its paper lies brighter than seen by up to
OVEREXPOSED_MAX, independently per channel: an ink is taken to fit where some such paper lets
it, a rival to miss only where none does. A sample clipped in every channel shows nothing;
a symbol with a sample crushed to black, or brighter than the card's paper in a channel where
that paper did not clip (`symbol_sheen.over_paper`: a wash lifts no ink past the paper beside
it, a phone's saturation boost does, held-out `phone-photo` 98, a grey ring's hollow), is not
read so.
A washed blue keeps green above red, as nothing else on a table does (WASH_INKS). A washed red
keeps only its green and blue nearly equal, and a washed yellow only a low blue, as skin in a
lamp's light or a glare does: they are read only where the symbol's halo is bare paper all
round (`bare`), no hand reaching over it (never-seen hard 12959, a blue diamond under a hand
read as red without that; 12039, a yellow read as red)."""

from __future__ import annotations

import numpy as np

from .colour import CLIP_LOW, OVEREXPOSED_MAX, ColourModel
from .fast_reduce import max3, min3
from .symbol_chroma import wanted_samples
from .symbol_samples import CLIP_NEAR, N_CORE
from .symbol_sheen import over_paper

WASH_STRENGTH = (0.35, 1.25)   # an ink's strength in a symbol's middle, as the camera shows it
WASH_INKS = ("B",)     # the letters a wash is read as with a halo not bare (see above)
WASH_TOL = 0.04        # per channel, paper-relative: noise and JPEG near the clip
WASH_RIVAL_TOL = 0.1   # per channel: a rival is ruled out only where it misses by more
WASH_SEEN = 4          # middle samples showing some channel that a read needs
WASH_AGAINST = 4       # middle samples each rival must be ruled out in
_GRID = np.linspace(*WASH_STRENGTH, 41, dtype=np.float32)


def _feasible(x: np.ndarray, high: np.ndarray, low: np.ndarray, ink: np.ndarray,
              grid: np.ndarray, tol: float) -> np.ndarray:
    """Per sample (… x 3 paper-relative RGB against the white as seen, `high`: its channels
    clipped at white), whether `1 + a·(ink - 1) + L` fits it for some strength `a` in `grid`,
    light L ≥ -tol and a paper from 1 to 1 / `low` times as bright as seen in each channel
    (… x 3; `low` 1 where the white did not clip): within `tol` in each unclipped channel, at
    least the seen value less `tol` in each clipped one. Each channel has its own paper, so for
    one strength each channel bounds L by an interval of its own, and the sample fits where
    they meet."""
    base = 1.0 + grid[:, None] * (ink - 1.0)                    # a x 3
    least = (x * low)[..., None, :] - base                      # … x a x 3: L at the least
    most = x[..., None, :] - base                               # ... and the most paper
    # (the channels' bounds met by `max3` and `min3`: the same values as NumPy's reductions of
    # a last axis of three, which are far slower over the strengths of every sample)
    lo = np.maximum(max3(least - tol), -tol)
    up = min3(np.where(high[..., None, :], np.inf, most + tol))
    return (lo <= up).any(-1)


def wash_read(raw: np.ndarray, white: np.ndarray, want: np.ndarray, model: ColourModel,
              bare: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(letter index, read) per symbol (cards x 6), for the symbols `want` marks that have a
    middle sample clipped at white in some channels but not all, from their samples as sampled
    (`raw`: cards x 6 x 19 x 3 BGR) and each card's white (`white`: cards x 3 BGR); `bare`
    (cards x 6; None: none) the symbols whose halo is bare paper all round. See the module
    docstring."""
    best = np.zeros(want.shape, np.int64)
    read = np.zeros(want.shape, bool)
    if not want.any():
        return best, read
    at, seen, w = wanted_samples(raw, white, want)
    seen = seen[:, :N_CORE]                                         # k x 7 x 3 BGR
    high = seen >= CLIP_NEAR
    shows = ~high.all(-1)                                           # k x 7
    # (a sample brighter than the card's paper in a channel where that paper did not clip is
    # lit apart from the card: a wash lifts no ink past the paper beside it)
    apart = over_paper(seen, w[:, None, :]).any(-1)
    kept = (((high.any(-1) & shows).any(-1)) & ~(seen <= CLIP_LOW).any((-1, -2))
            & (shows.sum(-1) >= WASH_SEEN) & ~apart)
    at, seen, high, shows, w = at[kept], seen[kept], high[kept], shows[kept], w[kept]
    if not at.size:
        return best, read
    w = np.maximum(w, 8.0)
    x = (seen / w[:, None, :])[..., ::-1]                          # RGB, paper-relative
    low = np.where(w >= CLIP_NEAR, 1.0 / OVEREXPOSED_MAX, 1.0)[:, None, ::-1]
    hi = high[..., ::-1]
    inks = np.asarray(model.inks, np.float32)
    # the rivals: every ink (grey ones too) and bare paper (no ink: strength 0)
    rivals = [(inks[j], _GRID) for j in range(len(inks))] + [
        (np.ones(3, np.float32), np.zeros(1, np.float32))]
    fits = np.stack([_feasible(x, hi, low, ink, grid, WASH_TOL) for ink, grid in rivals], -1)
    loose = np.stack([_feasible(x, hi, low, ink, grid, WASH_RIVAL_TOL)
                      for ink, grid in rivals], -1)
    fits &= shows[..., None]                                        # k x 7 x rivals
    loose &= shows[..., None]
    n_seen = shows.sum(-1)
    n_fit = fits.sum(-2)                                            # k x rivals
    n_out = n_seen[:, None] - loose.sum(-2)
    halo = (np.zeros(len(at), bool) if bare is None else
            np.asarray(bare, bool).ravel()[at])
    for j in np.flatnonzero(~model.neutral):
        others = np.delete(np.arange(len(rivals)), j)
        ok = (n_fit[:, j] >= n_seen - 1) & (n_out[:, others] >= WASH_AGAINST).all(-1)
        if model.letters[j] not in WASH_INKS:
            ok &= halo
        best.ravel()[at[ok]] = j
        read.ravel()[at[ok]] = True
    return best, read


__all__ = ["wash_read"]
