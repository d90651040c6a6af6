"""A grey sleeve or fingertip as light as a grey ring blurred into the border band, laid from
beyond a card over a symbol, is one plateau from past the outline across the band into the halo:
where the card's opposite edge is blurred, `symbol_crossings.grey_across` could not tell it from
print. But print is mirror-symmetric about each symbol's axis, and the band's blur reaches the paper
inside it alike all along its edge: a plateau at a corner place of the edge that covers the
paper just inside the band, where the mirror corner keeps that paper
(`symbol_crossings.MIRROR_PAPER`), is no blur of the band or of a ring, which lies far from both
corners. Such a symbol is '?'."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import builtin_model

from .heldout import VARIANTS, heldout_scene, scored


def test_a_grey_fingertip_over_a_blue_disc_is_not_read_as_the_ring():
    """Held-out `fingers` table 3018 (a seed range never looked at before): a grey fingertip
    laid across the E edge of a card 92 % in view onto its blue disc, read whole as `VBRBRB`
    (truly `BBRBRB`). Two places of the edge, a corner and the middle, are one grey (0.55-0.6 of
    the paper) at every depth and in the two halo samples facing it, while the other corner
    shows the paper inside the band (0.93); the card is blurred (its opposite edge steps by
    0.31). Now no card is misread, and every card in full view is read right, as before."""
    scene = heldout_scene(3018, variant=VARIANTS["fingers"])
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == s.full, s


def _samples(plateau: float = 0.57, mirror_inner: float = 0.93, places: tuple[int, ...] = (0, 1)
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Halo (1 x 48 x 3 BGR as sampled), white (1 x 3) and band (1 x 5 x 18 x 3, RGB normalised
    by the white) of one card, blurred: every edge a soft ramp from `mirror_inner` inside the
    band (depth 0) down to 0.58 past the outline (a grey table), but the `places` of edge 0 one
    grey `plateau` at every depth and the two halo samples facing edge 0 on place 0's side
    that grey too."""
    from companion.vision.symbol_crossings import OUTWARD_AT

    white = np.full((1, 3), 200.0)
    halo = np.full((1, 48, 3), 200.0)
    halo[0, OUTWARD_AT[:2, 0]] = 200.0 * plateau
    band = np.broadcast_to(np.linspace(mirror_inner, 0.58, 5)[:, None, None], (1, 5, 18, 3)
                           ).copy()
    for p in places:
        band[0, :, p] = plateau
    return halo, white, band


def test_a_plateau_at_a_corner_whose_mirror_keeps_its_paper_is_an_object():
    """The rule on crafted samples: on a blurred card (no edge steps by EDGE_SHARP) a grey
    reading whose edge is one light plateau at a corner place, running on into the halo, where
    the mirror corner shows the paper inside the band, is '?'. The mirror corner as dark there
    (blur carrying the band inwards), or the plateau at the middle place only (beside the
    ring), and it stands; a coloured reading is `ink_across`'s."""
    from companion.vision.symbol_crossings import grey_across

    model = builtin_model("holodex")
    assert grey_across(["VBRBRB"], *_samples(), model).tolist() == [[True] + [False] * 5]
    assert grey_across(["VBRBRB"], *_samples(places=(0,)), model).tolist() == [
        [True] + [False] * 5]
    # the band blurred inwards as far as the plateau all along the edge
    assert not grey_across(["VBRBRB"], *_samples(mirror_inner=0.75), model).any()
    # the plateau at the middle place only: a ring and the band blurred into one may make it
    assert not grey_across(["VBRBRB"], *_samples(places=(1,)), model).any()
    # paper-light: no object
    assert not grey_across(["VBRBRB"], *_samples(plateau=0.8, mirror_inner=1.0), model).any()
    assert not grey_across(["BBRBRB"], *_samples(), model).any()
