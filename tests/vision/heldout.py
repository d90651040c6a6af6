"""A held-out check for the reader (not a test module), independent of `companion.synth.scene`:
the printed card faces (`render_face`, the same PNGs `companion cards export` writes) pasted onto
real photographs bundled with scikit-image, on a hex lattice with random in-plane rotation, card
size (60-140 px across the flats), gaps and placement jitter, seen through a random mild
perspective homography (a camera looking nearly straight down, no markers), then a colour cast, a
light gradient, blur, noise and JPEG. Truth is given as the reader reports: cells and symbols by
the image lattice whose E is the direction nearest to image-right. A `Variant` changes how cards
are cut (a white margin, into the border), laid (touching, overlapping, sloppy) and photographed
(0.6-3 times the size, close up, or at a steeper angle); `python tests/vision/heldout.py
--seeds 100 --variant NAME` prints the reader's figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.faces import SYMBOLS
from companion.synth.cardface import face_centre, render_face
from companion.vision.colour import ColourModel
from companion.vision.observation import HexelObservation
from companion.vision.scoring import TableScore, TruthCard, score_table

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
BACKGROUNDS = ("coffee", "astronaut", "rocket", "chelsea", "brick", "grass", "gravel",
               "immunohistochemistry", "hubble_deep_field", "camera")
# other pictures bundled with scikit-image, never laid under a card while the reader was tuned
# (`--backgrounds unseen`): coins, a moon, two of printed text, a clock, a colour wheel, a logo,
# a retina, cells, microaneurysms, a horse's silhouette, a checkerboard
UNSEEN_BACKGROUNDS = ("coins", "moon", "page", "text", "clock", "colorwheel", "logo", "retina",
                      "cell", "microaneurysms", "horse", "checkerboard")
FACE_PX = 192
SHADOW_DEPTH = (0.3, 0.55)   # the share a soft shadow dims its oval by, unless a variant says
SIZE = (1280, 720)


@dataclass(frozen=True)
class Variant:
    """How the cards are cut, laid and photographed, beyond the default table: the gap between
    neighbours (fraction of a card, drawn per table), placement jitter (fraction of a card) and
    turn (degrees, each drawn per card), the cut (`margin`: a white margin left outside the
    printed border, negative: cut that far into the border; fractions of the card's
    circumradius), the picture's size (`scale` times 1280 x 720), how many soft shadows fall
    on the table (`shadows`: a hand's or a shade's, each dimming an oval by a share drawn from
    `shadow_depth`, 30-55 % unless the variant says) and how far
    the camera leans (`perspective`: the homography's largest perspective term, per px; for a
    lens about 1000 px across its focal length, 1.2e-4 is a lean of ~7°, 4e-4 ~22°, 8e-4
    ~39°) and the range of the cards' size across the flats (`card_px`, before `scale`). Harsher
    light and play: `lamp` lights the table with a black body of 2700-6500 K seen through a
    camera white-balanced for 5000 K, exposed 0.6-1.5 times (in linear light, clipped);
    `hands` arms (skin or sleeve) reach in from the picture's edge, each casting its own soft
    shadow, and the cards under them are occluded truth (their visible share is measured);
    `glare` specular spots wash parts of the table out; `motion` smears the picture along a
    line of 4-12 px; `fingers` fingertips or pens laid across a card's edge onto a symbol
    (`_fingertip`: the covered cards are occluded truth). `printer` prints the faces on
    another printer (`_printer`): their hues turned by up to that many degrees; `pale`
    prints them as a printer on plain paper does, with less ink: blue keeps 1 - `pale` of our
    chroma, red 1 - 0.6 `pale`, yellow 1 - 0.25 `pale` (an office inkjet's blue keeps about
    0.6-0.75 of ours), all a little lighter. `markers` lays the four table markers (OpenCV's
    own DICT_4X4_50 ids 0-3, top-left clockwise, printed at 40 mm beside 64 mm cards, with a
    white quiet zone) near the picture's corners on the table plane, and keeps the cards clear
    of them, so the reader calibrates from them as on the Pi. `cloth` lays the cards on a
    white patterned tablecloth (`cloth`: gingham, tartan, pinstripe, small check or dots)
    instead of a photograph; `plain` on a plain pale table (`plain_table`: white laminate, a
    sheet of paper, pale grey or beige), as bright as the cards' paper or nearly. Real cards
    and phone cameras (each from its own random stream, so the table is laid as without it):
    `sleeves` puts each card in a glossy plastic sleeve (`_sleeve`: a clear edge 3-6 % beyond
    the card, a soft sheen band and a broad specular gradient across it); `curl` bends each card
    up to that fraction of its size (`_curl`: its outline bowed, one side lifted towards the
    camera, shaded across); `halftone` prints the faces as an inkjet's random dither or a
    laser's rotated dot screen, dots 0.8-2 picture px apart (`_halftone`); `lens` is a phone's
    optics and processing (`_lens`, `_phone_isp`): chromatic aberration of 1-2.5 px at the
    corners, vignetting dimming the corners 35-60 %, HDR tone mapping, a saturation boost and
    heavy sharpening halos; `lowlight` a dim room at high ISO (`_low_light`): shot and read
    noise in colour, a phone's denoise leaving it blotchy; `frame` draws the picture at that
    size (w, h) instead of `SIZE` (4:3, portrait; with `scale` 3.15 a 12 MP phone picture);
    `dirt` marks that many cards (`_dirt`): a pencil scribble, a coffee ring or a crease across
    the card. `laid` lays the cards by hand, one by one against a card already down: each lies
    off its place by its neighbour's offset plus a gap of its own (up to `laid` of a card, its
    step turned up to 3°), so the gaps are uneven and the offsets drift across the table (drawn
    from their own stream: the table is otherwise laid as without them). `mono` prints the faces
    on a black-and-white printer (`grey_print`)."""

    gap: tuple[float, float] = (0.02, 0.06)
    jitter: float = 0.02
    turn_deg: float = 2.5
    margin: float = 0.0
    scale: float = 1.0
    shadows: int = 0
    shadow_depth: tuple[float, float] = SHADOW_DEPTH
    perspective: float = 1.2e-4
    card_px: tuple[float, float] = (60.0, 140.0)
    lamp: bool = False
    hands: int = 0
    glare: int = 0
    motion: bool = False
    fingers: int = 0
    printer: float = 0.0
    pale: float = 0.0
    markers: bool = False
    cloth: bool = False
    plain: bool = False
    sleeves: bool = False
    curl: float = 0.0
    halftone: bool = False
    lens: bool = False
    lowlight: bool = False
    frame: tuple[int, int] = (1280, 720)
    dirt: int = 0
    laid: float = 0.0
    mono: bool = False


VARIANTS = {
    "default": Variant(),
    "touching": Variant(gap=(0.0, 0.01), jitter=0.01),
    "overlapping": Variant(gap=(-0.03, 0.0), jitter=0.01),
    "sloppy": Variant(gap=(0.02, 0.3), jitter=0.08, turn_deg=9.0),
    "laid": Variant(laid=0.35, turn_deg=5.0),
    "spaced": Variant(gap=(0.3, 0.55), jitter=0.03, turn_deg=5.0),
    "white-margin": Variant(margin=0.05),
    "cut-into-border": Variant(margin=-0.04),
    "small": Variant(scale=0.6),
    "phone": Variant(scale=3.0),
    "shadowed": Variant(shadows=2),
    # (a hand's shadow under one lamp with little light about: 55-75 % dimmer)
    "deep-shadowed": Variant(shadows=2, shadow_depth=(0.55, 0.75)),
    "tilted": Variant(perspective=4e-4),
    "steep": Variant(perspective=8e-4),
    "closeup": Variant(card_px=(150.0, 330.0)),
    "lamp": Variant(lamp=True),
    "hands": Variant(hands=2),
    "harsh": Variant(shadows=2, glare=1, motion=True, lamp=True),
    "fingers": Variant(fingers=2, motion=True),
    "busy": Variant(hands=2, fingers=2, lamp=True, shadows=1),
    "printer": Variant(printer=15.0),
    "printer-far": Variant(printer=30.0),
    "office": Variant(printer=8.0, pale=0.4),
    "office-lowlight": Variant(printer=8.0, pale=0.4, lowlight=True),
    # (two at once: the same print in the dim room with motion blur, and with fingertips too)
    "office-lowlight-motion": Variant(printer=8.0, pale=0.4, lowlight=True, motion=True),
    "office-lowlight-fingers": Variant(printer=8.0, pale=0.4, lowlight=True, fingers=2,
                                       motion=True),
    "markers": Variant(markers=True),
    "markers-tilted": Variant(markers=True, perspective=4e-4),
    "cloth": Variant(cloth=True),
    "cloth-small": Variant(cloth=True, scale=0.6, motion=True),
    # (a plain pale table, as bright as the paper: the cards' outline is their printed band)
    "plain": Variant(plain=True),
    "plain-busy": Variant(plain=True, hands=2, fingers=2, lamp=True, shadows=1),
    "plain-harsh": Variant(plain=True, shadows=2, glare=1, motion=True, lamp=True),
    "plain-fingers": Variant(plain=True, fingers=2, motion=True),
    "plain-phone": Variant(plain=True, sleeves=True, curl=0.03, halftone=True, lens=True,
                           dirt=2),
    "sleeves": Variant(sleeves=True),
    "curl": Variant(curl=0.05),
    "halftone": Variant(halftone=True),
    "lens": Variant(lens=True),
    "lowlight": Variant(lowlight=True),
    "12mp": Variant(frame=(1280, 960), scale=3.15),
    "portrait": Variant(frame=(960, 1280), scale=3.15, lens=True),
    "dirt": Variant(dirt=4),
    "phone-photo": Variant(sleeves=True, curl=0.03, halftone=True, lens=True, dirt=2),
    "mono": Variant(mono=True),
    "mono-lamp": Variant(mono=True, lamp=True, shadows=1),
    # (the web edition printed so is read by its shapes: the print in the conditions above)
    "mono-tilted": Variant(mono=True, perspective=4e-4),
    "mono-small": Variant(mono=True, scale=0.6),
    "mono-hands": Variant(mono=True, hands=2),
    "mono-lowlight": Variant(mono=True, lowlight=True),
    "mono-halftone": Variant(mono=True, halftone=True),
    "mono-curl": Variant(mono=True, curl=0.05),
    "mono-office": Variant(mono=True, printer=8.0, pale=0.4),
    "mono-motion": Variant(mono=True, motion=True),
    "mono-sleeves": Variant(mono=True, sleeves=True),
    "mono-phone": Variant(mono=True, sleeves=True, curl=0.03, halftone=True, lens=True, dirt=2),
    "mono-fingers": Variant(mono=True, fingers=2, motion=True),
    "mono-harsh": Variant(mono=True, shadows=2, glare=1, motion=True, lamp=True),
}


def seed_edition(seed: int) -> str:
    """The edition a held-out table of `seed` is laid in: the even seeds holodex, the odd web."""
    return ("holodex", "web")[seed % 2]


@dataclass(frozen=True)
class HeldOut:
    image: np.ndarray
    truth: tuple[TruthCard, ...]
    edition: str
    card_px: float


@lru_cache(maxsize=16)
def photo(name: str) -> np.ndarray:
    """A photograph bundled with scikit-image, as BGR (grey ones as three equal channels, a
    binary one black and white)."""
    import skimage.data

    img = getattr(skimage.data, name)()
    if img.dtype == bool:
        img = img.astype(np.uint8) * 255
    if img.ndim == 2:
        img = np.stack([img] * 3, -1)
    return cv2.cvtColor(np.ascontiguousarray(img[..., :3]), cv2.COLOR_RGB2BGR)


def recolour(face: np.ndarray, hue_of, chroma: float = 1.0, gamma: float = 1.0,
             paper: np.ndarray | None = None, share_of=None) -> np.ndarray:
    """A face (BGRA) printed otherwise: in CIELAB each pixel's hue (radians) becomes
    `hue_of(hue)`, its chroma `chroma` times ours (and `share_of(hue)` times that, of its
    hue before the turn, if given), its lightness L becomes 255·(L/255)^`gamma`, and the
    result is scaled by `paper` (B G R, a tinted paper), if given."""
    lab = cv2.cvtColor(face[..., :3], cv2.COLOR_BGR2LAB).astype(np.float32)
    light, a, b = lab[..., 0], lab[..., 1] - 128.0, lab[..., 2] - 128.0
    ours = np.arctan2(b, a)
    hue = hue_of(ours)
    c = np.hypot(a, b) * chroma
    if share_of is not None:
        c = c * share_of(ours)
    if gamma != 1.0:
        light = 255.0 * (light / 255.0) ** gamma
    lab = np.dstack([light, c * np.cos(hue) + 128.0, c * np.sin(hue) + 128.0])
    bgr = cv2.cvtColor(lab.clip(0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
    out = face.copy()
    out[..., :3] = bgr if paper is None else (bgr.astype(np.float32) * paper).clip(
        0, 255).astype(np.uint8)
    return out


def _ink_share(pale: float):
    """The share of our chroma each ink keeps on a paler print (`Variant.pale`), as a function
    of CIELAB hue (radians): our blue lies near -69°, red near 36°, yellow near 83°."""
    def share(hue: np.ndarray) -> np.ndarray:
        deg = np.degrees(hue)
        return np.where((deg > -150) & (deg < -10), 1.0 - pale,
                        np.where((deg >= 60) & (deg < 120), 1.0 - 0.25 * pale, 1.0 - 0.6 * pale))
    return share


def grey_print(img: np.ndarray) -> np.ndarray:
    """`img` (BGR or BGRA) as a black-and-white printer prints it: each pixel's luminance in all
    three colour channels (alpha kept)."""
    out = img.copy()
    out[..., :3] = cv2.cvtColor(np.ascontiguousarray(img[..., :3]), cv2.COLOR_BGR2GRAY)[..., None]
    return out


def _printer(seed: int, amp: float, pale: float = 0.0):
    """Another printer, drawn from the seed (its own stream: the table is laid as without
    it): a face's colours in CIELAB turned in hue by ±`amp`·sin(hue + phi) degrees (so each
    ink by its own amount), their chroma 0.8-1.15 and lightness (a gamma of 0.85-1.2) of
    ours, and the paper tinted cream; `pale` (`Variant.pale`) takes each ink's share of that
    chroma (`_ink_share`) and lightens the print (its gamma times 1 - `pale`/4). Returns the
    function that prints a face so."""
    rng = np.random.default_rng([seed, 777])
    turn = math.radians(amp * rng.choice([-1, 1]))
    phi = rng.uniform(0, 2 * math.pi)
    chroma, gamma = rng.uniform(0.8, 1.15), rng.uniform(0.85, 1.2)
    paper = np.array([rng.uniform(0.88, 0.98), rng.uniform(0.95, 1.0), 1.0], np.float32)
    share = _ink_share(pale) if pale else None
    gamma *= 1.0 - 0.25 * pale

    def printed(face: np.ndarray) -> np.ndarray:
        return recolour(face, lambda hue: hue + turn * np.sin(hue + phi), chroma, gamma, paper,
                        share)

    return printed


@lru_cache(maxsize=512)
def _face(symbols: str, edition: str, margin: float = 0.0, px: int = FACE_PX) -> np.ndarray:
    """The exported face, `px` across its flats, cut `margin` (of its circumradius) outside its
    printed edge, on white, or inside it (negative: part of the border band cut away)."""
    face = render_face(symbols, edition, px)
    if margin == 0.0:
        return face
    h, w = face.shape[:2]
    ang = np.radians(-60.0 * np.arange(6) - 30.0)
    corners = face_centre(px) + px / math.sqrt(3.0) * (1.0 + margin) * np.c_[
        np.cos(ang), np.sin(ang)]
    cut = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(cut, np.round(corners * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    if margin < 0:
        out = face.copy()
        out[..., 3] = np.minimum(face[..., 3], cut)
        return out
    alpha = face[..., 3:4].astype(np.float32) / 255.0
    out = np.empty_like(face)
    out[..., :3] = np.round(face[..., :3] * alpha + 250.0 * (1.0 - alpha)).astype(np.uint8)
    out[..., 3] = np.maximum(face[..., 3], cut)
    return out


def photo_crop(rng: np.random.Generator, names: tuple[str, ...],
               size: tuple[int, int] = SIZE) -> np.ndarray:
    """A random crop of one of the photographs `names`, of the frame's (`size`) shape, scaled
    up to fill it."""
    img = photo(names[int(rng.integers(len(names)))])
    h, w = img.shape[:2]
    frac = rng.uniform(0.5, 1.0)
    cw, ch = int(w * frac), int(min(h, w * frac * size[1] / size[0]))
    if ch == h:   # a frame taller than the photograph's crop: narrow the crop instead
        cw = min(cw, int(h * size[0] / size[1]))
    x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
    return cv2.resize(img[y0:y0 + ch, x0:x0 + cw], size, interpolation=cv2.INTER_LINEAR)


def _background(rng: np.random.Generator, size: tuple[int, int] = SIZE,
                names: tuple[str, ...] = BACKGROUNDS) -> np.ndarray:
    """A random crop of one of the photographs `names`, scaled up to fill the frame (`size`),
    maybe tinted."""
    out = photo_crop(rng, names, size)
    if rng.random() < 0.5:
        out = np.clip(out * rng.uniform(0.6, 1.2, 3), 0, 255).astype(np.uint8)
    return out


# the cloth's coloured threads, BGR: red, crimson, blue, navy, green, black, grey, purple
CLOTH_INKS = ((45, 45, 205), (60, 30, 150), (190, 110, 40), (90, 40, 20), (70, 140, 50),
              (35, 35, 35), (120, 120, 120), (130, 50, 120))
CLOTH_PATTERNS = ("gingham", "tartan", "pinstripe", "check", "dots")


def _stripes(s: np.ndarray, period: float, width: float, phase: float) -> np.ndarray:
    """Coverage (0-1) of stripes `width` px wide every `period` px along coordinate `s`, their
    edges antialiased over a pixel."""
    d = np.abs(np.mod(s + phase, period) - 0.5 * period)
    return np.clip(0.5 * width - d + 0.5, 0.0, 1.0)


def cloth(rng: np.random.Generator, hom: np.ndarray, card_px: float,
          size: tuple[int, int] = SIZE) -> np.ndarray:
    """A white tablecloth (float BGR, SIZE) lying on the table plane that `hom` maps to the
    picture: coloured threads on white woven as a gingham (two crossing sets of stripes,
    darker where they cross), a tartan (two or three sets of stripes of several inks and
    widths each way), a pinstripe (thin lines one way), a small check (a checkerboard) or
    dots (in rows, some as rings, lace-like), one or two inks of `CLOTH_INKS`; its period
    3 px to two cards (`card_px`), turned at any angle, gently wavy, with a fine weave and
    soft folds. Drawn from scratch, nothing of `companion.synth`."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    q = np.stack([xx.ravel(), yy.ravel(), np.ones(xx.size)])
    q = np.linalg.inv(hom) @ q
    u, v = (q[0] / q[2]).reshape(h, w), (q[1] / q[2]).reshape(h, w)
    # the cloth is not laid dead straight: a slow wave bends its threads a little
    amp, wave = rng.uniform(0, 0.02) * card_px, rng.uniform(3, 8) * card_px
    u = u + amp * np.sin(2 * np.pi * v / wave + rng.uniform(0, 6.3))
    v = v + amp * np.sin(2 * np.pi * u / wave + rng.uniform(0, 6.3))
    turn = rng.uniform(0, np.pi)
    a = np.cos(turn) * u + np.sin(turn) * v
    b = -np.sin(turn) * u + np.cos(turn) * v
    period = float(np.exp(rng.uniform(np.log(3.0), np.log(2.0 * card_px))))
    white = rng.uniform(225, 252) * rng.uniform(0.96, 1.0, 3)
    inks = [np.array(CLOTH_INKS[int(k)], np.float64)
            for k in rng.choice(len(CLOTH_INKS), 2, replace=False)]
    strength = rng.uniform(0.5, 1.0)          # how densely the coloured threads are woven
    layers: list[tuple[np.ndarray, np.ndarray]] = []   # (coverage, ink)
    pattern = CLOTH_PATTERNS[int(rng.integers(len(CLOTH_PATTERNS)))]
    if pattern == "gingham":
        width = rng.uniform(0.35, 0.6) * period
        layers += [(_stripes(a, period, width, 0.0) * strength, inks[0]),
                   (_stripes(b, period, width, 0.0) * strength, inks[0])]
    elif pattern == "tartan":
        for coord in (a, b):
            for k in range(int(rng.integers(2, 4))):
                width = max(rng.uniform(0.05, 0.3) * period, 1.0)
                layers.append((_stripes(coord, period, width, rng.uniform(0, period))
                               * strength, inks[k % 2]))
    elif pattern == "pinstripe":
        width = rng.uniform(1.0, max(1.2, 0.25 * period))
        layers.append((_stripes(a, max(period, 2.5 * width), width, 0.0), inks[0]))
    elif pattern == "check":
        sa, sb = np.sin(np.pi * a / period), np.sin(np.pi * b / period)
        edge = period / np.pi   # ~1 px soft edge
        layers.append((np.clip(0.5 + 0.5 * edge * sa * sb / np.maximum(
            np.hypot(sa, sb), 1e-3), 0.0, 1.0) * strength, inks[0]))
    else:
        da = np.mod(a, period) - 0.5 * period
        db = np.mod(b + (np.floor(a / period) % 2) * 0.5 * period, period) - 0.5 * period
        d = np.hypot(da, db)
        r = rng.uniform(0.15, 0.4) * period
        cov = np.clip(r - d + 0.5, 0.0, 1.0)
        if rng.random() < 0.5:   # rings: lace
            cov = cov - np.clip(0.6 * r - d + 0.5, 0.0, 1.0)
        layers.append((cov * strength, inks[0]))
    refl = np.ones((h, w, 3))
    for cov, ink in layers:
        refl *= 1.0 - cov[..., None] * (1.0 - ink / white)
    # the weave: threads over and under every ~2.5 px, and soft folds across the cloth
    weave = rng.uniform(2.0, 3.0)
    refl *= (1.0 + rng.uniform(0.02, 0.06) * np.sin(2 * np.pi * a / weave)
             * np.sin(2 * np.pi * b / weave))[..., None]
    fold = rng.uniform(1.5, 5.0) * card_px
    refl *= (1.0 - rng.uniform(0.0, 0.08) * (0.5 + 0.5 * np.sin(2 * np.pi * (
        np.cos(1.3 * turn) * u + np.sin(1.3 * turn) * v) / fold)))[..., None]
    return (refl * white).astype(np.float32)


