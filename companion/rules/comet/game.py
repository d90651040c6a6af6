"""Seven Card Comet as a pure state machine: antes, the Tail call, deals, turns, reveals, the end.

Implements RULES.md C2-C4 on top of `scoring` (C1). Chips live in the ledger: `stock:i` per seat,
`pot:<name>` for the six table pots and `pot:Tail`. A round is `BeginRound` (the button moves one
seat to the right, antes are taken when due), the dealer's `CallTail` or `SkipTail`, the deal
(`Shuffle(seed)`, or `Deal(hands)` for known cards), each seat's turn from the dealer's left
(`PlaySet`... , at most one `Reserve`, `EndTurn`) and the reveal, done by the engine after the last
turn. Between rounds `Stop` ends the match once every seat still in has dealt. Settled here where
RULES.md is silent:

* The whole ante (300) is paid or none of it: a seat that cannot pay it is out, keeps its stock
  (standings are chips held) and its reserved cards go back to the deck. If the new dealer is out
  the button moves on to the right. With fewer than two seats left the match is over.
* The ante is due again once every seat still in has dealt since the last ante.
* The Tail may be called only by a dealer who can pay 600 after the ante, at the start of any
  round, whether or not antes are due in it.
* Each round is dealt from the whole deck minus the reserved cards, one card at a time from the
  dealer's left; unplayed cards are discarded at the round end. Should the deck run out, the deal
  stops there.
* A seat that ties for a pot counts it as won for the bonus; only table pots earn bonus cards, so
  the round after a Tail round is dealt 7 cards each (bonuses earned before a Tail round lapse).
* An invalid set (no line) can never win, not even alone; a Tail total of 0 cannot win the Tail.
* A reserve may be made in any round, one card per turn; reserves are taken into hand only in a
  Tail round. Chips left in pots when the match stops stay there (they belong to no one's stock).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
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
from ..ledger import InsufficientChips, Ledger, stock
from ..options import check_buy_ins, check_names, check_seat, display_names, is_whole
from ..options import display_name as _n
from .cards import Card, check_card, standard_deck
from .scoring import check_set, score_set

__all__ = [
    "DEFAULT_POTS",
    "TAIL",
    "AntePaid",
    "BeginRound",
    "CallTail",
    "CardNotInHand",
    "CometGame",
    "CometOptions",
    "CometState",
    "Deal",
    "Dealt",
    "Eliminated",
    "EndTurn",
    "MatchOver",
    "PlaySet",
    "PlayedSet",
    "PotRevealed",
    "PotUnavailable",
    "Reserve",
    "Reserved",
    "RoundBegan",
    "SetPlayed",
    "Shuffle",
    "SkipTail",
    "Stop",
    "TailCalled",
    "TurnEnded",
    "pot",
    "stock",
]

DEFAULT_POTS = ("Desten", "Kinro", "Nivek", "Trinovat", "Vain", "Polos")
TAIL = "Tail"
Phase = Literal["setup", "tail", "deal", "play", "between", "over"]
EndReason = Literal["stopped", "rounds", "last_standing"]
Accounts = tuple[tuple[str, int], ...]


class PotUnavailable(IllegalAction):
    """That pot cannot be played now (already played this round, or not the Tail's round)."""

    code = "pot_unavailable"


def pot(name: str) -> str:
    """Ledger account of a pot (a table pot or the Tail)."""
    return f"pot:{name}"


# ---------------------------------------------------------------------------------------------
# Options and state


@dataclass(frozen=True)
class CometOptions:
    """A match of Seven Card Comet: seats, buy-ins, pots, ante, house options (C1-C4)."""

    seats: int = 4
    chips: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    deck: tuple[Card, ...] = ()
    dealer: int = 0
    pots: tuple[str, ...] = DEFAULT_POTS
    ante_pot: int = 25
    ante_tail: int = 150
    ante_every_round: bool = False
    bonus_per: Literal["pot_won", "valid_set"] = "pot_won"
    single_triple_set: bool = True
    hand_size: int = 7
    rounds: int = 0

    def __post_init__(self) -> None:
        where = "Comet options"

        def bad(msg: str) -> None:
            raise MalformedMessage(f"{where}: {msg}")

        def whole(name: str, low: int) -> None:
            value = getattr(self, name)
            if not is_whole(value) or value < low:
                bad(f"{name} must be a whole number, at least {low}, got {value!r}")

        whole("seats", 2)
        if self.seats > 8:
            bad(f"at most 8 seats can be dealt from one deck, got {self.seats}")
        for name, low in (("ante_pot", 0), ("ante_tail", 0), ("hand_size", 1), ("rounds", 0)):
            whole(name, low)
        check_buy_ins(where, self.chips, self.seats)
        check_names(where, self.names, self.seats)
        check_seat(where, "dealer", self.dealer, self.seats)
        if len(self.pots) != 6 or len(set(self.pots)) != 6 or TAIL in self.pots:
            bad(f"give six different table pot names (not {TAIL!r}), got {list(self.pots)}")
        if self.bonus_per not in ("pot_won", "valid_set"):
            bad(f"bonus_per must be 'pot_won' or 'valid_set', got {self.bonus_per!r}")
        if not isinstance(self.ante_every_round, bool) \
                or not isinstance(self.single_triple_set, bool):
            bad("ante_every_round and single_triple_set are true or false")
        if self.rounds and self.rounds < self.seats:
            bad(f"a match lasts at least one round per seat ({self.seats}), got {self.rounds}")
        cards = [check_card(c, "deck") for c in self.deck]
        if len(set(cards)) != len(cards):
            bad("a deck holds every card once")

    @property
    def cards(self) -> tuple[Card, ...]:
        """The deck in use: the given one or the standard 123 cards."""
        return self.deck or standard_deck()

    @property
    def buy_ins(self) -> tuple[int, ...]:
        """Chips each seat brings (default 1500)."""
        return self.chips or (1500,) * self.seats

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Display names (default "Seat 1", "Seat 2", ...)."""
        return display_names(self.names, self.seats)

    @property
    def ante(self) -> int:
        """The whole ante per seat (300 by default)."""
        return self.ante_pot * len(self.pots) + self.ante_tail

    @property
    def tail_call(self) -> int:
        """What calling the Tail costs the dealer: double the ante (600 by default)."""
        return 2 * self.ante


@dataclass(frozen=True)
class PlayedSet:
    """A set lying face down against a pot this round."""

    seat: int
    pot: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class CometState:
    """Everything about a Comet match at one moment. Derive, never mutate."""

    options: CometOptions
    ledger: Ledger
    phase: Phase = "setup"
    round: int = 0
    dealer: int = 0
    out: frozenset[int] = frozenset()
    tail_round: bool = False
    hands: tuple[tuple[Card, ...], ...] = ()
    reserves: tuple[tuple[Card, ...], ...] = ()
    sets: tuple[PlayedSet, ...] = ()
    to_play: int | None = None
    reserved: bool = False
    bonus: tuple[int, ...] = ()
    since_ante: frozenset[int] = frozenset()
    has_dealt: frozenset[int] = frozenset()
    end: EndReason | None = None

    @property
    def seats(self) -> int:
        """Number of seats at the table."""
        return self.options.seats

    @property
    def in_game(self) -> tuple[int, ...]:
        """Seats still in, in seat order."""
        return tuple(s for s in range(self.seats) if s not in self.out)

    @property
    def order(self) -> tuple[int, ...]:
        """Seats still in, from the dealer's left round to the dealer (turn and deal order)."""
        return tuple(s for s in ((self.dealer + i) % self.seats for i in range(1, self.seats + 1))
                     if s not in self.out)

    def accounts(self) -> Accounts:
        """Every account's balance, sorted by name."""
        return self.ledger.snapshot()

    def chips(self, seat: int) -> int:
        """A seat's stock."""
        return self.ledger[stock(seat)]

    def pots_open(self, seat: int) -> tuple[str, ...]:
        """Pots the seat may still play a set against now."""
        if self.tail_round:
            return (TAIL,)
        used = {p.pot for p in self.sets if p.seat == seat}
        return tuple(name for name in self.options.pots if name not in used)

    def due(self, seat: int) -> int:
        """Cards the seat is to be dealt this round (C2 deal sizes, C3 for a Tail round)."""
        if self.tail_round:
            return max(0, self.options.hand_size - len(self.reserves[seat]))
        return self.options.hand_size + self.bonus[seat]


# ---------------------------------------------------------------------------------------------
# Actions


@message("comet.begin_round")
class BeginRound(Action):
    """Start the next round: the button moves right (not before the first), antes when due."""


@message("comet.call_tail")
class CallTail(Action):
    """The dealer calls the Tail, paying double the ante into it (C3)."""

    seat: int


@message("comet.skip_tail")
class SkipTail(Action):
    """The dealer does not call the Tail: a normal round."""

    seat: int


@message("comet.shuffle")
class Shuffle(Action):
    """Shuffle the deck (minus reserved cards) with `seed` and deal."""

    seed: int


@message("comet.deal")
class Deal(Action):
    """The cards dealt to each seat (empty for seats that are out), reserves not included."""

    hands: tuple[tuple[Card, ...], ...]


@message("comet.play_set")
class PlaySet(Action):
    """Lay `cards` face down against `pot` (a table pot name, or "Tail" in a Tail round)."""

    seat: int
    pot: str
    cards: tuple[Card, ...]


@message("comet.reserve")
class Reserve(Action):
    """Put one card aside for a future Tail round (once per turn)."""

    seat: int
    card: Card


@message("comet.end_turn")
class EndTurn(Action):
    """The seat has finished its turn."""

    seat: int


@message("comet.stop")
class Stop(Action):
    """The table stops at this round end (C4: once every seat still in has dealt)."""


# ---------------------------------------------------------------------------------------------
# Events


@message("comet.round_began")
class RoundBegan(Event):
    """A new round; `ante_due` says whether antes were taken."""

    round: int
    dealer: int
    ante_due: bool

    def announce(self, names: Sequence[str]) -> str:
        ante = ": antes, please" if self.ante_due else ""
        return f"Round {self.round}: {_n(names, self.dealer)} deals{ante}"


@message("comet.ante_paid")
class AntePaid(Event):
    """A seat paid its ante into the six table pots and the Tail."""

    seat: int
    amount: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} antes {self.amount}"


