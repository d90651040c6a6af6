"""Each reader stage on crafted images: geometry, paper mask and hexagon fit, lattice, symbol
reading and colour normalisation (see conftest.draw_card / draw_scene)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision import symbol_samples
from companion.vision.calibration import TableView
from companion.vision.cards import fit_hexagons, hexagon_pose, paper_blobs, paper_mask
from companion.vision.colour import builtin_model
from companion.vision.geometry import axial_round, hexagon
from companion.vision.lattice import fit_lattice
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture


def test_axial_round_matches_cube_rounding():
    frac = np.array([[0.1, 0.1], [0.7, -0.2], [-0.2, 0.7], [2.49, -1.0]])
    assert axial_round(frac).tolist() == [[0, 0], [1, 0], [0, 1], [2, -1]]


def test_hexagon_pose_recovers_centre_size_and_angle():
    poly = hexagon(np.array([50.0, 40.0]), 20.0, math.radians(12.0))
    centre, apothem, angle = hexagon_pose(poly)
    assert np.allclose(centre, [50, 40], atol=1e-6)
    assert apothem == pytest.approx(20.0, rel=1e-6)
    assert math.degrees(angle) == pytest.approx(12.0, abs=0.5)


def card_image(symbols="RBVRBV", edition="holodex", surface="wood", rotation=0.0, seed=0,
               width_px=80.0):
    """One card drawn at a known pose on a textured table (px_per_mm chosen for width_px)."""
    rng = np.random.default_rng(seed)
    img = texture(surface, (240, 320), rng)
    ppm = width_px / HEXEL_FACE.flat_to_flat_mm
    draw_card(img, np.array([160.0, 120.0]), symbols, edition, ppm, rotation)
    return cv2.GaussianBlur(img, (0, 0), 0.7), width_px / 2.0


@pytest.mark.parametrize("surface", ["wood", "felt", "cloth", "photo", "white"])
def test_paper_mask_and_hexagon_fit_find_the_card(surface):
    img, apothem = card_image(surface=surface, rotation=17.0)
    mask = paper_mask(img, 1.0)
    cands, _ = fit_hexagons(paper_blobs(mask, 1.0, TableView()))
    near = [f for f in cands if math.dist(f.centre, (160, 120)) < 3]
    assert near, "the card's paper was not found as a hexagon"
    f = near[0]
    assert f.apothem == pytest.approx(apothem, rel=0.06)
    assert math.degrees(f.angle) == pytest.approx(17.0, abs=2.0)


@pytest.mark.parametrize("edition,symbols", [("holodex", "RBVRVB"), ("holodex", "VVVVVV"),
                                             ("web", "RBYYBR"), ("web", "YYYRRR")])
def test_symbols_read_at_a_known_pose(edition, symbols):
    img, apothem = card_image(symbols, edition, rotation=-8.0)
    read = read_cards(img, [Pose((160.0, 120.0), apothem, math.radians(-8.0))], TableView(),
                      builtin_model(edition))[0]
    assert read.symbols == symbols
    assert read.paper_ok > 0.9 and read.in_frame


@pytest.mark.parametrize("gains", [(0.55, 0.8, 1.25), (1.2, 0.95, 0.7), (0.6, 0.6, 0.6)])
def test_colour_casts_and_dim_light_do_not_change_a_symbol(gains):
    """2800 K-like (blue gain low) and 6500 K-like casts, and a dim exposure: the card's own
    paper is the white reference."""
    img, apothem = card_image("RBVVBR", "holodex", surface="felt")
    cast = np.clip(img.astype(np.float32) * np.array(gains[::-1], np.float32), 0, 255)
    read = read_cards(cast.astype(np.uint8), [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert read.symbols == "RBVVBR"


def test_a_covered_symbol_is_unreadable_not_guessed():
    img, apothem = card_image("RRRBBB", "holodex", surface="felt")
    centre = (int(160 + 0.6 * apothem), 120)
    cv2.circle(img, centre, int(0.3 * apothem), (120, 150, 200), -1)   # a fingertip on edge E
    read = read_cards(img, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert read.symbols[0] == "?"
    assert read.symbols[1:] == "RRBBB"


@pytest.mark.parametrize("blur", ["defocus", "motion"])
def test_a_blurred_grey_ring_still_reads_but_a_solid_grey_blob_does_not(blur):
    """Blur fills a small ring's middle (a 44 px card, 2.5 px defocus or 6 px of motion): it
    is still read as the ring. A solid grey blob of a symbol's size (a shadow, a dark stud) on
    one symbol place is never read as the ring: that edge stays '?'."""
    img, apothem = card_image("VRVBVV", "holodex", surface="felt", width_px=44.0)
    if blur == "defocus":
        img = cv2.GaussianBlur(img, (0, 0), 2.5)
    else:
        kernel = np.full((1, 7), 1.0 / 7.0, np.float32)
        img = cv2.filter2D(img, -1, kernel)
    pose = Pose((160.0, 120.0), apothem, 0.0)
    model = builtin_model("holodex")
    assert read_cards(img, [pose], TableView(), model)[0].symbols == "VRVBVV"
    # without the blur allowance (a partial blob's reading) the blurred rings are not trusted
    strict = read_cards(img, [pose], TableView(), model, blurred_rings=False)[0].symbols
    assert strict[1] == "R" and strict[3] == "B" and "?" in strict

    solid, _ = card_image("RRRBBB", "holodex", surface="felt", width_px=44.0)
    centre = (round(160 + HEXEL_FACE.symbol_centre_frac * apothem), 120)
    cv2.circle(solid, centre, round(0.9 * HEXEL_FACE.symbol_radius_frac * apothem),
               (40, 40, 44), -1, cv2.LINE_AA)
    solid = cv2.GaussianBlur(solid, (0, 0), 1.0)
    read = read_cards(solid, [pose], TableView(), model)[0]
    assert read.symbols[0] == "?"
    assert read.symbols[1:] == "RRBBB"


def test_a_finger_over_a_symbol_and_the_paper_beside_it_makes_that_symbol_unreadable():
    """A reddish-brown fingertip in shadow lying over a grey ring and the paper either side of
    it: the colour alone could pass for red ink, but a symbol without paper around it is '?'."""
    img, apothem = card_image("RRRVBB", "holodex", surface="felt")
    a = math.radians(-60.0 * 3)   # edge 3 (W)
    c = np.array([160.0, 120.0]) + HEXEL_FACE.symbol_centre_frac * apothem * np.array(
        [math.cos(a), math.sin(a)])
    axes = (round(0.42 * apothem), round(0.3 * apothem))
    cv2.ellipse(img, (round(c[0]), round(c[1])), axes, 90.0, 0, 360, (70, 80, 170), -1,
                cv2.LINE_AA)
    read = read_cards(img, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert read.symbols[3] == "?"
    assert read.symbols[:3] + read.symbols[4:] == "RRRBB"


def test_lattice_cells_direction_e_and_origin():
    pitch = 66.0
    rot = math.radians(20.0)   # lattice turned 20°: E is the direction at +20°
    e_q = pitch * np.array([math.cos(rot), math.sin(rot)])
    e_r = pitch * np.array([math.cos(rot + math.pi / 3), math.sin(rot + math.pi / 3)])
    cells = [(0, 0), (1, 0), (0, 1), (-1, 1), (2, -1), (1, -1)]
    centres = np.array([400 + q * e_q + r * e_r for q, r in cells])
    lat = fit_lattice(centres, np.full(len(cells), rot), np.full(len(cells), 32.0), TableView())
    got = axial_round(lat.fractional(centres))
    assert math.degrees(lat.angle_e) == pytest.approx(20.0, abs=0.5)
    # origin: the card nearest the centroid is (0, 0); the rest keep their offsets
    origin = np.argmin(np.linalg.norm(centres - centres.mean(0), axis=1))
    expect = np.array(cells) - np.array(cells[origin])
    assert got.tolist() == expect.tolist()


def _perspective_fits(cells, h, shift=None, moved=-1):
    """Whole-card fits of cards on a regular plane lattice seen through homography `h` (the
    plane is the image: uncalibrated), as the reader's hexagon stage gives them."""
    from companion.vision.cards import Blob, fit_card
    from companion.vision.geometry import transform

    pitch, apothem = 66.0, 30.0
    e_q, e_r = pitch * np.array([1.0, 0.0]), pitch * np.array([0.5, math.sqrt(3) / 2])
    fits = []
    for k, (q, r) in enumerate(cells):
        c = q * e_q + r * e_r + (shift if shift is not None and k == moved % len(cells)
                                 else 0.0)
        hull = transform(hexagon(c, apothem * (1 - HEXEL_FACE.border_frac), 0.0), h)
        blob = Blob(hull, hull, cv2.contourArea(hull.astype(np.float32)), False)
        fits.append(fit_card(blob, affine=True))
    return fits


