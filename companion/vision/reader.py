"""The Hex'el reader: one frame in, a `HexelObservation` out, by four named stages — paper mask and
card hexagons (`cards`), lattice and cells (`lattice`), symbols (`symbols`), and the verdict on
each card (whole and readable, or occluded). Whole cards are read at their own pose; paper blobs
that are not whole hexagons but lie inside a free lattice cell (a hand over a card, a card cut by
the frame edge; not ragged ones, `cards.Blob`) are read at the cell's pose and always reported
occluded, with '?' where a symbol cannot be read and a confidence no higher than 0.3 — a partly
seen card is never guessed. Free cells next to the cards whose card the mask lost are probed
(`_probe`); on a calibrated table so are free cells anywhere in the play area that show a
card's paper and band about where the regular lattice through the placed cards puts them
(`_far_cells`: a group beyond an arm, which the lattice growth cannot link). A blob that may
hold a card whose paper the mask kept only in part (or two cards a blur bridged) has its paper
found again against its own border band (`cards.reseat_paper`); such an outline counts only
when the card shows nearly all its paper and border band. The hexagons that are plainly cards
also tell the table's own ink hues (`inks`): where another printer or camera turned an ink, the
cards are told again with it.
`HexelReader.read(frame, keep_stages=True)` keeps each stage's image for `--dump-stages`. On a
video (`keep_still=True`) a frame in which nothing changed since the last full read (`change`: no
block of the frame moved beyond sensor noise) keeps that read instead of repeating it, as the
table is still for most of a game; any change — a hand, a card laid or turned, the lamp — and
every REREAD_FRAMES-th frame regardless are read in full.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field, replace
from typing import NamedTuple, TypeVar

import cv2
import numpy as np

from ..faces import HEXEL_FACE
from .calibration import CameraCalibration, TableCalibration, TableView, calibrate_table
from .cards import (
    Blob,
    CardFit,
    DetectParams,
    consistent_sizes,
    cut_necks,
    fit_hexagons,
    fitted_card,
    paper_blobs,
    paper_mask,
    reseat_paper,
)
from .cards import work_scale as _work_scale
from .change import StillFrames
from .colour import ColourModel, builtin_model
from .geometry import axial_distance, hexagon
from .inks import adapt_inks, confused_letters, symbol_cores
from .lattice import (
    GrownLattice,
    ProjectiveLattice,
    RegularLattice,
    card_frame,
    fit_projective,
    fit_regular,
    grow_lattice,
)
from .observation import HexelObservation, SeenCard, ink_doubt_note
from .symbols import (
    BORDER_DEPTHS,
    BORDER_PTS,
    N_PAPER,
    NEUTRAL_SPREAD,
    PAPER_PTS,
    CardRead,
    Pose,
    StagedRead,
    pose_matrices,
    pose_points,
    read_together,
    sample,
    uncrossed,
    undimmed,
)

OCCLUDED_MAX_CONFIDENCE = 0.3
PLAY_MARGIN = 0.1          # cards are looked for this far (of the longer side) outside the
                           # play area too, and one card further
DOUBT_READS = 300          # full reads a letter stays in doubt after the last one showing it
MARKER_RETRY_FRAMES = 30   # an uncalibrated reader looks for the table markers this seldom


@dataclass(frozen=True)
class ReaderParams:
    """Tunables of the verdict stage."""

    detect: DetectParams = field(default_factory=DetectParams)
    max_offset: float = 0.3        # a card's centre within this many spacings of its cell
    max_turn_deg: float = 10.0     # and its orientation within this of the lattice's
    min_card_symbols: int = 4      # a hexagon is a card if it shows this many symbols
    min_card_paper: float = 0.6    # and this much bare paper
    min_card_border: float = 0.5   # and this much dark border band
    # an outline `_reseat` found again (see `cards.reseat_paper`) is trusted only when the card
    # shows itself whole: nearly all its paper and border band where the print puts them (a
    # hand's blurred edge over a card passes a lower threshold as paper too, and its hull
    # is then still a hexagon)
    min_reseat_paper: float = 0.88
    min_reseat_border: float = 0.88
    min_paper_ok: float = 0.65     # paper samples that must look like paper for a whole card
                                   # (each symbol also needs paper beside it: `symbols`)
    min_border_ok: float = 0.55    # border samples that must look dark (the band is a few px
                                   # wide: blur gives it a saturated table's hue beside it)
    min_partial_area: float = 0.2  # a partial blob covers at least this much of a card face
    max_partial_steps: int = 3     # and lies at most this many cells from a placed card
    min_partial_symbols: int = 2   # and shows at least this many readable symbols
    min_partial_border: float = 0.35  # and this much of its dark border band
    min_partial_paper: float = 0.35   # and this much bare paper
    probe_paper: float = 0.5       # a free cell next to the cards is searched for a card whose
                                   # outline was lost (merged with the table) when the cell's
                                   # predicted pose shows this much paper and border, 4 symbols
                                   # (or nearly all its paper and band, 2 symbols: `_searched`)
    probe_mask: float = 0.3        # (read only where this much of its paper is on the mask,
                                   # or the frame shows a card's contrast: `_paper_in_border`)
    probe_mask_far: float = 0.85   # a free cell two steps out is read only where its paper is
                                   # nearly all on the mask: a card merged with a hand or cloth
                                   # whose neighbours are hidden (each probe costs a read)
    min_probe_ok: float = 0.85     # a probed card is whole when this much of its paper and of
                                   # its border band look right at the best pose, all six read
    min_probe_lit: float = 0.75    # (or this much of its band, the places missing all lit:
                                   # `_band_lit`)


@dataclass(frozen=True)
class ReadResult:
    """Everything the reader worked out for one frame (the observation plus its evidence)."""

    observation: HexelObservation
    view: TableView
    lattice: GrownLattice | None = None
    poses: tuple[Pose, ...] = ()
    reads: tuple[CardRead, ...] = ()
    stages: dict[str, np.ndarray] = field(default_factory=dict)
    kept: bool = False    # the last full read's result: nothing in the frame changed since


class HexelReader:
    """Reads Hex'el tables. Keeps the table calibration between frames (a fixed camera) and, with
    `keep_still`, the last full read for frames in which nothing changed."""

    def __init__(self, edition: str = "holodex", *, model: ColourModel | None = None,
                 table: TableCalibration | None = None, camera: CameraCalibration | None = None,
                 find_markers: bool = True, params: ReaderParams = ReaderParams(),
                 keep_still: bool = True) -> None:
        self.edition = edition
        self.model = model or builtin_model(edition)
        if self.model.edition != edition:
            raise ValueError(f"colour model is for {self.model.edition!r}, not {edition!r}")
        self.camera = camera
        self.view = TableView(table, camera)
        self.find_markers = find_markers
        self.params = params
        self._card_px: float | None = None
        self._own: dict[int, CardRead] = {}
        self._shapes: tuple | None = None   # `_detect`'s last shapes
        self._refound: dict[int, tuple[Blob, list[CardFit]]] = {}   # `_shrunk_fits`' memo
        self._ahead: tuple[tuple, _Layout] | None = None   # `_lay_out_ahead`'s layout
        self._since_search = MARKER_RETRY_FRAMES   # frames since the last marker search
        self.keep_still = keep_still
        self._still: StillFrames[ReadResult] = StillFrames()
        self._doubt: dict[str, int] = {}   # letter in doubt -> full reads it stays so

    def card_px(self, shape: tuple[int, ...]) -> float | None:
        """Expected card width in frame pixels: from the last frame's cards, else from the table
        calibration and the printed size, else unknown."""
        if self._card_px is not None:
            return self._card_px
        if self.view.calibrated and self.view.table is not None:
            w, h = self.view.table.play_area_mm
            c = np.array([[w / 2.0, h / 2.0], [w / 2.0 + HEXEL_FACE.flat_to_flat_mm, h / 2.0]])
            p = self.view.to_image(c)
            return float(np.linalg.norm(p[1] - p[0]))
        return 2.0 * shape[1] / 1280.0 * 60.0   # a first guess; corrected after the frame

    def calibrate(self, frame: np.ndarray, marker_mm: float = 40.0) -> bool:
        """Look for the table markers (all four, or three when one is covered); on success use
        them from now on. A calibration from all four is not given up for one from three."""
        table = calibrate_table(frame, marker_mm, self.camera)
        if table is None:
            return False
        current = self.view.table
        if current is None or table.complete or not current.complete:
            self.view = TableView(table, self.camera)
            self._card_px = None
        return True

    def _detect(self, frame: np.ndarray, scale: float, roi: tuple[int, int, int, int] | None,
                card_area: float | None, shapes: tuple | None = None
                ) -> tuple[np.ndarray, list[CardFit], list[CardFit], list[Blob]] | None:
        """Stage 1 at `scale`: (paper mask, whole cards, hexagons that are not cards, the other
        blobs), the hexagons taken from the mask's blobs, blobs two cards wide cut at their
        necks (`_recut`) and blobs that may hold a card whose paper the mask lost found again
        (`_reseat`). The shapes, which no colour decides, are kept in `self._shapes`: given
        as `shapes`, only the cards among them are told again (with another colour model).
        None at a scale below 1 where the cards it would find are surely too small for it
        (`_surely_small`: the frame is then worked at full size, and nothing is read here)."""
        view, p = self.view, self.params.detect
        if shapes is None:
            mask = paper_mask(frame, scale, p, roi)
            blobs = paper_blobs(mask, scale, view, p)
            fitted: dict[int, CardFit] = {}
            candidates, rest = fit_hexagons(blobs, p, not view.calibrated, card_area, fitted)
            candidates, rest = _recut(mask, scale, view, p, candidates, rest, card_area)
            found, rest = _reseat(frame, scale, view, p, blobs, candidates, rest, card_area,
                                  fitted)
            shapes = (mask, candidates, found, rest)
            self._refound = {}
            if scale < 1.0 and self._surely_small(frame, scale, [*candidates, *found],
                                                  card_area):
                return None
        first_telling = self._shapes is not shapes
        self._shapes = shapes
        mask, candidates, found, rest = shapes
        hook = None
        if first_telling:
            def hook(whole: list[CardFit], not_cards: list[CardFit]) -> list[StagedRead]:
                return self._lay_out_ahead(frame, mask, scale, whole, not_cards, rest)
        whole, not_cards = _together(self._tell(frame, scale, [*candidates, *found],
                                                {id(f) for f in found}, card_area, hook))[0]
        return mask, whole, not_cards, rest

    def _lay_out_ahead(self, frame: np.ndarray, mask: np.ndarray, scale: float,
                       whole: list[CardFit], not_cards: list[CardFit], rest: list[Blob]
                       ) -> list[StagedRead]:
        """The lattice and the free cells' read (`_lay_out`) for the cards the first reads of
        the frame's first telling say are `whole` (`not_cards` not), begun so that their first
        pass joins that telling's re-read pass; kept in `self._ahead` for `_read_frame`,
        which takes it where the telling's final say, and the reader's colour model, are the
        same (nearly always). Returns the reads to make in that pass (none where cards too
        small for a halved frame, or none at all, make that unlikely)."""
        self._ahead = None
        if not whole or (scale < 1.0 and _small(_card_px(whole, self.view), self.params.detect)):
            return []
        rest = _with_blobs(rest, not_cards)
        layout = self._lay_out(frame, mask, scale, whole, rest)
        self._ahead = (_layout_key(self.model, mask, scale, whole, rest), layout)
        return [layout.staged, layout.far_staged]

    def _lay_out(self, frame: np.ndarray, mask: np.ndarray, scale: float,
                 whole: list[CardFit], rest: list[Blob]) -> _Layout:
        """The lattice grown on the `whole` cards (`_grow`), their cells and poses, and the
        read of the free cells to probe (`_probe_cells`, and where `_refit_cells` moves them)
        and of the partial blobs among `rest` (`_partials`), not yet begun. Taken from
        `self._ahead` where that was laid out for the same cards, blobs, mask, scale and
        colour model."""
        key = _layout_key(self.model, mask, scale, whole, rest)
        ahead, self._ahead = self._ahead, None
        if ahead is not None and _same_key(ahead[0], key):
            return ahead[1]
        view, p = self.view, self.params
        lat, whole, off = _grow(whole, view, p)
        cells = [lat.cells[i] for i in range(len(whole))]
        poses = [Pose(f.centre, f.apothem, _facing(f.angle, lat.rect_angle_e(i)), lat.turn,
                      f.shape) for i, f in enumerate(whole)]
        taken = set(cells)
        # the free cells to probe and the partial blobs are read in one pass (a probed card
        # found at a partial blob's cell replaces it)
        cand, doubtful = _probe_cells(mask, scale, lat, taken, view, p, frame,
                                      [f.iou for f in whole])
        # a cell whose band shows only in part is also read where `_refit` moves it (a card
        # laid a little off the lattice), in the same pass, and probed from the better pose
        moved = _refit_cells(frame, view, cand, doubtful)
        part_cells, part_poses = _partials(rest, lat, set(taken), p)
        # on a calibrated table, the free cells elsewhere in the play area that show a card's
        # contrast about where the regular lattice puts them (`_far_cells`): read in the same
        # passes, as a read of their own (a read's lamp is chosen over its own cards, and the
        # cards above must read as they did), and probed on their own
        far = _far_cells(frame, mask, scale, lat, view,
                         taken | set(cand) | set(doubtful) | set(part_cells))
        n_probe = len(cand) + len(moved)
        staged = StagedRead(frame, [*cand.values(), *moved.values(), *part_poses], view,
                            self.model, [True] * n_probe + [False] * len(part_poses))
        far_staged = StagedRead(frame, list(far.values()), view, self.model)
        return _Layout(lat, whole, off, cells, poses, taken, cand, moved, part_cells,
                       part_poses, staged, far, far_staged)

    def _tell(self, frame: np.ndarray, scale: float, fits: list[CardFit], reseated: set[int],
              card_area: float | None,
              hook: Callable[[list[CardFit], list[CardFit]], list[StagedRead]] | None = None
              ) -> _Passes[tuple[list[CardFit], list[CardFit]]]:
        """(whole cards, hexagons that are not cards) among the hexagons `fits`, made pass by
        pass (`_Passes`): those that show symbols at the symbol places, of one size (those
        whose `id` is in `reseated`, outlines found again, their paper and border nearly all
        there: `_cards_of`), each card's reading at its own pose kept in `self._own` for the
        verdict; then those once the hexagons turned down, and the cards whose outline fits
        their hexagon only loosely (LOOSE_FIT_IOU) and that do not read whole, have had their
        paper found again (`_shrunk_fits`). A soft shadow's edge across a card lifts the paper
        mask's wide local mean on the card's lit side: the blob left still fits a hexagon, only
        a smaller one, and fails the card test; a bright spot of the table beside a card merges
        with its paper and pulls the fitted outline off the card. The card's own paper against
        its own border band depends on neither. An outline found so counts as `_reseat`'s do
        (nearly all its paper and border band there), when it reads whole there (all six
        symbols: no pose search follows) and its size agrees with the cards', in place of the
        hexagon it came from (`_turned_down`); the others are read alone (the cards' reads
        stand) and their hexagons stay as they were. Where the hexagons' reads have a re-read
        pass, the hexagons `_shrunk_fits` finds again as their first reads say (nearly always
        those their final reads say) are read in that pass too, and those reads stand where the
        final reads try the same. Where none is found again so, `hook` is given the cards and
        the hexagons not cards as the first reads say (where the reads take one pass, or the
        final reads find some again, as they say), and the reads it returns are made in this
        telling's further passes too (`_lay_out_ahead`). (Where some are found again as the first
        reads say, they replace a card a time in four: the reads begun for the cards as they
        stand would then be wasted.)"""
        staged = StagedRead(frame, _own_poses(fits), self.view, self.model)
        yield [staged]
        ahead = None
        extra: list[StagedRead] = []
        if not staged.done:
            assert staged.first is not None
            said = _cards_of(fits, staged.first, self.params, reseated)
            guess = self._turned_down_guess(frame, scale, fits, staged.first, reseated,
                                            card_area, said)
            if guess:
                ahead = (guess, StagedRead(frame, _own_poses(guess), self.view, self.model))
            elif hook is not None:
                extra = hook(*said)
            yield [staged, *([ahead[1]] if ahead else []), *extra]
        assert staged.reads is not None
        self._own = {id(f): r for f, r in zip(fits, staged.reads, strict=True)}
        whole, not_cards = _cards_of(fits, staged.reads, self.params, reseated)
        found, came_from = self._turned_down_tries(frame, scale, fits, staged.reads, reseated,
                                                   card_area, (whole, not_cards))
        if not found:
            return whole, not_cards
        if hook is not None and ahead is None and not extra:   # (read in one pass)
            extra = hook(whole, not_cards)
        again = (ahead[1] if ahead is not None and list(map(id, ahead[0])) == list(map(id, found))
                 else StagedRead(frame, _own_poses(found), self.view, self.model))
        while not again.done:
            yield [again, *(s for s in extra if not s.done)]
        assert again.reads is not None
        return self._turned_down(whole, not_cards, found, came_from, again.reads)

    def _turned_down_guess(self, frame: np.ndarray, scale: float, fits: list[CardFit],
                           first: list[CardRead], reseated: set[int], card_area: float | None,
                           said: tuple[list[CardFit], list[CardFit]]) -> list[CardFit]:
        """The hexagons `_shrunk_fits` finds again as the `first` reads of `fits` say (`said`:
        `_cards_of` them), read ahead by `_tell`."""
        return self._turned_down_tries(frame, scale, fits, first, reseated, card_area, said)[0]

    def _turned_down_tries(self, frame: np.ndarray, scale: float, fits: list[CardFit],
                           reads: list[CardRead], reseated: set[int], card_area: float | None,
                           verdict: tuple[list[CardFit], list[CardFit]] | None = None
                           ) -> tuple[list[CardFit], dict[int, CardFit]]:
        """`_shrunk_fits` as `_tell` tries it when `reads` are the reads of `fits`
        (`verdict`: `_cards_of` them, when the caller has it)."""
        whole, not_cards = verdict or _cards_of(fits, reads, self.params, reseated)
        own = dict(zip(map(id, fits), reads, strict=True))
        loose = [f for f in whole if f.iou < LOOSE_FIT_IOU
                 and not _whole_read(own[id(f)], self.params)]
        return _shrunk_fits(frame, scale, self.view, self.params.detect, whole,
                            [*not_cards, *loose], card_area, self._refound)

    def _turned_down(self, whole: list[CardFit], not_cards: list[CardFit],
                     found: list[CardFit], came_from: dict[int, CardFit],
                     reads: list[CardRead]) -> tuple[list[CardFit], list[CardFit]]:
        """`_tell`'s verdict on the hexagons `found` again (`reads`: theirs)."""
        ids = {id(f) for f in found}
        cards, _ = _cards_of(found, reads, self.params, ids, sized=False)
        self._own = {**self._own, **dict(zip(map(id, found), reads, strict=True))}
        cards = [f for f in cards if _whole_read(self._own[id(f)], self.params)]
        replaced = {id(came_from[id(f)]) for f in cards}
        others = [f for f in whole if id(f) not in replaced]
        sized = {id(f) for f in consistent_sizes([*others, *cards])[0]}
        cards = [f for f in cards if id(f) in sized]
        gone = {id(came_from[id(f)]) for f in cards}
        return ([*(f for f in whole if id(f) not in gone), *cards],
                [f for f in not_cards if id(f) not in gone])

    def _surely_small(self, frame: np.ndarray, scale: float, fits: list[CardFit],
                      card_area: float | None) -> bool:
        """Whether the cards `_detect` finds among the hexagons `fits` (at `scale`, before
        any is read) are surely too small for the halved frame (`_small`), whatever their
        reads say: the cards it keeps are some of `fits` and of the hexagons `_shrunk_fits`
        fits to their blobs' paper found again, and their median width is no more than the
        widest of all those (none at all: no card, too small as well). Those hexagons are
        fitted here, and remembered for `_shrunk_fits` (`_refound`), only where no hexagon
        of `fits` is wide enough already. A frame whose first guess of the cards' size
        (`card_px`, uncalibrated) halved it so is worked at full size straight away, without
        reading the cards at half size to learn that."""
        view, p = self.view, self.params.detect
        if _wide_enough(fits, view, p):
            return False
        more = []
        for f in fits:
            blob = f.blob
            if blob.ragged or blob.touches_edge:
                continue   # (never tried by `_shrunk_fits`)
            seen = self._refound.get(id(blob))
            if seen is not None and seen[0] is blob:
                got = seen[1]
            else:
                got = _refit_paper(frame, blob, scale, view, p, card_area)
                self._refound[id(blob)] = (blob, got)
            more += got
        return not _wide_enough(more, view, p)

    def read(self, frame: np.ndarray, t: float = 0.0, seq: int = 0,
             keep_stages: bool = False) -> ReadResult:
        """Read one BGR frame (a still table, with `keep_still`: by keeping the last full read)."""
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("the reader needs a BGR colour frame (H x W x 3)")
        self._since_search += 1
        if not self.keep_still:
            return self._read(frame, t, seq, keep_stages)
        view, last = self.view, self._still.last
        search_due = (self.find_markers and (view.table is None or not view.table.complete)
                      and self._since_search >= MARKER_RETRY_FRAMES)
        if (self._still.still(frame) and last is not None and not keep_stages and not search_due
                and last.view is view):
            obs = replace(last.observation, t=t, frame_seq=seq)
            return replace(last, observation=obs, stages={}, kept=True)
        result = self._read(frame, t, seq, keep_stages)
        self._still.read(result)
        return result

    def _read(self, frame: np.ndarray, t: float, seq: int, keep_stages: bool) -> ReadResult:
        """Read one BGR frame in full (with the table's ink hues where they are turned, see
        `_table_inks`; the reader's own model again afterwards)."""
        base = self.model
        try:
            return self._read_frame(frame, t, seq, keep_stages)
        finally:
            self.model = base

    def _table_inks(self, plain: list[CardFit], cores: np.ndarray
                    ) -> list[tuple[ColourModel, str]]:
        """The colour models to tell the frame's cards again with, first to last (see
        `_read_frame`), each with the letters whose ink it turns at full strength: our model
        with the ink hues of the printer at the table and, where some card reads a '?', their
        strength (a paler print) (`inks.adapt_inks`), then, where that faded an ink, with the
        hues alone; none when no ink is turned or faded. They are measured on the symbol cores
        (`cores`) of the hexagons whose paper and border band say they are cards whatever
        their symbols read (`plain`, as `_plain` gives them, all in the frame: a card cut by
        the frame's edge reads '?' for that, not for its inks). Another printer's red, turned
        towards magenta, leaves every red '?', a paler one too, and a turned yellow may pass
        for red: the frame is read with the first model under which more cards read whole, or
        a symbol read before reads as another letter, or a letter of an ink turned at full
        strength as '?' (our model's reading of it is in doubt; a full ink that the paler one
        leaves '?' is not). A turned ink can also take a faint tint for itself (a grey ring's,
        bled from warm paper): a frame that reads no better with the table's inks and where no
        turned ink is in doubt keeps our model. Only a frame with an ink turned or faded pays
        for another telling, and where every card reads whole only one turned by
        FIRM_TURN_DEG (`inks`) or more. Every count of cards read whole here is taken before the
        re-read by the lamp a card's own band shows (`CardRead.first_symbols`, see
        `symbols._band_white`): that re-read can complete a card of another printer's inks
        under our model, and must not stand in for the telling with the table's inks."""
        doubt = any("?" in self._own[id(f)].first_symbols for f in plain)
        inks = adapt_inks(self.model, cores, doubt)
        if inks is None:
            return []
        turned = adapt_inks(self.model, cores, doubt, fade=False)
        if turned is None:
            return [(inks, "")]
        # (the letters whose ink is turned at full strength: our reading of them is in doubt)
        full = _changed(self.model, turned, inks)
        return [(inks, full)] if turned.protos == inks.protos else [
            (inks, full), (turned, _changed(self.model, turned))]

    def _plain(self, frame: np.ndarray, fits: list[CardFit]) -> tuple[list[CardFit], np.ndarray]:
        """The hexagons of `fits` whose paper and border band say they are cards whatever
        their symbols read, and their symbols' cores (`inks.symbol_cores`, each card against
        the white reference its read found; cards x 6 x 3, cards not all in the frame left
        out of both)."""
        p, own = self.params, self._own
        plain = [f for f in fits if own[id(f)].paper_ok >= p.min_card_paper
                 and own[id(f)].border_ok >= p.min_card_border]
        poses = [Pose(f.centre, f.apothem, f.angle, 1, f.shape) for f in plain]
        whites = np.array([own[id(f)].white_bgr for f in plain]).reshape(-1, 3)
        cores, inside = symbol_cores(frame, poses, whites, self.view)
        return [f for f, ok in zip(plain, inside, strict=True) if ok], cores.reshape(-1, 6, 3)

    def _confused(self, frame: np.ndarray, plain: list[CardFit], cores: np.ndarray,
                  found_poses: list[Pose], found_reads: list[CardRead]) -> str:
        """The letters in doubt on this frame (`_held_doubt`): `inks.confused_letters` of the
        plain hexagons' own reads (`plain`, `cores`: `_plain`'s) and of the cards found by
        probing, read whole at their probed poses (never plain hexagons, yet reported)."""
        whites = np.array([r.white_bgr for r in found_reads]).reshape(-1, 3)
        more, inside = symbol_cores(frame, list(found_poses), whites, self.view)
        read = [self._own[id(f)].first_symbols for f in plain]
        read += [r.first_symbols for r, ok in zip(found_reads, inside, strict=True) if ok]
        both = np.concatenate([cores.reshape(-1, 3), more]).reshape(-1, 6, 3)
        return self._held_doubt(confused_letters(self.model, both, read))

    def _held_doubt(self, seen: str) -> str:
        """The letters in doubt on this frame: those whose ink this frame shows in doubt
        (`seen`, `inks.confused_letters`) and those a frame did within the last DOUBT_READS
        full reads. A print does not change from frame to frame, but a frame with few cards in
        view (the opening line, a hand over the rest) seldom shows both of a letter's inks,
        while it may still hold a symbol read for the wrong one."""
        self._doubt = {n: k - 1 for n, k in self._doubt.items() if k > 1}
        self._doubt.update(dict.fromkeys(seen, DOUBT_READS))
        return "".join(sorted(self._doubt))

    def _read_frame(self, frame: np.ndarray, t: float, seq: int, keep_stages: bool
                    ) -> ReadResult:
        """`_read`'s work."""
        table = self.view.table
        # marker search costs more than a read: on the first frame, then at most every 30th
        # (also while only three markers were seen, to take all four when the fourth shows)
        if (self.find_markers and (table is None or not table.complete)
                and self._since_search >= MARKER_RETRY_FRAMES):
            self.calibrate(frame)
            self._since_search = 0
        view, p = self.view, self.params
        notes = [] if view.calibrated else [
            "uncalibrated: table markers not found, working in image pixels (assumes a camera "
            "looking nearly straight down)"]
        if view.table is not None and not view.table.complete:
            hidden = [i for i in range(4) if i not in view.table.markers]
            notes.append(f"calibrated from three table markers (marker {hidden[0]} not seen, or "
                         "left out as not fitting the others)")
        stages: dict[str, np.ndarray] = {"0_input": frame} if keep_stages else {}
        scale = _work_scale(self.card_px(frame.shape), p.detect)
        roi = _play_roi(view, frame.shape)
        card_area = _card_area_plane(view)
        detected = self._detect(frame, scale, roi, card_area)
        px = None if detected is None else _card_px(detected[1], view)
        if scale < 1.0 and _small(px, p.detect):
            scale = 1.0   # the guess was wrong: cards too small for the halved frame
            detected = self._detect(frame, scale, roi, card_area)
            assert detected is not None
            px = _card_px(detected[1], view)
        assert detected is not None
        mask, whole, not_cards, rest = detected
        plain, cores = self._plain(frame, [*whole, *not_cards])
        # the cards told again with the table's inks (see `_table_inks`), the first taken
        for inks, turned in self._table_inks(plain, cores):
            first = _Telling(self.model, mask, whole, not_cards, rest, px, self._own)
            self.model = inks
            told = self._detect(frame, scale, roi, card_area, self._shapes)
            assert told is not None
            mask, whole, not_cards, rest = told
            px = _card_px(whole, view)
            if (_complete(whole, self._own) > _complete(first.whole, first.own)
                    or _doubted([*first.whole, *first.not_cards], first.own,
                                [*whole, *not_cards], self._own,
                                turned)):
                notes.append(f"ink hues measured on the table: {inks.source.split(': ')[-1]}")
                plain, cores = self._plain(frame, [*whole, *not_cards])
                break
            self.model, mask, whole, not_cards, rest, px, self._own = first
        rest = _with_blobs(rest, not_cards)
        self._card_px = px or self._card_px
        if keep_stages:
            stages["1_paper_mask"] = mask
            stages["2_hexagons"] = _draw_blobs(frame, whole, rest)
        if not whole:
            self._ahead = None
            obs = HexelObservation((), view.calibrated, t, seq, (*notes, "no whole card found"))
            return ReadResult(obs, view, stages=stages)
        (lat, whole, off, cells, poses, taken, cand, moved, part_cells, part_poses,
         staged, far, far_staged) = self._lay_out(frame, mask, scale, whole, rest)
        if off:
            notes.append(f"{off} card(s) off the lattice ignored")
        n_probe = len(cand) + len(moved)
        read_together([s for s in (staged, far_staged) if s.first is None])   # (not begun ahead)
        # the probe's first pass joins this read's re-read pass where the first reads already
        # say where it starts (`_probe` checks that the final reads say the same)
        ahead = far_ahead = None
        if not staged.done:
            assert staged.first is not None
            ahead = _coarse_ahead(frame, cand, staged.first[:len(cand)], moved,
                                  staged.first[len(cand):n_probe], view, self.model, p,
                                  (part_cells, part_poses, staged.first[n_probe:]))
        if not far_staged.done:
            assert far_staged.first is not None
            far_ahead = _coarse_ahead(frame, far, far_staged.first, {}, [], view, self.model, p)
        read_together([staged, far_staged, *(a[1] for a in (ahead, far_ahead) if a)])
        first = staged.reads
        assert first is not None and far_staged.reads is not None
        # a partial blob's cell is searched as a free cell is (`_better`)
        start, start_reads = _better(cand, first[:len(cand)], moved, first[len(cand):n_probe],
                                     p, (part_cells, part_poses, first[n_probe:]))
        reads = [_reorient(self._own[id(f)], f, pose) for f, pose in zip(whole, poses,
                                                                          strict=True)]
        # the probe (and on from what it finds) and the re-posing of ragged cards, pass by
        # pass together: neither depends on the other
        (found_cells, found_poses, found_reads), _ = _together(
            _probe_all(frame, start, start_reads, view, self.model, p, ahead, mask, scale, lat,
                       taken | set(start)),
            _repose_ragged(frame, whole, lat, poses, reads, view, self.model, p))
        # (a far cell those probes reached on from a card they found is theirs)
        far_reads = [r for k, r in zip(far, far_staged.reads, strict=True)
                     if k not in found_cells]
        far = {k: q for k, q in far.items() if k not in found_cells}
        if far:
            more = _together(_probe_all(frame, far, far_reads, view, self.model, p, far_ahead,
                                        mask, scale, lat,
                                        taken | set(start) | set(far) | set(found_cells)))[0]
            found_cells, found_poses, found_reads = (
                a + b for a, b in zip((found_cells, found_poses, found_reads), more,
                                      strict=True))
        if found_cells:
            notes.append(f"{len(found_cells)} card(s) found by probing the lattice")
        found = set(found_cells)
        kept = [k for k, c in enumerate(part_cells) if c not in found]
        part_cells = [part_cells[k] for k in kept]
        part_poses = [part_poses[k] for k in kept]
        reads += [first[n_probe + k] for k in kept]
        confused = self._confused(frame, plain, cores, found_poses, found_reads)
        if confused:
            notes.append(ink_doubt_note(confused))
            reads = [_blanked(r, confused) for r in reads]
            found_reads = [_blanked(r, confused) for r in found_reads]
        # (a symbol darker than the ink its hue names is reported unread, once the ink doubt
        # has seen it read: `symbols.INK_RIVAL_DEG`)
        reads = [undimmed(r) for r in reads]
        found_reads = [undimmed(r) for r in found_reads]
        all_poses = tuple(poses + found_poses + part_poses)
        n, m = len(poses), len(poses) + len(found_poses)
        at = _centres_px(all_poses, view)
        seen = [_verdict(tuple(int(v) for v in c), f.iou, r, xy, p)
                for c, f, r, xy in zip(cells, whole, reads[:n], at[:n], strict=True)]
        seen += [_verdict(c, p.detect.min_iou, r, xy, p)
                 for c, r, xy in zip(found_cells, found_reads, at[n:m], strict=True)]
        for c, r, xy in zip(part_cells, reads[n:], at[m:], strict=True):
            if (r.letters >= p.min_partial_symbols
                    and r.border_ok >= p.min_partial_border and r.paper_ok >= p.min_partial_paper):
                seen.append(_occluded(c, r, xy))
        seen.sort(key=lambda s: (s.cell[1], s.cell[0]))
        obs = HexelObservation(tuple(seen), view.calibrated, t, seq, tuple(notes), confused)
        if keep_stages:
            stages["3_lattice"] = _draw_lattice(frame, lat, view, cells, poses, part_cells,
                                                 part_poses)
            stages["4_samples"] = _draw_samples(frame, all_poses, view)
            from .annotate import annotate

            stages["5_result"] = annotate(frame, obs, all_poses, view)
        all_reads = tuple(reads[:len(poses)] + found_reads + reads[len(poses):])
        return ReadResult(obs, view, lat, all_poses, all_reads, stages)


