"""The Hex'el reader: one frame in, a `HexelObservation` out, by four named stages — paper mask and
card hexagons (`cards`), lattice and cells (`lattice`), symbols (`symbols`), and the verdict on
each card (whole and readable, or occluded). Whole cards are read at their own pose; paper blobs
that are not whole hexagons but lie inside a free lattice cell (a hand over a card, a card cut by
the frame edge; not ragged ones, `cards.Blob`) are read at the cell's pose; those that show a
card's paper and symbols, and its band whole along one edge at least, are reported occluded, with
'?' where a symbol cannot be read and a confidence no higher than 0.3 — a partly seen card is
never guessed. Free cells next to the cards whose card the mask lost are probed
(`probe`); on a calibrated table so are free cells anywhere in the play area that show a
card's paper and band about where the regular lattice through the placed cards puts them
(`far_cells`: a group beyond an arm, which the lattice growth cannot link). A blob that may
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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from ..faces import HEXEL_FACE
from .band_pose import band_poses, band_repose
from .calibration import (
    MARKER_MM,
    CameraCalibration,
    TableCalibration,
    TableView,
    calibrate_table,
)
from .cards import (
    Blob,
    CardFit,
    DetectParams,
    consistent_sizes,
    contrast_mask,
    cut_necks,
    fit_hexagons,
    fitted_card,
    gathered_blobs,
    outer_contours,
    paper_area,
    paper_blobs,
    paper_mask,
    printed_size,
    reseat_paper,
)
from .cards import work_scale as _work_scale
from .cell_poses import card_apothems, cell_pose
from .change import StillFrames
from .colour import ColourModel, builtin_model
from .colourless import colourless, grey_symbols
from .far_cells import far_cells
from .frames import check_frame
from .gathered_size import sized_by_read
from .geometry import axial_distance, hexagon
from .grey_shapes import (
    MIN_SHAPES,
    SHAPE_CONFIDENCE,
    grey_letters,
    grey_matches,
    grey_scores,
    holodex_print,
    plain_count,
)
from .inks import (
    adapt_inks,
    confused_letters,
    faded_letters,
    faded_off_hue,
    faint_letters,
    symbol_cores,
)
from .lattice import (
    GrownLattice,
    card_frame,
    grow_lattice,
)
from .observation import (
    BY_SHAPE_NOTE,
    GREY_PRINT_NOTE,
    GREY_PRINT_WEB,
    HOLODEX_GREY_NOTE,
    LOWER_EXPOSURE_LINE,
    NO_COLOUR_NOTE,
    OVER_EXPOSED,
    HexelObservation,
    LooseCard,
    SeenCard,
    faint_ink_note,
    ink_doubt_note,
    no_disc_note,
    no_ring_note,
    over_exposed_cards_note,
    shape_read_note,
    unnamed_ink_note,
)
from .passes import Passes, together
from .probe import (
    N_BORDER_PLACES,
    better,
    coarse_ahead,
    probe_all,
    probe_cells,
    refit_cells,
    repose_unread,
    smeared_band,
    whole_read,
)
from .reader_params import LOOSE_FIT_IOU, ReaderParams
from .ring_shape import disc_contradicted, disc_unseen, hole_px, ring_contradicted, ring_matches
from .shape_confirmed import confirmable, shape_confirmed
from .shape_ink import (
    MIN_NAMED,
    disagreeing,
    faint_unshown,
    hue_named,
    shape_kept,
    shape_matches,
    shape_named,
    shown,
    symbol_pictures,
)
from .symbol_crossings import off_table_ink
from .symbol_lamp import over_exposed
from .symbol_pose import symbol_repose
from .symbol_samples import CardRead, Pose
from .symbols import StagedRead, read_cards, read_together, uncrossed, undimmed
from .unnamed_ink import UNNAMED_WHOLE, unnamed_ink
from .unread_runs import unfree_run_out
from .veil import veil_passes
from .washed_holodex import washed_holodex

OCCLUDED_MAX_CONFIDENCE = 0.3
FALLBACK_CONFIDENCE = 0.5  # a symbol read by a rule other than its samples' vote (`symbol_decide`)
PLAY_MARGIN = 0.1          # cards are looked for this far (of the longer side) outside the
                           # play area too, and one card further
DOUBT_READS = 300          # full reads a letter stays in doubt after the last one showing it
MARKER_RETRY_FRAMES = 30   # an uncalibrated reader looks for the table markers this seldom
# the notes on how the camera sees the table (`camera_setup`)
UNCALIBRATED = "uncalibrated: table markers not found"
THREE_MARKERS = "calibrated from three table markers"
MARKER_SIZE = "times as wide as the table markers"
OTHER_SHAPE = "lens correction not used"
MIN_SIZED = 2   # whole cards that measure the face's size where the markers' size hid them
FEW_CARDS = 3              # fewer whole cards than this: their paper is looked for by its
                           # local range too (`_by_contrast`)


def camera_setup(obs: HexelObservation) -> str:
    """What the reader's notes say of the camera's view of the table, shortly, for the
    scoreboard's camera line ('' when the four table markers calibrate it as printed)."""
    said = []
    for n in obs.notes:
        if n.startswith(UNCALIBRATED):
            said.append("no table markers in view: reading in image pixels")
        elif n.startswith(THREE_MARKERS):
            said.append("three table markers in view" + n[len(THREE_MARKERS):].split(",")[0]
                        + ")")
        elif MARKER_SIZE in n:
            ratio = n.split()[1]
            said.append(f"cards {ratio} times the size the table markers give: set the "
                        "markers' size (marker_mm)")
        elif n.startswith(OTHER_SHAPE):
            said.append("the camera calibration is for frames of another shape: calibrate "
                        "the camera at this size")
        elif n.startswith(OVER_EXPOSED):
            said.append(f"card paper over-exposed: {LOWER_EXPOSURE_LINE}")
    return "; ".join(said)


# `HexelReader._detect`'s: the paper mask, whole cards, hexagons that are not cards, other blobs
_Detected = tuple[np.ndarray, list[CardFit], list[CardFit], list[Blob]]


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
    loose_poses: tuple[Pose, ...] = ()   # the poses of `observation.loose`, in its order


