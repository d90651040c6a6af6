"""Hexapod as a pure state machine: stacks, starting cards, turns, coins, the Spider and the end.

Implements RULES.md P1 and P3 on top of `case` (P2) and `scoring` (P4), for two seats. A game
starts with `Shuffle(seed)` (the engine builds the stacks as P1 describes) or `Deal(stacks)` (the
stacks as laid at a real table or in a test, top card first). Each seat then takes a starting card
(`TakeStart`), the first seat first. A turn is `Play` (take the top card of a stack and place one of
the two cards in hand), `SpendCoin` (move a stack's top card onto another stack) followed by `Play`
or `EndTurn`, or `Pass`. Settled here where RULES.md is silent:

* The nine cards holding the Spider go on top of the *face-down* stacks, which are then turned face
  up, so the Spider lies among the bottom three cards of one stack (as the rule text says).
* "Revealed" means the Spider becomes the top card of a stack. It is not an insect: it can never be
  drawn, but a coin may move it like any top card; the game ends all the same.
* At most one coin per turn; the target stack may be empty; `Pass` is a whole turn (not allowed
  after spending a coin: play or end the turn instead). A seat may draw only as part of `Play`, so
  a draw always ends in a legal placement (stack tops are face up, the choice is informed).
* If the Spider shows during the starting picks, the first seat's first turn is the one that
  finishes; the other seat then takes the final turn.
* A seat that has passed takes no final turn. A seat whose opponent has passed keeps taking turns.
* The higher P4 total wins; equal totals share the win (`winners` lists both seats).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
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
from .cards import SPIDER, Card, Grid, unique_names
from .case import check_placement, empty_case, legal_positions, place
from .scoring import CaseScore, score_case

__all__ = [
    "CardNotAvailable",
    "CoinAlreadySpent",
    "CoinSpent",
    "Deal",
    "EmptyStack",
    "EndTurn",
    "GameOver",
    "HexapodGame",
    "HexapodOptions",
    "HexapodState",
    "NoCoins",
    "Pass",
    "Passed",
    "Play",
    "Played",
    "Shuffle",
    "SpendCoin",
    "SpiderNotPlayable",
    "SpiderRevealed",
    "StacksLaid",
    "StartTaken",
    "TakeStart",
    "TurnEnded",
]

SEATS = 2
STACKS = 3
SPIDER_GROUP = 3 * STACKS - 1  # insect cards shuffled with the Spider (8 in the standard deck)

Phase = Literal["setup", "start", "play", "over"]
Ending = Literal["finish", "final"]
EndReason = Literal["spider", "passed"]


class EmptyStack(IllegalAction):
    """The stack named has no card."""

    code = "empty_stack"


class SpiderNotPlayable(IllegalAction):
    """The Spider is on top of that stack: it cannot be drawn."""

    code = "spider_not_playable"


class CardNotAvailable(IllegalAction):
    """The card to place is neither the drawn card nor the card in hand."""

    code = "card_not_available"


class NoCoins(IllegalAction):
    """The seat has no coin left to spend."""

    code = "no_coins"


class CoinAlreadySpent(IllegalAction):
    """A second coin in one turn, or a pass after spending one."""

    code = "coin_already_spent"


# ---------------------------------------------------------------------------------------------
# Options and state


@dataclass(frozen=True)
class HexapodOptions:
    """A game of Hexapod: the insect cards, card and case geometry, coins, first seat, names."""

    deck: tuple[Card, ...] = ()
    card_cols: int = 2
    card_rows: int = 3
    case_cols: int = 6
    case_rows: int = 6
    coins: int = 3
    first: int = 0
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        def bad(msg: str) -> None:
            raise MalformedMessage(f"Hexapod options: {msg}")

        for name in ("card_cols", "card_rows", "case_cols", "case_rows"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                bad(f"{name} must be a positive whole number, got {value!r}")
        if self.case_cols < self.card_cols or self.case_rows < self.card_rows:
            bad("the display case must be at least as large as a card")
        if isinstance(self.coins, bool) or not isinstance(self.coins, int) or self.coins < 0:
            bad(f"coins must be 0 or more, got {self.coins!r}")
        if self.first not in (0, 1) or isinstance(self.first, bool):
            bad(f"first must be seat 0 or 1, got {self.first!r}")
        if self.names and len(self.names) != SEATS:
            bad(f"names lists {len(self.names)} names for {SEATS} seats")
        if not self.deck:
            bad("no deck: pass deck=load_deck('models/hexapod-deck.json') or your own cards")
        if len(self.deck) < SPIDER_GROUP + STACKS or (len(self.deck) - SPIDER_GROUP) % STACKS:
            bad(f"a deck holds {SPIDER_GROUP} + a multiple of {STACKS} insect cards "
                f"(41 in the published game), got {len(self.deck)}")
        unique_names(self.deck)
        for card in self.deck:
            if (card.cols, card.height) != (self.card_cols, self.card_rows):
                bad(f"card {card.name} is {card.cols}x{card.height} cells, the options say "
                    f"{self.card_cols}x{self.card_rows}")

    @cached_property
    def cards(self) -> dict[str, Card]:
        """The insect cards by name."""
        return {card.name: card for card in self.deck}

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Display names (default "Seat 1", "Seat 2")."""
        return self.names or tuple(f"Seat {i + 1}" for i in range(SEATS))


