"""The referee: the only place that knows both the camera's world and the rules' world.

It diffs the stable observation of the table against the committed game (`proposal`, using the
lattice alignment of `align`), proposes the one move the players made and asks the rules whether
it is legal, and commits it on a confirm (`referee`): store first, then the announcement on its
`bus` for the scoreboard. Around it: the stability window (`stability`), the camera thread
(`pipeline`), the buttons (`buttons`), the LED/buzzer/speech (`outputs`), the web facade
(`facade`) and a software model of a physical table for the demo and tests (`simtable`).
"""

from .align import Alignment
from .proposal import Proposal, propose
from .referee import Outcome, Referee, RefereeError

__all__ = ["Alignment", "Outcome", "Proposal", "Referee", "RefereeError", "propose"]
