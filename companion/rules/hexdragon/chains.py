"""HexDragon chains: path ends meeting across edges, closed connections and their points (D4).

A `Board` holds the placed pieces in placement order and, for every *open* path end (an edge of a
placed piece whose neighbour cell is still empty or off the board), the open chain seen from that
end: the cells it passes, in order, and its far end — another open end or a terminal (head or
tail). Placing a piece is incremental: only the chains hanging off the new piece's six edges are
followed, through the new piece and back into it as often as they re-enter, so a placement costs
the length of the chains it touches (plus one copy of the open-end index, which keeps boards
immutable), never a rescan of the board. A chain is closed when both ends are terminals or when
it comes back to where it started (a loop); an end facing off the board stays open for good. Its
length L counts path segments: the stub of a head or tail is a segment (the rule text counts the
end pieces too), and a piece passed twice counts twice. The points are D4's: a dragon gives L to
the head's owner, a two-headed dragon L to each head's owner (2L if one player owns both), a worm
or a loop 1 to the player who placed the closing piece.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..core import IllegalAction, MalformedMessage
from ..hexgrid import Cell, neighbour, opposite
from .pieces import HEAD, Links, check_links, oriented

__all__ = [
    "SHAPES",
    "Board",
    "CellOccupied",
    "Connection",
    "Placement",
    "Shape",
    "Strand",
    "Terminal",
    "awards",
    "score_placements",
]

Shape = Literal["dragon", "two_headed", "worm", "loop"]
SHAPES: tuple[Shape, ...] = ("dragon", "two_headed", "worm", "loop")
Port = tuple[Cell, int]


class CellOccupied(IllegalAction):
    """A piece already lies on that cell."""

    code = "cell_occupied"


@dataclass(frozen=True)
class Placement:
    """A piece on the board: its cell, rotation, links and the seat that placed (and owns) it."""

    cell: tuple[int, int]
    rotation: int
    links: tuple[int | str, ...]
    owner: int | None = None

    @property
    def facing(self) -> Links:
        """The links by table direction (E, NE, NW, W, SW, SE)."""
        return oriented(self.links, self.rotation)

    def check(self) -> Placement:
        """Raise `MalformedMessage` unless cell, rotation, links and owner are well formed."""
        check_links(self.links)
        cell = self.cell
        if (not isinstance(cell, tuple) or len(cell) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in cell)):
            raise MalformedMessage(f"cell must be two integers (q, r), got {cell!r}")
        k = self.rotation
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 5:
            raise MalformedMessage(f"rotation must be 0..5, got {k!r}")
        owner = self.owner
        if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int)
                                  or owner < 0):
            raise MalformedMessage(f"owner must be a seat number 0, 1, ... or null, got {owner!r}")
        if owner is None and HEAD in self.links:
            raise MalformedMessage(f"the head piece at {cell} needs an owner (its colour's seat)")
        return self


@dataclass(frozen=True)
class Terminal:
    """A chain end that is a head or a tail drawn on a piece; `owner` is that piece's seat."""

    mark: Literal["H", "T"]
    cell: tuple[int, int]
    owner: int | None


@dataclass(frozen=True)
class Strand:
    """An open chain seen from one of its open ends: cells from that end on, and the far end."""

    cells: tuple[Cell, ...]
    far: Port | Terminal


@dataclass(frozen=True)
class Connection:
    """A closed chain, scored once when it closed (D4)."""

    shape: Shape
    length: int
    cells: tuple[tuple[int, int], ...]
    heads: tuple[int, ...]
    placer: int | None
    awards: tuple[tuple[int, int], ...]

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats this connection gave points to."""
        return tuple(seat for seat, _ in self.awards)


def awards(shape: Shape, length: int, heads: tuple[int, ...],
           placer: int | None) -> tuple[tuple[int, int], ...]:
    """D4's points as (seat, points) pairs, by seat."""
    if shape == "dragon":
        return ((heads[0], length),)
    if shape == "two_headed":
        if heads[0] == heads[1]:
            return ((heads[0], 2 * length),)
        return tuple(sorted((h, length) for h in heads))
    return ((placer, 1),) if placer is not None else ()


def _connection(cells: list[Cell], ends: tuple[Terminal, Terminal] | None,
                placer: int | None) -> Connection:
    if ends is None:
        return Connection("loop", len(cells), tuple(cells), (), placer,
                          awards("loop", len(cells), (), placer))
    a, b = ends
    if b.mark == HEAD and a.mark != HEAD:  # read a dragon from its head
        a, b, cells = b, a, cells[::-1]
    marks = a.mark + b.mark
    shape: Shape = {"HT": "dragon", "HH": "two_headed", "TT": "worm"}[marks]
    heads = tuple(t.owner for t in (a, b) if t.mark == HEAD and t.owner is not None)
    if len(heads) != marks.count(HEAD):
        raise MalformedMessage(f"a head at {a.cell if a.mark == HEAD else b.cell} has no owner")
    return Connection(shape, len(cells), tuple(cells), heads, placer,
                      awards(shape, len(cells), heads, placer))


