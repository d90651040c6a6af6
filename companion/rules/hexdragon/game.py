"""HexDragon as a pure state machine: deal, turns, star tokens, skips, points, end and ties.

Implements RULES.md D2, D3 and D5 on top of `pieces` (D1) and `chains` (D4). The start piece lies
on (0, 0) from the first state. A game begins with `Shuffle(seed)` — the engine shuffles the bag,
picks every seat's heads per the `heads` option and deals three body pieces each — or with
`Deal(...)`, which states hands and bag order outright (a table that dealt by hand, or a test).
A body draw is the top of the shuffled bag, so every draw is fixed by the logged seed. Settled
here where RULES.md is silent:

* Seat `first` (default 0) plays first; turns go clockwise (seat + 1).
* Skipping is automatic: after a turn, seats with no possible turn are passed with a `Skipped`
  event. There is no voluntary pass. A seat may place its star even if it holds no piece (a
  legal, wasted turn).
* A star goes only on an empty cell that holds no other star token. A reservation ends when a piece
  covers the cell, and it does not bind while its owner holds no piece at all (otherwise the board
  could never fill); with at least as many pieces as free cells, the board then always fills.
* Options whose pieces cannot fill the board (e.g. radius 3 with one bag for two players) are
  refused; should nobody be able to move anyway, the game ends as `blocked`.
* `heads`: "random" (3 different heads of the seat's 15), "varied" (one next, one across, one
  opposing, each picked at random) or "next" / "across" / "opposing" (3 different heads of that
  tail position, the same difficulty for everybody).
* Tie-break (D5): each seat lists the lengths of the connections that gave it points, longest
  first; a two-headed dragon counts once even when one seat owns both heads. Lists compare element
  by element and a list that runs out first loses; seats still equal share the win.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from ..core import (
    Action,
    Event,
    IllegalAction,
    MalformedMessage,
    WrongSeat,
    message,
    replace_at,
    require_phase,
)
from ..hexgrid import Cell, hexagon
from ..options import (
    check_names,
    check_seat,
    check_seat_count,
    display_name,
    display_names,
    is_whole,
)
from .chains import Board, CellOccupied, Connection, Placement
from .pieces import (
    BAG,
    BODY_TYPES,
    HEAD_PIECES,
    START,
    TailPosition,
    check_links,
    distinct_rotations,
    identify,
    is_head,
    links_of,
    tail_position,
)

__all__ = [
    "CellOccupied",
    "CellReserved",
    "Connected",
    "Deal",
    "Dealt",
    "Drew",
    "GameOver",
    "HexDragonGame",
    "HexDragonOptions",
    "HexDragonState",
    "OffBoard",
    "PieceNotInHand",
    "Place",
    "PlaceStar",
    "Placed",
    "Shuffle",
    "Skipped",
    "StarPlaced",
    "StarUsed",
    "board_cells",
    "head_names",
    "scoring_lengths",
    "winners",
]

Phase = Literal["setup", "play", "over"]
HeadsMode = Literal["random", "varied", "next", "across", "opposing"]
EndReason = Literal["full", "blocked"]
HAND_HEADS = 3
HAND_BODIES = 3


class OffBoard(IllegalAction):
    """The cell is not on the board."""

    code = "off_board"


class CellReserved(IllegalAction):
    """Another seat's star token reserves that cell."""

    code = "cell_reserved"


class PieceNotInHand(IllegalAction):
    """The seat does not hold that piece."""

    code = "piece_not_in_hand"


class StarUsed(IllegalAction):
    """The seat has already placed its star token this game."""

    code = "star_used"


@cache
def board_cells(radius: int) -> frozenset[Cell]:
    """The cells of a hex board of `radius` around (0, 0)."""
    return frozenset(hexagon(radius))


@cache
def head_names(position: TailPosition | None = None) -> tuple[str, ...]:
    """Names of the 15 head pieces, or of those with the tail at `position`."""
    names = tuple("".join(str(x) for x in links) for links in HEAD_PIECES)
    return tuple(n for n in names if position is None or tail_position(n) == position)


# ---------------------------------------------------------------------------------------------
# Options and state


