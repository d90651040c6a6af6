"""The inks of a print learned from one photo of the edition's three single-kind cards (`companion
calibrate colours`): what the referee asks for when it cannot tell or name a print's inks. The
cards are looked for as the reader finds any card (`HexelReader`: the paper mask, hexagons cut
apart where cards touch, the lattice and its probe) and among the frame's paper hexagons of one
size (a print whose inks the printed ones do not name may leave the reader few cards). Whatever
colour its symbols are, a single-kind card shows itself by its print alone (`single_kind`):
paper nearly all round and the printed border band, and six symbols of one ink. Each symbol's
ink is the median of its inkiest samples (INKY_SHARE of them, against the card's own white), off
the paper by MIN_INK at least; the ways its SAME_STRONG strongest symbols lie off the paper are
SAME_HUE_DEG apart at most, and any two of the six WASHED_HUE_DEG (a glossy sleeve's sheen or a
glare washes a symbol or two paler, and its clip turns them a little; two printed inks lie
29-76° apart, so a card mixing the grey ring and a coloured ink passes this, and is refused when
the learned inks read the cards back). The card's ink is the median of its STRONGEST strongest
symbols. The three cards' inks are matched to the letters whose printed inks they lie nearest to
(the best of all assignments) and checked to make sense as this edition's inks (`_check_inks`):
the grey ring's nearly grey (its channels spread less than GREY_TINT_MAX: a camera's colour
noise tints a thin dark stroke), every coloured ink coloured (`ColourModel.neutral`'s
NEUTRAL_SPREAD) and within MAX_TURN_DEG of the printed hue, no two within MIN_APART of each
other; where they fit the other edition's printed inks far better (OTHER_EDITION of the
distance), they are that edition's cards, and it says so. What is kept is the hue by which the
print differs from ours (`as_printed`): each coloured printed ink turned to its learned hue, as
the reader turns a table's inks (`inks`), the grey ring as printed. How strong and light an ink
looks the reader measures on every table itself (`inks.ink_fades`), from twenty cards rather
than three: the ink one photo shows also holds that camera's light, blur and sheen, and learned
as seen (or faded to it), a dim room's inks read held-out `lowlight` tables worse than our own
(97.2 and 97.7 against 98.4 % on seeds 0-49), a sleeved phone photo's too (95.2 against 97.3 %).
The model stands only where it reads the three cards back as their kinds (no other letter,
MIN_ALIKE symbols of theirs at least). Anything else is refused with the reason (a ValueError),
and nothing is saved: a wrong calibration reads worse than none (the earlier learner took any
inky hexagon, the gravel under the cards too, and read held-out tables 12 % worse calibrated
than not).
"""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np

from ..faces import SYMBOLS
from .calibration import TableView
from .cards import consistent_sizes, fit_hexagons, paper_blobs, paper_mask
from .colour import NEUTRAL_SPREAD, ColourModel, builtin_model, normalise
from .colourless import colourless
from .frames import check_frame
from .inks import MIN_TURN_DEG, chroma, turn_ink, wrap_angle
from .observation import NO_COLOUR_LEARN
from .reader import HexelReader
from .reader_params import ReaderParams
from .symbol_samples import N_PAPER, N_SYMBOL, CardRead, Pose, sample_cards
from .symbols import _white_reference, read_cards

INKY_SHARE = 0.4     # of a symbol's samples, the inkiest: its ink (a ring's stroke, a disc's core)
MIN_INK = 0.15       # a symbol's ink this far from the paper at least (paper-relative RGB)
SAME_HUE_DEG = 25.0  # and no two of its SAME_STRONG strongest off it in ways this far apart
SAME_STRONG = 4
WASHED_HUE_DEG = 40.0   # nor any two of the six this far (a washed symbol turns a little)
STRONGEST = 3        # the card's ink: the median of its symbols this many strongest
MIN_ALIKE = 4        # a card read back with the learned inks: this many symbols its kind's
MIN_PAPER, MIN_BAND = 0.8, 0.8   # shares of the card's paper and band places seen as such
GREY_TINT_MAX = 0.25   # a grey ring's ink whose channels spread this much is no grey ink
MAX_TURN_DEG = 90.0  # a learned coloured ink's hue this far from the printed one at most
MIN_APART = 0.15     # two learned inks at least this far apart
OTHER_EDITION = 0.5  # inks this much nearer the other edition's (summed): its cards
SAME_CARD = 0.5      # two poses whose centres lie within this of an apothem: one card


