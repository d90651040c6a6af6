"""A pen or a sleeve lying over a symbol is one flat grey: read as the grey ring blurred into a
blob, it is misread. Blur fills a ring's hole only when it is as wide as the ring, and one card
has one blur: where a twin ring on the card keeps its hole open, a blob blurred flat is no ring
(`symbol_decide.flat_beside_open`). And a dark object running on from beyond the card across the
band and into the halo onto the symbol's own middle is no print (`symbol_crossings.grey_across`).
Such a symbol is '?', its card reported occluded."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.colour import PAPER_K, builtin_model

from .heldout import VARIANTS, heldout_scene, scored
from .test_reader import _read_hard
from .test_symbol_grey_across import _samples


@pytest.mark.parametrize("seed", [176, 192])
def test_a_pen_over_a_symbol_is_not_read_as_the_ring(seed):
    """Held-out `fingers` tables where a pen over a disc was read as the grey ring V on a card
    otherwise read whole (176: a dark pen across the edge onto a blue disc, its colour on the
    symbol's middle, one halo sample and the band to past the outline; 192: a grey pen lying
    across a card over two red discs, flat blobs beside a ring with its hole open)."""
    s, _ = scored(heldout_scene(seed, variant=VARIANTS["fingers"]))
    assert s.occluded_truth >= 1, s
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full, s


def test_rings_blurred_flat_on_a_blurred_card_are_still_read():
    """Guard: rendered hard table 404 (holodex) is blurred so far that its rings read as flat
    blobs (their samples spanning 0.16-0.24), each beside twins as blurred (at most 0.13
    hollow): every card in full view is read right, as before."""
    s = _read_hard(404, "holodex")
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full, s


def _card(middle: float, band: float = 0.9, blob: float = 0.48
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample kinds, ink fractions and grey-ink darkness (1 x 6 x 19) of one holodex card: a
    grey blob (symbol 0, every sample `blob` of the grey ink), a ring (symbol 1: its 7 middle
    samples `middle` of the ink, its 12 band samples `band`; paper where `middle` is 0) and
    four red discs."""
    grey, red = 2, 0
    kind = np.full((1, 6, 19), red)
    alpha = np.ones((1, 6, 19))
    dark = np.full((1, 6, 19), 0.35)
    kind[0, :2], alpha[0, 0], dark[0, 0] = grey, blob, blob
    alpha[0, 1, 7:], dark[0, 1, 7:] = band, band
    alpha[0, 1, :7], dark[0, 1, :7] = middle, middle
    if middle == 0.0:
        kind[0, 1, :7] = PAPER_K
    return kind, alpha, dark


def test_a_flat_blob_beside_an_open_ring_is_told_from_blur():
    """The rule on crafted samples: a flat grey blob (as dark as a blurred ring, standing out
    from the paper) is read as the ring where its twin ring is blurred too, and is '?' where
    the twin keeps its hole open; the open twin itself stays read."""
    from companion.vision.symbol_decide import decide

    model = builtin_model("holodex")
    flank = np.zeros((1, 6))
    # the twin as blurred (its middle 0.1 short of its band): one blur, two blobs: both read
    text, _ = decide(*_card(0.45, 0.55), model, flank)
    assert text == ["VVRRRR"], text
    # the twin's hole open (paper in its middle): the flat blob is no ring
    text, _ = decide(*_card(0.0), model, flank)
    assert text == ["?VRRRR"], text
    # ... nor where the twin's hole is half filled
    text, _ = decide(*_card(0.4, 0.8), model, flank)
    assert text == ["?VRRRR"], text
    # a blob not flat (its band's samples 0.33-0.63: a ring smeared one way) stands beside it
    kind, alpha, dark = _card(0.0)
    dark[0, 0, 7:13] += 0.15
    dark[0, 0, 13:] -= 0.15
    text, _ = decide(kind, alpha, dark, model, flank)
    assert text == ["VVRRRR"], text


def _across(middle: float | None, alike: int = 1, plateau: float = 0.3, blurred: bool = False
            ) -> tuple[np.ndarray, ...]:
    """Halo, white and band of one card as `test_symbol_grey_across._samples` crafts them (the
    middle place of edge 0 one grey `plateau` at every depth to past the outline, `alike` of
    the three halo samples facing it that grey; `blurred` as there), and its symbol samples
    (1 x 6·19 x 3 BGR): symbol 0's middle `middle` of the paper (paper where None)."""
    from companion.vision.symbol_samples import N_SYMBOL

    halo, white, band = _samples(plateau, alike=alike, blurred=blurred)
    mid = np.full((1, 6 * N_SYMBOL, 3), 200.0)
    if middle is not None:
        mid[0, :7] = 200.0 * middle
    return halo, white, band, mid


def test_a_dark_object_onto_the_symbol_middle_is_told_from_print():
    """`grey_across` on crafted samples: one dark grey from past the outline across the band
    into one halo sample and onto the symbol's middle is '?'; the middle paper (a ring's hole)
    or only as dark as print blurred flat, and the reading stands."""
    from companion.vision.symbol_crossings import grey_across

    model = builtin_model("holodex")

    def across(*args, **kwargs) -> list[list[bool]]:
        halo, white, band, symbols = _across(*args, **kwargs)
        return grey_across(["VBRBRB"], halo, white, band, model, symbols).tolist()

    none = [[False] * 6]
    assert across(0.32) == [[True] + [False] * 5]
    # the symbol's middle paper (a printed ring's hole): only one halo sample alike
    assert across(None) == none
    # the middle unlike the object (a ring seen with its band over the middle samples)
    assert across(0.15) == none
    # as light as a ring and the band blurred into one plateau with the paper between them
    assert across(0.6, plateau=0.6, blurred=True) == none
    # no halo sample alike: the object does not reach the halo facing the edge
    assert across(0.32, alike=0) == none
