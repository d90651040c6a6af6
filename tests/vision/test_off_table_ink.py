"""A fingertip over a small, blurred card can read as a weak ink where the band's step does not
show it (`symbol_crossings.off_table_ink`): never-seen hard 12356, a brown fingertip over a
40 px card read as a red disc at half its ink, the card reported whole with a wrong symbol (a
misread). The strip of paper inside the band at that symbol's edge is dark and tinted at all
three places, its core keeps 0.44 of the chroma the table's other red discs show and its hue
lies 24° off theirs: it is reported unread. The scene is rendered here from its seed; its
truth comes from the renderer."""

from __future__ import annotations

import numpy as np

from companion.vision.symbol_crossings import off_table_ink

from .hexel_scenes import read_hard, read_without


def test_a_fingertip_read_as_a_weak_red_is_unread():
    """12356: no misread and no false card; the covered card (true VVVVBV, 0.84 in view) is
    not reported whole; the table's cards in full view still read as before (12 of 13)."""
    s = read_without(12356, "holodex", "VVRVBV")
    assert s.correct >= 12, s


def test_the_guard_flags_nothing_on_a_clean_table():
    """On the same table the guard flags no symbol of any card read. (The fingertip is now
    also a run of one colour out of its symbol, averaged across: `test_run_across.py`; its card
    is read at a pose a few pixels off the one the guard was measured at, and is '?' at its NW
    and W. The guard taking a fingertip alone is checked on 13150: `test_strip_two.py`.)"""
    image, _truth, reader, res = read_hard(12356, "holodex")
    reads = list(res.reads)
    assert any(r.symbols[:3] == "VV?" and r.symbols[4:] == "BV" for r in reads)
    off = off_table_ink(image, list(res.poses), [r.symbols for r in reads],
                        np.array([r.white_bgr for r in reads]), res.view, reader.model)
    assert not off.any()
