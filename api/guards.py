"""Checks that run before a write reaches its view, in this order: the key
(401, 403), the resource (404), the game's ETag (428, 412).

Which key a write needs: a league's key for the league and every game in it;
a game's own key for a game outside any league. Creating a league, importing
one, creating a game outside a league, creating a player and the referee
endpoints need no key: they hand out keys or touch no one's data.
"""

from __future__ import annotations

import hmac
from typing import Any

from flask import Flask, g, request

from api.errors import Problem, not_found
from models import League, db
from models.game import GameRow, GameView
from models.security import KeyRow, find_key, hash_key, lock_game_with_key

WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
AUTH_TYPE = "https://ginref.org/problems/unauthorized"


def _unauthorized(detail: str, error: str | None = None) -> Problem:
    challenge = 'Bearer realm="ginref"' + (f', error="{error}"' if error else "")
    return Problem(401, detail, type=AUTH_TYPE, headers={"WWW-Authenticate": challenge})


def bearer_key() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def authorize(*, league_id: int | None = None, game_id: int | None = None) -> None:
    """Pass if the request's key may write to this league or game; else 401/403."""
    key = bearer_key()
    digest = None if key is None else hash_key(key)
    _check_key(digest, None if digest is None else find_key(digest), league_id=league_id, game_id=game_id)


def _check_key(digest: str | None, row: KeyRow | None, *, league_id: int | None, game_id: int | None) -> None:
    """401 without a key, with an unknown or a revoked one; 403 with another's."""
    if digest is None:
        raise _unauthorized("this write needs the key of its league or game: Authorization: Bearer <key>")
    if row is None or not hmac.compare_digest(row.key_hash, digest):
        raise _unauthorized("unknown key", "invalid_token")
    if row.revoked_at is not None:
        raise _unauthorized("this key was revoked (rotated)", "invalid_token")
    allowed = row.league_id == league_id if league_id is not None else row.game_id == game_id
    if not allowed:
        what = f"league {league_id}" if league_id is not None else f"game {game_id}"
        raise Problem(403, f"this key does not give access to {what}", type="https://ginref.org/problems/forbidden")


def _game_scope(game_id: int) -> GameRow:
    """The game's row, locked for this write (once: the views find it in
    ``g.locked_game``), if the request's key may write to it."""
    key = bearer_key()
    digest = None if key is None else hash_key(key)
    found = lock_game_with_key(game_id, digest)
    if found is None:
        raise not_found("game", game_id)
    game, key_row = found
    if game.league_id is not None:
        _check_key(digest, key_row, league_id=game.league_id, game_id=None)
    else:
        _check_key(digest, key_row, league_id=None, game_id=game.id)
    g.locked_game = game
    return game


def _league_scope(league_id: int) -> None:
    if db.session.get(League, league_id) is None:
        raise not_found("league", league_id)
    authorize(league_id=league_id)


def _check_if_match(game: GameView) -> None:
    from api.games import game_dict
    from schemas.games import GameSchema

    given = request.headers.get("If-Match")
    current = game.etag
    if not given:
        raise Problem(428, f"writes to a game's hands need If-Match with the game's ETag (now {current})",
                      type="https://ginref.org/problems/precondition-required", headers={"ETag": current})
    tags = [t.strip() for t in given.split(",")]
    if "*" not in tags and current not in tags and f"W/{current}" not in tags:
        raise Problem(412, f"the game has changed: its ETag is now {current}",
                      type="https://ginref.org/problems/precondition-failed", headers={"ETag": current},
                      game=GameSchema().dump(game_dict(game)))


def check_write() -> None:
    """before_request: keys and preconditions for the endpoints that need them."""
    if request.method not in WRITE_METHODS or request.endpoint is None:
        return
    args: dict[str, Any] = request.view_args or {}
    endpoint = request.endpoint
    if endpoint in ("hands.Hands", "hands.HandByNumber"):
        if request.method == "GET":
            return
        _check_if_match(_game_scope(args["game_id"]))
    elif endpoint == "games.GameById":
        game = _game_scope(args["game_id"])
        if request.headers.get("If-Match"):
            _check_if_match(game)
    elif endpoint == "games.Games":
        body = request.get_json(silent=True)
        league_id = body.get("league_id") if isinstance(body, dict) else None
        if (isinstance(league_id, int) and not isinstance(league_id, bool) and 0 < league_id <= 2147483647
                and db.session.get(League, league_id) is not None):  # an unknown league is the view's 422
            authorize(league_id=league_id)
    elif endpoint in ("leagues.add_members", "leagues.rotate_league_key"):
        _league_scope(args["league_id"])
    elif endpoint == "games.rotate_game_key":
        game = _game_scope(args["game_id"])
        if game.league_id is not None:
            raise Problem(409, "a game in a league is written with the league's key; rotate that one",
                          type="https://ginref.org/problems/conflict")


def init_guards(app: Flask) -> None:
    app.before_request(check_write)
