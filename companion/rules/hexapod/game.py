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

Table mode (the camera referee): real cards were shuffled and stacked at the table, so the engine
knows neither the stacks nor the hands, only what lands in the display cases. `TableStart` opens
such a game; a turn is then `TablePlay(seat, rows, col, row)` (a card read by its cells, checked
against P2, against the deck — some card showing exactly these cells must still be unplaced — and
against the turn order), `TableCoin(seat)` (a coin spent; which stacks it touched is not tracked)
followed by `TablePlay` or `EndTurn`, or `Pass`; `TableSpider(seat)` reports that the Spider
showed during `seat`'s turn. Settled for this mode where RULES.md is silent:

* The starting picks (P3) change nothing the referee can check, so play opens at once with the
  first seat to play; stacks, hands and draws are the players' business (whether the card placed
  was the one drawn or the one held cannot be checked, and is not).
* The game ends only as P3 says: both seats passed, or the Spider reported and its turns played.
* A card is identified by its cells; if two deck cards showed the same cells, the first unplaced
  one in deck order is recorded (they are indistinguishable to the camera and to P4).
* `TableSpider(seat)` during `seat`'s turn means that seat finishes the turn and the opponent
  (unless passed) takes the final turn (P3). Reported right after `seat`'s turn ended (a placement
  ends a turn before anyone can press a button), the finishing turn is the one just played and
  the seat now to play takes the final turn. When the opponent has passed, the seat to play is
  also the one that played last: the report then counts for the current turn.
* Tracked actions (`Shuffle`/`Deal` excepted, which start a tracked game) are refused in table
  mode and table actions in a tracked game, each with the reason.
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
from ..options import check_names, check_seat, display_names, is_whole
from ..options import display_name as _n
from .cards import SPIDER, Card, Grid, check_grid, unique_names
from .case import check_placement, empty_case, legal_positions, place
from .scoring import CaseScore, score_case

