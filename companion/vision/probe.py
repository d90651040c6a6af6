"""The probe: cards whose outline the paper mask lost (their paper merged with a bright table or a
neighbour through a gap the blur closed, or cut by a hand's shade) found at the free lattice
cells next to the placed cards. A cell whose predicted pose shows a card's paper, band and some
symbols (`worth_search`, `searched`) gets a pose search — shifts, turns and sizes about the
prediction, a coarse round then a fine one (`probe_passes`; a cell showing a few symbols
alone, none crossed, the coarse round and, where it reads more, the fine one: `glimpsed`)
— and a card is kept only where one pose reads it whole: all six symbols, nearly all its
paper and border band (`probe_band`, whose missing band places may be lit by glare:
`band_lit`; or half its band, smeared by motion, with nearly all its paper: `smeared_band`),
and no symbol that most of the near-best poses saw crossed by an object (`crossed_near`).
Found cards seed further rounds outwards (`probe_onwards`). Cells whose band shows dark about
the prediction are first looked about for the card's own contrast (`refit`), or, where a smear
took a small card's band, for its symbols (`refit_by_symbols`). A placed card
whose outline fits its hexagon loosely (pulled off the print) and that does not read whole
at its fitted pose gets the same search in place (`repose_unread`), whose pose fills in no
symbol by an edge whose band shows paper (`edge_paper`). Every search is made pass by pass
(`passes`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from .calibration import TableView
from .cards import CardFit
from .cell_poses import (
    CONTRAST_PTS,
    PROBE_BAND_SHARE,
    SYMBOL_CONTRAST_PTS,
    SYMBOL_ENOUGH,
    card_apothems,
    card_contrast,
    cell_pose,
    on_mask,
    pose_at,
    symbol_contrast,
)
from .colour import ColourModel
from .lattice import (
    GrownLattice,
)
from .passes import Passes, reading, together
from .reader_params import LOOSE_FIT_IOU, ReaderParams
from .symbol_samples import (
    BORDER_DEPTHS,
    BORDER_PTS,
    N_PAPER,
    NEUTRAL_SPREAD,
    PAPER_PTS,
    CardRead,
    Pose,
    pose_matrices,
    pose_points,
    sample,
)
from .symbol_shape import kept_ruled_out
from .symbols import StagedRead, uncrossed

AXIAL_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# the twelve cells two steps away
RING_2 = ((2, 0), (2, -1), (2, -2), (1, -2), (0, -2), (-1, -1), (-2, 0), (-2, 1), (-2, 2),
          (-1, 2), (0, 2), (1, 1))
# the pose search around a probed cell's predicted pose: offsets (apothems), turns (degrees) and
# sizes (the predicted apothem is the neighbour's: a card one step nearer to or farther from the
# camera looks a few per cent larger or smaller, which the neighbour's frame does not follow).
# The shifts nearest first: near a card's place poses a few px apart read equally whole, and the
# search keeps the first best (from the top-left corner, a card predicted at its place was kept
# 0.08 apothem off it, its ring cores taking in their bands: tests/vision/test_probe_tie.py)
PROBE_SHIFTS = tuple(sorted(((dx, dy, 0.0, 1.0) for dx in (-0.08, 0.0, 0.08)
                             for dy in (-0.08, 0.0, 0.08)), key=lambda t: abs(t[0]) + abs(t[1])))
# a cell read complete but short of whole at the fine round's best pose gets that round once
# more about it (`probe_passes`)
PROBE_AGAIN = True
PROBE_FINE = ((0.0, 0.0, -2.5, 1.0), (0.0, 0.0, 2.5, 1.0), (0.04, 0.0, 0.0, 1.0),
              (-0.04, 0.0, 0.0, 1.0), (0.0, 0.04, 0.0, 1.0), (0.0, -0.04, 0.0, 1.0),
              (0.0, 0.0, 0.0, 0.96), (0.0, 0.0, 0.0, 1.04))


def probe_cells(mask: np.ndarray, scale: float, lat: GrownLattice, taken: set[tuple[int, int]],
                view: TableView, p: ReaderParams, frame: np.ndarray | None = None,
                fit_iou: list[float] | None = None
                ) -> tuple[dict[tuple[int, int], Pose], dict[tuple[int, int], Pose]]:
    """The free cells one or two steps from placed cards where a card whose outline the paper
    mask lost may lie (see `probe`), each at the pose its placed card's lattice steps predict
    (a cell next to a card from that card's step; next to several, given each placed card's
    `fit_iou`, from one whose outline fits its hexagon tightly, LOOSE_FIT_IOU, where one does):
    those whose paper places lie mostly on the paper mask (nearly all of it two steps out), or,
    next to a card, where the frame shows a card's own contrast (`paper_in_border`, given the
    `frame`). Two steps, because a hand or a lost outline often takes the cards between: a card
    whose neighbours are all covered is otherwise never looked for. A soft shadow's edge across
    a card can shrink its blob by a tenth, and a bright patch beside it pull its outline off,
    while it still reads whole: its frame then predicts its neighbours too small and a few px
    off, beyond the probe's search, and those in the shade are never found. Returns (the cells
    to probe, and the cells next to a card whose band the frame shows dark only in part,
    REFIT_BAND_SHARE, where `refit_cells` looks about for a card laid a little off), each
    cell with its pose."""
    order = sorted(lat.cells)
    # the placed cards whose steps predict the free cells, first to last: the loose fits last
    # (each group in index order, as all were)
    by_fit = order if fit_iou is None else sorted(order, key=lambda i: fit_iou[i] < LOOSE_FIT_IOU)
    keys, steps = free_keys(lat, by_fit, taken, (AXIAL_DIRS, RING_2))
    near = sum(1 for _, dq, dr in steps if (dq, dr) in AXIAL_DIRS)   # keys[:near]: next to one
    if not keys:
        return {}
    owner, dq, dr = (np.array(v, np.int64) for v in zip(*steps, strict=True))
    e_q = np.array([lat.e_q[i] for i in order])
    e_r = np.array([lat.e_r[i] for i in order])
    row = np.searchsorted(np.array(order, np.int64), owner)
    centres = lat.centres[owner] + dq[:, None] * e_q[row] + dr[:, None] * e_r[row]
    # card i's size, squash and lattice angle, at any centre: every key it predicts has the
    # same card-frame offsets (`pose_points` of the pose at the origin), so the paper places
    # of all keys are their centres plus those, and poses are made only for the keys kept
    apothems = card_apothems(lat)
    bases = {i: cell_pose(lat, i, lat.centres[i], apothems[i])
             for i in dict.fromkeys(owner.tolist())}
    offsets = pose_points([pose_at(b, (0.0, 0.0)) for b in bases.values()],
                          np.concatenate([PAPER_PTS, BORDER_PTS]))
    at = {i: k for k, i in enumerate(bases)}
    pts_all = centres[:, None, :] + offsets[[at[i] for i in owner.tolist()]]
    least = np.where(np.arange(len(keys)) < near, p.probe_mask, p.probe_mask_far)
    papery = on_mask(mask, scale, view, pts_all[:, :N_PAPER]) >= least
    doubt = np.zeros(len(keys), bool)
    if frame is not None:
        # The mask's local-mean test loses a card's paper where the light changes faster than
        # its window: in a hand's shadow, beside a glare spot. A cell next to the cards is
        # probed all the same when, in the frame itself, its paper places are bright and even
        # and its printed border band is dark at most of its places: a card's own contrast,
        # which shade and glare scale but do not undo. Where only part of the band is dark
        # there, the card may lie off its predicted place (`refit_cells` looks about it).
        lost = np.flatnonzero(~papery & (np.arange(len(keys)) < near))
        if lost.size:
            even, dark, lit = card_contrast(frame, view, pts_all[lost])
            papery[lost] = even & (dark >= PROBE_BAND_SHARE)
            doubt[lost] = lit & (dark >= REFIT_BAND_SHARE) & ~papery[lost]
    at_xy = centres.tolist()
    poses = [{keys[k]: pose_at(bases[int(owner[k])], (at_xy[k][0], at_xy[k][1]))
              for k in np.flatnonzero(flags).tolist()} for flags in (papery, doubt)]
    return poses[0], poses[1]


def free_keys(lat: GrownLattice, order: list[int], taken: set[tuple[int, int]],
              rings: tuple[tuple[tuple[int, int], ...], ...]
              ) -> tuple[list[tuple[int, int]], list[tuple[int, int, int]]]:
    """The free cells (not in `taken`) the placed cards' steps `rings` reach, ring by ring, and
    for each the placed card that reaches it first (in `order`) and its step: (cells, (placed
    card, dq, dr) of each)."""
    keys: list[tuple[int, int]] = []
    steps: list[tuple[int, int, int]] = []
    seen = set(taken)
    for ring in rings:
        for i in order:
            q, r = lat.cells[i]
            for dq, dr in ring:
                key = (q + dq, r + dr)
                if key not in seen:
                    seen.add(key)
                    keys.append(key)
                    steps.append((i, dq, dr))
    return keys, steps


REFIT_BAND_SHARE = 0.5   # a cell whose band is dark at this share of its places is looked about
# (and one whose paper the mask shows, at this share: a card laid nearly half an apothem off
# shows its band at about a third of the predicted places, hard 216: 0.39)
REFIT_PAPER_SHARE = 0.35
REFIT_REACH = 0.24    # how far (apothems) `refit` looks about a predicted place, in steps of
REFIT_STEP = 0.08     # this (a card laid by hand lies a few mm off its neighbours' lattice),
REFIT_FAR = 0.48      # and on to here in steps twice as long, the best of those looked about
# again in the short steps (cards spaced apart lie farther off: hard 216, 0.43 apothem)
REFIT_SYMBOLS = 5     # symbols a moved pose must read for the probe to search about it


def _grid(reach: float, step: float) -> np.ndarray:
    """The shifts (apothems, card frame) of a square grid of `step` out to `reach` each way,
    nearest first."""
    k = np.arange(-reach, reach + 1e-9, step)
    grid = np.stack(np.meshgrid(k, k), -1).reshape(-1, 2)
    return grid[np.argsort(np.hypot(grid[:, 0], grid[:, 1]), kind="stable")]


def _refit_shifts() -> np.ndarray:
    """The shifts `refit` tries first: the short steps out to REFIT_REACH, then the long ones
    beyond it out to REFIT_FAR, nearest first."""
    far = _grid(REFIT_FAR, 2 * REFIT_STEP)
    return np.concatenate([_grid(REFIT_REACH, REFIT_STEP),
                           far[np.abs(far).max(axis=1) > REFIT_REACH + 1e-9]])


_REFIT_SHIFTS = _refit_shifts()
_N_NEAR = len(_grid(REFIT_REACH, REFIT_STEP))
_REFIT_AGAIN = _grid(REFIT_STEP, REFIT_STEP)      # about the best long step (itself first)


def refit(frame: np.ndarray, view: TableView, poses: list[Pose],
          least: float = REFIT_BAND_SHARE, far: np.ndarray | None = None
          ) -> list[Pose | None]:
    """Each pose moved to where, within REFIT_REACH of it (REFIT_FAR for the poses `far`
    marks), the frame shows a card's contrast
    best (`card_contrast`: even paper, and around it the dark border band at the largest
    share of its places, at least PROBE_BAND_SHARE; the nearest such place on a tie), or None
    where no place shows it or the pose itself is best. A card's printed band is a thin dark
    ring around bright paper: only near the card's true place does the ring of band samples
    fall on it all round, and a card a few mm off still shows part of it (`least`) at the
    predicted place, where alone the others are looked about: in short steps out to
    REFIT_REACH, in long ones beyond where asked, and about the best long one in short steps
    again (`shifted`)."""
    out: list[Pose | None] = [None] * len(poses)
    if not poses:
        return out
    local = pose_points(poses, CONTRAST_PTS)
    _, dark, lit = card_contrast(frame, view, local)
    part = np.flatnonzero(lit & (dark >= least) & (dark < 1.0)).tolist()
    if not part:
        return out

    def contrast(pts: np.ndarray) -> np.ndarray:
        even, dark, _ = card_contrast(frame, None, pts)
        return np.where(even, dark, -1.0)

    for i, moved in zip(part, shifted(frame, view, [poses[i] for i in part], CONTRAST_PTS,
                                      contrast, PROBE_BAND_SHARE, REFIT_BAND_SHARE,
                                      None if far is None else far[part]), strict=True):
        out[i] = moved
    return out


def shifted(frame: np.ndarray, view: TableView, poses: list[Pose], points: np.ndarray,
            score: Callable[[np.ndarray], np.ndarray], enough: float, again_from: float,
            far: np.ndarray | None = None) -> list[Pose | None]:
    """Each pose moved to the shift (card frame, apothems) at which `score` (of the frame
    pixels of the card-frame `points`: rows x shifts x points x 2 -> rows x shifts) is best,
    looked for in short steps out to REFIT_REACH, in long ones out to REFIT_FAR for the poses
    `far` marks, and about the best long one in short steps again where it scores
    `again_from` and no short step `enough` (a long step sees a thin mark only near its
    place); None where the best is the pose itself or scores below `enough`. The shifts are
    a few mm: each is carried into the frame by the plane-to-frame map's derivative at the
    pose, not mapped point by point."""
    n = len(poses)
    local = pose_points(poses, points)
    m = pose_matrices(poses)                                    # poses x 2 x 2
    centres = np.array([q.centre for q in poses], np.float64)
    h = 0.1 * np.array([[q.apothem] for q in poses], np.float64)   # a step of 0.1 apothem
    ends = np.concatenate([local.reshape(-1, 2), centres, centres + h * [1.0, 0.0],
                           centres + h * [0.0, 1.0]])
    img = view.to_image(ends)
    pts, c0 = img[:-3 * n].reshape(local.shape), img[-3 * n:-2 * n]
    jac = np.stack([(img[-2 * n:-n] - c0) / h, (img[-n:] - c0) / h], -1)

    def scores(rows: np.ndarray, shifts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The score of poses `rows` at each of their `shifts` (rows x shifts x 2, apothems,
        card frame), and the shifts in the plane."""
        moves = np.einsum("pab,psb->psa", m[rows], shifts)      # rows x shifts x 2, plane
        shift_img = np.einsum("pab,psb->psa", jac[rows], moves)  # rows x shifts x 2, frame
        return score(pts[rows, None] + shift_img[:, :, None]), moves

    at = np.arange(n)
    score_all = np.full((n, len(_REFIT_SHIFTS)), -1.0)
    moves = np.zeros((n, len(_REFIT_SHIFTS), 2))
    score_all[:, :_N_NEAR], moves[:, :_N_NEAR] = scores(
        at, np.broadcast_to(_REFIT_SHIFTS[:_N_NEAR], (n, _N_NEAR, 2)))
    wide = np.flatnonzero(far) if far is not None else at[:0]
    if wide.size:
        long_steps = _REFIT_SHIFTS[_N_NEAR:]
        score_all[wide, _N_NEAR:], moves[wide, _N_NEAR:] = scores(
            wide, np.broadcast_to(long_steps, (wide.size, *long_steps.shape)))
    best = score_all.argmax(1)
    top, move = score_all[at, best], moves[at, best]
    again = np.flatnonzero((score_all[:, _N_NEAR:].max(1) >= again_from)
                           & ((best >= _N_NEAR) | (score_all[:, :_N_NEAR].max(1) < enough)))
    if again.size:
        k = _N_NEAR + score_all[again, _N_NEAR:].argmax(1)
        s2, m2 = scores(again, _REFIT_SHIFTS[k][:, None] + _REFIT_AGAIN)
        j = s2.argmax(1)
        better = s2[np.arange(again.size), j] > top[again]
        rows = again[better]
        top[rows], move[rows] = s2[better, j[better]], m2[better, j[better]]
        best[rows] = k[better]
    out: list[Pose | None] = [None] * n
    for i, (pose, k, mv, sc) in enumerate(zip(poses, best.tolist(), move, top.tolist(),
                                              strict=True)):
        if k > 0 and sc >= enough:
            c = np.asarray(pose.centre) + mv
            out[i] = pose_at(pose, (float(c[0]), float(c[1])))
    return out