# plain tables' colours, BGR: white laminate, a sheet of paper, pale grey, beige, pale birch
PLAIN_TABLES = ((246, 246, 244), (250, 250, 250), (208, 210, 210), (200, 222, 232),
                (190, 214, 226))


def plain_table(rng: np.random.Generator, size: tuple[int, int] = SIZE) -> np.ndarray:
    """A plain pale table (float BGR, `size`): one of `PLAIN_TABLES`, a little off, under a
    soft linear gradient of light (to 15 % across the picture), with a faint fine grain (a
    laminate's or a sheet's, deviation 1-3 levels). Drawn from scratch, nothing of
    `companion.synth`."""
    w, h = size
    base = np.array(PLAIN_TABLES[int(rng.integers(len(PLAIN_TABLES)))], np.float64)
    base = np.clip(base * rng.uniform(0.97, 1.02, 3), 0, 255)
    turn = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    ramp = (np.cos(turn) * (xx / w - 0.5) + np.sin(turn) * (yy / h - 0.5))
    light = 1.0 + rng.uniform(0.0, 0.15) * ramp
    grain = rng.normal(0.0, rng.uniform(1.0, 3.0), (h, w, 1))
    return np.clip(base * light[..., None] + grain, 0, 255).astype(np.float32)


def _layout(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    """A connected set of n cells grown from (0, 0), favouring cells with many neighbours."""
    cells = [(0, 0)]
    while len(cells) < n:
        have = set(cells)
        free = sorted({(q + dq, r + dr) for q, r in cells for dq, dr in DIRS} - have)
        touch = np.array([sum((q + dq, r + dr) in have for dq, dr in DIRS) for q, r in free])
        w = touch.astype(float) ** 3
        cells.append(free[int(rng.choice(len(free), p=w / w.sum()))])
    return cells


def _axial(q: float, r: float) -> np.ndarray:
    """Axial cell (or step) (q, r) on the plane, in lattice steps (E along x)."""
    return np.array([q + r / 2.0, r * math.sqrt(3.0) / 2.0])


def _drift(cells: list[tuple[int, int]], laid: float, rng: np.random.Generator
           ) -> dict[tuple[int, int], np.ndarray]:
    """Each cell's offset from its lattice place, in lattice steps, when the cards are laid by
    hand in `cells`' order (`Variant.laid`): a card is put against the first card already down
    beside it, off by that card's offset plus its own gap (up to `laid` of a step along the
    step between them, turned up to 3°). Empty where `laid` is 0."""
    if not laid:
        return {}
    out = {cells[0]: np.zeros(2)}
    for cell in cells[1:]:
        parent = next(c for c in out if (cell[0] - c[0], cell[1] - c[1]) in DIRS)
        dq, dr = cell[0] - parent[0], cell[1] - parent[1]
        step = _axial(dq, dr)
        turn = math.radians(rng.uniform(-3.0, 3.0))
        c, s = math.cos(turn), math.sin(turn)
        gap = rng.uniform(0.0, laid) * np.array([c * step[0] - s * step[1],
                                                 s * step[0] + c * step[1]])
        out[cell] = out[parent] + gap
    return out


def _homography(rng: np.random.Generator, perspective: float = 1.2e-4,
                size: tuple[int, int] = SIZE) -> np.ndarray:
    """Plane px -> image px: a perspective about the frame centre (`Variant.perspective`)."""
    cx, cy = size[0] / 2.0, size[1] / 2.0
    p = rng.uniform(-1, 1, 2) * perspective
    shear = np.array([[1.0 + rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04), 0.0],
                      [rng.uniform(-0.04, 0.04), 1.0 + rng.uniform(-0.04, 0.04), 0.0],
                      [p[0], p[1], 1.0]])
    t = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1.0]])
    return t @ shear @ np.linalg.inv(t)


