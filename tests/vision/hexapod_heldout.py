"""A held-out check for the Hexapod reader (not a test module), independent of
`companion.synth.hexapod_scene`: the PNGs that `companion cards export --game hexapod` writes (the
case boards with their markers and the card faces, read back from disk with their manifest) are
composed here — cards laid on the board in a legal order (`companion.scenarios.hexapod_cases`),
each off its grid position by a random shift and turn — and the board is pasted onto a real
photograph bundled with scikit-image through a random homography (any turn, mild perspective,
cells of 22-40 px), then a colour cast, a light gradient, blur, noise and JPEG. A `Variant`
changes how the cards are laid (sloppy), how the boards are photographed (tilted, small, two
boards each with its own homography), the light (a 2800-6500 K lamp with its exposure, soft
shadows) and what is in the way (an arm reaching over the board); `python
tests/vision/hexapod_heldout.py --seeds 100 --variant NAME` prints the reader's figures.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.scenarios import hexapod_cases
from companion.vision.observation import UNKNOWN

if __package__:
    from . import heldout as _heldout
else:  # run as a script: python tests/vision/hexapod_heldout.py
    sys.path.insert(0, str(Path(__file__).parent))
    import heldout as _heldout  # type: ignore[no-redef]

UNSEEN_BACKGROUNDS = _heldout.UNSEEN_BACKGROUNDS
_apply, _printer, camera = _heldout._apply, _heldout._printer, _heldout.camera
cloth, grey_print = _heldout.cloth, _heldout.grey_print
photo_crop, relight = _heldout.photo_crop, _heldout.relight

BACKGROUNDS = ("coffee", "astronaut", "rocket", "chelsea", "brick", "grass", "gravel", "camera")
SIZE = (1280, 720)
# skin tones and sleeve colours (BGR, as lit by the same light as the board's white paper)
SKINS = ((95, 125, 190), (80, 110, 170), (60, 85, 135), (120, 150, 210), (45, 60, 95))
SLEEVES = ((90, 40, 30), (60, 60, 60), (40, 40, 150), (50, 110, 50), (25, 25, 30),
           (170, 160, 150), (40, 120, 200))
# sleeves of one neutral grey, black cloth to white (the `grey-sleeves` variant)
GREYS = tuple((v, v, v) for v in (25, 45, 60, 90, 110, 130, 150, 180, 200, 215, 230))
# an arm's cell is hidden when any of its pixels is this much arm (alpha), and so is a marker
HIDDEN_ALPHA = 0.02


@dataclass(frozen=True)
class Variant:
    """How the cards are laid and the boards photographed, beyond the default picture: the cards'
    largest shift off their grid position (`shift`, fraction of a cell, per axis) and turn
    (`turn_deg`), the homography's largest perspective term (`perspective`, per px; for a lens
    about 1000 px across its focal length 1e-4 is a lean of ~6°, 4e-4 ~22°), the cells' size in
    the picture (`cell_px`), a lamp of 2800-6500 K seen by a camera white-balanced for 5000 K
    with an exposure of 0.6-1.5 that clips (`lamp`), soft shadows (`shadows`, as
    `heldout.camera`, each dimming by a share drawn from `shadow_depth`), an arm reaching from
    a picture edge over the board (`hand`; of one neutral grey from black to white, `GREYS`,
    with `grey_arms`), both players' boards in one picture, each with its own pose (`two`),
    and `glare` specular spots of the light
    mirrored in the glossy cards, each over a random point of the first board's grid
    (`_glare_spot`).

    Pictures taken otherwise (drawn from their own random stream, so every picture of the
    variants above stays bit-identical): each card in a glossy plastic sleeve 1-3 mm larger
    than the card on each side, with a soft sheen band across it, a faint haze, a rim and its
    own faint shadow line (`sleeves`, `_sleeve`); a card's edge lifted off the board, a thin
    soft shadow along it and shading across the card near it (`curl`, `_curl_shadow`,
    `_curl_shade`); another printer's hue shift and a pale office print (`heldout`'s
    'office' recolouring: `printed`); a CMY halftone screen of 30-45 lines per inch, which the
    camera's pixels then integrate (`halftone`, `_halftone`); lens chromatic aberration (red
    and blue scaled about the picture's centre: fringes of 0.7-2 px at the corners) and
    strong vignetting (the corners at 35-70 % of the centre's light) (`lens`, `_lens`); a
    phone's processing after capture: local (HDR) tone mapping, a saturation boost of
    1.15-1.5 and sharpening halos (`phone`, `_phone`); low light: an exposure of 0.3-0.6
    brought back by the camera's gain with its high-ISO noise, fine and blotchy colour noise
    (`lowlight`, `_low_light`); a 4:3 12 MP picture (`size` 4032 x 3024, half of them
    portrait with `portrait`) of cells `cell_px` across; and a white patterned tablecloth
    (`heldout.cloth`) under the board instead of a photograph (`cloth`); the cards and boards
    printed by a black-and-white printer (`mono`: each pixel its luminance in all three
    channels)."""

    shift: float = 0.22
    turn_deg: float = 2.0
    perspective: float = 1.0e-4
    cell_px: tuple[float, float] = (22.0, 40.0)
    lamp: bool = False
    shadows: int = 0
    shadow_depth: tuple[float, float] = _heldout.SHADOW_DEPTH
    hand: bool = False
    two: bool = False
    grey_arms: bool = False
    glare: int = 0
    sleeves: bool = False
    curl: bool = False
    printed: bool = False
    halftone: bool = False
    lens: bool = False
    phone: bool = False
    lowlight: bool = False
    size: tuple[int, int] = SIZE
    portrait: bool = False
    cloth: bool = False
    mono: bool = False


VARIANTS = {
    "default": Variant(),
    "sloppy": Variant(shift=1.0 / 3.0, turn_deg=5.0),
    "tilted": Variant(perspective=4.0e-4),
    "small": Variant(cell_px=(16.0, 24.0)),
    "lamp": Variant(lamp=True),
    "shadowed": Variant(shadows=2),
    "deep-shadowed": Variant(shadows=2, shadow_depth=(0.55, 0.75)),
    "hand": Variant(hand=True),
    "two": Variant(two=True),
    "grey-sleeves": Variant(hand=True, grey_arms=True),
    "glare": Variant(glare=1),
    "sleeved": Variant(sleeves=True),
    "curled": Variant(curl=True),
    "printed": Variant(printed=True, halftone=True),
    "lens": Variant(lens=True),
    "phone": Variant(phone=True),
    "lowlight": Variant(lowlight=True),
    "12mp": Variant(size=(4032, 3024), portrait=True, cell_px=(60.0, 150.0), halftone=True),
    "cloth": Variant(cloth=True),
    "sleeved-phone": Variant(sleeves=True, curl=True, lens=True, phone=True),
    "office-lowlight": Variant(printed=True, halftone=True, lowlight=True, lens=True),
    "mono": Variant(mono=True),
    "mono-lamp": Variant(mono=True, lamp=True, hand=True),
}


@dataclass(frozen=True, eq=False)
class HeldOutBoard:
    """One board in a picture: its player, the grid the camera should read, which cells an arm
    covers (partly: such a cell may be read right or '?'), how many of its markers are wholly
    in view, its homography (board mm, origin at the grid's top-left -> image px) and cell
    size."""

    player: int
    grid: tuple[tuple[str, ...], ...]
    hidden: np.ndarray
    markers_seen: int
    mm_to_px: np.ndarray
    cell_px: float


@dataclass(frozen=True, eq=False)
class HeldOutCase:
    """One composed picture and the grid the camera should read (player 1's board; all boards
    in `boards`)."""

    image: np.ndarray
    player: int
    grid: tuple[tuple[str, ...], ...]
    cell_px: float
    boards: tuple[HeldOutBoard, ...] = field(default=())
    arm_bgr: tuple[float, float, float] | None = None   # the arm's colour (`Variant.hand`)


@lru_cache(maxsize=4)
def _export(folder: str) -> tuple[dict, dict[str, np.ndarray], tuple[np.ndarray, ...], float]:
    """(manifest, face id -> BGR image, boards p1, p2 BGR, px per mm) of an export folder."""
    root = Path(folder)
    manifest = json.loads((root / "manifest.json").read_text())
    faces = {f["id"]: cv2.imread(str(root / f["file"]), cv2.IMREAD_COLOR)
             for f in manifest["faces"] if f.get("cells")}
    boards = tuple(cv2.imread(str(root / b["file"]), cv2.IMREAD_COLOR)
                   for b in manifest["boards"])
    return manifest, faces, boards, manifest["dpi"] / 25.4


def _affine(a: np.ndarray, t: np.ndarray) -> np.ndarray:
    return np.array([[a[0, 0], a[0, 1], t[0]], [a[1, 0], a[1, 1], t[1]], [0.0, 0.0, 1.0]])


def _to_px(meta: dict, ppm: float) -> np.ndarray:
    """Board mm -> sheet px (pixel centres at (i + 0.5) / ppm from the sheet's corner)."""
    x0, y0 = meta["sheet_mm"][:2]
    return np.array([[ppm, 0.0, -x0 * ppm - 0.5], [0.0, ppm, -y0 * ppm - 0.5], [0, 0, 1.0]])


def _lay(board: np.ndarray, meta: dict, ppm: float, faces: dict, case, rng: np.random.Generator,
         variant: Variant, mine: np.random.Generator | None = None
         ) -> tuple[np.ndarray, list[list[str]]]:
    """The board sheet (float BGR) with `case`'s cards laid on it in order, each off its grid
    position by a random shift and turn, and the grid they make; sleeved or curled as
    `variant` says, with draws from `mine` (the new variants' own stream)."""
    cell = meta["cell_mm"]
    sheet = board.astype(np.float32)
    to_px = _to_px(meta, ppm)
    grid = [["."] * 6 for _ in range(6)]
    for card in case.cards:
        face = faces[card.name]
        fh, fw = face.shape[:2]
        ang = math.radians(rng.uniform(-variant.turn_deg, variant.turn_deg))
        shift = rng.uniform(-variant.shift, variant.shift, 2) * cell
        w_mm, h_mm = 2 * cell, 3 * cell
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        centre = np.array([(card.col + 1) * cell, (card.row + 1.5) * cell]) + shift
        # face px -> card mm (centred) -> board mm -> sheet px
        k = w_mm / fw
        face_to_mm = _affine(np.eye(2) * k, np.array([(0.5 * k) - w_mm / 2, (0.5 * k) - h_mm / 2]))
        m = to_px @ _affine(rot, centre) @ face_to_mm
        warped = cv2.warpPerspective(face, m, (sheet.shape[1], sheet.shape[0]),
                                     flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m,
                                   (sheet.shape[1], sheet.shape[0]), flags=cv2.INTER_LINEAR)
        alpha = mask.astype(np.float32)[..., None] / 255.0
        card_to_px = to_px @ _affine(rot, centre)     # card mm (centred) -> sheet px
        side = -1
        if variant.curl and mine is not None and mine.random() < 0.6:
            side = int(mine.integers(4))
            sheet = _curl_shadow(sheet, card_to_px, (w_mm, h_mm), side, ppm, mine)
        laid = warped.astype(np.float32)
        if side >= 0:
            laid = _curl_shade(laid, card_to_px, (w_mm, h_mm), side, mine)
        sheet += (laid - sheet) * alpha
        if variant.sleeves and mine is not None:
            sheet = _sleeve(sheet, card_to_px, (w_mm, h_mm), ppm, mine)
        for dy, line in enumerate(card.rows):
            for dx, code in enumerate(line):
                grid[card.row + dy][card.col + dx] = code
    return sheet, grid


def _paste(img: np.ndarray, sheet: np.ndarray, hom: np.ndarray,
           size: tuple[int, int] = SIZE) -> None:
    """Paste `sheet` into `img` (float, in place, `size` across) through `hom` (sheet px ->
    image px)."""
    warped = cv2.warpPerspective(sheet, hom, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones(sheet.shape[:2], np.float32), hom, size,
                               flags=cv2.INTER_LINEAR)[..., None]
    img += (warped - img) * mask


def _similarity(cell_px: float, cell_sheet_px: float, theta: float, mid: np.ndarray,
                place: np.ndarray) -> np.ndarray:
    """Sheet px -> image px: turned by `theta`, cells `cell_px` across, sheet centre at place."""
    s = cell_px / cell_sheet_px
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]]) * s
    return _affine(rot, place - rot @ mid)


