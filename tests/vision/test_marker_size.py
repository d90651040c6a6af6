"""Table markers printed at another size than the reader takes them to be. The markers calibrate
the table in millimetres, and the reader expects a card face of its printed size there: markers
exported at 60 mm (`markers export --size-mm 60`) but read as 40 mm make every card 0.67 times
as wide as expected, and the paper of each card falls outside the sizes a card may have
(`cards.printed_size`). Before `HexelReader._sized_anew`, held-out `markers` tables whose cards
were printed 0.6 times as wide as the markers expect read none of their 400 cards (seeds
0-19), and 1.5 times as wide 217 of 400. The reader now measures the cards on the frame, reads
them at that size and says in `notes` to give the markers' printed size; given it
(`marker_mm`, `recognize --marker-mm`, `[camera] marker_mm`), it reads them as printed, with no
such note."""

from __future__ import annotations

import json
import math
import re
from types import SimpleNamespace

import cv2
import pytest

from companion.cli import main
from companion.faces import HEXEL_FACE
from companion.referee.pipeline import FrameSensor
from companion.vision.observation import HexelObservation
from companion.vision.reader import THREE_MARKERS, HexelReader, camera_setup

from . import heldout

MARKER_TO_CARD = heldout.MARKER_TO_CARD   # a 40 mm marker's share of a card printed 64 mm wide

SIZE_NOTE = "times as wide as the table markers"


def _table(monkeypatch: pytest.MonkeyPatch, seed: int, wide: float) -> heldout.HeldOut:
    """Held-out `markers` table `seed` whose cards are printed `wide` times as wide as the
    40 mm markers beside them expect (the markers drawn 1/`wide` times their usual share of a
    card)."""
    monkeypatch.setattr(heldout, "MARKER_TO_CARD", MARKER_TO_CARD / wide)
    return heldout.heldout_scene(seed, variant=heldout.VARIANTS["markers"])


def _read(scene: heldout.HeldOut, marker_mm: float = 40.0):
    obs = HexelReader(scene.edition, marker_mm=marker_mm).read(scene.image).observation
    return heldout.score_table(obs.cards, scene.truth), obs


@pytest.mark.parametrize(("seed", "wide"), [(0, 0.6), (1, 0.6), (4, 1.5), (6, 1.5)])
def test_cards_of_another_size_than_the_markers_give_are_read_and_told(
        monkeypatch, seed, wide):
    scene = _table(monkeypatch, seed, wide)
    score, obs = _read(scene)
    assert obs.calibrated, obs.notes
    assert (score.misreads, score.false_cards) == (0, 0), score
    assert score.correct >= score.full - 1 >= 18, score
    [note] = [n for n in obs.notes if SIZE_NOTE in n]
    measured = float(re.match(r"cards ([0-9.]+) times as wide", note)[1])
    assert abs(measured - wide) < 0.05 * wide and "--marker-mm" in note, note


@pytest.mark.parametrize(("seed", "wide"), [(0, 0.6), (4, 1.5)])
def test_the_markers_size_given_reads_the_cards_as_printed(monkeypatch, seed, wide):
    # markers printed 40 / wide mm beside our cards: told so, the reader expects cards the size
    # they are, and has nothing to say about their size
    scene = _table(monkeypatch, seed, wide)
    score, obs = _read(scene, marker_mm=40.0 / wide)
    assert obs.calibrated and not any(SIZE_NOTE in n for n in obs.notes), obs.notes
    assert (score.misreads, score.false_cards) == (0, 0) and score.correct >= 19, score


def test_cards_of_the_printed_size_get_no_note(monkeypatch):
    score, obs = _read(_table(monkeypatch, 0, 1.0))
    assert obs.calibrated and not any(SIZE_NOTE in n for n in obs.notes), obs.notes
    assert score.correct == score.full == 20, score