@dataclass(frozen=True)
class _Marker:
    """A table marker laid on the plane: its picture (BGRA, quiet zone included), the affine
    map from its pixels to plane px, its centre there and the radius it covers."""

    image: np.ndarray
    to_plane: np.ndarray
    centre: np.ndarray
    reach: float


MARKER_TO_CARD = 40.0 / 64.0   # a 40 mm marker beside a card 64 mm across the flats
MARKER_TURN_DEG = 8.0


def _marker_places(hom: np.ndarray, card_px: float, rng: np.random.Generator,
                   size: tuple[int, int] = SIZE) -> list[_Marker]:
    """The four table markers (ids 0-3: top-left, top-right, bottom-right, bottom-left) on the
    plane, laid by hand: each a little inside its corner of the picture, up to a third of its
    side off that place and turned up to MARKER_TURN_DEG (so they mark no exact rectangle)."""
    side = MARKER_TO_CARD * card_px          # the black square, plane px
    module = side / 6.0
    quiet = 1.5 * module
    unit = 40                                # marker picture px per module
    table = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    half = side / 2.0 + quiet
    inset = half * 1.15 + 10.0
    w, h = size
    corners = np.array([[inset, inset], [w - inset, inset], [w - inset, h - inset],
                        [inset, h - inset]])
    plane = _apply(np.linalg.inv(hom), corners) + rng.uniform(-1, 1, (4, 2)) * side / 3.0
    out = []
    for marker_id, centre in enumerate(plane):
        code = cv2.aruco.generateImageMarker(table, marker_id, 6 * unit)
        pad = round(1.5 * unit)
        paper = np.full((6 * unit + 2 * pad, 6 * unit + 2 * pad, 4), 255, np.uint8)
        paper[..., :3] = (238, 245, 247)      # the cards' paper, BGR
        paper[pad:pad + 6 * unit, pad:pad + 6 * unit, :3] = np.where(
            code[..., None] > 127, paper[pad, pad, :3], 30)
        # picture px -> plane px: scaled, turned about the picture's middle, moved to `centre`
        s = (side + 2 * quiet) / paper.shape[0]
        turn = math.radians(rng.uniform(-MARKER_TURN_DEG, MARKER_TURN_DEG))
        a = s * np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        t = centre - a @ np.array([paper.shape[1] / 2.0, paper.shape[0] / 2.0])
        to_plane = np.array([[a[0, 0], a[0, 1], t[0]], [a[1, 0], a[1, 1], t[1]],
                             [0.0, 0.0, 1.0]])
        out.append(_Marker(paper, to_plane, centre, half * math.sqrt(2.0)))
    return out