@message("comet.eliminated")
class Eliminated(Event):
    """A seat could not pay a due ante and is out."""

    seat: int
    chips: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} cannot pay the ante ({self.chips} chips) and is out"


@message("comet.tail_called")
class TailCalled(Event):
    """The dealer called the Tail (or, with `called` false, did not)."""

    seat: int
    called: bool
    amount: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        if not self.called:
            return f"{_n(names, self.seat)} does not call the Tail"
        return (f"{_n(names, self.seat)} calls the Tail and pays {self.amount}: only the Tail "
                "is played this round")


@message("comet.dealt")
class Dealt(Event):
    """Cards dealt; `sizes` are the hands now (reserves included in a Tail round)."""

    sizes: tuple[int, ...]
    left: int

    def announce(self, names: Sequence[str]) -> str:
        return "Cards dealt: " + ", ".join(
            f"{_n(names, s)} {n}" for s, n in enumerate(self.sizes) if n)


@message("comet.set_played")
class SetPlayed(Event):
    """A set went face down against a pot."""

    seat: int
    pot: str
    cards: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} plays {self.cards} cards against {self.pot}"


@message("comet.reserved")
class Reserved(Event):
    """A card was put aside for a Tail round."""

    seat: int
    reserves: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} reserves a card for the Tail ({self.reserves} held)"