@dataclass(frozen=True)
class HexapodState:
    """Everything about a game of Hexapod at one moment. Derive, never mutate."""

    options: HexapodOptions
    phase: Phase = "setup"
    stacks: tuple[tuple[str, ...], ...] = ()
    hands: tuple[tuple[str, ...], ...] = ((), ())
    cases: tuple[Grid, ...] = ()
    coins: tuple[int, ...] = ()
    to_play: int | None = None
    coin_spent: bool = False
    passed: frozenset[int] = frozenset()
    spider: bool = False
    ending: Ending | None = None
    turns: int = 0
    placed: tuple[int, ...] = (0, 0)
    end: EndReason | None = None
    winners: tuple[int, ...] = ()

    def score(self, seat: int) -> CaseScore:
        """The P4 score of a seat's case with its unspent coins, at this moment."""
        return score_case(self.cases[seat], self.coins[seat])

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's current total."""
        return tuple(self.score(s).total for s in range(SEATS))

    def tops(self) -> tuple[str | None, ...]:
        """The visible top card of each stack (None for an empty stack)."""
        return tuple(stack[0] if stack else None for stack in self.stacks)

    def drawable(self) -> tuple[int, ...]:
        """Stacks whose top card may be drawn (not empty, not the Spider)."""
        return tuple(i for i, top in enumerate(self.tops()) if top is not None and top != SPIDER)


# ---------------------------------------------------------------------------------------------
# Actions


@message("hexapod.shuffle")
class Shuffle(Action):
    """Shuffle with `seed` and build the three stacks as P1 describes (engine knows every card)."""

    seed: int


@message("hexapod.deal")
class Deal(Action):
    """The three stacks as laid, each listed from its visible top card down."""

    stacks: tuple[tuple[str, ...], ...]


@message("hexapod.take_start")
class TakeStart(Action):
    """Take the top card of `stack` (0-2) as the starting hand."""

    seat: int
    stack: int


@message("hexapod.play")
class Play(Action):
    """Draw the top of `stack`, then place `card` (drawn or held) with its top-left at col, row."""

    seat: int
    stack: int
    card: str
    col: int
    row: int


@message("hexapod.spend_coin")
class SpendCoin(Action):
    """Spend a coin: move the top card of stack `source` onto stack `target`."""

    seat: int
    source: int
    target: int


@message("hexapod.end_turn")
class EndTurn(Action):
    """After spending a coin, end the turn without drawing."""

    seat: int


@message("hexapod.pass")
class Pass(Action):
    """Pass: out for the rest of the game."""

    seat: int


# ---------------------------------------------------------------------------------------------
# Events


def _n(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


@message("hexapod.stacks_laid")
class StacksLaid(Event):
    """The three stacks are face up."""

    tops: tuple[str | None, ...]
    sizes: tuple[int, ...]

    def announce(self, names: Sequence[str]) -> str:
        sizes = ", ".join(map(str, self.sizes))
        return f"Three stacks laid ({sizes} cards): choose your starting cards"


@message("hexapod.start_taken")
class StartTaken(Event):
    """A seat took its starting card."""

    seat: int
    stack: int
    card: str

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} starts with {self.card} from stack {self.stack + 1}"


@message("hexapod.played")
class Played(Event):
    """A card was drawn and one card placed; `score` is the seat's total now."""

    seat: int
    stack: int
    drawn: str
    card: str
    col: int
    row: int
    score: int

    def announce(self, names: Sequence[str]) -> str:
        return (f"{_n(names, self.seat)} draws {self.drawn} from stack {self.stack + 1} and "
                f"places {self.card} at column {self.col + 1}, row {self.row + 1}: "
                f"{self.score} points")


