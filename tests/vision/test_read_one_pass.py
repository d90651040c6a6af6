"""A card's re-reads (`symbols.read_cards`): the shaded re-read (`_shaded`) and the turned one
(`_turned`) are made in one pass, and every re-read sees the lamp the first read saw
(`_read_pass`), so a card's re-read depends on its own pose alone, not on which other cards
need one. On rendered hard tables (one with clipped paper under a lamp): the one pass reads
every card as the shaded pass, then the lamp re-read, then the turned pass, each on its own,
did; no read call of the reader makes more than two passes where no paper clipped; and each
card of the re-read pass, read alone with the first read's lamp, reads the same. The lamp's
re-read, planned from the first reads (`_lamp_plan`), joins that pass: every read call on tables
with clipped paper reads as the passes one by one did, in two passes at most, and a plan whose
lamp the shaded re-read moved is not taken."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import cv2
import numpy as np
import pytest

from companion.scenarios import hexel_scene
from companion.vision import symbol_lamp, symbol_samples
from companion.vision import symbols as sym
from companion.vision.colour import ColourModel
from companion.vision.reader import HexelReader

from .reader_spy import replaced
from .test_border_all_clipped import ALL_CLIPPED, WARM_BAND, _band

cv2.setNumThreads(1)


def _calls(seed: int, edition: str) -> list[tuple]:
    """The arguments of every read the reader makes on a hard table (each a `StagedRead`,
    whose arguments are `read_cards`' own)."""
    img, _ = hexel_scene(seed, "hard", 20, edition)
    calls = []

    def spy(real):
        def call(*args, **kwargs):
            calls.append((args, kwargs))
            return real(*args, **kwargs)
        return call

    with replaced("StagedRead", spy):
        reader = HexelReader(edition, find_markers=False)
        reader.calibrate(img)
        reader.read(img)
    return calls


@contextmanager
def _counting(passes: list[int]) -> Iterator[None]:
    """Within it, every colour-model pass (`ColourModel.explain` call) adds one to
    `passes[-1]`."""
    real = ColourModel.explain

    def count(self, *args, **kwargs):
        passes[-1] += 1
        return real(self, *args, **kwargs)

    ColourModel.explain = count
    try:
        yield
    finally:
        ColourModel.explain = real


def _sequential(bgr, poses, view, model, blurred_rings=True):
    """`read_cards` with its re-reads one pass each, in turn: the shaded cards, the lamp's,
    then the turned ones still asked for (as the code before the one pass did them)."""
    samples = symbol_samples.sample_cards(bgr, poses, view)
    # (the first pass judges its cards against their twins, `decide`'s `twin`; no re-read does)
    reads, lamps = sym._read_rows(bgr, poses, view, model, blurred_rings, samples, None, None,
                                  [(len(poses), None)], None, np.ones(len(poses), bool))
    lamp = lamps[0]
    allow = np.broadcast_to(np.asarray(blurred_rings, bool), (len(poses),))
    todo, vals, inside, shade = sym._shade_of(samples, reads, allow)
    alt = sym._read_cards(bgr, [poses[i] for i in todo], view, model, True, (vals, inside),
                          shade, band_lamp=lamp)
    reads = sym._shaded(reads, todo, alt, model, sym._ring_check(bgr, poses, view))
    crossed = [r.crossed for r in reads]
    reads = sym._lamp_read(bgr, poses, view, model, reads, allow, lamp)
    turns = sym._turn_todo(reads, allow)
    turn = math.radians(sym.TURN_DEG)
    alt = sym._read_cards(bgr, [sym._rotate(poses[i], t) for t in (turn, -turn) for i in turns],
                          view, model, True, band_lamp=lamp)
    reads = sym._turned(reads, allow, turns, alt)
    return [sym.uncrossed(r, c) if any(c) else r for r, c in zip(reads, crossed, strict=True)]


@pytest.mark.parametrize(("seed", "edition"), [(7, "holodex"), (1, "web")])
def test_shaded_and_turned_rereads_share_one_pass(seed: int, edition: str) -> None:
    calls = _calls(seed, edition)
    passes: list[int] = []
    both = 0
    with _counting(passes):
        for args, kwargs in calls:
            passes.append(0)
            reads = sym.read_cards(*args, **kwargs)
            # no lamp re-read
            assert all(max(r.white_bgr) < symbol_samples.CLIP_NEAR for r in reads)
            assert passes[-1] <= 2
            first, _ = sym._read_pass(*args, **kwargs)
            allow = np.broadcast_to(np.asarray(kwargs.get("blurred_rings", True), bool),
                                    (len(first),))
            if not args[1]:
                continue
            samples = symbol_samples.sample_cards(args[0], args[1], args[2])
            both += bool(sym._shade_of(samples, first, allow)[0]
                         and sym._turn_todo(first, allow))
            assert reads == _sequential(*args, **kwargs)
    assert both   # the table has a call that needs both re-reads


def test_a_rereads_card_reads_alone_as_in_company() -> None:
    """Under a lamp that clipped the paper in every channel (11 cards; the lamp's colour read
    from the others): each card of every re-read pass reads alone, at its pose and with the
    first read's lamp, as it does in the pass."""
    calls = _calls(5, "web")
    checked = 0
    for (bgr, poses, view, model, *rest), kwargs in calls:
        if not poses:
            continue
        rings = rest[0] if rest else kwargs.get("blurred_rings", True)
        samples = symbol_samples.sample_cards(bgr, poses, view)
        first, lamp = sym._read_pass(bgr, poses, view, model, rings, samples)
        allow = np.broadcast_to(np.asarray(rings, bool), (len(poses),))
        shade = sym._shade_of(samples, first, allow)
        turns = sym._turn_todo(first, allow)
        rows, (n_shade, n_turned) = sym._reread_rows(bgr, poses, view, shade, turns, lamp)
        alt = [] if rows is None else sym._read_cards(bgr, rows.poses, view, model, True,
                                                      rows.samples, rows.shade, band_lamp=lamp)
        shaded, turned = alt[:n_shade], alt[n_shade:n_turned]
        todo, vals, inside, at = shade
        for k, i in enumerate(todo):
            alone = sym._read_cards(bgr, [poses[i]], view, model, True,
                                    (vals[k:k + 1], inside[k:k + 1]), at[k:k + 1],
                                    band_lamp=lamp)
            assert alone == [shaded[k]]
            checked += 1
        turn = math.radians(sym.TURN_DEG)
        rotated = [sym._rotate(poses[i], t) for t in (turn, -turn) for i in turns]
        for pose, got in zip(rotated, turned, strict=True):
            assert sym._read_cards(bgr, [pose], view, model, True, band_lamp=lamp) == [got]
            checked += 1
    assert checked


def test_a_clipped_cards_band_is_judged_by_the_lamp_given_whatever_its_company():
    """Where the paper clipped in every channel, the band's lamp scaling is chosen over the
    cards of a read (one lamp lights the table): a warm band read with two cool ones is judged
    by the cool lamp they make the likelier. Given the lamp its first read chose, a card's
    band is judged by that lamp alone or in any company."""
    warm, cool = WARM_BAND, (0.15, 0.30, 0.58)
    alone, lamp = symbol_lamp.dark_band_lamp(_band(warm, warm), ALL_CLIPPED)
    assert alone.all() and lamp is not None
    company = np.concatenate([_band(warm, warm), _band(cool, cool), _band(cool, cool)])
    white = np.repeat(ALL_CLIPPED, 3, 0)
    assert not symbol_lamp.dark_band_lamp(company, white)[0][0].any()      # the company's lamp
    dark, kept = symbol_lamp.dark_band_lamp(company, white, lamp=lamp)
    assert dark[0].all() and not dark[1:].any() and kept is lamp


@pytest.mark.parametrize(("seed", "edition"), [(29, "web"), (10, "holodex"), (5, "web")])
def test_the_lamp_reread_joins_the_reread_pass(seed: int, edition: str) -> None:
    """Tables whose paper clipped (the lamp read from unclipped cards on 5, from each card's
    band on 29 and 10): each read call reads as the passes one by one did, in two passes."""
    calls = _calls(seed, edition)
    passes: list[int] = []
    planned = 0
    with _counting(passes):
        for args, kwargs in calls:
            passes.append(0)
            reads = sym.read_cards(*args, **kwargs)
            assert passes[-1] <= 2
            if not args[1]:
                continue
            first, lamp = sym._read_pass(*args, **kwargs)
            allow = np.broadcast_to(np.asarray(kwargs.get("blurred_rings", True), bool),
                                    (len(first),))
            plan = sym._lamp_plan(args[0], args[1], args[2], first, allow, lamp)
            planned += plan is not None and plan.fused and len(plan.keep) > 0
            assert reads == _sequential(*args, **kwargs)
    assert planned   # the table has a call whose lamp re-read joined the pass


def test_a_lamp_plan_is_taken_only_for_the_lamp_it_was_made_for() -> None:
    """`_lamp_read` given a plan made for another lamp, or one not to be fused, reads as
    without a plan (the plan's reads, here wrong on purpose, are not used)."""
    calls = _calls(5, "web")
    checked = 0
    for (bgr, poses, view, model, *rest), kwargs in calls:
        if not poses:
            continue
        rings = rest[0] if rest else kwargs.get("blurred_rings", True)
        first, lamp = sym._read_pass(bgr, poses, view, model, rings)
        allow = np.broadcast_to(np.asarray(rings, bool), (len(poses),))
        plan = sym._lamp_plan(bgr, poses, view, first, allow, lamp)
        if plan is None or not len(plan.keep):
            continue
        # (complete, and agreeing with every letter first read: taken when used)
        wrong = [symbol_samples.CardRead(first[i].symbols.replace("?", "Z"), (1.0,) * 6, 1.0, 1.0,
                                         True, first[i].white_bgr) for i in (plan.todo[k] for k in
                                         plan.keep)]
        plain = sym._lamp_read(bgr, poses, view, model, list(first), allow, lamp)
        other = np.zeros(3) if plan.lamp is None else plan.lamp + 0.01
        for bad in (plan._replace(lamp=other), plan._replace(fused=False)):
            got = sym._lamp_read(bgr, poses, view, model, list(first), allow, lamp, bad, wrong)
            assert got == plain
            checked += 1
        got = sym._lamp_read(bgr, poses, view, model, list(first), allow, lamp, plan, wrong)
        assert got != plain   # (the plan itself is taken: its reads stand)
    assert checked
