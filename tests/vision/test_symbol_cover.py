"""A fingertip lying over a symbol: printed ink stops at the symbol's edge, so a coloured
symbol whose own ink carries on into the paper around it (its halo) is covered, '?', never
read (`symbol_crossings.ink_beyond`). Checked on the rendered hard table where the old reader read a
grey ring under an orange fingertip as red, and on the samples themselves."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import OTHER, PAPER_K, builtin_model
from companion.vision.symbol_crossings import MAX_OWN_HALO, ink_beyond
from companion.vision.symbol_samples import N_HALO

from .test_reader import _read_hard


def test_a_ring_under_a_fingertip_is_not_read_as_red():
    """Hard table 438: a finger reaches over one card's ring from beyond its edge; its skin,
    under the scene's warm light, fits the red ink in the ring and in half the ring's halo.
    The old reader read that card RBBVBB (truth VBBVBB) as sure: a misread."""
    score = _read_hard(438, "holodex")
    assert score.misreads == 0 and score.false_cards == 0
    assert score.correct == score.full


def _halo(letter_kind: int, n_own: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The halo samples of one card (1 x 6·N_HALO): symbol 0's first `n_own` samples of ink
    `letter_kind` at `alpha`, all the rest paper."""
    kind = np.full((1, 6 * N_HALO), PAPER_K)
    a = np.zeros((1, 6 * N_HALO), np.float32)
    kind[0, :n_own] = letter_kind
    a[0, :n_own] = alpha
    return kind, a


def test_own_ink_beyond_a_coloured_symbol_covers_it():
    model = builtin_model("holodex")            # letters R, B, V (V the grey ring)
    red = model.letters.index("R")
    kind, a = _halo(red, MAX_OWN_HALO + 1, 0.55)
    assert ink_beyond(["RBBVBB"], kind, a, model).tolist() == [[True] + [False] * 5]
    # a blurred disc's faint trace in its halo, or a little of it, covers nothing
    for n_own, alpha in ((MAX_OWN_HALO, 0.9), (N_HALO, 0.3)):
        kind, a = _halo(red, n_own, alpha)
        assert not ink_beyond(["RBBVBB"], kind, a, model).any()


def test_only_the_symbols_own_coloured_ink_counts():
    model = builtin_model("holodex")
    blue, grey = model.letters.index("B"), model.letters.index("V")
    # another ink in the halo (a neighbour's blur) is not this symbol's ink carrying on
    kind, a = _halo(blue, N_HALO, 0.8)
    assert not ink_beyond(["RBBVBB"], kind, a, model).any()
    # a grey ring is judged by its own shape tests, not by this one
    kind, a = _halo(grey, N_HALO, 0.8)
    assert not ink_beyond(["VBBVBB"], kind, a, model).any()
    # nor does an unread symbol or unexplained samples
    kind, a = _halo(OTHER, N_HALO, 0.0)
    assert not ink_beyond(["?BBVBB"], kind, a, model).any()
