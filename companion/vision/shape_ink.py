"""Web symbols named by their shape where their colour names no letter. The web edition prints
each letter in a shape of its own (R a disc, B a diamond, Y a triangle), so a card carries its
symbols twice over; the reader goes by colour, and the shape only ever rules a letter out
(`symbol_shape`). But an office print photographed in a dim room can lose most of an ink's
colour (its blue diamonds dark violet-grey, `unnamed_ink`): no letter's ink fits them, and every
card showing one reads '?' to the referee, covered, for as long as the light stays so. A person
at the table reads them by their shape, and so does the reader here, where the two cues agree
and the table shows one ink.

The shape is matched as a whole: the symbol is sampled on a GRID x GRID lattice over
EXTENT symbol radii each way (at the card's pose), each sample projected on the line from the
card's paper to the symbol's core (how much of the symbol's ink it shows), and that picture
correlated (normalised cross-correlation: blur and contrast scale it, they do not change it)
with the three printed silhouettes, each shifted by up to SHIFT radii along and across its
edge (a pose a pixel or two off). A symbol shows a shape where that shape's best correlation
reaches MIN_MATCH and falls short of 1 by at most MISS_SHARE of what the next shape's does
(`shown`).

A symbol is named (`shape_named`) where its colour left it unread with nothing over it
(`CardRead.unread_ink`: not covered, nothing across the card's edge onto it), its shape shows the
diamond or the triangle (never the disc: a coin is one), its core's hue, where it has one
(chroma MIN_CHROMA or more), lies nearer that letter's ink than any other letter's, and its core
lies within INK_DIST of the median core of all such symbols of that shape on the table,
MIN_NAMED of them on MIN_NAMED_CARDS cards at least (one ink, printed and lit alike). It reads
as that shape's letter at NAMED_CONFIDENCE. Under an ink doubt (`inks.confused_letters`), a
symbol read as a letter in doubt is kept where its shape shows that letter (`shape_kept`): a
red printed so orange that the model reads it as yellow is a disc, and is left unread. On every
web card (the reader matches each card's shapes once a frame), a letter read whose own
silhouette falls RIVAL_GAP short of another letter's (`disagreeing`) is left unread too: colour
and shape disagree, and a colour misread would have to pass both. A letter of a faint ink
(`inks.faint_letters`: learned from cores no letter was read for) is left unread too where its
own silhouette is weak and another's plainly better (`faint_unshown`).

A symbol that colour left unread with nothing over it is also read where its own shape and hue
agree (`hue_named`), one symbol at a time: its shape shows a letter, and its core's hue, with
chroma HUE_CHROMA or more, lies nearer that letter's ink than any other coloured ink's and within
HUE_DEG of it. A glossy sleeve's sheen or a glare washes a symbol pale, its colour off any ink's
but still leaning to its own (a red disc pale pink or peach, a blue diamond pale sky blue), and
its shape stays plain. A pale red disc whose hue leans to yellow is read only where the clip
turned it so (`_clip_turned`: its core at `inks.CLIP_TURNED` of the paper or more in red, the
ink's brightest channel, and its hue within HUE_DEG of the red ink's): a wash lifts red to the clip
first and green and blue on past it, a peach the colour of a washed yellow, whose shape then
tells it (held-out `sleeves` 30000-30099: 12 cards more read, `phone-photo` 4, none misread);
short of the clip it keeps its '?'. A disc is read so
only where its core is no darker than the red ink (less PALE_TOL) in any channel: a wash only
lifts an ink, and a coin is dark. Measured on held-out web tables (`sleeves`, `phone-photo`,
`harsh`, `fingers`, `busy`, `hands`, `office-lowlight` and with fingers, seeds 0-99), of 338
symbols left unread with nothing over them, 44 showed a shape, every one the right letter; 41
of them a hue that agreed. A sheen band across a symbol, or a pose a little off it, leaves its
picture short of a plain shape (held-out `sleeves` 67: pink discs matching the disc by 0.90-0.91,
the diamond by 0.82-0.84); where the hue is decisive — HUE_LEAD_DEG nearer one ink than any
other — a weaker shape names it too: that letter's silhouette the best match, at WEAK_MATCH or
better and WEAK_LEAD ahead of the next. Measured on the final reads of 261 web tables (held-out
`sleeves`, `phone-photo`, `harsh`, `fingers`, `busy`, `hands`, `printer-far`,
`office-lowlight` and with fingers, `lowlight`, seeds 0-99; rendered hard 1-699), of 1162
symbols left unread with nothing over them the weaker shape named 31, every one the right
letter; of the 199 whose core's hue lay nearest another letter's ink, none showed that
letter's shape at WEAK_MATCH as its best. Holodex cards are not read by this shape test:
their R and B are both discs, and a ring blurred on a small card under a lamp that clips
fills its hole and takes a blue neighbour's tint, its picture as plainly a disc as a washed
disc's (`tests/vision/test_symbol_clip2.py`'s cards: disc 0.92-0.96, leading the ring by 0.24-0.33),
so the hue alone would name it; `washed_holodex` reads them, its disc judged against the card's
own printed discs. The reader reads washed symbols so on its final reads, and within every read
of cards mostly read (`washed`).

Measured on the symbols colour read (naming by shape off) on held-out web tables (`default`,
`fingers`, `harsh`, `office-lowlight`, `phone-photo`, `printer-far`, `sleeves`, seeds 0-99)
and rendered hard web tables (odd seeds 1-199): of 48 487, 36 918 showed a shape, and one of
them another letter than colour read (a fingertip over a blue diamond, matched as the disc,
which names nothing). Silhouettes averaged over two or 2.5 sample steps (blurred, as a blurred
symbol is) showed 5 and 4 wrong, a triangle as a diamond among them. Small symbols show
little: on a crafted 50 px card only the discs show."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache, partial

import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView
from .colour import ColourModel
from .inks import (
    HUE_CHROMA,
    MIN_CHROMA,
    MIN_CORES,
    at_clip,
    chroma,
    foreign_hues,
    wrap_angle,
)
from .symbol_samples import CardRead, Pose, pose_points, sample
from .symbols import uncrossed

SHAPES = "RBY"           # disc, diamond, triangle: the web letters in the order matched
SHAPE_LETTERS = "BY"     # the shapes that name a letter (not the disc: coins are discs)
GRID = 11                # samples along each side of a symbol's picture
EXTENT = 1.4             # symbol radii from its centre to the picture's edge
SHIFT = 0.2              # symbol radii: the silhouettes shifted by this, each way
SUPER = 6                # each picture sample's coverage from SUPER x SUPER points
# the picture's middle 3 x 3 samples (GRID² indices): the symbol's core
CORE_AT = tuple((GRID // 2 + i) * GRID + GRID // 2 + j for i in (-1, 0, 1) for j in (-1, 0, 1))
MIN_MATCH = 0.9          # the best correlation a shape shown reaches
MISS_SHARE = 0.5         # its shortfall from 1, at most this share of the next shape's
INK_DIST = 0.12          # paper-normalised RGB: a symbol this near its fellows' median core
MIN_NAMED = MIN_CORES    # symbols of one shape and ink, at least
MIN_NAMED_CARDS = 3      # on this many cards
NAMED_CONFIDENCE = 0.8   # a symbol named by its shape (two cues: shape and one table ink)
HUE_DEG = 45.0           # ... that hue within this of the ink of the letter its shape shows
PALE_TOL = 0.02          # a disc no darker than the red ink, less this, in any channel
HUE_LEAD_DEG = 25.0      # a washed core's hue this much nearer one ink than any other...
WEAK_MATCH = 0.8         # ...names it where that letter's shape is the best match, this good...
WEAK_LEAD = 0.03         # ...and this much better than the next shape's (`hue_named`)
RIVAL_MATCH = 0.85       # another letter's silhouette matching a symbol this well
RIVAL_GAP = 0.12         # and its own this much worse: the shape contradicts the letter
# A symbol read as a faint ink's letter (`faint_unshown`) must match its own silhouette this well,
# or fall short of another's by less than FAINT_RIVAL: on held-out `office-lowlight` 0-99 and
# 14000-14099, 400 such reads, all right, matched theirs at 0.93 or better; on a table printed
# 30° off in a dim room (held-out 35) its true red discs at 0.66 and more, while its yellow
# triangles, printed towards red and read as the faint red, matched the disc at 0.34-0.52, two
# of them another shape better by 0.05. Smeared in that dim light (`office-lowlight-fingers`
# 29), faint blue diamonds match theirs at 0.42-0.56, the triangle at most 0.01 better.
FAINT_SHAPE = 0.6
FAINT_RIVAL = 0.03


def _inside(shape: str, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Whether symbol-frame points (u along the edge normal, v across, in symbol radii) lie in
    the printed silhouette of `shape` ("R" disc, "B" diamond, "Y" triangle, apex out), as the
    card faces draw them (`synth.cardface`)."""
    if shape == "R":
        return u * u + v * v <= 1.0
    if shape == "B":
        return np.abs(u) / 1.08 + np.abs(v) / 0.78 <= 1.0
    corners = [1.12 * np.array([math.cos(a), math.sin(a)])
               for a in (0.0, 2.0 * math.pi / 3.0, -2.0 * math.pi / 3.0)]
    inside = np.ones(u.shape, bool)
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        inside &= (b[0] - a[0]) * (v - a[1]) - (b[1] - a[1]) * (u - a[0]) >= 0.0
    return inside


