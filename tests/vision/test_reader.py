"""The whole reader: crafted tables on every surface, both editions, tilt, colour casts and a
hand; then rendered `companion.scenarios` tables with known truth. A partly hidden card is
reported occluded and never read wrong."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.reader import HexelReader
from companion.vision.reader_params import ReaderParams
from companion.vision.scoring import TruthCard, score_table

from .crafted import draw_scene


def _exact(obs, truth: dict) -> bool:
    s = score_table(obs.cards, [TruthCard(c, sym) for c, sym in truth.items()])
    return s.exact


@pytest.mark.parametrize("surface", ["wood", "felt", "cloth", "photo", "white"])
@pytest.mark.parametrize("edition", ["holodex", "web"])
def test_crafted_tables_are_read_exactly(surface, edition):
    scene = draw_scene(7, n_cards=14, edition=edition, surface=surface, tilt=0.6,
                       rotation_deg=13.0, kelvin_gain=(0.7, 0.9, 1.2))
    obs = HexelReader(edition).read(scene.image).observation
    assert obs.calibrated
    assert _exact(obs, scene.truth)
    assert all(c.confidence > 0.5 for c in obs.cards)


def test_without_markers_the_reader_works_in_the_image_and_says_so():
    scene = draw_scene(8, n_cards=10, markers=False, tilt=0.0)
    obs = HexelReader("holodex").read(scene.image).observation
    assert not obs.calibrated
    assert any("uncalibrated" in n for n in obs.notes)
    assert _exact(obs, scene.truth)


def test_symbols_are_listed_from_image_right():
    """A single upright card: symbols by E, NE, ... exactly as drawn."""
    scene = draw_scene(9, layout={(0, 0): "RRBVBV"}, markers=False)
    obs = HexelReader("holodex").read(scene.image).observation
    assert [(c.cell, c.symbols) for c in obs.cards] == [((0, 0), "RRBVBV")]


@pytest.mark.parametrize("seed", range(4))
def test_a_hand_over_a_card_never_gives_a_wrong_card(seed):
    scene = draw_scene(seed, n_cards=12, surface="felt", occluder=True)
    obs = HexelReader("holodex").read(scene.image).observation
    s = score_table(obs.cards, [TruthCard(c, sym) for c, sym in scene.truth.items()])
    assert s.misreads == 0 and s.false_cards == 0
    assert s.correct >= len(scene.truth) - 6      # the arm lies over up to five cards
    assert all(c.confidence <= 0.3 for c in obs.cards if c.occluded)


def _truth(truth):
    return [TruthCard(c.image_cell, c.image_symbols, c.visible) for c in truth.cards]


def _read_scene(seed: int, edition: str, band: str = "hard", markers: bool = True):
    """(score, observation) of rendered table `seed` of `band` read by a reader calibrated
    from the picture's markers, or never calibrated (`markers` False: image pixels)."""
    from companion.scenarios import hexel_scene

    image, truth = hexel_scene(seed, band, 20, edition)
    reader = HexelReader(edition, find_markers=False)
    if markers:
        reader.calibrate(image)
    obs = reader.read(image).observation
    return score_table(obs.cards, _truth(truth)), obs


def _read_hard(seed: int, edition: str):
    """The score of rendered hard table `seed` read by a reader calibrated from the picture."""
    return _read_scene(seed, edition)[0]


@pytest.mark.parametrize("seed,edition", [(0, "holodex"), (1, "web"), (2, "holodex"),
                                          (3, "web")])
def test_rendered_easy_tables_are_read_exactly(seed, edition):
    from companion.scenarios import hexel_scene

    image, truth = hexel_scene(seed, "easy", 20, edition)
    obs = HexelReader(edition).read(image).observation
    s = score_table(obs.cards, _truth(truth))
    assert s.exact, s


