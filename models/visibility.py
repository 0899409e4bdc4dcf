"""Who may read a league or a game: anyone, or (private) only the holders of
one of its keys. A game in a league follows its league; a game outside a
league has its own visibility."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, or_, select

from models.database import db
from models.game import Game
from models.league import PRIVATE, PUBLIC, League


@dataclass(frozen=True, slots=True)
class Audience:
    """Whose keys read a league or a game: the league's (``league_id``, for a
    league and every game in it) or the game's own; and whether a read needs
    one (``private``)."""

    league_id: int | None
    game_id: int | None
    private: bool


def game_audience(game_id: int) -> Audience | None:
    """The game's audience, or None if there is no such game."""
    row = db.session.execute(
        select(Game.league_id, Game.visibility, League.visibility)
        .outerjoin(League, League.id == Game.league_id)
        .where(Game.id == game_id)
    ).one_or_none()
    if row is None:
        return None
    league_id, own, leagues = row
    if league_id is not None:
        return Audience(league_id, None, leagues == PRIVATE)
    return Audience(None, game_id, own == PRIVATE)


def league_audience(league_id: int) -> Audience | None:
    """The league's audience, or None if there is no such league."""
    visibility = db.session.scalar(select(League.visibility).where(League.id == league_id))
    return None if visibility is None else Audience(league_id, None, visibility == PRIVATE)


def public_leagues() -> ColumnElement[bool]:
    """A condition on League: the leagues anyone may see in a list."""
    return League.visibility == PUBLIC


def public_games() -> ColumnElement[bool]:
    """A condition on Game: the games anyone may see in a list (those outside
    a league by their own visibility, the others by their league's)."""
    return or_(
        and_(Game.league_id.is_(None), Game.visibility == PUBLIC),
        Game.league_id.in_(select(League.id).where(public_leagues())),
    )
