"""A symbol the colour reading leaves unread with nothing found over it is asked, before its
shape and hue may name it, whether one colour runs straight from its middle on past the card's
outline (`unread_runs`, `symbol_crossings.runs_out`): the crossing guards of the read judge the
letters it read, and a tan pen's tip is as pale and as pink as a red disc washed by a sheen.
Held-out `plain-busy` 18 (the `busy` table on a plain pale table): the pen's tip lies over a
blue disc, come in aslant over the neighbouring card, and the card, 0.9 in view, was reported
whole as RRBRRV for RRBRBV with confidence 0.8, its disc read as a washed red. The tables are
rendered here from their seeds; their truth comes from the held-out renderer."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.vision.reader import HexelReader
from companion.vision.scoring import score_table
from companion.vision.unread_runs import run_out

from .heldout import VARIANTS, heldout_scene

PEN_AT = (558.0, 298.0)   # the covered card's centre in the picture (px), as the reader fits it


def test_a_pen_tip_over_a_disc_is_no_washed_red():
    scene = heldout_scene(18, variant=VARIANTS["plain-busy"])
    res = HexelReader(scene.edition).read(scene.image)
    s = score_table(res.observation.cards, scene.truth)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full >= 10, s
    # the covered card itself: the disc under the pen, were it left free to be named, runs
    # out past the card's outline; no symbol of a card in full view that read right does
    k = int(np.argmin([np.hypot(p.centre[0] - PEN_AT[0], p.centre[1] - PEN_AT[1])
                       for p in res.poses]))
    assert np.hypot(*np.subtract(res.poses[k].centre, PEN_AT)) < 5.0
    pen = replace(res.reads[k], unread_ink=(False, False, False, False, True, False))
    assert run_out(scene.image, [res.poses[k]], res.view, [pen])[0].tolist() == [
        False, False, False, False, True, False]
    clean = [j for j, r in enumerate(res.reads) if j != k and "?" not in r.symbols]
    assert len(clean) >= 8
    free = [replace(res.reads[j], unread_ink=(True,) * 6) for j in clean]
    assert not run_out(scene.image, [res.poses[j] for j in clean], res.view, free).any()


@pytest.mark.parametrize("seed", [30, 36])
def test_symbols_washed_by_a_sheen_stay_free_to_be_named(seed):
    """Held-out `sleeves` 30 and 36: holodex discs a sleeve's sheen washed pale, read by their
    shape and hue. Their colour stops at their edge: they still read."""
    scene = heldout_scene(seed, variant=VARIANTS["sleeves"])
    res = HexelReader(scene.edition).read(scene.image)
    named = [(j, tuple(b and c != "?" for b, c in zip(r.by_hue, r.symbols, strict=True)))
             for j, r in enumerate(res.reads) if r.by_hue and any(r.by_hue)]
    assert sum(sum(f) for _, f in named) >= 2, named
    free = [replace(res.reads[j], unread_ink=f) for j, f in named]
    assert not run_out(scene.image, [res.poses[j] for j, _ in named], res.view, free).any()