class _Layout(NamedTuple):
    """`HexelReader._lay_out`'s lattice, cells and poses of the cards on it, and the read of
    the free cells to probe and the partial blobs' cells."""

    lat: GrownLattice
    whole: list[CardFit]            # the cards placed on the lattice
    off: int                        # and how many were left off it
    cells: list[tuple[int, int]]
    poses: list[Pose]
    taken: set[tuple[int, int]]
    cand: dict[tuple[int, int], Pose]    # free cells to probe (`_probe_cells`)
    moved: dict[tuple[int, int], Pose]   # and where `_refit_cells` moved some
    part_cells: list[tuple[int, int]]    # partial blobs' cells (`_partials`)
    part_poses: list[Pose]
    staged: StagedRead              # the read of all those (cand, moved, partials)
    far: dict[tuple[int, int], Pose]     # free cells farther on (`_far_cells`)
    far_staged: StagedRead          # and their read, a read of its own


def _layout_key(model: ColourModel, mask: np.ndarray, scale: float, whole: list[CardFit],
                rest: list[Blob]) -> tuple:
    """What `HexelReader._lay_out` depends on, compared by `_same_key` (the frame and view
    are the read's own)."""
    return (model, mask, scale, tuple(whole), tuple(rest))


def _same_key(a: tuple, b: tuple) -> bool:
    """Whether two `_layout_key`s are of the same objects (the same numbers for the scale)."""
    (model_a, mask_a, scale_a, whole_a, rest_a), (model_b, mask_b, scale_b, whole_b, rest_b) = a, b
    return (model_a is model_b and mask_a is mask_b and scale_a == scale_b
            and len(whole_a) == len(whole_b) and len(rest_a) == len(rest_b)
            and all(x is y for x, y in zip(whole_a, whole_b, strict=True))
            and all(x is y for x, y in zip(rest_a, rest_b, strict=True)))


