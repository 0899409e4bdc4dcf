from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, json, request
from flask.views import MethodView
from marshmallow import Schema, ValidationError
from sqlalchemy import func, select

import services
from api.body import MAX_ID, Blueprint
from api.collector import collector_paused
from api.docs import F, keyed_read, keyed_write, open_write
from api.errors import MALFORMED_JSON, Problem, invalid, not_found
from api.history import game_history
from api.judging import judge_league, refused
from api.routes import open_create
from api.shapes import Imported, Page, WithKey, page_of
from models import Game, League, LeagueMember, Player, db
from models.security import KeyRow
from models.standings import head_to_head, standings
from models.transfer import export_csv, export_league
from models.visibility import public_leagues
from schemas.games import GameHistorySchema, KeySchema, PageArgsSchema
from schemas.leagues import (
    HeadToHeadArgsSchema,
    HeadToHeadSchema,
    HistoryArgsSchema,
    LeagueCreatedSchema,
    LeagueImportedSchema,
    LeagueInSchema,
    LeagueListSchema,
    LeaguePatchSchema,
    LeagueSchema,
    MembersInSchema,
    StandingsArgsSchema,
    StandingsSchema,
)
from schemas.numbers import NotUtf8Error, NumberOutOfRangeError
from schemas.transfer import LeagueImportSchema, read_document, read_player_mapping

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


def _league_query(path: str, query: Schema, answer: type[Schema]) -> Callable[[F], F]:
    """A GET of one league at ``path`` (which names ``league_id``), reading
    the query string as ``query`` and answering ``answer``; a private
    league's needs one of its keys (api.docs.keyed_read)."""

    def decorate(view: F) -> F:  # the stack it stands for, applied from the bottom up
        view = keyed_read(scope="league")(view)
        view = blp.response(200, answer)(view)
        view = blp.arguments(query, location="query")(view)
        return blp.route(path, methods=["GET"])(view)

    return decorate


@blp.route("")
class Leagues(MethodView):
    @open_create(blp, LeagueInSchema(), LeagueCreatedSchema)
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
    @keyed_read(scope="league")
    def get(self, league_id: int) -> LeagueView:
        """Get a league"""
        return league_view(load_league(league_id))

    @blp.arguments(LeaguePatchSchema())
    @blp.response(200, LeagueSchema)
    @keyed_write(scope="league", conflict=False)
    def patch(self, data: dict[str, Any], league_id: int) -> LeagueView:
        """Make the league, and every game in it, public or private"""
        league = load_league(league_id)
        services.set_league_visibility(league, data["visibility"])
        return league_view(league)


@blp.route("/<id:league_id>/key", methods=["POST"])
@blp.response(201, KeySchema)
@keyed_write(scope="league", conflict=False, rotates_key=True)
def rotate_league_key(league_id: int, credential: KeyRow) -> dict[str, Any]:
    """Rotate the league's key: the old key stops working at once"""
    load_league(league_id)
    return {"key": services.rotate_league_key(league_id, by=credential)}


@blp.route("/<id:league_id>/members", methods=["POST"])
@blp.arguments(MembersInSchema())
@blp.response(200, LeagueSchema)
@keyed_write(scope="league", conflict=False)
def add_members(data: dict[str, Any], league_id: int) -> LeagueView:
    """Add players to a league"""
    league = load_league(league_id)
    services.add_members(league, _known_players(data["players"], "players"))
    return league_view(league)


