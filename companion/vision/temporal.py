"""The temporal filter: what is on the table is what has looked the same for a while. Frames come
in with timestamps; a frame is *clean* when no card in it is flagged occluded, other than cards
already occluded in the stable table (a card half out of the frame for good); a hand over the
table makes frames unclean, and they are ignored. The stable observation changes only when the
clean frames have agreed on a new table for `stable_s` seconds without a contradicting clean
frame in between, so a hand passing over the table, a card still being adjusted, or a single
misread frame never becomes a change. Two frames agree when they show the same number of cards
and every card of one has a card of the other within a third of a card width, with the same
symbols (cells are matched by image position because the lattice origin may move when a card is
added), and the same cards off the lattice (`HexelObservation.loose`) alike: a card apart that
shows in one frame only (a hand's shape read as a card for a moment) never makes the referee
wait, and one laid apart counts once it has stayed.
"""

from __future__ import annotations

import math
from dataclasses import replace

from .observation import HexelObservation, LooseCard, SeenCard


def _same(a: HexelObservation, b: HexelObservation, tolerance_px: float) -> bool:
    if len(a.cards) != len(b.cards) or len(a.loose) != len(b.loose):
        return False
    return all(any(_match(card, other, tolerance_px) for other in b.cards) for card in a.cards) \
        and all(any(_match(card, other, tolerance_px) for other in b.loose) for card in a.loose)


def _match(a: SeenCard | LooseCard, b: SeenCard | LooseCard, tolerance_px: float) -> bool:
    if math.dist(a.centre_px, b.centre_px) > tolerance_px or a.occluded != b.occluded:
        return False
    return a.occluded or a.symbols == b.symbols


def _card_width(obs: HexelObservation) -> float:
    """A rough card width in pixels: the median nearest-neighbour centre distance."""
    pts = [c.centre_px for c in obs.cards]
    if len(pts) < 2:
        return 60.0
    nearest = sorted(min(math.dist(p, q) for q in pts if q is not p) for p in pts)
    return nearest[len(nearest) // 2]


class StableFilter:
    """Feed observations (with their times); read `stable` for the table as it really is."""

    def __init__(self, stable_s: float = 1.0) -> None:
        if stable_s < 0:
            raise ValueError("stable_s must not be negative")
        self.stable_s = stable_s
        self.stable: HexelObservation | None = None
        self._candidate: HexelObservation | None = None
        self._since: float = 0.0

    def update(self, obs: HexelObservation, t: float | None = None) -> HexelObservation | None:
        """Take one frame's observation (time `t`, default `obs.t`); return the stable one (None
        until a table has been stable once)."""
        t = obs.t if t is None else t
        tol = _card_width(obs) / 3.0
        if not self._clean(obs, tol):
            return self.stable                      # a hand is in the way: ignore the frame
        if self.stable is not None and _same(obs, self.stable, tol):
            self._candidate = None                  # back to (or still) the stable table
            self.stable = replace(obs, t=self.stable.t)
            return self.stable
        if self._candidate is None or not _same(obs, self._candidate, tol):
            self._candidate, self._since = obs, t   # something new: start timing it
        if t - self._since >= self.stable_s:
            self.stable = replace(obs, t=t)
            self._candidate = None
        return self.stable

    def _clean(self, obs: HexelObservation, tol: float) -> bool:
        """No card is occluded, except ones already occluded in the stable table (a card that
        lies half out of the frame for good). Before the first stable table every frame counts,
        and so does one whose cards the reader left unread for the print's inks
        (`HexelObservation.ink_doubt`, `HexelObservation.unnamed_ink`, a disc whose colour
        reads as the ring, `HexelObservation.no_ring`, a ring whose colour reads as a disc,
        `HexelObservation.no_disc`) or read nothing of, in
        a picture without colour (`HexelObservation.no_colour`) or of cards printed without
        it (`HexelObservation.grey_print`)."""
        if (self.stable is None or obs.ink_doubt or obs.unnamed_ink or obs.no_ring
                or obs.no_disc or obs.no_colour or obs.grey_print):
            return True   # (cards left unread for the print's inks, not for a hand: it stays)
        known = [c for c in self.stable.cards if c.occluded]
        return all(any(_match(c, k, tol) for k in known) for c in obs.cards if c.occluded)

    def reset(self) -> None:
        """Forget everything (e.g. the camera was moved)."""
        self.stable, self._candidate, self._since = None, None, 0.0
