"""Image effects: light colour, kernels, noise, hands."""

from __future__ import annotations

import time

import numpy as np
import pytest

from companion.synth import effects
from companion.synth.camera import fit_camera


def test_warm_light_is_red_and_full_correction_is_neutral():
    b, g, r = effects.white_balance_gains(2800, 0.0)
    assert r > g > b
    assert np.allclose(effects.white_balance_gains(2800, 1.0), 1.0)
    assert np.allclose(effects.white_balance_gains(6500, 0.0), 1.0, atol=1e-3)


@pytest.mark.parametrize(("defocus", "motion", "sharp"), [(1.5, 0, 0), (0, 5, 0), (1, 4, 0.5),
                                                         (0, 0, 0.6)])
def test_blur_kernels_keep_brightness(defocus, motion, sharp):
    k = effects.blur_kernel(defocus, motion, 30.0, sharp)
    assert k is not None and k.sum() == pytest.approx(1.0, abs=1e-5)
    assert (k.min() < 0) == (sharp > 0)  # unsharp masking has negative lobes
    assert effects.blur_kernel(0.1, 0.2, 0.0) is None


def test_noise_is_signal_dependent_and_seeded():
    img = np.full((200, 200, 3), 200.0, np.float32)
    img[:, :100] = 20.0
    a, b = img.copy(), img.copy()
    effects.sensor_noise(a, np.random.default_rng(1), 1.0, 0.5)
    effects.sensor_noise(b, np.random.default_rng(1), 1.0, 0.5)
    assert np.array_equal(a, b)
    assert a[:, 100:].std() > 2 * a[:, :100].std()
    assert abs(a.mean() - img.mean()) < 0.5


def test_colour_matrix_keeps_greys():
    m = effects.colour_matrix(np.random.default_rng(3), 0.1)
    assert np.allclose(m @ np.ones(3), 1.0, atol=1e-5)


def test_hand_marks_what_it_covers():
    cam = fit_camera(np.array([(-300, -200), (300, 200)]), (640, 360), 900, 0, 0, 0, 0.8, 0.0)
    img = np.full((360, 640, 3), 100.0, np.float32)
    occ = np.zeros((360, 640), np.uint8)
    effects.draw_hand(img, occ, effects.Hand(entry_mm=(0, 1200), palm_mm=(0, 0)), cam.project)
    x, y = cam.project(np.array([(0.0, 0.0)]))[0].astype(int)
    assert occ[y, x] == 255 and occ[10, 10] == 0
    assert abs(img[y, x] - 100).max() > 10  # skin, not table
    assert occ.mean() / 255 < 0.3


@pytest.mark.bench
def test_render_speed():
    from companion.scenarios import hexel_layout
    from companion.synth.scene import render_scene, sample_params

    for band in ("easy", "hard"):
        jobs = [(hexel_layout(s, 20), sample_params(s, band)) for s in range(10)]
        for cards, p in jobs:
            render_scene(cards, "holodex", p)
        times = []
        for cards, p in jobs:
            t = time.process_time()
            render_scene(cards, "holodex", p)
            times.append(time.process_time() - t)
        print(f"{band}: median {1000 * float(np.median(times)):.0f} ms CPU per 1280x720 scene")
