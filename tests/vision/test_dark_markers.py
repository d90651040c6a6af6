"""Table markers blurred past the decoder's outline (`calibration.dark_markers`): motion blur
of about a module rounds a small marker's corners off and merges its border with its dark
modules, so the ArUco decoder finds no four-cornered outline to reject, and matching the quads
it rejected (`match_markers`) has nothing to match. Its black border and dark modules still make
one dark, nearly convex blob on its white quiet zone (`aruco_match.dark_quads`), whose code is
matched as a rejected quad's is. Looked for only while fewer than three markers are found: a
fourth found so is a blurred outline's pixel or two off, and three-marker tables read as well
without it (hard 323, never-seen 20514 and 21641 each lost a card or two to such a fourth)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.scenarios import hexel_scene
from companion.vision.calibration import calibrate_table, detect_markers

from .hexel_scenes import scored


def test_markers_blur_left_without_an_outline_are_found_as_dark_blobs():
    """Hard 316: a 27 degree tilt, motion blur of 5.7 px over markers 23-33 px wide; the
    decoder reads marker 2 alone. The other three are found within 2 px of the scene's truth
    (marker 2's own decoded corners lie 1.2 px off it), and the table calibrates from all four."""
    image, truth = hexel_scene(316, "hard", 20, "holodex")
    markers = detect_markers(image)
    assert sorted(markers) == [0, 1, 2, 3]
    for marker in truth.markers:
        assert marker.visible > 0.999
        assert np.linalg.norm(markers[marker.id] - np.asarray(marker.corners),
                              axis=1).max() < 2.0
    cal = calibrate_table(image)
    assert cal is not None and cal.complete


def test_a_table_the_blur_left_uncalibrated_is_read_through_its_markers():
    """Never-seen table 20225: uncalibrated before (10 of its 20 cards read right, working in
    the image), calibrated now, 16 read right; nothing misread, no false card."""
    from companion.vision.reader import HexelReader

    image, truth = hexel_scene(20225, "hard", 20, "web")
    reader = HexelReader("web", find_markers=False)
    assert reader.calibrate(image)
    res = reader.read(image)
    s = scored(truth, res.observation.cards)
    assert (s.misreads, s.false_cards) == (0, 0), s
    assert s.correct >= 16, s
    assert not any(n.startswith("uncalibrated") for n in res.observation.notes)


def test_three_markers_found_are_not_joined_by_a_blurred_fourth():
    """Hard 167: markers 0, 2 and 3 decode; marker 1, blurred, is a dark blob its code matches,
    but three markers calibrate the table and no blob is looked for."""
    image, _truth = hexel_scene(167, "hard", 20, "web")
    assert sorted(detect_markers(image)) == [0, 2, 3]
    cal = calibrate_table(image)
    assert cal is not None and cal.markers == (0, 2, 3)


def test_other_aruco_codes_blurred_to_blobs_are_no_table_markers():
    """Three markers of another id (4, 5, 6: the Hexapod cases' are 10 and up) motion-blurred on a
    grey table: dark blobs of a marker's size, whose codes match no table marker's."""
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img = np.full((300, 420), 150, np.uint8)
    for k, mid in enumerate((4, 5, 6)):
        tile = np.pad(d.generateImageMarker(mid, 24, borderBits=1), 8, constant_values=240)
        img[100:100 + tile.shape[0], 40 + 120 * k:40 + 120 * k + tile.shape[1]] = tile
    kernel = np.zeros((6, 6), np.float32)
    kernel[3, :] = 1.0 / 6.0
    assert detect_markers(cv2.filter2D(img, -1, kernel)) == {}