class HexelReader:
    """Reads Hex'el tables. Keeps the table calibration between frames (a fixed camera) and, with
    `keep_still`, the last full read for frames in which nothing changed. The table markers are
    taken to be printed `marker_mm` wide (`companion markers export --size-mm`); cards that
    markers of another size make far larger or smaller than the printed face are measured on the
    frame instead (`_sized_anew`), and `notes` asks for the markers' size."""

    def __init__(self, edition: str = "holodex", *, model: ColourModel | None = None,
                 table: TableCalibration | None = None, camera: CameraCalibration | None = None,
                 find_markers: bool = True, params: ReaderParams = ReaderParams(),
                 keep_still: bool = True, marker_mm: float = MARKER_MM) -> None:
        if not marker_mm > 0:
            raise ValueError(f"the table markers' size must be positive, not {marker_mm!r} mm")
        self.edition = edition
        self.marker_mm = marker_mm
        self.model = model or builtin_model(edition)
        if self.model.edition != edition:
            raise ValueError(f"colour model is for {self.model.edition!r}, not {edition!r}")
        self.camera = camera
        # the intrinsics as saved, for their own frame size (`camera`: as used at this size)
        self._lens = camera
        self.view = TableView(table, camera)
        self.find_markers = find_markers
        self.params = params
        self._card_px: float | None = None
        # a card face's area in the plane as measured on the frame, where the markers' size
        # made the printed one wrong (`_sized_anew`; None: the printed size stands)
        self._card_area: float | None = None
        self._own: dict[int, CardRead] = {}
        self._shapes: tuple | None = None   # `_detect`'s last shapes
        self._refound: dict[int, tuple[Blob, list[CardFit]]] = {}   # `_shrunk_fits`' memo
        self._ahead: tuple[tuple, _Layout] | None = None   # `_lay_out_ahead`'s layout
        self._since_search = MARKER_RETRY_FRAMES   # frames since the last marker search
        self.keep_still = keep_still
        self._still: StillFrames[ReadResult] = StillFrames()
        self._doubt: dict[str, int] = {}   # letter in doubt -> full reads it stays so
        self._grey_print = False   # the last frame's cards printed without colour (`_read`)
        self._colourless = False   # the last frame a picture without colour (`_read`)
        # the frame size (height, width) the table calibration maps, once a frame was seen or
        # markers found (`_same_size`)
        self._view_shape: tuple[int, int] | None = None

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

    def calibrate(self, frame: np.ndarray, marker_mm: float | None = None) -> bool:
        """Look for the table markers (all four, or three when one is covered), `marker_mm`
        wide (default: the reader's `marker_mm`); on success use them from now on. A
        calibration from all four is not given up for one from three. A frame that is no BGR
        colour image of 8-bit channels, MIN_SIDE px each way, is refused (`frames.check_frame`:
        ValueError) and the calibration kept."""
        check_frame(frame, "the table calibration")
        self._same_size(frame)
        table = calibrate_table(frame, marker_mm or self.marker_mm, self.camera)
        if table is None:
            return False
        current = self.view.table
        if current is None or table.complete or not current.complete:
            self.view = TableView(table, self.camera)
            self._card_px = self._card_area = None
        return True

    def _same_size(self, frame: np.ndarray) -> None:
        """Keep the table calibration only for frames of the size it was made on: a camera
        switched to another mode (or a picture of another size) maps the table to other
        pixels, and the old homography would lay every card's samples off its card. On a
        change of size the calibration and the cards' size are dropped, and the markers
        searched for on this frame (`find_markers`; else it is read in image pixels, noted).
        The camera's intrinsics, saved for one size, are used at this one as
        `CameraCalibration.for_size` gives them (scaled, or none for another shape: noted)."""
        shape = (frame.shape[0], frame.shape[1])
        if self._view_shape == shape:
            return
        first = self._view_shape is None
        self._view_shape = shape
        camera = None if self._lens is None else self._lens.for_size(shape[1], shape[0])
        if first:
            # (a table given with the reader was given for these frames)
            if camera != self.camera:
                self.camera = camera
                self.view = TableView(self.view.table, camera)
            return
        self.camera = camera
        self.view = TableView(None, camera)
        self._card_px = self._card_area = None
        self._ahead = None
        self._since_search = MARKER_RETRY_FRAMES

    def _detect(self, frame: np.ndarray, scale: float, roi: tuple[int, int, int, int] | None,
                card_area: float | None, shapes: tuple | None = None
                ) -> _Detected | None:
        """Stage 1 at `scale`: (paper mask, whole cards, hexagons that are not cards, the other
        blobs), the hexagons taken from the mask's blobs, blobs two cards wide cut at their
        necks (`_recut`) and blobs that may hold a card whose paper the mask lost found again
        (`_reseat`); the cards whose paper the mask kept in pieces, gathered again, are told
        with the rest in place of the hexagons of those pieces that read as no card
        (`_pieced`); where the first telling finds fewer than FEW_CARDS cards, the hexagons of
        the paper found by its local range are added and all told again (`_by_contrast`).
        The shapes, which no colour decides, are kept in `self._shapes`: given
        as `shapes`, only the cards among them are told again (with another colour model).
        None at a scale below 1 where the cards it would find are surely too small for it
        (`_surely_small`: the frame is then worked at full size, and nothing is read here)."""
        view, p = self.view, self.params.detect
        if shapes is None:
            mask = paper_mask(frame, scale, p, roi)
            outlines = outer_contours(mask)
            blobs = paper_blobs(mask, scale, view, p, outlines)
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
        else:
            outlines = None
        first_telling = self._shapes is not shapes
        self._shapes = shapes
        mask, candidates, found, rest = shapes
        hook = None
        if first_telling:
            def hook(whole: list[CardFit], not_cards: list[CardFit]) -> list[StagedRead]:
                return self._lay_out_ahead(frame, mask, scale, whole, not_cards, rest)

        def tell(candidates: list[CardFit], found: list[CardFit]
                 ) -> tuple[list[CardFit], list[CardFit]]:
            """(whole, not cards) among these hexagons (`found`: outlines found again)."""
            return together(self._tell(frame, scale, [*candidates, *found],
                                       {id(f) for f in found}, card_area, hook))[0]

        whole, not_cards = tell(candidates, found)
        pieced = [] if outlines is None else _pieced(fit_hexagons(
            gathered_blobs(mask, scale, view, p, outlines, len(whole)), p, not view.calibrated,
            card_area)[0], whole)
        if first_telling and pieced:
            # cards whose paper the mask kept in pieces, gathered again (`_pieced`), each at
            # the size it reads best at (`sized_by_read`: the blur that cut the paper apart
            # shrank their hull), in place of the hexagons centred on them that read as no
            # card, and all told again
            pieced = sized_by_read(frame, view, self.model, pieced)
            candidates = [*(f for f in candidates if not _piece_of(f, pieced, whole)), *pieced]
            found = [f for f in found if not _piece_of(f, pieced, whole)]
            self._shapes = (mask, candidates, found, rest)
            whole, not_cards = tell(candidates, found)
        if first_telling and len(whole) < FEW_CARDS:
            # too few cards for a lattice to grow and probe from: the paper found by its
            # local range may give those the mask kept only in patches (`_by_contrast`)
            more = _by_contrast(frame, scale, view, p, roi, [*candidates, *found], card_area)
            if more:
                found = [*found, *more]
                self._shapes = (mask, candidates, found, rest)
                whole, not_cards = tell(candidates, found)
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
        read of the free cells to probe (`probe_cells`, and where `refit_cells` moves them)
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
        cand, doubtful = probe_cells(mask, scale, lat, taken, view, p, frame,
                                     [f.iou for f in whole])
        # a cell whose band shows only in part is also read where `refit` moves it (a card
        # laid a little off the lattice), in the same pass, and probed from the better pose
        moved = refit_cells(frame, view, cand, doubtful, off)
        part_cells, part_poses = _partials(rest, lat, set(taken), p)
        # on a calibrated table, the free cells elsewhere in the play area that show a card's
        # contrast about where the regular lattice puts them (`far_cells`): read in the same
        # passes, as a read of their own (a read's lamp is chosen over its own cards, and the
        # cards above must read as they did), and probed on their own
        far = far_cells(frame, mask, scale, lat, view,
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
              ) -> Passes[tuple[list[CardFit], list[CardFit]]]:
        """(whole cards, hexagons that are not cards) among the hexagons `fits`, made pass by
        pass (`Passes`): those that show symbols at the symbol places, of one size (those
        whose `id` is in `reseated`, outlines found again, their paper and border nearly all
        there: `_cards_of`), each card's reading at its own pose kept in `self._own` for the
        verdict; then those once the hexagons turned down, and the cards whose outline fits
        their hexagon only loosely (LOOSE_FIT_IOU) and that do not read whole by every
        symbol's vote (`_firmly_whole`), have had their paper found again (`_shrunk_fits`). A
        soft shadow's edge across a card lifts the paper mask's wide local mean on the card's
        lit side: the blob left still fits a hexagon, only a smaller one, and fails the card
        test; a bright spot of the table beside a card merges with its paper and pulls the
        fitted outline off the card. The card's own paper against
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
                 and not _firmly_whole(own[id(f)], self.params)]
        return _shrunk_fits(frame, scale, self.view, self.params.detect, whole,
                            [*not_cards, *loose], card_area, self._refound)

    def _turned_down(self, whole: list[CardFit], not_cards: list[CardFit],
                     found: list[CardFit], came_from: dict[int, CardFit],
                     reads: list[CardRead]) -> tuple[list[CardFit], list[CardFit]]:
        """`_tell`'s verdict on the hexagons `found` again (`reads`: theirs)."""
        ids = {id(f) for f in found}
        cards, _ = _cards_of(found, reads, self.params, ids, sized=False)
        self._own = {**self._own, **dict(zip(map(id, found), reads, strict=True))}
        cards = [f for f in cards if whole_read(self._own[id(f)], self.params)]
        replaced = {id(came_from[id(f)]) for f in cards}
        others = [f for f in whole if id(f) not in replaced]
        sized = {id(f) for f in consistent_sizes([*others, *cards])[0]}
        cards = [f for f in cards if id(f) in sized]
        gone = {id(came_from[id(f)]) for f in cards}
        return ([*(f for f in whole if id(f) not in gone), *cards],
                [f for f in not_cards if id(f) not in gone])

    def _sized_anew(self, frame: np.ndarray, roi: tuple[int, int, int, int] | None
                    ) -> tuple[_Detected, float] | None:
        """Where a calibrated frame shows no whole card of the size the markers give the printed
        face (or that the last such frame measured): its cards found at full size whatever
        their size, and the face's area they show, where at least MIN_SIZED of them read whole
        and the printed size would have turned them away (the markers printed at another size
        than the reader takes, say 60 mm for 40). That size is kept for the next frames
        (`_card_area`) until a frame shows no card of it; cards of the printed size found then
        are read so. None (and the printed size again) where the cards' size is not what hid
        them."""
        printed = _card_area_plane(self.view)
        assert printed is not None
        measured, self._card_area = self._card_area, None
        detected = self._detect(frame, 1.0, roi, None)
        if detected is None or len(detected[1]) < MIN_SIZED:
            return None
        paper = float(np.median([f.blob.area_plane for f in detected[1]]))
        if printed_size(paper, printed):
            # cards of the printed size after all: read as such where a size measured before
            # (cards since reprinted) hid them, else left to the printed size's own reading
            return (detected, printed) if measured is not None else None
        self._card_area = paper * printed / paper_area(printed)
        return detected, self._card_area

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
        """Read one BGR frame (a still table, with `keep_still`: by keeping the last full read).
        A frame that is no BGR colour image of 8-bit channels, MIN_SIDE px each way, is refused
        (`frames.check_frame`: ValueError) before the reader's state changes."""
        check_frame(frame, "the Hex'el reader")
        self._same_size(frame)
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
        `_table_inks`; the reader's own model again afterwards). A frame without colour
        (`colourless`), or whose cards show none (printed in black and white:
        `colourless.grey_symbols`, judged where the frame's hexagons are first told), has its
        cards reported, none of them read."""
        base = self.model
        self._grey_print = False
        self._colourless = colourless(frame)
        try:
            result = self._read_frame(frame, t, seq, keep_stages)
        finally:
            self.model = base
        if result.observation.by_shape:
            return result
        if self._colourless:
            return _without_colour(result)
        return _without_colour(result, grey_print=True) if self._grey_print else result

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
        `symbol_lamp.band_white`): that re-read can complete a card of another printer's inks
        under our model, and must not stand in for the telling with the table's inks; nor do
        the symbols read by their shape and hue (`CardRead.by_colour`). An ink
        printed so faint that no core of it reaches an ink's chroma is learned from the cores
        of the symbols no coloured letter was read for (`inks.faint_inks`)."""
        doubt = any("?" in self._own[id(f)].by_colour for f in plain)
        coloured = {n for n, grey in zip(self.model.letters, self.model.neutral, strict=True)
                    if not grey}
        unread = np.array([[c not in coloured for c in self._own[id(f)].by_colour]
                           for f in plain], bool).reshape(-1)
        inks = adapt_inks(self.model, cores, doubt, unread=unread)
        if inks is None:
            return []
        turned = adapt_inks(self.model, cores, doubt, fade=False)
        if turned is None:
            return [(inks, "")]
        # (the letters whose ink is turned at full strength: our reading of them is in doubt)
        full = _changed(self.model, turned, inks)
        return [(inks, full)] if turned.protos == inks.protos else [
            (inks, full), (turned, _changed(self.model, turned))]

    def _plain(self, frame: np.ndarray, fits: list[CardFit]
               ) -> tuple[list[CardFit], np.ndarray, np.ndarray]:
        """The hexagons of `fits` whose paper and border band say they are cards whatever
        their symbols read, their symbols' cores (`inks.symbol_cores`, each card against
        the white reference its read found; cards x 6 x 3) and those white references (cards
        x 3 BGR); cards not all in the frame left out of all three."""
        p, own = self.params, self._own
        plain = [f for f in fits if own[id(f)].paper_ok >= p.min_card_paper
                 and own[id(f)].border_ok >= p.min_card_border]
        poses = [Pose(f.centre, f.apothem, f.angle, 1, f.shape) for f in plain]
        whites = np.array([own[id(f)].white_bgr for f in plain]).reshape(-1, 3)
        cores, inside = symbol_cores(frame, poses, whites, self.view)
        return ([f for f, ok in zip(plain, inside, strict=True) if ok], cores.reshape(-1, 6, 3),
                whites[inside])

    def _faded_hues(self, frame: np.ndarray, poses: list[Pose], found_poses: list[Pose],
                    reads: list[CardRead], found_reads: list[CardRead]
                    ) -> tuple[list[CardRead], list[CardRead]]:
        """`reads` (of the cards at `poses`) and `found_reads` (at `found_poses`) with every
        symbol read as a letter of an ink the table faded (`inks.faded_letters`: a paler
        print's) whose core's hue lies nearer another coloured ink's left unread
        (`inks.faded_off_hue`); the cores measured only on a frame read with a faded ink, on
        the cards that read such a letter."""
        faded = faded_letters(self.model)
        every = reads + found_reads
        at = [k for k, r in enumerate(every) if faded.intersection(r.symbols)]
        if not at:
            return reads, found_reads
        every_pose = poses + found_poses
        cores, inside = symbol_cores(frame, [every_pose[k] for k in at],
                                     np.array([every[k].white_bgr for k in at]), self.view)
        for k, core in zip([k for k, ok in zip(at, inside, strict=True) if ok],
                           cores.reshape(-1, 6, 3), strict=True):
            gone = faded_off_hue(every[k].symbols, core, self.model, faded)
            if any(gone):
                every[k] = uncrossed(every[k], tuple(gone))
        return every[:len(reads)], every[len(reads):]

    def _off_ink(self, frame: np.ndarray, poses: list[Pose], found_poses: list[Pose],
                 part_poses: list[Pose], reads: list[CardRead], found_reads: list[CardRead]
                 ) -> tuple[list[CardRead], list[CardRead]]:
        """`reads` (the placed cards' at `poses`, then the partial blobs' at `part_poses`) and
        `found_reads` (at `found_poses`), judged together, with the symbols
        `symbol_crossings.off_table_ink` flags unread."""
        n, m = len(poses), len(found_poses)
        both = reads[:n] + found_reads + reads[n:]
        off = off_table_ink(frame, list(poses) + list(found_poses) + list(part_poses),
                            [r.symbols for r in both], np.array([r.white_bgr for r in both]),
                            self.view, self.model)
        both = [uncrossed(r, tuple(bool(x) for x in o)) if o.any() else r
                for r, o in zip(both, off, strict=True)]
        return both[:n] + both[n + m:], both[n:n + m]

    def _confused(self, frame: np.ndarray, plain: list[CardFit], cores: np.ndarray,
                  found_poses: list[Pose], found_reads: list[CardRead],
                  banded: dict[int, tuple[Pose, CardRead]] | None = None) -> str:
        """The letters this frame shows in doubt (`_held_doubt` holds them over frames):
        `inks.confused_letters` of the plain hexagons' own reads (`plain`, `cores`: `_plain`'s)
        and of the cards found by probing, read whole at their probed poses (never plain
        hexagons, yet reported), and of the placed cards re-read at the pose their printed band
        or their symbols give (`banded`: by the card's `id`, that pose and read, `band_pose`,
        `symbol_pose`; in place of a plain hexagon's own read): a letter that re-read fills in
        faces the doubt. The doubt is judged on the reads as first made
        (`CardRead.first_symbols`) and again on the final ones where a later pass (the re-read
        by the lamp a card's own band shows) filled in or changed a letter: a letter that pass
        gives must face the same doubt, and one the first reads put in doubt stays there. The
        symbols read by their shape and hue (`washed`) are left out of both (`CardRead.by_colour`,
        `CardRead.colour_symbols`): the doubt is over the colours."""
        if banded:
            keep = [k for k, f in enumerate(plain) if id(f) not in banded]
            plain, cores = [plain[k] for k in keep], cores.reshape(-1, 6, 3)[keep]
            found_poses = [*found_poses, *(q for q, _ in banded.values())]
            found_reads = [*found_reads, *(r for _, r in banded.values())]
        whites = np.array([r.white_bgr for r in found_reads]).reshape(-1, 3)
        more, inside = symbol_cores(frame, list(found_poses), whites, self.view)
        reads = [self._own[id(f)] for f in plain]
        reads += [r for r, ok in zip(found_reads, inside, strict=True) if ok]
        both = np.concatenate([cores.reshape(-1, 3), more]).reshape(-1, 6, 3)
        refs = np.array([self._own[id(f)].white_bgr for f in plain] + whites[inside].tolist()
                        ).reshape(-1, 3)
        first = [r.by_colour for r in reads]
        seen = confused_letters(self.model, both, first, refs)
        final = [r.colour_symbols for r in reads]
        if final != first:
            seen = "".join(sorted(set(seen) | set(confused_letters(self.model, both, final,
                                                                   refs))))
        return seen

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
            f"{UNCALIBRATED}, working in image pixels (assumes a camera looking nearly straight "
            "down)"]
        if self._lens is not None and self.camera is None:
            w0, h0 = self._lens.image_size
            notes.append(f"{OTHER_SHAPE}: the camera calibration was made on {w0} x {h0} frames, "
                         f"these are {frame.shape[1]} x {frame.shape[0]} (read without its lens "
                         "correction; calibrate the camera at this size: `companion calibrate "
                         "camera`)")
        if view.table is not None and not view.table.complete:
            hidden = [i for i in range(4) if i not in view.table.markers]
            notes.append(f"{THREE_MARKERS} (marker {hidden[0]} not seen, or left out as not "
                         "fitting the others)")
        stages: dict[str, np.ndarray] = {"0_input": frame} if keep_stages else {}
        scale = _work_scale(self.card_px(frame.shape), p.detect)
        roi = _play_roi(view, frame.shape)
        card_area = self._card_area or _card_area_plane(view)
        detected = self._detect(frame, scale, roi, card_area)
        px = None if detected is None else _card_px(detected[1], view)
        if scale < 1.0 and _small(px, p.detect):
            scale = 1.0   # the guess was wrong: cards too small for the halved frame
            detected = self._detect(frame, scale, roi, card_area)
            assert detected is not None
            px = _card_px(detected[1], view)
        assert detected is not None
        if not detected[1] and card_area is not None:
            anew = self._sized_anew(frame, roi)
            if anew is not None:
                detected, card_area = anew
                scale, px = 1.0, _card_px(detected[1], view)
        if self._card_area is not None:
            printed = _card_area_plane(view)
            assert printed is not None
            notes.append(
                f"cards {math.sqrt(self._card_area / printed):.2f} {MARKER_SIZE} "
                f"({self.marker_mm:g} mm) make the printed face: read at the size measured; give "
                "the markers' printed size (`recognize --marker-mm`, `marker_mm` in the config's "
                "[camera])")
        mask, whole, not_cards, rest = detected
        plain, cores, whites = self._plain(frame, [*whole, *not_cards])
        # (cards printed without colour are read as none: `_read`, `colourless.grey_symbols`)
        self._grey_print = grey_symbols(cores, whites)
        if self.model.edition == "web" and (self._grey_print or self._colourless):
            # (web cards without colour: read by their symbols' shapes alone, `grey_shapes`)
            return self._read_by_shape(frame, mask, scale, plain, rest, notes, t, seq, stages)
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
                plain, cores, _ = self._plain(frame, [*whole, *not_cards])
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
            notes.append(f"{len(off)} card(s) off the lattice: listed apart, without a cell")
        n_probe = len(cand) + len(moved)
        read_together([s for s in (staged, far_staged) if s.first is None])   # (not begun ahead)
        # the probe's first pass joins this read's re-read pass where the first reads already
        # say where it starts (`probe` checks that the final reads say the same)
        ahead = far_ahead = None
        if not staged.done:
            assert staged.first is not None
            ahead = coarse_ahead(frame, cand, staged.first[:len(cand)], moved,
                                 staged.first[len(cand):n_probe], view, self.model, p,
                                 (part_cells, part_poses, staged.first[n_probe:]))
        if not far_staged.done:
            assert far_staged.first is not None
            far_ahead = coarse_ahead(frame, far, far_staged.first, {}, [], view, self.model, p)
        read_together([staged, far_staged, *(a[1] for a in (ahead, far_ahead) if a)])
        first = staged.reads
        assert first is not None and far_staged.reads is not None
        # a partial blob's cell is searched as a free cell is (`better`)
        start, start_reads = better(cand, first[:len(cand)], moved, first[len(cand):n_probe],
                                    p, (part_cells, part_poses, first[n_probe:]))
        reads = [_reorient(self._own[id(f)], f, pose) for f, pose in zip(whole, poses,
                                                                         strict=True)]
        # the probe (and on from what it finds) and the re-posing of placed cards that do not
        # read whole (at their band's pose, then searched where fitted loosely: `_reposed`),
        # pass by pass together: neither depends on the other
        (found_cells, found_poses, found_reads), reposed = together(
            probe_all(frame, start, start_reads, view, self.model, p, ahead, mask, scale, lat,
                      taken | set(start)),
            _reposed(frame, whole, lat, poses, reads, view, self.model, p))
        # (a far cell those probes reached on from a card they found is theirs)
        far_reads = [r for k, r in zip(far, far_staged.reads, strict=True)
                     if k not in found_cells]
        far = {k: q for k, q in far.items() if k not in found_cells}
        if far:
            more = together(probe_all(frame, far, far_reads, view, self.model, p, far_ahead,
                                      mask, scale, lat,
                                      taken | set(start) | set(far) | set(found_cells)))[0]
            found_cells, found_poses, found_reads = (
                a + b for a, b in zip((found_cells, found_poses, found_reads), more,
                                      strict=True))
        if found_cells:
            notes.append(f"{len(found_cells)} card(s) found by probing the lattice")
        # (the cards under a glare's veil read again with it taken off: the placed ones not
        # read whole re-read, in place, and the free cells next to them probed, `veil`)
        v_cells, v_poses, v_reads, v_placed = together(veil_passes(
            frame, view, self.model, p, lat, taken | set(found_cells), poses, reads,
            list(zip(found_poses, found_reads, strict=True))))[0]
        if v_cells or v_placed:
            notes.append(f"{len(v_cells) + len(v_placed)} card(s) read under a glare's veil")
            found_cells, found_poses, found_reads = (
                a + b for a, b in zip((found_cells, found_poses, found_reads),
                                      (v_cells, v_poses, v_reads), strict=True))
        found = set(found_cells)
        kept = [k for k, c in enumerate(part_cells) if c not in found]
        part_cells = [part_cells[k] for k in kept]
        part_poses = [part_poses[k] for k in kept]
        reads += [first[n_probe + k] for k in kept]
        # (a card re-read at its band's or its symbols' pose faces the ink doubt as read there:
        # `_confused`)
        banded, centred = reposed
        seen = self._confused(frame, plain, cores, found_poses, found_reads,
                              {id(whole[k]): (poses[k], reads[k]) for k in [*banded, *centred]})
        if seen and centred:
            # (the cards re-read where their symbols put them go back to their poses and reads
            # before where they bring a letter into doubt that the rest do not: `symbol_pose`)
            without = self._confused(frame, plain, cores, found_poses, found_reads,
                                     {id(whole[k]): (poses[k], reads[k]) for k in banded})
            if set(without) < set(seen):
                for k, (pose, read) in centred.items():
                    poses[k], reads[k] = pose, read
                seen = without
        confused = self._held_doubt(seen)
        kept = 0
        # (the placed and found cards whose shapes `shape_kept` matches: not matched again)
        doubted = [any(c in confused for c in r.symbols) for r in reads[:len(poses)]
                   + found_reads] if confused else None
        if confused:
            notes.append(ink_doubt_note(confused, self.model.edition == "web"))
            if self.model.edition == "web":
                # (a web symbol whose shape plainly shows the letter its colour read is kept:
                # two cues agree, `shape_ink.shape_kept`)
                both, kept = shape_kept(frame, poses + part_poses + found_poses,
                                        reads + found_reads, view, confused)
                reads, found_reads = both[:len(reads)], both[len(reads):]
            else:
                reads = [_blanked(r, confused) for r in reads]
                found_reads = [_blanked(r, confused) for r in found_reads]
        # (a symbol darker than the ink its hue names is reported unread, once the ink doubt
        # has seen it read: `symbol_crossings.INK_RIVAL_DEG`)
        reads = [undimmed(r) for r in reads]
        found_reads = [undimmed(r) for r in found_reads]
        # (a weak symbol off its ink's hue on the table's other cards, under an object lying
        # across the paper strip at its edge, is reported unread: `off_table_ink`)
        reads, found_reads = self._off_ink(frame, poses, found_poses, part_poses, reads,
                                           found_reads)
        # (a symbol read as an ink the table faded whose core's hue lies nearer another ink's
        # is reported unread: `inks.faded_off_hue`)
        reads, found_reads = self._faded_hues(frame, poses + part_poses, found_poses, reads,
                                              found_reads)
        all_poses = tuple(poses + found_poses + part_poses)
        n, m = len(poses), len(poses) + len(found_poses)
        # (a holodex symbol read as the grey ring whose picture shows a solid disc: `ring_shape`)
        no_ring = no_disc = 0
        if self.model.edition == "holodex" and self.model.grey_k is not None:
            checked, no_ring, no_disc = self._ring_checked(frame, all_poses[:m],
                                                            reads[:n] + found_reads)
            reads[:n], found_reads = checked[:n], checked[n:]
            if no_ring:
                notes.append(no_ring_note(no_ring))
            if no_disc:
                notes.append(no_disc_note(no_disc))
        # (a holodex symbol washed pale, read by its shape and hue where no ink is in doubt:
        # `washed_holodex`; its discs only where the table shows no ink that no letter names:
        # such an ink washed pale leans to whichever letter's hue lies nearest, a blue printed
        # towards magenta to a pink that our red's hue names, see `unnamed_ink`)
        # (but no symbol whose colour runs on past the card's outline: an object lies over it,
        # `unread_runs`)
        if self.model.edition == "web" or (self.model.edition == "holodex" and not confused):
            freed = unfree_run_out(frame, all_poses[:m], view, reads[:n] + found_reads)
            reads[:n], found_reads = freed[:n], freed[n:]
        if self.model.edition == "holodex" and not confused:
            foreign_ink = any(any(r.unread_ink) for r in reads[:n] + found_reads) and not (
                faint_letters(self.model)) and self._unnamed(frame, all_poses[:m],
                                                             reads[:n] + found_reads)
            named, _ = washed_holodex(frame, all_poses[:m], reads[:n] + found_reads, view,
                                      self.model, "" if foreign_ink else None)
            reads[:n], found_reads = named[:n], named[n:]
        # (a web symbol whose colour names no letter, read by its shape where the table shows
        # that shape's symbols in one ink: `shape_ink`)
        # (and every web letter its printed shape contradicts left unread)
        by_shape = 0
        if self.model.edition == "web":
            named, by_shape = self._web_shapes(frame, all_poses[:m], reads[:n] + found_reads,
                                               doubted)
            reads[:n], found_reads = named[:n], named[n:]
        # (the symbols reported read by their shape and hue, here or within the reads)
        by_hue = sum(b and c != "?" for r in reads[:n] + found_reads
                     for b, c in zip(r.by_hue, r.symbols, strict=False))
        if by_shape or kept or by_hue:
            notes.append(shape_read_note(by_shape, kept, by_hue,
                                         self.model.edition == "holodex"))
        at = _centres_px(all_poses, view)
        seen = [_verdict(tuple(int(v) for v in c), f.iou, r, xy, p)
                for c, f, r, xy in zip(cells, whole, reads[:n], at[:n], strict=True)]
        seen += [_verdict(c, p.detect.min_iou, r, xy, p)
                 for c, r, xy in zip(found_cells, found_reads, at[n:m], strict=True)]
        # (a partial blob is a covered card where it shows symbols, but not where they include
        # a faint ink's letters: so faint an ink lies close to a textured table's shades, and
        # the blob's other letters are judged against a white taken from the same shades,
        # `inks.faint_letters`)
        faint = faint_letters(self.model)
        for c, r, xy in zip(part_cells, reads[n:], at[m:], strict=True):
            if (r.letters >= p.min_partial_symbols and not faint.intersection(r.symbols)
                    and r.border_ok >= p.min_partial_border and r.paper_ok >= p.min_partial_paper
                    and r.border_ok + r.paper_ok >= p.min_partial_face
                    and _band_runs_along_an_edge(r)):
                seen.append(_occluded(c, r, xy))
        seen.sort(key=lambda s: (s.cell[1], s.cell[0]))
        loose = self._loose(off, lat, confused)
        # (a letter in doubt is left unread for that: its ink has a name, two in fact)
        unnamed = 0 if confused else self._unnamed(frame, all_poses[:m], reads[:n] + found_reads)
        if unnamed and faint:
            notes.append(faint_ink_note(unnamed, "".join(sorted(faint))))
        elif unnamed:
            notes.append(unnamed_ink_note(unnamed))
        # (the whole cards' paper at the camera's clip in two colours: the exposure to lower)
        lit = [r.white_bgr for r in reads[:n] + found_reads if r.paper_ok >= p.min_card_paper]
        clipped = over_exposed(np.array(lit))
        if clipped:
            notes.append(over_exposed_cards_note(clipped, len(lit)))
        obs = HexelObservation(tuple(seen), view.calibrated, t, seq, tuple(notes), confused,
                               tuple(card for card, _ in loose), unnamed, no_ring=no_ring,
                               no_disc=no_disc, over_exposed=clipped)
        if keep_stages:
            stages["3_lattice"] = _draw_lattice(frame, lat, view, cells, poses, part_cells,
                                                part_poses)
            stages["4_samples"] = _draw_samples(frame, all_poses, view)
            from .annotate import annotate

            stages["5_result"] = annotate(frame, obs, all_poses, view,
                                          [pose for _, pose in loose])
        all_reads = tuple(reads[:len(poses)] + found_reads + reads[len(poses):])
        return ReadResult(obs, view, lat, all_poses, all_reads, stages,
                          loose_poses=tuple(pose for _, pose in loose))

    def _ring_checked(self, frame: np.ndarray, poses: Sequence[Pose], reads: list[CardRead]
                      ) -> tuple[list[CardRead], int, int]:
        """`reads` (of the holodex cards at `poses`) with every symbol read as the grey ring
        whose picture shows a disc (`ring_shape.ring_contradicted`), every symbol read as
        a coloured disc whose picture shows the ring (`ring_shape.disc_contradicted`), and
        every one read as a coloured disc whose picture shows no disc where its card's other
        discs do (`ring_shape.disc_unseen`), left unread; and how many of the first two were
        (of the latter, those on cards that would otherwise
        have been reported whole, `_verdict`: on a card a hand covers anyway, such a symbol is
        the hand's doing as likely as the light's, and the referee waits for a clear view)."""
        ring = self.model.letters[self.model.grey_k]
        at = [k for k, r in enumerate(reads) if r.letters]
        if not at:
            return reads, 0, 0
        scores, contrast = ring_matches(frame, [poses[k] for k in at], self.view,
                                        np.array([reads[k].white_bgr for k in at]))
        out, rings, discs = list(reads), 0, 0
        holes = hole_px([poses[k] for k in at], self.view)
        faint = faint_letters(self.model)
        chosen = [reads[k] for k in at]
        for k, no_ring, no_disc, unseen in zip(
                at, ring_contradicted(chosen, scores, contrast, ring, holes, faint),
                disc_contradicted(chosen, scores, contrast, ring, holes, faint),
                disc_unseen(chosen, scores, contrast, ring, holes, faint), strict=True):
            gone = tuple(a or b or c for a, b, c in zip(no_ring, no_disc, unseen, strict=True))
            if any(gone):
                out[k] = uncrossed(out[k], gone)
                rings += sum(no_ring)
                if whole_read(reads[k], self.params) or smeared_band(reads[k], self.params):
                    discs += sum(no_disc)
        return out, rings, discs

    def _web_shapes(self, frame: np.ndarray, poses: Sequence[Pose], reads: list[CardRead],
                    doubted: list[bool] | None) -> tuple[list[CardRead], int]:
        """`reads` (of the web cards at `poses`) with every letter read that its printed shape
        contradicts left unread (`shape_ink.disagreeing`: colour and shape are two cues, and a
        colour misread they would have to share), and, with no ink in doubt (`doubted` None),
        the symbols their shape names read (`shape_ink.shape_named`, their cores measured where
        they were read), then those whose own shape and hue agree (`shape_ink.hue_named`: a
        symbol washed pale, on any card: the reads did so on cards mostly read, `washed`), then
        those left unread for an ink seen past their outline whose shape and strong ink agree
        (`shape_confirmed`); and how many were named by their shape alone. Each card's shapes
        are matched once a frame: under a doubt, the cards `doubted` marks were matched by
        `shape_kept`, which judged them alike."""
        at = [k for k, r in enumerate(reads) if (r.letters or any(r.unread_ink))
              and not (doubted and doubted[k])]
        if not at:
            return reads, 0
        scores, whole = shape_matches(frame, [poses[k] for k in at], self.view,
                                      np.array([reads[k].white_bgr for k in at]))
        out = list(reads)
        faint = faint_letters(self.model)
        for i, k in enumerate(at):
            gone = [a or b for a, b in zip(disagreeing(out[k].symbols, scores[i]),
                                           faint_unshown(out[k].symbols, scores[i], faint),
                                           strict=True)]
            if any(gone):
                out[k] = uncrossed(out[k], tuple(gone))
        if doubted is not None:
            return out, 0
        # (the symbols' cores of the cards either step below may judge, measured once)
        asked = np.array([i for i, k in enumerate(at) if "?" in out[k].symbols], int)
        if not len(asked):
            return out, 0
        measured, seen = symbol_cores(frame, [poses[at[i]] for i in asked],
                                      np.array([out[at[i]].white_bgr for i in asked]), self.view)
        every = np.zeros((len(at), 6, 3), measured.dtype)
        held = np.zeros(len(at), bool)
        every[asked[seen]], held[asked[seen]] = measured.reshape(-1, 6, 3), True

        def cores_of(idx: list[int]) -> tuple[np.ndarray, np.ndarray]:
            """The cores of the cards `at[idx]` in the frame, and which those are."""
            return every[idx][held[idx]], held[idx]

        named = [i for i, k in enumerate(at) if any(out[k].unread_ink)]
        count = 0
        if named:
            some = [out[at[i]] for i in named]
            some_poses = [poses[at[i]] for i in named]
            cores, inside = cores_of(named)
            if sum(sum(r.unread_ink) for r in some) >= MIN_NAMED:
                some, count = shape_named(frame, some_poses, some, cores, inside, self.view,
                                          self.model, (scores[named], whole[named]))
            # (and each one left whose own shape and hue agree: a symbol washed pale)
            some, _ = hue_named(some, shown(scores[named]), cores, inside, self.model,
                                scores=scores[named])
            for i, r in zip(named, some, strict=True):
                out[at[i]] = r
        # (and each one left for an ink seen past its outline whose shape and strong ink agree)
        plain = [i for i, k in enumerate(at) if confirmable(out[k])]
        if plain:
            some = [out[at[i]] for i in plain]
            cores, inside = cores_of(plain)
            some, _ = shape_confirmed(some, shown(scores[plain]), cores, inside, self.model)
            for i, r in zip(plain, some, strict=True):
                out[at[i]] = r
        return out, count

    def _unnamed(self, frame: np.ndarray, poses: Sequence[Pose], reads: list[CardRead]) -> int:
        """The cards showing symbols of one ink that no letter names (`unnamed_ink`), among
        the cards at `poses` read `reads` as reported: those left with a '?' whose paper and
        border band are nearly all there (UNNAMED_WHOLE), their symbols' cores measured where
        they were read, against the letters read on all of them. Under a faint ink
        (`inks.faint_letters`), every card read with a '?': its ink is read only where its
        symbols show it plainly, and the crossing guards, judging halos so near the ink's own
        faint shade, and the band tests, on cards blurred in that dim light, leave more cards
        unread or less than whole than the unnamed ink's test counts; more light is what reads
        them (`observation.FAINT_INK`)."""
        if faint_letters(self.model):
            return sum("?" in r.symbols for r in reads)
        at = [k for k, r in enumerate(reads) if "?" in r.symbols
              and min(r.paper_ok, r.border_ok) >= UNNAMED_WHOLE]
        if not at:
            return 0
        cores, inside = symbol_cores(frame, [poses[k] for k in at],
                                     np.array([reads[k].white_bgr for k in at]), self.view)
        kept = [reads[k] for k, ok in zip(at, inside, strict=True) if ok]
        named = {n: sum(r.symbols.count(n) for r in reads) for n in self.model.letters}
        return unnamed_ink(cores.reshape(-1, 6, 3), [r.symbols for r in kept], named,
                           [r.crossed for r in kept])

    def _read_by_shape(self, frame: np.ndarray, mask: np.ndarray, scale: float,
                       plain: list[CardFit], rest: list[Blob], notes: list[str], t: float,
                       seq: int, stages: dict[str, np.ndarray]) -> ReadResult:
        """A web table without colour (cards printed so, or a picture without it) read by its
        symbols' shapes alone (`grey_shapes`): the hexagons whose paper and border band say
        they are cards (`plain`, as `_plain` gives them) and that show MIN_SHAPES plain shapes
        at least are the cards; the lattice is grown on them (`_grow`), each placed card's
        symbols read at its lattice pose, those the lattice leaves off listed apart at theirs
        (`LooseCard`). The free cells next to them where a card whose outline the paper mask
        lost may lie (`probe.probe_cells`: its paper merged with a pale table) hold a card
        where all six of its symbols show a plain shape there and its paper and band are
        nearly whole (`probe.whole_read`'s measures, of a read at that pose). A card with all
        six symbols plain is read at SHAPE_CONFIDENCE, one with fewer reported covered with
        its '?' (never guessed)."""
        view, p = self.view, self.params
        self._ahead = None
        poses = [Pose(f.centre, f.apothem, f.angle, 1, f.shape) for f in plain]
        # (their pictures sampled once: read by the web's shapes, and looked at for rings)
        pictures = symbol_pictures(frame, poses, view)[0] if plain else None
        letters = [] if pictures is None else grey_letters(grey_scores(pictures))
        if pictures is not None and holodex_print(pictures, poses, view, letters):
            # (the holodex edition's cards, laid for a web match: no shape tells R from B)
            self._grey_print = True
            obs = HexelObservation((), view.calibrated, t, seq, (*notes, HOLODEX_GREY_NOTE))
            return ReadResult(obs, view, stages=stages)
        notes.append(BY_SHAPE_NOTE)
        cards = [f for f, s in zip(plain, letters, strict=True) if plain_count(s) >= MIN_SHAPES]
        if stages:
            stages["1_paper_mask"] = mask
            stages["2_hexagons"] = _draw_blobs(frame, cards, rest)
        if not cards:
            self._card_px = _card_px(plain, view) or self._card_px
            obs = HexelObservation((), view.calibrated, t, seq, (*notes, "no whole card found"),
                                   by_shape=True)
            return ReadResult(obs, view, stages=stages)
        self._card_px = _card_px(cards, view) or self._card_px
        lat, placed, off = _grow(cards, view, p)
        cells = [lat.cells[i] for i in range(len(placed))]
        all_poses = tuple(
            [Pose(f.centre, f.apothem, _facing(f.angle, lat.rect_angle_e(i)), lat.turn, f.shape)
             for i, f in enumerate(placed)]
            + [Pose(f.centre, f.apothem, _image_right(f, view), lat.turn, f.shape) for f in off])
        read = grey_letters(grey_matches(frame, all_poses, view)[0])
        all_poses, read = _band_read(frame, view, all_poses, read)
        n = len(placed)
        cand = probe_cells(mask, scale, lat, set(cells), view, p, frame,
                           [f.iou for f in placed])[0]
        if cand:
            probed = [q if b is None else b[0]
                      for q, b in zip(cand.values(), band_poses(frame, view, list(cand.values())),
                                      strict=True)]
            banded = read_cards(frame, probed, view, self.model)
            letters = grey_letters(grey_matches(frame, probed, view)[0])
            keep = [k for k, (r, s) in enumerate(zip(banded, letters, strict=True))
                    if "?" not in s and r.in_frame and r.paper_ok >= p.min_paper_ok
                    and r.border_ok >= p.min_border_ok]
            keys = list(cand)
            cells += [keys[k] for k in keep]
            read = [*read[:n], *(letters[k] for k in keep), *read[n:]]
            all_poses = (*all_poses[:n], *(probed[k] for k in keep), *all_poses[n:])
            n += len(keep)
        at = _centres_px(all_poses, view)

        def seen(s: str) -> tuple[float, bool]:
            whole = "?" not in s
            return (SHAPE_CONFIDENCE if whole else 0.0), not whole

        found = [SeenCard(tuple(int(v) for v in c), s, *seen(s), xy)
                 for c, s, xy in zip(cells, read[:n], at[:n], strict=True)]
        found.sort(key=lambda c: (c.cell[1], c.cell[0]))
        if off:
            notes.append(f"{len(off)} card(s) off the lattice: listed apart, without a cell")
        loose = _reading_order([(LooseCard(s, *seen(s), xy), pose) for s, xy, pose in zip(
            read[n:], at[n:], all_poses[n:], strict=True)], view)
        obs = HexelObservation(tuple(found), view.calibrated, t, seq, tuple(notes),
                               loose=tuple(card for card, _ in loose), by_shape=True)
        if stages:
            from .annotate import annotate

            stages["3_lattice"] = _draw_lattice(frame, lat, view, cells, list(all_poses[:n]),
                                                [], [])
            stages["4_samples"] = _draw_samples(frame, all_poses, view)
            stages["5_result"] = annotate(frame, obs, all_poses, view,
                                          [pose for _, pose in loose])
        return ReadResult(obs, view, lat, all_poses, (), stages,
                          loose_poses=tuple(pose for _, pose in loose))

    def _loose(self, off: list[CardFit], lat: GrownLattice, confused: str
               ) -> list[tuple[LooseCard, Pose]]:
        """The cards the lattice left `off`, each with its pose, as read at its own pose
        while the cards were told (`self._own`), its symbols listed from its edge facing
        nearest image-right (`_image_right`), the ink doubt's letters (`confused`) and the
        symbols darker than their ink (`undimmed`) unread, and trusted as a placed card is
        (`_verdict`): the person at the table sees that the card was found and read, and
        where; the referee, which takes moves from cells, never sees it."""
        told = [f for f in off if id(f) in self._own]
        poses = tuple(Pose(f.centre, f.apothem, _image_right(f, self.view), lat.turn, f.shape)
                      for f in told)
        out = []
        # (every centre mapped in one call, as for the placed cards: `_centres_px`)
        for f, pose, xy in zip(told, poses, _centres_px(poses, self.view), strict=True):
            read = undimmed(_blanked(_reorient(self._own[id(f)], f, pose), confused))
            card = _verdict((0, 0), f.iou, read, xy, self.params)
            out.append((LooseCard(card.symbols, card.confidence, card.occluded, xy), pose))
        return _reading_order(out, self.view)