def refit_cells(frame: np.ndarray, view: TableView, cand: dict[tuple[int, int], Pose],
                doubtful: dict[tuple[int, int], Pose], off: Sequence[CardFit] = ()
                ) -> dict[tuple[int, int], Pose]:
    """The free cells to probe (`cand`, and `doubtful` ones whose band showed only in part)
    whose predicted pose shows a card's paper and part of its band (REFIT_PAPER_SHARE, not
    all of it: the doubtful ones show REFIT_BAND_SHARE), each at the pose `refit` moves it
    to: a card laid a few millimetres off its neighbours' lattice shows its symbols off the
    predicted places, and the probe's pose search about those finds nothing. Looked about
    out to REFIT_FAR but near a card the lattice left `off` (within REFIT_FAR and two
    apothems of its centre): no hop placed that card surely, and a long look from a free
    cell beside it would place it there (held-out cards laid with gaps to half a card, the
    camera leaning, table 54: a misread). A cell `refit` leaves where it is is looked about
    for the card's symbols instead (`refit_by_symbols`), as far."""
    cells = {**cand, **doubtful}       # (disjoint: a doubtful cell is not probed as it is)
    poses = list(cells.values())
    far = np.ones(len(poses), bool)
    if off and poses:
        at = np.array([q.centre for q in poses])
        for f in off:
            far &= np.hypot(*(at - f.centre).T) >= (REFIT_FAR + 2.0) * f.apothem
    moved = refit(frame, view, poses, REFIT_PAPER_SHARE, far)
    rest = [i for i, q in enumerate(moved) if q is None]
    for i, q in zip(rest, refit_by_symbols(frame, view, [poses[i] for i in rest], far[rest]),
                    strict=True):
        moved[i] = q
    return {k: q for k, q in zip(cells, moved, strict=True) if q is not None}


