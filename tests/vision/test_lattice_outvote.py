"""`lattice._outvoted`, the rule by which a card nearly halfway off its cell as one far card
sees it is placed where the cards beside it agree (see `lattice.SPLIT_OFF`), on crafted
predictions: cells in the growth's provisional axial frame, steps (`frac`) and their misfits
(`resid`) as `grow_lattice` measures them between cards 0 (being placed), 1, 2 and 3."""

from __future__ import annotations

import numpy as np

from companion.vision.lattice import SPLIT_NEAR_MISFIT, _outvoted


def _frac(far: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Steps between four cards: card 0 at (0, 0), cards 1 and 2 adjacent to it at (1, 0) and
    (0, 1), card 3 two steps west at (-2, 0), seeing card 0 `far` steps from itself (turn 0:
    the provisional frame is each card's own)."""
    cells = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (-2, 0)}
    frac = np.zeros((4, 4, 2))
    for a, ca in cells.items():
        for b, cb in cells.items():
            frac[a, b] = (cb[0] - ca[0], cb[1] - ca[1])
    frac[3, 0] = far
    frac[0, 3] = (-far[0], -far[1])
    resid = np.full((4, 4), 0.1)
    return frac, resid


def _agree(near: list[int]) -> list[tuple[int, int, tuple[int, int]]]:
    cells = {1: (1, 0), 2: (0, 1)}
    return [e for q in near for e in ((q, 0, cells[q]), (0, q, cells[q]))]


def test_a_far_card_nearly_halfway_is_outvoted_by_two_cards_beside():
    # card 3 sees card 0 at (2.45, 0): nearer (2, 0) by 0.45 of a step, whose rounding (3, 0)
    # from (-2, 0) is (1, 0); placing card 0 at (0, 0) misses its word by 0.55
    frac, resid = _frac((2.55, 0.0))
    split = [(3, 0, 0, (-2, 0), (0, 0))]
    assert _outvoted(split, _agree([1, 2]), (0, 0), frac, resid)


def test_one_card_beside_is_not_enough():
    frac, resid = _frac((2.55, 0.0))
    split = [(3, 0, 0, (-2, 0), (0, 0))]
    # (its word both ways is one card's: it counts once, however many predictions it makes)
    agree = _agree([1]) * 3
    assert not _outvoted(split, agree, (0, 0), frac, resid)


def test_a_card_beside_that_misses_the_cell_one_way_does_not_count():
    frac, resid = _frac((2.55, 0.0))
    resid[0, 2] = SPLIT_NEAR_MISFIT + 0.05
    split = [(3, 0, 0, (-2, 0), (0, 0))]
    assert not _outvoted(split, _agree([1, 2]), (0, 0), frac, resid)


def test_a_far_card_plainly_at_another_cell_is_not_outvoted():
    # card 3 sees card 0 at (2.8, 0): 0.8 of a step off (0, 0), plainly at (1, 0)
    frac, resid = _frac((2.8, 0.0))
    split = [(3, 0, 0, (-2, 0), (0, 0))]
    assert not _outvoted(split, _agree([1, 2]), (0, 0), frac, resid)


def test_an_adjacent_card_is_never_outvoted():
    # card 1, beside card 0, sees it nearly halfway off its cell (0.45 of a step towards
    # (1, 0) from the cell it names): its word stands, though cards 2 and 4 beside card 0 and
    # card 3 beyond agree
    cells = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (-2, 0), 4: (-1, 0)}
    frac = np.array([[(cb[0] - ca[0], cb[1] - ca[1]) for cb in cells.values()]
                     for ca in cells.values()], np.float64)
    frac[1, 0] = (-1.55, 0.0)          # card 1 names (-1, 0) for card 0: 0.55 off (0, 0)
    resid = np.full((5, 5), 0.1)
    split = [(1, 0, 0, (1, 0), (0, 0))]
    agree = [e for q in (2, 3, 4) for e in ((q, 0, cells[q]), (0, q, cells[q]))]
    assert not _outvoted(split, agree, (0, 0), frac, resid)
    # (the same word from a card two steps off is outvoted: the rule above is what holds it)
    frac[3, 0] = (2.55, 0.0)
    far = [(3, 0, 0, (-2, 0), (0, 0))]
    agree = [e for q in (1, 2, 4) for e in ((q, 0, cells[q]), (0, q, cells[q]))]
    assert _outvoted(far, agree, (0, 0), frac, resid)


def test_too_few_agreeing_predictions_do_not_outvote():
    frac, resid = _frac((2.55, 0.0))
    # two split words (card 3 both ways) against four agreeing: fewer than SPLIT_VOTES times
    split = [(3, 0, 0, (-2, 0), (0, 0)), (0, 3, 0, (0, 0), (-2, 0))]
    assert not _outvoted(split, _agree([1, 2]), (0, 0), frac, resid)
