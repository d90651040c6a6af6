"""Where every card's paper clipped the sensor in some channel, no card shows the lamp's colour
(`symbol_lamp.lamp_of_reads` finds none), yet each card's printed border band still does: normalised
by the card's white, the band reads brighter in a clipped channel by as much as the paper lies past
the clip (`symbol_lamp.band_white`), so the card's pale blends are judged against that paper. A card
completed so keeps the symbols it first read (`CardRead.first_symbols`): the reader decides the
table's inks by those, so another printer's inks are still measured (see test_inks.py,
`test_cards_of_another_printer_are_read`). Crafted cards are drawn with plain cv2
(tests/vision/crafted.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.faces import HEXEL_FACE
from companion.vision import symbol_decide
from companion.vision.calibration import TableView
from companion.vision.colour import builtin_model
from companion.vision.symbol_lamp import band_white, lamp_of_reads
from companion.vision.symbol_samples import CLIP_NEAR, CardRead, Pose
from companion.vision.symbols import read_cards

from .crafted import draw_card, photograph, texture

ROW = ["VRVBVV", "RVVBVR", "VVRVBV", "VBVVRV"]
WARM = (1.0, 0.8, 0.55)   # lamp gains (RGB): a ~3000 K lamp the white balance barely corrected


def _table(bright: float, motion: int, width: float = 44.0
           ) -> tuple[np.ndarray, list[Pose]]:
    """Four holodex cards in a row, all under WARM `bright` times over (every card's paper
    clips in red, and green comes close), defocused, smeared by `motion` px, JPEG 70."""
    h, w = int(width * 1.6), int(width * 1.3 * len(ROW) + 40)
    img = texture("felt", (h, w), np.random.default_rng(0)).astype(np.float32)
    centres = []
    for i, symbols in enumerate(ROW):
        centre = np.array([20 + width * (0.65 + 1.3 * i), h / 2])
        draw_card(img, centre, symbols, "holodex", width / HEXEL_FACE.flat_to_flat_mm, 0.0)
        centres.append(centre)
    lit = cv2.GaussianBlur(img * np.float32(WARM[::-1]) * np.float32(bright), (0, 0), 1.8)
    photo = photograph(lit, motion)
    poses = [Pose((float(c[0]), float(c[1])), width / 2.0, 0.0) for c in centres]
    return photo, poses


@pytest.mark.parametrize("motion, whole", [(3, [1, 2, 3]), (0, [1])])
def test_cards_all_clipped_read_the_lamp_from_their_band(motion, whole, monkeypatch):
    """The old reader left rings '?' on every card (no card's paper escaped the clip to tell
    the lamp); now the cards listed are read whole, and no card reads a wrong letter. (The
    rings a card reads also name a ring left unread whose colours are theirs, `twin_ring`,
    which reads card 2 whole in its first pass: left out here, to see the lamp's re-read.)"""
    monkeypatch.setattr(symbol_decide, "RING_TWIN_MATCH", -1.0)
    bgr, poses = _table(1.4, motion)
    reads = read_cards(bgr, poses, TableView(), builtin_model("holodex"))
    assert all(max(r.white_bgr) >= CLIP_NEAR for r in reads)
    assert lamp_of_reads(reads) is None
    for k, (r, truth) in enumerate(zip(reads, ROW, strict=True)):
        assert all(a in ("?", b) for a, b in zip(r.symbols, truth, strict=True)), (k, r)
        if k in whole:
            assert r.symbols == truth, (k, r)
            # ... by that re-read, which keeps what the card first read for the inks' sake
            assert r.unlamped is not None and "?" in r.first_symbols


def test_with_the_twin_rings_the_same_cards_read_whole():
    """With `twin_ring` as the reader has it, cards 1 to 3 read whole too (card 2 by its
    first pass), and no card reads a wrong letter."""
    bgr, poses = _table(1.4, 3)
    reads = read_cards(bgr, poses, TableView(), builtin_model("holodex"))
    assert [r.symbols for r in reads[1:]] == ROW[1:]
    assert all(a in ("?", b) for a, b in zip(reads[0].symbols, ROW[0], strict=True))


def test_the_band_tells_a_lower_bound_of_the_paper():
    """The band's excess in red lies between none and the lamp's true one (1.4 x the red of
    paper, 247, over the clip), and the channel that did not clip is left alone."""
    bgr, poses = _table(1.4, 3)
    reads = read_cards(bgr, poses, TableView(), builtin_model("holodex"))
    white = np.array([r.white_bgr for r in reads], np.float32)
    est = band_white(bgr, poses, TableView(), white)
    assert (est[:, 0] == white[:, 0]).all()                   # blue did not clip
    assert (est[:, 2] >= white[:, 2]).all()
    assert (est[:, 2] <= 1.4 * 247.0 * 1.02).all()
    assert (est[:, 2] > white[:, 2]).any()


def test_first_symbols_are_the_ones_read_before_the_band_lamp():
    read = CardRead("VRVBVV", (1.0,) * 6, 1.0, 1.0, True, (160.0, 240.0, 254.0))
    assert read.first_symbols == "VRVBVV"
    again = CardRead("VRVBVV", (1.0,) * 6, 1.0, 1.0, True, (160.0, 240.0, 254.0),
                     unlamped="?R?BVV")
    assert again.first_symbols == "?R?BVV" and again.complete


@pytest.mark.parametrize("seed, markers, before, more", [
    # a ~3500 K lamp, every card's paper clipped in red: 4 of 8 read before (and one more
    # found by the probe searching a cell that shows a card's paper and band, `searched`)
    (424, True, 4, 1),
    (228, False, 7, 0),   # ... clipped in red and green: 7 of 8 before
])
def test_rendered_tables_under_a_clipping_lamp(seed, markers, before, more):
    from .test_reader import _read_scene

    s, _ = _read_scene(seed, ("holodex", "web")[seed % 2], markers=markers)
    assert s.misreads == 0 and s.false_cards == 0, s
    assert s.correct == before + 1 + more, s