def _perspective(p: np.ndarray, about: np.ndarray) -> np.ndarray:
    """A perspective homography with terms `p`, fixing the point `about`."""
    persp = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [p[0], p[1], 1.0]])
    c = np.array([[1, 0, -about[0]], [0, 1, -about[1]], [0, 0, 1.0]])
    return np.linalg.inv(c) @ persp @ c


def heldout_case(folder: str | Path, seed: int, variant: Variant = Variant(),
                 backgrounds: tuple[str, ...] = BACKGROUNDS) -> HeldOutCase:
    """A picture of player 1's case (both players' with `variant.two`), deterministic by seed
    and variant, from the export in `folder`, on a crop of one of the photographs
    `backgrounds` (unless the variant lays a cloth)."""
    manifest, faces, boards, ppm = _export(str(folder))
    rng = np.random.default_rng([seed, 515151])
    extra = np.random.default_rng([seed, 515151, 2])   # the variants' own draws
    mine = np.random.default_rng([seed, 515151, 3])    # pictures taken otherwise
    size = variant.size
    if variant.portrait and mine.random() < 0.5:
        size = size[::-1]
    if variant.printed:
        printer = _printer(seed, 8.0, 0.4)
        faces = {k: printer(f) for k, f in faces.items()}
        boards = tuple(printer(b) for b in boards)
    if variant.mono:
        faces = {k: grey_print(f) for k, f in faces.items()}
        boards = tuple(grey_print(b) for b in boards)
    if variant.halftone:
        lpi = mine.uniform(30.0, 45.0)
        faces = {k: _halftone(f, ppm, lpi) for k, f in faces.items()}
        boards = tuple(_halftone(b, ppm, lpi) for b in boards)
    metas = manifest["boards"][:2 if variant.two else 1]
    cases = hexapod_cases(seed, int(rng.integers(4, 15)), players=len(metas))
    laid = [_lay(boards[i], meta, ppm, faces, cases[i], rng, variant, mine)
            for i, meta in enumerate(metas)]
    # the sheets onto a photograph: any turn, mild perspective
    cell_px = float(rng.uniform(*variant.cell_px))
    if variant.halftone:
        # the camera's pixels integrate the print's dots (a Gaussian of half a pixel)
        sigma = 0.5 * metas[0]["cell_mm"] * ppm / cell_px
        laid = [(cv2.GaussianBlur(sheet, (0, 0), sigma), grid) for sheet, grid in laid]
    homs = []
    if not variant.two:
        sheet = laid[0][0]
        mid = np.array([sheet.shape[1], sheet.shape[0]]) / 2.0
        theta = rng.uniform(-math.pi, math.pi)
        place = np.array(size, float) / 2.0 + rng.uniform(-60, 60, 2)
        sim = _similarity(cell_px, metas[0]["cell_mm"] * ppm, theta, mid, place)
        p = rng.uniform(-1, 1, 2) * variant.perspective
        homs.append(_perspective(p, place) @ sim)
    else:
        # one camera over both boards (one perspective about the frame's centre), each board
        # at its own place and turn, side by side
        p = rng.uniform(-1, 1, 2) * variant.perspective
        persp = _perspective(p, np.array(SIZE, float) / 2.0)
        for i, (sheet, _) in enumerate(laid):
            mid = np.array([sheet.shape[1], sheet.shape[0]]) / 2.0
            px = cell_px * extra.uniform(0.92, 1.08)
            place = np.array([SIZE[0] * (0.27 + 0.46 * i), SIZE[1] / 2.0]) + extra.uniform(
                -30, 30, 2)
            theta = extra.uniform(-math.pi, math.pi)
            homs.append(persp @ _similarity(px, metas[i]["cell_mm"] * ppm, theta, mid, place))
    img = photo_crop(rng, backgrounds, size).astype(np.float32)
    mm_to_px = [hom @ _to_px(meta, ppm) for hom, meta in zip(homs, metas, strict=True)]
    if variant.cloth:
        # the cloth's plane in px of the board's scale (a card 2 cells across)
        mm = metas[0]["cell_mm"] / cell_px
        img = cloth(mine, mm_to_px[0] @ np.diag([mm, mm, 1.0]), 2.0 * cell_px)
    for (sheet, _), hom in zip(laid, homs, strict=True):
        _paste(img, sheet, hom, size)
    arm, arm_bgr = np.zeros(size[::-1], np.float32), None
    if variant.hand:
        img, arm, arm_bgr = _arm(img, mm_to_px[0], extra, GREYS if variant.grey_arms else None)
    if variant.lamp:
        img = _lamp(img, extra)
    for _ in range(variant.glare):
        img = _glare_spot(img, mm_to_px[0], metas[0]["cell_mm"], extra)
    if variant.lens:
        img = _lens(img, mine)
    out = camera(img, rng, variant.shadows, shadow_depth=variant.shadow_depth)
    if variant.phone or variant.lowlight:
        out = _after_capture(out, mine, variant)
    result = []
    for (_, grid), meta, m in zip(laid, metas, mm_to_px, strict=True):
        hidden, seen = _covered(arm, m, meta)
        result.append(HeldOutBoard(meta["player"], tuple(tuple(r) for r in grid), hidden, seen,
                                   m, float(_cell_size(m, meta["cell_mm"]))))
    first = result[0]
    return HeldOutCase(out, first.player, first.grid, cell_px, tuple(result), arm_bgr)


