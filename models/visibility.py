"""Who may read a league or a game: anyone, or (private) only the holders of
one of its keys. A game in a league follows its league; a game outside a
league has its own visibility."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, bindparam, or_, select

from models.database import SoloRead, db
from models.game import Game, GameRow, GameView, game_etag
from models.league import PRIVATE, PUBLIC, League


@dataclass(frozen=True, slots=True)
class Audience:
    """Whose keys read a league or a game: the league's (``league_id``, for a
    league and every game in it) or the game's own; and whether a read needs
    one (``private``)."""

    league_id: int | None
    game_id: int | None
    private: bool


def audience_of(game: GameView, league_visibility: str | None) -> Audience:
    """The audience of ``game``, given its league's visibility (None outside a league)."""
    return _audience(game.id, game.league_id, game.visibility, league_visibility)


def _audience(game_id: int, league_id: int | None, visibility: str | None, league_visibility: str | None) -> Audience:
    if league_id is not None:
        return Audience(league_id, game_id, league_visibility == PRIVATE)  # its scorer keys are the game's
    return Audience(None, game_id, visibility == PRIVATE)


def read_game_audience(game_id: int) -> tuple[GameRow, Audience] | None:
    """The game's row and its audience, in one statement of its own, outside
    the request's session (a :class:`~models.database.SoloRead`); None if
    there is no such game. A view that reads more than the game reads the
    game again in its session, so that all it reads is of one moment."""
    row = _READ_GAME_AUDIENCE.one_or_none({"id": game_id})
    if row is None:
        return None
    league_visibility = row.pop("league_visibility")
    game = GameRow(row)  # the game's columns, as they are
    return game, audience_of(game, league_visibility)


def read_game_tag(game_id: int) -> tuple[str, Audience] | None:
    """The game's ETag and its audience, in one narrow statement of its own
    (no JSON column read): what a conditional read needs to answer 304.
    None if there is no such game."""
    row = _READ_GAME_TAG.one_or_none({"id": game_id})
    if row is None:
        return None
    audience = _audience(row["id"], row["league_id"], row["visibility"], row["league_visibility"])
    return game_etag(row["id"], row["version"]), audience


def league_audience(league_id: int) -> Audience | None:
    """The league's audience, or None if there is no such league."""
    visibility = db.session.connection().execute(_LEAGUE_VISIBILITY, {"id": league_id}).scalar()
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


_GAMES, _LEAGUES = Game.__table__, League.__table__
#: Built once: a game's read runs it on every request, for its guard and its view.
_READ_GAME_AUDIENCE = SoloRead(
    select(_GAMES, _LEAGUES.c.visibility.label("league_visibility"))
    .select_from(_GAMES.outerjoin(_LEAGUES, _LEAGUES.c.id == _GAMES.c.league_id))
    .where(_GAMES.c.id == bindparam("id"))
)
#: A conditional read's: the columns of the ETag and the audience only.
_READ_GAME_TAG = SoloRead(
    select(
        _GAMES.c.id,
        _GAMES.c.version,
        _GAMES.c.league_id,
        _GAMES.c.visibility,
        _LEAGUES.c.visibility.label("league_visibility"),
    )
    .select_from(_GAMES.outerjoin(_LEAGUES, _LEAGUES.c.id == _GAMES.c.league_id))
    .where(_GAMES.c.id == bindparam("id"))
)
_LEAGUE_VISIBILITY = select(_LEAGUES.c.visibility).where(_LEAGUES.c.id == bindparam("id"))
