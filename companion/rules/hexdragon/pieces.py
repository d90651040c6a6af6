"""HexDragon pieces written as `links`, their names, rotations and the bag (RULES.md D1).

A piece is a 6-tuple in its own frame: entry i says where the path end on edge i leads — another
edge number (a path through the piece), `"H"` (a head) or `"T"` (a tail). Placed with rotation k,
edge i faces direction `(i + k) % 6`; `oriented` rewrites the links by table direction. Every piece
has a name: `"start"` (six tails), the body types `X O I H A` with the links RULES.md lists, and the
15 head pieces, each named by its links written out in the frame with the head on edge 0 (e.g.
`"HT3254"`: head on 0, tail on 1, paths 2-3 and 4-5). `identify` recognises a piece however its
links were written (in any of its own rotations) and says which rotation of the named form it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal

from ..core import MalformedMessage

__all__ = [
    "BAG",
    "BODY_TYPES",
    "HEAD",
    "HEAD_PIECES",
    "START",
    "TAIL",
    "TAIL_POSITIONS",
    "Link",
    "Links",
    "TailPosition",
    "check_links",
    "distinct_rotations",
    "identify",
    "is_head",
    "links_of",
    "oriented",
    "span",
    "tail_position",
]

Link = int | str
Links = tuple[Link, ...]
TailPosition = Literal["next", "across", "opposing"]

HEAD = "H"
TAIL = "T"
START_NAME = "start"
START: Links = (TAIL,) * 6

BODY_TYPES: dict[str, Links] = {
    "X": (3, 4, 5, 0, 1, 2),
    "O": (1, 0, 3, 2, 5, 4),
    "I": (3, 2, 1, 0, 5, 4),
    "H": (3, 5, 4, 0, 2, 1),
    "A": (2, 5, 0, 4, 3, 1),
}
BAG: dict[str, int] = {"A": 6, "H": 5, "I": 4, "O": 3, "X": 2}
TAIL_POSITIONS: dict[int, TailPosition] = {
    1: "next", 5: "next", 2: "across", 4: "across", 3: "opposing",
}


def span(a: int, b: int) -> int:
    """Hex distance between edges a and b of one piece: 1 short curve, 2 long, 3 straight."""
    d = abs(a - b) % 6
    return min(d, 6 - d)


def _head_pieces() -> tuple[Links, ...]:
    """Head on edge 0, tail on t in 1..5, the other four edges paired in each of 3 ways."""
    out = []
    for t in range(1, 6):
        rest = [e for e in range(1, 6) if e != t]
        first = rest[0]
        for partner in rest[1:]:
            c, d = (e for e in rest[1:] if e != partner)
            links: list[Link] = [HEAD, 0, 0, 0, 0, 0]
            links[t] = TAIL
            links[first], links[partner] = partner, first
            links[c], links[d] = d, c
            out.append(tuple(links))
    return tuple(out)


HEAD_PIECES: tuple[Links, ...] = _head_pieces()


def _name(links: Links) -> str:
    return "".join(str(x) for x in links)


PIECES: dict[str, Links] = {
    START_NAME: START,
    **BODY_TYPES,
    **{_name(links): links for links in HEAD_PIECES},
}


def is_head(name: str) -> bool:
    """True for the name of a head piece."""
    return len(name) == 6 and name != START_NAME and name in PIECES


def links_of(name: str) -> Links:
    """The links of a named piece (in its named frame)."""
    try:
        return PIECES[name]
    except KeyError:
        raise MalformedMessage(
            f"unknown piece {name!r}: use 'start', a body type X/O/I/H/A or a head name "
            "such as 'HT3254'"
        ) from None


def tail_position(name: str) -> TailPosition:
    """`next`, `across` or `opposing`: where the tail sits relative to the head (D1)."""
    links = links_of(name)
    if links.count(HEAD) != 1 or links.count(TAIL) != 1:
        raise MalformedMessage(f"piece {name!r} is not a head piece")
    return TAIL_POSITIONS[(links.index(TAIL) - links.index(HEAD)) % 6]


def check_links(links: object) -> Links:
    """Validate a links 6-list: edge numbers pairing edges both ways, or "H"/"T" ends."""
    if not isinstance(links, Sequence) or isinstance(links, str) or len(links) != 6:
        raise MalformedMessage(f"links must list 6 entries (one per edge), got {links!r}")
    for i, x in enumerate(links):
        if x in (HEAD, TAIL):
            continue
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 5 or x == i:
            raise MalformedMessage(
                f"links[{i}] must be another edge 0..5, 'H' or 'T', got {x!r}"
            )
        if links[x] != i:
            raise MalformedMessage(
                f"links[{i}] = {x} but links[{x}] = {links[x]!r}: a path must join its two "
                "edges both ways"
            )
    return tuple(links)


def _turn(x: Link, k: int) -> Link:
    return (x + k) % 6 if isinstance(x, int) else x


@cache
def oriented(links: Links, rotation: int) -> Links:
    """The links by table direction when the piece lies with `rotation` (edge i faces i+k)."""
    k = rotation % 6
    return tuple(_turn(links[(d - k) % 6], k) for d in range(6))


@cache
def _orientations() -> dict[Links, tuple[str, int]]:
    found: dict[Links, tuple[str, int]] = {}
    for name, links in PIECES.items():
        for k in range(6):
            found.setdefault(oriented(links, k), (name, k))
    return found


def identify(links: Links) -> tuple[str, int]:
    """The piece these (valid) links describe and the rotation of its named form they show.

    Placing `links` with rotation k is placing the named piece with rotation `(r + k) % 6`.
    Raises `MalformedMessage` for links that are no HexDragon piece.
    """
    try:
        return _orientations()[tuple(links)]
    except KeyError:
        raise MalformedMessage(
            f"links {list(links)} are no HexDragon piece: expected the start piece, a body "
            "piece (three paths) or a head piece (one head, one tail, two paths)"
        ) from None


@cache
def distinct_rotations(name: str) -> tuple[int, ...]:
    """The rotations giving different-looking placements of a piece (smallest k first)."""
    seen: dict[Links, int] = {}
    for k in range(6):
        seen.setdefault(oriented(links_of(name), k), k)
    return tuple(seen.values())
