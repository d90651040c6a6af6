"""`fit_hexagons` hands every blob's hexagon to its caller (`fitted`), and `_reseat` asks for
the hexagon of a blob it tries through `cards.fitted_card` instead of fitting it again: on a
rendered hard table the hexagon given back is the one `fit_card` fits to that very blob, and a
blob never fitted (or an id reused by another blob) is fitted afresh."""

from __future__ import annotations

import cv2
import numpy as np

from companion.scenarios import hexel_scene
from companion.vision.calibration import TableView
from companion.vision.cards import (
    Blob,
    DetectParams,
    fit_card,
    fit_hexagons,
    fitted_card,
    paper_blobs,
    paper_mask,
)

cv2.setNumThreads(1)


def test_a_blob_fitted_once_gives_the_same_hexagon_back() -> None:
    img, _ = hexel_scene(7, "hard", 20, "web")
    view, params = TableView(), DetectParams()
    blobs = paper_blobs(paper_mask(img, 1.0, params), 1.0, view, params)
    fitted: dict = {}
    fit_hexagons(blobs, params, True, None, fitted)
    assert len(fitted) == len(blobs) > 10
    for blob in blobs:
        again = fitted_card(blob, True, fitted)
        assert again is fitted[id(blob)] and again.blob is blob
        assert again == fit_card(blob, True)


def test_a_blob_not_fitted_is_fitted_afresh() -> None:
    hull = np.array([[0.0, 0.0], [40.0, 0.0], [60.0, 35.0], [40.0, 70.0], [0.0, 70.0],
                     [-20.0, 35.0]])
    blob = Blob(hull, hull, 4200.0, False)
    other = Blob(hull + 100.0, hull + 100.0, 4200.0, False)
    stale = {id(blob): fit_card(other)}   # another blob's hexagon under this one's id
    got = fitted_card(blob, False, stale)
    assert got.blob is blob and got == fit_card(blob)
    assert fitted_card(blob, False, None) == fit_card(blob)


def test_hexagons_fitted_together_are_each_fitted_alone() -> None:
    """`fit_cards` fits every blob's hexagon at once (`hexagon_poses`): on rendered hard tables,
    with and without the table's plane (affine), each blob's hexagon bit for bit as fitted
    alone, whatever blobs it is fitted with (the outlines' lengths differ)."""
    from companion.vision.cards import fit_cards

    for seed, edition in ((2, "holodex"), (9, "web")):
        img, _ = hexel_scene(seed, "hard", 20, edition)
        view, params = TableView(), DetectParams()
        blobs = paper_blobs(paper_mask(img, 1.0, params), 1.0, view, params)
        lengths = {len(b.hull_plane) for b in blobs}
        assert len(lengths) > 3
        for affine in (False, True):
            together = fit_cards(blobs, affine)
            backwards = fit_cards(blobs[::-1], affine)[::-1]
            for blob, a, b in zip(blobs, together, backwards, strict=True):
                alone = fit_card(blob, affine)
                for got in (a, b):
                    assert (got.centre, got.apothem, got.angle, got.iou, got.shape) == (
                        alone.centre, alone.apothem, alone.angle, alone.iou, alone.shape)
