"""Hexapod display cases in software, and the sensors that watch them: the demo's and the tests'
camera side of Hexapod.

`PhysicalCases` holds the cards lying in each player's display case (in the order they landed,
later cards on top) and a hand hovering over one case while a player lays a card; the referee does
not know it. `observe_cases` turns it into the `HexapodObservation` a perfect reader reports
(cells under or next to the hand are occluded and read `?`). `CasesSensor` observes it directly
and draws a schematic picture (the truth sensor: the demo without a camera, the tests).
`CasesCamera` photographs it with the synthetic renderer (`companion.synth.hexapod_scene`) for
a `SyntheticSource`, and `CasesFrameSensor` reads the newest frame of a source with the Hexapod
reader (`companion.vision.hexapod.HexapodReader`), outlining every case it found.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules.hexapod.cards import EMPTY, Grid
from ..vision.observation import UNKNOWN, HexapodObservation, SeenCase, cases_camera_setup
from .pipeline import PacedSensor, Sensed

__all__ = ["CasesCamera", "CasesFrameSensor", "CasesSensor", "LaidCard", "PhysicalCases",
           "draw_cases", "observe_cases"]

PLAYERS = (1, 2)


@dataclass(frozen=True)
class LaidCard:
    """A card lying in a display case: its name, cells (rows top to bottom) and top-left cell."""

    name: str
    rows: Grid
    col: int
    row: int


def case_grid(cards: Iterable[LaidCard], cols: int = 6, rows: int = 6) -> Grid:
    """The visible codes of a case holding `cards` (later cards on top)."""
    grid = [[EMPTY] * cols for _ in range(rows)]
    for card in cards:
        for dr, line in enumerate(card.rows):
            for dc, code in enumerate(line):
                grid[card.row + dr][card.col + dc] = code
    return tuple(tuple(r) for r in grid)


def observe_cases(cases: Sequence[tuple[int, Sequence[LaidCard]]],
                  hand: tuple[int, int, int] | None = None, t: float = 0.0, seq: int = 0,
                  cols: int = 6, rows: int = 6, card_cols: int = 2, card_rows: int = 3,
                  confidence: float = 0.98) -> HexapodObservation:
    """What a perfect reader reports of `cases` ((player, cards) pairs); `hand` is the (player,
    col, row) of the card footprint a hand is over: it hides that footprint and one cell around."""
    out = []
    for player, cards in cases:
        grid = case_grid(cards, cols, rows)
        hidden = [[False] * cols for _ in range(rows)]
        if hand is not None and hand[0] == player:
            _, hc, hr = hand
            for r in range(max(0, hr - 1), min(rows, hr + card_rows + 1)):
                for c in range(max(0, hc - 1), min(cols, hc + card_cols + 1)):
                    hidden[r][c] = True
        seen = tuple(tuple(UNKNOWN if hidden[r][c] else grid[r][c] for c in range(cols))
                     for r in range(rows))
        out.append(SeenCase(player, seen, tuple(tuple(line) for line in hidden),
                            0.3 if any(any(line) for line in hidden) else confidence))
    return HexapodObservation(cases=tuple(out), t=t, frame_seq=seq)


class PhysicalCases:
    """The display cases on a real table and a hand hovering over one of them (thread-safe)."""

    def __init__(self, players: Sequence[int] = PLAYERS, cols: int = 6, rows: int = 6) -> None:
        self.cols, self.rows = cols, rows
        self._cards: dict[int, list[LaidCard]] = {p: [] for p in players}
        self._hand: tuple[int, int, int] | None = None
        self._lock = threading.Lock()

    def lay(self, player: int, card: LaidCard) -> None:
        """A card put down in `player`'s case."""
        with self._lock:
            self._cards[player].append(card)

    def pick_up(self, player: int) -> LaidCard | None:
        """The top card of `player`'s case taken back into a hand."""
        with self._lock:
            return self._cards[player].pop() if self._cards[player] else None

    def set_cards(self, player: int, cards: Iterable[LaidCard]) -> None:
        """`player`'s case holding exactly `cards` (squaring the table with the game)."""
        with self._lock:
            self._cards[player] = list(cards)

    def clear(self) -> None:
        """Every card taken out of the cases; no hand."""
        with self._lock:
            for cards in self._cards.values():
                cards.clear()
            self._hand = None

    def hover(self, player: int | None, col: int = 0, row: int = 0) -> None:
        """A hand over the card footprint at col, row of `player`'s case (None: no hand)."""
        with self._lock:
            self._hand = None if player is None else (player, col, row)

    def snapshot(self) -> tuple[tuple[tuple[int, tuple[LaidCard, ...]], ...],
                                tuple[int, int, int] | None]:
        """The cards of every case and the hand, consistently."""
        with self._lock:
            return tuple((p, tuple(c)) for p, c in sorted(self._cards.items())), self._hand

    def grid(self, player: int) -> Grid:
        """The visible codes of `player`'s case."""
        with self._lock:
            return case_grid(self._cards[player], self.cols, self.rows)

    def observe(self, t: float = 0.0, seq: int = 0) -> HexapodObservation:
        """The observation of the cases as they lie now."""
        cases, hand = self.snapshot()
        return observe_cases(cases, hand, t, seq, self.cols, self.rows)


