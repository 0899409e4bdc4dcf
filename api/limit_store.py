"""The rate limits of one process, in memory: a store of our own on the
interface ``limits`` documents for storage backends (``Storage``, with
``MovingWindowSupport`` and ``SlidingWindowCounterSupport``), for each of
its strategies (``moving-window``, ``sliding-window-counter``,
``fixed-window``).

``limits``' own memory store drops old entries from a timer thread that it
starts again 10 ms after each burst of hits: a thread for every few writes,
measured at a fifth of a hand write's CPU. Here the hit that finds a second
gone since the last sweep drops them itself, and a key keeps no more of its
moving window's hits than its limit (the oldest of those is all a hit is
checked against)."""

from __future__ import annotations

import bisect
import math
import threading
import time
from typing import Any

from limits.storage import MovingWindowSupport, SlidingWindowCounterSupport, Storage
from limits.storage.base import TimestampedSlidingWindow


class MemoryStore(Storage, MovingWindowSupport, SlidingWindowCounterSupport, TimestampedSlidingWindow):
    """Counters with the time they expire at (fixed and sliding windows), and
    each key's hits, newest first, with the window they count in (moving
    window); all behind one lock. Times are ``time.time()``'s, as the
    strategies' reset times are."""

    STORAGE_SCHEME = None  # made by api.limits.open_store for memory://, not registered over limits' own
    SWEEP_EVERY = 1.0  # seconds

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._expires: dict[str, float] = {}
        self._hits: dict[str, tuple[int, list[float]]] = {}  # key: (its window in seconds, its hits' times)
        self._next_sweep = 0.0

    def __len__(self) -> int:
        """How many keys it holds (expired ones not yet swept among them)."""
        with self._lock:
            return len(self._counts.keys() | self._hits.keys())

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def _sweep(self, now: float) -> None:
        """Drop what has expired, at most once every SWEEP_EVERY seconds (under the lock)."""
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.SWEEP_EVERY
        for key in [k for k, at in self._expires.items() if at <= now]:
            del self._counts[key], self._expires[key]
        for key, (expiry, hits) in list(self._hits.items()):
            # a hit exactly a window old still counts against the next one (acquire_entry)
            del hits[bisect.bisect_right(hits, expiry - now, key=lambda at: -at) :]
            if not hits:
                del self._hits[key]

    def _count(self, key: str, now: float) -> int:
        if self._expires.get(key, now) <= now:
            self._counts.pop(key, None)
            self._expires.pop(key, None)
        return self._counts.get(key, 0)

    # --- counters: the fixed window, and the sliding window counter's two windows

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            self._sweep(now)
            count = self._counts[key] = self._count(key, now) + amount
            if count == amount:  # a new window
                self._expires[key] = now + expiry
            return count

    def decr(self, key: str, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            count = max(self._count(key, now) - amount, 0)
            if key in self._counts:
                self._counts[key] = count
            return count

    def get(self, key: str) -> int:
        with self._lock:
            return self._count(key, time.time())

    def get_expiry(self, key: str) -> float:
        now = time.time()
        with self._lock:
            return self._expires.get(key, now)

    def clear(self, key: str) -> None:
        with self._lock:
            self._counts.pop(key, None)
            self._expires.pop(key, None)
            self._hits.pop(key, None)

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._lock:
            count = max(len(self._counts), len(self._hits))
            self._counts.clear()
            self._expires.clear()
            self._hits.clear()
            return count

    # --- the moving window

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        with self._lock:
            self._sweep(now)
            found = self._hits.get(key)
            hits = found[1] if found is not None else []
            # the hit ``limit - amount`` before this one, if it is still in the window, leaves no room
            if len(hits) > limit - amount and hits[limit - amount] >= now - expiry:
                return False
            hits[:0] = [now] * amount
            del hits[limit:]  # no hit further back is ever looked at
            self._hits[key] = (expiry, hits)
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self._lock:
            found = self._hits.get(key)
            hits = found[1] if found is not None else []
            count = _in_window(hits, now - expiry)
            return (hits[count - 1], count) if count else (now, 0)

    # --- the sliding window counter

    def acquire_sliding_window_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        previous_key, current_key = self.sliding_window_keys(key, expiry, now)
        previous, previous_ttl, current, _ = self._window(previous_key, current_key, expiry, now)
        if math.floor(previous * previous_ttl / expiry + current) + amount > limit:
            return False
        current = self.incr(current_key, 2 * expiry, amount)  # the counter outlives its window by one
        if math.floor(previous * previous_ttl / expiry + current) > limit:
            self.decr(current_key, amount)  # another hit took the room meanwhile
            return False
        return True

    def get_sliding_window(self, key: str, expiry: int) -> tuple[int, float, int, float]:
        now = time.time()
        return self._window(*self.sliding_window_keys(key, expiry, now), expiry, now)

    def clear_sliding_window(self, key: str, expiry: int) -> None:
        for window in self.sliding_window_keys(key, expiry, time.time()):
            self.clear(window)

    def _window(self, previous_key: str, current_key: str, expiry: int, now: float) -> tuple[int, float, int, float]:
        """The previous window's count and what is left of its weight's time,
        the current one's count and its counter's time to live."""
        with self._lock:
            previous, current = self._count(previous_key, now), self._count(current_key, now)
        previous_ttl = (1 - (((now - expiry) / expiry) % 1)) * expiry if previous else 0.0
        current_ttl = (1 - ((now / expiry) % 1)) * expiry + expiry
        return previous, previous_ttl, current, current_ttl


def _in_window(hits: list[float], start: float) -> int:
    """How many of ``hits`` (newest first) came after ``start``."""
    return bisect.bisect_left(hits, -start, key=lambda at: -at)