def learn_colours(frame: np.ndarray, edition: str, view: TableView | None = None,
                  params: ReaderParams = ReaderParams()) -> ColourModel:
    """The colour model of the print in `frame` (BGR), which shows the edition's three
    single-kind cards (RRRRRR, BBBBBB and VVVVVV or YYYYYY) whole and flat; see the module
    docstring. Raises ValueError, saying why, where the frame does not show them clearly (or
    is no BGR colour frame of 8-bit channels, `frames.check_frame`)."""
    check_frame(frame, "the colour calibration")
    if colourless(frame):
        raise ValueError(NO_COLOUR_LEARN)
    view = view or TableView()
    base = builtin_model(edition)
    poses = _candidate_poses(frame, edition, view, params)
    found = single_kinds(frame, poses, view, base)
    n = len(base.letters)
    if len(found) < n:
        raise ValueError(f"found {len(found)} single-kind card(s) of {n}; show the edition's "
                         f"{n} single-kind cards ({', '.join(c * 6 for c in base.letters)}) "
                         "whole and flat in one frame, in even light")
    inks = np.asarray([ink for _, ink in found])
    cost, best = _assigned(inks, base)
    for other in SYMBOLS:
        # (the other edition's cards, told as this one's: their inks fit that edition far
        # better, a grey ring taken for a coloured ink or a yellow for the ring)
        if other != edition and _assigned(inks, builtin_model(other))[0] < OTHER_EDITION * cost:
            raise ValueError(f"these look like the {other} edition's single-kind cards: pass "
                             f"--edition {other}")
    learned = inks[list(best)]
    _check_inks(learned, base)
    model = ColourModel(edition, base.names, ((1.0, 1.0, 1.0), *(
        tuple(float(v) for v in ink) for ink in as_printed(learned, base))), source="learned")
    # (read back as the reader reads a table: with the inks it measures on these cards)
    back = HexelReader(edition, model=model, table=view.table, camera=view.camera,
                       find_markers=False, params=params, keep_still=False).read(frame)
    for letter, i in zip(base.letters, best, strict=True):
        read = next((r.symbols for q, r in zip(back.poses, back.reads, strict=True)
                     if _same_card(q, found[i][0])), "not at all")
        if set(read) - {letter, "?"} or read.count(letter) < MIN_ALIKE:
            raise ValueError(f"the inks learned do not read the {letter * 6} card back (read "
                             f"{read}): take the photo again in brighter, even light")
    return model


def _assigned(inks: np.ndarray, base: ColourModel) -> tuple[float, tuple[int, ...]]:
    """The cards (`inks`, one learned ink each) that best match `base`'s letters, in their
    order (the least summed distance to the printed inks), and that distance."""
    best: tuple[float, tuple[int, ...]] | None = None
    for idx in permutations(range(len(inks)), len(base.letters)):
        cost = float(sum(np.linalg.norm(inks[i] - base.inks[k]) for k, i in enumerate(idx)))
        if best is None or cost < best[0]:
            best = (cost, idx)
    assert best is not None
    return best


def single_kinds(frame: np.ndarray, poses: list[Pose], view: TableView, base: ColourModel
                 ) -> list[tuple[Pose, np.ndarray]]:
    """The poses among `poses` that show a single-kind card (`single_kind`), each with its
    ink (paper-relative RGB), one per card (the first pose of each)."""
    if not poses:
        return []
    vals, inside = sample_cards(frame, poses, view)
    reads = read_cards(frame, poses, view, base)
    out: list[tuple[Pose, np.ndarray]] = []
    for pose, v, ins, read in zip(poses, vals, inside, reads, strict=True):
        ink = single_kind(v, ins, read)
        if ink is not None and not any(_same_card(pose, q) for q, _ in out):
            out.append((pose, ink))
    return out


