"""Holodex rings told from discs by their whole shape (`vision.ring_shape`): a pale print's blue
disc photographed in a dim room with a little motion loses its colour and reads as the grey
ring, a misread a person at the table never makes, since the disc has no hole. Crafted cards
first (drawn with plain cv2, matched at their true poses), then held-out office prints in a dim
room with motion, where it happened: the reader leaves those discs unread and the referee says
why. And the mirror (`disc_contradicted`): a grey ring tinted by a dim room's cast, read as a
blue disc by its colour, still shows its hole."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.referee.proposal import unclear
from companion.vision import ring_shape
from companion.vision.calibration import TableCalibration, TableView
from companion.vision.observation import FAINT_INK, NO_DISC, NO_RING
from companion.vision.ring_shape import (
    DISC_GAP,
    DISC_STROKE,
    MIN_HOLE_PX,
    NOT_DISC,
    NOT_RING,
    RING_SEEN,
    disc_contradicted,
    hole_px,
    ring_contradicted,
    ring_matches,
)
from companion.vision.symbol_samples import CardRead, Pose

from .crafted import draw_card, texture
from .heldout import VARIANTS, Variant, heldout_scene, scored

CARD = "VBVRVB"          # rings at 0, 2, 4; discs at 1, 3, 5
GREYED = (1, 5)          # the blue discs, painted the ring's washed grey where asked
WASHED_GREY = (118, 118, 120)   # BGR: a blue disc that lost its colour


def _card(width: float, blur: float, grey: tuple[int, int, int] | None = None,
          seed: int = 0) -> tuple[np.ndarray, Pose]:
    """One holodex card `CARD`, `width` px across the flats, on felt, blurred by `blur` px,
    with a little sensor noise and JPEG 85; its blue discs painted `grey` where given (a
    disc that lost its colour). The image and the card's true pose."""
    size = int(2 * width)
    img = texture("felt", (size, size), np.random.default_rng(seed))
    ppm = width / HEXEL_FACE.flat_to_flat_mm
    centre = np.array([width, width])
    draw_card(img, centre, CARD, "holodex", ppm, 0.0)
    if grey is not None:
        a = HEXEL_FACE.apothem_mm * ppm
        for d in GREYED:
            ang = math.radians(-60.0 * d)
            at = centre + HEXEL_FACE.symbol_centre_frac * a * np.array([math.cos(ang),
                                                                        math.sin(ang)])
            cv2.circle(img, tuple(int(v * 16) for v in at),
                       int(HEXEL_FACE.symbol_radius_frac * a * 16), grey, -1, cv2.LINE_AA, 4)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    noise = np.random.default_rng(seed).normal(0.0, 3.0, img.shape)
    img = np.clip(img + noise, 0, 255).astype(np.uint8)
    _ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR), Pose((width, width), width / 2.0, 0.0)


def _matches(img: np.ndarray, pose: Pose) -> tuple[np.ndarray, np.ndarray]:
    """`ring_matches` of the crafted card at `pose`, against the paper at the card's middle."""
    c = int(pose.centre[0])
    white = img[c - 2:c + 3, c - 2:c + 3].reshape(-1, 3).mean(0)
    return ring_matches(img, [pose], TableView(), white[None])


def _lead(img: np.ndarray, pose: Pose) -> np.ndarray:
    """Each symbol's disc correlation less its ring correlation (6), against the paper at the
    card's middle."""
    scores, contrast = _matches(img, pose)
    assert (contrast[0] > 0.15).all()
    return scores[0, :, 0] - scores[0, :, 1]


def _read(symbols: str) -> CardRead:
    return CardRead(symbols, (1.0,) * 6, 1.0, 1.0, True, (230.0, 230.0, 230.0))


@pytest.mark.parametrize("width", [50.0, 60.0, 75.0, 90.0])
def test_a_ring_shows_its_hole_and_a_disc_does_not(width):
    lead = _lead(*_card(width, 0.8))
    assert (lead[[0, 2, 4]] < NOT_RING).all(), lead
    assert (lead[[1, 3, 5]] >= NOT_RING + 0.05).all(), lead


