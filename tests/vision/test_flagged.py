"""Fully visible Hex'el cards reported with a '?' that a careful reader would read, where the
lamp clips the paper. The card's white reference is then darker than the paper in the clipped
channels, so a blend of paper and ink is seen too bright there and its hue is pulled towards
them: a red disc's rim fits a pale yellow, a grey ring's blends fit red under a warm lamp.

* `symbol_decide.clipped_rim`: a disc whose middle is all strong red is the red print, and faint
  yellow samples in its rim are its own blends, not a rival symbol. The sample arrays below are
  the red disc's on rendered hard table 149 (paper clipped in all three channels, 5 px of
  motion), as `ColourModel.explain` gave them; a rival of another ink at strength, or a disc
  whose middle is not all strong ink, still makes the symbol '?'.
* `symbol_lamp.rival_explains`: a pale coloured symbol (no sample at SOLID_CORE_ALPHA) read by its
  mean colour on such a card was always '?'; it is read when no other ink explains that colour
  with the clipped channels scaled back by up to OVEREXPOSED_MAX. Under a warm lamp that
  clipped red alone nothing gains yellow's green over its blue, so a small blurred yellow
  triangle reads; a grey ring's blend brightened in red, or a red disc's brightened in green,
  is still explained by its own ink when scaled back, and stays '?'. Nor is a pale symbol
  filled in on a card where another ink explains any symbol the card reads, so scaled back."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model, chroma_cast
from companion.vision.symbol_decide import decide
from companion.vision.symbol_lamp import rival_explains
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .test_reader import _read_hard
from .test_symbols_unflag import _jpeg_card

R, B, Y = 0, 1, 2   # the web edition's letters
# table 149's red disc: its 7 middle samples strong red, its rim red blends and pale yellow ones
DISC_KIND = [R] * 7 + [Y, Y, Y, R, R, R, R, Y, Y, R, R, R]
DISC_ALPHA = [1.0, 0.96, 0.89, 0.97, 0.98, 1.0, 1.0,
              0.33, 0.32, 0.33, 0.58, 0.66, 0.74, 0.76, 0.65, 0.57, 0.74, 0.63, 0.61]


def _card(kind: list[int], alpha: list[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One web card: the symbol given at edge 3, solid blue diamonds elsewhere."""
    k = np.full((1, 6, 19), B, np.int64)
    a = np.full((1, 6, 19), 1.0)
    k[0, 3], a[0, 3] = kind, alpha
    return k, a, np.zeros((1, 6, 19))


def test_red_disc_with_a_pale_yellow_rim_reads_red_where_the_paper_clipped():
    text, conf = decide(*_card(DISC_KIND, DISC_ALPHA), builtin_model("web"),
                        paper_clipped=np.array([True]))
    assert text == ["BBBRBB"]
    assert conf[0, 3] > 0.5


def test_the_same_rim_is_a_rival_where_the_paper_did_not_clip():
    """Without a clipped white nothing pulls a red blend towards yellow: yellow samples in the
    rim are then another ink's, and the symbol stays unsure."""
    text, _ = decide(*_card(DISC_KIND, DISC_ALPHA), builtin_model("web"),
                     paper_clipped=np.array([False]))
    assert text == ["BBB?BB"]


def test_a_strong_rival_in_the_rim_still_makes_the_disc_unsure():
    """A yellow object (or a yellow print) beside the disc shows yellow at strength: it counts."""
    alpha = list(DISC_ALPHA)
    for i in (7, 8, 9, 14, 15):
        alpha[i] = 0.9
    text, _ = decide(*_card(DISC_KIND, alpha), builtin_model("web"),
                     paper_clipped=np.array([True]))
    assert text == ["BBB?BB"]


def test_faint_rivals_round_a_middle_not_all_strong_ink_still_count():
    """Only a core of strong ink vouches for the print (`SOLID_CORE_ALPHA`): a disc half under
    something, or a pale smear, keeps its rivals."""
    alpha = list(DISC_ALPHA)
    alpha[0] = alpha[3] = 0.6
    text, _ = decide(*_card(DISC_KIND, alpha), builtin_model("web"),
                     paper_clipped=np.array([True]))
    assert text == ["BBB?BB"]


