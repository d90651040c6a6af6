"""Cards printed without colour (`vision.colourless.grey_symbols`, `grey_tiles`): a black-and-white
printer's Hex'el or Hexapod cards, photographed in colour. Both games' cards are told by their
inks; before, a holodex table's red and blue discs printed grey read as the grey ring (2
misreads in the first 12 held-out tables) and a Hexapod case's grey tiles as dung beetles (75
wrong codes in the first 10 held-out pictures). Now the cards and cases found are reported
unread with a note saying why, and the referee asks for a colour print (the web edition's, whose
symbols differ in shape, is read by them: `test_grey_shapes`); a colour print is never taken for
one."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from companion.referee.proposal import unclear
from companion.vision.colourless import GREY_SYMBOLS, grey_symbols, grey_tiles
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_colour import DARK, INK, LIGHT
from companion.vision.observation import GREY_PRINT, GREY_PRINT_SAY_HEXEL, UNKNOWN
from companion.vision.reader import HexelReader
from companion.vision.scoring import score_table
from companion.vision.temporal import StableFilter

from . import heldout, hexapod_heldout


def test_grey_symbol_cores_are_told_from_coloured_ones():
    red, blue, ring_hole = (0.9, 0.25, 0.25), (0.2, 0.35, 0.85), (0.97, 0.97, 0.97)
    grey_red, grey_blue = (0.43, 0.43, 0.43), (0.36, 0.36, 0.36)
    assert grey_symbols(np.array([grey_red, grey_blue, ring_hole] * 6))
    assert not grey_symbols(np.array([red, blue, ring_hole] * 6))
    # a third of the dark cores coloured (blues gone grey in a dim room, the reds not) is a
    # colour print
    assert not grey_symbols(np.array([red, grey_blue, grey_blue] * 6))
    # too few dark cores (one card) say nothing
    assert not grey_symbols(np.array([grey_red] * (GREY_SYMBOLS - 1) + [ring_hole] * 20))


def _clipped(rgb: tuple[float, float, float], gain: np.ndarray) -> tuple[float, ...]:
    """A core's paper-normalised RGB where the camera clipped the paper, its true brightness
    `gain` times the clip per channel: each channel divided by too little."""
    return tuple(float(min(v * g, 1.0)) for v, g in zip(rgb, gain, strict=True))


def test_grey_symbols_on_paper_the_camera_clips_are_grey_again():
    # a warm lamp over-exposes the paper's red 1.45x and its green 1.05x past the clip: each
    # grey core, against the clipped paper, reads reddish (0.16 chroma), and the grey print
    # was taken for a colour one whose red came out pale (held-out mono-harsh 227: three cards
    # read RRRRRR whole; mono-sleeves 255, a sheen's blue and green, one)
    gain = np.array([1.45, 1.05, 1.0])
    whites = np.tile([231.0, 254.0, 254.0], (3, 1))            # BGR: red and green clipped
    greys = [(d, d, d) for d in (0.35, 0.42, 0.5, 0.55, 0.6, 0.97)]
    cores = np.array([_clipped(c, gain) for c in greys] * 3)
    assert not grey_symbols(cores)
    assert grey_symbols(cores, whites)
    # the same paper unclipped (its whites below the clip) is not corrected: nothing to undo
    assert not grey_symbols(cores, np.tile([231.0, 240.0, 240.0], (3, 1)))
    # a colour print under that lamp stays a colour print, whatever share of red it shows
    red, blue, yellow = (0.9, 0.25, 0.25), (0.2, 0.35, 0.85), (0.95, 0.85, 0.2)
    for inks in ([red, blue, yellow] * 2, [red] * 4 + [blue, yellow], [red] * 5 + [blue]):
        cores = np.array([_clipped(c, gain) for c in inks] * 3)
        assert not grey_symbols(cores, whites), inks
    # no card in view: nothing to judge, and no warning (an empty table's mean)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not grey_symbols(np.zeros((0, 6, 3)), np.zeros((0, 3)))


@pytest.mark.parametrize(("variant", "seed"), [("mono-harsh", 227), ("mono-sleeves", 255)])
def test_a_grey_print_on_clipped_paper_is_no_pale_colour_print(variant, seed):
    # before: taken for a colour print whose red (227) or blue (255) came out pale, and 3 and
    # 1 cards reported whole with the wrong symbols; now a grey print, read by its shapes
    scene = heldout.heldout_scene(seed, variant=heldout.VARIANTS[variant])
    obs = HexelReader("web").read(scene.image).observation
    assert obs.by_shape
    score = score_table(obs.cards, scene.truth)
    assert score.misreads == 0 and score.false_cards == 0


def test_grey_tiles_are_told_from_coloured_ones():
    px, m = 24, 12
    labels = np.full((6 * px + 2 * m,) * 2, LIGHT, np.uint8)
    sat = np.zeros(labels.shape, np.float32)
    labels[m:m + 2 * px, m:m + 3 * px] = DARK          # a card's grey tiles
    clear = np.zeros(labels.shape, np.uint8)
    codes = ["K", "K", "K", "?", "?", "?"] + ["."] * 30
    assert grey_tiles(labels, sat, clear, px, m, 6, 6, codes, 0.45)
    inked = sat.copy()
    inked[m:m + 2 * px, m:m + 3 * px] = 0.7            # the same tiles in a kind's ink
    assert not grey_tiles(labels, inked, clear, px, m, 6, 6, codes, 0.45)
    # read as coloured kinds, or without a dung beetle: no grey print
    assert not grey_tiles(labels, sat, clear, px, m, 6, 6, ["B", "G", "K"] + ["."] * 33, 0.45)
    assert not grey_tiles(labels, sat, clear, px, m, 6, 6, ["?"] * 6 + ["."] * 30, 0.45)
    # the dark pixels under an occluder's mask are not counted (a black sleeve)
    covered = clear.copy()
    covered[m:m + 2 * px, m:m + 3 * px] = 255
    assert not grey_tiles(labels, sat, covered, px, m, 6, 6, codes, 0.45)
    labels[m:m + 2 * px, m:m + 3 * px] = INK           # labelled ink, saturated: coloured
    assert not grey_tiles(labels, inked, clear, px, m, 6, 6, codes, 0.45)


@pytest.mark.parametrize("seed", [0, 6])
def test_a_hexel_table_printed_in_grey_is_reported_unread(seed):
    # holodex 0 and 6: its grey discs read as the grey ring before (1 misread each); a web
    # print in grey is read by its shapes (`test_grey_shapes`)
    scene = heldout.heldout_scene(seed, variant=heldout.VARIANTS["mono"])
    obs = HexelReader(scene.edition).read(scene.image).observation
    assert obs.grey_print and not obs.no_colour
    assert any(n.startswith(GREY_PRINT) for n in obs.notes)
    assert all(c.symbols == "??????" and c.occluded and c.confidence == 0.0 for c in obs.cards)
    assert score_table(obs.cards, scene.truth).misreads == 0
    said = unclear(obs)
    assert said is not None and said.kind == "problem" and said.message == GREY_PRINT_SAY_HEXEL
    colour = HexelReader(scene.edition).read(
        heldout.heldout_scene(seed, variant=heldout.VARIANTS["default"]).image).observation
    assert not colour.grey_print and len(colour.cards) == 20 and unclear(colour) is None


@pytest.mark.parametrize("seed", [0, 5, 16])
def test_hexapod_cases_printed_in_grey_are_reported_unread(exported, seed):
    # before: every grey tile a dung beetle ('K'), 4-6 wrong codes on each of these
    scene = hexapod_heldout.heldout_case(exported, seed, hexapod_heldout.VARIANTS["mono"])
    obs = HexapodReader(track=False).read(scene.image)
    assert obs.grey_print and not obs.no_colour
    assert any(n.startswith(GREY_PRINT) for n in obs.notes)
    (case,) = obs.cases
    assert all(code == UNKNOWN for row in case.grid for code in row)
    colour = HexapodReader(track=False).read(hexapod_heldout.heldout_case(
        exported, seed, hexapod_heldout.VARIANTS["default"]).image)
    assert not colour.grey_print
    assert [list(r) for r in colour.cases[0].grid] == [list(r) for r in scene.grid]


def test_a_grey_print_under_a_lamp_and_an_arm_reads_no_wrong_code(exported):
    # the lamp's cast tints the grey tiles, the arm's skin is left out of the measure: before,
    # a case of grey cards under them read dung beetles
    for seed in (1, 3, 125, 186):
        scene = hexapod_heldout.heldout_case(exported, seed,
                                             hexapod_heldout.VARIANTS["mono-lamp"])
        for case in HexapodReader(track=False).read(scene.image).cases:
            board = next(b for b in scene.boards if b.player == case.player)
            assert not hexapod_heldout.wrong_cells(case.grid, board.grid)


def test_a_grey_print_becomes_the_stable_table():
    # read nothing for want of the print's colour, not for a hand: the video filter takes it
    # as the table as it is, so the referee can say what to do (the same table laid in colour
    # first: its cards reported covered would otherwise be ignored as a hand's doing)
    colour = heldout.heldout_scene(0, variant=heldout.VARIANTS["default"])
    grey = heldout.heldout_scene(0, variant=heldout.VARIANTS["mono"])
    reader = HexelReader(colour.edition)
    f = StableFilter(stable_s=0.5)
    seen = reader.read(colour.image).observation
    for t in (0.0, 0.6):
        f.update(seen, t)
    assert f.stable is not None and not f.stable.grey_print
    mono = reader.read(grey.image).observation
    f.update(mono, 0.7)
    assert f.update(mono, 1.3).grey_print