def _with_blobs(rest: list[Blob], not_cards: list[CardFit]) -> list[Blob]:
    """The blobs `rest` and those of the hexagons `not_cards` that are not ragged (partial
    evidence, `_partials`)."""
    return rest + [f.blob for f in not_cards if not f.blob.ragged]


def _own_poses(fits: list[CardFit]) -> list[Pose]:
    """Each hexagon's card pose at its own fit (edge 0 at its fitted angle)."""
    return [Pose(f.centre, f.apothem, f.angle, 1, f.shape) for f in fits]


def _cards_of(fits: list[CardFit], reads: list[CardRead], p: ReaderParams,
              reseated: frozenset[int] | set[int] = frozenset(), sized: bool = True
              ) -> tuple[list[CardFit], list[CardFit]]:
    """(cards, others) of the hexagons `fits` read `reads` (`HexelReader._tell`): those that
    show min_card_symbols, min_card_paper and min_card_border (hexagons whose `id` is in
    `reseated`, outlines found again, min_reseat_paper and min_reseat_border) and whose sizes
    agree (`consistent_sizes`; `sized=False`: left to the caller, which has the other cards)."""
    cards, others = [], []
    for f, r in zip(fits, reads, strict=True):
        shows = r.letters >= p.min_card_symbols
        ok = shows and r.paper_ok >= p.min_card_paper and r.border_ok >= p.min_card_border
        if id(f) in reseated:
            ok = ok and r.paper_ok >= p.min_reseat_paper and r.border_ok >= p.min_reseat_border
        (cards if ok else others).append(f)
    if not sized:
        return cards, others
    cards, dropped = consistent_sizes(cards)
    return cards, others + dropped


class _Telling(NamedTuple):
    """One telling of a frame's hexagons (`HexelReader._detect` with one colour model), kept
    while the frame is told again with the table's inks."""

    model: ColourModel
    mask: np.ndarray
    whole: list[CardFit]
    not_cards: list[CardFit]
    rest: list[Blob]
    px: float | None
    own: dict[int, CardRead]


def _complete(cards: list[CardFit], own: dict[int, CardRead]) -> int:
    """How many of `cards` read all six symbols at their own pose (before any re-read by the
    lamp a card's own band shows, `CardRead.first_symbols`: the table's inks are decided first)."""
    return sum("?" not in own[id(f)].first_symbols for f in cards)


def _changed(model: ColourModel, turned: ColourModel, kept: ColourModel | None = None) -> str:
    """The letters whose ink `turned` holds otherwise than `model` (and, given `kept`, `kept`
    holds as `turned` does: a letter `kept` also fades is left out, since a symbol that our
    full ink read and the paler one leaves '?' is no sign that ours misread it)."""
    kept = kept or turned
    return "".join(n for n, a, b, c in zip(model.names, model.protos, turned.protos, kept.protos,
                                           strict=True) if a != b and b == c)


def _doubted(fits: list[CardFit], own: dict[int, CardRead], other: list[CardFit],
             other_own: dict[int, CardRead], letters: str) -> bool:
    """Whether a hexagon of `fits` read (at its own pose) a symbol that the same hexagon of
    `other` (by centre) reads as another letter, or, when it is one of `letters`, as '?' (both
    as read before any re-read by the lamp a card's own band shows: `CardRead.first_symbols`)."""
    seen = {tuple(np.round(f.centre, 3)): own[id(f)].first_symbols for f in fits}
    for f in other:
        a, b = seen.get(tuple(np.round(f.centre, 3))), other_own[id(f)].first_symbols
        if a is not None and any(x != y and x != "?" and (y != "?" or x in letters)
                                 for x, y in zip(a, b, strict=True)):
            return True
    return False