def _band_read(frame: np.ndarray, view: TableView, poses: tuple[Pose, ...], read: list[str]
               ) -> tuple[tuple[Pose, ...], list[str]]:
    """`poses` and their shape reads `read` (`grey_shapes`), with every card whose symbols do
    not all show a plain shape read again at the pose its printed band gives
    (`band_pose.band_poses`), and that pose and read kept where every symbol shows one there."""
    todo = [k for k, s in enumerate(read) if "?" in s]
    if not todo:
        return poses, read
    fitted = band_poses(frame, view, [poses[k] for k in todo])
    again = [(k, b[0]) for k, b in zip(todo, fitted, strict=True) if b is not None]
    if not again:
        return poses, read
    letters = grey_letters(grey_matches(frame, [q for _, q in again], view)[0])
    out_poses, out_read = list(poses), list(read)
    for (k, q), s in zip(again, letters, strict=True):
        if "?" not in s:
            out_poses[k], out_read[k] = q, s
    return tuple(out_poses), out_read


def _reposed(frame: np.ndarray, whole: list[CardFit], lat: GrownLattice, poses: list[Pose],
             reads: list[CardRead], view: TableView, model: ColourModel, p: ReaderParams
             ) -> Passes[tuple[list[int], dict[int, tuple[Pose, CardRead]]]]:
    """The placed cards that do not read whole at their fitted pose re-read at the pose their
    printed band gives (`band_pose.band_repose`), then those still not whole where their
    symbols put them (`symbol_pose.symbol_repose`), then those still not whole and fitted
    loosely searched about (`probe.repose_unread`); `poses` and `reads` replaced in place.
    Returns the indices of the cards the band's pose replaced, and the cards the symbols' pose
    replaced with the pose and read each had before."""
    banded = yield from band_repose(frame, poses, reads, view, model, p)
    centred = yield from symbol_repose(frame, poses, reads, view, model, p)
    yield from repose_unread(frame, whole, lat, poses, reads, view, model, p)
    return banded, centred