@pytest.mark.parametrize("width", [50.0, 60.0, 75.0, 90.0])
def test_a_blue_disc_greyed_and_read_as_the_ring_is_left_unread(width):
    img, pose = _card(width, 1.0, WASHED_GREY)
    scores, contrast = _matches(img, pose)
    # (read by colour as the ring: the greyed discs with the printed rings)
    holes = hole_px([pose], TableView())
    gone = ring_contradicted([_read("VVVRVV")], scores, contrast, "V", holes)
    assert gone == [tuple(d in GREYED for d in range(6))]
    # (and the card read right has nothing contradicted)
    assert ring_contradicted([_read(CARD)], scores, contrast, "V", holes) == [(False,) * 6]


@pytest.mark.parametrize("width, blur", [(50.0, 2.0), (60.0, 2.0), (75.0, 2.5)])
def test_blur_that_fills_a_ring_s_hole_fills_the_card_s_discs_alike(width, blur):
    """Blur fills a small ring's hole until it matches the disc better than the ring by
    NOT_RING or more; the card's own discs, blurred alike, match it better still, and the
    rings are kept."""
    img, pose = _card(width, blur)
    lead = _lead(img, pose)
    assert lead[[0, 2, 4]].max() >= NOT_RING, lead     # (the absolute test alone would fail)
    scores, contrast = _matches(img, pose)
    assert ring_contradicted([_read(CARD)], scores, contrast, "V",
                             hole_px([pose], TableView())) == [(False,) * 6]


@pytest.mark.parametrize("width, blur", [(26.0, 0.6), (28.0, 1.0), (30.0, 0.6), (30.0, 1.2)])
def test_a_ring_too_small_for_its_hole_to_show_is_not_judged_by_its_shape(width, blur):
    """A card under 34 px across the flats: its rings' holes (1.5-1.7 px in radius) are gone
    under the least blur, and they match the disc better than the card's own discs do. Read
    as the ring by their colour, they are kept (hard band seed 28 lost three cards to it);
    judged as on a larger card, every ring would be left unread."""
    img, pose = _card(width, blur)
    scores, contrast = _matches(img, pose)
    holes = hole_px([pose], TableView())
    assert holes[0] == pytest.approx(0.5 * width * HEXEL_FACE.symbol_radius_frac
                                     * (1.0 - HEXEL_FACE.ring_width_frac))
    assert holes[0] < MIN_HOLE_PX
    assert ring_contradicted([_read(CARD)], scores, contrast, "V", holes) == [(False,) * 6]
    as_if_large = ring_contradicted([_read(CARD)], scores, contrast, "V", holes + 9.0)
    assert as_if_large == [tuple(d in (0, 2, 4) for d in range(6))]


def test_a_hole_s_size_in_the_frame_follows_the_table_view():
    """`hole_px` measures the card in the frame: a table seen at 2 px per mm across and 3 down
    (the plane in mm, a camera leaning) shows a card of apothem 20 mm 40 px wide and 60 px
    high from its centre, 50 on the mean."""
    view = TableView(TableCalibration(((0.5, 0.0, 0.0), (0.0, 1.0 / 3.0, 0.0), (0.0, 0.0, 1.0)),
                                      (400.0, 300.0)))
    pose = Pose((100.0, 80.0), 20.0, 0.3)
    assert hole_px([pose], view)[0] == pytest.approx(
        50.0 * HEXEL_FACE.symbol_radius_frac * (1.0 - HEXEL_FACE.ring_width_frac))


def test_a_symbol_too_faint_for_a_shape_is_not_judged():
    img, pose = _card(75.0, 1.0, (236, 238, 240))     # (the greyed discs nearly paper)
    scores, contrast = _matches(img, pose)
    assert (contrast[0, list(GREYED)] < 0.15).all()
    assert ring_contradicted([_read("VVVRVV")], scores, contrast, "V",
                             hole_px([pose], TableView())) == [(False,) * 6]


DIM_MOTION = VARIANTS["office-lowlight-motion"]


@pytest.mark.parametrize("seed", [36, 66, 72])
def test_an_office_print_s_blue_in_a_dim_room_with_motion_is_never_read_as_the_ring(seed):
    """Held-out office prints in a dim room with motion blur (`office-lowlight` and motion):
    their blue discs read as the ring on 3, 4 and 7 cards (the referee judged none of them
    only by chance: a card taken for covered, an ink not named). Then each was left unread
    (`no ring`); now the blue is learned from its faint cores and read where it shows plainly
    (`inks.faint_inks`: 19, 8 and 7 cards read whole against 5, 3 and 3), and either way the
    referee asks for light or the print's colours. (A sharp grey disc was never read as the
    ring: `symbol_shape.filled_rings`.)"""
    scene = heldout_scene(seed, variant=DIM_MOTION)
    assert scene.edition == "holodex"
    score, obs = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    assert any(n.startswith((NO_RING, FAINT_INK)) for n in obs.notes), obs.notes
    # (where the print also shows an ink no letter names, that problem is said first: the
    # remedy is the same)
    p = unclear(obs)
    assert p is not None and p.kind == "problem" and "calibrate colours" in p.message, p
    assert "solid disc" in p.message or obs.unnamed_ink, p



