"""API keys (stored as hashes only) and stored responses for idempotent retries.

A key is a **write** key (one active per league, or per game outside a
league; it reads too) or a **share** key, which only reads a private league
or game: several may be active at once, each with its own label."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    LargeBinary,
    RowMapping,
    String,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.database import UTCDateTime, db, now
from models.game import Game, GameRow
from models.league import League
from models.statement import Statement
from models.visibility import Audience, audience_of

KEY_PREFIX = "grk_"
WRITE, SHARE = "write", "share"  # the kinds of key


def new_key() -> str:
    """A random key: 192 bits, URL-safe."""
    return KEY_PREFIX + secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    """Keys are random and long, so one SHA-256 is enough (no password stretching)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class ApiKey(db.Model):  # type: ignore[name-defined,misc]
    """A key for writes to one league (and its games) or to one game outside a league."""

    __tablename__ = "api_key"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    league_id: Mapped[int | None] = mapped_column(
        ForeignKey("league.id", ondelete="CASCADE"), nullable=True, index=True
    )
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), nullable=True, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    kind: Mapped[str] = mapped_column(String(10), default=WRITE, server_default=WRITE)
    label: Mapped[str | None] = mapped_column(String(60), nullable=True)  # a share key's

    @classmethod
    def issue(
        cls, *, league_id: int | None = None, game_id: int | None = None, label: str | None = None
    ) -> tuple[ApiKey, str]:
        """A new key row (added to the session) and the key itself, shown
        once: a write key, or with a ``label`` a share key."""
        key = new_key()
        kind = WRITE if label is None else SHARE
        row = cls(key_hash=hash_key(key), league_id=league_id, game_id=game_id, kind=kind, label=label)
        db.session.add(row)
        return row, key


@dataclass(frozen=True, slots=True)
class KeyRow:
    """What a key may write to, and whether it still may."""

    id: int
    key_hash: str
    league_id: int | None
    game_id: int | None
    revoked_at: datetime | None
    kind: str

    def reads(self, *, league_id: int | None, game_id: int | None) -> bool:
        """Whether this key, unless revoked, is one of the league's (for the
        league, or a game in it) or one of the game's own (a game outside a
        league, or a league game's scorer key)."""
        return self.revoked_at is None and self.gives(league_id=league_id, game_id=game_id)

    def gives(self, *, league_id: int | None, game_id: int | None) -> bool:
        """Whether this key is one of the league's or of the game's own (revoked or not)."""
        if self.league_id is not None:
            return self.league_id == league_id
        return self.game_id is not None and self.game_id == game_id


def key_reads(key_id: int) -> bool:
    """Whether the key is still in force (not revoked)."""
    return db.session.scalar(select(ApiKey.revoked_at.is_(None)).where(ApiKey.id == key_id)) is True


def find_key(key_hash: str) -> KeyRow | None:
    row = db.session.connection().execute(_FIND_KEY, {"key_hash": key_hash}).one_or_none()
    return None if row is None else KeyRow(*row)


def lock_game_with_key(game_id: int, key_hash: str | None) -> tuple[GameRow, Audience, KeyRow | None] | None:
    """The game's row locked for this write (as ``GameRow.read(lock=True)``),
    its audience and the key with this hash, if there is one, in one statement."""
    values = _LOCK_GAME_WITH_KEY.one_or_none({"id": game_id, "key_hash": key_hash or ""})
    if values is None:
        return None
    key = (
        None
        if values["key_key_hash"] is None
        else KeyRow(
            values["key_id"],
            values["key_key_hash"],
            values["key_league_id"],
            values["key_game_id"],
            values["key_revoked_at"],
            values["key_kind"],
        )
    )
    game = GameRow.of(values)
    return game, audience_of(game, values["league_visibility"]), key


class IdempotencyRecord(db.Model):  # type: ignore[name-defined,misc]
    """The response to a write sent with an ``Idempotency-Key``, stored in
    the write's own transaction. Nothing in it gives the key away: the row is
    found by a hash of (credential, method, path, key), and the body (which
    may hold a new key) is encrypted under a secret derived from the
    ``Idempotency-Key``, which is never stored."""

    __tablename__ = "idempotency_record"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    lookup: Mapped[str] = mapped_column(String(64), unique=True)
    body_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    headers: Mapped[dict[str, Any]] = mapped_column(JSON)
    body: Mapped[bytes] = mapped_column(LargeBinary)  # nonce + AES-GCM ciphertext
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, index=True)


_RECORDS = IdempotencyRecord.__table__
_FIND_RECORD = Statement(select(_RECORDS).where(_RECORDS.c.lookup == bindparam("lookup")))
_ADD_RECORD = Statement(insert(_RECORDS))
_DROP_RECORD = Statement(delete(_RECORDS).where(_RECORDS.c.lookup == bindparam("lookup")))
_DROP_RECORDS_BEFORE = Statement(delete(_RECORDS).where(_RECORDS.c.created_at < bindparam("before")))


