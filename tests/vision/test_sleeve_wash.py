"""A symbol washed past the clip by a sleeve's sheen (`symbol_wash.wash_read`): a blue's blue
channel clips, its red and green still hold the blue's difference between them, and the symbol is
read as the blue. A red disc's red clips, and its green and blue, nearly equal, look like skin in
a lamp's light: it is read as the red only where its halo is bare paper all round (no hand over
it). What a wash cannot tell apart stays unread: that skin-coloured sample where the halo is not
bare, bare paper, and a sample brighter than an unclipped paper (a phone's saturation boost, not
a wash). The samples are
built here from the web inks as printed (`faces`), independent of the reader's colour model
fit; the held-out table is drawn by `heldout`, its truth by the generator."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import builtin_model
from companion.vision.symbol_samples import N_SYMBOL
from companion.vision.symbol_wash import wash_read

from .heldout import VARIANTS, heldout_scene, scored

MODEL = builtin_model("web")
BLUE = np.array([0.09, 0.38, 0.89])    # our blue ink, paper-relative RGB
RED = np.array([0.87, 0.14, 0.13])     # our red ink


def _symbols(rgb_core: np.ndarray, white_bgr: tuple[float, float, float]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One card whose first symbol's samples are `rgb_core` (paper-relative RGB, every sample
    alike) under a paper seen as `white_bgr`, clipped at 255 like a sensor; the other five
    symbols bare paper and not asked about."""
    white = np.array(white_bgr, np.float64)
    raw = np.tile(white, (1, 6, N_SYMBOL, 1))
    raw[0, 0] = np.minimum(np.asarray(rgb_core)[::-1] * white, 255.0)
    want = np.zeros((1, 6), bool)
    want[0, 0] = True
    return raw, white[None, :], want


def test_washed_blue_with_its_blue_clipped_is_read_blue() -> None:
    # a sheen adds 0.35 of the paper's light to the blue as printed: blue clips, red and green
    # keep green 0.29 above red (paper at 250 in each channel: clipped too, as under a sleeve)
    raw, white, want = _symbols(BLUE + 0.35, (250.0, 250.0, 250.0))
    assert raw[0, 0, 0, 0] >= 250          # (the blue channel did clip)
    best, read = wash_read(raw, white, want, MODEL)
    assert read[0, 0] and MODEL.letters[best[0, 0]] == "B"
    assert not read[0, 1:].any()           # only the symbols asked about


def test_blue_seen_whole_is_left_to_the_other_readings() -> None:
    # nothing clipped: `chroma_read` and `decide` judge it, not the wash
    raw, white, want = _symbols(BLUE * 0.5 + 0.3, (250.0, 250.0, 250.0))
    assert not wash_read(raw, white, want, MODEL)[1].any()


def test_washed_red_is_read_only_with_its_halo_bare() -> None:
    # a sheen adds half the paper's light to the red as printed: red clips, green and blue
    # stay nearly equal
    raw, white, want = _symbols(RED + 0.5, (250.0, 250.0, 250.0))
    bare = np.ones((1, 6), bool)
    best, read = wash_read(raw, white, want, MODEL, bare)
    assert read[0, 0] and MODEL.letters[best[0, 0]] == "R"
    # with something over its halo (a hand's edge), or no halo given, it is not read
    assert not wash_read(raw, white, want, MODEL, ~bare)[1].any()
    assert not wash_read(raw, white, want, MODEL)[1].any()
    # nor a red sample whose green and blue part more than the red's do (no red washed)
    raw, white, want = _symbols(np.array([1.2, 0.75, 0.45]), (250.0, 250.0, 250.0))
    assert not wash_read(raw, white, want, MODEL, bare)[1].any()


def test_skin_with_red_clipped_is_not_read() -> None:
    # a hand in a lamp's light over a symbol (never-seen hard 12959): red clipped, green a
    # little above blue, as a washed red disc would be; the wash names no red
    raw, white, want = _symbols(np.array([1.02, 0.76, 0.70]), (229.0, 245.0, 247.0))
    assert not wash_read(raw, white, want, MODEL)[1].any()


def test_paper_clipped_in_one_channel_is_not_read() -> None:
    raw, white, want = _symbols(np.array([1.02, 1.0, 0.99]), (230.0, 248.0, 250.0))
    assert not wash_read(raw, white, want, MODEL)[1].any()


def test_blue_brighter_than_an_unclipped_paper_is_not_read() -> None:
    # a phone's saturation boost: the symbol's blue 1.35 times a paper seen at 169 in blue
    # (held-out `phone-photo` 98: a grey ring's hollow read as the blue, the table's ink doubt
    # then raised); no wash lifts an ink past the paper beside it
    raw, white, want = _symbols(np.array([0.56, 0.77, 1.35]), (169.0, 214.0, 241.0))
    assert not wash_read(raw, white, want, MODEL)[1].any()
    # the same sample on a card whose blue clipped is a wash, and read
    raw, white, want = _symbols(np.array([0.56, 0.77, 1.02]), (250.0, 250.0, 250.0))
    assert wash_read(raw, white, want, MODEL)[1][0, 0]


def test_sleeved_table_read_whole() -> None:
    # held-out `sleeves` 13: four cards left with a washed symbol unread before the wash reading
    scene = heldout_scene(13, variant=VARIANTS["sleeves"])
    score, _ = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0
    assert score.full == 20 and score.correct == 20


def test_sleeved_table_with_a_washed_red_read_whole() -> None:
    # held-out `sleeves` 31: one card left with a washed red disc unread before the red was
    # read with its halo bare
    scene = heldout_scene(31, variant=VARIANTS["sleeves"])
    score, _ = scored(scene)
    assert score.misreads == 0 and score.false_cards == 0
    assert score.full == 20 and score.correct == 20
