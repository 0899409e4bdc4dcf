from __future__ import annotations

from typing import Any

from flask.views import MethodView
from sqlalchemy import select

import services
from api.body import Blueprint
from api.errors import not_found
from api.history import game_history
from api.routes import open_create
from api.shapes import Page, page_of
from models import Player, db
from schemas.games import GameHistorySchema, PageArgsSchema
from schemas.leagues import HistoryArgsSchema
from schemas.players import PlayerInSchema, PlayerListSchema, PlayerSchema

blp = Blueprint("players", __name__, url_prefix="/players", description="Players")


@blp.route("")
class Players(MethodView):
    @open_create(blp, PlayerInSchema(), PlayerSchema)
    def post(self, data: dict[str, Any]) -> tuple[Player, int, dict[str, str]]:
        """Create a player"""
        player = services.create_player(data["name"])
        return player, 201, {"Location": f"/api/v1/players/{player.id}"}

    @blp.arguments(PageArgsSchema(), location="query")
    @blp.response(200, PlayerListSchema)
    def get(self, args: dict[str, Any]) -> Page:
        """List players"""
        return page_of(select(Player).order_by(Player.id), args)


@blp.route("/<id:player_id>")
class PlayerById(MethodView):
    @blp.response(200, PlayerSchema)
    def get(self, player_id: int) -> Player:
        """Get a player"""
        player = db.session.get(Player, player_id)
        if player is None:
            raise not_found("player", player_id)
        return player


@blp.route("/<id:player_id>/games", methods=["GET"])
@blp.arguments(HistoryArgsSchema(), location="query")
@blp.response(200, GameHistorySchema)
def list_player_games(args: dict[str, Any], player_id: int) -> dict[str, Any]:
    """A player's public games, newest first (cursor-paginated; filter by league, other player, dates)

    Private games, and those of private leagues, are left out: read them
    with their keys at ``GET /leagues/{league_id}/games?player=``."""
    if db.session.get(Player, player_id) is None:
        raise not_found("player", player_id)
    games, cursor = game_history(args, player_id=player_id)
    return {"items": games, "next_cursor": cursor}