def _grow(fits):
    from companion.vision.lattice import card_frame, grow_lattice

    return grow_lattice([card_frame(f.centre, f.apothem, f.angle, f.shape) for f in fits],
                        TableView())


# strong perspective: cards twice as wide at the near edge as at the far edge, and sheared
PERSPECTIVE = np.array([[1.0, 0.2, 640.0], [0.0, 0.9, 150.0], [0.0, 0.0008, 1.0]])


def _layout(n=30, seed=1):
    from companion.vision.geometry import DIRECTIONS

    rng = np.random.default_rng(seed)
    cells = [(0, 0)]
    while len(cells) < n:
        q, r = cells[rng.integers(len(cells))]
        dq, dr = DIRECTIONS[rng.integers(6)]
        if (q + dq, r + dr) not in cells:
            cells.append((q + dq, r + dr))
    return cells


def test_lattice_growth_follows_strong_perspective():
    """One global lattice cannot fit cards whose spacing halves across the image; growing the
    lattice card to card in each card's own frame places every card, and the cells keep every
    pairwise distance of the true layout."""
    from companion.vision.geometry import axial_distance

    cells = _layout()
    fits = _perspective_fits(cells, PERSPECTIVE)
    sizes = [f.apothem for f in fits]
    assert max(sizes) > 1.8 * min(sizes)
    lat = _grow(fits)
    assert sorted(lat.cells) == list(range(len(cells)))
    got = [lat.cells[i] for i in range(len(cells))]
    assert all(axial_distance(got[i], got[j]) == axial_distance(cells[i], cells[j])
               for i in range(len(cells)) for j in range(i))
    assert len(set(got)) == len(got)


