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
each point; that read is kept on the same terms, and never for a grey ink (a grey object on the
card looks like deep shade). A whole card with a '?' whose paper clipped the sensor is read
again with its symbols judged against the paper the lamp makes of it: the lamp's colour, read
from the cards whose paper did not clip, raises the clipped channels of its white to the least
paper of that colour at least as bright as seen (never past OVEREXPOSED_MAX), so its pale
blends are no longer seen as far too bright there; that read is kept on the same terms. Where
no card's paper escaped the clip, each card's own printed border band tells how far its paper
lies past the clip in the clipped channels (`_band_white`); a card so completed keeps the
symbols it first read (`CardRead.first_symbols`), by which the reader decides the table's inks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np

from ..faces import BORDER_RGB, HEXEL_FACE, PAPER_RGB
from .calibration import TableView
from .colour import (
    CLIP_HIGH,
    CLIP_LOW,
    OTHER,
    OVEREXPOSED_MAX,
    PAPER_K,
    SHADE_RANGE,
    ColourModel,
    chroma_cast,
    clip,
    clip_bounds,
    normalise,
    paper_grey,
)

N_SYMBOL = 19
# A white reference channel at or above this has (nearly) clipped: JPEG pulls clipped paper a
# few levels below the sensor's CLIP_HIGH.
CLIP_NEAR = 245.0
NEUTRAL_SPREAD = 0.25   # a grey (the border band) has its channels this close, paper-relative
MIN_CAST_WHITE = 0.7    # see `_dark_band`: a lamp's channels at most ~1.4x apart after balance


# Depths (fractions of the apothem) of the border samples: across the dark band and a little
# beyond it either way, so a pose a pixel off still finds the band.
BORDER_DEPTHS = tuple(1.0 - k * HEXEL_FACE.border_frac for k in (1.5, 0.9, 0.5, 0.1, -0.3))


def _unit_pattern() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample points for a card of apothem 1 whose edge 0 normal is +x and edge d normal is at
    angle -60°·d: symbols (6 x 19 x 2), paper (18 x 2), border (18 x 2)."""
    f = HEXEL_FACE
    rs = f.symbol_radius_frac
    ring_a = np.radians(np.arange(6) * 60.0)
    ring_b = np.radians(np.arange(12) * 30.0)
    local = np.concatenate([
        np.zeros((1, 2)),
        0.35 * rs * np.c_[np.cos(ring_a), np.sin(ring_a)],
        0.80 * rs * np.c_[np.cos(ring_b), np.sin(ring_b)],
    ])
    symbols = []
    for d in range(6):
        a = math.radians(-60.0 * d)
        n, t = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        symbols.append(f.symbol_centre_frac * n + local[:, :1] * n + local[:, 1:] * t)
    corner = np.radians(-60.0 * np.arange(6) - 30.0)
    paper = np.concatenate([rho * np.c_[np.cos(corner), np.sin(corner)]
                            for rho in (0.47, 0.64, 0.80)])
    border = []
    for b in BORDER_DEPTHS:
        for d in range(6):
            a = math.radians(-60.0 * d)
            n, t = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
            border += [b * n + s * t for s in (-0.3, 0.0, 0.3)]
    return np.array(symbols), paper, np.array(border)


SYMBOL_PTS, PAPER_PTS, BORDER_PTS = _unit_pattern()
N_PAPER, N_BORDER = len(PAPER_PTS), len(BORDER_PTS)
# The paper samples beside symbol d (the two corners either side of its edge, all three radii):
# paper sample index = radius * 6 + corner, corner j at angle -60°·j - 30°.
FLANKS = np.array([[ri * 6 + j for ri in range(3) for j in (d, (d - 1) % 6)] for d in range(6)])
# A grey ring blurred into a blob: the ink it spreads over the symbol's samples. A sharp ring
# covers ~0.63 of them (up to ~0.75 on a small card, where the pixels round its hole) and blur
# only lowers that; a solid dark blob (a shadow, a dark object) covers nearly all of them.
BLURRED_RING_DARK = (0.2, 0.8)
BLURRED_RING_CONTRAST = 0.2   # and stands this much darker than the paper beside it
# Smeared flat, a ring's ink (~0.63 of its samples' area) is spread evenly over them: no
# sample need be darker than about 0.4 of the ink, so the blob's strongest sample is held to
# that, the same as a pale coloured symbol's; its mean, contrast and middle tests still apply.
BLURRED_RING_PEAK = 0.38
# A ring's middle is its hole: blur mixes ink into it, but at most the ring's share (~0.6 under
# the hard band's worst blur, ~0.77 for a 44 px card smeared by 7 px); a solid disc of dark ink
# whose hue is lost (navy printed heavy, under dim light) is dark right through its middle
# (0.87-0.95), even where sharpening darkens its rim.
BLURRED_RING_MIDDLE = 0.82
OPEN_HOLE = 0.15              # a ring's band this much darker than its middle shows its hole
# A coloured symbol read by its mean colour (see `decide`): the mean's ink fraction, and how much
# stronger the ink is in the symbol's middle (7 inner samples) than around it (12 outer ones).
FALLBACK_ALPHA = 0.3
FALLBACK_CENTRED = 0.08
FALLBACK_PEAK = 0.45          # and its strongest sample's (defocus and 5 px of motion leave a
                              # 36 px card's triangle no sample above ~0.5: test_symbol_pale)
# A coloured-ink sample this faint and this grey, inside a ring, is the ring's fringe (`decide`).
FAINT_ALPHA = 0.45
FAINT_DARK = 0.2
PALE_MIDDLE, PALE_OUTER = 0.35, 0.15   # a pale symbol's ink in its middle and around it
HOLLOW_MIDDLE = 0.2           # a symbol's middle this little dark (of ink's ~0.8) is bare paper
SOLID_CORE_ALPHA = 0.7        # a coloured disc's 7 middle samples, all at least this much ink
# On a card whose paper clipped, a weak coloured reading's samples may be darker (along the
# grey line) than its ink at their fitted fraction makes them by at most this much on average
# (`_greyed`): a printed disc's blends are seen brighter there, not darker (at most 0.05 in a
# crafted sweep of seven lamps), while a grey ring's blends, their hue pulled towards the
# clipped channels, keep the grey ink's darkness (0.08-0.3; 0.03 under the heaviest blur).
CLIPPED_GREY_EXCESS = 0.065
# A weak coloured reading is also judged against a strong read symbol of the same ink on its
# card (its twin; `_outshone` on such a card, `_thinner` on every card): on 600 crafted cards
# under seven lamps, twin discs' mean excesses differed by at most 0.05 and their strongest
# samples by a factor of at least 0.68, while a tinted ring's excess exceeded its card's blue
# disc's by 0.06-0.17 and a ring read red under a warm lamp peaked at 0.43-0.51 of its card's
# red disc; a yellow triangle under a hand's blurred edge, read red, at 0.43 of its red twins.
TWIN_EXCESS_GAP = 0.06
TWIN_PEAK_SHARE = 0.6
# Where the paper clipped in every channel, the white reference says nothing of the lamp, and a
# strong ink's sample clipped with it in one channel and crushed towards black in another is
# known by the third alone; the inks' fits to such bounds can split one printed disc between two
# letters (a web red disc seen at (1-18, 59-87, 250-255) BGR on paper at the clip in all three:
# 3-4 of its 19 samples, most in its middle, fit yellow as well as red, though the card's yellow
# triangles read 160-220 in green, the one channel that tells the two inks apart there). One
# print under one lamp shows an ink alike on every symbol of a card: a rival sample that clipped
# at white in some channel and lies within TWIN_MATCH (paper-relative RGB, a channel in which
# it clipped taken as a bound) of a strong sample of the symbol's ink on a twin (`_twins`) is
# that print, unless a strong sample of the rival ink on the card lies within TWIN_APART of it
# (`_split_print`). On the cards of hard tables 0-199 and 400-499 whose paper clipped in every
# channel, a strong sample of a read coloured symbol lay that close to its ink's samples on the
# card's other symbols of that ink for 95 % within 0.068, 99 % within 0.113 (the rest blends at
# a symbol's rim), and never nearer than 0.275 to a strong sample of another coloured ink on its
# card (0.1 % below 0.32-0.38); the rival samples of table 405's six split red discs lay 0.006-
# 0.084 from their card's red print, 0.40-0.47 from its yellow one where it had one.
TWIN_MATCH = 0.12
TWIN_APART = 0.24
# The same one print under one light, for a whole symbol (`_twin_mean`): a warm, dim lamp
# (2800-3900 K at 0.6-1.3 exposure) darkens and dulls a blue diamond until most of its samples
# fit no ink's line and the vote falls short, though its mean colour stays its twins' (hard
# tables 161, 437, 509: 0.03-0.12 from the card's strong blue symbols, 0.44-0.66 from its other
# letters). A coloured reading left unread is its ink when it holds TWIN_MEAN_VOTE of that ink's
# samples, no sample of another coloured ink, its mean lies within TWIN_MEAN_MATCH of a twin's
# (`_twins`) and TWIN_MEAN_APART or more from every symbol the card reads as another letter, on
# a card reading MIN_TURN_LETTERS other symbols whose paper reads as paper (MIN_TURN_PAPER: a
# pose a little off its card, as the probe tries, sees the table in its paper and blends of
# half a symbol in its samples; held-out `harsh` 67). Judged so in every pass, with the two
# distances at 0.25 and 0.1, hard tables 0-699 still read no misread; at 0.3 and 0.05 with no
# vote needed, three (37, 599, 628). Only a card's first read at its own pose is judged so: a
# re-read (turned, shaded, by the lamp) stands only where complete, and completed by twins it
# could carry what its own samples misread (a navy coin on a red disc, crafted, read blue
# turned by 4 degrees; tests/vision/test_symbol_twin_mean.py).
TWIN_MEAN_VOTE = 0.5
TWIN_MEAN_MATCH = 0.12
TWIN_MEAN_APART = 0.24
SPLIT_SHARE = 0.5    # the rival ink's samples' share of the symbol's own ink's, at most
# A printed ring is closed and centred: its band is darker than its middle all the way round,
# and blur keeps it point-symmetric (defocus and motion smear every point alike, so each side
# of a diameter gets the same ink: motion thins the band along the motion on both ends). A disc
# partly under an object (a coin, a sleeve) whose uncovered rim has lost its hue leaves a
# crescent, dark on one side only. A ring's lopsidedness: over its six diameters, the part of
# its band's darkness beyond the middle that the opposite end lacks (0 symmetric, 1 one-sided):
# rings read in rendered hard scenes 0.07 median, 95 % at most 0.41 (the few near 1 lie half
# under a hand or a shadow's edge); the two crescents of covered blue discs crafted, 0.98.
RING_LOPSIDED = 0.7
# Blur spreads a ring's ink evenly over its samples only when it is as wide as the ring: a card
# is a few centimetres across, so one defocus and one motion smear act on all its symbols, and
# a twin ring left with its hole open was not blurred that far. Blurring the printed face by
# Gaussian defocus (0.3-5 px) and motion (0-16 px, any direction) at 15-55 px apothems, a ring
# whose 19 samples' darkness spans less than FLAT_BLOB leaves every other ring of the card with
# its band at most 0.13 darker than its middle (0.15 on the reader's darkness scale); on the
# rendered hard tables and held-out `fingers` ones, rings read flat so (under 0.25) have twins
# at most 0.13 hollow. A pen or a sleeve lying over a symbol is one flat grey however sharp the
# card (held-out `fingers` 192: two pens' blobs spanning 0.08 and 0.2, a twin ring 0.36 hollow).
FLAT_BLOB = 0.25
OPEN_RING = 0.25
FAINT_RING_DARK = 3.0         # a ring band's summed grey-ink fraction (12 samples) ...
FAINT_RING_VOTE = 2.0         # ... that lets it stand with this vote (see `decide`)
HOLLOW_INK = 0.1              # a symbol's ink this much weaker in its middle than around it
MIN_FLANK_PAPER = 3           # of a symbol's 6 flanking paper samples, for it to be trusted
# Every edge of a card carries a printed symbol, and in an edition with one grey ink (holodex's
# void ring) every other symbol is a solid disc of saturated ink: blur, a dim or a clipped lamp
# pale a coloured disc or darken it, but its samples keep fitting its coloured ink's line (or
# fall off every line, unexplained). A whole card's symbol whose every sample is paper or the
# grey ink, not one of them a coloured ink's or unexplained, is the grey ring however faint,
# when it shows the ring's shape (`_hueless_ring`): its darkest sample lies in its band, not in
# its middle (blur spreads a ring's band into its hole, never more ink than the band keeps,
# while a disc, a coin or a border band seen from a pose off the card are darkest inside), it is
# dark alike on both sides of its centre (RING_LOPSIDED), not flat (FLAT_BLOB: a pen or a sleeve
# lying over it is one grey), and it stands out from the paper beside it (a shadow darkens
# both). Smeared by 5-6 px of motion on a 50-70 px card under a bright lamp, such a ring keeps
# the grey ink of one or two samples' worth in its band (hard tables 182, 186, 372, 386, 532),
# below the vote a ring needs; HUELESS_VOTE is one whole sample's grey ink, HUELESS_CONTRAST
# the noise of a sample's darkness on bare paper.
HUELESS_VOTE = 1.0
HUELESS_CONTRAST = 0.05
# Bare paper just around each symbol (6 x 8 points at 1.45 symbol radii from its centre): a
# printed symbol ends there, while a fingertip lying over it carries on past it.
_HALO_A = np.radians(np.arange(8) * 45.0)
HALO_PTS = np.concatenate([
    HEXEL_FACE.symbol_centre_frac * np.array([math.cos(math.radians(-60.0 * d)),
                                              math.sin(math.radians(-60.0 * d))])
    + 1.45 * HEXEL_FACE.symbol_radius_frac * np.c_[np.cos(_HALO_A), np.sin(_HALO_A)]
    for d in range(6)])
N_HALO = 8
MIN_HALO_PAPER = 4            # of a symbol's 8 halo samples, for it to be trusted
MAX_OWN_HALO = 2              # of them showing the symbol's own coloured ink (see read_cards)
# The halo sample of symbol d nearest its edge's outward normal (-60°·d), between the symbol
# and the border band.
OUTWARD_HALO = np.array([int(np.argmin(np.abs((_HALO_A + math.radians(60.0 * d) + math.pi)
                                               % (2 * math.pi) - math.pi))) for d in range(6)])
# their places among the halo samples, with the one either side (a finger comes in aslant)
OUTWARD_AT = np.stack([np.arange(6) * N_HALO + (OUTWARD_HALO + k) % N_HALO for k in (-1, 0, 1)])
PATTERN = np.concatenate([SYMBOL_PTS.reshape(-1, 2), PAPER_PTS, BORDER_PTS, HALO_PTS])


# The grey-ink-plus-paper-tint fit of symbol samples for `decide`: (alpha, ok) for every
# sample (cards x 6 x 19 each), or a function giving them for the symbols a mask selects.
Bleed = tuple[np.ndarray, np.ndarray] | Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
# `_split_print`'s test of rival samples against a card's print (`_print_match`, bound to the
# samples of one read): card and symbol indices (k), rival samples (k x 19), the card's print of
# the symbol's ink and of the rival ink (k x 6 x 19 each) -> whether the rival samples are the
# print's (k).
PrintMatch = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Pose:
    """Where a card lies in the plane: centre, apothem, and the angle of its edge facing E."""

    centre: tuple[float, float]
    apothem: float
    angle: float
    turn: int = 1   # +1 when lattice direction d lies at angle - 60°·d
    shape: tuple[tuple[float, float], tuple[float, float]] | None = None  # see CardFit.shape

    def to_plane(self, local: np.ndarray) -> np.ndarray:
        """Plane points of card-frame points (apothem 1, edge 0 normal along +x, edge d normal
        at -60°·d)."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        m = self.apothem * np.array([[c, -self.turn * s], [s, self.turn * c]])
        if self.shape is not None:
            m = np.asarray(self.shape) @ m
        return np.asarray(self.centre) + np.asarray(local, np.float64).reshape(-1, 2) @ m.T


@dataclass(frozen=True)
class CardRead:
    """The symbols of one card and the evidence behind them."""

    symbols: str
    edge_confidence: tuple[float, ...]
    paper_ok: float       # fraction of paper samples that look like paper
    border_ok: float      # fraction of border samples that look like the dark band
    in_frame: bool        # every sample inside the image
    white_bgr: tuple[float, float, float]
    crossed: tuple[bool, ...] = ()   # per symbol: an object crosses the card's edge onto it
    dim: tuple[bool, ...] = ()       # per symbol: darker than its ink prints (INK_RIVAL_DEG)
    # the symbols read before the lamp read from the card's own band re-read it (`_lamp_read`),
    # None where it did not: what the reader decides the table's inks by (`first_symbols`)
    unlamped: str | None = None

    @property
    def complete(self) -> bool:
        return "?" not in self.symbols

    @property
    def first_symbols(self) -> str:
        """The symbols as read before any re-read by the lamp its own band shows (`_lamp_read`):
        the table's inks are judged by these, so that re-read never stands in for them."""
        return self.symbols if self.unlamped is None else self.unlamped

    @property
    def letters(self) -> int:
        """How many of its six symbols were read (not '?')."""
        return len(self.symbols) - self.symbols.count("?")

    @property
    def confidence(self) -> float:
        return float(min(self.edge_confidence)) if self.edge_confidence else 0.0


def sample_points(poses: list[Pose]) -> np.ndarray:
    """Plane coordinates (cards x samples x 2) of the pattern for every pose."""
    return pose_points(poses, PATTERN)


def pose_points(poses: list[Pose], local: np.ndarray) -> np.ndarray:
    """Plane coordinates (poses x points x 2) of card-frame points for every pose at once
    (`Pose.to_plane` for many poses)."""
    n = len(poses)
    m = pose_matrices(poses)
    centres = np.array([p.centre for p in poses], np.float64).reshape(n, 2, 1)
    # the einsum "pk,nck->npc" written out: the same products and sums, several times faster;
    # worked out coordinate by coordinate (poses x 2 x points, so NumPy's inner loops run
    # along the points, not over pairs) and laid out as points x 2 at the end
    p0, p1 = np.ascontiguousarray(np.asarray(local, np.float64).reshape(-1, 2).T)
    out = centres + (m[:, :, 0, None] * p0 + m[:, :, 1, None] * p1)
    return np.ascontiguousarray(out.transpose(0, 2, 1))