@message("comet.turn_ended")
class TurnEnded(Event):
    """A seat finished its turn."""

    seat: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} is done"


@message("comet.pot_revealed")
class PotRevealed(Event):
    """One pot's reveal: (seat, score) of each player against it, winners, chips each, left."""

    pot: str
    scores: tuple[tuple[int, int], ...]
    winners: tuple[int, ...]
    each: int
    left: int
    accounts: Accounts

    def announce(self, names: Sequence[str]) -> str:
        if not self.winners:
            return f"{self.pot}: no valid set, the pot keeps {self.left}"
        best = max(score for _, score in self.scores)
        who = " and ".join(_n(names, s) for s in self.winners)
        split = " (split)" if len(self.winners) > 1 else ""
        return f"{self.pot}: {who} win{'s' if len(self.winners) == 1 else ''} {self.each}" \
               f"{split} with {best}"


@message("comet.match_over")
class MatchOver(Event):
    """The match has ended; standings are chips held."""

    reason: EndReason
    chips: tuple[int, ...]

    def announce(self, names: Sequence[str]) -> str:
        ranked = sorted(range(len(self.chips)), key=lambda s: -self.chips[s])
        return "Final standings: " + ", ".join(f"{_n(names, s)} {self.chips[s]}" for s in ranked)


