"""Cursor pagination of game histories, newest first."""

from __future__ import annotations

import base64
import binascii
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, or_, select

from api.errors import invalid
from models import Game, GamePlayer, db
from models.visibility import public_games


def _encode(game: Game) -> str:
    raw = f"{game.played_at.isoformat()}|{game.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        stamp, ident = raw.rsplit("|", 1)
        when, number = datetime.fromisoformat(stamp), int(ident)
        if when.tzinfo is None or not 0 < number <= 2147483647 or not ident.isascii() or not ident.isdigit():
            raise ValueError(cursor)
        return when.astimezone(UTC), number
    except (ValueError, binascii.Error, UnicodeDecodeError, OverflowError):
        raise invalid("cursor", f"{cursor!r} is not a cursor from this API") from None


def game_history(
    args: dict[str, Any], *, league_id: int | None = None, player_id: int | None = None
) -> tuple[list[Game], str | None]:
    """One page of games; a league's (read with its keys, if private, by
    api.guards) or else only the public ones: a player's history never
    shows a private game, nor one of a private league."""
    query = select(Game)
    if league_id is None:
        query = query.where(public_games())
    if league_id is not None:
        query = query.where(Game.league_id == league_id)
    if args.get("league") is not None:
        query = query.where(Game.league_id == args["league"])
    for pid in (player_id, args.get("player")):
        if pid is not None:
            query = query.where(Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.player_id == pid)))
    if args.get("preset") is not None:  # R27: every game's figure rows name its preset
        query = query.where(Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.preset == args["preset"])))
    if args.get("since") is not None:
        query = query.where(Game.played_at >= args["since"])
    if args.get("until") is not None:
        query = query.where(Game.played_at < args["until"])
    if args.get("cursor"):
        stamp, ident = _decode(args["cursor"])
        query = query.where(or_(Game.played_at < stamp, and_(Game.played_at == stamp, Game.id < ident)))
    limit = args["limit"]
    games = list(db.session.scalars(query.order_by(Game.played_at.desc(), Game.id.desc()).limit(limit + 1)))
    more = len(games) > limit
    games = games[:limit]
    return games, (_encode(games[-1]) if more and games else None)
