"""A placed card's pose fitted to its printed border band. A glossy sleeve's clear rim or a phone's
halo joins a card's paper outline and pulls the fitted centre and size a few per cent off, and
its symbols' samples, each ringed by the paper it needs beside it, slip onto their edges and read
'?'. The dark band printed just inside the card's edge (`HEXEL_FACE.border_frac`) is the card's
own, wherever its outline was drawn: across each edge the paper's bright plateau falls to it at
BAND_INNER of the apothem. `band_poses` finds that fall (half-way from the paper to the band's
darkest) on BAND_PLACES profiles across each edge and fits the card's centre and its frame's
linear map (turn, size and squash) to them by least squares, leaving out the profiles a first
fit puts BAND_FIT_TOL off (a finger or a glare over the edge), in BAND_ROUNDS rounds. An
outline drawn far off the card (its paper broken by a glare or a phone's halo, so that the hull
cuts a corner off: held-out `phone-photo` 17, a pose 0.16 apothem off, 11 % small and squashed
8 %) leaves the band far from where the pose puts it: the profiles reach out to BAND_DEPTHS' end
(the band of a pose fitted some 15 % small), the first round fits the band where it shows, on
BAND_FIRST_EDGES edges within BAND_FIRST_TOL, and the next ones, sampled about that fit, find it
all round. A fit moving a corner beyond BAND_MAX_MOVE stands, up to BAND_FAR_MOVE, only where
its last round confirms it (moves no corner BAND_MIN_MOVE): the band it settled on is one
card's all round, not a neighbour's edge.
`band_repose` re-reads the placed cards that did not read whole at their fitted pose at that
pose where it moves the card by BAND_MIN_MOVE at least (a pose the band confirms is no reason to
read a card again: a second look at a marginal symbol is only a second chance to misread it),
with no grey blob taken for a blurred ring nor a washed symbol read by its mean colour
(`symbols.read_cards`' `blurred_rings`: a blue printed violet is a grey blob that reads as a
blurred ring once its samples are centred on it), and keeps a re-read only where it is whole as
first made, keeps every letter the fitted pose read and fills in none beside an edge whose band
shows paper (`probe.reread_stands`). Made pass by pass (`passes`).
"""

from __future__ import annotations

import math

import numpy as np

from ..faces import HEXEL_FACE
from .calibration import TableView
from .cell_poses import PROBE_BAND, PROBE_DIM
from .colour import ColourModel
from .passes import Passes, reading
from .probe import reread_stands, whole_read
from .reader_params import ReaderParams
from .symbol_samples import CardRead, Pose, pose_matrices, pose_points, sample
from .symbol_shape import kept_ruled_out
from .symbols import StagedRead

BAND_INNER = 1.0 - HEXEL_FACE.border_frac   # the band's inner edge (apothems from the centre)
BAND_PLACES = 9          # profiles across each edge, spread over its middle BAND_SPAN either way
BAND_SPAN = 0.42         # (apothems: clear of the corners, where the band turns)
# each profile's samples (apothems; past the symbols, and out to the band of a pose 15 % small)
BAND_DEPTHS = np.arange(0.80, 1.1601, 0.01)
BAND_PAPER = 0.85        # a profile's paper plateau (its brightest) is looked for about this
BAND_PAPER_REACH = 0.045   # depth, this far either way
BAND_FALL = 0.85         # a profile falling below this of its paper has reached the band,
BAND_WIDTH = 8           # whose darkest lies within this many samples on (beyond: the table)
BAND_FIT_TOL = 0.02      # a profile this far (apothems) off the first fit is left out
BAND_FIT_PASSES = 2      # least-squares passes per fit: all profiles, then those within the tol
BAND_MIN_EDGES = 5       # a fit needs BAND_MIN_PLACES profiles on this many edges
BAND_MIN_PLACES = 3
BAND_ROUNDS = 3          # fits, each from the profiles about the last
BAND_FIRST_TOL = 0.04    # the first round's tolerance (apothems) and the edges it needs: a pose
BAND_FIRST_EDGES = 4     # well off the card reaches the band on its other edges after it
BAND_MAX_MOVE = 0.25     # a fit moving a corner further (apothems) is some other band's ...
BAND_FAR_MOVE = 0.45     # ... unless its last round confirms it, up to this far
# A fit moving no corner this far (apothems) confirms the pose: the band fit and the outline fit
# of the cards the held-out `default` tables read whole (seeds 0-49) differ by 0.024 at the
# median, 0.030 at the upper quartile (the outlines are fitted about 1.5 % small).
BAND_MIN_MOVE = 0.03