@message("hexapod.coin_spent")
class CoinSpent(Event):
    """A coin moved a top card from one stack to another."""

    seat: int
    source: int
    target: int
    card: str
    coins_left: int

    def announce(self, names: Sequence[str]) -> str:
        return (f"{_n(names, self.seat)} spends a coin: {self.card} moves from stack "
                f"{self.source + 1} to stack {self.target + 1} ({self.coins_left} coins left)")


@message("hexapod.turn_ended")
class TurnEnded(Event):
    """A seat ended its turn after a coin without drawing."""

    seat: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} ends the turn without drawing"


@message("hexapod.passed")
class Passed(Event):
    """A seat passed and is out for the rest of the game."""

    seat: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} passes and is out of the game"


@message("hexapod.spider_revealed")
class SpiderRevealed(Event):
    """The Spider shows: `finisher` completes this turn, then `final` (if any) takes a last turn."""

    stack: int
    finisher: int
    final: int | None

    def announce(self, names: Sequence[str]) -> str:
        then = (f", then {_n(names, self.final)} takes a final turn"
                if self.final is not None else "")
        return (f"The Spider shows on stack {self.stack + 1}! {_n(names, self.finisher)} "
                f"finishes this turn{then}")


@message("hexapod.game_over")
class GameOver(Event):
    """The game has ended; the P4 totals and the winning seat(s)."""

    reason: EndReason
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def announce(self, names: Sequence[str]) -> str:
        totals = ", ".join(f"{_n(names, s)} {p}" for s, p in enumerate(self.scores))
        if len(self.winners) == 1:
            return f"Game over: {totals}. {_n(names, self.winners[0])} wins"
        return f"Game over: {totals}. A tie: the win is shared"


# ---------------------------------------------------------------------------------------------
# The game


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMessage(f"{what} must be a whole number, got {value!r}")
    return value


def _require_phase(state: HexapodState, action: Action, *phases: str) -> None:
    require_phase(state.phase, action, *phases)


