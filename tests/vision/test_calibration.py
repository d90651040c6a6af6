"""Table calibration round trips: a rendered marker board gives back the homography it was
rendered with (within 0.5 px), both on our own crafted board and on `companion.synth` scenes."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from companion.vision.calibration import (
    CameraCalibration,
    TableCalibration,
    TableView,
    calibrate_table,
    detect_markers,
    fit_free,
    fit_table,
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


def _board_only(scene) -> np.ndarray:
    """The scene's image with everything outside the drawn table (where the crafted camera
    mirrors the board at the frame's edge, markers included) painted a flat table colour."""
    image = scene.image.copy()
    canvas = transform(np.array([[-40.0, -40.0], [940.0, -40.0], [940.0, 600.0], [-40.0, 600.0]]),
                       scene.plane_to_image)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(canvas).astype(np.int32), 255)
    image[inside == 0] = (60, 100, 150)
    return image


def _marker_image_square(scene, marker_id: int, grow_mm: float = 12.0) -> np.ndarray:
    """Image polygon (4 x 2) of a marker's square grown by `grow_mm` (its quiet zone and more)."""
    cx, cy = [(0.0, 0.0), (900.0, 0.0), (900.0, 560.0), (0.0, 560.0)][marker_id]
    half = 20.0 + grow_mm
    sq = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                   [cx - half, cy + half]])
    return transform(sq, scene.plane_to_image)


@pytest.mark.parametrize("covered", [0, 1, 2, 3])
def test_three_markers_give_the_homography_when_a_hand_covers_the_fourth(covered):
    """A hand over one marker (a skin-coloured blob over it and its quiet zone): the other
    three markers' twelve corners still give the table's homography within 1 px (the
    far corner, where the hidden marker was, is extrapolated)."""
    scene = draw_scene(3, n_cards=6, tilt=0.6, card_px=60, noise=1.0)
    image = _board_only(scene)
    cv2.fillConvexPoly(image, np.round(_marker_image_square(scene, covered)).astype(np.int32),
                       (110, 150, 205), cv2.LINE_AA)
    cal = calibrate_table(image)
    assert cal is not None
    assert cal.markers == tuple(i for i in range(4) if i != covered)
    assert not cal.complete
    assert cal.play_area_mm == pytest.approx((900.0, 560.0), rel=0.03)
    pts = transform(_grid(900.0, 560.0), scene.plane_to_image)
    err, scale = _reprojection_px(cal, scene.plane_to_image, pts)
    assert err < 1.0
    assert scale == pytest.approx(1.0, rel=0.03)


def test_two_markers_are_not_a_calibration():
    scene = draw_scene(3, n_cards=6, tilt=0.6, card_px=60, noise=1.0)
    image = _board_only(scene)
    for covered in (1, 2):
        cv2.fillConvexPoly(image, np.round(_marker_image_square(scene, covered)).astype(np.int32),
                           (110, 150, 205), cv2.LINE_AA)
    assert calibrate_table(image) is None


def test_a_marker_of_another_size_is_left_out():
    """Marker 1 taken from another sheet, printed at 80 mm instead of 40: its corners cannot
    fit the others' rectangle at the printed size, so the fit leaves it out and the three
    others calibrate the table."""
    scene = draw_scene(3, n_cards=6, tilt=0.3, card_px=60, noise=1.0)
    image = _board_only(scene)
    side = 400
    big = np.full((side + 100, side + 100), 255, np.uint8)   # the marker and its quiet zone
    big[50:50 + side, 50:50 + side] = cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), 1, side)
    half = 40.0 * (side + 100) / side   # mm from the centre to the sheet's edge
    dst = transform(np.array([[900.0 - half, -half], [900.0 + half, -half],
                              [900.0 + half, half], [900.0 - half, half]]),
                    scene.plane_to_image)
    src = np.array([[0, 0], [side + 100, 0], [side + 100, side + 100], [0, side + 100]],
                   np.float32)
    warp = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    sheet = cv2.warpPerspective(cv2.cvtColor(big, cv2.COLOR_GRAY2BGR), warp,
                                image.shape[1::-1], flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.full_like(big, 255), warp, image.shape[1::-1]) > 128
    image[inside] = sheet[inside]
    assert sorted(detect_markers(image)) == [0, 1, 2, 3]
    cal = calibrate_table(image)
    assert cal is not None
    assert cal.markers == (0, 2, 3)
    pts = transform(_grid(900.0, 560.0), scene.plane_to_image)
    err, _ = _reprojection_px(cal, scene.plane_to_image, pts)
    assert err < 1.0


