"""What the reader reports about one frame: the contract between `vision` and the referee.

An observation lists every card the reader found, in *camera lattice* coordinates: axial cells on
the hex lattice fitted to the cards in the image, with E = the lattice direction nearest to
image-right, and each card's six symbols listed by that lattice's directions E, NE, NW, W, SW, SE
as they appear in the image. The lattice origin is arbitrary (the referee aligns the camera
lattice to the game's layout by a translation and a multiple of 60 degrees). A card the reader
cannot see whole (a hand over it, out of frame) is reported with `occluded=True` and its symbols
are not to be trusted: unreadable edges are written '?'.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SeenCard:
    """One card as read from the image."""

    cell: tuple[int, int]
    symbols: str
    confidence: float
    occluded: bool = False
    centre_px: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class HexelObservation:
    """Every Hex'el card read from one frame (or a stable run of frames)."""

    cards: tuple[SeenCard, ...] = ()
    calibrated: bool = False
    t: float = 0.0
    frame_seq: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict:
        """The `companion recognize --json` form."""
        return {
            "cards": [
                {"cell": list(c.cell), "symbols": c.symbols, "confidence": round(c.confidence, 4),
                 "occluded": c.occluded}
                for c in self.cards
            ],
            "calibrated": self.calibrated,
            "notes": list(self.notes),
        }
