"""The database handle and the engine settings that keep concurrent writers safe.

SQLite (the default): WAL so readers never block the writer, a busy timeout
so a second writer waits instead of failing, and ``BEGIN IMMEDIATE`` for
requests that write, so two workers cannot both read a game and then both
write it (a plain deferred ``BEGIN`` lets them, and one update is lost).
PostgreSQL: the game row is locked (``SELECT ... FOR UPDATE``) while a hand
is recorded.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any, NoReturn
from weakref import WeakKeyDictionary

import orjson
from flask_sqlalchemy import SQLAlchemy
from flask_sqlalchemy.session import Session as FlaskSession
from sqlalchemy import JSON, DateTime, Select, Table, event, insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, ResourceClosedError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import PoolProxiedConnection, SingletonThreadPool, StaticPool
from sqlalchemy.types import TypeDecorator

log = logging.getLogger(__name__)


class Base(DeclarativeBase):
    pass


#: True while the current request may write: its SQLite transactions start IMMEDIATE.
writing: ContextVar[bool] = ContextVar("writing", default=False)

_readers: WeakKeyDictionary[Engine, Engine] = WeakKeyDictionary()


class Session(FlaskSession):
    """Reads outside a write run in autocommit on a database server: each
    statement is its own transaction, as it is under READ COMMITTED anyway,
    without a BEGIN and a ROLLBACK sent around it. A request that reads and
    then writes (a league's books refreshed on a read) commits its reads
    first, so its writes get a transaction of their own."""

    def get_bind(
        self, mapper: Any = None, clause: Any = None, bind: Engine | Connection | None = None, **kwargs: Any
    ) -> Engine | Connection:
        if bind is None:
            held = held_connection()
            if held is not None:  # a write request's one connection: the session joins its transaction
                return held.core()
        engine = super().get_bind(mapper=mapper, clause=clause, bind=bind, **kwargs)
        if writing.get() or not isinstance(engine, Engine) or engine.dialect.name == "sqlite":
            return engine
        reader = _readers.get(engine)
        if reader is None:
            reader = _readers[engine] = engine.execution_options(isolation_level="AUTOCOMMIT")
        return reader


#: rollback_only: a session that joins a write request's connection (see held_connection) rolls
#: its transaction back with its own, and leaves the commit to the request
db = SQLAlchemy(
    model_class=Base,
    session_options={"expire_on_commit": False, "class_": Session, "join_transaction_mode": "rollback_only"},
)

#: True in a write request (set by its first hook): its statements share one connection
_holding: ContextVar[bool] = ContextVar("holding", default=False)
#: that connection, begun on the request's first statement
_held: ContextVar[HeldConnection | None] = ContextVar("held", default=None)


def hold_connection() -> Token[bool]:
    """From now on (until :func:`release_connection`), this request's
    statements, the driver's and the session's, run on one connection of
    its own (a :class:`HeldConnection`), in one transaction, begun on the
    first of them (as a write: BEGIN IMMEDIATE on SQLite, while ``writing``
    is set) and committed by :func:`commit_held`. The session joins it and
    never commits it: a hand's write, all of it driver statements, never
    makes a session at all, whose begin, commit and removal around the
    connection cost a tenth of the write."""
    return _holding.set(True)


#: set while a held connection's Core view begins: its transaction is the driver's already
_joining: ContextVar[bool] = ContextVar("joining", default=False)

#: engine -> how a write transaction begins on one of its driver connections, where
#: the driver does not begin one by itself (SQLite: see init_engine_events)
_write_begins: WeakKeyDictionary[Engine, Any] = WeakKeyDictionary()


class HeldConnection:
    """A write request's one connection: a pooled driver connection, its
    transaction begun on it, and the Core's view of it (a ``Connection``,
    joined to that transaction) made only when the session or a Core
    statement needs it. A hand's write runs on the driver alone: the Core's
    connection, its begin, commit and events cost two and a half times the
    driver's own (0.23 M instructions against 0.09 M).

    It offers what a :class:`DriverStatement` runs on (``dialect``,
    ``connection.dbapi_connection``, ``invalidate``), as a Core connection
    does; a driver's error is raised as the Core's, and a connection that
    dropped is invalidated, as the Core does it."""

    __slots__ = ("engine", "dialect", "connection", "info", "_core", "_released")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        self._core: Connection | None = None
        self._released = False
        self.connection = raw_connection(engine)
        self.info = self.connection.info  # the pool record's: read after an invalidation too
        begin = _write_begins.get(engine)
        if begin is not None:
            try:
                begin(self.info, self.connection.dbapi_connection, self.dialect, self.invalidate)
            except BaseException:
                self.close()
                raise

    def core(self) -> Connection:
        """The Core's connection on it, in its transaction (made on the first call)."""
        core = self._core
        if core is None:
            if self._released:
                raise ResourceClosedError("this write's connection was lost")
            core = Connection(self.engine, self.connection)
            token = _joining.set(True)
            try:
                core.begin()
            finally:
                _joining.reset(token)
            self._core = core
        return core

    def invalidate(self, err: BaseException | None = None) -> None:
        """The connection dropped: the pool never hands it out again."""
        if self._core is not None:
            self._core.invalidate(err)
        elif not self._released:
            self._released = True
            self.connection.invalidate(err)  # and back to the pool

    def commit(self) -> None:
        if self._core is not None:
            if self._core.in_transaction():
                self._core.commit()
            return
        if self._released:
            raise ResourceClosedError("this write's connection was lost")
        dbapi_connection = self.connection.dbapi_connection
        try:
            self.dialect.do_commit(self.connection)
        except self.dialect.loaded_dbapi.Error as err:
            _raise_as_core(err, self.dialect, dbapi_connection, None, "COMMIT", (), self.invalidate)
        finally:
            _release(self.info)  # SQLite's writer's turn

    def close(self) -> None:
        """Back to the pool, rolled back if its transaction is still open."""
        if self._core is not None:
            self._core.close()
        elif not self._released:
            self._released = True
            self.connection.close()