def refit_by_symbols(frame: np.ndarray, view: TableView, poses: list[Pose],
                     far: np.ndarray) -> list[Pose | None]:
    """Each pose whose symbols the frame does not show plainly there (`symbol_contrast` below
    SYMBOL_ENOUGH) moved to where it shows them best within REFIT_REACH (REFIT_FAR where `far`
    says), where that reaches SYMBOL_ENOUGH; None where it does not, or where the pose shows
    them already. `refit`'s mark, the thin printed band, is gone on small cards smeared by
    motion or defocus (held-out `cloth-small`: cards of 35-60 px, a 4-12 px smear; hard 494,
    cards of 37 px on gingham): a card laid 0.1-0.3 apothem off its neighbours' lattice showed
    its band at a third of its places even where it lay, and was never looked about, while
    its symbols, broad marks set in paper, still show where the card lies. As for `refit`,
    the pose found is read, the probe searches from it only where that read shows five
    symbols (`better`), and keeps a card only where one pose reads it whole."""
    out: list[Pose | None] = [None] * len(poses)
    if not poses:
        return out
    local = pose_points(poses, SYMBOL_CONTRAST_PTS)
    img = view.to_image(local.reshape(-1, 2)).reshape(local.shape)
    hidden = np.flatnonzero(symbol_contrast(frame, img) < SYMBOL_ENOUGH).tolist()
    if hidden:
        found = shifted(frame, view, [poses[i] for i in hidden], SYMBOL_CONTRAST_PTS,
                        lambda pts: symbol_contrast(frame, pts), SYMBOL_ENOUGH, SYMBOL_ENOUGH,
                        far[hidden])
        for i, q in zip(hidden, found, strict=True):
            out[i] = q
    return out


