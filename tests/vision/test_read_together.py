"""Reads that share passes (`symbols.StagedRead`, `read_together`): several `read_cards` calls
made a pass at a time, their due passes made as one, read each card as the calls made alone
do (a card's read depends on its own call's cards only, through the band's lamp), also on a
table whose paper clipped; and the probe (`probe.probe`), whose second round's first pass
joins the first round's re-read pass (and whose first round may join the free cells'
re-reads, `coarse_ahead`), finds what the probe made round by round finds, where the guess
holds and where it does not."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import companion.vision.probe as probe_mod
from companion.scenarios import hexel_scene
from companion.vision import symbols as sym
from companion.vision.reader import HexelReader
from companion.vision.symbol_samples import Pose
from companion.vision.symbols import StagedRead, read_cards, read_together

from .reader_spy import replaced

cv2.setNumThreads(1)


def _spy(seed: int, edition: str, name: str) -> list[tuple]:
    """The arguments of every call of `name` (looked up in the reader's modules) the reader
    makes on a hard table."""
    img, _ = hexel_scene(seed, "hard", 20, edition)
    calls = []

    def spy(real):
        def call(*args, **kwargs):
            calls.append((args, kwargs))
            return real(*args, **kwargs)
        return call

    with replaced(name, spy):
        reader = HexelReader(edition, find_markers=False)
        reader.calibrate(img)
        reader.read(img)
    return calls


@pytest.mark.parametrize(("seed", "edition"), [(5, "web"), (29, "web"), (7, "holodex")])
def test_reads_made_together_read_as_alone(seed: int, edition: str) -> None:
    """Every pair of the reader's reads on a table (`StagedRead`s, whose arguments are
    `read_cards`' own; 5 and 29: paper clipped in every channel on some cards, the band's lamp
    chosen per call), and a read with itself, made together a pass at a time, read as each
    read alone."""
    calls = [c for c in _spy(seed, edition, "StagedRead") if c[0][1]]
    assert len(calls) >= 2
    alone = [read_cards(*args, **kwargs) for args, kwargs in calls]
    # (one frame, view and colour model in a pass: a table told again with its own inks reads
    # with another model)
    pairs = [(i, i + 1) for i in range(len(calls) - 1)
             if calls[i][0][2] is calls[i + 1][0][2] and calls[i][0][3] is calls[i + 1][0][3]]
    pairs += [(0, 0)]
    for i, j in pairs:
        staged = [StagedRead(*calls[k][0], **calls[k][1]) for k in (i, j)]
        # one begun a pass ahead of the other: first and re-read passes in one pass too
        read_together(staged[:1])
        while not all(s.done for s in staged):
            read_together(staged)
        assert staged[0].reads == alone[i]
        assert staged[1].reads == alone[j]


def _probe_round_by_round(frame, cand, first, view, model, p):
    """`probe` as it was made before its rounds shared passes: each round one `read_cards`."""
    hopeful = [k for k, r in zip(cand, first, strict=True) if probe_mod.worth_search(r, p)]
    if not hopeful:
        return [], [], []
    best: dict = {}
    fine: dict = {}
    for steps in (probe_mod.PROBE_SHIFTS, probe_mod.PROBE_FINE):
        tries = []
        for k in hopeful:
            base = best[k][1] if k in best else cand[k]
            m = np.asarray(base.shape) * base.apothem
            for dx, dy, turn, size in steps:
                c = np.asarray(base.centre) + m @ np.array([dx, dy])
                tries.append((k, Pose((float(c[0]), float(c[1])), base.apothem * size,
                                      base.angle + math.radians(turn), base.turn, base.shape)))
        reads = read_cards(frame, [t[1] for t in tries], view, model)
        for (k, pose), r in zip(tries, reads, strict=True):
            score = probe_mod.probe_score(r)
            if k not in best or score > best[k][0]:
                best[k] = (score, pose, r)
            if steps is probe_mod.PROBE_FINE:
                fine.setdefault(k, []).append((score, r.crossed))
    best = {k: v for k, v in best.items()
            if v[2].complete and v[2].in_frame and v[2].paper_ok >= p.min_probe_ok
            and probe_mod.probe_band(frame, view, v[1], v[2], p)}
    cells = sorted(best, key=lambda k: (k[1], k[0]))
    reads = [best[k][2] for k in cells]
    for i, k in enumerate(cells):
        marks = probe_mod.crossed_near(fine.get(k, []), best[k][0])
        if any(marks):
            reads[i] = sym.replace(sym.uncrossed(reads[i], marks), crossed=marks)
    return cells, [best[k][1] for k in cells], reads


def _second_off(real):
    """`probe_tries` with the poses of its second call (the guess of the second round, where
    the first round has a re-read pass) made a little off."""
    n = [0]

    def off(hopeful, cand, best, steps):
        n[0] += 1
        tries = real(hopeful, cand, best, steps)
        if n[0] != 2:
            return tries
        return [(k, Pose(q.centre, q.apothem * 0.99, q.angle, q.turn, q.shape)) for k, q in tries]

    return off


@pytest.mark.parametrize(("seed", "edition"), [(1, "web"), (3, "web"), (10, "holodex")])
def test_the_probe_finds_what_it_found_round_by_round(seed: int, edition: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """On tables where the probe searches (a card found on 1 and 10, none on 3): as the
    reader calls it (its first round begun ahead), without that, with a first round begun
    for other poses, and with its guess of the second round's poses wrong, the probe finds
    the cards, poses and reads its round-by-round form finds."""
    calls = _spy(seed, edition, "probe_passes")
    searched = 0
    for args, kwargs in calls:
        assert not kwargs
        frame, cand, first, view, model, p = args[:6]
        ahead = args[6] if len(args) > 6 else None
        want = _probe_round_by_round(frame, cand, first, view, model, p)
        assert probe_mod.probe(*args) == want   # (its first round done already)
        assert probe_mod.probe(*args[:6]) == want
        if ahead is None:
            continue
        searched += 1
        other = [(k, Pose(q.centre, q.apothem * 1.01, q.angle, q.turn, q.shape))
                 for k, q in ahead[0]]
        wrong = (other, StagedRead(frame, [q for _, q in other], view, model))
        assert probe_mod.probe(*args[:6], wrong) == want
        fresh = (ahead[0], StagedRead(frame, [q for _, q in ahead[0]], view, model))
        assert probe_mod.probe(*args[:6], fresh) == want
        # the second round's guess wrong: its second call of `probe_tries` made off
        monkeypatch.setattr(probe_mod, "probe_tries", _second_off(probe_mod.probe_tries))
        assert probe_mod.probe(*args[:6]) == want
        monkeypatch.undo()
    assert searched


def _alone(*searches):
    """`passes.together` with each search made on its own, one after the other."""
    results = []
    for search in searches:
        try:
            asked = next(search)
            while True:
                read_together(asked)
                asked = search.send(None)
        except StopIteration as done:
            results.append(done.value)
    return results


def _counted(real, count: list[int]):
    """`real` counting its calls in `count[0]`."""
    def call(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)
    return call


@pytest.mark.parametrize(("seed", "edition"), [(15, "web"), (28, "holodex"), (43, "web")])
def test_the_probe_and_the_ragged_cards_share_passes(seed: int, edition: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe (with its search onwards) and the re-posing of placed cards (ragged or
    fitted loosely) that do not read whole (`probe.repose_unread`) made side by side, pass by
    pass (`passes.together`), read the table as the two made one after the other do, in fewer
    passes (tables where both search)."""
    img, _ = hexel_scene(seed, "hard", 20, edition)
    got, passes = {}, {}
    for way in ("together", "alone"):
        count = [0]
        monkeypatch.setattr(sym, "_read_rows", _counted(sym._read_rows, count))
        alone = way == "alone"
        with replaced("together", lambda real, alone=alone: _alone if alone else real):
            reader = HexelReader(edition, find_markers=False)
            reader.calibrate(img)
            res = reader.read(img)
        got[way], passes[way] = repr((res.observation, res.reads, res.poses)), count[0]
        monkeypatch.undo()
    assert got["together"] == got["alone"]
    assert passes["together"] < passes["alone"]


