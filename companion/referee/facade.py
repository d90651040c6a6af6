"""The table as the web app sees it: the referee behind the narrow `companion.web.Table` facade.

`TableFacade` hands the web layer JSON views, live subscriptions and the latest camera JPEG, and
turns admin commands (a name plus the strings of a form) into referee calls and rules actions,
with a clear message for every malformed field. CONFIRM, UNDO, NEXT and a new match work for
every game; the other commands belong to the game being refereed (Hex'el: stakes, chips,
discards, a card placed by hand; Hexapod: coin, end of turn, pass, the Spider, a card placed by
hand) and are refused, with the reason, for the other game. The web layer never sees a rules
object.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from ..rules.core import RulesError
from ..rules.hexapod import HexapodOptions
from ..rules.hexapod.game import EndTurn, Pass, TableCoin, TablePlay, TableSpider
from ..rules.hexel import HexelOptions
from ..rules.hexel.game import BuyIn, CashOut, Hedge, NextGame, SetStake, TakeHandPot
from .bus import Subscription
from .judges import hexapod_options
from .referee import Outcome, Referee

__all__ = ["TableFacade"]

log = logging.getLogger(__name__)


HEXAPOD_COMMANDS = ("coin", "end_turn", "pass", "spider", "place")


class BadField(ValueError):
    """A form field that is missing or not of the expected kind."""


def _int(params: Mapping[str, str], name: str, default: int | None = None) -> int:
    raw = (params.get(name) or "").strip()
    if not raw:
        if default is not None:
            return default
        raise BadField(f"{name} is missing")
    try:
        return int(raw)
    except ValueError:
        raise BadField(f"{name} must be a whole number, got {raw!r}") from None


class TableFacade:
    """Adapts a `Referee` (and the camera's latest JPEG) to the web app's `Table` protocol."""

    def __init__(self, referee: Referee,
                 frame_jpeg: Callable[[], bytes | None] | None = None) -> None:
        self.referee = referee
        self._frame_jpeg = frame_jpeg

    def snapshot(self) -> dict:
        """The full view."""
        return self.referee.snapshot()

    def subscribe(self, last_event_id: str | None) -> Subscription:
        """A live feed (resumed after `last_event_id` when possible)."""
        return self.referee.bus.subscribe(last_event_id)

    def close(self) -> None:
        """End every live stream (server shutdown)."""
        self.referee.bus.close_all()

    def frame_jpeg(self) -> bytes | None:
        """The latest annotated camera image, if there is a camera."""
        if self._frame_jpeg is None:
            return None
        try:
            return self._frame_jpeg()
        except Exception:
            log.exception("could not encode the camera frame")
            return None

    def command(self, name: str, params: Mapping[str, str], who: str) -> tuple[bool, str]:
        """Run an admin command; never raises."""
        try:
            out = self._command(name, params, who)
        except BadField as exc:
            return False, f"Check the form: {exc}."
        except RulesError as exc:
            return False, f"Refused: {exc}"
        except Exception as exc:
            log.exception("admin command %s failed", name)
            return False, f"The command failed: {exc}"
        return out.ok, out.message

    def _command(self, name: str, p: Mapping[str, str], who: str) -> Outcome:
        r = self.referee
        if name == "confirm":
            return r.confirm(who)
        if name == "undo":
            return r.undo(who)
        if name == "next":
            return r.next(who)
        if name == "new_match":
            game = (p.get("game") or r.game).strip()
            if game == "hexapod":
                return r.new_match(self._hexapod_options(p), start="camera", source=who)
            if game != "hexel":
                raise BadField(f"game must be hexel or hexapod, got {game!r}")
            return r.new_match(self._options(p), start=self._start(p),
                               seed=_int(p, "seed", -1) if p.get("seed") else None, source=who)
        if r.game == "hexapod":
            return self._hexapod(name, p, who)
        if name in HEXAPOD_COMMANDS:
            return Outcome(False, f"{name.replace('_', ' ')} is a Hexapod command; this table "
                                  "plays Hex'el.")
        if name == "hedge":
            return r.submit(Hedge(_int(p, "seat"), _int(p, "multiple")), who)
        if name == "buy_in":
            return r.submit(BuyIn(_int(p, "seat"), _int(p, "amount")), who)
        if name == "cash_out":
            pot = p.get("pot") or "stock"
            if pot not in ("stock", "hand"):
                raise BadField("pot must be stock or hand")
            return r.submit(CashOut(_int(p, "seat"), _int(p, "amount"), pot), who)  # type: ignore
        if name == "take_hand_pot":
            return r.submit(TakeHandPot(_int(p, "seat"), _int(p, "amount")), who)
        if name == "stake":
            return r.submit(SetStake(_int(p, "stake")), who)
        if name == "discard":
            state = r.state
            if state is None or state.phase != "play":
                return Outcome(False, "A discard is a turn: no seat is to play now.")
            return r.next(who)
        if name == "override":
            card = (p.get("card") or "").strip().upper()
            return r.override((_int(p, "q"), _int(p, "r")), card, _int(p, "rotation"), who)
        if name == "next_game":
            return r.submit(NextGame(), who)
        return Outcome(False, f"Unknown action {name!r}.")

    def _hexapod(self, name: str, p: Mapping[str, str], who: str) -> Outcome:
        """The Hexapod commands; each acts for the seat to play unless `seat` is given."""
        r = self.referee
        if name not in HEXAPOD_COMMANDS:
            return Outcome(False, f"{name.replace('_', ' ')} is not a Hexapod command.")
        state = r.state
        to_play = state.to_play if state is not None else None
        seat = _int(p, "seat", -1) if (p.get("seat") or "").strip() else to_play
        if seat is None or seat == -1:
            return Outcome(False, "No seat is to play now.")
        if name == "coin":
            return r.submit(TableCoin(seat), who)
        if name == "end_turn":
            return r.submit(EndTurn(seat), who)
        if name == "pass":
            return r.submit(Pass(seat), who)
        if name == "spider":
            return r.submit(TableSpider(seat), who)
        card = (p.get("card") or "").strip()
        cards = state.options.cards if state is not None else {}
        if card not in cards:
            raise BadField(f"card: no card named {card!r} in the deck")
        col, row = _int(p, "col"), _int(p, "row")  # counted from 1, as the players see them
        return r.submit(TablePlay(seat, cards[card].rows, col - 1, row - 1), who)

    @staticmethod
    def _hexapod_options(p: Mapping[str, str]) -> HexapodOptions:
        names = tuple(n.strip() for n in (p.get("names") or "").split(",") if n.strip())
        if len(names) != 2:
            raise BadField("names: Hexapod is for two players, separated by a comma")
        if any(len(n) > 24 for n in names):
            raise BadField("names: at most 24 characters each")
        first = _int(p, "first", 1)
        if first not in (1, 2):
            raise BadField("first: player 1 or 2")
        return hexapod_options(names, coins=_int(p, "coins", 3), first=first - 1)

    @staticmethod
    def _start(p: Mapping[str, str]):
        start = p.get("start") or "camera"
        if start not in ("camera", "shuffle"):
            raise BadField("start must be camera or shuffle")
        return start

    @staticmethod
    def _options(p: Mapping[str, str]) -> HexelOptions:
        names = tuple(n.strip() for n in (p.get("names") or "").split(",") if n.strip())
        if not 1 <= len(names) <= 6:
            raise BadField("names: list 1 to 6 players, separated by commas")
        if any(len(n) > 24 for n in names):
            raise BadField("names: at most 24 characters each")
        chips = _int(p, "chips", 100)
        edition = p.get("edition") or "holodex"
        return HexelOptions(seats=len(names), names=names, stake=_int(p, "stake", 1),
                            edition=edition,  # type: ignore[arg-type]
                            chips=(chips,) * len(names))