_A = np.radians(60.0 * np.arange(6))
_N = np.c_[np.cos(_A), np.sin(_A)]                           # 6 x 2 edge normals
_T = np.c_[-np.sin(_A), np.cos(_A)]                          # and tangents
_S = np.linspace(-BAND_SPAN, BAND_SPAN, BAND_PLACES)
# the profiles, (6 edges x places) x depths x 2, card frame
PROFILE_PTS = (BAND_DEPTHS[None, None, :, None] * _N[:, None, None, :]
               + _S[None, :, None, None] * _T[:, None, None, :]).reshape(-1, len(BAND_DEPTHS), 2)
_PAPER = np.abs(BAND_DEPTHS - BAND_PAPER) <= BAND_PAPER_REACH
# The fit: a card-frame point q of the pose lies at c + (I + E) q on the card's own print, so
# the fall of a profile across edge normal n at tangent place s lies at depth
# BAND_INNER + n.c + n'E (BAND_INNER n + s t) (to first order): linear in (c, E row by row).
_NN = np.repeat(_N, BAND_PLACES, 0)
_Q = BAND_INNER * _NN + np.tile(_S, 6)[:, None] * np.repeat(_T, BAND_PLACES, 0)
_DESIGN = np.c_[_NN, _NN[:, :1] * _Q, _NN[:, 1:] * _Q]       # profiles x 6
_CORNERS = np.c_[np.cos(_A + math.pi / 6), np.sin(_A + math.pi / 6)] / math.cos(math.pi / 6)