def held_connection() -> HeldConnection | None:
    """The request's connection (see :func:`hold_connection`), begun on the
    first call; None outside a request that holds one."""
    held = _held.get()
    if held is None and _holding.get():
        held = HeldConnection(db.engine)
        _held.set(held)
    return held


def commit_held() -> None:
    """Commit the request's connection's transaction, if it has begun one."""
    held = _held.get()
    if held is not None:
        held.commit()


def drop_held() -> None:
    """Give the request's connection back to the pool, its transaction rolled
    back if it still has one; the next statement begins on a new one. A
    connection that died under the write fails its rollback too: it is
    given back all the same."""
    held = _held.get()
    if held is None:
        return
    _held.set(None)
    try:
        held.close()
    except SQLAlchemyError as err:
        log.warning("closing a lost connection: %s", err)


def release_connection(token: Token[bool]) -> None:
    """The end of :func:`hold_connection`: the connection is given back."""
    drop_held()
    _holding.reset(token)


def dumps_json(value: Any) -> str:
    """A JSON column's text: orjson's (several times faster than the standard
    library's, on every write), or, for what orjson cannot write (an integer
    past 64 bits), the standard library's."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


def loads_json(text: str | bytes) -> Any:
    """A JSON column's value, read by orjson, or the standard library for
    what it refuses (a number past its range, in text written before)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


#: the engine options that read and write JSON columns with orjson
JSON_ENGINE_OPTIONS = {"json_serializer": dumps_json, "json_deserializer": loads_json}


def now() -> datetime:
    """The current instant, in UTC: every timestamp the models write."""
    return datetime.now(UTC)


@contextmanager
def write_transaction() -> Iterator[None]:
    token = writing.set(True)
    try:
        yield
    finally:
        writing.reset(token)


class WriterQueueTimeoutError(TimeoutError):
    """A SQLite writer waited its turn longer than ``WRITER_WAIT`` (the API answers 503)."""