def _blanked(read: CardRead, letters: str) -> CardRead:
    """`read` with every symbol read as one of `letters` unread ('?', confidence 0)."""
    gone = [c in letters for c in read.symbols]
    if not any(gone):
        return read
    return replace(read, symbols="".join("?" if g else c for g, c in zip(gone, read.symbols,
                                                                        strict=True)),
                   edge_confidence=tuple(0.0 if g else e for g, e in zip(
                       gone, read.edge_confidence, strict=True)))


def _reorient(read: CardRead, fit: CardFit, pose: Pose) -> CardRead:
    """A card read at its own pose (edge j at fit.angle - 60°·j) re-listed by lattice direction
    (direction d at pose.angle - turn·60°·d): the poses differ by k steps of 60°."""
    k = round(math.degrees(pose.angle - fit.angle) / 60.0)
    order = [((d - k) if pose.turn > 0 else (-k - d)) % 6 for d in range(6)]
    # built directly, not by dataclasses.replace (which re-inspects the fields for every card)
    return CardRead("".join([read.symbols[j] for j in order]),
                    tuple([read.edge_confidence[j] for j in order]), read.paper_ok,
                    read.border_ok, read.in_frame, read.white_bgr,
                    dim=tuple([read.dim[j] for j in order]) if read.dim else ())


