"""Table calibration round trips: a rendered marker board gives back the homography it was
rendered with (within 0.5 px), both on our own crafted board and on `companion.synth` scenes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.vision.calibration import (
    CameraCalibration,
    TableCalibration,
    TableView,
    calibrate_table,
)
from companion.vision.geometry import transform

from .crafted import draw_scene


def _grid(w: float, h: float, n: int = 9) -> np.ndarray:
    xs, ys = np.meshgrid(np.linspace(0, w, n), np.linspace(0, h, n))
    return np.c_[xs.ravel(), ys.ravel()]


def _similarity(a: np.ndarray, b: np.ndarray) -> tuple[complex, complex]:
    """Least-squares similarity z -> m*z + c taking points a onto points b (as complex)."""
    za, zb = a[:, 0] + 1j * a[:, 1], b[:, 0] + 1j * b[:, 1]
    ca, cb = za.mean(), zb.mean()
    m = np.vdot(za - ca, zb - cb) / np.vdot(za - ca, za - ca)
    return m, cb - m * ca


def _reprojection_px(cal, plane_to_image: np.ndarray, image_pts: np.ndarray
                     ) -> tuple[float, float]:
    """(max pixel error, scale) of our homography against the rendered one. Our table frame
    (origin marker 0, mm from the printed marker size) and the renderer's differ by a
    similarity, which is fitted and removed; the rest must agree pixel for pixel."""
    ours = TableView(cal).to_plane(image_pts)
    theirs = transform(image_pts, np.linalg.inv(plane_to_image))
    m, c = _similarity(ours, theirs)
    z = m * (ours[:, 0] + 1j * ours[:, 1]) + c
    back = transform(np.c_[z.real, z.imag], plane_to_image)
    return float(np.abs(back - image_pts).max()), float(abs(m))


@pytest.mark.parametrize("tilt", [0.0, 0.6, 1.0])
def test_crafted_marker_board_gives_its_homography(tilt):
    scene = draw_scene(3, n_cards=6, tilt=tilt, card_px=60, noise=1.0)
    cal = calibrate_table(scene.image)
    assert cal is not None
    assert cal.play_area_mm == pytest.approx((900.0, 560.0), rel=0.03)   # scale from 40 mm
    pts = transform(_grid(900.0, 560.0), scene.plane_to_image)
    err, scale = _reprojection_px(cal, scene.plane_to_image, pts)
    assert err < 0.5
    assert scale == pytest.approx(1.0, rel=0.03)


@pytest.mark.parametrize("seed,tilt", [(1, 0.0), (2, 20.0), (3, 35.0)])
def test_synth_scene_markers_give_the_rendered_homography(seed, tilt):
    from companion.scenarios import hexel_scene
    from companion.synth.scene import sample_params

    params = dataclasses.replace(sample_params(seed, "topdown"), tilt_deg=tilt, yaw_deg=25.0,
                                 markers=True, jitter_deg=0.0, jitter_mm=0.0)
    image, truth = hexel_scene(seed, "topdown", 8, "holodex", params=params)
    cal = calibrate_table(image)
    assert cal is not None
    h = np.asarray(truth.homography)
    corners = np.concatenate([np.asarray(m.corners_mm) for m in truth.markers])
    lo, hi = corners.min(0), corners.max(0)
    xs, ys = np.meshgrid(np.linspace(lo[0], hi[0], 9), np.linspace(lo[1], hi[1], 9))
    pts = transform(np.c_[xs.ravel(), ys.ravel()], h)
    err, scale = _reprojection_px(cal, h, pts)
    assert err < 0.5
    assert scale == pytest.approx(1.0, rel=0.03)


def test_no_markers_means_no_calibration():
    scene = draw_scene(4, n_cards=5, markers=False)
    assert calibrate_table(scene.image) is None


def test_calibrations_round_trip_through_json():
    cam = CameraCalibration(((800.0, 0.0, 640.0), (0.0, 800.0, 360.0), (0.0, 0.0, 1.0)),
                            (-0.1, 0.01, 0.0, 0.0, 0.0), (1280, 720), 0.3)
    table = TableCalibration(((1.0, 0.0, 2.0), (0.0, 1.0, 3.0), (0.0, 0.0, 1.0)), (500.0, 400.0),
                             40.0, 0.1, cam)
    assert TableCalibration.from_json(table.to_json()) == table
    pts = np.array([[100.0, 50.0], [1200.0, 700.0]])
    assert np.allclose(cam.undistort(cam.distort(pts)), pts, atol=0.05)
