"""Symbol reading at the edge of what the colours say: a grey ring's blurred fringe under warm,
overexposed light and a navy disc that has lost its hue (drawn with plain cv2, see
tests/vision/crafted.py, and read at the known pose), and rendered hard tables where rings
come out pale or faintly tinted and blue discs get grey rims."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import colour_matrix, draw_card, motion_blur, texture
from .test_reader import _read_hard


def _clipped_card(symbols: str, width_px: float, motion_px: int,
                  gains_rgb: tuple[float, float, float]) -> tuple[np.ndarray, float]:
    """One holodex card on felt, lit by per-channel gains, blurred by vertical motion, then
    clipped to 8 bits the way a sensor clips: paper brighter than 255 in red (and green)."""
    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, np.array([160.0, 120.0]), symbols, "holodex",
              width_px / HEXEL_FACE.flat_to_flat_mm, 0.0)
    lit = img.astype(np.float32) * np.array(gains_rgb[::-1], np.float32)
    kernel = np.full((motion_px, 1), 1.0 / motion_px, np.float32)
    lit = cv2.filter2D(lit, -1, kernel)
    return np.clip(lit, 0, 255).astype(np.uint8), width_px / 2.0


@pytest.mark.parametrize("width_px,motion_px", [(44.0, 4), (44.0, 5), (50.0, 4), (56.0, 5)])
def test_a_blurred_ring_under_clipped_warm_light_reads_as_the_ring(width_px, motion_px):
    """With the paper clipped in red and green, the ring's half-inked fringe keeps more red
    than green or blue relative to the (clipped) white, so it fits the red ink's line at a low
    fraction. Those faint samples are the ring's fringe, not a rival red symbol: every ring
    reads V, and the red disc and blue disc still read R and B."""
    img, apothem = _clipped_card("VRVBVV", width_px, motion_px, (1.5, 1.1, 0.8))
    read = read_cards(img, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert read.symbols == "VRVBVV"


def test_a_faint_red_disc_is_not_taken_for_a_ring():
    """The discount is for rings only: a red disc washed out to a faint pink under the same
    light keeps its reading red (or unsure), never the grey ring."""
    img, apothem = _clipped_card("RRRRRR", 50.0, 4, (1.5, 1.1, 0.8))
    paper = np.array([255, 255, 255], np.float32)
    faint = (0.6 * paper + 0.4 * img.astype(np.float32)).astype(np.uint8)   # washed-out print
    read = read_cards(faint, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert "V" not in read.symbols


def _overprint_discs(img: np.ndarray, edges: tuple[int, ...], apothem_px: float,
                     rgb: tuple[int, int, int]) -> None:
    """Paint solid discs of `rgb` over the symbols at `edges` of the upright card drawn at
    (160, 120) with apothem `apothem_px` (edge d at -60°·d), in place."""
    for d in edges:
        a = np.radians(-60.0 * d)
        c = np.array([160.0, 120.0]) + HEXEL_FACE.symbol_centre_frac * apothem_px * np.array(
            [np.cos(a), np.sin(a)])
        cv2.circle(img, tuple(int(v) for v in c * 16),
                   int(HEXEL_FACE.symbol_radius_frac * apothem_px * 16), rgb[::-1], -1,
                   cv2.LINE_AA, 4)


def _navy_card(width_px: float, defocus: float, sharpen: float, quality: int,
               navy_rgb: tuple[int, int, int]) -> tuple[np.ndarray, float]:
    """'BVBBVB' with its blue discs printed as a heavy navy (a printer low on cyan), dimmed
    and warmed, then defocused or sharpened (a camera's unsharp mask) and JPEG-compressed."""
    img = texture("felt", (240, 320), np.random.default_rng(0))
    ppm = width_px / HEXEL_FACE.flat_to_flat_mm
    draw_card(img, np.array([160.0, 120.0]), "BVBBVB", "holodex", ppm, 0.0)
    _overprint_discs(img, (0, 2, 3, 5), HEXEL_FACE.apothem_mm * ppm, navy_rgb)
    lit = img.astype(np.float32) * np.float32((0.6, 1.0, 1.3))   # BGR: a warm lamp
    if defocus:
        lit = cv2.GaussianBlur(lit, (0, 0), defocus)
    if sharpen:
        lit = cv2.addWeighted(lit, 1 + sharpen, cv2.GaussianBlur(lit, (0, 0), 1.5), -sharpen, 0)
    _ok, enc = cv2.imencode(".jpg", np.clip(lit, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR), width_px / 2.0


@pytest.mark.parametrize("navy_rgb,defocus,sharpen,quality", [
    ((20, 45, 110), 1.6, 0.6, 95), ((30, 40, 70), 1.6, 0.0, 95), ((15, 35, 80), 0.0, 0.6, 60)])
def test_a_dark_navy_disc_is_never_read_as_a_ring(navy_rgb, defocus, sharpen, quality):
    """Navy this dark loses its hue and fits the grey ink like a ring's. Defocused it looks
    like a blurred ring, sharpened it gets a darker rim like a ring's band; but a ring's middle
    is its hole, never ink right through, so a disc is never read as V (at worst '?')."""
    img, apothem = _navy_card(50.0, defocus, sharpen, quality, navy_rgb)
    read = read_cards(img, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert all(read.symbols[d] in "B?" for d in (0, 2, 3, 5))
    assert read.symbols[1] == read.symbols[4] == "V"


@pytest.mark.parametrize("seed", [60, 84, 98, 108])
def test_pale_rings_and_grey_rimmed_discs_read_on_hard_tables(seed):
    """Rendered hard tables (known truth) where defocus leaves a ring's ink paler than 0.55
    (seeds 60, 84), a heavy print turns a blue disc's blurred rim grey (seed 98), or clipped
    warm light tints a whole ring faintly red, so only its hollow shape and grey mean colour
    tell it (seed 108): every fully visible card reads right."""
    score = _read_hard(seed, "holodex")
    assert score.misreads == 0 and score.false_cards == 0
    assert score.correct == score.full


@pytest.mark.parametrize("motion_px,angle", [(5, 0.0), (5, 90.0), (7, 0.0)])
def test_faded_small_symbols_smeared_by_motion_still_read(motion_px, angle):
    """A web card printed faded (its inks mixed halfway to the paper) and smeared by motion:
    the triangles and diamonds, smaller than a disc, leave their samples pale (under 0.55
    ink) but all their ink lies in the symbol's middle with bare paper around it — a
    printed symbol, not a tint — so every edge reads."""
    from companion.faces import PAPER_RGB

    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, np.array([160.0, 120.0]), "YBYYBR", "web",
              56.0 / HEXEL_FACE.flat_to_flat_mm, 0.0)
    img = img.astype(np.float32)
    paper = np.array(PAPER_RGB[::-1], np.float32)
    face = np.zeros(img.shape[:2], np.uint8)
    cv2.circle(face, (160, 120), round(0.8 * 28.0), 255, -1)
    img = np.where(face[..., None] > 0, paper + (img - paper) * 0.45, img)
    k = np.zeros((motion_px, motion_px), np.float32)
    k[motion_px // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D((motion_px / 2 - 0.5, motion_px / 2 - 0.5), angle, 1.0)
    k = cv2.warpAffine(k, rot, (motion_px, motion_px))
    img = np.clip(cv2.filter2D(img, -1, k / k.sum()), 0, 255).astype(np.uint8)
    _ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 70])
    seen = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    read = read_cards(seen, [Pose((160.0, 120.0), 28.0, 0.0)], TableView(),
                      builtin_model("web"))[0]
    assert read.symbols == "YBYYBR"


def _card_on_felt(symbols: str, edition: str, width_px: float) -> np.ndarray:
    """One card (pointy-top, centred at (160, 120)) on felt, float BGR."""
    img = texture("felt", (240, 320), np.random.default_rng(0))
    draw_card(img, np.array([160.0, 120.0]), symbols, edition,
              width_px / HEXEL_FACE.flat_to_flat_mm, 0.0)
    return img.astype(np.float32)


def _read_one(img: np.ndarray, edition: str, width_px: float) -> str:
    return read_cards(np.clip(img, 0, 255).astype(np.uint8),
                      [Pose((160.0, 120.0), width_px / 2.0, 0.0)], TableView(),
                      builtin_model(edition))[0].symbols


@pytest.mark.parametrize("edition,symbols", [("holodex", "RBRVRB"), ("web", "RBYRYB")])
@pytest.mark.parametrize("boost", [0.3, 0.45])
def test_inks_saturated_by_the_camera_and_clipped_still_read(edition, symbols, boost):
    """A camera's colour matrix pushes each ink further from the paper than the printed
    prototype (blue past its line's end, red's green and blue to black) and the red ink's red
    channel clips together with the paper's: the blue fit by the ink alone, and the red by
    its unclipped channels, every edge reads."""
    img = cv2.GaussianBlur(colour_matrix(_card_on_felt(symbols, edition, 60.0), boost),
                           (0, 0), 0.7)
    assert _read_one(img, edition, 60.0) == symbols


@pytest.mark.parametrize("edition,symbols", [("holodex", "RBRVRB"), ("web", "RBYRYB")])
@pytest.mark.parametrize("boost,gain", [(0.3, 0.8), (0.6, 0.8), (0.6, 1.4), (1.0, 1.2)])
def test_saturated_or_clipped_inks_are_never_misread(edition, symbols, boost, gain):
    """Stronger matrices and exposures, clipped or not, never turn one ink into another: each
    edge reads right or '?'."""
    img = cv2.GaussianBlur(colour_matrix(_card_on_felt(symbols, edition, 60.0), boost) * gain,
                           (0, 0), 0.7)
    read = _read_one(img, edition, 60.0)
    assert all(r in (t, "?") for r, t in zip(read, symbols, strict=True)), read


@pytest.mark.parametrize("angle", [0.0, 90.0])
def test_rings_on_a_small_card_smeared_flat_by_motion_read(angle):
    """On a 30 px card a 6 px smear spreads each ring's ink evenly over its samples (no
    sample above ~0.4 ink, no hole left), yet the blob stands out from the paper beside it
    and is as dark as a ring, far lighter than a disc: the rings read V."""
    img = motion_blur(cv2.GaussianBlur(_card_on_felt("VBVRVV", "holodex", 30.0), (0, 0), 0.8),
                      6, angle)
    read = _read_one(img, "holodex", 30.0)
    assert read[0] == read[2] == read[4] == "V", read
    assert all(r in (t, "?") for r, t in zip(read, "VBVRVV", strict=True)), read


_HUELESS = pytest.mark.xfail(strict=True, reason=(
    "known hole, old code too: navy this dark loses all hue under a warm lamp, and smeared "
    "flat on a 30 px card it is a grey blob as light as a ring's (middle 0.79, mean 0.68): "
    "the blurred-ring rule reads it V"))


# (the darker navy smeared 6 px along edge 0's normal reads '?' there since `dark_across`:
# its blob leads the band's end places as a dark grey pen does; the other two smears still
# read it V)
_NAVIES = [((20, 45, 110), 6, 0.0), ((20, 45, 110), 6, 90.0), ((20, 45, 110), 8, 45.0),
           ((30, 40, 70), 6, 0.0), pytest.param((30, 40, 70), 6, 90.0, marks=_HUELESS),
           pytest.param((30, 40, 70), 8, 45.0, marks=_HUELESS)]


@pytest.mark.parametrize("navy_rgb,length,angle", _NAVIES)
def test_a_smeared_navy_disc_on_a_small_card_is_never_a_ring(navy_rgb, length, angle):
    """A navy disc smeared like the rings above, on the same small card: where it keeps a
    trace of its hue (its samples fit the blue ink) it is never read V."""
    img = _card_on_felt("BVBBVB", "holodex", 30.0)
    _overprint_discs(img, (0, 2, 3, 5),
                     HEXEL_FACE.apothem_mm * 30.0 / HEXEL_FACE.flat_to_flat_mm, navy_rgb)
    img = motion_blur(cv2.GaussianBlur(img * np.float32((0.6, 1.0, 1.3)), (0, 0), 0.8),
                      length, angle)
    read = _read_one(img, "holodex", 30.0)
    assert all(read[d] in "B?" for d in (0, 2, 3, 5)), read


def test_a_colour_beyond_the_ink_is_explained_as_that_ink():
    """Seen from paper, a heavier print lies past the ink's prototype (the centre of a navy
    disc in dim light on a hard table, ratios (0, 0.55, 1.17) against the blue ink's
    (0.09, 0.38, 0.89)): it is that ink at full strength, fitted by the ink alone, not an
    unexplained colour."""
    model = builtin_model("holodex")
    kind, alpha, _ = model.explain(np.array([[0.0, 0.55, 1.17], [0.0, 0.45, 0.95]]))
    assert [model.letters[k] if k >= 0 else k for k in kind] == ["B", "B"]
    assert alpha.min() > 0.9


def test_a_red_clipped_with_the_paper_is_bounded_not_misplaced():
    """Red ink under warm, bright light: its red channel clips together with the paper's
    (the ratio is unknown, only bright) and its green and blue sit at black. Taken at face
    value, (1.02, 0, 0) is off every ink's line; read as bounds it is the red ink, and never
    the grey ring, which is dark in red too. A pixel clipped with the paper in two channels
    is known in one only and keeps its face-value reading."""
    from companion.vision.colour import clip_bounds, normalise

    white = np.array([[200.0, 250.0, 250.0]], np.float32)          # BGR: red, green clipped
    red = np.array([[0.0, 0.0, 255.0]], np.float32)
    for edition in ("web", "holodex"):
        model = builtin_model(edition)
        kind, _, _ = model.explain(normalise(red, white))
        assert kind[0] < 0                                         # unexplained as seen
        kind, alpha, _ = model.explain(normalise(red, white), clip_bounds(red, white))
        assert kind[0] >= 0 and model.letters[int(kind[0])] == "R" and alpha[0] > 0.8
    model = builtin_model("web")
    bright = np.array([[40.0, 255.0, 255.0]], np.float32)          # yellow-ish, two clipped
    plain = model.explain(normalise(bright, white))
    bounded = model.explain(normalise(bright, white), clip_bounds(bright, white))
    assert all(np.array_equal(p, b) for p, b in zip(plain, bounded, strict=True))


@pytest.mark.parametrize("symbols,edition,width_px,gains,blur,quality", [
    ("VRVBVV", "holodex", 44.0, (2.2, 1.7, 1.3), 1.4, 60),
    ("VRVBVV", "holodex", 44.0, (2.2, 1.7, 1.3), 1.8, 60),
    ("VRVBVV", "holodex", 44.0, (2.2, 1.7, 1.3), 1.8, 80),
    ("RYYBRB", "web", 40.0, (2.5, 2.0, 1.5), 2.2, 60)])
def test_blends_with_clipped_paper_give_no_wrong_letter(symbols, edition, width_px, gains,
                                                        blur, quality):
    """A small card, defocused and saved as a JPEG under a warm lamp bright enough to clip the
    paper in two or three channels. The white reference is then darker than the paper, so the
    blends of paper and ink that blur leaves are seen too bright in the clipped channels: a
    grey ring's blob fits red, a red disc's yellow. Such a symbol may be '?', never another
    letter (the old reader read a ring R and a red disc Y by their mean colour); the strong
    inks' cores still read."""
    from .test_symbols_unflag import _jpeg_card
    img = _jpeg_card(symbols, edition, width_px, gains, blur, quality)
    read = read_cards(img, [Pose((160.0, 120.0), width_px / 2.0, 0.0)], TableView(),
                      builtin_model(edition))[0].symbols
    assert all(r in (t, "?") for r, t in zip(read, symbols, strict=True)), read
    assert read.count("?") < 6