#: Seconds a SQLite writer waits in all, in the queue and then for SQLite's write
#: lock (as long as the busy timeout): a writer stuck in its transaction, or a
#: lock held outside the app, holds each of the others up no longer.
WRITER_WAIT = 10.0


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
                raise WriterQueueTimeoutError(
                    f"another write held the database for more than {WRITER_WAIT:g} s"
                ) from None
        waited = True
        time.sleep(pause)
        pause = min(pause * 2, 0.002)


def _begin_immediate(dbapi_connection: Any, dialect: Any, invalidate: Any, deadline: float) -> None:
    """BEGIN IMMEDIATE, waiting for SQLite's write lock no later than ``deadline``."""

    def run(sql: str) -> Any:
        cursor = _execute(dbapi_connection, dialect, sql, (), invalidate)
        row = cursor.fetchone()
        cursor.close()
        return row

    busy = int(run("PRAGMA busy_timeout")[0])
    run(f"PRAGMA busy_timeout={max(1, round((deadline - time.monotonic()) * 1000))}")
    try:
        run("BEGIN IMMEDIATE")
    finally:
        run(f"PRAGMA busy_timeout={busy}")


def _writers_turn(info: dict[str, Any], lock_path: str, process_turn: threading.Lock, deadline: float) -> bool:
    """Wait for this writer's turn, by ``deadline``; True if it had to wait.

    Writers queue on a file lock (``lock_path``): the next one gets it within
    2 ms of it being free, where SQLite's own busy handler sleeps in steps of
    up to 100 ms (a long tail under load). A process's threads queue on a lock
    of their own (``process_turn``) before that, so that one writer per
    process, not every waiting thread, keeps trying the file lock. Both are
    noted in the connection's ``info``, for :func:`_release`."""
    waited = not process_turn.acquire(blocking=False)
    if waited and not process_turn.acquire(timeout=max(0.0, deadline - time.monotonic())):
        raise WriterQueueTimeoutError(f"another write held the database for more than {WRITER_WAIT:g} s")
    info["ginref_process_turn"] = process_turn
    try:
        fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
        info["ginref_writer_lock"] = fd
        return _take_turn(fd, deadline) or waited
    except BaseException:
        _release(info)
        raise


def _release(info: dict[str, Any]) -> None:
    """Give up the writer's turn noted in ``info``, if it holds one."""
    fd = info.pop("ginref_writer_lock", None)
    if fd is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)  # a no-op if it was never taken
        os.close(fd)
    turn = info.pop("ginref_process_turn", None)
    if turn is not None:
        turn.release()


def init_engine_events(engine: Engine) -> None:
    """Install the SQLite pragmas and transaction mode on ``engine``."""
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

    def begin_write(info: dict[str, Any], dbapi_connection: Any, dialect: Any, invalidate: Any) -> None:
        """BEGIN IMMEDIATE, in this writer's turn."""
        if lock_path is not None:
            deadline = time.monotonic() + WRITER_WAIT
            waited = _writers_turn(info, lock_path, process_turn, deadline)
            if waited:  # what is left of WRITER_WAIT, not a busy timeout more
                _begin_immediate(dbapi_connection, dialect, invalidate, deadline)
                return
        # on the driver's cursor, its "database is locked" raised as SQLAlchemy's error (a 503)
        _execute(dbapi_connection, dialect, "BEGIN IMMEDIATE", (), invalidate).close()

    _write_begins[engine] = begin_write  # a held connection's (see HeldConnection)

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        if _joining.get():
            return  # a held connection's Core view: its transaction is begun already
        if not writing.get():
            # A deferred BEGIN takes no lock and cannot fail on one: it goes to the
            # driver's connection itself (through exec_driver_sql it cost as much as
            # a game's whole read statement, on every read).
            connection.connection.driver_connection.execute("BEGIN")
            return
        begin_write(connection.info, connection.connection.dbapi_connection, connection.dialect, connection.invalidate)

    @event.listens_for(engine, "commit")
    def _on_commit(connection: Any) -> None:
        if not connection.invalidated:  # an invalidated one has no info to read: released at its checkin
            _release(connection.info)

    @event.listens_for(engine, "rollback")
    def _on_rollback(connection: Any) -> None:
        if not connection.invalidated:
            _release(connection.info)

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        _release(record.info)  # never keep the lock past the connection's use


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite keeps none)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
            if dialect.name == "sqlite":
                value = value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None:
            value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return value

    def bind_processor(self, dialect: Any) -> Any:
        """On SQLite, one function writes a value as the decorator's chain
        does (:meth:`process_bind_param`, then SQLite's DATETIME filling its
        storage format from seven attributes): in UTC, by ``isoformat``,
        which gives the same text (a test holds them equal). A hand's write
        binds four of them."""
        impl = self.load_dialect_impl(dialect)
        if dialect.name != "sqlite" or getattr(impl, "_storage_format", None) != _SQLITE_DATETIME:
            return super().bind_processor(dialect)

        def process(value: datetime | None) -> str | None:
            if value is None:
                return None
            if value.tzinfo is not None:
                value = value.astimezone(UTC).replace(tzinfo=None)
            return value.isoformat(" ", "microseconds")

        return process