# ---------------------------------------------------------------------------------------------
# The game


def _require_phase(state: CometState, action: Action, *phases: str) -> None:
    require_phase(state.phase, action, *phases, what="match")


def _check_seat(state: CometState, seat: object, expected: int | None) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise MalformedMessage(f"seat must be 0..{state.seats - 1}, got {seat!r}")
    if seat != expected:
        names = state.options.seat_names
        raise WrongSeat(f"it is {names[expected or 0]}'s turn, not {names[seat]}'s")
    return seat


def _remove(hand: tuple[Card, ...], cards: Sequence[Card], who: str) -> tuple[Card, ...]:
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise CardNotInHand(f"{who} does not hold {'-'.join(map(str, next(iter(missing))))}")
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


class CometGame:
    """The Seven Card Comet rules (RULES.md C1-C4) behind the common game protocol."""

    name = "comet"
    options_type = CometOptions

    # -- protocol ----------------------------------------------------------------------------

    def initial_state(self, options: CometOptions) -> CometState:
        """Chips in the stocks, empty pots, the first round about to begin."""
        names = [stock(s) for s in range(options.seats)]
        names += [pot(p) for p in (*options.pots, TAIL)]
        ledger = Ledger.with_accounts(names)
        for s, chips in enumerate(options.buy_ins):
            if chips:
                ledger = ledger.buy_in(stock(s), chips)
        empty = ((),) * options.seats
        return CometState(options=options, ledger=ledger, dealer=options.dealer, hands=empty,
                          reserves=empty, bonus=(0,) * options.seats)

    def is_over(self, state: CometState) -> bool:
        """True once the match has ended."""
        return state.phase == "over"

    def chance_action(self, state: CometState, rng: random.Random) -> Action | None:
        """A seeded shuffle when the round waits for its deal."""
        if state.phase == "deal":
            return Shuffle(seed=rng.getrandbits(32))
        return None

    def legal_actions(self, state: CometState) -> list[Action]:
        """Every decision open now."""
        if state.phase == "setup":
            return [BeginRound()]
        if state.phase == "between":
            return [BeginRound(), Stop()] if self._may_stop(state) else [BeginRound()]
        if state.phase == "tail":
            d = state.dealer
            skip: list[Action] = [SkipTail(d)]
            return [*skip, CallTail(d)] if state.chips(d) >= state.options.tail_call else skip
        if state.phase == "play":
            return self._turn_actions(state)
        return []

    def _turn_actions(self, state: CometState) -> list[Action]:
        seat = state.to_play
        assert seat is not None
        hand = tuple(sorted(state.hands[seat]))
        sets: list[tuple[Card, ...]] = [
            *itertools.combinations(hand, 2), *itertools.combinations(hand, 3)]
        if state.options.single_triple_set:
            sets += [(card,) for card in hand if len(set(card)) == 1]
        out: list[Action] = [PlaySet(seat, p, cards) for p in state.pots_open(seat)
                             for cards in sets]
        if not state.reserved:
            out += [Reserve(seat, card) for card in hand]
        return [*out, EndTurn(seat)]

    def apply(self, state: CometState, action: Action) -> tuple[CometState, tuple[Event, ...]]:
        """Apply one action; raises a `RulesError` subclass and changes nothing if refused."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise MalformedMessage(f"{type(action).__name__} is not a Comet action")
        return handler(self, state, action)

    # -- round start (C2, C3) ---------------------------------------------------------------

    def _begin_round(self, state: CometState, a: BeginRound):
        _require_phase(state, a, "setup", "between")
        first = state.phase == "setup"
        dealer = state.dealer if first else _right_of(state, state.dealer)
        due = first or state.options.ante_every_round or set(state.in_game) <= state.since_ante
        new = dataclasses.replace(state, round=state.round + 1, dealer=dealer, sets=(),
                                  tail_round=False, reserved=False)
        events: list[Event] = []
        if due:
            new, events = _collect_antes(new)
        if len(new.in_game) < 2:
            new, over = _match_over(new, "last_standing")
            return new, (RoundBegan(new.round, new.dealer, due), *events, over)
        if new.dealer in new.out:
            new = dataclasses.replace(new, dealer=_right_of(new, new.dealer))
        new = dataclasses.replace(new, phase="tail", to_play=new.dealer)
        return new, (RoundBegan(new.round, new.dealer, due), *events)

    def _call_tail(self, state: CometState, a: CallTail):
        _require_phase(state, a, "tail")
        seat = _check_seat(state, a.seat, state.dealer)
        cost = state.options.tail_call
        have = state.chips(seat)
        if have < cost:
            raise InsufficientChips(stock(seat), cost, have, what="Tail call")
        ledger = state.ledger.transfer(stock(seat), pot(TAIL), cost) if cost else state.ledger
        new = dataclasses.replace(state, ledger=ledger, tail_round=True, phase="deal",
                                  to_play=None)
        return new, (TailCalled(seat, True, cost, new.accounts()),)

    def _skip_tail(self, state: CometState, a: SkipTail):
        _require_phase(state, a, "tail")
        seat = _check_seat(state, a.seat, state.dealer)
        new = dataclasses.replace(state, phase="deal", to_play=None)
        return new, (TailCalled(seat, False, 0, new.accounts()),)

    # -- deal ---------------------------------------------------------------------------------

    def _shuffle(self, state: CometState, a: Shuffle):
        _require_phase(state, a, "deal")
        if isinstance(a.seed, bool) or not isinstance(a.seed, int):
            raise MalformedMessage(f"seed must be an integer, got {a.seed!r}")
        pile = list(_undealt(state))
        random.Random(a.seed).shuffle(pile)
        dealt: list[list[Card]] = [[] for _ in range(state.seats)]
        wanted = {s: state.due(s) for s in state.order}
        while pile and any(len(dealt[s]) < wanted[s] for s in state.order):
            for s in state.order:
                if pile and len(dealt[s]) < wanted[s]:
                    dealt[s].append(pile.pop())
        return _start_play(state, tuple(tuple(h) for h in dealt), len(pile))

    def _deal(self, state: CometState, a: Deal):
        _require_phase(state, a, "deal")
        if not isinstance(a.hands, tuple) or len(a.hands) != state.seats:
            raise MalformedMessage(f"a deal lists one hand per seat ({state.seats})")
        hands = tuple(tuple(check_card(c, f"seat {s + 1}'s card") for c in h)
                      for s, h in enumerate(a.hands))
        for s in range(state.seats):
            want = state.due(s) if s not in state.out else 0
            if len(hands[s]) != want:
                raise IllegalAction(
                    f"{state.options.seat_names[s]} is due {want} cards, the deal gives "
                    f"{len(hands[s])}"
                )
        cards = [c for h in hands for c in h]
        free = set(_undealt(state))
        if len(set(cards)) != len(cards) or not set(cards) <= free:
            raise IllegalAction("every dealt card must be a different deck card not held in "
                                "reserve")
        return _start_play(state, hands, len(free) - len(cards))

    # -- turns (C2, C3) -----------------------------------------------------------------------

    def _play_set(self, state: CometState, a: PlaySet):
        _require_phase(state, a, "play")
        seat = _check_seat(state, a.seat, state.to_play)
        if not isinstance(a.cards, tuple):
            raise MalformedMessage("cards must be a list of cards")
        cards = tuple(check_card(c) for c in a.cards)
        check_set(cards, state.options.single_triple_set)
        if a.pot not in state.pots_open(seat):
            raise PotUnavailable(self._pot_problem(state, seat, a.pot))
        hand = _remove(state.hands[seat], cards, state.options.seat_names[seat])
        new = dataclasses.replace(
            state, hands=replace_at(state.hands, seat, hand),
            sets=(*state.sets, PlayedSet(seat, a.pot, cards)),
        )
        return new, (SetPlayed(seat, a.pot, len(cards)),)

    @staticmethod
    def _pot_problem(state: CometState, seat: int, name: object) -> str:
        if state.tail_round:
            return f"the Tail was called: this round only the Tail may be played, not {name!r}"
        if name in state.options.pots:
            return f"{state.options.seat_names[seat]} already has a set against {name}"
        return f"no table pot is named {name!r} (pots: {', '.join(state.options.pots)})"

    def _reserve(self, state: CometState, a: Reserve):
        _require_phase(state, a, "play")
        seat = _check_seat(state, a.seat, state.to_play)
        card = check_card(a.card)
        if state.reserved:
            raise IllegalAction("only one card may be reserved in a turn")
        hand = _remove(state.hands[seat], [card], state.options.seat_names[seat])
        reserves = (*state.reserves[seat], card)
        new = dataclasses.replace(state, hands=replace_at(state.hands, seat, hand),
                                  reserves=replace_at(state.reserves, seat, reserves),
                                  reserved=True)
        return new, (Reserved(seat, len(reserves)),)

    def _end_turn(self, state: CometState, a: EndTurn):
        _require_phase(state, a, "play")
        seat = _check_seat(state, a.seat, state.to_play)
        order = state.order
        i = order.index(seat)
        if i + 1 < len(order):
            new = dataclasses.replace(state, to_play=order[i + 1], reserved=False)
            return new, (TurnEnded(seat),)
        new, revealed = _reveal(state)
        return new, (TurnEnded(seat), *revealed)

    # -- end (C4) -------------------------------------------------------------------------------

    @staticmethod
    def _may_stop(state: CometState) -> bool:
        return set(state.in_game) <= state.has_dealt

    def _stop(self, state: CometState, a: Stop):
        _require_phase(state, a, "between")
        if not self._may_stop(state):
            waiting = [state.options.seat_names[s] for s in state.in_game
                       if s not in state.has_dealt]
            raise IllegalAction("the match lasts until everyone has dealt once; still to deal: "
                                + ", ".join(waiting))
        new, over = _match_over(state, "stopped")
        return new, (over,)


_HANDLERS = {
    BeginRound: CometGame._begin_round,
    CallTail: CometGame._call_tail,
    SkipTail: CometGame._skip_tail,
    Shuffle: CometGame._shuffle,
    Deal: CometGame._deal,
    PlaySet: CometGame._play_set,
    Reserve: CometGame._reserve,
    EndTurn: CometGame._end_turn,
    Stop: CometGame._stop,
}


# ---------------------------------------------------------------------------------------------
# Helpers (pure)


def _right_of(state: CometState, seat: int) -> int:
    """The next seat still in to the right (counter-clockwise) of `seat`."""
    for i in range(1, state.seats + 1):
        s = (seat - i) % state.seats
        if s not in state.out:
            return s
    return seat


def _collect_antes(state: CometState) -> tuple[CometState, list[Event]]:
    """C2: every seat still in pays the whole ante, or is out."""
    opts = state.options
    ledger, out, reserves = state.ledger, set(state.out), list(state.reserves)
    events: list[Event] = []
    for s in state.order:
        if ledger[stock(s)] < opts.ante:
            out.add(s)
            reserves[s] = ()
            events.append(Eliminated(s, ledger[stock(s)]))
            continue
        for name in opts.pots:
            if opts.ante_pot:
                ledger = ledger.transfer(stock(s), pot(name), opts.ante_pot)
        if opts.ante_tail:
            ledger = ledger.transfer(stock(s), pot(TAIL), opts.ante_tail)
        events.append(AntePaid(s, opts.ante, ledger.snapshot()))
    new = dataclasses.replace(state, ledger=ledger, out=frozenset(out), reserves=tuple(reserves),
                              since_ante=frozenset())
    return new, events


def _undealt(state: CometState) -> tuple[Card, ...]:
    """The deck minus the cards held in reserve."""
    held = Counter(c for r in state.reserves for c in r)
    return tuple((Counter(state.options.cards) - held).elements())


def _start_play(state: CometState, dealt: tuple[tuple[Card, ...], ...], left: int):
    """Hands = dealt cards (plus reserves in a Tail round); the first turn is the dealer's left."""
    if state.tail_round:
        hands = tuple((*state.reserves[s], *dealt[s]) for s in range(state.seats))
        reserves: tuple[tuple[Card, ...], ...] = ((),) * state.seats
    else:
        hands, reserves = dealt, state.reserves
    new = dataclasses.replace(state, phase="play", hands=hands, reserves=reserves,
                              to_play=state.order[0], reserved=False)
    return new, (Dealt(tuple(len(h) for h in hands), left),)


