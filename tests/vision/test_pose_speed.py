"""The pose search's fast paths give the plain paths' numbers. `geometry.transform` maps points
through a homography column by column instead of by a matrix product (NumPy's product of an
N x 2 by a 2 x 3 is several times slower for the hundred thousand points `symbol_pose` maps for
one card): the same points to within 1e-9 px. `symbol_pose._ink` takes each point's darkest
channel with `fast_reduce.min3` instead of NumPy's reduction of a last axis of three: the same
values, bit for bit (`_reference_ink` below is the plain form, kept here only to pin it)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import symbol_pose
from companion.vision.calibration import TableView
from companion.vision.geometry import transform
from companion.vision.symbol_samples import Pose, pose_points, sample

from .test_band_pose import _card


def _reference_transform(points: np.ndarray, h: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    homog = pts @ h[:, :2].T + h[:, 2]
    return homog[:, :2] / homog[:, 2:3]


def _reference_ink(frame, view, poses, local, white):
    pts = np.stack([pose_points([q], loc)[0] for q, loc in zip(
        poses, np.broadcast_to(local, (len(poses), *local.shape[-2:])), strict=True)])
    img = view.to_image(pts.reshape(-1, 2)).reshape(pts.shape)
    vals, _ = sample(frame, img)
    return np.clip(1.0 - (vals / white[:, None, :]).min(-1), 0.0, 1.0)


@pytest.mark.parametrize("n", [1, 7, 5000, 120_000])
def test_transform_maps_points_as_the_matrix_product_does(n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        h = rng.normal(size=(3, 3))
        h[2] = [rng.uniform(-1e-3, 1e-3), rng.uniform(-1e-3, 1e-3), 1.0]   # a real perspective
        pts = rng.uniform(-50.0, 1500.0, (n, 2))
        got = transform(pts, h)
        assert got.shape == (n, 2) and got.dtype == np.float64
        np.testing.assert_allclose(got, _reference_transform(pts, h), rtol=0, atol=1e-9)


def test_transform_without_a_homography_gives_the_points_back():
    pts = [[1.5, 2.0], [3.0, -4.25]]
    np.testing.assert_array_equal(transform(pts, None), np.array(pts))
    # (one point as a flat pair)
    h = np.array([[2.0, 0.0, 1.0], [0.0, 3.0, -1.0], [0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(transform(np.array([1.0, 2.0]), h), [[3.0, 5.0]])


def test_ink_takes_the_darkest_channel_as_the_plain_reduction_does():
    img, truth = _card()
    poses = [truth, Pose((truth.centre[0] + 3.0, truth.centre[1] - 2.0), truth.apothem * 0.97,
                         truth.angle + math.radians(2.0), 1, ((1.03, 0.01), (0.01, 0.972)))]
    local = np.random.default_rng(3).uniform(-1.1, 1.1, (400, 2))
    white = np.array([[200.0, 210.0, 220.0], [180.0, 190.0, 230.0]])
    got = symbol_pose._ink(img, TableView(), poses, local, white)
    want = _reference_ink(img, TableView(), poses, local, white)
    assert got.shape == (2, 400)
    np.testing.assert_array_equal(got, want)
    assert 0.0 < got.max() <= 1.0 and got.min() == 0.0   # ink and bare paper both sampled
