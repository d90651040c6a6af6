"""Card faces: each symbol sits on its edge with its colour, at print and at camera sizes."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

from companion.faces import EDGE_NAMES, HEXEL_FACE, edge_normal
from companion.synth.cardface import Palette, face_centre, render_face, symbol_centres_px

_h = importlib.util.spec_from_file_location("synth_helpers", Path(__file__).with_name("helpers.py"))
helpers = importlib.util.module_from_spec(_h)
_h.loader.exec_module(helpers)


def expected_class(letter: str) -> str:
    return "dark" if letter == "V" else letter


@pytest.mark.parametrize("width", [756, 128, 60])
@pytest.mark.parametrize(("edition", "card"), [("holodex", "RBVRRB"), ("holodex", "VVBRRV"),
                                                ("web", "RBYYBR"), ("web", "YRBBRY")])
def test_symbol_on_each_edge_has_its_colour(width, edition, card):
    img = render_face(card, edition, width)
    a = width / 2.0
    c = face_centre(width)
    for d, letter in enumerate(card):
        n = np.array(edge_normal(d))
        centre = c + HEXEL_FACE.symbol_centre_frac * a * n
        if letter == "V":  # a ring: paper inside, dark on the ring
            ring = centre + n * HEXEL_FACE.symbol_radius_frac * a * (
                1 - HEXEL_FACE.ring_width_frac / 2)
            assert helpers.colour_class(helpers.sample(img, ring), edition) == "dark", d
            if width >= 128:
                assert helpers.colour_class(helpers.sample(img, centre), edition) == "paper"
        else:
            got = helpers.colour_class(helpers.sample(img, centre), edition)
            assert got == letter, f"edge {EDGE_NAMES[d]} of {card} at {width}px reads {got}"


def test_edge_zero_faces_image_right():
    img = render_face("RBBBBB", "holodex", 200)
    c = face_centre(200)
    right = c + np.array([0.6 * 100, 0])
    left = c - np.array([0.6 * 100, 0])
    assert helpers.colour_class(helpers.sample(img, right), "holodex") == "R"
    assert helpers.colour_class(helpers.sample(img, left), "holodex") == "B"
    assert symbol_centres_px(200)[0][0] > c[0] + 50  # E is to the right


def test_alpha_border_and_paper():
    w = 300
    img = render_face("RRRBBB", "holodex", w)
    h = img.shape[0]
    assert h == round(w * 2 / math.sqrt(3))
    assert img[0, 0, 3] == 0 and img[-1, -1, 3] == 0 and img[0, -1, 3] == 0  # outside the hex
    c = face_centre(w)
    assert img[int(c[1]), int(c[0]), 3] == 255
    # the border band along the right flat is dark, just inside it is paper
    band = c + np.array([w / 2 * (1 - HEXEL_FACE.border_frac / 2), 0])
    inner = c + np.array([w / 2 * (1 - HEXEL_FACE.border_frac * 1.6), w / 2 * 0.35])
    assert helpers.colour_class(helpers.sample(img, band), "holodex") == "dark"
    assert helpers.colour_class(helpers.sample(img, inner), "holodex") == "paper"


def test_rejects_bad_cards():
    with pytest.raises(ValueError, match="6 letters"):
        render_face("RRRBB", "holodex", 64)
    with pytest.raises(ValueError, match="6 letters"):
        render_face("RRRYYY", "holodex", 64)
    with pytest.raises(ValueError, match="edition"):
        render_face("RRRBBB", "poker", 64)


def test_palette_changes_inks_only_where_asked():
    plain = render_face("RRRRRR", "web", 128)
    pink = render_face("RRRRRR", "web", 128, palette=Palette(inks=(("R", (255, 0, 255)),)))
    c = symbol_centres_px(128)[0]
    assert tuple(pink[int(c[1]), int(c[0]), :3]) == (255, 0, 255)
    centre = face_centre(128).astype(int)
    assert np.array_equal(plain[centre[1], centre[0]], pink[centre[1], centre[0]])
