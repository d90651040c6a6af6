"""Which edition's cards lie on the table when nobody said. The two editions print red and blue
alike and differ in the third symbol: holodex a grey ring, web a yellow triangle. A reader told
the wrong edition has no ink for that symbol and leaves it unread (an ink of the other edition is
never taken for one of its own turned: `inks.FOREIGN_SHARE`), so the edition whose reading of a
frame has more cards whole is the one on the table. Where the two readings have as many cards
whole (no third symbol in view), they name the same cards and either will do: the first edition
given is kept. `companion recognize --edition auto` reads with both and keeps the choice once a
frame tells them apart. At the table the match names the edition, and `EditionWatch` looks
with the other one's colours now and then while cards read `?`: cards of the other edition
laid for this match read mostly `?`, and the players are told which edition they are."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from .observation import UNKNOWN, HexelObservation

if TYPE_CHECKING:
    from .reader import HexelReader, ReadResult

EDITIONS = ("holodex", "web")


def other_edition(edition: str) -> str:
    """The edition that is not `edition`."""
    if edition not in EDITIONS:
        raise ValueError(f"no such edition: {edition!r} (expected one of {', '.join(EDITIONS)})")
    return EDITIONS[1 - EDITIONS.index(edition)]


def whole_cards(obs: HexelObservation) -> int:
    """The cards of `obs` read whole: in full view and all six symbols read."""
    return sum(1 for c in obs.cards if not c.occluded and UNKNOWN not in c.symbols)


@dataclass(frozen=True)
class EditionChoice:
    """The edition a frame's readings point to, and whether they told the editions apart."""

    edition: str
    decided: bool
    whole: tuple[tuple[str, int], ...]   # (edition, cards read whole) per reading, as given

    @property
    def note(self) -> str:
        """What the choice rests on, for the observation's notes."""
        counts = ", ".join(f"{e} {n}" for e, n in self.whole)
        if self.decided:
            return f"edition {self.edition} (cards read whole with each: {counts})"
        return (f"edition not told apart (cards read whole with each: {counts}): "
                f"read as {self.edition}")


def choose_edition(readings: Mapping[str, HexelObservation]) -> EditionChoice:
    """The edition whose reading (of one frame, one per edition, in order of preference) has
    the most cards whole; the first on a tie, then undecided."""
    if not readings:
        raise ValueError("no readings to choose an edition from")
    whole = tuple((e, whole_cards(obs)) for e, obs in readings.items())
    best = max(n for _, n in whole)
    leaders = [e for e, n in whole if n == best]
    return EditionChoice(leaders[0], len(leaders) == 1, whole)


WATCH_UNREAD = 3    # cards read with a '?' that make the watch look with the other edition
WATCH_EVERY = 30    # full reads between its looks (the first such read looks at once)
WATCH_WHOLE = 2     # cards the other edition must read whole, and this share of its cards:
WATCH_SHARE = 0.75  # its cards lie on the table, not a few that read whole in both
OTHER_EDITION = "other edition:"   # the note's start (`EditionWatch`)


class EditionWatch:
    """The edition of the cards on the table, watched while it is named (a match's). Cards of
    the other edition read mostly `?` (their third symbol has no ink in the colours read with),
    which the referee would take for a hand or poor light and wait on. So while WATCH_UNREAD
    cards or more read a `?`, every WATCH_EVERY-th full read (the first at once) also reads
    the frame with the other edition's colours (`other`, a reader of that edition, made to see
    the table as the watched reader does). Where that reading has more cards whole
    (`choose_edition`, decided) and nearly all of its cards whole (WATCH_SHARE: a print whose
    inks another printer turned far from ours can read a few red-and-blue cards whole in the
    other edition's colours alone, held-out `printer-far` 7 and 49), the observation says so
    (`HexelObservation.other_edition`, a note) until a look finds otherwise or the cards read
    whole again. The frames in between carry the last look's verdict; a frame kept as still
    carries it too."""

    def __init__(self, other: HexelReader) -> None:
        self.other = other
        self._since = WATCH_EVERY
        self._seen: EditionChoice | None = None

    def look(self, frame: np.ndarray, result: ReadResult, reader: HexelReader) -> ReadResult:
        """`result` (`reader`'s reading of `frame`) with the watch's verdict."""
        obs = result.observation
        if not result.kept:
            if sum(1 for c in obs.cards if UNKNOWN in c.symbols) < WATCH_UNREAD:
                self._since, self._seen = WATCH_EVERY, None
            else:
                self._since += 1
                if self._since >= WATCH_EVERY:
                    self._since = 0
                    self.other.view = reader.view
                    theirs = self.other.read(frame, obs.t, obs.frame_seq).observation
                    choice = choose_edition({reader.edition: obs, self.other.edition: theirs})
                    whole = whole_cards(theirs)
                    self._seen = choice if (choice.decided and choice.edition
                                            == self.other.edition and whole >= WATCH_WHOLE
                                            and whole >= WATCH_SHARE * len(theirs.cards)
                                            ) else None
        if self._seen is None:
            return result
        counts = ", ".join(f"{e} {n}" for e, n in self._seen.whole)
        note = (f"{OTHER_EDITION} the {self._seen.edition} edition's colours read nearly every "
                f"card whole (cards read whole with each: {counts}): the cards on the table are "
                f"not the edition read with")
        return replace(result, observation=replace(
            obs, other_edition=self._seen.edition, notes=(*obs.notes, note)))
