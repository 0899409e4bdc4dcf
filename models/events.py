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
from typing import Literal

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint, bindparam, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from models.database import DriverStatement, UTCDateTime, db, now
from models.game import Game

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
_INSERT = DriverStatement(insert(_EVENTS))
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


class VersionWatch:
    """Waits, per process, for games to pass a version.

    A waiting request holds no database connection: one daemon thread reads
    the versions of every game someone waits on, every ``interval`` seconds,
    in one query, and wakes the waiters whose game has moved on. It starts on
    the first wait in each process (a gunicorn worker is forked from its
    master, and threads do not survive a fork) and idles, querying nothing,
    while no one waits."""

    def __init__(self, engine: Engine, interval: float) -> None:
        self._engine = engine
        self._interval = interval
        self._changed = threading.Condition()
        self._waiting: Counter[int] = Counter()
        self._versions: dict[int, int] = {}
        self._pid: int | None = None

    def wait(self, game_id: int, after: int, timeout: float) -> bool:
        """Block until the game is past version ``after`` (True) or ``timeout``
        seconds have passed (False)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            self._start()
            self._waiting[game_id] += 1
            try:
                while self._versions.get(game_id, after) <= after:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return False
                    self._changed.wait(remaining)
                return True
            finally:
                self._waiting[game_id] -= 1
                if not self._waiting[game_id]:
                    del self._waiting[game_id]
                    self._versions.pop(game_id, None)

    def _start(self) -> None:
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        threading.Thread(target=self._run, name="ginref-version-watch", daemon=True).start()

    def _run(self) -> None:
        query = select(_GAMES.c.id, _GAMES.c.version).where(_GAMES.c.id.in_(bindparam("ids", expanding=True)))
        while True:
            time.sleep(self._interval)
            with self._changed:
                ids = list(self._waiting)
            if not ids:
                continue
            try:
                with self._engine.connect() as connection:
                    versions = {row[0]: row[1] for row in connection.execute(query, {"ids": ids})}
            except Exception:  # the database is away for a moment: the waiters time out, or a later tick sees it
                log.exception("the version watch could not read the games' versions")
                continue
            with self._changed:
                for game_id, version in versions.items():
                    if game_id in self._waiting:
                        self._versions[game_id] = version
                self._changed.notify_all()
