"""Where a card's paper clipped in every channel, the white reference says nothing of the lamp,
and a strong ink's sample clipped with it in one channel and crushed towards black in another
is known by the third channel alone: the inks' fits to such bounds can split one printed disc
between two letters. On hard table 405 (web edition, a wood table, ~50 px cards, sharp and well
lit, paper at ~(252, 252, 252)) six red discs in full view were seen at (1-18, 59-87, 250-255)
BGR: 3-4 of their 19 samples, most in the middle, fit yellow (blue crushed to 0 fits yellow's 0
better than red's 0.13; red clipped says nothing), so the reader left them '?' though their
green, the channel that tells red from yellow there, lies within a few levels of the card's
own red discs' and far below its yellow triangles' (`symbol_decide.split_print`). These tests check

* the rendered table 405 (with markers and without) now reads every card in full view, all six
  symbols right (the old reader: 9 of 15 with markers, one '?' on each of the six);
* on a crafted card, `decide` reads such a split disc only when every rival sample clipped in
  some channel and lies within TWIN_MATCH of the card's own print of the disc's ink, none of
  its print of the rival ink within TWIN_APART, the rival samples at most half the disc's, and
  the card's paper clipped in every channel;
* guards on table 405 itself: a crushed-blue orange object lying over the middle of that same
  red disc leaves it '?' (the samples it puts there are far brighter in green than the red
  print); a red object (the card's red print's colour, a fingertip's, a deeper red) over the
  middle of one of its yellow triangles is never read as red, nor any symbol of the card as
  another letter: the rule takes a rival sample for the print only where it looks like it.
"""

from __future__ import annotations

from functools import partial

import cv2
import numpy as np
import pytest

from companion.scenarios import hexel_scene
from companion.vision.colour import builtin_model
from companion.vision.reader import HexelReader
from companion.vision.scoring import TruthCard, score_table
from companion.vision.symbol_decide import decide, match_prints
from companion.vision.symbol_samples import SYMBOL_PTS
from companion.vision.symbols import read_cards


@pytest.mark.parametrize("markers", [True, False])
def test_table_405_reads_every_card_in_full_view(markers):
    image, truth = hexel_scene(405, "hard", 20, "web")
    reader = HexelReader("web", find_markers=False)
    if markers:
        reader.calibrate(image)
    result = reader.read(image)
    score = score_table(result.observation.cards,
                        [TruthCard(c.image_cell, c.image_symbols, c.visible)
                         for c in truth.cards])
    assert score.misreads == 0 and score.false_cards == 0
    assert score.correct == score.full == 15, score


# A crafted web card on paper clipped at (252, 252, 252): raw BGR per sample
WHITE = 252.0
RED = (8.0, 73.0, 252.0)        # the card's red print: red clipped, blue crushed
RED_AS_YELLOW = (3.0, 76.0, 254.0)   # a sample of it the inks' fits take for yellow
YELLOW = (10.0, 190.0, 252.0)
BLUE = (230.0, 95.0, 20.0)
ORANGE = (2.0, 140.0, 255.0)    # a crushed-blue orange object: far brighter in green


def _card(symbols: str, split: int = 4, rival=RED_AS_YELLOW, every: bool = True,
          yellow=YELLOW) -> tuple[list[str], list[str]]:
    """(`decide`'s letters with the split-print rule, without it) for a card whose symbol 1 is
    a red disc with `split` of its 19 samples (its middle first) fitted as yellow, seen as
    `rival`, and whose other symbols are solid prints of `symbols`' letters (symbol 1's letter
    in `symbols` is ignored)."""
    model = builtin_model("web")
    colours = {"R": RED, "Y": yellow, "B": BLUE}
    kind = np.zeros((1, 6, 19), np.int64)
    alpha = np.full((1, 6, 19), 0.95, np.float32)
    raw = np.zeros((1, 6, 19, 3), np.float32)
    for d, letter in enumerate(symbols):
        if d == 1:
            continue
        kind[0, d] = model.letters.index(letter)
        raw[0, d] = colours[letter]
    kind[0, 1] = model.letters.index("R")
    raw[0, 1] = RED
    kind[0, 1, :split] = model.letters.index("Y")
    raw[0, 1, :split] = rival
    norm = (raw / WHITE)[..., ::-1]
    dark = np.zeros((1, 6, 19), np.float32)
    match = partial(match_prints, norm, raw, np.array([every]))
    with_rule = decide(kind, alpha, dark, model, paper_clipped=np.array([True]),
                       print_match=match)[0]
    return with_rule, decide(kind, alpha, dark, model, paper_clipped=np.array([True]))[0]