# (a partial blob's cells, poses and reads at them: `_partials`)
_Parts = tuple[list[tuple[int, int]], list[Pose], list[CardRead]]


def better(cand: dict[tuple[int, int], Pose], reads: list[CardRead],
           moved: dict[tuple[int, int], Pose], moved_reads: list[CardRead], p: ReaderParams,
           parts: _Parts | None = None) -> tuple[dict[tuple[int, int], Pose], list[CardRead]]:
    """Per free cell, where the probe's search starts, with its read: the predicted pose where
    its read gives the search hope (`worth_search`), else the pose `refit` moved it to where that
    read shows five symbols (the best place of a wider search must show more of the card
    than the predicted one: `worth_search` with REFIT_SYMBOLS), else the predicted pose. A partial
    blob's cell (`parts`) not among them starts at its own pose: where a card reads whole
    there, as a probed card must (its paper and band all but intact), the blob was only part
    of its outline (a glare spot or a bright patch of table beside it took the rest)."""
    best = {k: (pose, r) for (k, pose), r in zip(cand.items(), reads, strict=True)}
    for (k, pose), r in zip(moved.items(), moved_reads, strict=True):
        if worth_search(r, p, REFIT_SYMBOLS) and (k not in best or not worth_search(best[k][1], p)):
            best[k] = (pose, r)
    for k, pose, r in zip(*(parts or ((), (), ())), strict=True):
        best.setdefault(k, (pose, r))
    return {k: v[0] for k, v in best.items()}, [v[1] for v in best.values()]


_Tries = list[tuple[tuple[int, int], Pose]]


def probe_tries(hopeful: list[tuple[int, int]], cand: dict[tuple[int, int], Pose],
                best: dict[tuple[int, int], tuple[float, Pose, CardRead]],
                steps: tuple[tuple[float, float, float, float], ...]) -> _Tries:
    """The poses one round of the probe's search tries (`probe`): `steps` about each hopeful
    cell's best pose so far (`best`), or its pose in `cand`."""
    tries: _Tries = []
    for k in hopeful:
        base = best[k][1] if k in best else cand[k]
        m = np.asarray(base.shape) * base.apothem
        for dx, dy, turn, size in steps:
            c = np.asarray(base.centre) + m @ np.array([dx, dy])
            # built directly (dataclasses.replace re-inspects the fields on every call)
            tries.append((k, Pose((float(c[0]), float(c[1])), base.apothem * size,
                                  base.angle + math.radians(turn), base.turn, base.shape)))
    return tries


def _probe_best(tries: _Tries, reads: list[CardRead],
                best: dict[tuple[int, int], tuple[float, Pose, CardRead]],
                fine: dict[tuple[int, int], list[tuple[float, tuple[bool, ...]]]] | None = None
                ) -> None:
    """`best` (per cell: score, pose, read) updated, in place, with one round's `reads` of its
    `tries` (the first best pose on a tie); with `fine`, every try's score and crossings kept."""
    for (k, pose), r in zip(tries, reads, strict=True):
        score = probe_score(r)
        if k not in best or score > best[k][0]:
            best[k] = (score, pose, r)
        if fine is not None:
            fine.setdefault(k, []).append((score, r.crossed))


def coarse_ahead(frame: np.ndarray, cand: dict[tuple[int, int], Pose], reads: list[CardRead],
                 moved: dict[tuple[int, int], Pose], moved_reads: list[CardRead],
                 view: TableView, model: ColourModel, p: ReaderParams,
                 parts: _Parts | None = None) -> tuple[_Tries, StagedRead] | None:
    """The probe's first round (`probe`) as the first reads of the free cells and partial
    blobs' cells (before their re-reads: `reads`, `moved_reads`, `parts`' reads) would start
    it, its read begun (`StagedRead`), so that its first pass can join those re-reads; None
    where they start none."""
    start, start_reads = better(cand, reads, moved, moved_reads, p, parts)
    hopeful, _ = _hopeful(start, start_reads, p)
    if not hopeful:
        return None
    tries = probe_tries(hopeful, start, {}, PROBE_SHIFTS)
    return tries, StagedRead(frame, [t[1] for t in tries], view, model)


# (a search's cells, poses and reads of the cards it found)
_Found = tuple[list[tuple[int, int]], list[Pose], list[CardRead]]


def probe(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
          view: TableView, model: ColourModel, p: ReaderParams,
          ahead: tuple[_Tries, StagedRead] | None = None) -> _Found:
    """`probe_passes` made on its own."""
    return together(probe_passes(frame, cand, first, view, model, p, ahead))[0]


def probe_all(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
              view: TableView, model: ColourModel, p: ReaderParams,
              ahead: tuple[_Tries, StagedRead] | None, mask: np.ndarray, scale: float,
              lat: GrownLattice, probed: set[tuple[int, int]]) -> Passes[_Found]:
    """`probe_passes` from the free cells, then `_onward_passes` from what it found."""
    found = yield from probe_passes(frame, cand, first, view, model, p, ahead)
    return (yield from _onward_passes(frame, mask, scale, lat, view, model, p, probed, found))


