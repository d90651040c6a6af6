"""A weak coloured reading far thinner than a strong symbol of the same ink on its card is not
that print but something lying over the symbol (`symbol_decide.thinner_than_twins`): every symbol of
one ink on a card is the same shape under the same lamp and blur, so its strongest sample reaches at
most TWIN_PEAK_SHARE of its twin's only when it is not the print. On rendered hard table 45, read
without markers, a hand's blurred edge over a yellow triangle read faintly red (its strongest
sample 0.43 of its red twins') and the card was reported whole: a misread. The sample arrays
below are that symbol's, as `ColourModel.explain` gave them."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import OTHER, PAPER_K, builtin_model
from companion.vision.symbol_decide import decide

from .test_reader import _read_scene

R = 0   # web: R, B, Y
# the covered yellow triangle on table 45: red at under half strength in its middle and
# scattered round it, paper and unexplained samples between
COVERED_KIND = [R] * 7 + [OTHER, OTHER, OTHER, PAPER_K, PAPER_K, OTHER, R, R, PAPER_K, R, R,
                          PAPER_K]
COVERED_ALPHA = [0.41, 0.36, 0.31, 0.37, 0.35, 0.43, 0.32, 0, 0, 0, 0, 0, 0, 0.34, 0.4, 0,
                 0.4, 0.31, 0]


def _card(weak_at: int, twins: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One card: the covered symbol at `weak_at`, `twins` solid red discs, yellow elsewhere."""
    kind = np.full((1, 6, 19), 2, np.int64)
    alpha = np.full((1, 6, 19), 1.0)
    for d in range(twins):
        kind[0, d] = R
    kind[0, weak_at] = COVERED_KIND
    alpha[0, weak_at] = COVERED_ALPHA
    return kind, alpha, np.zeros((1, 6, 19))


def test_a_red_reading_far_thinner_than_its_red_twins_is_unsure():
    text, conf = decide(*_card(5, 2), builtin_model("web"))
    assert text == ["RRYYY?"]
    assert conf[0, 5] == 0.0


def test_the_same_weak_red_with_no_strong_twin_on_its_card_still_reads():
    """Without a twin there is nothing to hold it against: a small, smeared card's symbols are
    all weak alike (`test_symbol_pale`)."""
    text, _ = decide(*_card(5, 0), builtin_model("web"))
    assert text == ["YYYYYR"]


def test_hard_table_45_read_without_markers_has_no_misread():
    s, obs = _read_scene(45, "web", markers=False)
    assert not obs.calibrated
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full, s
