"""Web symbols washed pale, read where their shape and hue agree (`shape_ink.hue_named`): a
glossy sleeve's sheen or a glare lifts a symbol towards white, so its colour fits no ink and it is
left unread, while its printed shape (R a disc, B a diamond, Y a triangle) stays plain and its
faint hue still leans to its own ink. Crafted cards first (drawn with plain cv2, read at their
true poses), then held-out sleeved tables end to end; and holodex rings blurred beside blue
discs, never read blue (their R and B are both discs: a blurred ring tinted by a blue neighbour
is a pale blue disc to the shape and hue; `test_washed_holodex`)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import companion.vision.washed as washed
from companion.faces import HEXEL_FACE
from companion.synth.cardface import PAPER_RGB
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.inks import CLIP_TURNED, chroma, symbol_cores, wrap_angle
from companion.vision.observation import SHAPE_READ
from companion.vision.reader import HexelReader
from companion.vision.shape_ink import (
    HUE_CHROMA,
    HUE_DEG,
    HUE_LEAD_DEG,
    WEAK_LEAD,
    WEAK_MATCH,
    hue_named,
    shape_matches,
    shown,
)
from companion.vision.symbol_samples import CardRead, Pose
from companion.vision.symbols import read_cards
from companion.vision.washed import MIN_LETTERS

from .crafted import draw_card, texture
from .heldout import VARIANTS, heldout_scene, scored
from .test_symbol_clip import COOL
from .test_symbol_clip2 import RINGS_BESIDE_BLUE
from .test_symbols_unflag import _jpeg_card

CARDS = ("RBYRBY", "BBRRYY", "YBRBRY", "RRBYYB")
WIDTH = 90.0   # px across the flats
# RGB: each web ink washed pale by a sheen, as held-out `sleeves` shows them against the
# paper (a red disc pale salmon, a blue diamond pale sky blue, a yellow triangle pale lemon)
WASHED = {"R": (247, 159, 112), "B": (168, 194, 233), "Y": (247, 245, 190)}
PEACH = (247, 220, 171)        # a disc washed so that its hue leans to yellow, red at the clip
APRICOT = (232, 200, 150)      # as pale and orange, its red short of the clip
COPPER = (120, 75, 55)         # a copper coin: a disc, reddish, darker than any print's red
GREY = (100, 104, 100)
PALE_GREY = (236, 226, 224)    # a disc washed nearly to the paper: its hue hardly shows


def _symbol(img: np.ndarray, centre: np.ndarray, d: int, shape: str,
            rgb: tuple[int, int, int], scale: float = 1.0) -> None:
    """Paint symbol `d` of the card at `centre` as `shape` ("R" disc, "B" diamond, "Y"
    triangle, apex out, as the web faces print them) in `rgb`, `scale` times the size."""
    a = WIDTH / 2.0
    r = HEXEL_FACE.symbol_radius_frac * a * scale
    ang = math.radians(-60.0 * d)
    n = np.array([math.cos(ang), math.sin(ang)])
    t = np.array([-n[1], n[0]])
    at = centre + HEXEL_FACE.symbol_centre_frac * a * n
    colour = tuple(int(v) for v in rgb[::-1])
    if shape == "R":
        cv2.circle(img, tuple(int(v * 16) for v in at), int(r * 16), colour, -1, cv2.LINE_AA, 4)
        return
    if shape == "B":
        poly = [at + 1.08 * r * n, at + 0.78 * r * t, at - 1.08 * r * n, at - 0.78 * r * t]
    else:
        poly = [at + 1.12 * r * (math.cos(b) * n + math.sin(b) * t)
                for b in (0.0, 2.0 * math.pi / 3.0, -2.0 * math.pi / 3.0)]
    cv2.fillPoly(img, [(np.array(poly) * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def _table(paint: dict[tuple[int, int], tuple[str, tuple[int, int, int], float]],
           cards: tuple[str, ...] = CARDS) -> tuple[np.ndarray, list[Pose]]:
    """Web `cards` in a row on felt, `WIDTH` px across (BGR, blurred by 1.2 px, JPEG 85), with
    symbol (card, edge) of `paint` painted over as (shape, RGB, scale); and the true poses."""
    img = texture("felt", (160, 40 + int(len(cards) * WIDTH * 1.2)), np.random.default_rng(0))
    ppm = WIDTH / HEXEL_FACE.flat_to_flat_mm
    centres = [np.array([20 + WIDTH * 0.6 + i * WIDTH * 1.2, 80.0]) for i in range(len(cards))]
    for k, (c, symbols) in enumerate(zip(centres, cards, strict=True)):
        draw_card(img, c, symbols, "web", ppm, 0.0)
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


def _read(paint, cards: tuple[str, ...] = CARDS):
    """The crafted web table's cards read by colour at their true poses, the letter each
    symbol's shape shows (`shown`, '.' none) and its cores; then `hue_named`'s reads and
    count."""
    img, poses = _table(paint, cards)
    model = builtin_model("web")
    with pytest.MonkeyPatch.context() as mp:   # (by colour alone: none named within the read)
        mp.setattr(washed, "MIN_LETTERS", 7)
        reads = read_cards(img, poses, TableView(), model)
    whites = np.array([r.white_bgr for r in reads])
    scores, _ = shape_matches(img, poses, TableView(), whites)
    shows = shown(scores)
    cores, inside = symbol_cores(img, poses, whites, TableView())
    cores = cores.reshape(-1, 6, 3)
    return reads, shows, cores, (*hue_named(reads, shows, cores, inside, model),)


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


def test_a_washed_disc_whose_hue_the_clip_turned_to_yellow_is_read():
    """A disc washed peach, its red channel at the paper's clip: its shape says R, its hue lies
    nearer the yellow ink's but within HUE_DEG of the red's, turned so by the clip (the wash
    lifts green and blue on past a red that can rise no further). The clip explains the turn,
    the shape names the disc: read R (held-out `sleeves` 30009, pale peach discs on web
    cards)."""
    reads, shows, cores, (named, count) = _read({(0, 0): ("R", PEACH, 1.0)})
    assert reads[0].symbols[0] == "?" and reads[0].unread_ink[0]
    assert shows[0, 0] == "R"
    assert _nearest_ink(cores[0, 0])[0] == "Y" and cores[0, 0, 0] >= CLIP_TURNED
    assert _off_ink(cores[0, 0], "R") <= HUE_DEG
    assert count == 1 and named[0].symbols == CARDS[0]
    assert named[0].by_hue[0] and 0.6 <= named[0].edge_confidence[0] < 1.0


def test_a_disc_leaning_to_yellow_below_the_clip_stays_unread():
    """A disc as pale orange as the peach one but with its red channel short of the clip:
    nothing turned its hue, so it shows the yellow ink's hue in a disc's shape; the two cues
    disagree and it keeps its '?'."""
    reads, shows, cores, (named, count) = _read({(0, 0): ("R", APRICOT, 1.0)})
    assert reads[0].symbols[0] == "?" and reads[0].unread_ink[0]
    assert shows[0, 0] == "R"
    assert _nearest_ink(cores[0, 0])[0] == "Y" and cores[0, 0, 0] < CLIP_TURNED
    assert _off_ink(cores[0, 0], "R") <= HUE_DEG
    assert count == 0 and named[0].symbols == reads[0].symbols


def test_a_washed_triangle_turned_so_is_not_read_as_the_disc():
    """A yellow triangle washed to the peach disc's colour stays a triangle: its shape shows
    Y, never the disc, so the clip's turn names nothing but its own letter."""
    _reads, shows, cores, (named, _count) = _read({(0, 2): ("Y", PEACH, 1.0)})
    assert shows[0, 2] == "Y"
    assert cores[0, 2, 0] >= CLIP_TURNED and _off_ink(cores[0, 2], "R") <= HUE_DEG
    assert named[0].symbols[2] in "Y?"