def _paste(img: np.ndarray, picture: np.ndarray, m: np.ndarray) -> np.ndarray:
    """`img` (float BGR) with `picture` (BGRA) laid on it through homography `m`."""
    warped = cv2.warpPerspective(picture, m, img.shape[1::-1], flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    return img + (warped[..., :3].astype(np.float32) - img) * alpha


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    q = np.c_[pts, np.ones(len(pts))] @ h.T
    return q[:, :2] / q[:, 2:3]


def _rotate_cell(cell: tuple[int, int], k: int) -> tuple[int, int]:
    q, r = cell
    for _ in range(k % 6):
        q, r = q + r, -q
    return (q, r)


def heldout_scene(seed: int, max_cards: int = 20, variant: Variant = Variant(),
                  backgrounds: tuple[str, ...] = BACKGROUNDS, single_kinds: bool = False
                  ) -> HeldOut:
    """One held-out table, deterministic by seed (and variant), on a crop of one of the
    photographs `backgrounds` (unless the variant lays a cloth or a plain table).
    `single_kinds`: the same table, printer and light with only the edition's three single-kind
    cards on it (RRRRRR, BBBBBB and the third letter's, at the first three cells; the truth
    still lists the table as drawn without), as `companion calibrate colours` learns a print
    from."""
    rng = np.random.default_rng([seed, 424242])
    edition = seed_edition(seed)
    letters = list(SYMBOLS[edition])
    card_px = float(rng.uniform(*variant.card_px))
    # faces rendered at a multiple of FACE_PX no smaller than the card (a close-up stays sharp)
    face_px = FACE_PX * math.ceil(card_px / FACE_PX)
    pitch = card_px * (1.0 + max(variant.margin, 0.0)) * (1.0 + rng.uniform(*variant.gap))
    theta = rng.uniform(-math.pi, math.pi)
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    size = variant.frame
    hom = _homography(rng, variant.perspective, size)
    # lattice centre somewhere near the frame centre; keep the cards whose corners stay inside
    origin = np.array(size, float) / 2.0 + rng.uniform(-60, 60, 2)
    margin = 0.2 * card_px + 8
    circum = card_px / math.sqrt(3.0)
    corner_ang = np.radians(-60.0 * np.arange(6) - 30.0)

    layout = _layout(rng, 200)
    drift = _drift(layout, variant.laid, np.random.default_rng([seed, 7272]))

    def centre_of(cell):
        q, r = cell
        return origin + rot @ (pitch * (_axial(q, r) + drift.get(cell, 0.0)))

    markers = (_marker_places(hom, card_px, np.random.default_rng([seed, 4040]), size)
               if variant.markers else [])

    def fits(cell):
        c = centre_of(cell)
        pts = _apply(hom, c + 1.05 * circum * np.c_[np.cos(corner_ang), np.sin(corner_ang)])
        clear = all(np.linalg.norm(c - m.centre) > 1.05 * circum + m.reach for m in markers)
        return clear and bool(((pts >= margin) & (pts <= np.array(size) - margin)).all())

    cells = [c for c in layout if fits(c)]
    # keep a connected part through the first fitting cell, up to max_cards
    cells = _connected(cells)[:max_cards]
    img = _background(rng, size, backgrounds).astype(np.float32)
    if variant.cloth:   # (its own stream: the rest of the table is drawn as without it)
        img = cloth(np.random.default_rng([seed, 5151]), hom, card_px, size)
    if variant.plain:   # (likewise)
        img = plain_table(np.random.default_rng([seed, 5252]), size)
    for m in markers:
        img = _paste(img, m.image, hom @ m.to_plane)
    printed = _printer(seed, variant.printer, variant.pale)
    # the real-card extras, each from its own stream (the table is laid as without them)
    extra = {k: np.random.default_rng([seed, 6100 + i]) for i, k in enumerate(
        ("sleeves", "curl", "halftone", "lens", "lowlight", "dirt"))}
    dirty = set(extra["dirt"].permutation(len(cells))[:variant.dirt].tolist())
    truth_table = {}
    outlines = {}
    for cell in cells:
        symbols = "".join(rng.choice(letters, 6))
        kind = cells.index(cell) if single_kinds else len(letters)   # (a single-kind card's)
        if kind < len(letters):
            symbols = letters[kind] * 6   # (drawn all the same: the table as without)
        k = int(rng.integers(6))
        jitter = rng.uniform(-1, 1, 2) * variant.jitter * card_px
        ang = theta - math.radians(60.0 * k) + math.radians(rng.uniform(-variant.turn_deg,
                                                                         variant.turn_deg))
        face = _face(symbols, edition, variant.margin, face_px)
        if variant.printer:
            face = printed(face)
        if variant.mono:
            face = grey_print(face)
        if len(dirty) and cells.index(cell) in dirty:
            face = _dirt(face, extra["dirt"])
        if variant.halftone:
            face = _halftone(face, extra["halftone"], face_px / card_px)
        pad = 0
        if variant.curl:
            face, pad = _curl(face, extra["curl"], variant.curl)
        s = card_px / face_px
        a = s * np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        t = centre_of(cell) + jitter - a @ (face_centre(face_px) + pad)
        m = hom @ np.array([[a[0, 0], a[0, 1], t[0]], [a[1, 0], a[1, 1], t[1]], [0, 0, 1]])
        if not single_kinds or kind < len(letters):
            img = _paste(img, face, m)
        truth_table[cell] = symbols[6 - k:] + symbols[:6 - k] if k else symbols
        outlines[cell] = _apply(m, face_centre(face_px) + pad + face_px / math.sqrt(3.0) * np.c_[
            np.cos(corner_ang), np.sin(corner_ang)])
    if variant.sleeves:
        for cell in cells:
            img = _sleeve(img, extra["sleeves"], outlines[cell])
    # (one cover for arms and fingertips alike: a card either hides counts as occluded)
    cover = np.zeros(img.shape[:2], np.float32)
    for _ in range(variant.hands):
        img, cover = _hand(img, cover, rng, card_px)
    for _ in range(variant.fingers):
        img, cover = _fingertip(img, cover, rng, outlines[cells[int(rng.integers(len(cells)))]])
    visible = {c: _visible_share(outlines[c], cover) for c in cells}
    for _ in range(variant.glare):
        img = _glare(img, rng, card_px)
    # the lattice direction nearest image-right at the layout's centre
    mid = np.mean([centre_of(c) for c in cells], axis=0)
    angles = []
    for dq, dr in DIRS:
        step = rot @ (pitch * _axial(dq, dr))
        a, b = _apply(hom, np.array([mid, mid + step]))
        angles.append(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])))
    d0 = int(np.argmin(np.abs(angles)))
    truth = tuple(TruthCard(_rotate_cell(c, -d0), s[d0:] + s[:d0], visible[c])
                  for c, s in truth_table.items())
    if variant.scale != 1.0:
        img = cv2.resize(img, None, fx=variant.scale, fy=variant.scale,
                         interpolation=cv2.INTER_CUBIC if variant.scale > 1 else cv2.INTER_AREA)
    isp = None
    if variant.lens:
        img = _lens(img, extra["lens"])
        isp = _phone_isp(extra["lens"])
    if variant.lowlight:
        dim, phone = _low_light(extra["lowlight"]), isp
        isp = dim if phone is None else (lambda x: phone(dim(x)))
    img = camera(img, rng, variant.shadows, lamp=variant.lamp, motion=variant.motion, isp=isp,
                 shadow_depth=variant.shadow_depth)
    return HeldOut(img, truth, edition, card_px * variant.scale)