def find_idempotency_record(lookup: str, kept: timedelta) -> RowMapping | None:
    """The stored response found by ``lookup``, in the request's transaction
    (one Core statement, no session objects: the page sends a key with every
    write); one older than ``kept`` is deleted, and the request that finds it
    takes its place."""
    record = _FIND_RECORD.one_or_none({"lookup": lookup})
    if record is not None and record["created_at"] < now() - kept:
        _DROP_RECORD.execute({"lookup": lookup})
        return None
    return record


def add_idempotency_record(
    *,
    lookup: str,
    body_hash: str,
    status: int,
    headers: dict[str, str],
    body: bytes,
    expire_older_than: timedelta | None,
) -> None:
    """Store a response in the request's transaction; with ``expire_older_than``,
    also delete every record older than that."""
    _ADD_RECORD.execute(
        {
            "lookup": lookup,
            "body_hash": body_hash,
            "status": status,
            "headers": headers,
            "body": body,
            "created_at": now(),
        }
    )
    if expire_older_than is not None:
        _DROP_RECORDS_BEFORE.execute({"before": now() - expire_older_than})


def committed_idempotency_record(lookup: str) -> RowMapping | None:
    """The stored response found by ``lookup``, read afresh through the
    session: after a commit that failed, to learn whether it landed."""
    return db.session.execute(_FIND_RECORD.statement, {"lookup": lookup}).mappings().one_or_none()


class StaleKeyError(Exception):
    """The key presented for a rotation was revoked by another rotation meanwhile."""


def rotate_key(*, league_id: int | None = None, game_id: int | None = None, by: int | None = None) -> str:
    """Revoke every write key of the league (or game) and issue a new one
    (its share keys stay). ``by``: the id of the key presenting the rotation,
    which must be among those revoked here: two concurrent rotations with one
    key leave one new key."""
    revoked_at = now()
    query = update(ApiKey).where(ApiKey.revoked_at.is_(None), ApiKey.kind == WRITE)
    query = (
        query.where(
            or_(ApiKey.league_id == league_id, ApiKey.game_id.in_(select(Game.id).where(Game.league_id == league_id)))
        )  # the league's scorer keys, issued with it, go with it
        if league_id is not None
        else query.where(ApiKey.game_id == game_id)
    )
    revoked = set(db.session.scalars(query.values(revoked_at=revoked_at).returning(ApiKey.id)))
    if by is not None and by not in revoked:
        raise StaleKeyError(by)
    return ApiKey.issue(league_id=league_id, game_id=game_id)[1]


def issue_scorer_key(game_id: int) -> str:
    """A key that writes (and reads) one game of a league, and nothing else:
    for the phones that score it, so the league's key stays on the phone
    that has it. The league's rotation revokes it."""
    return ApiKey.issue(game_id=game_id)[1]


def _of(query: Any, league_id: int | None, game_id: int | None) -> Any:
    """``query`` narrowed to the active share keys of the league (or game)."""
    query = query.where(ApiKey.kind == SHARE, ApiKey.revoked_at.is_(None))
    return (
        query.where(ApiKey.league_id == league_id) if league_id is not None else query.where(ApiKey.game_id == game_id)
    )


def issue_share_key(label: str, *, league_id: int | None = None, game_id: int | None = None) -> tuple[ApiKey, str]:
    """A new share key with this label; the active one with the same label,
    if any, is revoked (a rotation). The caller holds the league's (or
    game's) row lock, so two of these never interleave."""
    db.session.execute(_of(update(ApiKey), league_id, game_id).where(ApiKey.label == label).values(revoked_at=now()))
    row, key = ApiKey.issue(league_id=league_id, game_id=game_id, label=label)
    db.session.flush()
    return row, key


def share_keys(*, league_id: int | None = None, game_id: int | None = None) -> list[ApiKey]:
    """The active share keys of the league (or game), oldest first."""
    return list(db.session.scalars(_of(select(ApiKey), league_id, game_id).order_by(ApiKey.id)))


def revoke_share_key(key_id: int, *, league_id: int | None = None, game_id: int | None = None) -> bool:
    """Revoke one active share key of the league (or game); False if it has none with this id."""
    query = _of(update(ApiKey), league_id, game_id).where(ApiKey.id == key_id)
    return db.session.scalars(query.values(revoked_at=now()).returning(ApiKey.id)).first() is not None


_KEYS = ApiKey.__table__
_KEY_COLUMNS = (_KEYS.c.id, _KEYS.c.key_hash, _KEYS.c.league_id, _KEYS.c.game_id, _KEYS.c.revoked_at, _KEYS.c.kind)
_FIND_KEY = select(*_KEY_COLUMNS).where(_KEYS.c.key_hash == bindparam("key_hash"))
_GAMES, _LEAGUES = Game.__table__, League.__table__
_LOCK_GAME_WITH_KEY = Statement(
    select(
        _GAMES,
        _LEAGUES.c.visibility.label("league_visibility"),
        *(column.label("key_" + column.key) for column in _KEY_COLUMNS),
    )
    .select_from(
        _GAMES.outerjoin(_LEAGUES, _LEAGUES.c.id == _GAMES.c.league_id).outerjoin(
            _KEYS, _KEYS.c.key_hash == bindparam("key_hash")
        )
    )
    .where(_GAMES.c.id == bindparam("id"))
    .with_for_update(of=_GAMES)
)
