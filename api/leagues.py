from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response, g, json, request
from flask.views import MethodView
from marshmallow import ValidationError
from sqlalchemy import func, select

import services
from api.body import Blueprint
from api.docs import keyed_read, keyed_write, open_write
from api.errors import MALFORMED_JSON, Problem, invalid, not_found
from api.history import game_history
from api.judging import judge_league, refused
from api.shapes import Page, WithKey, page_of
from models import ApiKey, Game, League, LeagueMember, Player, db
from models.security import rotate_key
from models.standings import head_to_head, standings
from models.transfer import export_csv, export_league, import_league
from models.visibility import public_leagues
from schemas.games import GameHistorySchema, KeySchema, PageArgsSchema
from schemas.leagues import (
    HeadToHeadArgsSchema,
    HeadToHeadSchema,
    HistoryArgsSchema,
    LeagueCreatedSchema,
    LeagueInSchema,
    LeagueListSchema,
    LeaguePatchSchema,
    LeagueSchema,
    MembersInSchema,
    StandingsArgsSchema,
    StandingsSchema,
)
from schemas.numbers import NumberOutOfRangeError
from schemas.transfer import LeagueImportSchema, read_document

blp = Blueprint(
    "leagues",
    __name__,
    url_prefix="/leagues",
    description="Leagues: members, standings, head to head, history, export and import",
)


@dataclass(frozen=True, slots=True)
class LeagueView:
    """A league with its members and the number of its games."""

    league: League
    members: list[int]
    games: int

    def __getattr__(self, name: str) -> Any:
        return getattr(self.league, name)


def league_view(league: League) -> LeagueView:
    members = list(
        db.session.scalars(
            select(LeagueMember.player_id).where(LeagueMember.league_id == league.id).order_by(LeagueMember.player_id)
        )
    )
    games = db.session.scalar(select(func.count()).select_from(Game).where(Game.league_id == league.id)) or 0
    return LeagueView(league, members, games)


def load_league(league_id: int) -> League:
    league = db.session.get(League, league_id)
    if league is None:
        raise not_found("league", league_id)
    return league


def _known_players(players: list[int], field: str) -> list[int]:
    """The players, if each exists: else a 422 naming the first that does not."""
    known = set(db.session.scalars(select(Player.id).where(Player.id.in_(players))))
    for i, p in enumerate(players):
        if p not in known:
            raise invalid(f"{field}[{i}]", f"there is no player {p}")
    return players


@blp.route("")
class Leagues(MethodView):
    @blp.arguments(LeagueInSchema())
    @blp.response(201, LeagueCreatedSchema)
    @open_write(blp)
    def post(self, data: dict[str, Any]) -> tuple[WithKey, int, dict[str, str]]:
        """Create a league; returns its key, once: every write to the league needs it.

        ``visibility: private``: every read of the league and its games needs
        that key or a share key."""
        league, key = services.create_league(
            data["name"], _known_players(data["members"], "members"), data["visibility"]
        )
        return WithKey(league_view(league), key), 201, {"Location": f"/api/v1/leagues/{league.id}"}

    @blp.arguments(PageArgsSchema(), location="query")
    @blp.response(200, LeagueListSchema)
    def get(self, args: dict[str, Any]) -> Page:
        """List the public leagues (private ones are left out)"""
        page = page_of(select(League).where(public_leagues()).order_by(League.id), args)
        return Page([league_view(league) for league in page.items], page.total, page.page, page.per_page)


@blp.route("/<id:league_id>")
class LeagueById(MethodView):
    @blp.response(200, LeagueSchema)
    @keyed_read(blp, scope="league")
    def get(self, league_id: int) -> LeagueView:
        """Get a league"""
        return league_view(load_league(league_id))

    @blp.arguments(LeaguePatchSchema())
    @blp.response(200, LeagueSchema)
    @keyed_write(blp, scope="league", conflict=False)
    def patch(self, data: dict[str, Any], league_id: int) -> LeagueView:
        """Make the league, and every game in it, public or private"""
        league = load_league(league_id)
        services.set_league_visibility(league, data["visibility"])
        return league_view(league)