class _Layout(NamedTuple):
    """`HexelReader._lay_out`'s lattice, cells and poses of the cards on it, and the read of
    the free cells to probe and the partial blobs' cells."""

    lat: GrownLattice
    whole: list[CardFit]            # the cards placed on the lattice
    off: list[CardFit]              # and those left off it
    cells: list[tuple[int, int]]
    poses: list[Pose]
    taken: set[tuple[int, int]]
    cand: dict[tuple[int, int], Pose]    # free cells to probe (`probe_cells`)
    moved: dict[tuple[int, int], Pose]   # and where `refit_cells` moved some
    part_cells: list[tuple[int, int]]    # partial blobs' cells (`_partials`)
    part_poses: list[Pose]
    staged: StagedRead              # the read of all those (cand, moved, partials)
    far: dict[tuple[int, int], Pose]     # free cells farther on (`far_cells`)
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
    lamp a card's own band shows, or by shape and hue, `CardRead.by_colour`: the table's inks
    are decided first)."""
    return sum("?" not in own[id(f)].by_colour for f in cards)


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
    as read before any re-read by the lamp a card's own band shows, and not by shape and hue:
    `CardRead.by_colour`)."""
    seen = {tuple(np.round(f.centre, 3)): own[id(f)].by_colour for f in fits}
    for f in other:
        a, b = seen.get(tuple(np.round(f.centre, 3))), other_own[id(f)].by_colour
        if a is not None and any(x != y and x != "?" and (y != "?" or x in letters)
                                 for x, y in zip(a, b, strict=True)):
            return True
    return False


