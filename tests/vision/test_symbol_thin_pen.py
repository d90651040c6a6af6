"""A thin coloured object across a card's edge onto a symbol (`symbol_crossings.ink_across`,
THIN_LEAD): a pen covers one of the three halo samples facing the edge, not two, yet carries
its ink there far beyond what a halo's print shows. The held-out `fingers` table is printed as
the `office` variant prints (a paler print, `heldout.Variant.pale`)."""

from __future__ import annotations

from . import heldout

PALE_FINGERS = heldout.Variant(fingers=2, motion=True, printer=8.0, pale=0.4)


def test_a_red_pen_over_a_blue_disc_is_no_red_symbol():
    # seed 33: a red pen from beyond the card onto a blue disc; it read as red before
    scene = heldout.heldout_scene(33, variant=PALE_FINGERS)
    s, obs = heldout.scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full, s
    # the pen's card (partly covered) is reported occluded, its crossed symbol unread
    assert any(c.occluded and "?" in c.symbols for c in obs.cards)

