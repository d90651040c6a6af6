"""The camera side of the referee: sense the table, wait for it to settle, let the referee judge.

A `Sensor` turns the newest camera frame into a `Sensed` reading (the observation plus an
annotated image for the scoreboard). `FrameSensor` does it for real: the latest frame of a
(supervised) frame source through the vision reader, annotated with what was read.
`TableSensor` (a `PacedSensor`, like Hexapod's `CasesSensor`) skips the pixels: it observes a
`PhysicalTable` directly and draws a schematic picture — the demo's fallback while no scene renderer
is available. `CameraLoop` runs a sensor in its own thread: each new reading goes through the
`StabilityFilter`, settled ones to `Referee.observe`, and `Referee.tick` runs for auto-confirm; the
camera's health is reported to the referee. The latest image is kept and JPEG-encoded only when a
page asks for it.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..vision.observation import HexapodObservation, HexelObservation
from .referee import Referee
from .simtable import PhysicalTable
from .stability import StabilityFilter

__all__ = ["CameraLoop", "FrameSensor", "GameSensor", "PacedSensor", "Sensed", "Sensor",
           "TableSensor", "encode_jpeg"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Sensed:
    """One reading of the table: the observation, a picture of it, and the frame's number."""

    observation: HexelObservation | HexapodObservation
    image: np.ndarray | None
    seq: int
    t: float


class Sensor(Protocol):
    """Something that reads the table (None: no new frame since the last call)."""

    def sense(self) -> Sensed | None: ...
    def status(self) -> tuple[str, str]: ...


