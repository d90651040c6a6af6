"""The reader on video: a frame in which nothing changed keeps the last full read; any
real change — a card turned in place, a hand, the lamp — is read in full, and so is every
REREAD_FRAMES-th frame. Frames are rendered tables (`frame` > 0: the same table with fresh
sensor noise) and crafted blocks for `change` itself."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.scenarios import hexel_layout
from companion.synth.effects import Hand
from companion.synth.scene import render_scene, sample_params
from companion.vision.change import (
    BLOCK,
    REREAD_FRAMES,
    THRESHOLD,
    changed_blocks,
    coarse,
    region,
)
from companion.vision.reader import HexelReader
from companion.vision.scoring import TruthCard, score_table


def _table(seed: int, band: str = "hard", edition: str = "web"):
    cards = hexel_layout(seed, 16, edition)
    return cards, sample_params(seed, band)


def _score(obs, truth):
    return score_table(obs.cards, [TruthCard(c.image_cell, c.image_symbols, c.visible)
                                   for c in truth.cards])


# -- change ------------------------------------------------------------------------------------


def test_sensor_noise_is_no_change_but_one_block_of_a_symbol_is():
    rng = np.random.default_rng(0)
    base = np.full((720, 1280, 3), 200.0, np.float32)
    base[100:300, 200:500] = (40, 60, 180)
    key = np.clip(base + rng.normal(0, 6, base.shape), 0, 255).astype(np.uint8)
    now = np.clip(base + rng.normal(0, 6, base.shape), 0, 255).astype(np.uint8)
    assert not changed_blocks(coarse(key), coarse(now)).any()
    # a 4 x 4 px dot of an ink 80 levels off in one channel (a symbol's core on a card 25 px
    # across) inside one block: a quarter of the block, 20 levels on its mean
    now[400:404, 600:604] = (200, 200, 120)
    changed = changed_blocks(coarse(key), coarse(now))
    assert changed.sum() == 1 and changed[400 // BLOCK, 600 // BLOCK]


def test_a_global_flicker_is_divided_out_but_a_large_exposure_step_is_a_change():
    rng = np.random.default_rng(1)
    key = rng.integers(60, 200, (720, 1280, 3)).astype(np.uint8)
    brighter = np.clip(key.astype(np.float32) * 1.06, 0, 255).astype(np.uint8)
    assert not changed_blocks(coarse(key), coarse(brighter)).any()
    step = np.clip(key.astype(np.float32) * 1.3, 0, 255).astype(np.uint8)
    assert changed_blocks(coarse(key), coarse(step)).all()


def test_a_region_is_compared_on_its_own_blocks():
    # a hand over the right of the frame darkens it enough to count as a change everywhere;
    # the blocks a tilted board covers, compared on their own, have not changed — not even
    # where the hand is within the board's bounding box but off the board — until something
    # changes on the board itself
    rng = np.random.default_rng(2)
    key = rng.integers(60, 200, (720, 1280, 3)).astype(np.uint8)
    now = np.clip(key + rng.normal(0, 3, key.shape), 0, 255).astype(np.uint8)
    now[:, 700:] = (40, 60, 90)
    now[120:200, 150:230] = (40, 60, 90)            # in the bounding box, off the board
    board = np.array([(400.0, 160.0), (600.0, 360.0), (400.0, 560.0), (200.0, 360.0)])
    assert changed_blocks(coarse(key), coarse(now)).all()
    assert not changed_blocks(region(coarse(key), board), region(coarse(now), board)).any()
    now[350:362, 390:402] = 255                      # a card's corner laid on the board
    assert changed_blocks(region(coarse(key), board), region(coarse(now), board)).sum() >= 1


def test_a_frame_of_another_size_is_a_change_everywhere():
    a = np.zeros((720, 1280, 3), np.uint8)
    assert changed_blocks(coarse(a), coarse(np.zeros((1296, 2304, 3), np.uint8))).all()


def test_the_threshold_sits_above_rendered_sensor_noise_and_jpeg():
    """The next frame of a still hard table (noise, JPEG) changes no block."""
    for seed in range(4):
        cards, params = _table(seed)
        a, _ = render_scene(cards, "web", params, frame=0)
        b, _ = render_scene(cards, "web", params, frame=1)
        d = changed_blocks(coarse(a), coarse(b), THRESHOLD)
        assert not d.any(), f"seed {seed}: {int(d.sum())} blocks changed by noise alone"


# -- the reader --------------------------------------------------------------------------------


def test_a_still_table_keeps_the_last_read_with_the_new_time():
    cards, params = _table(1)
    reader = HexelReader("web", find_markers=False)
    first = reader.read(render_scene(cards, "web", params, frame=0)[0], 0.0, 0)
    again = reader.read(render_scene(cards, "web", params, frame=1)[0], 0.1, 1)
    assert not first.kept and again.kept
    assert again.observation.cards == first.observation.cards
    assert (again.observation.t, again.observation.frame_seq) == (0.1, 1)


@pytest.mark.parametrize("seed", [1, 3])
def test_a_card_turned_in_place_is_read_again_and_right(seed):
    """No hand in view: only one card's symbols move. Kept reads would miss it."""
    cards, params = _table(seed)
    img, truth = render_scene(cards, "web", params, frame=0)
    k = next(i for i, c in enumerate(truth.cards)
             if c.visible > 0.99 and c.symbols[1:] + c.symbols[:1] != c.symbols)
    turned = list(cards)
    turned[k] = replace(turned[k], rotation=(turned[k].rotation + 1) % 6)
    img2, truth2 = render_scene(turned, "web", params, frame=1)
    reader = HexelReader("web", find_markers=False)
    first = _score(reader.read(img).observation, truth)
    result = reader.read(img2)
    assert not result.kept
    second = _score(result.observation, truth2)
    assert second.misreads == 0 and second.correct == first.correct


def test_a_hand_reaching_in_is_read_in_full():
    cards, params = _table(1)
    reader = HexelReader("web", find_markers=False)
    img, truth = render_scene(cards, "web", params, hands=())
    reader.read(img)
    c = np.array(truth.cards[3].centre_mm)
    hand = Hand(entry_mm=tuple(c + np.array([900.0, 0.0])), palm_mm=tuple(c))
    img2, truth2 = render_scene(cards, "web", params, hands=(hand,), frame=1)
    result = reader.read(img2)
    assert not result.kept
    assert _score(result.observation, truth2).misreads == 0


def test_every_reread_frames_th_frame_is_read_in_full_and_keeping_can_be_off():
    cards, params = _table(1)
    frames = [render_scene(cards, "web", params, frame=i)[0] for i in range(3)]
    reader = HexelReader("web", find_markers=False)
    kept = [reader.read(frames[i % 3]).kept for i in range(2 * REREAD_FRAMES + 1)]
    assert kept.count(False) == 3
    assert not kept[0] and not kept[REREAD_FRAMES] and not kept[2 * REREAD_FRAMES]
    off = HexelReader("web", find_markers=False, keep_still=False)
    assert not any(off.read(frames[i % 3]).kept for i in range(3))
    stages = reader.read(frames[0], keep_stages=True)
    assert not stages.kept and "5_result" in stages.stages