def test_a_size_measured_is_kept_for_the_next_frames_and_dropped_when_wrong(monkeypatch):
    small = _table(monkeypatch, 0, 0.6)
    reader = HexelReader(small.edition, keep_still=False)
    first = reader.read(small.image).observation
    score = heldout.score_table(first.cards, small.truth)
    assert any(SIZE_NOTE in n for n in first.notes) and score.correct == score.full >= 19
    # the next frame is read at the measured size straight away (not measured again), and
    # says so again
    with monkeypatch.context() as m:
        m.setattr(reader, "_sized_anew", lambda *a: pytest.fail("measured again"))
        second = reader.read(small.image).observation
    assert {(c.cell, c.symbols) for c in second.cards} == {(c.cell, c.symbols) for c in first.cards}
    assert any(SIZE_NOTE in n for n in second.notes)
    # markers laid again (the reader calibrated anew) beside cards of the printed size: the
    # size measured goes with the old calibration
    printed = _table(monkeypatch, 0, 1.0)
    assert reader.calibrate(printed.image)
    third = reader.read(printed.image).observation
    assert not any(SIZE_NOTE in n for n in third.notes), third.notes
    score = heldout.score_table(third.cards, printed.truth)
    assert score.correct == score.full == 20, score


def test_a_size_measured_that_finds_no_card_gives_way_to_the_printed_one(monkeypatch):
    # (cards reprinted at their size under the same calibration: the size measured on the old
    # ones, 0.6 times as wide, finds none of them)
    scene = _table(monkeypatch, 0, 1.0)
    reader = HexelReader(scene.edition, keep_still=False)
    assert reader.calibrate(scene.image)
    reader._card_area = 0.36 * 2.0 * math.sqrt(3.0) * (HEXEL_FACE.flat_to_flat_mm / 2.0) ** 2
    obs = reader.read(scene.image).observation
    assert not any(SIZE_NOTE in n for n in obs.notes), obs.notes
    score = heldout.score_table(obs.cards, scene.truth)
    assert score.correct == score.full == 20, score
    assert reader._card_area is None


def test_recognize_takes_the_markers_size(monkeypatch, tmp_path, capsys):
    scene = _table(monkeypatch, 1, 0.6)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), scene.image)
    notes = {}
    for mm in ("40", "66.67"):
        assert main(["recognize", str(photo), "--edition", scene.edition, "--json",
                     "--marker-mm", mm]) == 0
        out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert len(out["cards"]) >= 19
        notes[mm] = [n for n in out["notes"] if SIZE_NOTE in n]
    assert len(notes["40"]) == 1 and notes["66.67"] == []


@pytest.mark.parametrize("mm", ["0", "-40", "forty", "nan", "inf"])
def test_recognize_refuses_a_markers_size_that_is_no_size(tmp_path, capsys, mm):
    with pytest.raises(SystemExit) as info:
        main(["recognize", str(tmp_path / "x.png"), "--marker-mm", mm])
    assert info.value.code == 2
    assert "--marker-mm: expected a number above 0" in capsys.readouterr().err


def test_the_reader_refuses_a_markers_size_that_is_no_size():
    with pytest.raises(ValueError, match="must be positive"):
        HexelReader("web", marker_mm=0.0)


class _Source:
    """One picture, again and again, from a camera that is fine (`SupervisedSource`)."""

    def __init__(self, image) -> None:
        self.image, self.seq = image, 0

    def latest(self) -> SimpleNamespace:
        self.seq += 1
        return SimpleNamespace(image=self.image, seq=self.seq, t=0.1 * self.seq)

    def status(self) -> SimpleNamespace:
        return SimpleNamespace(state="ok", message="camera 1280x720")


@pytest.mark.parametrize(("variant", "wide", "said"), [
    ("markers", 1.0, ""),
    ("markers", 0.6, " · cards 0.59 times the size the table markers give: set the markers' "
                     "size (marker_mm)"),
    ("default", 1.0, " · no table markers in view: reading in image pixels"),
])
def test_the_scoreboards_camera_line_says_how_the_camera_sees_the_table(
        monkeypatch, variant, wide, said):
    monkeypatch.setattr(heldout, "MARKER_TO_CARD", MARKER_TO_CARD / wide)
    scene = heldout.heldout_scene(0, variant=heldout.VARIANTS[variant])
    sensor = FrameSensor(_Source(scene.image), HexelReader(scene.edition), annotate=False)
    assert sensor.status() == ("ok", "camera 1280x720")   # nothing read yet
    sensor.sense()
    assert sensor.status() == ("ok", "camera 1280x720" + said)


def test_the_camera_line_names_a_marker_not_seen():
    obs = HexelObservation(notes=(f"{THREE_MARKERS} (marker 2 not seen, or left out as not "
                                  "fitting the others)", "3 card(s) found by probing"))
    assert camera_setup(obs) == "three table markers in view (marker 2 not seen)"
    assert camera_setup(HexelObservation(notes=("3 card(s) found by probing",))) == ""