#: SQLite's DATETIME storage format, as SQLAlchemy writes it by default
_SQLITE_DATETIME = "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"


class SoloRead:
    """A prebuilt SELECT of one row, run on a connection of its own (pooled;
    on SQLite, the thread's own), outside the request's session: for a read
    that is this one statement and nothing else (a game's ``GET``), which
    then opens no transaction in the session and closes none. One statement
    is consistent by itself: SQLite and PostgreSQL (in autocommit here) each
    run it in a snapshot of its own.

    The statement is compiled once per engine, to the driver's SQL and
    parameter order, and its columns' result processors are looked up once;
    the row comes back as a :class:`LazyRow` by column key, with the values
    the ORM's Core execution would give (a test compares them)."""

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement
        self._plans: WeakKeyDictionary[Engine, _SoloPlan] = WeakKeyDictionary()

    def one_or_none(self, params: dict[str, Any], engine: Engine | None = None) -> Mapping[str, Any] | None:
        engine = engine or db.engine
        plan = self._plans.get(engine)
        if plan is None:
            plan = self._plans[engine] = _SoloPlan(self.statement, engine)
        driven = plan.driven
        if driven is None:
            row = db.session.connection().execute(self.statement, params).one_or_none()
            return None if row is None else dict(row._mapping)
        if plan.kept is not None:
            return plan.kept_read(engine, params)
        connection = raw_connection(engine)
        try:
            driver = connection.driver_connection
            autocommit = plan.autocommit and not driver.autocommit  # type: ignore[union-attr]
            if autocommit:
                try:
                    driver.autocommit = True  # type: ignore[union-attr]
                except driven.dialect.loaded_dbapi.Error as err:  # dropped while it sat in the pool
                    dbapi_connection = connection.dbapi_connection
                    _raise_as_core(err, driven.dialect, dbapi_connection, None, "", (), connection.invalidate)
            cursor = _execute(
                connection.dbapi_connection, driven.dialect, driven.sql, driven.arguments(params), connection.invalidate
            )
            values = cursor.fetchone()
            cursor.close()
            if autocommit:
                try:
                    driver.autocommit = False  # type: ignore[union-attr]
                except driven.dialect.loaded_dbapi.Error as err:  # dropped after the read: the read stands
                    connection.invalidate(err)
        finally:
            connection.close()  # back to the pool; invalidated, it is not handed out again
        return driven.row(values)


class LazyRow(Mapping[str, Any]):
    """A row the driver fetched, by column key, with the value the Core would
    give for each (a JSON column decoded, a date parsed) worked out when it is
    first read, and kept: a conditional read that ends in a 304 reads a
    game's id, version and audience, and never decodes its JSON columns nor
    parses its dates. ``changed`` returns a copy with some values replaced,
    still lazy for the others."""

    __slots__ = ("_index", "_raw", "_read")

    def __init__(self, index: dict[str, tuple[int, Any]], raw: Sequence[Any], read: dict[str, Any]) -> None:
        self._index = index  # key -> (position in raw, result processor or None)
        self._raw = raw
        self._read = read  # the values worked out so far, and those replaced

    def __getitem__(self, key: str) -> Any:
        try:
            return self._read[key]
        except KeyError:
            position, process = self._index[key]
            value = self._raw[position]
            if process is not None:
                value = process(value)
            self._read[key] = value
            return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __repr__(self) -> str:
        return f"LazyRow({dict(self)!r})"

    def changed(self, changes: dict[str, Any]) -> LazyRow:
        unknown = set(changes) - set(self._index)
        if unknown:
            raise KeyError(f"no column {sorted(unknown)}")
        return LazyRow(self._index, self._raw, {**self._read, **changes})


