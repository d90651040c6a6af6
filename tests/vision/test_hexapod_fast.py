"""The Hexapod reader's vectorised paths give what a plain per-quad loop gives: every quad's
module means (`aruco_match.module_means`, all quads through one remap, the modules summed as
integers) against a reference written here that samples each quad on its own, point by point,
and averages each module's samples in floating point. The image is noise blurred just enough
to vary within a module, so a module taken from the wrong quad, row, column or sample reads a
different value."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.aruco_match import SAMPLES, module_means


def _image(seed: int, dtype: type = np.uint8) -> np.ndarray:
    """A 300 x 400 grey image of blurred noise over the full 0-255 range."""
    rng = np.random.default_rng(seed)
    img = cv2.GaussianBlur(rng.integers(0, 256, (300, 400)).astype(np.float32), (0, 0), 1.5)
    img = cv2.normalize(img, None, 0, 255, cv2.NORM_MINMAX)
    return np.round(img).astype(np.uint8) if dtype == np.uint8 else img.astype(dtype)


def _quads(seed: int, n: int) -> np.ndarray:
    """(n, 4, 2) float32 quads: 20-40 px squares, turned and skewed, inside the image."""
    rng = np.random.default_rng(seed)
    side = rng.uniform(20, 40, n)
    ang = rng.uniform(0, 2 * np.pi, n)
    unit = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float64) - 0.5
    rot = np.stack([np.c_[np.cos(ang), -np.sin(ang)], np.c_[np.sin(ang), np.cos(ang)]], axis=1)
    q = np.einsum("nij,kj->nki", rot, unit) * side[:, None, None]
    q += rng.uniform(-3, 3, (n, 4, 2))                  # perspective-like skew
    q += rng.uniform((40, 40), (360, 260), (n, 1, 2))   # somewhere in the 400 x 300 image
    return q.astype(np.float32)


def _reference(grey: np.ndarray, quad: np.ndarray, modules: int, framed: bool) -> np.ndarray:
    """One quad's module means, row by row, zero-mean and unit-norm: every sample point is
    the bilinear blend of the corners at its (u, v), sampled on its own, and each module's
    SAMPLES x SAMPLES samples averaged in float64."""
    first, cells = (-1, modules + 2) if framed else (1, modules - 2)
    tl, tr, br, bl = quad.astype(np.float64)
    means = np.zeros((cells, cells))
    for row in range(cells):
        for col in range(cells):
            total = 0.0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    u = ((first + col) * SAMPLES + sx + 0.5) / (modules * SAMPLES)
                    v = ((first + row) * SAMPLES + sy + 0.5) / (modules * SAMPLES)
                    x, y = ((1 - u) * (1 - v) * tl + u * (1 - v) * tr + u * v * br
                            + (1 - u) * v * bl)
                    mx = np.array([[x]], np.float32)
                    my = np.array([[y]], np.float32)
                    total += float(cv2.remap(grey, mx, my, cv2.INTER_LINEAR)[0, 0])
            means[row, col] = total / SAMPLES ** 2
    vals = means.ravel() - means.mean()
    return vals / max(np.linalg.norm(vals), 1e-3)


@pytest.mark.parametrize("framed", [False, True])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_module_means_are_each_quads_own(framed: bool, dtype: type) -> None:
    grey = _image(3, dtype)
    quads = _quads(4, 25)
    got = module_means(grey, quads, 6, framed)
    cells = 8 if framed else 4
    assert got.shape == (25, cells * cells) and got.dtype == np.float32
    want = np.stack([_reference(grey, q, 6, framed) for q in quads])
    # the reference rounds its sample points differently (float64 blends, one remap a point),
    # which may move a sample by a 32nd of a pixel: a hair on a unit-norm vector, far below
    # what one module from the wrong quad, row or column changes
    assert np.abs(got - want).max() < 2e-3
    # and each quad's means differ clearly from every other quad's (the test can tell them)
    others = np.abs(want[:, None] - want[None]).max(axis=2) + np.eye(len(want))
    assert others.min() > 0.1


def test_module_means_across_remap_chunks_keep_quad_order() -> None:
    """More quads than one remap takes (32767 map rows: 1023 framed quads of 32 rows): the
    chunks come back in order, each quad's means its own."""
    grey = _image(5)
    quads = _quads(6, 1100)
    got = module_means(grey, quads, 6, True)
    assert got.shape == (1100, 64)
    for i in (0, 1, 511, 1022, 1023, 1024, 1099):
        assert np.abs(got[i] - _reference(grey, quads[i], 6, True)).max() < 2e-3, i
    # a chunk read alone gives the same rows bit for bit (no quad's means depend on others)
    assert np.array_equal(got[1000:1100], module_means(grey, quads[1000:1100], 6, True))


def test_module_means_of_a_flat_quad_are_zero() -> None:
    """A quad over a uniform patch has no contrast: all its means zero (the norm's floor),
    beside a quad with contrast."""
    grey = _image(7)
    grey[10:60, 10:60] = 140
    quads = np.array([[(20, 20), (45, 20), (45, 45), (20, 45)],
                      [(200, 100), (230, 100), (230, 130), (200, 130)]], np.float32)
    got = module_means(grey, quads, 6, False)
    assert np.array_equal(got[0], np.zeros(16, np.float32))
    assert abs(np.linalg.norm(got[1]) - 1.0) < 1e-5


def _marker_table(seed: int) -> np.ndarray:
    """A grey 360 x 480 table of noise with case markers 10 and 12 and a few plain dark
    squares and half-erased markers (quads the decoder finds and rejects)."""
    rng = np.random.default_rng(seed)
    img = cv2.GaussianBlur(rng.integers(90, 200, (360, 480)).astype(np.uint8), (0, 0), 2)
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for k, (mid, x, y) in enumerate([(10, 40, 40), (12, 300, 200), (11, 160, 60),
                                     (13, 380, 40)]):
        m = cv2.aruco.generateImageMarker(d, mid, 48, borderBits=1)
        img[y - 8:y + 56, x - 8:x + 56] = 255
        img[y:y + 48, x:x + 48] = m
        if k >= 2:                               # its code erased: a quad the decoder rejects
            img[y + 12:y + 36, x + 12:x + 36] = rng.integers(0, 256, (24, 24))
    for x, y in [(60, 250), (200, 220)]:
        img[y - 8:y + 48, x - 8:x + 48] = 255
        img[y:y + 40, x:x + 40] = 30
    return img


def test_detect_gives_each_rejected_quad_as_the_decoder_found_it() -> None:
    """`detect` converts the rejected quads in one go: each is the decoder's own corners
    (float64, 4 x 2) moved by the crop's origin, in the decoder's order."""
    from companion.vision.hexapod_markers import case_codes, detect, make_detector

    grey = _marker_table(8)
    codes = case_codes()
    detector = make_detector(codes)
    origin = (17, 5)
    found, quads = detect(grey, detector, origin=origin, codes=codes)
    _, _, rejected = detector.detectMarkers(grey)
    assert len(rejected) >= 2 and len(quads) == len(rejected)
    for got, raw in zip(quads, rejected, strict=True):
        assert got.dtype == np.float64 and got.shape == (4, 2)
        assert np.array_equal(got, raw.reshape(4, 2).astype(np.float64) + origin)
    assert sorted(i for i, _ in found) == [10, 12]
    # nothing rejected: an empty list, as before
    blank = np.full((120, 160), 128, np.uint8)
    assert detect(blank, detector, codes=codes) == ([], [])