@dataclass(frozen=True)
class HexDragonOptions:
    """A game of HexDragon: seats, board radius, body bags, head selection (D2)."""

    seats: int = 2
    radius: int | None = None
    bags: int | None = None
    heads: HeadsMode = "random"
    names: tuple[str, ...] = ()
    first: int = 0

    def __post_init__(self) -> None:
        where = "HexDragon options"

        def bad(msg: str) -> None:
            raise MalformedMessage(f"{where}: {msg}")

        check_seat_count(where, self.seats, 2, 4)
        if self.radius is not None and self.radius not in (2, 3):
            bad(f"radius must be 2 or 3 (or null: 2 for two seats, 3 for more), got "
                f"{self.radius!r}")
        if self.bags is not None and self.bags not in (1, 2):
            bad(f"bags must be 1 or 2 (or null: 1 for two seats, 2 for more), got {self.bags!r}")
        if self.heads not in ("random", "varied", "next", "across", "opposing"):
            bad(f"heads must be random, varied, next, across or opposing, got {self.heads!r}")
        check_names(where, self.names, self.seats)
        check_seat(where, "first", self.first, self.seats)
        pieces = self.seats * HAND_HEADS + self.bag_count * sum(BAG.values())
        free = len(board_cells(self.board_radius)) - 1
        if pieces < free:
            bad(f"{pieces} pieces cannot fill the {free} free cells of a radius "
                f"{self.board_radius} board: use bags=2 or radius=2")

    @property
    def board_radius(self) -> int:
        """The board radius in use (D2: 2 for two seats, 3 for three or four)."""
        return self.radius if self.radius is not None else (2 if self.seats == 2 else 3)

    @property
    def bag_count(self) -> int:
        """How many body-piece sets go into the bag (D1: one for two seats, else two)."""
        return self.bags if self.bags is not None else (1 if self.seats == 2 else 2)

    @property
    def cells(self) -> frozenset[Cell]:
        """Every cell of the board."""
        return board_cells(self.board_radius)

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Display names (default "Seat 1", "Seat 2", ...)."""
        return display_names(self.names, self.seats)

    def bag_contents(self) -> Counter[str]:
        """Every body piece of the game, by type."""
        return Counter({t: n * self.bag_count for t, n in BAG.items()})


@dataclass(frozen=True)
class HexDragonState:
    """Everything about a HexDragon game at one moment. Derive, never mutate."""

    options: HexDragonOptions
    board: Board = field(default_factory=Board)
    phase: Phase = "setup"
    heads: tuple[tuple[str, ...], ...] = ()
    bodies: tuple[tuple[str, ...], ...] = ()
    bag: tuple[str, ...] = ()
    stars: tuple[Cell | None, ...] = ()
    stars_used: frozenset[int] = frozenset()
    to_play: int | None = None
    scores: tuple[int, ...] = ()
    connections: tuple[Connection, ...] = ()
    turns: int = 0
    skips: int = 0
    end: EndReason | None = None
    winners: tuple[int, ...] = ()

    @property
    def seats(self) -> int:
        """Number of seats at the table."""
        return self.options.seats

    def holds_piece(self, seat: int) -> bool:
        """True if `seat` has a head or body piece in hand."""
        return bool(self.heads[seat] or self.bodies[seat])

    def reserved_by(self, cell: Cell) -> int | None:
        """The seat whose star binds `cell` now, if any (D3, with the lapse rule above)."""
        for seat, star in enumerate(self.stars):
            if star == cell and self.holds_piece(seat):
                return seat
        return None

    def empty_cells(self) -> list[Cell]:
        """Cells without a piece, in board order (a star token does not fill a cell)."""
        return [c for c in hexagon(self.options.board_radius) if c not in self.board]

    def open_cells(self, seat: int) -> list[Cell]:
        """Empty cells `seat` may place a piece on."""
        return [c for c in self.empty_cells() if self.reserved_by(c) in (None, seat)]

    def star_cells(self, seat: int) -> list[Cell]:
        """Cells `seat` may put its star token on (none once it is used)."""
        if seat in self.stars_used:
            return []
        taken = {s for s in self.stars if s is not None}
        return [c for c in self.empty_cells() if c not in taken]

    def can_move(self, seat: int) -> bool:
        """True if `seat` has a possible turn (D3); otherwise it skips."""
        return bool(self.star_cells(seat)) or (self.holds_piece(seat)
                                               and bool(self.open_cells(seat)))


# ---------------------------------------------------------------------------------------------
# Actions


@message("hexdragon.shuffle")
class Shuffle(Action):
    """Shuffle the bag with `seed`, pick the heads (option `heads`) and deal 3 bodies each."""

    seed: int


@message("hexdragon.deal")
class Deal(Action):
    """Set up with these hands and this bag order (top first), as dealt at a real table."""

    heads: tuple[tuple[str, ...], ...]
    bodies: tuple[tuple[str, ...], ...]
    bag: tuple[str, ...]


@message("hexdragon.place")
class Place(Action):
    """A turn: place the piece with these `links` (its own frame) on `cell` with `rotation`."""

    seat: int
    links: tuple[int | str, ...]
    cell: tuple[int, int]
    rotation: int


@message("hexdragon.place_star")
class PlaceStar(Action):
    """A turn: put the seat's star token on `cell`, reserving it (once per game)."""

    seat: int
    cell: tuple[int, int]


