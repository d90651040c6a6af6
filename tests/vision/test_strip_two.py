"""A fingertip read as a weak ink (`symbol_crossings.off_table_ink`) is known by the strip of
paper inside the band at its edge: dark and tinted where the finger crosses it. On a dim table
the camera's noise can leave one of the strip's three places nearly grey. Never-seen hard
13150: a brown fingertip over a blue disc on a table lit at about 35 of 255, the card 0.89 in
view, read as a red disc at 0.35 of the table's red chroma and 31° off its hue; its strip is
dark at all three places and tinted at two (0.87 and 0.55; the third 0.24, just under
STRIP_TINT), and the card was reported whole (a misread). The strip may now be tinted at all
three places or clearly (twice STRIP_TINT) at two. The scene is rendered here from its seed;
its truth comes from the renderer."""

from __future__ import annotations

import numpy as np

from companion.vision.reader import _centres_px
from companion.vision.symbol_crossings import off_table_ink

from .hexel_scenes import read_hard, read_without


def test_a_fingertip_on_a_dim_table_is_not_read_as_red():
    """13150: no misread and no false card; the covered card (true BBBVBB) is not reported
    whole as BBRVBB; the twelve cards in full view still read right."""
    s = read_without(13150, "holodex", "BBRVBB")
    assert s.correct == s.full == 12, s


def test_the_guard_takes_the_fingertip_alone():
    """On the same table, with the fingertip's card (at about (798, 498) in the frame: other
    guards now flag more of its symbols, `symbol_crossings.HALO_ASIDE_COLOURED`) read whole as
    BBRVBB again, this guard alone flags the fingertip's symbol and no symbol of any other
    card."""
    image, _truth, reader, res = read_hard(13150, "holodex")
    reads = list(res.reads)
    at = _centres_px(list(res.poses), res.view)
    k = int(np.argmin([np.hypot(x - 798.0, y - 498.0) for x, y in at]))
    assert np.hypot(at[k][0] - 798.0, at[k][1] - 498.0) < 8.0
    assert reads[k].symbols[0] == "B" and reads[k].symbols[4:] == "BB"
    raw = [r.symbols for r in reads]
    raw[k] = "BBRVBB"
    off = off_table_ink(image, list(res.poses), raw,
                        np.array([r.white_bgr for r in reads]), res.view, reader.model)
    hit = [(raw[c], j) for c, j in zip(*np.nonzero(off), strict=True)]
    assert hit == [("BBRVBB", 2)], hit
