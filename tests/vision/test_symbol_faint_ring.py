"""A thin grey ring smeared by camera motion spreads its ink below the per-sample threshold: fewer
of its samples vote for the grey ink (a vote of 2.0-2.5 where 2.5 was needed), yet its band
keeps its darkness on both ends of its diameters. A closed ring whose band holds the grey ink of
three samples (`FAINT_RING_DARK`) now stands with a vote of `FAINT_RING_VOTE`; a grey smudge
without the ring's hollow middle does not. `decide` is fed crafted sample kinds here; rendered
hard tables check the whole reader against their truth."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.colour import PAPER_K, builtin_model
from companion.vision.symbol_decide import decide
from companion.vision.symbol_samples import N_SYMBOL

from .test_reader import _read_hard

V = 2   # the holodex grey ring's letter index


def _card(middle_dark: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One card's (kind, alpha, dark), 1 x 6 x 19: edge 0 a smeared ring (its band dark 0.5 at
    two opposite pairs of places, 0.28 at the rest: paper by kind, 4 grey samples voting 2.0,
    the band's darkness 4.2), its middle `middle_dark`; edges 1-5 solid red discs."""
    kind = np.zeros((1, 6, N_SYMBOL), np.int64)
    alpha = np.ones((1, 6, N_SYMBOL), np.float32)
    dark = np.full((1, 6, N_SYMBOL), 0.3, np.float32)
    half = np.array([0.5, 0.28, 0.28, 0.5, 0.28, 0.28], np.float32)
    band = np.concatenate([half, half])                  # sample i faces sample i + 6
    dark[0, 0, :7], dark[0, 0, 7:] = middle_dark, band
    kind[0, 0] = np.where(dark[0, 0] >= 0.45, V, PAPER_K)
    alpha[0, 0] = np.where(kind[0, 0] == V, dark[0, 0], 0.0)
    return kind, alpha, dark


def test_a_smeared_thin_ring_is_read():
    text, _ = decide(*_card(0.05), builtin_model("holodex"))
    assert text == ["VRRRRR"]


def test_a_grey_smudge_with_no_hollow_middle_is_not():
    kind, alpha, dark = _card(0.35)
    text, _ = decide(kind, alpha, dark, builtin_model("holodex"))
    assert text[0][0] == "?"


@pytest.mark.parametrize("seed,was", [(372, 6), (676, 8)])
def test_rendered_tables_with_smeared_rings_read_more_cards(seed, was):
    """Hard tables 372 (5.4 px of motion) and 676: thin rings smeared sideways."""
    s = _read_hard(seed, "holodex")
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct > was, s