__all__ = [
    "CardAlreadyPlaced",
    "CardLaid",
    "CardNotAvailable",
    "CoinAlreadySpent",
    "CoinSpent",
    "CoinUsed",
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
    "SpiderAlreadyShown",
    "SpiderCalled",
    "SpiderNotPlayable",
    "SpiderRevealed",
    "StacksLaid",
    "StartTaken",
    "TableCoin",
    "TableOpened",
    "TablePlay",
    "TableSpider",
    "TableStart",
    "TakeStart",
    "TurnEnded",
    "UnknownCard",
    "WrongMode",
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


class WrongMode(IllegalAction):
    """A table-mode action in a tracked game, or a tracked action in a table-mode game."""

    code = "wrong_mode"


class UnknownCard(IllegalAction):
    """Table mode: no card of the deck shows these cells (a misread or a foreign card)."""

    code = "unknown_card"


class CardAlreadyPlaced(IllegalAction):
    """Table mode: every deck card showing these cells already lies in a case."""

    code = "card_placed"


class SpiderAlreadyShown(IllegalAction):
    """Table mode: the Spider was reported once already."""

    code = "spider_shown"


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
        where = "Hexapod options"

        def bad(msg: str) -> None:
            raise MalformedMessage(f"{where}: {msg}")

        for name in ("card_cols", "card_rows", "case_cols", "case_rows"):
            value = getattr(self, name)
            if not is_whole(value) or value < 1:
                bad(f"{name} must be a positive whole number, got {value!r}")
        if self.case_cols < self.card_cols or self.case_rows < self.card_rows:
            bad("the display case must be at least as large as a card")
        if not is_whole(self.coins) or self.coins < 0:
            bad(f"coins must be 0 or more, got {self.coins!r}")
        check_seat(where, "first", self.first, SEATS)
        check_names(where, self.names, SEATS)
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
        return display_names(self.names, SEATS)


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
    tracked: bool = True
    laid: tuple[tuple[tuple[str, int, int], ...], ...] = ((), ())  # per seat (card, col, row)
    last: int | None = None  # the seat whose turn ended last

    def unplaced(self) -> tuple[str, ...]:
        """Names of the deck cards in no case, in deck order."""
        used = {name for seat in self.laid for name, _, _ in seat}
        return tuple(card.name for card in self.options.deck if card.name not in used)

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


@message("hexapod.table_start")
class TableStart(Action):
    """Table mode: the players shuffled and laid real stacks; the engine tracks the cases only."""


@message("hexapod.table_play")
class TablePlay(Action):
    """Table mode: `seat` placed the card showing `rows` (top to bottom) with its top-left at
    col, row (a whole turn)."""

    seat: int
    rows: tuple[tuple[str, ...], ...]
    col: int
    row: int


@message("hexapod.table_coin")
class TableCoin(Action):
    """Table mode: `seat` spent a coin to move a stack's top card (then plays or ends the turn)."""

    seat: int


@message("hexapod.table_spider")
class TableSpider(Action):
    """Table mode: the Spider showed in `seat`'s turn (the current one or the one just ended)."""

    seat: int


# ---------------------------------------------------------------------------------------------
# Events


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


@message("hexapod.table_opened")
class TableOpened(Event):
    """A table-mode game began: the stacks are on the table, `first` plays first."""

    first: int

    def announce(self, names: Sequence[str]) -> str:
        return (f"Hexapod at the table: take your starting cards; {_n(names, self.first)} "
                "plays first")


@message("hexapod.card_laid")
class CardLaid(Event):
    """Table mode: a card landed in a case; `score` is the seat's total now, `gain` the change."""

    seat: int
    card: str
    col: int
    row: int
    score: int
    gain: int

    def announce(self, names: Sequence[str]) -> str:
        change = f"+{self.gain}" if self.gain >= 0 else f"{self.gain}"
        return (f"{_n(names, self.seat)} places {self.card} at column {self.col + 1}, row "
                f"{self.row + 1}: {change}, {self.score} points")


@message("hexapod.coin_used")
class CoinUsed(Event):
    """Table mode: a seat spent a coin."""

    seat: int
    coins_left: int

    def announce(self, names: Sequence[str]) -> str:
        return f"{_n(names, self.seat)} spends a coin ({self.coins_left} left)"


@message("hexapod.spider_called")
class SpiderCalled(Event):
    """Table mode: the Spider showed in `seat`'s turn; `final` takes the last turn (if any)."""

    seat: int
    finished: bool   # True: that turn has already ended
    final: int | None

    def announce(self, names: Sequence[str]) -> str:
        who = _n(names, self.seat)
        if self.finished:
            then = (f"{_n(names, self.final)} takes a final turn" if self.final is not None
                    else "the game ends")
            return f"The Spider showed in {who}'s turn: {then}"
        then = (f", then {_n(names, self.final)} takes a final turn"
                if self.final is not None else "")
        return f"The Spider shows! {who} finishes this turn{then}"


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
        """Every decision open to the seat to play (table mode: also the Spider report for the
        turn that just ended, which another seat may make)."""
        seat = state.to_play
        if seat is None:
            return []
        if state.phase == "start":
            return [TakeStart(seat, s) for s in state.drawable()]
        if state.phase != "play":
            return []
        if not state.tracked:
            return self._table_actions(state, seat)
        out: list[Action] = list(self._plays(state, seat))
        if state.coin_spent:
            return [*out, EndTurn(seat)]
        if state.coins[seat] > 0:
            out.extend(SpendCoin(seat, a, b) for a in range(STACKS) for b in range(STACKS)
                       if a != b and state.stacks[a])
        return [*out, Pass(seat)]

    def _table_actions(self, state: HexapodState, seat: int) -> list[Action]:
        cards = state.options.cards
        out: list[Action] = [
            TablePlay(seat, cards[name].rows, col, row)
            for name in state.unplaced()
            for col, row in legal_positions(state.cases[seat], cards[name])
        ]
        if not state.spider:
            # the Spider may be reported in this turn or for the turn that just ended (P3)
            out.extend(TableSpider(s) for s in dict.fromkeys((seat, state.last))
                       if s is not None)
        if state.coin_spent:
            return [*out, EndTurn(seat)]
        if state.coins[seat] > 0:
            out.append(TableCoin(seat))
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
        _require_tracked(state, a, True)
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
            laid=replace_at(state.laid, seat, (*state.laid[seat], (a.card, col, row))),
        )
        played = Played(seat, stack, drawn, a.card, col, row, new.score(seat).total)
        new, revealed = _check_spider(new)
        new, after = _end_turn(new, seat)
        return new, (played, *revealed, *after)

    def _spend_coin(self, state: HexapodState, a: SpendCoin):
        _require_phase(state, a, "play")
        _require_tracked(state, a, True)
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


    # -- table mode ----------------------------------------------------------------------------

    def _table_start(self, state: HexapodState, a: TableStart):
        _require_phase(state, a, "setup")
        first = state.options.first
        new = dataclasses.replace(state, phase="play", tracked=False, to_play=first)
        return new, (TableOpened(first),)

    def _table_play(self, state: HexapodState, a: TablePlay):
        _require_phase(state, a, "play")
        _require_tracked(state, a, False)
        seat = _check_seat(state, a.seat)
        card = _unplaced_card(state, a.rows)
        col, row = _whole(a.col, "col"), _whole(a.row, "row")
        check_placement(state.cases[seat], card, col, row)
        before = state.score(seat).total
        new = dataclasses.replace(
            state,
            cases=replace_at(state.cases, seat, place(state.cases[seat], card, col, row)),
            placed=replace_at(state.placed, seat, state.placed[seat] + 1),
            laid=replace_at(state.laid, seat, (*state.laid[seat], (card.name, col, row))),
        )
        after = new.score(seat).total
        new, ended = _end_turn(new, seat)
        return new, (CardLaid(seat, card.name, col, row, after, after - before), *ended)

    def _table_coin(self, state: HexapodState, a: TableCoin):
        _require_phase(state, a, "play")
        _require_tracked(state, a, False)
        seat = _check_seat(state, a.seat)
        if state.coin_spent:
            raise CoinAlreadySpent("one coin per turn: now place a card or end the turn")
        if state.coins[seat] <= 0:
            raise NoCoins(f"{state.options.seat_names[seat]} has no coin left: play or pass")
        coins = replace_at(state.coins, seat, state.coins[seat] - 1)
        new = dataclasses.replace(state, coins=coins, coin_spent=True)
        return new, (CoinUsed(seat, coins[seat]),)

    def _table_spider(self, state: HexapodState, a: TableSpider):
        _require_phase(state, a, "play")
        _require_tracked(state, a, False)
        seat = a.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise MalformedMessage(f"seat must be 0 or 1, got {seat!r}")
        if state.spider:
            raise SpiderAlreadyShown("the Spider has already been reported in this game")
        other = 1 - seat
        final = None if other in state.passed else other
        if seat == state.to_play:
            new = dataclasses.replace(state, spider=True, ending="finish")
            return new, (SpiderCalled(seat, False, final),)
        if seat == state.last:
            # The finishing turn is the one just ended: the seat now to play takes the last turn.
            new = dataclasses.replace(state, spider=True, ending="final")
            return new, (SpiderCalled(seat, True, final),)
        names = state.options.seat_names
        raise IllegalAction(
            f"report the Spider during the turn it showed in or right after it: it is "
            f"{names[state.to_play or 0]}'s turn and {names[seat]} has not played since"
        )


