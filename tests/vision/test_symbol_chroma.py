"""A coloured symbol told by its chroma where its ink fractions fail (`symbol_chroma`): crafted
symbol samples washed by a sheen (white light added) and boosted by a phone's saturation, read
as their own ink and never as another; a sample clipped in a channel, a blend of two inks, a
grey ring tinted in its band and paper leave the symbol unread; and through `decide`, a washed,
boosted red disc whose samples the ink fits leave unexplained reads red."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import builtin_model
from companion.vision.symbol_chroma import chroma_read, usable_samples
from companion.vision.symbol_decide import decide
from companion.vision.symbol_samples import N_CORE, N_SYMBOL

WEB = builtin_model("web")
HOLO = builtin_model("holodex")


def _ink(model, letter: str) -> np.ndarray:
    return np.asarray(model.inks[model.letters.index(letter)], np.float64)


def _boost(x: np.ndarray, sat: float) -> np.ndarray:
    """A phone's saturation boost about each sample's own grey."""
    grey = x.mean(-1, keepdims=True)
    return grey + sat * (x - grey)


def _disc(ink: np.ndarray, wash: float = 0.0, sat: float = 1.0) -> np.ndarray:
    """A solid symbol's 19 samples (paper-relative RGB): its ink, a little paper blended into
    the outer ones (a blurred rim), `wash` of the paper's light added, boosted by `sat`."""
    share = np.r_[np.ones(N_CORE), np.full(N_SYMBOL - N_CORE, 0.8)][:, None]
    x = share * ink + (1.0 - share) + wash
    return _boost(x, sat)


def _card(symbols: list[np.ndarray]) -> np.ndarray:
    return np.asarray(symbols, np.float64)[None]                # 1 x 6 x 19 x 3


def _read(model, x: np.ndarray, usable: np.ndarray | None = None) -> list[str]:
    usable = np.ones(x.shape[:-1], bool) if usable is None else usable
    k, ok = chroma_read(x, usable, np.ones(x.shape[:2], bool), model)
    return ["".join(model.letters[i] if o else "?" for i, o in zip(kc, oc, strict=True))
            for kc, oc in zip(k, ok, strict=True)]


def test_a_washed_boosted_symbol_reads_as_its_own_ink() -> None:
    r, y, b = (_ink(WEB, c) for c in "RYB")
    washes = (0.0, 0.2, 0.35, 0.5)
    for wash in washes:
        for sat in (1.0, 1.3, 1.5):
            x = _card([_disc(r, wash, sat), _disc(y, wash, sat), _disc(b, wash, sat),
                       _disc(r, wash, sat), _disc(y, wash, sat), _disc(b, wash, sat)])
            assert _read(WEB, x) == ["RYBRYB"], (wash, sat)
    holo = _card([_disc(_ink(HOLO, "R"), 0.4, 1.4), _disc(_ink(HOLO, "B"), 0.4, 1.4)] * 3)
    assert _read(HOLO, holo) == ["RBRBRB"]


def test_a_clipped_sample_leaves_the_symbol_unread() -> None:
    # a red disc washed so far that one sample clipped: its channel differences are lost
    x = _card([_disc(_ink(WEB, "R"), 0.3, 1.3)] * 6)
    white = np.array([[150.0, 160.0, 170.0]])
    raw = np.clip(x[..., ::-1] * white[:, None, None, :], 0.0, 255.0)
    raw[0, 2, 3, 2] = 255.0        # symbol 2: one sample's red at the clip
    usable = usable_samples(raw, white)
    assert usable.sum() == 6 * N_SYMBOL - 1
    assert _read(WEB, x, usable) == ["RR?RRR"]
    # a white that clipped in a channel: no sample of the card holds its differences
    assert not usable_samples(raw, np.array([[150.0, 250.0, 170.0]])).any()


def test_blends_of_two_inks_rings_and_paper_stay_unread() -> None:
    r, y, b = (_ink(WEB, c) for c in "RYB")
    orange = _disc(0.5 * r + 0.5 * y, 0.2, 1.3)              # halfway between red and yellow
    half = _disc(r, 0.2, 1.3)
    half[N_CORE:] = _disc(y, 0.2, 1.3)[N_CORE:]                 # red middle, yellow rim
    paper = np.ones((N_SYMBOL, 3)) + 0.3                        # washed paper, no ink
    ring = np.ones((N_SYMBOL, 3))                                # a ring whose band a lamp
    ring[N_CORE:] = _disc(r, 0.3, 1.0)[N_CORE:]                 # tinted red: a bare middle
    x = _card([orange, half, paper, ring, _disc(b, 0.3, 1.3), _disc(y, 0.3, 1.3)])
    assert _read(WEB, x) == ["????BY"]


def test_decide_reads_a_boosted_red_disc_the_ink_fits_leave_unexplained() -> None:
    # a phone's boost past the paper in red: the red ink's fit needs a shade beyond its range
    r = _ink(WEB, "R")
    x = _card([_disc(r, 0.3, 1.5)] + [_disc(_ink(WEB, c), 0.0, 1.0) for c in "YBRYB"])
    kind, alpha, dark = WEB.explain(x.astype(np.float32))
    text, _ = decide(kind, alpha, dark, WEB)
    assert text == ["?YBRYB"]
    text, conf = decide(kind, alpha, dark, WEB, hues=(x, np.ones(x.shape[:-1], bool)))
    assert text == ["RYBRYB"] and conf[0, 0] == 0.5
    # with its samples clipped (not usable), it stays unread
    text, _ = decide(kind, alpha, dark, WEB, hues=(x, np.zeros(x.shape[:-1], bool)))
    assert text == ["?YBRYB"]
