"""A paper blob the reader cannot fit as a whole card is reported as a covered card only on a
cell near the layout (`reader._partials`, at most `max_partial_steps` cells from a placed card):
cards are laid next to cards, and a covered card makes the referee wait for a clear view, so a
pale patch of a checked tablecloth far off the layout must not stall the game. Read without
markers, nothing bounds the play area; a red gingham cloth once gave such a patch twelve cells
out."""

from __future__ import annotations

from .test_reader import _read_scene


def test_steps_out_counts_hex_steps_to_the_nearest_placed_cell():
    from companion.vision.reader import _steps_out

    placed = [(0, 0), (1, 0), (5, -5)]
    assert _steps_out((0, 0), placed) == 0
    assert _steps_out((2, 0), placed) == 1
    assert _steps_out((-1, -1), placed) == 2       # W, then NW
    assert _steps_out((-3, 3), placed) == 3
    assert _steps_out((5, -2), placed) == 3        # from (5,-5), straight down SE
    assert _steps_out((-8, 4), placed) == 8


def test_a_gingham_cloth_read_without_markers_gives_no_card_off_the_layout():
    score, obs = _read_scene(149, "web", "easy", markers=False)
    assert not obs.calibrated
    assert score.false_cards == 0 and score.misreads == 0
    assert score.correct == score.full == 20
    assert not [c for c in obs.cards if c.occluded]