def scored(scene: HeldOut, model: ColourModel | None = None
           ) -> tuple[TableScore, HexelObservation]:
    """A fresh reader's reading of a held-out table (with the colour model `model`, else the
    built-in one) and its score against the truth."""
    from companion.vision.reader import HexelReader

    obs = HexelReader(scene.edition, model=model).read(scene.image).observation
    return score_table(obs.cards, scene.truth), obs


def _connected(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Cells reachable from the first one, in breadth-first order."""
    if not cells:
        return []
    have, out, todo = set(cells), [cells[0]], [cells[0]]
    seen = {cells[0]}
    while todo:
        q, r = todo.pop(0)
        for dq, dr in DIRS:
            n = (q + dq, r + dr)
            if n in have and n not in seen:
                seen.add(n)
                out.append(n)
                todo.append(n)
    return out


def camera(img: np.ndarray, rng: np.random.Generator, shadows: int = 0, *, lamp: bool = False,
           motion: bool = False, isp=None, shadow_depth: tuple[float, float] = SHADOW_DEPTH
           ) -> np.ndarray:
    """Colour cast, light gradient, `shadows` soft shadows (each dimming by a share drawn from
    `shadow_depth`), blur, noise, JPEG (the held-out Hexapod cases use it too); `lamp` first
    relights the picture (`_lamp`), `motion` smears it (`_smear`) after the lens blur, `isp` (a
    function of the float picture, drawing from its own stream) processes it after the noise,
    before the JPEG, as a phone does. Without them the random draws are today's, so every
    existing held-out picture stays the same."""
    if lamp:
        img = _lamp(img, rng)
    h, w = img.shape[:2]
    cast = rng.uniform(0.75, 1.15, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    ramp = (math.cos(ang) * (xx / w - 0.5) + math.sin(ang) * (yy / h - 0.5))
    gain = rng.uniform(0.8, 1.1) * (1.0 + rng.uniform(0, 0.4) * ramp)
    for _ in range(shadows):
        # an oval dimmed by 30-55 % (or `shadow_depth`), its edge soft over a third of its size
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rx, ry = rng.uniform(80, 300, 2) * (w / SIZE[0])
        d = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2
        gain = gain * (1.0 - rng.uniform(*shadow_depth) * np.clip(1.5 - d, 0.0, 1.0))
    img = img * gain[..., None] * cast
    sigma = rng.uniform(0.3, 1.0)
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    if motion:
        img = _smear(img, rng)
    img += rng.normal(0, rng.uniform(1.0, 4.0), img.shape).astype(np.float32)
    if isp is not None:
        img = isp(img)
    out = np.clip(img, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def blackbody_rgb(kelvin: float) -> np.ndarray:
    """Linear sRGB (green = 1) of a black body at `kelvin`, 1667-25000 K: its CIE 1931
    chromaticity by Kim et al.'s cubic fit of the Planckian locus, then XYZ -> linear sRGB."""
    t = float(kelvin)
    if t <= 4000.0:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222.0:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000.0:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    xyz = np.array([x / y, 1.0, (1.0 - x - y) / y])
    rgb = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415],
                    [0.0557, -0.2040, 1.0570]]) @ xyz
    return rgb / rgb[1]