def pose_matrices(poses: list[Pose]) -> np.ndarray:
    """(poses x 2 x 2) each pose's card frame -> plane linear map (`Pose.to_plane`'s matrix)."""
    # every pose's numbers gathered in one pass (each row made contiguous again)
    ang, turn, scale = np.array([(p.angle, p.turn, p.apothem) for p in poses], np.float64).T.copy()
    c, s = np.cos(ang) * scale, np.sin(ang) * scale
    m = np.empty((len(poses), 2, 2))
    m[:, 0, 0], m[:, 0, 1], m[:, 1, 0], m[:, 1, 1] = c, -turn * s, s, turn * c
    shaped = [i for i, p in enumerate(poses) if p.shape is not None]
    if shaped:
        m[shaped] = np.asarray([poses[i].shape for i in shaped], np.float64) @ m[shaped]
    return m


def sample(bgr: np.ndarray, image_pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bilinear BGR samples at image points (… x 2) and whether each lies inside the frame."""
    shape = image_pts.shape[:-1]
    flat = image_pts.reshape(-1, 2).astype(np.float32)
    n = len(flat)
    # remap wants maps narrower than 32767: lay the points out in rows of at most _ROW, as
    # few rows as that takes and all of one width (remap's cost follows the points it is
    # given: padding each row out to _ROW sampled up to twice as many); each point is sampled
    # on its own, so the layout does not change its value
    rows = max(-(-n // _ROW), 1)
    width = max(-(-n // rows), 1)
    if rows * width == n:   # (one row, as for most reads: the points as they are)
        pts = flat.reshape(rows, width, 2)
    else:
        pts = np.full((rows * width, 2), -1.0, np.float32)
        pts[:n] = flat
        pts = pts.reshape(rows, width, 2)
    # one two-channel map (x, y), the same interpolation without splitting it into two
    vals = cv2.remap(bgr, pts, None, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    h, w = bgr.shape[:2]
    inside = ((flat[:, 0] >= 0) & (flat[:, 0] <= w - 1) & (flat[:, 1] >= 0)
              & (flat[:, 1] <= h - 1))
    return (vals.reshape(-1, 3)[:n].reshape(*shape, 3).astype(np.float32),
            inside.reshape(shape))


_ROW = 4096


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
    band's lamp scaling given (None: chosen over these rows, `_dark_band_lamp`), and whether
    they are a first pass (each card at its own pose against its own white: only there is a
    symbol judged against its twins, `_twin_mean`; a re-read completes a card only by the
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
            self.samples = _sample_cards(bgr, poses, view)
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
        self.first, self._lamp = reads, lamp
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
        reads = _shaded(list(self.first), self._shade[0], shaded, self.model)
        crossed = [r.crossed for r in reads]
        reads = _lamp_read(self.bgr, self.poses, self.view, self.model, reads, self.allow,
                           self._lamp, self._plan, lamped, self.samples)
        reads = _turned(reads, self.allow, self._turns, turned)
        # a symbol an object crosses onto at the card's own pose (read as it is or against the
        # shade) is not read through a re-read (turned, its samples can miss the object's edge)
        self.reads = [uncrossed(r, c) if any(c) else r
                      for r, c in zip(reads, crossed, strict=True)]
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
        t_vals, t_inside = _sample_cards(bgr, rotated, view)
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
    """`read` with the symbols read darker than their ink prints (`CardRead.dim`) unread."""
    return uncrossed(read, read.dim) if any(read.dim) else read


def uncrossed(read: CardRead, crossed: tuple[bool, ...]) -> CardRead:
    """`read` with the symbols `crossed` marks '?' (confidence 0)."""
    symbols = "".join("?" if c else t for t, c in zip(read.symbols, crossed, strict=True))
    conf = tuple(0.0 if c else v for v, c in zip(read.edge_confidence, crossed, strict=True))
    return replace(read, symbols=symbols, edge_confidence=conf)


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
    (`allow`; `samples`: every card's `_sample_cards`, as the first read took them) to read
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
           & (_max3(around) < CLIP_NEAR))
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


def _shaded(reads: list[CardRead], todo: list[int], alt: list[CardRead], model: ColourModel
            ) -> list[CardRead]:
    """`reads`, with each card `todo` gives (`_shade_of`) replaced by its read against a
    shaded white reference (`alt`) when that read is complete and has every letter of the
    first. An object that read sees crossing onto a symbol is kept either way
    (`CardRead.crossed`: `read_cards` lets no later re-read fill that symbol in)."""
    greys = {n for n, g in zip(model.letters, model.neutral, strict=True) if g}
    for a, i in zip(alt, todo, strict=True):
        r = reads[i]
        # the shade lifts what it dims: it must not cost the paper its look (the border band
        # is judged as in the first read); and a grey ink is never read through shade: a
        # grey object lying on the card (a coin, a pen) looks like paper in deep shade, and
        # the symbol it half covers, seen against that shade, like a ring
        filled = {b for a_, b in zip(r.symbols, a.symbols, strict=True) if a_ == "?"}
        if (a.complete and _agrees(r.symbols, a.symbols) and a.paper_ok >= r.paper_ok
                and not filled & greys):
            reads[i] = a if not any(r.crossed) else replace(a, crossed=r.crossed)
        elif any(a.crossed):
            # an object seen crossing onto a symbol against the shade is there all the same:
            # no later re-read (`_turned`) fills that symbol in
            reads[i] = replace(r, crossed=tuple(np.logical_or(r.crossed, a.crossed).tolist()))
    return reads


# A card's pose angle comes from its outline and the lattice, which blur (motion above all),
# perspective and a hand over an edge can leave a few degrees off; each symbol's samples then
# sit sideways on its edge (0.6 apothem x the error: ~1.5 px at 4 degrees on a 50 px card),
# its halo on its ink, and it reads covered or weak.
TURN_DEG = 4.0
MIN_TURN_LETTERS = 3   # letters a first read must have made: a card, not a blob, seen a bit off
MIN_TURN_PAPER = 0.88  # and its paper samples that look like paper (all but 2 of 18)


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


def _sample_cards(bgr: np.ndarray, poses: list[Pose], view: TableView
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Every card's PATTERN samples (cards x points x 3) and whether each lies in the frame."""
    plane = sample_points(poses)
    img_pts = view.to_image(plane.reshape(-1, 2)).reshape(plane.shape)
    return sample(bgr, img_pts)


def _read_cards(bgr: np.ndarray, poses: list[Pose], view: TableView, model: ColourModel,
                blurred_rings: bool | list[bool] = True,
                samples: tuple[np.ndarray, np.ndarray] | None = None,
                shade: np.ndarray | None = None,
                ink_white: np.ndarray | None = None,
                band_lamp: np.ndarray | None = None,
                ink_rows: np.ndarray | None = None) -> list[CardRead]:
    """`read_cards` at the poses given (`samples`: their `_sample_cards`, when the caller has
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
    `_dark_band`). A card's read depends on the others of the pass only through that choice
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
    paper reads as paper (MIN_TURN_PAPER)."""
    allow = np.broadcast_to(np.asarray(blurred_rings, bool), (len(poses),))
    any_blurred = bool(allow.any())
    vals, inside = samples if samples is not None else _sample_cards(bgr, poses, view)
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
        seen.append(_mean(vals[:, :ns].reshape(*shape, 3), 2))
    seen = np.concatenate(seen, 1)
    halo_e = ns + N_PAPER          # where the halo starts in `seen`
    n_pts = halo_e + 6 * N_HALO    # and the means
    white_at = white[:, None, :]
    if shade is not None:          # the white reference where each of `seen` was sampled
        at = [shade[:, :ns + N_PAPER], shade[:, halo_at:]]
        if any_blurred:
            at.append(_mean(shade[:, :ns].reshape(shape), 2))
        white_at = white_at * np.concatenate(at, 1)[..., None]
    # (`_lamp_read`: symbols and their means against the paper the lamp makes, the paper and
    # halo against the paper seen)
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
    norm = normalise(seen, white_at)
    cast = chroma_cast(ink_white)[:, None, :]
    # where the sensor clipped, the colour seen is only a bound (see `clip_bounds`); JPEG's
    # coarse colour tints small symbols with the paper's chroma (see `chroma_cast`): the
    # symbol samples and means are refitted for it, the paper and halo are not
    sym_cast = np.zeros_like(norm)
    sym_cast[:, :ns] = cast
    sym_cast[:, n_pts:] = cast
    kind, alpha, dark = model.explain(norm, clip_bounds(seen, white_at, norm), sym_cast)
    mean_fit = None
    if any_blurred:
        mean_fit = (kind[:, n_pts:], alpha[:, n_pts:])
        kind, alpha, dark = kind[:, :n_pts], alpha[:, :n_pts], dark[:, :n_pts]
    kind[~np.concatenate([inside[:, :halo_e], inside[:, halo_at:]], 1)] = OTHER
    # the paper and then the halo samples (`seen` from ns to n_pts) the model calls paper
    surround = kind[:, ns:n_pts] == PAPER_K
    is_paper = surround[:, :N_PAPER]
    flank_dark = _mean(dark[:, ns:ns + N_PAPER][:, FLANKS])
    # the symbol samples also as a grey ink tinted by the paper's chroma (see `decide`)
    sym_norm = norm[:, :ns].reshape(*shape, 3)

    def bleed(where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # only the symbols `decide` asks about (rings): the fit is per sample
        return model.grey_with_bleed(sym_norm[where], cast[np.nonzero(where)[0]])

    def clip_rivals(where: np.ndarray, best: np.ndarray) -> np.ndarray:
        # only the pale symbols `decide` asks about, on cards whose paper clipped
        return _clip_rivals(norm[:, n_pts:], white, cast[:, 0], where, best, model)

    # (the cards whose paper clipped in every channel, as `_dark_band` takes them: a symbol
    # split between two inks there is judged against its card's print, `_split_print`)
    every = (white >= CLIP_NEAR).all(1) & (white.max(1) >= CLIP_HIGH)
    print_match = None
    if any_blurred and every.any():
        def print_match(ci: np.ndarray, si: np.ndarray, rival: np.ndarray, own: np.ndarray,
                        beside: np.ndarray) -> np.ndarray:
            return _print_match(sym_norm, vals[:, :ns].reshape(*shape, 3), every, ci, si,
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
    if twin_rows is not None:
        twin_rows = twin_rows & (np.count_nonzero(is_paper, 1) >= MIN_TURN_PAPER * N_PAPER)
    text, conf = decide(kind[:, :ns].reshape(shape), alpha[:, :ns].reshape(shape),
                        dark[:, :ns].reshape(shape), model,
                        flank_dark if any_blurred else None, mean_fit,
                        None if allow.all() else allow,
                        bleed, white.max(1) >= CLIP_HIGH, excused,
                        clip_rivals if any_blurred else None, print_match,
                        (sym_norm, twin_rows)
                        if any_blurred and twin_rows is not None and twin_rows.any() else None)
    # Printed ink stops at the symbol's edge: blur leaves at most a faint trace of it in the
    # halo. A coloured symbol whose own ink shows at near half strength in several halo
    # samples carries on past its edge: a fingertip or a sleeve of that hue lies over it.
    covered |= _ink_beyond(text, kind[:, halo_e:n_pts], alpha[:, halo_e:n_pts], model)
    covered |= _tinted_grey(text, kind[:, :ns].reshape(shape), sym_norm, model)
    # (the band against the card's own white, shaded or not: it is printed dark, and a shade
    # over it only darkens it further; near the card's edge, the shade between the outer
    # paper samples is a guess)
    band = normalise(vals[:, ns + N_PAPER:halo_at], white[:, None, :]).reshape(
        len(poses), len(BORDER_DEPTHS), -1, 3)
    # (a coloured object over a symbol whose colour runs on across the band: `_ink_across`;
    # judged on the letters as decided, and counted as a crossing below)
    across = _ink_across(text, norm[:, halo_e:n_pts], band, model,
                         (vals[:, ns + N_PAPER:halo_at] >= CLIP_NEAR).any(-1).reshape(
                             band.shape[:-1]))
    # (a dark object of the grey ring's own colour lying across the edge onto a grey reading:
    # `_grey_across`, against the card's white like the band)
    across |= _grey_across(text, vals[:, halo_at:], white, band, model, vals[:, :ns])
    # (a dark object darker than the band beside it, from the paper to past the outline:
    # `_dark_across`, whatever the symbol reads as)
    across |= _dark_across(text, band, model)
    # (an object's one colour running straight from the symbol's middle to past the outline)
    # (also from the halo facing the edge, for a grey blob whose hole does not show)
    across |= _runs_out(bgr, poses, view, white, _chars(text) != "?", vals[:, :ns],
                        vals[:, halo_at:], band,
                        _grey_read(text, model) & ~_open_ring(dark[:, :ns].reshape(shape)))
    if covered.any():
        conf = np.where(covered, 0.0, conf)
        text = _letters(np.where(covered, "?", _chars(text)))
    # fractions of truth values (their mean, as NumPy takes it: the count over the total)
    paper_ok = np.count_nonzero(is_paper, 1) / N_PAPER
    in_band = inside[:, ns + N_PAPER:halo_at].reshape(band.shape[:-1])
    # (the cards that read as cards: the white of those whose paper did not clip tells the
    # lamp's colour to those whose paper did; see `_dark_band`)
    whole = ((np.array([len(t) - t.count("?") for t in text]) >= MIN_TURN_LETTERS)
             & (paper_ok >= LAMP_WHOLE))
    if len(groups) == 1:
        dark, lamp = _dark_band_lamp(band, white, whole, groups[0][1])
        lamps = [lamp]
    else:   # (each read's band by its own lamp: see `StagedRead`)
        parts, lamps, at = [], [], 0
        for n, given in groups:
            if n:
                part, lamp = _dark_band_lamp(band[at:at + n], white[at:at + n],
                                             whole[at:at + n], given)
                parts.append(part)
            lamps.append(lamp if n else given)
            at += n
        dark = np.concatenate(parts)
    dark &= in_band
    border_ok = np.count_nonzero(dark.any(1), 1) / dark.shape[2]
    # An object reaching over a symbol from beyond the card crosses its edge: the printed band
    # right outside the symbol gives way to the object's colour, and the paper between band
    # and symbol is gone (`_crossed_edge`).
    crossed, past = _crossed_edge(band)
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
        text = _letters(np.where(crossed, "?", _chars(text)))
    in_frame = inside.all(1)
    dim = _darker_than_ink(text, vals[:, :ns], vals[:, halo_at:], surround[:, N_PAPER:], model)
    # Python numbers for every card at once (tolist: the same values as float() / bool() each)
    return [CardRead(t, tuple(c), p, b, f, tuple(wh), tuple(x), tuple(d))
            for t, c, p, b, f, wh, x, d in zip(
                text, conf.tolist(), paper_ok.tolist(), border_ok.tolist(), in_frame.tolist(),
                white.tolist(), crossed.tolist(), dim.tolist(), strict=True)], lamps


# The lamp's colour, from the cards of a read whose paper did not clip (see `_lamp_read`): a
# card counts when it reads as a card (MIN_TURN_LETTERS letters, its paper and border band
# nearly all there) and every channel of its white is below CLIP_NEAR and above
# LAMP_MIN_WHITE (a dark card's ratios are noise); at least LAMP_CARDS of them, agreeing within
# LAMP_SPREAD (the median absolute deviation of each channel's log ratio: one lamp, not a
# window and a lamp); and a clipped card's own unclipped channels must fit that colour within
# LAMP_FIT (log ratio).
LAMP_MIN_WHITE = 60.0
LAMP_CARDS = 2
LAMP_SPREAD = 0.04
LAMP_FIT = 0.08
LAMP_WHOLE = 0.8   # paper and border band shares of a card the lamp is read from


class LampPlan(NamedTuple):
    """The lamp re-read (`_lamp_read`) as the first reads of a `read_cards` call ask for it,
    worked out before the re-read pass (`_lamp_plan`): the cards to read again (`todo`), the
    lamp's colour they are judged by (`lamp`, `_lamp`), each one's white for its symbols
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
    lamp's list) or, through the paper it completes, change the lamp's colour (`_lamp`):
    `_lamp_read` checks that it did not before it takes these reads. They join the re-read
    pass (`fused`) unless that pass would choose the band's lamp scaling itself (the first
    read chose none, `band`) and one of their cards' paper clipped in every channel: the
    choice is made over the cards of a pass, and those would join it. (`samples`: the cards'
    `_sample_cards`, where the caller has them.)"""
    todo = _lamp_todo(reads, allow)
    if not todo:
        return None
    lamp = _lamp(reads)
    white, ink_white, keep = _lamp_whites(bgr, poses, view, reads, todo, lamp, samples)
    # (as `_dark_band_lamp` takes them: clipped in every channel, and in one at CLIP_HIGH)
    lit = (white[keep] >= CLIP_NEAR).all(1) & (white[keep].max(1) >= CLIP_HIGH)
    return LampPlan(todo, lamp, ink_white, keep, band is not None or not lit.any())


def _lamp_whites(bgr: np.ndarray, poses: list[Pose], view: TableView, reads: list[CardRead],
                 todo: list[int], lamp: np.ndarray | None,
                 samples: tuple[np.ndarray, np.ndarray] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the white references of cards `todo`, the paper the lamp makes of them: by the `lamp`
    measured on the cards whose paper did not clip, else by each card's own border band, and
    the indices into `todo` of the cards where that differs), for `_lamp_plan` and
    `_lamp_read` (`samples`: every card's `_sample_cards`, where the caller has them)."""
    white = np.array([reads[i].white_bgr for i in todo], np.float32)
    if lamp is not None:
        ink_white = _lamp_white(white, lamp)
    else:
        ink_white = _band_white(bgr, [poses[i] for i in todo], view, white,
                                None if samples is None else
                                (samples[0][todo], samples[1][todo]))
    return white, ink_white, np.flatnonzero((ink_white != white).any(1))


def _lamp_read(bgr: np.ndarray, poses: list[Pose], view: TableView, model: ColourModel,
               reads: list[CardRead], allow: np.ndarray, band: np.ndarray | None = None,
               plan: LampPlan | None = None, lamped: list[CardRead] | None = None,
               samples: tuple[np.ndarray, np.ndarray] | None = None) -> list[CardRead]:
    """`reads`, with each whole card (`allow`) that has a '?' and at least MIN_TURN_LETTERS
    letters, whose paper clipped the sensor in some channel, replaced by its read with its
    symbols judged against the paper the lamp makes of it (`_lamp_white`), when that read is
    complete and has every letter of the first. Where the paper clipped, the white reference is
    darker than the paper in the clipped channels, so a pale symbol's blends with the paper are
    seen too bright there and its hue pulled towards them (a blue diamond's red and green under
    a warm lamp): the lamp's colour, measured on the read's cards whose paper did not clip
    (`_lamp`), tells how much brighter the paper at least is there; where no card's paper
    escaped the clip, each card's own border band does (`_band_white`), and a read completed
    so keeps the symbols first read (`CardRead.unlamped`). `band`: the lamp's scaling for the
    border band the first read chose (`_read_pass`). `plan`, `lamped`: the re-read as the
    first reads planned it (`_lamp_plan`) and its reads, made in the re-read pass (`fused`);
    taken when `reads` ask for the same lamp (the cards they ask for are always among the
    plan's: a re-read only completes a card), each card's read then being the same.
    (`samples`: every card's `_sample_cards`, where the caller has them.)"""
    todo = _lamp_todo(reads, allow)
    if not todo:
        return reads
    lamp = _lamp(reads)
    if (plan is not None and plan.fused and lamped is not None
            and (lamp is None if plan.lamp is None
                 else lamp is not None and np.array_equal(lamp, plan.lamp))
            and set(todo) <= set(plan.todo)):
        alt = dict(zip((plan.todo[k] for k in plan.keep.tolist()), lamped, strict=True))
        pairs = [(alt[i], i) for i in todo if i in alt]
    else:
        _, ink_white, keep = _lamp_whites(bgr, poses, view, reads, todo, lamp, samples)
        if not keep.size:
            return reads
        got = _read_cards(bgr, [poses[todo[k]] for k in keep], view, model, True,
                          ink_white=ink_white[keep], band_lamp=band)
        pairs = [(a, todo[k]) for a, k in zip(got, keep.tolist(), strict=True)]
    for a, i in pairs:
        if a.complete and _agrees(reads[i].symbols, a.symbols):
            reads[i] = a if lamp is not None else replace(a, unlamped=reads[i].symbols)
    return reads


# Where no card's paper escaped the clip (`_lamp` finds none to read the lamp from), each card's
# own border band tells it. The band is printed a dark grey of known colour against the paper
# (the card design's BORDER_RGB over PAPER_RGB, `_BAND_SHARE`, per channel), and blur mixes it
# with the paper beside it: a band sample holding a share f of band ink reads, normalised by the
# paper, 1 - f + f·share in every channel in which the paper did not clip, which tells f, and as
# much times the paper's excess past the clip in every channel in which it did, which then tells
# that excess. Only samples well inside the band (BAND_LAMP_DEPTHS of BORDER_DEPTHS) mostly of
# band ink (f at least BAND_LAMP_INK) and not clipped themselves count, BAND_LAMP_MIN of them at
# least; the table beyond the band may tint some, so a low quantile of their excesses
# (BAND_LAMP_Q) is taken: a lower bound on the paper, never past OVEREXPOSED_MAX, as
# `_lamp_white`'s is.
_BAND_SHARE = (np.array(BORDER_RGB[::-1], np.float32) / np.array(PAPER_RGB[::-1], np.float32))
BAND_LAMP_DEPTHS = (1, 2)
BAND_LAMP_INK = 0.5
BAND_LAMP_MIN = 12
BAND_LAMP_Q = 25.0
BAND_LAMP_GAIN = 1.03     # an excess below this is no excess
BAND_LAMP_REF = 235.0     # a white channel below this did not clip


def _band_white(bgr: np.ndarray, poses: list[Pose], view: TableView, white: np.ndarray,
                samples: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Per card (`white`: cards x 3 BGR, the white references of the cards at `poses`), its
    white with the channels in which its paper clipped raised by the excess its own border band
    shows there (see `_BAND_SHARE`); a card whose paper clipped in every channel, or whose band
    does not tell, keeps its white. (`samples`: the cards' `_sample_cards`, where the caller
    has them: each point is sampled on its own, whatever cards it is sampled with.)"""
    vals, inside = _sample_cards(bgr, poses, view) if samples is None else samples
    ns = 6 * N_SYMBOL
    k = N_BORDER // len(BORDER_DEPTHS)
    band = vals[:, ns + N_PAPER:ns + N_PAPER + N_BORDER].reshape(len(poses), -1, k, 3)
    ok = inside[:, ns + N_PAPER:ns + N_PAPER + N_BORDER].reshape(len(poses), -1, k)
    band = band[:, list(BAND_LAMP_DEPTHS)].reshape(len(poses), -1, 3)
    ok = ok[:, list(BAND_LAMP_DEPTHS)].reshape(len(poses), -1)
    out = white.copy()
    for c in range(len(poses)):
        # (a channel JPEG pulled a little below CLIP_NEAR may have clipped too: only those well
        # below it tell the band's ink; the rest are measured, and stay where the band says so)
        hot = white[c] >= BAND_LAMP_REF
        if not (white[c] >= CLIP_NEAR).any() or hot.all():
            continue
        norm = band[c] / np.maximum(white[c], 1.0)                   # samples x 3 BGR
        ink = ((1.0 - norm[:, ~hot]) / (1.0 - _BAND_SHARE[~hot])).mean(1)
        use = ok[c] & (ink >= BAND_LAMP_INK) & (band[c][:, hot].max(1) < CLIP_NEAR)
        if np.count_nonzero(use) < BAND_LAMP_MIN:
            continue
        f = np.minimum(ink[use], 1.0)[:, None]
        excess = norm[use][:, hot] / (1.0 - f + f * _BAND_SHARE[hot])
        ratio = np.percentile(excess, BAND_LAMP_Q, axis=0)
        gain = np.where(ratio >= BAND_LAMP_GAIN, np.minimum(ratio, OVEREXPOSED_MAX), 1.0)
        out[c, hot] = white[c, hot] * gain
    return out.astype(np.float32)


def _lamp(reads: list[CardRead]) -> np.ndarray | None:
    """The lamp's colour (3 log channel ratios, BGR, summing to 0) from the cards of `reads`
    whose paper did not clip (see LAMP_CARDS), or None where too few such cards agree."""
    return _lamp_of(np.array([r.white_bgr for r in reads
                              if r.letters >= MIN_TURN_LETTERS
                              and r.paper_ok >= LAMP_WHOLE and r.border_ok >= LAMP_WHOLE
                              and max(r.white_bgr) < CLIP_NEAR
                              and min(r.white_bgr) >= LAMP_MIN_WHITE],
                             np.float64).reshape(-1, 3))


def _lamp_of(white: np.ndarray) -> np.ndarray | None:
    """The lamp's colour (as `_lamp`) from the white references (cards x 3 BGR) of cards whose
    paper did not clip, or None where there are fewer than LAMP_CARDS or they disagree."""
    if len(white) < LAMP_CARDS:
        return None
    logs = np.log(white.astype(np.float64))
    logs -= logs.mean(1, keepdims=True)
    lamp = np.median(logs, 0)
    if (np.median(np.abs(logs - lamp), 0) > LAMP_SPREAD).any():
        return None
    return lamp


def _lamp_white(white: np.ndarray, lamp: np.ndarray) -> np.ndarray:
    """Per card (cards x 3 BGR), its white reference with the channels in which its paper
    clipped (CLIP_NEAR) raised to the least paper of the lamp's colour (`_lamp`) that is at
    least as bright as seen in every channel, and never past OVEREXPOSED_MAX of the seen
    value: a lower bound on the true paper, so a blend judged against it is still seen no
    darker than it is, and every judgement made for clipped paper stands. A card whose
    unclipped channels do not fit the lamp's colour (LAMP_FIT: another light on it) keeps
    its white."""
    hot = white >= CLIP_NEAR
    rel = np.log(np.maximum(white, 1.0)) - lamp                  # cards x 3
    scale = rel.max(1, keepdims=True)
    est = np.exp(lamp + scale)
    # the unclipped channels lie on the scaled lamp: none darker than it by more than LAMP_FIT
    off = np.where(hot, 0.0, scale - rel).max(1)
    fits = hot.any(1) & (off <= LAMP_FIT)
    out = np.where(hot & fits[:, None], np.clip(est, white, OVEREXPOSED_MAX * white), white)
    return out.astype(np.float32)


# How bright, relative to the paper seen, a channel in which the paper clipped may truly be
# (see `_clip_rivals`): from as seen to OVEREXPOSED_MAX, in these steps.
_CLIP_STEPS = (1.0, 1.0 / math.sqrt(OVEREXPOSED_MAX), 1.0 / OVEREXPOSED_MAX)
# every scaling of the three channels by those steps (the first: none), each row RGB
_CLIP_SCALES = np.array(np.meshgrid(_CLIP_STEPS, _CLIP_STEPS, _CLIP_STEPS, indexing="ij"),
                        np.float32).reshape(3, -1).T
# Where the paper clipped in every channel (`_lamp_grey`), of those scalings only the ones a
# lamp can call for: a black-body lamp through a camera white-balanced near daylight leaves the
# channels in the order red, green, blue (warm) or the reverse (cool), so the band reads too
# bright most in red or in blue, least in the other, green between; and only its tint, not its
# level: the channel the lamp lights least is taken as just at the clip, where the white
# reference puts it (one channel unscaled; 11 of the 27, the first none).
_LAMP_SCALES = _CLIP_SCALES[((np.diff(_CLIP_SCALES, axis=1) >= 0).all(1)
                             | (np.diff(_CLIP_SCALES, axis=1) <= 0).all(1))
                            & (_CLIP_SCALES.max(1) == 1.0)]
# Under such a lamp a grey band is seen with green between red and blue, to within this much
# (paper-relative: blur and JPEG's coarse colour mix the band with the table beside it): a
# green or a magenta is no grey under any lamp.
LAMP_GREEN = 0.1


def _clip_rivals(means: np.ndarray, white: np.ndarray, cast: np.ndarray, where: np.ndarray,
                 best: np.ndarray, model: ColourModel) -> np.ndarray:
    """Per symbol (cards x 6; True only where `where`), whether an ink other than `best`
    explains its mean colour (`means`: cards x 6 x 3, paper-normalised RGB) as seen or once the
    channels in which its card's paper (`white`, cards x 3 BGR) clipped are scaled down, each
    on its own, by up to OVEREXPOSED_MAX. Where the paper clipped, the white reference is
    darker than the paper in those channels, so a blend of paper and ink is seen too bright in
    them, by an unknown factor, and its hue pulled towards them: a grey ring's blends fit red
    under a warm lamp, a red disc's yellow where red and green clipped. A reading that no other ink
    explains anywhere in that range does not owe its hue to the clip (under a warm lamp that
    clipped red alone, no red, blue or grey blend gains yellow's green over its blue).
    `cast`: the cards' `colour.chroma_cast`, as the mean fit used it."""
    ci, si = np.nonzero(where)
    hot = white[ci, ::-1] >= CLIP_NEAR                            # k x 3 (RGB)
    scale = np.where(hot[:, None, :], _CLIP_SCALES[None], np.float32(1.0))   # k x 27 x 3
    seen = means[ci, si][:, None, :] * scale
    kind, _, _ = model.explain(seen, None, np.broadcast_to(cast[ci][:, None, :], seen.shape))
    rival = ((kind >= 0) & (kind != best[ci, si][:, None])).any(1)
    out = np.zeros(where.shape, bool)
    out[ci, si] = rival
    return out


def _dark_band(band: np.ndarray, white: np.ndarray, whole: np.ndarray | None = None
               ) -> np.ndarray:
    """Per border sample (band: cards x depths x k x 3, RGB normalised by `white`, the cards'
    BGR paper): dark (mean < 0.7) and neutral (channels within 0.25). Where the paper clipped
    in a channel the light is brighter there than its white reference says, so a grey band
    normalised by it reads too bright and tinted towards that channel (a warm lamp turns a
    grey border orange): its darkness and hue are then judged by the channels that did not
    clip. A clipped channel may read brighter than those, but by no more than the paper can
    be past clipping (OVEREXPOSED_MAX), and never darker. Where all three clipped, the white
    reference says nothing of the lamp's colour: the band is grey if one scaling of the
    channels that a lamp can call for makes it so (`_lamp_grey`), once the white has reached
    the clip (CLIP_HIGH in some channel: paper at CLIP_NEAR in every channel may be merely well
    exposed); the lamp's colour is then the one the white of the cards of the read whose paper
    did not clip shows (`whole`: those that read as cards; their band nearly all there), where
    they agree (`_lamp_of`). What the strict test takes for the band it still takes."""
    return _dark_band_lamp(band, white, whole)[0]


def _dark_band_lamp(band: np.ndarray, white: np.ndarray, whole: np.ndarray | None = None,
                    lamp: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """(`_dark_band`, the lamp's scaling (RGB) its cards whose paper clipped in every channel
    were judged by: `lamp` where given, else the one `_lamp_scale` chose, None where no card
    called for one)."""
    b0, b1, b2 = band[..., 0], band[..., 1], band[..., 2]
    # mean, max and min over the 3 channels, unrolled (NumPy sums them in this order)
    low = np.minimum(np.minimum(b0, b1), b2)
    dark = (b0 + b1 + b2) / 3.0 < 0.7
    strict = dark & (np.maximum(np.maximum(b0, b1), b2) - low < NEUTRAL_SPREAD)
    clipped = white[:, ::-1] >= CLIP_NEAR          # RGB, like the band
    every = clipped.all(1)
    lit = every & (white.max(1) >= CLIP_HIGH)
    if lit.any():
        # (the band of those cards, and which of its samples are dark and ordered, once)
        seen = band[lit]
        ordered = _lamp_ordered(seen, dark[lit])
        if lamp is None:
            lamp = _lamp_scale(seen, ordered, _band_lamp(white, strict, whole))
        strict = strict | _lamp_grey(seen, lit, ordered, lamp)
    clipped &= ~every[:, None]
    # ... and only under a lamp the camera's white balance left near white: where the paper's
    # dimmest channel is below MIN_CAST_WHITE of the clip, the clipped channels are brighter
    # still by more than the symbols' colours can be read through (the strict test stands)
    clipped &= (white.min(1) >= MIN_CAST_WHITE * CLIP_HIGH)[:, None]
    if not clipped.any():
        return strict, lamp
    use = ~clipped[:, None, None, :]
    high = _max3(np.where(use, band, -np.inf))
    mean = np.where(use, band, 0.0).sum(-1) / use.sum(-1)
    over = _max3(np.where(use, -np.inf, band))    # the brightest clipped channel
    return strict | ((mean < 0.7) & (high - low < NEUTRAL_SPREAD)
                     & (over < OVEREXPOSED_MAX * high + 0.05)), lamp


def _band_lamp(white: np.ndarray, dark: np.ndarray, whole: np.ndarray | None
               ) -> np.ndarray | None:
    """The lamp's colour (`_lamp_of`) from the cards `whole` marks whose paper did not clip
    (every channel of their white below CLIP_NEAR, above LAMP_MIN_WHITE) and whose band, as
    the strict test sees it (`dark`), is nearly all there (LAMP_WHOLE), or None."""
    if whole is None:
        return None
    share = np.count_nonzero(dark.any(1), 1) / dark.shape[2]
    use = (whole & (share >= LAMP_WHOLE) & (white.max(1) < CLIP_NEAR)
           & (white.min(1) >= LAMP_MIN_WHITE))
    return _lamp_of(white[use])


def _lamp_ordered(seen: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """Per border sample (`seen`: m cards x depths x k x 3, RGB normalised by their white):
    dark as seen (`dark`, m x depths x k) and its green between its red and blue
    (LAMP_GREEN), as a grey band under a lamp is."""
    r, g, b = seen[..., 0], seen[..., 1], seen[..., 2]
    return (dark & (g <= np.maximum(r, b) + LAMP_GREEN)
            & (g >= np.minimum(r, b) - LAMP_GREEN))


def _lamp_scale(seen: np.ndarray, ordered: np.ndarray, lamp: np.ndarray | None = None
                ) -> np.ndarray | None:
    """The scaling (RGB) that undoes the lamp's excess in each channel of the band `seen` (m
    x depths x k x 3) of the cards whose paper clipped in every channel, its samples dark and
    ordered as `_lamp_ordered` gives them (`ordered`; see `_lamp_grey`). With `lamp`
    (its colour, from cards whose paper did not clip: `_band_lamp`) that excess is known;
    without, one of `_LAMP_SCALES` stands for it, one for every card of the read (one lamp
    lights the table): the one that leaves their band greyest (the median spread of its dark
    samples, so that a few places covered by a coloured object do not choose the lamp); None
    where no sample is dark and ordered (nothing to choose by)."""
    if lamp is not None:
        rgb = lamp[::-1]
        return np.clip(np.exp(rgb.min() - rgb), 1.0 / OVEREXPOSED_MAX, 1.0).astype(np.float32)
    if not ordered.any():
        return None
    # (only the dark, ordered samples choose: their spreads under each scaling, worked out
    # channel by channel as 11 x samples planes, the same products as samples x 11 x 3)
    samples = seen[ordered]
    r, g, b = (_LAMP_SCALES[:, k, None] * samples[:, k] for k in range(3))
    spread = np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)
    return _LAMP_SCALES[np.median(spread, 1).argmin()]


def _lamp_grey(seen: np.ndarray, every: np.ndarray, ordered: np.ndarray,
               scale: np.ndarray | None) -> np.ndarray:
    """Per border sample (cards x depths x k), for the cards `every` marks, whose paper
    clipped in every channel (`seen`: their band, m x depths x k x 3, RGB normalised by the
    cards' white reference): dark as seen (the true paper, brighter, only deepens it), its
    green between its red and blue (LAMP_GREEN) (`ordered`, `_lamp_ordered`) and grey once the
    channels are scaled back as the lamp left them (`scale`, `_lamp_scale`; None: no sample
    is). There the white reference is the sensor's neutral limit, whatever the lamp's colour:
    each channel of the band reads too bright by the lamp's excess in it over its least-lit
    channel, up to OVEREXPOSED_MAX."""
    out = np.zeros((len(every), *seen.shape[1:-1]), bool)
    if scale is None:
        return out
    scaled = seen * scale
    out[every] = (_max3(scaled) - _min3(scaled) < NEUTRAL_SPREAD) & ordered
    return out


# A coloured object reaching over a symbol from beyond the card (a sleeve or a fingertip the
# colour of an ink) is read as that ink there, and the crossing test (`_crossed_edge`) misses it
# where a smear leaves no place of the band one colour across it. But the object's colour runs
# on from the symbol across its halo and the band towards the edge, where print has none: a
# printed symbol ends inside its halo, blur (defocus or motion) spreads it the same way either
# side of its centre, and the band is printed grey, which adds darkness but no chroma. So
# `_ink_across` measures the read ink's chroma (the part of a paper-normalised colour off the
# grey axis, along the ink's own: 1 for the ink, 0 for paper, the band or a grey shade) and asks
# for three things at once: in at least two of the three halo samples facing the edge it exceeds
# the halo sample right across the symbol by HALO_ASYM (the ink runs one way only); one band place
# of that edge carries it at every depth on the card by BAND_TINT (the grey band under a coloured
# object); and some place of the edge shows the printed step from paper to band by EDGE_SHARP, so
# the pose is right along that edge (a pose off the card's middle moves a halo sample onto its
# symbol's ink and the band onto the symbol, the edge's step then fading). On 100 rendered hard
# tables (7 281 coloured symbols on cards read whole) the ink led by HALO_ASYM in two halo
# samples for 83 and tinted a band place by BAND_TINT for 24; both held for 6: five on cards
# 6-10 % under a hand, and one on a card in full view read from a pose off its middle (the
# edge's step 0.17), which the step test keeps whole. On held-out `fingers` tables, the cards a
# red or blue sleeve (or reddish skin) covered and that were read with its letter: lead
# 0.28-0.39, tint 0.28-0.46, the edge's step 0.55-0.79.
HALO_ASYM = 0.25
# A thin object (a pen) crossing towards a symbol lies over one of the three halo samples facing
# the edge only, but carries its colour there far past any halo's print: a lead of THIN_LEAD in
# one sample stands for HALO_ASYM in two (the band tint and the edge's step still asked for). A
# red pen over a blue disc of a paler print led by 0.52 in its middle sample, 0.21 in the other
# two (held-out `fingers` on the `office` print, seed 33); on the 1400 hard tables (with and
# without markers) and `fingers` 0-299 no card in full view meets it, and four partly covered
# cards read right by chance are now reported occluded.
THIN_LEAD = 0.45
BAND_TINT = 0.25
EDGE_SHARP = 0.45
# On a blurred card no place of the edge may step by EDGE_SHARP, yet the pose is right where the
# object shows itself: the tinted place keeps no step from paper to band (under EDGE_STEP) where
# another place of the edge shows it at half EDGE_SHARP or more, in a colour unlike the object's
# (by EDGE_UNLIKE), and it is one colour (within EDGE_FLAT) from the band to past the card's
# outline, where print never is (a pose off the card's middle moves every place of the edge
# alike; a band tinted by a blurred symbol or a warm lamp still steps, or has that colour all
# along; and only blur wider than the band, which takes its step below half EDGE_SHARP, smears
# an object lying beside the card flat across it). A dark red fingertip over a grey ring
# (held-out `fingers` table 266, the edge's step 0.36-0.43): flat within 0.05 from the band
# outwards, 0.28 from the band beside it; a card beside a red sleeve under a smear that leaves
# its band's step at 0.13-0.18 (table 261) is not asked.
# Blur wider than the band takes the printed step off every place of the edge, so `_ink_on_band`
# cannot see a step hidden; but a pen or a marker of a printer ink's own colour, crossing from
# beyond the card onto the symbol, leaves that ink on the band at full strength, past the card's
# outline included, where print never is, in one place of the edge and not the others (it lies
# across the edge, not along it). On crafted cards 36-56 px wide under defocus 1.2-4 px and 6 px
# of motion, a printed symbol's ink (or the felt's hue) tinted its edge's places at most 0.28 at
# every depth, one place over another by at most 0.30; red, blue and yellow pens 0.16-0.22 of
# the card wide that were read as the symbol's letter, 0.69 or more, standing out by 0.45 or more.
# On rendered hard table 316 (a reddish surface), a red symbol's blurred print and the table's
# hue together tint the middle place of its edge 0.5-0.73 at every depth, the print fading and the
# table rising outward: past the outline the table tints the edge's corner places as much (0.3-
# 0.5), so the place must stand out at every depth, not over the least tint of the edge anywhere.
BLURRED_PEN_TINT = 0.5
BLURRED_PEN_ACROSS = 0.35
# A pen or sleeve of an ink's colour but lighter than BLURRED_PEN_TINT, on a card blurred so that
# no place of the edge steps by EDGE_SHARP, and not one flat colour across the band (a pen half a
# card wide, blurred with the dark band on one side and the table on the other, grows lighter
# outwards by 0.1), escaped all three tests above. But print fades away from its symbol: the
# innermost depth (paper, 0.08 of the apothem from the symbol) gets the most of a blurred
# symbol's ink, every depth further out less, the grey band mixing in no chroma, while an object
# lying across the edge from beyond keeps its colour outwards or gains it. So `_ink_on_band`
# also takes a place tinted by BAND_TINT at every depth, past the outline too, no less at any
# depth than at the innermost (the tint unfaded), standing out past the outline by BAND_TINT over
# the edge's least tinted place (not the table's hue), with no printed step of its own
# (EDGE_STEP) where another place of the edge steps by half EDGE_SHARP. Held-out `fingers` table
# 3000: a light blue pen over a red disc, read blue from two poses: the pen's corner place tinted
# 0.35 rising to 0.43 (0.32 to 0.39) from inside the band to past the outline, standing out there
# by 0.49 (0.55), another place stepping by 0.25 (0.30). Print blurred into the band that met
# every other condition faded: a blue disc on a 40-47 px card on rendered hard table 595, 0.38-
# 0.41 inside the band, 0.26-0.27 past the outline; on 800 clean crafted cards
# (`pen_sweep.pen_card` with no pen: 30-70 px wide, defocus 0.8-4 px, 0-14 px of motion, both
# lamps) one edge, 0.32 to 0.25. A place with a channel clipped at any depth does not count
# either (a clipped channel's chroma is only a bound): under a lamp that clips red, a band washed
# out along one edge keeps red at the paper's level while green and blue show the band, a red
# tint with no step in red (rendered hard table 470: a red disc in full view, 0.41 inside the
# band, 0.32-0.34 further out, so faded too).
# The halo sample of a symbol right across its centre from each one.
FACING = (np.arange(N_HALO) + N_HALO // 2) % N_HALO


def _ink_across(text: list[str], halo: np.ndarray, band: np.ndarray, model: ColourModel,
                clipped: np.ndarray | None = None) -> np.ndarray:
    """Per card and symbol (cards x 6): a symbol read as a coloured ink whose ink runs on
    towards its edge across the halo and the band (see HALO_ASYM and EDGE_SHARP, and the
    comment after it): `halo` the halo samples
    (cards x 6·N_HALO x 3) and `band` the border band's (cards x depths x 18 x 3), both
    paper-normalised RGB; `clipped` (optional, cards x depths x 18) the band samples with a
    channel at the sensor's clip (see the comment before FACING)."""
    own = _coloured_index(text, model)
    found = own >= 0
    if not found.any():
        return found
    n = len(text)
    u = model.chroma_units[np.maximum(own, 0)]                     # cards x 6 x 3
    h = halo.reshape(n, 6, N_HALO, 3)
    ink = _sum3((h - _mean(h)[..., None]) * u[:, :, None])        # cards x 6 x N_HALO
    out = OUTWARD_AT.T % N_HALO                                    # 6 x 3: facing each edge
    rows = np.arange(6)[:, None]
    lead = ink[:, rows, out] - ink[:, rows, FACING[out]]           # cards x 6 x 3
    found &= ((lead > HALO_ASYM).sum(-1) >= 2) | (_max3(lead) > THIN_LEAD)
    # (the band is looked at on the cards with such a symbol only: each card's is its own)
    some = np.flatnonzero(found.any(1))
    if some.size:
        found[some] &= _ink_on_band(band[some], u[some],
                                    None if clipped is None else clipped[some])
    return found


def _ink_on_band(band: np.ndarray, u: np.ndarray, clipped: np.ndarray | None = None
                 ) -> np.ndarray:
    """`_ink_across`'s test of the band (cards x depths x 18 x 3, paper-normalised RGB) for
    each edge (cards x 6): one of its places tinted by the read ink (`u`, cards x 6 x 3: each
    symbol's ink's unit chroma) at every depth on the card, and the edge showing the printed
    step from paper to band (or the tinted place hiding it; see `_ink_across`), or the tinted
    place whose tint does not fade from inside the band to past the outline, none of its
    samples clipped (`clipped`, cards x depths x 18, where given; see the comment before
    FACING)."""
    n = len(band)
    place = band.reshape(n, band.shape[1], 6, 3, 3)               # cards x depths x edge x place
    tint = _sum3((place - _mean(place)[..., None]) * u[:, None, :, None])
    tinted = tint[:, :4].min(1) > BAND_TINT                        # cards x edge x place
    step = _max3(np.abs(place[:, 0] - place[:, 2]))               # cards x edge x place
    sharp = (step > EDGE_SHARP).any(-1)                            # cards x edge
    # (or the tinted place hides the printed step from paper to band that the edge's other
    # places show, one colour from the band to past the card's outline)
    band_at = place[:, 2]                                          # cards x edge x place x RGB
    unlike = _beside_step(_max3(np.abs(band_at[:, :, :, None] - band_at[:, :, None]))
                          > EDGE_UNLIKE, step > EDGE_SHARP / 2.0)
    flat = _max3(_depth_spread(place[:, 1:])) < EDGE_FLAT
    hidden = (tinted & flat & (step < EDGE_STEP) & unlike).any(-1)
    # (or the tint not fading from inside the band to past the outline, as print does)
    kept = (tinted & (tint[:, -1] > BAND_TINT) & (tint[:, 1:].min(1) >= tint[:, 0])
            & (tint[:, -1] - tint[:, -1].min(-1, keepdims=True) > BAND_TINT)
            & (step < EDGE_STEP) & ((step > EDGE_SHARP / 2.0)[:, :, None] & _OTHER_PLACE).any(-1))
    if clipped is not None:   # (a clipped channel is only a bound: its chroma is no colour)
        kept &= ~clipped.reshape(kept.shape[0], -1, 6, 3).any(1)
    return (tinted.any(-1) & (sharp | hidden)) | kept.any(-1) | _pen_on_band(tint)


def _pen_on_band(tint: np.ndarray) -> np.ndarray:
    """Per card and edge (cards x 6): one of the edge's places tinted by the read ink at
    BLURRED_PEN_TINT or more at every depth of `tint` (cards x depths x edge x place), the one
    past the card's outline included, and by BLURRED_PEN_ACROSS more than another place of
    that edge at every depth: a pen of the ink's colour lying across the edge (see
    BLURRED_PEN_TINT)."""
    strong = tint.min(1) > BLURRED_PEN_TINT                        # cards x edge x place
    # (over the edge's least tinted place at each depth: past the outline, a table of the
    # ink's hue tints every place alike)
    across = (tint - tint.min(-1, keepdims=True)).min(1) > BLURRED_PEN_ACROSS
    return (strong & across).any(-1)


# A dark object (a pen, a dark sleeve) reaching over a symbol from beyond the card has the grey
# ring's colour: the symbol reads as the ring, and `_ink_across` (chroma) cannot see it. But it is
# one colour from the halo across the band to past the card's outline, where print never is: a
# printed symbol ends inside its halo (paper), the band is printed between paper and table, and
# blur that smears a band place flat across all five depths mixes it with that paper (a ring
# beside the band and the band blurred into one plateau: on rendered hard tables and held-out
# `fingers` ones, 0.52 of the paper or lighter). So `_grey_across` turns a grey reading into a
# crossing where one band place of its edge is flat (EDGE_FLAT) at every depth, the outer one
# past the outline included, darker than OBJECT_DARK (deeper than print blurred flat gets), and
# at least two of the three halo samples facing that edge (OUTWARD_AT: one level with the band's
# inner depth, two ~0.08 apothem further in) within HALO_SAME of its colour in every channel:
# the object runs on from the band towards the symbol; or one of them and the mean colour of the
# symbol's own middle, where a printed ring has its hole (paper, or print blurred lighter than
# OBJECT_DARK): the object runs on from beyond the card right onto the symbol, its smeared edge
# leaving the halo beside it paler. The dark pens read as rings on held-out `fingers` tables 42
# and 66: plateaus 0.31 and 0.22, two halo samples alike; on table 176, 0.30, one halo sample
# and the middle within 0.02 and 0.05 (no ring read right on a card in full view has a flat
# band place darker than 0.48 on 350 hard and 100 `fingers` holodex tables). On 350 rendered
# hard holodex tables and 50 `fingers` ones no ring read right on a card in full view has such
# a place; the few that do lie under a pen or a hand's dark skin (plateau 0.21-0.40) on cards
# 82-92 % visible, read right only by chance. A lighter object is told from print only where
# the card shows that blur did not make it: blur flattens the band into a plateau only where it
# is as wide as the band, and it smears the card's opposite edge (on the same axis: motion blur
# too) alike. Where that edge shows the band printed sharp (paper to band by EDGE_SHARP), a
# plateau up to OBJECT_LIGHT is an object (a grey sleeve at 0.59 of the paper on held-out
# `fingers` table 54, the opposite band stepping by 0.62-0.72); where the whole card is smeared
# (table 66's rings blurred into their band, 0.62-0.69) it may be print, and stands.
OBJECT_DARK = 0.45
HALO_SAME = 0.1
OBJECT_LIGHT = 0.75
# Where the opposite edge is blurred too, the edge's own corners tell what blur did: print is
# mirror-symmetric about each symbol's axis, and the band's blur reaches the paper inside the
# band (the innermost depth) alike all along the edge, while a ring blurred into the band lies
# beside its middle place, 0.21 of the apothem from either corner place's innermost depth (twice
# as far as the band). So a plateau up to OBJECT_LIGHT at a corner place also counts as an
# object where the mirror corner's innermost depth is MIRROR_PAPER or more lighter than the
# plateau: blur that carried print that far in at one corner would have done it at the other.
# Held-out `fingers` table 3018: a grey fingertip (0.55-0.6 of the paper) over a blue disc, read
# as the ring, the card's opposite edge stepping 0.31 only; the mirror corner 0.93 inside the
# band, 0.36 lighter than the plateau.
MIRROR_PAPER = 0.25


def _mirror_paper(inner: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Per card, edge and place (cards x edge x 3): a corner place whose mirror corner on the
    same edge is lighter by MIRROR_PAPER at the innermost depth (`inner`: cards x edge x 3 x RGB,
    paper-relative; `light`: the place's lightness to compare, cards x edge x 3); never the
    middle place (see MIRROR_PAPER)."""
    mirror = _mean(inner[:, :, ::-1])
    out = mirror - light > MIRROR_PAPER
    out[:, :, 1] = False
    return out


def _grey_across(text: list[str], halo: np.ndarray, white: np.ndarray, band: np.ndarray,
                 model: ColourModel, symbols: np.ndarray | None = None) -> np.ndarray:
    """Per card and symbol (cards x 6): a symbol read as a grey ink across whose edge a dark
    object lies (see OBJECT_DARK): `halo` the halo samples (cards x 6·N_HALO x 3 BGR, as
    sampled), `white` the cards' white references (cards x 3 BGR), `band` the border band's
    samples normalised by them (cards x depths x 18 x 3 RGB), `symbols` (optional) the symbol
    samples (cards x 6·N_SYMBOL x 3 BGR, as sampled): the mean colour of a symbol's 7 middle
    ones, alike with one halo sample, stands for a second (see OBJECT_DARK; a lighter object
    where the card shows blur did not make it: OBJECT_LIGHT and MIRROR_PAPER)."""
    n = len(text)
    # (first the innermost and outermost depths alike: cheap, and rarely so where print is)
    ends = _max3(np.abs(band[:, 0] - band[:, -1])) < EDGE_FLAT    # cards x 18 places
    if not ends.any():
        return np.zeros((n, 6), bool)
    grey = _grey_read(text, model) & ends.reshape(n, 6, 3).any(-1)
    if not grey.any():
        return grey
    place = band.reshape(n, band.shape[1], 6, 3, 3)               # cards x depths x edge x place
    flat = _max3(_depth_spread(place)) < EDGE_FLAT                # cards x edge x place
    grey &= flat.any(-1)
    if not grey.any():
        return grey
    colour = _mean(place, 1)
    light = _mean(colour)
    dark = flat & (light < OBJECT_DARK)
    lighter = flat & (light < OBJECT_LIGHT) & grey[..., None]
    if lighter.any():   # (a lighter object where blur cannot have made it: see OBJECT_LIGHT)
        printed = (_mean(place[:, 0] - place[:, 3]) > EDGE_SHARP).any(-1)    # cards x edge
        dark |= lighter & np.roll(printed, 3, axis=1)[..., None]
        # (or a corner place whose mirror corner keeps its paper inside the band: MIRROR_PAPER)
        dark |= lighter & _mirror_paper(place[:, 0], light)
    grey &= dark.any(-1)
    if not grey.any():
        return grey
    near = normalise(halo, white[:, None, :])[:, OUTWARD_AT.T]    # cards x edge x 3 x RGB
    alike = (_max3(np.abs(near[:, :, None] - colour[:, :, :, None])) < HALO_SAME).sum(-1)
    runs = alike >= 2
    if symbols is not None:   # (or one halo sample and the symbol's middle: see OBJECT_DARK)
        middle = _mean(symbols.reshape(n, 6, N_SYMBOL, 3)[:, :, :7], 2)    # cards x 6 x BGR
        mid = normalise(middle, white[:, None, :])[:, :, None]      # cards x 6 x 1 x RGB
        runs |= (alike >= 1) & (_max3(np.abs(mid - colour)) < HALO_SAME)
    return grey & (dark & runs).any(-1)


# A black pen (or a dark grey one) lying from beyond the card onto a symbol is darker than the
# band printed beside it: the middle place of the edge (where a pen onto the symbol crosses it)
# is darker than both end places at every depth, from the paper inside the band to past the
# card's outline. Printed, an edge is the same all along (paper, band, table); a symbol blurred
# into the band darkens its middle place on the paper side only, and the table past the outline
# is the same at the three places unless something lies there. On crafted cards 36-56 px across
# under defocus 1.2-2.8 px and 6 px of motion (the pen sweep, tests/vision/pen_sweep.py) no edge
# of a clean card had a place darker than both others by more than 0.07 at every depth
# (luminance, paper-relative); black pens misread before led by 0.18 or more (their place 0.36
# of the paper or darker), dark grey ones (70 of 255) by -0.01-0.23. Under a dark pen the symbol
# reads as anything (a disc as the grey ring, a yellow triangle as blue under a warm lamp), so
# the test does not ask what was read. Only the middle place: on rendered hard tables a shadow
# or a dark object at a corner darkens an end place (tables 12, 31, 151). And only where both
# end places still step from the paper into the band by DARK_STEP (the black pens' cards: 0.086 or
# more): blur too heavy to show that step spreads a disc's own print past the outline (table
# 210: a red disc's edge 0.22 at every depth, its ends 0.62 and flat).
DARK_LEAD = 0.12
DARK_STEP = 0.05
# A dark grey pen (70 of 255) on a small card under heavy defocus is as light as the band
# blurred with the paper (its place up to 0.54 of the paper at its lightest depth) and leads the
# end places by only 0.08-0.17, as a red disc's print blurred into its band does on rendered hard
# tables (up to 0.13); but it reads as the grey ring, whose thin print blurred into the band
# keeps the middle place's paper side lighter: on 400 rendered hard tables a ring read so led by
# more than 0.057 only where that place's lightest depth was 0.57 of the paper or more (on the
# clean crafted cards, 0.60). So a grey reading needs GREY_LEAD where its place is darker.
GREY_LEAD = 0.07
GREY_PEN_LIGHT = 0.55


def _dark_across(text: list[str], band: np.ndarray, model: ColourModel) -> np.ndarray:
    """Per card and symbol (cards x 6): a symbol read (not '?') the middle place of whose edge
    is darker than OBJECT_DARK and than both other places by DARK_LEAD at every depth of
    `band` (cards x depths x 18 x 3, paper-relative RGB), or, for a grey ink's reading, darker
    than GREY_PEN_LIGHT and than both others by GREY_LEAD: a dark object lying across the edge
    onto the symbol (see DARK_LEAD and GREY_LEAD)."""
    read = _chars(text) != "?"
    if not read.any():
        return read
    n = len(band)
    # (first past the outline alone: the lead there bounds the lead at every depth, and seldom
    # reaches GREY_LEAD where nothing lies across an edge)
    outer = _mean(band[:, -1]).reshape(n, 6, 3)
    if not (read & (np.minimum(outer[..., 0], outer[..., 2]) - outer[..., 1] > GREY_LEAD)).any():
        return np.zeros_like(read)
    lum = _mean(band).reshape(n, band.shape[1], 6, 3)            # cards x depths x edge x place
    mid = lum[..., 1]
    lead = (np.minimum(lum[..., 0], lum[..., 2]) - mid).min(1)    # cards x edge
    # (both end places showing the printed step from paper into the band: blur too heavy to
    # show it spreads the symbol itself past the outline)
    step = np.minimum(lum[:, 0, :, 0] - lum[:, 2, :, 0], lum[:, 0, :, 2] - lum[:, 2, :, 2])
    light = mid.max(1)
    dark = (lead > DARK_LEAD) & (light < OBJECT_DARK)
    dark |= (lead > GREY_LEAD) & (light < GREY_PEN_LIGHT) & _grey_read(text, model)
    return read & dark & (step > DARK_STEP)


# An object laid over a symbol from beyond the card (a pen, a sleeve, a fingertip) is one colour
# along its length: from the symbol's middle across the symbol's rim, the paper round it, the
# printed band and the card's outline on to the table. Print never is: between a symbol and the
# outline lie the paper (0.12 of the apothem wide) and the dark band, so a straight run from a
# symbol's middle to past the outline crosses at least the printed step from paper to band. The
# guards above look for the object at fixed places (the halo samples facing an edge, the band's
# three places per edge); with the pose a fraction off, or the object crossing aslant or at a
# corner, they can miss it, and a grey pen or sleeve over a disc reads as the ring, a tan pen over
# a blue disc as red. So `_runs_out` casts straight runs (`RUN_RAYS`) from each of a read symbol's
# 7 middle samples, every RUN_TURN degrees within RUN_FAN of its edge's outward normal, to RUN_OUT
# apothems from the card's centre (past the outline at any pose error the reader leaves), and a
# symbol is covered ('?', counted as crossed) where one run's colour spreads (largest channel,
# paper-relative, max less min over its RUN_POINTS points) less than RUN_FLAT and less than
# RUN_SHARE of the card's printed step (the median over its 18 band places of the step from the
# paper inside the band to the band): blur that flattens print along a run flattens that step
# alike, so a blurred card asks for a flatter run. Held-out `fingers` tables 3198 (a grey-green
# sleeve over a red disc), 3330 and 3340 (light grey pens over red discs, the pose a fraction off)
# and 3380 (a tan pen over a blue disc), each read whole with that symbol wrong: runs spreading
# 0.019-0.032, 0.05-0.13 of their card's step; `fingers` 3400-3699, swept after: four of five such
# misreads closed (3450, 3634, 3665, 3686), none of the 4 972 cards in full view read right lost.
# Not 3622 (a brown pen over a blue disc on a card 31 px in apothem): see the halo start below.
# Crafted pens (`pen_sweep.pen_card`: grey 135 and 165, sage and tan pens 0.18-0.24 of
# the card wide over red and blue discs, 40-64 px cards, defocus 0.8-1.5 px, read at the true pose
# and at poses 0.06 of the apothem and 3-4° off): 28 of 1152 read with a wrong letter before, none
# now; where read as a letter, at most 0.096 and 0.28 of the step. Print read right on cards in
# full view (held-out `fingers` 0-99): no run under 0.102, the flattest (tables 4, 54, 60 and 66,
# whose rings are smeared into their band) 0.43 of their card's step or more; 768 clean crafted
# cards (both editions, 30-64 px, defocus 0.8-4 px, 0-8 px of motion, both lamps, three poses)
# read as before. A run only starts from a middle sample unlike paper by RUN_NEAR that some halo
# sample of the symbol is like within RUN_NEAR (the object crosses the halo on its way out), and
# every RUN_COARSE-th point is tried first: few symbols are looked at further.
# Where a pen's tip lies on a disc, blur blends the two in the disc's middle samples, and no run
# from them is one colour: held-out `fingers` table 3622, a brown pen over a blue disc on a card
# 31 px in apothem blurred so that its band steps by only 0.19 (the median of its places; the
# limit 0.068), its middle samples the pen's grey-brown tinted blue, the flattest run from them
# 0.079; read whole with the disc as the grey ring, a blob whose hole does not show. Where the
# object crosses the halo on its way out it shows its own colour unmixed, so on a symbol read as
# a grey ink whose hole does not show (`_open_ring`: blur or something over it hides the print's
# shape) a run also starts from its halo sample facing its edge (`OUTWARD_HALO`, 0.88-0.89 of
# the apothem out, level with the band's innermost depth) where that sample is unlike paper by
# RUN_NEAR and like one of the symbol's middle samples within RUN_NEAR (the object reaches on
# onto the symbol), and the halo samples either side of it (0.8 of the apothem out, 0.2 aside)
# are within HALO_SAME of its colour in every channel: an object lying over the three is one
# colour, while blur from the band (or a dark gap beside it) falls off inwards and leaves those
# two paler than the one beside the band. 3622's pen: 0.05 and 0.075 apart; the run from the
# halo 0.032. Print that a halo start without those terms took for an object: a ring by a grey
# pen lying along an edge (`fingers` table 18, its hole showing; the run 0.078 against 0.091),
# a card smeared by motion along an edge, its ring and band blurred one grey into the gap
# beside it (table 7460: 0.041 against 0.066; the samples aside 0.97 and 0.76 of the paper, the
# one facing the edge 0.52), and on the rendered hard tables rings blurred into a dark gap
# beside a touching neighbour (12, with markers) and on a card 29 px across (28, without), one
# of the samples aside 0.15-0.27 paler (in lightness) than the one facing the edge. Crafted pens
# (`pen_sweep.pen_card`: brown, tan, taupe and grey, 0.18-0.24 of the card wide, over red and
# blue discs on 50-64 px cards, defocus 1.5-3 px, 0 or 6 px of motion, both lamps, five poses up
# to 0.06 of the apothem and 4° off) misread and hide their disc exactly as before (202 and
# 11 318 of 11 520 reads): blur leaves paper in the samples aside so narrow a pen's edges.
RUN_OUT = 1.2
RUN_FLAT = 0.1
RUN_SHARE = 0.35
RUN_NEAR = 0.2
RUN_FAN = 90.0
RUN_TURN = 10.0
RUN_POINTS = 21
RUN_COARSE = 5
RUN_STARTS = 7      # a symbol's middle samples (its centre and the 6 round it)


def _run_rays() -> np.ndarray:
    """Card-frame points (6 x rays x RUN_POINTS x 2) of the straight runs out of each symbol:
    from each of its RUN_STARTS middle samples and then its halo sample facing its edge
    (`OUTWARD_HALO`; rays start-major), in directions every RUN_TURN degrees within RUN_FAN of
    its edge's outward normal, on to RUN_OUT apothems from the card's centre (the hexagon's
    radius: the largest projection on the six edge normals), RUN_POINTS points evenly apart."""
    normals = np.array([[math.cos(math.radians(-60.0 * d)), math.sin(math.radians(-60.0 * d))]
                        for d in range(6)])
    turns = np.radians(np.arange(-RUN_FAN, RUN_FAN + 0.5, RUN_TURN))
    frac = np.linspace(0.0, 1.0, RUN_POINTS)
    out = []
    for d in range(6):
        ang = math.radians(-60.0 * d) + turns
        dirs = np.c_[np.cos(ang), np.sin(ang)]                       # angles x 2
        starts = np.concatenate([SYMBOL_PTS[d, :RUN_STARTS],
                                 HALO_PTS[d * N_HALO + OUTWARD_HALO[d]][None]])   # starts x 2
        along = dirs @ normals.T                                     # angles x 6
        level = starts @ normals.T                                   # starts x 6
        reach = np.where(along[None] > 1e-6,
                         (RUN_OUT - level[:, None]) / np.maximum(along[None], 1e-6), np.inf)
        t_end = reach.min(-1)                                        # starts x angles
        pts = (starts[:, None, None] + (t_end[..., None] * frac)[..., None]
               * dirs[None, :, None])                                # starts x angles x P x 2
        out.append(pts.reshape(-1, RUN_POINTS, 2))
    return np.array(out)


RUN_RAYS = _run_rays()
_RUN_TURNS = RUN_RAYS.shape[1] // (RUN_STARTS + 1)
# (the runs laid out point-major for `_run_spread`: points x 6 x rays x 2; and each run's end by
# symbol, start and turn: 1 x 6 x (RUN_STARTS + 1) x turns x 2)
_RUN_POINTS_FIRST = np.ascontiguousarray(RUN_RAYS.transpose(2, 0, 1, 3))
_RUN_ENDS = np.ascontiguousarray(
    RUN_RAYS[None, :, :, -1].reshape(1, 6, RUN_STARTS + 1, _RUN_TURNS, 2))


def _runs_out(bgr: np.ndarray, poses: list[Pose], view: TableView, white: np.ndarray,
              read: np.ndarray, symbols: np.ndarray, halo: np.ndarray, band: np.ndarray,
              blobs: np.ndarray | None = None) -> np.ndarray:
    """Per card and symbol (cards x 6), of those `read` marks: some straight run from one of
    the symbol's middle samples, or from its halo sample facing its edge, to past the card's
    outline (`RUN_RAYS`) is one colour, its spread under RUN_FLAT and under RUN_SHARE of the
    card's printed step from paper to band (see the comment before RUN_OUT). `bgr` the frame,
    `white` the cards' white references (cards x 3 BGR), `symbols` and `halo` their symbol and
    halo samples as sampled (cards x 6·N_SYMBOL and 6·N_HALO x 3 BGR), `band` their border
    band's, normalised (cards x depths x 18 x 3); `blobs` (cards x 6, optional) the symbols
    whose runs may also start from the halo sample facing their edge (grey blobs whose hole
    does not show), where it is unlike paper and the samples either side of it alike it.
    All the runs are tried first at their ends alone (every start's runs in one array, points
    first), those left at every RUN_COARSE-th point, and only those left at all their points: a
    run's spread over some of its points is at most its spread over all (a point maps and
    samples the same to the last bit wherever it lies in an array of two or more points:
    `transform` maps it alike in any such array, `sample` samples each point on its own; a lone
    point can map a last bit apart), so a run already too wide there cannot pass."""
    n = len(poses)
    out = np.zeros(read.shape, bool)
    mid = normalise(symbols.reshape(n, 6, N_SYMBOL, 3)[:, :, :RUN_STARTS],
                    white[:, None, None, :])
    # (a run starts from a middle sample of a read symbol unlike paper, ...)
    start = read[..., None] & (_max3(np.abs(mid - 1.0)) > RUN_NEAR)
    ci, si = np.nonzero(start.any(-1))
    if not ci.size:
        return out
    # (... like some halo sample of its symbol: only the symbols with such a start looked at)
    ring = normalise(halo.reshape(n, 6, N_HALO, 3)[ci, si], white[ci, None, :])
    mids = mid[ci, si]                                               # symbols x 7 x 3
    near = (_max3(np.abs(mids[:, :, None] - ring[:, None])) < RUN_NEAR).any(-1)
    # (and, on the `blobs`, the halo sample facing the edge, unlike paper by RUN_NEAR and like
    # some middle sample within it, those either side within HALO_SAME of it: see the comment
    # before RUN_OUT)
    facing = ring[np.arange(len(si))[:, None], OUTWARD_AT.T[si] % N_HALO]    # symbols x 3 x 3
    outward = facing[:, 1]                                           # symbols x 3
    from_halo = ((_max3(np.abs(outward - 1.0)) > RUN_NEAR)
                 & (_max3(np.abs(facing - outward[:, None])) < HALO_SAME).all(-1)
                 & (_max3(np.abs(mids - outward[:, None])) < RUN_NEAR).any(-1))
    from_halo &= blobs[ci, si] if blobs is not None else False
    j, r = np.nonzero(np.c_[start[ci, si] & near, from_halo])        # the starts
    if not j.size:
        return out
    ci, si = ci[j], si[j]
    begin = np.concatenate([mids, outward[:, None]], 1)[j, r]        # starts x 3
    # (each card's printed step: the median over its band places, most of them in view; the
    # poses' matrices and centres)
    flat = np.minimum(RUN_FLAT, RUN_SHARE * _median_rows(
        _max3(np.abs(band[:, 0] - band[:, 2]))))[ci]                  # starts
    m = pose_matrices(poses)[ci]
    centres, white = np.array([p.centre for p in poses])[ci], white[ci]
    # (every run of each start at its end: starts x turns)
    spread = _run_spread(bgr, view, _RUN_ENDS[:, si, r], m[:, None], centres[:, None],
                         white[:, None], begin[:, None])
    k, t = np.nonzero(spread < flat[:, None])
    rays = r[k] * _RUN_TURNS + t
    # (those left at every RUN_COARSE-th point, then at all; a run's start is the middle sample,
    # sampled already)
    for points in (slice(None, None, RUN_COARSE), slice(None)):
        if not k.size:
            return out
        spread = _run_spread(bgr, view, _RUN_POINTS_FIRST[points, si[k], rays], m[k], centres[k],
                             white[k], begin[k])
        keep = spread < flat[k]
        k, rays = k[keep], rays[keep]
    out[ci[k], si[k]] = True
    return out


def _run_spread(bgr: np.ndarray, view: TableView, local: np.ndarray, m: np.ndarray,
                centres: np.ndarray, white: np.ndarray, begin: np.ndarray) -> np.ndarray:
    """The colour spread (paper-relative, the largest channel's) along each of some runs (of
    any shape) of card-frame points `local` (points x runs x 2), whose cards' pose matrices
    (runs x 2 x 2), centres (runs x 2) and white references (runs x 3 BGR) are `m`, `centres`
    and `white` (or broadcast to the runs), with the colour `begin` of its start (runs x 3,
    paper-relative RGB) among them; inf where a point lies outside the frame."""
    x, y = local[..., 0], local[..., 1]
    # (each plane point c + m·p summed as (c + m00·x) + m01·y, in place)
    plane = np.empty((*np.broadcast_shapes(x.shape, centres.shape[:-1]), 2))
    for a in (0, 1):
        np.multiply(m[..., a, 0], x, out=plane[..., a])
        plane[..., a] += centres[..., a]
        plane[..., a] += m[..., a, 1] * y
    img = view.to_image(plane.reshape(-1, 2)).reshape(plane.shape)
    vals, inside = sample(bgr, img)
    norm = normalise(vals, white)
    if len(norm) == 1:   # (one point: its distance from the start's colour, no reduction)
        return np.where(inside[0], _max3(np.abs(norm[0] - begin)), np.inf)
    spread = _max3(np.maximum(norm.max(0), begin) - np.minimum(norm.min(0), begin))
    return np.where(inside.all(0), spread, np.inf)


def _median_rows(x: np.ndarray) -> np.ndarray:
    """`np.median(x, 1)` of a finite 2-D array (no NaN to look for), by one sort: the middle
    value, or the mean of the middle two (their sum halved, in x's type, as NumPy's mean of
    two takes it), without `np.median`'s checks and partition."""
    s = np.sort(x, 1)
    h = x.shape[1] // 2
    return s[:, h] if x.shape[1] % 2 else (s[:, h - 1] + s[:, h]) / 2


def _grey_read(text: list[str], model: ColourModel) -> np.ndarray:
    """Per card and symbol (cards x 6): read as a grey ink."""
    chars = _chars(text)
    grey = np.zeros(chars.shape, bool)
    for k, letter in enumerate(model.letters):
        if model.neutral[k]:
            grey |= chars == letter
    return grey


def _coloured_index(text: list[str], model: ColourModel) -> np.ndarray:
    """Per card and symbol (cards x 6): the index of the coloured ink read (in the model's
    letters), -1 for '?' and for a grey ink."""
    chars = _chars(text)
    own = np.full(chars.shape, -1)
    for k, letter in enumerate(model.letters):
        if not model.neutral[k]:
            own[chars == letter] = k
    return own


# A card's pose a little off its print (an outline fitted a pixel or two aside on a large sharp
# card) moves every symbol's halo alike: at the same place round each symbol (the halo's places
# are fixed in the card's frame) its own ink shows, and the place right across from it
# (FACING) is paper, the ink moved away from it. So a halo place where the symbol shows its
# ink with paper across from it, as at least SHIFTED_SYMBOLS of the card's other coloured
# symbols do at that place, is the pose's offset and does not count towards MAX_OWN_HALO.
# Nothing lying over the card mimics it: a fingertip covers one symbol, or two side by side;
# that place round four symbols of the ring lies on a circle, and an object covering it there
# but leaving paper at the place across from it round each of them has no such shape; blur
# spreads ink all round (no paper across). Rendered hard table 536 (markers): a blue card 88
# px across whose four middle discs show their ink at 0.6-1.0 in halo places 4 and 5, paper
# in places 0 and 1, one of them its ink in place 0 too: three, so it was reported covered.
SHIFTED_SYMBOLS = 3


def _ink_beyond(text: list[str], halo_kind: np.ndarray, halo_alpha: np.ndarray,
                model: ColourModel) -> np.ndarray:
    """Per card and symbol (cards x 6): a symbol read as a coloured ink whose halo
    (`halo_kind`, `halo_alpha`: cards x 6·N_HALO) shows that same ink at FAINT_ALPHA or more
    in more than MAX_OWN_HALO samples, not counting a place where it and SHIFTED_SYMBOLS of
    the card's other coloured symbols show their own ink with paper across from it (a pose
    off the print)."""
    own = _coloured_index(text, model)
    n = len(text)
    halo_kind = halo_kind.reshape(n, 6, N_HALO)
    strong = halo_alpha.reshape(n, 6, N_HALO) >= FAINT_ALPHA
    mine = (halo_kind == own[..., None]) & strong & (own >= 0)[..., None]
    # (a place of own ink with paper across from it: what a shifted pose leaves)
    shifted = mine & (halo_kind[..., FACING] == PAPER_K)
    others = shifted.sum(1, keepdims=True) - shifted    # cards x 6 x N_HALO
    same = (mine & ~(shifted & (others >= SHIFTED_SYMBOLS))).sum(-1)
    return (own >= 0) & (same > MAX_OWN_HALO)


# A grey ink is printed neutral: the lamp's tint left by the white reference, the paper's
# chroma bled in by JPEG and the blur of a coloured neighbour give it little chroma (symbols
# read as the grey ring on the hard band: per symbol the median chroma of its grey samples at
# most 0.18, 99 % below 0.15; under a held-out lamp or harsh light at most 0.11). A disc
# printed in a hue no ink of the model has (our blue printed violet with cyan running low)
# lies within the grey fit's reach, lighter than the grey ink and about as dark as a blurred
# ring: 0.27-0.34. Over GREY_MAX_CHROMA (`chroma` in `inks`) the grey reading is not trusted.
GREY_MAX_CHROMA = 0.25


def _tinted_grey(text: list[str], sym_kind: np.ndarray, sym_norm: np.ndarray,
                 model: ColourModel) -> np.ndarray:
    """Per card and symbol (cards x 6): a symbol read as a grey ink, with at least three
    samples of that ink (`sym_kind`, cards x 6 x N_SYMBOL), more than half of which lie over
    GREY_MAX_CHROMA from grey (`sym_norm`: their paper-normalised RGB)."""
    chars = _chars(text)
    out = np.zeros(chars.shape, bool)
    for k, letter in enumerate(model.letters):
        read = chars == letter
        if not model.neutral[k] or not read.any():
            continue
        x = sym_norm[read]                                   # m x N_SYMBOL x 3
        r, g, b = x[..., 0], x[..., 1], x[..., 2]
        # |x minus its grey| squared, (r-g)² + (g-b)² + (b-r)² = 3·that
        far = ((r - g) ** 2 + (g - b) ** 2 + (b - r) ** 2) > 3.0 * GREY_MAX_CHROMA ** 2
        mine = sym_kind[read] == k
        n = mine.sum(-1)
        out[read] = (n >= 3) & (2 * (mine & far).sum(-1) > n)
    return out


# A light ink is told from a darker ink near it in hue by its lightness as much as by its hue:
# a printer that turns hues (a red printed towards orange) moves a red disc into the web
# edition's yellow by hue, but not by lightness (a hue turn keeps it; our red is 0.65 of our
# yellow's mean channel against the paper). Against the paper round it (its halo samples the
# model calls paper, channel by channel: the lamp, a shade or a clipped white scale both alike)
# a symbol's middle is at least as light as its ink, blur only mixing in paper. So a symbol
# read as an ink that has a darker rival within INK_RIVAL_DEG in hue, whose 7 middle samples'
# median lies below the geometric mean of the rival's lightness and the ink's own (both relative
# to the ink's: 0.81 for our yellow, against red's 0.65), is no print of that ink
# (`CardRead.dim`). On the ±30° printer tables (20 cards, seeds 0-119, web) the symbols read
# yellow lie at 0.85 or more where they are yellow and 0.50-0.75 where they are red; the lone
# card of seed 79 (all red) at 0.65-0.67. The read keeps the letter its hue gave, flagged: the
# table-wide ink doubt (`inks.confused_letters`) must still see a red read as yellow to ask
# for the print's colours, and only the reader's final report leaves it unread (`undimmed`).
INK_RIVAL_DEG = 90.0
MIN_LOCAL_PAPER = 3   # halo samples that are paper, for the paper round a symbol to be known
_FLOORS: dict[int, tuple[ColourModel, np.ndarray]] = {}


def _ink_floors(model: ColourModel) -> np.ndarray:
    """Per letter of `model`, the least lightness (of its ink's, against the paper) a symbol
    read as it may show in its middle (see INK_RIVAL_DEG): 0 where no darker coloured ink lies
    within INK_RIVAL_DEG in hue, and for a grey ink."""
    inks = np.asarray(model.inks, np.float64)
    light = inks.mean(-1)
    hue = np.degrees(np.arctan2((inks[:, 1] - inks[:, 2]) * math.sqrt(3.0) / 2.0,
                                inks[:, 0] - (inks[:, 1] + inks[:, 2]) / 2.0))
    floors = np.zeros(len(inks))
    for k in range(len(inks)):
        for j in range(len(inks)):
            turn = abs((hue[k] - hue[j] + 180.0) % 360.0 - 180.0)
            if (j != k and not model.neutral[k] and not model.neutral[j]
                    and light[j] < light[k] and turn < INK_RIVAL_DEG):
                floors[k] = max(floors[k], math.sqrt(light[j] / light[k]))
    return floors


def _lightness_floors(model: ColourModel) -> np.ndarray:
    """`_ink_floors` times each ink's own lightness (mean channel, paper-relative): the least
    mean channel a symbol read as it may show in its middle, against the paper round it;
    remembered per model (a read asks for them in every call)."""
    got = _FLOORS.get(id(model))
    if got is None or got[0] is not model:
        if len(_FLOORS) >= 8:   # (a reader keeps its model: a few at a time)
            _FLOORS.clear()
        got = (model, _ink_floors(model) * np.asarray(model.inks, np.float64).mean(-1))
        _FLOORS[id(model)] = got
    return got[1]


def _darker_than_ink(text: list[str], symbols: np.ndarray, halo: np.ndarray,
                     halo_paper: np.ndarray, model: ColourModel) -> np.ndarray:
    """Per card and symbol (cards x 6): a symbol read as an ink with a darker rival near in hue
    whose middle is darker than that ink's floor (`_ink_floors`) against the paper round it:
    `symbols` the symbol samples (cards x 6·N_SYMBOL x 3) and `halo` the halo samples (cards x
    6·N_HALO x 3), both as sampled, `halo_paper` which halo samples are paper."""
    n = len(text)
    floors = _lightness_floors(model)
    chars = _chars(text)
    out = np.zeros(chars.shape, bool)
    if not floors.any():
        return out
    floor = np.zeros(chars.shape)
    for k in np.flatnonzero(floors):
        floor[chars == model.letters[k]] = floors[k]
    c, d = np.nonzero(floor)
    if not c.size:
        return out
    paper = halo_paper.reshape(n, 6, N_HALO)[c, d]                            # m x N_HALO
    count = paper.sum(-1)
    local = ((halo.reshape(n, 6, N_HALO, 3)[c, d] * paper[..., None]).sum(1)
             / np.maximum(count, 1)[:, None])                                   # m x BGR
    middle = symbols.reshape(n, 6, N_SYMBOL, 3)[c, d, :7] / np.maximum(local, 1.0)[:, None]
    light = np.sort(middle.mean(-1), -1)[:, 3]                                 # their median
    out[c, d] = (count >= MIN_LOCAL_PAPER) & (light < floor[c, d])
    return out


# Something lying over a symbol from beyond the card (a fingertip) crosses the card's edge
# there (`_crossed_edge`). Printed, each of the band's three places on an edge goes from paper
# (just inside the band) to the dark band within a few pixels, at every blur the reader copes
# with: at least EDGE_STEP (paper-relative, any channel) between the first and third depths.
# An object there is one colour right across: no channel changing by more than EDGE_FLAT over
# the four depths on the card (crafted fingertips: at most 0.05;
# `tests/vision/test_symbol_fingertip.py`), darker than paper (EDGE_PAPER: a pose a pixel in
# leaves a place flat on paper). Coming in aslant it may cover a side place as well as, or
# instead of, the middle one, so any place counts, against the other places of the edge that
# do show the step. And its colour is not the band's there (their middle depth): by
# EDGE_UNLIKE in some channel, or by EDGE_HUE in hue (each channel's log less their mean; the
# same lamp and paper scale both alike). A dark grey ring beside the band, both blurred into
# one grey, or a band washed out on clipped paper, leaves the band's own colour there (rendered
# hard tables: at most 0.12 apart, 0.08 in hue), a fingertip its own (crafted: 110 of 113 more
# than 0.15 apart; the other 3, skin as bright as the band under a strong lamp, 0.16-0.21 in
# hue). Read from a pose a little off the card (a pose search's shift, an outline fitted to
# smeared paper) an edge's other places may show no step either: then the band's hue where it
# shows the step anywhere round the card (at least MIN_BAND_REF places) stands for it, since
# one print under one lamp has one hue all round and a shade dims without tinting. A grey
# object (a pen, a phone, a grey sleeve) has the band's own grey, but it runs on past the
# card's outline onto the table, at the band's colour still (the outer depth, within
# EDGE_FLAT), where the edge's other places show the table: a printed band or ring stops
# inside the outline. There no shadow explains the edge, so a halo sample that looks like
# paper only in shade is no paper either (see `_read_cards`; crafted grey objects over small
# blurred cards, `tests/vision/test_symbol_grey_object.py`: 139 of 6 480 read with a wrong
# letter before, 11 after).
EDGE_FLAT = 0.06
EDGE_STEP = 0.15
EDGE_UNLIKE = 0.15
EDGE_HUE = 0.15
MIN_BAND_REF = 6     # band places with the printed step: enough to know the band's hue
EDGE_PAPER = 0.85    # a flat place this bright (paper-relative, mean of channels) is paper


def _crossed_edge(band: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per card and symbol (cards x 6): an object may cross edge d onto symbol d (the caller
    also asks that one of the three halo samples facing that edge, OUTWARD_AT, is not paper: a
    printed symbol never touches the band). One of the band's places on that edge (`band`:
    cards x depths x 18 border places, paper-relative, edge d's at 3d .. 3d + 2) is one colour
    across the band's depths, darker than paper and unlike the band's own where another place
    of the edge steps from paper to the band (a printed band is the same all along its edge),
    or unlike in hue the band wherever it steps round the card, or of the band's colour but
    running on past the outline where the edge's other places show the table. Also returned:
    where the last holds (an object running on past the card, which no shadow explains)."""
    n = len(band)
    place = band[:, :4].reshape(n, 4, 6, 3, 3)        # cards x depths x edge x place x RGB
    flat = _max3(_depth_spread(place)) < EDGE_FLAT    # cards x edge x place
    crossed, past = np.zeros((n, 6), bool), np.zeros((n, 6), bool)
    if not flat.any():   # (often: the rest is not needed)
        return crossed, past
    colour = place.mean(1)                                     # cards x edge x place x RGB
    # ... and darker than the paper (a pose a pixel in leaves a place on paper, flat too): a
    # card with no such place has nothing crossed, and each card's test is its own, so only
    # the cards with one are looked at further
    dark = flat & (_mean(colour) < EDGE_PAPER)
    some = np.flatnonzero(dark.any((1, 2)))
    if some.size:
        crossed[some], past[some] = _crossed_places(band[some], place[some], colour[some],
                                                    flat[some], dark[some])
    return crossed, past


def _crossed_places(band: np.ndarray, place: np.ndarray, colour: np.ndarray, flat: np.ndarray,
                    dark: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_crossed_edge`'s two answers for cards with a flat place darker than paper (`dark`):
    `band` as it takes it, `place` its four inner depths by edge and place, `colour` their mean
    over the depths, `flat` the places one colour across them."""
    n = len(band)
    step = _max3(np.abs(place[:, 0] - place[:, 2])) > EDGE_STEP
    band_at = place[:, 2]
    hue = _hue(np.concatenate([colour, band_at], 2))
    # place p against every other place q of the edge that shows the printed step
    diff = _max3(np.abs(colour[:, :, :, None] - band_at[:, :, None]))
    dhue = _max3(np.abs(hue[:, :, :3, None] - hue[:, :, None, 3:]))
    unlike = _beside_step((diff > EDGE_UNLIKE) | (dhue > EDGE_HUE), step)
    # ... or unlike in hue the band where it shows the step anywhere round the card
    count = step.reshape(n, -1).sum(-1)
    banded = count >= MIN_BAND_REF
    if banded.any():
        # the median over the places with the step (np.nanmedian's, without its overhead)
        ref = np.sort(np.where(step[..., None], hue[:, :, 3:], np.inf).reshape(n, -1, 3)[banded],
                      axis=1)
        k = count[banded]
        rows = np.arange(len(k))
        mid = 0.5 * (ref[rows, (k - 1) // 2] + ref[rows, k // 2])
        far = np.zeros_like(unlike)
        far[banded] = _max3(np.abs(hue[banded][:, :, :3] - mid[:, None, None])) > EDGE_HUE
        # (not where the whole edge is one flat colour: a table's hue bled into the band
        # along it, or an object lying along the edge rather than across it onto a symbol)
        one = flat.all(-1) & (_max3(_max_place(colour) - _min_place(colour)) < EDGE_UNLIKE)
        unlike |= far & ~one[..., None]
    # ... or, of the band's own grey (a grey pen or sleeve), it carries on past the card's
    # outline (the outer depth), where the other places show the table: a printed ring beside
    # the band stops inside it
    outer = band[:, 4].reshape(n, 6, 3, 3)
    on = _max3(np.abs(outer - colour)) < EDGE_FLAT                    # cards x edge x place
    ohue = _hue(outer)
    odiff = _max3(np.abs(outer[:, :, :, None] - outer[:, :, None]))
    odhue = _max3(np.abs(ohue[:, :, :, None] - ohue[:, :, None]))
    past = _beside_step((odiff > EDGE_UNLIKE) | (odhue > EDGE_HUE), step)
    past &= on
    unlike |= past
    return (dark & unlike).any(-1), (dark & past).any(-1)


def _max_place(x: np.ndarray) -> np.ndarray:
    """`x.max(2)` over an edge's three places (axis 2 of cards x edge x place x RGB), unrolled
    (see `_max3`)."""
    return np.maximum(np.maximum(x[:, :, 0], x[:, :, 1]), x[:, :, 2])


def _min_place(x: np.ndarray) -> np.ndarray:
    """`x.min(2)` over an edge's three places, unrolled (see `_max_place`)."""
    return np.minimum(np.minimum(x[:, :, 0], x[:, :, 1]), x[:, :, 2])


def _beside_step(unlike: np.ndarray, step: np.ndarray) -> np.ndarray:
    """Per border place p of each edge (cards x edge x 3): whether `unlike[..., p, q]` (cards
    x edge x 3 x 3) holds for some other place q of that edge that `step` (cards x edge x 3)
    marks as showing the band's printed step from paper."""
    return (unlike & step[:, :, None] & _OTHER_PLACE).any(-1)


_OTHER_PLACE = ~np.eye(3, dtype=bool)   # place q of an edge is not place p


def _hue(rgb: np.ndarray) -> np.ndarray:
    """Each channel's log less their mean (last axis): a colour's hue, the same under any
    scaling of its level (a lamp's, the paper's, a shade's)."""
    hue = np.log(np.maximum(rgb, 0.02))
    hue -= _mean(hue)[..., None]
    return hue


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
    vals = _along1(paper_vals, pick)
    return np.maximum(_mean(vals, 1), 1.0)


def decide(kind: np.ndarray, alpha: np.ndarray, dark: np.ndarray, model: ColourModel,
           flank_dark: np.ndarray | None = None,
           mean_fit: tuple[np.ndarray, np.ndarray] | None = None,
           allow: np.ndarray | None = None,
           bleed: Bleed | None = None,
           paper_clipped: np.ndarray | None = None,
           in_shade: np.ndarray | None = None,
           clip_rivals: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
           print_match: PrintMatch | None = None,
           twin: tuple[np.ndarray, np.ndarray] | None = None
           ) -> tuple[list[str], np.ndarray]:
    """Letters (one string per card, '?' where unsure) and per-edge confidences from the sample
    kinds, ink fractions and grey-ink fractions (each cards x 6 x 19). A symbol is read when one
    ink clearly dominates (enough ink, a saturated core, almost none of any other ink, few
    unexplained samples); a grey ink must also be a ring — paper in its middle, and a band
    dark on both sides of its centre (`RING_LOPSIDED`) — so a shadow, a dark fingertip or a
    disc's rim left beside an object lying over it is not read as one. Blur (defocus, motion)
    fills a small ring's middle: a grey blob is still read as the ring when it stands out from
    the paper beside it (`flank_dark`, cards x 6: a shadow darkens both), is no darker in the
    middle than around it, and holds about as much ink as a ring and far less than a solid
    blob (`BLURRED_RING_DARK`); a ring's middle is never ink right through
    (`BLURRED_RING_MIDDLE`). A closed ring smeared thin by motion, its band still holding the
    grey ink of three samples (`FAINT_RING_DARK`), stands with a smaller vote
    (`FAINT_RING_VOTE`). Faint coloured samples in a ring's fringe and grey samples in a
    solid disc's rim do not count as rivals.
    One card has one blur: a grey blob blurred flat is no ring where a twin ring on the card
    keeps its hole open (`_flat_beside_open`; a pen or a coin lying over a disc). Every edge
    carries a symbol, and only the grey ink's has no hue: a symbol of paper and grey-ink
    samples alone, ring-shaped, is the grey ring however faint (`_hueless_ring`).
    `allow` (cards), when given, limits the blurred-ring, disc-rim and mean-colour readings to
    those cards. `bleed` (alpha, ok; each cards x 6 x 19, from `ColourModel.grey_with_bleed`;
    or a function giving them for the symbols a cards x 6 mask selects, k x 19) gives a
    ring-shaped symbol's samples that are the grey ink tinted by JPEG's coarse colour to the
    grey ink (`_ring_bleed`). `paper_clipped` (cards) marks cards whose white reference is
    clipped: their grey rings' paper-ink blends may carry the lamp's tint (see the two
    mean-colour readings below), and a coloured reading there that is too dark for its ink
    (`_greyed`), or weak and darker than a strong symbol of its ink on the card (`_outshone`),
    is left '?'; a pale one read by its mean colour there needs a core of strong ink unless
    no other ink explains its mean, nor that of any symbol the card reads, with the clipped
    channels scaled back (`clip_rivals`: whether one does, for the symbols a cards x 6 mask
    selects, each named by the letters given, from `_clip_rivals`), and
    a solid symbol's faint rim samples of another coloured ink are not its rivals
    (`_clipped_rim`); on every card, a weak coloured reading far thinner than that strong
    symbol is '?' (`_thinner`). `in_shade` (cards x 6) marks symbols whose surround is not paper but
    looks like paper in shade: no blurred ring is read there (a grey object lying over the
    symbol looks like that shade beside it and like a grey blob on it). `print_match` (see
    `_split_print`; given only where some card's paper clipped in every channel) tells which
    coloured symbols whose samples split between their ink and one other coloured ink have
    every rival sample clipped and within TWIN_MATCH of the card's own print of their ink (and
    not near its print of the rival): those rival samples are the print's, and the symbol is
    judged as if they were not there. `twin` (the symbols' samples, cards x 6 x 19 x 3
    paper-relative RGB, and the cards judged so) lets a coloured symbol left unread be its ink
    where its mean colour is its strong twin's on the card (`_twin_mean`)."""
    letters = model.letters
    middle = _mean(dark[..., :7])
    hollow = _mean(dark[..., 7:]) - middle   # outer ring minus middle
    ring = _open_ring(dark)
    if bleed is not None:
        kind, alpha = _ring_bleed(kind, alpha, ring, model, bleed, allow)
    member = kind[..., None] == np.arange(len(letters))     # cards x 6 x 19 x letters
    a = clip(alpha, 0.0, 1.2)[..., None]
    score = (member * a).sum(-2)                            # cards x 6 x letters
    other = (kind == OTHER).sum(-1)
    srt = np.sort(score, axis=-1)
    top, second = srt[..., -1], srt[..., -2]
    best = score.argmax(-1)
    is_best = kind == best[..., None]
    # the strongest sample of the winning ink: the per-letter peak, for `best` only (alpha is
    # finite, as `ColourModel.explain` gives it, so the samples of other inks count as 0)
    top_peak = np.where(is_best, a[..., 0], 0.0).max(-1)
    blurred = np.zeros_like(ring)
    if flank_dark is not None:
        lo, hi = BLURRED_RING_DARK
        mean_dark = _mean(dark)
        blurred = (~ring & (mean_dark - flank_dark >= BLURRED_RING_CONTRAST)
                   & (hollow >= -0.2) & (mean_dark >= lo) & (mean_dark <= hi)
                   & (middle <= BLURRED_RING_MIDDLE))
        if allow is not None:
            blurred &= allow[:, None]
        if in_shade is not None:
            blurred &= ~in_shade
    closed = _lopsided(dark, middle) <= RING_LOPSIDED
    grey = model.neutral[best]
    ring_ok = ~grey | (ring & closed) | blurred
    # and no printed coloured symbol is hollow (discs, diamonds and triangles are solid ink):
    # a coloured-looking ring around a bare-paper middle is a grey ring tinted by the lamp (see
    # the hollow fallback below) or something lying over the card, never a coloured symbol
    ring_ok &= grey | ~ring | (middle >= HOLLOW_MIDDLE)
    # A ring's blurred fringe — paper mixed with a little grey ink under a slight colour cast —
    # can fit a coloured ink's line at a low fraction as well as the grey one. In a ring those
    # faint, greyish samples are the ring's own, not a rival symbol's: a coloured symbol shows
    # itself by a solid core of strong ink, which a ring's middle cannot have.
    coloured = (kind >= 0) & ~model.neutral[np.maximum(kind, 0)]   # a coloured ink's sample
    grey_ring = grey & ring
    if grey_ring.any():   # (none in an edition without a grey ink: the rest is not needed)
        faint = coloured & (alpha < FAINT_ALPHA) & (dark >= FAINT_DARK)
        if (faint & grey_ring[..., None]).any():
            solid = (member & ~faint[..., None]) * a
            srt_ring = np.sort(solid.sum(-2), axis=-1)
            second = np.where(grey_ring, srt_ring[..., -2], second)
    # A solid coloured disc whose rim, darkened and blurred into the paper, has lost its hue
    # (dark blue under dim light or a heavy print): grey samples around a core that is all
    # strong coloured ink are the disc's rim, not a rival ring — a ring's middle is paper.
    # (An edition without a grey ink has no grey samples to discount.)
    core = is_best[..., :7].all(-1) & (alpha[..., :7].min(-1) >= SOLID_CORE_ALPHA)
    solid = ~grey & core
    if allow is not None:   # whole cards only, like the blurred ring
        solid &= allow[:, None]
    disc = solid & model.neutral.any()
    greys_outer: np.ndarray | float = 0.0
    if disc.any():
        greys_outer = ((member[..., 7:, :] & model.neutral) * a[..., 7:, :]).sum(-2)
        rim = np.sort(score - np.where(disc[..., None], greys_outer, 0.0), axis=-1)
        second = np.where(disc, rim[..., -2], second)
    if paper_clipped is not None:
        second = _clipped_rim(second, score, member, kind, alpha, a,
                              solid & paper_clipped[:, None], greys_outer, model)
    # a ring's ink, spread thin by defocus or blur, leaves its samples paler than sharp ink;
    # so does a small coloured symbol's (a triangle, a diamond) smeared by motion, and it is
    # still read when its ink is all in its middle and the ring of samples around it is
    # bare paper: printed ink peaks there, a fingertip's or a stain's tint spreads evenly
    alpha01 = clip(alpha, 0.0, 1.0)
    best_alpha = np.where(is_best, alpha01, 0.0)
    pale_centred = (~grey & (_mean(best_alpha[..., :7]) >= PALE_MIDDLE)
                    & (_mean(best_alpha[..., 7:]) <= PALE_OUTER))
    if allow is not None:   # whole cards only
        pale_centred &= allow[:, None]
    peak_ok = top_peak >= np.where(pale_centred, 0.38,
                                   np.where(grey_ring, 0.45,
                                            np.where(grey & blurred, BLURRED_RING_PEAK, 0.55)))
    margin = clip((top - 4.0 * second - 0.5 * other) / 5.0, 0.0, 1.0)
    # a thin ring smeared by motion spreads its ink below the per-sample threshold, so fewer
    # of its samples vote, but its band keeps its darkness: a closed ring whose band holds the
    # grey ink of three samples needs a smaller vote
    faint_ring = grey_ring & closed & (dark[..., 7:].sum(-1) >= FAINT_RING_DARK)
    ok = (top >= np.where(faint_ring, FAINT_RING_VOTE, 2.5)) & peak_ok \
        & (second <= 0.12 * top + 0.3) & (other <= 5) & (margin > 0) & ring_ok
    # one card, one blur: a grey blob blurred flat is no ring where a twin ring keeps its hole
    ok &= ~_flat_beside_open(dark, hollow, grey & blurred, ok & grey_ring & closed)
    conf = np.where(ok, 0.5 + 0.5 * margin, 0.0)
    if print_match is not None:
        # a coloured symbol that fails only for one coloured rival ink's samples, where the
        # paper clipped in every channel: judged without them where they are its own print's
        # (`_split_print`); every other test as above
        # (the rival: the strongest other ink, at most SPLIT_SHARE of the symbol's own; the
        # rest judged as the first test judges the runner-up)
        mine = best[..., None] == np.arange(len(letters))
        rival = np.where(mine, -np.inf, score).argmax(-1)
        third = np.sort(np.where(mine | (rival[..., None] == np.arange(len(letters))), 0.0,
                                 score), axis=-1)[..., -1]
        margin3 = clip((top - 4.0 * third - 0.5 * other) / 5.0, 0.0, 1.0)
        rivals = np.take_along_axis(score, rival[..., None], -1)[..., 0]
        may = (~ok & ~grey & ~model.neutral[rival] & (rivals <= SPLIT_SHARE * top)
               & (top >= 2.5) & peak_ok & (third <= 0.12 * top + 0.3) & (other <= 5)
               & (margin3 > 0) & ring_ok)
        if allow is not None:   # whole cards only
            may &= allow[:, None]
        if may.any():
            split = _split_print(kind, alpha, best, rival, ok, may, model, print_match)
            ok |= split
            conf = np.where(split, 0.5 + 0.5 * margin3, conf)
    if mean_fit is not None and _may_fall_back(ok, mean_fit, allow):
        # Blur, noise and JPEG spread a small coloured symbol: its samples fall below the ink
        # threshold or drift towards grey (dark blue under dim light), though the symbol's mean
        # colour still lies clearly on one ink's line. Read it then, if its samples do not
        # contradict that ink: no rival colour ink, and grey samples only as a solid symbol's
        # darkened ones (a grey ring is told by its mean, which is grey, not coloured).
        mk, ma = mean_fit
        mk0 = np.maximum(mk, 0)
        chroma = (mk >= 0) & ~model.neutral[mk0]
        own = np.take_along_axis(score, mk0[..., None], -1)[..., 0]
        greys = (score * model.neutral).sum(-1)
        rival = score.sum(-1) - own - greys
        # and the ink must peak where the symbol's middle is: blur keeps a printed symbol's
        # centre strongest, while a fingertip or a stain lying over it tints it evenly
        own_alpha = np.where(kind == mk0[..., None], alpha01, 0.0)
        centred = _mean(own_alpha[..., :7]) - _mean(own_alpha[..., 7:]) >= FALLBACK_CENTRED
        own_peak = own_alpha.max(-1)
        # On a card whose paper clipped the sensor, the white reference is darker than the
        # paper in the clipped channels, so every blend of paper and ink is seen too bright
        # there and its hue is pulled towards them: a blurred grey ring fits red and a
        # blurred red disc yellow at about half strength (peaks 0.51-0.59 measured). Only a
        # core of strong ink (SOLID_CORE_ALPHA), little paper in it, keeps its hue ...
        peak_at = np.full(len(kind), FALLBACK_PEAK)
        if paper_clipped is not None:
            peak_at = np.where(paper_clipped, SOLID_CORE_ALPHA, FALLBACK_PEAK)
        may = (~ok & chroma & (ma >= FALLBACK_ALPHA) & (own >= 1.0)
               & centred & (rival <= 0.12 * own + 0.3) & (greys <= 0.5 * own) & (other <= 12))
        if allow is not None:
            may &= allow[:, None]
        fb = may & (own_peak >= peak_at[:, None])
        if clip_rivals is not None and paper_clipped is not None:
            # ... unless no other ink explains its mean colour with the clipped channels seen
            # as bright as they may truly be (`clip_rivals`): the clip then made nothing of
            # it. One lamp and one clip for the whole card: where another ink explains any
            # symbol the card reads so, the clip may have changed hues on it (grey rings read
            # blue under a cyan lamp), and no pale symbol is filled in there.
            pale = may & ~fb & paper_clipped[:, None] & (own_peak >= FALLBACK_PEAK)
            if pale.any():
                read = ok | fb
                judged = pale | (read & pale.any(1)[:, None])
                rivalled = clip_rivals(judged, np.where(pale, mk0, np.where(ok, best, mk0)))
                fb |= pale & ~rivalled & ~(rivalled & read).any(1)[:, None]
        # A grey ring under clipped warm light can look faintly coloured all round (not just
        # at its fringe), so no ink wins the vote; its shape still says ring — paper in the
        # middle, a dark band around it standing out from the paper beside it — and its mean
        # colour lies on the grey ink's line. No printed coloured symbol is hollow, and none
        # of its samples may be strong coloured ink. Where the paper clipped the sensor, its
        # white reference is neutral though the lamp is not: a blend of that brighter-than-seen
        # paper and the ring's ink keeps the lamp's colour, so the ring's fringe fits a coloured
        # ink's line at up to about half strength (0.3-0.53 measured), while a printed coloured
        # disc reaches SOLID_CORE_ALPHA in its core; only that much counts as strong there.
        strong_at = np.full(len(kind), FAINT_ALPHA)
        if paper_clipped is not None:
            strong_at = np.where(paper_clipped, SOLID_CORE_ALPHA, FAINT_ALPHA)
        strong = (coloured & (alpha >= strong_at[:, None, None])).any(-1)
        ring_band = _mean(dark[..., 7:])
        hollow_fb = (~ok & ~fb & (mk >= 0) & model.neutral[mk0] & (ma >= FALLBACK_ALPHA)
                     & ring & closed & (ring_band >= 0.3) & ~strong & (other <= 5))
        if flank_dark is not None:
            hollow_fb &= ring_band - flank_dark >= BLURRED_RING_CONTRAST
        if allow is not None:
            hollow_fb &= allow[:, None]
        fb = fb | hollow_fb
        best = np.where(fb, mk0, best)
        conf = np.where(fb, 0.5, conf)
        ok = ok | fb
    # every edge carries a symbol: one of no hue at all, ring-shaped, is the grey ring however
    # faint (`_hueless_ring`; an edition without a grey ink has no such symbol)
    if model.neutral.any():
        hueless = _hueless_ring(kind, dark, top, middle, closed, flank_dark, ok, grey, coloured,
                                allow, in_shade)
        ok = ok | hueless
        conf = np.where(hueless, 0.5, conf)
    # (the judgements below from one measure of each reading's darkness and ink)
    excess, own_alpha = _ink_excess(kind, alpha, dark, best, model)
    unsure = np.zeros_like(ok)
    clipped_any = paper_clipped is not None and paper_clipped.any()
    if clipped_any:
        unsure = _greyed(excess, own_alpha, kind, best, model) & paper_clipped[:, None]
        ok &= ~unsure
    # the twins both judgements below compare weak readings with (`_outshone` sets only weak
    # readings aside, which are never twins, so one look serves both)
    twins = _twins(own_alpha, best, ok, model)
    if clipped_any:
        unsure |= _outshone(excess, twins, best) & paper_clipped[:, None]
        ok &= ~unsure
    # on every card: a weak coloured reading far thinner than its strong twin is not that print
    # but something over it (a hand's blurred edge, a glare spot, a pale object: see `_thinner`)
    unsure |= _thinner(twins, best)
    ok &= ~unsure
    conf = np.where(unsure, 0.0, conf)
    # one print under one light: a coloured symbol left unread whose mean colour is its strong
    # twin's, and no other ink's on the card, is that ink (`_twin_mean`)
    if twin is not None:
        alike = _twin_mean(score, best, ok, unsure | ~ring_ok | ~twin[1][:, None], twins[1],
                           twin[0], model, allow, in_shade)
        ok = ok | alike
        conf = np.where(alike, 0.5, conf)
    names = np.array([*letters, "?"])
    return _letters(np.where(ok, names[best], "?")), conf


def _hueless_ring(kind: np.ndarray, dark: np.ndarray, top: np.ndarray, middle: np.ndarray,
                  closed: np.ndarray, flank_dark: np.ndarray | None, ok: np.ndarray,
                  grey: np.ndarray, coloured: np.ndarray, allow: np.ndarray | None,
                  in_shade: np.ndarray | None) -> np.ndarray:
    """Per symbol (cards x 6), whether a grey reading `decide` left unread is the edition's grey
    ring all the same (see HUELESS_VOTE): on a whole card (`allow`; never where `flank_dark`
    is not given), its surround not only excused as shade (`in_shade`), every sample paper or
    the grey ink (`kind`: no coloured sample, `coloured`, and none unexplained), the grey ink
    of HUELESS_VOTE samples (`top`), its darkest sample (`dark`, cards x 6 x 19) in its band,
    its darkness spanning FLAT_BLOB, `closed` (RING_LOPSIDED), its middle not ink right through
    (BLURRED_RING_MIDDLE) and its mean HUELESS_CONTRAST darker than its flanking paper's
    (`flank_dark`). `ok`, `grey`: `decide`'s readings and which of them name a grey ink."""
    want = ~ok & grey & (top >= HUELESS_VOTE)
    if allow is not None:
        want &= allow[:, None]
    if in_shade is not None:
        want &= ~in_shade
    if flank_dark is None or not want.any():   # (nearly always: the rest is not needed)
        return np.zeros_like(ok)
    return (want & ~coloured.any(-1) & ~(kind == OTHER).any(-1) & closed
            & (middle <= BLURRED_RING_MIDDLE)
            & (dark[..., 7:].max(-1) >= dark[..., :7].max(-1))
            & (dark.max(-1) - dark.min(-1) >= FLAT_BLOB)
            & (_mean(dark) - flank_dark >= HUELESS_CONTRAST))


def _twin_mean(score: np.ndarray, best: np.ndarray, ok: np.ndarray, barred: np.ndarray,
               twin: np.ndarray, samples: np.ndarray, model: ColourModel,
               allow: np.ndarray | None, in_shade: np.ndarray | None) -> np.ndarray:
    """Per symbol (cards x 6), whether a coloured reading `best` that `decide` left unread
    (`ok`), and did not bar (`barred`: set aside as unsure, hollow, or on a card not judged
    so), is its ink all the same because it looks like its card's strong print of that ink
    (see TWIN_MEAN_VOTE): on a whole card (`allow`) reading MIN_TURN_LETTERS other symbols,
    its surround not only excused as shade (`in_shade`), TWIN_MEAN_VOTE of that ink's samples
    (`score`, cards x 6 x letters), not one sample of another coloured ink and grey ink at most
    as `decide` allows a rival, and its mean colour (of `samples`, cards x 6 x 19 x 3,
    paper-relative) within TWIN_MEAN_MATCH of a twin's (`twin`, `_twins`'s cards x 6 x
    letters) and TWIN_MEAN_APART or more from every symbol the card reads as another letter."""
    want = ~ok & ~barred & ~model.neutral[best] & (ok.sum(1) >= MIN_TURN_LETTERS)[:, None]
    if not want.any():   # (nearly always: the rest is not needed)
        return want
    own = np.take_along_axis(score, best[..., None], -1)[..., 0]
    greys = (score * model.neutral).sum(-1)
    rival = score.sum(-1) - own - greys
    want &= (own >= TWIN_MEAN_VOTE) & (rival <= 0.0) & (greys <= 0.12 * own + 0.3)
    if allow is not None:
        want &= allow[:, None]
    if in_shade is not None:
        want &= ~in_shade
    if not want.any():
        return want
    means = _mean(samples, 2)
    apart = np.linalg.norm(means[:, :, None] - means[:, None, :], axis=-1)   # cards x 6 x 6
    # [c, s, t]: symbol t of card c is a twin of the ink symbol s's reading names; symbol t
    # reads as another letter
    alike = twin[np.arange(len(best))[:, None, None], np.arange(6), best[..., None]]
    other = ok[:, None, :] & (best[:, None, :] != best[:, :, None])
    near = np.where(alike, apart, np.inf).min(-1)
    rival_near = np.where(other, apart, np.inf).min(-1)
    return want & (near <= TWIN_MEAN_MATCH) & (rival_near >= TWIN_MEAN_APART)


def _clipped_rim(second: np.ndarray, score: np.ndarray, member: np.ndarray, kind: np.ndarray,
                 alpha: np.ndarray, a: np.ndarray, blend: np.ndarray,
                 greys_outer: np.ndarray | float, model: ColourModel) -> np.ndarray:
    """`decide`'s runner-up score (cards x 6) with, for the symbols `blend` marks (solid
    coloured symbols on cards whose paper clipped), faint rim samples of another coloured ink
    (below FAINT_ALPHA, in its 12 outer samples) left out. Where the paper clipped, its white
    reference is darker than the paper in the clipped channels, so a blend of paper and the
    symbol's ink at its blurred rim is seen too bright there and its hue is pulled towards them
    (a red disc's rim fits a pale yellow): those samples are the print's own blends when its
    core is all strong ink (every middle sample its ink at SOLID_CORE_ALPHA). A rival symbol
    or an object of another colour shows strong ink, which still counts. The grey rim samples
    (`greys_outer`, as the disc rule in `decide` computed them; 0 where it found no disc)
    stay left out, as that rule leaves them."""
    if not blend.any():
        return second
    coloured = (kind >= 0) & ~model.neutral[np.maximum(kind, 0)]
    best = score.argmax(-1)
    faint = coloured & (alpha < FAINT_ALPHA) & (kind != best[..., None])
    faint[..., :7] = False
    drop = ((member & faint[..., None]) * a).sum(-2) + greys_outer   # cards x 6 x letters
    rim = np.sort(score - drop, axis=-1)
    return np.where(blend, rim[..., -2], second)


def _split_print(kind: np.ndarray, alpha: np.ndarray, best: np.ndarray, rival: np.ndarray,
                 ok: np.ndarray, may: np.ndarray, model: ColourModel, match: PrintMatch
                 ) -> np.ndarray:
    """Per symbol (cards x 6; True only where `may`), whether a coloured reading `best` whose
    samples split between its ink and the coloured ink `rival` is its ink's print: its card
    reads a twin of it (a read symbol of that ink with a sample at SOLID_CORE_ALPHA, as
    `_twins` takes them), and `match` finds every rival sample that print's (see TWIN_MATCH).
    The print's samples are the twins' samples of their ink at SOLID_CORE_ALPHA, and the rival
    ink's on the card those of its read symbols likewise; `match` (card and symbol indices,
    the rival samples: k x 19, the card's print of the symbol's ink and of the rival ink: k x 6
    x 19 each) decides, from the samples' colours, only on cards whose paper clipped in every
    channel. A symbol has its ink's print beside it or is not judged so."""
    ci, si = np.nonzero(may)
    letter, other = best[ci, si], rival[ci, si]
    coloured = ~model.neutral
    strong = ((alpha[ci] >= SOLID_CORE_ALPHA) & (kind[ci] == letter[:, None, None]))   # k x 6 x 19
    read = ok[ci] & coloured[best[ci]]
    twin = read & (best[ci] == letter[:, None]) & strong.any(-1)
    own = twin[..., None] & strong
    beside = (read & (best[ci] == other[:, None]))[..., None] & (
        (alpha[ci] >= SOLID_CORE_ALPHA) & (kind[ci] == other[:, None, None]))
    out = np.zeros_like(may)
    has = own.any((1, 2))
    if not has.any():
        return out
    ci, si, own, beside, other = ci[has], si[has], own[has], beside[has], other[has]
    out[ci, si] = match(ci, si, kind[ci, si] == other[:, None], own, beside)
    return out


def _print_match(norm: np.ndarray, raw: np.ndarray, every: np.ndarray, ci: np.ndarray,
                 si: np.ndarray, rival: np.ndarray, own: np.ndarray, beside: np.ndarray
                 ) -> np.ndarray:
    """`_split_print`'s test (k symbols: card `ci`, symbol `si`) of the symbol samples' colours
    (`norm`: cards x 6 x 19 x 3 paper-normalised RGB; `raw`: the same BGR as seen): on a card
    whose paper clipped in every channel (`every`, cards), whether each rival sample (`rival`,
    k x 19; at least one) clipped in some channel (CLIP_HIGH) and lies within TWIN_MATCH of
    some sample of the card's print of the symbol's ink (`own`, k x 6 x 19), and no sample of
    its print of the rival ink (`beside`) lies within TWIN_APART of it. A channel in which the
    rival sample clipped is a bound: at or past the clip at white (the print's sample may be as
    bright, not darker), at or below it at black (as dark, not brighter)."""
    k = len(ci)
    x = norm[ci, si]                                        # k x 19 x 3
    seen = raw[ci, si][..., ::-1]                           # RGB, as `norm`
    high, low = seen >= CLIP_HIGH, seen <= CLIP_LOW
    pts = norm[ci].reshape(k, 1, -1, 3)                     # k x 1 x 114 x 3
    diff = pts - x[:, :, None, :]                           # the print's minus the sample's
    d = np.where(high[:, :, None, :], np.maximum(-diff, 0.0),
                 np.where(low[:, :, None, :], np.maximum(diff, 0.0), np.abs(diff)))
    dist = np.sqrt((d * d).sum(-1))                         # k x 19 x 114
    near = np.where(own.reshape(k, 1, -1), dist, np.inf).min(-1) <= TWIN_MATCH
    apart = np.where(beside.reshape(k, 1, -1), dist, np.inf).min(-1) >= TWIN_APART
    good = near & apart & high.any(-1)
    return every[ci] & rival.any(-1) & (good | ~rival).all(-1)


def _flat_beside_open(dark: np.ndarray, hollow: np.ndarray, blob: np.ndarray,
                      rings: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6): a grey blob (`blob`: read as a blurred ring) whose samples'
    darkness (`dark`, cards x 6 x 19) spans less than FLAT_BLOB, on a card where another symbol
    read as a ring (`rings`) keeps its hole open by OPEN_RING (`hollow`: its band's darkness
    beyond its middle's)."""
    if not blob.any():   # (nearly always: the rest is not needed)
        return blob
    flat = blob & (dark.max(-1) - dark.min(-1) < FLAT_BLOB)
    if not flat.any():
        return flat
    return flat & (rings & (hollow >= OPEN_RING)).any(-1, keepdims=True)


def _open_ring(dark: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6): a ring whose hole shows, as `decide` takes it: a band darker
    (`dark`, cards x 6 x 19, the grey-ink fraction) by OPEN_HOLE than a middle that is not ink
    right through (a sharpened solid disc has a darker rim too, see BLURRED_RING_MIDDLE)."""
    middle = _mean(dark[..., :7])
    return (_mean(dark[..., 7:]) - middle >= OPEN_HOLE) & (middle <= BLURRED_RING_MIDDLE)


def _lopsided(dark: np.ndarray, middle: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6): of its outer samples' darkness beyond its middle's (`dark`:
    cards x 6 x 19, the 12 outer samples last, each opposite the one 6 places on), the share
    that the sample across the centre lacks: 0 for a band dark alike on both ends of every
    diameter, 1 for darkness on one side only."""
    excess = np.maximum(dark[..., 7:] - middle[..., None], 0.0)
    one, other = excess[..., :6], excess[..., 6:]
    return np.abs(one - other).sum(-1) / np.maximum((one + other).sum(-1), 1e-9)


def _greyed(mean_excess: np.ndarray, own_alpha: np.ndarray, kind: np.ndarray,
            best: np.ndarray, model: ColourModel) -> np.ndarray:
    """Per symbol (cards x 6), whether a coloured reading `best` is darker than its ink allows
    (CLIPPED_GREY_EXCESS): the mean, over the samples of that ink, of their grey-ink fraction
    (`dark`) beyond what that ink's fraction gives (`ColourModel.ink_dark`). Paper mixed with
    a coloured ink is only as dark as the ink's share makes it; where the paper clipped, the
    white reference is too dark and every blend is seen brighter than it is, not darker; what
    is darker holds grey ink, a grey ring whose blends the clipped white has tinted. Only a
    weak reading (no sample of its ink at SOLID_CORE_ALPHA) or a hollow one (its ink
    HOLLOW_INK weaker in its middle than around it) is judged so. `mean_excess` and
    `own_alpha` are `_ink_excess`'s."""
    # a heavy print is darker than the model's ink too, but its core reaches full strength
    # and holds the most ink; a grey blend fitted as a colour stays near half strength
    # everywhere, or is strongest round the ring's hole
    weak = ((own_alpha.max(-1) < SOLID_CORE_ALPHA)
            | (_mean(own_alpha[..., :7]) <= _mean(own_alpha[..., 7:]) - HOLLOW_INK))
    coloured = ~model.neutral[best]
    some = (kind == best[..., None]).any(-1)
    return coloured & weak & some & (mean_excess > CLIPPED_GREY_EXCESS)


def _twins(own_alpha: np.ndarray, best: np.ndarray, ok: np.ndarray, model: ColourModel
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weak, twin, peak): per symbol (cards x 6) whether it is a weak coloured reading (no
    sample of its ink at SOLID_CORE_ALPHA) and its strongest sample; per card, symbol and ink
    (cards x 6 x letters) whether that symbol is a read coloured symbol of that ink with such
    a core: a twin, against which `_outshone` and `_thinner` judge the weak readings of its
    ink. `own_alpha` is `_ink_excess`'s."""
    peak = own_alpha.max(-1)
    strong = peak >= SOLID_CORE_ALPHA
    coloured = ~model.neutral[best]
    twin = (ok & coloured & strong)[..., None] & (
        best[..., None] == np.arange(len(model.letters)))          # cards x 6 x letters
    return ok & coloured & ~strong, twin, peak


def _thinner(twins: tuple[np.ndarray, np.ndarray, np.ndarray], best: np.ndarray
             ) -> np.ndarray:
    """Per symbol (cards x 6), whether a weak coloured reading's strongest sample reaches at
    most TWIN_PEAK_SHARE of its twin's (`_twins`). Every symbol of one ink on a card is the same
    printed shape under the same lamp and blur, so twins peak alike (at least 0.68 of each
    other on crafted cards under seven lamps); one far thinner is not the print but something
    lying over the symbol that the paper around it does not betray: a hand's blurred edge
    whose skin over a yellow triangle reads faintly red, a glare spot washing it out. `twins`
    is what `_twins` gives."""
    weak, twin, peak = twins
    twin_peak = np.where(twin, peak[..., None], 0.0).max(1)     # 0 where there is none
    return weak & (peak <= TWIN_PEAK_SHARE * _along1(twin_peak, best))


def _outshone(excess: np.ndarray, twins: tuple[np.ndarray, np.ndarray, np.ndarray],
              best: np.ndarray) -> np.ndarray:
    """Per symbol (cards x 6) of a card whose paper clipped, whether a weak coloured reading
    is not its ink's print, judged against its twin (`_twins`): twins look alike, so a weak
    reading darker than its ink makes it (`_ink_excess` above 0) and TWIN_EXCESS_GAP darker than
    its twin holds grey ink, a grey ring's blends tinted by the clipped white (see `decide`;
    one far thinner than its twin is `_thinner`, on every card). `excess` is `_ink_excess`'s,
    `twins` what `_twins` gives."""
    weak, twin, _ = twins
    # per card and ink: the least dark twin (inf where there is none)
    twin_excess = np.where(twin, excess[..., None], np.inf).min(1)
    return weak & (excess > 0.0) & (
        excess - _along1(twin_excess, best) >= TWIN_EXCESS_GAP)


def _ink_excess(kind: np.ndarray, alpha: np.ndarray, dark: np.ndarray, best: np.ndarray,
                model: ColourModel) -> tuple[np.ndarray, np.ndarray]:
    """Per symbol (cards x 6), the mean over the samples of ink `best` of their grey-ink
    fraction beyond what that ink's fraction gives (`ColourModel.ink_dark`); and those
    samples' ink fractions clipped to 0-1, 0 for the others (cards x 6 x 19)."""
    own = kind == best[..., None]
    excess = dark - clip(alpha, 0.0, 1.2) * model.ink_dark[best][..., None]
    n = own.sum(-1)
    mean_excess = np.where(own, excess, 0.0).sum(-1) / np.maximum(n, 1)
    return mean_excess, np.where(own, clip(alpha, 0.0, 1.0), 0.0)


def _chars(text: list[str]) -> np.ndarray:
    """Strings of one length as an array of their characters (strings x length)."""
    chars = np.array(text)
    return chars.view("U1").reshape(len(text), chars.itemsize // 4)


def _letters(chars: np.ndarray) -> list[str]:
    """Each row of an array of single characters (strings x length) as one string: the rows
    viewed as strings, not joined one by one in Python."""
    chars = np.ascontiguousarray(chars, "U1")
    return chars.view(f"U{chars.shape[1]}")[:, 0].tolist()


def _mean(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """`x.mean(axis)` of a float array as NumPy works it out (the same sum over the axis,
    divided by the count the same way), without the Python layer around it: `decide` takes a
    dozen small means per call."""
    if x.dtype.kind != "f":   # NumPy sums whole numbers and truth values as float64
        return x.mean(axis)
    total = np.add.reduce(x, axis)
    return np.true_divide(total, np.intp(x.shape[axis]), out=total, casting="unsafe")


def _along1(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """`np.take_along_axis(a, idx, 1)` for a per-row index `idx` (rows x k) into axis 1 of `a`
    (rows x n, or rows x n x channels: each picked entry with its channels), by plain
    indexing (the same entries, without the Python layer around it)."""
    return a[np.arange(len(a))[:, None], idx]


def _max3(x: np.ndarray) -> np.ndarray:
    """`x.max(-1)` over a last axis of 3 (RGB channels, an edge's places), unrolled: NumPy
    reduces a trailing axis of 3 one triple at a time, far slower than two whole-array
    maximums; a maximum is exact, so the values are the same."""
    return np.maximum(np.maximum(x[..., 0], x[..., 1]), x[..., 2])


def _min3(x: np.ndarray) -> np.ndarray:
    """`x.min(-1)` over a last axis of 3, unrolled (see `_max3`)."""
    return np.minimum(np.minimum(x[..., 0], x[..., 1]), x[..., 2])


def _sum3(x: np.ndarray) -> np.ndarray:
    """`x.sum(-1)` of a float array over a last axis of 3, unrolled: NumPy adds so short an
    axis in order, first to last, so the sums are the same."""
    return x[..., 0] + x[..., 1] + x[..., 2]


def _depth_spread(place: np.ndarray) -> np.ndarray:
    """`np.ptp(place, axis=1)`, the spread over the depths (axis 1) of border places, as the
    maximum less the minimum of the depths taken one by one (the same values, fewer passes)."""
    high, low = place[:, 0], place[:, 0]
    for k in range(1, place.shape[1]):
        high, low = np.maximum(high, place[:, k]), np.minimum(low, place[:, k])
    return high - low


def _may_fall_back(ok: np.ndarray, mean_fit: tuple[np.ndarray, np.ndarray],
                   allow: np.ndarray | None) -> bool:
    """Whether any symbol (cards x 6) could be read by its mean colour in `decide`: both such
    readings need one not read yet, on an allowed card, whose mean fits an ink well (a cheap
    test that spares the rest of them on a card table read clean)."""
    mk, ma = mean_fit
    need = ~ok & (mk >= 0) & (ma >= FALLBACK_ALPHA)
    if allow is not None:
        need &= allow[:, None]
    return bool(need.any())


def _ring_bleed(kind: np.ndarray, alpha: np.ndarray, ring: np.ndarray, model: ColourModel,
                bleed: Bleed, allow: np.ndarray | None
                ) -> tuple[np.ndarray, np.ndarray]:
    """In a ring-shaped symbol (`ring`, cards x 6), samples seen as a coloured ink or as
    unexplained that are the grey ink plus chroma bled in from the paper (`bleed`: alpha, ok
    from `ColourModel.grey_with_bleed`) are given to the grey ink. JPEG and video keep colour
    at half resolution, so under a coloured lamp a thin dark ring takes on the paper's tint
    and fits a pale, shaded red or yellow; no printed coloured symbol is hollow, and a
    coloured ink's own samples do not lie on the grey-plus-paper-tint plane."""
    if not model.neutral.any():
        return kind, alpha
    grey_k = int(np.flatnonzero(model.neutral)[0])
    coloured_or_other = (kind == OTHER) | ((kind >= 0) & ~model.neutral[np.maximum(kind, 0)])
    where = ring if allow is None else ring & allow[:, None]
    if not callable(bleed):
        b_alpha, b_ok = bleed
        conv = b_ok & coloured_or_other & where[..., None]
        if not conv.any():
            return kind, alpha
        return np.where(conv, grey_k, kind), np.where(conv, b_alpha, alpha)
    # the bleed fit only for the ring-shaped symbols that have a sample to give
    where = where & coloured_or_other.any(-1)
    if not where.any():
        return kind, alpha
    b_alpha, b_ok = bleed(where)
    conv = b_ok & coloured_or_other[where]
    if not conv.any():
        return kind, alpha
    kind, alpha = kind.copy(), alpha.copy()
    kind[where] = np.where(conv, grey_k, kind[where])
    alpha[where] = np.where(conv, b_alpha, alpha[where])
    return kind, alpha
