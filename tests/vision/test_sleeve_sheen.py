"""Cards in glossy sleeves (held-out `sleeves` and `phone-photo`, `heldout._sleeve`): a sheen
band washes part of a card until its paper clips, and a red disc under it turns pale orange. Its
mean colour then lies near a washed yellow triangle's on the same card, and filling it in by that
twin (`symbol_decide.twin_mean`) read it yellow: a whole card misread. On a card whose paper
clipped no symbol is filled in by its twin; the disc is left unread. Nor is a disc whose shape
rules out the triangle at one pose the card is read at read as the triangle at another."""

from __future__ import annotations

from .heldout import VARIANTS, heldout_scene, scored


def test_washed_red_disc_in_a_sleeve_is_not_read_yellow() -> None:
    scene = heldout_scene(89, variant=VARIANTS["sleeves"])
    truth = {t.cell: t.symbols for t in scene.truth}
    # the card the sheen washes: a red disc and five symbols plainly printed (truth drawn by
    # the generator, independent of the reader)
    assert truth[(-2, 0)] == "RBBYYY"
    score, obs = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0
    read = {tuple(c.cell): c for c in obs.cards}
    card = read.get((-2, 0))
    assert card is None or card.occluded or card.symbols[0] in ("R", "?")
    # the plainly printed, unwashed cards of the table are still read
    assert score.correct >= 7


def test_a_disc_the_band_pose_shows_round_is_not_read_as_the_triangle() -> None:
    """Held-out `phone-photo` 14073 (never tuned on before this test): a red disc in a sleeve,
    its sheen tinted by the phone's green cast, reads orange; at its band's pose the disc shows
    ink at both front diagonals and behind it, so no triangle (`symbol_shape.ruled_out`), but
    that pose read no whole card and the pose search found one whose front diagonal fell on
    the sheen, where it read as the yellow triangle: the card misread at confidence 0.86. The
    shape's evidence at any pose the card is read at stands (`symbol_shape.kept_ruled_out`):
    the disc is left unread."""
    scene = heldout_scene(14073, variant=VARIANTS["phone-photo"])
    truth = {t.cell: t.symbols for t in scene.truth}
    assert truth[(1, -2)] == "RBBBBY"      # (the generator's truth, in the reader's frame)
    score, obs = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0
    card = next((c for c in obs.cards if tuple(c.cell) == (1, -2)), None)
    assert card is None or card.occluded or card.symbols[0] in ("R", "?")
    assert score.correct >= 17
