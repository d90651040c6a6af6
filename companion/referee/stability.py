"""The stability window: only a table that has looked the same for `stable_s` reaches the referee.

Readings of single frames flicker while a hand moves a card in; the referee must judge only what
has settled. `StabilityFilter.feed` compares each observation's content (cards, symbols and
occlusion, independent of where the reader put the lattice origin that frame) with the previous
ones and passes an observation on once the content has been unchanged for `stable_s` seconds —
once per settled content, so an unchanged table costs the referee nothing. A Hexapod observation's
content is each display case's player, codes and hidden cells.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..vision.observation import HexapodObservation, HexelObservation

__all__ = ["StabilityFilter", "content_key"]


def content_key(obs: HexelObservation | HexapodObservation) -> tuple:
    """What the table shows, up to a translation of the camera lattice (Hex'el)."""
    if isinstance(obs, HexapodObservation):
        return ("cases", *sorted((c.player, c.grid, c.occluded) for c in obs.cases))
    if not obs.cards:
        return ()
    q0 = min(c.cell[0] for c in obs.cards)
    r0 = min(c.cell[1] for c in obs.cards)
    return tuple(sorted(((c.cell[0] - q0, c.cell[1] - r0), c.symbols, c.occluded)
                        for c in obs.cards))


class StabilityFilter:
    """Passes on an observation whose content has been steady for `stable_s` seconds."""

    def __init__(self, stable_s: float = 0.8, clock: Callable[[], float] = time.monotonic):
        self.stable_s = stable_s
        self._clock = clock
        self._key: tuple | None = None
        self._since = 0.0
        self._emitted: tuple | None = None
        self.settled_at: float | None = None  # when the last passed-on content first appeared

    def feed(self, obs: Any, now: float | None = None) -> Any:
        """The observation if it is newly stable, else None."""
        now = self._clock() if now is None else now
        key = content_key(obs)
        if key != self._key:
            self._key, self._since = key, now
        if key != self._emitted and now - self._since >= self.stable_s:
            self._emitted = key
            self.settled_at = self._since
            return obs
        return None

    def reset(self) -> None:
        """Forget what was passed on (the next steady content is passed on again)."""
        self._emitted = None
