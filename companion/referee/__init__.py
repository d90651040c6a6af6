"""The referee: the only place that knows both the camera's world and the rules' world.

It diffs the stable observation of the table against the committed game — Hex'el: `proposal`,
using the lattice alignment of `align`; Hexapod: `hexapod_proposal`, diffing each display case —,
proposes the one move the players made and asks the rules whether it is legal, and commits it on
a confirm (`referee`, game-neutral, with one `judges.Judge` per game): store first, then the
announcement on its `bus` for the scoreboard. Around it: the stability window (`stability`), the
camera thread (`pipeline`), the buttons (`buttons`), the LED/buzzer/speech (`outputs`), the web
facade (`facade`), the scoreboard views (`view`, `hexapod_view`) and software models of physical
tables and players for the demo and tests (`simtable`, `players`; `hexapod_table`,
`hexapod_players`).
"""

from .align import Alignment
from .proposal import Proposal, propose
from .referee import Outcome, Referee, RefereeError

__all__ = ["Alignment", "Outcome", "Proposal", "Referee", "RefereeError", "propose"]
