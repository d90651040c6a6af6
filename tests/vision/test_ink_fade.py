"""Paler prints (`companion.vision.inks.ink_fades`): a printer on plain paper lays less ink than
our colours ask for, its red and blue come out with less chroma and lighter. The cores of the
table's symbols show that; the reader fades those inks to them and reads the table, while
cores that disagree (a few pale ones among full ones, a skin-coloured object) fade nothing.
The paler print is imitated on the exported faces of the held-out check (variant `office`:
each ink's chroma scaled in CIELAB, the print lightened)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision.colour import builtin_model
from companion.vision.inks import (
    FADE_BELOW,
    adapt_inks,
    chroma,
    fade_ink,
    ink_fades,
    turn_ink,
)

from . import heldout


def _cores(ink: np.ndarray, share: float, light: float, n: int, rng: np.random.Generator
           ) -> np.ndarray:
    """`n` symbol cores of `ink` printed with `share` of its chroma at lightness `light`."""
    return fade_ink(ink, share, light) + rng.normal(0.0, 0.02, (n, 3))


def test_fading_an_ink_keeps_its_hue():
    red = builtin_model("holodex").inks[0]
    faded = fade_ink(red, 0.5, 0.55)
    (c0, h0), (c1, h1) = chroma(red), chroma(faded)
    assert faded.mean() == pytest.approx(0.55, abs=1e-6)
    assert c1 == pytest.approx(0.5 * c0, rel=1e-6)
    assert h1 == pytest.approx(h0, abs=1e-6)


def test_a_paler_ink_is_measured_and_only_then():
    model = builtin_model("holodex")
    red, blue, ring = model.inks
    rng = np.random.default_rng(5)
    grey = 1.0 + 0.9 * (ring - 1.0) + rng.normal(0.0, 0.02, (30, 3))
    cores = np.concatenate([_cores(red, 0.5, 0.52, 20, rng), _cores(blue, 1.0, 0.45, 20, rng),
                            grey])
    fades = ink_fades(model, cores)
    assert set(fades) == {"R"}                       # blue printed as ours, the ring never
    share, light = fades["R"]
    assert share == pytest.approx(0.5, abs=0.05)
    assert light == pytest.approx(0.52, abs=0.02)
    faded = adapt_inks(model, cores, doubt=True)
    assert faded is not None and "R paler" in faded.source
    assert chroma(faded.inks[0])[0] == pytest.approx(share * chroma(red)[0], rel=1e-4)
    assert np.array_equal(faded.inks[1:], model.inks[1:])
    # a table where every card reads whole keeps our inks
    assert adapt_inks(model, cores, doubt=False) is None
    # a print just short of ours is ours
    near = np.concatenate([_cores(red, FADE_BELOW + 0.08, 0.4, 20, rng), grey])
    assert ink_fades(model, near) == {}


def test_disagreeing_cores_fade_nothing():
    model = builtin_model("holodex")
    red = model.inks[0]
    rng = np.random.default_rng(8)
    # as many pale red-hued cores (skin, a finger over a symbol) as full red ones
    mixed = np.concatenate([_cores(red, 1.0, 0.38, 10, rng), _cores(red, 0.4, 0.6, 10, rng)])
    assert ink_fades(model, mixed) == {}
    # too few cores to tell
    assert ink_fades(model, _cores(red, 0.5, 0.52, 5, rng)) == {}


def test_another_ink_printed_near_one_fades_nothing():
    """A printer that turned our red 27° towards yellow puts its reds (darker) nearer yellow's
    hue than red's: yellow is given six dark cores 19° short of its hue and three of its own,
    15° beyond. Fading yellow to the majority's chroma and lightness made a two-card table's
    reds read as yellow (held-out seed 31 at ±30°, cut to two cards); they are another ink."""
    model = builtin_model("web")
    red, blue, yellow = model.inks
    rng = np.random.default_rng(11)
    turned_red = turn_ink(red, math.radians(27.0))
    cores = np.concatenate([_cores(turned_red, 0.9, 0.37, 6, rng),
                            _cores(turn_ink(yellow, math.radians(15.0)), 0.75, 0.59, 3, rng),
                            _cores(blue, 1.0, 0.45, 3, rng)])
    assert ink_fades(model, cores) == {}
    # the same yellow alone, as many cores: a paler yellow
    alone = _cores(turn_ink(yellow, math.radians(5.0)), 0.6, 0.62, 9, rng)
    assert set(ink_fades(model, alone)) == {"Y"}


@pytest.mark.parametrize("seed", [0, 10])
def test_a_pale_print_is_read(seed):
    # holodex tables of the `office` print (blue at ~0.6 of our chroma, red ~0.75, lighter):
    # our inks alone read 11 and 7 of their 20 cards
    scene = heldout.heldout_scene(seed, variant=heldout.VARIANTS["office"])
    score, obs = heldout.scored(scene)
    assert score.misreads == 0 and score.false_cards == 0
    assert score.correct == score.full == 20
    assert any("paler" in note for note in obs.notes)


def test_only_inks_turned_at_full_strength_put_our_reading_in_doubt():
    """`reader._changed`: the letters whose ink a table's model turns, less those it also fades
    (a full ink that a paler one leaves '?' is no doubt of our reading). A turned yellow counts
    however its turn clips a channel (yellow's blue lies at 0: any turn towards red clips it,
    and its chroma changes a little)."""
    from dataclasses import replace

    from companion.vision.reader import _changed

    model = builtin_model("web")
    names = model.names
    red, blue, yellow = (names.index(n) for n in "RBY")

    def with_protos(**new):
        protos = list(model.protos)
        for letter, rgb in new.items():
            protos[names.index(letter)] = tuple(float(v) for v in rgb)
        return replace(model, protos=tuple(protos))

    r_turned = turn_ink(model.protos[red], math.radians(12.0))
    y_turned = turn_ink(model.protos[yellow], math.radians(10.0))
    assert chroma(y_turned)[0] != pytest.approx(chroma(model.inks[2])[0], rel=1e-4)
    turned = with_protos(R=r_turned, Y=y_turned)
    both = with_protos(R=fade_ink(r_turned, 0.6, 0.5), Y=y_turned,
                       B=fade_ink(model.protos[blue], 0.6, 0.5))
    assert _changed(model, turned) == "RY"
    assert _changed(model, turned, both) == "Y"        # red also faded, blue only faded