COLOURS_BGR = {"B": (190, 80, 30), "G": (50, 150, 40), "Y": (0, 190, 240), "R": (40, 40, 215),
               "K": (40, 36, 36), "St": (150, 60, 120), "Sb": (150, 60, 120),
               "Ml": (170, 170, 20), "Mr": (170, 170, 20), EMPTY: (215, 225, 228),
               UNKNOWN: (120, 120, 120)}


def draw_cases(obs: HexapodObservation, size: tuple[int, int] = (640, 360)) -> np.ndarray:
    """A schematic top view of the display cases as observed (the truth sensor's picture)."""
    import cv2

    w, h = size
    img = np.full((h, w, 3), (40, 40, 110), np.uint8)
    if not obs.cases:
        return img
    n = len(obs.cases)
    cell = int(min((w - 40 * (n + 1)) / (6 * n), (h - 60) / 6))
    for i, case in enumerate(obs.cases):
        x0 = 40 + i * (6 * cell + 40)
        y0 = 40
        cv2.putText(img, f"PLAYER {case.player}", (x0, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (235, 235, 235), 1, cv2.LINE_AA)
        for r, line in enumerate(case.grid):
            for c, code in enumerate(line):
                p0 = (x0 + c * cell + 1, y0 + r * cell + 1)
                p1 = (x0 + (c + 1) * cell - 2, y0 + (r + 1) * cell - 2)
                cv2.rectangle(img, p0, p1, COLOURS_BGR.get(code, (128, 128, 128)), -1)
                if code not in (EMPTY,):
                    cv2.putText(img, code, (p0[0] + 4, p1[1] - 6), cv2.FONT_HERSHEY_SIMPLEX,
                                0.4, (255, 255, 255), 1, cv2.LINE_AA)
    return img


class CasesSensor(PacedSensor):
    """Observes `PhysicalCases` directly at `fps` (no pixels are read)."""

    describe = "simulated camera (observations straight from the simulated cases)"

    def __init__(self, cases: PhysicalCases, fps: float = 10.0, draw: bool = True) -> None:
        super().__init__(fps, draw)
        self.cases = cases

    def reading(self, now: float, seq: int) -> Sensed:
        obs = self.cases.observe(now, seq)
        return Sensed(obs, draw_cases(obs) if self.draw else None, seq, now)


class CasesCamera:
    """Renders `cases` as a photograph (BGR) for `SyntheticSource`: both boards, every card, and
    a hand over the footprint a player is busy with. The boards and camera are fixed by `seed`,
    so the framing holds for the whole game as the cases fill."""

    def __init__(self, cases: PhysicalCases, seed: int = 1,
                 size: tuple[int, int] = (1280, 720)) -> None:
        from ..synth.hexapod_board import BOARD
        from ..synth.hexapod_scene import render_cases  # noqa: F401  (fail early if missing)
        from ..synth.scene import SceneParams

        self.cases = cases
        self.params = SceneParams(seed=seed, band="topdown", width=size[0], height=size[1])
        self.board = BOARD
        self.truth: Any = None  # the ground truth of the latest picture
        self._frame = 0
        self._boards: dict[int, tuple[tuple[float, float], float]] = {}

    def __call__(self, t: float) -> np.ndarray:
        from ..synth.effects import Hand
        from ..synth.hexapod_scene import CaseCard, SceneCase, render_cases

        cases, hand = self.cases.snapshot()
        scene = [SceneCase(p, tuple(CaseCard(c.name, c.rows, c.col, c.row) for c in cards))
                 for p, cards in cases]
        hands: tuple[Any, ...] = ()
        if hand is not None and hand[0] in self._boards:
            palm = self._palm(*hand)
            hands = (Hand(entry_mm=(palm[0] + 80.0, palm[1] + 700.0), palm_mm=palm),)
        self._frame += 1
        image, truth = render_cases(scene, self.params, self.board, hands=hands,
                                    frame=self._frame)
        self.truth = truth
        if not self._boards:
            self._boards = {c.player: (tuple(c.centre_mm), c.angle_deg) for c in truth.cases}
        return image

    def _palm(self, player: int, col: int, row: int) -> tuple[float, float]:
        """Table mm of a card footprint's centre (the grid is centred on its sheet)."""
        (cx, cy), angle = self._boards[player]
        b = self.board
        dx = (col + 1.0) * b.cell_mm - b.width_mm / 2.0
        dy = (row + 1.5) * b.cell_mm - b.height_mm / 2.0
        a = math.radians(angle)
        return (cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a))