@pytest.mark.parametrize("seed", [66, 72])
def test_with_fingertips_over_the_cards_too_no_disc_is_read_as_the_ring(seed):
    """The same print in the same light with two fingertips laid across cards
    (`office-lowlight-fingers`): before, 16 and 12 cards read wrong, blue discs as the ring.
    With the blue learned faint, on 66 a grey pen's tip over a blue disc, as dark and nearly
    as grey as the faint blue, read as the ring: it leads the disc less than the card's faint
    blue discs do, which must not excuse it (`ring_shape.ring_contradicted`'s `faint`)."""
    score, obs = scored(heldout_scene(seed, variant=VARIANTS["office-lowlight-fingers"]))
    assert score.misreads == 0 and score.false_cards == 0, score
    assert obs.no_ring > 0 or any(n.startswith(FAINT_INK) for n in obs.notes), obs.notes


@pytest.mark.parametrize("width", [50.0, 60.0, 75.0, 90.0])
def test_a_ring_read_as_a_disc_by_its_colour_is_left_unread(width):
    """The crafted card's rings read as blue discs (a ring tinted by the light): each shows its
    hole, and is left unread; the card read right has nothing contradicted."""
    img, pose = _card(width, 1.0)
    scores, contrast = _matches(img, pose)
    holes = hole_px([pose], TableView())
    gone = disc_contradicted([_read("BBVRVB")], scores, contrast, "V", holes)
    assert gone == [(True,) + (False,) * 5]
    gone = disc_contradicted([_read("BBBRBB")], scores, contrast, "V", holes)
    assert gone == [tuple(d in (0, 2, 4) for d in range(6))]
    assert disc_contradicted([_read(CARD)], scores, contrast, "V", holes) == [(False,) * 6]
    # (nor is any ring read as the ring, nor any disc read as its ink, contradicted the other
    # way round)
    assert ring_contradicted([_read(CARD)], scores, contrast, "V", holes) == [(False,) * 6]


def _scores(lead: list[float], ring: list[float]) -> np.ndarray:
    """(1 x 6 x 2) correlations with the disc and the ring from each symbol's lead and ring
    correlation."""
    r = np.array(ring)
    return np.stack([r + np.array(lead), r], -1)[None]


