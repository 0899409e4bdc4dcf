from __future__ import annotations

from typing import Any

from flask.views import MethodView
from sqlalchemy import func, select

from api.body import Blueprint
from api.docs import open_write
from api.errors import not_found
from api.games import game_dict
from api.history import game_history
from models import Player, db
from schemas.games import GameHistorySchema, PageArgsSchema
from schemas.leagues import HistoryArgsSchema
from schemas.players import PlayerInSchema, PlayerListSchema, PlayerSchema

blp = Blueprint("players", __name__, url_prefix="/players", description="Players")


@blp.route("")
class Players(MethodView):
    @blp.arguments(PlayerInSchema())
    @blp.response(201, PlayerSchema)
    @open_write(blp)
    def post(self, data: dict[str, Any]) -> tuple[Player, int, dict[str, str]]:
        """Create a player"""
        player = Player(name=data["name"])
        db.session.add(player)
        db.session.flush()
        return player, 201, {"Location": f"/api/v1/players/{player.id}"}

    @blp.arguments(PageArgsSchema(), location="query")
    @blp.response(200, PlayerListSchema)
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List players"""
        page, per_page = args["page"], args["per_page"]
        total = db.session.scalar(select(func.count()).select_from(Player))
        items = db.session.scalars(select(Player).order_by(Player.id)
                                   .offset((page - 1) * per_page).limit(per_page)).all()
        return {"items": items, "total": total, "page": page, "per_page": per_page}


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
    """A player's games, newest first (cursor-paginated; filter by league, other player, dates)"""
    if db.session.get(Player, player_id) is None:
        raise not_found("player", player_id)
    games, cursor = game_history(args, player_id=player_id)
    return {"items": [game_dict(g) for g in games], "next_cursor": cursor}