_HANDLERS = {
    Shuffle: HexapodGame._shuffle,
    Deal: HexapodGame._deal,
    TakeStart: HexapodGame._take_start,
    Play: HexapodGame._play,
    SpendCoin: HexapodGame._spend_coin,
    EndTurn: HexapodGame._end_turn,
    Pass: HexapodGame._pass,
    TableStart: HexapodGame._table_start,
    TablePlay: HexapodGame._table_play,
    TableCoin: HexapodGame._table_coin,
    TableSpider: HexapodGame._table_spider,
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


def _require_tracked(state: HexapodState, action: Action, tracked: bool) -> None:
    if state.tracked == tracked:
        return
    name = type(action).__name__
    if tracked:
        raise WrongMode(f"{name} needs the stacks, but this game is played at the table (the "
                        "engine sees only the cases): use TablePlay, TableCoin, EndTurn or Pass")
    raise WrongMode(f"{name} is for games played at the table; in this game the engine tracks "
                    "the stacks: use Play, SpendCoin, EndTurn or Pass")


def _unplaced_card(state: HexapodState, rows: object) -> Card:
    """The first deck card showing exactly `rows` that lies in no case yet."""
    if not isinstance(rows, tuple) or not all(
            isinstance(r, tuple) and all(isinstance(c, str) for c in r) for r in rows):
        raise MalformedMessage(f"rows must be rows of cell codes, got {rows!r}")
    opts = state.options
    check_grid(rows, "the card placed", allow_empty=False)
    if (len(rows[0]), len(rows)) != (opts.card_cols, opts.card_rows):
        raise MalformedMessage(f"a card is {opts.card_cols}x{opts.card_rows} cells, these rows "
                               f"are {len(rows[0])}x{len(rows)}")
    matches = [card for card in opts.deck if card.rows == rows]
    text = "/".join(" ".join(r) for r in rows)
    if not matches:
        raise UnknownCard(f"no card of the deck shows {text}: a misread or a foreign card?")
    free = set(state.unplaced())
    card = next((c for c in matches if c.name in free), None)
    if card is None:
        raise CardAlreadyPlaced(f"{matches[0].name} ({text}) already lies in a case and the deck "
                                "has no other card like it")
    return card


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
    state = dataclasses.replace(state, coin_spent=False, turns=state.turns + 1, last=seat)
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