def _offs(core: np.ndarray) -> np.ndarray:
    """Degrees between the core's hue and each web ink's (in the model's letter order)."""
    _, ink_hue = chroma(np.asarray(builtin_model("web").inks, np.float64))
    return np.degrees(np.abs(wrap_angle(chroma(core)[1] - ink_hue)))


def _off_ink(core: np.ndarray, letter: str) -> float:
    """Degrees between the core's hue and the web ink of `letter`."""
    return float(_offs(core)[builtin_model("web").letters.index(letter)])


def _nearest_ink(core: np.ndarray) -> tuple[str, float, float]:
    """(the web letter whose ink's hue is nearest the core's, that angle in degrees, the
    core's chroma)."""
    off = _offs(core)
    return (builtin_model("web").letters[int(off.argmin())], float(off.min()),
            float(chroma(core)[0]))


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


@pytest.mark.parametrize("symbols,width_px,blur,quality", RINGS_BESIDE_BLUE)
def test_holodex_rings_blurred_beside_blue_discs_are_never_read_by_hue(symbols, width_px, blur,
                                                                      quality):
    """Holodex R and B are both discs, so the shape only tells the ring from a disc, and a
    ring blurred on a small card under a cool lamp that clips (`test_symbol_clip2`) fills its
    hole and takes its blue neighbours' tint. Its picture then matches the disc as well as a
    washed disc's does, and its hue is a pale blue: read by those alone, it would be a blue
    disc (`washed_holodex` judges it against the card's own discs). The reader leaves such a ring
    unread (or reads it as the ring), never B."""
    img = _jpeg_card(symbols, "holodex", width_px, COOL, blur, quality)
    for card in HexelReader("holodex").read(img).observation.cards:
        assert all(r in (t, "?") for r, t in zip(card.symbols, symbols, strict=True)), card


