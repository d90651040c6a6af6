"""The edition watched at the table (`vision.edition.EditionWatch`). A match names its edition and
the service reads with that edition's colours only; cards of the other edition laid for it read
mostly `?` (the third symbol has no ink there), which the referee took for a hand or poor light
and answered "straighten them or improve the light" for ever. The watch reads such frames with
the other edition's colours now and then, and where that reads clearly more cards whole the
referee says which edition the cards are. (Without it, default held-out tables 0-11 read with
the other edition's colours: 19-20 cards reported each, 0-3 of them whole, and the referee
asked for more light, a colour it could not name.)"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.referee.pipeline import FrameSensor
from companion.referee.proposal import unclear
from companion.vision import edition
from companion.vision.edition import OTHER_EDITION, WATCH_EVERY, EditionWatch, other_edition
from companion.vision.reader import HexelReader

from .heldout import BACKGROUNDS, VARIANTS, heldout_scene


class Frames:
    """A frame source of one picture after another (`SupervisedSource`'s `latest`)."""

    def __init__(self, *images: np.ndarray) -> None:
        self.images, self.seq = list(images), 0

    def latest(self) -> SimpleNamespace:
        self.seq += 1
        image = self.images[min(self.seq, len(self.images)) - 1]
        return SimpleNamespace(image=image, seq=self.seq, t=0.1 * self.seq)


class Counted(HexelReader):
    """A reader counting its reads."""

    reads = 0

    def read(self, *a, **kw):
        self.reads += 1
        return super().read(*a, **kw)


def _sensor(scene, edition: str, *images: np.ndarray) -> tuple[FrameSensor, Counted]:
    other = Counted(other_edition(edition), find_markers=False, keep_still=False)
    sensor = FrameSensor(Frames(*images or (scene.image,)), HexelReader(edition, keep_still=False),
                         annotate=False, watch=EditionWatch(other))
    return sensor, other


@pytest.mark.parametrize("seed", [1, 2])   # a web table, a holodex one
def test_cards_of_the_other_edition_are_named_and_the_referee_says_so(seed):
    scene = heldout_scene(seed, variant=VARIANTS["default"], backgrounds=BACKGROUNDS)
    laid, named = scene.edition, other_edition(scene.edition)
    sensor, _ = _sensor(scene, named)
    obs = sensor.sense().observation
    assert obs.other_edition == laid
    assert any(n.startswith(OTHER_EDITION) for n in obs.notes), obs.notes
    said = unclear(obs)
    assert said is not None and said.kind == "problem" and f"{laid} edition" in said.message
    # without the watch the referee asks for light, or waits for a hand to move
    plain = HexelReader(named).read(scene.image).observation
    assert plain.other_edition == "" and "edition" not in unclear(plain).message


def test_cards_of_the_named_edition_cost_no_look_and_raise_nothing():
    scene = heldout_scene(0, variant=VARIANTS["default"], backgrounds=BACKGROUNDS)
    sensor, other = _sensor(scene, scene.edition)
    for _ in range(3):
        obs = sensor.sense().observation
        assert obs.other_edition == "" and unclear(obs) is None
    assert other.reads == 0


def test_the_look_is_made_every_so_often_its_verdict_carried_and_dropped_with_the_doubt():
    scene = heldout_scene(1, variant=VARIANTS["default"], backgrounds=BACKGROUNDS)
    blank = np.full_like(scene.image, 90)   # the cards taken off the table
    images = [scene.image] * (WATCH_EVERY + 1) + [blank, scene.image]
    sensor, other = _sensor(scene, other_edition(scene.edition), *images)
    seen = [sensor.sense().observation.other_edition for _ in images]
    assert seen[:WATCH_EVERY + 1] == [scene.edition] * (WATCH_EVERY + 1)
    assert other.reads == 3   # the first frame, the (WATCH_EVERY + 1)-th, and after the blank
    assert seen[-2:] == ["", scene.edition]


# held-out tables of the named edition with three or more cards read with a '?' (a smear and
# a glare; small cards smeared on a cloth; an office print in a dim room whose blue no letter
# names, 17 cards told `ink not named`): the other edition reads no more of them whole, and the
# watch names nothing
@pytest.mark.parametrize(("variant", "seed"), [("harsh", 44), ("cloth-small", 53),
                                               ("cloth-small", 61), ("office-lowlight", 72)])
def test_cards_read_with_a_doubt_in_their_own_edition_are_not_called_the_others(variant, seed):
    scene = heldout_scene(seed, variant=VARIANTS[variant], backgrounds=BACKGROUNDS)
    sensor, other = _sensor(scene, scene.edition)
    obs = sensor.sense().observation
    assert sum("?" in c.symbols for c in obs.cards) >= edition.WATCH_UNREAD
    assert other.reads == 1 and obs.other_edition == "", obs.notes


def test_the_other_edition():
    assert (other_edition("holodex"), other_edition("web")) == ("web", "holodex")
    with pytest.raises(ValueError, match="no such edition: 'hexapod'"):
        other_edition("hexapod")