def test_a_disc_is_judged_against_its_card_s_other_discs():
    """Crafted scores: a symbol read as a disc is left unread only where its picture shows the
    ring (RING_SEEN), leads the disc NOT_DISC or less, and falls DISC_GAP or more short of
    the median of the card's other discs seen; blur lowers every disc's lead on a card alike."""
    contrast, holes = np.full((1, 6), 0.4), np.array([4.0])
    ring = [0.9] * 6
    base = [NOT_DISC, 0.3, 0.3, 0.3, 0.3, 0.3]
    assert disc_contradicted([_read("BRRBRB")], _scores(base, ring), contrast, "V",
                             holes) == [(True,) + (False,) * 5]
    # (a card blurred alike: its other discs lead less, so a lead of NOT_DISC is no ring)
    blurred = [NOT_DISC] + [NOT_DISC + DISC_GAP - 0.02] * 5
    assert disc_contradicted([_read("BRRBRB")], _scores(blurred, ring), contrast, "V",
                             holes) == [(False,) * 6]
    # (a lead just above NOT_DISC is a disc, however far its card's discs lead)
    above = [NOT_DISC + 0.02, 0.5, 0.5, 0.5, 0.5, 0.5]
    assert disc_contradicted([_read("BRRBRB")], _scores(above, ring), contrast, "V",
                             holes) == [(False,) * 6]
    # (a picture that matches the ring poorly too is no symbol's shape: a card's pose a little
    # off, or something lying over it, not judged here)
    garbled = [RING_SEEN - 0.05] + [0.9] * 5
    assert disc_contradicted([_read("BRRBRB")], _scores(base, garbled), contrast, "V",
                             holes) == [(False,) * 6]
    # (a card whose other symbols are rings, read as such, has no discs to measure against)
    assert disc_contradicted([_read("BVVVVV")], _scores(base, ring), contrast, "V",
                             holes) == [(False,) * 6]
    # (nor are the discs of a faint ink judged, nor measured against)
    assert disc_contradicted([_read("BRRBRB")], _scores(base, ring), contrast, "V", holes,
                             frozenset("B")) == [(False,) * 6]
    assert disc_contradicted([_read("RBBRBB")], _scores(base, ring), contrast, "V", holes,
                             frozenset("B")) == [(True,) + (False,) * 5]
    # (a disc under a glare spot: its middle pale as a ring's hole, but its whole stroke paler
    # than its card's discs; a ring's ink is as dark as theirs)
    washed = contrast.copy()
    washed[0, 0] = DISC_STROKE * 0.4 - 0.02
    assert disc_contradicted([_read("BRRBRB")], _scores(base, ring), washed, "V",
                             holes) == [(False,) * 6]
    washed[0, 0] = DISC_STROKE * 0.4 + 0.02
    assert disc_contradicted([_read("BRRBRB")], _scores(base, ring), washed, "V",
                             holes) == [(True,) + (False,) * 5]
    # (nor a symbol too faint, nor one on a card too small, for a shape)
    faint = contrast.copy()
    faint[0, 0] = 0.1
    assert disc_contradicted([_read("BRRBRB")], _scores(base, ring), faint, "V",
                             holes) == [(False,) * 6]
    assert disc_contradicted([_read("BRRBRB")], _scores(base, ring), contrast, "V",
                             np.array([MIN_HOLE_PX - 0.1])) == [(False,) * 6]


def test_a_ring_tinted_blue_in_a_dim_room_is_never_read_as_a_blue_disc():
    """Held-out office print in a dim room with two fingertips (`office-lowlight-fingers`)
    seed 4: a grey ring on a card in full view, tinted by the room's blue cast, read as a blue
    disc at confidence 0.77 (RBRRRR for RVRRRR: its disc lead 0.02, its card's red discs
    0.25-0.31). Now it is left unread, and the referee says why."""
    score, obs = scored(heldout_scene(4, variant=VARIANTS["office-lowlight-fingers"]))
    assert score.misreads == 0 and score.false_cards == 0, score
    assert obs.no_disc >= 1 and any(n.startswith(NO_DISC) for n in obs.notes), obs.notes
    p = unclear(obs)
    assert p is not None and p.kind == "problem" and "grey ring's hole" in p.message, p


def test_rings_tinted_red_in_a_dim_room_are_never_read_as_red_discs(monkeypatch):
    """Held-out 14078 of a dim room with one fingertip and motion (found never seen): a card in
    full view whose two rings, tinted red, read as red discs at confidence 0.78 (BBRBRB for
    BBVBVB), leading the ring by 0.085 and 0.093 where its blue discs lead by 0.30-0.33. They
    are left unread; with the disc's lead bounded at 0.08, as first set, the card is misread."""
    scene = heldout_scene(14078, variant=Variant(lowlight=True, fingers=1, motion=True))
    score, obs = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    assert obs.no_disc >= 2, obs.notes
    with monkeypatch.context() as m:
        m.setattr(ring_shape, "NOT_DISC", 0.08)
        loose, _ = scored(scene)
    assert loose.misreads == 1, loose


def test_the_reader_says_so_only_for_a_card_it_would_have_reported_whole():
    """The reader leaves a ring read as a disc unread on every card (`HexelReader._ring_checked`),
    but counts it as the light's doing (`HexelObservation.no_disc`, the referee's problem) only
    on a card it would otherwise have reported whole: where a hand also covers the card's band,
    the referee waits for a clear view as for any covered card."""
    from companion.vision.reader import HexelReader

    img, pose = _card(75.0, 1.0)
    reader = HexelReader("holodex")
    whole = CardRead("BBVRVB", (1.0,) * 6, 1.0, 1.0, True, (230.0, 230.0, 230.0))
    covered = dataclasses.replace(whole, border_ok=0.3)
    out, rings, discs = reader._ring_checked(img, [pose, pose], [whole, covered])
    assert [r.symbols for r in out] == ["?BVRVB", "?BVRVB"] and (rings, discs) == (0, 1)