def test_washed_symbols_are_read_within_the_read_on_cards_mostly_read():
    """`read_cards` itself reads a washed symbol whose shape and hue agree, on a card with
    MIN_LETTERS letters read by colour or more (so the searches that keep a card only where
    it reads whole see it whole), marking it (`CardRead.by_hue`) and leaving it out of what the
    table's inks are judged by (`CardRead.by_colour`); a card with fewer is left to the
    reader's final reads."""
    # card 1: one washed symbol (five letters by colour); card 3: all six washed paler
    paler = {"R": (245, 174, 183), "B": (190, 198, 233), "Y": (247, 245, 190)}
    paint = {(1, 1): ("B", WASHED["B"], 1.0),
             **{(3, d): (CARDS[3][d], paler[CARDS[3][d]], 1.0) for d in range(6)}}
    img, poses = _table(paint)
    model = builtin_model("web")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(washed, "MIN_LETTERS", 7)
        alone = read_cards(img, poses, TableView(), model)
    assert alone[1].symbols[1] == "?" and alone[1].letters >= MIN_LETTERS
    assert alone[3].letters < MIN_LETTERS
    reads = read_cards(img, poses, TableView(), model)
    assert reads[1].symbols == CARDS[1] and reads[1].by_hue[1]
    assert reads[1].by_colour == alone[1].symbols
    assert reads[3].symbols == alone[3].symbols
    assert [r.symbols for r in reads[::2]] == [r.symbols for r in alone[::2]]


# paper-normalised RGB cores, washed pale: a pink disc (hue past the red ink, away from yellow),
# a lemon triangle, and a peach one whose hue lies between the red and yellow inks
PINK, LEMON, PEACH_CORE = (0.98, 0.8, 0.9), (1.0, 1.0, 0.86), (1.0, 0.88, 0.78)
# correlations with the disc, the diamond and the triangle (`shape_matches`) that `shown`
# leaves undecided: the best under MIN_MATCH, or not far enough ahead of the next
DISC_WEAK, TRIANGLE_WEAK = (0.86, 0.8, 0.76), (0.62, 0.78, 0.84)


