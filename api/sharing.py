"""Share keys: read-only keys to a private league (and its games) or a
private game outside a league, each with a label, issued, listed and
revoked with the write key. A share key never writes (403), and once
revoked (or rotated by issuing its label again) reads nothing: a private
read with it is the 404 of an unknown id."""

from __future__ import annotations

from typing import Any

import services
from api.body import Blueprint
from api.docs import keyed_read, keyed_write
from api.errors import Problem, conflict, not_found
from models import ApiKey
from models.game import GameView
from models.security import share_keys
from schemas.keys import ShareKeyInSchema, ShareKeyListSchema, ShareKeySchema

blp = Blueprint(
    "sharing", __name__, url_prefix="", description="Share keys: read-only keys to private leagues and games"
)


def _solo_game(game: GameView) -> GameView:
    """The game, if it is outside a league: one in a league is shared with the league's share keys."""
    if game.league_id is not None:
        raise conflict(f"game {game.id} is in league {game.league_id}: share the league")
    return game


def _issued(row: ApiKey, key: str, location: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    shown = {"id": row.id, "label": row.label, "key": key, "created_at": row.created_at}
    return shown, 201, {"Location": f"{location}/{row.id}"}


def _no_share_key(key_id: int) -> Problem:
    return not_found("active share key", key_id)


@blp.route("/leagues/<id:league_id>/share-key", methods=["POST"])
@blp.arguments(ShareKeyInSchema())
@blp.response(201, ShareKeySchema)
@keyed_write(scope="league", conflict=False)
def issue_league_share_key(data: dict[str, Any], league_id: int) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Issue a share key to the league, shown once: it reads the league and its games, never writes.

    A label with an active share key gets a new one and the old one is revoked."""
    row, key = services.issue_share_key(data["label"], league_id=league_id)
    return _issued(row, key, f"/api/v1/leagues/{league_id}/share-keys")


@blp.route("/leagues/<id:league_id>/share-keys", methods=["GET"])
@blp.response(200, ShareKeyListSchema)
@keyed_read(scope="league", key="write")
def list_league_share_keys(league_id: int) -> dict[str, Any]:
    """The league's active share keys (labels, never the keys); needs the write key"""
    return {"items": share_keys(league_id=league_id)}


@blp.route("/leagues/<id:league_id>/share-keys/<id:share_key_id>", methods=["DELETE"])
@blp.response(204)
@keyed_write(scope="league", conflict=False)
def revoke_league_share_key(league_id: int, share_key_id: int) -> tuple[str, int]:
    """Revoke one of the league's share keys: it stops reading at once"""
    if not services.revoke_share_key(share_key_id, league_id=league_id):
        raise _no_share_key(share_key_id)
    return "", 204


@blp.route("/games/<id:game_id>/share-key", methods=["POST"])
@blp.arguments(ShareKeyInSchema())
@blp.response(201, ShareKeySchema)
@keyed_write(scope="game")
def issue_game_share_key(
    data: dict[str, Any], game_id: int, game: GameView
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Issue a share key to a game outside a league, shown once: it reads the game, never writes.

    A label with an active share key gets a new one and the old one is revoked."""
    row, key = services.issue_share_key(data["label"], game_id=_solo_game(game).id)
    return _issued(row, key, f"/api/v1/games/{game_id}/share-keys")


@blp.route("/games/<id:game_id>/share-keys", methods=["GET"])
@blp.response(200, ShareKeyListSchema)
@blp.alt_response(409, response="CONFLICT")
@keyed_read(scope="game", key="write")
def list_game_share_keys(game_id: int, game: GameView) -> dict[str, Any]:
    """The game's active share keys (labels, never the keys); needs the write key"""
    return {"items": share_keys(game_id=_solo_game(game).id)}


@blp.route("/games/<id:game_id>/share-keys/<id:share_key_id>", methods=["DELETE"])
@blp.response(204)
@keyed_write(scope="game")
def revoke_game_share_key(game_id: int, share_key_id: int, game: GameView) -> tuple[str, int]:
    """Revoke one of the game's share keys: it stops reading at once"""
    if not services.revoke_share_key(share_key_id, game_id=_solo_game(game).id):
        raise _no_share_key(share_key_id)
    return "", 204
