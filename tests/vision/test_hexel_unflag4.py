"""Grey rings under a lamp bright enough to clip the paper. The clipped paper's white reference
is neutral though the lamp is not, so a blend of that brighter-than-seen paper with a ring's
ink keeps the lamp's colour and fits a coloured ink's line at up to about half strength. Such
a ring is read as the ring when its shape says ring, and a hollow tinted shape is never read as
a coloured symbol. Cards are drawn with plain cv2 (tests/vision/crafted.py) under per-channel
gains, defocused and JPEG-compressed (`test_symbols_unflag._jpeg_card`) and read at the known
pose; sample fits crafted for `symbol_decide.decide` pin the hollow-shape rule; rendered hard tables
with the same light check the whole reader against their truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.colour import PAPER_K, builtin_model
from companion.vision.symbol_decide import decide

from .test_reader import _read_hard
from .test_symbols_unflag import _jpeg_card, _read

BRIGHT_CLIPPED = (2.5, 2.0, 1.5)   # RGB gains: paper (~240) clipped in every channel, red most


def _symbol(middle_kind: int, middle_alpha: float, middle_dark: float, outer_kind: int,
            outer_alpha: float, outer_dark: float) -> tuple[np.ndarray, ...]:
    """One card whose six symbols are alike (kind, alpha, dark; each 1 x 6 x 19): the 7 middle
    samples one way, the 12 around them another."""
    kind = np.empty((1, 6, 19), np.int64)
    alpha = np.empty((1, 6, 19))
    dark = np.empty((1, 6, 19))
    kind[..., :7], alpha[..., :7], dark[..., :7] = middle_kind, middle_alpha, middle_dark
    kind[..., 7:], alpha[..., 7:], dark[..., 7:] = outer_kind, outer_alpha, outer_dark
    return kind, alpha, dark


def test_a_red_tinted_ring_with_a_bare_paper_middle_is_not_a_red_disc():
    """Bare paper in the middle, a band of samples fitting red at just over half strength
    around it: that is a ring (a grey one tinted by a clipping lamp, as on hard seed 304), and
    no printed coloured symbol is hollow, so it is not read 'R' (the previous release did)."""
    model = builtin_model("holodex")
    red = model.letters.index("R")
    kind, alpha, dark = _symbol(PAPER_K, 0.0, 0.05, red, 0.56, 0.6)
    text, _conf = decide(kind, alpha, dark, model)
    assert text == ["??????"]


def test_a_solid_red_disc_still_reads():
    """The guard above is for hollow shapes only: a red disc, ink through its middle and a
    little paler at its blurred rim, reads 'R'."""
    model = builtin_model("holodex")
    red = model.letters.index("R")
    kind, alpha, dark = _symbol(red, 0.95, 0.8, red, 0.6, 0.5)
    text, _conf = decide(kind, alpha, dark, model)
    assert text == ["RRRRRR"]


@pytest.mark.parametrize("width_px,blur", [(50.0, 1.0), (56.0, 1.0), (56.0, 1.4)])
def test_rings_under_a_clipping_lamp_read_as_rings(width_px, blur):
    """Rings whose fringe the clipped lamp tints red past the faint-fringe allowance still
    read V (paper in the middle, a dark band around it, a grey mean colour); the red and blue
    discs keep their letters."""
    got = _read(_jpeg_card("VRVBVV", "holodex", width_px, BRIGHT_CLIPPED, blur, 80),
                "holodex", width_px)
    assert got == "VRVBVV"


@pytest.mark.parametrize("seed,at_least", [(304, 12), (272, 8), (382, 16)])
def test_rendered_tables_under_an_overexposing_lamp(seed, at_least):
    """Hard holodex tables exposed so the paper clips (exposure 1.36-1.40): the rings read, so
    more fully visible cards read whole (the previous release: 5 of 14, 5 of 8, 15 of 16), and
    no card is read wrong."""
    cv2.setNumThreads(1)
    score = _read_hard(seed, "holodex")
    assert score.misreads == 0 and score.false_cards == 0
    assert score.correct >= at_least
