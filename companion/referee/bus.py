"""Publishing the referee's changes to live subscribers (the scoreboard's Server-Sent Events).

Every change becomes an `Update` with a monotonically increasing number, a kind and a JSON payload
encoded once. The `Broadcaster` keeps the last updates in a bounded ring buffer so that a client
that reconnects with `Last-Event-ID` gets exactly what it missed; a client that missed more than
the buffer holds, or that comes from an earlier run of the server (its id carries another boot
token), or that fell too far behind, gets a full snapshot instead. Publishing never blocks: each
subscriber has a bounded queue, and an overflowing one is resynchronised with a snapshot.
"""

from __future__ import annotations

import collections
import contextlib
import json
import queue
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Broadcaster", "Subscription", "Update"]


@dataclass(frozen=True)
class Update:
    """One published change. `event_id` is "<boot>.<n>": `n` grows, `boot` names the run."""

    n: int
    boot: str
    kind: str
    payload: str  # JSON text
    t: float = 0.0

    @property
    def event_id(self) -> str:
        """The SSE `id:` field."""
        return f"{self.boot}.{self.n}"

    @property
    def data(self) -> dict:
        """The decoded payload."""
        return json.loads(self.payload)

    def sse(self) -> str:
        """The Server-Sent Events frame of this update."""
        return f"id: {self.event_id}\nevent: {self.kind}\ndata: {self.payload}\n\n"


@dataclass(eq=False)
class Subscription:
    """One live reader (a browser tab). `get` returns the next update or None on timeout."""

    _broadcaster: Broadcaster
    _queue: queue.Queue = field(default_factory=lambda: queue.Queue(maxsize=512))
    lagging: bool = False
    closed: bool = False

    def get(self, timeout: float | None = None) -> Update | None:
        """The next update; a snapshot first if this subscriber fell behind."""
        if self.lagging:
            self.lagging = False
            while not self._queue.empty():
                self._queue.get_nowait()
            return self._broadcaster.snapshot_update()
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop receiving updates."""
        self.closed = True
        self._broadcaster._remove(self)

    def _offer(self, update: Update) -> None:
        try:
            self._queue.put_nowait(update)
        except queue.Full:
            self.lagging = True


class Broadcaster:
    """Numbered updates, a replay buffer and the set of subscribers."""

    def __init__(self, snapshot: Callable[[], dict], buffer: int = 256) -> None:
        self._snapshot = snapshot
        self._lock = threading.Lock()
        self._buffer: collections.deque[Update] = collections.deque(maxlen=buffer)
        self._subscribers: set[Subscription] = set()
        self._n = 0
        self.boot = secrets.token_hex(4)

    @property
    def last_id(self) -> int:
        """Number of the latest update (0 before the first)."""
        return self._n

    @property
    def subscribers(self) -> int:
        """How many subscriptions are open."""
        return len(self._subscribers)

    def publish(self, kind: str, data: dict, t: float = 0.0) -> Update:
        """Number, buffer and hand out one update (never blocks)."""
        payload = json.dumps(data, separators=(",", ":"), sort_keys=True)
        with self._lock:
            self._n += 1
            update = Update(self._n, self.boot, kind, payload, t)
            self._buffer.append(update)
            for sub in self._subscribers:
                sub._offer(update)
        return update

    def snapshot_update(self) -> Update:
        """A full-state update numbered like the latest update it includes (not buffered)."""
        with self._lock:
            n = self._n
        data = self._snapshot()  # outside our lock: the snapshot takes the referee's lock
        return Update(n, self.boot, "state",
                      json.dumps(data, separators=(",", ":"), sort_keys=True))

    def subscribe(self, last_event_id: str | None = None) -> Subscription:
        """A new subscription, primed with what a resuming client missed (or a snapshot)."""
        sub = Subscription(self)
        with self._lock:
            missed = self._missed(last_event_id)
            if missed is not None:
                for u in missed:
                    sub._offer(u)
                self._subscribers.add(sub)
                return sub
        snap = self.snapshot_update()
        with self._lock:
            sub._offer(snap)
            for u in self._buffer:
                if u.n > snap.n:  # published while the snapshot was being taken
                    sub._offer(u)
            self._subscribers.add(sub)
        return sub

    def _missed(self, last_event_id: str | None) -> list[Update] | None:
        """The buffered updates after `last_event_id`, or None if a snapshot is needed.

        Called with the lock held.
        """
        if not last_event_id:
            return None
        boot, _, n_text = last_event_id.strip().partition(".")
        if boot != self.boot or not n_text.isdigit():
            return None
        n = int(n_text)
        if n > self._n:
            return None
        if n == self._n:
            return []
        if not self._buffer or self._buffer[0].n > n + 1:
            return None
        return [u for u in self._buffer if u.n > n]

    def close_all(self) -> None:
        """Mark every subscription closed and wake its reader (server shutdown)."""
        with self._lock:
            subs = list(self._subscribers)
            self._subscribers.clear()
        for sub in subs:
            sub.closed = True
            with contextlib.suppress(queue.Full):
                sub._queue.put_nowait(None)

    def _remove(self, sub: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(sub)
