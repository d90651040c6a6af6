"""The held-out check: exported card faces pasted on real photographs (see `heldout.py`, built
without `companion.synth.scene`) must be read exactly — every card at its cell with all six
symbols right, no misread, no false card — also when cut, laid and photographed otherwise
(`heldout.VARIANTS`)."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from companion.vision.reader import HexelReader

from .heldout import (
    SIZE,
    UNSEEN_BACKGROUNDS,
    VARIANTS,
    Variant,
    _face,
    _visible_share,
    blackbody_rgb,
    camera,
    heldout_scene,
    photo,
    scored,
)


@pytest.mark.parametrize("seed", range(16))
def test_heldout_photo_tables_are_read_exactly(seed):
    scene = heldout_scene(seed)
    assert len(scene.truth) >= 5
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth), s


@pytest.mark.parametrize("seed", range(12))
def test_tables_on_pictures_never_used_in_tuning_are_read_exactly(seed):
    """The same tables laid on the other pictures bundled with scikit-image, none of them under
    a card while the reader was tuned (`heldout.UNSEEN_BACKGROUNDS`: coins, a moon, printed
    text, a colour wheel, a logo, a retina, cells, a horse's black silhouette, a checkerboard),
    one each: every card read, no misread, and no false card in their shapes and colours."""
    scene = heldout_scene(seed, backgrounds=(UNSEEN_BACKGROUNDS[seed],))
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth), s


@pytest.mark.parametrize("variant", ["touching", "overlapping", "sloppy", "spaced", "white-margin",
                                     "cut-into-border", "small", "phone", "shadowed",
                                     "tilted", "closeup", "cloth"])
@pytest.mark.parametrize("seed", range(3))
def test_cards_cut_laid_and_photographed_otherwise_are_read_exactly(variant, seed):
    """Players cut with a white margin or into the border, lay cards touching, a little over
    each other, sloppily (gaps to 30 %, 9° turns) or well apart (gaps of 30-55 %: the
    lattice is as wide as the cards lie, `lattice.MAX_SPACING`), photograph at 0.6 to 3
    times 1280 x 720, hands or shades cast soft shadows over the cards, the camera leans ~22°
    with no markers to undo it, it is held close (cards 150-330 px across), or the table
    wears a white patterned cloth: each table is still read exactly."""
    scene = heldout_scene(seed, variant=VARIANTS[variant])
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth), s


@pytest.mark.parametrize("seed", [5, 6, 7, 30])
def test_cards_laid_by_hand_with_uneven_gaps_are_read_exactly(seed):
    """Tables laid by hand (`laid`: each card against one already down, its own gap up to 35 %
    of a card): every card at its cell. A card two steps off predicted these tables' last
    cards nearly half a step off their cells, and that prediction, between two cells, kept
    them off the lattice (`lattice.SURE_MISFIT`: 19, 19, 19 and 18 of 20 before)."""
    scene = heldout_scene(seed, variant=VARIANTS["laid"])
    s, obs = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth), s
    assert not obs.loose


@pytest.mark.parametrize("seed", [12, 70, 92])
def test_a_far_card_predicting_a_laid_card_halfway_is_outvoted_by_its_neighbours(seed):
    """Tables laid by hand (`laid`) where one card two steps or more off predicted a card
    nearly halfway to the next cell (0.44-0.45 of a step off its own), while the cards beside it
    all placed it squarely: that one word kept the card off the lattice, listed apart (19, 19
    and 18 of 20 read before; `lattice.SPLIT_OFF`)."""
    scene = heldout_scene(seed, variant=VARIANTS["laid"])
    s, obs = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth), s
    assert not obs.loose


@pytest.mark.parametrize(("seed", "perspective"), [(10, 1.2e-4), (54, 4e-4)])
def test_a_far_card_is_outvoted_only_by_the_cards_beside_the_card_placed(seed, perspective):
    """Cards laid with gaps to half a card: a far card's word against a placement stands
    where no two adjacent cards place the card squarely both ways. Counted over predictions,
    with no adjacent card asked for, table 10 placed its two westmost cards a step off (a
    misread and a false card); counted per prediction rather than per card (one adjacent
    card's word both ways counting twice), table 54 (the camera leaning ~22°) placed a card
    beside a card already a step off, a misread (`lattice.SPLIT_NEAR`)."""
    scene = heldout_scene(seed, variant=Variant(laid=0.5, turn_deg=5.0,
                                                perspective=perspective))
    s, _ = scored(scene)
    assert s.misreads == 0, s
    assert s.false_cards <= (seed == 54), s   # (54: the card already a step off, as before)
    assert s.correct >= 16, s


@pytest.mark.parametrize("seed", [25, 29, 35])
def test_cards_laid_by_hand_with_uneven_gaps_are_never_placed_at_a_wrong_cell(seed):
    """Cards laid one by one against a card already down, each with a gap of its own of up to
    half a card (`Variant.laid`): the offsets drift across the table, and two neighbours can
    lie as far apart as three cards' steps of the table's spacing. A card the lattice cannot
    place surely is left off it (listed apart), never placed at a wrong cell: these tables read
    a misread and four false cards (29), one false card each (25, 35), before the lattice took
    the cards' own spacing and refused the hops whose steps hang on it."""
    scene = heldout_scene(seed, variant=Variant(laid=0.5, turn_deg=5.0))
    s, obs = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct >= 7, s
    # every card the lattice left off is listed apart, each a true card's symbols
    true = {t.symbols[k:] + t.symbols[:k] for t in scene.truth for k in range(6)}
    assert obs.loose and all(c.symbols in true for c in obs.loose if "?" not in c.symbols)


def test_cards_packed_on_a_pale_cloth_are_found_by_their_paper_against_their_band():
    """Twenty cards about 49 px across, packed edge to edge on a pale small-check cloth and
    smeared by motion (`cloth-small`, seed 44): the paper mask's wide local mean, lifted close
    to the paper by the cards and the cloth around them, kept each card's paper only in
    patches between its symbols, and no card was found at all ("no whole card found"). Each
    card's paper against its own border band (`cards.contrast_mask`) gives them all."""
    scene = heldout_scene(44, variant=VARIANTS["cloth-small"])
    s, obs = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth) == 20, (s, obs.notes)


@pytest.mark.parametrize("seed", [59, 64, 85])
def test_a_table_with_markers_laid_by_hand_is_read_exactly(seed):
    """The four table markers laid by hand (each a third of its side off its place and turned
    up to 8 degrees), the camera leaning ~22°: fitted as one rectangle they bent the plane so
    that these tables lost 1 to all 20 cards (seed 85: "no whole card found"); each marker
    fitted as its own square on one plane, every card is read."""
    scene = heldout_scene(seed, variant=VARIANTS["markers-tilted"])
    s, obs = scored(scene)
    assert obs.calibrated
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full == len(scene.truth), s


def test_a_steep_photo_whose_lattice_splits_is_read_without_a_crash_or_a_misread():
    """A camera leaning ~39° with no markers (`steep`): cards on the near side look twice as
    wide as on the far side, and growth from the middle card places only part of the layout
    (seed 37). The re-grown lattice once placed fewer cards again, and the reader indexed the
    cards it had dropped (a KeyError on a photo). What it reports must be right; cards it
    cannot place are left out, never guessed."""
    scene = heldout_scene(37, variant=VARIANTS["steep"])
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct >= s.full // 2, s


@pytest.mark.parametrize("edition,symbols,turn", [("holodex", "RBVVBR", 0.0),
                                                  ("web", "YYRBRB", 23.0)])
def test_one_card_filling_the_picture_is_read(edition, symbols, turn):
    """A newcomer photographs a single card close up: it fills 90 % of the picture's height
    (about half its width). The reader once took any bright region wider than 35 % of the
    frame for the table, not a card."""
    h = SIZE[1]
    face = _face(symbols, edition, 0.0, 4 * 192)
    fh, fw = face.shape[:2]
    s = 0.9 * h / fh
    m = cv2.getRotationMatrix2D((fw / 2.0, fh / 2.0), turn, s)
    m[:, 2] += np.array(SIZE, float) / 2.0 - np.array([fw / 2.0, fh / 2.0])
    warped = cv2.warpAffine(face, m, SIZE, flags=cv2.INTER_AREA, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    img = cv2.resize(photo("coffee"), SIZE).astype(np.float32)
    img += (warped[..., :3].astype(np.float32) - img) * alpha
    img = camera(img, np.random.default_rng(7))
    obs = HexelReader(edition).read(img).observation
    assert len(obs.cards) == 1, obs
    card = obs.cards[0]
    assert not card.occluded
    # the face is drawn pointy-top with its E edge facing image-right: turned by less than
    # 30 degrees, E stays the lattice direction nearest image-right
    assert card.symbols == symbols


@pytest.mark.parametrize("variant,seeds", [("lamp", range(3)), ("hands", range(4))])
def test_lamp_light_and_arms_over_the_table_never_misread(variant, seeds):
    """Held-out tables lit by a 2700-6500 K lamp through a camera balanced for 5000 K (and
    exposed 0.6-1.5 times), or with two arms over the cards (skin from pale to dark, sleeves,
    a white one too, each with its own shadow): every card in full view is read, every card
    under an arm is reported occluded, read right or left out, never read wrong."""
    for seed in seeds:
        scene = heldout_scene(seed, variant=VARIANTS[variant])
        s, _ = scored(scene)
        assert s.misreads == 0 and s.false_cards == 0, (seed, s)
        # a card the scoring counts as in full view (97 %) but that an arm's edge still
        # touches may be reported occluded: the arm crosses its edge
        touched = sum(0.97 <= t.visible < 1.0 for t in scene.truth)
        assert s.correct >= s.full - touched, (seed, s)
        if variant == "hands":
            assert s.occluded_truth > 0, (seed, s)


@pytest.mark.parametrize("seed", range(3))
def test_everything_at_once_may_lose_cards_but_never_misreads(seed):
    """`harsh`: two shadows, a glare spot, a 4-12 px motion smear and a lamp together; cards
    the reader cannot trust are left out, none is read wrong, most are still read."""
    scene = heldout_scene(seed, variant=VARIANTS["harsh"])
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct >= 0.75 * s.full, s


def test_the_held_out_lamp_follows_the_planckian_locus():
    """The measuring tool itself: a 6500 K black body is close to sRGB's white (D65), a
    2700 K one is far redder than blue, and the colour warms monotonically as it cools."""
    assert np.allclose(blackbody_rgb(6500.0), 1.0, atol=0.08)
    warm = blackbody_rgb(2700.0)
    assert warm[0] > 1.5 and warm[2] < 0.4
    ratios = [blackbody_rgb(t)[0] / blackbody_rgb(t)[2] for t in range(2700, 6600, 400)]
    assert all(a > b for a, b in itertools.pairwise(ratios))


def test_a_cards_visible_share_under_an_arm_is_measured():
    """Truth for the `hands` variant: a hexagon covered up to its middle is half in view, one
    under nothing is whole, one wholly under the arm is hidden."""
    ang = np.radians(-60.0 * np.arange(6) - 30.0)
    outline = np.array([200.0, 150.0]) + 50.0 * np.c_[np.cos(ang), np.sin(ang)]
    cover = np.zeros((300, 400), np.float32)
    assert _visible_share(outline, cover) == 1.0
    cover[:, :200] = 1.0
    assert abs(_visible_share(outline, cover) - 0.5) < 0.03
    cover[:] = 1.0
    assert _visible_share(outline, cover) == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_arms_and_fingertips_together_hide_what_each_hides(seed):
    """Truth for a table with arms and fingertips both: the arms are drawn first, from the same
    random stream as on a table with arms only, so every card is at most as much in view as it
    is there (a fingertip's cover adds to the arms', it does not replace it), and some card is
    hidden by an arm."""
    arms = {t.cell: t.visible for t in heldout_scene(seed, variant=Variant(hands=2)).truth}
    both = {t.cell: t.visible for t in
            heldout_scene(seed, variant=Variant(hands=2, fingers=1)).truth}
    assert arms.keys() == both.keys()
    assert all(both[c] <= arms[c] + 1e-9 for c in arms), (arms, both)
    assert min(both.values()) < 0.9


@pytest.mark.parametrize("seed", [2, 26, 76])
def test_a_fingertip_or_a_pen_over_a_symbol_is_not_read_as_a_letter(seed):
    """`fingers`: two fingertips, sleeves or pens laid from beyond a card across its edge onto
    one of its symbols, then a 4-12 px motion smear. On these tables the covered card was read
    with one wrong letter before the crossing test learnt the band's hue round the card and a
    grey object's running on past the outline; it is now reported occluded or left out. (Not
    every such table is safe yet: `python tests/vision/heldout.py --variant fingers`.)"""
    scene = heldout_scene(seed, variant=VARIANTS["fingers"])
    s, _ = scored(scene)
    assert s.occluded_truth >= 2, s
    assert s.misreads == 0 and s.false_cards == 0, s
