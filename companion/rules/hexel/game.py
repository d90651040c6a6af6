"""Hex'el as a pure state machine: setup, stakes, turns, insurance, busts, rounds and endings.

Implements RULES.md H3-H6 on top of `cards` (H1) and `layout` (H2). A match is a sequence of
games at one table; chips persist between games in the ledger (accounts `stock:i`, `hedge:i`,
`hand:i`). A game starts either with `Shuffle(seed)` — the engine shuffles, lays the opening line
with the H3 procedure and deals, so it knows every hand (simulation, demo) — or with
`LayLine(cards, rotations)` — the dealer shuffled real cards and laid a line that the engine
checks; hands are then face-down cards (`None`) of known number (the camera referee). Settled
here where RULES.md is silent (see docs in the README):

* A seat never owes insurance to itself, nor to a seat that is out of the game.
* A Hox'la ends the game at once: no insurance is computed for that turn.
* A seat whose hand is empty takes no turn (after a short deal); a discard is a turn of count 0.
* "Cards run out": the last seat *still in the game* that placed a card wins; if there is none,
  every hedge pot goes back to its owner's stock.
* "Last seat standing" applies to games that started with two or more seats.
* Failed opening lines: the third card goes to the bottom and the next is drawn until every pile
  card has been tried there, then the second card, then the first.
* Every round is dealt first and staked after, as both texts order it, for the first round and
  for every new one alike (the hands are seen before the hedge is chosen). RULES.md H3/H4 put
  the first round's deal before its stake; H5's wording (stake phase, then the new cards) is
  read as naming the two steps of a new round, which keep that order.
* Chips in a hand pot stay the seat's from game to game and may be used in another game
  (H6): between games the seat moves them to its chip stock (`TakeHandPot`) or cashes them out
  (`CashOut` with `pot="hand"`), both refused while the pot is frozen (H4.3). A hedge comes
  only from the chip stock (H4), so hand-pot chips reach a hedge through the stock.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..core import (
    Action,
    CardNotInHand,
    Event,
    IllegalAction,
    MalformedMessage,
    WrongSeat,
    message,
    replace_at,
    require_phase,
)
from ..hexgrid import Cell
from ..ledger import InsufficientChips, Ledger, stock
from ..options import (
    check_buy_ins,
    check_names,
    check_seat,
    check_seat_count,
    display_names,
    is_whole,
)
from ..options import display_name as _n
from .cards import EDITIONS, check_card, standard_deck
from .layout import LINE_CELLS, Layout, Placement, count_name, line_problems, propose_line

__all__ = [
    "BoughtIn",
    "Busted",
    "BuyIn",
    "CardNotInHand",
    "CardUnavailable",
    "CashOut",
    "CashedOut",
    "Dealt",
    "Discard",
    "Discarded",
    "GameStarted",
    "GameWon",
    "HandPotFrozen",
    "Hedge",
    "Hedged",
    "HexelGame",
    "HexelOptions",
    "HexelState",
    "HoxlaCalled",
    "InsurancePaid",
    "LayLine",
    "LineLaid",
    "MustPlace",
    "NextGame",
    "Place",
    "Placed",
    "SetStake",
    "Shuffle",
    "StakeSet",
    "TakeHandPot",
    "TookHandPot",
]

Phase = Literal["setup", "stake", "play", "over"]
EndReason = Literal["hoxla", "cards_out", "last_standing", "no_winner"]
Accounts = tuple[tuple[str, int], ...]
HAND_SIZE = 3


class CardUnavailable(IllegalAction):
    """The deck cannot supply that card: not in the deck, or every copy is already visible."""

    code = "card_unavailable"


class HandPotFrozen(IllegalAction):
    """H4.3 (holodex): a seat that went bust cannot take chips from its hand pot this game."""

    code = "hand_pot_frozen"


class MustPlace(IllegalAction):
    """A discard while some card in hand could be placed."""

    code = "must_place"


def hedge(seat: int) -> str:
    """Ledger account of a seat's hedge pot."""
    return f"hedge:{seat}"


