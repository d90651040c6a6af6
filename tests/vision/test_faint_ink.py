"""A faint print (`companion.vision.inks.faint_inks`): an office inkjet's blue photographed in a
dim room keeps so little chroma (a fifth of ours) that no core of it reaches an ink's
(`MIN_CHROMA`), and the paler-print rule (`ink_fades`) never sees it. Where the letter shows at
full strength nowhere on the table, the faint cores of the symbols read as no coloured letter
teach the reader that ink; light cores (paper tinted by a lamp), cores read as another letter,
scattered hues and a fade that would leave a second grey ink teach it nothing. Crafted symbol
cores first (paper-normalised RGB), then held-out office prints in a dim room."""

from __future__ import annotations

import numpy as np
import pytest

from companion.referee.proposal import unclear
from companion.vision.colour import builtin_model
from companion.vision.inks import (
    MIN_CHROMA,
    adapt_inks,
    chroma,
    fade_ink,
    faint_inks,
    faint_letters,
    turn_ink,
)
from companion.vision.observation import FAINT_INK

from . import heldout

MODEL = builtin_model("holodex")
RED, BLUE, RING = MODEL.inks.astype(np.float64)


def _cores(ink: np.ndarray, strength: float, light: float, n: int, seed: int,
           turn_deg: float = 0.0, noise: float = 0.01) -> np.ndarray:
    """`n` cores of `ink` turned by `turn_deg`, with chroma `strength` (absolute, as `chroma`
    measures it) at lightness `light`, and a little colour noise."""
    share = strength / float(chroma(ink)[0])
    rng = np.random.default_rng(seed)
    return (fade_ink(turn_ink(ink, np.radians(turn_deg)), share, light)
            + rng.normal(0.0, noise, (n, 3)))


