"""What changed in a game, version by version: the feed that phones at one
table follow (``GET /games/{game_id}/events``).

Every change to a game raises its version by one and adds one event here, in
the same transaction: an event exists exactly when its change is committed.
A game starts at version 1 (``game_started``); a game imported with its
league starts at version 1 too, with no event before it.

``VersionWatch`` wakes the requests that wait for a game to move on. Workers
and instances share nothing but the database, so the watch reads the
database: one thread per process, one small query per tick for all the
games being waited on, whatever the number of waiting phones.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint, bindparam, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from models.database import Statement, UTCDateTime, db, now
from models.game import Game
from models.security import ApiKey

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


class GameEvent(db.Model):  # type: ignore[name-defined,misc]
    """One change to a game: the version it made, what it was, the hand it touched."""

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
_GAMES = Game.__table__
_KEYS = ApiKey.__table__
_INSERT = Statement(insert(_EVENTS))
_AFTER = (
    select(_EVENTS.c.version, _EVENTS.c.kind, _EVENTS.c.hand, _EVENTS.c.at)
    .where(_EVENTS.c.game_id == bindparam("game_id"), _EVENTS.c.version > bindparam("after"))
    .order_by(_EVENTS.c.version)
    .limit(bindparam("limit"))
)


def add_event(game_id: int, version: int, kind: EventKind, hand: int | None = None) -> None:
    """Record, in the write's transaction, the change that brought the game to ``version``."""
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


def _drop(counter: Counter[Any], item: Any) -> bool:
    """One fewer of ``item``; True when none is left."""
    counter[item] -= 1
    if counter[item]:
        return False
    del counter[item]
    return True


@dataclass(slots=True)
class _Waiter:
    game_id: int
    key_id: int | None
    client: str


class VersionWatch:
    """Waits, per process, for games to pass a version.

    A waiting request holds no database connection: one background thread
    (a greenlet under the gevent worker) reads the versions of every game
    someone waits on, and whether any key a wait was opened with has been
    revoked since, every ``interval`` seconds, in one query each, and wakes
    the waiters whose game has moved on or whose key is revoked. It starts on
    the first wait in each process (a gunicorn worker is forked from its
    master, and threads do not survive a fork) and idles, querying nothing,
    while no one waits.

    At most ``most`` requests wait at once in a process, and ``per_client``
    from one client address; one more is refused at once (:class:`WaitRefused`),
    so that the feed never takes what ``/health``, the reads and the writes
    need (0: no bound)."""

    def __init__(self, engine: Engine, interval: float, *, most: int = 0, per_client: int = 0) -> None:
        self._engine = engine
        self._interval = interval
        self._most = most
        self._per_client = per_client
        self._changed = threading.Condition()
        self._waiting: Counter[int] = Counter()
        self._clients: Counter[str] = Counter()
        self._keys: Counter[int] = Counter()
        self._versions: dict[int, int] = {}
        self._revoked: set[int] = set()
        self._pid: int | None = None

    @property
    def waiting(self) -> int:
        """How many requests wait now, in this process."""
        with self._changed:
            return sum(self._clients.values())

    def wait(
        self, game_id: int, after: int, timeout: float, *, client: str = "", key_id: int | None = None
    ) -> int | None:
        """Block until the game is past version ``after`` (its version as the
        watch read it) or ``timeout`` seconds have passed (None). ``key_id``:
        the key the read needed (a private game's), which ends the wait once
        it is revoked: then ``after``, and the caller finds the key revoked.
        Raises WaitRefused when too many wait already."""
        deadline = time.monotonic() + timeout
        with self._changed:
            self._admit(client)
            self._start()
            waiter = _Waiter(game_id, key_id, client)
            self._enter(waiter)
            try:
                while self._versions.get(game_id, after) <= after:
                    if key_id is not None and key_id in self._revoked:
                        return after
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return None
                    self._changed.wait(remaining)
                return self._versions[game_id]
            finally:
                self._leave(waiter)

    def _admit(self, client: str) -> None:
        if self._most and sum(self._clients.values()) >= self._most:
            raise WaitRefused(f"{self._most} requests wait on this server's feeds already")
        if self._per_client and self._clients[client] >= self._per_client:
            raise WaitRefused(f"{self._per_client} requests from {client or 'this client'} wait on the feeds already")

    def _enter(self, waiter: _Waiter) -> None:
        self._waiting[waiter.game_id] += 1
        self._clients[waiter.client] += 1
        if waiter.key_id is not None:
            self._keys[waiter.key_id] += 1

    def _leave(self, waiter: _Waiter) -> None:
        if _drop(self._waiting, waiter.game_id):
            self._versions.pop(waiter.game_id, None)
        _drop(self._clients, waiter.client)
        if waiter.key_id is not None and _drop(self._keys, waiter.key_id):
            self._revoked.discard(waiter.key_id)

    def _start(self) -> None:
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        threading.Thread(target=self._run, name="ginref-version-watch", daemon=True).start()

    def _run(self) -> None:
        versions_of = select(_GAMES.c.id, _GAMES.c.version).where(_GAMES.c.id.in_(bindparam("ids", expanding=True)))
        revoked_of = select(_KEYS.c.id).where(
            _KEYS.c.id.in_(bindparam("ids", expanding=True)), _KEYS.c.revoked_at.is_not(None)
        )
        while True:
            time.sleep(self._interval)
            with self._changed:
                ids, keys = list(self._waiting), list(self._keys)
            if not ids:
                continue
            try:
                with self._engine.connect() as connection:
                    versions = {row[0]: row[1] for row in connection.execute(versions_of, {"ids": ids})}
                    revoked = set(connection.execute(revoked_of, {"ids": keys}).scalars()) if keys else set()
            except Exception:  # the database is away for a moment: the waiters time out, or a later tick sees it
                log.exception("the version watch could not read the games' versions")
                continue
            with self._changed:
                for game_id, version in versions.items():
                    if game_id in self._waiting:
                        self._versions[game_id] = version
                self._revoked |= revoked & set(self._keys)
                self._changed.notify_all()
