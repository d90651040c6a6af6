"""Symbols the reader used to leave undecided ('?') though the evidence is physical and clear:
rings tinted by JPEG's half-resolution colour under a warm lamp, small coloured symbols whose
hue bled towards the paper's, and symbols beside a soft shadow. Cards are drawn with plain cv2
(tests/vision/crafted.py), lit, blurred and JPEG-compressed, and read at the known pose; the
bleeding itself is computed here from the YCbCr encoding, not by the code under test. Guards
alongside: coloured discs never turn into rings, and a fingertip over a symbol in shadow still
leaves it undecided."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE, PAPER_RGB, SYMBOLS
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model, chroma_cast
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture

LUMA = np.array([0.299, 0.587, 0.114])   # BT.601, as JPEG encodes


def _read(img: np.ndarray, edition: str, width_px: float) -> str:
    return read_cards(img, [Pose((160.0, 120.0), width_px / 2.0, 0.0)], TableView(),
                      builtin_model(edition))[0].symbols


def _jpeg_card(symbols: str, edition: str, width_px: float, gains_rgb: tuple[float, ...],
               blur: float, quality: int) -> np.ndarray:
    """One upright card on felt under a lamp of per-channel gains, defocused, then saved as a
    JPEG (OpenCV's default 4:2:0: colour at half resolution) and decoded."""
    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, np.array([160.0, 120.0]), symbols, edition,
              width_px / HEXEL_FACE.flat_to_flat_mm, 0.0)
    lit = cv2.GaussianBlur(img.astype(np.float32) * np.float32(gains_rgb[::-1]), (0, 0), blur)
    _ok, enc = cv2.imencode(".jpg", np.clip(lit, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


WARM = (0.9, 0.7, 0.4)          # a ~3000 K lamp the camera's white balance barely corrected
WARM_BRIGHT = (1.0, 0.75, 0.45)


@pytest.mark.parametrize("width_px,gains,blur,quality", [
    (46.0, WARM, 0.9, 60), (52.0, WARM, 0.6, 60), (52.0, WARM, 0.6, 75), (52.0, WARM, 0.9, 60),
    (52.0, WARM_BRIGHT, 0.6, 60), (52.0, WARM_BRIGHT, 0.9, 60)])
def test_rings_tinted_by_jpeg_colour_under_a_warm_lamp_read(width_px, gains, blur, quality):
    """JPEG keeps colour at half resolution: the thin dark rings take on the orange paper's
    chroma (and the paper inside them the rings' lack of it), so their samples fit a pale,
    shaded red, or a pale blue, as well as the grey ink. They are the grey ink with its
    neighbours' chroma, and every ring reads V (the old reader left some '?')."""
    img = _jpeg_card("VRVBVV", "holodex", width_px, gains, blur, quality)
    assert _read(img, "holodex", width_px) == "VRVBVV"


@pytest.mark.parametrize("symbols", ["BBRBBR", "RBRBRB"])
@pytest.mark.parametrize("gains", [WARM, WARM_BRIGHT, (0.55, 0.8, 1.0)])
@pytest.mark.parametrize("width_px", [40.0, 52.0])
def test_discs_tinted_by_jpeg_colour_are_never_rings(symbols, gains, width_px):
    """The same pipeline under warm and cool lamps never reads a red or blue disc as a ring
    (nor as the other disc): each edge reads right or '?'."""
    for blur, quality in ((0.6, 60), (0.9, 75)):
        read = _read(_jpeg_card(symbols, "holodex", width_px, gains, blur, quality),
                     "holodex", width_px)
        assert all(r in (t, "?") for r, t in zip(read, symbols, strict=True)), read


def _bled(ink_rgb: np.ndarray, white_rgb: np.ndarray, share: float) -> np.ndarray:
    """The paper-normalised colour of an ink (normalised, RGB) seen under `white_rgb` after
    `share` of its chroma was replaced by the paper's, luma kept (YCbCr by hand)."""
    raw = ink_rgb * white_rgb
    y, y_paper = raw @ LUMA, white_rgb @ LUMA
    return (y + (1.0 - share) * (raw - y) + share * (white_rgb - y_paper)) / white_rgb


WARM_WHITE = np.array([240.0, 190.0, 110.0])   # RGB of the paper under a warm lamp


def test_the_cast_is_the_direction_bled_chroma_moves_a_grey():
    """A grey (paper and grey ink mixed 0.6) whose chroma is half the paper's moves, in
    paper-normalised RGB, along `chroma_cast` by half its darkness (to within the grey ink's
    own slight blue); a white lamp leaves nothing to bleed."""
    ink = np.array(SYMBOLS["holodex"]["V"][2]) / np.array(PAPER_RGB)
    grey = 1.0 + 0.6 * (ink - 1.0)
    seen = _bled(grey, WARM_WHITE, 0.5)
    cast = chroma_cast(WARM_WHITE[::-1])
    darkness = 1.0 - (grey * WARM_WHITE) @ LUMA / (WARM_WHITE @ LUMA)
    assert np.allclose(seen, grey + 0.5 * darkness * cast, atol=0.01)
    assert np.allclose(chroma_cast(np.array([200.0, 200.0, 200.0])), 0.0)


@pytest.mark.parametrize("share", [0.0, 0.3, 0.6, 0.9])
def test_a_grey_ink_with_bled_chroma_is_the_grey_ink(share):
    """Whatever share of the paper's chroma a ring's pixel took, it is the grey ink at the
    fraction printed."""
    model = builtin_model("holodex")
    ink = np.array(SYMBOLS["holodex"]["V"][2]) / np.array(PAPER_RGB)
    seen = _bled(1.0 + 0.6 * (ink - 1.0), WARM_WHITE, share)
    alpha, ok = model.grey_with_bleed(seen[None], chroma_cast(WARM_WHITE[::-1]))
    assert ok[0] and abs(alpha[0] - 0.6) < 0.05


@pytest.mark.parametrize("share", [0.0, 0.3, 0.6])
def test_a_red_ink_with_bled_chroma_is_not_the_grey_ink(share):
    """A red ink pixel that lost part of its chroma to the warm paper is still no grey: the
    chroma it lost is not along the cast."""
    model = builtin_model("holodex")
    red = _bled(np.array(SYMBOLS["holodex"]["R"][2]) / np.array(PAPER_RGB), WARM_WHITE, share)
    assert not model.grey_with_bleed(red[None], chroma_cast(WARM_WHITE[::-1]))[1][0]


@pytest.mark.parametrize("edition,letter,share", [("web", "B", 0.5), ("holodex", "R", 0.7)])
def test_a_coloured_ink_with_bled_chroma_is_that_ink(edition, letter, share):
    """A small symbol's pixel that took much of the warm paper's chroma (a blue diamond's
    goes grey-brown, a red disc's loses its blue entirely) is unexplained by the plain fit,
    and is its own ink once the bleeding is allowed for."""
    model = builtin_model(edition)
    ink = np.array(SYMBOLS[edition][letter][2]) / np.array(PAPER_RGB)
    seen = _bled(ink, WARM_WHITE, share)[None]
    cast = chroma_cast(WARM_WHITE[::-1])[None]
    kind, _, _ = model.explain(seen)
    assert kind[0] < 0
    kind, alpha, _ = model.explain(seen, None, cast)
    assert model.letters[kind[0]] == letter and alpha[0] >= 0.5


def _shadowed_card(width_px: float, depth: float, edge_x: float,
                   fingertip: bool = False) -> np.ndarray:
    """'VRVBVV' on felt with a soft shadow (a neutral gain falling by `depth` across a
    vertical edge at `edge_x`) over its right side, where symbol 0 lies; optionally a
    fingertip lying over symbol 0 from the right, inside the shadow."""
    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, np.array([160.0, 120.0]), "VRVBVV", "holodex",
              width_px / HEXEL_FACE.flat_to_flat_mm, 0.0)
    x = np.arange(320, dtype=np.float32)
    gain = 1.0 - depth / (1.0 + np.exp(-(x - edge_x) / 2.5))
    img = img.astype(np.float32) * gain[None, :, None]
    if fingertip:
        tip = 160.0 + HEXEL_FACE.symbol_centre_frac * width_px / 2.0
        cv2.ellipse(img, (int(tip) + 14, 120), (18, 6), 0, 0, 360, (110, 150, 200), -1,
                    cv2.LINE_AA)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.7), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("width_px,depth,edge_x", [
    (50.0, 0.3, 165.0), (50.0, 0.3, 170.0), (50.0, 0.4, 165.0), (50.0, 0.4, 170.0),
    (60.0, 0.3, 165.0), (60.0, 0.3, 175.0)])
def test_a_symbol_beside_a_soft_shadow_reads(width_px, depth, edge_x):
    """A shadow edge crossing the card dims the paper around the ring at edge 0 to a plain
    grey: that paper is in shade, not covered, and the ring reads (the old reader left '?')."""
    assert _read(_shadowed_card(width_px, depth, edge_x), "holodex", width_px) == "VRVBVV"


@pytest.mark.parametrize("width_px,depth", [(50.0, 0.3), (50.0, 0.4), (60.0, 0.3)])
def test_a_fingertip_in_the_shadow_still_covers_its_symbol(width_px, depth):
    """The same shadow with a fingertip lying over the ring: skin shows in the ring's halo,
    so the symbol stays undecided and the rest read."""
    img = _shadowed_card(width_px, depth, 170.0, fingertip=True)
    assert _read(img, "holodex", width_px) == "?RVBVV"