def probe_passes(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
                 view: TableView, model: ColourModel, p: ReaderParams,
                 ahead: tuple[_Tries, StagedRead] | None = None) -> Passes[_Found]:
    """Cards whose outline the paper mask lost — their paper merged with a bright table or a
    neighbour through a gap the blur closed — found at the free cells `probe_cells` gives,
    from their `first` reads at the predicted poses. Where that shows paper and some symbols
    (`searched`; or a few symbols, none crossed: `glimpsed`, searched finely only where the
    coarse round reads more, `refined`), poses a little shifted, turned and scaled are tried,
    and the best one is kept when the card reads whole there (every symbol, its paper and
    border band all but intact, `probe_band`). A cell whose best pose after the fine round
    reads every symbol but falls short of whole (a glare spot on a corner of its paper: hard
    table 359) gets the fine round once more about that pose, and is held to the same test.
    Returns (cells, poses, reads) of the cards found.
    Each round's read is made in two passes (`StagedRead`); the second round's first pass
    joins the first round's re-read pass, about the best poses the first round's first reads
    give, and stands where its final reads give the same (nearly always); `ahead`: the first
    round begun (`coarse_ahead`), taken where its poses are this round's. Made pass by pass
    (`Passes`)."""
    hopeful, sure = _hopeful(cand, first, p)
    if not hopeful:
        return [], [], []
    # coarse to fine: the best of nine shifts, then turns and half shifts about it
    best: dict[tuple[int, int], tuple[float, Pose, CardRead]] = {}
    fine: dict[tuple[int, int], list[tuple[float, tuple[bool, ...]]]] = {}
    tries = probe_tries(hopeful, cand, best, PROBE_SHIFTS)
    coarse = (ahead[1] if ahead is not None and ahead[0] == tries
              else StagedRead(frame, [t[1] for t in tries], view, model))
    if coarse.first is None:
        yield [coarse]
    guess = None
    if not coarse.done:   # (the fine round as the first reads would start it)
        assert coarse.first is not None
        early: dict[tuple[int, int], tuple[float, Pose, CardRead]] = {}
        _probe_best(tries, coarse.first, early)
        guessed = probe_tries(refined(hopeful, sure, early), cand, early, PROBE_FINE)
        guess = (guessed, StagedRead(frame, [t[1] for t in guessed], view, model))
    if not coarse.done or guess is not None:   # (nothing to read, no pass to wait for)
        yield [coarse, *([guess[1]] if guess else [])]
    assert coarse.reads is not None
    _probe_best(tries, coarse.reads, best)
    tries = probe_tries(refined(hopeful, sure, best), cand, best, PROBE_FINE)
    staged = (guess[1] if guess is not None and guess[0] == tries
              else StagedRead(frame, [t[1] for t in tries], view, model))
    while not staged.done:
        yield [staged]
    assert staged.reads is not None
    _probe_best(tries, staged.reads, best, fine)
    # a card read complete but short of whole at the best pose so far: the fine round once
    # more about it (a pass made only where some cell asks for it)
    complete = {k for k, (_, _, r) in best.items() if r.complete and r.in_frame}
    whole = {k for k in complete if _probed_whole(frame, view, best[k][1], best[k][2], p)}
    again = [k for k in best if k in complete and k not in whole]
    if again and PROBE_AGAIN:
        tries = probe_tries(again, cand, best, PROBE_FINE)
        staged = StagedRead(frame, [t[1] for t in tries], view, model)
        while not staged.done:
            yield [staged]
        assert staged.reads is not None
        _probe_best(tries, staged.reads, best, fine)
        # (only these cells' best poses can have moved)
        whole |= {k for k in again if best[k][2].complete and best[k][2].in_frame
                  and _probed_whole(frame, view, best[k][1], best[k][2], p)}
    best = {k: v for k, v in best.items() if k in whole}
    cells = sorted(best, key=lambda k: (k[1], k[0]))
    reads = [best[k][2] for k in cells]
    for i, k in enumerate(cells):
        marks = crossed_near(fine.get(k, []), best[k][0])
        if any(marks):
            reads[i] = replace(uncrossed(reads[i], marks), crossed=marks)
    return cells, [best[k][1] for k in cells], reads


def _probed_whole(frame: np.ndarray, view: TableView, pose: Pose, r: CardRead,
                  p: ReaderParams) -> bool:
    """Whether a probed card read at `pose` shows its paper (min_probe_ok) and its band
    (`probe_band`, or smeared: `smeared_band`) all but intact."""
    return r.paper_ok >= p.min_probe_ok and (probe_band(frame, view, pose, r, p)
                                             or smeared_band(r, p))


PROBE_ROUNDS = 4   # rounds of `probe_onwards` at most (each from the cards the last one found)


def probe_onwards(frame: np.ndarray, mask: np.ndarray, scale: float, lat: GrownLattice,
                  view: TableView, model: ColourModel, p: ReaderParams,
                  probed: set[tuple[int, int]], found: _Found) -> _Found:
    """`_onward_passes` made on its own."""
    return together(_onward_passes(frame, mask, scale, lat, view, model, p, probed, found))[0]


def _onward_passes(frame: np.ndarray, mask: np.ndarray, scale: float, lat: GrownLattice,
                   view: TableView, model: ColourModel, p: ReaderParams,
                   probed: set[tuple[int, int]], found: _Found) -> Passes[_Found]:
    """`found` (the probe's cards: cells, poses, reads) with the cards found by probing on from
    them, round by round (PROBE_ROUNDS): the free cells next to a card the last round found,
    neither placed nor probed before (`probed`), each at the pose the found card's own pose
    and the nearest placed card's lattice steps predict, searched as `probe` searches (and
    only where `probe_cells` would: paper on the mask or a card's contrast in the frame; a
    cell whose band shows there only in part is looked about, as `refit_cells` does, and
    searched from where `refit` moves it). On
    a table as pale as the paper the mask keeps few outlines, and a layout's far side lies
    more than two steps from any of them: each card found brings its neighbours in reach. A
    card so found must read as whole as any probed card; none is guessed. Made pass by pass
    (`Passes`)."""
    cells, poses, reads = (list(v) for v in found)
    last = list(zip(cells, poses, strict=True))
    probed = set(probed)      # (the found cards' cells among them: the probe searched them)
    order = np.array(sorted(lat.cells), np.int64)
    for _ in range(PROBE_ROUNDS):
        keys, cand = [], []
        for cell, pose in last:
            near = int(order[np.argmin(np.linalg.norm(lat.centres[order] - pose.centre, axis=1))])
            for dq, dr in AXIAL_DIRS:
                key = (cell[0] + dq, cell[1] + dr)
                if key in probed:
                    continue
                probed.add(key)
                c = np.asarray(pose.centre) + dq * lat.e_q[near] + dr * lat.e_r[near]
                keys.append(key)
                cand.append(pose_at(pose, (float(c[0]), float(c[1]))))
        if not keys:
            break
        local = pose_points(cand, np.concatenate([PAPER_PTS, BORDER_PTS]))
        even, dark, lit = card_contrast(frame, view, local)
        keep = ((on_mask(mask, scale, view, local[:, :N_PAPER]) >= p.probe_mask)
                | (even & (dark >= REFIT_BAND_SHARE)))
        # (a cell whose band shows only in part: looked about, as `refit_cells` does)
        loose = np.flatnonzero(~keep & lit & (dark >= REFIT_BAND_SHARE)).tolist()
        for i, q in zip(loose, refit(frame, view, [cand[i] for i in loose]), strict=True):
            if q is not None:
                cand[i], keep[i] = q, True
        todo = {k: q for k, q, ok in zip(keys, cand, keep.tolist(), strict=True) if ok}
        if not todo:
            break
        first = yield from reading(StagedRead(frame, list(todo.values()), view, model))
        new_cells, new_poses, new_reads = yield from probe_passes(frame, todo, first, view,
                                                                  model, p)
        if not new_cells:
            break
        cells += new_cells
        poses += new_poses
        reads += new_reads
        last = list(zip(new_cells, new_poses, strict=True))
    return cells, poses, reads


