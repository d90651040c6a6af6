"""Two simulated Hexapod players at a physical table, for `companion demo --game hexapod`.

The players hold what real players hold and the referee cannot see: three face-up stacks built as
RULES.md P1 describes (the Spider among the bottom cards of one) and a card in hand each. On its
turn a seat draws the top card of a stack, reaches over its display case and lays one of its two
cards at a legal place (favouring points, as people do), keeping the other; now and then it first
lays the card at a place P2 forbids, waits for the referee to object, and takes it back. Sometimes
a seat spends a coin (moving a stack's top card) and says so on the admin page; a seat that cannot
place passes; when the Spider shows, the players report it. Everything else — reading the cases,
judging, committing, scoring — is the referee's. At the start of each turn the physical cases are
squared with the committed game, so an undo on the admin page is followed by the players taking
their card back; cards the referee never committed return to a hand.
"""

from __future__ import annotations

import logging
import random

from ..rules.core import IllegalAction
from ..rules.hexapod import SPIDER, HexapodState, check_placement, legal_positions, place
from ..rules.hexapod.game import Pass, TableCoin, TableSpider
from ..rules.hexapod.scoring import score_case
from .hexapod_table import LaidCard, PhysicalCases
from .players import PlayerLoop
from .referee import Referee

__all__ = ["SimulatedHexapodPlayers"]

log = logging.getLogger(__name__)
SPIDER_GROUP = 8


