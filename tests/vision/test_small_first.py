"""An uncalibrated reader's first guess of the cards' size works the frame at half size; where
the cards found there are too small for it (`reader._small`) the frame is worked again at full
size. The cards kept at half size are some of its hexagons and of those `_shrunk_fits` finds
again, so where none of all those is wide enough (`HexelReader._surely_small`) the frame goes to
full size before any card is read at half size. On rendered hard tables read without markers:
the same observation and reads, bit for bit, as the reader that reads at half size first, and
no half-size read where the skip applies; on a crafted table of large cards the half size is
kept as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.scenarios import hexel_scene
from companion.vision.reader import HexelReader

cv2.setNumThreads(1)


def _read(img: np.ndarray, edition: str, skip: bool, monkeypatch: pytest.MonkeyPatch
          ) -> tuple[str, list[float]]:
    """(the read's observation, reads and poses as text, the scale of every telling that
    reads the hexagons), uncalibrated, with the early skip to full size allowed or not."""
    scales: list[float] = []
    detect = HexelReader._detect

    def spy(self, frame, scale, *args, **kwargs):
        out = detect(self, frame, scale, *args, **kwargs)
        if out is not None:
            scales.append(scale)
        return out

    monkeypatch.setattr(HexelReader, "_detect", spy)
    if not skip:
        monkeypatch.setattr(HexelReader, "_surely_small", lambda *a, **k: False)
    r = HexelReader(edition, find_markers=False, keep_still=False)
    res = r.read(img)
    monkeypatch.undo()
    return repr((res.observation, res.reads, res.poses)), scales


def _widths(truth) -> list[float]:
    """Every card's true width across the flats in frame pixels (from its polygon's area)."""
    return [float(np.sqrt(abs(cv2.contourArea(np.float32(c.polygon))) * 2.0 / np.sqrt(3.0)))
            for c in truth.cards]


@pytest.mark.parametrize("seed", [15, 29, 1])
def test_small_cards_go_to_full_size_unread_and_read_the_same(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    edition = ("holodex", "web")[seed % 2]
    img, truth = hexel_scene(seed, "hard", 20, edition)
    assert max(_widths(truth)) < 80.0, "the table's cards must be too small for the halved frame"
    before, told_before = _read(img, edition, False, monkeypatch)
    after, told_after = _read(img, edition, True, monkeypatch)
    assert after == before
    assert told_before[0] == 0.5 and 1.0 in told_before
    assert 0.5 not in told_after, "the cards were read at half size all the same"


def test_large_cards_keep_the_half_size(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.synth.scene import SceneParams

    img, truth = hexel_scene(3, "topdown", 7, "holodex", SceneParams(seed=3, band="topdown"))
    assert min(_widths(truth)) > 100.0, "the table's cards must be wide enough for half size"
    before, told_before = _read(img, "holodex", False, monkeypatch)
    after, told_after = _read(img, "holodex", True, monkeypatch)
    assert after == before
    assert told_after == told_before == [0.5]
