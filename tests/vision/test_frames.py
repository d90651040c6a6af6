"""Frames the readers cannot take are refused with a clear ValueError before OpenCV sees them
(`vision.frames`), and nothing the readers keep changes; a Hex'el reader keeps its table
calibration only for frames of the size it was made on (`HexelReader._same_size`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.scenarios import hexapod_scene, hexel_scene
from companion.vision.frames import MIN_SIDE, check_frame, frame_problem
from companion.vision.hexapod import HexapodReader
from companion.vision.hexapod_calibrate import learn_chart
from companion.vision.learn_inks import learn_colours
from companion.vision.reader import HexelReader

# each once failed inside OpenCV (an assertion naming neither the frame nor the fix) or in
# NumPy, or slipped through: (frame, words the error must hold)
BAD = {
    "none": (None, "None"),
    "list": ([[0, 0, 0]], "list"),
    "grey": (np.zeros((720, 1280), np.uint8), "grey"),
    "bgra": (np.zeros((720, 1280, 4), np.uint8), "BGRA"),
    "16-bit": (np.zeros((720, 1280, 3), np.uint16), "uint16"),
    "float": (np.zeros((720, 1280, 3), np.float32), "float32"),
    "empty": (np.zeros((0, 0, 3), np.uint8), "0 x 0 px"),
    "row": (np.zeros((1, 1280, 3), np.uint8), "1280 x 1 px"),
    "column": (np.zeros((720, 1, 3), np.uint8), "1 x 720 px"),
    "thin": (np.zeros((MIN_SIDE - 1, 900, 3), np.uint8), f"900 x {MIN_SIDE - 1} px"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_each_bad_frame_is_named_for_what_it_is(name):
    frame, words = BAD[name]
    problem = frame_problem(frame)
    assert problem is not None and words in problem
    with pytest.raises(ValueError, match="the Hexapod reader cannot use this frame"):
        check_frame(frame, "the Hexapod reader")


@pytest.mark.parametrize("shape", [(MIN_SIDE, MIN_SIDE), (MIN_SIDE, 1280), (720, 1280)])
def test_a_frame_of_the_least_size_and_up_is_taken(shape):
    frame = np.zeros((*shape, 3), np.uint8)
    assert frame_problem(frame) is None
    assert check_frame(frame) is frame
    # and read without error: nothing on it
    assert HexelReader("web").read(frame).observation.cards == ()
    assert HexapodReader(track=True).read(frame).cases == ()


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_hexel_reader_refuses_a_bad_frame_and_keeps_its_read(name):
    image, _ = hexel_scene(1, "easy", 12, "holodex")
    reader = HexelReader("holodex")
    first = reader.read(image, 0.0, 0)
    assert first.observation.calibrated and len(first.observation.cards) == 12
    view = reader.view
    with pytest.raises(ValueError, match="the Hex'el reader cannot use this frame"):
        reader.read(BAD[name][0], 0.04, 1)
    with pytest.raises(ValueError, match="the table calibration cannot use this frame"):
        reader.calibrate(BAD[name][0])
    assert reader.view is view
    # the same table again: the still read is kept, as though the bad frame never came
    again = reader.read(image, 0.08, 2)
    assert again.kept and again.observation.cards == first.observation.cards


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_hexapod_reader_refuses_a_bad_frame_and_keeps_its_read(name):
    image, _ = hexapod_scene(0, "topdown")
    reader = HexapodReader(track=True)
    first = reader.read_full(image, 0.0, 0)
    assert len(first.observation.cases) == 2
    with pytest.raises(ValueError, match="the Hexapod reader cannot use this frame"):
        reader.read_full(BAD[name][0], 0.04, 1)
    again = reader.read_full(image, 0.08, 2)
    assert again.kept and again.observation.cases == first.observation.cases


@pytest.mark.parametrize("name", ["row", "16-bit", "bgra"])
def test_the_colour_calibrations_refuse_a_bad_frame(name):
    with pytest.raises(ValueError, match="the colour calibration cannot use this frame"):
        learn_colours(BAD[name][0], "web")
    with pytest.raises(ValueError, match="the colour chart calibration cannot use this frame"):
        learn_chart(BAD[name][0])


def _cells(obs) -> list[tuple[tuple[int, int], str]]:
    return sorted((c.cell, c.symbols) for c in obs.cards)


@pytest.mark.parametrize("seed", [1, 4])
@pytest.mark.parametrize("find_markers", [True, False])
def test_a_calibration_is_dropped_for_frames_of_another_size(seed, find_markers):
    # the camera switched to a mode of half the size: the homography made on the large frames
    # laid every card's samples off its card, and the reader read no card at all (4), or took
    # the cards for half the printed size and asked for the markers' size (1)
    image, truth = hexel_scene(seed, "easy", 12, "holodex")
    small = cv2.resize(image, (640, 360), interpolation=cv2.INTER_AREA)
    reader = HexelReader("holodex", find_markers=find_markers)
    assert reader.calibrate(image)
    assert len(reader.read(image).observation.cards) == len(truth.cards)
    got = reader.read(small, 0.04, 1).observation
    fresh = HexelReader("holodex", find_markers=find_markers).read(small).observation
    assert len(got.cards) == len(truth.cards)
    assert _cells(got) == _cells(fresh)
    assert not any("table markers (40 mm) make the printed face" in n for n in got.notes)
    # with the markers searched for again it is calibrated on the small frames; without, it
    # reads in image pixels and says so
    assert got.calibrated == find_markers
    assert find_markers or any("uncalibrated" in n for n in got.notes)
    # and back to the large frames: calibrated again where the markers are searched for
    back = reader.read(image, 0.08, 2).observation
    assert len(back.cards) == len(truth.cards)
    assert back.calibrated == find_markers
