"""A frame told again with the table's inks (`HexelReader._table_inks`) tries the same loose or
turned-down hexagons' blobs for a card's paper found again (`reader._shrunk_fits`); the blobs'
hexagons are remembered for the frame (`HexelReader._refound`) instead of being found again.
Compared with the reader finding them every time: the same observation and reads, bit for bit,
on hard tables that are told again (and the memory is used on them)."""

from __future__ import annotations

import pytest

from companion.scenarios import hexel_scene
from companion.vision import reader as reader_module
from companion.vision.reader import HexelReader

PLAIN = reader_module._shrunk_fits


def _read(seed: int, memo: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """(the read's observation and reads as text, how many blobs the memory gave back)."""
    img, _ = hexel_scene(seed, "hard", 20, ("holodex", "web")[seed % 2])
    hits = []
    plain = PLAIN

    def shrunk(frame, scale, view, params, whole, tried, card_area, remembered=None):
        if not memo:
            return plain(frame, scale, view, params, whole, tried, card_area)
        before = {k: v[1] for k, v in (remembered or {}).items()}
        out = plain(frame, scale, view, params, whole, tried, card_area, remembered)
        hits.extend(g for f in tried for g in before.get(id(f.blob), []))
        return out

    monkeypatch.setattr(reader_module, "_shrunk_fits", shrunk)
    r = HexelReader(("holodex", "web")[seed % 2], find_markers=False)
    r.calibrate(img)
    res = r.read(img)
    return repr((res.observation, res.reads, res.poses)), len(hits)


@pytest.mark.parametrize("seed", [10, 29, 38])
def test_remembered_hexagons_read_the_same(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh, _ = _read(seed, False, monkeypatch)
    kept, hits = _read(seed, True, monkeypatch)
    assert kept == fresh
    assert hits > 0, "the table was not told again with remembered hexagons"
