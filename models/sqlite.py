"""SQLite's engine settings and its writers' queue: what SQLAlchemy lacks.

WAL so readers never block the writer, a busy timeout so a second writer
waits instead of failing, and ``BEGIN IMMEDIATE`` for a transaction that
writes, so two workers cannot both read a game and then both write it (a
plain deferred ``BEGIN`` lets them, and one update is lost). SQLAlchemy's
pysqlite dialect leaves the driver to begin its transactions, late and
deferred: here the driver begins none (``isolation_level = None``), and
:func:`begin` issues the ``BEGIN`` once the Core's transaction has begun
(called where a transaction begins: a request's connection, a session's
``after_begin``, the feed's watch). Not in the Core's ``begin`` event, as
SQLAlchemy's documentation for the dialect shows: an engine with a
connection event dispatches every event of every statement, and a read of
one statement, which needs no ``BEGIN``, would pay for them too.

Writers take their turn in a queue with a deadline (``WRITER_WAIT``) before
their ``BEGIN IMMEDIATE``: SQLite's own busy handler sleeps in steps of up
to 100 ms, a long tail under load, and has no notion of a queue.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine


class WriterQueueTimeoutError(TimeoutError):
    """A SQLite writer waited its turn longer than ``WRITER_WAIT`` (the API answers 503)."""


#: Seconds a SQLite writer waits in all, in the queue and then for SQLite's write
#: lock (as long as the busy timeout): a writer stuck in its transaction, or a
#: lock held outside the app, holds each of the others up no longer.
WRITER_WAIT = 10.0


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


class _Queue:
    """A database's writers: this process's take their turn by a lock of
    their own (``process``), one at a time, before that one tries the file
    lock (``path``) that the processes' writers take in turn."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.process = threading.Lock()

    def take_process_turn(self, deadline: float) -> bool:
        """Take this process's turn by ``deadline``; True if it had to wait."""
        waited = not self.process.acquire(blocking=False)
        if waited and not self.process.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise _timed_out()
        return waited


#: each SQLite file's writers' queue, by engine
_queues: WeakKeyDictionary[Engine, _Queue] = WeakKeyDictionary()


def connect_writer(engine: Engine) -> Connection:
    """A connection from ``engine``'s pool for a transaction that writes. On
    SQLite, the process's writer takes its turn first, holding no connection
    while it waits: writers queued behind each other would otherwise hold
    the pool's connections, and the reads (a phone's ask, the feed's watch)
    would wait for one behind them. The transaction's ``begin`` then waits
    only for the other processes' writers, by the same deadline."""
    queue = _queues.get(engine)
    if queue is None:
        return engine.connect()
    deadline = time.monotonic() + WRITER_WAIT
    waited = queue.take_process_turn(deadline)
    try:
        connection = engine.connect()
    except BaseException:
        queue.process.release()
        raise
    connection.info["ginref_queue"] = queue
    connection.info["ginref_turn_taken"] = (waited, deadline)
    return connection


def _writers_turn(info: dict[str, Any], queue: _Queue, deadline: float) -> float | None:
    """Wait for this writer's turn, by ``deadline`` (or the one it took its
    process's turn by); that deadline if it had to wait, else None.

    Writers queue on a file lock: the next one gets it within 2 ms of it
    being free. A process's threads queue on a lock of their own before that
    (in :func:`connect_writer`, or here), so that one writer per process,
    not every waiting thread, keeps trying the file lock. Both are noted in
    the connection's ``info``, for :func:`release_turn`."""
    if "ginref_writer_lock" in info:
        return None  # its turn is still its own (a transaction after a commit, before its checkin)
    taken = info.pop("ginref_turn_taken", None)
    if taken is not None and info.get("ginref_queue") is queue:
        waited, deadline = taken
    else:
        waited = queue.take_process_turn(deadline)
        info["ginref_queue"] = queue
    try:
        fd = os.open(queue.path, os.O_CREAT | os.O_RDWR, 0o600)
        info["ginref_writer_lock"] = fd
        return deadline if _take_turn(fd, deadline) or waited else None
    except BaseException:
        release_turn(info)
        raise


def release_turn(info: dict[str, Any]) -> None:
    """Give up the writer's turn noted in a connection's ``info``, if it holds one."""
    queue: _Queue | None = info.pop("ginref_queue", None)
    fd = info.pop("ginref_writer_lock", None)
    if fd is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)  # a no-op if it was never taken
        os.close(fd)
    info.pop("ginref_turn_taken", None)
    if queue is not None:
        queue.process.release()


def _begin_immediate(connection: Connection, deadline: float) -> None:
    """BEGIN IMMEDIATE, waiting for SQLite's write lock no later than ``deadline``."""
    busy = connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one()
    connection.exec_driver_sql(f"PRAGMA busy_timeout={max(1, round((deadline - time.monotonic()) * 1000))}")
    try:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    finally:
        connection.exec_driver_sql(f"PRAGMA busy_timeout={int(busy)}")


def begin(connection: Connection, writing: bool) -> None:
    """Begin the driver's transaction on ``connection``, whose Core
    transaction has just begun: for a write (``writing``), IMMEDIATE, in the
    writer's turn, which it keeps until its connection goes back to the pool
    or :func:`release_turn` after its commit; else a deferred BEGIN, which
    takes no lock (it cannot wait for one, nor fail on one). Nothing on
    another database, or when the driver is in a transaction already (a
    session joining a write request's connection). Not before the COMMIT:
    the next writer's BEGIN IMMEDIATE would find the database still locked,
    and wait in SQLite's busy handler, a sleep inside a C call that holds up
    every other request of its process under the gevent worker."""
    if connection.dialect.name != "sqlite":
        return
    driver = connection.connection.driver_connection
    if driver is None or driver.in_transaction:
        return
    if not writing:
        connection.exec_driver_sql("BEGIN")
        return
    queue = _queues.get(connection.engine)
    if queue is not None:
        waited_by = _writers_turn(connection.info, queue, time.monotonic() + WRITER_WAIT)
        if waited_by is not None:
            _begin_immediate(connection, waited_by)  # what is left of WRITER_WAIT, not a busy timeout more
            return
    # its "database is locked" is the Core's OperationalError (a 503)
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def init_engine_events(engine: Engine) -> None:
    """Install the SQLite pragmas on ``engine``'s connections, and its
    writers' queue; a connection gives its writer's turn back when it goes
    back to the pool."""
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
    if database and database != ":memory:":
        _queues.setdefault(engine, _Queue(database + ".writers"))

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        release_turn(record.info)  # never keep the turn past the connection's use
