"""Web symbols washed pale, read where their shape and hue agree (`shape_ink.hue_named`): a
glossy sleeve's sheen or a glare lifts a symbol towards white, so its colour fits no ink and it is
left unread, while its printed shape (R a disc, B a diamond, Y a triangle) stays plain and its
faint hue still leans to its own ink. Crafted cards first (drawn with plain cv2, read at their
true poses), then held-out sleeved tables end to end."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.synth.cardface import PAPER_RGB
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.inks import chroma, symbol_cores, wrap_angle
from companion.vision.observation import SHAPE_READ
from companion.vision.ring_shape import disc_letters, hole_px, ring_matches
from companion.vision.shape_ink import HUE_CHROMA, HUE_DEG, hue_named, shape_matches, shown
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture
from .heldout import VARIANTS, heldout_scene, scored

CARDS = ("RBYRBY", "BBRRYY", "YBRBRY", "RRBYYB")
WIDTH = 90.0   # px across the flats
# RGB: each web ink washed pale by a sheen, as held-out `sleeves` shows them against the
# paper (a red disc pale salmon, a blue diamond pale sky blue, a yellow triangle pale lemon)
WASHED = {"R": (247, 159, 112), "B": (168, 194, 233), "Y": (247, 245, 190)}
PEACH = (247, 220, 171)        # a disc washed so that its hue leans to yellow
COPPER = (120, 75, 55)         # a copper coin: a disc, reddish, darker than any print's red
GREY = (100, 104, 100)
PALE_GREY = (236, 226, 224)    # a disc washed nearly to the paper: its hue hardly shows


def _symbol(img: np.ndarray, centre: np.ndarray, d: int, shape: str,
            rgb: tuple[int, int, int], scale: float = 1.0) -> None:
    """Paint symbol `d` of the card at `centre` as `shape` ("R" disc, "B" diamond, "Y"
    triangle, apex out, as the web faces print them, "V" the holodex ring) in `rgb`, `scale`
    times the size."""
    a = WIDTH / 2.0
    r = HEXEL_FACE.symbol_radius_frac * a * scale
    ang = math.radians(-60.0 * d)
    n = np.array([math.cos(ang), math.sin(ang)])
    t = np.array([-n[1], n[0]])
    at = centre + HEXEL_FACE.symbol_centre_frac * a * n
    colour = tuple(int(v) for v in rgb[::-1])
    if shape in "RV":
        cv2.circle(img, tuple(int(v * 16) for v in at), int(r * 16), colour, -1, cv2.LINE_AA, 4)
        if shape == "V":   # (the ring's hole)
            cv2.circle(img, tuple(int(v * 16) for v in at),
                       int(r * (1.0 - HEXEL_FACE.ring_width_frac) * 16), PAPER_RGB[::-1], -1,
                       cv2.LINE_AA, 4)
        return
    if shape == "B":
        poly = [at + 1.08 * r * n, at + 0.78 * r * t, at - 1.08 * r * n, at - 0.78 * r * t]
    else:
        poly = [at + 1.12 * r * (math.cos(b) * n + math.sin(b) * t)
                for b in (0.0, 2.0 * math.pi / 3.0, -2.0 * math.pi / 3.0)]
    cv2.fillPoly(img, [(np.array(poly) * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def _table(paint: dict[tuple[int, int], tuple[str, tuple[int, int, int], float]],
           cards: tuple[str, ...] = CARDS, edition: str = "web"
           ) -> tuple[np.ndarray, list[Pose]]:
    """`cards` of `edition` in a row on felt, `WIDTH` px across (BGR, blurred by 1.2 px, JPEG
    85), with symbol (card, edge) of `paint` painted over as (shape, RGB, scale); and the true
    poses."""
    img = texture("felt", (160, 40 + int(len(cards) * WIDTH * 1.2)), np.random.default_rng(0))
    ppm = WIDTH / HEXEL_FACE.flat_to_flat_mm
    centres = [np.array([20 + WIDTH * 0.6 + i * WIDTH * 1.2, 80.0]) for i in range(len(cards))]
    for k, (c, symbols) in enumerate(zip(centres, cards, strict=True)):
        draw_card(img, c, symbols, edition, ppm, 0.0)
        for d in range(6):
            if (k, d) in paint:
                shape, rgb, scale = paint[(k, d)]
                if scale == 1.0:   # (the printed symbol taken off first, rim and all)
                    _symbol(img, c, d, "R", PAPER_RGB, 1.3)
                _symbol(img, c, d, shape, rgb, scale)
    img = cv2.GaussianBlur(img, (0, 0), 1.2)
    _ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return (cv2.imdecode(enc, cv2.IMREAD_COLOR),
            [Pose((float(c[0]), float(c[1])), WIDTH / 2.0, 0.0) for c in centres])


def _read(paint, cards: tuple[str, ...] = CARDS, edition: str = "web"):
    """The crafted table's cards read by colour at their true poses, the letters each symbol's
    shape allows (web: `shown`; holodex: `ring_shape.disc_letters`) and its cores; then
    `hue_named`'s reads and count."""
    img, poses = _table(paint, cards, edition)
    model = builtin_model(edition)
    reads = read_cards(img, poses, TableView(), model)
    whites = np.array([r.white_bgr for r in reads])
    if edition == "web":
        scores, _ = shape_matches(img, poses, TableView(), whites)
        shows = shown(scores)
        allowed, disc = np.where(shows == ".", "", shows), shows == "R"
    else:
        scores, _ = ring_matches(img, poses, TableView(), whites)
        allowed, disc = disc_letters(scores, hole_px(poses, TableView()), model)
    cores, inside = symbol_cores(img, poses, whites, TableView())
    cores = cores.reshape(-1, 6, 3)
    return reads, allowed, cores, (*hue_named(reads, allowed, disc, cores, inside, model),)