@_league_query("/<id:league_id>/standings", StandingsArgsSchema(), StandingsSchema)
def get_standings(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """Standings: games, points, hands by role, gins, undercuts, streaks, ratings"""
    league = load_league(league_id)
    preset = args.get("preset")
    rows = standings(league, args.get("since"), args.get("until"), args["sort"], args["order"], preset)
    return {"league_id": league_id, "sort": args["sort"], "order": args["order"], "preset": preset, "items": rows}


@_league_query("/<id:league_id>/head-to-head", HeadToHeadArgsSchema(), HeadToHeadSchema)
def get_head_to_head(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """The standings figures of two players over the games they both played"""
    league = load_league(league_id)
    if args["a"] == args["b"]:
        raise invalid("b", "a and b must be two different players")
    members = set(db.session.scalars(select(LeagueMember.player_id).where(LeagueMember.league_id == league_id)))
    for name in ("a", "b"):
        if args[name] not in members:
            raise invalid(name, f"player {args[name]} is not a member of league {league_id}")
    preset = args.get("preset")
    rows, games = head_to_head(league, args["a"], args["b"], args.get("since"), args.get("until"), preset)
    return {"league_id": league_id, "preset": preset, "games": games, "items": rows}


@_league_query("/<id:league_id>/games", HistoryArgsSchema(), GameHistorySchema)
def list_league_games(args: dict[str, Any], league_id: int) -> dict[str, Any]:
    """The league's games, newest first (cursor-paginated)"""
    load_league(league_id)
    games, cursor = game_history(args, league_id=league_id)
    return {"items": games, "next_cursor": cursor}


def _attachment(name: str) -> dict[str, Any]:
    return {"Content-Disposition": {"description": f"attachment; filename={name}", "schema": {"type": "string"}}}


def _league_export(path: str, filename: str, description: str, **content: Any) -> Callable[[F], F]:
    """A GET of one league at ``path`` (which names ``league_id``) that
    answers a file to save as ``filename`` (``{league_id}`` in it is the
    league's id), ``description`` and ``content`` (its ``schema``, its
    ``content_type`` if not JSON) saying what it holds; a private league's
    needs one of its keys (api.docs.keyed_read)."""

    def decorate(view: F) -> F:  # the stack it stands for, applied from the bottom up
        view = keyed_read(scope="league")(view)
        view = blp.alt_response(
            200, description=description, success=True, headers=_attachment(f'"{filename}"'), **content
        )(view)
        return blp.route(path, methods=["GET"])(view)

    return decorate


@_league_export(
    "/<id:league_id>/export", "league-{league_id}.json", "The whole league as JSON", schema={"type": "object"}
)
def export_league_json(league_id: int) -> Response:
    """Export the whole league as JSON (every game, hand, seating, card and ruling; every revision and dispute)"""
    doc = export_league(load_league(league_id))
    return Response(
        json.dumps(doc, ensure_ascii=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="league-{league_id}.json"'},
    )


@_league_export(
    "/<id:league_id>/export.csv",
    "league-{league_id}.csv",
    "One row per hand: roles, outcome, points, running scores",
    schema={"type": "string"},
    content_type="text/csv",
)
def export_league_csv(league_id: int) -> Response:
    """Export the league's hands as CSV"""
    return Response(
        export_csv(load_league(league_id)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="league-{league_id}.csv"'},
    )


PLAYERS_PARAMETER = {
    "in": "query",
    "name": "players",
    "required": False,
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                "example": {"3": 17},
            }
        }
    },
    "description": "The document's players who are players here already, as a JSON object: the player's id "
    'in the document -> the id of the existing player, e.g. `{"3": 17}`. Those join the league as they are '
    "(keeping their own names, whatever the document calls them); the document's other players are "
    "created. Each key must be a player of the document, each value an existing player, and no two keys "
    "may name the same player (R8); else a 422 naming `query.players.<key>.key` or `.value` (`query.players` "
    "for a parameter that is not one JSON object), and nothing is written.",
}
MAPPING = "query.players"


def _player_mapping() -> dict[int, int]:
    """The ``players`` query parameter, read (a 422 for one that does not
    parse, or names one existing player twice); no database yet."""
    given = request.args.getlist("players")
    if not given:
        return {}
    if len(given) > 1:
        raise invalid(MAPPING, f"given {len(given)} times: give one JSON object")
    try:
        return read_player_mapping(given[0])
    except ValidationError as err:
        raise refused(err.messages, "query") from None


def _verify_in_document(mapping: dict[int, int], players: list[dict[str, Any]]) -> None:
    """Each key of the mapping is a player of the document."""
    ids = {p["id"] for p in players}
    for key in mapping:
        if key not in ids:
            raise invalid(f"{MAPPING}.{key}.key", f"there is no player {key} in the document", offending=key)


def _verify_existing(mapping: dict[int, int]) -> None:
    """Each value of the mapping is an existing player (in the import's transaction)."""
    known = (
        set(db.session.scalars(select(Player.id).where(Player.id.in_(list(mapping.values()))))) if mapping else set()
    )
    for key, existing in mapping.items():
        if existing not in known:
            raise invalid(f"{MAPPING}.{key}.value", f"there is no player {existing}", offending=existing)


@blp.route("/import", methods=["POST"])
@blp.alt_response(
    201,
    schema=LeagueImportedSchema,
    success=True,
    description="The rebuilt league, with its new key and what each player of the document became",
)
@blp.alt_response(400, response="BAD_REQUEST")
@blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@open_write(parameters=[PLAYERS_PARAMETER], bulk=True)
def import_league_json() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Rebuild a league from its JSON export (all or nothing), onto existing players where `players` says so"""
    mapping = _player_mapping()
    malformed = Problem(400, "the request body is not valid JSON", type=MALFORMED_JSON)
    if not request.is_json:
        raise malformed
    try:
        body = read_document(lambda: request.get_data(cache=False))  # not kept in the request
    except (NumberOutOfRangeError, NotUtf8Error):
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
    _verify_in_document(mapping, doc["players"])
    with collector_paused():
        judged = judge_league(doc)  # every hand re-judged, every game replayed; before any write
        _verify_existing(mapping)  # in the transaction that writes; judging, before it, holds no lock
        league, players, key = services.import_league(judged, mapping)
    return (
        LeagueImportedSchema().dump(WithKey(Imported(league_view(league), players), key)),
        201,
        {"Location": f"/api/v1/leagues/{league.id}"},
    )