@cache
def web_templates() -> np.ndarray:
    """(shapes x shifts x GRID²) each web silhouette's templates (`templates_of`)."""
    return templates_of(tuple(partial(_inside, shape) for shape in SHAPES))


def templates_of(shapes: Sequence[Callable[[np.ndarray, np.ndarray], np.ndarray]]
                 ) -> np.ndarray:
    """(shapes x shifts x GRID²) each silhouette's coverage of the picture's samples at every
    shift (SHIFT radii each way), zero-mean and of unit length: `shapes` tell whether
    symbol-frame points (u along the edge normal, v across it, in symbol radii) lie inside."""
    step = 2.0 * EXTENT / (GRID - 1)
    fine = (np.arange(SUPER) + 0.5) / SUPER - 0.5
    at = np.linspace(-EXTENT, EXTENT, GRID)
    u = (at[:, None, None, None] + step * fine[None, None, :, None])   # GRID x 1 x SUPER x 1
    v = (at[None, :, None, None] + step * fine[None, None, None, :])   # 1 x GRID x 1 x SUPER
    u, v = np.broadcast_arrays(u, v)
    shifts = [(du, dv) for du in (-SHIFT, 0.0, SHIFT) for dv in (-SHIFT, 0.0, SHIFT)]
    out = np.empty((len(shapes), len(shifts), GRID * GRID))
    for i, inside in enumerate(shapes):
        for j, (du, dv) in enumerate(shifts):
            cover = inside(u - du, v - dv).mean((2, 3)).ravel()
            cover = cover - cover.mean()
            out[i, j] = cover / np.linalg.norm(cover)
    return out