class _Kept(threading.local):
    """A thread's own SQLite connection for :class:`SoloRead`'s reads."""

    connection: Any = None
    generation = -1  # the engine's disposals when it was made
    pid = 0  # the process that made it

    def drop(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            with suppress(Exception):
                connection.close()


class _SoloPlan:
    """A :class:`SoloRead`'s statement as one engine's driver runs it
    (``driven``; None: through the session)."""

    def __init__(self, statement: Select[Any], engine: Engine) -> None:
        #: SQLite's connections run in autocommit already (init_engine_events); psycopg's are switched to it.
        self.autocommit = engine.dialect.name == "postgresql"
        #: A pool of one shared connection (an in-memory SQLite) would have it rolled back under the session.
        shared = isinstance(engine.pool, (StaticPool, SingletonThreadPool))
        self.driven = None if shared else _DriverPlan.make(statement, engine.dialect, ())

        #: SQLite (a file): each thread reads on a driver connection of its own, kept (see kept_read)
        self.kept = _Kept() if self.driven is not None and engine.dialect.name == "sqlite" else None
        self.generation = 0  # one more each time the engine is disposed: the kept connections are made anew
        if self.kept is not None:
            event.listen(engine, "engine_disposed", self._disposed)

    def _disposed(self, _engine: Engine) -> None:
        self.generation += 1

    def kept_read(self, engine: Engine, params: dict[str, Any]) -> LazyRow | None:
        """The read on this thread's own SQLite connection: made by the
        engine's pool (with its pragmas, in autocommit) and detached from it
        the first time, then kept for the thread's next reads. Checking a
        connection out of the pool and back (with the rollback of its reset)
        cost a tenth of a conditional read; a SQLite connection is a file
        handle, not a server's, and each statement in autocommit reads a
        snapshot of its own. Made anew after the engine is disposed, in a
        forked process, and after an error that means it is broken."""
        driven, kept = self.driven, self.kept
        assert driven is not None and kept is not None
        connection = kept.connection
        if connection is None or kept.generation != self.generation or kept.pid != os.getpid():
            if kept.pid == os.getpid():
                kept.drop()
            fairy = raw_connection(engine)
            fairy.detach()  # the thread's from now on: the pool makes another for its place
            connection = kept.connection = fairy.dbapi_connection
            kept.generation, kept.pid = self.generation, os.getpid()
        cursor = _execute(connection, driven.dialect, driven.sql, driven.arguments(params), lambda _err: kept.drop())
        values = cursor.fetchone()
        cursor.close()
        return driven.row(values)

    @property
    def fallback(self) -> bool:
        """Whether the read goes through the session."""
        return self.driven is None


def session_connection() -> Connection:
    """The connection of the request's transaction: a write request's own
    (see :func:`hold_connection`); otherwise ``db.session.connection()``,
    looked up once per transaction: the
    session's transaction holds one connection for as long as it lasts, and
    asking the session for it again cost as much as a statement's run, five
    times a hand. A new transaction (after a commit or a rollback) is asked
    afresh."""
    held = held_connection()
    if held is not None:
        return held.core()
    session = db.session()
    transaction = session.get_transaction()
    if transaction is not None:
        known = session.info.get(_CONNECTION)
        if known is not None and known[0] is transaction and not known[1].closed:
            return known[1]  # type: ignore[no-any-return]
    connection = session.connection()
    session.info[_CONNECTION] = (session.get_transaction(), connection)
    return connection


_CONNECTION = "ginref_connection"


def _driver_connection() -> Connection | HeldConnection:
    """What a driver statement runs on: a write request's held connection
    itself (the Core's view of it is not needed), else the session's."""
    held = held_connection()
    return held if held is not None else session_connection()


def _core(connection: Connection | HeldConnection) -> Connection:
    return connection.core() if isinstance(connection, HeldConnection) else connection


class DriverStatement:
    """A prebuilt statement of a hand's write (the game's lock, the hand, the
    game's row, its revision and event), run on the driver's cursor of the
    request's connection (:func:`session_connection`), in its transaction: what SQLAlchemy's
    Core adds around each execution (its execution context, events and result
    objects) cost as much as the statement itself, five times a hand.

    Compiled once per dialect and set of parameters, with the bind and result
    processors of its columns, so values go in and come out as the Core would
    give them (a test compares them); a driver's error is raised as the
    Core's (``DBAPIError.instance``), so a locked database is still the
    ``OperationalError`` the API answers with a 503. A statement the Core
    would add values to (a column default computed in Python) goes through
    the Core."""

    def __init__(self, statement: Any) -> None:
        self.statement = statement
        self._plans: WeakKeyDictionary[Any, dict[tuple[str, ...], _DriverPlan | None]] = WeakKeyDictionary()
        #: the plans of the dialect last run on (one, but for tests), looked up without a weak reference made
        self._last: tuple[Any, dict[tuple[str, ...], _DriverPlan | None]] | None = None

    def _plan(self, connection: Connection | HeldConnection, params: dict[str, Any]) -> _DriverPlan | None:
        dialect = connection.dialect
        last = self._last
        if last is not None and last[0] is dialect:
            plans = last[1]
        else:
            known = self._plans.get(dialect)
            plans = self._plans[dialect] = {} if known is None else known
            self._last = (dialect, plans)
        keys = tuple(params)
        try:
            return plans[keys]
        except KeyError:
            plan = plans[keys] = _DriverPlan.make(self.statement, dialect, keys)
            return plan

    def execute(self, params: dict[str, Any]) -> int:
        """Run it; the number of rows it changed (an UPDATE's)."""
        connection = _driver_connection()
        plan = self._plan(connection, params)
        if plan is None:
            return int(_core(connection).execute(self.statement, params).rowcount)
        cursor = plan.run(connection, params)
        count = int(cursor.rowcount)
        cursor.close()
        return count

    def one_or_none(self, params: dict[str, Any]) -> Mapping[str, Any] | None:
        """Run it (a SELECT); its one row by column key (a :class:`LazyRow`), or None."""
        connection = _driver_connection()
        plan = self._plan(connection, params)
        if plan is None:
            row = _core(connection).execute(self.statement, params).one_or_none()
            return None if row is None else dict(row._mapping)
        cursor = plan.run(connection, params)
        values = cursor.fetchone()
        cursor.close()
        return plan.row(values)


class _DriverPlan:
    """A :class:`DriverStatement` as one dialect's driver runs it with one set of parameters."""

    def __init__(self, compiled: Any, dialect: Any, columns: list[Any], keys: tuple[str, ...] = ()) -> None:
        self.compiled = compiled
        self.dialect = dialect
        self.sql: str = compiled.string
        self.order: list[str] | None = list(compiled.positiontup or []) if compiled.positional else None
        self.binds = [
            (name, bind.type.dialect_impl(dialect).bind_processor(dialect)) for name, bind in compiled.binds.items()
        ]
        #: every value comes from the caller and goes to the driver as it is (a game's read, its lock)
        self.direct = all(process is None for _, process in self.binds) and all(
            bind.required for bind in compiled.binds.values()
        )
        #: the statement's own values, by bind key, merged under the caller's (see :meth:`ordered`)
        self.constants: dict[str, Any] = {}
        self.fetch = self._fetch(keys)
        processors = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns]
        #: each column's key: its position in a fetched row, and its result processor (None: the value as it is)
        self.index: dict[str, tuple[int, Any]] = {
            str(column.key): (i, process) for i, (column, process) in enumerate(zip(columns, processors, strict=True))
        }

    @classmethod
    def make(cls, statement: Any, dialect: Any, keys: tuple[str, ...]) -> _DriverPlan | None:
        if dialect.name not in ("sqlite", "postgresql"):
            return None
        compiled = statement.compile(dialect=dialect, column_keys=list(keys) if statement.is_insert else None)
        if compiled.insert_prefetch or compiled.update_prefetch:  # Python-side defaults: the Core computes them
            return None
        columns = list(statement.selected_columns) if statement.is_select else []
        return cls(compiled, dialect, columns, keys)

    def _fetch(self, keys: tuple[str, ...]) -> list[tuple[str, str, Any]] | None:
        """For each of the driver's parameters, in the order the SQL names
        them: its name, the key of the caller's parameters its value is
        taken from (as ``construct_params`` takes it: the bind's key, else its
        name) and its bind processor. A bind the caller does not give that
        has a value of its own (a literal of the statement: ``coalesce(max(revision),
        0) + 1``) takes it from :attr:`constants`, by its key. None when a
        value would come from elsewhere (a value computed per run, a name
        escaped for the driver): then ``construct_params`` works them out on
        every run."""
        compiled = self.compiled
        if compiled.escaped_bind_names or getattr(compiled, "_render_postcompile", False):
            return None
        processors = dict(self.binds)
        fetch, constants = [], {}
        for name in self.order if self.order is not None else list(compiled.bind_names.values()):
            bind = compiled.binds[name]
            key = bind.key if bind.key in keys else name if name in keys else None
            if key is None:
                if bind.required or bind.callable is not None:
                    return None
                key = bind.key
                constants[key] = bind.value
            fetch.append((name, key, processors[name]))
        self.constants = constants
        return fetch

    def arguments(self, params: dict[str, Any]) -> Any:
        """The driver's parameters: each bound value processed, in the order the SQL names them."""
        if self.direct:
            return params if self.order is None else tuple(params[name] for name in self.order)
        fetch = self.fetch
        if fetch is not None:
            values = self.ordered(params)
            if self.order is not None:
                return tuple(values)
            return dict(zip([name for name, _, _ in fetch], values, strict=True))
        values = self.compiled.construct_params(params)
        for name, process in self.binds:
            if process is not None and name in values:
                values[name] = process(values[name])
        return values if self.order is None else tuple(values[name] for name in self.order)

    def ordered(self, params: dict[str, Any]) -> list[Any]:
        """The processed values in the order of :attr:`fetch` (which must be known)."""
        assert self.fetch is not None
        if self.constants:
            params = {**self.constants, **params}
        return [params[key] if process is None else process(params[key]) for _, key, process in self.fetch]

    def row(self, values: Any) -> LazyRow | None:
        """A row the driver fetched, by column key, each value processed when
        it is first read (None for no row)."""
        return None if values is None else LazyRow(self.index, values, {})

    def run(self, connection: Connection | HeldConnection, params: dict[str, Any]) -> Any:
        dbapi_connection = connection.connection.dbapi_connection
        return _execute(dbapi_connection, self.dialect, self.sql, self.arguments(params), connection.invalidate)