# ---------------------------------------------------------------------------------------------
# Events


def _n(names: Sequence[str], seat: int | None) -> str:
    return "nobody" if seat is None else display_name(names, seat)


@message("hexdragon.dealt")
class Dealt(Event):
    """The game is set up: pieces in every hand and `bag` body pieces left to draw."""

    heads: tuple[int, ...]
    bodies: tuple[int, ...]
    bag: int

    def announce(self, names: Sequence[str]) -> str:
        return (f"Pieces dealt: {self.heads[0]} heads and {self.bodies[0]} body pieces each, "
                f"{self.bag} left in the bag")


@message("hexdragon.placed")
class Placed(Event):
    """A piece was placed (`rotation` of the named form, see `pieces`)."""

    seat: int
    piece: str
    cell: tuple[int, int]
    rotation: int

    def announce(self, names: Sequence[str]) -> str:
        what = (f"a head piece ({tail_position(self.piece)})" if is_head(self.piece)
                else f"body piece {self.piece}")
        return f"{_n(names, self.seat)} places {what} at {self.cell}"


@message("hexdragon.drew")
class Drew(Event):
    """The seat drew a body piece from the bag."""

    seat: int
    bag: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} draws a body piece ({self.bag} left in the bag)"


@message("hexdragon.star_placed")
class StarPlaced(Event):
    """A star token now reserves `cell` for `seat`."""

    seat: int
    cell: tuple[int, int]

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} reserves {self.cell} with a star token"


_SHAPE_NAMES = {"dragon": "Dragon", "two_headed": "Two-headed dragon", "worm": "Worm",
               "loop": "Loop"}


@message("hexdragon.connected")
class Connected(Event):
    """A chain closed (D4) and scored."""

    connection: Connection

    def announce(self, names: Sequence[str]) -> str:
        c = self.connection
        points = ", ".join(f"{_n(names, s)} scores {p}" for s, p in c.awards) or "no points"
        return f"{_SHAPE_NAMES[c.shape]}, length {c.length}: {points}"


@message("hexdragon.skipped")
class Skipped(Event):
    """The seat had no possible turn and was passed (D3)."""

    seat: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} cannot move and skips"