def test_lattice_growth_leaves_out_a_card_off_the_lattice():
    """A card half a step off its cell is inconsistent with its placed neighbours: it gets no
    cell (reported nowhere) instead of a guessed one."""
    cells = _layout(12, seed=2)
    fits = _perspective_fits(cells, PERSPECTIVE, shift=np.array([33.0, 0.0]), moved=5)
    lat = _grow(fits)
    assert 5 not in lat.cells
    assert len(lat.cells) == len(cells) - 1


def _warm_crosstalk_jpeg(img: np.ndarray, crosstalk: float) -> np.ndarray:
    """A dim warm lamp (blue gain 0.5), a sensor whose channels leak into each other and JPEG:
    dark blue ink drifts towards grey."""
    mix = np.full((3, 3), crosstalk, np.float32)
    np.fill_diagonal(mix, 1.0 - 2.0 * crosstalk)
    seen = img.astype(np.float32) @ mix.T * np.float32((0.5, 0.7, 1.0))   # BGR gains
    _ok, enc = cv2.imencode(".jpg", np.clip(seen, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 60])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def test_a_washed_out_coloured_symbol_reads_by_its_mean_colour():
    """Under a warm lamp, with channel crosstalk and JPEG, many samples of a blue disc look grey
    and the per-sample vote is no longer clear; the disc's mean colour still lies on the blue
    ink's line and its ink is strongest in its middle, so it reads B (whole cards only)."""
    img, apothem = card_image("RBVRBB", "holodex", surface="wood", width_px=50.0)
    seen = _warm_crosstalk_jpeg(img, 0.1)
    pose = Pose((160.0, 120.0), apothem, 0.0)
    model = builtin_model("holodex")
    assert read_cards(seen, [pose], TableView(), model)[0].symbols == "RBVRBB"
    strict = read_cards(seen, [pose], TableView(), model, blurred_rings=False)[0].symbols
    # the per-sample vote alone (a partial blob's reading) leaves blue discs unread
    assert strict[0] + strict[2] + strict[3] == "RVR"
    assert "?" in strict and set(strict[1] + strict[4] + strict[5]) <= {"B", "?"}