# An object crossing onto a symbol is there whichever pose near the card's own is tried, but
# the pose that reads best may be the one whose samples missed it (its read gains the symbol).
# So the fine round's poses that read the card nearly as well as the best one (short of it by
# one symbol's worth, 1/6 of the score, and CROSS_NEAR more: the crossed symbol and a little
# paper or band) are polled, and a symbol most of them saw crossed stays unread. A pose that
# reads the card much worse sees crossings of its own (its band samples off the band, on the
# table or a neighbour's paper), and is not asked.
CROSS_NEAR = 0.05


def crossed_near(tried: list[tuple[float, tuple[bool, ...]]], top: float
                 ) -> tuple[bool, ...]:
    """Per symbol, whether most of the `tried` (score, crossed) poses scoring within one
    symbol's worth and CROSS_NEAR of `top` saw it crossed (see CROSS_NEAR); () when none did."""
    asked = [c if c else (False,) * 6 for score, c in tried
             if score >= top - 1.0 / 6.0 - CROSS_NEAR]
    most = 2 * np.sum(np.array(asked, bool).reshape(-1, 6), axis=0) > len(asked)
    return tuple(most.tolist()) if most.any() else ()


def worth_search(r: CardRead, p: ReaderParams, symbols: int = 4) -> bool:
    """Whether a read at a free cell's pose is worth the probe's pose search: probe_paper of
    its paper and of its band, and four symbols (or `symbols`)."""
    return (r.paper_ok >= p.probe_paper and r.border_ok >= p.probe_paper
            and r.letters >= symbols)


PLAIN_PAPER = 0.75   # a free cell whose paper reads this whole at its predicted pose
PLAIN_BAND = 0.85    # and its border band this whole is searched from two symbols read
PLAIN_SYMBOLS = 2
SYMBOLS_SEARCH = 5   # or where this many symbols read and probe_paper of its paper


def searched(r: CardRead, p: ReaderParams) -> bool:
    """Whether the probe searches about a free cell's pose: where its read is `worth_search`, or
    where it shows a card's paper and border band nearly whole (PLAIN_PAPER, PLAIN_BAND) and
    PLAIN_SYMBOLS symbols. A card laid a few millimetres off the pose its neighbours predict
    (hand-laid, or a neighbour's frame a little off) keeps its paper and band on the
    predicted places, which are broad, while its symbols, small and ringed by the paper each
    needs beside it, slip off theirs: the read there is a card's, its symbols unread. The
    search must still find a pose where the card reads whole. And where SYMBOLS_SEARCH
    symbols read with probe_paper of its paper: on small cards a card two px off its
    predicted place keeps its symbols on theirs, broad in their turn, while its band, a
    line a px or two wide, slips off its own."""
    return (worth_search(r, p) or (r.paper_ok >= PLAIN_PAPER and r.border_ok >= PLAIN_BAND
                                   and r.letters >= PLAIN_SYMBOLS)
            or (r.letters >= SYMBOLS_SEARCH and r.paper_ok >= p.probe_paper))


GLIMPSE_SYMBOLS = 2   # a free cell not `searched` showing this many symbols, none crossed,
FINE_SYMBOLS = 5      # gets the coarse round, and the fine one where a pose reads this many


def glimpsed(r: CardRead) -> bool:
    """Whether the probe makes its coarse round about a free cell's pose that is not `searched`:
    where GLIMPSE_SYMBOLS of its symbols read there and no object crosses the card's edge onto
    any (`CardRead.crossed`), whatever its paper and band show. A glare spot beside the card
    or a bright cloth blurred into its edge (why the mask lost its outline) takes its paper
    and band places below `searched`'s shares while its symbols read (hard 342: paper 0.61,
    band 0.44, four symbols). Most cells that show a few symbols so are cards under a hand
    (100 of 115 on hard 0-119, 75 of them with a symbol crossed), which a pose seldom reads
    whole: those with a symbol crossed are left alone, and the fine round follows only where
    the coarse round's best pose reads FINE_SYMBOLS (`refined`). Searching is not finding: a
    card is kept only where a pose reads it whole (`probe_passes`)."""
    return r.letters >= GLIMPSE_SYMBOLS and not any(r.crossed)


def _hopeful(cells: dict[tuple[int, int], Pose], reads: list[CardRead], p: ReaderParams
             ) -> tuple[list[tuple[int, int]], set[tuple[int, int]]]:
    """The cells the probe's coarse round searches about (`searched` or `glimpsed`), in order,
    and those of them `searched` (`refined`): one rule for `coarse_ahead` and `probe_passes`,
    whose first round is taken ahead only where both give the same cells."""
    sure = {k for k, r in zip(cells, reads, strict=True) if searched(r, p)}
    return [k for k, r in zip(cells, reads, strict=True) if k in sure or glimpsed(r)], sure


def refined(hopeful: list[tuple[int, int]], sure: set[tuple[int, int]],
            best: dict[tuple[int, int], tuple[float, Pose, CardRead]]) -> list[tuple[int, int]]:
    """The cells of `hopeful` the probe's fine round searches: those `searched` (`sure`), and
    those only `glimpsed` whose best pose so far (`best`) reads FINE_SYMBOLS symbols."""
    return [k for k in hopeful if k in sure or best[k][2].letters >= FINE_SYMBOLS]


# a probed pose's mean symbol confidence, weighted below any step of its wholeness (one of the
# 18 paper or band places, a symbol): between poses that read equally whole, the surer read
PROBE_SURE = 0.01


def probe_score(r: CardRead) -> float:
    """How whole a probed pose reads: its paper and band shares and the share of symbols read;
    between equally whole reads, the surer (PROBE_SURE)."""
    return (r.paper_ok + r.border_ok + r.letters / 6.0
            + PROBE_SURE * sum(r.edge_confidence) / 6.0)


BAND_LIT = 0.75   # a band place this bright in every channel and depth (of the white) is lit
VEIL_BAND_MAX = 0.92     # or its darkest depth darker than this (of the white) and no more
VEIL_BAND_TINT = 0.05    # tinted than the card's dark band places (and this): the band veiled