@message("hexdragon.game_over")
class GameOver(Event):
    """D5: the board is full (or nobody can move); the winners, after the tie-break."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break: bool
    reason: EndReason

    def announce(self, names: Sequence[str]) -> str:
        who = " and ".join(_n(names, s) for s in self.winners)
        verb = "win" if len(self.winners) > 1 else "wins"
        how = " on the tie-break" if self.tie_break else ""
        return f"Game over: {who} {verb} with {self.scores[self.winners[0]]} points{how}"


# ---------------------------------------------------------------------------------------------
# D5: ranking


def scoring_lengths(connections: Sequence[Connection], seat: int) -> tuple[int, ...]:
    """Lengths of the connections that gave `seat` points, longest first (D5)."""
    return tuple(sorted((c.length for c in connections if seat in c.seats), reverse=True))


def winners(scores: Sequence[int],
            connections: Sequence[Connection]) -> tuple[tuple[int, ...], bool]:
    """The seats with most points after the D5 tie-break, and whether the tie-break decided."""
    top = max(scores)
    tied = [s for s, p in enumerate(scores) if p == top]
    keys = {s: scoring_lengths(connections, s) for s in tied}
    best = max(keys.values())
    won = tuple(s for s in tied if keys[s] == best)
    return won, len(tied) > 1 and len(won) < len(tied)


# ---------------------------------------------------------------------------------------------
# The game


def _require_phase(state: HexDragonState, action: Action, phase: Phase) -> None:
    require_phase(state.phase, action, phase)


def _require_turn(state: HexDragonState, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise MalformedMessage(f"seat must be 0..{state.seats - 1}, got {seat!r}")
    if seat != state.to_play:
        names = state.options.seat_names
        raise WrongSeat(f"it is {names[state.to_play or 0]}'s turn, not {names[seat]}'s")
    return seat


def _require_cell(state: HexDragonState, cell: object) -> Cell:
    if (not isinstance(cell, tuple | list) or len(cell) != 2
            or not all(is_whole(v) for v in cell)):
        raise MalformedMessage(f"cell must be two integers (q, r), got {cell!r}")
    c = (cell[0], cell[1])
    if c not in state.options.cells:
        raise OffBoard(f"cell {c} is not on the radius {state.options.board_radius} board")
    if c in state.board:
        raise CellOccupied(f"cell {c} already holds a piece: choose an empty cell")
    return c


def _rotation(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 5:
        raise MalformedMessage(f"rotation must be 0..5, got {k!r}")
    return k


def _remove(names: tuple[str, ...], name: str) -> tuple[str, ...]:
    i = names.index(name)
    return names[:i] + names[i + 1:]


class HexDragonGame:
    """The HexDragon rules (RULES.md D1-D5) behind the common game protocol."""

    name = "hexdragon"
    options_type = HexDragonOptions

    # -- protocol --------------------------------------------------------------------------

    def initial_state(self, options: HexDragonOptions) -> HexDragonState:
        """The start piece on (0, 0), hands not yet dealt."""
        board, _ = Board().place(Placement((0, 0), 0, START, None))
        n = options.seats
        return HexDragonState(options=options, board=board, heads=((),) * n, bodies=((),) * n,
                              stars=(None,) * n, scores=(0,) * n)

    def is_over(self, state: HexDragonState) -> bool:
        """True once the board is full (D5)."""
        return state.phase == "over"

    def chance_action(self, state: HexDragonState, rng: random.Random) -> Action | None:
        """A seeded shuffle when the game waits for its deal."""
        if state.phase == "setup":
            return Shuffle(seed=rng.getrandbits(32))
        return None

    def legal_actions(self, state: HexDragonState) -> list[Action]:
        """Every turn the seat to play may take: each piece, cell and distinct rotation, stars."""
        if state.phase != "play" or state.to_play is None:
            return []
        seat = state.to_play
        cells = state.open_cells(seat)
        out: list[Action] = []
        for name in dict.fromkeys((*state.heads[seat], *state.bodies[seat])):
            links = links_of(name)
            out.extend(Place(seat, links, cell, k) for cell in cells
                       for k in distinct_rotations(name))
        out.extend(PlaceStar(seat, cell) for cell in state.star_cells(seat))
        return out

    def apply(self, state: HexDragonState,
              action: Action) -> tuple[HexDragonState, tuple[Event, ...]]:
        """Apply one action; raises a `RulesError` subclass and changes nothing if refused."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise MalformedMessage(f"{type(action).__name__} is not a HexDragon action")
        return handler(self, state, action)

    # -- setup (D2) --------------------------------------------------------------------------

    def _shuffle(self, state: HexDragonState, a: Shuffle):
        _require_phase(state, a, "setup")
        if not is_whole(a.seed):
            raise MalformedMessage(f"seed must be an integer, got {a.seed!r}")
        rng = random.Random(a.seed)
        bag = sorted(state.options.bag_contents().elements())
        rng.shuffle(bag)
        heads = tuple(_pick_heads(state.options.heads, rng) for _ in range(state.seats))
        n = HAND_BODIES * state.seats
        bodies = tuple(tuple(bag[s:n:state.seats]) for s in range(state.seats))
        return self._deal(state, Deal(heads, bodies, tuple(bag[n:])))

    def _deal(self, state: HexDragonState, a: Deal):
        _require_phase(state, a, "setup")
        _check_deal(state.options, a)
        new = dataclasses.replace(state, phase="play", heads=tuple(map(tuple, a.heads)),
                                  bodies=tuple(map(tuple, a.bodies)), bag=tuple(a.bag))
        new, skipped = _next_to_play(new, state.options.first, include_start=True)
        dealt = Dealt(tuple(len(h) for h in a.heads), tuple(len(b) for b in a.bodies),
                      len(a.bag))
        return new, (dealt, *skipped)

    # -- turns (D3) ---------------------------------------------------------------------------

    def _place(self, state: HexDragonState, a: Place):
        _require_phase(state, a, "play")
        seat = _require_turn(state, a.seat)
        name, shown = identify(check_links(a.links))
        rotation = (shown + _rotation(a.rotation)) % 6
        cell = _require_cell(state, a.cell)
        holder = state.reserved_by(cell)
        if holder not in (None, seat):
            raise CellReserved(f"{cell} is reserved by {state.options.seat_names[holder]}'s "
                               "star token: choose another cell")
        hand = state.heads[seat] if is_head(name) else state.bodies[seat]
        if name not in hand:
            raise PieceNotInHand(_not_held(state, seat, name))
        board, closed = state.board.place(Placement(cell, rotation, links_of(name), seat))
        new = dataclasses.replace(
            state, board=board, turns=state.turns + 1,
            stars=tuple(None if s == cell else s for s in state.stars),
            connections=(*state.connections, *closed), scores=_add_points(state.scores, closed),
        )
        events: list[Event] = [Placed(seat, name, cell, rotation)]
        if is_head(name):
            new = dataclasses.replace(new, heads=replace_at(new.heads, seat,
                                                             _remove(hand, name)))
        else:
            new, drew = _draw(new, seat, _remove(hand, name))
            events.extend(drew)
        events.extend(Connected(c) for c in closed)
        new, after = _after_turn(new, seat)
        return new, (*events, *after)

    def _place_star(self, state: HexDragonState, a: PlaceStar):
        _require_phase(state, a, "play")
        seat = _require_turn(state, a.seat)
        cell = _require_cell(state, a.cell)
        if seat in state.stars_used:
            raise StarUsed(f"{state.options.seat_names[seat]} has already placed the star token "
                           "this game: place a piece instead")
        if cell in state.stars:
            raise CellReserved(f"a star token already lies on {cell}: choose another cell")
        new = dataclasses.replace(state, stars=replace_at(state.stars, seat, cell),
                                  stars_used=state.stars_used | {seat}, turns=state.turns + 1)
        new, after = _after_turn(new, seat)
        return new, (StarPlaced(seat, cell), *after)