@blp.route("/<id:league_id>/key", methods=["POST"])
@blp.response(201, KeySchema)
@keyed_write(blp, scope="league", conflict=False, rotates_key=True)
def rotate_league_key(league_id: int) -> dict[str, Any]:
    """Rotate the league's key: the old key stops working at once"""
    load_league(league_id)
    return {"key": rotate_key(league_id=league_id, by=g.credential.id)}


@blp.route("/<id:league_id>/members", methods=["POST"])
@blp.arguments(MembersInSchema())
@blp.response(200, LeagueSchema)
@keyed_write(blp, scope="league", conflict=False)
def add_members(data: dict[str, Any], league_id: int) -> LeagueView:
    """Add players to a league"""
    league = load_league(league_id)
    services.add_members(league, _known_players(data["players"], "players"))
    return league_view(league)


@blp.route("/<id:league_id>/standings", methods=["GET"])
@blp.arguments(StandingsArgsSchema(), location="query")
@blp.response(200, StandingsSchema)
@keyed_read(blp, scope="league")
def get_standings(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """Standings: games, points, hands by role, gins, undercuts, streaks, ratings"""
    league = load_league(league_id)
    rows = standings(league, args.get("since"), args.get("until"), args["sort"], args["order"])
    return {"league_id": league_id, "sort": args["sort"], "order": args["order"], "items": rows}


@blp.route("/<id:league_id>/head-to-head", methods=["GET"])
@blp.arguments(HeadToHeadArgsSchema(), location="query")
@blp.response(200, HeadToHeadSchema)
@keyed_read(blp, scope="league")
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


@blp.route("/<id:league_id>/games", methods=["GET"])
@blp.arguments(HistoryArgsSchema(), location="query")
@blp.response(200, GameHistorySchema)
@keyed_read(blp, scope="league")
def list_league_games(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """The league's games, newest first (cursor-paginated)"""
    load_league(league_id)
    games, cursor = game_history(args, league_id=league_id)
    return {"items": games, "next_cursor": cursor}


def _attachment(name: str) -> dict[str, Any]:
    return {"Content-Disposition": {"description": f"attachment; filename={name}", "schema": {"type": "string"}}}


@blp.route("/<id:league_id>/export", methods=["GET"])
@blp.alt_response(
    200,
    schema={"type": "object"},
    description="The whole league as JSON",
    success=True,
    headers=_attachment('"league-{league_id}.json"'),
)
@keyed_read(blp, scope="league")
def export_league_json(league_id: int) -> Response:
    """Export the whole league as JSON (every game, hand, seating, card and ruling)"""
    doc = export_league(load_league(league_id))
    return Response(
        json.dumps(doc, ensure_ascii=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="league-{league_id}.json"'},
    )


@blp.route("/<id:league_id>/export.csv", methods=["GET"])
@blp.alt_response(
    200,
    schema={"type": "string"},
    content_type="text/csv",
    success=True,
    description="One row per hand: roles, outcome, points, running scores",
    headers=_attachment('"league-{league_id}.csv"'),
)
@keyed_read(blp, scope="league")
def export_league_csv(league_id: int) -> Response:
    """Export the league's hands as CSV"""
    return Response(
        export_csv(load_league(league_id)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="league-{league_id}.csv"'},
    )


@blp.route("/import", methods=["POST"])
@blp.alt_response(201, schema=LeagueCreatedSchema, success=True, description="The rebuilt league, with its new key")
@blp.alt_response(400, response="BAD_REQUEST")
@blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@open_write(blp)
def import_league_json() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Rebuild a league from its JSON export (all or nothing)"""
    malformed = Problem(400, "the request body is not valid JSON", type=MALFORMED_JSON)
    if not request.is_json:
        raise malformed
    try:
        body = read_document(lambda: request.get_data(cache=False))  # not kept in the request
    except NumberOutOfRangeError:
        raise
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
    league = import_league(judged)
    _, key = ApiKey.issue(league_id=league.id)
    return (
        LeagueCreatedSchema().dump(WithKey(league_view(league), key)),
        201,
        {"Location": f"/api/v1/leagues/{league.id}"},
    )
