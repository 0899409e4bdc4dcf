"""Rate limits on writes: per valid key, or per client address without one.

Built on ``limits``, the engine under Flask-Limiter, called from the write
guard (api.guards) once the credential is known; reads go straight past.
The extension's own bookkeeping cost about 1 ms per write and 0.4 ms per read
(measured in-process), more than recording a hand. Configuration (``FLASK_``-prefixed in the environment):

- ``RATELIMIT_WRITES``: the limit, in ``limits``' notation (``120 per minute``;
  several separated by ``;``).
- ``RATELIMIT_IMPORTS``: league imports per client address, on top of that
  (``10 per hour``): each one rebuilds years of play.
- ``RATELIMIT_STRATEGY``: ``moving-window`` (default: no burst of twice the
  limit across a window's edge), ``sliding-window-counter`` or ``fixed-window``.
- ``RATELIMIT_STORAGE_URI``: ``memory://`` (one process) or a shared store such
  as ``redis://host:6379/0``, which several workers or instances must use.
- ``RATELIMIT_KEY_PREFIX``: keeps apart several deployments on one store.
- ``RATELIMIT_ENABLED``: ``false`` turns the limits off.

A 429 is a problem+json with ``Retry-After``. When the store fails (Redis down),
writes are not refused for it: the limits are kept in this process's memory
until the store answers again (it is retried every 30 s).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import Any, cast
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import STRATEGIES, RateLimiter
from redis.backoff import NoBackoff
from redis.retry import Retry

from api.errors import RATE_LIMITED, Problem
from api.limit_store import MemoryStore

log = logging.getLogger(__name__)

RETRY_STORE = 30.0  # seconds before a failed store is tried again
STORE_TIMEOUT = 0.3  # seconds for each network call to the store: connecting, then each command


def open_store(uri: str, timeout: float = STORE_TIMEOUT) -> Storage:
    """The store named by ``uri``. A Redis store gives up on a connection or a
    command after ``timeout`` seconds, and at once (redis-py's default is 3 more
    tries with backoff): a store that hangs costs one write that long, then the
    limits are kept in memory like for a store that is down.
    ``RATELIMIT_STORAGE_TIMEOUT`` sets ``timeout``; ``socket_timeout`` and
    ``socket_connect_timeout`` in the URL's query win over it."""
    if urlsplit(uri).scheme in ("redis", "rediss", "redis+unix"):
        retry: Any = Retry(NoBackoff(), 0)  # limits types its options as scalars; redis-py takes a Retry
        store = storage_from_string(uri, socket_connect_timeout=timeout, socket_timeout=timeout, retry=retry)
        return cast(Storage, store)
    if urlsplit(uri).scheme == "memory":
        return MemoryStore()
    return cast(Storage, storage_from_string(uri))


class WriteLimits:
    def __init__(self, app: Flask) -> None:
        config = app.config
        self.enabled = bool(config.get("RATELIMIT_ENABLED", True))
        self.items: list[RateLimitItem] = parse_many(str(config["RATELIMIT_WRITES"]))
        self.import_items: list[RateLimitItem] = parse_many(str(config["RATELIMIT_IMPORTS"]))
        self.prefix = str(config.get("RATELIMIT_KEY_PREFIX") or "ginref")
        strategy = STRATEGIES[str(config["RATELIMIT_STRATEGY"])]
        store = open_store(
            str(config["RATELIMIT_STORAGE_URI"]), float(config.get("RATELIMIT_STORAGE_TIMEOUT", STORE_TIMEOUT))
        )
        self.limiter: RateLimiter = strategy(store)
        self.fallback: RateLimiter = strategy(MemoryStore())
        self.store_failed_at: float | None = None
        self._store_state = threading.Lock()  # the threads of a worker that meet the store at once say so once

    def _hit(self, item: RateLimitItem, key: str) -> tuple[bool, RateLimiter]:
        if self.store_failed_at is None or time.monotonic() - self.store_failed_at > RETRY_STORE:
            try:
                allowed = self.limiter.hit(item, self.prefix, key)
            except Exception as err:  # the store's own errors vary with its client library
                with self._store_state:
                    first = self.store_failed_at is None
                    self.store_failed_at = time.monotonic()
                if first:
                    log.warning("rate-limit store failed (%s); limits kept in memory meanwhile", err)
            else:
                if self.store_failed_at is not None:  # the store was given up: it answers again
                    with self._store_state:
                        back = self.store_failed_at is not None
                        self.store_failed_at = None
                    if back:
                        log.warning("rate-limit store answers again")
                return allowed, self.limiter
        return self.fallback.hit(item, self.prefix, key), self.fallback

    def check(self, key: str, items: list[RateLimitItem]) -> None:
        """Count this write against ``key``; 429 once over a limit."""
        for item in items:
            allowed, limiter = self._hit(item, key)
            if not allowed:
                reset_at = limiter.get_window_stats(item, self.prefix, key).reset_time
                wait = max(1, math.ceil(reset_at - time.time()))
                raise Problem(
                    429,
                    f"too many writes: the limit is {item} per key (or client address "
                    f"without a valid key); retry in {wait} s",
                    type=RATE_LIMITED,
                    headers={"Retry-After": str(wait)},
                )


def count_write(credential: str | None, *, bulk: bool = False) -> None:
    """Count a write against its valid credential (``key:<id>``), or, for a
    write without one (or with a made-up one), against the client address.
    A bulk write (the import, as its route declares: api.docs.WriteGuard)
    also counts against the address's import limit."""
    limits: WriteLimits = current_app.extensions["write_limits"]
    if not limits.enabled:
        return
    if credential is not None and not bulk:
        limits.check(credential, limits.items)
        return
    address = "addr:" + (request.remote_addr or "unknown")
    limits.check(credential or address, limits.items)
    if bulk:
        limits.check("import:" + address, limits.import_items)


def init_write_limits(app: Flask) -> None:
    app.extensions["write_limits"] = WriteLimits(app)
