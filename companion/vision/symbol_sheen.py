"""A symbol washed towards white by a glossy sleeve's sheen or a glare, and the paler ink it can
pass for. A sheen adds the lamp's own light to whatever lies under it: against the card's white
reference that is the same amount in each channel where the white did not clip, and up to
OVEREXPOSED_MAX times as much where it did (the paper brighter than seen, by a factor the clip
hides); a channel the symbol itself clipped in may hold any more. So a dark ink washed so lies
on a ray from its print towards a white of uncertain tint, and on a phone's picture whose paper
clipped in red and green a web red disc washed by 0.4 of the paper reads (0.99, 0.85, 0.53):
pale orange, a blend of paper and our yellow at half strength (held-out `phone-photo` 7055,
read as the yellow triangle, the card misread; its shape has no say on a card whose band the
sheen paled). A symbol read as a coloured ink whose core could be a darker coloured ink washed
so, by WASH_MIN of the paper at least (within WASH_TOL in each channel), of that ink as printed
on its own card (a symbol the card reads as it) or as the model has it, is not named as the
paler ink (`washed_paler`): the card is left unread rather than misread. A paler ink's own
blends with paper cannot pass: they move along its hue, not along the grey axis (a yellow
blend keeps green near red, a washed red keeps it near blue), and where every channel clipped
the reader reads nothing anyway."""

from __future__ import annotations

import numpy as np

from .colour import OVEREXPOSED_MAX, ColourModel, normalise
from .fast_reduce import as_chars, fast_mean, max3, min3, sum3
from .symbol_samples import CLIP_NEAR, N_CORE, N_SYMBOL
from .symbol_shape import either_ruled_out

WASH_MIN = 0.15   # of the paper: less is a print's own spread, no wash
WASH_TOL = 0.02   # per channel, paper-relative: noise and JPEG round a symbol's core
N_LEAST = 3       # of them, the darkest: the part of the symbol a sheen washed least
NEAR_PAPER = 0.9  # a channel of an ink this near the paper's is clipped by any wash
SHEEN_OVER = 1.05  # of the paper seen, in a channel it did not clip: more light than the lamp's


def washed_paler(text: list[str], symbols: np.ndarray, white: np.ndarray, model: ColourModel
                 ) -> np.ndarray:
    """Per card and symbol (cards x 6): a symbol read as a coloured ink whose core could be a
    darker coloured ink washed towards white (see the module docstring). `symbols` the symbol
    samples as sampled (cards x 6·N_SYMBOL x 3 BGR), `white` each card's white reference
    (cards x 3 BGR)."""
    chars = as_chars(text)
    n = len(text)
    out = np.zeros(chars.shape, bool)
    inks = np.asarray(model.inks, np.float64)
    coloured = np.flatnonzero(~model.neutral)
    light = inks.mean(-1)
    pairs = [(k, j) for k in coloured for j in coloured if light[j] < light[k]]
    # (each card's test is its own: only the cards with a symbol read as a paler ink are
    # worked on, and of them only those symbols, each against its own card's inks)
    paler = np.zeros(chars.shape, bool)
    for k in {k for k, _ in pairs}:
        paler |= chars == model.letters[k]
    cards = np.flatnonzero(paler.any(1))
    if not cards.size:
        return out
    chars, white = chars[cards], np.asarray(white, np.float64)[cards]
    m = len(cards)
    # (a symbol's least washed part: the mean of the darkest N_LEAST of its core samples; a
    # sheen is a band and may spare part of a symbol, which a yellow's own ink then shows)
    mid = symbols.reshape(n, 6, N_SYMBOL, 3)[cards, :, :N_CORE]
    order = np.argsort(sum3(mid), -1)[..., :N_LEAST]
    raw = fast_mean(mid[np.arange(m)[:, None, None], np.arange(6)[:, None], order], 2)  # BGR
    core = normalise(raw, white[:, None, :]).astype(np.float64)                  # RGB
    clipped = raw[..., ::-1] >= CLIP_NEAR                                        # RGB
    # (how much the wash may add per unit, channel by channel: 1 where the white did not clip)
    reach = np.where(white[:, ::-1] >= CLIP_NEAR, OVEREXPOSED_MAX, 1.0)[:, None, :]
    for k, j in pairs:
        ci, si = np.nonzero(chars == model.letters[k])
        if not ci.size:
            continue
        # the darker ink as printed on each card (its symbols read so) and as the model has it
        refs = np.concatenate([core, np.broadcast_to(inks[j], (m, 1, 3))], 1)[ci]  # at x 7 x 3
        valid = np.concatenate([chars == model.letters[j], np.ones((m, 1), bool)], 1)[ci]
        d = core[ci, si][:, None, :] - refs                                       # at x 7 x 3
        low = np.maximum(max3((d - WASH_TOL) / reach[ci]), WASH_MIN)
        # (a channel the symbol clipped in, or in which the darker ink is near the paper
        # already, a wash takes into the clip: any value at or above the bound)
        # (never below the ink: a wash only adds)
        open_top = (clipped[ci, si][:, None, :] | (refs >= NEAR_PAPER)) & (d >= -WASH_TOL)
        high = min3(np.where(open_top, np.inf, d + WASH_TOL))
        hit = ((low <= high) & valid).any(-1)
        out[cards[ci[hit]], si[hit]] = True
    return out


def also_ruled_out(ruled: list[tuple[str, ...]], text: list[str], washed: np.ndarray
                   ) -> list[tuple[str, ...]]:
    """`ruled` (per card, the letters ruled out per symbol, `CardRead.not_shape`) with each
    `washed` symbol's letter as read (`text`) ruled out too."""
    out = list(ruled)
    for c in np.flatnonzero(washed.any(1)):
        out[c] = either_ruled_out(ruled[c], tuple(
            t if w else "" for t, w in zip(text[c], washed[c], strict=True)))
    return out


def sheen_over(symbols: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Per card and symbol (cards x 6; `symbols` their samples as seen, cards x 6 x N_SYMBOL x 3
    BGR, `white` the cards' white references, cards x 3 BGR): the symbol's median sample is
    brighter than its card's paper by SHEEN_OVER in a channel in which that paper did not clip
    (CLIP_NEAR). Ink only takes light away, so such a symbol lies under more light than the
    paper it is judged against: a sleeve's sheen or a glare spot over it. The lamp re-read
    (`symbols._lamp_read`) judges a card whose paper clipped against the paper the table's lamp
    makes of it, and the sheen does not follow the lamp: held-out `sleeves` 13227, a pale
    yellow triangle under a sleeve's sheen (its red 1.1 of the paper's, which clipped in blue
    and green only) read as red against the lamp's paper, the card reported whole as RYBYRR for
    RYBYRY. Such a symbol is left unread there."""
    return over_paper(np.median(symbols, axis=2), white[:, None, :])   # cards x 6


def over_paper(seen: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Per sample (… x 3 BGR as seen, `white` its card's white broadcast to it): brighter than
    that paper by SHEEN_OVER in a channel in which the paper did not clip (CLIP_NEAR). Ink only
    takes light away: such a sample lies under more light than the paper beside it."""
    return ((seen > SHEEN_OVER * white) & (white < CLIP_NEAR)).any(-1)


__all__ = ["also_ruled_out", "over_paper", "sheen_over", "washed_paler"]