@pytest.mark.parametrize("skin_bgr", [(150, 170, 215), (170, 190, 230), (120, 140, 190)])
def test_a_skin_tint_over_a_symbol_is_not_read_as_red(skin_bgr):
    """A fingertip just the size of a symbol lying over a blue disc, the paper beside it left
    bare: its even pinkish tint sits on the red ink's line, but no printed symbol looks like
    that (ink peaks in a symbol's middle), so the edge is '?', never R."""
    img, apothem = card_image("BBBBBB", "holodex", surface="felt", width_px=60.0)
    a = math.radians(-60.0 * 5)   # edge 5 (SE)
    c = np.array([160.0, 120.0]) + HEXEL_FACE.symbol_centre_frac * apothem * np.array(
        [math.cos(a), math.sin(a)])
    cv2.circle(img, (round(c[0]), round(c[1])),
               round(1.25 * HEXEL_FACE.symbol_radius_frac * apothem), skin_bgr, -1,
               cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    read = read_cards(img, [Pose((160.0, 120.0), apothem, 0.0)], TableView(),
                      builtin_model("holodex"))[0]
    assert read.symbols[:5] == "BBBBB"
    assert read.symbols[5] == "?"


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_paper_mask_of_a_region_matches_the_whole_frame_mask_there(scale):
    """On a calibrated table only the play area is searched: the mask worked out for a region
    is the whole frame's mask inside it (same local-mean window) and empty outside."""
    rng = np.random.default_rng(5)
    img = texture("wood", (360, 640), rng)
    for k, x in enumerate((150.0, 330.0, 480.0)):
        draw_card(img, np.array([x, 170.0 + 20 * k]), "RBVRBV", "holodex", 1.1, 10.0 * k)
    whole = paper_mask(img, scale)
    roi = (101, 41, 541, 321)
    part = paper_mask(img, scale, roi=roi)
    assert part.shape == whole.shape
    x0, y0, x1, y1 = (round(v * scale) for v in roi)
    e = round(0.09 * 640 * scale / 2) + 6   # away from the region's edge: half the local-mean
    inner = (slice(y0 + e, y1 - e), slice(x0 + e, x1 - e))   # window and the speck filter
    assert np.array_equal(part[inner], whole[inner])
    assert whole[inner].any()
    outside = part.copy()
    outside[y0 - 1:y1 + 1, x0 - 1:x1 + 1] = 0
    assert not outside.any()



def test_a_fingertip_over_a_ring_on_a_rendered_table_is_not_read_as_ink(monkeypatch):
    """Rendered hard table 138: a brown fingertip comes in over a card's edge and ends on its
    grey ring; its colour passes for red ink and the paper at the corners beside it is mostly
    bare, but a printed symbol ends a little beyond its rim and the finger does not, so the
    card is not reported with a wrong symbol. Two halo checks each catch it: too little bare
    paper in the halo, and the symbol's own ink carrying on into it; so does the twin check
    (`thinner_than_twins`: far weaker red than the card's printed red), and so does the crossing
    test (`crossed_edge`: the finger crosses the card's edge, unlike the band's hue round the
    card), and so does the run test (`runs_out`: the finger's one colour runs from the
    symbol's middle on past the card's outline), and so does the table's ink (`off_table_ink`:
    a weak red off the hue of the table's red, under the finger across the paper strip at the
    card's edge); without all six it is a misread."""
    import companion.vision.symbol_crossings as symbol_crossings
    import companion.vision.symbol_decide as symbol_decide
    import companion.vision.symbols as symbols
    from companion.scenarios import hexel_scene
    from companion.vision.reader import HexelReader
    from companion.vision.scoring import TruthCard, score_table

    image, truth = hexel_scene(138, "hard", 20, "holodex")
    cards = [TruthCard(c.image_cell, c.image_symbols, c.visible) for c in truth.cards]

    def misreads() -> int:
        reader = HexelReader("holodex", find_markers=False)
        reader.calibrate(image)
        seen = reader.read(image).observation.cards
        return score_table(seen, cards).misreads

    assert misreads() == 0
    monkeypatch.setattr(symbols, "MIN_HALO_PAPER", 0)
    assert misreads() == 0
    monkeypatch.setattr(symbol_crossings, "MAX_OWN_HALO", symbol_samples.N_HALO)
    assert misreads() == 0
    monkeypatch.setattr(symbol_decide, "TWIN_PEAK_SHARE", 0.0)
    assert misreads() == 0
    no_crossing = lambda band: (np.zeros((len(band), 6), bool),) * 2  # noqa: E731
    monkeypatch.setattr(symbols, "crossed_edge", no_crossing)
    assert misreads() == 0
    no_run = lambda *args: np.zeros_like(args[4])  # noqa: E731
    monkeypatch.setattr(symbols, "runs_out", no_run)
    assert misreads() == 0
    import companion.vision.reader as reader_module
    no_off = lambda bgr, poses, *args: np.zeros((len(poses), 6), bool)  # noqa: E731
    monkeypatch.setattr(reader_module, "off_table_ink", no_off)
    assert misreads() == 1


_COMPACT = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1), (2, -1), (-2, 1),
            (1, 1), (-1, -1)]


