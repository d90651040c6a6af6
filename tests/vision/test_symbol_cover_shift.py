"""A card's pose a little off its print moves every symbol's halo alike, so its own ink shows in
the same halo places round several symbols: that is no fingertip carrying a symbol's ink past
its edge (`symbol_crossings.ink_beyond`, SHIFTED_SYMBOLS). A fingertip over one symbol, or two side
by side, still covers them."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import PAPER_K, builtin_model
from companion.vision.symbol_crossings import MAX_OWN_HALO, SHIFTED_SYMBOLS, ink_beyond
from companion.vision.symbol_samples import N_HALO

from .test_reader import _read_scene


def _halo(places: dict[int, list[int]], letter_kind: int, alpha: float = 0.9
          ) -> tuple[np.ndarray, np.ndarray]:
    """One card's halo samples (1 x 6·N_HALO): for each symbol in `places`, its ink
    `letter_kind` at `alpha` in the halo places listed, all the rest paper."""
    kind = np.full((1, 6 * N_HALO), PAPER_K)
    a = np.zeros((1, 6 * N_HALO), np.float32)
    for d, ks in places.items():
        for k in ks:
            kind[0, d * N_HALO + k] = letter_kind
            a[0, d * N_HALO + k] = alpha
    return kind, a


def test_own_ink_in_the_same_halo_places_round_most_symbols_is_the_pose_not_a_finger():
    """Hard table 536 as the reader saw it: four blue discs show their ink in halo places 4
    and 5, one of them in place 0 too. Three samples of its own ink round that disc covered
    it before; two of them are where the others show theirs."""
    model = builtin_model("holodex")
    blue = model.letters.index("B")
    kind, a = _halo({1: [4, 5], 2: [0, 4, 5], 3: [4, 5], 4: [4, 5]}, blue)
    assert not ink_beyond(["BBBBBB"], kind, a, model).any()
    # ... but a third sample of its own ink away from those places still covers it
    kind, a = _halo({1: [4, 5], 2: [0, 1, 2, 4, 5], 3: [4, 5], 4: [4, 5]}, blue)
    assert ink_beyond(["BBBBBB"], kind, a, model).tolist() == [[False, False, True] + [False] * 3]


def test_a_fingertip_over_two_symbols_of_one_ink_still_covers_both():
    """Two discs side by side under one fingertip of their hue share halo places: fewer than
    SHIFTED_SYMBOLS others, so each keeps counting them."""
    assert SHIFTED_SYMBOLS >= 3
    model = builtin_model("holodex")
    red = model.letters.index("R")
    over = list(range(MAX_OWN_HALO + 1))
    kind, a = _halo({0: over, 1: over}, red)
    assert ink_beyond(["RRBVBB"], kind, a, model).tolist() == [[True, True] + [False] * 4]
    # unread symbols and grey rings (judged by their own shape tests) lend no shift
    grey = model.letters.index("V")
    kind, a = _halo({0: over, 1: over, 2: over}, red)
    for d in (3, 4):
        kind[0, d * N_HALO:d * N_HALO + len(over)] = grey
        a[0, d * N_HALO:d * N_HALO + len(over)] = 0.9
    assert ink_beyond(["R??VVB"], kind, a, model).tolist() == [[True] + [False] * 5]


def test_own_ink_all_round_several_symbols_still_covers_them():
    """A hand of the symbols' hue over four of them (or blur spreading their ink all round)
    leaves no paper across from the inked places: no shift, each symbol covered."""
    model = builtin_model("holodex")
    red = model.letters.index("R")
    kind, a = _halo({d: list(range(N_HALO)) for d in range(4)}, red)
    assert ink_beyond(["RRRRBB"], kind, a, model).tolist() == [[True] * 4 + [False] * 2]
    # the same places inked round four symbols, but paper across from them round only two
    kind, a = _halo({0: [4, 5, 0], 1: [4, 5, 0], 2: [4, 5, 1], 3: [4, 5, 1]}, red)
    assert ink_beyond(["RRRRBB"], kind, a, model).tolist() == [[True] * 4 + [False] * 2]


def test_hard_table_536_reads_its_blue_card():
    """Rendered hard table 536 (with markers): a blue card 88 px across, in full view, read
    BB?BBB and reported occluded before: its pose put halo samples of four discs on their ink."""
    score, _ = _read_scene(536, "holodex")
    assert score.misreads == 0 and score.false_cards == 0
    assert score.full_flagged == 0, score
