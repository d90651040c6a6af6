"""A black or dark grey pen from beyond a blurred card's edge onto one of its symbols
(`symbol_crossings.dark_across`): darker than the band printed beside it, from the paper inside the
band to past the card's outline, at the edge's middle place and not at its ends (a dark grey pen
read as the grey ring by less, where the place is darker than a ring's blurred print leaves it). The
symbol under it is reported unseen ('?'), never read as another letter (a disc as the grey ring,
a yellow triangle as blue under a warm lamp). Crafted cards as the pen sweep draws them
(`tests/vision/pen_sweep.py`); every pen case below misread before the rule, and the cards
with no pen over them that were read whole still are."""

from __future__ import annotations

import pytest

from companion.vision.colour import builtin_model

from .pen_sweep import Case, read_one

# (edition, symbols, width px, lamp, defocus px, motion px, edge, pen, thickness): the letters
# read before the rule in the comment
CASES = [
    ("web", "RBYRBY", 44, "warm", 1.2, 6, 2, "black", 0.16),        # RB[B]RBY
    ("web", "BBRRYY", 56, "warm", 2.0, 0, 5, "black", 0.16),        # BBRRY[B]
    ("web", "RBYRBY", 36, "warm", 2.8, 0, 5, "black", 0.22),        # R??R?[B]
    ("holodex", "RBVRBV", 36, "neutral", 2.0, 6, 1, "black", 0.16),  # R[V]VRBV
    ("holodex", "RBVRBV", 44, "neutral", 2.8, 0, 4, "black", 0.16),  # RBVR[V]V
    ("holodex", "BBRRVV", 36, "neutral", 2.8, 0, 2, "black", 0.22),  # BB[V]?VV
    ("holodex", "BBRRVV", 44, "warm", 2.8, 6, 3, "black", 0.22),     # BBR[V]VV
    ("holodex", "RBVRBV", 36, "warm", 2.8, 0, 0, "black", 0.22),     # [V]BVRBV
    ("holodex", "RBVRBV", 36, "neutral", 2.0, 6, 0, "dark", 0.22),   # [V]BVRBV
    ("holodex", "RBVRBV", 36, "neutral", 2.8, 0, 4, "dark", 0.22),   # RBVR[V]V
    ("holodex", "RBVRBV", 36, "warm", 2.0, 6, 0, "dark", 0.22),      # [V]?VRBV
    ("holodex", "RBVRBV", 44, "neutral", 2.8, 6, 0, "dark", 0.22),   # [V]BVRBV
    ("holodex", "RBVRBV", 44, "warm", 2.8, 0, 4, "dark", 0.16),      # RBVR[V]V
    ("holodex", "BBRRVV", 36, "neutral", 2.8, 0, 1, "dark", 0.16),   # ?[V]RRVV
]
# the cases whose card, with no pen over it, was read whole before the rule
WHOLE_CLEAN = [c for k, c in enumerate(CASES) if k in (0, 1, 3, 4, 6, 8, 9, 10, 11, 12)]


@pytest.mark.parametrize("case", CASES)
def test_a_dark_pen_over_a_blurred_symbol_is_not_read(case):
    c = Case(*case)
    read = read_one(c.image(), c.width, builtin_model(c.edition))
    assert read[c.edge] == "?", read
    assert all(r in ("?", s) for r, s in zip(read, c.symbols, strict=True)), read


@pytest.mark.parametrize("case", WHOLE_CLEAN)
def test_the_same_card_with_no_pen_is_still_read_whole(case):
    c = Case(*case[:6], None, None, 0.0)
    assert read_one(c.image(), c.width, builtin_model(c.edition)) == c.symbols