def correlations(x: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """(cards x 6 x shapes) each symbol picture's (`x`, cards x 6 x GRID², one value a sample)
    normalised cross-correlation with each shape's templates, the best over its shifts."""
    x = x - x.mean(-1, keepdims=True)
    x /= np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-9)
    return np.einsum("csg,kjg->cskj", x, templates).max(-1)


@cache
def _picture_points() -> np.ndarray:
    """Card-frame points (6 symbols x GRID² x 2) of every symbol's picture (see the module
    docstring), u along its edge's normal (row) and v across it (column)."""
    f = HEXEL_FACE
    at = np.linspace(-EXTENT, EXTENT, GRID)
    u, v = np.meshgrid(at, at, indexing="ij")
    pts = []
    for d in range(6):
        a = math.radians(-60.0 * d)
        n, t = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        c = f.symbol_centre_frac * n
        pts.append(c + f.symbol_radius_frac * (u.reshape(-1, 1) * n + v.reshape(-1, 1) * t))
    return np.array(pts)


def shape_matches(bgr: np.ndarray, poses: Sequence[Pose], view: TableView,
                  whites: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cards x 6 x 3 the best correlation of each symbol's picture with the disc, the diamond
    and the triangle, see the module docstring; cards whether all their samples lie in the
    frame) of the cards at `poses`, `whites` (cards x 3 BGR) their paper's colour."""
    vals, inside = symbol_pictures(bgr, poses, view)
    core = vals[:, :, list(CORE_AT)].mean(2)
    span = core - np.asarray(whites, np.float64)[:, None, :]
    unit = span / np.maximum(np.linalg.norm(span, axis=-1, keepdims=True), 1e-6)
    return correlations((vals * unit[:, :, None, :]).sum(-1), web_templates()), inside