_HANDLERS = {
    Shuffle: HexDragonGame._shuffle,
    Deal: HexDragonGame._deal,
    Place: HexDragonGame._place,
    PlaceStar: HexDragonGame._place_star,
}


# ---------------------------------------------------------------------------------------------
# Helpers (pure)


def _pick_heads(mode: HeadsMode, rng: random.Random) -> tuple[str, ...]:
    if mode == "random":
        return tuple(rng.sample(head_names(), HAND_HEADS))
    if mode == "varied":
        return tuple(rng.choice(head_names(p)) for p in ("next", "across", "opposing"))
    return tuple(rng.sample(head_names(mode), HAND_HEADS))


def _check_deal(options: HexDragonOptions, a: Deal) -> None:
    """Raise `MalformedMessage` unless the deal fits the options (D1, D2)."""
    def bad(msg: str) -> None:
        raise MalformedMessage(f"invalid deal: {msg}")

    n = options.seats
    if len(a.heads) != n or len(a.bodies) != n:
        bad(f"give heads and bodies for each of the {n} seats")
    for seat, heads in enumerate(a.heads):
        for h in heads:
            if not isinstance(h, str) or not is_head(h):
                bad(f"{h!r} is not a head piece name (such as 'HT3254')")
        if len(heads) != HAND_HEADS or len(set(heads)) != HAND_HEADS:
            bad(f"seat {seat} needs {HAND_HEADS} different head pieces, got {list(heads)}")
        positions = sorted(tail_position(h) for h in heads)
        if options.heads == "varied" and positions != ["across", "next", "opposing"]:
            bad(f"seat {seat} needs one next, one across and one opposing head")
        if options.heads in ("next", "across", "opposing") and set(positions) != {options.heads}:
            bad(f"seat {seat} needs three {options.heads} heads")
    for seat, bodies in enumerate(a.bodies):
        if len(bodies) != HAND_BODIES:
            bad(f"seat {seat} needs {HAND_BODIES} body pieces, got {list(bodies)}")
    dealt = [b for hand in a.bodies for b in hand] + list(a.bag)
    unknown = sorted({str(b) for b in dealt if not isinstance(b, str) or b not in BODY_TYPES})
    if unknown:
        bad(f"{unknown} are not body types (X, O, I, H, A)")
    if Counter(dealt) != options.bag_contents():
        bad(f"hands and bag must hold exactly {dict(sorted(options.bag_contents().items()))}")