def _two_groups(shift=None, near=None):
    """Nineteen cards within two steps of (0, 0) (or the cards `near`) and, beyond a gap four
    steps wide (an arm lying over the layout), three more: out of reach of any card-to-card
    hop."""
    if near is None:
        near = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    far = [(7, -1), (8, -1), (7, 0)]
    cells = near + far
    return cells, _perspective_fits(cells, PERSPECTIVE, shift=shift, moved=len(cells) - 1)


def test_lattice_growth_places_cards_beyond_a_gap_by_the_whole_layout():
    """Cards too far beyond a gap for a hop are placed by the homography of the placed cards
    (the table is flat), at their true cells relative to the rest, where that map is sure of
    their cells (`lattice.BRIDGE_SD`: here to 0.24-0.32 of a step)."""
    cells, fits = _two_groups()
    lat = _grow(fits)
    assert sorted(lat.cells) == list(range(len(cells)))
    got = [lat.cells[i] for i in range(len(cells))]
    # the reader's lattice may be turned against the layout's: compare distances, as above
    from companion.vision.geometry import axial_distance

    assert all(axial_distance(got[i], got[j]) == axial_distance(cells[i], cells[j])
               for i in range(len(cells)) for j in range(i))


def test_lattice_growth_leaves_out_a_group_the_homography_is_not_sure_of():
    """From eleven cards packed round (0, 0) the homography's perspective is too loosely fixed
    to carry the lattice five steps on (its standard error there 0.41-0.54 of a step, each card
    taken 0.05 of a step off its cell): the three cards beyond the gap are left out, never
    guessed, and the eleven placed as before."""
    from companion.vision.geometry import axial_distance

    cells, fits = _two_groups(near=_COMPACT)
    lat = _grow(fits)
    assert sorted(lat.cells) == list(range(len(_COMPACT)))
    got = [lat.cells[i] for i in range(len(_COMPACT))]
    assert all(axial_distance(got[i], got[j]) == axial_distance(cells[i], cells[j])
               for i in range(len(_COMPACT)) for j in range(i))


def test_lattice_growth_leaves_out_a_card_beyond_a_gap_that_is_off_the_lattice():
    """Beyond the gap, a card a third of a step off its cell is not placed by the layout's
    homography either (the other far cards still are)."""
    cells, fits = _two_groups(shift=np.array([22.0, 0.0]))
    lat = _grow(fits)
    assert len(cells) - 1 not in lat.cells
    assert sorted(lat.cells) == list(range(len(cells) - 1))


@pytest.mark.parametrize("symbols", ["RBVRVB", "VVRBBR"])
def test_a_probed_card_is_found_when_its_predicted_size_is_a_tenth_too_small(symbols):
    """A probed cell's pose comes from its neighbour, whose size perspective may make a tenth
    larger than this card's: the pose search tries sizes too, so the card still reads whole."""
    from companion.vision.probe import probe
    from companion.vision.reader_params import ReaderParams

    img, apothem = card_image(symbols=symbols, width_px=80.0)
    model = builtin_model("holodex")
    pose = Pose((160.0, 120.0), 0.9 * apothem, 0.0, 1, ((1.0, 0.0), (0.0, 1.0)))
    first = read_cards(img, [pose], TableView(), model, blurred_rings=[True])
    cells, _, reads = probe(img, {(1, 0): pose}, first, TableView(), model, ReaderParams())
    assert cells == [(1, 0)]
    assert reads[0].symbols == symbols