@pytest.mark.parametrize("card_px,length,angle", [(50, 7, 0.0), (50, 7, 90.0), (60, 9, 45.0)])
def test_markers_smeared_by_motion_blur_are_still_found(card_px, length, angle):
    """Motion blur about one module long (the camera shaken, a 27-32 px marker): all four are
    found, by the last, relaxed pass. The rectangle's aspect comes from the markers' own
    squares, which the blur rounds, so the table is calibrated to within 1 % of its width."""
    scene = draw_scene(3, n_cards=6, tilt=0.6, card_px=card_px, noise=2.0)
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    k = cv2.warpAffine(k, rot, (length, length))
    image = cv2.filter2D(_board_only(scene), -1, k / k.sum())
    assert sorted(detect_markers(image)) == [0, 1, 2, 3]
    cal = calibrate_table(image)
    assert cal is not None and cal.complete
    pts = transform(_grid(900.0, 560.0), scene.plane_to_image)
    err, _ = _reprojection_px(cal, scene.plane_to_image, pts)
    width_px = float(np.linalg.norm(pts[8] - pts[0]))
    assert err < 0.01 * width_px


def test_the_reader_says_it_works_from_three_markers_and_takes_the_fourth_when_it_shows():
    """A hand on marker 2 at the first frame: the reader calibrates from the other three and
    says so with every reading; once the hand is gone, its next marker search (every 30th
    frame) takes all four, and it never gives them up for three again."""
    from companion.vision.reader import MARKER_RETRY_FRAMES, HexelReader

    scene = draw_scene(3, n_cards=6, tilt=0.6, card_px=60, noise=1.0)
    clear = _board_only(scene)
    covered = clear.copy()
    cv2.fillConvexPoly(covered, np.round(_marker_image_square(scene, 2)).astype(np.int32),
                       (110, 150, 205), cv2.LINE_AA)
    reader = HexelReader("holodex")
    first = reader.read(covered)
    assert first.observation.calibrated
    assert ("calibrated from three table markers (marker 2 not seen, or left out as not "
            "fitting the others)") in first.observation.notes
    for _ in range(MARKER_RETRY_FRAMES):
        later = reader.read(clear)
    assert reader.view.table is not None and reader.view.table.complete
    assert not any("three table markers" in n for n in later.observation.notes)
    assert reader.calibrate(covered)              # three found, but four are kept
    assert reader.view.table.complete


