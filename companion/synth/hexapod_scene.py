"""Synthetic Hexapod tables with exact ground truth: one or more display-case boards
(`hexapod_board`) with their cards (`hexapod_face`) stacked on them in placement order, seen
through the same camera, table, light and sensor machinery as the Hex'el scenes (`scene`). Cards
come in as data (`SceneCase`: a player and `CaseCard`s, each a card's rows of codes and the grid
column and row of its top-left cell), never from the rules. Each card lies slightly off its grid
position as a player's hand leaves it: a rotation and a shift such that no corner moves more than
`misalign` of a cell along either axis (by band: topdown 0, easy 0.15, hard 1/3), with a faint
cast shadow on what lies below. Boards sit side by side with small turns; in the easy and hard
bands the second board may face the other way (players sit opposite). `HexapodTruth` gives per
case the player, its marker ids and corners, the visible grid of codes (what the rules' case
holds), per cell its visible fraction (in the frame and not under a hand) and image centre, each
card's pose, the board-mm -> image homography, plus the table markers and camera.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import cv2
import numpy as np

from . import effects
from .camera import apply_h
from .cardface import Palette
from .hexapod_board import BOARD, CaseBoard, board_image, marker_ids
from .hexapod_face import CARD, Rows, check_rows, render_card
from .scene import (
    MarkerTruth,
    SceneParams,
    _background,
    _camera,
    _coverage,
    _densify,
    _distortion_maps,
    _light_and_sensor,
    _marker_squares,
    _paste,
    _paste_marker,
    _points,
    _rot,
    sample_hands,
)

EMPTY = "."
MISALIGN = {"topdown": 0.0, "easy": 0.15, "hard": 1.0 / 3.0}
CELL_TEXTURES = (12, 16, 24, 32, 48, 64, 96, 128)
BOARD_TEXTURES = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
SHADOW_ALPHA = 0.35


@dataclass(frozen=True)
class CaseCard:
    """A card in a display case: its name, rows of cell codes (top to bottom) and the grid
    column and row of its top-left cell."""

    name: str
    rows: Rows
    col: int
    row: int


@dataclass(frozen=True)
class SceneCase:
    """A player's display case: cards in placement order (later cards lie on top)."""

    player: int
    cards: tuple[CaseCard, ...] = ()
    cols: int = 6
    rows: int = 6

    def grid(self) -> Rows:
        """The visible code of every cell, rows top to bottom ('.' where no card lies)."""
        grid = [[EMPTY] * self.cols for _ in range(self.rows)]
        for card in self.cards:
            for dy, line in enumerate(card.rows):
                for dx, code in enumerate(line):
                    grid[card.row + dy][card.col + dx] = code
        return tuple(tuple(r) for r in grid)


@dataclass(frozen=True)
class CardPose:
    """Where one card really lies."""

    name: str
    col: int
    row: int
    offset_mm: tuple[float, float]          # shift of its centre from the grid position
    angle_deg: float                        # turn on the board (y down: clockwise positive)
    corners_mm: tuple[tuple[float, float], ...]  # board mm, TL TR BR BL of the card
    corners: tuple[tuple[float, float], ...]     # distorted image px


@dataclass(frozen=True, eq=False)
class CaseTruth:
    """One display case as the camera sees it (grids are rows top to bottom of the board)."""

    player: int
    marker_ids: tuple[int, ...]                  # TL, TR, BR, BL
    markers: tuple[MarkerTruth, ...]
    grid: Rows                                   # visible codes, '.' empty
    visible: tuple[tuple[float, ...], ...]       # per cell: in frame and not under a hand
    cell_centres: tuple[tuple[tuple[float, float], ...], ...]  # distorted image px
    corners: tuple[tuple[float, float], ...]     # grid's TL, TR, BR, BL, distorted image px
    cards: tuple[CardPose, ...]
    board_to_image: np.ndarray                   # board mm -> undistorted image px
    centre_mm: tuple[float, float]               # the sheet's centre on the table
    angle_deg: float                             # the board's turn on the table


