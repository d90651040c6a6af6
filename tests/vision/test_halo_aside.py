"""A fingertip over a disc whose hole-less grey blob reads as the blurred grey ring is found by
the run from the symbol's halo sample facing its edge (`symbol_crossings.runs_out`), which asks
the halo samples either side of that one to be the object's colour too. Never-seen hard 13016:
a fingertip lies over a blue disc at a card's edge, 0.91 of the card in view, and its rim in
the finger's own shadow is darker than the sample facing the edge (0.11 and 0.24 below it), so
the card was reported whole with that disc read as the ring (a misread). Blur from a printed
band falls off inwards, leaving the samples aside paler than the one facing the edge: only
samples paler than it by HALO_SAME now tell print from an object. The scene is rendered here
from its seed; its truth comes from the renderer."""

from __future__ import annotations

from companion.vision import symbols

from .hexel_scenes import read_hard, read_without


def test_a_fingertip_over_a_disc_is_not_read_as_the_ring():
    """13016: no misread and no false card; the covered card (true BBBBBR) is not reported
    whole as BBVBBR; the ten cards in full view still read right."""
    s = read_without(13016, "holodex", "BBVBBR")
    assert s.correct == s.full == 10, s


def test_the_covered_card_read_alone_leaves_the_fingertip_unread():
    """Re-read on its own at its final pose, the covered card keeps its five printed symbols
    and leaves the fingertip's (its NW, read as the ring before) unread."""
    image, _truth, reader, res = read_hard(13016, "holodex")
    reads = list(res.reads)
    k = next(i for i, r in enumerate(reads) if r.symbols in ("BB?BBR", "BBVBBR"))
    again = symbols.read_cards(image, [res.poses[k]], res.view, reader.model)
    again = again[0] if isinstance(again, tuple) else again
    assert again[0].symbols == "BB?BBR", again[0].symbols