@lru_cache(maxsize=4)
def _chart(folder: str) -> tuple[np.ndarray, float]:
    """(the exported colour chart, BGR; its px per mm) of an export folder."""
    root = Path(folder)
    manifest = json.loads((root / "manifest.json").read_text())
    return (cv2.imread(str(root / manifest["colour_chart"]["file"]), cv2.IMREAD_COLOR),
            manifest["dpi"] / 25.4)


def chart_photo(folder: str | Path, seed: int, variant: Variant = Variant(),
                chart: np.ndarray | None = None) -> np.ndarray:
    """A photo of the exported colour chart printed by the printer that printed `variant`'s
    cards for `seed` (`heldout._printer`, the same draw; our print when not `printed`), with
    the variant's halftone, lamp, lens and after-capture processing, on a table photograph,
    through the same camera model (`heldout.camera`): the chart's sheet is 0.5-0.65 of the
    frame's height, turned by up to 12 degrees, with mild perspective, exposed at 0.65-0.8 of
    the table's exposure (a camera metering a frame that a white sheet fills, or the user
    retaking the photo that `calibrate colours` refused as over-exposed). Its draws come from
    a stream of its own, so the variant's pictures stay as they are. `chart`: a changed copy
    of the exported chart image to print instead (the same px per mm)."""
    exported, ppm = _chart(str(folder))
    chart = exported if chart is None else chart
    rng = np.random.default_rng([seed, 515151, 9])
    size = variant.size
    if variant.printed:
        chart = _printer(seed, 8.0, 0.4)(chart)
    if variant.halftone:
        chart = _halftone(chart, ppm, rng.uniform(30.0, 45.0))
    chart = chart.astype(np.float32)
    scale = rng.uniform(0.5, 0.65) * size[1] / chart.shape[0]    # image px per chart px
    if variant.halftone:
        chart = cv2.GaussianBlur(chart, (0, 0), 0.5 / scale)
    mid = np.array([chart.shape[1], chart.shape[0]]) / 2.0
    place = np.array(size, float) / 2.0 + rng.uniform(-40, 40, 2)
    sim = _similarity(scale, 1.0, math.radians(rng.uniform(-12.0, 12.0)), mid, place)
    hom = _perspective(rng.uniform(-1, 1, 2) * 1.0e-4, place) @ sim
    img = photo_crop(rng, BACKGROUNDS, size).astype(np.float32)
    _paste(img, chart, hom, size)
    img *= np.float32(rng.uniform(0.65, 0.8))
    if variant.lamp:
        img = _lamp(img, rng)
    if variant.lens:
        img = _lens(img, rng)
    out = camera(img, rng, variant.shadows, shadow_depth=variant.shadow_depth)
    if variant.phone or variant.lowlight:
        out = _after_capture(out, rng, variant)
    return out