def band_edges(frame: np.ndarray, view: TableView, poses: list[Pose]
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per pose and profile (poses x 6·BAND_PLACES): the depth (apothems, the pose's card
    frame) at which the paper's plateau falls half-way to the band's darkest (linear between
    samples), and whether the profile shows a card's contrast there: all in the frame, paper
    brighter than PROBE_DIM, the band darker than PROBE_BAND of it."""
    plane = pose_points(poses, PROFILE_PTS.reshape(-1, 2))
    img = view.to_image(plane.reshape(-1, 2)).reshape(len(poses), -1, len(BAND_DEPTHS), 2)
    vals, inside = sample(frame, img)
    grey = vals.mean(-1)                                       # poses x profiles x depths
    top = np.where(_PAPER, grey, -1.0).argmax(-1)
    paper = np.take_along_axis(grey, top[..., None], -1)[..., 0]
    idx = np.arange(len(BAND_DEPTHS))
    past = idx > top[..., None]
    # the band's darkest within its width on from where the paper first falls (beyond it the
    # table may be darker still, or a sleeve's rim bright)
    fall = (past & (grey < BAND_FALL * paper[..., None])).argmax(-1)
    near = past & (idx >= fall[..., None]) & (idx <= fall[..., None] + BAND_WIDTH)
    dark = np.where(near, grey, np.inf).min(-1)
    mid = 0.5 * (paper + dark)
    below = past & (grey <= mid[..., None])
    at = below.argmax(-1)
    g1 = np.take_along_axis(grey, at[..., None], -1)[..., 0]
    g0 = np.take_along_axis(grey, np.maximum(at - 1, 0)[..., None], -1)[..., 0]
    frac = np.clip((g0 - mid) / np.maximum(g0 - g1, 1e-6), 0.0, 1.0)
    depth = BAND_DEPTHS[np.maximum(at - 1, 0)] + frac * (BAND_DEPTHS[1] - BAND_DEPTHS[0])
    ok = (below.any(-1) & (fall > 0) & inside.all(-1) & (paper >= PROBE_DIM)
          & (dark <= PROBE_BAND * paper))
    return depth, ok


def _fit(depth: np.ndarray, ok: np.ndarray, tol: float = BAND_FIT_TOL,
         min_edges: int = BAND_MIN_EDGES) -> tuple[np.ndarray, np.ndarray]:
    """Per pose (`band_edges`' depths and flags, poses x profiles): the fit's (c_x, c_y, E_xx,
    E_xy, E_yx, E_yy) (see `_DESIGN`) by least squares over the profiles `ok` marks, then over
    those within `tol` of that fit (BAND_FIT_PASSES passes in all), and whether each stands
    (`min_edges` edges with BAND_MIN_PLACES profiles each, every pass)."""
    y = depth - BAND_INNER
    params = np.zeros((len(depth), _DESIGN.shape[1]))
    good = np.ones(len(depth), bool)
    for _ in range(BAND_FIT_PASSES):
        w = ok.astype(np.float64)
        per_edge = w.reshape(len(w), 6, BAND_PLACES).sum(-1)
        good &= (per_edge >= BAND_MIN_PLACES).sum(1) >= min_edges
        normal = np.einsum("pk,ki,kj->pij", w, _DESIGN, _DESIGN)
        rhs = np.einsum("pk,ki->pi", w * y, _DESIGN)
        # (a pose without enough profiles gets the identity: its fit is not kept)
        normal[~good] = np.eye(_DESIGN.shape[1])
        params = np.linalg.solve(normal, rhs[..., None])[..., 0]
        ok = ok & (np.abs(params @ _DESIGN.T - y) <= tol)
    return params, good


def _moved(poses: list[Pose], params: np.ndarray) -> list[Pose]:
    """Each pose moved by its fit (`_fit`: a shift and a linear change in its card frame), the
    new map split as poses hold it: size, squash (symmetric, determinant 1) and turn."""
    m = pose_matrices(poses)
    centres = np.array([q.centre for q in poses], np.float64) + np.einsum(
        "pij,pj->pi", m, params[:, :2])
    flip = np.array([np.diag([1.0, float(q.turn)]) for q in poses])
    new = m @ (np.eye(2) + params[:, 2:].reshape(-1, 2, 2)) @ flip
    w, sv, vt = np.linalg.svd(new)
    rot = w @ vt                                                # new = (w sv w') rot
    stretch = w @ (sv[..., None] * np.swapaxes(w, 1, 2))
    size = np.sqrt(np.abs(np.linalg.det(stretch)))
    shape = stretch / size[:, None, None]
    turn = np.arctan2(rot[:, 1, 0], rot[:, 0, 0])
    return [Pose((float(c[0]), float(c[1])), float(a), float(t), q.turn,
                 ((float(s[0, 0]), float(s[0, 1])), (float(s[1, 0]), float(s[1, 1]))))
            for q, c, a, t, s in zip(poses, centres, size, turn, shape, strict=True)]


def band_poses(frame: np.ndarray, view: TableView, poses: list[Pose]
               ) -> list[tuple[Pose, float] | None]:
    """Each pose fitted to its card's printed band (see the module docstring), with how far the
    fit moves the card's farthest corner from `poses` (apothems); None where the band does not
    show on BAND_FIRST_EDGES edges in the first round and BAND_MIN_EDGES in each other, or the
    fit moves a corner further than BAND_MAX_MOVE without its last round confirming it (or
    further than BAND_FAR_MOVE)."""
    cur = list(poses)
    good = np.ones(len(poses), bool)
    # how far the last round moved each pose's farthest corner (the poses kept are those
    # every round fitted, so the last round's are all that are asked for)
    last = np.zeros(len(poses))
    for k in range(BAND_ROUNDS):
        todo = np.flatnonzero(good).tolist()
        if not todo:
            break
        depth, ok = band_edges(frame, view, [cur[i] for i in todo])
        first = k == 0
        params, stands = _fit(depth, ok, BAND_FIRST_TOL if first else BAND_FIT_TOL,
                              BAND_FIRST_EDGES if first else BAND_MIN_EDGES)
        good[todo] = stands
        moved = _moved([cur[i] for i in todo], params)
        if k == BAND_ROUNDS - 1:
            last[todo] = _corner_move([cur[i] for i in todo], moved)
        for i, q in zip(todo, moved, strict=True):
            cur[i] = q
    out: list[tuple[Pose, float] | None] = [None] * len(poses)
    kept = np.flatnonzero(good).tolist()
    if kept:
        move = _corner_move([poses[i] for i in kept], [cur[i] for i in kept])
        for i, mv in zip(kept, move.tolist(), strict=True):
            if mv <= BAND_MAX_MOVE or (mv <= BAND_FAR_MOVE and last[i] < BAND_MIN_MOVE):
                out[i] = (cur[i], mv)
    return out


def _corner_move(was: list[Pose], now: list[Pose]) -> np.ndarray:
    """How far each pose of `now` moves the farthest corner of its card from `was` (apothems of
    `was`)."""
    a, b = pose_points(was, _CORNERS), pose_points(now, _CORNERS)
    return np.linalg.norm(b - a, axis=-1).max(-1) / np.array([q.apothem for q in was])


def band_repose(frame: np.ndarray, poses: list[Pose], reads: list[CardRead], view: TableView,
                model: ColourModel, p: ReaderParams) -> Passes[list[int]]:
    """The placed cards (`poses`, `reads`) that do not read whole at their fitted pose re-read
    at the pose their printed band gives (`band_poses`), where it moves the card by
    BAND_MIN_MOVE at least, with no blurred ring nor mean-colour reading (see the module
    docstring); a re-read that is whole as first made, keeps every letter of the card's read
    and fills in no symbol beside an edge whose band shows paper replaces the card's pose and
    read, in place; either way the letters the shape rules out at either pose stay ruled out
    (`symbol_shape.kept_ruled_out`). Returns the indices of the cards replaced. Made pass by
    pass."""
    failing = [k for k, r in enumerate(reads) if not whole_read(r, p)]
    if not failing:
        return []
    fitted = band_poses(frame, view, [poses[k] for k in failing])
    todo = [(k, f[0]) for k, f in zip(failing, fitted, strict=True)
            if f is not None and f[1] >= BAND_MIN_MOVE]
    if not todo:
        return []
    done = yield from reread_at(frame, todo, poses, reads, view, model, p)
    return list(done)


def reread_at(frame: np.ndarray, todo: list[tuple[int, Pose]], poses: list[Pose],
              reads: list[CardRead], view: TableView, model: ColourModel, p: ReaderParams
              ) -> Passes[dict[int, tuple[Pose, CardRead]]]:
    """The placed cards `todo` (index into `poses` and `reads`, the pose to read it at) re-read
    there in one pass, with no blurred ring nor mean-colour reading (see the module docstring);
    a re-read that is whole as first made, keeps every letter of the card's read and fills in
    no symbol beside an edge whose band shows paper (`probe.reread_stands`) replaces the card's
    pose and read, in place; either way the letters the shape rules out at either pose stay
    ruled out (`symbol_shape.kept_ruled_out`). Returns the cards replaced: by index, the pose
    and read each had before. Made pass by pass."""
    got = yield from reading(StagedRead(frame, [q for _, q in todo], view, model, False))
    done = {}
    for (k, pose), read in zip(todo, got, strict=True):
        was = reads[k]
        if (whole_read(read, p)
                and all(a in ("?", b) for a, b in zip(was.symbols, read.symbols, strict=True))
                and reread_stands(frame, view, pose, read, was)):
            done[k] = (poses[k], was)
            poses[k], reads[k] = pose, kept_ruled_out(read, was)
        else:   # (what the pose shows of the symbols' shapes stands: `kept_ruled_out`)
            reads[k] = kept_ruled_out(was, read)
    return done