# a ~3000 K lamp, the camera exposing the paper past the sensor's clip in red only
WARM_CLIPPING = (1.3, 0.95, 0.7)


@pytest.mark.parametrize("symbols", ["YBYBYB", "RYRYRY"])
def test_small_blurred_yellow_and_blue_read_under_a_warm_lamp_clipping_red(symbols):
    """A 36 px card defocused by 1.8 px and saved as a JPEG: its yellow triangles and blue
    diamonds peak at about half strength, which the old reader never read where the paper
    clipped (it left two or three of them '?')."""
    img = _jpeg_card(symbols, "web", 36.0, WARM_CLIPPING, 1.8, 60)
    read = read_cards(img, [Pose((160.0, 120.0), 18.0, 0.0)], TableView(),
                      builtin_model("web"))[0]
    assert read.symbols == symbols


def test_no_pale_symbol_is_filled_in_where_the_clip_changed_another_symbols_hue():
    """Under a cyan lamp that clipped green and blue, the grey rings' blends are seen too
    bright there and read blue (a known weakness under lamps far from white, README). The
    card's pale red disc is no clip's making, but filling it in would report the card whole,
    its rings misread: another ink (grey) explains the rings' means once scaled back, so the
    clip may have changed hues on this card, and the red stays '?'."""
    img = _jpeg_card("VRVVVR", "holodex", 53.0, (0.92, 1.85, 2.25), 2.39, 57)
    read = read_cards(img, [Pose((160.0, 120.0), 26.5, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert not read.complete


def _rival(edition: str, letter: str, alpha: float, brighter: tuple[float, float, float],
           white_bgr: tuple[float, float, float], read_as: str) -> bool:
    """`rival_explains` for one symbol whose mean colour is paper mixed with `alpha` of `letter`'s
    ink, seen `brighter` (RGB) in the channels where the card's white (`white_bgr`) clipped,
    and read as `read_as`."""
    model = builtin_model(edition)
    mean = (1.0 - alpha) + alpha * model.inks[model.letters.index(letter)]
    means = np.zeros((1, 6, 3), np.float32)
    means[0, 0] = mean * np.asarray(brighter, np.float32)
    where = np.zeros((1, 6), bool)
    where[0, 0] = True
    best = np.zeros((1, 6), np.int64)
    best[0, 0] = model.letters.index(read_as)
    white = np.array([white_bgr], np.float32)
    return bool(rival_explains(means, white, chroma_cast(white), where, best, model)[0, 0])


def test_a_grey_blend_seen_too_bright_in_red_is_never_read_red():
    """Under a warm lamp that clipped red, a grey ring's blend seen 1.45x too bright in red
    fits a pale red: scaled back, it is grey, a rival."""
    assert builtin_model("holodex").explain(
        ((1.0 - 0.45) + 0.45 * builtin_model("holodex").inks[2]) * np.float32([1.45, 1, 1])
    )[0] == 0   # (the trap: as seen, it fits red)
    assert _rival("holodex", "V", 0.45, (1.45, 1.0, 1.0), (170.0, 220.0, 253.0), "R")


def test_a_red_blend_seen_too_bright_in_green_is_never_read_yellow():
    """Where red and green clipped, a red disc's blend seen 1.4x too bright in green fits a
    pale yellow: scaled back, it is red."""
    assert _rival("web", "R", 0.45, (1.0, 1.4, 1.0), (180.0, 253.0, 253.0), "Y")


def test_yellow_and_blue_blends_with_red_clipped_have_no_rival():
    assert not _rival("web", "Y", 0.5, (1.3, 1.0, 1.0), (180.0, 228.0, 253.0), "Y")
    assert not _rival("web", "B", 0.5, (1.3, 1.0, 1.0), (180.0, 228.0, 253.0), "B")


@pytest.mark.parametrize("seed", [29, 149])
def test_hard_tables_with_clipped_paper_read_whole(seed):
    """Hard tables 29 (a yellow triangle with a pale red rim under a warm lamp clipping the red
    channel) and 149 (the red disc above): each left one fully visible card with a '?'."""
    s = _read_hard(seed, ("holodex", "web")[seed % 2])
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full, s
