"""A pen or sleeve coloured like an ink, laid from beyond a blurred card over a symbol, keeps its
colour from inside the border band to past the card's outline or gains it, while a printed
symbol's ink blurred into the band fades outwards, away from the symbol
(`symbol_crossings.ink_on_band`, the comment before FACING): where that place also hides the band's
printed step that another place of the edge shows, the symbol is '?', however the object's lightness
varies across the band (a narrow pen blurred with the dark band and the table beside it is not one
flat colour, which the older test asked)."""

from __future__ import annotations

import numpy as np

from companion.vision.colour import builtin_model

from .heldout import VARIANTS, heldout_scene, scored


def test_a_blue_pen_over_a_red_disc_is_not_read_as_blue():
    """Held-out `fingers` table 3000 (a seed range never looked at before): a blue pen laid
    from beyond a card 92 % in view across its lower edge onto a red disc, read whole as
    `VRRVBR` (truly `VRRVRR`). The pen's blue tints the band's places it covers 0.29-0.47 at
    every depth, 0.36-0.43 past the outline, against print that steps from paper to the band
    by 0.25-0.30 at the edge's other corner; it is too light for the blurred-pen test and not
    one flat colour across the band. Now the card is not reported whole with a wrong symbol,
and the 16 of 17 cards in full view read right before still are."""
    scene = heldout_scene(3000, variant=VARIANTS["fingers"])
    s, _ = scored(scene)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct >= 16, s


def _band(outer_tint: float = 0.43, inner_tint: float = 0.35, others_outer: float = 0.0,
          step: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """Halo (1 x 48 x 3) and band (1 x 5 x 18 x 3) samples of one card read `BRRVRR` (holodex),
    paper-normalised RGB: paper everywhere but blue ink at half strength in the three halo
    samples facing edge 0; a grey band (0.45 at depths 1-3, a grey table 0.5 past the outline)
    whose paper inside it (depth 0) is `step` lighter than the band; the middle place of edge 0
    blue-tinted by `inner_tint` at depth 0 changing evenly to `outer_tint` past the outline, and
    darkening outwards (0.45 to 0.3 grey underneath: a narrow pen blurred with the band and the
    table); the other places of edge 0 tinted `others_outer` past the outline."""
    from companion.vision.symbol_crossings import OUTWARD_AT

    model = builtin_model("holodex")
    u = np.asarray(model.chroma_units[model.letters.index("B")], np.float64)
    u = u / (u @ u)            # a colour grey + t·u carries tint t
    blue = np.asarray(model.inks[model.letters.index("B")], np.float64)
    halo = np.ones((1, 48, 3))
    halo[0, OUTWARD_AT[:, 0]] = 0.5 + 0.5 * blue
    band = np.full((1, 5, 18, 3), 0.45)
    band[0, 0] = 0.45 + step
    band[0, 4] = 0.5
    band[0, 4, [0, 2]] += others_outer * u
    grey = np.linspace(0.45, 0.3, 5)
    tint = np.linspace(inner_tint, outer_tint, 5)
    band[0, :, 1] = grey[:, None] + tint[:, None] * u
    return halo, band


def test_an_inks_colour_unfaded_past_the_outline_is_told_from_print():
    """The rule on crafted samples: the read ink's colour not fading from inside the band to
    past the outline (0.35 rising to 0.43, as the pen of table 3000) at a place that shows no
    printed step, where the edge's other places step from paper to the band by 0.3 (blurred,
    under EDGE_SHARP), makes the symbol '?'. Print blurred into the band fading outwards (as a
    blue disc on rendered hard table 595: 0.41 inside the band, 0.26 past the outline), the
    table past the outline as blue at every place of the edge, a card blurred so wide that no
    place of the edge steps by half EDGE_SHARP, the colour stopping at the outline, or the place
    clipped by the sensor: it stands."""
    from companion.vision.symbol_crossings import ink_across

    model = builtin_model("holodex")
    assert ink_across(["BRRVRR"], *_band(), model).tolist() == [[True] + [False] * 5]
    # flat is not fading either
    assert ink_across(["BRRVRR"], *_band(outer_tint=0.35), model).tolist() == [
        [True] + [False] * 5]
    # a blurred disc's blue fades away from it
    assert not ink_across(["BRRVRR"], *_band(inner_tint=0.41, outer_tint=0.26), model).any()
    assert not ink_across(["BRRVRR"], *_band(inner_tint=0.45, outer_tint=0.4), model).any()
    # a blue table beside the whole edge: not one place standing out past the outline
    assert not ink_across(["BRRVRR"], *_band(others_outer=0.3), model).any()
    # blur wider than the band: the edge's other places step by 0.2 only
    assert not ink_across(["BRRVRR"], *_band(step=0.2), model).any()
    # nothing past the outline: the blue stops at the card's edge
    assert not ink_across(["BRRVRR"], *_band(outer_tint=0.0, inner_tint=0.0), model).any()
    # a channel of the place clipped at one depth: its chroma is only a bound
    clipped = np.zeros((1, 5, 18), bool)
    clipped[0, 2, 1] = True
    assert not ink_across(["BRRVRR"], *_band(), model, clipped).any()
