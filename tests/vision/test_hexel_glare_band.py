"""A card found by probing its free lattice cell (`probe.probe`) whose printed border band a
glare spot lifts along part of its edge: the lamp's light adds to the band there, which stays a
grey line darker than the paper but no longer as dark as the read's band test asks (below 0.7
of the white). Such places count as the band, veiled (`probe.band_lit`), so the card is taken
when its band shows nearly all round, dark or veiled; a band tinted there (a fingertip, a pen)
still keeps the card out, and held-out harsh tables (shadows, a glare spot, motion blur, a
lamp) find cards under the spot that were lost before, each read under the usual rules."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.probe import probe, probe_band
from companion.vision.reader_params import ReaderParams
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, texture
from .heldout import VARIANTS, heldout_scene, scored

APOTHEM = 35.0
POSE = Pose((80.0, 80.0), APOTHEM, 0.0, 1, ((1.0, 0.0), (0.0, 1.0)))
VEIL = (150, 150, 150)       # a glare: the lamp's light added, grey
SKIN = (130, 155, 185)       # a fingertip's warm light: tinted


def _card_veiled(edges: tuple[int, ...], add: tuple[int, int, int]) -> np.ndarray:
    """A holodex card 70 px wide on felt with `add` (BGR levels) added, clipped, over its
    border band and a little beyond (0.87 to 1.2 of the apothem) along `edges` (edge d faces
    -60 degrees times d), a little blurred."""
    img = texture("felt", (160, 160), np.random.default_rng(4))
    draw_card(img, np.array([80.0, 80.0]), "RBVRBV", "holodex",
              2.0 * APOTHEM / HEXEL_FACE.flat_to_flat_mm)
    spot = np.zeros((160, 160), np.uint8)
    for d in edges:
        ends = [math.radians(-60.0 * d + s) for s in (-30.0, 30.0)]
        strip = [(80.0 + k * APOTHEM * 2.0 / math.sqrt(3.0) * math.cos(t),
                  80.0 + k * APOTHEM * 2.0 / math.sqrt(3.0) * math.sin(t))
                 for k, ts in ((0.87, ends), (1.2, ends[::-1])) for t in ts]
        cv2.fillPoly(spot, [np.round(np.array(strip) * 16).astype(np.int32)], 255,
                     cv2.LINE_AA, 4)
    veil = (spot[..., None].astype(np.float32) / 255.0) * np.array(add, np.float32)
    img = np.clip(img.astype(np.float32) + veil, 0, 255).astype(np.uint8)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def _probed(img: np.ndarray) -> bool:
    """Whether the probe finds the card at its cell, from its exact pose, read right."""
    model = builtin_model("holodex")
    first = read_cards(img, [POSE], TableView(), model, blurred_rings=[True])
    cells, _, reads = probe(img, {(1, 0): POSE}, first, TableView(), model, ReaderParams())
    return cells == [(1, 0)] and reads[0].symbols == "RBVRBV"


@pytest.mark.parametrize("edges", [(0, 1), (2, 3), (4,)])
def test_a_card_whose_band_a_glare_veils_is_found(edges):
    img = _card_veiled(edges, VEIL)
    read = read_cards(img, [POSE], TableView(), builtin_model("holodex"))[0]
    assert read.symbols == "RBVRBV" and read.border_ok < ReaderParams().min_probe_ok, read
    assert probe_band(img, TableView(), POSE, read, ReaderParams())
    assert _probed(img)


@pytest.mark.parametrize("edges", [(0, 1), (2,), (4,)])
def test_a_band_tinted_by_what_lies_on_it_keeps_the_card_out(edges):
    img = _card_veiled(edges, SKIN)
    read = read_cards(img, [POSE], TableView(), builtin_model("holodex"))[0]
    assert read.symbols == "RBVRBV" and read.border_ok < ReaderParams().min_probe_ok, read
    assert not probe_band(img, TableView(), POSE, read, ReaderParams())


@pytest.mark.parametrize("seed,was", [(98, 18), (33, 14)])
def test_harsh_held_out_cards_under_a_glare_spot_are_read(seed, was):
    """Held-out harsh tables 98 and 33 (a card under the spot each): one card more read
    whole and right, nothing misread."""
    s, _ = scored(heldout_scene(seed, variant=VARIANTS["harsh"]))
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct > was, s