def _one_washed(core: tuple[float, float, float], scores: tuple[float, float, float],
                with_scores: bool = True) -> str:
    """`hue_named` on one web card read "RB?RYR", its third symbol left unread with nothing
    over it, its core `core` and its shape's correlations `scores` (which `shown` leaves
    undecided); the letter it reads there."""
    read = CardRead("RB?RYR", (1.0, 1.0, 0.0, 1.0, 1.0, 1.0), 1.0, 1.0, True,
                    (240.0, 240.0, 240.0), unread_ink=(False, False, True, False, False, False))
    cores = np.full((1, 6, 3), 0.3)
    cores[0, 2] = core
    all_scores = np.full((1, 6, 3), 0.5)
    all_scores[0, 2] = scores
    shows = shown(all_scores)
    assert shows[0, 2] == "."
    named, count = hue_named([read], shows, cores, np.array([True]), builtin_model("web"),
                             scores=all_scores if with_scores else None)
    assert count == (named[0].symbols[2] != "?")
    return named[0].symbols[2]


def test_a_washed_symbol_whose_hue_is_decisive_is_read_by_a_weaker_shape():
    """A glossy sleeve's sheen band across a symbol, or a pose a little off it, leaves its
    picture short of a plain shape (`shown` undecided: held-out `sleeves` 67, web pink discs
    at 0.90-0.91 against the diamond's 0.82-0.84). Where its hue lies HUE_LEAD_DEG nearer one
    ink than any other, that letter's silhouette matching best, at WEAK_MATCH and WEAK_LEAD
    ahead, names it; without the correlations (the strict shape alone), nothing does."""
    for core in (PINK, LEMON):
        letter, off, strength = _nearest_ink(np.array(core))
        lead = np.sort(_hue_offs(core))[1] - np.sort(_hue_offs(core))[0]
        assert lead >= math.radians(HUE_LEAD_DEG) and off <= HUE_DEG, (core, lead, off)
        assert strength >= HUE_CHROMA, (core, strength)
        scores = DISC_WEAK if letter == "R" else TRIANGLE_WEAK
        assert _one_washed(core, scores) == letter
        assert _one_washed(core, scores, with_scores=False) == "?"


def test_a_weak_shape_names_nothing_where_the_cues_disagree_or_fall_short():
    """The weaker shape reads nothing where the hue is not decisive (a peach core between the
    red and yellow inks), where the shape's best is another letter than the hue's, where it
    matches under WEAK_MATCH, or where it leads the next by less than WEAK_LEAD."""
    lead = np.sort(_hue_offs(PEACH_CORE))[1] - np.sort(_hue_offs(PEACH_CORE))[0]
    assert lead < math.radians(HUE_LEAD_DEG)
    assert _one_washed(PEACH_CORE, DISC_WEAK) == "?"
    assert _one_washed(PEACH_CORE, TRIANGLE_WEAK) == "?"
    assert _one_washed(PINK, TRIANGLE_WEAK) == "?"
    assert _one_washed(LEMON, DISC_WEAK) == "?"
    assert _one_washed(PINK, (WEAK_MATCH - 0.01, 0.7, 0.6)) == "?"
    assert _one_washed(PINK, (0.86, 0.86 - WEAK_LEAD + 0.01, 0.7)) == "?"
    assert _one_washed(PINK, (0.86, 0.86 - WEAK_LEAD - 0.01, 0.7)) == "R"


def _hue_offs(core: tuple[float, float, float]) -> np.ndarray:
    """The core's hue off each web ink's (radians)."""
    _, hue = chroma(np.array([core], np.float64))
    _, ink_hue = chroma(np.asarray(builtin_model("web").inks, np.float64))
    return np.abs(wrap_angle(hue[0] - ink_hue))