def hand(seat: int) -> str:
    """Ledger account of a seat's hand pot."""
    return f"hand:{seat}"


# ---------------------------------------------------------------------------------------------
# Options and state


@dataclass(frozen=True)
class HexelOptions:
    """A match of Hex'el: seats, buy-ins, stake, edition and deck (H3)."""

    seats: int = 2
    stake: int = 1
    edition: Literal["holodex", "web"] = "holodex"
    chips: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    dealer: int = 0

    def __post_init__(self) -> None:
        where = "Hex'el options"

        def bad(msg: str) -> None:
            raise MalformedMessage(f"{where}: {msg}")

        check_seat_count(where, self.seats, 1, 6)
        if not is_whole(self.stake) or self.stake < 1:
            bad(f"stake must be a positive whole number, got {self.stake!r}")
        if self.edition not in EDITIONS:
            bad(f"edition must be one of {sorted(EDITIONS)}, got {self.edition!r}")
        check_buy_ins(where, self.chips, self.seats)
        check_names(where, self.names, self.seats)
        check_seat(where, "dealer", self.dealer, self.seats)
        alphabet = EDITIONS[self.edition].symbols
        # H1: a deck may be given as 6-tuples of letters; the engine plays cards as strings
        object.__setattr__(self, "deck", tuple(check_card(c, alphabet) for c in self.deck))
        if self.deck and len(self.deck) < 4:
            bad("a deck needs at least 4 cards: 3 for the opening line (H3) and one to play")

    @property
    def cards(self) -> tuple[str, ...]:
        """The deck in use: the given one or the standard 36 in this edition's letters."""
        return self.deck or standard_deck(EDITIONS[self.edition].symbols)

    @property
    def buy_ins(self) -> tuple[int, ...]:
        """Chips each seat brings (default 100)."""
        return self.chips or (100,) * self.seats

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Display names (default "Seat 1", "Seat 2", ...)."""
        return display_names(self.names, self.seats)


@dataclass(frozen=True)
class HexelState:
    """Everything about a Hex'el match at one moment. Derive, never mutate."""

    options: HexelOptions
    ledger: Ledger
    phase: Phase = "setup"
    game_no: int = 1
    dealer: int = 0
    stake: int = 1
    tracked: bool = True
    pile: tuple[str | None, ...] = ()
    hands: tuple[tuple[str | None, ...], ...] = ()
    layout: Layout = field(default_factory=Layout)
    placed_by: tuple[int, ...] = ()
    out: frozenset[int] = frozenset()
    round: int = 0
    hedged: frozenset[int] = frozenset()
    to_play: int | None = None
    last_turn: tuple[int, int] | None = None
    turns: int = 0
    discards: int = 0
    winner: int | None = None
    end: EndReason | None = None

    @property
    def seats(self) -> int:
        """Number of seats at the table."""
        return self.options.seats

    @property
    def in_game(self) -> tuple[int, ...]:
        """Seats still in the current game, in seat order."""
        return tuple(s for s in range(self.seats) if s not in self.out)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards each seat holds."""
        return tuple(len(h) for h in self.hands) if self.hands else (0,) * self.seats

    @property
    def frozen_hand_pots(self) -> frozenset[int]:
        """Hand pots frozen until the next game (holodex edition, seats that are out)."""
        return self.out if self.options.edition == "holodex" else frozenset()

    def accounts(self) -> Accounts:
        """Every account's balance, sorted by name."""
        return self.ledger.snapshot()

    def available_cards(self) -> Counter[str]:
        """Cards that could still come into play: deck minus table minus known hands."""
        left = Counter(self.options.cards)
        left.subtract(self.layout.cards())
        for h in self.hands:
            left.subtract(c for c in h if c is not None)
        return +left


# ---------------------------------------------------------------------------------------------
# Actions


@message("hexel.shuffle")
class Shuffle(Action):
    """Shuffle the deck with `seed`, lay the opening line (H3) and deal (the engine knows hands)."""

    seed: int