def board_band(scene, x0: float, x1: float, y0: float) -> np.ndarray:
    """The picture's pixels (uint8 mask) of a band of the first board from x0 to x1 mm and from
    y0 mm down past the bottom of the frame (an arm reaching in from the player's side)."""
    board = scene.boards[0]
    quad = np.array([(x0, y0), (x1, y0), (x1, 2000.0), (x0, 2000.0)], float)
    q = np.c_[quad, np.ones(4)] @ board.mm_to_px.T
    mask = np.zeros(scene.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(q[:, :2] / q[:, 2:3] * 16).astype(np.int32), 255,
                       cv2.LINE_AA, 4)
    return mask


def flat_over_band(scene, paper_share) -> np.ndarray:
    """The picture (uint8) with a flat thing (a sleeve, an arm) lying over the first board's
    band from 56 to 140 mm and from 28 mm down (`board_band`: columns 2-4 from row 1), of
    `paper_share` (a number, or per channel B G R) of the paper's colour (the picture's 99th
    percentile), its edges softened by a 0.7 px blur."""
    mask = board_band(scene, 56.0, 140.0, 28.0).astype(np.float32)[..., None] / 255.0
    paper = np.percentile(scene.image.reshape(-1, 3), 99, axis=0)
    over = scene.image * (1.0 - mask) + paper_share * paper * mask
    return cv2.GaussianBlur(np.clip(over, 0, 255).astype(np.uint8), (0, 0), 0.7)


def soft_band(scene) -> np.ndarray:
    """`flat_over_band`'s band as a soft-edged weight (H x W x 1 float, 1 inside), blurred by
    0.3 of a cell: a shadow's or a second light's."""
    return cv2.GaussianBlur(board_band(scene, 56.0, 140.0, 28.0).astype(np.float32) / 255.0,
                            (0, 0), 0.3 * scene.cell_px)[..., None]


def wrong_cells(grid, truth) -> list[tuple[int, int, str, str]]:
    """(row, col, truth, read) of every cell of `grid` read as a code other than `truth`'s and
    not '?'."""
    return [(r, c, truth[r][c], got) for r, row in enumerate(grid) for c, got in enumerate(row)
            if got not in (truth[r][c], UNKNOWN)]


