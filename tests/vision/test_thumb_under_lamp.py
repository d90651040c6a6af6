"""A thumb over a symbol on a card whose paper clipped is never filled in by the lamp re-read.
Under a strongly tinted lamp that drives the paper past the clip (here a cyan one, blue and
green 1.5 times over, red not clipped: a camera white-balanced for a warm lamp under a cold
one), a pale fingertip is darker than the clipped paper in every channel by about as much, so
against the card's white it looks like paper in a little shade: its samples read as paper, and
the symbol under it as '?'. The reader then reads such a card again with its symbols judged
against the paper the lamp makes (`symbols._lamp_read`): there the fingertip shows its own hue,
a washed red at about half strength from middle to rim, which the vote or `washed_pure` reads as
red. Its halo was judged against the clipped white (where real paper must be judged: see
tests/vision/test_band_lamp.py), so nothing showed the fingertip carrying on past the symbol.
Now the halo of every symbol so re-read is also explained against the lamp's paper, and a symbol
whose own ink carries on into it is covered (`symbol_crossings.ink_beyond`), as it is in the
first read. Before, 54 of the 216 crafted thumbs below (both radii) read as a letter, nearly all
red; now none of the thumbs wider than the halo does. (A thumb of 1.6 symbol radii, its edge
about where the halo samples lie (1.45), is the known limit test_thumb_over_symbol.py states: a
disc no wider than the halo hides the print and shows nothing of itself beyond it; 14 of those
108 still read under this lamp, 12 as red and 2 as the grey ring, 12 of the 14 on cards 70 px
wide.) Crafted cards drawn with plain cv2 (tests/vision/crafted.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.symbol_samples import CLIP_NEAR, Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, photograph, texture
from .test_thumb_over_symbol import SKINS

CYAN = (1.5, 1.5, 0.95)    # lamp gains (BGR) times the exposure: blue and green clip


def _card(symbols: str, edition: str, width: float, skin: tuple[int, int, int] | None,
          radius: float) -> tuple[np.ndarray, Pose]:
    """A card `width` px across on felt under CYAN, with a skin disc (BGR `skin`, `radius` of
    the width; none when None) over its edge 0 (E) symbol, defocused by 1 px, sensor noise,
    JPEG 70."""
    size = int(width * 2)
    img = texture("felt", (size, size), np.random.default_rng(0)).astype(np.float32)
    centre = np.array([size / 2.0, size / 2.0])
    draw_card(img, centre, symbols, edition, width / HEXEL_FACE.flat_to_flat_mm, 0.0)
    if skin is not None:
        tip = centre + np.array([HEXEL_FACE.symbol_centre_frac * width / 2.0, 0.0])
        cv2.circle(img, (round(float(tip[0])), round(float(tip[1]))), int(radius * width), skin,
                   -1, cv2.LINE_AA)
    lit = cv2.GaussianBlur(img * np.float32(CYAN), (0, 0), 1.0)
    return photograph(lit), Pose((float(centre[0]), float(centre[1])), width / 2.0, 0.0)


CARDS = [("web", "BYBYBY"), ("web", "YYYBBB"), ("web", "BRYBRY"),
         ("holodex", "BBBVVV"), ("holodex", "VBVBVB"), ("holodex", "BRBRBR")]


@pytest.mark.parametrize("edition,symbols", CARDS)
@pytest.mark.parametrize("width", [70.0, 100.0])
def test_a_thumb_under_a_clipping_lamp_is_never_read(edition, symbols, width):
    model = builtin_model(edition)
    for skin in SKINS:
        img, pose = _card(symbols, edition, width, skin, 0.19)
        got = read_cards(img, [pose], TableView(), model)[0]
        assert max(got.white_bgr) >= CLIP_NEAR          # (the paper clipped)
        assert got.symbols[0] == "?", (skin, got.symbols)
        # (the other five symbols are the card's own)
        assert all(g in (s, "?") for g, s in zip(got.symbols[1:], symbols[1:], strict=True))


@pytest.mark.parametrize("edition,symbols", CARDS)
@pytest.mark.parametrize("width", [70.0, 100.0])
def test_the_same_cards_bare_read_whole(edition, symbols, width):
    """The halo judged against the lamp's paper costs a bare card nothing: real paper there
    shows no ink."""
    img, pose = _card(symbols, edition, width, None, 0.0)
    got = read_cards(img, [pose], TableView(), builtin_model(edition))[0]
    assert max(got.white_bgr) >= CLIP_NEAR
    assert got.symbols == symbols
