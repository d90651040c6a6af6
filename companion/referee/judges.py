"""What the referee needs to know about one game: a `Judge` per game, chosen by its store name.

The `Referee` is game-neutral machinery (the store, replay, confirm / undo / auto-confirm, the
bus). A judge supplies the rest: the rules engine and options type, how a stable observation
becomes a proposal (Hex'el: `proposal.propose`, aligning the camera lattice and remembering the
alignment; Hexapod: `hexapod_proposal.judge_cases`, diffing the display cases), the scoreboard's
view of the state and the big word of each committed action, what the NEXT button does, and the
actions that open a new match. `judge_for(name)` and `judge_for_options(options)` pick one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from ..rules.core import Action, Event
from ..rules.hexapod import GAME as HEXAPOD
from ..rules.hexapod import HexapodOptions, HexapodState, load_deck
from ..rules.hexapod.game import EndTurn, TableStart
from ..rules.hexel import GAME as HEXEL
from ..rules.hexel import HexelOptions, HexelState
from ..rules.hexel.game import Discard, Hedge, NextGame, Place, Shuffle
from . import hexapod_view, view
from .align import Alignment
from .hexapod_proposal import judge_cases
from .proposal import Proposal, propose

__all__ = ["NEW_MATCH", "HexapodJudge", "HexelJudge", "Judge", "hexapod_options", "judge_for",
           "judge_for_options"]

NEW_MATCH = "new_match"  # `next_actions` answer: start the next game with the same options


class ProposalLike(Protocol):
    """What the referee reads of a proposal."""

    kind: str
    message: str
    action: Action | None
    legal: bool
    error: str | None

    @property
    def key(self) -> str: ...
    def to_view(self, names: Sequence[str] = ()) -> dict: ...


class Judge(Protocol):
    """One game's part of the referee (see the module docstring)."""

    name: str
    title: str
    game: Any
    options_type: type

    def reset(self) -> None: ...
    def propose(self, state: Any, observation: Any, min_confidence: float) -> ProposalLike: ...
    def game_view(self, state: Any, game_id: int | None) -> dict: ...
    def headline(self, events: Sequence[Event], names: Sequence[str]
                 ) -> tuple[str, str | None]: ...
    def next_actions(self, state: Any, default_hedge: int) -> list[Action] | str: ...
    def opening(self, options: Any, start: str, seed: int) -> tuple[list[Action], str]: ...
    def match_line(self, options: Any) -> str: ...