def probe_band(frame: np.ndarray, view: TableView, pose: Pose, r: CardRead, p: ReaderParams
               ) -> bool:
    """Whether a probed card's border band is whole enough (`probe`): min_probe_ok of its
    places look like the printed band, as the read sees it or veiled (`band_lit`), or
    min_probe_lit of them do as the read sees it and every place missing is lit or veiled, or
    min_probe_ok of them do counting the grey lit places too (those missing besides are let go
    as on an intact band: a blur tints a place or two into the table beside a glint). A
    glare spot on the table beside a card, or a blur that bridged its band to a neighbour's
    paper (both are why the mask lost its outline), lights the band along that side and hides
    nothing; a glare spot on the card itself adds its light to the band, which stays a grey
    line darker than the paper (veiled); a hand or a sleeve over the edge, which may reach a
    symbol's surround, mostly leaves the band darker or coloured there, and the stricter share
    stands (each symbol's surround is still checked on its own: `symbols`)."""
    if r.border_ok >= p.min_probe_ok:
        return True
    missing = round(N_BORDER_PLACES * (1.0 - r.border_ok))
    seen, need = N_BORDER_PLACES - missing, p.min_probe_ok * N_BORDER_PLACES
    lit, veiled, lit_grey = band_lit(frame, view, pose, r.white_bgr)
    if seen + veiled >= need:
        return True
    return r.border_ok >= p.min_probe_lit and (lit + veiled >= missing
                                               or seen + lit_grey + veiled >= need)


N_BORDER_PLACES = len(BORDER_PTS) // len(BORDER_DEPTHS)   # 18: three along each side


def band_lit(frame: np.ndarray, view: TableView, pose: Pose,
             white_bgr: tuple[float, float, float]) -> tuple[int, int, int]:
    """How many of a card's border band places (`symbol_samples.BORDER_PTS`) are (lit, veiled,
    lit and grey as a veiled place must be): lit
    at every depth at least BAND_LIT of the card's white (`CardRead.white_bgr`) in every
    channel; veiled, not lit, at their darkest depth between 0.7 and VEIL_BAND_MAX of the white
    and grey: channels no further apart (paper-relative) than NEUTRAL_SPREAD, nor than the
    median of the places the read's test sees dark plus VEIL_BAND_TINT. That is the printed grey
    band seen through light a glare adds, which lifts it past the read's band test (darker than
    0.7 of the white) but keeps it darker than the paper and no more tinted than it was; a
    fingertip or a pen over the band shows its own colour. The read takes a place for the band
    only where it is darker than 0.7 of the white and grey (`symbols`), so a lit or veiled place
    is always one it missed, and where no more places are missing than are lit or veiled, the
    missing ones are those."""
    rel = _band_rel(frame, view, pose, white_bgr, BORDER_PTS)
    lit = (rel.min(-1) >= BAND_LIT).all(0)
    mean = rel.mean(-1)
    darkest = np.take_along_axis(rel, mean.argmin(0)[None, :, None], 0)[0]
    low = mean.min(0)
    tint = darkest.max(-1) - darkest.min(-1)
    band = (low < 0.7) & (tint < NEUTRAL_SPREAD)
    if not band.any():
        return int(np.count_nonzero(lit)), 0, 0
    # a veil mixes the band with the lamp's own light (the white's colour): greyer, never
    # more tinted than the band seen dark elsewhere round the card
    grey = tint < min(NEUTRAL_SPREAD, float(np.median(tint[band])) + VEIL_BAND_TINT)
    veiled = grey & (low >= 0.7) & (low < VEIL_BAND_MAX) & ~lit
    return (int(np.count_nonzero(lit)), int(np.count_nonzero(veiled)),
            int(np.count_nonzero(lit & grey)))


def _band_rel(frame: np.ndarray, view: TableView, pose: Pose,
              white_bgr: tuple[float, float, float], local: np.ndarray) -> np.ndarray:
    """The frame at a card's band points `local` (BORDER_DEPTHS x places, card frame) at
    `pose`, over the card's white (`CardRead.white_bgr`): depths x places x 3."""
    plane = pose_points([pose], local)
    vals, _ = sample(frame, view.to_image(plane.reshape(-1, 2)).reshape(plane.shape))
    return (vals[0] / np.maximum(np.asarray(white_bgr, np.float64), 1.0)).reshape(
        len(BORDER_DEPTHS), -1, 3)


# the border band along each edge, densely: EDGE_PLACES places across its length (to within a
# little of its corners), at every BORDER_DEPTHS (depths x (6 edges x places) x 2, card frame)
EDGE_PLACES = 11
_EDGE_A = np.radians(-60.0 * np.arange(6))
_EDGE_S = np.linspace(-0.5, 0.5, EDGE_PLACES)
EDGE_PTS = (np.asarray(BORDER_DEPTHS)[:, None, None, None]
            * np.c_[np.cos(_EDGE_A), np.sin(_EDGE_A)][None, :, None, :]
            + _EDGE_S[None, None, :, None]
            * np.c_[-np.sin(_EDGE_A), np.cos(_EDGE_A)][None, :, None, :]).reshape(-1, 2)
EDGE_PAPER = 0.9   # a band place whose darkest depth is this bright (of the white) shows paper


def edge_paper(frame: np.ndarray, view: TableView, pose: Pose,
               white_bgr: tuple[float, float, float]) -> np.ndarray:
    """Per edge of a card at `pose` (6 bools), whether its border band shows as bright as
    paper somewhere along it (EDGE_PLACES places, EDGE_PAPER of the white at its darkest
    depth): where a pale object lies over the card's edge, or a glare lights it, the band is
    gone there, and the two look alike."""
    rel = _band_rel(frame, view, pose, white_bgr, EDGE_PTS)
    low = rel.mean(-1).min(0).reshape(6, EDGE_PLACES)
    return (low >= EDGE_PAPER).any(1)


def repose_unread(frame: np.ndarray, whole: list[CardFit], lat: GrownLattice,
                  poses: list[Pose], reads: list[CardRead], view: TableView,
                  model: ColourModel, p: ReaderParams) -> Passes[None]:
    """Placed cards whose fitted outline may not be the card's own and that do not read whole
    at their fitted pose get the probe's pose search (`probe`), in place. Where a ragged
    blob's symbols (`cards.Blob`) bit into the paper's outline the hull misses some of the
    paper; a glossy sleeve's clear rim, lit by its sheen, joins the paper on one side, and a
    curled card's lifted side is drawn larger, and the outline then matches its hexagon only
    loosely (LOOSE_FIT_IOU). Either way the fitted centre and size are off by a few per cent
    of the card, and the samples of its symbols, each ringed by the paper it needs beside it,
    slip onto their edges (held-out `phone-photo` and `sleeves`: grey rings read with their
    hole on one side). A card whose outline fits its hexagon tightly is where it was fitted:
    a symbol it leaves unread is in doubt for what it shows (an ink dimmed between two
    letters, something over it), and of some thirty poses searched about it one may well read
    it as a letter, right or wrong (hard tables 431 and 544 without markers: a dim yellow
    triangle read red, a blue disc under a hand read as the ring). The search starts from the
    fitted pose, then, for a card still not whole, from the pose a placed neighbour with a
    whole outline predicts for its cell (as for a free cell: the neighbour's frame does not
    share the outline's error). A pose found so stands only where its read is whole as first
    made and fills in no symbol by an edge whose band shows paper (`_repose`). Made pass by
    pass (`together`)."""
    failing = [k for k, (f, r) in enumerate(zip(whole, reads, strict=True))
               if (f.blob.ragged or f.iou < LOOSE_FIT_IOU) and not whole_read(r, p)]
    if not failing:
        return
    at = {lat.cells[k]: k for k in failing}
    found, _, _ = yield from _repose(frame, {lat.cells[k]: poses[k] for k in failing},
                                     [reads[k] for k in failing], at, poses, reads, view,
                                     model, p)
    cand = {}
    for k in failing:
        if lat.cells[k] not in found:
            pose = _neighbour_pose(lat, whole, k)
            if pose is not None:
                cand[lat.cells[k]] = pose
    if cand:
        first = yield from reading(StagedRead(frame, list(cand.values()), view, model,
                                              [True] * len(cand)))
        yield from _repose(frame, cand, first, at, poses, reads, view, model, p)