def _marker_patch(marker_id: int, surround: str = "paper", turn_deg: float = 20.0,
                  blur_px: int = 12, at: tuple[float, float] = (120.0, 120.0),
                  image: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(grey image, marker corners in ArUco order): a 36 px marker turned by `turn_deg` and
    smeared by `blur_px` of horizontal camera motion (two modules: the decoder gives up),
    printed with its white quiet zone on a plain table (`surround` "paper") or, as a cloth's
    or a card's pattern would show it, with no quiet zone on the table's grey ("cloth")."""
    hi = 8                                      # drawn 8x finer, then averaged down
    size = 240 if image is None else image.shape[0]
    canvas = np.full((size * hi, size * hi), 110, np.uint8) if image is None else \
        cv2.resize(image, None, fx=hi, fy=hi, interpolation=cv2.INTER_NEAREST)
    side, module = 36 * hi, 6 * hi
    patch = np.full((side + 3 * module, side + 3 * module), 235, np.uint8)
    if surround == "cloth":
        patch[:] = 110
    o = 3 * module // 2
    patch[o:o + side, o:o + side] = cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), marker_id, side)
    centre = (patch.shape[1] / 2 - 0.5, patch.shape[0] / 2 - 0.5)
    rot = cv2.getRotationMatrix2D(centre, turn_deg, 1.0)
    rot[:, 2] += np.array(at) * hi - np.array(centre)
    mask = np.zeros_like(canvas)
    cv2.warpAffine(patch, rot, canvas.shape[::-1], dst=canvas, borderMode=cv2.BORDER_TRANSPARENT)
    cv2.warpAffine(np.full_like(patch, 255), rot, canvas.shape[::-1], dst=mask)
    grey = cv2.resize(canvas, None, fx=1 / hi, fy=1 / hi, interpolation=cv2.INTER_AREA)
    grey = cv2.blur(grey, (blur_px, 1))
    square = np.array([[o, o], [o + side, o], [o + side, o + side], [o, o + side]]) - 0.5
    corners = (cv2.transform(square[None], rot)[0] + 0.5) / hi - 0.5
    return grey, corners


def test_a_smeared_marker_is_matched_by_its_code_within_a_pixel():
    """The decoder cannot read a marker smeared by more than a module, yet its code still
    correlates clearly with the printed one: `match_markers` takes its outline, in the right
    turn, and the refined corners lie within 1.25 px of the truth (the decoder's own corners
    are off by 2-3 px on this marker smeared by 10-11 px, where it still reads it)."""
    from companion.vision.calibration import match_markers

    grey, corners = _marker_patch(1)
    ids = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(
        cv2.aruco.DICT_4X4_50)).detectMarkers(grey)[1]
    assert ids is None or 1 not in ids.ravel()          # the decoder gives up
    got = match_markers(grey, [np.roll(corners, 1, 0).round()], (0, 1), [])
    assert sorted(got) == [1]
    assert np.linalg.norm(got[1] - corners, axis=1).max() < 1.25


def test_a_matching_code_without_a_quiet_zone_or_whole_outline_is_not_a_marker():
    """Quads that are not a marker's whole outline are never taken, even when their inside
    correlates with a missing marker's code, border included: the code printed with no white
    quiet zone (a cloth's or a card's pattern), an outline a shadow cut short at a corner (its
    code still matches; its corner would be 2.5 px off), a code whose id was decoded already,
    and a code seen at two places (one of them is not the table's marker)."""
    from companion.vision.aruco_match import code_scores, code_templates
    from companion.vision.calibration import MIN_CODE, MIN_FRAMED, match_markers

    cloth, corners = _marker_patch(1, "cloth", blur_px=8)
    for framed, least in ((False, MIN_CODE), (True, MIN_FRAMED)):
        templates = code_templates("DICT_4X4_50", (0, 1, 2, 3), 6, framed)
        assert code_scores(cloth, corners[None], templates, 6, framed).max() >= least
    assert match_markers(cloth, [corners.round()], (0, 1), []) == {}

    grey, corners = _marker_patch(1)
    cut = corners.copy()
    cut[2] += 0.1 * (corners[3] - corners[2])
    assert match_markers(grey, [cut.round()], (1,), []) == {}
    assert match_markers(grey, [corners.round()], (0, 2, 3), []) == {}

    twice, other = _marker_patch(1, at=(120.0, 60.0), image=grey)
    assert sorted(match_markers(twice, [other.round()], (1,), [])) == [1]
    assert match_markers(twice, [corners.round(), other.round()], (1,), []) == {}


@pytest.mark.parametrize("seed,ids", [(2, [2]), (182, [1, 2]), (192, [2])])
def test_rendered_tables_markers_lost_to_blur_are_found_by_their_code(seed, ids):
    """Hard rendered tables (motion blur 3-6 px, defocus, a 14-16 degree tilt) where the decoder
    misses fully visible markers: matching the quads it rejected finds them, corners within a
    pixel of the scene's truth, and the table calibrates with them."""
    from companion.scenarios import hexel_scene

    image, truth = hexel_scene(seed, "hard", 20, ("holodex", "web")[seed % 2])
    markers = detect_markers(image)
    for marker in truth.markers:
        if marker.id in ids:
            assert marker.visible > 0.999
            assert np.linalg.norm(markers[marker.id] - np.asarray(marker.corners),
                                  axis=1).max() < 1.0
    cal = calibrate_table(image)
    assert cal is not None and set(ids) <= set(cal.markers)


def _hand_laid_board(moves_mm, turns_deg, tilt: float = 0.8) -> tuple[np.ndarray, np.ndarray]:
    """(image, plane mm -> image homography) of a plain table with the four markers laid by hand
    at the corners of a 900 x 560 mm play area: each moved by `moves_mm` off its corner and
    turned by `turns_deg`, so their centres form no rectangle and their squares are not square
    with each other."""
    ppm = 2.0                                   # canvas px per mm
    off = np.array([60.0, 60.0])                # the plane origin (marker 0's corner) on it
    pw, ph = int((900 + 120) * ppm), int((560 + 120) * ppm)
    rng = np.random.default_rng(5)
    colour = np.array([95.0, 120.0, 150.0])
    canvas = np.clip(rng.normal(0, 3, (ph, pw, 3)) + colour, 0, 255).astype(np.uint8)
    table = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side, quiet = int(40 * ppm), int(8 * ppm)
    for i, (corner, move, turn) in enumerate(zip([(0, 0), (900, 0), (900, 560), (0, 560)],
                                                 moves_mm, turns_deg, strict=True)):
        sheet = np.full((side + 2 * quiet, side + 2 * quiet), 250, np.uint8)
        sheet[quiet:quiet + side, quiet:quiet + side] = cv2.aruco.generateImageMarker(
            table, i, side)
        centre = (np.add(corner, move) + off) * ppm
        half = (side + 2 * quiet) / 2.0
        m = cv2.getRotationMatrix2D((half, half), -turn, 1.0)
        m[:, 2] += centre - half
        warped = cv2.warpAffine(cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR), m, (pw, ph),
                                flags=cv2.INTER_AREA)
        inside = cv2.warpAffine(np.full_like(sheet, 255), m, (pw, ph)) > 128
        canvas[inside] = warped[inside]
    scale = 0.55 / ppm                          # 0.55 image px per mm: ~22 px markers at least
    w, h = 1280, 720
    hw, hh, k = pw * scale / 2, ph * scale / 2, tilt * 0.25
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    dst = np.array([[w / 2 - hw * (1 - k), h / 2 - hh], [w / 2 + hw * (1 - k), h / 2 - hh],
                    [w / 2 + hw * (1 + k), h / 2 + hh], [w / 2 - hw * (1 + k), h / 2 + hh]],
                   np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    image = cv2.warpPerspective(cv2.GaussianBlur(canvas, (0, 0), 0.45 / scale), hom, (w, h),
                                flags=cv2.INTER_LINEAR)
    to_canvas = np.array([[ppm, 0, off[0] * ppm], [0, ppm, off[1] * ppm], [0, 0, 1]])
    return image, hom @ to_canvas


@pytest.mark.parametrize("tilt", [0.0, 0.8])
def test_markers_laid_by_hand_still_give_the_tables_homography(tilt):
    """Four markers laid by hand, each up to 15 mm off its corner and turned up to 8 degrees:
    their centres form no rectangle, so the rectangle's fit misses their corners by pixels and
    bends the plane (cards would not be regular hexagons in it). Each marker fitted as its own
    40 mm square on one plane (`fit_free`) gives the table's homography within a pixel, all
    four markers used, at the true scale."""
    image, plane_to_image = _hand_laid_board([(12, -9), (-15, 7), (10, 14), (-8, -13)],
                                             [6, -8, 4, -7], tilt)
    markers = detect_markers(image)
    assert sorted(markers) == [0, 1, 2, 3]
    pts = transform(_grid(900.0, 560.0), plane_to_image)
    rect_err, _ = _reprojection_px(fit_table(markers), plane_to_image, pts)
    assert rect_err > 3.0            # the rectangle is the wrong model for these markers
    cal = calibrate_table(image)
    assert cal is not None and cal.complete
    err, scale = _reprojection_px(cal, plane_to_image, pts)
    assert err < 1.0
    assert scale == pytest.approx(1.0, rel=0.02)
    assert cal.play_area_mm == pytest.approx((900.0, 560.0), abs=25.0)


def test_free_squares_fit_a_rectangle_of_markers_as_well_as_the_rectangle():
    """On markers laid exactly square the free fit (more freedom, the same corners) misses the
    corners by no more than the rectangle's and still gives the table's homography within a
    pixel over the play area, at the true scale and size (the rectangle, with less freedom,
    within half a pixel: `calibrate_table` keeps it where it fits)."""
    scene = draw_scene(3, n_cards=6, tilt=0.6, card_px=60, noise=1.0)
    markers = detect_markers(_board_only(scene))
    rect = fit_table(markers)
    free = fit_free(markers, start=rect)
    assert free.rms_px <= rect.rms_px + 1e-9
    pts = transform(_grid(900.0, 560.0), scene.plane_to_image)
    for cal, within in ((rect, 0.5), (free, 1.0)):
        err, scale = _reprojection_px(cal, scene.plane_to_image, pts)
        assert err < within
        assert scale == pytest.approx(1.0, rel=0.03)
    assert free.play_area_mm == pytest.approx(rect.play_area_mm, abs=5.0)