def _firmly_whole(read: CardRead, p: ReaderParams) -> bool:
    """Whether a card's read at its own pose passes the verdict (`probe.whole_read`) with
    every symbol read by its samples' vote (a confidence above FALLBACK_CONFIDENCE), none by
    a rule that reads a symbol its vote left short — its mean colour, its twins' on the card,
    a hueless ring (`symbol_decide`): at a pose a little off its card, a symbol's samples fall
    partly on the paper and its vote fails, while such a rule may still read it, so a loose
    outline read whole only so is found again (`_shrunk_fits`) as one read short is. The
    lattice is grown on the cards' poses: an outline turned 2-3° off seeds steps that miss
    the neighbours the probe looks for (hard table 595)."""
    return whole_read(read, p) and read.confidence > FALLBACK_CONFIDENCE


def _without_colour(result: ReadResult, grey_print: bool = False) -> ReadResult:
    """`result` with nothing read, for a picture without colour (`colourless`), or with
    `grey_print` for cards printed without colour (`colourless.grey_symbols`): every card, on
    the lattice or off it, reported unread (all '?', occluded, confidence 0), and the note
    saying why (`observation.NO_COLOUR`, `observation.GREY_PRINT`)."""
    obs = result.observation
    cards = tuple(replace(c, symbols="?" * 6, confidence=0.0, occluded=True) for c in obs.cards)
    loose = tuple(replace(c, symbols="?" * 6, confidence=0.0, occluded=True) for c in obs.loose)
    return replace(result, observation=replace(
        obs, cards=cards, loose=loose, no_colour=not grey_print, grey_print=grey_print,
        notes=(*obs.notes, f"{GREY_PRINT_NOTE}, {GREY_PRINT_WEB}" if grey_print
               else NO_COLOUR_NOTE)))


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
                    dim=tuple([read.dim[j] for j in order]) if read.dim else (),
                    not_shape=tuple([read.not_shape[j] for j in order])
                    if read.not_shape else (),
                    by_shape=tuple([read.by_shape[j] for j in order])
                    if read.by_shape else (),
                    unread_ink=tuple([read.unread_ink[j] for j in order])
                    if read.unread_ink else (),
                    by_hue=tuple([read.by_hue[j] for j in order]) if read.by_hue else ())


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
        return paper_area(card_area)
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


