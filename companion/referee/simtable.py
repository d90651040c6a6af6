"""A physical Hex'el table in software: cards where simulated players laid them, seen by a camera.

The demo, the tests and the benchmark need a table that is not the committed game: players lay a
card before the referee knows it, sometimes at the wrong rotation, and pick it up again; a hand
covers part of the table while it moves. `PhysicalTable` holds the cards lying on the table (game
cells and oriented symbols) and an optional hand over a cell; `observe` turns it into the
`HexelObservation` a perfect reader would report through a camera lattice rotated and shifted by
`camera` (cards under or next to the hand are reported occluded, their symbols unreadable).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..rules.hexel.cards import orient
from ..rules.hexgrid import Cell, distance
from ..vision.observation import HexelObservation, SeenCard
from .align import Alignment

__all__ = ["PhysicalTable", "observe"]


NO_TURN = Alignment()


def observe(cards: Iterable[tuple[Cell, str]], camera: Alignment = NO_TURN,
            hand: Cell | None = None, t: float = 0.0, seq: int = 0,
            confidence: float = 0.98) -> HexelObservation:
    """What a perfect reader reports of cards (game cell, oriented symbols) through `camera`."""
    out = []
    for cell, symbols in cards:
        covered = hand is not None and distance(cell, hand) <= 1
        cam = camera.camera_symbols(symbols)
        out.append(SeenCard(camera.camera_cell(cell), "??????" if covered else cam,
                            0.3 if covered else confidence, covered))
    return HexelObservation(cards=tuple(out), calibrated=True, t=t, frame_seq=seq)


@dataclass
class PhysicalTable:
    """Cards lying on a real table and a hand hovering over it (thread-safe)."""

    camera: Alignment = NO_TURN
    cards: dict[Cell, str] = field(default_factory=dict)   # game cell -> oriented symbols
    hand: Cell | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def lay(self, card: str, cell: Cell, rotation: int) -> None:
        """A card put down on `cell` at `rotation`."""
        with self._lock:
            self.cards[cell] = orient(card, rotation)

    def pick_up(self, cell: Cell) -> None:
        """The card on `cell` taken back into a hand."""
        with self._lock:
            self.cards.pop(cell, None)

    def clear(self) -> None:
        """Every card swept off the table."""
        with self._lock:
            self.cards.clear()
            self.hand = None

    def hover(self, cell: Cell | None) -> None:
        """A hand over `cell` (None: no hand)."""
        with self._lock:
            self.hand = cell

    def snapshot(self) -> tuple[tuple[tuple[Cell, str], ...], Cell | None]:
        """The cards (sorted) and the hand, consistently."""
        with self._lock:
            return tuple(sorted(self.cards.items())), self.hand

    def observe(self, t: float = 0.0, seq: int = 0) -> HexelObservation:
        """The observation of the table as it lies now."""
        cards, hand = self.snapshot()
        return observe(cards, self.camera, hand, t, seq)