@pytest.mark.parametrize("seed,edition", [(s, ("holodex", "web")[s % 2]) for s in range(6)])
def test_rendered_hard_tables_have_no_misread_and_no_false_card(seed, edition):
    from companion.scenarios import hexel_scene

    image, truth = hexel_scene(seed, "hard", 20, edition)
    obs = HexelReader(edition).read(image).observation
    s = score_table(obs.cards, _truth(truth))
    assert s.misreads == 0 and s.false_cards == 0, s
    assert all(c.confidence <= 0.3 for c in obs.cards if c.occluded)


def test_strong_perspective_without_markers_places_cards_by_local_lattice():
    """Hard seed 55 read without its markers: tilt 34° through a 102° lens, cards 1.7 times
    wider at the top of the layout than at the bottom. One global lattice gave wrong cells and
    a wrong image-E here (2 misreads, 2 false cards); local growth must not. (Its small,
    blurred markers are found since the relaxed marker pass; this is about the reader without
    them.)"""
    from companion.scenarios import hexel_scene

    image, truth = hexel_scene(55, "hard", 20, "web")
    result = HexelReader("web", find_markers=False).read(image)
    assert not result.observation.calibrated
    s = score_table(result.observation.cards, _truth(truth))
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct >= s.full // 2, s


def test_a_group_cut_off_by_an_arm_is_not_linked_by_a_long_hop():
    """Hard seed 177: no table markers, 33° tilt, an arm across the middle rows cuts the layout
    in two. Cards near the top are 1.3 times wider than at the bottom, and the only link between
    the groups was a 4-step hop from a card whose outline the arm had squashed: seen from that
    card the top group lay two rows off (3 false cards). A hop now has to be confirmed from the
    far card's own frame too, so the top group is left out rather than misplaced."""
    from companion.scenarios import hexel_scene

    image, truth = hexel_scene(177, "hard", 20, "web")
    result = HexelReader("web").read(image)
    assert not result.observation.calibrated
    s = score_table(result.observation.cards, _truth(truth))
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct >= 6, s


def _plane_poly(scene, pts_mm) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(pts_mm)[None], scene.plane_to_image)[0]


def _lose_outline(img: np.ndarray, scene, q: int) -> None:
    """Paint over `img` what takes card (q, 0) of a crafted scene its outline: a sheet of white
    paper against its E edge and a broad glare streak across its border band into both."""
    a = HEXEL_FACE.flat_to_flat_mm / 2.0
    cx, cy = 450.0 + q * (HEXEL_FACE.flat_to_flat_mm + 1.0), 280.0   # its E edge faces +x
    sheet = _plane_poly(scene, [(cx + a + 1.5, cy - 45), (cx + a + 60, cy - 45),
                                (cx + a + 60, cy + 45), (cx + a + 1.5, cy + 45)])
    cv2.fillConvexPoly(img, np.round(sheet).astype(np.int32), (236, 240, 242), cv2.LINE_AA)
    # a streak wider than the thin necks the reader cuts (`cards.cut_necks`): the blob stays
    # one, so only the probe can find the card
    y0, y1 = cy + 0.42 * a, cy + 0.42 * a + 6
    streak = _plane_poly(scene, [(cx + 0.8 * a, y0), (cx + a + 3, y0), (cx + a + 3, y1),
                                 (cx + 0.8 * a, y1)])
    cv2.fillConvexPoly(img, np.round(streak).astype(np.int32), (240, 242, 244), cv2.LINE_AA)


@pytest.mark.parametrize("edition", ["holodex", "web"])
def test_a_card_whose_paper_merges_with_the_table_is_found_by_probing_the_lattice(edition):
    """A sheet of white paper lies against the outer edge of one card and a broad glare
    streak crosses that card's dark border band into it: the card's paper and the sheet make one
    blob that is no hexagon, so the card has no outline of its own. The free cell next to the
    placed cards is read at the pose the lattice predicts and the card is found, whole and
    right; with probing switched off it is missing."""
    layout = {(0, 0): "RBVRBV", (1, 0): "RRBBVV", (0, 1): "BVRRVB", (-1, 1): "VVBRRB",
              (-1, 0): "RVBVRB", (0, -1): "BBRVVR", (1, -1): "VRBBRV"}
    if edition == "web":
        layout = {c: s.replace("V", "Y") for c, s in layout.items()}
    scene = draw_scene(3, layout=layout, edition=edition, surface="felt")
    img = scene.image.copy()
    _lose_outline(img, scene, 1)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)

    res = HexelReader(edition).read(img)
    assert _exact(res.observation, layout)
    assert any("probing" in n for n in res.observation.notes)

    off = ReaderParams(min_probe_ok=2.0)   # no pose can pass: probing switched off
    missed = HexelReader(edition, params=off).read(img).observation
    assert (1, 0) not in {c.cell for c in missed.cards if not c.occluded}