class HexelJudge:
    """Hex'el (RULES.md H): hex cards on one layout, aligned to the camera lattice."""

    name = "hexel"
    title = "Hex'el"
    game = HEXEL
    options_type = HexelOptions

    def __init__(self) -> None:
        self._alignment: Alignment | None = None

    def reset(self) -> None:
        """Forget the camera alignment (a new match or another camera)."""
        self._alignment = None

    def propose(self, state: HexelState, observation: Any, min_confidence: float) -> Proposal:
        """`proposal.propose`, preferring the alignment of the previous judgement."""
        if not hasattr(observation, "cards"):
            return Proposal("problem", "The camera reports Hexapod display cases, but the match "
                                       "is Hex'el: is the reader set to the right game?")
        p = propose(state, observation, min_confidence=min_confidence, prefer=self._alignment)
        if p.alignment is not None:
            self._alignment = p.alignment
        return p

    def game_view(self, state: HexelState, game_id: int | None) -> dict:
        """`view.game_view` tagged with the game's name."""
        return {"game": self.name, **view.game_view(state, game_id)}

    def headline(self, events: Sequence[Event], names: Sequence[str]) -> tuple[str, str | None]:
        """Hexba ... Hox'la!, Bust!, a win."""
        return view.headline(events, names)

    def next_actions(self, state: HexelState, default_hedge: int) -> list[Action] | str:
        """NEXT: a face-down discard for a seat that cannot place, default stakes, next game."""
        names = state.options.seat_names
        if state.phase == "play":
            seat = state.to_play
            assert seat is not None
            if not state.tracked:
                return [Discard(seat, None)]
            legal = HEXEL.legal_actions(state)
            if any(isinstance(a, Place) for a in legal):
                return f"{names[seat]} holds a card that fits: no discard."
            return [legal[0]]
        if state.phase == "stake":
            out: list[Action] = [Hedge(s, min(default_hedge,
                                              state.ledger[f"stock:{s}"] // state.stake))
                                 for s in state.in_game if s not in state.hedged]
            return out or "Nobody left to stake."
        if state.phase == "over":
            return [NextGame()]
        return "Lay the opening line and press CONFIRM."

    def opening(self, options: HexelOptions, start: str, seed: int) -> tuple[list[Action], str]:
        """`shuffle`: the engine shuffles and deals; `camera`: the dealer lays the line."""
        if start == "shuffle":
            return [Shuffle(seed)], ""
        return [], "New match: dealer, lay the opening line."

    def match_line(self, options: HexelOptions) -> str:
        """The history line of a new match."""
        return f"New match: {', '.join(options.seat_names)}; stake {options.stake}"


class HexapodJudge:
    """Hexapod (RULES.md P) played at the table: two display cases read by the camera."""

    name = "hexapod"
    title = "Hexapod"
    game = HEXAPOD
    options_type = HexapodOptions

    def reset(self) -> None:
        """Nothing to forget: every case is judged on its own."""

    def propose(self, state: HexapodState, observation: Any, min_confidence: float) -> Any:
        """`hexapod_proposal.judge_cases`."""
        return judge_cases(state, observation, min_confidence=min_confidence)

    def game_view(self, state: HexapodState, game_id: int | None) -> dict:
        """`hexapod_view.game_view`."""
        return hexapod_view.game_view(state, game_id)

    def headline(self, events: Sequence[Event], names: Sequence[str]) -> tuple[str, str | None]:
        """The points a card gained, Coin, Pass, Spider!, the winner."""
        return hexapod_view.headline(events, names)

    def next_actions(self, state: HexapodState, default_hedge: int) -> list[Action] | str:
        """NEXT: end the turn after a coin; after the game, start the next one."""
        if state.phase == "over":
            return NEW_MATCH
        if state.phase == "play" and state.coin_spent and state.to_play is not None:
            return [EndTurn(state.to_play)]
        return ("NEXT ends a turn after a coin. To spend a coin, pass (out for the rest of the "
                "game) or report the Spider, use the admin page.")

    def opening(self, options: HexapodOptions, start: str, seed: int) -> tuple[list[Action], str]:
        """Hexapod at the table opens in table mode (the camera sees the cases only); the
        engine cannot shuffle the real cards, so `shuffle` is refused."""
        if start != "camera":
            raise ValueError("a Hexapod game at the table starts with start='camera': the "
                             "players shuffle and stack the real cards")
        return [TableStart()], ""

    def match_line(self, options: HexapodOptions) -> str:
        """The history line of a new match."""
        return (f"New Hexapod game: {' and '.join(options.seat_names)}, {options.coins} coins "
                "each")


JUDGES: dict[str, type] = {"hexel": HexelJudge, "hexapod": HexapodJudge}
HEXAPOD_DECK = Path(__file__).resolve().parents[2] / "models" / "hexapod-deck.json"


def hexapod_options(names: Sequence[str] = (), coins: int = 3, first: int = 0,
                    deck: str | Path | None = None) -> HexapodOptions:
    """Options of a Hexapod game with the shipped deck (`models/hexapod-deck.json`) or `deck`;
    raises `RulesError` for bad values."""
    return HexapodOptions(deck=load_deck(deck or HEXAPOD_DECK), names=tuple(names),
                          coins=coins, first=first)


def judge_for(name: str) -> Judge:
    """A fresh judge for the game stored as `name`; ValueError for a game we cannot referee."""
    try:
        return JUDGES[name]()
    except KeyError:
        raise ValueError(f"the referee plays {' and '.join(JUDGES)}, not {name!r}") from None


def judge_for_options(options: object) -> Judge:
    """A fresh judge for a match with these options."""
    for cls in JUDGES.values():
        if isinstance(options, cls.options_type):
            return cls()
    raise ValueError(f"the referee cannot play a match with {type(options).__name__}")
