"""Camera intrinsics saved for one frame size (`companion calibrate camera`) used on frames of
another (`CameraCalibration.for_size`, `HexelReader._same_size`): the same picture scaled takes
them scaled with it, a picture of another shape reads without them and says so."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.scenarios import hexel_scene
from companion.synth.scene import sample_params
from companion.vision.calibration import CameraCalibration
from companion.vision.reader import HexelReader, camera_setup

LENS = CameraCalibration(((1500.0, 0.0, 955.0), (0.0, 1490.0, 545.0), (0.0, 0.0, 1.0)),
                         (-0.25, 0.08, 0.001, -0.0005, 0.0), (1920, 1080), 0.3)


def _scaled(points: np.ndarray, s: float) -> np.ndarray:
    """Pixel positions of `points` in the picture scaled by `s` (pixel centres on centres)."""
    return (points + 0.5) * s - 0.5


@pytest.mark.parametrize("size", [(1280, 720), (640, 360), (3840, 2160)])
def test_intrinsics_scaled_with_the_picture_undistort_alike(size):
    lens = LENS.for_size(*size)
    assert lens is not None and lens.image_size == size
    s = size[0] / 1920
    pts = np.random.default_rng(0).uniform([0, 0], [1919, 1079], (200, 2))
    # a point of the large picture and the same point of the scaled one lie alike once the
    # lens is taken off (and put back on), to a thousandth of a pixel
    np.testing.assert_allclose(lens.undistort(_scaled(pts, s)), _scaled(LENS.undistort(pts), s),
                               atol=1e-3)
    np.testing.assert_allclose(lens.distort(_scaled(pts, s)), _scaled(LENS.distort(pts), s),
                               atol=1e-3)


def test_intrinsics_at_their_own_size_are_themselves_and_not_for_another_shape():
    assert LENS.for_size(1920, 1080) is LENS
    assert LENS.for_size(1640, 1232) is None      # 4:3, a mode that crops the sensor
    assert LENS.for_size(1080, 1920) is None      # turned
    assert LENS.for_size(1918, 1080) is not None  # within SAME_SHAPE


def _distorted_table():
    params = replace(sample_params(2, "easy", 1280, 720), distortion=-0.1)
    image, truth = hexel_scene(2, "easy", 12, "holodex", params=params)
    true = CameraCalibration(tuple(map(tuple, truth.camera_matrix.tolist())),
                             tuple(truth.dist_coeffs.ravel().tolist()), (1280, 720))
    return image, truth, true


def test_intrinsics_saved_at_another_size_read_a_distorted_table_as_their_own():
    # saved at twice the size (the camera calibrated in its full-resolution mode): before,
    # they were used on 1280 x 720 frames as they were, the principal point at the frame's
    # corner, and the table's homography came out off by pixels
    image, truth, true = _distorted_table()
    saved = true.for_size(2560, 1440)
    assert saved is not None
    own = HexelReader("holodex", camera=true)
    other = HexelReader("holodex", camera=saved)
    a, b = own.read(image).observation, other.read(image).observation
    assert a.calibrated and b.calibrated
    plane = own.view.to_plane(np.array([[100.0, 80.0], [1180.0, 80.0], [1180.0, 640.0],
                                        [100.0, 640.0], [640.0, 360.0]]))
    np.testing.assert_allclose(other.view.to_image(plane), own.view.to_image(plane), atol=0.05)
    assert sorted((c.cell, c.symbols) for c in b.cards) == sorted(
        (c.cell, c.symbols) for c in a.cards)
    assert len(a.cards) == len(truth.cards)
    assert not any("lens correction" in n for n in b.notes)


def test_intrinsics_of_another_shape_are_not_used_and_the_notes_say_so():
    image, truth, true = _distorted_table()
    square = CameraCalibration(true.matrix, true.distortion, (1024, 1024))
    reader = HexelReader("holodex", camera=square)
    obs = reader.read(image).observation
    assert reader.camera is None and reader.view.camera is None
    notes = [n for n in obs.notes if n.startswith("lens correction not used")]
    assert len(notes) == 1 and "1024 x 1024" in notes[0] and "1280 x 720" in notes[0]
    assert "another shape" in camera_setup(obs)
    assert len(obs.cards) == len(truth.cards)
