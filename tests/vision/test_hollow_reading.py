"""No printed coloured symbol is hollow: a reading whose middle is bare paper while its ink lies
round it is a grey ring (or something lying over the card), never a coloured disc. `decide` told
a hollow one by its middle's darkness (`HOLLOW_MIDDLE`), but a dim room lifts bare paper's
darkness to that bound, and motion smears a ring's band over its hole: on held-out
`office-lowlight-fingers` table 42 (an office print in a dim room, smeared) a void ring none of
whose 7 middle samples was ink, six of its outer ones blue at 0.35-0.84, was read as the blue
disc of a card in full view. A coloured reading none of whose middle samples is its ink (its
vote all in its outer samples) is now left '?'. Decide-level cards (the samples that
table showed) check the rule and its bounds; the table itself is read end to end."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import PAPER_K, builtin_model
from companion.vision.scoring import aligned, laid
from companion.vision.symbol_decide import decide
from companion.vision.symbol_samples import N_SYMBOL

from .heldout import VARIANTS, heldout_scene, scored

P = PAPER_K
# the smeared void ring of held-out `office-lowlight-fingers` 42 (card RRRRVB, edge 4) as the
# reader sampled it: kinds (holodex R=0, B=1, V=2), ink fractions, grey-ink fractions
SEEN_KIND = [P, P, P, P, P, P, 2, P, P, 1, 1, 1, P, P, P, P, 1, 1, 1]
SEEN_ALPHA = [0, 0, 0, 0, 0, 0, .33, 0, 0, .41, .54, .42, 0, 0, 0, 0, .56, .84, .35]
SEEN_DARK = [.20, .14, .27, .24, .19, .24, .33, .11, .18, .49, .59, .42, .27, .21, .23, .29,
             .54, .70, .38]


def _read(kind4: list[int], alpha4: list[float], letters: str = "RRRRBB",
          edition: str = "holodex") -> str:
    """`decide`'s letters for a whole card `letters` of solid symbols whose edge 4 shows the
    samples given (its grey-ink fractions as seen)."""
    model = builtin_model(edition)
    kind = np.zeros((1, 6, N_SYMBOL), np.int64)
    alpha = np.full((1, 6, N_SYMBOL), 0.95, np.float32)
    dark = np.full((1, 6, N_SYMBOL), 0.3, np.float32)
    for e, ch in enumerate(letters):
        kind[0, e] = model.letters.index(ch)
    kind[0, 4] = kind4
    alpha[0, 4] = alpha4
    dark[0, 4] = SEEN_DARK
    return decide(kind, alpha, dark, model, np.zeros((1, 6), np.float32), None,
                  np.ones(1, bool))[0][0]


def test_the_smeared_ring_as_seen_is_not_read_blue():
    assert _read(SEEN_KIND, SEEN_ALPHA) == "RRRR?B"


def test_one_middle_sample_of_the_ink_is_no_hole():
    # the rule's bound: the same samples with one middle sample blue at 0.5 are read blue, as
    # every one of them was before the rule (the vote, the peak and the rest all pass)
    assert _read([1, *SEEN_KIND[1:]], [0.5, *SEEN_ALPHA[1:]]) == "RRRRBB"


def test_a_solid_disc_is_read():
    assert _read([1] * N_SYMBOL, [0.8] * N_SYMBOL) == "RRRRBB"


def test_a_hollow_reading_on_a_web_card_is_not_its_diamond():
    # no edition prints a hollow coloured symbol: the web edition's blue diamond neither
    assert _read([*SEEN_KIND[:6], P, *SEEN_KIND[7:]], [*SEEN_ALPHA[:6], 0.0, *SEEN_ALPHA[7:]],
                 "RRRRBB", "web") == "RRRR?B"


def test_the_table_reads_the_ring_right():
    scene = heldout_scene(42, variant=VARIANTS["office-lowlight-fingers"])
    assert scene.edition == "holodex"
    score, obs = scored(scene)
    alignment, _ = aligned(obs.cards, scene.truth)
    seen = {laid(c.cell, c.symbols, alignment)[0]: (laid(c.cell, c.symbols, alignment)[1],
                                                      c.occluded) for c in obs.cards}
    ring_cards = [t for t in scene.truth if t.symbols == "RRRRVB"]
    assert len(ring_cards) == 1 and ring_cards[0].visible == 1.0
    assert seen[ring_cards[0].cell] == ("RRRRVB", False)
    # and with the ring read, the table's other cards in full view are read too (its misread
    # ring left 9 of its 18 unread, as a print whose inks are in doubt)
    assert score.correct == score.full == 18