def single_kind(vals: np.ndarray, inside: np.ndarray, read: CardRead) -> np.ndarray | None:
    """A card's ink (paper-relative RGB) where its samples (`vals`, points x 3 BGR as
    `sample_cards` takes them, `inside` the frame) show a single-kind card: its paper and
    band nearly all there (`read`, the card read at that pose), its six symbols' inks off
    the paper and alike (see the module docstring); else None."""
    if not inside.all() or read.paper_ok < MIN_PAPER or read.border_ok < MIN_BAND:
        return None
    ns = 6 * N_SYMBOL
    white = _white_reference(vals[None, ns:ns + N_PAPER], inside[None, ns:ns + N_PAPER])[0]
    sym = normalise(vals[:ns], white).reshape(6, N_SYMBOL, 3)   # paper-relative RGB
    far = np.linalg.norm(sym - 1.0, axis=-1)
    k = max(1, round(INKY_SHARE * N_SYMBOL))
    inky = np.take_along_axis(sym, np.argsort(-far, axis=1)[:, :k, None], 1)
    each = np.median(inky, axis=1)                      # 6 x 3
    off = 1.0 - each                                    # from the paper towards the ink
    strength = np.linalg.norm(off, axis=-1)
    if (strength < MIN_INK).any():
        return None
    way = off / strength[:, None]
    apart = np.degrees(np.arccos(np.clip(way @ way.T, -1.0, 1.0)))
    strong = np.argsort(-strength)[:SAME_STRONG]
    # (a glossy sleeve's sheen or a glare washes a symbol or two paler, and clipping turns it
    # a little off its ink's way)
    if apart.max() > WASHED_HUE_DEG or apart[np.ix_(strong, strong)].max() > SAME_HUE_DEG:
        return None
    return np.median(each[np.argsort(-strength)[:STRONGEST]], axis=0)


def as_printed(learned: np.ndarray, base: ColourModel) -> np.ndarray:
    """The edition's printed inks (letters x 3) with each coloured one turned to the hue of
    its learned ink (`learned`, in `base.letters`' order) where that lies MIN_TURN_DEG off or
    more (`inks.turn_ink`, as the reader turns a table's inks); grey inks as printed."""
    out = np.asarray(base.inks, np.float64).copy()
    turns = hue_turns(learned, base)
    for k in np.flatnonzero(~base.neutral):
        if abs(turns[k]) >= MIN_TURN_DEG:
            out[k] = turn_ink(out[k], math.radians(turns[k]))
    return out


def hue_turns(inks: np.ndarray, base: ColourModel) -> np.ndarray:
    """Per letter, the degrees (in (-180, 180]) by which the hue of `inks` (letters x 3,
    paper-relative RGB, in `base.letters`' order) lies from `base`'s printed ink's."""
    _, hue = chroma(inks)
    _, printed = chroma(base.inks)
    return np.degrees(wrap_angle(hue - printed))


def _check_inks(learned: np.ndarray, base: ColourModel) -> None:
    """Raise ValueError where the learned inks (letters x 3, in `base.letters`' order) do not
    make sense as the edition's inks (see the module docstring)."""
    spread = learned.max(1) - learned.min(1)
    for letter, s, grey in zip(base.letters, spread, base.neutral, strict=True):
        if grey and s >= GREY_TINT_MAX:
            raise ValueError(f"the {letter} card's ink looks coloured, not grey: check the light "
                             "(a coloured lamp?) and take the photo again")
        if not grey and s < NEUTRAL_SPREAD:
            raise ValueError(f"the {letter} card's ink shows almost no colour: take the photo "
                             "again in brighter light")
    for letter, turn, grey in zip(base.letters, hue_turns(learned, base), base.neutral,
                                  strict=True):
        if not grey and abs(turn) > MAX_TURN_DEG:
            raise ValueError(f"the {letter} card's ink is {abs(turn):.0f}° off the printed hue: "
                             "is it the right card, in white light?")
    for i in range(len(learned)):
        for j in range(i + 1, len(learned)):
            if np.linalg.norm(learned[i] - learned[j]) < MIN_APART:
                raise ValueError(f"the {base.letters[i]} and {base.letters[j]} cards' inks look "
                                 "alike: show the three different single-kind cards")


def _candidate_poses(frame: np.ndarray, edition: str, view: TableView, params: ReaderParams
                     ) -> list[Pose]:
    """The poses of the cards the reader finds in `frame` (read with the printed inks), then
    those of the frame's paper hexagons of one size (a print whose inks the printed ones do not
    name may leave the reader few cards)."""
    reader = HexelReader(edition, table=view.table, camera=view.camera, find_markers=False,
                         params=params, keep_still=False)
    poses = list(reader.read(frame).poses)
    blobs = paper_blobs(paper_mask(frame, 1.0, params.detect), 1.0, view, params.detect)
    fits, _ = consistent_sizes(fit_hexagons(blobs, params.detect, not view.calibrated)[0])
    poses += [Pose(f.centre, f.apothem, f.angle, 1, f.shape) for f in fits]
    return poses


def _same_card(a: Pose, b: Pose) -> bool:
    return math.dist(a.centre, b.centre) < SAME_CARD * min(a.apothem, b.apothem)


__all__ = ["as_printed", "hue_turns", "learn_colours", "single_kind", "single_kinds"]