@dataclass(frozen=True, eq=False)
class HexapodTruth:
    """Exact ground truth of a rendered Hexapod scene."""

    size: tuple[int, int]
    cases: tuple[CaseTruth, ...]
    markers: tuple[MarkerTruth, ...]             # table markers 0-3 (if drawn)
    homography: np.ndarray                       # table mm -> undistorted image px
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    cell_mm: float
    misalign: float
    params: SceneParams
    hands: tuple[effects.Hand, ...] = field(default=())

    def to_json(self) -> dict:
        """A JSON-ready dict (the shape `recognize --game hexapod --json` reports, plus truth)."""
        return {
            "size": list(self.size), "cell_mm": self.cell_mm, "misalign": self.misalign,
            "cases": [{
                "player": c.player, "marker_ids": list(c.marker_ids),
                "grid": [list(r) for r in c.grid],
                "visible": [list(r) for r in c.visible],
                "corners": [list(p) for p in c.corners],
                "cards": [asdict(p) for p in c.cards],
                "markers": [asdict(m) for m in c.markers],
                "board_to_image": c.board_to_image.tolist(),
            } for c in self.cases],
            "markers": [asdict(m) for m in self.markers],
            "homography": self.homography.tolist(),
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.tolist(),
            "params": asdict(self.params),
        }


@dataclass(frozen=True, eq=False)
class _Spot:
    centre: np.ndarray  # table mm (what `sample_hands` aims at)


def _affine(A: np.ndarray, t: np.ndarray) -> np.ndarray:
    return np.array([[A[0, 0], A[0, 1], t[0]], [A[1, 0], A[1, 1], t[1]], [0.0, 0.0, 1.0]])


def _board_poses(n: int, board: CaseBoard, params: SceneParams, rng: np.random.Generator
                 ) -> list[np.ndarray]:
    """Board mm -> table mm (3x3) for `n` boards side by side."""
    x0, y0, sw, sh = board.sheet_mm
    centre = np.array([x0 + sw / 2.0, y0 + sh / 2.0])
    clean = params.band == "topdown"
    out, x = [], 0.0
    for i in range(n):
        angle = 0.0 if clean else rng.uniform(-8.0, 8.0)
        if i % 2 == 1 and not clean and rng.random() < 0.5:
            angle += 180.0  # the opponent's case, facing them
        pos = np.array([x, 0.0 if clean else rng.uniform(-25.0, 25.0)])
        R = _rot(angle)
        out.append(_affine(R, pos - R @ centre))
        x += sw + (40.0 if clean else rng.uniform(30.0, 120.0))
    return out


def _card_pose(card: CaseCard, board: CaseBoard, misalign: float, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray, float]:
    """(card mm -> board mm 3x3, offset, angle) with every corner within `misalign` cells of its
    grid position along each axis."""
    s = board.cell_mm
    w, h = len(card.rows[0]) * s, len(card.rows) * s
    budget = misalign * s
    half = np.array([(-w, -h), (w, -h), (w, h), (-w, h)], float) / 2.0
    angle = rng.uniform(-1.0, 1.0) * math.degrees(0.3 * budget / max(w, h) * 2.0)
    R = _rot(angle)
    turn = np.abs(half @ R.T - half).max(axis=0)          # per-axis corner shift of the turn
    room = np.maximum(budget - turn, 0.0)
    offset = rng.uniform(-1.0, 1.0, 2) * room
    centre = np.array([card.col * s + w / 2.0, card.row * s + h / 2.0]) + offset
    return _affine(R, centre - R @ np.array([w / 2.0, h / 2.0])), offset, float(angle)


def _pick(options: Sequence[float], want: float) -> float:
    for v in options:
        if v >= want:
            return v
    return options[-1]


def _tinted(bgr: np.ndarray, tint: np.ndarray | None, gain: float = 1.0) -> np.ndarray:
    """A BGRA copy of `bgr`(a) with the printer's colour matrix and a gain applied."""
    out = np.empty((*bgr.shape[:2], 4), np.uint8)
    colour = bgr[:, :, :3]
    if tint is not None or gain != 1.0:
        m = (tint if tint is not None else np.eye(3, dtype=np.float32)) * gain
        colour = cv2.transform(colour, m.astype(np.float32))
    out[:, :, :3] = colour
    out[:, :, 3] = bgr[:, :, 3] if bgr.shape[2] == 4 else 255
    return out


