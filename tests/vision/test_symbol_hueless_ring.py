"""Every edge of a Hex'el card carries a printed symbol, and in the holodex edition only the void
ring's ink has no hue: a whole card's symbol whose samples are paper and grey ink alone, shaped
like a ring (its darkest sample in its band, dark alike either side of its centre, not flat,
standing out from the paper beside it), is the ring however faint (`symbol_decide.hueless_ring`).
A bright lamp that clips the paper and 5-7 px of camera motion leave a thin ring on a 50 px card
fainter than the vote a ring needs; a washed-out blue disc keeps its hue and stays '?', a grey
blob darkest in its middle (a coin, a border band seen from a pose off the card) is no ring, and
neither is a grey ring with a trace of a coloured ink in it. Crafted cards are drawn with plain
cv2 (tests/vision/crafted.py); rendered hard tables check the whole reader against their truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import PAPER_K, builtin_model
from companion.vision.symbol_decide import decide
from companion.vision.symbol_samples import N_SYMBOL, Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, motion_blur, texture
from .test_reader import _read_hard

R, V = 0, 2   # holodex letter indices: red disc, grey ring
WIDTH = 50.0  # px across the flats


def _photo(symbols: str, motion: int, gain: float, angle: float,
           coin: tuple[int, int] | None = None) -> np.ndarray:
    """A holodex card WIDTH px wide on felt, defocused, smeared `motion` px at `angle` degrees,
    exposed `gain` times (its paper clipped, the rings' grey pushed towards white), noisy and
    saved as a JPEG of quality 75; `coin` (edge, grey level): a grey coin the size of a symbol
    lying exactly on that edge's symbol, touching none of the paper around it."""
    img = texture("felt", (200, 200), np.random.default_rng(1)).astype(np.float32)
    centre = np.array([100.0, 100.0])
    draw_card(img, centre, symbols, "holodex", WIDTH / HEXEL_FACE.flat_to_flat_mm)
    if coin is not None:
        edge, grey = coin
        a = WIDTH / 2.0
        ang = np.radians(-60.0 * edge)
        c = centre + HEXEL_FACE.symbol_centre_frac * a * np.array([np.cos(ang), np.sin(ang)])
        cv2.circle(img, tuple(int(v * 16) for v in c), int(HEXEL_FACE.symbol_radius_frac * a * 16),
                   (grey, grey, grey), -1, cv2.LINE_AA, 4)
    img = motion_blur(cv2.GaussianBlur(img, (0, 0), 0.9), motion, angle) * gain
    img = np.clip(img + np.random.default_rng(2).normal(0, 2, img.shape), 0, 255)
    _, jpg = cv2.imencode(".jpg", img.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 75])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR)


def _read(img: np.ndarray) -> str:
    return read_cards(img, [Pose((100.0, 100.0), WIDTH / 2.0, 0.0)], TableView(),
                      builtin_model("holodex"))[0].symbols


@pytest.mark.parametrize("motion,gain", [(7, 1.8), (5, 2.1)])
@pytest.mark.parametrize("angle", [0.0, 30.0, 75.0])
def test_a_faint_smeared_ring_under_a_bright_lamp_is_read(motion, gain, angle):
    assert _read(_photo("RVBVRV", motion, gain, angle)) == "RVBVRV"


@pytest.mark.parametrize("angle", [0.0, 30.0, 75.0])
def test_a_washed_out_blue_disc_keeps_its_hue_and_stays_unread(angle):
    """Exposed further, the blue disc washes out too: it keeps a trace of blue, so it is never
    taken for the hue-less ring: by its colour it is '?', and by its shape (a disc) and that
    trace of blue it reads B (`washed_holodex`, within the reads); the red discs still read."""
    text = _read(_photo("RVBVRV", 5, 2.4, angle))
    assert text[2] in ("?", "B") and text[0] == text[4] == "R"


@pytest.mark.parametrize("grey", [160, 190, 215])
@pytest.mark.parametrize("angle", [0.0, 30.0, 75.0])
def test_a_grey_coin_on_a_red_disc_stays_unread(grey, angle):
    """The same light and smear, a grey coin lying exactly on the red disc of edge 0, its
    surround untouched: a truly covered symbol, never the ring."""
    text = _read(_photo("RVBVRV", 7, 1.8, angle, coin=(0, grey)))
    assert text[0] == "?" and text[1:] == "VBVRV"


def _card(middle: float, band: tuple[float, float]) -> tuple[np.ndarray, ...]:
    """One card's (kind, alpha, dark), 1 x 6 x 19, and its flanking paper's darkness (1 x 6):
    edge 0 a hue-less symbol whose 7 middle samples are `middle` dark and whose band is
    `band[0]` dark at two opposite pairs of places, `band[1]` at the rest (grey ink where at
    least 0.3 dark, else paper); edges 1-5 solid red discs; flanking paper bare."""
    kind = np.full((1, 6, N_SYMBOL), R, np.int64)
    alpha = np.ones((1, 6, N_SYMBOL), np.float32)
    dark = np.full((1, 6, N_SYMBOL), 0.3, np.float32)
    hi, lo = band
    half = np.array([hi, lo, lo, hi, lo, lo], np.float32)
    dark[0, 0, :7], dark[0, 0, 7:] = middle, np.concatenate([half, half])
    kind[0, 0] = np.where(dark[0, 0] >= 0.3, V, PAPER_K)
    alpha[0, 0] = np.where(kind[0, 0] == V, dark[0, 0], 0.0)
    return kind, alpha, dark, np.zeros((1, 6), np.float32)


def _decide(kind, alpha, dark, flank, in_shade=None) -> str:
    return decide(kind, alpha, dark, builtin_model("holodex"), flank, None, None, None, None,
                  in_shade)[0][0]


def test_a_faint_hueless_ring_is_read():
    """A vote of 1.8 from four band samples, 2.6 of grey ink in the band: below both the
    ring's vote and the faint ring's."""
    assert _decide(*_card(0.03, (0.45, 0.1))) == "VRRRRR"


def test_a_hueless_blob_darkest_in_its_middle_is_not():
    assert _decide(*_card(0.5, (0.1, 0.1)))[0] == "?"


def test_a_faint_ring_with_a_coloured_sample_is_not():
    kind, alpha, dark, flank = _card(0.03, (0.45, 0.1))
    kind[0, 0, 8], alpha[0, 0, 8] = R, 0.35     # one band sample fits red
    assert _decide(kind, alpha, dark, flank)[0] == "?"


def test_a_faint_ring_no_darker_than_its_shaded_surround_is_not():
    kind, alpha, dark, _ = _card(0.03, (0.45, 0.1))
    assert _decide(kind, alpha, dark, np.full((1, 6), 0.15, np.float32))[0] == "?"


def test_a_faint_ring_whose_surround_is_only_excused_as_shade_is_not():
    shade = np.zeros((1, 6), bool)
    shade[0, 0] = True
    assert _decide(*_card(0.03, (0.45, 0.1)), in_shade=shade)[0] == "?"


@pytest.mark.parametrize("seed,was", [(186, 11), (386, 19), (532, 19)])
def test_rendered_tables_with_faint_smeared_rings_read_more_cards(seed, was):
    """Hard tables 186 (4.5 px motion, 2 px defocus), 386 (5.3 px) and 532 (5.8 px), their
    paper clipped under a bright lamp: faint rings left '?' before."""
    s = _read_hard(seed, "holodex")
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct > was, s
