"""Aligning the camera lattice to the game's layout, and matching seen symbols to deck cards.

The reader reports cards on a hex lattice fitted to the image, with an arbitrary origin and with
"east" wherever image-right happens to be; the game keeps its own axial coordinates from the
opening line. The two differ by a rotation through a multiple of 60 degrees and a translation, and
a card's six symbols rotate with the lattice. An `Alignment` maps camera cells and symbols into game
cells and symbols; `align` finds the alignments that put the most committed cards exactly under
observed cards with the same oriented symbols (each matching pair votes for one rotation and
translation). `deck_card` recovers which deck card, at which rotation, shows a given oriented
symbol string. Pure functions, no rules and no I/O.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..rules.hexel.cards import orient
from ..rules.hexgrid import Cell, rotate

__all__ = ["Alignment", "Diff", "align", "deck_card", "diff", "line_alignments"]


@dataclass(frozen=True)
class Alignment:
    """Camera lattice → game lattice: rotate by `rotation` x 60° (CCW), then shift by `offset`."""

    rotation: int = 0
    offset: Cell = (0, 0)

    def cell(self, camera_cell: Cell) -> Cell:
        """The game cell under a camera cell."""
        q, r = rotate(camera_cell, self.rotation)
        return (q + self.offset[0], r + self.offset[1])

    def symbols(self, camera_symbols: str) -> str:
        """Symbols by game direction (E, NE, NW, W, SW, SE) of a card read in camera directions."""
        return orient(camera_symbols, self.rotation)

    def camera_cell(self, game_cell: Cell) -> Cell:
        """The camera cell over a game cell (the inverse of `cell`)."""
        shifted = (game_cell[0] - self.offset[0], game_cell[1] - self.offset[1])
        return rotate(shifted, -self.rotation % 6)

    def camera_symbols(self, game_symbols: str) -> str:
        """A card's symbols in camera directions (the inverse of `symbols`)."""
        return orient(game_symbols, -self.rotation % 6)


@dataclass(frozen=True)
class Diff:
    """How the observed table differs from the committed layout under one alignment."""

    alignment: Alignment
    matched: int
    missing: tuple[Cell, ...]                      # committed cells with no card seen
    changed: tuple[tuple[Cell, str, str], ...]     # (cell, committed symbols, seen symbols)
    new: tuple[tuple[Cell, str, int], ...]         # (game cell, seen symbols, index in observation)


def align(committed: dict[Cell, str], seen: Sequence[tuple[Cell, str]]) -> list[tuple[int,
                                                                                       Alignment]]:
    """Alignments ranked by how many committed cards they match exactly (best first).

    `committed` maps game cells to oriented symbols; `seen` lists (camera cell, camera symbols).
    Only pairs with identical oriented symbols vote, so a 36-card layout costs a few thousand
    operations. Ties keep a deterministic order (rotation, then offset).
    """
    by_symbols: dict[str, list[Cell]] = defaultdict(list)
    for cell, symbols in committed.items():
        by_symbols[symbols].append(cell)
    votes: Counter[Alignment] = Counter()
    for k in range(6):
        for cam_cell, cam_symbols in seen:
            g = orient(cam_symbols, k)
            targets = by_symbols.get(g)
            if not targets:
                continue
            rq, rr = rotate(cam_cell, k)
            for q, r in targets:
                votes[Alignment(k, (q - rq, r - rr))] += 1
    return sorted(((n, a) for a, n in votes.items()),
                  key=lambda item: (-item[0], item[1].rotation, item[1].offset))


def diff(committed: dict[Cell, str], seen: Sequence[tuple[Cell, str]],
         alignment: Alignment) -> Diff:
    """Compare the committed layout with the observation under `alignment`."""
    mapped: dict[Cell, tuple[str, int]] = {}
    for i, (cam_cell, cam_symbols) in enumerate(seen):
        mapped[alignment.cell(cam_cell)] = (alignment.symbols(cam_symbols), i)
    missing, changed, matched = [], [], 0
    for cell, symbols in committed.items():
        got = mapped.get(cell)
        if got is None:
            missing.append(cell)
        elif got[0] != symbols:
            changed.append((cell, symbols, got[0]))
        else:
            matched += 1
    new = tuple((cell, s, i) for cell, (s, i) in mapped.items() if cell not in committed)
    return Diff(alignment, matched, tuple(sorted(missing)), tuple(sorted(changed)),
                tuple(sorted(new)))


def line_alignments(cells: Sequence[Cell]) -> list[Alignment]:
    """Alignments that put three camera cells on the opening line (0,0), (1,0), (2,0)."""
    out = []
    for k in range(6):
        rotated = sorted(rotate(c, k) for c in cells)
        (q0, r0) = rotated[0]
        if rotated == [(q0, r0), (q0 + 1, r0), (q0 + 2, r0)]:
            out.append(Alignment(k, (-q0, -r0)))
    return out


def deck_card(oriented: str, deck: Iterable[str]) -> tuple[str, int] | None:
    """The deck card and the smallest rotation showing `oriented`, or None if no card does."""
    for card in dict.fromkeys(deck):
        for k in range(6):
            if orient(card, k) == oriented:
                return card, k
    return None