# washed symbols of each ink (where the colour reads some of them anyway, it reads them right)
WASHED_AT = {(0, 0): "R", (0, 1): "B", (1, 2): "R", (1, 5): "Y", (2, 0): "Y", (3, 2): "B"}


def test_washed_symbols_are_read_where_shape_and_hue_agree():
    """Symbols washed pale that their colour leaves unread with nothing over them, of each ink,
    are read as printed by their shape and faint hue together, at a confidence the referee
    judges but below a colour's; nothing else changes."""
    paint = {at: (letter, WASHED[letter], 1.0) for at, letter in WASHED_AT.items()}
    reads, _, _, (named, count) = _read(paint)
    unread = [(k, d) for (k, d) in WASHED_AT if reads[k].symbols[d] == "?"]
    assert all(reads[k].unread_ink[d] for k, d in unread)
    assert {WASHED_AT[at] for at in unread} == {"R", "B", "Y"}
    assert [r.symbols.replace("?", "") for r in reads] == [
        "".join(c for d, c in enumerate(s) if (k, d) not in unread)
        for k, s in enumerate(CARDS)]
    assert count == len(unread)
    assert [r.symbols for r in named] == list(CARDS)
    for k, d in unread:
        assert 0.6 <= named[k].edge_confidence[d] < 1.0 and not named[k].unread_ink[d]


def test_a_washed_disc_whose_hue_leans_to_yellow_stays_unread():
    """A disc washed peach: its shape says R, its hue the yellow ink's; the two cues disagree
    and it keeps its '?'."""
    reads, shows, cores, (named, count) = _read({(0, 0): ("R", PEACH, 1.0)})
    assert reads[0].symbols[0] == "?" and reads[0].unread_ink[0]
    assert shows[0, 0] == "R"
    assert _nearest_ink(cores[0, 0])[0] == "Y"
    assert count == 0 and named[0].symbols == reads[0].symbols


def _nearest_ink(core: np.ndarray) -> tuple[str, float, float]:
    """(the web letter whose ink's hue is nearest the core's, that angle in degrees, the
    core's chroma)."""
    model = builtin_model("web")
    _, ink_hue = chroma(np.asarray(model.inks, np.float64))
    length, hue = chroma(core)
    off = np.degrees(np.abs(wrap_angle(hue - ink_hue)))
    return model.letters[int(off.argmin())], float(off.min()), float(length)


def test_a_copper_coin_on_a_symbol_is_not_read_as_a_disc():
    """A copper coin a little larger than a symbol, lying over a triangle, left unread by its
    colour: it shows a disc, and its hue is the red ink's, but it is darker than the red ink
    (a wash only lifts an ink): not read."""
    reads, shows, cores, (named, count) = _read({(0, 2): ("R", COPPER, 1.1)})
    assert reads[0].symbols[2] == "?" and reads[0].unread_ink[2]
    letter, off, length = _nearest_ink(cores[0, 2])
    assert shows[0, 2] == "R" and letter == "R" and off <= HUE_DEG and length >= HUE_CHROMA
    assert count == 0 and named[0].symbols[2] == "?"


