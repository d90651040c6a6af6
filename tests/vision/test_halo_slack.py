"""A run from a symbol's halo sample facing its edge, taken only where an object already shows
over the halo there, may spread `symbol_crossings.RUN_HALO_SLACK` times as much as a run from the
symbol's middle: an arm's own shading across its breadth spreads its run more than the camera's
noise does. Never-seen hard 14516: a pale grey arm over a card's side, its grey over a red disc
read as the ring, the card (0.75 in view) reported whole as VRVRRR for RRVRRR with confidence
0.89, on a table the referee would have judged. The slack is bounded by print: at 2, a ring
blurred on a gingham cloth (never-seen 12966) was taken for an object and its card lost. The
scenes are rendered here from their seeds; their truth comes from the renderer."""

from __future__ import annotations

from .hexel_scenes import read_hard, read_without, scored


def test_an_arm_over_a_disc_is_not_read_as_the_ring():
    """14516: no misread and no false card; the covered card is not reported whole as VRVRRR;
    every card in full view still reads right."""
    s = read_without(14516, "holodex", "VRVRRR")
    assert s.correct == s.full >= 10, s


def test_a_ring_blurred_on_gingham_still_reads():
    """12966: the blurred card on gingham (BVBVVB) is reported whole, and all 20 cards in full
    view read right (19 before the probe's `glimpsed` cells: the other one was missed at any
    slack)."""
    _image, truth, _reader, res = read_hard(12966, "holodex")
    s = scored(truth, res.observation.cards)
    assert (s.misreads, s.false_cards) == (0, 0) and (s.correct, s.full) == (20, 20), s
    assert any(c.symbols == "BVBVVB" and not c.occluded for c in res.observation.cards)
