"""A Core statement built once and run on the request's connection.

A write's statements (a hand's INSERT, its game's UPDATE, a league's books)
run many times a second with the same shape. Each runs as SQL text compiled
once per dialect and set of parameters from its Core form (its public
``compile()``, in a named paramstyle), through
``Connection.exec_driver_sql``: the Core's events, transaction and error
wrapping stay in force, without a cache key built and a compiled form looked
up on every call. Its values are converted by the bind processors of their
column types (``TypeEngine.bind_processor``), as the Core converts them.

A statement whose every parameter is not a named, typed one (an anonymous
literal, an untyped ``bindparam``, an expanding ``IN``), one that leaves out
a column whose default is computed in Python, and a SELECT, whose
rows want the Core's result processing, run through ``Connection.execute``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import BindParameter, Delete, Executable, Insert, Integer, Update, literal_column
from sqlalchemy.engine import Connection, Dialect, RowMapping
from sqlalchemy.sql import visitors
from sqlalchemy.types import NullType, TypeEngine

from models.database import session_connection

#: constants written into a statement's SQL, not bound (a bound one would have it run by the Core)
ZERO = literal_column("0", Integer)
ONE = literal_column("1", Integer)


class Plan:
    """How one statement runs as text: its SQL, the names of the parameters
    it takes as they are, and those it takes converted, each with its converter."""

    __slots__ = ("converted", "plain", "sql")

    def __init__(self, sql: str, converters: Iterable[tuple[str, Callable[[Any], Any] | None]]) -> None:
        self.sql = sql
        self.plain = tuple(name for name, convert in converters if convert is None)
        self.converted = tuple((name, convert) for name, convert in converters if convert is not None)

    def values(self, params: dict[str, Any]) -> dict[str, Any]:
        """The driver's parameters for ``params``."""
        values = {name: params[name] for name in self.plain}
        for name, convert in self.converted:
            values[name] = convert(params[name])
        return values


_named_dialects: WeakKeyDictionary[Dialect, Dialect] = WeakKeyDictionary()


def _named(dialect: Dialect) -> Dialect:
    """``dialect`` itself when its paramstyle names its parameters (psycopg's
    ``%(name)s``), else one of its kind that does (SQLite's ``:name``, which
    the sqlite3 module takes with a dict as it takes ``?`` with a tuple)."""
    if not dialect.positional:
        return dialect
    found = _named_dialects.get(dialect)
    if found is None:
        kind: Any = type(dialect)  # a dialect class takes the paramstyle as create_engine passes it
        found = _named_dialects[dialect] = kind(paramstyle="named")
    return found


class Statement:
    """A Core statement built once (see the module's text), run on the
    request's connection (:func:`models.database.session_connection`), in its
    transaction."""

    __slots__ = ("_plans", "statement")

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._plans: WeakKeyDictionary[Dialect, dict[tuple[frozenset[str], bool], Plan | None]] = WeakKeyDictionary()

    def plan(self, dialect: Dialect, keys: frozenset[str], *, many: bool = False) -> Plan | None:
        """How it runs as text on ``dialect`` with parameters ``keys``, or
        None when the Core runs it (see the module's text)."""
        plans = self._plans.get(dialect)
        if plans is None:
            plans = self._plans[dialect] = {}
        key = (keys, many)
        if key not in plans:
            plans[key] = self._compile(dialect, keys, many)
        return plans[key]

    def _compile(self, dialect: Dialect, keys: frozenset[str], many: bool) -> Plan | None:
        statement = self.statement
        if not isinstance(statement, (Insert, Update, Delete)):
            return None
        kinds: dict[str, TypeEngine[Any]] = {}
        for element in visitors.iterate(statement):
            if isinstance(element, BindParameter):
                # an anonymous literal's key is never among the parameters' names
                if element.expanding or element.key not in keys or isinstance(element.type, NullType):
                    return None
                kinds[element.key] = element.type
        columns = statement.table.c
        # a column left out that has a default computed in Python (or on update) wants the Core's
        if any(
            (c.onupdate if isinstance(statement, Update) else c.default) is not None
            for c in columns
            if c.key not in keys
        ):
            return None
        # the Core binds an INSERT's or UPDATE's columns set by a parameter by their keys
        kinds.update((key, columns[key].type) for key in keys - kinds.keys() if key in columns)
        # as the Core compiles it for these parameters (column_keys: the columns they set)
        compiled = statement.compile(dialect=_named(dialect), column_keys=sorted(keys), for_executemany=many)
        return Plan(str(compiled), [(name, kind.bind_processor(dialect)) for name, kind in kinds.items()])

    def execute(self, params: dict[str, Any]) -> int:
        """Run it; the number of rows it changed (an UPDATE's)."""
        connection = session_connection()
        plan = self.plan(connection.dialect, frozenset(params))
        if plan is None:
            return int(connection.execute(self.statement, params).rowcount)
        return int(connection.exec_driver_sql(plan.sql, plan.values(params)).rowcount)

    def execute_many(self, rows: Sequence[dict[str, Any]]) -> None:
        """Run it once per row of ``rows`` (of the same keys), in one executemany."""
        if not rows:
            return
        connection = session_connection()
        plan = self.plan(connection.dialect, frozenset(rows[0]), many=len(rows) > 1)
        if plan is None:
            connection.execute(self.statement, list(rows))
            return
        connection.exec_driver_sql(plan.sql, [plan.values(row) for row in rows])

    def one_or_none(self, params: dict[str, Any]) -> RowMapping | None:
        """Run it (a SELECT, by the Core); its one row by column key, or None."""
        return session_connection().execute(self.statement, params).mappings().one_or_none()

    def all(self, params: dict[str, Any]) -> list[RowMapping]:
        """Run it (a SELECT, by the Core); its rows by column key."""
        return list(session_connection().execute(self.statement, params).mappings())


def runs_as_text(statement: Statement, connection: Connection, keys: frozenset[str]) -> bool:
    """Does ``statement`` run as text on ``connection`` with parameters ``keys``?"""
    return statement.plan(connection.dialect, keys) is not None