def _play_roi(view: TableView, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The frame rectangle (x0, y0, x1, y1) holding the play area the table markers mark out,
    with a margin of PLAY_MARGIN of its longer side plus one card all round: cards lie in the
    play area, so on a calibrated table the rest of the frame is not searched. None when
    uncalibrated (the whole frame is searched)."""
    if not view.calibrated or view.table is None:
        return None
    w, h = view.table.play_area_mm
    m = PLAY_MARGIN * max(w, h) + HEXEL_FACE.flat_to_flat_mm
    t = np.linspace(0.0, 1.0, 9)[:, None]   # points along each side follow lens distortion
    corners = np.array([[-m, -m], [w + m, -m], [w + m, h + m], [-m, h + m], [-m, -m]])
    edge = np.concatenate([a + t * (b - a) for a, b in itertools.pairwise(corners)])
    pts = view.to_image(edge)
    if not np.isfinite(pts).all():
        return None
    x0, y0 = np.floor(pts.min(0)).astype(int)
    x1, y1 = np.ceil(pts.max(0)).astype(int) + 1
    return (int(x0), int(y0), int(x1), int(y1))


def _card_area_plane(view: TableView) -> float | None:
    """A card face's area in plane units when the plane is the table in millimetres."""
    if not view.calibrated:
        return None
    apothem = HEXEL_FACE.flat_to_flat_mm / 2.0
    return 2.0 * math.sqrt(3.0) * apothem * apothem


def _paper_ref(candidates: list[CardFit], card_area: float | None) -> float | None:
    """A card's paper area in the plane: the median candidate's, or the printed size on a
    calibrated table (None when neither is known)."""
    if candidates:
        return float(np.median([f.blob.area_plane for f in candidates]))
    if card_area is not None:
        return card_area * (1.0 - HEXEL_FACE.border_frac) ** 2
    return None


def _recut(mask: np.ndarray, scale: float, view: TableView, params: DetectParams,
           candidates: list[CardFit], rest: list[Blob], card_area: float | None
           ) -> tuple[list[CardFit], list[Blob]]:
    """(candidates, rest) once each blob the size of two cards that failed the hexagon test
    has had its thin necks cut (`cards.cut_necks`): two cards side by side whose dark bands a
    blur or a glint bridged give their whole cards back. Only blobs from 1.8 to 3.2 times a
    card's paper (the median candidate's, or the printed size on a calibrated table) are cut,
    so the cost stays small; a blob that does not split, or none of whose pieces is a card,
    stays as it was."""
    ref = _paper_ref(candidates, card_area)
    if ref is None:
        return candidates, rest
    out = []
    for blob in rest:
        if blob.touches_edge or not 1.8 * ref <= blob.area_plane <= 3.2 * ref:
            out.append(blob)
            continue
        pieces = cut_necks(mask, blob, scale, view, ref, params)
        fits, others = (fit_hexagons(pieces, params, not view.calibrated, card_area)
                        if len(pieces) > 1 else ([], []))
        if fits:
            candidates = [*candidates, *fits]
            out.extend(others)
        else:
            out.append(blob)
    return candidates, out


def _reseat(frame: np.ndarray, scale: float, view: TableView, params: DetectParams,
            blobs: list[Blob], candidates: list[CardFit], rest: list[Blob],
            card_area: float | None, fits_of: dict[int, CardFit] | None = None
            ) -> tuple[list[CardFit], list[Blob]]:
    """(cards found, rest): the hexagons fitted once each blob that is no whole card but may
    hold one has had its paper found again by its own contrast (`cards.reseat_paper`), and
    `rest` less the blobs they came from. Tried: a blob from half to 1.8 times a card's paper
    whose hull is still roughly a hexagon (a card whose paper the mask kept only in part, or
    with a blurred spur of the table), or one of two to three cards' paper (cards whose border
    bands a blur bridged where `_recut` found no neck). The first level at which pieces fit as
    whole cards gives them, in place of the blob. (`fits_of`: the blobs' hexagons as
    `fit_hexagons` fitted them, `cards.fitted_card`.)"""
    ref = _paper_ref(candidates, card_area)
    if ref is None:
        return [], rest
    fitted = {id(f.blob) for f in candidates}
    markers = view.table.marker_centres_mm if view.calibrated and view.table else None
    found: list[CardFit] = []
    out = {id(b): b for b in rest}
    # the blobs no card came from: the rest, and the ragged ones no hexagon fitted (a blob
    # `_recut` split into cards is in neither)
    for blob in [*rest, *(b for b in blobs if b.ragged and id(b) not in fitted)]:
        size = blob.area_plane / ref
        if blob.touches_edge or not 0.5 <= size <= 3.2:
            continue
        if size < 1.8:
            if markers is not None and (np.linalg.norm(markers - blob.hull_plane.mean(0), axis=1)
                                        < view.table.marker_mm).any():
                continue   # a table marker's white square: no card lies on it
            if fitted_card(blob, not view.calibrated, fits_of).iou < 0.75:
                continue   # not even roughly a hexagon: a hand, a patch of table
        for pieces in reseat_paper(frame, blob, scale, view, params):
            fits, _ = fit_hexagons(pieces, params, not view.calibrated, card_area)
            if fits:
                found += fits
                out.pop(id(blob), None)
                break
    return found, list(out.values())


LOOSE_FIT_IOU = 0.95   # a card's outline matching its hexagon less than this may be pulled off


def _shrunk_fits(frame: np.ndarray, scale: float, view: TableView, params: DetectParams,
                 whole: list[CardFit], tried: list[CardFit], card_area: float | None,
                 memo: dict[int, tuple[Blob, list[CardFit]]] | None = None
                 ) -> tuple[list[CardFit], dict[int, CardFit]]:
    """(hexagons, the hexagon of `tried` each came from by `id`): fitted to the paper found
    again (`cards.reseat_paper`) in the blobs of the hexagons `tried`, from half to 1.8 times
    a card's paper, not ragged and clear of the frame's edge; the first level at which pieces
    fit as whole cards gives them, unless they fit only loosely (LOOSE_FIT_IOU) and a higher
    level's all fit tightly: a bright patch of the table beside a card (a pale stone, a lit
    spot of a photograph) can stay merged with its paper at the lowest level, which gives the
    same loose outline back, while a higher one parts them (`reseat_paper`). A blob's
    hexagons depend on the blob and the frame alone: `memo` (by the blob's `id`, kept with the
    blob) gives those of a blob tried before on this frame at this scale (the frame told again
    with the table's inks tries mostly the same blobs), and takes the new ones."""
    ref = _paper_ref(whole, card_area)
    found: list[CardFit] = []
    came_from: dict[int, CardFit] = {}
    if ref is None:
        return found, came_from
    for f in tried:
        blob = f.blob
        if blob.ragged or blob.touches_edge or not 0.5 <= blob.area_plane / ref <= 1.8:
            continue
        seen = None if memo is None else memo.get(id(blob))
        if seen is not None and seen[0] is blob:
            got = seen[1]
        else:
            got = _refit_paper(frame, blob, scale, view, params, card_area)
            if memo is not None:
                memo[id(blob)] = (blob, got)
        found += got
        came_from.update({id(g): f for g in got})
    return found, came_from


def _refit_paper(frame: np.ndarray, blob: Blob, scale: float, view: TableView,
                 params: DetectParams, card_area: float | None) -> list[CardFit]:
    """`_shrunk_fits`' hexagons for one blob: those of the first level of `reseat_paper` at
    which pieces fit as whole cards, or of a higher one whose pieces all fit tightly."""
    got: list[CardFit] = []
    for pieces in reseat_paper(frame, blob, scale, view, params):
        fits, _ = fit_hexagons(pieces, params, not view.calibrated, card_area)
        if fits and min(g.iou for g in fits) >= LOOSE_FIT_IOU:
            return fits
        got = got or fits   # (the first level that fits, should no higher one fit tightly)
    return got


def _card_px(cards: list[CardFit], view: TableView) -> float | None:
    """Median flat-to-flat width of the cards in frame pixels."""
    if not cards:
        return None
    return float(np.median(_card_widths(cards, view)))


def _card_widths(cards: list[CardFit], view: TableView) -> np.ndarray:
    """Each card's flat-to-flat width in frame pixels (`_card_px`), as measured there."""
    c = np.array([f.centre for f in cards], np.float64).reshape(-1, 2)
    dx = np.zeros_like(c)
    dx[:, 0] = [f.apothem for f in cards]
    p = view.to_image(np.concatenate([c - dx, c + dx]))
    return np.linalg.norm(p[len(cards):] - p[:len(cards)], axis=1)


# (a card's width is the median of all the cards', a sum of two halves, checked against the
# threshold with this margin for rounding)
WIDE_MARGIN = 1e-6


def _wide_enough(cards: list[CardFit], view: TableView, params: DetectParams) -> bool:
    """Whether some card of `cards` may be wide enough for the halved frame (`_small`)."""
    if not cards:
        return False
    return bool(0.5 * _card_widths(cards, view).max() >= params.min_card_px - WIDE_MARGIN)


def _small(px: float | None, params: DetectParams) -> bool:
    """Whether cards found in a halved frame, `px` wide (`_card_px`), are too small for it (or
    none were found)."""
    return px is None or 0.5 * px < params.min_card_px


def _grow(whole: list[CardFit], view: TableView, p: ReaderParams
          ) -> tuple[GrownLattice, list[CardFit], int]:
    """Cells by local lattice growth; cards it could not place consistently are left out. Where
    the growth from the card nearest the centroid leaves cards out (an arm across the layout,
    or a card it took for whole that is not), it is tried from one of those too, until every
    card was placed by some try or one placed more than half of them, and the try placing the
    most cards is kept (the first on a tie): a card on its own near the middle must not cost
    the others their cells. The lattice spacing is measured on the cards whose outline is
    whole (a ragged one, `cards.Blob`, is fitted a little small). The lattice is re-grown on
    the kept cards so its indices follow the returned list."""
    frames = [card_frame(f.centre, f.apothem, f.angle, f.shape) for f in whole]

    def grow(cards: list[CardFit], origin: int | None = None) -> GrownLattice:
        own = frames if cards is whole else [card_frame(f.centre, f.apothem, f.angle, f.shape)
                                             for f in cards]
        return grow_lattice(own, view, p.max_offset, p.max_turn_deg, origin=origin,
                            sized=[not f.blob.ragged for f in cards])

    lat = grow(whole)
    if len(lat.cells) == len(whole):
        return lat, whole, 0
    best, reached = lat, set(lat.cells)
    # (no further try once one placed more than half the cards: that is the layout)
    while len(reached) < len(whole) and 2 * len(best.cells) <= len(whole):
        start = min(set(range(len(whole))) - reached)
        other = grow(whole, start)
        reached |= set(other.cells)
        if len(other.cells) > len(best.cells):
            best = other
    keep = [whole[i] for i in sorted(best.cells)]
    lat = grow(keep)
    # the growth from another origin may place fewer (the cards it left out can be what held
    # the others together): keep only those, until a growth places every card it is given
    # (each pass drops at least one card; one card alone is always placed)
    while len(lat.cells) != len(keep):
        keep = [keep[i] for i in sorted(lat.cells)]
        lat = grow(keep)
    return lat, keep, len(whole) - len(keep)


def _facing(own: float, e_angle: float) -> float:
    """The card's own edge-normal angle turned by whole 60° steps to face lattice E."""
    step = math.pi / 3.0
    diff = (e_angle - own + math.pi) % (2.0 * math.pi) - math.pi
    return own + step * round(diff / step)


def _apothems(lat: GrownLattice) -> list[float]:
    """Every placed card's apothem in the plane (the root of its frame's |determinant|), all
    determinants in one call: the same LU per 2 x 2 matrix as one call each, bit for bit."""
    dets = np.linalg.det(np.array([f.s for f in lat.frames])).tolist()
    return [math.sqrt(abs(d)) for d in dets]


def _cell_pose(lat: GrownLattice, i: int, centre: np.ndarray, apothem: float | None = None
               ) -> Pose:
    """The pose of a card at plane point `centre` as placed card i sees it: that card's size
    (`apothem`, from `_apothems`, when the caller has it) and squash (so perspective is
    followed) and the lattice's orientation there."""
    frame = lat.frames[i]
    if apothem is None:
        apothem = math.sqrt(abs(np.linalg.det(frame.s)))
    shape = frame.s / apothem
    return Pose((float(centre[0]), float(centre[1])), apothem, lat.rect_angle_e(i), lat.turn,
                ((shape[0, 0], shape[0, 1]), (shape[1, 0], shape[1, 1])))


def _partials(rest: list[Blob], lat: GrownLattice, taken: set[tuple[int, int]],
              p: ReaderParams) -> tuple[list[tuple[int, int]], list[Pose]]:
    """Free cells holding a paper blob that fits inside the cell's card outline (the outline of
    the nearest placed card, moved to the cell, so perspective is followed)."""
    from .geometry import SQRT3

    cells, poses = [], []
    if not rest:
        return cells, poses
    apothems = _apothems(lat)
    smallest = min(apothems)
    for blob in rest:
        if blob.area_plane < p.min_partial_area * 2.0 * SQRT3 * smallest * smallest:
            continue
        c = blob.hull_plane.mean(0)
        found = lat.locate(c)
        if found is None:
            continue
        key, centre, i = found
        pose = _cell_pose(lat, i, centre, apothems[i])
        if blob.area_plane < p.min_partial_area * 2.0 * SQRT3 * pose.apothem * pose.apothem:
            continue
        if key in taken or _steps_out(key, lat.cells.values()) > p.max_partial_steps:
            continue
        outline = pose.to_plane(hexagon(np.zeros(2), 1.04, 0.0))
        inter, _ = cv2.intersectConvexConvex(blob.hull_plane.astype(np.float32),
                                             outline.astype(np.float32))
        if inter < 0.92 * blob.area_plane:
            continue
        taken.add(key)
        cells.append(key)
        poses.append(pose)
    return cells, poses


def _steps_out(cell: tuple[int, int], placed: Iterable[tuple[int, int]]) -> int:
    """How many lattice steps `cell` lies from the nearest of the `placed` cells (axial)."""
    return min(axial_distance(cell, c) for c in placed)


AXIAL_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# the twelve cells two steps away
RING_2 = ((2, 0), (2, -1), (2, -2), (1, -2), (0, -2), (-1, -1), (-2, 0), (-2, 1), (-2, 2),
          (-1, 2), (0, 2), (1, 1))
# the pose search around a probed cell's predicted pose: offsets (apothems), turns (degrees) and
# sizes (the predicted apothem is the neighbour's: a card one step nearer to or farther from the
# camera looks a few per cent larger or smaller, which the neighbour's frame does not follow)
_PROBE_SHIFTS = tuple((dx, dy, 0.0, 1.0) for dx in (-0.08, 0.0, 0.08)
                      for dy in (-0.08, 0.0, 0.08))
_PROBE_FINE = ((0.0, 0.0, -2.5, 1.0), (0.0, 0.0, 2.5, 1.0), (0.04, 0.0, 0.0, 1.0),
               (-0.04, 0.0, 0.0, 1.0), (0.0, 0.04, 0.0, 1.0), (0.0, -0.04, 0.0, 1.0),
               (0.0, 0.0, 0.0, 0.96), (0.0, 0.0, 0.0, 1.04))


def _probe_cells(mask: np.ndarray, scale: float, lat: GrownLattice, taken: set[tuple[int, int]],
                 view: TableView, p: ReaderParams, frame: np.ndarray | None = None,
                 fit_iou: list[float] | None = None
                 ) -> tuple[dict[tuple[int, int], Pose], dict[tuple[int, int], Pose]]:
    """The free cells one or two steps from placed cards where a card whose outline the paper
    mask lost may lie (see `_probe`), each at the pose its placed card's lattice steps predict
    (a cell next to a card from that card's step; next to several, given each placed card's
    `fit_iou`, from one whose outline fits its hexagon tightly, LOOSE_FIT_IOU, where one does):
    those whose paper places lie mostly on the paper mask (nearly all of it two steps out), or,
    next to a card, where the frame shows a card's own contrast (`_paper_in_border`, given the
    `frame`). Two steps, because a hand or a lost outline often takes the cards between: a card
    whose neighbours are all covered is otherwise never looked for. A soft shadow's edge across
    a card can shrink its blob by a tenth, and a bright patch beside it pull its outline off,
    while it still reads whole: its frame then predicts its neighbours too small and a few px
    off, beyond the probe's search, and those in the shade are never found. Returns (the cells
    to probe, and the cells next to a card whose band the frame shows dark only in part,
    REFIT_BAND_SHARE, where `_refit_cells` looks about for a card laid a little off), each
    cell with its pose."""
    order = sorted(lat.cells)
    # the placed cards whose steps predict the free cells, first to last: the loose fits last
    # (each group in index order, as all were)
    by_fit = order if fit_iou is None else sorted(order, key=lambda i: fit_iou[i] < LOOSE_FIT_IOU)
    keys: list[tuple[int, int]] = []
    steps: list[tuple[int, int, int]] = []          # (placed card, dq, dr) of each key
    seen = set(taken)
    near = 0                                        # keys[:near] are next to a placed card
    for ring in (AXIAL_DIRS, RING_2):
        near = len(keys)
        for i in by_fit:
            q, r = lat.cells[i]
            for dq, dr in ring:
                key = (q + dq, r + dr)
                if key not in seen:
                    seen.add(key)
                    keys.append(key)
                    steps.append((i, dq, dr))
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
    apothems = _apothems(lat)
    bases = {i: _cell_pose(lat, i, lat.centres[i], apothems[i])
             for i in dict.fromkeys(owner.tolist())}
    offsets = pose_points([_at(b, (0.0, 0.0)) for b in bases.values()],
                          np.concatenate([PAPER_PTS, BORDER_PTS]))
    at = {i: k for k, i in enumerate(bases)}
    pts_all = centres[:, None, :] + offsets[[at[i] for i in owner.tolist()]]
    least = np.where(np.arange(len(keys)) < near, p.probe_mask, p.probe_mask_far)
    papery = _on_mask(mask, scale, view, pts_all[:, :N_PAPER]) >= least
    doubt = np.zeros(len(keys), bool)
    if frame is not None:
        # The mask's local-mean test loses a card's paper where the light changes faster than
        # its window: in a hand's shadow, beside a glare spot. A cell next to the cards is
        # probed all the same when, in the frame itself, its paper places are bright and even
        # and its printed border band is dark at most of its places: a card's own contrast,
        # which shade and glare scale but do not undo. Where only part of the band is dark
        # there, the card may lie off its predicted place (`_refit_cells` looks about it).
        lost = np.flatnonzero(~papery & (np.arange(len(keys)) < near))
        if lost.size:
            even, dark, lit = _card_contrast(frame, view, pts_all[lost])
            papery[lost] = even & (dark >= PROBE_BAND_SHARE)
            doubt[lost] = lit & (dark >= REFIT_BAND_SHARE) & ~papery[lost]
    at_xy = centres.tolist()
    poses = [{keys[k]: _at(bases[int(owner[k])], (at_xy[k][0], at_xy[k][1]))
              for k in np.flatnonzero(flags).tolist()} for flags in (papery, doubt)]
    return poses[0], poses[1]


def _on_mask(mask: np.ndarray, scale: float, view: TableView | None, plane: np.ndarray
             ) -> np.ndarray:
    """Per cell (plane: cells x points x 2, table plane, or frame pixels when `view` is None),
    the share of its points that fall on the paper `mask` (worked at `scale` of the frame;
    points outside it are off the mask)."""
    pts = plane.reshape(-1, 2)
    img = ((pts if view is None else view.to_image(pts)) + 0.5) * scale - 0.5
    ix, iy = np.rint(img[:, 0]).astype(np.int64), np.rint(img[:, 1]).astype(np.int64)
    h, w = mask.shape
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    on = np.zeros(len(ix), bool)
    on[inside] = mask[iy[inside], ix[inside]] > 0
    return on.reshape(len(plane), -1).mean(1)


PROBE_EVEN = 0.8      # a probed cell's paper: its darker quartile this close to its median
PROBE_BAND = 0.7      # and its border band this much darker, at PROBE_BAND_SHARE of its places
PROBE_BAND_SHARE = 0.7   # (a neighbour's paper or a glare may light the rest)
PROBE_DIM = 16.0      # paper darker than this (of 255) is sensor noise more than light
REFIT_BAND_SHARE = 0.5   # a cell whose band is dark at this share of its places is looked about
REFIT_REACH = 0.24    # how far (apothems) `_refit` looks about a predicted place, in steps of
REFIT_STEP = 0.08     # this (a card laid by hand lies a few mm off its neighbours' lattice)
REFIT_SYMBOLS = 5     # symbols a moved pose must read for the probe to search about it


def _paper_in_border(frame: np.ndarray, view: TableView, plane: np.ndarray) -> np.ndarray:
    """Per cell (plane: cells x (paper + border points) x 2, table plane), whether the frame
    shows a card's contrast there: paper places bright and even (`PROBE_EVEN`), and around
    them the border band darker (`PROBE_BAND`) at most of its places, at any of its depths."""
    even, dark, _ = _card_contrast(frame, view, plane)
    return even & (dark >= PROBE_BAND_SHARE)


def _card_contrast(frame: np.ndarray, view: TableView | None, pts: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell (pts: ... x (paper + border points) x 2, table plane, or frame pixels when
    `view` is None): (whether its paper places are lit, in the frame and brighter than
    `PROBE_DIM`, and even, `PROBE_EVEN`; the share of its border band places darker than
    `PROBE_BAND` of that paper at any depth; whether they are lit)."""
    img = pts if view is None else view.to_image(pts.reshape(-1, 2)).reshape(pts.shape)
    vals, inside = sample(frame, img)
    grey = vals @ np.full(3, 1.0 / 3.0, vals.dtype)
    paper = np.sort(grey[..., :N_PAPER], -1)   # median and lower quartile from one sort
    mid = 0.5 * (paper[..., (N_PAPER - 1) // 2] + paper[..., N_PAPER // 2])
    q = 0.25 * (N_PAPER - 1)
    lo, frac = int(q), q - int(q)
    low = paper[..., lo] + frac * (paper[..., lo + 1] - paper[..., lo])
    even = low >= PROBE_EVEN * mid
    depths = grey[..., N_PAPER:].reshape(*grey.shape[:-1], len(BORDER_DEPTHS), -1)
    dark = np.count_nonzero(depths.min(-2) <= PROBE_BAND * mid[..., None], -1) / depths.shape[-1]
    lit = inside.all(-1) & (mid >= PROBE_DIM)
    return even & lit, dark, lit


def _refit_shifts() -> np.ndarray:
    """The shifts (apothems, card frame) `_refit` tries, nearest first."""
    k = np.arange(-REFIT_REACH, REFIT_REACH + 1e-9, REFIT_STEP)
    grid = np.stack(np.meshgrid(k, k), -1).reshape(-1, 2)
    return grid[np.argsort(np.hypot(grid[:, 0], grid[:, 1]), kind="stable")]


_REFIT_SHIFTS = _refit_shifts()


def _refit(frame: np.ndarray, view: TableView, poses: list[Pose]) -> list[Pose | None]:
    """Each pose moved to where, within REFIT_REACH of it, the frame shows a card's contrast
    best (`_card_contrast`: even paper, and around it the dark border band at the largest
    share of its places, at least PROBE_BAND_SHARE; the nearest such place on a tie), or None
    where no place shows it or the pose itself is best. A card's printed band is a thin dark
    ring around bright paper: only near the card's true place does the ring of band samples
    fall on it all round, and a card a few mm off still shows part of it (REFIT_BAND_SHARE)
    at the predicted place, where alone the others are looked about. (The shifts are a few
    mm: each is carried into the frame by the plane-to-frame map's derivative at the pose,
    not mapped point by point.)"""
    out: list[Pose | None] = [None] * len(poses)
    if not poses:
        return out
    local = pose_points(poses, np.concatenate([PAPER_PTS, BORDER_PTS]))
    _, dark, lit = _card_contrast(frame, view, local)
    part = np.flatnonzero(lit & (dark >= REFIT_BAND_SHARE) & (dark < 1.0)).tolist()
    if not part:
        return out
    poses, local = [poses[i] for i in part], local[part]
    n = len(poses)
    m = pose_matrices(poses)                                    # poses x 2 x 2
    moves = np.einsum("pab,sb->psa", m, _REFIT_SHIFTS)          # poses x shifts x 2, plane
    centres = np.array([q.centre for q in poses], np.float64)
    h = 0.1 * np.array([[q.apothem] for q in poses], np.float64)   # a step of 0.1 apothem
    ends = np.concatenate([local.reshape(-1, 2), centres, centres + h * [1.0, 0.0],
                           centres + h * [0.0, 1.0]])
    img = view.to_image(ends)
    pts, c0 = img[:-3 * n].reshape(local.shape), img[-3 * n:-2 * n]
    jac = np.stack([(img[-2 * n:-n] - c0) / h, (img[-n:] - c0) / h], -1)
    shift_img = np.einsum("pab,psb->psa", jac, moves)           # poses x shifts x 2, frame
    even, dark, _ = _card_contrast(frame, None, pts[:, None] + shift_img[:, :, None])
    score = np.where(even, dark, -1.0)
    best = score.argmax(1).tolist()
    for i, pose, k, mv, sc in zip(part, poses, best, moves, score, strict=True):
        if k > 0 and sc[k] >= PROBE_BAND_SHARE:
            c = np.asarray(pose.centre) + mv[k]
            out[i] = _at(pose, (float(c[0]), float(c[1])))
    return out


def _at(pose: Pose, centre: tuple[float, float]) -> Pose:
    """`pose` moved to `centre` (built directly: dataclasses.replace re-inspects the fields
    on every call)."""
    return Pose(centre, pose.apothem, pose.angle, pose.turn, pose.shape)


def _refit_cells(frame: np.ndarray, view: TableView, cand: dict[tuple[int, int], Pose],
                 doubtful: dict[tuple[int, int], Pose]) -> dict[tuple[int, int], Pose]:
    """The free cells to probe (`cand`, and `doubtful` ones whose band showed only in part)
    whose predicted pose shows a card's paper and part of its band (REFIT_BAND_SHARE, not
    all of it), each at the pose `_refit` moves it to: a card laid a few millimetres off its
    neighbours' lattice shows its symbols off the predicted places, and the probe's pose
    search about those finds nothing."""
    cells = {**cand, **doubtful}       # (disjoint: a doubtful cell is not probed as it is)
    moved = _refit(frame, view, list(cells.values()))
    return {k: q for k, q in zip(cells, moved, strict=True) if q is not None}


# (a partial blob's cells, poses and reads at them: `_partials`)
_Parts = tuple[list[tuple[int, int]], list[Pose], list[CardRead]]


def _better(cand: dict[tuple[int, int], Pose], reads: list[CardRead],
            moved: dict[tuple[int, int], Pose], moved_reads: list[CardRead], p: ReaderParams,
            parts: _Parts | None = None) -> tuple[dict[tuple[int, int], Pose], list[CardRead]]:
    """Per free cell, where the probe's search starts, with its read: the predicted pose where
    its read gives the search hope (`_hopeful`), else the pose `_refit` moved it to where that
    read shows five symbols (the best place of a wider search must show more of the card
    than the predicted one: `_hopeful` with REFIT_SYMBOLS), else the predicted pose. A partial
    blob's cell (`parts`) not among them starts at its own pose: where a card reads whole
    there, as a probed card must (its paper and band all but intact), the blob was only part
    of its outline (a glare spot or a bright patch of table beside it took the rest)."""
    best = {k: (pose, r) for (k, pose), r in zip(cand.items(), reads, strict=True)}
    for (k, pose), r in zip(moved.items(), moved_reads, strict=True):
        if _hopeful(r, p, REFIT_SYMBOLS) and (k not in best or not _hopeful(best[k][1], p)):
            best[k] = (pose, r)
    for k, pose, r in zip(*(parts or ((), (), ())), strict=True):
        best.setdefault(k, (pose, r))
    return {k: v[0] for k, v in best.items()}, [v[1] for v in best.values()]


_Tries = list[tuple[tuple[int, int], Pose]]


def _probe_tries(hopeful: list[tuple[int, int]], cand: dict[tuple[int, int], Pose],
                 best: dict[tuple[int, int], tuple[float, Pose, CardRead]],
                 steps: tuple[tuple[float, float, float, float], ...]) -> _Tries:
    """The poses one round of the probe's search tries (`_probe`): `steps` about each hopeful
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
        score = _probe_score(r)
        if k not in best or score > best[k][0]:
            best[k] = (score, pose, r)
        if fine is not None:
            fine.setdefault(k, []).append((score, r.crossed))


def _coarse_ahead(frame: np.ndarray, cand: dict[tuple[int, int], Pose], reads: list[CardRead],
                  moved: dict[tuple[int, int], Pose], moved_reads: list[CardRead],
                  view: TableView, model: ColourModel, p: ReaderParams,
                  parts: _Parts | None = None) -> tuple[_Tries, StagedRead] | None:
    """The probe's first round (`_probe`) as the first reads of the free cells and partial
    blobs' cells (before their re-reads: `reads`, `moved_reads`, `parts`' reads) would start
    it, its read begun (`StagedRead`), so that its first pass can join those re-reads; None
    where they start none."""
    start, start_reads = _better(cand, reads, moved, moved_reads, p, parts)
    hopeful = [k for k, r in zip(start, start_reads, strict=True) if _searched(r, p)]
    if not hopeful:
        return None
    tries = _probe_tries(hopeful, start, {}, _PROBE_SHIFTS)
    return tries, StagedRead(frame, [t[1] for t in tries], view, model)


# (a search's cells, poses and reads of the cards it found)
_Found = tuple[list[tuple[int, int]], list[Pose], list[CardRead]]
_T = TypeVar("_T")
# A search made pass by pass: it yields the staged reads each of its passes makes, and returns
# its result; `_together` makes the passes of several such searches as one pass each.
_Passes = Generator[list[StagedRead], None, _T]


def _together(*searches: _Passes) -> list:
    """Each search's result (`_Passes`), the searches made pass by pass side by side: the
    reads all of them ask for next made as one pass (`read_together`: each staged read's
    cards read as they would be alone, so no search's result depends on the others), until
    every one is done. A pass costs about as much again for a few cards as for many."""
    results: list = [None] * len(searches)
    asked: dict[int, list[StagedRead]] = {}
    for i, search in enumerate(searches):
        try:
            asked[i] = next(search)
        except StopIteration as done:
            results[i] = done.value
    while asked:
        read_together([s for i in sorted(asked) for s in asked[i]])
        for i in sorted(asked):
            try:
                asked[i] = searches[i].send(None)
            except StopIteration as done:
                results[i] = done.value
                del asked[i]
    return results


def _reading(staged: StagedRead) -> _Passes[list[CardRead]]:
    """`read_cards` of a staged read, pass by pass (`_Passes`)."""
    while not staged.done:
        yield [staged]
    assert staged.reads is not None
    return staged.reads


def _probe(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
           view: TableView, model: ColourModel, p: ReaderParams,
           ahead: tuple[_Tries, StagedRead] | None = None) -> _Found:
    """`_probe_passes` made on its own."""
    return _together(_probe_passes(frame, cand, first, view, model, p, ahead))[0]


def _probe_all(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
               view: TableView, model: ColourModel, p: ReaderParams,
               ahead: tuple[_Tries, StagedRead] | None, mask: np.ndarray, scale: float,
               lat: GrownLattice, probed: set[tuple[int, int]]) -> _Passes[_Found]:
    """`_probe_passes` from the free cells, then `_onward_passes` from what it found."""
    found = yield from _probe_passes(frame, cand, first, view, model, p, ahead)
    return (yield from _onward_passes(frame, mask, scale, lat, view, model, p, probed, found))


def _probe_passes(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
                  view: TableView, model: ColourModel, p: ReaderParams,
                  ahead: tuple[_Tries, StagedRead] | None = None) -> _Passes[_Found]:
    """Cards whose outline the paper mask lost — their paper merged with a bright table or a
    neighbour through a gap the blur closed — found at the free cells `_probe_cells` gives,
    from their `first` reads at the predicted poses. Where that shows paper and some symbols,
    poses a little shifted, turned and scaled are tried, and the best one is kept when the card
    reads whole there (every symbol, its paper and border band all but intact, `_probe_band`).
    Returns (cells, poses, reads) of the cards found.
    Each round's read is made in two passes (`StagedRead`); the second round's first pass
    joins the first round's re-read pass, about the best poses the first round's first reads
    give, and stands where its final reads give the same (nearly always); `ahead`: the first
    round begun (`_coarse_ahead`), taken where its poses are this round's. Made pass by pass
    (`_Passes`)."""
    hopeful = [k for k, r in zip(cand, first, strict=True) if _searched(r, p)]
    if not hopeful:
        return [], [], []
    # coarse to fine: the best of nine shifts, then turns and half shifts about it
    best: dict[tuple[int, int], tuple[float, Pose, CardRead]] = {}
    fine: dict[tuple[int, int], list[tuple[float, tuple[bool, ...]]]] = {}
    tries = _probe_tries(hopeful, cand, best, _PROBE_SHIFTS)
    coarse = (ahead[1] if ahead is not None and ahead[0] == tries
              else StagedRead(frame, [t[1] for t in tries], view, model))
    if coarse.first is None:
        yield [coarse]
    guess = None
    if not coarse.done:   # (the fine round as the first reads would start it)
        assert coarse.first is not None
        early: dict[tuple[int, int], tuple[float, Pose, CardRead]] = {}
        _probe_best(tries, coarse.first, early)
        guessed = _probe_tries(hopeful, cand, early, _PROBE_FINE)
        guess = (guessed, StagedRead(frame, [t[1] for t in guessed], view, model))
    if not coarse.done or guess is not None:   # (nothing to read, no pass to wait for)
        yield [coarse, *([guess[1]] if guess else [])]
    assert coarse.reads is not None
    _probe_best(tries, coarse.reads, best)
    tries = _probe_tries(hopeful, cand, best, _PROBE_FINE)
    staged = (guess[1] if guess is not None and guess[0] == tries
              else StagedRead(frame, [t[1] for t in tries], view, model))
    while not staged.done:
        yield [staged]
    assert staged.reads is not None
    _probe_best(tries, staged.reads, best, fine)
    best = {k: v for k, v in best.items()
            if v[2].complete and v[2].in_frame and v[2].paper_ok >= p.min_probe_ok
            and _probe_band(frame, view, v[1], v[2], p)}
    cells = sorted(best, key=lambda k: (k[1], k[0]))
    reads = [best[k][2] for k in cells]
    for i, k in enumerate(cells):
        marks = _crossed_near(fine.get(k, []), best[k][0])
        if any(marks):
            reads[i] = replace(uncrossed(reads[i], marks), crossed=marks)
    return cells, [best[k][1] for k in cells], reads


PROBE_ROUNDS = 4   # rounds of `_probe_onwards` at most (each from the cards the last one found)


def _probe_onwards(frame: np.ndarray, mask: np.ndarray, scale: float, lat: GrownLattice,
                   view: TableView, model: ColourModel, p: ReaderParams,
                   probed: set[tuple[int, int]], found: _Found) -> _Found:
    """`_onward_passes` made on its own."""
    return _together(_onward_passes(frame, mask, scale, lat, view, model, p, probed, found))[0]


def _onward_passes(frame: np.ndarray, mask: np.ndarray, scale: float, lat: GrownLattice,
                   view: TableView, model: ColourModel, p: ReaderParams,
                   probed: set[tuple[int, int]], found: _Found) -> _Passes[_Found]:
    """`found` (the probe's cards: cells, poses, reads) with the cards found by probing on from
    them, round by round (PROBE_ROUNDS): the free cells next to a card the last round found,
    neither placed nor probed before (`probed`), each at the pose the found card's own pose
    and the nearest placed card's lattice steps predict, searched as `_probe` searches (and
    only where `_probe_cells` would: paper on the mask or a card's contrast in the frame). On
    a table as pale as the paper the mask keeps few outlines, and a layout's far side lies
    more than two steps from any of them: each card found brings its neighbours in reach. A
    card so found must read as whole as any probed card; none is guessed. Made pass by pass
    (`_Passes`)."""
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
                cand.append(_at(pose, (float(c[0]), float(c[1]))))
        if not keys:
            break
        local = pose_points(cand, np.concatenate([PAPER_PTS, BORDER_PTS]))
        even, dark, _ = _card_contrast(frame, view, local)
        keep = ((_on_mask(mask, scale, view, local[:, :N_PAPER]) >= p.probe_mask)
                | (even & (dark >= REFIT_BAND_SHARE))).tolist()
        todo = {k: q for k, q, ok in zip(keys, cand, keep, strict=True) if ok}
        if not todo:
            break
        first = yield from _reading(StagedRead(frame, list(todo.values()), view, model))
        new_cells, new_poses, new_reads = yield from _probe_passes(frame, todo, first, view,
                                                                   model, p)
        if not new_cells:
            break
        cells += new_cells
        poses += new_poses
        reads += new_reads
        last = list(zip(new_cells, new_poses, strict=True))
    return cells, poses, reads


FAR_MASK = 0.25    # a free cell far from the cards is looked at where this much of its paper
                   # places lie on the paper mask (a card's paper is brighter than the table
                   # round it nearly everywhere; a pale table's cards the probe's rounds follow)
FAR_FIT = 0.1      # the placed cards must lie this close to the lattice carried (steps, rms)
FAR_CARDS = 6      # uncalibrated, at least this many placed cards carry it (a homography)
FAR_STEPS = 8      # (cells are looked for at most this many steps beyond the placed ones)
FAR_JITTER = 0.05  # a card's place is taken to be this far off its cell (steps, at least)
FAR_SD = 0.2       # and a far cell looked at only where the lattice is this sure of it (steps,
FAR_SD_PICTURE = 0.15   # standard error; on the picture, uncalibrated: a card beside it lies
                   # a step off, and fits simulated with hand-laid jitter erred by at most 1.7
                   # (metric) and 4 (picture) such errors)
FAR_REACH = 0.32   # how far (apothems) `_far_cells` looks about a cell's predicted place,
FAR_STEP = 0.08    # in steps of this (within a disc)
FAR_GRID = 0.08    # (along each border place's normal, the band is looked for this far apart)


def _far_shifts() -> np.ndarray:
    """The shifts (apothems, card frame) `_far_cells` tries, within FAR_REACH."""
    k = np.arange(-FAR_REACH, FAR_REACH + 1e-9, FAR_STEP)
    grid = np.stack(np.meshgrid(k, k), -1).reshape(-1, 2)
    return grid[np.hypot(grid[:, 0], grid[:, 1]) <= FAR_REACH + 1e-9]


_FAR_SHIFTS = _far_shifts()
# The band profiles `_band_shares` samples: along the normal of each of the 18 border places
# (`symbols.BORDER_PTS`: three along each edge), from the paper inside to beyond the band,
# FAR_GRID apart, as far either way as a shift moves the band; at any shift a place's band
# depths (`symbols.BORDER_DEPTHS`) are a window of BAND_WINDOW of its profile's samples
_N_PLACES = len(BORDER_PTS) // len(BORDER_DEPTHS)
_BAND_DEPTH0 = min(BORDER_DEPTHS)
BAND_WINDOW = round((max(BORDER_DEPTHS) - _BAND_DEPTH0) / FAR_GRID) + 1
_FAR_RHO = _BAND_DEPTH0 + FAR_GRID * np.arange(-round(FAR_REACH / FAR_GRID) - 1,
                                               round(FAR_REACH / FAR_GRID) + BAND_WINDOW + 1)
_PLACE_NORMAL = np.array([[math.cos(math.radians(-60.0 * (k // 3))),
                           math.sin(math.radians(-60.0 * (k // 3)))] for k in range(_N_PLACES)])
_FAR_PROFILE = (_FAR_RHO[None, :, None] * _PLACE_NORMAL[:, None, :]
                + (BORDER_PTS[:_N_PLACES] - _BAND_DEPTH0 * _PLACE_NORMAL)[:, None, :])
# each shift's window start in each place's profile (shifts x places)
_FAR_START = np.rint((_BAND_DEPTH0 + _FAR_SHIFTS @ _PLACE_NORMAL.T - _FAR_RHO[0])
                     / FAR_GRID).astype(np.int64)
# the paper the band is judged against: the inner part of the profiles beside the corners
# (a symbol lies on each edge's middle normal), on the paper at most shifts
_FAR_PAPER = np.ix_([k for k in range(_N_PLACES) if k % 3 != 1],
                    np.flatnonzero(_FAR_RHO <= 0.75))


def _band_shares(frame: np.ndarray, centres: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """Per cell (frame `centres` and card frame -> frame `maps`, cells x 2 x 2) and shift of
    _FAR_SHIFTS (cells x shifts), the share of a card's border band places darker than
    PROBE_BAND of its paper at any of their depths, were a card there moved by that shift;
    -1 where the paper is dim (PROBE_DIM) or not all in the frame. `_card_contrast`'s band
    test for every shift at once, from one profile along each place's normal (a shift moves
    the band along it), against the median of the paper inside them all."""
    pts = centres[:, None] + _FAR_PROFILE.reshape(-1, 2) @ maps.transpose(0, 2, 1)
    vals, inside = sample(frame, pts.reshape(len(centres), _N_PLACES, len(_FAR_RHO), 2))
    grey = vals @ np.full(3, 1.0 / 3.0, vals.dtype)                    # cells x places x radii
    paper = grey[:, _FAR_PAPER[0], _FAR_PAPER[1]].reshape(len(centres), -1)
    mid = np.median(paper, axis=1)
    dark = grey <= PROBE_BAND * mid[:, None, None]
    # any of a window's samples dark, by a running count
    run = np.zeros((*dark.shape[:2], dark.shape[2] + 1), np.int32)
    np.cumsum(dark, -1, dtype=np.int32, out=run[..., 1:])
    win = run[..., BAND_WINDOW:] > run[..., :-BAND_WINDOW]           # cells x places x starts
    got = win[:, np.arange(_N_PLACES)[None, :], _FAR_START]           # cells x shifts x places
    ok = (mid >= PROBE_DIM) & inside.all((1, 2))
    return np.where(ok[:, None], got.mean(-1), -1.0)


def _far_cells(frame: np.ndarray, mask: np.ndarray, scale: float, lat: GrownLattice,
               view: TableView, skip: set[tuple[int, int]]) -> dict[tuple[int, int], Pose]:
    """The free cells anywhere on the table (`_far_grid`) where the frame shows a card's
    contrast (`_band_shares`, then `_card_contrast` there: even paper, and around it the dark
    border band at PROBE_BAND_SHARE of its places) within FAR_REACH of the place the layout's
    lattice predicts, each at the middle of the shifts that show it best, at the squash and
    orientation of the placed card nearest to it and the size the lattice gives it there
    (`_cell_pose`). Only the cells whose paper places lie on the paper mask (FAR_MASK) are
    looked at; cells in `skip` are left out."""
    grid = _far_grid(lat, view, skip, frame.shape)
    if grid is None:
        return {}
    cells, centres, near, size = grid
    apothems = _apothems(lat)
    bases = {i: _cell_pose(lat, i, lat.centres[i], apothems[i]) for i in set(near.tolist())}
    at = {i: k for k, i in enumerate(bases)}
    maps = pose_matrices(list(bases.values()))[[at[i] for i in near.tolist()]]
    maps *= size[:, None, None]
    # each cell's card frame carried into the picture by the plane-to-frame map's derivative
    # there (a card is small beside the distances over which that map bends)
    step = 0.1 * float(np.median(apothems)) * np.eye(2)
    ends = view.to_image(np.concatenate([centres, centres + step[0], centres + step[1]]))
    c_img = ends[:len(centres)]
    jac = np.stack([ends[len(centres):2 * len(centres)] - c_img,
                    ends[2 * len(centres):] - c_img], -1) / step[0, 0]
    img_maps = jac @ maps                                       # card frame -> frame pixels
    on = np.flatnonzero(_on_mask(mask, scale, None, c_img[:, None]
                                 + PAPER_PTS @ img_maps.transpose(0, 2, 1)) >= FAR_MASK)
    if not len(on):
        return {}
    shares = _band_shares(frame, c_img[on], img_maps[on])
    top = shares.max(1)
    keep = top >= PROBE_BAND_SHARE
    if not keep.any():
        return {}
    # the middle of the shifts at which the band shows best (a band a few px wide shows all
    # round over a small range of them), checked there as `_card_contrast` checks a card
    best = shares[keep] >= top[keep, None]
    mid = (best[:, :, None] * _FAR_SHIFTS).sum(1) / best.sum(1)[:, None]
    sel = on[keep]
    even, dark, _ = _card_contrast(frame, None, (c_img[sel] + np.einsum(
        "cab,cb->ca", img_maps[sel], mid))[:, None] + _CONTRAST_PTS @ img_maps[sel].transpose(
            0, 2, 1))
    card = (even & (dark >= PROBE_BAND_SHARE)).tolist()
    moved = centres[sel] + np.einsum("cab,cb->ca", maps[sel], mid)
    out = {}
    for (q, r), i, k, (x, y), ok in zip(cells[sel].tolist(), near[sel].tolist(),
                                        size[sel].tolist(), moved.tolist(), card, strict=True):
        if ok:
            b = bases[i]
            out[(q, r)] = Pose((x, y), b.apothem * k, b.angle, b.turn, b.shape)
    return out


def _far_grid(lat: GrownLattice, view: TableView, skip: set[tuple[int, int]],
              shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray
                                               ] | None:
    """The free cells (not in `skip`) of the layout's lattice farther on the table, for
    `_far_cells`: (cells, their plane centres, the placed card nearest each, the size of a
    card there in that card's), or None where the lattice cannot be carried. On a calibrated
    table the plane is metric, so one step length and one turn (`lattice.fit_regular`) carry
    the layout across an arm or a gap that the growth and the probe cannot cross, where the
    placed cards lie on one regular lattice (FAR_FIT) whose step is a card's width and a gap;
    its cells are those in the play area and a card beyond (cards lie there). Uncalibrated,
    the plane is the picture: the table's lattice is carried by one homography
    (`lattice.fit_projective`) where at least FAR_CARDS placed cards fit it (FAR_FIT), within
    FAR_STEPS of them and the picture, and a card's size at each cell follows it. Either way
    only the cells the fit is sure of (its standard error there within FAR_SD of a step, or
    FAR_SD_PICTURE, each card taken FAR_JITTER of a step off or as far as the fit says): far
    from the cards, or where few carry the lattice, a cell may be off by more than the search
    reaches, and then a card beside it could be taken for it."""
    order = sorted(lat.cells)
    if len(order) < 2:
        return None
    idx = np.array(order, np.int64)
    at = np.array([lat.cells[i] for i in order], np.float64)
    e_q = np.array([lat.e_q[i] for i in order])
    e_r = np.array([lat.e_r[i] for i in order])
    fitted: RegularLattice | ProjectiveLattice | None
    if view.calibrated and view.table is not None:
        fitted = fit_regular(at, lat.centres[idx], e_q.mean(0), e_r.mean(0), FAR_JITTER)
        m = HEXEL_FACE.flat_to_flat_mm
        if fitted.rms > FAR_FIT or not 0.9 * m <= fitted.step <= 1.5 * m:
            return None   # the placed cards are no regular lattice of cards this size
        w, h = view.table.play_area_mm
        lo, hi = np.array([-m, -m]), np.array([w + m, h + m])
    else:
        fitted = (fit_projective(at, lat.centres[idx], e_q, e_r, FAR_JITTER)
                  if len(order) >= FAR_CARDS else None)
        if fitted is None or fitted.rms > FAR_FIT:
            return None
        lo, hi = np.zeros(2), np.array([shape[1] - 1.0, shape[0] - 1.0])
    frac = fitted.fractional(np.array([lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]]))
    # (a corner of the picture beyond the table's horizon maps nowhere: the box bounds it)
    frac = np.clip(np.nan_to_num(frac, nan=0.0), at.min(0) - FAR_STEPS, at.max(0) + FAR_STEPS)
    (q0, r0), (q1, r1) = np.floor(frac.min(0)).astype(int), np.ceil(frac.max(0)).astype(int)
    free = np.ones((q1 - q0 + 1, r1 - r0 + 1), bool)
    gone = np.array([c for c in skip if q0 <= c[0] <= q1 and r0 <= c[1] <= r1], int)
    if len(gone):
        free[gone[:, 0] - q0, gone[:, 1] - r0] = False
    cells = np.argwhere(free) + np.array([q0, r0])
    centres = fitted.centres(cells)
    inside = ((centres >= lo) & (centres <= hi)).all(1)
    cells, centres = cells[inside], centres[inside]
    if not len(cells):
        return None
    d = lat.centres[idx][None] - centres[:, None]
    k = np.argmin(np.einsum("cnk,cnk->cn", d, d), 1)
    if isinstance(fitted, RegularLattice):
        size, sure = np.ones(len(cells)), fitted.spread(cells) <= FAR_SD
    else:   # the lattice's step there against its step at that card (area, square-rooted)
        half = np.array([[0.5, 0.0], [0.0, 0.5]])
        ends = fitted.centres((cells[:, None, :] + half[None]).reshape(-1, 2)).reshape(-1, 2, 2)
        j = (ends - centres[:, None, :]) * 2.0                     # cells x axis x 2
        area = np.abs(j[:, 0, 0] * j[:, 1, 1] - j[:, 0, 1] * j[:, 1, 0])
        own = np.abs(e_q[k, 0] * e_r[k, 1] - e_q[k, 1] * e_r[k, 0])
        size = np.sqrt(area / own)
        sure = fitted.spread(cells) <= FAR_SD_PICTURE * np.linalg.norm(j[:, 0], axis=1)
    if not sure.any():
        return None
    return cells[sure], centres[sure], idx[k[sure]], size[sure]


_CONTRAST_PTS = np.concatenate([PAPER_PTS, BORDER_PTS])   # `_card_contrast`'s points


# An object crossing onto a symbol is there whichever pose near the card's own is tried, but
# the pose that reads best may be the one whose samples missed it (its read gains the symbol).
# So the fine round's poses that read the card nearly as well as the best one (short of it by
# one symbol's worth, 1/6 of the score, and CROSS_NEAR more: the crossed symbol and a little
# paper or band) are polled, and a symbol most of them saw crossed stays unread. A pose that
# reads the card much worse sees crossings of its own (its band samples off the band, on the
# table or a neighbour's paper), and is not asked.
CROSS_NEAR = 0.05


def _crossed_near(tried: list[tuple[float, tuple[bool, ...]]], top: float
                  ) -> tuple[bool, ...]:
    """Per symbol, whether most of the `tried` (score, crossed) poses scoring within one
    symbol's worth and CROSS_NEAR of `top` saw it crossed (see CROSS_NEAR); () when none did."""
    asked = [c if c else (False,) * 6 for score, c in tried
             if score >= top - 1.0 / 6.0 - CROSS_NEAR]
    most = 2 * np.sum(np.array(asked, bool).reshape(-1, 6), axis=0) > len(asked)
    return tuple(most.tolist()) if most.any() else ()


def _hopeful(r: CardRead, p: ReaderParams, symbols: int = 4) -> bool:
    """Whether a read at a free cell's pose is worth the probe's pose search: probe_paper of
    its paper and of its band, and four symbols (or `symbols`)."""
    return (r.paper_ok >= p.probe_paper and r.border_ok >= p.probe_paper
            and r.letters >= symbols)


PLAIN_PAPER = 0.75   # a free cell whose paper reads this whole at its predicted pose
PLAIN_BAND = 0.85    # and its border band this whole is searched from two symbols read
PLAIN_SYMBOLS = 2


def _searched(r: CardRead, p: ReaderParams) -> bool:
    """Whether the probe searches about a free cell's pose: where its read is `_hopeful`, or
    where it shows a card's paper and border band nearly whole (PLAIN_PAPER, PLAIN_BAND) and
    PLAIN_SYMBOLS symbols. A card laid a few millimetres off the pose its neighbours predict
    (hand-laid, or a neighbour's frame a little off) keeps its paper and band on the
    predicted places, which are broad, while its symbols, small and ringed by the paper each
    needs beside it, slip off theirs: the read there is a card's, its symbols unread. The
    search must still find a pose where the card reads whole."""
    return _hopeful(r, p) or (r.paper_ok >= PLAIN_PAPER and r.border_ok >= PLAIN_BAND
                              and r.letters >= PLAIN_SYMBOLS)


def _probe_score(r: CardRead) -> float:
    """How whole a probed pose reads: its paper and band shares and the share of symbols read."""
    return r.paper_ok + r.border_ok + r.letters / 6.0


BAND_LIT = 0.75   # a band place this bright in every channel and depth (of the white) is lit
VEIL_BAND_MAX = 0.92     # or its darkest depth darker than this (of the white) and no more
VEIL_BAND_TINT = 0.05    # tinted than the card's dark band places (and this): the band veiled


def _probe_band(frame: np.ndarray, view: TableView, pose: Pose, r: CardRead, p: ReaderParams
                ) -> bool:
    """Whether a probed card's border band is whole enough (`_probe`): min_probe_ok of its
    places look like the printed band, as the read sees it or veiled (`_band_lit`), or
    min_probe_lit of them do as the read sees it and every place missing is lit or veiled. A
    glare spot on the table beside a card, or a blur that bridged its band to a neighbour's
    paper (both are why the mask lost its outline), lights the band along that side and hides
    nothing; a glare spot on the card itself adds its light to the band, which stays a grey
    line darker than the paper (veiled); a hand or a sleeve over the edge, which may reach a
    symbol's surround, mostly leaves the band darker or coloured there, and the stricter share
    stands (each symbol's surround is still checked on its own: `symbols`)."""
    if r.border_ok >= p.min_probe_ok:
        return True
    missing = round(N_BORDER_PLACES * (1.0 - r.border_ok))
    lit, veiled = _band_lit(frame, view, pose, r.white_bgr)
    if N_BORDER_PLACES - missing + veiled >= p.min_probe_ok * N_BORDER_PLACES:
        return True
    return r.border_ok >= p.min_probe_lit and lit + veiled >= missing


N_BORDER_PLACES = len(BORDER_PTS) // len(BORDER_DEPTHS)   # 18: three along each side


def _band_lit(frame: np.ndarray, view: TableView, pose: Pose,
              white_bgr: tuple[float, float, float]) -> tuple[int, int]:
    """How many of a card's border band places (`symbols.BORDER_PTS`) are (lit, veiled): lit
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
    plane = pose_points([pose], BORDER_PTS)
    vals, _ = sample(frame, view.to_image(plane.reshape(-1, 2)).reshape(plane.shape))
    rel = (vals[0] / np.maximum(np.asarray(white_bgr, np.float64), 1.0)).reshape(
        len(BORDER_DEPTHS), -1, 3)
    lit = (rel.min(-1) >= BAND_LIT).all(0)
    mean = rel.mean(-1)
    darkest = np.take_along_axis(rel, mean.argmin(0)[None, :, None], 0)[0]
    low = mean.min(0)
    tint = darkest.max(-1) - darkest.min(-1)
    band = (low < 0.7) & (tint < NEUTRAL_SPREAD)
    if not band.any():
        return int(np.count_nonzero(lit)), 0
    # a veil mixes the band with the lamp's own light (the white's colour): greyer, never
    # more tinted than the band seen dark elsewhere round the card
    grey = tint < min(NEUTRAL_SPREAD, float(np.median(tint[band])) + VEIL_BAND_TINT)
    veiled = grey & (low >= 0.7) & (low < VEIL_BAND_MAX) & ~lit
    return int(np.count_nonzero(lit)), int(np.count_nonzero(veiled))


def _repose_ragged(frame: np.ndarray, whole: list[CardFit], lat: GrownLattice,
                   poses: list[Pose], reads: list[CardRead], view: TableView,
                   model: ColourModel, p: ReaderParams) -> _Passes[None]:
    """Cards from ragged blobs (`cards.Blob`) that do not read whole at their fitted pose get
    the probe's pose search (`_probe`), in place: where the symbols bit into the paper's outline
    the hull misses some of the paper, so the fitted centre and size are off, and the border
    band samples fall on paper. The search starts from the fitted pose, then, for a card still
    not whole, from the pose a placed neighbour with a whole outline predicts for its cell (as
    for a free cell: the neighbour's frame does not share the bitten outline's error). Made
    pass by pass (`_together`)."""
    failing = [k for k, (f, r) in enumerate(zip(whole, reads, strict=True))
               if f.blob.ragged and not _whole_read(r, p)]
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
        first = yield from _reading(StagedRead(frame, list(cand.values()), view, model,
                                               [True] * len(cand)))
        yield from _repose(frame, cand, first, at, poses, reads, view, model, p)


def _repose(frame: np.ndarray, cand: dict[tuple[int, int], Pose], first: list[CardRead],
            at: dict[tuple[int, int], int], poses: list[Pose], reads: list[CardRead],
            view: TableView, model: ColourModel, p: ReaderParams) -> _Passes[_Found]:
    """`_probe` from the poses `cand`; each card found whole replaces pose and read of the
    card `at` its cell, in place. Returns what `_probe` found."""
    found = yield from _probe_passes(frame, cand, first, view, model, p)
    for key, pose, read in zip(*found, strict=True):
        poses[at[key]], reads[at[key]] = pose, read
    return found


def _neighbour_pose(lat: GrownLattice, whole: list[CardFit], k: int) -> Pose | None:
    """The pose of placed card k as its first placed neighbour whose blob is not ragged
    predicts it (one lattice step in that neighbour's frame), or None."""
    by_cell = {c: i for i, c in lat.cells.items()}
    q, r = lat.cells[k]
    for dq, dr in AXIAL_DIRS:
        j = by_cell.get((q - dq, r - dr))
        if j is not None and not whole[j].blob.ragged:
            centre = lat.centres[j] + dq * lat.e_q[j] + dr * lat.e_r[j]
            return _cell_pose(lat, j, centre)
    return None


def _whole_read(r: CardRead, p: ReaderParams) -> bool:
    """Whether a read at a whole card's pose passes the verdict (`_verdict`)."""
    return (r.complete and r.in_frame and r.paper_ok >= p.min_paper_ok
            and r.border_ok >= p.min_border_ok)


def _centres_px(poses: tuple[Pose, ...], view: TableView) -> list[tuple[float, float]]:
    """Each pose's centre in frame pixels, all mapped in one call (a call per card cost
    more than the rest of the verdict)."""
    if not poses:
        return []
    pts = view.to_image(np.array([pose.centre for pose in poses], np.float64))
    return [(x, y) for x, y in pts.tolist()]


def _verdict(cell: tuple[int, int], fit_iou: float, r: CardRead, centre_px: tuple[float, float],
             p: ReaderParams) -> SeenCard:
    """A whole card (centred at `centre_px` in the frame): trusted only if every symbol reads
    and the face looks intact."""
    if not _whole_read(r, p):
        return _occluded(cell, r, centre_px)
    shape = min(1.0, max(0.0, (fit_iou - p.detect.min_iou) / (1.0 - p.detect.min_iou) + 0.5))
    conf = r.confidence * (0.8 + 0.2 * shape) * (0.9 + 0.1 * r.paper_ok)
    return SeenCard(cell, r.symbols, float(conf), False, centre_px)


def _occluded(cell: tuple[int, int], r: CardRead, centre_px: tuple[float, float]) -> SeenCard:
    conf = min(OCCLUDED_MAX_CONFIDENCE, 0.5 * r.confidence if r.complete else 0.0)
    return SeenCard(cell, r.symbols, float(conf), True, centre_px)


def _draw_blobs(frame: np.ndarray, whole: list[CardFit], rest: list[Blob]) -> np.ndarray:
    out = frame.copy()
    for b in rest:
        cv2.polylines(out, [np.round(b.hull_img).astype(np.int32)], True, (0, 0, 255), 1)
    for f in whole:
        cv2.polylines(out, [np.round(f.blob.hull_img).astype(np.int32)], True, (0, 255, 0), 1)
    return out


def _draw_lattice(frame: np.ndarray, lat: GrownLattice, view: TableView,
                  cells: list[tuple[int, int]], poses: list[Pose],
                  part_cells: list[tuple[int, int]], part_poses: list[Pose]) -> np.ndarray:
    out = frame.copy()
    items = [(c, q, (0, 255, 0)) for c, q in zip(cells, poses, strict=True)]
    items += [(c, q, (0, 0, 255)) for c, q in zip(part_cells, part_poses, strict=True)]
    for c, pose, colour in items:
        centre = np.asarray(pose.centre)
        poly = view.to_image(pose.to_plane(hexagon(np.zeros(2), lat.spacing / 2.0, 0.0)))
        cv2.polylines(out, [np.round(poly).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        x, y = view.to_image(centre[None])[0]
        cv2.putText(out, f"{int(c[0])},{int(c[1])}", (int(x) - 14, int(y) + 4),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1, cv2.LINE_AA)
    return out


def _draw_samples(frame: np.ndarray, poses: tuple[Pose, ...], view: TableView) -> np.ndarray:
    from .symbols import sample_points

    out = frame.copy()
    if poses:
        pts = view.to_image(sample_points(list(poses)).reshape(-1, 2))
        for x, y in np.round(pts).astype(int):
            cv2.circle(out, (int(x), int(y)), 1, (255, 0, 255), -1)
    return out


def learn_colours(frame: np.ndarray, edition: str, view: TableView | None = None,
                  params: ReaderParams = ReaderParams()) -> ColourModel:
    """Colour prototypes learned from one frame showing the edition's three single-kind cards
    (RRRRRR, BBBBBB and VVVVVV or YYYYYY): each whole card's ink is the mean paper-normalised
    colour of its inkiest symbol samples, and the three inks are matched to the letters whose
    built-in prototypes they are nearest to (the best of all assignments)."""
    from itertools import permutations

    from .colour import PAPER, normalise
    from .symbols import N_PAPER, N_SYMBOL, sample, sample_points

    view = view or TableView()
    base = builtin_model(edition)
    scale = 1.0
    blobs = paper_blobs(paper_mask(frame, scale, params.detect), scale, view, params.detect)
    fits, _ = fit_hexagons(blobs, params.detect, not view.calibrated)
    fits, _ = consistent_sizes(fits)
    inks = []
    for f in fits:
        pose = Pose(f.centre, f.apothem, f.angle, 1, f.shape)
        pts = view.to_image(sample_points([pose]).reshape(-1, 2))
        vals, _ = sample(frame, pts.reshape(1, -1, 2))
        ns = 6 * N_SYMBOL
        paper = vals[0, ns:ns + N_PAPER]
        lum = paper.sum(-1)
        white = paper[lum >= np.median(lum)].mean(0)
        sym = normalise(vals[0, :ns], white)
        far = np.linalg.norm(sym - 1.0, axis=-1)
        inky = sym[far >= np.quantile(far, 0.6)]
        if len(inky) and far.max() > 0.5:
            inks.append(inky.mean(0))
    if len(inks) < len(base.letters):
        raise ValueError(f"found {len(inks)} card(s) with ink; show the "
                         f"{len(base.letters)} single-kind cards, whole and flat, in one frame")
    protos = np.asarray(base.inks)
    best = None
    for idx in permutations(range(len(inks)), len(base.letters)):
        cost = sum(float(np.linalg.norm(inks[i] - protos[k])) for k, i in enumerate(idx))
        if best is None or cost < best[0]:
            best = (cost, idx)
    assert best is not None
    learned = [tuple(float(v) for v in inks[i]) for i in best[1]]
    return ColourModel(edition, (PAPER, *base.letters), ((1.0, 1.0, 1.0), *learned),
                       source="learned")