def _lamp(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The picture relit by a lamp of 2700-6500 K through a camera white-balanced for 5000 K,
    exposed 0.6-1.5 times: channel gains applied in linear light (sRGB's 2.2 power). Light past
    the sensor's range is kept: `camera` clips once, at capture, after its own cast and gain
    (clipped here, a channel the gain then dims would land below the clip and hide it)."""
    gains = blackbody_rgb(rng.uniform(2700.0, 6500.0)) / blackbody_rgb(5000.0)
    gains = (gains / gains.max() * rng.uniform(0.6, 1.5))[::-1].astype(np.float32)  # BGR
    return relight(img, gains)


def relight(img: np.ndarray, gains_bgr: np.ndarray) -> np.ndarray:
    """`img` (sRGB-encoded BGR, float) with each channel's light scaled by `gains_bgr` in linear
    light (sRGB's 2.2 power), left above 255 where it over-exposes for `camera` to clip (the
    held-out Hexapod lamp uses it too)."""
    return 255.0 * ((np.clip(img, 0, 255) / 255.0) ** 2.2 * gains_bgr) ** (1 / 2.2)


def _smear(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A line blur 4-12 px long in any direction (the camera or the table moved)."""
    n = int(rng.integers(4, 13))
    k = np.zeros((n + 1, n + 1), np.float32)
    ang = rng.uniform(0, math.pi)
    c = n / 2.0
    ends = [(round(c + s * c * math.cos(ang)), round(c + s * c * math.sin(ang)))
            for s in (-1, 1)]
    cv2.line(k, ends[0], ends[1], 1.0, 1, cv2.LINE_AA)
    return cv2.filter2D(img, -1, k / k.sum())


SKIN_SLEEVE_BGR = ((185, 200, 235), (130, 165, 215), (90, 125, 180), (55, 80, 120),
                   (235, 235, 232), (60, 60, 62), (150, 90, 40), (40, 40, 140))


def _hand(img: np.ndarray, cover: np.ndarray, rng: np.random.Generator, card_px: float
          ) -> tuple[np.ndarray, np.ndarray]:
    """An arm (1.1-1.7 cards wide, a hand at its end) reaching 20-55 % into the picture from a
    random edge, skin from pale to dark or a sleeve (white too), shaded like a cylinder, with
    a soft shadow 25-45 % deep beside it; `cover` accumulates where it hides the table."""
    h, w = img.shape[:2]
    side = int(rng.integers(4))
    t = rng.uniform(0.15, 0.85)
    start = np.array([(t * w, -20.0), (w + 20.0, t * h), (t * w, h + 20.0), (-20.0, t * h)][side])
    inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][side], float)
    ang = rng.uniform(-0.5, 0.5)
    direction = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]]
                         ) @ inward
    reach = rng.uniform(0.2, 0.55) * (h if side in (0, 2) else w)
    end = start + direction * reach
    width = rng.uniform(1.1, 1.7) * card_px
    mask = np.zeros((h, w), np.uint8)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 255,
             max(int(width), 2), cv2.LINE_AA)
    axes = (int(0.8 * width), int(0.6 * width))
    cv2.ellipse(mask, tuple(int(v) for v in end + 0.3 * width * direction), axes,
                math.degrees(math.atan2(direction[1], direction[0])), 0, 360, 255, -1,
                cv2.LINE_AA)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.2)
    offset = rng.uniform(-0.4, 0.4, 2) * card_px
    shift = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(soft, shift, (w, h)), (0, 0), 0.3 * card_px)
    img = img * (1.0 - rng.uniform(0.25, 0.45) * shadow)[..., None]
    # cylinder shading across the arm: brightest along its axis
    normal = np.array([-direction[1], direction[0]])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = ((xx - start[0]) * normal[0] + (yy - start[1]) * normal[1]) / (0.5 * width)
    shade = 0.72 + 0.28 * np.sqrt(np.clip(1.0 - across**2, 0.0, 1.0))
    colour = np.array(SKIN_SLEEVE_BGR[int(rng.integers(len(SKIN_SLEEVE_BGR)))], np.float32)
    arm = colour * shade[..., None] * rng.uniform(0.85, 1.1)
    img = img + (arm - img) * soft[..., None]
    return img, np.maximum(cover, soft)


# a fingertip's skin or sleeve (SKIN_SLEEVE_BGR), or a pen, a phone or a grey sleeve
OBJECT_BGR = (*SKIN_SLEEVE_BGR, (70, 70, 70), (100, 100, 100), (130, 130, 130), (160, 160, 160))


def _fingertip(img: np.ndarray, cover: np.ndarray, rng: np.random.Generator,
               outline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fingertip or a pen (0.18-0.26 of the card wide, flat, a round tip) laid from beyond
    the card (`outline`: its image corners) across one edge onto that edge's symbol, its tip
    0.5-0.75 of the way from the card's centre to the edge, up to 30° off the edge's normal;
    skin, a sleeve or a grey object. `cover` accumulates where it hides the table."""
    centre = outline.mean(axis=0)
    e = int(rng.integers(6))
    normal = 0.5 * (outline[e] + outline[(e + 1) % 6]) - centre
    apothem = float(np.linalg.norm(normal))
    tip = centre + rng.uniform(0.5, 0.75) * normal
    turn = math.radians(rng.uniform(-30.0, 30.0))
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    root = tip + 2.0 * rot @ normal
    width = rng.uniform(0.36, 0.52) * apothem
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.line(mask, tuple(int(v) for v in tip), tuple(int(v) for v in root), 255,
             max(int(width), 2), cv2.LINE_AA)
    cv2.circle(mask, tuple(int(v) for v in tip), max(int(width / 2), 1), 255, -1, cv2.LINE_AA)
    soft = mask.astype(np.float32) / 255.0
    colour = np.array(OBJECT_BGR[int(rng.integers(len(OBJECT_BGR)))], np.float32)
    img = img + (colour * rng.uniform(0.75, 1.05) - img) * soft[..., None]
    return img, np.maximum(cover, soft)


def _glare(img: np.ndarray, rng: np.random.Generator, card_px: float) -> np.ndarray:
    """A specular spot (a lamp mirrored in glossy print): a Gaussian 0.3-1.2 cards wide adding
    up to 120-230 levels of the lamp's own light."""
    h, w = img.shape[:2]
    cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.3, 1.2) * card_px
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2.0 * r * r))
    return img + rng.uniform(120.0, 230.0) * spot[..., None]


