"""SQLite's writers' queue (models.sqlite): a writer waiting for its
process's turn holds none of the pool's connections, so the reads go on
beside the queue; it gives up at WRITER_WAIT, holding nothing."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from models import sqlite

writing: ContextVar[bool] = ContextVar("writing", default=False)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    # one connection and one more: the writer in its turn takes one, a read the other
    engine = create_engine(f"sqlite:///{tmp_path / 'queue.sqlite3'}", pool_size=1, max_overflow=1, pool_timeout=1)
    sqlite.init_engine_events(engine)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE hands (id INTEGER PRIMARY KEY, who TEXT)"))
    yield engine
    engine.dispose()


def _write(engine: Engine, who: str, hold: threading.Event | None, began: threading.Event | None) -> None:
    writing.set(True)
    with sqlite.connect_writer(engine) as connection, connection.begin():
        sqlite.begin(connection, writing.get())
        connection.execute(text("INSERT INTO hands (who) VALUES (:who)"), {"who": who})
        if began is not None:
            began.set()
        if hold is not None:
            assert hold.wait(10)


def test_a_writer_waiting_its_turn_leaves_the_pool_to_the_reads(engine: Engine) -> None:
    hold, began = threading.Event(), threading.Event()
    first = threading.Thread(target=_write, args=(engine, "first", hold, began))
    first.start()
    assert began.wait(10)
    second = threading.Thread(target=_write, args=(engine, "second", None, None))
    second.start()
    time.sleep(0.2)  # the second writer waits for the first's turn
    assert second.is_alive()
    assert engine.pool.checkedout() == 1  # the first writer's: the second holds none
    started = time.monotonic()
    with engine.connect() as connection:  # a read, beside the queue
        assert connection.execute(text("SELECT count(*) FROM hands")).scalar_one() == 0
    assert time.monotonic() - started < 0.5
    hold.set()
    first.join(10)
    second.join(10)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT who FROM hands ORDER BY id")).scalars().all() == ["first", "second"]
    assert engine.pool.checkedout() == 0


def test_a_writer_kept_waiting_past_writer_wait_gives_up_holding_nothing(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite, "WRITER_WAIT", 0.3)
    hold, began = threading.Event(), threading.Event()
    first = threading.Thread(target=_write, args=(engine, "first", hold, began))
    first.start()
    assert began.wait(10)
    writing.set(True)
    started = time.monotonic()
    with pytest.raises(sqlite.WriterQueueTimeoutError):
        sqlite.connect_writer(engine)
    assert 0.25 < time.monotonic() - started < 2
    assert engine.pool.checkedout() == 1
    hold.set()
    first.join(10)
    _write(engine, "third", None, None)  # the turn is free again
    assert engine.pool.checkedout() == 0


def test_reads_would_wait_behind_writers_holding_connections(engine: Engine) -> None:
    """What the queue avoids: a writer that takes a connection before its turn
    leaves a read none (the pool's timeout)."""
    hold, began = threading.Event(), threading.Event()
    first = threading.Thread(target=_write, args=(engine, "first", hold, began))
    first.start()
    assert began.wait(10)

    def plain_writer() -> None:
        writing.set(True)
        with engine.connect() as connection, connection.begin():
            sqlite.begin(connection, writing.get())  # its turn is taken here, holding a connection
            connection.execute(text("INSERT INTO hands (who) VALUES ('plain')"))

    second = threading.Thread(target=plain_writer)
    second.start()
    time.sleep(0.2)
    with pytest.raises(PoolTimeoutError), engine.connect():
        pass
    hold.set()
    first.join(10)
    second.join(10)


def test_a_writer_keeps_its_turn_through_its_commit(engine: Engine, tmp_path: Path) -> None:
    """The ``commit`` event runs before SQLite's COMMIT: a turn given up
    there would let the next writer find the database still locked, and
    sleep in SQLite's busy handler."""
    seen: list[bool] = []

    @event.listens_for(engine, "commit")
    def _before_commit(connection: Any) -> None:
        fd = os.open(tmp_path / "queue.sqlite3.writers", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append(False)  # the file lock was free: the turn was given up already
        except BlockingIOError:
            seen.append(True)
        finally:
            os.close(fd)

    _write(engine, "first", None, None)
    assert seen == [True]
    _write(engine, "second", None, None)  # and given up once the connection is back
    assert seen == [True, True]