@message("hexel.lay_line")
class LayLine(Action):
    """The dealer laid this opening line from real cards; hands are face down from here on."""

    cards: tuple[str, str, str]
    rotations: tuple[int, int, int]


@message("hexel.set_stake")
class SetStake(Action):
    """The dealer sets the stake for the coming game (before the first shuffle)."""

    stake: int


@message("hexel.buy_in")
class BuyIn(Action):
    """Chips enter the table into a seat's stock (between games)."""

    seat: int
    amount: int


@message("hexel.cash_out")
class CashOut(Action):
    """Chips leave the table from a seat's stock or hand pot (between games)."""

    seat: int
    amount: int
    pot: Literal["stock", "hand"] = "stock"


@message("hexel.take_hand_pot")
class TakeHandPot(Action):
    """Between games: `amount` chips from a seat's hand pot to its chip stock, to be used in
    this game (H6); refused while the hand pot is frozen (H4.3)."""

    seat: int
    amount: int


@message("hexel.hedge")
class Hedge(Action):
    """Stake phase (H4): `multiple` x stake chips from the seat's stock to its hedge pot."""

    seat: int
    multiple: int


@message("hexel.place")
class Place(Action):
    """A turn: place `card` on `cell` with `rotation` (H2, H4)."""

    seat: int
    card: str
    cell: tuple[int, int]
    rotation: int


@message("hexel.discard")
class Discard(Action):
    """A turn with no legal placement: discard a card face down (None: unseen, at a real table)."""

    seat: int
    card: str | None = None


@message("hexel.next_game")
class NextGame(Action):
    """Start the next game: the dealer button moves one seat clockwise (H6)."""


# ---------------------------------------------------------------------------------------------
# Events


@message("hexel.game_started")
class GameStarted(Event):
    """A new game at the table."""

    game_no: int
    dealer: int

    def announce(self, names: Sequence[str]) -> str:
        return f"Game {self.game_no}: {_n(names, self.dealer)} deals"


@message("hexel.stake_set")
class StakeSet(Event):
    """The stake for the game."""

    stake: int

    def announce(self, names: Sequence[str]) -> str:
        return f"Stake set to {self.stake}"


@message("hexel.bought_in")
class BoughtIn(Event):
    """Chips brought to the table."""

    seat: int
    amount: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} buys in {self.amount} chips"


@message("hexel.took_hand_pot")
class TookHandPot(Event):
    """Chips moved from a seat's hand pot to its chip stock."""

    seat: int
    amount: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} takes {self.amount} chips from the hand pot into the stock"


@message("hexel.cashed_out")
class CashedOut(Event):
    """Chips taken from the table."""

    seat: int
    amount: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} cashes out {self.amount} chips"


@message("hexel.line_laid")
class LineLaid(Event):
    """The opening line (H3); `returned` cards went to the bottom of the pile first."""

    cards: tuple[str, str, str]
    rotations: tuple[int, int, int]
    returned: int

    def announce(self, names: Sequence[str]) -> str:
        return "Opening line laid: " + " ".join(self.cards)


@message("hexel.dealt")
class Dealt(Event):
    """A round begins: cards dealt (H3, H5); stakes are due."""

    round: int
    counts: tuple[int, ...]
    pile: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        dealt = [c for c in self.counts if c]
        each = f"{dealt[0]} cards each" if dealt and len(set(dealt)) == 1 else "cards dealt"
        return f"Round {self.round}: {each}, {self.pile} left in the pile. Stakes, please"


@message("hexel.hedged")
class Hedged(Event):
    """A seat moved chips to its hedge pot."""

    seat: int
    amount: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} hedges {self.amount}"