def _shadow(w_px: int, h_px: int, pad: int) -> np.ndarray:
    """A soft black BGRA shadow of a w x h rectangle, with `pad` px of blur room."""
    tex = np.zeros((h_px + 2 * pad, w_px + 2 * pad, 4), np.uint8)
    alpha = np.zeros(tex.shape[:2], np.float32)
    alpha[pad:pad + h_px, pad:pad + w_px] = SHADOW_ALPHA * 255.0
    tex[:, :, 3] = cv2.GaussianBlur(alpha, (0, 0), max(pad / 2.5, 0.5)).astype(np.uint8)
    return tex


def render_cases(cases: Sequence[SceneCase], params: SceneParams | None = None,
                 board: CaseBoard = BOARD, misalign: float | None = None,
                 hands: tuple[effects.Hand, ...] | None = None, frame: int = 0,
                 table_markers: bool = False) -> tuple[np.ndarray, HexapodTruth]:
    """Render display cases with their cards (BGR uint8, params.width x params.height) and the
    ground truth. `misalign` (fraction of a cell) defaults by band (`MISALIGN`); `hands`
    overrides the band's random hands; `frame` varies only the sensor noise. The boards'
    own markers locate the cases, so the table markers 0-3 are drawn only on request (and
    then only if `params.markers`): without them the camera frames the boards tightly."""
    params = params or SceneParams()
    if not cases:
        raise ValueError("a Hexapod scene shows at least one display case")
    for case in cases:
        marker_ids(case.player)
        if (case.cols, case.rows) != (board.cols, board.rows):
            raise ValueError(f"case of player {case.player} is {case.cols}x{case.rows}, the "
                             f"board {board.cols}x{board.rows}")
        for card in case.cards:
            check_rows(card.rows)
            if not (0 <= card.col <= case.cols - len(card.rows[0])
                    and 0 <= card.row <= case.rows - len(card.rows)):
                raise ValueError(f"card {card.name} at ({card.col}, {card.row}) sticks out of "
                                 "the case")
    misalign = MISALIGN.get(params.band, 0.15) if misalign is None else float(misalign)
    seed = int(params.seed)
    rng = np.random.default_rng([seed, 21])
    to_table = _board_poses(len(cases), board, params, rng)
    poses = [[_card_pose(card, board, misalign, rng) for card in case.cards] for case in cases]

    x0, y0, sw, sh = board.sheet_mm
    sheet = np.array([(x0, y0), (x0 + sw, y0), (x0 + sw, y0 + sh), (x0, y0 + sh)])
    corners = np.vstack([apply_h(T, sheet) for T in to_table])
    box = np.array([corners.min(axis=0) - 5.0, corners.max(axis=0) + 5.0])
    markers = _marker_squares(box, params, np.random.default_rng([seed, 3])) \
        if params.markers and table_markers else []
    cam = _camera(params, box, markers, np.random.default_rng([seed, 4]))
    maps, offset, canvas_size = _distortion_maps(cam)
    Hc = np.array([[1, 0, offset[0]], [0, 1, offset[1]], [0, 0, 1]], float) @ cam.homography
    centre_mm = box.mean(axis=0)

    rng = np.random.default_rng([seed, 22])
    canvas = _background(canvas_size, Hc, params, cam, centre_mm, rng)
    palette = Palette()
    for marker_id, paper, _ in markers:
        _paste_marker(canvas, Hc, marker_id, paper, palette)
    amount = params.print_variation
    tint = (np.eye(3) + rng.uniform(-0.06, 0.06, (3, 3)) * amount).astype(np.float32) \
        if amount > 0 else None
    for case, T, case_poses in zip(cases, to_table, poses, strict=True):
        mid = apply_h(T, np.array([(board.width_mm / 2.0, board.height_mm / 2.0)]))[0]
        px_mm = 1.0 / cam.mm_per_px(tuple(mid))
        ppm = _pick(BOARD_TEXTURES, 1.3 * px_mm)
        tex = _tinted(board_image(case.player, ppm, board), tint)
        S = _affine(np.eye(2) / ppm, np.array([x0 + 0.5 / ppm, y0 + 0.5 / ppm]))
        _paste(canvas, tex, Hc @ T @ S)
        cell_px = int(_pick(CELL_TEXTURES, 1.3 * px_mm * board.cell_mm))
        k = board.cell_mm / cell_px
        S = _affine(np.eye(2) * k, np.array([0.5 * k, 0.5 * k]))
        pad = max(1, round(1.2 / k))
        for card, (C, _, _) in zip(case.cards, case_poses, strict=True):
            face = render_card(card.rows, cell_px)
            shadow = _shadow(face.shape[1], face.shape[0], pad)
            drop = _affine(np.eye(2) * k, np.array([(0.5 - pad) * k + 0.5, (0.5 - pad) * k + 0.8]))
            _paste(canvas, shadow, Hc @ T @ C @ drop)
            gain = 1.0 + rng.uniform(-0.04, 0.03) * (amount > 0)
            _paste(canvas, _tinted(face, tint, gain), Hc @ T @ C @ S)

    img = cv2.remap(canvas, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE) \
        if maps is not None else canvas
    img = img.astype(np.float32)
    occluded = np.zeros((params.height, params.width), np.uint8)
    if hands is None:
        spots = [_Spot(apply_h(T, np.array([((c.col + 1) * board.cell_mm,
                                             (c.row + 1.5) * board.cell_mm)]))[0])
                 for case, T in zip(cases, to_table, strict=True) for c in case.cards]
        hands = sample_hands(params.hands, spots, np.random.default_rng([seed, 6]))
    for hand in hands:
        effects.draw_hand(img, occluded, hand, cam.project)
    img = _light_and_sensor(img, params, cam, seed, frame)
    truth = HexapodTruth(
        (params.width, params.height),
        tuple(_case_truth(case, T, case_poses, board, cam, occluded)
              for case, T, case_poses in zip(cases, to_table, poses, strict=True)),
        tuple(MarkerTruth(i, _points(cam.project(c)), _points(c),
                          _coverage(cam.project(_densify(c)), occluded))
              for i, _, c in markers),
        cam.homography.copy(), cam.K.copy(), cam.dist, board.cell_mm, misalign, params,
        tuple(hands))
    return img, truth