class SimulatedHexapodPlayers(PlayerLoop):
    """Plays the referee's Hexapod game on `cases` in a thread (see the module docstring)."""

    name = "hexapod-players"

    def __init__(self, referee: Referee, cases: PhysicalCases, seed: int = 1,
                 pace_s: float = 1.0, illegal_rate: float = 0.15, coin_rate: float = 0.1,
                 wait_for_commit_s: float | None = 30.0, restart_s: float = 6.0) -> None:
        self.referee = referee
        self.cases = cases
        self.rng = random.Random(seed)
        self.pace_s = pace_s
        self.illegal_rate = illegal_rate
        self.coin_rate = coin_rate
        self.wait_for_commit_s = wait_for_commit_s
        self.restart_s = restart_s
        self.moves = 0
        self.illegal_laid = 0
        self.illegal_caught = 0
        self.stacks: list[list[str]] = []
        self.hands: dict[int, list[str]] = {0: [], 1: []}
        self._game_id: int | None = None
        super().__init__()

    # -- the table ----------------------------------------------------------------------------

    def deal(self, state: HexapodState) -> None:
        """Shuffle real cards into three face-up stacks (P1) and take the starting cards."""
        names = [card.name for card in state.options.deck]
        self.rng.shuffle(names)
        group = [*names[:SPIDER_GROUP], SPIDER]
        self.rng.shuffle(group)
        rest = names[SPIDER_GROUP:]
        size = len(rest) // 3
        self.stacks = [rest[i * size:(i + 1) * size] + group[i * 3:(i + 1) * 3]
                       for i in range(3)]
        self.hands = {0: [], 1: []}
        first = state.options.first
        for seat in (first, 1 - first):
            drawable = self._drawable()
            if drawable:
                self.hands[seat].append(self.stacks[self.rng.choice(drawable)].pop(0))
        self.cases.clear()
        self._game_id = self.referee.game_id
        if self._spider_on_top():
            self.referee.submit(TableSpider(first), "player")

    def square_table(self, state: HexapodState) -> None:
        """Make the physical cases show exactly the committed game; cards the referee does not
        have in a case go back to the hand of the seat to play."""
        cards = state.options.cards
        for seat in (0, 1):
            self.cases.set_cards(seat + 1, (LaidCard(n, cards[n].rows, c, r)
                                            for n, c, r in state.laid[seat]))
        self.cases.hover(None)
        placed = {n for seat in state.laid for n, _, _ in seat}
        self.stacks = [[n for n in s if n not in placed] for s in self.stacks]
        for seat in (0, 1):
            self.hands[seat] = [n for n in self.hands[seat] if n not in placed]
        known = placed | {n for s in self.stacks for n in s} | \
            {n for h in self.hands.values() for n in h}
        lost = [c.name for c in state.options.deck if c.name not in known]
        if lost and state.to_play is not None:
            self.hands[state.to_play].extend(lost)

    def _drawable(self) -> list[int]:
        return [i for i, s in enumerate(self.stacks) if s and s[0] != SPIDER]

    def _spider_on_top(self) -> bool:
        return any(s and s[0] == SPIDER for s in self.stacks)

    # -- turns --------------------------------------------------------------------------------

    def step(self) -> None:
        """One gesture of the table, depending on the phase."""
        state = self.referee.state
        if state is None or self.referee.game != "hexapod" or state.tracked:
            self._pause()
            return
        if state.phase == "over":
            if self._pause(self.restart_s):
                self.referee.next("dealer")  # the next game
            return
        if state.phase != "play":
            self._pause()
            return
        if self._game_id != self.referee.game_id:
            self.deal(state)
            state = self.referee.state
        self.square_table(state)
        if not self._pause():
            return
        self._turn(self.referee.state)

    def _turn(self, state: HexapodState) -> None:
        seat = state.to_play
        if seat is None or state.phase != "play":
            return
        moves = self._moves(state, seat)
        wants_coin = self.rng.random() < self.coin_rate or not moves
        if (not state.coin_spent and state.coins[seat] > 0 and wants_coin
                and sum(1 for s in self.stacks if s) >= 2):
            self._spend_coin(state, seat)
            return
        if not moves:
            if state.coin_spent:
                self.referee.next("player")  # end the turn after the coin
            else:
                self.referee.submit(Pass(seat), "player")
            return
        weights = [(1.0 + max(gain, 0)) ** 2 for *_, gain in moves]
        stack, name, col, row, _ = self.rng.choices(moves, weights)[0]
        drawn = self.stacks[stack].pop(0)
        hand = [*self.hands[seat], drawn]
        hand.remove(name)
        self.hands[seat] = hand
        if self._spider_on_top() and not state.spider:
            self.referee.submit(TableSpider(seat), "player")
        card = LaidCard(name, state.options.cards[name].rows, col, row)
        n = len(self.referee.log)
        if self.rng.random() < self.illegal_rate:
            self._illegal_attempt(state, seat, card)
        self._gesture(seat, card)
        self.moves += 1
        self._wait_for_commit(n)

    def _moves(self, state: HexapodState, seat: int) -> list[tuple[int, str, int, int, int]]:
        """(stack, card, col, row, points gained) of every legal draw-and-place."""
        case = state.cases[seat]
        before = score_case(case).total
        out = []
        for s in self._drawable():
            for name in dict.fromkeys((self.stacks[s][0], *self.hands[seat])):
                card = state.options.cards[name]
                for col, row in legal_positions(case, card):
                    gain = score_case(place(case, card, col, row)).total - before
                    out.append((s, name, col, row, gain))
        return out

    def _spend_coin(self, state: HexapodState, seat: int) -> None:
        sources = [i for i, s in enumerate(self.stacks) if s]
        source = self.rng.choice(sources)
        target = self.rng.choice([i for i in range(3) if i != source])
        out = self.referee.submit(TableCoin(seat), "player")
        if not out.ok:
            return
        self.stacks[target].insert(0, self.stacks[source].pop(0))
        if self._spider_on_top() and not state.spider:
            self.referee.submit(TableSpider(seat), "player")

    def _illegal_attempt(self, state: HexapodState, seat: int, card: LaidCard) -> None:
        """Lay the card where P2 forbids it, wait for the referee to object, take it back."""
        rules_card = state.options.cards[card.name]
        o = state.options
        wrong = []
        for row in range(o.case_rows - o.card_rows + 1):
            for col in range(o.case_cols - o.card_cols + 1):
                try:
                    check_placement(state.cases[seat], rules_card, col, row)
                except IllegalAction:
                    wrong.append((col, row))
        if not wrong:
            return
        col, row = self.rng.choice(wrong)
        self.illegal_laid += 1
        bad = LaidCard(card.name, card.rows, col, row)
        self._gesture(seat, bad)
        if self._wait_for(lambda p: p.kind == "move" and not p.legal, 6):
            self.illegal_caught += 1
        if not self._pause(2.0):
            return
        self.cases.hover(seat + 1, col, row)
        if not self._pause(0.4):
            return
        self.cases.pick_up(seat + 1)

    def _gesture(self, seat: int, card: LaidCard) -> None:
        """Reach over the footprint, lay the card, withdraw."""
        self.cases.hover(seat + 1, card.col, card.row)
        if not self._pause(0.5):
            return
        self.cases.lay(seat + 1, card)
        if not self._pause(0.3):
            return
        self.cases.hover(None)