PIECED_SIZES = (0.75, 1.3)   # a gathered hexagon's apothem, of the median whole card's


def _pieced(gathered: list[CardFit], whole: list[CardFit]) -> list[CardFit]:
    """The hexagons `gathered` from the pieces of paper the mask kept (`cards.gathered_blobs`:
    small cards in a smear) that lie on no `whole` card, and, beside FEW_CARDS whole cards or
    more, are of their size (PIECED_SIZES of their median apothem: a region of the table as
    large as several cards may gather too); none unless they are at least as many as the
    whole cards. A table whose cards the mask keeps mostly in pieces (small cards in a smear)
    gives the lattice too few cards to grow and probe from. Where it keeps most of them whole,
    the few it keeps in pieces are left to the probe, which searches each one's pose about the
    lattice: the hull of a dim card's pieces can lie a little off its print (never-seen hard
    14555: a card in a shade, whose blue cores read at its gathered pose put the table's blue
    in doubt and left 12 cards unread)."""
    pieced = [g for g in gathered if not _near(g, whole)]
    if len(whole) >= FEW_CARDS and pieced:
        ref = float(np.median([f.apothem for f in whole]))
        pieced = [g for g in pieced
                  if PIECED_SIZES[0] * ref <= g.apothem <= PIECED_SIZES[1] * ref]
    return pieced if len(pieced) >= len(whole) else []