def _repose(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
            at: dict[tuple[int, int], int], poses: list[Pose], reads: list[CardRead],
            view: TableView, model: ColourModel, p: ReaderParams) -> Passes[_Found]:
    """`probe` from the poses `cand`; each card found whole replaces pose and read of the
    card `at` its cell, in place, where that read is whole as first made, the re-read by the
    lamp its band shows (`CardRead.first_symbols`) neither filling in nor changing a letter:
    the search keeps the pose, of some thirty, that reads most, and a re-read that completes
    a card at one of them is no independent witness (held-out `sleeves` 6: a red disc washed
    pale by a sheen, read as the grey ring at one searched pose by that re-read alone), and
    where it makes a letter of no symbol `reads` left '?' beside an edge whose band shows
    paper (`_filled_by_paper`); the letters the shape rules out in the read replaced stay ruled
    out (`symbol_shape.kept_ruled_out`). Returns what `probe` found and stands."""
    found = yield from probe_passes(frame, cand, first, view, model, p)
    kept = [(key, pose, kept_ruled_out(read, reads[at[key]]))
            for key, pose, read in zip(*found, strict=True)
            if reread_stands(frame, view, pose, read, reads[at[key]])]
    for key, pose, read in kept:
        poses[at[key]], reads[at[key]] = pose, read
    return [k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept]


def reread_stands(frame: np.ndarray, view: TableView, pose: Pose, read: CardRead,
                  was: CardRead) -> bool:
    """Whether a card's `read` at a pose other than its fitted one (`pose`: a searched pose, or
    the one its printed band gives) may replace its read there (`was`): the re-read by the lamp
    its band shows (`CardRead.first_symbols`) neither filled in nor changed a letter, and no
    letter is made of a symbol `was` left '?' beside an edge whose band shows paper
    (`_filled_by_paper`)."""
    return read.first_symbols == read.symbols and \
        not _filled_by_paper(frame, view, pose, read, was)


def _filled_by_paper(frame: np.ndarray, view: TableView, pose: Pose, read: CardRead,
                     was: CardRead) -> bool:
    """Whether the search's `read` at `pose` makes a letter of a symbol the card's read at its
    fitted pose (`was`) left '?' where the border band along that symbol's edge shows paper
    (`edge_paper`). A pale object over the card's edge merges with its paper, pulls its
    outline loose as a sleeve's rim or a curl does, and may hide the symbol at the fitted
    pose; at a pose shifted off it the symbol's own samples may miss it and read the letter,
    but an object lies over it, and the project's rule is that such a symbol stays unread. A
    sleeve's rim or a curl lies beyond the card's edge: its band stays (test
    `test_hexel_shadow_fits`, a pale ellipse over a card's corner)."""
    filled = np.array([a == "?" and b != "?" for a, b in zip(was.symbols, read.symbols,
                                                              strict=True)])
    return bool(filled.any()) and bool((filled & edge_paper(frame, view, pose,
                                                            read.white_bgr)).any())


def _neighbour_pose(lat: GrownLattice, whole: list[CardFit], k: int) -> Pose | None:
    """The pose of placed card k as its first placed neighbour whose blob is not ragged
    predicts it (one lattice step in that neighbour's frame), or None."""
    by_cell = {c: i for i, c in lat.cells.items()}
    q, r = lat.cells[k]
    for dq, dr in AXIAL_DIRS:
        j = by_cell.get((q - dq, r - dr))
        if j is not None and not whole[j].blob.ragged:
            centre = lat.centres[j] + dq * lat.e_q[j] + dr * lat.e_r[j]
            return cell_pose(lat, j, centre)
    return None


def whole_read(r: CardRead, p: ReaderParams) -> bool:
    """Whether a read at a whole card's pose passes the verdict (`_verdict`) with its band
    nearly whole (the verdict also takes a band motion smeared, `smeared_band`; the searches
    that pick the cards to read again ask for this)."""
    return (r.complete and r.in_frame and r.paper_ok >= p.min_paper_ok
            and r.border_ok >= p.min_border_ok)


def smeared_band(r: CardRead, p: ReaderParams) -> bool:
    """Whether a read is whole though its band falls short of what `whole_read` (or the probe's
    `probe_band`) asks: all six symbols read, in frame, min_smeared_paper of its paper places
    paper (16 of 18: on a card of 46-61 px the smear carries the band or a symbol's edge over
    one or two of them, held-out `cloth-small` 19, 25 and 73) and as much of its band as makes a
    hexagon a card at all (min_card_border). The band is the card's one thin line: motion blur
    smears it into the paper and the table on the edges across the motion, leaving about half
    its places dark (held-out `cloth-small` 49: five placed cards of 67 px smeared sideways,
    each dark at exactly 9 of its 18 band places, its paper and six symbols whole; on
    `cloth-small` 34, three cards beside the placed ones, their outline lost to the mask, found
    by the probe). An object lying over the card's edge also hides its band there; where it
    leaves all six symbols read, their surround and the card's paper nearly all paper, the card
    shows all it prints and reads whole, as a placed card under a hand's edge already did (each
    symbol is guarded on its own against what lies over it, `symbols`). The verdict
    (`reader._verdict`) and the probe's last test take this; the searches that pick the cards to
    read again still ask for `whole_read`'s band."""
    return (r.complete and r.in_frame and r.paper_ok >= p.min_smeared_paper
            and r.border_ok >= p.min_card_border)