@pytest.mark.parametrize(("seed", "edition"), [(10, "holodex"), (29, "web"), (35, "web")])
def test_turned_down_hexagons_read_ahead_read_as_after(seed: int, edition: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The hexagons found again for the turned-down ones (`HexelReader._tell`), as the first
    reads say, are read in the cards' re-read pass: the table reads as when they are read
    after it, in fewer passes, and as when the guess is wrong (then read after all). The
    search in place of loosely fitted cards that do not read whole (`probe.repose_unread`),
    which runs beside the probe, is kept to ragged blobs here: on tables 10 and 35 it runs
    as many passes as the reading ahead saves, and the count would not tell them apart. So is
    the look about for a free cell's symbols (`probe.refit_by_symbols`), off here: with it,
    table 10 reads in as many passes either way (11; its reads the same)."""
    img, _ = hexel_scene(seed, "hard", 20, edition)
    real = HexelReader._turned_down_guess
    guessed = [0]

    def ahead(self, *args):
        found = real(self, *args)
        guessed[0] += bool(found)
        return found

    guesses = {"ahead": ahead, "none": lambda *a: [],
               "wrong": lambda self, frame, scale, fits, *a: [fits[0]]}
    got, passes = {}, {}
    for way in ("ahead", "none", "wrong"):
        monkeypatch.setattr(HexelReader, "_turned_down_guess", guesses[way])
        monkeypatch.setattr(probe_mod, "LOOSE_FIT_IOU", 0.0)
        monkeypatch.setattr(probe_mod, "refit_by_symbols",
                            lambda frame, view, poses, far: [None] * len(poses))
        count = [0]
        monkeypatch.setattr(sym, "_read_rows", _counted(sym._read_rows, count))
        reader = HexelReader(edition, find_markers=False)
        reader.calibrate(img)
        res = reader.read(img)
        got[way], passes[way] = repr((res.observation, res.reads, res.poses)), count[0]
        monkeypatch.undo()
    assert guessed[0], "no hexagon was found again ahead on this table"
    assert got["ahead"] == got["none"] == got["wrong"]
    assert passes["ahead"] < passes["none"]


@pytest.mark.parametrize(("seed", "edition"), [(7, "web"), (57, "web"), (30, "holodex")])
def test_the_layout_begun_ahead_reads_as_after(seed: int, edition: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The lattice and the free cells' read laid out from the first reads of the frame's
    first telling (`HexelReader._lay_out_ahead`), begun in that telling's further passes: the
    table reads as when they are laid out after the telling (57: told again with the table's
    inks, which it keeps its own for), in fewer passes, and as when laid out for cards the
    telling does not end with (then laid out again)."""
    img, _ = hexel_scene(seed, "hard", 20, edition)
    real = HexelReader._lay_out_ahead

    def wrong(self, frame, mask, scale, whole, not_cards, rest):
        return real(self, frame, mask, scale, whole[1:], [*not_cards, whole[0]], rest)

    ways = {"ahead": real, "after": lambda *a: [], "wrong": wrong}
    got, passes = {}, {}
    for way, lay_out in ways.items():
        monkeypatch.setattr(HexelReader, "_lay_out_ahead", lay_out)
        count = [0]
        monkeypatch.setattr(sym, "_read_rows", _counted(sym._read_rows, count))
        reader = HexelReader(edition, find_markers=False)
        reader.calibrate(img)
        res = reader.read(img)
        got[way], passes[way] = repr((res.observation, res.reads, res.poses)), count[0]
        monkeypatch.undo()
    assert got["ahead"] == got["after"] == got["wrong"]
    assert passes["ahead"] < passes["after"] <= passes["wrong"]
