"""Cards of one edition read by a reader told the other, and `recognize --edition auto`
(`vision.edition`, `inks.FOREIGN_SHARE`): the web edition's yellow triangle is no holodex red
turned, and the edition whose reading has more cards whole is the one on the table."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.scenarios import hexel_scene
from companion.vision.colour import builtin_model
from companion.vision.edition import choose_edition, whole_cards
from companion.vision.inks import chroma, ink_turns, turn_ink
from companion.vision.observation import HexelObservation, SeenCard
from companion.vision.reader import HexelReader
from companion.vision.scoring import TruthCard, score_table


def _cores(ink: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """`n` symbol cores printed in `ink` at full strength, with a little noise."""
    return np.asarray(ink, np.float64) + rng.normal(0.0, 0.02, (n, 3))


def test_the_web_yellow_is_no_holodex_red_turned():
    """Holodex has no yellow: its red's nearest other coloured ink is blue, far round the hue
    circle, so the yellow triangles of web cards (46° from red) fell within a red's reach and
    the reader turned its red to them, reading every yellow as red."""
    holodex, web = builtin_model("holodex"), builtin_model("web")
    rng = np.random.default_rng(3)
    yellow = web.inks[web.letters.index("Y")]
    red = holodex.inks[holodex.letters.index("R")]
    gap = math.degrees(chroma(yellow)[1] - chroma(red)[1])
    assert 40.0 < gap < 50.0
    assert ink_turns(holodex, _cores(yellow, 24, rng)) == {}
    # a holodex red printed 18° towards orange (a printer) is still measured and turned ...
    turns = ink_turns(holodex, _cores(turn_ink(red, math.radians(18.0)), 24, rng))
    assert math.degrees(turns["R"]) == pytest.approx(18.0, abs=2.0)
    # ... and so is one turned 30° the other way, towards magenta, where no ink of either
    # edition lies (a camera's colour mixing can turn it that far)
    turns = ink_turns(holodex, _cores(turn_ink(red, math.radians(-30.0)), 24, rng))
    assert math.degrees(turns["R"]) == pytest.approx(-30.0, abs=2.0)


def _scored(cards, truth) -> SimpleNamespace:
    return score_table(cards, [TruthCard(c.image_cell, c.image_symbols, c.visible)
                               for c in truth.cards])


@pytest.mark.parametrize("seed", [0, 1])
def test_web_cards_read_as_holodex_are_left_unread_not_misread(seed):
    """Easy seeds 0 and 1 of the web edition read with the holodex model: 8 and 9 cards
    misread before (every yellow read as red, the red 'turned' +48° and +43°)."""
    image, truth = hexel_scene(seed, "easy", 20, "web")
    reader = HexelReader("holodex", find_markers=False)
    reader.calibrate(image)
    s = _scored(reader.read(image).observation.cards, truth)
    assert s.misreads == 0 and s.false_cards == 0
    assert s.correct < s.full            # the yellow symbols are unread, as they must be


def _card(symbols: str, occluded: bool = False) -> SeenCard:
    return SeenCard(cell=(0, 0), symbols=symbols, confidence=1.0, occluded=occluded)


def test_the_edition_with_more_cards_whole_is_chosen():
    holodex = HexelObservation(cards=(_card("RRB?B?"), _card("RRBBBB"),
                                      _card("BBBBBB", occluded=True)))
    web = HexelObservation(cards=(_card("RRBYBY"), _card("RRBBBB")))
    assert whole_cards(holodex) == 1 and whole_cards(web) == 2
    choice = choose_edition({"holodex": holodex, "web": web})
    assert choice.edition == "web" and choice.decided
    assert "web" in choice.note and "holodex 1" in choice.note
    tie = choose_edition({"holodex": web, "web": web})
    assert tie.edition == "holodex" and not tie.decided
    with pytest.raises(ValueError):
        choose_edition({})


@pytest.mark.parametrize("edition", ["web", "holodex"])
def test_recognize_finds_the_edition_itself(tmp_path, capsys, edition):
    image, truth = hexel_scene(0, "easy", 20, edition)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), image)
    assert main(["recognize", str(photo), "--json", "--calibration", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    cards = [SimpleNamespace(cell=tuple(c["cell"]), symbols=c["symbols"],
                             occluded=c["occluded"]) for c in data["cards"]]
    s = _scored(cards, truth)
    assert s.correct == s.full == 20 and s.misreads == 0
    assert any(n.startswith(f"edition {edition} ") for n in data["notes"])
