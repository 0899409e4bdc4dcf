"""api.limits.WriteLimits: a rate-limit store that fails is said once per
worker, however many of its threads meet it at once, and the writes are
counted in memory meanwhile."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest

from api.errors import Problem
from api.limits import WriteLimits
from app import create_app


class _Stalled:
    """A store's limiter whose every hit waits until all the threads are in it, then fails."""

    def __init__(self, threads: int) -> None:
        self.met = threading.Barrier(threads)

    def hit(self, *_args: Any) -> bool:
        self.met.wait(timeout=10)
        raise ConnectionError("Timeout reading from socket")


class _SlowRecorder(logging.Handler):
    """A log that takes its time (a full disk, a slow pipe): the other threads go on meanwhile."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.said: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        time.sleep(0.05)
        self.said.append(record.getMessage())


def test_threads_that_meet_a_failing_store_at_once_say_so_once() -> None:
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "RATELIMIT_WRITES": "3 per minute"})
    limits: WriteLimits = app.extensions["write_limits"]
    threads = 8
    limits.limiter = _Stalled(threads)  # type: ignore[assignment]
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            limits.check(f"key:{n}", limits.items)
        except BaseException as err:  # noqa: BLE001 - any error fails the test below
            errors.append(err)

    log = _SlowRecorder()
    logger = logging.getLogger("api.limits")
    kept = logger.disabled, logger.level  # whatever the tests before configured
    logger.disabled, logger.level = False, logging.WARNING
    logger.addHandler(log)
    try:
        workers = [threading.Thread(target=write, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        logger.removeHandler(log)
        logger.disabled, logger.level = kept
    assert errors == []
    assert log.said == ["rate-limit store failed (Timeout reading from socket); limits kept in memory meanwhile"]
    assert limits.store_failed_at is not None
    for _ in range(2):  # counted in memory meanwhile: key:0's fourth write in a minute is refused
        limits.check("key:0", limits.items)
    with pytest.raises(Problem, match="too many writes") as refused:
        limits.check("key:0", limits.items)
    assert refused.value.status == 429
