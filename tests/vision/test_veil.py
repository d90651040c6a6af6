"""Cards under a glare's veil (`veil`): a lamp's glare adds its light to a card's paper, band and
symbols alike, and the card, its print all there, is no longer found nor read. Its printed band,
against the band of the frame's clean cards, tells the light added; taken away, the card reads
whole again. Bare table under a glare, with no band darker than it, is no card to read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import companion.vision.reader as reader_mod
from companion.vision import veil
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.geometry import hexagon
from companion.vision.symbols import read_cards

from .heldout import VARIANTS, heldout_scene, scored
from .test_band_pose import SYMBOLS, _card
from .test_washed_holodex import without_washed_holodex

DIM = 0.35     # the card's own light under the glare (of the crafted picture's)
GLARE = 130.0  # and the light the glare adds, of 255


def _veiled(img: np.ndarray, centre: tuple[float, float], apothem: float, angle: float,
            light: np.ndarray) -> np.ndarray:
    """`img` with `light` (BGR) added over a hexagon 1.3 times the card's about its centre."""
    mask = np.zeros(img.shape[:2], np.uint8)
    poly = hexagon(np.asarray(centre), 1.3 * apothem, angle)
    cv2.fillConvexPoly(mask, np.rint(poly).astype(np.int32), 255)
    out = img.astype(np.float32)
    out[mask > 0] += light
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def dim_card():
    img, pose = _card("wood", blur=1.5)
    return (img.astype(np.float32) * DIM).astype(np.uint8), pose


def test_the_veil_is_measured_from_the_band_and_not_found_on_a_clean_card(dim_card):
    img, pose = dim_card
    view = TableView()
    k = veil.band_ratio(img, view, [pose])
    assert k is not None and (k > 0.05).all() and (k < 0.5).all(), k
    light = np.array([GLARE, GLARE - 10.0, GLARE + 10.0])
    veils, ok = veil.card_veils(_veiled(img, pose.centre, pose.apothem, pose.angle, light),
                                view, [pose], k)
    assert ok[0]
    assert np.abs(veils[0] - light).max() < 6.0, veils[0]
    clean, ok = veil.card_veils(img, view, [pose], k)
    assert not ok[0] and np.abs(clean[0]).max() < 3.0, clean[0]
    # a light veil (a sleeve's sheen, a pale object's blur over the band) is measured but left
    # alone: taken away, it only gives a marginal symbol a second chance to be misread
    mild, ok = veil.card_veils(_veiled(img, pose.centre, pose.apothem, pose.angle,
                                       np.full(3, 20.0)), view, [pose], k)
    assert not ok[0] and np.abs(mild[0] - 20.0).max() < 6.0, mild[0]


def test_a_veiled_card_reads_whole_once_its_veil_is_taken_away(dim_card):
    img, pose = dim_card
    view, model = TableView(), builtin_model("holodex")
    assert read_cards(img, [pose], view, model)[0].symbols == SYMBOLS
    fogged = _veiled(img, pose.centre, pose.apothem, pose.angle, np.full(3, GLARE))
    assert read_cards(fogged, [pose], view, model)[0].symbols.count("?") >= 4
    k = veil.band_ratio(img, view, [pose])
    veils, ok = veil.card_veils(fogged, view, [pose], k)
    assert ok[0]
    clear = veil.deveiled(fogged, view, [pose], veils)
    r = read_cards(clear, [pose], view, model)[0]
    assert r.symbols == SYMBOLS and r.paper_ok == 1.0 and r.border_ok == 1.0, r
    # outside the card's outline the frame is as it was
    far = np.ones(img.shape[:2], bool)
    cv2.fillConvexPoly(far.view(np.uint8), np.rint(hexagon(np.asarray(pose.centre),
                       1.2 * pose.apothem, pose.angle)).astype(np.int32), 0)
    assert np.array_equal(clear[far], fogged[far])


def test_a_veil_that_clips_the_paper_is_left_alone(dim_card):
    # the paper past the clip lies brighter than seen, by how much nobody can say, and so does
    # the veil (held-out `sleeves` 89 on unseen backgrounds: a red disc washed peach read as
    # a yellow once a veil measured against a clipped paper was taken away)
    img, pose = dim_card
    view = TableView()
    k = veil.band_ratio(img, view, [pose])
    fogged = _veiled(img, pose.centre, pose.apothem, pose.angle, np.full(3, 200.0))
    paper = np.percentile(fogged[int(pose.centre[1]) - 5:int(pose.centre[1]) + 5,
                                 int(pose.centre[0]) - 5:int(pose.centre[0]) + 5], 90)
    assert paper >= 250
    assert not veil.card_veils(fogged, view, [pose], k)[1][0]
    # (the same veil on a dimmer card, its paper short of the clip, is taken away)
    dimmer = (img.astype(np.float32) * 0.5).astype(np.uint8)
    fogged = _veiled(dimmer, pose.centre, pose.apothem, pose.angle, np.full(3, 160.0))
    assert veil.card_veils(fogged, view, [pose], veil.band_ratio(dimmer, view, [pose]))[1][0]


def test_bare_table_under_a_glare_is_no_veiled_card(dim_card):
    img, pose = dim_card
    view = TableView()
    k = veil.band_ratio(img, view, [pose])
    table = np.full_like(img, 40)
    glare = _veiled(table, pose.centre, pose.apothem, pose.angle, np.full(3, GLARE))
    assert not veil.card_veils(glare, view, [pose], k)[1][0]


def test_a_frame_whose_band_says_little_gives_no_ratio(dim_card):
    img, pose = dim_card
    grey = cv2.GaussianBlur(img, (0, 0), 12.0)   # the band blurred into the paper
    assert veil.band_ratio(grey, TableView(), [pose]) is None
    assert veil.band_ratio(img, TableView(), []) is None


@pytest.mark.parametrize(("seed", "gained"), [(77, 2), (56, 1)])
def test_harsh_tables_read_the_cards_under_the_glare(monkeypatch, seed, gained):
    """Held-out `harsh` 77: two cards under a lamp's glare spot are not found at all without
    the veil taken away; 56: a card under it reads 'BB????'. With it, they read whole and
    right, and no card is misread. (The washed holodex symbols read by their shape and hue,
    `washed_holodex`, read 56's card too: the veil's test leaves them out.)"""
    without_washed_holodex(monkeypatch)
    scene = heldout_scene(seed, variant=VARIANTS["harsh"])
    score, _ = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0, score
    monkeypatch.setattr(reader_mod, "veil_passes", _no_veil)
    before, _ = scored(scene)
    assert before.misreads == 0
    assert score.correct >= before.correct + gained, (before, score)


def _no_veil(*args, **kwargs):
    """`veil.veil_passes` finding nothing."""
    return ([], [], [], [])
    yield   # (a generator, as the passes are)
