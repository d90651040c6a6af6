"""`companion bench vision --game hexel` scores its tables as read, and `--no-markers` reads them
as a photo without table markers is read: the reader never calibrated, in image pixels."""

from __future__ import annotations

import json

from companion.cli import main


def _figures(capsys, *extra: str) -> dict:
    code = main(["bench", "vision", "--game", "hexel", "--bands", "easy", "--scenes", "2",
                 "--cards", "8", "--json", *extra])
    assert code == 0
    return json.loads(capsys.readouterr().out)["easy"]


def test_the_easy_tables_are_calibrated_from_their_markers(capsys):
    f = _figures(capsys)
    assert f["tables_calibrated"] == 2
    assert f["per_card"] == 1.0 and f["misreads"] == 0 and f["false_cards"] == 0


def test_no_markers_reads_the_same_tables_uncalibrated(capsys):
    f = _figures(capsys, "--no-markers")
    assert f["tables_calibrated"] == 0
    assert f["per_card"] == 1.0 and f["misreads"] == 0 and f["false_cards"] == 0
