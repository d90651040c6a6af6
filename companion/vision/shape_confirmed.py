"""Web symbols of plain ink left unread for what lies beside them, read where their printed shape
shows their letter. The colour reading leaves a symbol `?` not only where its colour fits no ink
(`CardRead.unread_ink`, which `shape_ink.hue_named` reads by shape and hue) but also where its
ink seems to carry on past its outline (`symbol_crossings.ink_beyond`: a fingertip or a sleeve of
its hue lying over it). A diamond's and a triangle's tips reach further than a disc's rim, and a
phone's sharpening halo or a pose a little off puts their ink into the halo samples: on held-out
`phone-photo` tables a solid blue diamond, the plainest symbol of its card, was left so. An object
lying over a symbol changes its picture, so where the picture matches the printed silhouette of
one letter plainly (`shape_ink.shown`) and the symbol's core is that letter's ink, strongly
(chroma STRONG_CHROMA or more, its hue within STRONG_DEG of the ink's; a disc no darker than the
red ink, as a coin is), the symbol is that letter, read at `shape_ink.NAMED_CONFIDENCE` and
marked as read by shape and hue (`CardRead.by_hue`). Nothing across the card's edge onto it
(`CardRead.crossed`), its shape not ruled out by its own samples (`CardRead.not_shape`), and on
cards with MIN_LETTERS letters read by colour. The reader does so on its final reads of web cards
(`HexelReader._web_shapes`), with no ink in doubt."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .colour import ColourModel
from .inks import chroma, wrap_angle
from .shape_ink import NAMED_CONFIDENCE, PALE_TOL
from .symbol_samples import CardRead

STRONG_CHROMA = 0.2   # a core's chroma from which its ink is plain (hue_named's: 0.08)
STRONG_DEG = 30.0     # its hue within this of the ink of the letter its shape shows (45)
MIN_LETTERS = 3       # letters a card reads by colour for its symbols to be judged so


def confirmable(r: CardRead) -> bool:
    """Whether `r` has a symbol `shape_confirmed` may read: left unread, nothing across the
    card's edge onto it, not unread for its colour alone (`hue_named`'s), on a card reading
    MIN_LETTERS letters."""
    return r.letters >= MIN_LETTERS and any(_open(r))


def _open(r: CardRead) -> list[bool]:
    crossed = r.crossed or (False,) * 6
    unread = r.unread_ink or (False,) * 6
    return [c == "?" and not x and not u
            for c, x, u in zip(r.symbols, crossed, unread, strict=True)]


def shape_confirmed(reads: Sequence[CardRead], shows: np.ndarray, cores: np.ndarray,
                    inside: np.ndarray, model: ColourModel) -> tuple[list[CardRead], int]:
    """`reads` (web cards) with every symbol `confirmable` leaves open read where its shape and
    strong ink agree (see the module docstring), and how many were. `shows` (cards x 6) the
    letter each symbol's shape shows ('.' none, `shape_ink.shown`); `cores` (k x 6 x 3) the
    paper-normalised mean colours of the symbols' cores of the cards `inside` the frame (a bool
    per read, k of them, `inks.symbol_cores`); `model` the web colour model they were read
    with."""
    out = list(reads)
    inks = np.asarray(model.inks, np.float64)
    _, ink_hue = chroma(inks)
    letters = list(model.letters)
    row = np.cumsum(inside) - 1
    named = 0
    for k, r in enumerate(reads):
        if not inside[k] or not confirmable(r):
            continue
        length, hue = chroma(cores[row[k]])
        symbols, conf = list(r.symbols), list(r.edge_confidence)
        by_hue = list(r.by_hue) if r.by_hue else [False] * 6
        ruled = r.not_shape or ("",) * 6
        for d in np.flatnonzero(_open(r)):
            letter = str(shows[k, d])
            if letter not in letters or letter in ruled[d] or length[d] < STRONG_CHROMA:
                continue
            j = letters.index(letter)
            if abs(wrap_angle(hue[d] - ink_hue[j])) > math.radians(STRONG_DEG):
                continue
            if letter == "R" and (cores[row[k], d] < inks[j] - PALE_TOL).any():
                continue
            symbols[d], conf[d], by_hue[d] = letter, NAMED_CONFIDENCE, True
            named += 1
        if symbols != list(r.symbols):
            out[k] = replace(r, symbols="".join(symbols), edge_confidence=tuple(conf),
                             by_hue=tuple(by_hue))
    return out, named