class HexapodGame:
    """The Hexapod rules (RULES.md P1-P5) behind the common game protocol."""

    name = "hexapod"
    options_type = HexapodOptions

    # -- protocol ----------------------------------------------------------------------------

    def initial_state(self, options: HexapodOptions) -> HexapodState:
        """Empty cases, full purses, the stacks about to be laid."""
        case = empty_case(options.case_cols, options.case_rows)
        return HexapodState(options=options, cases=(case,) * SEATS, coins=(options.coins,) * SEATS)

    def is_over(self, state: HexapodState) -> bool:
        """True once the game is scored."""
        return state.phase == "over"

    def chance_action(self, state: HexapodState, rng: random.Random) -> Action | None:
        """A seeded shuffle while the stacks wait to be laid."""
        if state.phase == "setup":
            return Shuffle(seed=rng.getrandbits(32))
        return None

    def legal_actions(self, state: HexapodState) -> list[Action]:
        """Every decision open to the seat to play."""
        seat = state.to_play
        if seat is None:
            return []
        if state.phase == "start":
            return [TakeStart(seat, s) for s in state.drawable()]
        if state.phase != "play":
            return []
        out: list[Action] = list(self._plays(state, seat))
        if state.coin_spent:
            return [*out, EndTurn(seat)]
        if state.coins[seat] > 0:
            out.extend(SpendCoin(seat, a, b) for a in range(STACKS) for b in range(STACKS)
                       if a != b and state.stacks[a])
        return [*out, Pass(seat)]

    def _plays(self, state: HexapodState, seat: int):
        case = state.cases[seat]
        for s in state.drawable():
            top = state.stacks[s][0]
            for name in dict.fromkeys((top, *state.hands[seat])):
                for col, row in legal_positions(case, state.options.cards[name]):
                    yield Play(seat, s, name, col, row)

    def apply(self, state: HexapodState, action: Action) -> tuple[HexapodState, tuple[Event, ...]]:
        """Apply one action; raises a `RulesError` subclass and changes nothing if refused."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise MalformedMessage(f"{type(action).__name__} is not a Hexapod action")
        return handler(self, state, action)

    # -- setup (P1) ----------------------------------------------------------------------------

    def _shuffle(self, state: HexapodState, a: Shuffle):
        _require_phase(state, a, "setup")
        rng = random.Random(_whole(a.seed, "seed"))
        names = [card.name for card in state.options.deck]
        rng.shuffle(names)
        group = [*names[:SPIDER_GROUP], SPIDER]
        rng.shuffle(group)
        rest = names[SPIDER_GROUP:]
        size = len(rest) // STACKS
        stacks = tuple(
            tuple(rest[i * size:(i + 1) * size] + group[i * 3:(i + 1) * 3]) for i in range(STACKS)
        )
        return self._lay(state, stacks)

    def _deal(self, state: HexapodState, a: Deal):
        _require_phase(state, a, "setup")
        stacks = a.stacks
        if not isinstance(stacks, tuple) or len(stacks) != STACKS:
            raise MalformedMessage(f"a deal lists {STACKS} stacks, top card first")
        dealt = sorted(name for stack in stacks for name in stack)
        wanted = sorted([*state.options.cards, SPIDER])
        if dealt != wanted:
            raise MalformedMessage(
                "the stacks must hold every card of the deck and the Spider exactly once "
                f"({len(wanted)} cards; got {len(dealt)})"
            )
        return self._lay(state, stacks)

    def _lay(self, state: HexapodState, stacks: tuple[tuple[str, ...], ...]):
        new = dataclasses.replace(state, phase="start", stacks=stacks, to_play=state.options.first)
        events: list[Event] = [StacksLaid(new.tops(), tuple(len(s) for s in stacks))]
        new, revealed = _check_spider(new)
        new, skipped = _start_picker(new)
        return new, (*events, *revealed, *skipped)

    def _take_start(self, state: HexapodState, a: TakeStart):
        _require_phase(state, a, "start")
        seat = _check_seat(state, a.seat)
        stack = _drawable_stack(state, a.stack)
        card = state.stacks[stack][0]
        new = dataclasses.replace(
            state,
            stacks=replace_at(state.stacks, stack, state.stacks[stack][1:]),
            hands=replace_at(state.hands, seat, (card,)),
        )
        new, revealed = _check_spider(new)
        new = dataclasses.replace(new, to_play=1 - seat if seat == state.options.first else None)
        new, after = _start_picker(new)
        return new, (StartTaken(seat, stack, card), *revealed, *after)

    # -- turns (P3) ----------------------------------------------------------------------------

    def _play(self, state: HexapodState, a: Play):
        _require_phase(state, a, "play")
        seat = _check_seat(state, a.seat)
        stack = _drawable_stack(state, a.stack)
        drawn = state.stacks[stack][0]
        hand = (*state.hands[seat], drawn)
        if a.card not in hand:
            raise CardNotAvailable(
                f"{a.card!r} is neither the card drawn ({drawn}) nor a card in "
                f"{state.options.seat_names[seat]}'s hand ({', '.join(state.hands[seat]) or '-'})"
            )
        col, row = _whole(a.col, "col"), _whole(a.row, "row")
        card = state.options.cards[a.card]
        check_placement(state.cases[seat], card, col, row)
        rest = list(hand)
        rest.remove(a.card)
        new = dataclasses.replace(
            state,
            stacks=replace_at(state.stacks, stack, state.stacks[stack][1:]),
            hands=replace_at(state.hands, seat, tuple(rest)),
            cases=replace_at(state.cases, seat, place(state.cases[seat], card, col, row)),
            placed=replace_at(state.placed, seat, state.placed[seat] + 1),
        )
        played = Played(seat, stack, drawn, a.card, col, row, new.score(seat).total)
        new, revealed = _check_spider(new)
        new, after = _end_turn(new, seat)
        return new, (played, *revealed, *after)

    def _spend_coin(self, state: HexapodState, a: SpendCoin):
        _require_phase(state, a, "play")
        seat = _check_seat(state, a.seat)
        if state.coin_spent:
            raise CoinAlreadySpent("one coin per turn: now draw and play, or end the turn")
        if state.coins[seat] <= 0:
            raise NoCoins(f"{state.options.seat_names[seat]} has no coin left: play or pass")
        source, target = _stack_index(a.source), _stack_index(a.target)
        if source == target:
            raise IllegalAction("a coin moves a card onto a different stack")
        if not state.stacks[source]:
            raise EmptyStack(f"stack {source + 1} is empty: there is no card to move")
        card = state.stacks[source][0]
        stacks = replace_at(state.stacks, source, state.stacks[source][1:])
        stacks = replace_at(stacks, target, (card, *stacks[target]))
        coins = replace_at(state.coins, seat, state.coins[seat] - 1)
        new = dataclasses.replace(state, stacks=stacks, coins=coins, coin_spent=True)
        new, revealed = _check_spider(new)
        return new, (CoinSpent(seat, source, target, card, coins[seat]), *revealed)

    def _end_turn(self, state: HexapodState, a: EndTurn):
        _require_phase(state, a, "play")
        seat = _check_seat(state, a.seat)
        if not state.coin_spent:
            raise IllegalAction("a turn ends by itself after a play: draw and play, spend a "
                                "coin or pass")
        new, after = _end_turn(state, seat)
        return new, (TurnEnded(seat), *after)

    def _pass(self, state: HexapodState, a: Pass):
        _require_phase(state, a, "play")
        seat = _check_seat(state, a.seat)
        if state.coin_spent:
            raise CoinAlreadySpent("after spending a coin, draw and play or end the turn")
        new = dataclasses.replace(state, passed=state.passed | {seat})
        new, after = _end_turn(new, seat)
        return new, (Passed(seat), *after)


_HANDLERS = {
    Shuffle: HexapodGame._shuffle,
    Deal: HexapodGame._deal,
    TakeStart: HexapodGame._take_start,
    Play: HexapodGame._play,
    SpendCoin: HexapodGame._spend_coin,
    EndTurn: HexapodGame._end_turn,
    Pass: HexapodGame._pass,
}


# ---------------------------------------------------------------------------------------------
# Helpers (pure)


def _check_seat(state: HexapodState, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise MalformedMessage(f"seat must be 0 or 1, got {seat!r}")
    if seat != state.to_play:
        names = state.options.seat_names
        raise WrongSeat(f"it is {names[state.to_play or 0]}'s turn, not {names[seat]}'s")
    return seat


def _stack_index(stack: object) -> int:
    if isinstance(stack, bool) or not isinstance(stack, int) or not 0 <= stack < STACKS:
        raise MalformedMessage(f"stack must be 0..{STACKS - 1}, got {stack!r}")
    return stack


def _drawable_stack(state: HexapodState, stack: object) -> int:
    index = _stack_index(stack)
    top = state.tops()[index]
    if top is None:
        raise EmptyStack(f"stack {index + 1} is empty: take from another stack")
    if top == SPIDER:
        raise SpiderNotPlayable(f"the Spider is on top of stack {index + 1}: it cannot be drawn")
    return index


def _check_spider(state: HexapodState) -> tuple[HexapodState, tuple[Event, ...]]:
    """If the Spider just became a top card, the game enters its final phase (P3)."""
    if state.spider or SPIDER not in state.tops():
        return state, ()
    stack = state.tops().index(SPIDER)
    finisher = state.to_play if state.phase == "play" else state.options.first
    assert finisher is not None
    final = None if (1 - finisher) in state.passed else 1 - finisher
    new = dataclasses.replace(state, spider=True, ending="finish")
    return new, (SpiderRevealed(stack, finisher, final),)


def _start_picker(state: HexapodState) -> tuple[HexapodState, tuple[Event, ...]]:
    """Skip pickers with nothing to take; open play once both seats have picked."""
    while state.to_play is not None and not state.drawable():
        first = state.options.first
        state = dataclasses.replace(state, to_play=1 - first if state.to_play == first else None)
    if state.to_play is not None:
        return state, ()
    return dataclasses.replace(state, phase="play", to_play=state.options.first), ()


def _end_turn(state: HexapodState, seat: int) -> tuple[HexapodState, tuple[Event, ...]]:
    """Who plays next, or the end of the game (P3)."""
    other = 1 - seat
    state = dataclasses.replace(state, coin_spent=False, turns=state.turns + 1)
    if state.ending == "finish" and other not in state.passed:
        return dataclasses.replace(state, to_play=other, ending="final"), ()
    if state.ending is not None:
        return _game_over(state, "spider")
    if other not in state.passed:
        return dataclasses.replace(state, to_play=other), ()
    if seat not in state.passed:
        return dataclasses.replace(state, to_play=seat), ()
    return _game_over(state, "passed")


def _game_over(state: HexapodState, reason: EndReason) -> tuple[HexapodState, tuple[Event, ...]]:
    scores = state.scores
    best = max(scores)
    winners = tuple(s for s in range(SEATS) if scores[s] == best)
    new = dataclasses.replace(state, phase="over", to_play=None, end=reason, winners=winners)
    return new, (GameOver(reason, scores, winners),)