def _table(faint: np.ndarray, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Cores of a dim holodex table: 24 red discs read R, 24 ring holes read V (paper, a
    little tinted), and the `faint` cores, unread; and which cores are unread."""
    rng = np.random.default_rng(seed)
    red = _cores(RED, 0.27, 0.45, 24, seed + 1)
    holes = 0.92 + rng.normal(0.0, 0.01, (24, 3))
    cores = np.concatenate([red, holes, faint])
    unread = np.r_[np.zeros(48, bool), np.ones(len(faint), bool)]
    return cores, unread


FAINT_BLUE = _cores(BLUE, 0.11, 0.38, 30, 7, turn_deg=12.0, noise=0.012)


def test_a_faint_blue_is_learned_from_its_unread_cores():
    cores, unread = _table(FAINT_BLUE)
    turns, fades = faint_inks(MODEL, cores, unread, {}, {})
    assert set(fades) == {"B"}
    share, light = fades["B"]
    assert share * chroma(BLUE)[0] == pytest.approx(0.11, abs=0.01)
    assert light == pytest.approx(0.38, abs=0.02)
    assert np.degrees(turns["B"]) == pytest.approx(12.0, abs=4.0)   # (30 noisy cores)
    model = adapt_inks(MODEL, cores, doubt=True, unread=unread)
    assert model is not None and "B paler" in model.source
    assert faint_letters(model) == {"B"} and faint_letters(MODEL) == set()
    assert not model.neutral[1]                     # still a colour, not a second ring
    # the paler-print rule alone sees no blue: none of its cores reaches MIN_CHROMA
    assert chroma(FAINT_BLUE)[0].max() < MIN_CHROMA
    plain = adapt_inks(MODEL, cores, doubt=True)       # (the red, printed paler, is faded)
    assert plain is not None and "B" not in plain.source and "R paler" in plain.source
    assert np.array_equal(plain.inks[1], MODEL.inks[1])
    assert np.array_equal(plain.inks[[0, 2]], model.inks[[0, 2]])   # the rest as without


def test_a_table_read_whole_learns_nothing():
    cores, unread = _table(FAINT_BLUE)
    assert adapt_inks(MODEL, cores, doubt=False, unread=unread) is None


def test_cores_read_as_a_coloured_letter_teach_nothing():
    cores, unread = _table(FAINT_BLUE)
    assert faint_inks(MODEL, cores, np.zeros_like(unread), {}, {}) == ({}, {})


def test_paper_tinted_by_a_lamp_is_no_faint_ink():
    """A faint tint on a light core (a ring's hole under a coloured lamp, bled colour) is
    paper, not ink."""
    cores, unread = _table(_cores(BLUE, 0.11, 0.88, 30, 7))
    assert faint_inks(MODEL, cores, unread, {}, {}) == ({}, {})


def test_a_letter_shown_at_full_strength_is_not_learned_faint():
    """Six blue discs at their full chroma say the print's blue is not faint: the faint
    cores are something else (shade, a sleeve's haze) and teach nothing."""
    cores, unread = _table(np.concatenate([FAINT_BLUE, _cores(BLUE, 0.45, 0.4, 6, 3)]))
    unread[-6:] = False
    assert "B" not in faint_inks(MODEL, cores, unread, {}, {})[1]


def test_scattered_hues_are_no_ink():
    rng = np.random.default_rng(4)
    scattered = np.concatenate([_cores(BLUE, 0.11, 0.4, 1, int(s), turn_deg=float(t))
                                for s, t in enumerate(rng.uniform(-40.0, 40.0, 30))])
    cores, unread = _table(scattered)
    assert faint_inks(MODEL, cores, unread, {}, {}) == ({}, {})


def test_a_fade_that_would_be_grey_is_refused():
    """So little chroma that the faded blue's channels would spread less than a colour's
    (`ColourModel.neutral`): a second grey ink would read as the ring."""
    cores, unread = _table(_cores(BLUE, 0.075, 0.38, 30, 7, noise=0.004))
    assert faint_inks(MODEL, cores, unread, {}, {}) == ({}, {})


def test_an_office_print_in_a_dim_room_reads_its_faint_blue():
    """Held-out `office-lowlight` 72 (an office inkjet's print, its blue at 0.6 of our chroma,
    at high ISO in a dim room: the blue discs show dark grey with a fifth of our blue's chroma).
    Before, no blue was read, 3 cards read whole and 17 were told an unnamed ink; now 10 read
    whole with the blue learned from its faint cores, none wrong, and the cards whose faint
    blue is still too weak to read are told (`ink faint`), so the referee asks for more light
    rather than wait for a hand."""
    score, obs = heldout.scored(heldout.heldout_scene(72, variant=heldout.VARIANTS[
        "office-lowlight"]))
    assert score.misreads == 0 and score.false_cards == 0, score
    assert score.correct >= 7, score
    assert any("B paler" in n for n in obs.notes), obs.notes
    assert obs.unnamed_ink == score.full - score.correct, (score, obs.notes)
    assert any(n.startswith(FAINT_INK) for n in obs.notes), obs.notes
    p = unclear(obs)
    assert p is not None and p.kind == "problem" and "too faint" in p.message, p
    assert "more light" in p.message and "calibrate colours" in p.message, p.message
    # the same table and print in the room's normal light reads whole, no ink learned faint
    lit, obs = heldout.scored(heldout.heldout_scene(72, variant=heldout.VARIANTS["office"]))
    assert lit.correct == lit.full == score.full and obs.unnamed_ink == 0, (lit, obs.notes)


@pytest.mark.parametrize("seed, before", [(7, 9), (36, 5), (63, 2)])
def test_a_faint_blue_under_motion_blur_reads_without_false_cards(seed, before):
    """Held-out `office-lowlight-motion` 7, 36 and 63: the blue learned faint reads 16, 19 and
    19 cards where 9, 5 and 2 read before. So faint an ink lies close to a textured table's
    shades: on 7 a dark helmet beside the cards read '???BB?', on 63 a patch of rock 'YB???Y'
    (its tan read as the paler yellow against a white taken from the rock), each a blob the
    paper mask cut beside the lattice, and each was reported as a covered card. A blob whose
    read shows a faint ink's letter is taken for no card (`inks.faint_letters`), and they are
    not."""
    score, obs = heldout.scored(heldout.heldout_scene(seed, variant=heldout.VARIANTS[
        "office-lowlight-motion"]))
    assert score.misreads == 0 and score.false_cards == 0, score
    assert score.correct >= before + 5, score
    assert any("B paler" in n for n in obs.notes), obs.notes


def test_a_letter_of_a_faint_ink_must_show_its_shape():
    """`shape_ink.faint_unshown`: a web symbol read as a faint ink's letter whose own silhouette
    matches it below FAINT_SHAPE and FAINT_RIVAL below another letter's is left unread; a faint
    letter whose shape is plain, or weak but about as good as the others (a smear weakens every
    shape), stands, and a letter of a full ink is left to the colour (and to `disagreeing`)."""
    from companion.vision.shape_ink import FAINT_RIVAL, FAINT_SHAPE, faint_unshown

    weak, better, tie = FAINT_SHAPE - 0.1, FAINT_SHAPE - 0.1 + FAINT_RIVAL + 0.01, 0.51
    scores = np.array([[weak, better, 0.3],                 # R: the diamond matches better
                       [FAINT_SHAPE + 0.05, 0.9, 0.3],      # R: plain, whatever else matches
                       [weak, 0.3, tie],                    # R: weak, about the best
                       [0.3, weak, better],                 # B: the triangle matches better
                       [weak, 0.3, 0.3], [weak, better, 0.3]])
    assert faint_unshown("RRRBY?", scores, frozenset("R")) == [True, False, False, False,
                                                              False, False]
    assert faint_unshown("RRRBY?", scores, frozenset()) == [False] * 6
    assert faint_unshown("RRRBY?", scores, frozenset("B")) == [False, False, False, True,
                                                              False, False]


def test_a_yellow_turned_into_a_faint_red_is_not_read_red():
    """Held-out table 35 printed with hues turned 30° (`heldout._printer`) in a dim room
    (web): its red so faint that the reader learns it from the faint cores, among which its
    yellow, printed towards red and dimmed, falls; a card printed `YYBYRY` was reported
    `RRBRRR` (confidence 0.71), its triangles matching the disc at 0.34-0.52. The card beside
    it, whose true red discs match theirs at 0.66 and more, still reads."""
    scene = heldout.heldout_scene(35, variant=heldout.Variant(printer=30.0, lowlight=True))
    assert scene.edition == "web"
    s, obs = heldout.scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert any(n.startswith(FAINT_INK) and "R printed" in n for n in obs.notes), obs.notes
    assert s.correct >= 1, s
