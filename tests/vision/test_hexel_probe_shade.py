"""A card the paper mask lost in shade or beside a glare spot is still looked for. The mask keeps
pixels brighter than the mean of a window about a card wide; where the light changes within that
window (a card in shade on a pale table, the bright surround of a glare spot) a card's paper is
no brighter than its surroundings and has no outline. A free cell next to the placed cards was
probed only where the mask still showed some of its paper; it is now probed too where the frame
itself shows a card's own contrast there — paper places bright and even, the printed border band
dark all round (`cell_poses.paper_in_border`), which shade and glare scale but do not undo. Crafted
cards are drawn with plain cv2 (tests/vision/crafted.py); rendered hard tables check the whole
reader against their truth."""

from __future__ import annotations

import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.cell_poses import paper_in_border
from companion.vision.symbol_samples import BORDER_PTS, PAPER_PTS, Pose, pose_points

from .crafted import draw_card, texture
from .test_reader import _read_hard

PPM = 1.0   # px per mm: a 64 mm card about 64 px wide
_POINTS = np.concatenate([PAPER_PTS, BORDER_PTS])


def _places(centre: tuple[float, float]) -> np.ndarray:
    """A card's paper and border places (1 x points x 2, image px) at `centre`, upright."""
    pose = Pose(centre, HEXEL_FACE.apothem_mm * PPM, 0.0)
    return pose_points([pose], _POINTS)


def _card_on(surface: str, gain: float = 1.0, card: bool = True) -> np.ndarray:
    img = texture(surface, (160, 160), np.random.default_rng(3))
    if card:
        draw_card(img, np.array([80.0, 80.0]), "RBVRBV", "holodex", PPM)
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("surface", ["white", "wood", "felt", "cloth"])
@pytest.mark.parametrize("gain", [1.0, 0.45])
def test_a_card_shows_its_own_contrast_in_light_or_shade(surface, gain):
    img = _card_on(surface, gain)
    assert paper_in_border(img, TableView(), _places((80.0, 80.0))).tolist() == [True]


@pytest.mark.parametrize("surface", ["white", "wood", "felt", "cloth"])
def test_a_bare_table_does_not(surface):
    img = _card_on(surface, card=False)
    assert paper_in_border(img, TableView(), _places((80.0, 80.0))).tolist() == [False]


def test_a_card_half_a_card_away_does_not():
    """The border band must be dark all round the predicted place, not on one side."""
    img = _card_on("white")
    shift = HEXEL_FACE.apothem_mm * PPM
    assert paper_in_border(img, TableView(), _places((80.0 + shift, 80.0))).tolist() == [False]


@pytest.mark.parametrize("seed,edition,was", [(213, "web", 16), (278, "holodex", 19)])
def test_rendered_cards_lost_by_the_mask_are_read(seed, edition, was):
    """Hard table 213: a glare spot on a pale spotted cloth blanks the mask over four cards
    (16 of 20 read before); 278: a card in shade on a pale striped cloth (19 of 20)."""
    s = _read_hard(seed, edition)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct > was, s
