"""SQLite's engine settings and its writers' queue: what SQLAlchemy lacks.

WAL so readers never block the writer, a busy timeout so a second writer
waits instead of failing, and ``BEGIN IMMEDIATE`` for a transaction that
writes, so two workers cannot both read a game and then both write it (a
plain deferred ``BEGIN`` lets them, and one update is lost). SQLAlchemy's
pysqlite dialect leaves the driver to begin its transactions, late and
deferred: here the driver begins none (``isolation_level = None``) and the
Core's ``begin`` event issues the ``BEGIN``, as SQLAlchemy's documentation
for the dialect shows.

Writers take their turn in a queue with a deadline (``WRITER_WAIT``) before
their ``BEGIN IMMEDIATE``: SQLite's own busy handler sleeps in steps of up
to 100 ms, a long tail under load, and has no notion of a queue.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine


class WriterQueueTimeoutError(TimeoutError):
    """A SQLite writer waited its turn longer than ``WRITER_WAIT`` (the API answers 503)."""


#: Seconds a SQLite writer waits in all, in the queue and then for SQLite's write
#: lock (as long as the busy timeout): a writer stuck in its transaction, or a
#: lock held outside the app, holds each of the others up no longer.
WRITER_WAIT = 10.0


#: An execution option: the connection runs one read statement alone, and needs no BEGIN
SINGLE_STATEMENT = "ginref_single_statement"


def _timed_out() -> WriterQueueTimeoutError:
    return WriterQueueTimeoutError(f"another write held the database for more than {WRITER_WAIT:g} s")


def _take_turn(fd: int, deadline: float) -> bool:
    """Lock ``fd`` (exclusive) by ``deadline`` (monotonic), or raise
    WriterQueueTimeoutError; True if it had to wait. flock has no timeout: tries
    without blocking, with pauses growing to 2 ms."""
    waited, pause = False, 0.0002
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return waited
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise _timed_out() from None
        waited = True
        time.sleep(pause)
        pause = min(pause * 2, 0.002)


def _writers_turn(info: dict[str, Any], lock_path: str, process_turn: threading.Lock, deadline: float) -> bool:
    """Wait for this writer's turn, by ``deadline``; True if it had to wait.

    Writers queue on a file lock (``lock_path``): the next one gets it within
    2 ms of it being free. A process's threads queue on a lock of their own
    (``process_turn``) before that, so that one writer per process, not every
    waiting thread, keeps trying the file lock. Both are noted in the
    connection's ``info``, for :func:`release_turn`."""
    waited = not process_turn.acquire(blocking=False)
    if waited and not process_turn.acquire(timeout=max(0.0, deadline - time.monotonic())):
        raise _timed_out()
    info["ginref_process_turn"] = process_turn
    try:
        fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
        info["ginref_writer_lock"] = fd
        return _take_turn(fd, deadline) or waited
    except BaseException:
        release_turn(info)
        raise


def release_turn(info: dict[str, Any]) -> None:
    """Give up the writer's turn noted in a connection's ``info``, if it holds one."""
    fd = info.pop("ginref_writer_lock", None)
    if fd is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)  # a no-op if it was never taken
        os.close(fd)
    turn = info.pop("ginref_process_turn", None)
    if turn is not None:
        turn.release()


def _begin_immediate(connection: Connection, deadline: float) -> None:
    """BEGIN IMMEDIATE, waiting for SQLite's write lock no later than ``deadline``."""
    busy = connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one()
    connection.exec_driver_sql(f"PRAGMA busy_timeout={max(1, round((deadline - time.monotonic()) * 1000))}")
    try:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    finally:
        connection.exec_driver_sql(f"PRAGMA busy_timeout={int(busy)}")


def init_engine_events(engine: Engine, writing: Callable[[], bool]) -> None:
    """Install the SQLite pragmas and transaction mode on ``engine``: a
    transaction begun while ``writing()`` is true begins IMMEDIATE, in the
    writer's turn, which it keeps until its connection commits, rolls back
    or goes back to the pool."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    database = engine.url.database
    lock_path = None if not database or database == ":memory:" else database + ".writers"
    process_turn = threading.Lock()  # this process's writers to this database, one at a time

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        if connection.get_execution_options().get(SINGLE_STATEMENT):
            return  # its one statement runs in a read snapshot of its own, in the driver's autocommit
        if not writing():
            # A deferred BEGIN takes no lock: it cannot wait for one, nor fail on one.
            connection.exec_driver_sql("BEGIN")
            return
        if lock_path is not None:
            deadline = time.monotonic() + WRITER_WAIT
            if _writers_turn(connection.info, lock_path, process_turn, deadline):
                _begin_immediate(connection, deadline)  # what is left of WRITER_WAIT, not a busy timeout more
                return
        # its "database is locked" is the Core's OperationalError (a 503)
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    @event.listens_for(engine, "commit")
    def _on_commit(connection: Connection) -> None:
        if not connection.invalidated:  # an invalidated one has no info to read: released at its checkin
            release_turn(connection.info)

    @event.listens_for(engine, "rollback")
    def _on_rollback(connection: Connection) -> None:
        if not connection.invalidated:  # an invalidated one has no info to read: released at its checkin
            release_turn(connection.info)

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        release_turn(record.info)  # never keep the turn past the connection's use
