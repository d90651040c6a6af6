"""Axial coordinates on a pointy-top hex grid, as fixed by RULES.md "Shared notation".

A cell is a pair `(q, r)`. The six directions are numbered counter-clockwise (as seen on a
screen or table with y pointing down/away from the viewer): 0 E (+1,0), 1 NE (+1,-1),
2 NW (0,-1), 3 W (-1,0), 4 SW (-1,+1), 5 SE (0,+1). The edge of a hex facing direction `d` is
"edge d"; the neighbour across it sees that edge as `(d + 3) % 6`. Also: distances, rings and
whole hex boards, 60-degree rotations and the conversion between cells and plane coordinates
(unit = centre-to-corner radius; pointy-top, x right, y down).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
SQRT3 = math.sqrt(3.0)


def neighbour(cell: Cell, d: int) -> Cell:
    """The cell across edge `d` of `cell`."""
    dq, dr = DIRECTIONS[d % 6]
    return (cell[0] + dq, cell[1] + dr)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six neighbours of `cell`, indexed by direction."""
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def opposite(d: int) -> int:
    """The direction pointing back across edge `d`."""
    return (d + 3) % 6


def direction_between(a: Cell, b: Cell) -> int | None:
    """The direction `d` with `neighbour(a, d) == b`, or None if the cells are not adjacent."""
    delta = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(delta)
    except ValueError:
        return None


def distance(a: Cell, b: Cell) -> int:
    """Number of steps between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(cell: Cell, k: int = 1) -> Cell:
    """Rotate a cell about the origin by `k` steps of 60 degrees counter-clockwise."""
    q, r = cell
    for _ in range(k % 6):
        q, r = q + r, -q
    return (q, r)


def ring(centre: Cell, radius: int) -> list[Cell]:
    """The cells at exactly `radius` steps from `centre`, in counter-clockwise order."""
    if radius == 0:
        return [centre]
    q, r = centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius
    cells = []
    for d in range(6):
        for _ in range(radius):
            cells.append((q, r))
            q, r = q + DIRECTIONS[d][0], r + DIRECTIONS[d][1]
    return cells


def hexagon(radius: int, centre: Cell = (0, 0)) -> list[Cell]:
    """All cells within `radius` of `centre` (a hex board), centre first, ring by ring."""
    return [c for k in range(radius + 1) for c in ring(centre, k)]


def to_plane(cell: Cell, size: float = 1.0) -> tuple[float, float]:
    """Centre of `cell` in the plane (pointy-top, x right, y down, `size` = corner radius)."""
    q, r = cell
    return (size * SQRT3 * (q + r / 2.0), size * 1.5 * r)


def from_plane(x: float, y: float, size: float = 1.0) -> Cell:
    """The cell containing plane point (x, y): the inverse of `to_plane` with cube rounding."""
    fq = (SQRT3 / 3.0 * x - y / 3.0) / size
    fr = (2.0 / 3.0 * y) / size
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


def iter_edges(cells: set[Cell] | frozenset[Cell]) -> Iterator[tuple[Cell, int, Cell]]:
    """Each shared edge between two cells of `cells` once, as (cell, direction, neighbour)."""
    for c in cells:
        for d in range(3):
            n = neighbour(c, d)
            if n in cells:
                yield (c, d, n)