@message("hexel.placed")
class Placed(Event):
    """A card was placed; `count` edges matched."""

    seat: int
    card: str
    cell: tuple[int, int]
    rotation: int
    count: int
    hoxla: bool
    accounts: Accounts

    @property
    def name(self) -> str:
        """Hexba / Hexel / Hexla / Hexven, or Hox'la!"""
        return "Hox'la!" if self.hoxla else count_name(self.count)

    def announce(self, names: Sequence[str]) -> str:
        if self.hoxla:
            return f"{_n(names, self.seat)}: Hox'la!"
        plural = "edge" if self.count == 1 else "edges"
        return f"{_n(names, self.seat)}: {self.name} ({self.count} {plural})"


@message("hexel.discarded")
class Discarded(Event):
    """A seat could not place and discarded a card (count 0)."""

    seat: int
    card: str | None

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} cannot place and discards a card"


@message("hexel.insurance_paid")
class InsurancePaid(Event):
    """H4.2: insurance from the payer's hedge pot to the receiver."""

    payer: int
    receiver: int
    amount: int
    into: Literal["hand", "stock"]
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        pot = "hand pot" if self.into == "hand" else "chip stock"
        return (f"{_n(names, self.payer)} pays {self.amount} insurance "
                f"to {_n(names, self.receiver)}'s {pot}")


@message("hexel.busted")
class Busted(Event):
    """H4.3: the hedge pot could not cover the insurance; the seat is out of this game."""

    seat: int
    receiver: int
    owed: int
    paid: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        return (f"{_n(names, self.seat)} is bust: owes {self.owed}, pays the last {self.paid} "
                f"to {_n(names, self.receiver)} and is out of this game")


@message("hexel.hoxla")
class HoxlaCalled(Event):
    """A placement completed a Hox'la."""

    seat: int
    cell: tuple[int, int]

    def announce(self, names: Sequence[str]) -> str:
        return f"Hox'la! {_n(names, self.seat)} completes a perfect junction"


@message("hexel.game_won")
class GameWon(Event):
    """H6: the game is over; `seat` (None: nobody) collects the hedge pots."""

    seat: int | None
    reason: EndReason
    amount: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        why = {"hoxla": "with a Hox'la", "cards_out": "as the last to place",
               "last_standing": "as the last seat standing",
               "no_winner": ""}[self.reason]
        if self.seat is None:
            return "The cards ran out with no winner: hedge pots go back to their owners"
        return f"{_n(names, self.seat)} wins {self.amount} chips {why}"


# ---------------------------------------------------------------------------------------------
# The game


