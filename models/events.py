"""What changed in a game, version by version: the feed that phones at one
table follow (``GET /games/{game_id}/events``).

Every change to a game raises its version by one and adds one event, in the
same transaction: an event exists exactly when its change is committed. A
hand's change (recorded, corrected, undone) is its revision
(``models.revisions``), which names the version it made; every other change
is a row here. The feed reads both as one list, by version. A game starts at
version 1 (``game_started``); a game imported with its league starts at
version 1 too, with no event before it.

``VersionWatch`` wakes the requests that wait for a game to move on. Workers
and instances share nothing but the database, so the watch reads the
database: one thread per process, one small query per tick for all the
games being waited on, whatever the number of waiting phones, and one read of
the events of all the games that moved, whatever the number of their phones.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import (
    ARRAY,
    ColumnElement,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    and_,
    any_,
    bindparam,
    func,
    insert,
    literal_column,
    or_,
    select,
    union_all,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql import Executable
from sqlalchemy.types import TypeDecorator

from models import sqlite
from models.database import UTCDateTime, db, dumps_json, now
from models.game import Game
from models.revisions import HandRevision
from models.security import ApiKey
from models.statement import Statement

log = logging.getLogger(__name__)

#: What a change did (schemas.fields.EVENT_KINDS lists the same for the API).
EventKind = Literal[
    "game_started",
    "rules_changed",
    "hand_recorded",
    "hand_corrected",
    "hand_undone",
    "dispute_opened",
    "dispute_resolved",
    "visibility_changed",
]
#: The changes stored here: a hand's is its revision, named ``hand_`` and its action.
StoredKind = Literal["game_started", "rules_changed", "dispute_opened", "dispute_resolved", "visibility_changed"]


class GameEvent(db.Model):  # type: ignore[name-defined,misc]
    """One change to a game other than a hand's: the version it made, what it
    was, the hand it touched (a dispute's)."""

    __tablename__ = "game_event"
    __table_args__ = (UniqueConstraint("game_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


@dataclass(frozen=True, slots=True)
class Event:
    version: int
    kind: str
    hand: int | None
    at: datetime


_EVENTS = GameEvent.__table__
_REVISIONS = HandRevision.__table__
_GAMES = Game.__table__
_KEYS = ApiKey.__table__
_INSERT = Statement(insert(_EVENTS))


def _events(where: Any, hands_where: Any) -> Any:
    """The stored events where ``where`` holds and the hands' changes (their
    revisions) where ``hands_where`` holds, as one list of (game_id,
    version, kind, hand, at)."""
    hands_kind = literal_column("'hand_'", String) + _REVISIONS.c.action
    return union_all(
        select(_EVENTS.c.game_id, _EVENTS.c.version, _EVENTS.c.kind, _EVENTS.c.hand, _EVENTS.c.at).where(where),
        select(
            _REVISIONS.c.game_id,
            _REVISIONS.c.game_version.label("version"),
            hands_kind.label("kind"),
            _REVISIONS.c.number.label("hand"),
            _REVISIONS.c.made_at.label("at"),
        ).where(_REVISIONS.c.game_version.is_not(None), hands_where),
    ).subquery()


def _one_game(version: Any) -> ColumnElement[bool]:
    return and_(version.table.c.game_id == bindparam("game_id"), version > bindparam("after"))


_ONE_GAME = _events(_one_game(_EVENTS.c.version), _one_game(_REVISIONS.c.game_version))
_AFTER = (
    select(_ONE_GAME.c.version, _ONE_GAME.c.kind, _ONE_GAME.c.hand, _ONE_GAME.c.at)
    .order_by(_ONE_GAME.c.version)
    .limit(bindparam("limit"))
)
#: Games whose events one statement of the watch reads, at most (their ranges padded to a few sizes,
#: so that the statement compiles once for each)
_RANGES = (16, 64, 256)


def _events_in_ranges(size: int) -> Any:
    """The statement reading the events of ``size`` games at once, each
    game's in its own range of versions (parameters ``g<i>``, ``lo<i>``,
    ``hi<i>``)."""

    def in_ranges(game_id: Any, version: Any) -> ColumnElement[bool]:
        return or_(
            *(
                and_(
                    game_id == bindparam(f"g{i}", type_=Integer),
                    version.between(bindparam(f"lo{i}", type_=Integer), bindparam(f"hi{i}", type_=Integer)),
                )
                for i in range(size)
            )
        )

    found = _events(
        in_ranges(_EVENTS.c.game_id, _EVENTS.c.version), in_ranges(_REVISIONS.c.game_id, _REVISIONS.c.game_version)
    )
    return select(found).order_by(found.c.game_id, found.c.version)


_IN_RANGES = {size: _events_in_ranges(size) for size in _RANGES}


def read_ranges(connection: Connection, ranges: list[tuple[int, int, int]]) -> dict[int, list[Event]]:
    """The events of each game in ``ranges`` (``(game_id, lo, hi)``: its
    versions from lo to hi), oldest first: one statement for up to
    256 games, whatever their number, not one per game."""
    found: dict[int, list[Event]] = {game_id: [] for game_id, _, _ in ranges}
    most = _RANGES[-1]
    for start in range(0, len(ranges), most):
        chunk = ranges[start : start + most]
        size = next(size for size in _RANGES if size >= len(chunk))
        params: dict[str, int] = {}
        for i, (game_id, lo, hi) in enumerate(chunk + [(0, 1, 0)] * (size - len(chunk))):  # padded: nothing
            params[f"g{i}"], params[f"lo{i}"], params[f"hi{i}"] = game_id, lo, hi
        for game_id, *event in connection.execute(_IN_RANGES[size], params):
            found[game_id].append(Event(*event))
    return found


class _IdList(TypeDecorator[list[int]]):
    """A list of ids bound as one JSON array (SQLite's ``json_each`` reads it)."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: list[int] | None, dialect: Any) -> str | None:
        return None if value is None else dumps_json(value)


def _among(column: ColumnElement[int], dialect: str) -> ColumnElement[bool]:
    """``column`` among the ids bound as ``ids``, a list, as one parameter
    whatever its length: the statement compiles once, and the database
    parses no list of hundreds of parameters on every tick (an array on
    PostgreSQL, a JSON array on SQLite; measured at 500 games, 5.9 ms of
    the worker's CPU a tick on PostgreSQL as an expanding ``IN``, 0.8 ms
    as ``= ANY``)."""
    if dialect == "postgresql":
        return column == any_(bindparam("ids", type_=ARRAY(Integer)))
    if dialect == "sqlite":
        return column.in_(select(func.json_each(bindparam("ids", type_=_IdList())).table_valued("value").c.value))
    return column.in_(bindparam("ids", expanding=True))


class _ByDialect:
    """A statement built once for each dialect it runs on."""

    def __init__(self, build: Callable[[str], Executable]) -> None:
        self._build = build
        self._built: dict[str, Executable] = {}

    def on(self, connection: Connection) -> Executable:
        name = connection.dialect.name
        found = self._built.get(name)
        if found is None:
            found = self._built[name] = self._build(name)
        return found


_VERSIONS = _ByDialect(lambda d: select(_GAMES.c.id, _GAMES.c.version).where(_among(_GAMES.c.id, d)))
_REVOKED = _ByDialect(lambda d: select(_KEYS.c.id).where(_among(_KEYS.c.id, d), _KEYS.c.revoked_at.is_not(None)))


def add_event(game_id: int, version: int, kind: StoredKind, hand: int | None = None) -> None:
    """Record, in the write's transaction, the change that brought the game
    to ``version`` (a hand's change is its revision: ``models.revisions.add_revision``)."""
    _INSERT.execute({"game_id": game_id, "version": version, "kind": kind, "hand": hand, "at": now()})


def events_after(game_id: int, after: int, limit: int) -> list[Event]:
    """The game's changes after version ``after``, oldest first, ``limit`` at most."""
    rows = db.session.execute(_AFTER, {"game_id": game_id, "after": after, "limit": limit})
    return [Event(*row) for row in rows]


class WaitRefused(Exception):  # noqa: N818 (not an error of the server: an answer)
    """Too many requests wait already (in this process, or from this client):
    the feed answers at once instead, and the phone asks again later."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Moved:
    """How a wait ended before its timeout: the game is at ``version`` (as
    the watch read it, or a later one its events name) and ``events`` are its
    changes after the wait's version, read once for every request waiting on
    the game (None: not read for this wait, the caller reads them); or the key
    the wait was opened with is ``revoked``."""

    version: int
    events: list[Event] | None
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class _Answer:
    """A game's events after ``floor``, read once in a tick for all its waiters."""

    floor: int
    events: tuple[Event, ...]
    complete: bool  # every event after floor, as of the read (not cut short by its limit)

    def reaches(self, floor: int, version: int) -> bool:
        """Whether it holds the events from ``floor`` (or before) to ``version``."""
        return self.floor <= floor and bool(self.events) and self.events[-1].version >= version

    def after(self, version: int, limit: int) -> list[Event] | None:
        """The first ``limit`` events after ``version``, if this read holds them."""
        if version < self.floor:
            return None
        items = [event for event in self.events if event.version > version][:limit]
        return items if self.complete or len(items) == limit else None


@dataclass(slots=True)
class _Watched:
    """A game someone waits on: its waiters' versions and keys, what the last
    tick read of it, and the event its waiters wait on (set, and replaced, when
    it moves past one of them or a key of theirs is revoked)."""

    afters: Counter[int] = field(default_factory=Counter)
    keys: Counter[int] = field(default_factory=Counter)
    limit: int = 1
    version: int | None = None
    answer: _Answer | None = None
    changed: threading.Event = field(default_factory=threading.Event)
    idle: int = 0  # ticks since its last waiter left (it is kept a few, for the phones that ask again)


def _drop(counter: Counter[Any], item: Any) -> bool:
    """One fewer of ``item``; True when none is left."""
    counter[item] -= 1
    if counter[item]:
        return False
    del counter[item]
    return True


class Place:
    """A place held in a :class:`VersionWatch` (see :meth:`VersionWatch.place`)."""

    __slots__ = ("_key_id", "_limit", "_watch", "_watched", "after")

    def __init__(self, watch: VersionWatch, watched: _Watched, after: int, limit: int, key_id: int | None) -> None:
        self._watch, self._watched, self._limit, self._key_id = watch, watched, limit, key_id
        self.after = after  # the version its holder has

    def next(self, after: int, deadline: float) -> Moved | None:
        """Block until the game is past version ``after`` (the holder's now:
        the watch reads the game's events from it) or the ``deadline`` (a
        ``time.monotonic()``) has passed (None)."""
        watch, watched = self._watch, self._watched
        while True:
            with watch._lock:
                if after != self.after:
                    _drop(watched.afters, self.after)
                    watched.afters[after] += 1
                    self.after = after
                if self._key_id is not None and self._key_id in watch._revoked:
                    return Moved(after, None, revoked=True)
                version = watched.version
                if version is not None and version > after:
                    answer = watched.answer
                    return Moved(version, None if answer is None else answer.after(after, self._limit))
                changed = watched.changed
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not changed.wait(remaining):
                return None


#: wakes between two yields to the other greenlets (threads) of the process
WAKE_BATCH = 16
#: ticks a game stays watched after its last waiter left: its phones, answered, ask again at once
LINGER = 3


class VersionWatch:
    """Waits, per process, for games to pass a version.

    A waiting request holds no database connection: one background thread
    (a greenlet under the gevent worker), on a connection of its own,
    reads, every ``interval`` seconds, the versions of every game someone
    waits on in one query, the events of the games that moved past a waiter
    in one more (each game's the answer of all its waiters, whatever their
    number), and then whether any key a wait was opened with has been
    revoked, in one query; it wakes only the waiters
    of the games that moved or whose key is revoked, yielding to the rest of
    the process every few games, so that a tick that wakes hundreds does not
    hold ``/health`` behind them. A waiter answered from a tick's read was
    read before its key was last seen in force. The thread starts on the
    first wait in each process (a gunicorn worker is forked from its master,
    and threads do not survive a fork) and idles, querying nothing and
    holding no connection, while no one waits.

    At most ``most`` requests wait at once in a process, and ``per_client``
    from one client address; one more is refused at once (:class:`WaitRefused`),
    so that the feed never takes what ``/health``, the reads and the writes
    need (0: no bound)."""

    def __init__(self, engine: Engine, interval: float, *, most: int = 0, per_client: int = 0) -> None:
        self._engine = engine
        self._interval = interval
        self._most = most
        self._per_client = per_client
        self._lock = threading.Lock()
        self._games: dict[int, _Watched] = {}
        self._clients: Counter[str] = Counter()
        self._keys: Counter[int] = Counter()
        self._revoked: set[int] = set()
        self._pid: int | None = None
        self._connection: Connection | None = None  # the watch's own (see _reading)
        self._connected_in = 0  # the process it was made in
        #: statements the watch ran, by what they read (versions, events, keys): for tests and benchmarks
        self.reads: Counter[str] = Counter()

    @property
    def interval(self) -> float:
        """Seconds between two ticks."""
        return self._interval

    def follows(self, game_id: int) -> bool:
        """Whether the watch reads the game's version at its next tick, or
        did within its last few: someone waits on it, or did a moment ago.
        A phone behind such a game is answered by its next read, with the
        game's other phones, rather than by a read of its own."""
        with self._lock:
            return game_id in self._games

    @property
    def waiting(self) -> int:
        """How many requests wait now, in this process."""
        with self._lock:
            return sum(self._clients.values())

    def wait(
        self,
        game_id: int,
        after: int,
        timeout: float,
        *,
        limit: int = 100,
        client: str = "",
        key_id: int | None = None,
    ) -> Moved | None:
        """Block until the game is past version ``after`` or ``timeout``
        seconds have passed (None). ``limit``: the most events the caller
        wants. ``key_id``: the key the read needed (a private game's), which
        ends the wait once it is revoked. Raises WaitRefused when too many
        wait already."""
        deadline = time.monotonic() + timeout
        with self.place(game_id, after, limit=limit, client=client, key_id=key_id) as place:
            return place.next(after, deadline)

    @contextmanager
    def place(
        self, game_id: int, after: int, *, limit: int = 100, client: str = "", key_id: int | None = None
    ) -> Iterator[Place]:
        """A place to wait on the game from, kept for as many waits as its
        holder makes (a stream's, one after another): taken once, so that a
        stream is never refused between two of its changes. Raises
        WaitRefused when too many wait already."""
        with self._lock:
            self._admit(client)
            self._start()
            watched = self._enter(game_id, after, limit, client, key_id)
        place = Place(self, watched, after, limit, key_id)
        try:
            yield place
        finally:
            with self._lock:
                self._leave(game_id, place.after, client, key_id)

    def _admit(self, client: str) -> None:
        if self._most and sum(self._clients.values()) >= self._most:
            raise WaitRefused(f"{self._most} requests wait on this server's feeds already")
        if self._per_client and self._clients[client] >= self._per_client:
            raise WaitRefused(f"{self._per_client} requests from {client or 'this client'} wait on the feeds already")

    def _enter(self, game_id: int, after: int, limit: int, client: str, key_id: int | None) -> _Watched:
        watched = self._games.get(game_id)
        if watched is None:
            watched = self._games[game_id] = _Watched()
        if not watched.afters:  # kept from its last waiters: what it read then is for them only
            watched.version, watched.answer, watched.idle = None, None, 0
        watched.afters[after] += 1
        watched.limit = max(watched.limit, limit)
        self._clients[client] += 1
        if key_id is not None:
            watched.keys[key_id] += 1
            self._keys[key_id] += 1
        return watched

    def _leave(self, game_id: int, after: int, client: str, key_id: int | None) -> None:
        watched = self._games[game_id]
        _drop(watched.afters, after)  # the game stays watched a few ticks more (see tick)
        _drop(self._clients, client)
        if key_id is not None:
            _drop(watched.keys, key_id)
            if _drop(self._keys, key_id):
                self._revoked.discard(key_id)

    def _start(self) -> None:
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        threading.Thread(target=self._run, name="ginref-version-watch", daemon=True).start()

    def _run(self) -> None:
        while True:
            time.sleep(self._interval)
            try:
                self.tick()
            except Exception:  # the database is away for a moment: the waiters time out, or a later tick sees it
                log.exception("the version watch could not read the games' versions")

    def _let_go(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and self._connected_in == os.getpid():
            with contextlib.suppress(Exception):
                connection.close()

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """The watch's own connection, kept from one tick to the next, in a
        transaction of the tick's: the watch waits for none of the pool's,
        which the requests may all hold (writes waiting on their statements
        under load), and no phone is woken later for it. On an error it is
        given up; the next tick connects again."""
        connection = self._connection
        if connection is None or connection.closed or self._connected_in != os.getpid():
            # one made before a fork is the parent's: left to it, not closed
            connection, self._connected_in = self._engine.connect(), os.getpid()
            self._connection = connection
        try:
            with connection.begin():
                sqlite.begin(connection, writing=False)  # the tick's reads, of one moment
                yield connection
        except BaseException:
            self._let_go()
            raise

    def tick(self) -> None:
        """One round: read what moved, wake whom it concerns."""
        with self._lock:
            for game_id in [g for g, w in self._games.items() if not w.afters]:
                watched = self._games[game_id]
                watched.idle += 1
                if watched.idle > LINGER:
                    del self._games[game_id]
            wanted = {
                game_id: (min(w.afters), max(w.afters), w.limit, w.answer)
                for game_id, w in self._games.items()
                if w.afters
            }
            keys = list(self._keys)
        if not wanted:
            self._let_go()  # no one waits: the watch holds no connection either
            return
        answers: dict[int, _Answer] = {}
        with self._reading() as connection:
            versions = {row[0]: row[1] for row in connection.execute(_VERSIONS.on(connection), {"ids": list(wanted)})}
            self.reads["versions"] += 1
            ranges: list[tuple[int, int, int]] = []
            for game_id, version in versions.items():
                floor, top, limit, answer = wanted[game_id]
                if version <= floor or (answer is not None and answer.reaches(floor, version)):
                    continue  # no waiter is behind it, or its events are read already
                ranges.append((game_id, floor + 1, top + limit))  # each waiter's first `limit` events
            if ranges:
                read = read_ranges(connection, ranges)
                self.reads["events"] += -(-len(ranges) // _RANGES[-1])
                for game_id, lo, hi in ranges:
                    # complete: every event to the version read (a later one is the next tick's)
                    answers[game_id] = _Answer(lo - 1, tuple(read[game_id]), hi >= versions[game_id])
            # last: what was read above was read while these keys were still in force
            revoked = set(connection.execute(_REVOKED.on(connection), {"ids": keys}).scalars()) if keys else set()
            if keys:
                self.reads["keys"] += 1
        with self._lock:
            newly = (revoked & set(self._keys)) - self._revoked
            self._revoked |= newly
            woken: list[threading.Event] = []
            for game_id, watched in self._games.items():
                version = versions.get(game_id)
                if version is None:
                    continue
                answer = answers.get(game_id, watched.answer)
                if answer is not None and answer.events:
                    version = max(version, answer.events[-1].version)
                watched.version, watched.answer = version, answer
                behind = bool(watched.afters) and version > min(watched.afters)
                if behind or (newly and not newly.isdisjoint(watched.keys)):
                    woken.append(watched.changed)
                    watched.changed = threading.Event()
        for i, changed in enumerate(woken, 1):
            changed.set()
            if i % WAKE_BATCH == 0:
                time.sleep(0)  # the woken run, and so do /health and the others, before the next ones are woken
