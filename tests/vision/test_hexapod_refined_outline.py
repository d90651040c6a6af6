"""A display case whose sheet's outline a bright patch of the table bends at one corner
(`hexapod_boards.refined_outline`): the outline's corners are taken again where the paper's
measured edges meet, round after round, and the sheet so placed is verified by its markers as
any outline is. Rendered hard scene 971 (a pale nebula of the photo-table against the top
edge of player 1's board; 5 px of motion blur, no marker of player 1 decodes) carries its own
truth."""

from __future__ import annotations

import cv2
import numpy as np

from companion.faces import HEXAPOD_CASE as LAYOUT
from companion.vision.geometry import transform
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_boards import refined_outline
from companion.vision.hexapod_outlines import sheet_outlines

from .hexapod_scenes import hard_scene, visible_read_right

SEED = 971


def _sheet(truth: object, player: int) -> np.ndarray:
    """The truth's sheet corners (TL, TR, BR, BL) of `player`'s board in the frame."""
    case = next(c for c in truth.cases if c.player == player)
    x0, y0, w, h = LAYOUT.sheet_mm
    mm = np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)], np.float64)
    return transform(mm, case.board_to_image)


def _gap(quad: np.ndarray, sheet: np.ndarray) -> float:
    """The largest distance (px) from a corner of `sheet` to the nearest corner of `quad`."""
    return float(np.linalg.norm(sheet[:, None] - quad[None], axis=2).min(axis=1).max())


def test_a_bent_outline_is_brought_to_the_papers_corners() -> None:
    """Every outline the search proposes for player 1's sheet is 20 px or more off one of its
    corners; refined, one comes within 3 px (a marker module; the markers' places are searched a
    module about where an outline puts them) of all four (the paper's printed corners: a miscut
    sheet's own lie up to a pixel off them)."""
    image, truth = hard_scene(SEED)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    sheet = _sheet(truth, 1)
    near = [q for q in sheet_outlines(grey, image) if _gap(q, sheet) < 60.0]
    assert near and min(_gap(q, sheet) for q in near) > 20.0
    refined = [r for r in (refined_outline(image, q, LAYOUT) for q in near) if r is not None]
    assert min(_gap(r, sheet) for r in refined) < 3.0


def test_the_case_of_a_bent_outline_is_found() -> None:
    """Player 1's case is found (the old reader: not found, every cell '?') through all four
    markers; its cells read right or '?', never a wrong code, at least 25 visible cells read."""
    image, truth = hard_scene(SEED)
    result = HexapodReader(track=False, keep_still=False).read_full(image)
    seen = {c.player: c for c in result.observation.cases}
    assert set(seen) == {1, 2}
    assert next(p for p in result.poses if p.player == 1).markers == (10, 11, 12, 13)
    case = next(c for c in truth.cases if c.player == 1)
    assert visible_read_right(case, seen[1]) >= 25