def _cell_size(mm_to_px: np.ndarray, cell_mm: float) -> float:
    """The mean side of a grid cell in the picture (px)."""
    w = 6 * cell_mm
    q = _apply(mm_to_px, np.array([(0.0, 0.0), (w, 0.0), (w, w), (0.0, w)]))
    return float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)) / 6.0)


def _arm(img: np.ndarray, mm_to_px: np.ndarray, rng: np.random.Generator,
         colours: tuple[tuple[int, int, int], ...] | None = None
         ) -> tuple[np.ndarray, np.ndarray, tuple[float, float, float]]:
    """`img` with an arm (a forearm 2.2-3 cells wide ending in a hand, skin or sleeve coloured,
    shaded as a cylinder, with its soft shadow on the table) reaching from a picture edge, on
    the player's side of the board, to a point over its grid, and the arm's alpha."""
    cell = _cell_size(mm_to_px, 28.0)
    # the player reaches from their side of the board (its bottom edge), 50° either way
    tip_mm = rng.uniform(-14.0, 182.0, 2)
    back = math.radians(90.0 + rng.uniform(-50.0, 50.0))
    tip, behind = _apply(mm_to_px, np.array([tip_mm, tip_mm + 10.0 * np.array(
        [math.cos(back), math.sin(back)])]))
    d = (behind - tip) / np.linalg.norm(behind - tip)
    ang = math.atan2(d[1], d[0])
    # from the tip along d to beyond the frame's edge
    far = tip + d * 2.0 * (SIZE[0] + SIZE[1])
    half = 0.5 * rng.uniform(2.2, 3.0) * cell
    n = np.array([-d[1], d[0]])
    ss = 4    # sub-pixel bits for the polygon
    mask = np.zeros(SIZE[::-1], np.uint8)
    poly = np.array([tip + n * half, far + n * half, far - n * half, tip - n * half])
    cv2.fillConvexPoly(mask, np.round(poly * (1 << ss)).astype(np.int32), 255, cv2.LINE_AA, ss)
    hand = tip - d * 0.4 * half
    axes = (round(1.6 * half * (1 << ss)), round(1.2 * half * (1 << ss)))
    cv2.ellipse(mask, tuple(np.round(hand * (1 << ss)).astype(int).tolist()), axes,
                math.degrees(ang), 0.0, 360.0, 255, -1, cv2.LINE_AA, ss)
    alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 0.8)
    # the arm's shadow: the same shape, offset and soft, dimming the table by 25-45 %
    off = rng.uniform(0.3, 1.0) * cell * np.array([math.cos(rng.uniform(0, 2 * math.pi)),
                                                   math.sin(rng.uniform(0, 2 * math.pi))])
    shift = np.float32([[1, 0, off[0]], [0, 1, off[1]]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(alpha, shift, SIZE), (0, 0), 0.3 * cell)
    lit = img * (1.0 - rng.uniform(0.25, 0.45) * shadow)[..., None]
    pool = SKINS if rng.random() < 0.6 else SLEEVES
    pool = colours or pool
    colour = np.asarray(pool[int(rng.integers(len(pool)))], np.float32)
    colour = colour * rng.uniform(0.85, 1.15)
    yy, xx = np.mgrid[0:SIZE[1], 0:SIZE[0]].astype(np.float32)
    across = ((xx - tip[0]) * n[0] + (yy - tip[1]) * n[1]) / (1.6 * half)
    shade = 0.75 + 0.3 * np.sqrt(np.clip(1.0 - across ** 2, 0.0, 1.0))
    skin = colour[None, None, :] * shade[..., None]
    a = alpha[..., None]
    return lit + (skin - lit) * a, alpha, tuple(float(v) for v in colour)


def _lamp(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`img` (sRGB-encoded BGR, float) as lit by a lamp of 2800-6500 K through a camera
    white-balanced for 5000 K (narrow-band R 610, G 550, B 465 nm: Planck's law gives each
    channel's gain), at an exposure of 0.6-1.5, in linear light; left above 255 where it
    over-exposes, for `camera` to clip after its own cast and gain, as the sensor clips the
    light it gets."""
    temp = rng.uniform(2800.0, 6500.0)
    lam = np.array([0.465, 0.550, 0.610])    # B, G, R in um
    c2 = 14388.0                             # um K

    def planck(t: float) -> np.ndarray:
        return 1.0 / np.expm1(c2 / (lam * t))

    gain = planck(temp) / planck(5000.0)
    gain = gain / gain[1] * rng.uniform(0.6, 1.5)
    return relight(img, gain.astype(np.float32))


def _glare_spot(img: np.ndarray, mm_to_px: np.ndarray, cell_mm: float,
                rng: np.random.Generator) -> np.ndarray:
    """`img` (float BGR) with a specular spot of the light mirrored in glossy print added: a
    round Gaussian of sigma 0.4-1.2 cells adding 100-230 levels of neutral light at its peak
    (the camera's cast and gain then tint and scale it as they do the paper, and clip it),
    centred on a random point of the board's 6 x 6 grid (`mm_to_px`: board mm -> picture px,
    cells of `cell_mm`)."""
    u, v = rng.uniform(0.0, 6.0, 2)
    cx, cy = _apply(mm_to_px, np.array([(u * cell_mm, v * cell_mm)]))[0]
    r = rng.uniform(0.4, 1.2) * _cell_size(mm_to_px, cell_mm)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2.0 * r * r))
    return img + rng.uniform(100.0, 230.0) * spot[..., None]


def _covered(arm: np.ndarray, mm_to_px: np.ndarray, meta: dict) -> tuple[np.ndarray, int]:
    """(6 x 6 bool: cells partly under the arm, markers wholly in view)."""
    cell = meta["cell_mm"]
    hidden = np.zeros((6, 6), bool)
    under = arm > HIDDEN_ALPHA
    if not under.any():
        return hidden, 4

    def touches(quad_mm: np.ndarray) -> bool:
        q = np.round(_apply(mm_to_px, quad_mm)).astype(np.int32)
        x0, y0 = np.maximum(q.min(axis=0), 0)
        x1, y1 = q.max(axis=0) + 1
        m = np.zeros((max(y1 - y0, 1), max(x1 - x0, 1)), np.uint8)
        cv2.fillConvexPoly(m, q - np.array([x0, y0], np.int32), 1)
        win = under[y0:y1, x0:x1]
        return bool((win & (m[:win.shape[0], :win.shape[1]] > 0)).any())

    for r in range(6):
        for c in range(6):
            hidden[r, c] = touches(cell * np.array([(c, r), (c + 1, r), (c + 1, r + 1),
                                                    (c, r + 1)], float))
    seen = sum(not touches(np.asarray(q, float)) for q in meta["marker_corners_mm"].values())
    return hidden, seen


def _poly_mask(shape: tuple[int, ...], quad: np.ndarray) -> np.ndarray:
    """A float mask (0-1, antialiased) of the polygon `quad` (px) over an image of `shape`."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    return mask.astype(np.float32) / 255.0


def _card_coords(shape: tuple[int, ...], card_to_px: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each sheet pixel's position in card mm (x, y: the card's centre at 0, its axes)."""
    h, w = shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    inv = np.linalg.inv(card_to_px)
    return (inv[0, 0] * xx + inv[0, 1] * yy + inv[0, 2],
            inv[1, 0] * xx + inv[1, 1] * yy + inv[1, 2])


def _sleeve(sheet: np.ndarray, card_to_px: np.ndarray, card_mm: tuple[float, float],
            ppm: float, rng: np.random.Generator) -> np.ndarray:
    """`sheet` with a glossy clear sleeve over the card just laid (`card_to_px`: card mm,
    centred -> sheet px; `card_mm` its width and height): the sleeve 1-3 mm larger than the
    card on each side, a faint haze (2-7 % towards white) over it, a rim lit brighter or
    darker by 10-40 levels, its faint shadow line (10-25 % darker, 0.3-0.8 mm off its edge
    away from the light) on what lies beside it, and a soft sheen band (sigma 2-8 mm, 20-70
    levels of neutral light at its middle) across it in any direction."""
    w, h = card_mm
    left, top, right, bottom = rng.uniform(1.0, 3.0, 4)
    quad_mm = np.array([(-w / 2 - left, -h / 2 - top), (w / 2 + right, -h / 2 - top),
                        (w / 2 + right, h / 2 + bottom), (-w / 2 - left, h / 2 + bottom)])
    quad = _apply(card_to_px, quad_mm)
    soft = cv2.GaussianBlur(_poly_mask(sheet.shape, quad), (0, 0), 0.25 * ppm)
    # the shadow line: the sleeve's outline moved away from the light, outside the sleeve
    ang = rng.uniform(0.0, 2.0 * math.pi)
    off = rng.uniform(0.3, 0.8) * ppm * np.array([math.cos(ang), math.sin(ang)])
    moved = cv2.GaussianBlur(_poly_mask(sheet.shape, quad + off), (0, 0), 0.3 * ppm)
    shadow = np.clip(moved - soft, 0.0, 1.0)
    out = sheet * (1.0 - rng.uniform(0.10, 0.25) * shadow)[..., None]
    out += (250.0 - out) * (rng.uniform(0.02, 0.07) * soft)[..., None]
    rim = 4.0 * soft * (1.0 - soft)
    out += (rng.choice([-1.0, 1.0]) * rng.uniform(10.0, 40.0) * rim)[..., None]
    x, y = _card_coords(sheet.shape, card_to_px)
    phi = rng.uniform(0.0, math.pi)
    d = (math.cos(phi) * (x - rng.uniform(-w / 2, w / 2))
         + math.sin(phi) * (y - rng.uniform(-h / 2, h / 2)))
    band = np.exp(-0.5 * (d / rng.uniform(2.0, 8.0)) ** 2)
    return out + (rng.uniform(20.0, 70.0) * band * soft)[..., None]


def _edge_distance(x: np.ndarray, y: np.ndarray, card_mm: tuple[float, float],
                   side: int) -> np.ndarray:
    """Distance (mm) inward from a card's side (0 left, 1 top, 2 right, 3 bottom)."""
    w, h = card_mm
    return (x + w / 2, y + h / 2, w / 2 - x, h / 2 - y)[side]


def _curl_shadow(sheet: np.ndarray, card_to_px: np.ndarray, card_mm: tuple[float, float],
                 side: int, ppm: float, rng: np.random.Generator) -> np.ndarray:
    """`sheet` with the thin shadow a card's lifted `side` casts beside it (before the card
    is laid on top): a strip 0.6-2 mm wide along that side, outside the card, 25-50 % darker,
    its edges soft over 0.3-0.6 mm."""
    x, y = _card_coords(sheet.shape, card_to_px)
    d = _edge_distance(x, y, card_mm, side)
    along = _edge_distance(x, y, card_mm, (side + 1) % 4) * _edge_distance(
        x, y, card_mm, (side + 3) % 4)
    strip = ((d < 0) & (d > -rng.uniform(0.6, 2.0)) & (along > 0)).astype(np.float32)
    strip = cv2.GaussianBlur(strip, (0, 0), rng.uniform(0.3, 0.6) * ppm)
    return sheet * (1.0 - rng.uniform(0.25, 0.5) * strip)[..., None]


def _curl_shade(card: np.ndarray, card_to_px: np.ndarray, card_mm: tuple[float, float],
                side: int, rng: np.random.Generator) -> np.ndarray:
    """The card's picture (warped onto the sheet) shaded where its `side` curls up: its light
    times 0.8-1.12 at that edge, back to 1 over 4-15 mm inward."""
    x, y = _card_coords(card.shape, card_to_px)
    d = _edge_distance(x, y, card_mm, side)
    ramp = np.clip(1.0 - d / rng.uniform(4.0, 15.0), 0.0, 1.0)
    return card * (1.0 + (rng.uniform(0.8, 1.12) - 1.0) * ramp)[..., None]


def _halftone(face: np.ndarray, ppm: float, lpi: float) -> np.ndarray:
    """A face or board (BGR uint8, `ppm` px per mm) printed as a CMY halftone screen of
    `lpi` lines per inch (cyan at 15°, magenta at 75°, yellow at 0°): each ink's share
    (against the paper, the channel's 99.5th percentile) thresholded by a round-dot screen,
    antialiased over a pixel."""
    h, w = face.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = 25.4 / lpi * ppm
    out = np.empty(face.shape, np.float32)
    for ch, deg in ((2, 15.0), (1, 75.0), (0, 0.0)):   # R <- cyan, G <- magenta, B <- yellow
        a = math.radians(deg)
        u = (math.cos(a) * xx + math.sin(a) * yy) * (2 * math.pi / period)
        v = (-math.sin(a) * xx + math.cos(a) * yy) * (2 * math.pi / period)
        screen = 0.5 - 0.25 * (np.cos(u) + np.cos(v))      # 0 at the dots' middles
        paper = max(float(np.percentile(face[..., ch], 99.5)), 1.0)
        ink = 1.0 - np.clip(face[..., ch].astype(np.float32) / paper, 0.0, 1.0)
        dot = np.clip((ink - screen) * (period / 1.5) + 0.5, 0.0, 1.0)
        out[..., ch] = paper * (1.0 - dot)
    return np.clip(out, 0, 255).astype(np.uint8)


def _lens(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`img` (float BGR) through a cheap lens: strong vignetting (cos^4-like, the corners at
    35-70 % of the centre's light, in linear light) and lateral chromatic aberration (red and
    blue scaled about the centre in opposite directions, 0.7-2 px apart from green at the
    corners)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    half = math.hypot(w / 2.0, h / 2.0)
    r2 = ((xx - w / 2.0) ** 2 + (yy - h / 2.0) ** 2) / half ** 2
    corner = rng.uniform(0.35, 0.7)
    t2 = corner ** -0.5 - 1.0
    gain = (1.0 + t2 * r2) ** -2.0
    out = img * (gain ** (1 / 2.2))[..., None]
    k = rng.choice([-1.0, 1.0]) * rng.uniform(0.7, 2.0) / half
    for ch, s in ((2, 1.0 + k), (0, 1.0 - k)):
        m = np.float32([[s, 0, (1 - s) * w / 2.0], [0, s, (1 - s) * h / 2.0]])
        out[..., ch] = cv2.warpAffine(np.ascontiguousarray(out[..., ch]), m, (w, h),
                                      flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return out


def _after_capture(out: np.ndarray, rng: np.random.Generator, variant: Variant) -> np.ndarray:
    """The camera's picture (uint8) processed as a phone does, then saved as JPEG again
    (quality 80-95): with `variant.lowlight`, high-ISO noise as the gain that brings back an
    exposure of 0.3-0.6 leaves it (shot noise in linear light, and colour noise of 4-12
    levels, fine or blotchy over 1-3 px, as a denoiser leaves it); with `variant.phone`,
    local (HDR) tone mapping (log luminance less 0.3-0.6 of its blur over 2-5 % of the
    picture), a saturation boost of 1.15-1.5 and sharpening (an unsharp mask of 0.5-1.2 over
    0.8-1.6 px), which rings at edges."""
    img = out.astype(np.float32)
    h, w = img.shape[:2]
    if variant.lowlight:
        gain = 1.0 / rng.uniform(0.3, 0.6)
        lin = (img / 255.0) ** 2.2
        lin += rng.normal(0.0, 1.0, img.shape).astype(np.float32) * np.sqrt(
            lin * 0.002 * gain + 1e-6)
        img = 255.0 * np.clip(lin, 0.0, 1.0) ** (1 / 2.2)
        blotch = cv2.GaussianBlur(rng.normal(0.0, 1.0, img.shape).astype(np.float32), (0, 0),
                                  rng.uniform(1.0, 3.0))
        img += blotch / max(float(blotch.std()), 1e-6) * rng.uniform(4.0, 12.0)
    if variant.phone:
        y = np.maximum(img @ np.float32([0.114, 0.587, 0.299]), 1.0)
        log_y = np.log(y)
        base = cv2.GaussianBlur(log_y, (0, 0), rng.uniform(0.02, 0.05) * max(w, h))
        mapped = log_y - rng.uniform(0.3, 0.6) * (base - float(np.median(base)))
        img = img * np.exp(mapped - log_y)[..., None]
        y = (img @ np.float32([0.114, 0.587, 0.299]))[..., None]
        img = y + rng.uniform(1.15, 1.5) * (img - y)
        img += rng.uniform(0.5, 1.2) * (img - cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 1.6)))
    img = np.clip(img, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@dataclass
class Figures:
    """The reader's figures over held-out pictures (see `main`)."""

    cells: int = 0
    right: int = 0
    visible: int = 0
    visible_unread: int = 0
    wrong: int = 0
    hidden: int = 0
    hidden_wrong: int = 0
    cases: int = 0
    found: int = 0
    exact: int = 0
    false_cases: int = 0
    unscored_wrong: int = 0
    judged_wrong: int = 0
    failures: list = field(default_factory=list)

    def add(self, seed: int, truth: HeldOutBoard, got, judged: bool = False) -> None:
        """Score one board (`got`: the reader's grid, None when its case was not found;
        `judged`: the referee would judge the case as read, `hexapod_proposal.judged_case`)."""

        if truth.markers_seen < 3:
            if got is not None:
                self.unscored_wrong += sum(got[r][c] not in (code, UNKNOWN)
                                           for r, row in enumerate(truth.grid)
                                           for c, code in enumerate(row))
            return
        self.cases += 1
        self.found += got is not None
        unread, wrong, hidden_wrong = [], [], []
        for r, row in enumerate(truth.grid):
            for c, code in enumerate(row):
                read = got[r][c] if got is not None else UNKNOWN
                self.cells += 1
                if truth.hidden[r, c]:
                    self.hidden += 1
                    ok = read in (code, UNKNOWN)
                    if not ok:
                        hidden_wrong.append((r, c, code, read))
                else:
                    self.visible += 1
                    ok = read == code
                    if read == UNKNOWN:
                        unread.append((r, c, code))
                    elif not ok:
                        wrong.append((r, c, code, read))
                self.right += ok
        self.visible_unread += len(unread) if got is not None else 0
        self.wrong += len(wrong)
        self.hidden_wrong += len(hidden_wrong)
        self.judged_wrong += (len(wrong) + len(hidden_wrong)) if judged else 0
        self.exact += got is not None and not (unread or wrong or hidden_wrong)
        if got is None:
            self.failures.append((seed, truth.player, "case not found", []))
        elif wrong or hidden_wrong:
            self.failures.append((seed, truth.player, "wrong code", wrong + hidden_wrong))
        elif unread:
            self.failures.append((seed, truth.player, "cell '?'", unread))

    def line(self, name: str, first: int, last: int) -> str:
        """The figures on one line."""
        return (f"{name}, seeds {first}-{last}: {100.0 * self.right / max(self.cells, 1):.2f} % "
                f"per cell ({self.right}/{self.cells}), {self.visible_unread} visible '?', "
                f"{self.wrong} wrong codes, {self.hidden_wrong} hidden read wrong (of "
                f"{self.hidden}; {self.judged_wrong} of the wrong on cases the referee would "
                f"judge), cases found {self.found}/{self.cases}, exact {self.exact}/"
                f"{self.cases}, false cases {self.false_cases}, unscored wrong "
                f"{self.unscored_wrong}")


def main(argv: list[str] | None = None) -> None:
    """Print the Hexapod reader's figures on held-out pictures: `python
    tests/vision/hexapod_heldout.py [--seeds N] [--start S] [--variant NAME] [--backgrounds
    unseen]` (seeds S..S+N-1; see `VARIANTS`; `unseen`: on `heldout.UNSEEN_BACKGROUNDS`):
    per cell (a hidden cell counts right when '?'), visible cells '?', wrong codes, hidden
    cells read wrong (and how many of the wrong lie on cases the referee would judge), cases
    found and exact."""
    import argparse
    import tempfile

    from companion.commands.cards import GAMES, export
    from companion.referee.hexapod_proposal import judged_case
    from companion.vision.hexapod import HexapodReader
    from companion.vision.hexapod_calibrate import cell_params, learn_chart

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="default")
    ap.add_argument("--export", help="an export folder to use (default: export to a temporary "
                    "folder at 120 dpi)")
    ap.add_argument("--show-failures", action="store_true")
    ap.add_argument("--calibrate", action="store_true",
                    help="for each seed, photograph the colour chart printed by that seed's "
                    "printer (`chart_photo`), learn the inks from it (`calibrate colours --game "
                    "hexapod`) and read the pictures with them")
    ap.add_argument("--backgrounds", choices=("ours", "unseen"), default="ours",
                    help="unseen: the pictures never laid under a board while tuning "
                    "(`heldout.UNSEEN_BACKGROUNDS`)")
    args = ap.parse_args(argv)
    names = UNSEEN_BACKGROUNDS if args.backgrounds == "unseen" else BACKGROUNDS
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.export or tmp)
        if not (folder / "manifest.json").exists():
            export(GAMES["hexapod"], "standard", folder, dpi=120)
        figures = Figures()
        refused = []
        for seed in range(args.start, args.start + args.seeds):
            scene = heldout_case(folder, seed, VARIANTS[args.variant], names)
            params = None
            if args.calibrate:
                try:
                    inks = learn_chart(chart_photo(folder, seed, VARIANTS[args.variant]))
                    params = cell_params(inks)
                except ValueError as exc:
                    refused.append((seed, str(exc)))
            obs = HexapodReader(track=False, params=params).read(scene.image)
            seen = {c.player: c for c in obs.cases}
            figures.false_cases += sum(p not in {b.player for b in scene.boards} for p in seen)
            for board in scene.boards:
                case = seen.get(board.player)
                figures.add(seed, board, None if case is None else case.grid,
                            case is not None and judged_case(case))
    label = args.variant + " (unseen backgrounds)" * (names is UNSEEN_BACKGROUNDS)
    print(figures.line(label, args.start, args.start + args.seeds - 1) +
          (f", calibrated ({len(refused)} charts refused: read without)" if args.calibrate
           else ""))
    for seed, why in refused:
        print(f"    seed {seed}: calibration refused: {why}")
    if args.show_failures:
        for seed, player, stage, cells in figures.failures:
            print(f"    seed {seed} player {player}: {stage} {cells}")


if __name__ == "__main__":
    main()
