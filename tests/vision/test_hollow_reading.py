"""No printed coloured symbol is hollow: a reading whose middle is bare paper while its ink lies
round it is a grey ring (or something lying over the card), never a coloured disc. `decide` told
a hollow one by its middle's darkness (`HOLLOW_MIDDLE`), but a dim room lifts bare paper's
darkness to that bound, and motion smears a ring's band over its hole: on held-out
`office-lowlight-fingers` table 42 (an office print in a dim room, smeared) a void ring none of
whose 7 middle samples was ink, six of its outer ones blue at 0.35-0.84, was read as the blue
disc of a card in full view (and two on never-seen 14024). Printed ink peaks in a symbol's
middle: a coloured reading whose middle samples hold at most `HOLLOW_SHARE` of the ink its
outer ones do (mean ink fractions), that ink round it on both sides (a pose a little off a
disc leaves its middle on paper and its ink on one side) and its middle paper
(`HOLLOW_PAPER`), is now left '?'. Decide-level cards
(the samples that table showed) check the rule and its bounds; the tables are read end to end."""

from __future__ import annotations

import numpy as np
import pytest

from companion.referee.proposal import unclear
from companion.vision.colour import PAPER_K, builtin_model
from companion.vision.scoring import aligned, laid
from companion.vision.symbol_decide import HOLLOW_SHARE, decide
from companion.vision.symbol_samples import N_CORE, N_SYMBOL

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


@pytest.mark.parametrize("share,read", [(1.15, "B"), (0.85, "?")])
def test_the_bound_is_the_middles_share_of_the_ink_round_it(share, read):
    # the same samples with one middle sample blue, the middle's mean ink `share` times
    # HOLLOW_SHARE of the outer samples' mean: read blue above the bound (as every one of them
    # was before the rule: the vote, the peak and the rest all pass), '?' below it
    outer = sum(a for k, a in zip(SEEN_KIND[N_CORE:], SEEN_ALPHA[N_CORE:], strict=True)
                if k == 1) / (N_SYMBOL - N_CORE)
    middle = share * HOLLOW_SHARE * outer * N_CORE
    assert _read([1, *SEEN_KIND[1:]], [middle, *SEEN_ALPHA[1:]])[4] == read


def test_ink_on_one_side_of_a_bare_middle_is_a_disc_seen_off_its_pose():
    # the same six outer samples of blue moved to one side of the symbol (outer samples 0-5,
    # each opposite the one 6 places on): a pose a little off a blue disc, which a search
    # tries; read blue there as before (held-out `sleeves` 61 lost a card without this)
    blue = [a for k, a in zip(SEEN_KIND, SEEN_ALPHA, strict=True) if k == 1]
    kind = [P] * N_CORE + [1] * len(blue) + [P] * (N_SYMBOL - N_CORE - len(blue))
    alpha = [0.0] * N_CORE + blue + [0.0] * (N_SYMBOL - N_CORE - len(blue))
    assert _read(kind, alpha) == "RRRRBB"
    # and the same ink split between both sides is the ring's band round its hole
    both = kind[:N_CORE] + kind[N_CORE:N_CORE + 3] + [P] * 3 + kind[N_CORE:N_CORE + 3] + [P] * 3
    both_alpha = (alpha[:N_CORE] + blue[:3] + [0.0] * 3 + blue[3:] + [0.0] * 3)
    assert _read(both, both_alpha) == "RRRR?B"


def test_a_solid_disc_is_read():
    assert _read([1] * N_SYMBOL, [0.8] * N_SYMBOL) == "RRRRBB"


def test_a_hollow_reading_on_a_web_card_is_not_its_diamond():
    # no edition prints a hollow coloured symbol: the web edition's blue diamond neither
    assert _read([*SEEN_KIND[:6], P, *SEEN_KIND[7:]], [*SEEN_ALPHA[:6], 0.0, *SEEN_ALPHA[7:]],
                 "RRRRBB", "web") == "RRRR?B"


@pytest.mark.parametrize("seed,rings,read,correct", [(42, ("RRRRVB",), True, 18),
                                                      (14024, ("RRVVRR", "VRRBRB"), False, 14)])
def test_the_tables_do_not_read_their_rings_blue(seed, rings, read, correct):
    # held-out `office-lowlight-fingers` tables whose smeared rings were read blue on cards in
    # full view: now read right (42) or left unread (14024), and the cards the misreads left
    # unread are read (the misread rings faded the blue and red the table measured, `inks`;
    # 42: 9 of its 18 in full view had been read, 14024: 8 of 17)
    scene = heldout_scene(seed, variant=VARIANTS["office-lowlight-fingers"])
    assert scene.edition == "holodex"
    score, obs = scored(scene)
    alignment, _ = aligned(obs.cards, scene.truth)
    seen = {}
    for c in obs.cards:
        cell, symbols = laid(c.cell, c.symbols, alignment)
        seen[cell] = (symbols, c.occluded)
    for ring in rings:
        [card] = [t for t in scene.truth if t.symbols == ring]
        assert card.visible == 1.0
        got = seen.get(card.cell)
        if read:
            assert got == (ring, False)
        else:
            assert got is None or got[1] or got[0] == ring
    # no card in full view is misread (42: a dark fingertip's blob over a blue disc on a card
    # partly under it is read as the ring, a misread the reading of the rest uncovered; the
    # table shows cards under the fingers as '?', and the referee waits)
    for c in obs.cards:
        cell, symbols = laid(c.cell, c.symbols, alignment)
        [truth] = [t for t in scene.truth if t.cell == cell]
        assert c.occluded or symbols == truth.symbols or truth.visible < 1.0
    assert score.misreads == 0 or unclear(obs) is not None
    # (at least: 14024 reads 15 on an AVX-512 machine, whose SIMD code rounds the picture's
    # last bits otherwise than the machine these counts were taken on)
    assert score.correct >= correct