def _require_seat(state: HexelState, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise MalformedMessage(f"seat must be 0..{state.seats - 1}, got {seat!r}")
    return seat


def _require_thawed(state: HexelState, seat: int) -> None:
    """H4.3 (holodex): a seat that went bust cannot touch its hand pot until the next game."""
    if seat in state.frozen_hand_pots:
        raise HandPotFrozen(
            f"{state.options.seat_names[seat]} went bust: the hand pot is frozen until the "
            "next game starts"
        )


def _require_phase(state: HexelState, action: Action, *phases: str) -> None:
    require_phase(state.phase, action, *phases)


def _positive(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise MalformedMessage(f"{what} must be a positive whole number, got {value!r}")
    return value


class HexelGame:
    """The Hex'el rules (RULES.md H1-H6) behind the common game protocol."""

    name = "hexel"
    options_type = HexelOptions

    # -- protocol ----------------------------------------------------------------------------

    def initial_state(self, options: HexelOptions) -> HexelState:
        """All chips in the stocks, the first game about to be shuffled."""
        ledger = Ledger.with_accounts(
            name for s in range(options.seats) for name in (stock(s), hedge(s), hand(s))
        )
        for s, chips in enumerate(options.buy_ins):
            if chips:
                ledger = ledger.buy_in(stock(s), chips)
        return HexelState(options=options, ledger=ledger, dealer=options.dealer,
                          stake=options.stake, hands=((),) * options.seats)

    def is_over(self, state: HexelState) -> bool:
        """True once the current game has a result."""
        return state.phase == "over"

    def chance_action(self, state: HexelState, rng: random.Random) -> Action | None:
        """A seeded shuffle when the game waits for one."""
        if state.phase == "setup":
            return Shuffle(seed=rng.getrandbits(32))
        return None

    def legal_actions(self, state: HexelState) -> list[Action]:
        """Every game decision open now (administrative actions such as buy-ins excluded)."""
        if state.phase == "stake":
            out: list[Action] = []
            for s in state.in_game:
                if s not in state.hedged:
                    most = state.ledger[stock(s)] // state.stake
                    out.extend(Hedge(s, m) for m in range(most + 1))
            return out
        if state.phase == "play":
            seat = state.to_play
            assert seat is not None
            cards = state.hands[seat]
            if state.tracked:
                known = [c for c in cards if c is not None]
                moves: list[Action] = [Place(seat, c, cell, k) for c, cell, k, _ in
                                       state.layout.placements_for(known)]
                return moves or [Discard(seat, c) for c in dict.fromkeys(known)]
            avail = list(state.available_cards())
            moves = [Place(seat, c, cell, k) for c, cell, k, _ in
                     state.layout.placements_for(avail)]
            return [*moves, Discard(seat, None)]
        if state.phase == "over":
            return [NextGame()]
        return []

    def apply(self, state: HexelState, action: Action) -> tuple[HexelState, tuple[Event, ...]]:
        """Apply one action; raises a `RulesError` subclass and changes nothing if refused."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise MalformedMessage(f"{type(action).__name__} is not a Hex'el action")
        return handler(self, state, action)

    # -- between games -------------------------------------------------------------------------

    def _set_stake(self, state: HexelState, a: SetStake):
        _require_phase(state, a, "setup")
        stake = _positive(a.stake, "stake")
        return dataclasses.replace(state, stake=stake), (StakeSet(stake),)

    def _buy_in(self, state: HexelState, a: BuyIn):
        _require_phase(state, a, "setup", "over")
        seat = _require_seat(state, a.seat)
        ledger = state.ledger.buy_in(stock(seat), _positive(a.amount, "amount"))
        new = dataclasses.replace(state, ledger=ledger)
        return new, (BoughtIn(seat, a.amount, new.accounts()),)

    def _cash_out(self, state: HexelState, a: CashOut):
        _require_phase(state, a, "setup", "over")
        seat = _require_seat(state, a.seat)
        if a.pot not in ("stock", "hand"):
            raise MalformedMessage(f"cash out from 'stock' or 'hand', not {a.pot!r}")
        if a.pot == "hand":
            _require_thawed(state, seat)
        account = stock(seat) if a.pot == "stock" else hand(seat)
        ledger = state.ledger.cash_out(account, _positive(a.amount, "amount"))
        new = dataclasses.replace(state, ledger=ledger)
        return new, (CashedOut(seat, a.amount, new.accounts()),)

    def _take_hand_pot(self, state: HexelState, a: TakeHandPot):
        _require_phase(state, a, "setup", "over")
        seat = _require_seat(state, a.seat)
        _require_thawed(state, seat)
        ledger = state.ledger.transfer(hand(seat), stock(seat), _positive(a.amount, "amount"))
        new = dataclasses.replace(state, ledger=ledger)
        return new, (TookHandPot(seat, a.amount, new.accounts()),)

    def _next_game(self, state: HexelState, a: NextGame):
        _require_phase(state, a, "over")
        dealer = (state.dealer + 1) % state.seats
        new = HexelState(options=state.options, ledger=state.ledger, game_no=state.game_no + 1,
                         dealer=dealer, stake=state.stake, hands=((),) * state.seats)
        return new, (GameStarted(new.game_no, dealer),)

    # -- setup (H3) ------------------------------------------------------------------------------

    def _shuffle(self, state: HexelState, a: Shuffle):
        _require_phase(state, a, "setup")
        if isinstance(a.seed, bool) or not isinstance(a.seed, int):
            raise MalformedMessage(f"seed must be an integer, got {a.seed!r}")
        pile = list(state.options.cards)
        random.Random(a.seed).shuffle(pile)
        line, ks, returned = _draw_line(pile)
        layout = _line_layout(line, ks)
        base = dataclasses.replace(state, tracked=True, layout=layout, pile=tuple(pile))
        new, dealt = _deal_round(base)
        return new, (LineLaid(line, ks, returned), dealt)

    def _lay_line(self, state: HexelState, a: LayLine):
        _require_phase(state, a, "setup")
        alphabet = EDITIONS[state.options.edition].symbols
        if len(a.cards) != 3 or len(a.rotations) != 3:
            raise MalformedMessage("an opening line is 3 cards with 3 rotations")
        cards = tuple(check_card(c, alphabet) for c in a.cards)
        ks = tuple(_rotation(k) for k in a.rotations)
        missing = Counter(cards) - Counter(state.options.cards)
        if missing:
            raise CardUnavailable(f"the deck has no (more) card {sorted(missing)[0]}")
        problems = line_problems(cards, ks)  # type: ignore[arg-type]
        if problems:
            raise IllegalAction("invalid opening line: " + "; ".join(problems))
        layout = _line_layout(cards, ks)  # type: ignore[arg-type]
        pile = (None,) * (len(state.options.cards) - 3)
        base = dataclasses.replace(state, tracked=False, layout=layout, pile=pile)
        new, dealt = _deal_round(base)
        return new, (LineLaid(cards, ks, 0), dealt)  # type: ignore[arg-type]

    # -- stake (H4) ---------------------------------------------------------------------------

    def _hedge(self, state: HexelState, a: Hedge):
        _require_phase(state, a, "stake")
        seat = _require_seat(state, a.seat)
        if seat in state.out:
            raise WrongSeat(f"{state.options.seat_names[seat]} is out of this game")
        if seat in state.hedged:
            raise WrongSeat(f"{state.options.seat_names[seat]} has already staked this round")
        m = a.multiple
        if isinstance(m, bool) or not isinstance(m, int) or m < 0:
            raise MalformedMessage(f"multiple must be 0 or more, got {m!r}")
        amount = m * state.stake
        ledger = state.ledger
        if amount:
            have = ledger[stock(seat)]
            if have < amount:
                raise InsufficientChips(stock(seat), amount, have, what="stake")
            ledger = ledger.transfer(stock(seat), hedge(seat), amount)
        hedged = state.hedged | {seat}
        new = dataclasses.replace(state, ledger=ledger, hedged=hedged)
        if all(s in hedged for s in state.in_game):
            new = dataclasses.replace(new, phase="play", to_play=_next_with_cards(
                new, state.dealer, include_start=True))
        return new, (Hedged(seat, amount, new.accounts()),)

    # -- turns (H2, H4) ------------------------------------------------------------------------

    def _check_turn(self, state: HexelState, a: Place | Discard) -> int:
        _require_phase(state, a, "play")
        seat = _require_seat(state, a.seat)
        if seat != state.to_play:
            raise WrongSeat(
                f"it is {state.options.seat_names[state.to_play or 0]}'s turn, "
                f"not {state.options.seat_names[seat]}'s"
            )
        return seat

    def _place(self, state: HexelState, a: Place):
        seat = self._check_turn(state, a)
        alphabet = EDITIONS[state.options.edition].symbols
        card = check_card(a.card, alphabet)
        cell = _cell(a.cell)
        k = _rotation(a.rotation)
        hand_cards = state.hands[seat]
        if state.tracked:
            if card not in hand_cards:
                raise CardNotInHand(
                    f"{state.options.seat_names[seat]} does not hold card {card}"
                )
            new_hand = _remove(hand_cards, card)
        else:
            if state.available_cards()[card] <= 0:
                raise CardUnavailable(
                    f"card {card} cannot be played: it is not in the deck or already on the table"
                )
            new_hand = _remove(hand_cards, None)
        count = state.layout.check(card, cell, k)
        placement = Placement(card, cell, k)
        hoxla = state.layout.completes_hoxla(cell, placement.oriented)
        new = dataclasses.replace(
            state,
            layout=state.layout.with_placement(placement),
            placed_by=(*state.placed_by, seat),
            hands=replace_at(state.hands, seat, new_hand),
            turns=state.turns + 1,
        )
        if hoxla:
            placed = Placed(seat, card, cell, k, count, True, new.accounts())
            won, win_event = _win(new, seat, "hoxla")
            return won, (placed, HoxlaCalled(seat, cell), win_event)
        new, paid = _settle_insurance(new, seat, count)
        placed = Placed(seat, card, cell, k, count, False, new.accounts())
        new, after = _after_turn(new, seat)
        return new, (placed, *paid, *after)

    def _discard(self, state: HexelState, a: Discard):
        seat = self._check_turn(state, a)
        hand_cards = state.hands[seat]
        if state.tracked:
            if a.card is None:
                raise MalformedMessage("name the discarded card (the engine tracks hands)")
            card = check_card(a.card)
            if card not in hand_cards:
                raise CardNotInHand(f"{state.options.seat_names[seat]} does not hold card {card}")
            if state.layout.has_placement(c for c in hand_cards if c is not None):
                raise MustPlace(
                    f"{state.options.seat_names[seat]} holds a card that can be placed: "
                    "a discard is allowed only when no card fits"
                )
            new_hand = _remove(hand_cards, card)
        else:
            if a.card is not None:
                raise MalformedMessage("at a real table a discard is face down: card must be null")
            new_hand = _remove(hand_cards, None)
        new = dataclasses.replace(state, hands=replace_at(state.hands, seat, new_hand),
                                  turns=state.turns + 1, discards=state.discards + 1)
        new, paid = _settle_insurance(new, seat, 0)
        new, after = _after_turn(new, seat)
        return new, (Discarded(seat, a.card), *paid, *after)


_HANDLERS = {
    SetStake: HexelGame._set_stake,
    BuyIn: HexelGame._buy_in,
    CashOut: HexelGame._cash_out,
    TakeHandPot: HexelGame._take_hand_pot,
    NextGame: HexelGame._next_game,
    Shuffle: HexelGame._shuffle,
    LayLine: HexelGame._lay_line,
    Hedge: HexelGame._hedge,
    Place: HexelGame._place,
    Discard: HexelGame._discard,
}


# ---------------------------------------------------------------------------------------------
# Helpers (pure)


def _rotation(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 5:
        raise MalformedMessage(f"rotation must be 0..5, got {k!r}")
    return k


def _cell(cell: object) -> Cell:
    if (not isinstance(cell, tuple | list) or len(cell) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in cell)):
        raise MalformedMessage(f"cell must be two integers (q, r), got {cell!r}")
    return (cell[0], cell[1])


def _line_layout(cards: Sequence[str], ks: Sequence[int]) -> Layout:
    """The opening line as a layout on (0,0), (1,0), (2,0)."""
    return Layout(tuple(Placement(c, cell, k) for c, cell, k in zip(cards, LINE_CELLS, ks,
                                                                     strict=True)))


def _remove(cards: tuple[str | None, ...], card: str | None) -> tuple[str | None, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _draw_line(pile: list[str]) -> tuple[tuple[str, str, str], tuple[int, int, int], int]:
    """H3: draw three cards and find rotations, sending cards to the bottom until a line works.

    The third card cycles through the pile first; when every pile card has been tried there,
    the second card goes to the bottom and the third cycles again; then the first card.
    """
    line = [pile.pop(0), pile.pop(0), pile.pop(0)]
    returned = 0
    tries = len(pile) + 1
    for _first in range(tries):
        for _second in range(tries):
            for _third in range(tries):
                ks = propose_line((line[0], line[1], line[2]))
                if ks is not None:
                    return (line[0], line[1], line[2]), ks, returned
                returned += _to_bottom(pile, line, 2)
            returned += _to_bottom(pile, line, 1)
        returned += _to_bottom(pile, line, 0)
    raise IllegalAction("no valid opening line can be made from this deck")


def _to_bottom(pile: list[str], line: list[str], position: int) -> int:
    """Put the line card at `position` under the pile and draw the top card in its place."""
    if not pile:
        return 0
    pile.append(line[position])
    line[position] = pile.pop(0)
    return 1


def _deal_round(state: HexelState) -> tuple[HexelState, Dealt]:
    """Deal up to 3 cards to each seat still in, one at a time from the dealer's left (H3, H5)."""
    hands = [list(h) for h in state.hands]
    pile = list(state.pile)
    order = [(state.dealer + i) % state.seats for i in range(1, state.seats + 1)]
    order = [s for s in order if s not in state.out]
    counts = [0] * state.seats
    for _ in range(HAND_SIZE):
        for s in order:
            if pile:
                hands[s].append(pile.pop(0))
                counts[s] += 1
    new = dataclasses.replace(
        state, phase="stake", hands=tuple(tuple(h) for h in hands), pile=tuple(pile),
        round=state.round + 1, hedged=frozenset(), to_play=None,
    )
    return new, Dealt(new.round, tuple(counts), len(pile), new.accounts())


def _next_with_cards(state: HexelState, start: int, include_start: bool) -> int | None:
    """The first seat clockwise from `start` that is in and holds a card."""
    for i in range(0 if include_start else 1, state.seats + (1 if not include_start else 0)):
        s = (start + i) % state.seats
        if s not in state.out and state.hands[s]:
            return s
    return None


def _settle_insurance(state: HexelState, seat: int, count: int) -> tuple[HexelState, list[Event]]:
    """H4.2 / H4.3: pay the last turn's seat for a lower count, or go bust."""
    last = state.last_turn
    new = dataclasses.replace(state, last_turn=(seat, count))
    if last is None:
        return new, []
    receiver, previous = last
    if receiver == seat or receiver in state.out or count >= previous:
        return new, []
    owed = state.stake * (previous - count)
    into = EDITIONS[state.options.edition].insurance_to
    target = hand(receiver) if into == "hand" else stock(receiver)
    have = state.ledger[hedge(seat)]
    if have >= owed:
        ledger = state.ledger.transfer(hedge(seat), target, owed)
        new = dataclasses.replace(new, ledger=ledger)
        return new, [InsurancePaid(seat, receiver, owed, into, new.accounts())]
    ledger, paid = state.ledger.sweep(hedge(seat), target)
    hands = replace_at(state.hands, seat, ())
    new = dataclasses.replace(new, ledger=ledger, out=state.out | {seat}, hands=hands,
                              discards=state.discards + len(state.hands[seat]))
    return new, [Busted(seat, receiver, owed, paid, new.accounts())]


def _win(state: HexelState, seat: int | None, reason: EndReason) -> tuple[HexelState, GameWon]:
    """H6: sweep every hedge pot to the winner's stock (or back to its owner if no winner)."""
    ledger = state.ledger
    total = 0
    for s in range(state.seats):
        ledger, moved = ledger.sweep(hedge(s), stock(seat if seat is not None else s))
        total += moved
    new = dataclasses.replace(state, ledger=ledger, phase="over", to_play=None,
                              winner=seat, end=reason)
    return new, GameWon(seat, reason, total, new.accounts())


def _after_turn(state: HexelState, seat: int) -> tuple[HexelState, tuple[Event, ...]]:
    """Who plays next, or the end of the round or of the game (H5, H6)."""
    if state.seats >= 2 and len(state.in_game) == 1:
        new, event = _win(state, state.in_game[0], "last_standing")
        return new, (event,)
    nxt = _next_with_cards(state, seat, include_start=False)
    if nxt is not None:
        return dataclasses.replace(state, to_play=nxt), ()
    if state.pile:
        new, dealt = _deal_round(state)
        return new, (dealt,)
    placers = [s for s in reversed(state.placed_by) if s not in state.out]
    if placers:
        new, event = _win(state, placers[0], "cards_out")
    else:
        new, event = _win(state, None, "no_winner")
    return new, (event,)

