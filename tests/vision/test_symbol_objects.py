"""An opaque object lying on a Hex'el card over part of a symbol (a coin, a pen cap, a sleeve's
edge), casting a soft shadow beside it, with the card's outline intact: the symbol it covers
must read '?', never as a grey ring. A blue disc whose uncovered rim has lost its hue under a
dim or warm lamp, beside a grey or pale object, looks like a grey ring: a crescent (an open
ring) or a grey blob (a blurred ring). Crafted cards: the truth is what was drawn; each case
below was read as a wrong, complete card before a grey ring had to be closed and a grey blob
beside 'paper in shade' stopped counting as a blurred ring (`symbol_decide.decide`)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import PAPER_K, builtin_model
from companion.vision.symbol_decide import decide
from companion.vision.symbol_samples import N_SYMBOL, Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture

H, W = 240, 320
CENTRE = (160.0, 120.0)
YY, XX = np.mgrid[0:H, 0:W].astype(np.float32)


def _scene(symbols: str, width: float, felt_seed: int, dist: np.ndarray,
           colour_bgr: tuple[float, float, float], shadow: tuple[float, float, float],
           gains_rgb: tuple[float, float, float], blur: float, quality: int) -> np.ndarray:
    """A holodex card under an object whose signed distance map `dist` (> 0: covered) is given,
    its soft shadow (`shadow`: offset, softness in px, depth) beside it, photographed (lamp
    gains, Gaussian blur, JPEG)."""
    img = texture("felt", (H, W), np.random.default_rng(felt_seed)).astype(np.float32)
    draw_card(img, np.array(CENTRE), symbols, "holodex", width / HEXEL_FACE.flat_to_flat_mm, 0.0)
    off, soft, depth = shadow
    img = img * (1.0 - depth * np.clip((dist + off) / soft + 0.5, 0.0, 1.0))[..., None]
    cover = np.clip(dist + 0.5, 0.0, 1.0)[..., None]
    img = img * (1.0 - cover) + np.float32(colour_bgr)[None, None, :] * cover
    lit = cv2.GaussianBlur(img * np.float32(gains_rgb[::-1]), (0, 0), blur)
    _ok, enc = cv2.imencode(".jpg", np.clip(lit, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def _coin(cx: float, cy: float, rad: float) -> np.ndarray:
    return rad - np.hypot(XX - cx, YY - cy)


def _edge(angle: float, d0: float) -> np.ndarray:
    return (XX - CENTRE[0]) * math.cos(angle) + (YY - CENTRE[1]) * math.sin(angle) - d0


def _read(img: np.ndarray, width: float):
    return read_cards(img, [Pose(CENTRE, width / 2.0, 0.0)], TableView(),
                      builtin_model("holodex"))[0]


# (truth, covered edge, width px, felt seed, object, its BGR colour, shadow, lamp, blur, JPEG)
CASES = [
    # a mid-grey coin lying right over a blue disc and into its halo: a grey blob
    ("BBRBRB", 3, 46.387, 330, _coin(147.020, 117.697, 6.2423), (128.04,) * 3,
     (3.686, 11.852, 0.2815), (0.8552, 0.8215, 0.7944), 1.2225, 78),
    # a pale coin over the middle of a blue disc whose rim reads grey: a crescent
    ("BRBBRB", 5, 45.157, 160, _coin(163.448, 127.208, 7.7652), (176.71, 160.44, 150.99),
     (8.423, 10.864, 0.3754), (1.1378, 1.1086, 1.0744), 0.6582, 75),
    # a pale grey sleeve's edge over the card's left half, across a blue disc: a crescent
    ("VRVBBV", 3, 67.563, 356, _edge(3.05556, 17.935), (197.73,) * 3,
     (11.831, 15.062, 0.4291), (1.1673, 1.0569, 0.9713), 0.5982, 68),
]


# A dark grey coin right over a blue disc, most of its halo still paper: a grey blob standing
# out from the paper beside it like a blurred ring. Heavily blurred rendered rings smear as far
# into their halo as the coin reaches, but the blob is flat, and the card's rings beside it keep
# their holes open: no blur that flat on that card (`symbol_decide.flat_beside_open`).
DARK_COIN = ("BVBVVR", 2, 62.277, 380, _coin(151.393, 108.212, 9.2067), (66.99,) * 3,
             (10.730, 9.512, 0.2285), (1.146, 1.135, 1.1275), 1.3912, 80)


@pytest.mark.parametrize("case", [*CASES, DARK_COIN],
                         ids=["grey-coin", "pale-coin", "sleeve", "dark-coin"])
def test_an_object_over_a_blue_disc_is_not_read_as_a_grey_ring(case):
    """The card is seen whole (its border and most of its paper), the covered symbol reads '?'
    (or its own letter), never the grey ring, and the symbols clear of the object keep their
    letters."""
    truth, edge, width, felt, dist, colour, shadow, gains, blur, quality = case
    r = _read(_scene(truth, width, felt, dist, colour, shadow, gains, blur, quality), width)
    assert r.border_ok >= 0.7 and r.paper_ok >= 0.65   # a card the reader accepts
    assert r.symbols[edge] in ("?", truth[edge])
    assert all(a in ("?", t) for a, t in zip(r.symbols, truth, strict=True))
    assert sum(a == t for a, t in zip(r.symbols, truth, strict=True)) >= 5


def _ring_card(outer_dark: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decide's inputs for one card whose six symbols are all alike: a bare-paper middle (7
    samples) and 12 outer samples of the grey ink at the darkness given (paper where 0)."""
    model = builtin_model("holodex")
    grey_k = int(np.flatnonzero(model.neutral)[0])
    dark = np.zeros((1, 6, N_SYMBOL))
    dark[..., 7:] = outer_dark
    kind = np.where(dark > 0.0, grey_k, PAPER_K)
    return kind, dark.copy(), dark


def test_a_closed_ring_reads_and_a_crescent_does_not():
    """A ring's band is dark all the way round; a crescent, dark on one side only (a disc half
    under a pale object), with the same ink and the same bare middle, is no ring."""
    model = builtin_model("holodex")
    ring = np.full(12, 0.8)
    crescent = np.where(np.arange(12) < 5, 0.8, 0.0)
    assert decide(*_ring_card(ring), model)[0] == ["VVVVVV"]
    assert decide(*_ring_card(crescent), model)[0] == ["??????"]


def test_a_grey_blob_beside_paper_in_shade_is_not_a_blurred_ring():
    """A grey blob standing out from bare paper beside it reads as a blurred ring; the same
    blob where the paper around it is only excused as shade (a grey coin lying there looks
    like that shade) does not."""
    model = builtin_model("holodex")
    kind, alpha, dark = _ring_card(np.full(12, 0.5))
    dark[..., :7] = alpha[..., :7] = 0.5
    kind[..., :7] = kind[..., 7:8]
    flanks = np.zeros((1, 6))
    assert decide(kind, alpha, dark, model, flanks)[0] == ["VVVVVV"]
    shade = np.array([[True, False, True, False, False, False]])
    assert decide(kind, alpha, dark, model, flanks, in_shade=shade)[0] == ["?V?VVV"]
