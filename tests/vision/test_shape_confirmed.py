"""Web symbols of plain ink left unread for an ink seen past their outline, read where their
printed shape shows their letter (`vision.shape_confirmed`). Held-out `phone-photo` tables
first (a solid blue diamond or yellow triangle left `?` beside a phone's sharpening halo, its
card reported covered), end to end; then each of the rule's conditions on made-up reads."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import reader
from companion.vision.colour import builtin_model
from companion.vision.inks import chroma
from companion.vision.shape_confirmed import MIN_LETTERS, STRONG_CHROMA, shape_confirmed
from companion.vision.shape_ink import NAMED_CONFIDENCE
from companion.vision.symbol_samples import CardRead

from .heldout import VARIANTS, heldout_scene, scored

WEB = builtin_model("web")


def _off(reads, shows, cores, inside, model):
    return list(reads), 0


@pytest.mark.parametrize("seed", [5, 25, 31])
def test_phone_photos_whose_plain_symbols_were_left_unread_read_whole(monkeypatch, seed):
    scene = heldout_scene(seed, variant=VARIANTS["phone-photo"])
    assert scene.edition == "web"
    score, obs = scored(scene)
    assert (score.correct, score.full, score.misreads, score.false_cards) == (20, 20, 0, 0)
    # read so at the confidence of a symbol read by its shape, on one card at least
    assert any(NAMED_CONFIDENCE - 1e-6 <= c.confidence < 1.0 for c in obs.cards)
    # without it, one card is left covered, with a '?'
    monkeypatch.setattr(reader, "shape_confirmed", _off)
    score, obs = scored(scene)
    assert (score.correct, score.misreads) == (19, 0)
    assert sum("?" in c.symbols and c.occluded for c in obs.cards) == 1


def _read(symbols: str, **kw) -> CardRead:
    return CardRead(symbols, tuple(0.0 if c == "?" else 1.0 for c in symbols), 1.0, 1.0, True,
                    (240.0, 245.0, 247.0), **kw)


# paper-normalised RGB cores: each web ink as printed, a paler blue, a copper coin
BLUE, YELLOW, RED = WEB.inks[1], WEB.inks[2], WEB.inks[0]
PALE_BLUE = np.array([0.80, 0.86, 0.98])   # chroma about 0.1: hue_named's to judge
COPPER = np.array([0.55, 0.25, 0.15])      # a disc of the red ink's hue, darker than it


def _confirm(read: CardRead, d: int, shows: str, core) -> CardRead:
    cores = np.tile(np.array([0.5, 0.5, 0.5]), (1, 6, 1))
    cores[0, d] = core
    [out], n = shape_confirmed([read], np.array([list(shows)]), cores, np.array([True]), WEB)
    assert n == int(out.symbols != read.symbols)
    return out


def test_a_plain_symbol_whose_shape_and_strong_ink_agree_is_read():
    for d, letter, core in ((3, "B", BLUE), (1, "Y", YELLOW), (0, "R", RED)):
        symbols = "RYBBBY"[:d] + "?" + "RYBBBY"[d + 1:]
        out = _confirm(_read(symbols), d, "RYBBBY", core)
        assert out.symbols == "RYBBBY"[:d] + letter + "RYBBBY"[d + 1:]
        assert out.edge_confidence[d] == NAMED_CONFIDENCE and out.by_hue[d]


@pytest.mark.parametrize(("why", "read", "shows", "core"), [
    ("its shape shows no letter", _read("RYB?BY"), "RYB.BY", BLUE),
    ("its shape shows another letter than its ink", _read("RYB?BY"), "RYBYBY", BLUE),
    ("its ink is not strong (hue_named's to judge)", _read("RYB?BY"), "RYBBBY", PALE_BLUE),
    ("a disc darker than the red ink: a coin", _read("RYB?BY"), "RYBRBY", COPPER),
    ("something across the card's edge onto it", _read("RYB?BY", crossed=(False,) * 3
                                                        + (True,) + (False,) * 2),
     "RYBBBY", BLUE),
    ("left unread for its colour alone (hue_named's)",
     _read("RYB?BY", unread_ink=(False,) * 3 + (True,) + (False,) * 2), "RYBBBY", BLUE),
    ("its own samples rule the diamond out", _read("RYB?BY", not_shape=("",) * 3 + ("BY",)
                                                   + ("",) * 2), "RYBBBY", BLUE),
    ("too few letters read on its card", _read("R?B???"), "RYBBBY", BLUE),
])
def test_a_symbol_is_left_unread_where(why, read, shows, core):
    assert _confirm(read, 3, shows, core).symbols == read.symbols, why


def test_the_made_up_cores_are_what_they_stand_for():
    length, _ = chroma(np.array([BLUE, PALE_BLUE, COPPER], np.float64))
    assert length[0] >= STRONG_CHROMA > length[1] >= 0.08 and length[2] >= STRONG_CHROMA
    red_hue = chroma(np.array([RED, COPPER], np.float64))[1]
    assert abs(np.degrees(red_hue[1] - red_hue[0])) < 30.0 and (COPPER < RED - 0.02).any()
    assert sum(c != "?" for c in "R?B???") < MIN_LETTERS