def _not_held(state: HexDragonState, seat: int, name: str) -> str:
    who = state.options.seat_names[seat]
    if name == "start":
        return "the start piece lies on (0, 0) from the beginning: it is nobody's to place"
    held = ", ".join((*state.heads[seat], *state.bodies[seat])) or "nothing"
    what = f"head piece {name}" if is_head(name) else f"body piece {name}"
    return f"{who} does not hold {what} (holds: {held})"


def _add_points(scores: tuple[int, ...], closed: Sequence[Connection]) -> tuple[int, ...]:
    out = list(scores)
    for c in closed:
        for seat, points in c.awards:
            out[seat] += points
    return tuple(out)


def _draw(state: HexDragonState, seat: int,
          hand: tuple[str, ...]) -> tuple[HexDragonState, tuple[Event, ...]]:
    """D3: after a body piece, draw the top of the (shuffled) bag if it has any."""
    if not state.bag:
        return dataclasses.replace(state, bodies=replace_at(state.bodies, seat, hand)), ()
    new = dataclasses.replace(state, bodies=replace_at(state.bodies, seat,
                                                        (*hand, state.bag[0])),
                              bag=state.bag[1:])
    return new, (Drew(seat, len(new.bag)),)


def _next_to_play(state: HexDragonState, start: int,
                  include_start: bool) -> tuple[HexDragonState, tuple[Event, ...]]:
    """The first seat clockwise from `start` with a possible turn; the seats passed skip."""
    skipped: list[Event] = []
    first = 0 if include_start else 1
    for i in range(first, first + state.seats):
        seat = (start + i) % state.seats
        if state.can_move(seat):
            return dataclasses.replace(state, to_play=seat,
                                       skips=state.skips + len(skipped)), tuple(skipped)
        skipped.append(Skipped(seat))
    return _game_over(state, "blocked"), ()


def _game_over(state: HexDragonState, reason: EndReason) -> HexDragonState:
    won, _ = winners(state.scores, state.connections)
    return dataclasses.replace(state, phase="over", to_play=None, end=reason, winners=won)


def _after_turn(state: HexDragonState, seat: int) -> tuple[HexDragonState, tuple[Event, ...]]:
    """D5 if the board is full, otherwise the next seat that can move (D3)."""
    if len(state.board) == len(state.options.cells):
        over = _game_over(state, "full")
    else:
        over, skipped = _next_to_play(state, seat, include_start=False)
        if over.phase != "over":
            return over, skipped
    _, tie_break = winners(over.scores, over.connections)
    return over, (GameOver(over.scores, over.winners, tie_break, over.end or "full"),)
