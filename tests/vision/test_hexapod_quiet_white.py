"""The case's white under a lamp that clips it in all three channels, when a hand lies over part
of a marker's quiet zone (`hexapod_colour.case_white`, `_zone_paper`). Rendered hard scene 642
(exposure clips the paper; a hand covers about a quarter of player 2's marker 23): the white's
colour is taken from quiet-zone samples below the clip, and the hand's skin there must not pass
for paper in dimmer light (the old reader took its colour: a white 2.5 times redder than blue,
and a dung beetle read 'B'). The guard dims the whole zone alike (a broad shadow), whose paper
still gives the light's colour. The pose is the one the markers 21-23 give (fixed here)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.faces import HEXAPOD_CASE as LAYOUT
from companion.scenarios import hexapod_scene
from companion.synth.scene import sample_params
from companion.vision.hexapod_colour import case_white
from companion.vision.hexapod_markers import CasePose, printed_corners

SEED = 642
H = np.array([[0.7165876453846528, 0.18572378549078372, 745.2976027395542],
              [0.22210042164541716, 1.2004093984312785, 306.65073263593246],
              [-0.0004424862439045309, 0.0006037666797640535, 1.0]])
POSE = CasePose(2, H, (21, 22, 23), 0.99, 22.64)


def _scene() -> np.ndarray:
    params = replace(sample_params(SEED, "hard", 1280, 720), hfov_deg=0.0)
    return hexapod_scene(SEED, "hard", params=params)[0]


def test_a_hand_over_a_quiet_zone_gives_the_white_no_colour() -> None:
    """The white stays near neutral (the lamp's paper reads 251/253/255 in the other zones)."""
    white = case_white(_scene(), POSE, LAYOUT)
    assert white.min() > 200.0
    assert white.max() / white.min() < 1.1


def test_a_zone_in_a_broad_shadow_still_gives_the_light_colour() -> None:
    """Marker 23's surroundings dimmed alike to 0.6 (a shadow, hand and all): its paper, below
    the clip, gives the white its colour (neutral here), brightened to the clipped readings."""
    image = _scene().astype(np.float32)
    centre = POSE.to_image(np.array([np.mean(printed_corners(LAYOUT, 2)[23], axis=0)]))[0]
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.circle(mask, tuple(int(v) for v in centre), int(2.5 * POSE.marker_px), 1, -1)
    image[mask > 0] *= 0.6
    white = case_white(image.round().astype(np.uint8), POSE, LAYOUT)
    assert white.min() >= 248.0
    assert white.max() / white.min() < 1.1
    assert white.max() > 256.0        # the shadowed paper gave the colour (not the clip)

