"""A fingertip lying over a coloured symbol and on across the card's edge, come in aslant: a run
from the symbol's halo sample facing its edge is taken on a coloured reading too, where one of
the two samples beside it shows the object as well (`symbol_crossings.HALO_ASIDE_COLOURED`; a
grey blob still needs both). Never-seen hard 20260: a fingertip over a grey ring read as a red
disc, the card (0.81 in view) reported whole as RRRVVR for RRRVVV with confidence 0.84, on a
table the referee would have judged; the finger's shading along it kept every run from the
disc's middle over its limit. The scenes are rendered here from their seeds; their truth comes
from the renderer."""

from __future__ import annotations

from .heldout import VARIANTS, heldout_scene
from .heldout import scored as heldout_scored
from .hexel_scenes import read_hard, read_without


def test_a_fingertip_over_a_ring_is_not_read_as_a_red_disc():
    """20260: no misread and no false card; the covered card is not reported whole as RRRVVR
    but flagged, its fingertip's symbol '?'; the 16 cards in full view read before still read
    right."""
    s = read_without(20260, "holodex", "RRRVVR")
    assert s.correct >= 16 and s.full == 17, s
    # (the covered card is reported, flagged, its letters read the truth's wherever read)
    _image, _truth, _reader, res = read_hard(20260, "holodex")
    truth = "RRRVVV"
    turns = [truth[k:] + truth[:k] for k in range(6)]
    assert any(c.occluded and "?" in c.symbols and c.symbols.count("?") <= 2
               and any(all(a in ("?", b) for a, b in zip(c.symbols, t, strict=True))
                       for t in turns)
               for c in res.observation.cards)


def test_grey_rings_blurred_into_the_halo_keep_both_samples_aside():
    """Held-out `harsh` 32 (two shadows, a glare spot, a smear and the lamp): every card read
    right. Two of its rings, blurred into their halo by the smear and left open (their hole
    shows), lost their cards when the one-sample-aside start was tried on every reading but a
    grey blob's; it is taken on coloured readings only."""
    scene = heldout_scene(32, variant=VARIANTS["harsh"])
    s, _ = heldout_scored(scene)
    assert (s.misreads, s.false_cards) == (0, 0), s
    assert s.correct == s.full == len(scene.truth), s
