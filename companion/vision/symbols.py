"""Stage 3 of the Hex'el reader: read the six symbols of every card at once. Each card pose (plane
centre, apothem, angle of its edge facing lattice direction E) places a fixed pattern of sample
points (19 inside each symbol, 18 on bare paper between the symbols, 18 at each of five depths
across the border band and just beyond it), which is mapped to the image and sampled bilinearly,
all cards in one `cv2.remap`. The card's paper samples give its white reference; every sample is
normalised by it, and the symbol, paper and halo samples are explained by the `ColourModel` as
paper mixed with one ink (allowing for chroma bled in from the paper, see `colour.chroma_cast`);
the border band is judged by its darkness and greyness (by the channels that did not clip, where
the paper clipped under a lamp near white; where it clipped in every channel, allowing each
channel to read too bright by one factor round the card, as far as the paper can be past the
clip). A symbol is read only when its samples agree clearly (enough of one ink, almost none
of another, few unexplained pixels); otherwise it is '?'. A grey
ring's band must be dark on both sides of its centre: an object lying over part of a disc (a
coin, a sleeve) can leave a crescent of its rim, which is no ring; one whose samples are paper and
grey ink alone, no hue anywhere, is the ring however faint, when its band holds its darkest
sample and it is dark alike either side of its centre. No coloured symbol is hollow;
on a card whose paper clipped the sensor (its white reference neutral though the lamp is not) a
grey ring's paper-ink blends carry the lamp's tint, which does not stop the ring from reading as
the ring, and a weak coloured reading darker than its ink could make it, or weak beside a strong
symbol of the same ink on the card (one print under one lamp and blur) but darker, is such a
blend ('?'). There every blend is seen too bright in the clipped channels, its hue pulled
towards them: a pale coloured symbol read by its mean colour stands only when no other ink
explains that colour, nor that of any symbol the card reads, with those channels scaled back as
far as the paper can be past the clip, and a solid symbol's faint rim samples of another
coloured ink are its own blends. Where it clipped in every channel, a strong ink's sample
clipped with the paper and crushed towards black is known by one channel alone, and the inks'
fits can split one print between two letters: a symbol whose samples split so is read as its ink
when every sample of the other clipped and looks like the card's own print of its ink (one
print, one lamp) and not like its print of the other. On any card, a weak coloured reading far
thinner than a strong symbol of its ink on the card is not the print but something over it that
its surround does not betray, a hand's blurred edge or a glare spot ('?'). A symbol whose
flanking paper or halo is missing is taken to be covered ('?'), unless that whole surround is
paper or paper in a soft shadow (then no grey blob there reads as a blurred ring: a grey object
lying over it looks like that shade); so is a coloured symbol whose own ink carries on into its
halo (a fingertip of that hue), and any symbol from whose middle, or from whose halo facing its
edge, one colour runs straight on past the card's outline, flatter than the card's print could
be along that way (a pen or a sleeve laid over it from beyond the card, whatever the symbol
reads as). Paper and border samples tell whether the card is seen whole. A pose fitted from a
blurred outline can be a few degrees off, which puts symbols' samples on their edges: a whole card
left with a '?' whose paper did not clip and is nearly all paper (no sleeve over it) is read again
turned a little either way, and that read is kept only when it is complete and has every letter the
first read made. A soft shadow across a card dims its paper and symbols without tinting them: a
whole card with a '?' or paper that does not all read as paper, whose paper samples show grey shade,
is read again against a white reference scaled point by point by the shade of the paper around
each point; that read is kept on the same terms, and a grey ink it fills in only where the
symbol's picture, flattened by the paper about it, plainly shows the ring (`ring_shape.rings_shown`:
a grey object on the card looks like deep shade, and what it leaves of a disc like a ring by its
colour, never by its shape). A whole card with a '?' whose paper clipped the sensor is read
again with its symbols judged against the paper the lamp makes of it: the lamp's colour, read
from the cards whose paper did not clip, raises the clipped channels of its white to the least
paper of that colour at least as bright as seen (never past OVEREXPOSED_MAX), so its pale blends
are no longer seen as far too bright there, and a symbol whose own ink carries on into its halo
seen against that paper too is covered (a pale fingertip looks like paper in a little shade
against the clipped white, and shows its hue against the lamp's paper); that read is kept on the
same terms. Where no card's paper escaped the clip, each card's own printed border band tells
how far its paper lies past the clip in the clipped channels (`_band_white`); a card so
completed keeps the symbols it first read (`CardRead.first_symbols`), by which the reader
decides the table's inks.
A web card's symbol read as the diamond or the triangle where its shape at the card's own pose
shows a disc (a coin lying on it) is flagged, through every re-read, and reported '?'
(`undimmed`). A coloured symbol still unread on a whole card, none of whose samples clipped in
some channels but not all, is read by its chroma (`symbol_chroma`): white light added by a
sleeve's sheen and a phone's saturation boost take its samples off its ink's line but keep
their channel differences along its ink's (where the white clipped, for every paper past it);
one washed until it clipped, by the channels left (`symbol_wash`; a red or a yellow only
where its halo is bare paper).

This module reads and re-reads (`read_cards`, `StagedRead`, `read_together`); the sample
pattern and poses (`symbol_samples`), the lamp (`symbol_lamp`), the guards against objects
lying across a symbol (`symbol_crossings`), the per-symbol decision (`symbol_decide`) and the
web symbols' shapes (`symbol_shape`) are modules of their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from .calibration import TableView
from .colour import (
    CLIP_HIGH,
    OTHER,
    PAPER_K,
    SHADE_RANGE,
    ColourModel,
    chroma_cast,
    clip_bounds,
    normalise,
    paper_grey,
)
from .fast_reduce import (
    along1,
    as_chars,
    as_strings,
    fast_mean,
    max3,
)
from .symbol_crossings import (
    OUTWARD_AT,
    crossed_edge,
    dark_across,
    darker_than_ink,
    grey_across,
    grey_read,
    ink_across,
    ink_beyond,
    runs_out,
    tinted_grey,
)
from .symbol_decide import (
    decide,
    match_prints,
    open_ring,
)
from .symbol_lamp import (
    LAMP_WHOLE,
    dark_band_lamp,
    lamp_of_reads,
    lamp_whites,
    rival_explains,
)
from .symbol_samples import (
    BORDER_DEPTHS,
    CLIP_NEAR,
    FLANKS,
    HALO_PTS,
    MIN_TURN_LETTERS,
    MIN_TURN_PAPER,
    N_BORDER,
    N_HALO,
    N_PAPER,
    N_SYMBOL,
    PAPER_PTS,
    PATTERN,
    CardRead,
    Pose,
    sample_cards,
)
from .symbol_shape import (
    as_letters,
    either_ruled_out,
    filled_rings,
    ink_fractions,
    ruled_out,
)
from .symbol_sheen import also_ruled_out, sheen_over, washed_paler

MIN_FLANK_PAPER = 3           # of a symbol's 6 flanking paper samples, for it to be trusted
MIN_HALO_PAPER = 4            # of a symbol's 8 halo samples, for it to be trusted


def read_cards(bgr: np.ndarray, poses: list[Pose], view: TableView, model: ColourModel,
               blurred_rings: bool | list[bool] = True) -> list[CardRead]:
    """Read every posed card in one pass. `blurred_rings` (for all poses, or one flag each)
    lets a grey blob read as a blurred ring and a washed-out symbol by its mean colour (see
    `decide`): right for whole hexagons, which are cards; not for a partial paper blob, where
    a dark gap between pale stones would do. A whole card left with a '?' (its paper not
    clipped) is read again turned by TURN_DEG either way (see `_turned`); one partly in a soft
    shadow, against a shaded white reference first (see `_shaded`). Those re-reads see the
    lamp the first read saw (`_read_pass`), so each card's re-read depends on its own pose
    alone, and both are made in one pass (a read's cost is mostly per call, not per card).
    The re-read by the lamp (`_lamp_read`), which follows the shaded one, is planned from the
    first reads (`_lamp_plan`) and made in that pass too; it stands where the shaded re-read
    left its cards and the lamp as planned (nearly always), else it is made after, as before.
    (`StagedRead` makes the same read a pass at a time, to share passes with other reads.)"""
    staged = StagedRead(bgr, poses, view, model, blurred_rings)
    while not staged.done:
        read_together([staged])
    return staged.reads


class _Rows(NamedTuple):
    """One read's cards in a pass (see `read_together`): poses, their samples, one
    `blurred_rings` flag each, the shade of their white reference (`_read_pass`; None: 1),
    the white of their symbols for the rows `ink_rows` gives (`_lamp_read`; None: none), the
    band's lamp scaling given (None: chosen over these rows, `dark_band_lamp`), and whether
    they are a first pass (each card at its own pose against its own white: only there is a
    symbol judged against its twins, `twin_mean`; a re-read completes a card only by the
    symbols' own samples)."""

    poses: list[Pose]
    samples: tuple[np.ndarray, np.ndarray]
    rings: np.ndarray
    shade: np.ndarray | None
    ink_white: np.ndarray | None
    ink_rows: np.ndarray | None
    band: np.ndarray | None
    first: bool = False


class StagedRead:
    """One `read_cards` call made a pass at a time: its first pass, then (where its first
    reads ask for one) its re-read pass. `read_together` makes the pass each of several such
    reads is due for as one pass: a card's read depends on the other cards of its own read
    only (through the lamp its band is judged by, chosen over that read's cards), never on
    those of another read in the same pass. `first`: the reads of the first pass (once made);
    `reads`: `read_cards`' result (once `done`)."""

    def __init__(self, bgr: np.ndarray, poses: list[Pose], view: TableView,
                 model: ColourModel, blurred_rings: bool | list[bool] = True) -> None:
        self.bgr, self.poses, self.view, self.model = bgr, poses, view, model
        self.allow = np.broadcast_to(np.asarray(blurred_rings, bool), (len(poses),))
        self.first: list[CardRead] | None = None
        self.reads: list[CardRead] | None = None if poses else []
        self._due: _Rows | None = None
        if poses:
            self.samples = sample_cards(bgr, poses, view)
            self._due = _Rows(poses, self.samples, self.allow, None, None, None, None, True)

    @property
    def done(self) -> bool:
        return self.reads is not None

    def due(self) -> _Rows:
        """The rows of the pass this read is due for (not `done`)."""
        assert self._due is not None
        return self._due

    def take(self, reads: list[CardRead], lamp: np.ndarray | None) -> None:
        """The reads of the rows `due` gave, and the band's lamp scaling they were judged by."""
        if self.first is None:
            self._after_first(reads, lamp)
        else:
            self._finish(reads)

    def _after_first(self, reads: list[CardRead], lamp: np.ndarray | None) -> None:
        bgr, poses, view, allow = self.bgr, self.poses, self.view, self.allow
        self.first, self.lamp_of_reads = reads, lamp
        self._shade = _shade_of(self.samples, reads, allow)
        self._turns = _turn_todo(reads, allow)
        self._plan = _lamp_plan(bgr, poses, view, reads, allow, lamp, self.samples)
        self._due, self._cuts = _reread_rows(bgr, poses, view, self._shade, self._turns, lamp,
                                             self.samples, self._plan)
        if self._due is None:
            self._finish([])

    def _finish(self, alt: list[CardRead]) -> None:
        n_shade, n_turned = self._cuts
        shaded, turned, lamped = alt[:n_shade], alt[n_shade:n_turned], alt[n_turned:]
        assert self.first is not None
        reads = _shaded(list(self.first), self._shade[0], shaded, self.model,
                        _ring_check(self.bgr, self.poses, self.view))
        crossed = [r.crossed for r in reads]
        reads = _lamp_read(self.bgr, self.poses, self.view, self.model, reads, self.allow,
                           self.lamp_of_reads, self._plan, lamped, self.samples)
        reads = _turned(reads, self.allow, self._turns, turned)
        # a symbol an object crosses onto at the card's own pose (read as it is or against the
        # shade) is not read through a re-read (turned, its samples can miss the object's edge)
        self.reads = [uncrossed(r, c) if any(c) else r
                      for r, c in zip(reads, crossed, strict=True)]
        # a letter the shape at the card's own pose rules out stays ruled out, however a
        # re-read came to it (turned, its shape samples can miss a coin's edge)
        self.reads = [r if (not f.not_shape or f.not_shape == r.not_shape)
                      and f.by_shape in ((), r.by_shape)
                      else replace(r, not_shape=either_ruled_out(f.not_shape, r.not_shape),
                                   by_shape=either_ruled_out(f.by_shape, r.by_shape))
                      for r, f in zip(self.reads, self.first, strict=True)]
        # a web symbol washed pale whose shape and hue agree is read (`washed`; imported here,
        # as it reads shapes with `shape_ink`, which builds on this module)
        from .washed import washed_read

        self.reads = washed_read(self.bgr, self.poses, self.view, self.model, self.reads)
        self._due = None


def read_together(staged: list[StagedRead]) -> None:
    """The pass each read of `staged` that is not done is due for (`StagedRead`), made as one
    pass (all on one frame with one colour model)."""
    live = [s for s in staged if not s.done]
    if not live:
        return
    rows = [s.due() for s in live]
    bgr, view, model = live[0].bgr, live[0].view, live[0].model
    assert all(s.bgr is bgr and s.view is view and s.model is model for s in live)
    poses = [q for r in rows for q in r.poses]
    vals = np.concatenate([r.samples[0] for r in rows])
    inside = np.concatenate([r.samples[1] for r in rows])
    rings = np.concatenate([r.rings for r in rows])
    shade = None
    if any(r.shade is not None for r in rows):
        # (a shade of 1 is the white reference itself: `_read_pass` reads such rows as unshaded)
        shade = np.concatenate([np.ones((len(r.poses), len(PATTERN))) if r.shade is None
                                else r.shade for r in rows])
    ink_white = ink_rows = None
    starts = np.cumsum([0, *(len(r.poses) for r in rows)])[:-1].tolist()
    if any(r.ink_rows is not None for r in rows):
        ink_white = np.concatenate([r.ink_white for r in rows if r.ink_white is not None])
        ink_rows = np.concatenate([r.ink_rows + at for r, at in zip(rows, starts, strict=True)
                                   if r.ink_rows is not None])
    first = np.concatenate([np.full(len(r.poses), r.first) for r in rows])
    reads, lamps = _read_rows(bgr, poses, view, model, rings, (vals, inside), shade, ink_white,
                              [(len(r.poses), r.band) for r in rows], ink_rows, first)
    for s, r, at, lamp in zip(live, rows, starts, lamps, strict=True):
        s.take(reads[at:at + len(r.poses)], lamp)


def _reread_rows(bgr: np.ndarray, poses: list[Pose], view: TableView,
                 shade: tuple[list[int], np.ndarray, np.ndarray, np.ndarray], turns: list[int],
                 lamp: np.ndarray | None, samples: tuple[np.ndarray, np.ndarray] | None = None,
                 plan: LampPlan | None = None) -> tuple[_Rows | None, tuple[int, int]]:
    """The rows of the re-read pass and where its shaded and turned reads end (None where it
    has none): the cards `shade` gives (`_shade_of`: indices, samples and shade) against their
    shaded white reference, the cards `turns` gives at their poses turned by TURN_DEG, first
    one way for all, then the other (unshaded: a shade of 1), and, given a `plan` to fuse
    (`_lamp_plan`), its cards against the paper the lamp makes (`samples`: every card's first
    samples, which those reuse). `lamp`: the band's lamp scaling the first read chose (see
    `_read_pass`)."""
    keep, vals, inside, shade_at = shade
    lit = [] if plan is None or not plan.fused else [plan.todo[k] for k in plan.keep]
    if not keep and not turns and not lit:
        return None, (0, 0)
    turn = math.radians(TURN_DEG)
    rotated = [_rotate(poses[i], t) for t in (turn, -turn) for i in turns]
    n_shade = len(keep)
    if rotated:
        t_vals, t_inside = sample_cards(bgr, rotated, view)
        vals, inside = np.concatenate([vals, t_vals]), np.concatenate([inside, t_inside])
        shade_at = np.concatenate([shade_at, np.ones((len(rotated), len(PATTERN)))])
    ink_white = ink_rows = None
    if lit:
        assert plan is not None and samples is not None
        vals = np.concatenate([vals, samples[0][lit]])
        inside = np.concatenate([inside, samples[1][lit]])
        shade_at = np.concatenate([shade_at, np.ones((len(lit), len(PATTERN)))])
        ink_white = plan.ink_white[plan.keep]
        ink_rows = np.arange(len(vals) - len(lit), len(vals))
    todo = [poses[i] for i in keep] + rotated + [poses[i] for i in lit]
    rows = _Rows(todo, (vals, inside), np.ones(len(todo), bool), shade_at if keep else None,
                 ink_white, ink_rows, lamp)
    return rows, (n_shade, n_shade + len(rotated))


def undimmed(read: CardRead) -> CardRead:
    """`read` with the symbols read darker than their ink prints (`CardRead.dim`), or as a
    letter their shape rules out (`CardRead.not_shape`: the letters each symbol's shape rules
    out), unread."""
    gone = read.dim
    if read.not_shape:
        off = [c in x for c, x in zip(read.symbols, read.not_shape, strict=True)]
        gone = tuple(off) if not gone else tuple(a or b for a, b in zip(gone, off, strict=True))
    return uncrossed(read, gone) if any(gone) else read


def uncrossed(read: CardRead, crossed: tuple[bool, ...]) -> CardRead:
    """`read` with the symbols `crossed` marks '?' (confidence 0)."""
    symbols = "".join("?" if c else t for t, c in zip(read.symbols, crossed, strict=True))
    conf = tuple(0.0 if c else v for v, c in zip(read.edge_confidence, crossed, strict=True))
    unread = (tuple(u and not c for u, c in zip(read.unread_ink, crossed, strict=True))
              if read.unread_ink else ())
    return replace(read, symbols=symbols, edge_confidence=conf, unread_ink=unread)


# A soft shadow (a hand's, the lamp's edge) dims part of a card without tinting it: its paper
# there is grey and darker than the card's white reference, and its symbols darker with it, so
# they fall outside the inks' shade range or their paper stops counting as paper. A card that
# shows such shade is read again with its white reference scaled point by point by the shade
# of the paper around each point (SHADE_SIGMA: a kernel a symbol's halo wide).
SHADE_SIGMA = 0.2          # card-frame units (apothems)
# paper-normalised luminance of paper in shade, or lit beyond the white reference (which is
# the card's paper in the middle of its brightness range, so partly shade itself)
SHADE_LUM = (0.4, 1.6)
SHADE_DEEP = 0.85          # a paper sample this dark is in shade
MIN_SHADED = 3             # of the card's paper and halo samples, for it to count as shaded
_SURROUND = np.concatenate([PAPER_PTS, HALO_PTS])
_SHADE_K = np.exp(-((PATTERN[:, None, :] - _SURROUND[None, :, :]) ** 2).sum(-1)
                  / (2.0 * SHADE_SIGMA ** 2))                   # PATTERN x surround


def _shade_of(samples: tuple[np.ndarray, np.ndarray], reads: list[CardRead], allow: np.ndarray
              ) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """(indices, samples, in frame, shade: cards x PATTERN points) of the whole cards
    (`allow`; `samples`: every card's `sample_cards`, as the first read took them) to read
    again against a shaded white reference (`_shaded`): those with a '?' or
    paper that does not all look like paper, whose paper did not clip, and which show paper
    in shade (MIN_SHADED of their paper and halo samples grey and darker than SHADE_DEEP of
    their white). `reads`: the first reads of those samples."""
    # (a card, not a blob: as many letters as `_turned` asks; paper not all paper: below the
    # bar `_turned` sets for "nearly all paper")
    todo = [i for i, r in enumerate(reads)
            if allow[i] and (not r.complete or r.paper_ok < MIN_TURN_PAPER)
            and r.letters >= MIN_TURN_LETTERS and max(r.white_bgr) < CLIP_HIGH]
    none = ([], np.zeros((0, len(PATTERN), 3), np.float32), np.zeros((0, len(PATTERN)), bool),
            np.zeros((0, len(PATTERN))))
    if not todo:
        return none
    vals, inside = samples[0][todo], samples[1][todo]
    ns = 6 * N_SYMBOL
    halo_at = ns + N_PAPER + N_BORDER
    # (their white reference as the first read found it from these samples: float32 values,
    # carried through `CardRead.white_bgr` as Python floats unchanged)
    white = np.array([reads[i].white_bgr for i in todo], np.float32)
    around = np.concatenate([vals[:, ns:ns + N_PAPER], vals[:, halo_at:]], 1)
    ok_in = np.concatenate([inside[:, ns:ns + N_PAPER], inside[:, halo_at:]], 1)
    norm = normalise(around, white[:, None, :])
    lum, grey = paper_grey(norm[..., 0], norm[..., 1], norm[..., 2])
    # (a sample clipped in any channel tells no shade: glare, or paper lit past the clip)
    use = (grey & ok_in & (lum >= SHADE_LUM[0]) & (lum <= SHADE_LUM[1])
           & (max3(around) < CLIP_NEAR))
    deep = np.count_nonzero(use & (lum < SHADE_DEEP), 1) >= MIN_SHADED
    if not deep.any():
        return none
    w = use * lum
    num = w @ _SHADE_K.T
    den = use.astype(np.float64) @ _SHADE_K.T
    # where no paper is near (a symbol between covered paper), the card's own white stands
    shade = np.where(den > 0.05, num / np.maximum(den, 1e-9), 1.0)
    keep = np.flatnonzero(deep)
    return [todo[k] for k in keep], vals[keep], inside[keep], shade[keep]


def _shaded(reads: list[CardRead], todo: list[int], alt: list[CardRead], model: ColourModel,
            rings: Callable[[list[tuple[int, list[int]]]], list[bool]]) -> list[CardRead]:
    """`reads`, with each card `todo` gives (`_shade_of`) replaced by its read against a
    shaded white reference (`alt`) when that read is complete and has every letter of the
    first. An object that read sees crossing onto a symbol is kept either way
    (`CardRead.crossed`: `read_cards` lets no later re-read fill that symbol in). A grey ink
    (the ring) filled in so stands only where `rings` (given (card, its directions filled in
    grey) pairs, whether each plainly shows the printed ring: `ring_shape.rings_shown`) says
    so."""
    greys = {n for n, g in zip(model.letters, model.neutral, strict=True) if g}
    asked: list[tuple[int, CardRead, list[int]]] = []
    for a, i in zip(alt, todo, strict=True):
        r = reads[i]
        # the shade lifts what it dims: it must not cost the paper its look (the border band
        # is judged as in the first read); and a grey ink is read through shade only where
        # its shape is the ring's: a grey object lying on the card (a coin, a pen) looks like
        # paper in deep shade, and the symbol it half covers, seen against that shade, like
        # a ring by its colour
        grey_dirs = [d for d, (a_, b) in enumerate(zip(r.symbols, a.symbols, strict=True))
                     if a_ == "?" and b in greys]
        whole = a.complete and _agrees(r.symbols, a.symbols) and a.paper_ok >= r.paper_ok
        if whole and grey_dirs:
            asked.append((i, a, grey_dirs))
        else:
            reads[i] = _shade_kept(r, a, whole and not grey_dirs)
    if asked:
        for (i, a, _), ring in zip(asked, rings([(i, d) for i, _, d in asked]), strict=True):
            reads[i] = _shade_kept(reads[i], a, ring)
    return reads


def _ring_check(bgr: np.ndarray, poses: list[Pose], view: TableView
                ) -> Callable[[list[tuple[int, list[int]]]], list[bool]]:
    """`_shaded`'s `rings` for the cards at `poses`: given (card, directions) pairs, whether
    each plainly shows the printed ring there (`ring_shape.rings_shown`)."""
    # (imported here: `ring_shape` reads shapes with `shape_ink`, which builds on this module)
    from .ring_shape import rings_shown

    def rings(asked: list[tuple[int, list[int]]]) -> list[bool]:
        return rings_shown(bgr, [poses[i] for i, _ in asked], view, [d for _, d in asked])

    return rings


def _shade_kept(r: CardRead, a: CardRead, keep: bool) -> CardRead:
    """A card first read `r` after its read against the shade, `a`: `a` where `keep` (with
    the objects `r` saw crossing onto its symbols), else `r`, with those `a` saw too: an object
    seen crossing onto a symbol against the shade is there all the same, and no later re-read
    (`_turned`) fills that symbol in."""
    if keep:
        return a if not any(r.crossed) else replace(a, crossed=r.crossed)
    if any(a.crossed):
        return replace(r, crossed=tuple(np.logical_or(r.crossed, a.crossed).tolist()))
    return r


# A card's pose angle comes from its outline and the lattice, which blur (motion above all),
# perspective and a hand over an edge can leave a few degrees off; each symbol's samples then
# sit sideways on its edge (0.6 apothem x the error: ~1.5 px at 4 degrees on a 50 px card),
# its halo on its ink, and it reads covered or weak.
TURN_DEG = 4.0


def _turn_todo(reads: list[CardRead], allow: np.ndarray) -> list[int]:
    """The whole cards (`allow`) to read again turned (`_turned`): those with a '?', at least
    MIN_TURN_LETTERS letters and paper that did not clip and is nearly all paper
    (MIN_TURN_PAPER). A later re-read only ever completes a card, so those `_turned` still
    asks for after it are among these."""
    # not where the paper clipped the sensor: its blends' colours are uncertain there (see
    # `decide`), and a symbol left '?' for that stays '?'
    # nor where the card's own paper is not all paper: a hand or a sleeve may lie over it,
    # and a symbol it covers must stay '?' (turned, its samples can miss the cover's edge)
    return [i for i, r in enumerate(reads)
            if allow[i] and not r.complete and r.letters >= MIN_TURN_LETTERS
            and max(r.white_bgr) < CLIP_HIGH and r.paper_ok >= MIN_TURN_PAPER]


def _turned(reads: list[CardRead], allow: np.ndarray, todo: list[int], alt: list[CardRead]
            ) -> list[CardRead]:
    """`reads`, with each card of `todo` (`_turn_todo` of the first reads) that `_turn_todo`
    still takes replaced by its read at the pose turned by TURN_DEG (`alt`: every card of
    `todo` turned one way, then the other; the first that qualifies) when that read is
    complete and agrees with every letter the first read made: the symbols sit where the
    print puts them, so a pose that finds every one of them, under the same rules, is the
    card's own. A letter never changes; only unsure symbols are filled in."""
    still = set(_turn_todo(reads, allow))
    for k, i in enumerate(todo):
        if i not in still:
            continue
        for a in (alt[k], alt[len(todo) + k]):
            if a.complete and _agrees(reads[i].symbols, a.symbols):
                reads[i] = a
                break
    return reads


def _rotate(pose: Pose, turn: float) -> Pose:
    """The pose turned about its centre by `turn` radians."""
    return Pose(pose.centre, pose.apothem, pose.angle + turn, pose.turn, pose.shape)


def _agrees(first: str, second: str) -> bool:
    """Whether `second` has every letter `first` read (where `first` is not '?')."""
    return all(a in ("?", b) for a, b in zip(first, second, strict=True))


def _read_cards(bgr: np.ndarray, poses: list[Pose], view: TableView, model: ColourModel,
                blurred_rings: bool | list[bool] = True,
                samples: tuple[np.ndarray, np.ndarray] | None = None,
                shade: np.ndarray | None = None,
                ink_white: np.ndarray | None = None,
                band_lamp: np.ndarray | None = None,
                ink_rows: np.ndarray | None = None) -> list[CardRead]:
    """`read_cards` at the poses given (`samples`: their `sample_cards`, when the caller has
    them); `shade` (cards x PATTERN points, see `_shaded`) scales each card's white reference
    point by point for its symbol, paper and halo samples; `ink_white` (cards x 3 BGR, see
    `_lamp_read`) replaces it for the symbols and their means; `band_lamp` (see `_read_pass`)
    is the lamp's scaling for the band of cards whose paper clipped in every channel;
    `ink_rows`: the cards `ink_white` is for (one row each), where not all."""
    return _read_pass(bgr, poses, view, model, blurred_rings, samples, shade, ink_white,
                      band_lamp, ink_rows)[0]


def _read_pass(bgr: np.ndarray, poses: list[Pose], view: TableView, model: ColourModel,
               blurred_rings: bool | list[bool] = True,
               samples: tuple[np.ndarray, np.ndarray] | None = None,
               shade: np.ndarray | None = None,
               ink_white: np.ndarray | None = None,
               band_lamp: np.ndarray | None = None,
               ink_rows: np.ndarray | None = None
               ) -> tuple[list[CardRead], np.ndarray | None]:
    """(`_read_cards`' reads, the lamp's scaling its border test used: `band_lamp` if given,
    else the one it chose for the cards whose paper clipped in every channel, if any; see
    `dark_band`). A card's read depends on the others of the pass only through that choice
    (one lamp lights the table), so passing it on makes a re-read depend on its pose alone."""
    if not poses:
        return [], band_lamp
    reads, lamps = _read_rows(bgr, poses, view, model, blurred_rings, samples, shade,
                              ink_white, [(len(poses), band_lamp)], ink_rows)
    return reads, lamps[0]


def _read_rows(bgr: np.ndarray, poses: list[Pose], view: TableView, model: ColourModel,
               blurred_rings: bool | list[bool] | np.ndarray,
               samples: tuple[np.ndarray, np.ndarray] | None,
               shade: np.ndarray | None, ink_white: np.ndarray | None,
               groups: list[tuple[int, np.ndarray | None]], ink_rows: np.ndarray | None,
               twin_rows: np.ndarray | None = None
               ) -> tuple[list[CardRead], list[np.ndarray | None]]:
    """`_read_pass` of the cards of several reads at once: `groups` (cards, band lamp given
    or None), one per read in the order of `poses`, each with its own band lamp (chosen over
    its own cards where not given); the lamp of each. `twin_rows` (cards): those whose
    symbols are also judged against their twins (`decide`'s `twin`; None: none), where their
    paper reads as paper (MIN_TURN_PAPER): against their grey rings (`twin_ring`) on any such
    card, against their coloured twins (`twin_mean`) where the paper did not clip in every
    channel."""
    allow = np.broadcast_to(np.asarray(blurred_rings, bool), (len(poses),))
    any_blurred = bool(allow.any())
    vals, inside = samples if samples is not None else sample_cards(bgr, poses, view)
    ns = 6 * N_SYMBOL
    paper_vals = vals[:, ns:ns + N_PAPER]
    white = _white_reference(paper_vals, inside[:, ns:ns + N_PAPER])
    shape = (len(poses), 6, N_SYMBOL)
    # Only the symbol, paper and halo samples are explained by the colour model (the border
    # band is judged by its own darkness below): the fit is per sample, so leaving the border
    # out changes nothing else and saves a third of the work. In `seen` the halo follows the
    # paper, then each symbol's mean colour.
    halo_at = ns + N_PAPER + N_BORDER
    seen = [vals[:, :ns + N_PAPER], vals[:, halo_at:]]
    if any_blurred:   # the mean-colour reading is for whole hexagons too (see `decide`):
        # each symbol's mean colour is explained in the same call as the samples
        seen.append(fast_mean(vals[:, :ns].reshape(*shape, 3), 2))
    seen = np.concatenate(seen, 1)
    halo_e = ns + N_PAPER          # where the halo starts in `seen`
    n_pts = halo_e + 6 * N_HALO    # and the means
    white_at = white[:, None, :]
    if shade is not None:          # the white reference where each of `seen` was sampled
        at = [shade[:, :ns + N_PAPER], shade[:, halo_at:]]
        if any_blurred:
            at.append(fast_mean(shade[:, :ns].reshape(shape), 2))
        white_at = white_at * np.concatenate(at, 1)[..., None]
    # (`_lamp_read`: symbols and their means against the paper the lamp makes, the paper and
    # halo against the paper seen)
    lamp_rows: slice | np.ndarray | None = None
    if ink_white is None:
        ink_white = white
    else:
        rows: slice | np.ndarray = slice(None)
        if ink_rows is not None:   # (the other cards' symbols against their own white)
            full = white.copy()
            full[ink_rows] = ink_white
            rows, ink_white = ink_rows, full
        white_at = np.broadcast_to(white_at, (len(poses), seen.shape[1], 3)).copy()
        white_at[rows, :ns] = ink_white[rows, None, :]
        white_at[rows, n_pts:] = ink_white[rows, None, :]
        lamp_rows = rows
    norm = normalise(seen, white_at)
    cast = chroma_cast(ink_white)[:, None, :]
    # where the sensor clipped, the colour seen is only a bound (see `clip_bounds`); JPEG's
    # coarse colour tints small symbols with the paper's chroma (see `chroma_cast`): the
    # symbol samples and means are refitted for it, the paper and halo are not
    sym_cast = np.zeros_like(norm)
    sym_cast[:, :ns] = cast
    sym_cast[:, n_pts:] = cast
    bounds = clip_bounds(seen, white_at, norm)
    lamp_halo = None
    if lamp_rows is None:
        kind, alpha, dark = model.explain(norm, bounds, sym_cast)
    else:
        # (the halo of the cards read against the lamp's paper is also explained against that
        # paper, in the same call: see `ink_beyond` below)
        lamp_vals = vals[lamp_rows, halo_at:]
        lamp_white = ink_white[lamp_rows][:, None, :]
        lamp_norm = normalise(lamp_vals, lamp_white)
        lamp_bounds = clip_bounds(lamp_vals, lamp_white, lamp_norm)
        flat = norm.shape[0] * norm.shape[1]
        kind, alpha, dark = model.explain(
            np.concatenate([norm.reshape(-1, 3), lamp_norm.reshape(-1, 3)]),
            (np.concatenate([bounds[0].reshape(-1, 3), lamp_bounds[0].reshape(-1, 3)]),
             np.concatenate([bounds[1].reshape(-1, 3), lamp_bounds[1].reshape(-1, 3)])),
            np.concatenate([sym_cast.reshape(-1, 3), np.zeros((lamp_norm.size // 3, 3),
                                                              sym_cast.dtype)]))
        lamp_kind = kind[flat:].reshape(lamp_vals.shape[:2])
        lamp_kind[~inside[lamp_rows, halo_at:]] = OTHER     # (as the first read's, below)
        lamp_halo = (lamp_kind, alpha[flat:].reshape(lamp_vals.shape[:2]))
        kind, alpha, dark = (v[:flat].reshape(norm.shape[:2]) for v in (kind, alpha, dark))
    mean_fit = None
    if any_blurred:
        mean_fit = (kind[:, n_pts:], alpha[:, n_pts:])
        kind, alpha, dark = kind[:, :n_pts], alpha[:, :n_pts], dark[:, :n_pts]
    kind[~np.concatenate([inside[:, :halo_e], inside[:, halo_at:]], 1)] = OTHER
    # the paper and then the halo samples (`seen` from ns to n_pts) the model calls paper
    surround = kind[:, ns:n_pts] == PAPER_K
    is_paper = surround[:, :N_PAPER]
    flank_dark = fast_mean(dark[:, ns:ns + N_PAPER][:, FLANKS])
    # the symbol samples also as a grey ink tinted by the paper's chroma (see `decide`)
    sym_norm = norm[:, :ns].reshape(*shape, 3)

    def bleed(where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # only the symbols `decide` asks about (rings): the fit is per sample
        return model.grey_with_bleed(sym_norm[where], cast[np.nonzero(where)[0]])

    def clip_rivals(where: np.ndarray, best: np.ndarray) -> np.ndarray:
        # only the pale symbols `decide` asks about, on cards whose paper clipped
        return rival_explains(norm[:, n_pts:], white, cast[:, 0], where, best, model)

    # (the cards whose paper clipped in every channel, as `dark_band` takes them: a symbol
    # split between two inks there is judged against its card's print, `split_print`)
    every = (white >= CLIP_NEAR).all(1) & (white.max(1) >= CLIP_HIGH)
    print_match = None
    if any_blurred and every.any():
        def print_match(ci: np.ndarray, si: np.ndarray, rival: np.ndarray, own: np.ndarray,
                        beside: np.ndarray) -> np.ndarray:
            return match_prints(sym_norm, vals[:, :ns].reshape(*shape, 3), every, ci, si,
                                rival, own, beside)

    # Something over a symbol (a fingertip) covers the paper beside it too: a symbol with most
    # of its flanking paper gone is not trusted, whatever its colour says.
    halo_paper = surround[:, N_PAPER:].reshape(len(poses), 6, N_HALO).sum(-1)
    covered = (is_paper[:, FLANKS].sum(-1) < MIN_FLANK_PAPER) | (halo_paper < MIN_HALO_PAPER)
    # A soft shadow (a lamp's, a hand's from afar) dims the paper without tinting it and
    # covers nothing: a symbol whose whole surround, flanks and halo, is paper or paper in
    # shade is not covered. Anything reaching over the symbol from outside must cross the
    # halo, and a fingertip or a sleeve shows its own colour (or darkness) there.
    # But a grey object (a coin, a pen cap) lying over a symbol and its surround looks like
    # paper in deep shade there, and like a blurred ring over the symbol: where the surround is
    # only excused as shade, no grey blob is read as a ring (`decide`'s `in_shade`).
    excused = np.zeros_like(covered)
    if covered.any():
        excused = covered & _in_shade(surround, norm[:, ns:n_pts])
        covered &= ~excused
    # (a symbol is judged against its twins only on a card whose paper reads as paper nearly
    # all round, MIN_TURN_PAPER: its pose is the card's; a pose a little off the card takes
    # the table or a neighbour's edge into its paper, and part of a symbol into its samples)
    # Nor on a card whose paper clipped in every channel (`every`): twins look alike under one
    # light, and such a card does not show its light. A glossy sleeve's sheen or a glare spot
    # washes part of it by an amount the clip hides, and a red disc so washed is pale orange,
    # its mean colour within TWIN_MEAN_MATCH of a washed yellow triangle's on the card (held-out
    # `sleeves` 89: read yellow, tests/vision/test_sleeve_sheen.py). A lamp that clips only
    # its strongest channel still shows one light in the others (hard 161, 437, 501: red clipped,
    # their diamonds filled in by their twins), and is judged so.
    # (the grey ring's twins, `twin_ring`, are judged on cards whose paper clipped too: a ring
    # is told from a washed disc by its hole, which the clip does not fill)
    ring_rows = None
    if twin_rows is not None:
        ring_rows = twin_rows & (np.count_nonzero(is_paper, 1) >= MIN_TURN_PAPER * N_PAPER)
        twin_rows = ring_rows & ~every
    text, conf = decide(kind[:, :ns].reshape(shape), alpha[:, :ns].reshape(shape),
                        dark[:, :ns].reshape(shape), model,
                        flank_dark if any_blurred else None, mean_fit,
                        None if allow.all() else allow,
                        bleed, white.max(1) >= CLIP_HIGH, excused,
                        clip_rivals if any_blurred else None, print_match,
                        (sym_norm, twin_rows, ring_rows)
                        if any_blurred and ring_rows is not None and ring_rows.any() else None,
                        (vals[:, :ns].reshape(*shape, 3), white) if any_blurred else None,
                        halo_paper == N_HALO)
    # Printed ink stops at the symbol's edge: blur leaves at most a faint trace of it in the
    # halo. A coloured symbol whose own ink shows at near half strength in several halo
    # samples carries on past its edge: a fingertip or a sleeve of that hue lies over it.
    covered |= ink_beyond(text, kind[:, halo_e:n_pts], alpha[:, halo_e:n_pts], model)
    covered |= tinted_grey(text, kind[:, :ns].reshape(shape), sym_norm, model)
    # (judged against the paper the lamp makes: not a symbol lit by more than the lamp,
    # `sheen_over`)
    if lamp_rows is not None:
        covered[lamp_rows] |= sheen_over(vals[lamp_rows, :ns].reshape(-1, 6, N_SYMBOL, 3),
                                         white[lamp_rows])
        # (and its own ink carrying on into its halo seen against that paper too: a pale
        # fingertip that looks like paper in a little shade against the clipped white keeps
        # its own hue against the lamp's paper, as the symbol under it does)
        assert lamp_halo is not None
        covered[lamp_rows] |= ink_beyond([text[i] for i in np.arange(len(poses))[lamp_rows]],
                                         *lamp_halo, model)
    # (the band against the card's own white, shaded or not: it is printed dark, and a shade
    # over it only darkens it further; near the card's edge, the shade between the outer
    # paper samples is a guess)
    band = normalise(vals[:, ns + N_PAPER:halo_at], white[:, None, :]).reshape(
        len(poses), len(BORDER_DEPTHS), -1, 3)
    # (a web card's symbols whose shape samples rule out the diamond or the triangle: the read
    # keeps the letter its colour gave, flagged, as for `dim`: the table-wide ink doubt must
    # still see a red disc of a far-off print read as yellow; the final report leaves a letter
    # so ruled out unread, `undimmed`)
    not_shape: list[tuple[str, ...]] = [()] * len(poses)
    halo_vals = vals[:, halo_at:].reshape(len(poses), 6, N_HALO, 3)
    halo_is_paper = surround[:, N_PAPER:].reshape(len(poses), 6, N_HALO)
    if model.edition == "web":
        not_b, not_y = ruled_out(*ink_fractions(
            bgr, poses, view, vals[:, :ns].reshape(*shape, 3), halo_vals, halo_is_paper,
            band))
        not_shape = as_letters({"B": not_b, "Y": not_y})
    elif model.grey_k is not None:
        # (a holodex symbol read as the grey ring whose core is as dark as its stroke is a
        # solid disc, no ring: `filled_rings`)
        filled = filled_rings(vals[:, :ns].reshape(*shape, 3), halo_vals, halo_is_paper, band)
        not_shape = as_letters({model.letters[model.grey_k]: filled})
    by_shape = not_shape
    # (a coloured object over a symbol whose colour runs on across the band: `ink_across`;
    # judged on the letters as decided, and counted as a crossing below)
    across = ink_across(text, norm[:, halo_e:n_pts], band, model,
                         (vals[:, ns + N_PAPER:halo_at] >= CLIP_NEAR).any(-1).reshape(
                             band.shape[:-1]))
    # (a dark object of the grey ring's own colour lying across the edge onto a grey reading:
    # `grey_across`, against the card's white like the band)
    across |= grey_across(text, vals[:, halo_at:], white, band, model, vals[:, :ns])
    # (a dark object darker than the band beside it, from the paper to past the outline:
    # `dark_across`, whatever the symbol reads as)
    across |= dark_across(text, band, model)
    # (an object's one colour running straight from the symbol's middle to past the outline)
    # (also from the halo facing the edge, for a grey blob whose hole does not show, and for a
    # coloured reading, where the object came in aslant: `HALO_ASIDE_COLOURED`)
    greys, read = grey_read(text, model), as_chars(text) != "?"
    across |= runs_out(bgr, poses, view, white, read, vals[:, :ns], vals[:, halo_at:], band,
                        greys & ~open_ring(dark[:, :ns].reshape(shape)), read & ~greys)
    if covered.any():
        conf = np.where(covered, 0.0, conf)
        text = as_strings(np.where(covered, "?", as_chars(text)))
    # fractions of truth values (their mean, as NumPy takes it: the count over the total)
    paper_ok = np.count_nonzero(is_paper, 1) / N_PAPER
    in_band = inside[:, ns + N_PAPER:halo_at].reshape(band.shape[:-1])
    # (the cards that read as cards: the white of those whose paper did not clip tells the
    # lamp's colour to those whose paper did; see `dark_band`)
    whole = ((np.array([len(t) - t.count("?") for t in text]) >= MIN_TURN_LETTERS)
             & (paper_ok >= LAMP_WHOLE))
    if len(groups) == 1:
        dark, lamp = dark_band_lamp(band, white, whole, groups[0][1])
        lamps = [lamp]
    else:   # (each read's band by its own lamp: see `StagedRead`)
        parts, lamps, at = [], [], 0
        for n, given in groups:
            if n:
                part, lamp = dark_band_lamp(band[at:at + n], white[at:at + n],
                                             whole[at:at + n], given)
                parts.append(part)
            lamps.append(lamp if n else given)
            at += n
        dark = np.concatenate(parts)
    dark &= in_band
    banded = dark.any(1)
    border_ok = np.count_nonzero(banded, 1) / dark.shape[2]
    band_edges = banded.reshape(len(poses), 6, -1).sum(-1)
    # An object reaching over a symbol from beyond the card crosses its edge: the printed band
    # right outside the symbol gives way to the object's colour, and the paper between band
    # and symbol is gone (`crossed_edge`).
    crossed, past = crossed_edge(band)
    if crossed.any():   # ... and a halo sample between that edge and the symbol is not paper
        lost = np.zeros_like(crossed)
        seen = np.zeros_like(crossed)
        for toward in N_PAPER + OUTWARD_AT:    # in `surround`; in `norm` from ns
            lost |= ~(surround[:, toward] | _shaded_paper(norm[:, ns + toward]))
            seen |= ~surround[:, toward]
        # (where the object runs on past the card's outline, no shadow explains the edge, so
        # a halo sample that only looks like paper in shade is no paper either: a grey object)
        crossed &= lost | (past & seen)
    crossed |= across   # (an object's ink running on across the band onto the symbol)
    if crossed.any():
        conf = np.where(crossed, 0.0, conf)
        text = as_strings(np.where(crossed, "?", as_chars(text)))
    in_frame = inside.all(1)
    dim = darker_than_ink(text, vals[:, :ns], vals[:, halo_at:], surround[:, N_PAPER:], model)
    # (a symbol read as a coloured ink that a darker ink washed by a sheen could show: that
    # letter ruled out, as a shape rules one out, `symbol_sheen`)
    washed = washed_paler(text, vals[:, :ns], white, model)
    if washed.any():
        not_shape = also_ruled_out(not_shape, text, washed)
    # (a symbol left unread by its colour alone, nothing over it: its shape may name it,
    # `shape_ink`, `washed_holodex`)
    free = (as_chars(text) == "?") & ~covered & ~crossed
    unread = [tuple(row) if any(row) else () for row in free.tolist()]
    # Python numbers for every card at once (tolist: the same values as float() / bool() each)
    return [CardRead(t, tuple(c), p, b, f, tuple(wh), tuple(x), tuple(d), not_shape=u,
                     by_shape=v, band_edges=tuple(e), unread_ink=w)
            for t, c, p, b, f, wh, x, d, u, v, e, w in zip(
                text, conf.tolist(), paper_ok.tolist(), border_ok.tolist(), in_frame.tolist(),
                white.tolist(), crossed.tolist(), dim.tolist(), not_shape, by_shape,
                band_edges.tolist(), unread, strict=True)], lamps


class LampPlan(NamedTuple):
    """The lamp re-read (`_lamp_read`) as the first reads of a `read_cards` call ask for it,
    worked out before the re-read pass (`_lamp_plan`): the cards to read again (`todo`), the
    lamp's colour they are judged by (`lamp`, `lamp_of_reads`), each one's white for its symbols
    (`ink_white`, one row per card of `todo`), the cards that white changes (`keep`, indices
    into `todo`), and whether their reads can join the re-read pass (`fused`)."""

    todo: list[int]
    lamp: np.ndarray | None
    ink_white: np.ndarray
    keep: np.ndarray
    fused: bool


def _lamp_todo(reads: list[CardRead], allow: np.ndarray) -> list[int]:
    """The cards `_lamp_read` reads again: whole (`allow`), a '?' and at least
    MIN_TURN_LETTERS letters, their paper clipped in some channel (CLIP_NEAR)."""
    return [i for i, r in enumerate(reads)
            if allow[i] and not r.complete and r.letters >= MIN_TURN_LETTERS
            and max(r.white_bgr) >= CLIP_NEAR]


def _lamp_plan(bgr: np.ndarray, poses: list[Pose], view: TableView, reads: list[CardRead],
               allow: np.ndarray, band: np.ndarray | None,
               samples: tuple[np.ndarray, np.ndarray] | None = None) -> LampPlan | None:
    """The lamp re-read the first `reads` ask for (`LampPlan`), or None where they ask for
    none. The shaded re-read, which comes first, can only complete a card (taking it off the
    lamp's list) or, through the paper it completes, change the lamp's colour (`lamp_of_reads`):
    `_lamp_read` checks that it did not before it takes these reads. They join the re-read
    pass (`fused`) unless that pass would choose the band's lamp scaling itself (the first
    read chose none, `band`) and one of their cards' paper clipped in every channel: the
    choice is made over the cards of a pass, and those would join it. (`samples`: the cards'
    `sample_cards`, where the caller has them.)"""
    todo = _lamp_todo(reads, allow)
    if not todo:
        return None
    lamp = lamp_of_reads(reads)
    white, ink_white, keep = lamp_whites(bgr, poses, view, reads, todo, lamp, samples)
    # (as `dark_band_lamp` takes them: clipped in every channel, and in one at CLIP_HIGH)
    lit = (white[keep] >= CLIP_NEAR).all(1) & (white[keep].max(1) >= CLIP_HIGH)
    return LampPlan(todo, lamp, ink_white, keep, band is not None or not lit.any())


def _lamp_read(bgr: np.ndarray, poses: list[Pose], view: TableView, model: ColourModel,
               reads: list[CardRead], allow: np.ndarray, band: np.ndarray | None = None,
               plan: LampPlan | None = None, lamped: list[CardRead] | None = None,
               samples: tuple[np.ndarray, np.ndarray] | None = None) -> list[CardRead]:
    """`reads`, with each whole card (`allow`) that has a '?' and at least MIN_TURN_LETTERS
    letters, whose paper clipped the sensor in some channel, replaced by its read with its
    symbols judged against the paper the lamp makes of it (`lamp_white`), when that read is
    complete and has every letter of the first. Where the paper clipped, the white reference is
    darker than the paper in the clipped channels, so a pale symbol's blends with the paper are
    seen too bright there and its hue pulled towards them (a blue diamond's red and green under
    a warm lamp): the lamp's colour, measured on the read's cards whose paper did not clip
    (`lamp_of_reads`), tells how much brighter the paper at least is there; where no card's paper
    escaped the clip, each card's own border band does (`band_white`), and a read completed
    so keeps the symbols first read (`CardRead.unlamped`). `band`: the lamp's scaling for the
    border band the first read chose (`_read_pass`). `plan`, `lamped`: the re-read as the
    first reads planned it (`_lamp_plan`) and its reads, made in the re-read pass (`fused`);
    taken when `reads` ask for the same lamp (the cards they ask for are always among the
    plan's: a re-read only completes a card), each card's read then being the same.
    (`samples`: every card's `sample_cards`, where the caller has them.)"""
    todo = _lamp_todo(reads, allow)
    if not todo:
        return reads
    lamp = lamp_of_reads(reads)
    if (plan is not None and plan.fused and lamped is not None
            and (lamp is None if plan.lamp is None
                 else lamp is not None and np.array_equal(lamp, plan.lamp))
            and set(todo) <= set(plan.todo)):
        alt = dict(zip((plan.todo[k] for k in plan.keep.tolist()), lamped, strict=True))
        pairs = [(alt[i], i) for i in todo if i in alt]
    else:
        _, ink_white, keep = lamp_whites(bgr, poses, view, reads, todo, lamp, samples)
        if not keep.size:
            return reads
        got = _read_cards(bgr, [poses[todo[k]] for k in keep], view, model, True,
                          ink_white=ink_white[keep], band_lamp=band)
        pairs = [(a, todo[k]) for a, k in zip(got, keep.tolist(), strict=True)]
    for a, i in pairs:
        if a.complete and _agrees(reads[i].symbols, a.symbols):
            reads[i] = a if lamp is not None else replace(a, unlamped=reads[i].symbols)
    return reads


def _in_shade(is_paper: np.ndarray, norm: np.ndarray) -> np.ndarray:
    """Per card and symbol (cards x 6): every flanking and halo sample is paper or paper in
    shade (`is_paper`, `norm`: cards x samples, the N_PAPER paper samples, then the halo's
    6 x N_HALO)."""
    bare = is_paper | _shaded_paper(norm)
    n = len(bare)
    flanks = bare[:, :N_PAPER][:, FLANKS].all(-1)
    return flanks & bare[:, N_PAPER:N_PAPER + 6 * N_HALO].reshape(n, 6, N_HALO).all(-1)


def _shaded_paper(norm: np.ndarray) -> np.ndarray:
    """Which paper-normalised samples (… x 3) look like the paper in a soft shadow: grey (as
    little spread between channels as paper shows, `colour.paper_grey`) and no darker
    than the deepest shade a coloured ink's fit accepts (SHADE_RANGE)."""
    lum, grey = paper_grey(norm[..., 0], norm[..., 1], norm[..., 2])
    return (lum >= SHADE_RANGE[0]) & (lum <= 1.0) & grey


def _white_reference(paper_vals: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Per-card paper colour (cards x 3): the mean of the samples ranked 40-90 % by brightness,
    robust to a few samples under a shadow, a finger, a stain or a glare spot."""
    # the sum over channels unrolled (NumPy adds them in this order)
    lum = np.where(inside, paper_vals[..., 0] + paper_vals[..., 1] + paper_vals[..., 2], -1.0)
    order = np.argsort(lum, axis=1)
    n = paper_vals.shape[1]
    pick = order[:, int(0.4 * n):int(0.9 * n)]
    vals = along1(paper_vals, pick)
    return np.maximum(fast_mean(vals, 1), 1.0)
