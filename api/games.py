from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from sqlalchemy import func, select

from api.errors import Problem, conflict, not_found
from models import Game, Player, db, write_transaction
from referee import CutError, Roles, Rules, replay, roles_from_cut
from schemas.games import GameInSchema, GameListSchema, GamePatchSchema, GameSchema, PageArgsSchema

blp = Blueprint("games", __name__, url_prefix="/games", description="Games to the target score")


def game_dict(game: Game) -> dict[str, Any]:
    return {"id": game.id, "status": game.status, "players": game.players, "rules": game.rules,
            "scores": game.scores, "roles": game.roles, "first_roles": game.first_roles.as_dict(),
            "cut": game.cut, "hands_played": game.hands_played, "winner": game.winner,
            "out_of_turn": game.out_of_turn, "version": game.version, "created_at": game.created_at}


def load_game(game_id: int, *, lock: bool = False) -> Game:
    game = Game.locked(game_id) if lock else db.session.get(Game, game_id)
    if game is None:
        raise not_found("game", game_id)
    return game


def _invalid(field: str, message: str, **members: Any) -> Problem:
    return Problem(422, f"{field}: {message}", type="https://ginref.org/problems/invalid-content",
                   errors={field: [message]}, **members)


def _seat(data: dict[str, Any]) -> Roles:
    players: list[int] = data["players"]
    if len(set(players)) != 3:
        raise _invalid("players", f"three different players are needed, not {players}", offending=players)
    known = set(db.session.scalars(select(Player.id).where(Player.id.in_(players))))
    for i, p in enumerate(players):
        if p not in known:
            raise _invalid(f"players[{i}]", f"there is no player {p}", offending=p)
    if "roles" in data:
        given = data["roles"]
        if sorted(given.values()) != sorted(players):
            raise _invalid("roles", "box, captain and sitter must be the game's three players (R8)",
                           offending=given)
        return Roles(**given)
    cut = data["cut"]
    by_id = {}
    for key, card in cut.items():
        if not key.isdigit() or int(key) not in players:
            raise _invalid(f"cut.{key}", f"{key!r} is not one of the game's players (R9)", offending=key)
        by_id[int(key)] = card
    if len(by_id) != 3:
        missing = [p for p in players if p not in by_id]
        raise _invalid("cut", f"each player cuts one card (R9): missing {missing}", rule="R9",
                       players=missing)
    if len(set(by_id.values())) != 3:
        raise CutError("the three cut cards must be distinct cards (R9)", field="cut",
                       players=sorted(by_id))
    return roles_from_cut(by_id)


@blp.route("")
class Games(MethodView):
    @blp.arguments(GameInSchema)
    @blp.response(201, GameSchema)
    def post(self, data: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Start a game: three players, a cut (R9) or roles, and rule options"""
        with write_transaction():
            roles = _seat(data)
            rules = Rules.from_options(data.get("rules"))
            game = Game(players=data["players"], rules=rules.as_dict(),
                        cut=None if "cut" not in data else {k: str(v) for k, v in data["cut"].items()},
                        first_box=roles.box, first_captain=roles.captain, first_sitter=roles.sitter,
                        version=0)
            game.apply(replay(rules, roles, []))
            db.session.add(game)
            db.session.commit()
            return game_dict(game), 201, {"Location": f"/api/v1/games/{game.id}"}

    @blp.arguments(PageArgsSchema, location="query")
    @blp.response(200, GameListSchema)
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List games, newest first"""
        page, per_page = args["page"], args["per_page"]
        total = db.session.scalar(select(func.count()).select_from(Game))
        games = db.session.scalars(select(Game).order_by(Game.id.desc())
                                   .offset((page - 1) * per_page).limit(per_page)).all()
        return {"items": [game_dict(g) for g in games], "total": total, "page": page, "per_page": per_page}


@blp.route("/<int(max=2147483647):game_id>")
class GameById(MethodView):
    @blp.response(200, GameSchema)
    def get(self, game_id: int) -> dict[str, Any]:
        """Get a game: scores, roles for the next hand, winner"""
        return game_dict(load_game(game_id))

    @blp.arguments(GamePatchSchema)
    @blp.response(200, GameSchema)
    def patch(self, data: dict[str, Any], game_id: int) -> dict[str, Any]:
        """Change the rule options, only before the first hand"""
        with write_transaction():
            game = load_game(game_id, lock=True)
            if game.hands_played:
                raise conflict("the rules can change only before the first hand")
            rules = Rules.from_options({**game.rules, **data["rules"]})
            game.rules = rules.as_dict()
            game.apply(replay(rules, game.first_roles, []))
            db.session.commit()
            return game_dict(game)