def _piece_of(f: CardFit, pieced: list[CardFit], whole: list[CardFit]) -> bool:
    """Whether hexagon `f`, no `whole` card, is centred on one of the `pieced` hexagons (it
    fitted a piece of that card's paper)."""
    return (not any(f is w for w in whole)
            and any(math.dist(f.centre, g.centre) < g.apothem for g in pieced))


def _near(f: CardFit, others: list[CardFit]) -> bool:
    """Whether hexagon `f` lies on any of `others` (centres nearer than 0.75 of their apothems'
    sum)."""
    if not others:
        return False
    centres = np.array([k.centre for k in others])
    reach = np.array([k.apothem for k in others])
    return bool((np.linalg.norm(centres - f.centre, axis=1) <= 0.75 * (reach + f.apothem)).any())


def _by_contrast(frame: np.ndarray, scale: float, view: TableView, params: DetectParams,
                 roi: tuple[int, int, int, int] | None, have: list[CardFit],
                 card_area: float | None) -> list[CardFit]:
    """The hexagons fitted to the blobs of the paper found by its local range
    (`cards.contrast_mask`) that lie clear of every hexagon `have` already: cards on a pale
    table, packed edge to edge, whose paper the mask's wide local mean kept only in patches.
    Their blobs are `ragged` (trusted as whole cards only), and the reader counts them as
    outlines found again (`_reseat`'s: nearly all their paper and border band there)."""
    mask = contrast_mask(frame, scale, params, roi)
    blobs = [replace(b, ragged=True) for b in paper_blobs(mask, scale, view, params)]
    fits, _ = fit_hexagons(blobs, params, not view.calibrated, card_area)
    return [f for f in fits if not _near(f, have)]


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
          ) -> tuple[GrownLattice, list[CardFit], list[CardFit]]:
    """Cells by local lattice growth; cards it could not place consistently are left out. Where
    the growth from the card nearest the centroid leaves cards out (an arm across the layout,
    or a card it took for whole that is not), it is tried from one of those too, until every
    card was placed by some try or one placed more than half of them, and the try placing the
    most cards is kept (the first on a tie): a card on its own near the middle must not cost
    the others their cells. Returns the lattice, the cards it places and those it leaves
    out (in `whole`'s order). The lattice spacing is measured on the cards whose outline is
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
        return lat, whole, []
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
    kept = {id(f) for f in keep}
    return lat, keep, [f for f in whole if id(f) not in kept]


def _reading_order(cards: list[tuple[LooseCard, Pose]], view: TableView
                   ) -> list[tuple[LooseCard, Pose]]:
    """`cards` as the picture is read: row by row from the top (a card whose centre lies
    within an apothem below the row's first starts no new row), each row from the left."""
    if not cards:
        return cards
    centres = np.array([c.centre_px for c, _ in cards], np.float64)
    ends = view.to_image(np.array([(pose.centre[0] + pose.apothem, pose.centre[1])
                                   for _, pose in cards], np.float64))
    reach = float(np.median(np.linalg.norm(ends - centres, axis=1)))
    rows, top = [], -math.inf
    for k in np.argsort(centres[:, 1], kind="stable").tolist():
        if centres[k, 1] > top + reach:
            rows.append([])
            top = centres[k, 1]
        rows[-1].append(k)
    return [cards[k] for row in rows for k in sorted(row, key=lambda k: centres[k, 0])]


def _image_right(fit: CardFit, view: TableView) -> float:
    """The card's own edge-normal angle (in the table plane, turned by whole 60° steps) whose
    direction in the image points nearest image-right: a card off the lattice lists its
    symbols from that edge, as a placed card does from lattice E."""
    angles = fit.angle + np.arange(6) * (math.pi / 3.0)
    tips = np.asarray(fit.centre, np.float64) + 0.5 * fit.apothem * np.stack(
        [np.cos(angles), np.sin(angles)], axis=1)
    img = view.to_image(np.vstack([np.asarray(fit.centre, np.float64)[None], tips]))
    d = img[1:] - img[0]
    return float(angles[int(np.argmax(d[:, 0] / np.maximum(np.linalg.norm(d, axis=1), 1e-9)))])


def _facing(own: float, e_angle: float) -> float:
    """The card's own edge-normal angle turned by whole 60° steps to face lattice E."""
    step = math.pi / 3.0
    diff = (e_angle - own + math.pi) % (2.0 * math.pi) - math.pi
    return own + step * round(diff / step)


def _partials(rest: list[Blob], lat: GrownLattice, taken: set[tuple[int, int]],
              p: ReaderParams) -> tuple[list[tuple[int, int]], list[Pose]]:
    """Free cells holding a paper blob that fits inside the cell's card outline (the outline of
    the nearest placed card, moved to the cell, so perspective is followed)."""
    from .geometry import SQRT3

    cells, poses = [], []
    if not rest:
        return cells, poses
    apothems = card_apothems(lat)
    smallest = min(apothems)
    big = [b for b in rest
           if not b.area_plane < p.min_partial_area * 2.0 * SQRT3 * smallest * smallest]
    # (every blob's cell looked up at once: `locate_many`)
    at = lat.locate_many(np.array([b.hull_plane.mean(0) for b in big]).reshape(-1, 2))
    for blob, found in zip(big, at, strict=True):
        if found is None:
            continue
        key, centre, i = found
        pose = cell_pose(lat, i, centre, apothems[i])
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
    and the face looks intact (`probe.whole_read`, or its band smeared: `probe.smeared_band`)."""
    if not (whole_read(r, p) or smeared_band(r, p)):
        return _occluded(cell, r, centre_px)
    shape = min(1.0, max(0.0, (fit_iou - p.detect.min_iou) / (1.0 - p.detect.min_iou) + 0.5))
    conf = r.confidence * (0.8 + 0.2 * shape) * (0.9 + 0.1 * r.paper_ok)
    return SeenCard(cell, r.symbols, float(conf), False, centre_px)


EDGE_BAND_PLACES = N_BORDER_PLACES // 6   # band places along each edge


def _band_runs_along_an_edge(r: CardRead) -> bool:
    """Whether a partial blob's read shows the printed band whole along one of its edges (all
    three places of it, `CardRead.band_edges`): a card's band is a straight dark line round it,
    and where a hand covers the rest of the card, the band along some edge it leaves is still
    whole. A cloth's pattern of dark rings or dots about a pale patch of it at a free cell
    darkens a place here and there on the outline, never a whole edge (held-out `cloth-small`
    159: a white patch ringed by navy circles read as a covered card, its band a third there,
    two arcs read as blue symbols, and reported at a cell where no card lies)."""
    return bool(r.band_edges) and max(r.band_edges) == EDGE_BAND_PLACES


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
    from .symbol_samples import sample_points

    out = frame.copy()
    if poses:
        pts = view.to_image(sample_points(list(poses)).reshape(-1, 2))
        for x, y in np.round(pts).astype(int):
            cv2.circle(out, (int(x), int(y)), 1, (255, 0, 255), -1)
    return out