_BULK: dict[Table, DriverStatement] = {}


def insert_rows(table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (each with the same keys, in the same order) into
    ``table``, in the session's transaction, each value bound as the Core
    binds it (a test reads them back): an import's hands, revisions and
    figures. On PostgreSQL they go in one ``COPY``: psycopg's executemany
    handled each row in Python, the largest part of an import's CPU after
    the referee's. On SQLite, the driver's executemany takes the plan's
    parameters, where the Core worked out each row's anew. Rows of other
    shapes, or a table whose inserts the Core fills in, go through the Core."""
    if not rows:
        return
    statement = _BULK.get(table)
    if statement is None:
        statement = _BULK[table] = DriverStatement(insert(table))
    connection = session_connection()
    keys = tuple(rows[0])
    plan = statement._plan(connection, rows[0])
    if plan is None or plan.fetch is None or any(tuple(row) != keys for row in rows):
        connection.execute(statement.statement, rows)
        return
    dbapi_connection: Any = connection.connection.dbapi_connection
    dialect = connection.dialect
    if dialect.name == "postgresql":
        fetch = [(key, _copied(table.c[key], dialect, process)) for _, key, process in plan.fetch]
        columns = ", ".join(dialect.identifier_preparer.quote(table.c[key].name) for key, _ in fetch)
        sql = f"COPY {dialect.identifier_preparer.format_table(table)} ({columns}) FROM STDIN"
        cursor = None
        try:
            cursor = dbapi_connection.cursor()
            with cursor.copy(sql) as copy:
                for row in rows:
                    copy.write_row([row[key] if process is None else process(row[key]) for key, process in fetch])
        except dialect.loaded_dbapi.Error as err:
            _raise_as_core(err, dialect, dbapi_connection, cursor, sql, (), connection.invalidate)
        finally:
            if cursor is not None:
                cursor.close()
        return
    cursor = None
    try:
        cursor = dbapi_connection.cursor()
        cursor.executemany(plan.sql, [plan.ordered(row) for row in rows])
    except dialect.loaded_dbapi.Error as err:
        _raise_as_core(err, dialect, dbapi_connection, cursor, plan.sql, (), connection.invalidate)
    finally:
        if cursor is not None:
            cursor.close()


def _copied(column: Any, dialect: Any, process: Any) -> Any:
    """A value's processor for ``COPY``: a JSON column's value goes as its
    text (what the Core's processor wraps for psycopg, serialized the same
    way), written by psycopg's text dumper; any other as the Core binds it."""
    if not isinstance(column.type, JSON):
        return process
    serialize = dialect._json_serializer or json.dumps
    none_as_null = column.type.none_as_null
    return lambda value: None if value is None and none_as_null else serialize(value)


def raw_connection(engine: Engine) -> PoolProxiedConnection:
    """``engine.raw_connection()``, with a driver's error on the way (a
    connection refused, or cut while it was being made and set up) raised as
    the Core raises it from ``engine.connect()``: wrapped, so that the API
    answers it as the database being out of reach (a 503), not as a bug.
    ``raw_connection`` alone lets the driver's own exception through."""
    try:
        return engine.raw_connection()
    except engine.dialect.loaded_dbapi.Error as err:
        dialect = engine.dialect
        raise DBAPIError.instance(
            None,
            None,
            err,
            dialect.loaded_dbapi.Error,
            connection_invalidated=bool(dialect.is_disconnect(err, None, None)),
            dialect=dialect,
        ) from err


def _raise_as_core(
    err: Exception, dialect: Any, dbapi_connection: Any, cursor: Any, sql: str, arguments: Any, invalidate: Any
) -> NoReturn:
    """Raise a driver's error as the Core raises it (see :func:`_execute`)."""
    dropped = bool(dialect.is_disconnect(err, dbapi_connection, cursor))
    if cursor is not None:
        with suppress(dialect.loaded_dbapi.Error):
            cursor.close()
    if dropped:
        invalidate(err)
    raise DBAPIError.instance(
        sql, arguments, err, dialect.loaded_dbapi.Error, connection_invalidated=dropped, dialect=dialect
    ) from err


def _execute(dbapi_connection: Any, dialect: Any, sql: str, arguments: Any, invalidate: Any) -> Any:
    """A cursor that has run ``sql``. A driver's error is raised as the Core
    raises it: wrapped (``DBAPIError.instance``: a locked database is still an
    ``OperationalError``), and, for a connection that dropped, with the
    connection invalidated (``invalidate``), so that the pool never hands it
    out again, and the error saying so. A connection the driver already
    knows is closed fails as it makes the cursor: the same."""
    cursor = None
    try:
        cursor = dbapi_connection.cursor()
        cursor.execute(sql, arguments)
    except dialect.loaded_dbapi.Error as err:
        _raise_as_core(err, dialect, dbapi_connection, cursor, sql, arguments, invalidate)
    return cursor