def _dirt(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A face (BGRA) soiled by one mark anywhere on it: a pencil scribble (a wavy grey stroke
    1-2 % of the card wide, 35-65 % dark), a coffee ring (a brown ring 0.25-0.5 of the card
    across, darker at its rim, its inside faintly tinted) or a crease (a line right across
    the card, lit on one side and shaded on the other, the paper beyond it a little dimmer)."""
    out = face.copy()
    h, w = face.shape[:2]
    px = float(w)
    bgr = out[..., :3].astype(np.float32)
    mask = np.zeros((h, w), np.float32)
    kind = int(rng.integers(3))
    if kind == 0:
        start = np.array([w, h]) * rng.uniform(0.2, 0.8, 2)
        ang, n = rng.uniform(0, 2 * math.pi), int(rng.integers(8, 20))
        pts = [start]
        for _ in range(n):
            ang += rng.uniform(-0.9, 0.9)
            pts.append(pts[-1] + rng.uniform(0.02, 0.06) * px * np.array([math.cos(ang),
                                                                         math.sin(ang)]))
        cv2.polylines(mask, [np.round(np.array(pts) * 16).astype(np.int32)], False, 1.0,
                      max(int(rng.uniform(0.01, 0.02) * px), 1), cv2.LINE_AA, 4)
        grey = np.array([70, 70, 75], np.float32)
        bgr += (grey - bgr) * (mask * rng.uniform(0.35, 0.65))[..., None]
    elif kind == 1:
        c = np.array([w, h]) * rng.uniform(0.2, 0.8, 2)
        r = rng.uniform(0.125, 0.25) * px
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = np.hypot(xx - c[0], yy - c[1])
        rim = np.exp(-((d - r) / max(0.012 * px, 1.0)) ** 2)
        fill = np.clip(r - d, 0.0, 1.0)
        strength = rng.uniform(0.3, 0.6)
        brown = np.array([0.55, 0.72, 0.88], np.float32)   # a coffee stain's transmittance
        bgr *= 1.0 - (1.0 - brown) * (strength * (rim + 0.3 * fill))[..., None]
    else:
        ang = rng.uniform(0, math.pi)
        nrm = np.array([math.cos(ang), math.sin(ang)])
        c = np.array([w, h]) * rng.uniform(0.3, 0.7, 2)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = (xx - c[0]) * nrm[0] + (yy - c[1]) * nrm[1]
        width = max(0.01 * px, 1.0)
        ridge = rng.uniform(0.15, 0.35) * np.tanh(d / width) * np.exp(-(d / (3 * width)) ** 2)
        beyond = np.where(d > 0, rng.uniform(0.0, 0.1), 0.0)
        bgr *= (1.0 + ridge - beyond)[..., None]
    out[..., :3] = np.clip(bgr, 0, 255).astype(np.uint8)
    return out


def _halftone(face: np.ndarray, rng: np.random.Generator, face_per_px: float) -> np.ndarray:
    """A face (BGRA) printed in dots: each of cyan, magenta and yellow (1 - R, G, B of the
    paper's white) set where its coverage exceeds a screen, either an inkjet's random dither
    or a laser's dot screen (15°, 75°, 0°) whose dots lie 0.8-2 picture px apart
    (`face_per_px`: face px per picture px), each ink's solid 85-95 % dense, the dots spread
    a little (a blur of a third of their pitch)."""
    h, w = face.shape[:2]
    bgr = face[..., :3].astype(np.float32)
    paper = np.maximum(bgr[face[..., 3] > 128].max(axis=0), 1.0)
    cover = np.clip(1.0 - bgr / paper, 0.0, 1.0)
    pitch = rng.uniform(0.8, 2.0) * face_per_px
    if rng.random() < 0.5:
        screen = rng.random((h, w, 3)).astype(np.float32)
    else:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        screen = np.empty((h, w, 3), np.float32)
        for ch, deg in enumerate((0.0, 75.0, 15.0)):   # B<-yellow, G<-magenta, R<-cyan
            t = math.radians(deg + rng.uniform(-2, 2))
            u = (math.cos(t) * xx + math.sin(t) * yy) / pitch
            v = (-math.sin(t) * xx + math.cos(t) * yy) / pitch
            screen[..., ch] = 0.5 - 0.25 * (np.cos(2 * np.pi * u) + np.cos(2 * np.pi * v))
    ink = (cover > screen).astype(np.float32)
    ink = cv2.GaussianBlur(ink, (0, 0), max(pitch / 3.0, 0.3))
    dense = rng.uniform(0.85, 0.95)
    out = face.copy()
    out[..., :3] = np.clip(paper * (1.0 - dense * ink), 0, 255).astype(np.uint8)
    return out


def _curl(face: np.ndarray, rng: np.random.Generator, amount: float
          ) -> tuple[np.ndarray, int]:
    """A face (BGRA) not lying flat, as the camera sees it: bent about a random axis, one side
    lifted (drawn up to `amount` of the card larger there) and its edges bowed (up to
    `amount` of the card), shaded across the bend (up to 20 % lighter or darker towards the
    lifted side, dimmer in the trough). Returns the face on a canvas padded by the returned
    px each side."""
    w = face.shape[1]
    pad = math.ceil(1.5 * amount * w) + 2
    big = cv2.copyMakeBorder(face, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0, 0))
    hh, ww = big.shape[:2]
    yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
    r = 0.5 * w
    cx, cy = ww / 2.0, hh / 2.0
    ang = rng.uniform(0, 2 * math.pi)
    n = np.array([math.cos(ang), math.sin(ang)], np.float32)
    s = ((xx - cx) * n[0] + (yy - cy) * n[1]) / r
    t = (-(xx - cx) * n[1] + (yy - cy) * n[0]) / r
    lift = rng.uniform(0.3, 1.0) * amount
    bow = rng.uniform(-1.0, 1.0) * amount
    disp = r * (lift * np.clip(s, 0, None) ** 2 + bow * (t ** 2 - 1.0 / 3.0))
    mx, my = xx - disp * n[0], yy - disp * n[1]
    out = cv2.remap(big, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=(0, 0, 0, 0))
    gain = 1.0 + rng.uniform(-0.2, 0.2) * np.clip(s, -1, 1) - rng.uniform(0, 0.1) * (
        1.0 - np.clip(s, -1, 1) ** 2)
    out[..., :3] = np.clip(out[..., :3] * gain[..., None], 0, 255).astype(np.uint8)
    return out, pad


def _sleeve(img: np.ndarray, rng: np.random.Generator, outline: np.ndarray) -> np.ndarray:
    """A card (`outline`: its image corners) in a glossy plastic sleeve: a clear edge 3-6 %
    beyond the card (the table through it a little lighter, its cut edge a bright line), a
    haze of 3-12 levels over it all, a broad specular gradient (0-70 levels from one side to
    the other) and a soft sheen band (0.1-0.35 of the card wide, 40-150 levels at its
    middle) across it, in the lamp's own light."""
    h, w = img.shape[:2]
    centre = outline.mean(axis=0)
    span = float(np.linalg.norm(outline[0] - outline[3]))
    outer = centre + (outline - centre) * (1.0 + rng.uniform(0.03, 0.06))
    x0, y0 = np.maximum(np.floor(outer.min(axis=0)).astype(int) - 3, 0)
    x1, y1 = np.minimum(np.ceil(outer.max(axis=0)).astype(int) + 4, [w, h])
    if x1 <= x0 or y1 <= y0:
        return img
    sleeve = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(sleeve, np.round((outer - [x0, y0]) * 16).astype(np.int32), 255,
                       cv2.LINE_AA, 4)
    card = np.zeros_like(sleeve)
    cv2.fillConvexPoly(card, np.round((outline - [x0, y0]) * 16).astype(np.int32), 255,
                       cv2.LINE_AA, 4)
    sl, cd = sleeve.astype(np.float32) / 255.0, card.astype(np.float32) / 255.0
    edge = np.zeros_like(sleeve)
    cv2.polylines(edge, [np.round((outer - [x0, y0]) * 16).astype(np.int32)], True, 255, 1,
                  cv2.LINE_AA, 4)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    u = ((xx - centre[0]) * math.cos(ang) + (yy - centre[1]) * math.sin(ang)) / (0.5 * span)
    band_at, band_w = rng.uniform(-0.8, 0.8), rng.uniform(0.1, 0.35)
    ang2 = ang + rng.uniform(-0.6, 0.6)
    u2 = ((xx - centre[0]) * math.cos(ang2) + (yy - centre[1]) * math.sin(ang2)) / (0.5 * span)
    light = (rng.uniform(3, 12) + rng.uniform(0, 70) * 0.5 * (1.0 + np.clip(u, -1, 1))
             + rng.uniform(40, 150) * np.exp(-0.5 * ((u2 - band_at) / band_w) ** 2))
    roi = img[y0:y1, x0:x1]
    ring = np.clip(sl - cd, 0.0, 1.0)
    roi = roi + (235.0 - roi) * (0.12 * ring)[..., None]
    roi = roi + (light * sl + rng.uniform(30, 70) * edge / 255.0)[..., None]
    out = img.copy()
    out[y0:y1, x0:x1] = roi
    return out


def _lens(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A phone's lens: lateral chromatic aberration (red and blue drawn 1-2.5 px apart at the
    corners, in opposite senses, growing with the distance from the centre) and strong
    vignetting (cos^4-like, the corners 35-60 % dimmer)."""
    h, w = img.shape[:2]
    cx, cy = w / 2.0, h / 2.0
    rmax = math.hypot(cx, cy)
    shift = rng.uniform(1.0, 2.5) * rng.choice([-1, 1]) * (w / SIZE[0]) / rmax
    out = img.copy()
    for ch, k in ((2, shift / 2.0), (0, -shift / 2.0)):
        m = np.float32([[1 + k, 0, -k * cx], [0, 1 + k, -k * cy]])
        out[..., ch] = cv2.warpAffine(img[..., ch], m, (w, h), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / rmax**2
    corner = rng.uniform(0.4, 0.65)            # the corners' share of the centre's light
    f2 = 1.0 / (corner ** -0.5 - 1.0)          # 1 / (1 + 1/f2)^2 = corner
    return out * (1.0 / (1.0 + r2 / f2) ** 2)[..., None]


def _phone_isp(rng: np.random.Generator):
    """A phone's processing of the picture (float BGR) before its JPEG: HDR tone mapping
    (the light at a large scale compressed by a power 0.2-0.45, shadows lifted), saturation
    boosted 1.15-1.5 times about each pixel's grey, then heavy unsharp masking (1.0-2.0 of a
    1-2 px Gaussian's detail added back: halos at every edge)."""
    alpha = rng.uniform(0.2, 0.45)
    sat = rng.uniform(1.15, 1.5)
    amount, sigma = rng.uniform(1.0, 2.0), rng.uniform(1.0, 2.0)

    def isp(img: np.ndarray) -> np.ndarray:
        img = np.clip(img, 0, None)
        lum = img.mean(axis=2)
        h, w = lum.shape   # (the large-scale light from an eighth-size copy)
        small = cv2.resize(lum, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), 0.05 / 8 * max(h, w))
        base = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR) + 1.0
        img = img * ((base / 128.0) ** -alpha)[..., None]
        grey = img.mean(axis=2, keepdims=True)
        img = grey + sat * (img - grey)
        return img + amount * (img - cv2.GaussianBlur(img, (0, 0), sigma))

    return isp


