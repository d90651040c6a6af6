"""Cards in glossy sleeves (held-out `sleeves`, `heldout._sleeve`): a sheen band washes part of a
card until its paper clips, and a red disc under it turns pale orange. Its mean colour then lies
near a washed yellow triangle's on the same card, and filling it in by that twin
(`symbol_decide.twin_mean`) read it yellow: a whole card misread. On a card whose paper clipped
no symbol is filled in by its twin; the disc is left unread."""

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