def test_split_red_disc_reads_against_its_cards_red_print():
    assert _card("R?YBBB") == (["RRYBBB"], ["R?YBBB"])
    # (with no yellow print on the card, its red print alone tells)
    assert _card("R?BBBR")[0] == ["RRBBBR"]


@pytest.mark.parametrize("case", [
    dict(rival=ORANGE),                          # an object brighter in green than the print
    dict(rival=(8.0, 76.0, 240.0)),              # a rival sample that clipped nowhere
    dict(every=False),                           # paper not clipped in every channel
    dict(split=7),                               # the rival ink's samples over half the disc's
    dict(yellow=(6.0, 100.0, 253.0)),            # the card's yellow print as near the sample
])
def test_split_disc_stays_unread_unless_its_rival_samples_are_its_print(case):
    assert _card("R?YBBB", **case)[0] == ["R?YBBB"]


def test_split_disc_stays_unread_without_a_print_of_its_ink_on_the_card():
    assert _card("Y?YBBB")[0] == ["Y?YBBB"]


@pytest.fixture(scope="module")
def table_405():
    """Table 405 read with markers, and the card in full view the old reader read 'YRY?YR'
    (its image centre near (700, 331)): (image, pose, view, model)."""
    image, _ = hexel_scene(405, "hard", 20, "web")
    reader = HexelReader("web", find_markers=False)
    reader.calibrate(image)
    result = reader.read(image)
    at = [np.hypot(*(result.view.to_image(np.array([p.centre]))[0] - (700.0, 331.0)))
          for p in result.poses]
    pose = result.poses[int(np.argmin(at))]
    return image, pose, result.view, reader.model


def _covered(table, symbol: int, bgr: tuple[int, int, int], share: float) -> str:
    """The card's read with a disc of colour `bgr` over symbol `symbol`'s middle (radius
    `share` of the symbol's: inside its outer samples, at 0.8, so nothing shows in its halo)."""
    image, pose, view, model = table
    pts = view.to_image(pose.to_plane(SYMBOL_PTS[symbol]))
    radius = np.linalg.norm(pts[7:] - pts[0], axis=1).mean() / 0.8
    image = image.copy()
    cv2.circle(image, tuple(int(v * 16) for v in pts[0]), int(share * radius * 16), bgr, -1,
               cv2.LINE_AA, 4)
    return read_cards(image, [pose], view, model)[0].symbols


def test_table_405_card_reads_whole(table_405):
    image, pose, view, model = table_405
    assert read_cards(image, [pose], view, model)[0].symbols == "YRYRYR"


@pytest.mark.parametrize("share", [0.45, 0.6, 0.7])
def test_orange_object_over_the_split_disc_leaves_it_unread(table_405, share):
    assert _covered(table_405, 3, (2, 140, 255), share) == "YRY?YR"


@pytest.mark.parametrize("bgr", [(10, 72, 253), (90, 110, 230), (20, 30, 200)])
@pytest.mark.parametrize("symbol", [0, 2, 4])
@pytest.mark.parametrize("share", [0.45, 0.6])
def test_red_object_over_a_yellow_triangle_is_not_read_red(table_405, bgr, symbol, share):
    read = _covered(table_405, symbol, bgr, share)
    assert all(r in (t, "?") for r, t in zip(read, "YRYRYR", strict=True)), read
