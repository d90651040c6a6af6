"""Rendered Hex'el tables for the reader tests, read as `companion bench vision --game hexel`
reads a hard-band frame (the table calibrated from its markers, the markers not searched for on
every frame), and scored against the renderer's own truth."""

from __future__ import annotations

from companion.scenarios import hexel_scene
from companion.vision.reader import HexelReader
from companion.vision.scoring import TableScore, TruthCard, score_table


def read_hard(seed: int, edition: str):
    """(frame, truth, reader, its read) of hard-band table `seed` in `edition`."""
    image, truth = hexel_scene(seed, "hard", 20, edition)
    reader = HexelReader(edition, find_markers=False)
    reader.calibrate(image)
    return image, truth, reader, reader.read(image)


def scored(truth, cards) -> TableScore:
    """The reported `cards` scored against the renderer's `truth`."""
    return score_table(cards, [TruthCard(c.image_cell, c.image_symbols, c.visible)
                               for c in truth.cards])


def read_without(seed: int, edition: str, misread: str) -> TableScore:
    """Hard-band table `seed` read end to end and checked for what a guard against an object
    over a symbol must give there: no misread, no false card, and no card reported whole as
    `misread` (the reading the object gave before); its score, for the cards in full view."""
    _image, truth, _reader, res = read_hard(seed, edition)
    s = scored(truth, res.observation.cards)
    assert (s.misreads, s.false_cards) == (0, 0), s
    assert not any(c.symbols == misread and not c.occluded for c in res.observation.cards)
    return s
