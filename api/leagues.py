from __future__ import annotations

from typing import Any

from flask import Response, json, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError
from sqlalchemy import func, select

from api.docs import keyed_write, open_write
from api.errors import Problem, invalid, not_found
from api.games import game_dict
from api.history import game_history
from api.judging import judge_league, refused
from models import ApiKey, Game, League, LeagueMember, Player, db, write_transaction
from models.books import refresh_totals
from models.security import rotate_key
from models.standings import head_to_head, standings
from models.transfer import export_csv, export_league, import_league
from schemas.games import GameHistorySchema, KeySchema, PageArgsSchema
from schemas.leagues import (
    HeadToHeadArgsSchema,
    HeadToHeadSchema,
    HistoryArgsSchema,
    LeagueCreatedSchema,
    LeagueInSchema,
    LeagueListSchema,
    LeagueSchema,
    MembersInSchema,
    StandingsArgsSchema,
    StandingsSchema,
)
from schemas.transfer import LeagueImportSchema, read_document

blp = Blueprint("leagues", __name__, url_prefix="/leagues",
                description="Leagues: members, standings, head to head, history, export and import")


def league_dict(league: League) -> dict[str, Any]:
    members = list(db.session.scalars(select(LeagueMember.player_id).where(LeagueMember.league_id == league.id)
                                      .order_by(LeagueMember.player_id)))
    games = db.session.scalar(select(func.count()).select_from(Game).where(Game.league_id == league.id)) or 0
    return {"id": league.id, "name": league.name, "members": members, "games": games,
            "created_at": league.created_at}


def load_league(league_id: int) -> League:
    league = db.session.get(League, league_id)
    if league is None:
        raise not_found("league", league_id)
    return league


def _add_members(league: League, players: list[int], field: str) -> None:
    known = set(db.session.scalars(select(Player.id).where(Player.id.in_(players))))
    for i, p in enumerate(players):
        if p not in known:
            raise invalid(f"{field}[{i}]", f"there is no player {p}")
    present = set(db.session.scalars(select(LeagueMember.player_id).where(LeagueMember.league_id == league.id)))
    new = [p for p in dict.fromkeys(players) if p not in present]
    db.session.add_all(LeagueMember(league_id=league.id, player_id=p) for p in new)
    refresh_totals(league.id, new)