class _Walk:
    """Follows the chains through one newly placed piece (used by `Board.place`)."""

    def __init__(self, cell: Cell, facing: Links, owner: int | None,
                 attached: dict[int, Strand]) -> None:
        self.cell, self.facing, self.owner, self.attached = cell, facing, owner, attached
        self.done: set[int] = set()

    def leave(self, d: int, stop: int | None) -> tuple[list[Cell], Port | Terminal | None]:
        """Cells beyond edge d up to the chain's end; end None means it came back to `stop`."""
        cells: list[Cell] = []
        while True:
            self.done.add(d)
            strand = self.attached.get(d)
            if strand is None:
                return cells, (self.cell, d)
            cells.extend(strand.cells)
            far = strand.far
            if isinstance(far, Terminal) or neighbour(far[0], far[1]) != self.cell:
                return cells, far
            back_in = opposite(far[1])
            if back_in == stop:
                return cells, None
            self.done.add(back_in)
            cells.append(self.cell)
            nxt = self.facing[back_in]
            if isinstance(nxt, str):
                return cells, self._terminal(nxt)
            d = nxt

    def _terminal(self, mark: str) -> Terminal:
        return Terminal("H" if mark == HEAD else "T", self.cell, self.owner)

    def chain_from(self, d: int) -> tuple[list[Cell], Port | Terminal | None, Port | Terminal]:
        """The whole chain through the segment at edge d: cells and its two ends (None: loop)."""
        other = self.facing[d]
        if isinstance(other, str):
            back, back_end = self.leave(d, None)
            return [*reversed(back), self.cell], back_end, self._terminal(other)
        ahead, ahead_end = self.leave(other, d)
        if ahead_end is None:
            return [self.cell, *ahead], None, (self.cell, d)
        back, back_end = self.leave(d, None)
        assert back_end is not None
        return [*reversed(back), self.cell, *ahead], back_end, ahead_end


@dataclass(frozen=True)
class Board:
    """Placed pieces in order, their links by direction and every open chain by its open ends."""

    placements: tuple[Placement, ...] = ()
    facing: Mapping[Cell, Links] = field(default_factory=dict, compare=False, hash=False,
                                         repr=False)
    open_ends: Mapping[Port, Strand] = field(default_factory=dict, hash=False, repr=False)

    def __len__(self) -> int:
        return len(self.placements)

    def __contains__(self, cell: object) -> bool:
        return cell in self.facing

    def place(self, p: Placement) -> tuple[Board, tuple[Connection, ...]]:
        """The board with `p` added and the chains it closed, in the order found.

        Only the chains ending on the new piece's edges are followed (incremental detection).
        `p` must be well formed (see `Placement.check`); raises `CellOccupied` if the cell is taken.
        """
        c = p.cell
        if c in self.facing:
            raise CellOccupied(f"cell {c} already holds a piece: choose an empty cell")
        opened = dict(self.open_ends)
        attached = {d: opened.pop((n, opposite(d))) for d in range(6)
                    if (n := neighbour(c, d)) in self.facing}
        walk = _Walk(c, p.facing, p.owner, attached)
        closed: list[Connection] = []
        for d in range(6):
            if d in walk.done:
                continue
            cells, a, b = walk.chain_from(d)
            if a is None:
                closed.append(_connection(cells, None, p.owner))
            elif isinstance(a, Terminal) and isinstance(b, Terminal):
                closed.append(_connection(cells, (a, b), p.owner))
            else:
                if not isinstance(a, Terminal):
                    opened[a] = Strand(tuple(cells), b)
                if not isinstance(b, Terminal):
                    opened[b] = Strand(tuple(reversed(cells)), a)
        board = Board((*self.placements, p), {**self.facing, c: p.facing}, opened)
        return board, tuple(closed)

    def at(self, cell: Cell) -> Placement | None:
        """The placement on `cell`, if any."""
        return next((p for p in self.placements if p.cell == cell), None)


def score_placements(placements: Iterable[Placement]) -> tuple[Board, tuple[Connection, ...]]:
    """Place pieces in order on an empty board; every connection closed on the way, in order."""
    board = Board()
    found: list[Connection] = []
    for i, p in enumerate(placements):
        try:
            p.check()
        except MalformedMessage as exc:
            raise MalformedMessage(f"piece {i + 1}: {exc}") from None
        board, closed = board.place(p)
        found.extend(closed)
    return board, tuple(found)