def encode_jpeg(image: np.ndarray, quality: int = 75, max_width: int = 960) -> bytes:
    """JPEG bytes of a BGR image, scaled down to `max_width`."""
    import cv2

    h, w = image.shape[:2]
    if w > max_width:
        image = cv2.resize(image, (max_width, round(h * max_width / w)),
                           interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()


class FrameSensor:
    """The real pipeline: newest frame of `source` → `reader.read` → annotated image; with
    `watch` (`vision.edition.EditionWatch`), the cards' edition watched too."""

    def __init__(self, source: Any, reader: Any, annotate: bool = True,
                 watch: Any = None) -> None:
        self.source = source      # SupervisedSource: .latest() and .status()
        self.reader = reader      # HexelReader: .read(image, t, seq) -> ReadResult
        self.annotate = annotate
        self.watch = watch        # EditionWatch: .look(image, result, reader) -> ReadResult
        self._seq = -1
        self._setup = ""          # the last reading's `vision.reader.camera_setup`

    def sense(self) -> Sensed | None:
        """Read the newest frame if it was not read yet."""
        frame = self.source.latest()
        if frame is None or frame.seq == self._seq:
            return None
        self._seq = frame.seq
        result = self.reader.read(frame.image, frame.t, frame.seq)
        if self.watch is not None:
            result = self.watch.look(frame.image, result, self.reader)
        from ..vision.reader import camera_setup

        self._setup = camera_setup(result.observation)
        image = frame.image
        if self.annotate and result.poses:
            from ..vision.annotate import annotate

            image = annotate(frame.image, result.observation, result.poses, result.view,
                             result.loose_poses)
        return Sensed(result.observation, image, frame.seq, frame.t)

    def status(self) -> tuple[str, str]:
        """The source's state and message, and how the camera sees the table (no table
        markers in view, three of them, cards of another size than the markers give)."""
        s = self.source.status()
        return s.state, s.message + (f" · {self._setup}" if self._setup else "")


class PacedSensor:
    """A simulated camera that observes its world directly, one reading per period at `fps`
    (no pixels are read): subclasses say what a reading is (`reading`) and describe themselves
    (`describe`)."""

    describe = "simulated camera"

    def __init__(self, fps: float = 10.0, draw: bool = True) -> None:
        self.period = 1.0 / fps
        self.draw = draw
        self._seq = 0
        self._next = 0.0

    def sense(self) -> Sensed | None:
        """A reading per period."""
        now = time.monotonic()
        if now < self._next:
            return None
        self._next = now + self.period
        self._seq += 1
        return self.reading(now, self._seq)

    def reading(self, now: float, seq: int) -> Sensed:
        raise NotImplementedError

    def status(self) -> tuple[str, str]:
        """Always fine: there is no device."""
        return "ok", self.describe


class TableSensor(PacedSensor):
    """Observes a `PhysicalTable` directly at `fps` (no pixels are read)."""

    describe = "simulated camera (observations straight from the simulated table)"

    def __init__(self, table: PhysicalTable, fps: float = 10.0, draw: bool = True,
                 edition: str = "holodex") -> None:
        super().__init__(fps, draw)
        self.table = table
        self.edition = edition

    def reading(self, now: float, seq: int) -> Sensed:
        cards, hand = self.table.snapshot()
        obs = self.table.observe(now, seq)
        image = draw_table(cards, hand, self.table.camera) if self.draw else None
        return Sensed(obs, image, seq, now)


COLOURS_BGR = {"R": (30, 36, 210), "B": (190, 80, 30), "V": (34, 30, 30), "Y": (0, 190, 240)}


def draw_table(cards, hand, camera, size: tuple[int, int] = (640, 400)) -> np.ndarray:
    """A schematic top view of the physical table in camera orientation (the demo's picture)."""
    import cv2

    w, h = size
    img = np.full((h, w, 3), (46, 84, 40), np.uint8)
    if not cards:
        cv2.putText(img, "empty table", (20, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                    (230, 230, 230), 1, cv2.LINE_AA)
        return img
    cam = [(camera.camera_cell(c), camera.camera_symbols(s)) for c, s in cards]
    pts = [(math.sqrt(3) * (q + r / 2), 1.5 * r) for (q, r), _ in cam]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    span = max(max(xs) - min(xs) + 2.2, (max(ys) - min(ys) + 2.4) * w / h)
    scale = w / span
    ox = w / 2 - scale * (max(xs) + min(xs)) / 2
    oy = h / 2 - scale * (max(ys) + min(ys)) / 2
    for ((q, r), symbols), (x, y) in zip(cam, pts, strict=True):
        cx, cy = ox + scale * x, oy + scale * y
        corners = np.array([(cx + 0.95 * scale * math.cos(math.radians(60 * i - 30)),
                             cy + 0.95 * scale * math.sin(math.radians(60 * i - 30)))
                            for i in range(6)], np.int32)
        cv2.fillPoly(img, [corners], (238, 245, 247), cv2.LINE_AA)
        cv2.polylines(img, [corners], True, (40, 34, 34), 2, cv2.LINE_AA)
        for d, letter in enumerate(symbols):
            a = math.radians(-60 * d)
            mx = int(cx + 0.55 * scale * math.cos(a))
            my = int(cy + 0.55 * scale * math.sin(a))
            colour = COLOURS_BGR.get(letter, (128, 128, 128))
            radius = max(2, int(0.17 * scale))
            thick = 2 if letter == "V" else -1
            cv2.circle(img, (mx, my), radius, colour, thick, cv2.LINE_AA)
        cv2.putText(img, f"{q},{r}", (int(cx) - 12, int(cy) + 4), cv2.FONT_HERSHEY_SIMPLEX,
                    0.35, (90, 90, 90), 1, cv2.LINE_AA)
    if hand is not None:
        hq, hr = camera.camera_cell(hand)
        hx = ox + scale * math.sqrt(3) * (hq + hr / 2)
        hy = oy + scale * 1.5 * hr
        cv2.ellipse(img, (int(hx), int(hy)), (int(1.3 * scale), int(0.9 * scale)), 30, 0, 360,
                    (120, 160, 215), -1, cv2.LINE_AA)
    return img


class GameSensor:
    """The sensor for the game being refereed: `make(game)` builds one per game name and
    edition on first use (the admin page may start a match of another game, or of Hex'el's
    other edition, whose inks the reader must be built for). A game whose reader cannot be
    built is reported through `status` and senses nothing; it is retried every `retry_s`."""

    def __init__(self, referee: Referee, make: Callable[[str], Sensor],
                 retry_s: float = 30.0) -> None:
        self.referee = referee
        self.make = make
        self.retry_s = retry_s
        self._sensors: dict[tuple[str, str | None], Sensor] = {}
        self._failed: dict[tuple[str, str | None], tuple[float, str]] = {}

    def _key(self) -> tuple[str, str | None]:
        return self.referee.game, getattr(self.referee.options, "edition", None)

    def _current(self) -> Sensor | None:
        key = self._key()
        if key in self._sensors:
            return self._sensors[key]
        failed = self._failed.get(key)
        if failed is not None and time.monotonic() - failed[0] < self.retry_s:
            return None
        game = key[0]
        try:
            self._sensors[key] = self.make(game)
        except Exception as exc:
            log.warning("no camera reader for %s: %s", game, exc)
            self._failed[key] = (time.monotonic(), f"no camera reader for {game}: {exc}")
            return None
        self._failed.pop(key, None)
        return self._sensors[key]

    def sense(self) -> Sensed | None:
        """The current game's reading."""
        sensor = self._current()
        return sensor.sense() if sensor is not None else None

    def status(self) -> tuple[str, str]:
        """The current game's sensor status, or why there is none."""
        sensor = self._current()
        if sensor is None:
            return "error", self._failed.get(self._key(), (0.0, "no camera reader"))[1]
        return sensor.status()


class CameraLoop:
    """Runs a sensor → stability filter → referee in a thread; keeps the latest picture."""

    def __init__(self, referee: Referee, sensor: Sensor, stable: StabilityFilter,
                 period_s: float = 0.02, on_settled: Callable[[float], None] | None = None):
        self.referee = referee
        self.sensor = sensor
        self.stable = stable
        self.period_s = period_s
        self.on_settled = on_settled
        self._image: np.ndarray | None = None
        self._jpeg: tuple[int, bytes] | None = None
        self._image_seq = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera-loop", daemon=True)
        self.heartbeat = time.monotonic()  # last time the loop went round (for the watchdog)

    def start(self) -> CameraLoop:
        """Start the thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread."""
        self._stop.set()
        self._thread.join(timeout=3)

    def step(self) -> bool:
        """One round: sense, filter, judge, auto-confirm; True if a new reading came in."""
        sensed = self.sensor.sense()
        if sensed is not None:
            if sensed.image is not None:
                with self._lock:
                    self._image, self._image_seq = sensed.image, sensed.seq
            settled = self.stable.feed(sensed.observation, sensed.t)
            if settled is not None:
                self.referee.observe(settled)
                if self.on_settled is not None and self.stable.settled_at is not None:
                    self.on_settled(self.stable.settled_at)
        self.referee.tick()
        return sensed is not None

    def _run(self) -> None:
        last_status = 0.0
        while not self._stop.is_set():
            self.heartbeat = time.monotonic()
            try:
                fresh = self.step()
            except Exception as exc:  # one bad frame never stops the camera loop
                log.exception("camera loop step failed")
                self.referee.set_status("error", f"reading the table failed: {exc}")
                fresh = False
            now = time.monotonic()
            if now - last_status > 0.5:
                last_status = now
                try:
                    state, message = self.sensor.status()
                    self.referee.set_status(state, message)
                except Exception:
                    log.exception("camera status failed")
            if not fresh:
                self._stop.wait(self.period_s)

    def jpeg(self) -> bytes | None:
        """The latest picture as JPEG (encoded once per picture)."""
        with self._lock:
            image, seq, cached = self._image, self._image_seq, self._jpeg
        if image is None:
            return None
        if cached is not None and cached[0] == seq:
            return cached[1]
        data = encode_jpeg(image)
        with self._lock:
            self._jpeg = (seq, data)
        return data