def _low_light(rng: np.random.Generator):
    """A dim room at high ISO, as a phone processes it (float BGR, before its JPEG): exposed
    0.08-0.25 times in linear light and amplified back, with shot noise (a full-exposure
    signal of 200-1000 electrons) and read noise in each channel apart (colour noise), then
    a phone's denoise: the chroma blurred 2-4 px (the colour noise left in blotches) and the
    light smoothed a little (a bilateral filter)."""
    expo = rng.uniform(0.08, 0.25)
    full = rng.uniform(200.0, 1000.0)
    read = rng.uniform(2.0, 6.0)
    chroma_sigma = rng.uniform(2.0, 4.0)
    noise_rng = np.random.default_rng(rng.integers(1 << 31))

    def dim(img: np.ndarray) -> np.ndarray:
        lin = (np.clip(img, 0, 255) / 255.0) ** 2.2 * expo * full   # electrons
        lin = lin + noise_rng.normal(0.0, 1.0, lin.shape).astype(np.float32) * np.sqrt(
            lin + read**2)
        img = 255.0 * np.clip(lin / (expo * full), 0, None) ** (1 / 2.2)
        ycc = cv2.cvtColor(np.clip(img, 0, 255).astype(np.float32) / 255.0,
                           cv2.COLOR_BGR2YCrCb)
        ycc[..., 1] = cv2.GaussianBlur(ycc[..., 1], (0, 0), chroma_sigma)
        ycc[..., 2] = cv2.GaussianBlur(ycc[..., 2], (0, 0), chroma_sigma)
        ycc[..., 0] = cv2.bilateralFilter(ycc[..., 0], 5, 0.08, 3)
        return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR) * 255.0

    return dim


def _visible_share(outline: np.ndarray, cover: np.ndarray) -> float:
    """The share of a card's hexagon (image corners) that `cover` leaves in view."""
    x0, y0 = np.floor(outline.min(axis=0)).astype(int)
    x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + 1
    h, w = cover.shape
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0              # wholly beyond the picture: nothing of it in view
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round((outline - [x0, y0]) * 16).astype(np.int32), 1,
                       cv2.LINE_8, 4)
    area = inside.sum()
    hidden = (cover[y0:y1, x0:x1] > 0.02)[inside > 0].sum()
    return float(1.0 - hidden / max(area, 1))


def main(argv: list[str] | None = None) -> None:
    """Print the reader's figures on held-out tables: `python tests/vision/heldout.py [--seeds N]
    [--start S] [--variant NAME] [--backgrounds unseen] [--edition E]` (seeds S..S+N-1; see
    `VARIANTS`; `unseen`: the tables laid on `UNSEEN_BACKGROUNDS`; `--edition`: only that
    edition's seeds, the even ones holodex, the odd ones web)."""
    import argparse

    from companion.referee.proposal import unclear

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="default")
    ap.add_argument("--backgrounds", choices=("ours", "unseen"), default="ours")
    ap.add_argument("--edition", choices=("holodex", "web"), default=None,
                    help="only the seeds of this edition (default: both)")
    ap.add_argument("--calibrate", action="store_true",
                    help="learn the print's colours first, as `companion calibrate colours` "
                    "does, from the same table, printer and light with only the three "
                    "single-kind cards on it (`heldout_scene`'s `single_kinds`)")
    args = ap.parse_args(argv)
    names = UNSEEN_BACKGROUNDS if args.backgrounds == "unseen" else BACKGROUNDS
    full = correct = misreads = false = exact = hidden = hidden_read = judged = 0
    unnamed = refused = tables = 0
    for seed in range(args.start, args.start + args.seeds):
        if args.edition is not None and seed_edition(seed) != args.edition:
            continue
        tables += 1
        variant = VARIANTS[args.variant]
        model = None
        if args.calibrate:
            from companion.vision.learn_inks import learn_colours

            kinds = heldout_scene(seed, variant=variant, backgrounds=names, single_kinds=True)
            try:
                model = learn_colours(kinds.image, kinds.edition)
            except ValueError:
                refused += 1
        s, obs = scored(heldout_scene(seed, variant=variant, backgrounds=names), model)
        unnamed += obs.unnamed_ink > 0
        full, correct, misreads = full + s.full, correct + s.correct, misreads + s.misreads
        false, exact = false + s.false_cards, exact + int(s.exact)
        hidden, hidden_read = hidden + s.occluded_truth, hidden_read + s.occluded_read
        judged += s.misreads if unclear(obs) is None else 0
    last = args.start + args.seeds - 1
    print(f"{args.variant}{' (unseen backgrounds)' * (names is UNSEEN_BACKGROUNDS)}, "
          f"seeds {args.start}-{last}{f' ({args.edition})' if args.edition else ''}: "
          f"{100.0 * correct / max(full, 1):.2f} % per "
          f"card ({correct}/{full}), {100.0 * exact / max(tables, 1):.0f} % tables exact, "
          f"{misreads} misreads ({judged} on tables the referee would judge), {false} false "
          "cards"
          + (f"; {hidden} cards partly under a hand, {hidden_read} of them read right anyway"
             if hidden else "")
          + (f"; {unnamed} tables with an ink no letter names (`HexelObservation.unnamed_ink`)"
             if unnamed else "")
          + (f"; calibrated ({refused} calibrations refused: read without)"
             if args.calibrate else ""))


if __name__ == "__main__":
    main()
