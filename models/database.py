"""The database handle, a write request's one connection, and the column
types and statements the models share.

Every statement runs through SQLAlchemy's Core (``Connection.execute``, with
its compiled cache; a write's hot statements as SQL text compiled once, see
:mod:`models.statement`), on the request's connection: a write request's own
(:func:`hold_connection`), else the session's. SQLite's transaction mode and
writers' queue are in :mod:`models.sqlite`; on PostgreSQL the game row is
locked (``SELECT ... FOR UPDATE``) while a hand is recorded.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any
from weakref import WeakKeyDictionary

import orjson
from flask_sqlalchemy import SQLAlchemy
from flask_sqlalchemy.session import Session as FlaskSession
from sqlalchemy import DateTime, Select, Table, event, insert
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import SingletonThreadPool, StaticPool
from sqlalchemy.types import TypeDecorator

from models import sqlite

log = logging.getLogger(__name__)


class Base(DeclarativeBase):
    pass


#: True while the current request may write: its SQLite transactions start IMMEDIATE.
writing: ContextVar[bool] = ContextVar("writing", default=False)

_readers: WeakKeyDictionary[Engine, Engine] = WeakKeyDictionary()


def reader(engine: Engine) -> Engine:
    """``engine`` for reads outside a write: on a database server, in
    autocommit (each statement its own transaction, as it is under READ
    COMMITTED anyway, without a BEGIN and a ROLLBACK sent around it)."""
    if engine.dialect.name == "sqlite":
        return engine
    found = _readers.get(engine)
    if found is None:
        found = _readers[engine] = engine.execution_options(isolation_level="AUTOCOMMIT")
    return found


class Session(FlaskSession):
    """A write request's session joins its one connection (see
    :func:`hold_connection`); a read's runs on :func:`reader`. A request
    that reads and then writes (a league's books refreshed on a read)
    commits its reads first, so its writes get a transaction of their own."""

    def get_bind(
        self, mapper: Any = None, clause: Any = None, bind: Engine | Connection | None = None, **kwargs: Any
    ) -> Engine | Connection:
        if bind is None:
            held = held_connection()
            if held is not None:  # the session joins its transaction
                return held
        engine = super().get_bind(mapper=mapper, clause=clause, bind=bind, **kwargs)
        if writing.get() or not isinstance(engine, Engine):
            return engine
        return reader(engine)


#: rollback_only: a session that joins a write request's connection (see held_connection) rolls
#: its transaction back with its own, and leaves the commit to the request
db = SQLAlchemy(
    model_class=Base,
    session_options={"expire_on_commit": False, "class_": Session, "join_transaction_mode": "rollback_only"},
)


def init_engine_events(engine: Engine) -> None:
    """SQLite's pragmas and writers' queue on ``engine`` (:mod:`models.sqlite`)."""
    sqlite.init_engine_events(engine)


@event.listens_for(Session, "after_begin")
def _begin_on_sqlite(_session: Session, _transaction: Any, connection: Connection) -> None:
    """A session's transaction on SQLite begins (IMMEDIATE in a write): :func:`models.sqlite.begin`."""
    sqlite.begin(connection, writing.get())


#: True in a write request (set by its first hook): its statements share one connection
_holding: ContextVar[bool] = ContextVar("holding", default=False)
#: that connection, begun on the request's first statement
_held: ContextVar[Connection | None] = ContextVar("held", default=None)


def hold_connection() -> Token[bool]:
    """From now on (until :func:`release_connection`), this request's
    statements, the Core's and the session's, run on one connection of its
    own, in one transaction, begun on the first of them (as a write: BEGIN
    IMMEDIATE on SQLite, while ``writing`` is set) and committed by
    :func:`commit_held`. The session joins it and never commits it
    (``join_transaction_mode="rollback_only"``, SQLAlchemy's recipe for
    joining a session into an external transaction): a hand's write, all of
    it Core statements, never makes a session at all."""
    return _holding.set(True)


def held_connection() -> Connection | None:
    """The request's connection (see :func:`hold_connection`), begun on the
    first call; None outside a request that holds one."""
    held = _held.get()
    if held is None and _holding.get():
        held = sqlite.connect_writer(db.engine) if writing.get() else db.engine.connect()
        try:
            held.begin()
            sqlite.begin(held, writing.get())
        except BaseException:
            held.close()
            raise
        _held.set(held)
    return held


def commit_held() -> None:
    """Commit the request's connection's transaction, if it has begun one."""
    held = _held.get()
    if held is not None and held.in_transaction():
        held.commit()
        sqlite.release_turn(held.info)  # once committed (models.sqlite.init_engine_events)


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


_CONNECTION = "ginref_connection"


def session_connection() -> Connection:
    """The connection of the request's transaction: a write request's own
    (see :func:`hold_connection`); otherwise ``db.session.connection()``,
    looked up once per transaction (the session's transaction holds one
    connection for as long as it lasts). A new transaction (after a commit
    or a rollback) is asked afresh."""
    held = held_connection()
    if held is not None:
        return held
    session = db.session()
    transaction = session.get_transaction()
    if transaction is not None:
        known = session.info.get(_CONNECTION)
        if known is not None and known[0] is transaction and not known[1].closed:
            return known[1]  # type: ignore[no-any-return]
    connection = session.connection()
    session.info[_CONNECTION] = (session.get_transaction(), connection)
    return connection


class SoloRead:
    """A SELECT of one row run on a connection of its own (pooled), outside
    the request's session: for a read that is this one statement and nothing
    else (a game's ``GET``), which then makes no session. One statement is
    consistent by itself: SQLite and PostgreSQL each run it in a snapshot of
    its own, in autocommit (no BEGIN on SQLite, no transaction on a server). An engine whose pool shares one connection
    (an in-memory SQLite) reads through the session, whose transaction a
    connection of its own would roll back under it."""

    __slots__ = ("keys", "statement")

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement
        self.keys = tuple(statement.selected_columns.keys())

    def one_or_none(self, params: dict[str, Any], engine: Engine | None = None) -> dict[str, Any] | None:
        """Its one row, by column key (a dict of its own), or None."""
        engine = engine or db.engine
        if isinstance(engine.pool, (StaticPool, SingletonThreadPool)):
            row = db.session.connection().execute(self.statement, params).one_or_none()
        elif engine.dialect.name == "sqlite":
            row = _kept(engine).one_or_none(self.statement, params)
        else:
            with reader(engine).connect() as connection:
                row = connection.execute(self.statement, params).one_or_none()
        return None if row is None else dict(zip(self.keys, row, strict=True))


#: SQLite connections each process keeps open for its solo reads, at most, while none reads
KEPT = 4


class _KeptReads:
    """A few SQLite connections kept open from one solo read to the next,
    rather than taken from the pool and given back each time (about half
    of what such a read costs). A SQLite file's connection cannot drop, and
    between two of these reads it holds nothing: each read is one statement
    in the driver's autocommit, no ``BEGIN`` sent, whose snapshot ends with it. A read that fails closes its connection.
    Connections kept before a fork are the parent's: a child keeps its own."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.idle: list[Connection] = []
        self.pid = os.getpid()

    def one_or_none(self, statement: Select[Any], params: dict[str, Any]) -> Row[Any] | None:
        if self.pid != os.getpid():
            self.idle, self.pid = [], os.getpid()
        try:
            connection = self.idle.pop()
        except IndexError:
            connection = self.engine.connect()
        try:
            # The Core's transaction on it, begun by its first read, is never ended: SQLite
            # begins none (models.sqlite.begin is not called), and ending it would cost the read a fifth more.
            row = connection.execute(statement, params).one_or_none()
        except BaseException:
            connection.close()
            raise
        if len(self.idle) < KEPT:
            self.idle.append(connection)
        else:
            connection.close()
        return row


_kept_reads: WeakKeyDictionary[Engine, _KeptReads] = WeakKeyDictionary()


def _kept(engine: Engine) -> _KeptReads:
    found = _kept_reads.get(engine)
    if found is None:
        found = _kept_reads[engine] = _KeptReads(engine)
    return found


_INSERTS: dict[Table, Any] = {}


def insert_rows(table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` into ``table`` in one executemany, in the request's
    transaction: an import's hands, revisions and figures."""
    if not rows:
        return
    statement = _INSERTS.get(table)
    if statement is None:
        statement = _INSERTS[table] = insert(table)
    session_connection().execute(statement, rows)


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