def symbol_pictures(bgr: np.ndarray, poses: Sequence[Pose], view: TableView
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Every symbol's picture (cards x 6 x GRID² x 3 BGR, see the module docstring) of the
    cards at `poses`, and whether all of each card's samples lie in the frame (cards)."""
    pts = _picture_points()
    plane = pose_points(list(poses), pts.reshape(-1, 2))
    vals, inside = sample(bgr, view.to_image(plane.reshape(-1, 2)).reshape(plane.shape))
    return (vals.reshape(len(poses), 6, GRID * GRID, 3).astype(np.float64),
            inside.reshape(len(poses), -1).all(1))


def shown(scores: np.ndarray) -> np.ndarray:
    """(… ) the letter each symbol's shape shows ('.' none) from its correlations (… x 3,
    `shape_matches`): the best reaching MIN_MATCH, its shortfall from a perfect match at most
    MISS_SHARE of the next best's."""
    order = np.sort(scores, -1)
    best = scores.argmax(-1)
    plain = (order[..., -1] >= MIN_MATCH) & (1.0 - order[..., -1] <= MISS_SHARE
                                              * (1.0 - order[..., -2]))
    return np.where(plain, np.array(list(SHAPES))[best], ".")


def disagreeing(symbols: str, scores: np.ndarray) -> list[bool]:
    """Per symbol of a card read `symbols`, whether its shape contradicts the letter read:
    another letter's silhouette matches it to RIVAL_MATCH or better and its own falls short of
    that by RIVAL_GAP or more (`scores`: 6 x 3, `shape_matches`). A yellow triangle under a
    glossy sleeve in a dim room read as red, say: its colour and shape disagree, and it is
    left unread."""
    out = []
    for c, row in zip(symbols, scores, strict=True):
        if c not in SHAPES:
            out.append(False)
            continue
        own = SHAPES.index(c)
        rival = max(v for j, v in enumerate(row) if j != own)
        out.append(bool(rival >= RIVAL_MATCH and rival - row[own] >= RIVAL_GAP))
    return out


def faint_unshown(symbols: str, scores: np.ndarray, faint: frozenset[str] | str) -> list[bool]:
    """Per symbol of a web card read `symbols`, whether it was read as a letter of a faint ink
    (`faint`: `inks.faint_letters`) whose own silhouette matches it below FAINT_SHAPE and
    FAINT_RIVAL below another letter's (`scores`: 6 x 3, `shape_matches`). A faint ink is
    learned from the cores no letter was read for, and another ink dimmed and turned towards it
    can fall among them (a yellow printed 30° towards red in a dim room, its triangles read as
    the faint red); its colour is then a weak cue, and its shape must not point elsewhere."""
    out = []
    for c, row in zip(symbols, scores, strict=True):
        own = row[SHAPES.index(c)] if c in faint and c in SHAPES else np.inf
        out.append(bool(own < FAINT_SHAPE and own <= max(row) - FAINT_RIVAL))
    return out


def shape_kept(bgr: np.ndarray, poses: Sequence[Pose], reads: Sequence[CardRead],
               view: TableView, letters: str) -> tuple[list[CardRead], int]:
    """`reads` (of the web cards at `poses`) with every symbol read as one of `letters` (the
    letters in ink doubt, `inks.confused_letters`) left unread ('?', confidence 0) but where
    its shape plainly shows that letter (`shown`): kept, at no more than NAMED_CONFIDENCE; every
    symbol on those cards whose shape contradicts its letter (`disagreeing`) left unread too;
    and how many were kept."""
    out = list(reads)
    cards = [k for k, r in enumerate(reads) if any(c in letters for c in r.symbols)]
    if not cards:
        return out, 0
    scores, _ = shape_matches(bgr, [poses[k] for k in cards], view,
                              np.array([reads[k].white_bgr for k in cards]))
    shows = shown(scores)
    kept = 0
    for i, k in enumerate(cards):
        r = out[k]
        # (and every letter its shape contradicts, doubted or not: `disagreeing`)
        keep = [(c not in letters or c == s) and not against
                for c, s, against in zip(r.symbols, shows[i],
                                         disagreeing(r.symbols, scores[i]), strict=True)]
        kept += sum(c in letters and c == s for c, s in zip(r.symbols, shows[i], strict=True))
        capped = tuple(min(v, NAMED_CONFIDENCE) if c in letters else v
                       for c, v in zip(r.symbols, r.edge_confidence, strict=True))
        out[k] = uncrossed(replace(r, edge_confidence=capped), tuple(not ok for ok in keep))
    return out, kept


def hue_named(reads: Sequence[CardRead], shows: np.ndarray, cores: np.ndarray,
              inside: np.ndarray, model: ColourModel, discs: str = "R",
              scores: np.ndarray | None = None) -> tuple[list[CardRead], int]:
    """`reads` with every symbol left unread with nothing over it (`CardRead.unread_ink`) read
    where its shape and hue agree (see the module docstring), and how many were. `shows`
    (cards x 6) the letters each symbol's shape allows (a web shape one, `shown`; a holodex
    disc R and B, `washed_holodex`; '.' none); `cores` (k x 6 x 3) the paper-normalised mean
    colours of the symbols' cores of the cards `inside` the frame (a bool per read, k of them,
    `inks.symbol_cores`); `model` the colour model they were read with; `discs` the letters
    printed as discs, each read only where its core is no darker than its ink (a wash only
    lifts an ink; a coin, or a grey ring tinted by a clipped lamp, is darker). A hue nearer an
    ink of the other edition that `model` lacks (`inks.foreign_hues`: the web's yellow, for
    holodex) names nothing: web cards read as holodex must leave their yellow unread, as the
    edition's choice (`edition`) relies on. On a card showing the grey ring read by its colour
    that rival is no rival (the web prints no ring): a holodex red washed towards orange there,
    its hue nearer the web's yellow than our red, is read (held-out `sleeves` 30 and 36).
    `scores` (cards x 6 x 3, `shape_matches`' correlations; web cards only), when given, also
    name a symbol whose shape `shows` leaves undecided where its hue is decisive: HUE_LEAD_DEG
    nearer one coloured ink than any other, and that letter's silhouette the best match, at
    WEAK_MATCH or better and WEAK_LEAD ahead of the next (see the module docstring). A disc
    letter's plain shape names its letter though its hue lies nearer another ink where the
    clip turned it so (`_clip_turned`)."""
    out = list(reads)
    inks = np.asarray(model.inks, np.float64)
    _, ink_hue = chroma(inks)
    letters = list(model.letters)
    coloured = np.flatnonzero(~model.neutral)
    # (the other edition's inks that this model lacks: a core nearer one of them is its ink)
    foreign = foreign_hues(model)
    ring = model.letters[model.grey_k] if model.grey_k is not None else None
    row = np.cumsum(inside) - 1
    named = 0
    for k, r in enumerate(reads):
        if not inside[k] or not any(r.unread_ink):
            continue
        length, hue = chroma(cores[row[k]])
        symbols, conf = list(r.symbols), list(r.edge_confidence)
        unread = list(r.unread_ink)
        by_hue = list(r.by_hue) if r.by_hue else [False] * 6
        # (a card showing the ring read by its colour is this edition's: the web prints none,
        # so the other edition's inks are no rival on it)
        rivals = foreign if ring is None or ring not in r.colour_symbols else foreign[:0]
        for d in np.flatnonzero(r.unread_ink):
            allowed = str(shows[k, d])
            if length[d] < HUE_CHROMA:
                continue
            off = np.abs(wrap_angle(hue[d] - ink_hue[coloured]))
            i = _clip_turned(allowed, off, cores[row[k], d], inks, letters, coloured, discs)
            if i is None:
                i = int(off.argmin())
                if scores is not None and letters[coloured[i]] not in allowed:
                    allowed = _weakly_shown(scores[k, d], off)
            j, off_j = int(coloured[i]), off[i]
            if letters[j] not in allowed or off_j > math.radians(HUE_DEG):
                continue
            if rivals.size and np.abs(wrap_angle(hue[d] - rivals)).min() < off_j:
                continue
            if letters[j] in discs and (cores[row[k], d] < inks[j] - PALE_TOL).any():
                continue
            symbols[d], conf[d], unread[d], by_hue[d] = letters[j], NAMED_CONFIDENCE, False, True
            named += 1
        if unread != list(r.unread_ink):
            out[k] = replace(r, symbols="".join(symbols), edge_confidence=tuple(conf),
                             unread_ink=tuple(unread), by_hue=tuple(by_hue))
    return out, named


def _clip_turned(allowed: str, off: np.ndarray, core: np.ndarray, inks: np.ndarray,
                 letters: Sequence[str], coloured: np.ndarray, discs: str) -> int | None:
    """Where among the `coloured` inks (the place `off` gives its hue's angle at) lies the ink
    of the disc letter a washed symbol's plain shape shows (`allowed`, from `shown`), where its
    hue turned off that ink by the clip (`hue_named`): its core at the clip in the ink's
    brightest channel (`inks.at_clip`: a wash lifts that channel to the clip first, and the
    other two on past it turn the hue: a red towards yellow), and its hue still within HUE_DEG
    of the ink, though nearer another; None otherwise."""
    if len(allowed) != 1 or allowed not in discs or allowed not in letters:
        return None
    j = letters.index(allowed)
    at = np.flatnonzero(coloured == j)
    if not at.size or off[at[0]] > math.radians(HUE_DEG):
        return None
    return int(at[0]) if at_clip(core, inks[j]) else None


def _weakly_shown(scores: np.ndarray, off: np.ndarray) -> str:
    """The web letter a washed symbol's shape names where its hue is decisive (`hue_named`):
    `scores` its correlations with the disc, the diamond and the triangle (3), `off` its core's
    hue off each coloured ink (radians). The letter whose silhouette matches best, at
    WEAK_MATCH or better and WEAK_LEAD ahead of the next, where the nearest ink lies
    HUE_LEAD_DEG nearer than any other ('.' otherwise: the shape then names nothing)."""
    if len(off) < 2:
        return "."
    near = np.sort(off)
    order = np.sort(scores)
    if (near[1] - near[0] < math.radians(HUE_LEAD_DEG) or order[-1] < WEAK_MATCH
            or order[-1] - order[-2] < WEAK_LEAD):
        return "."
    return SHAPES[int(np.argmax(scores))]


def shape_named(bgr: np.ndarray, poses: Sequence[Pose], reads: Sequence[CardRead],
                cores: np.ndarray, inside: np.ndarray, view: TableView, model: ColourModel,
                matched: tuple[np.ndarray, np.ndarray] | None = None
                ) -> tuple[list[CardRead], int]:
    """`reads` (of the cards at `poses`) with the symbols their shape names (see the module
    docstring) read, and how many were (a letter its shape contradicts is the caller's to
    leave unread, `disagreeing`: the reader does so on every web card before naming). `cores`
    (k x 6 x 3) are the paper-normalised mean
    colours of the symbols' cores of the cards `inside` the frame (a bool per read, k of
    them), as `inks.symbol_cores` measures them; `model` the colour model the cards were read
    with (its inks' hues); `matched`, where given, `shape_matches`'s answer for all of `reads`
    (already made: not matched again)."""
    out = list(reads)
    if model.edition != "web":
        return out, 0
    row = np.cumsum(inside) - 1
    cards = [k for k, r in enumerate(reads) if inside[k] and any(r.unread_ink)]
    if not cards:
        return out, 0
    if matched is None:
        scores, whole = shape_matches(bgr, [poses[k] for k in cards], view,
                                      np.array([reads[k].white_bgr for k in cards]))
    else:
        scores, whole = matched[0][cards], matched[1][cards]
    shows = shown(scores)
    _, ink_hue = chroma(model.inks.astype(np.float64))
    letters = np.array(model.letters)
    named = 0
    for letter in SHAPE_LETTERS:
        if letter not in model.letters:
            continue
        at = [(k, d) for i, k in enumerate(cards) if whole[i]
              for d in range(6) if reads[k].unread_ink[d] and shows[i, d] == letter]
        if len(at) < MIN_NAMED:
            continue
        rgb = np.array([cores[row[k], d] for k, d in at], np.float64)
        length, hue = chroma(rgb)
        # (a hue, where the core shows one, nearer this letter's ink than any other's)
        off = np.abs(wrap_angle(hue[:, None] - ink_hue[None, :]))
        off[:, model.neutral] = np.inf
        agrees = (length < MIN_CHROMA) | (letters[off.argmin(1)] == letter)
        if agrees.sum() < MIN_NAMED:
            continue
        centre = np.median(rgb[agrees], 0)
        one_ink = agrees & (np.linalg.norm(rgb - centre, axis=1) <= INK_DIST)
        if (one_ink.sum() < MIN_NAMED
                or len({at[i][0] for i in np.flatnonzero(one_ink)}) < MIN_NAMED_CARDS):
            continue
        for i in np.flatnonzero(one_ink):
            k, d = at[i]
            r = out[k]
            out[k] = replace(r, symbols=r.symbols[:d] + letter + r.symbols[d + 1:],
                             edge_confidence=(*r.edge_confidence[:d], NAMED_CONFIDENCE,
                                              *r.edge_confidence[d + 1:]),
                             unread_ink=(*r.unread_ink[:d], False, *r.unread_ink[d + 1:]))
            named += 1
    return out, named
