"""A grey object (a pen, a phone's edge, a grey sleeve) reaching over a symbol from beyond the
card crosses the card's edge like a fingertip, but in the printed band's own grey: on a small,
blurred card the band reads mid-grey, and the old reader took the object for the band and the
grey blob over the symbol for a blurred ring (a blue or red disc read V, on cards whose paper and
band were all there: 48 of 288 crafted cards, greys 70-160 under four lamps, both editions).
The object runs on past the card's outline onto the table, where the edge's other places show
the table: a printed band or ring stops inside the outline (`symbol_crossings.crossed_edge`). Such a
symbol is '?', never a letter."""

from __future__ import annotations

import numpy as np
import pytest

from .test_symbol_fingertip import _card as _fingertip_card
from .test_symbol_fingertip import _read as _read_at

WIDTH = 50.0    # px across the flats: a small card, its band blurred to mid-grey


def _card(symbols: str, edition: str, gains: tuple[float, float, float],
          grey: int | None = None, edge: int = 0) -> np.ndarray:
    """One card on felt lit by RGB `gains`, blurred 1.4 px, with a grey bar of level `grey`
    (0.22 of the card wide) from its symbol at `edge` out across that edge and on over the
    table (`test_symbol_fingertip._card`)."""
    return _fingertip_card(symbols, edition, WIDTH, gains, 1.4,
                           None if grey is None else (grey, grey, grey), edge)


def _read(img: np.ndarray, edition: str) -> str:
    return _read_at(img, edition, WIDTH)


# (grey level, lamp RGB gains, symbols, edition, edge, the old reader's reading)
MISREAD = [
    (100, (1.0, 1.0, 1.0), "BVBRVR", "holodex", 0, "VVBRVR"),
    (100, (0.85, 0.8, 0.75), "BVBRVR", "holodex", 0, "VVBRVR"),
    (100, (1.3, 1.2, 1.1), "VRVBVV", "holodex", 1, "VVVBVV"),
    (130, (1.0, 1.0, 1.0), "BVBRVR", "holodex", 0, "VVBRVR"),
    (130, (1.0, 1.0, 1.0), "VRVBVV", "holodex", 3, "VRVVVV"),
    (130, (0.85, 0.8, 0.75), "VRVBVV", "holodex", 1, "VVVBVV"),
    (130, (1.3, 1.2, 1.1), "BVBRVR", "holodex", 5, "BVBRVV"),
    (130, (0.9, 0.7, 0.45), "BVBRVR", "holodex", 3, "BVBVVR"),
    (160, (1.0, 1.0, 1.0), "BVBRVR", "holodex", 3, "BVBVVR"),
    (160, (0.9, 0.7, 0.45), "BVBRVR", "holodex", 3, "BVBVVR"),
]


@pytest.mark.parametrize("grey,gains,symbols,edition,edge,old", MISREAD)
def test_a_grey_object_across_the_edge_is_never_read_as_a_letter(grey, gains, symbols, edition,
                                                                 edge, old):
    read = _read(_card(symbols, edition, gains, grey, edge), edition)
    assert all(r in ("?", t) for r, t in zip(read, symbols, strict=True)), (
        f"read {read} (truth {symbols}, old reader {old})")
    assert read[edge] == "?"


@pytest.mark.parametrize("gains", [(1.0, 1.0, 1.0), (0.85, 0.8, 0.75), (1.3, 1.2, 1.1),
                                   (0.9, 0.7, 0.45)])
@pytest.mark.parametrize("symbols,edition", [("BVBRVR", "holodex"), ("VRVBVV", "holodex"),
                                             ("BRYBRY", "web")])
def test_the_same_cards_untouched_read_whole(gains, symbols, edition):
    """Guard: the band's step at the outline, the table beyond it, is no object running on."""
    assert _read(_card(symbols, edition, gains), edition) == symbols