@blp.route("")
class Leagues(MethodView):
    @blp.arguments(LeagueInSchema())
    @blp.response(201, LeagueCreatedSchema)
    @open_write(blp)
    def post(self, data: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Create a league; returns its key, once: every write to the league needs it"""
        with write_transaction():
            league = League(name=data["name"], ratings_stale=False, streaks_stale=False, history_version=0)
            db.session.add(league)
            db.session.flush()
            _add_members(league, data["members"], "members")
            _, key = ApiKey.issue(league_id=league.id)
            db.session.commit()
            return {**league_dict(league), "key": key}, 201, {"Location": f"/api/v1/leagues/{league.id}"}

    @blp.arguments(PageArgsSchema(), location="query")
    @blp.response(200, LeagueListSchema)
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """List leagues"""
        page, per_page = args["page"], args["per_page"]
        total = db.session.scalar(select(func.count()).select_from(League))
        leagues = db.session.scalars(select(League).order_by(League.id).offset((page - 1) * per_page)
                                     .limit(per_page)).all()
        return {"items": [league_dict(lg) for lg in leagues], "total": total, "page": page, "per_page": per_page}


@blp.route("/<int(max=2147483647):league_id>")
class LeagueById(MethodView):
    @blp.response(200, LeagueSchema)
    def get(self, league_id: int) -> dict[str, Any]:
        """Get a league"""
        return league_dict(load_league(league_id))


@blp.route("/<int(max=2147483647):league_id>/key", methods=["POST"])
@blp.response(201, KeySchema)
@keyed_write(blp, conflict=False)
def rotate_league_key(league_id: int) -> dict[str, Any]:
    """Rotate the league's key: the old key stops working at once"""
    with write_transaction():
        load_league(league_id)
        key = rotate_key(league_id=league_id)
        db.session.commit()
        return {"key": key}


@blp.route("/<int(max=2147483647):league_id>/members", methods=["POST"])
@blp.arguments(MembersInSchema())
@blp.response(200, LeagueSchema)
@keyed_write(blp, conflict=False)
def add_members(data: dict[str, Any], league_id: int) -> dict[str, Any]:
    """Add players to a league"""
    with write_transaction():
        league = load_league(league_id)
        _add_members(league, data["players"], "players")
        db.session.commit()
        return league_dict(league)


@blp.route("/<int(max=2147483647):league_id>/standings", methods=["GET"])
@blp.arguments(StandingsArgsSchema(), location="query")
@blp.response(200, StandingsSchema)
def get_standings(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """Standings: games, points, hands by role, gins, undercuts, streaks, ratings"""
    league = load_league(league_id)
    rows = standings(league, args.get("since"), args.get("until"), args["sort"], args["order"])
    return {"league_id": league_id, "sort": args["sort"], "order": args["order"], "items": rows}


@blp.route("/<int(max=2147483647):league_id>/head-to-head", methods=["GET"])
@blp.arguments(HeadToHeadArgsSchema(), location="query")
@blp.response(200, HeadToHeadSchema)
def get_head_to_head(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """The standings figures of two players over the games they both played"""
    league = load_league(league_id)
    if args["a"] == args["b"]:
        raise invalid("b", "a and b must be two different players")
    members = set(db.session.scalars(select(LeagueMember.player_id).where(LeagueMember.league_id == league_id)))
    for name in ("a", "b"):
        if args[name] not in members:
            raise invalid(name, f"player {args[name]} is not a member of league {league_id}")
    rows, games = head_to_head(league, args["a"], args["b"], args.get("since"), args.get("until"))
    return {"league_id": league_id, "games": games, "items": rows}


@blp.route("/<int(max=2147483647):league_id>/games", methods=["GET"])
@blp.arguments(HistoryArgsSchema(), location="query")
@blp.response(200, GameHistorySchema)
def list_league_games(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """The league's games, newest first (cursor-paginated)"""
    load_league(league_id)
    games, cursor = game_history(args, league_id=league_id)
    return {"items": [game_dict(g) for g in games], "next_cursor": cursor}


@blp.route("/<int(max=2147483647):league_id>/export", methods=["GET"])
@blp.alt_response(200, schema={"type": "object"}, description="The whole league as JSON", success=True)
def export_league_json(league_id: int) -> Response:
    """Export the whole league as JSON (every game, hand, seating, card and ruling)"""
    doc = export_league(load_league(league_id))
    return Response(json.dumps(doc, ensure_ascii=False), mimetype="application/json")


@blp.route("/<int(max=2147483647):league_id>/export.csv", methods=["GET"])
@blp.alt_response(200, schema={"type": "string"}, content_type="text/csv", success=True,
                  description="One row per hand: roles, outcome, points, running scores")
def export_league_csv(league_id: int) -> Response:
    """Export the league's hands as CSV"""
    return Response(export_csv(load_league(league_id)), mimetype="text/csv")


@blp.route("/import", methods=["POST"])
@blp.alt_response(201, schema=LeagueCreatedSchema, success=True, description="The rebuilt league, with its new key")
@blp.alt_response(400, response="BAD_REQUEST")
@blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@open_write(blp)
def import_league_json() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Rebuild a league from its JSON export (all or nothing)"""
    malformed = Problem(400, "the request body is not valid JSON", type="https://ginref.org/problems/malformed-json")
    if not request.is_json:
        raise malformed
    try:
        body = read_document(lambda: request.get_data(cache=False))  # not kept in the request
    except ValueError:
        raise malformed from None
    if body is None:
        raise malformed
    try:
        doc = LeagueImportSchema().load(body)
    except ValidationError as err:
        raise refused(err.messages) from None
    del body  # judging drops each game's document in turn
    judged = judge_league(doc)  # every hand re-judged, every game replayed; before any write
    with write_transaction():
        league = import_league(judged)
        _, key = ApiKey.issue(league_id=league.id)
        db.session.commit()
        created = LeagueCreatedSchema().dump({**league_dict(league), "key": key})
        return created, 201, {"Location": f"/api/v1/leagues/{league.id}"}