def test_a_disc_washed_nearly_to_the_paper_is_not_read():
    """A disc washed so pale that its hue hardly shows (within HUE_DEG of the red ink's, and
    no darker than it, but with chroma below HUE_CHROMA): one cue, not two; not read."""
    reads, shows, cores, (named, count) = _read({(0, 2): ("R", PALE_GREY, 1.0)})
    assert reads[0].symbols[2] == "?" and reads[0].unread_ink[2] and shows[0, 2] == "R"
    letter, off, length = _nearest_ink(cores[0, 2])
    assert letter == "R" and off <= HUE_DEG and length < HUE_CHROMA
    assert count == 0 and named[0].symbols[2] == "?"


def test_a_grey_coin_on_a_symbol_is_not_read():
    """A grey coin over a triangle shows a disc but no hue: not read."""
    reads, shows, cores, (named, count) = _read({(0, 2): ("R", GREY, 1.1)})
    assert reads[0].symbols[2] == "?" and shows[0, 2] == "R"
    assert _nearest_ink(cores[0, 2])[2] < HUE_CHROMA
    assert count == 0 and named[0].symbols[2] == "?"


@pytest.mark.parametrize("seed", [23, 71])
def test_sleeved_tables_with_washed_symbols_read_exactly(seed):
    """Held-out `sleeves` tables (web cards in glossy sleeves, their sheen washing some symbols
    pale): every card read right, none misread, and the note says which symbols were read by
    shape and hue."""
    scene = heldout_scene(seed, variant=VARIANTS["sleeves"])
    assert scene.edition == "web"
    score, obs = scored(scene)
    assert score.exact, score
    assert any(n.startswith(SHAPE_READ) and "washed pale" in n for n in obs.notes), obs.notes


HCARDS = ("RBVRBV", "BBRRVV", "VBRBRV", "RRBVVB")
# washed discs on holodex cards (a red disc washed pale pink, as `sleeves` 53 shows one)
HWASHED_AT = {(0, 0): "R", (0, 1): "B", (1, 2): "R", (2, 1): "B", (3, 2): "B"}
HWASHED = {"R": (245, 174, 183), "B": WASHED["B"]}


def test_washed_holodex_discs_are_read_where_disc_and_hue_agree():
    """On holodex cards R and B are both discs, told apart by colour: discs washed pale that
    their colour leaves unread with nothing over them show a disc, not the ring, and their
    faint hue names them."""
    paint = {at: ("R", HWASHED[letter], 1.0) for at, letter in HWASHED_AT.items()}
    reads, allowed, _, (named, count) = _read(paint, HCARDS, "holodex")
    unread = [(k, d) for (k, d) in HWASHED_AT if reads[k].symbols[d] == "?"]
    assert all(reads[k].unread_ink[d] and allowed[k, d] == "RB" for k, d in unread)
    assert {HWASHED_AT[at] for at in unread} == {"R", "B"}
    assert count == len(unread)
    assert [r.symbols for r in named] == list(HCARDS)


def test_a_copper_coin_on_a_holodex_ring_is_not_read():
    """A copper coin over a ring on a holodex card shows a disc with the red ink's hue, but is
    darker than the red ink: not read."""
    reads, allowed, cores, (named, count) = _read({(0, 2): ("R", COPPER, 1.1)}, HCARDS,
                                                  "holodex")
    assert reads[0].symbols[2] == "?" and reads[0].unread_ink[2] and allowed[0, 2] == "RB"
    letter, off, length = _nearest_ink(cores[0, 2])
    assert letter == "R" and off <= HUE_DEG and length >= HUE_CHROMA
    assert count == 0 and named[0].symbols[2] == "?"


def test_a_pale_pink_ring_is_not_read_as_a_disc():
    """A ring printed pale pink (its hue and lightness a washed red's): its picture shows the
    ring, not a disc, so its hue names nothing."""
    reads, allowed, cores, (named, count) = _read({(0, 2): ("V", HWASHED["R"], 1.0)}, HCARDS,
                                                  "holodex")
    assert reads[0].symbols[2] == "?" and reads[0].unread_ink[2]
    assert _nearest_ink(cores[0, 2])[0] == "R" and allowed[0, 2] == ""
    assert count == 0 and named[0].symbols[2] == "?"
