"""Rendered Hexapod scenes for the cell tests, framed and read as `companion bench vision --game
hexapod` frames and reads them (hard band, 1280 x 720, the boards filling the picture), and the
walks over their cases that compare what was read with the renderer's own truth. `PX` and `M` are
the canvas's pixels per cell and margin, as the reader resamples a case, for crafted canvases
(`lined_board`, `dung_card`, `lay_card`); `assert_glare_card_kept` reads a held-out glare
picture; `paint_marker` prints another code (or white) over a rendered marker, and
`decoded_markers` lists the markers the frame's decoder reads."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import cv2
import numpy as np

from companion.faces import HEXAPOD_CASE
from companion.scenarios import hexapod_scene
from companion.synth.hexapod_face import render_card
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_markers import case_codes, detect, make_detector
from companion.vision.observation import UNKNOWN

from .hexapod_heldout import VARIANTS, heldout_case, wrong_cells

PX, M = 24, 12                       # canvas px per cell and margin, as the reader resamples



def lined_board(white: np.ndarray) -> np.ndarray:
    """A crafted canvas (`PX` px a cell, `M` margin; BGR float32) of a case's empty board seen
    under the light `white` (BGR): board fill at 0.89 of it, its printed grid lines 15 %
    darker, clipped at 255."""
    n = 6 * PX + 2 * M
    img = np.tile(0.89 * np.asarray(white, np.float32), (n, n, 1)).astype(np.float32)
    for k in range(7):
        at = M + k * PX
        img[at - 1:at + 1, :] *= 0.85
        img[:, at - 1:at + 1] *= 0.85
    return np.minimum(img, 255.0)

WHITE = np.array([205.0, 200.0, 195.0], np.float32)   # the light on crafted canvases (BGR)


def lay_card(img: np.ndarray, rows: tuple[tuple[str, ...], ...], r: int, c: int,
             light=WHITE / 255.0, veil: float = 0.0, shift: tuple[int, int] = (0, 0)) -> None:
    """Lay (in place) the printed card of `rows` (its cells' codes, rows top to bottom) with its
    top-left cell on (r, c) of a crafted canvas (`lined_board`), `shift` (dx, dy) px off, its
    print seen at `light` (BGR, per channel, of its colours; WHITE's by default) plus `veil` of
    WHITE, clipped at 255."""
    face = render_card(rows, PX)[:, :, :3].astype(np.float32)
    seen = np.minimum(face * np.asarray(light, np.float32) + veil * WHITE, 255.0)
    y0, x0 = M + r * PX + shift[1], M + c * PX + shift[0]
    img[y0:y0 + face.shape[0], x0:x0 + face.shape[1]] = seen


def dung_card(img: np.ndarray, r: int, c: int, white: np.ndarray, dx: int = 0) -> None:
    """Lay (in place) a dung beetle card on cell (r, c) of a crafted canvas (`lined_board`),
    `dx` px off: its paper (`white`) a little larger than the cell, its black tile (a tenth of
    the white) 3 px inside, its grey beetle (0.6 of the white) over the middle 0.55 cell with a
    drawing of darker stripes (0.4) across it."""
    y0, x0 = M + r * PX - 2, M + c * PX - 2 + dx
    y1, x1 = y0 + PX + 4, x0 + PX + 4
    img[y0:y1, x0:x1] = white
    img[y0 + 3:y1 - 3, x0 + 3:x1 - 3] = 0.1 * white
    cy, cx, h = (y0 + y1) // 2, (x0 + x1) // 2, round(0.55 * PX) // 2
    img[cy - h:cy + h + 1, cx - h:cx + h + 1] = 0.6 * white
    img[cy - h:cy + h + 1:3, cx - h:cx + h + 1] = 0.4 * white


def assert_glare_card_kept(exported, seed: int, cell: tuple[int, int]) -> str:
    """Held-out glare picture `seed` (`exported`: the Hexapod export): its `cell` holds a card
    (the composer's truth), which reads its own code or '?', never '.', and no cell of the case
    reads a wrong code. Returns the card's true code."""
    scene = heldout_case(exported, seed, VARIANTS["glare"])
    r, c = cell
    code = scene.grid[r][c]
    assert code != "."
    grid = HexapodReader(track=False).read(scene.image).cases[0].grid
    assert grid[r][c] in (code, UNKNOWN)
    assert wrong_cells(grid, scene.grid) == []
    return code


def hard_scene(seed: int):
    """Hard scene `seed` framed as the benchmark frames it: (image, truth)."""
    params = replace(sample_params(seed, "hard", 1280, 720), hfov_deg=0.0)
    return hexapod_scene(seed, "hard", params=params)


def read_hard(seed: int):
    """Hard scene `seed` as the benchmark frames and reads it: (truth, observation)."""
    image, truth = hard_scene(seed)
    return truth, HexapodReader(track=True, keep_still=False).read_full(image, 0.0, 0) \
        .observation


def read_hard_case(seed: int, player: int):
    """Hard scene `seed` read as the benchmark reads it: (the reader's `CaseRead` of `player`'s
    case, that case's truth)."""
    image, truth = hard_scene(seed)
    result = HexapodReader(track=True, keep_still=False).read_full(image, 0.0, 0)
    read = next(r for c, r in zip(result.observation.cases, result.reads, strict=True)
                if c.player == player)
    return read, next(c for c in truth.cases if c.player == player)


def assert_case_found(seed: int, player: int, min_right: int) -> None:
    """The case of `player` on hard table `seed` is found, no false case is, and it reads no
    cell wrong (a hidden cell may only be '?' or its own code) and at least `min_right`
    cells right."""
    image, truth = hard_scene(seed)
    seen = {c.player: c for c in HexapodReader(track=True, keep_still=False).read(image).cases}
    assert set(seen) <= {c.player for c in truth.cases}           # no false case
    assert player in seen
    case = next(c for c in truth.cases if c.player == player)
    got = seen[player].grid
    pairs = [(got[r][c], code) for r, row in enumerate(case.grid) for c, code in enumerate(row)]
    assert all(read in (code, UNKNOWN) for read, code in pairs), pairs
    assert sum(read == code for read, code in pairs) >= min_right


def case_pairs(truth, obs) -> Iterator[tuple]:
    """(true case, case read) for every case of `truth` that `obs` found."""
    for t in truth.cases:
        seen = next((c for c in obs.cases if c.player == t.player), None)
        if seen is not None:
            yield t, seen


def case_cells(truth, obs) -> Iterator[tuple]:
    """(player, row, col, true code, visible share, code read) of every cell of every case in
    `truth` that `obs` found."""
    for t, seen in case_pairs(truth, obs):
        for r, (codes, shares) in enumerate(zip(t.grid, t.visible, strict=True)):
            for c, (code, share) in enumerate(zip(codes, shares, strict=True)):
                yield t.player, r, c, code, share, seen.grid[r][c]


def assert_no_wrong_code(truth, obs) -> None:
    """No cell of the scene, in full view or partly hidden, reads a code other than its own."""
    for player, r, c, code, _, got in case_cells(truth, obs):
        assert got in (UNKNOWN, code), (player, r, c, code, got)


def assert_hard_cell_reads(seed: int, player: int, cell: tuple[int, int], code: str) -> None:
    """Hard scene `seed`: `player`'s true case holds `code` at `cell` (row, col) in full view,
    the reader reads it so, and no cell of the scene reads a code other than its own."""
    truth, obs = read_hard(seed)
    case = next(c for c in truth.cases if c.player == player)
    seen = next(c for c in obs.cases if c.player == player)
    r, c = cell
    assert case.grid[r][c] == code and case.visible[r][c] >= 1.0
    assert seen.grid[r][c] == code
    assert_no_wrong_code(truth, obs)


def visible_read_right(case, seen) -> int:
    """Asserts that every cell of the true case `case` reads its own code or '?' in `seen` (the
    case read), and returns how many cells in full view read their code."""
    read = 0
    for r, row in enumerate(case.grid):
        for c, code in enumerate(row):
            got = seen.grid[r][c]
            assert got in (code, UNKNOWN), (r, c, code, got)
            read += got == code and case.visible[r][c] >= 1.0
    return read


def paint_marker(image: np.ndarray, quad: np.ndarray, marker_id: int | None) -> np.ndarray:
    """`image` with the marker at `quad` replaced: by the code of `marker_id` (the printed
    black border and modules, as blurred as the scene's), or by the paper's white (None)."""
    out = image.copy()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    mask = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
    white = float(np.percentile(grey[cv2.dilate(mask, np.ones((9, 9), np.uint8)) > mask], 80))
    if marker_id is None:
        art = np.full((60, 60), 255, np.uint8)
    else:
        dictionary = cv2.aruco.getPredefinedDictionary(
            getattr(cv2.aruco, HEXAPOD_CASE.dictionary))
        art = cv2.resize(dictionary.generateImageMarker(marker_id, 6, borderBits=1), (60, 60),
                         interpolation=cv2.INTER_NEAREST)
    H = cv2.getPerspectiveTransform(np.float32([(0, 0), (60, 0), (60, 60), (0, 60)]),
                                    quad.astype(np.float32))
    warped = cv2.warpPerspective(art, H, grey.shape[::-1], flags=cv2.INTER_AREA,
                                 borderValue=255)
    warped = cv2.GaussianBlur(warped.astype(np.float32), (0, 0), 1.2) / 255.0 * white
    keep = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 1.0)[..., None] / 255.0
    return (out * (1 - keep) + warped[..., None] * keep).astype(np.uint8)


def decoded_markers(image: np.ndarray) -> list:
    """The case markers the frame's decoder reads in `image` (id, corners)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found, _ = detect(grey, make_detector(case_codes()), codes=case_codes())
    return found