class CasesFrameSensor:
    """The real pipeline for Hexapod: newest frame of `source` → `reader.read` → outlined cases."""

    def __init__(self, source: Any, reader: Any, annotate: bool = True) -> None:
        self.source = source      # SupervisedSource: .latest() and .status()
        self.reader = reader      # HexapodReader: .read(image, t=, frame_seq=) -> observation
        self.annotate = annotate
        self._seq = -1
        self._setup = ""          # the last reading's `observation.cases_camera_setup`

    def sense(self) -> Sensed | None:
        """Read the newest frame if it was not read yet."""
        frame = self.source.latest()
        if frame is None or frame.seq == self._seq:
            return None
        self._seq = frame.seq
        obs = self.reader.read(frame.image, t=frame.t, frame_seq=frame.seq)
        self._setup = cases_camera_setup(obs)
        image = outline_cases(frame.image, obs) if self.annotate else frame.image
        return Sensed(obs, image, frame.seq, frame.t)

    def status(self) -> tuple[str, str]:
        """The source's state and message, and how the camera sees the cases (a marker not
        seen, the boards' paper over-exposed)."""
        s = self.source.status()
        return s.state, s.message + (f" · {self._setup}" if self._setup else "")


def outline_cases(image: np.ndarray, obs: HexapodObservation) -> np.ndarray:
    """A copy of `image` with every case's grid outline (green: all read, orange: partly hidden)
    and its player number."""
    import cv2

    out = image.copy()
    for case in obs.cases:
        if len(case.corners_px) != 4:
            continue
        pts = np.array(case.corners_px, np.float32).round().astype(np.int32)
        colour = (60, 200, 60) if case.complete else (0, 150, 255)
        cv2.polylines(out, [pts], True, colour, 3, cv2.LINE_AA)
        x, y = (int(v) for v in pts[0])
        cv2.putText(out, f"P{case.player}", (x, max(20, y - 8)), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                    colour, 2, cv2.LINE_AA)
    return out