def _case_truth(case: SceneCase, T: np.ndarray, poses, board: CaseBoard, cam,
                occluded: np.ndarray) -> CaseTruth:
    """Ground truth of one case from its board pose `T` (board mm -> table mm)."""
    def image(pts: np.ndarray) -> np.ndarray:
        return cam.project(apply_h(T, pts))

    visible, centres = [], []
    for r in range(board.rows):
        vis, cen = [], []
        for c in range(board.cols):
            poly = board.cell_polygon(c, r)
            vis.append(_coverage(image(_densify(poly)), occluded))
            cen.append(tuple(float(v) for v in image(poly.mean(axis=0)[None])[0]))
        visible.append(tuple(vis))
        centres.append(tuple(cen))
    marks = tuple(MarkerTruth(mid, _points(image(c)), _points(c),
                              _coverage(image(_densify(c)), occluded))
                  for mid, c in board.marker_corners(case.player).items())
    w, h = board.width_mm, board.height_mm
    grid_corners = np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])
    cards = []
    for card, (C, off, angle) in zip(case.cards, poses, strict=True):
        cw, ch = len(card.rows[0]) * board.cell_mm, len(card.rows) * board.cell_mm
        mm = apply_h(C, np.array([(0.0, 0.0), (cw, 0.0), (cw, ch), (0.0, ch)]))
        cards.append(CardPose(card.name, card.col, card.row, (float(off[0]), float(off[1])),
                              angle, _points(mm), _points(image(mm))))
    angle = math.degrees(math.atan2(T[1, 0], T[0, 0]))
    sx, sy, sw, sh = board.sheet_mm
    centre = apply_h(T, np.array([(sx + sw / 2.0, sy + sh / 2.0)]))[0]
    return CaseTruth(case.player, marker_ids(case.player), marks, case.grid(), tuple(visible),
                     tuple(centres), _points(image(grid_corners)), tuple(cards),
                     cam.homography @ T, (float(centre[0]), float(centre[1])), angle)


__all__ = ["CARD", "MISALIGN", "CardPose", "CaseCard", "CaseTruth", "HexapodTruth", "SceneCase",
           "render_cases"]
