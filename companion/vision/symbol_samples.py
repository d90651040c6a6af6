"""Where a Hex'el card's symbols are sampled, and what one read of a card holds. A card pose
(`Pose`: plane centre, apothem, angle of the edge facing lattice direction E) places one fixed
pattern of points (`PATTERN`): 19 inside each symbol, 18 on bare paper between the symbols, 18
at each of five depths across the border band and just beyond it, and 8 round each symbol's
halo. The pattern is mapped through the table view and sampled bilinearly for every card at
once (`sample_cards`, one `cv2.remap`). `CardRead` is what reading one card yields. The
constants here are shared by every stage that judges the samples (`symbols`, `symbol_lamp`,
`symbol_crossings`, `symbol_decide`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView

N_SYMBOL = 19
N_CORE = 7              # a symbol's middle samples (its first seven)
# A white reference channel at or above this has (nearly) clipped: JPEG pulls clipped paper a
# few levels below the sensor's CLIP_HIGH.
CLIP_NEAR = 245.0
NEUTRAL_SPREAD = 0.25   # a grey (the border band) has its channels this close, paper-relative


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
# Bare paper just around each symbol (6 x 8 points at 1.45 symbol radii from its centre): a
# printed symbol ends there, while a fingertip lying over it carries on past it.
HALO_A = np.radians(np.arange(8) * 45.0)
HALO_PTS = np.concatenate([
    HEXEL_FACE.symbol_centre_frac * np.array([math.cos(math.radians(-60.0 * d)),
                                              math.sin(math.radians(-60.0 * d))])
    + 1.45 * HEXEL_FACE.symbol_radius_frac * np.c_[np.cos(HALO_A), np.sin(HALO_A)]
    for d in range(6)])
N_HALO = 8
PATTERN = np.concatenate([SYMBOL_PTS.reshape(-1, 2), PAPER_PTS, BORDER_PTS, HALO_PTS])


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


def _hue_blanked(symbols: str, by_hue: tuple[bool, ...]) -> str:
    """`symbols` with those `by_hue` marks '?'."""
    if not any(by_hue):
        return symbols
    return "".join("?" if b else c for c, b in zip(symbols, by_hue, strict=True))


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
    # per symbol: the web letters its shape at the card's own pose rules out ("", "B", "Y" or
    # "BY"; () where none: `symbol_shape.ruled_out`): kept read, reported unread (`undimmed`)
    not_shape: tuple[str, ...] = ()
    # per symbol: those of `not_shape` its shape rules out (not a washed ink, `symbol_sheen`):
    # they stand at every pose the card is read at (`symbol_shape.kept_ruled_out`)
    by_shape: tuple[str, ...] = ()
    # the symbols read before the lamp read from the card's own band re-read it (`_lamp_read`),
    # None where it did not: what the reader decides the table's inks by (`first_symbols`)
    unlamped: str | None = None
    # per edge (6, in the card's own order): how many of its three border band places read as
    # the printed band (`border_ok` counts them all); () where not kept (a whole card's read
    # re-listed by lattice direction, `reader._reorient`: only partial blobs' reads ask)
    band_edges: tuple[int, ...] = ()
    # per symbol: left unread by its colour alone, no letter's ink fitting it,
    # with nothing over it or across the card's edge onto it (`shape_ink`); () where none is
    unread_ink: tuple[bool, ...] = ()
    # per symbol: read where its shape and hue agree, washed pale (`shape_ink.hue_named`); ()
    # where none is
    by_hue: tuple[bool, ...] = ()

    @property
    def complete(self) -> bool:
        return "?" not in self.symbols

    @property
    def first_symbols(self) -> str:
        """The symbols as read before any re-read by the lamp its own band shows (`_lamp_read`):
        the table's inks are judged by these, so that re-read never stands in for them."""
        return self.symbols if self.unlamped is None else self.unlamped

    @property
    def by_colour(self) -> str:
        """`first_symbols` with the symbols read by their shape and hue (`by_hue`) unread: what
        the reader judges the table's inks by, and a doubt over them (a symbol washed pale is
        no witness to its ink)."""
        return _hue_blanked(self.first_symbols, self.by_hue)

    @property
    def colour_symbols(self) -> str:
        """`symbols` with the symbols read by their shape and hue (`by_hue`) unread."""
        return _hue_blanked(self.symbols, self.by_hue)

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
MIN_TURN_LETTERS = 3   # letters a first read must have made: a card, not a blob, seen a bit off
MIN_TURN_PAPER = 0.88  # and its paper samples that look like paper (all but 2 of 18)


def sample_cards(bgr: np.ndarray, poses: list[Pose], view: TableView
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Every card's PATTERN samples (cards x points x 3) and whether each lies in the frame."""
    plane = sample_points(poses)
    img_pts = view.to_image(plane.reshape(-1, 2)).reshape(plane.shape)
    return sample(bgr, img_pts)