def test_a_lost_card_whose_neighbours_are_all_hidden_is_found_two_steps_out():
    """The card at (2, 0) has lost its outline (a sheet of paper against its edge, a glare
    streak across its border) and its only placed neighbour, (1, 0), is under a hand: no
    whole card lies next to it, so a probe of the cells next to placed cards never reaches it.
    The cells two steps out are probed where the mask is nearly all paper, and it is found,
    whole and right."""
    layout = {(0, 0): "RBVRBV", (-1, 0): "RRBBVV", (0, -1): "BVRRVB", (-1, 1): "VVBRRB",
              (0, 1): "RVBVRB", (1, 0): "BBRVVR", (2, 0): "VRBBRV"}
    scene = draw_scene(5, layout=layout, surface="felt")
    img = scene.image.copy()
    spacing = HEXEL_FACE.flat_to_flat_mm + 1.0
    a = HEXEL_FACE.flat_to_flat_mm / 2.0
    # a hand (skin, lit from above) over the whole of card (1, 0)
    hx, hy = 450.0 + spacing, 280.0
    hand = _plane_poly(scene, [(hx + 1.05 * a * np.cos(t), hy + 1.2 * a * np.sin(t))
                               for t in np.linspace(0, 2 * np.pi, 40, endpoint=False)])
    cv2.fillPoly(img, [np.round(hand).astype(np.int32)], (120, 150, 200), cv2.LINE_AA)
    _lose_outline(img, scene, 2)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)

    obs = HexelReader("holodex").read(img).observation
    s = score_table(obs.cards, [TruthCard(c, sym, 0.0 if c == (1, 0) else 1.0)
                                for c, sym in layout.items()])
    assert s.misreads == 0 and s.false_cards == 0, s
    seen = {c.cell: c.symbols for c in obs.cards if not c.occluded}
    assert seen.get((2, 0)) == layout[(2, 0)], seen
    assert (1, 0) not in seen


def _bridged_pair(edition: str = "holodex", links: tuple[float, ...] = (-9.0, 9.0)):
    """Two cards side by side whose dark gap is crossed by thin paper-bright links (as a blur
    or a glint joins them in a photo): their paper is one blob, no hexagon."""
    from companion.faces import PAPER_RGB

    layout = {(0, 0): "RBVRBV", (1, 0): "VVRBRB"}
    scene = draw_scene(12, layout=layout, edition=edition, blur=0.0, noise=2.0)
    img = scene.image.copy()
    gap_x = 450.0 + (HEXEL_FACE.flat_to_flat_mm + 1.0) / 2.0   # crafted plane, mm
    for dy in links:
        ends = np.array([[[gap_x - 5.0, 280.0 + dy], [gap_x + 5.0, 280.0 + dy]]], np.float64)
        (a, b), = cv2.perspectiveTransform(ends, scene.plane_to_image)
        colour = tuple(int(v) for v in PAPER_RGB[::-1])
        cv2.line(img, tuple(round(v) for v in a), tuple(round(v) for v in b), colour, 2)
    return img, scene.truth


def test_two_cards_joined_by_thin_paper_links_are_both_read():
    """The blob of two bridged cards is no hexagon; cut at its thin necks it is two cards,
    each read whole."""
    img, truth = _bridged_pair()
    obs = HexelReader("holodex").read(img).observation
    assert _exact(obs, truth)