def _split(state: CometState, name: str, scores: dict[int, int]):
    """Pay the pot to the highest positive score(s); odd chips stay in the pot."""
    best = max(scores.values(), default=0)
    winners = tuple(sorted(s for s, v in scores.items() if v == best)) if best > 0 else ()
    ledger, amount = state.ledger, state.ledger[pot(name)]
    each = amount // len(winners) if winners else 0
    for s in winners:
        if each:
            ledger = ledger.transfer(pot(name), stock(s), each)
    new = dataclasses.replace(state, ledger=ledger)
    shown = tuple(sorted(scores.items()))
    return new, winners, PotRevealed(name, shown, winners, each, ledger[pot(name)],
                                     ledger.snapshot())


def _reveal(state: CometState) -> tuple[CometState, tuple[Event, ...]]:
    """C2 / C3: score every pot, pay the winners, set next round's bonus cards, end the round."""
    events: list[Event] = []
    bonus = [0] * state.seats
    new = state
    if state.tail_round:
        totals: dict[int, int] = {}
        for p in state.sets:
            totals[p.seat] = totals.get(p.seat, 0) + score_set(p.cards)
        new, _, event = _split(new, TAIL, totals)
        events.append(event)
    else:
        for name in state.options.pots:
            scores = {p.seat: score_set(p.cards) for p in state.sets if p.pot == name}
            new, winners, event = _split(new, name, scores)
            events.append(event)
            for s, score in scores.items():
                earned = s in winners if state.options.bonus_per == "pot_won" else score > 0
                bonus[s] += earned
    new = dataclasses.replace(
        new, phase="between", to_play=None, hands=((),) * state.seats, sets=(),
        bonus=tuple(bonus), reserved=False,
        since_ante=state.since_ante | {state.dealer}, has_dealt=state.has_dealt | {state.dealer},
    )
    if state.options.rounds and new.round >= state.options.rounds:
        new, over = _match_over(new, "rounds")
        events.append(over)
    return new, tuple(events)


def _match_over(state: CometState, reason: EndReason) -> tuple[CometState, MatchOver]:
    new = dataclasses.replace(state, phase="over", to_play=None, end=reason)
    return new, MatchOver(reason, tuple(new.chips(s) for s in range(state.seats)))
