"""A board whose white paper the camera clips in two of its three colours is told of: the light's
colour is lost with the paper's, lit fill reads tinted as skin does, and cells are left '?'
(never-seen hard 1039: a warm fill clipped in red and green taken for a hand over half the
case). The reader's notes say which player's board (`observation.over_exposed_note`) and the
scoreboard's camera line asks for a lower exposure (`observation.cases_camera_setup`, shown by
`CasesFrameSensor.status`); a board clipped in all three colours (the board's fill then gives
the light's colour) or in none is not told of."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.referee.hexapod_table import CasesFrameSensor
from companion.scenarios import hexapod_scene
from companion.sources import Frame
from companion.synth.scene import sample_params
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_colour import clipped_channels
from companion.vision.observation import OVER_EXPOSED, cases_camera_setup

from .hexapod_scenes import hard_scene


def over_exposed(image: np.ndarray) -> tuple[list[str], str, dict[int, int]]:
    """(the reader's notes on over-exposure, its camera line, each case's clipped channels)."""
    result = HexapodReader(track=False).read_full(image)
    notes = [n for n in result.observation.notes if n.startswith(OVER_EXPOSED)]
    clipped = {p.player: clipped_channels(r.white)
               for p, r in zip(result.poses, result.reads, strict=True)}
    return notes, cases_camera_setup(result.observation), clipped


def test_a_board_clipped_in_two_colours_is_told_of():
    """Hard 1039: both boards' whites read clipped in green and red (player 1's (213, 254,
    255)). The note names both boards, and the camera line asks for a lower exposure."""
    image, _ = hard_scene(1039)
    notes, line, clipped = over_exposed(image)
    assert clipped == {1: 2, 2: 2}
    assert len(notes) == 1 and "boards of players 1 and 2 " in notes[0]
    assert "exposure_ev" in notes[0]
    assert "over-exposed" in line and "exposure_ev" in line


@pytest.mark.parametrize("seed", [0, 1])
def test_a_board_clipped_in_all_three_colours_or_in_none_is_not(seed):
    """A top-down table, its paper at the clip in all three colours (every cell read), and the
    same picture darkened by half (no channel clipped): no note, no camera line."""
    params = replace(sample_params(seed, "topdown", 1280, 720), hfov_deg=0.0)
    image, _ = hexapod_scene(seed, "topdown", params=params)
    for picture, channels in ((image, 3), ((image // 2).astype(np.uint8), 0)):
        notes, line, clipped = over_exposed(picture)
        assert set(clipped.values()) == {channels}
        assert notes == [] and line == ""


def test_the_scoreboard_camera_line_carries_it():
    """`CasesFrameSensor.status` adds the camera line to the source's message."""
    image, _ = hard_scene(1039)

    class Source:
        def latest(self):
            return Frame(image, 0.1, 1)

        def status(self):
            return type("S", (), {"state": "ok", "message": "picamera2:0 1280x720"})()

    sensor = CasesFrameSensor(Source(), HexapodReader(track=False), annotate=False)
    assert sensor.status() == ("ok", "picamera2:0 1280x720")   # nothing read yet
    assert sensor.sense() is not None
    state, message = sensor.status()
    assert state == "ok"
    assert message.startswith("picamera2:0 1280x720 · ") and "over-exposed" in message


def test_the_same_frame_darkened_is_not_told_of():
    """Hard 1039 with its exposure lowered by a third (every channel below the clip): the
    note goes."""
    image, _ = hard_scene(1039)
    darker = (image.astype(np.float32) * 0.66).astype(np.uint8)
    notes, line, clipped = over_exposed(darker)
    assert clipped == {1: 0, 2: 0} and notes == [] and "over-exposed" not in line
