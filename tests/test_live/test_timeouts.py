"""A hang never holds up the rest: a rate-limit store that never answers.
Real servers (gunicorn, four workers); ``/health`` is watched all along on new
connections. Bounded: every request has a client timeout."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from tests.live import BlackHole, LiveServer, raw_request


class HealthWatch:
    """GET /health on a new connection every 100 ms, in a thread, while in use."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.seconds: list[float] = []
        self.failures: list[str] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self.stopped.wait(0.1):
            started = time.monotonic()
            try:
                r = raw_request(self.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                                timeout=5)
                if r.status != 200:
                    self.failures.append(f"status {r.status}")
            except OSError as err:
                self.failures.append(repr(err))
            self.seconds.append(time.monotonic() - started)

    @property
    def worst(self) -> float:
        return max(self.seconds)

    def __enter__(self) -> HealthWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)


def test_a_rate_limit_store_that_never_answers_costs_a_write_its_short_timeout(tmp_path: Path) -> None:
    with BlackHole() as store:
        env = {"FLASK_RATELIMIT_STORAGE_URI": f'"redis://127.0.0.1:{store.port}/0"'}
        with LiveServer(f"sqlite:///{tmp_path / 'store.sqlite3'}", workers=4, env=env) as server, \
                HealthWatch(server.port) as health:

            def create_player(i: int) -> tuple[int, float]:
                started = time.monotonic()
                r = requests.post(f"{server.base}/api/v1/players", json={"name": f"P{i}"}, timeout=10,
                                  headers={"Connection": "close"})
                return r.status_code, time.monotonic() - started

            with ThreadPoolExecutor(4) as pool:  # new connections, 4 at a time: every worker meets the store
                results = list(pool.map(create_player, range(16)))
            time.sleep(0.5)  # /health once more after the writes
        print(f"\nwrites: slowest {max(s for _, s in results):.3f} s; /health: slowest {health.worst:.3f} s "
              f"of {len(health.seconds)}")
        assert {status for status, _ in results} <= {201, 429, 503}, results
        assert max(seconds for _, seconds in results) < 2.0, results
        assert not health.failures and health.worst < 1.0, (health.failures, health.worst)
        warnings = server.log().count("rate-limit store failed")
        assert 1 <= warnings <= 4, server.log()  # once per worker that met the store
