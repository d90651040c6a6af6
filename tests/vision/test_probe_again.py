"""The probe searches a free cell in two rounds, coarse then fine, and keeps a card only where its
best pose reads it whole. A card read complete at its best pose so far but short of whole there
(its paper or its band) is searched once more about that pose (`probe.probe_passes`): hard
table 359's web card, a glare spot on its corner, read all six symbols at the fine round's best
pose with 15 of its 18 paper places paper (a probed card needs 0.85 of them), and is whole a
little further on. The round is made only for such cells, and what it keeps is held to the
same test as the first two rounds' best."""

from __future__ import annotations

from .hexel_scenes import read_hard, scored


def test_a_card_short_of_whole_at_the_fine_rounds_best_pose_is_searched_again():
    _image, truth, _reader, res = read_hard(359, "web")
    s = scored(truth, res.observation.cards)
    assert (s.misreads, s.false_cards) == (0, 0), s
    assert s.correct == s.full == 20, s
    assert "2 card(s) found by probing the lattice" in res.observation.notes
