"""Web symbols washed pale, read within every read of the cards. A glossy sleeve's sheen or a
lamp's glare lifts a symbol towards white until its colour fits no ink and the colour reading
leaves it `?`; its printed shape stays plain and its faint hue still leans to its own ink, and
where both agree `shape_ink.hue_named` reads it. The reader does so on its final reads
(`HexelReader._web_shapes`), and `washed_read` does so on each read as it is made
(`symbols.StagedRead`), so that the searches which keep a card only where it reads whole (the
telling of the hexagons, the lattice probe, the far cells) see such a card whole too. Within the
reads only cards with MIN_LETTERS letters or more read are judged: a search reads many poses
about a card, most of them on the table or a neighbour's edge with few symbols read, and each
card judged costs a picture of its symbols. The symbols so read are marked (`CardRead.by_hue`)
and left out of what the table's inks are judged by (`CardRead.by_colour`). Holodex symbols
washed pale are read by their shape and hue as `washed_holodex` reads them (R and B are both
discs there), within the reads blue discs and rings only (`symbol_wash.WASH_INKS`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .calibration import TableView
from .colour import ColourModel
from .inks import symbol_cores
from .shape_ink import hue_named, shape_matches, shown
from .symbol_samples import CardRead, Pose
from .symbol_wash import WASH_INKS
from .unread_runs import unfree_run_out
from .washed_holodex import washed_holodex

MIN_LETTERS = 4   # letters read on a card, within the reads, for its washed symbols to be judged


def washed_read(bgr: np.ndarray, poses: Sequence[Pose], view: TableView, model: ColourModel,
                reads: Sequence[CardRead]) -> list[CardRead]:
    """`reads` (of the cards at `poses`) with every symbol left unread with nothing over it
    read where its shape and hue agree (`shape_ink.hue_named` on web cards, `washed_holodex`
    on holodex cards), on the cards with MIN_LETTERS letters read or more; but no symbol whose
    colour runs on past the card's outline (`unread_runs`)."""
    at = [k for k, r in enumerate(reads) if any(r.unread_ink) and r.letters >= MIN_LETTERS]
    if model.edition not in ("web", "holodex") or not at:
        return list(reads)
    some_poses = [poses[k] for k in at]
    # (a symbol an object's colour runs out from is no washed one: `unread_runs`)
    some = unfree_run_out(bgr, some_poses, view, [reads[k] for k in at])
    if model.edition == "holodex":
        named, _ = washed_holodex(bgr, some_poses, some, view, model, "".join(WASH_INKS))
    else:
        whites = np.array([r.white_bgr for r in some])
        scores = shape_matches(bgr, some_poses, view, whites)[0]
        cores, inside = symbol_cores(bgr, some_poses, whites, view)
        named, _ = hue_named(some, shown(scores), cores.reshape(-1, 6, 3), inside, model,
                             scores=scores)
    out = list(reads)
    for k, r in zip(at, named, strict=True):
        # (only what is named changes: a symbol left unread keeps the freedom its read gave it,
        # as the read without this step would; the reader's own naming asks again)
        was = reads[k].unread_ink or (False,) * 6
        free = tuple(bool(u and c == "?") for u, c in zip(was, r.symbols, strict=True))
        out[k] = replace(r, unread_ink=free if any(free) else ())
    return out
