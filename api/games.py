from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from sqlalchemy import select

import services
from api.body import Blueprint
from api.docs import ETAG_HEADER, keyed_read, keyed_write
from api.errors import FORBIDDEN, RATE_LIMITED, Problem, conflict, invalid, not_found
from api.guards import league_unseen, unknown_league
from api.shapes import Page, WithKey, page_of
from models import Game, League, LeagueMember, Player, db
from models.events import Event, Place, VersionWatch, WaitRefused, events_after
from models.game import GameRow
from models.league import PUBLIC
from models.revisions import has_revisions
from models.security import KeyRow, key_reads
from models.visibility import public_games
from referee import Roles, Rules, verify_seating
from referee.cutthroat import CutthroatSeating, verify_cutthroat_seating
from referee.presets import Preset, PresetRules, resolve_rules
from referee.two_player import Seating, verify_first_seating
from schemas.events import (
    EventArgsSchema,
    EventListSchema,
    EventSchema,
    EventStreamArgsSchema,
    EventStreamHeadersSchema,
)
from schemas.games import (
    GameCreatedSchema,
    GameInSchema,
    GameListSchema,
    GamePatchSchema,
    GameSchema,
    KeySchema,
    PageArgsSchema,
)
from schemas.rules import THREE_HANDED_OPTIONS

FEED_RETRY_AFTER = 5  # seconds: a phone refused a wait polls meanwhile
FEED_RETRY_MS = 1000  # milliseconds: how soon EventSource opens an ended stream again

blp = Blueprint("games", __name__, url_prefix="/games", description="Games to the target score")


def load_game(game_id: int) -> Game:
    """The game, with its hands (404 if none). A write's guard holds its row
    locked for the request already (api.guards)."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise not_found("game", game_id)
    return game


def _seat(data: dict[str, Any]) -> Roles:
    """The first hand's roles (R8, R9, the referee's), once the players exist."""
    players: list[int] = data["players"]
    if len(set(players)) == 3:
        _known_players(players)
    return verify_seating(players, roles=data.get("roles"), cut=data.get("cut"))


def _known_players(players: list[int]) -> None:
    known = set(db.session.scalars(select(Player.id).where(Player.id.in_(players))))
    for i, p in enumerate(players):
        if p not in known:
            raise invalid(f"players[{i}]", f"there is no player {p}", offending=p)


def _league_of(data: dict[str, Any]) -> int | None:
    league_id: int | None = data.get("league_id")
    if league_id is None:
        return None
    if league_unseen(league_id) or db.session.get(League, league_id) is None:
        raise unknown_league(league_id)
    members = set(db.session.scalars(select(LeagueMember.player_id).where(LeagueMember.league_id == league_id)))
    for i, p in enumerate(data["players"]):
        if p not in members:
            raise invalid(f"players[{i}]", f"player {p} is not a member of league {league_id}", offending=p)
    return league_id


def _placed(data: dict[str, Any]) -> services.Placement:
    """Where and when a new game is played: its league (checked), the time,
    the cut (R9) and its visibility, as the body gives them."""
    return services.Placement(
        league_id=_league_of(data),
        played_at=data.get("played_at"),
        cut=None if "cut" not in data else {k: str(v) for k, v in data["cut"].items()},
        visibility=data.get("visibility", PUBLIC),
    )


def _started(game: Game, key: str | None) -> tuple[Game | WithKey, int, dict[str, str]]:
    """A game just started, as answered: with its own key (outside a league, shown once), where it is, its ETag."""
    headers = {"Location": f"/api/v1/games/{game.id}", "ETag": game.etag}
    return (game if key is None else WithKey(game, key)), 201, headers


def _start_two_player_game(data: dict[str, Any]) -> tuple[Game | WithKey, int, dict[str, str]]:
    """R27, R28: a game under a two-player preset, seated by the cut or the
    dealer; R36: a cutthroat game of three, seated by the cut or the roles."""
    players: list[int] = data["players"]
    _known_players(players)
    roles = data.get("roles")
    cutthroat = data["rules"].preset is Preset.CUTTHROAT
    if roles is not None and sorted(roles.values()) != sorted(players):
        wanted = "dealer, non_dealer and sitter must be the game's three players (R36)"
        if not cutthroat:
            wanted = "dealer and non_dealer must be the game's two players (R28)"
        raise invalid("roles", wanted, offending=roles, rule="R36" if cutthroat else "R28")
    seating: Seating | CutthroatSeating
    if cutthroat:
        seating = verify_cutthroat_seating(players, roles=roles, cut=data.get("cut"))
    else:
        seating = verify_first_seating(players, dealer=None if roles is None else roles["dealer"], cut=data.get("cut"))
    return _started(*services.start_two_player_game(players, seating, data["rules"], _placed(data)))


@blp.route("")
class Games(MethodView):
    @blp.arguments(GameInSchema())
    @blp.response(201, GameCreatedSchema, headers=ETAG_HEADER)
    @keyed_write(scope="league_in_body", conflict=False)
    def post(self, data: dict[str, Any]) -> tuple[Game | WithKey, int, dict[str, str]]:
        """Start a game: three players, a cut (R9) or roles, and rule options.

        In a league it needs the league's key, and follows the league's
        visibility. Outside a league it needs none and returns the game's own
        key, once: keep it to record hands; ``visibility: private`` makes its
        reads need that key or a share key."""
        if isinstance(data["rules"], PresetRules):
            return _start_two_player_game(data)
        roles = _seat(data)
        rules = Rules.from_options(data.get("rules"))
        return _started(*services.start_game(data["players"], roles, rules, _placed(data)))

    @blp.arguments(PageArgsSchema(), location="query")
    @blp.response(200, GameListSchema)
    def get(self, args: dict[str, Any]) -> Page:
        """List the public games, newest first (private ones, and those of private leagues, are left out)"""
        return page_of(select(Game).where(public_games()).order_by(Game.id.desc()), args)


@blp.route("/<id:game_id>")
class GameById(MethodView):
    @blp.response(200, GameSchema, headers=ETAG_HEADER)
    @keyed_read(scope="game", conditional=True)
    def get(self, game_id: int, game: GameRow) -> tuple[GameRow, dict[str, str]]:
        """Get a game: scores, roles for the next hand, winner; its ETag"""
        return game, {"ETag": game.etag}  # read by its guard, which answered a matching If-None-Match

    @blp.arguments(GamePatchSchema())
    @blp.response(200, GameSchema, headers=ETAG_HEADER)
    @keyed_write(scope="game", if_match="optional")
    def patch(self, data: dict[str, Any], game_id: int) -> tuple[Game, dict[str, str]]:
        """Change the rule options (only before a first hand is recorded) or the visibility (outside a league)"""
        game = load_game(game_id)
        if "visibility" in data:
            if game.league_id is not None:
                raise invalid(
                    "visibility",
                    f"game {game_id} is in league {game.league_id} and follows its visibility: change the league's",
                    offending=data["visibility"],
                )
            services.set_game_visibility(game, data["visibility"])
        if "rules" in data:
            if game.hands_played:
                raise conflict("the rules can change only before the first hand")
            if has_revisions(game.id):
                raise conflict(
                    "the rules can change only before a first hand is recorded: this game's hands were undone, "
                    "and their revisions keep the rulings made under its rules",
                    rule="R26",
                )
            if game.two_player:
                options = {k: v for k, v in game.rules.items() if k != "preset"}
                services.change_preset_rules(
                    game, resolve_rules(str(game.rules["preset"]), {**options, **data["rules"]})
                )
            else:
                for name in data["rules"]:
                    if name not in THREE_HANDED_OPTIONS:  # R27: an option of the two-player presets only
                        raise invalid(f"rules.{name}", "Unknown field.", offending=data["rules"][name])
                services.change_rules(game, Rules.from_options({**game.rules, **data["rules"]}))
        return game, {"ETag": game.etag}


@blp.route("/<id:game_id>/key", methods=["POST"])
@blp.response(201, KeySchema)
@keyed_write(scope="game", rotates_key=True)
def rotate_game_key(game_id: int, game: GameRow, credential: KeyRow) -> dict[str, Any]:
    """Rotate the key of a game outside any league: the old key stops working at once"""
    if game.league_id is not None:
        raise conflict("a game in a league is written with the league's key; rotate that one")
    return {"key": services.rotate_game_key(game, by=credential)}


@blp.route("/<id:game_id>/scorer-key", methods=["POST"])
@blp.response(201, KeySchema)
@keyed_write(scope="game")
def issue_scorer_key(game_id: int, game: GameRow, credential: KeyRow) -> dict[str, Any]:
    """Issue a scorer key to a game in a league, shown once: it records, corrects and undoes that game's hands
    and reads it, nothing else; so a scorer link never carries the league's key. The league's rotation revokes it."""
    if game.league_id is None:
        raise conflict("a game outside a league has its own key: that one is its scorer key")
    if credential.league_id != game.league_id:
        raise Problem(403, f"a scorer key is issued with the key of league {game.league_id}", type=FORBIDDEN)
    return {"key": services.issue_scorer_key(game)}


def _no_place(refused: WaitRefused) -> Problem:
    """The 429 of a feed's wait (or stream) with no place to wait in: the phone polls meanwhile."""
    return Problem(
        429,
        f"{refused.detail}: ask again without wait (or in {FEED_RETRY_AFTER} s)",
        type=RATE_LIMITED,
        headers={"Retry-After": str(FEED_RETRY_AFTER)},
    )


def _longest(wait: float) -> float:
    """A feed's wait, within the server's bound (FEED_MAX_WAIT)."""
    return min(wait, float(current_app.config["FEED_MAX_WAIT"]))


@blp.route("/<id:game_id>/events", methods=["GET"])
@blp.arguments(EventArgsSchema(), location="query")  # one instance: not one built per request
@blp.response(200, EventListSchema, headers=ETAG_HEADER)
@blp.alt_response(429, response="TOO_MANY_REQUESTS")
@keyed_read(scope="game")
def get_events(
    args: dict[str, Any], game_id: int, game: GameRow, credential: KeyRow | None
) -> tuple[dict[str, Any], dict[str, str]]:
    """Follow a game: its changes after a version, waiting up to `wait` seconds for one"""
    after, wait, limit = args["after"], _longest(args["wait"]), args["limit"]
    if after > game.version:  # the guard's read of the game, of a moment before this one
        raise invalid("query.after", f"the game is at version {game.version}, not yet {after}", offending=after)
    items: list[Event] = []
    watch: VersionWatch = current_app.extensions["version_watch"]
    behind = after < game.version  # else nothing came after it, as of the guard's read: no more to read
    # A phone a little behind a game the watch follows (its other phones wait
    # on it, or it was just answered) is answered by the watch's next read,
    # which reads the game's events once for all of them. One further behind
    # reads its own: the watch reads a game's events from its furthest
    # waiter's to its nearest's first `limit`, and keeps that range short.
    from_watch = behind and wait > 0 and game.version - after <= limit and watch.follows(game_id)
    if behind and not from_watch:
        game, items = _read_events(game, after, limit)
    if not items and wait > 0:
        if db.session.registry.has():  # a phone asking again at the version has not opened one
            db.session.close()  # no connection is held while waiting
        key = credential  # of a private game: the wait ends once it is revoked
        try:
            moved = watch.wait(
                game_id,
                after,
                # behind: the next tick answers; if it does not come (the database away), read here
                min(wait, 2 * watch.interval + 1) if from_watch else wait,
                limit=limit,
                client=request.remote_addr or "",
                key_id=None if key is None else key.id,
            )
        except WaitRefused as refused:
            if not from_watch:
                raise _no_place(refused) from None
            moved = None  # a phone behind needs no wait: with no place to wait in, it reads its events (below)
        if moved is not None:
            if moved.revoked:  # the read it opened ends with its key
                raise not_found("game", game_id)
            if moved.events is not None:  # read once for every waiter of the game, while its key was in force
                items = moved.events
            else:
                if key is not None and not key_reads(key.id):  # revoked since the watch last looked
                    raise not_found("game", game_id)
                items = events_after(game_id, after, limit)
            # the version the watch read (of its last tick), or a later one the events name
            game = game.replace(version=max([moved.version, *(item.version for item in items)]))
        elif from_watch:  # the watch did not read the game in time (or had no place): the events are read here
            game, items = _read_events(game, after, limit)
    return {"items": items, "version": game.version}, {"ETag": game.etag}


#: one event of a game's stream, as an OpenAPI 3.0 and 3.1 document describes it (3.2 would say itemSchema)
STREAM_EVENT = {
    "type": "object",
    "required": ["id", "data"],
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The game's version this change made"},
        "event": {"type": "string", "enum": ["message"]},
        "data": {"type": "string", "description": "The change, as `/events` lists it (an `Event`), in JSON"},
    },
}


@blp.route("/<id:game_id>/events/stream", methods=["GET"])
@blp.arguments(EventStreamArgsSchema(), location="query")
@blp.arguments(EventStreamHeadersSchema(), location="headers", as_kwargs=True)
@blp.response(
    200,
    content_type="text/event-stream",
    description="Server-Sent Events: one a change, its `id` the version it made and its `data` the change as "
    "`/events` lists it",
)
@blp.doc(responses={"200": {"content": {"text/event-stream": {"schema": STREAM_EVENT}}}})
@blp.alt_response(429, response="TOO_MANY_REQUESTS")
@keyed_read(scope="game")
def stream_events(
    args: dict[str, Any], game_id: int, game: GameRow, credential: KeyRow | None, last_event_id: int | None = None
) -> Response:
    """Follow a game as a stream: its changes after a version, each as it comes, for up to `wait` seconds

    The answer is `text/event-stream` (Server-Sent Events): one event a change, as `/events` lists it, with the
    version it made as its `id`. It ends after `wait` seconds, or once the key it was read with is revoked; ask
    again from the last `id` (EventSource does, with `Last-Event-ID`). One stream holds one of the server's places
    to wait (a 429 with `Retry-After` when there is none) for all the changes it sends, where `/events` answers a
    change and is asked again."""
    after, wait, limit = args["after"], _longest(args["wait"]), args["limit"]
    field = "query.after"
    if last_event_id is not None:  # a reconnecting EventSource's
        after, field = last_event_id, "headers.Last-Event-ID"
    if after > game.version:  # the guard's read of the game, of a moment before this one
        raise invalid(field, f"the game is at version {game.version}, not yet {after}", offending=after)
    places = ExitStack()
    place: Place | None = None
    if wait > 0 and request.method != "HEAD":  # a HEAD's body is not sent: it waits for nothing
        watch: VersionWatch = current_app.extensions["version_watch"]
        try:
            place = places.enter_context(
                watch.place(
                    game_id,
                    after,
                    limit=limit,
                    client=request.remote_addr or "",
                    key_id=None if credential is None else credential.id,
                )
            )
        except WaitRefused as refused:
            raise _no_place(refused) from None
    with places.pop_all() as held:  # given back here if the stream is not sent, else when it ends
        items = events_after(game_id, after, limit) if after < game.version else []
        db.session.close()  # no connection is held while the stream waits
        deadline = time.monotonic() + wait
        changes = _changes(game_id, place, after, items, deadline, limit, credential)
        response = Response(
            stream_with_context(_sent(changes)),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        response.call_on_close(held.pop_all().close)  # the server closes the answer once sent, or cut off
    return response


def _changes(
    game_id: int,
    place: Place | None,
    after: int,
    items: list[Event],
    deadline: float,
    limit: int,
    credential: KeyRow | None,
) -> Iterator[list[Event]]:
    """The game's changes after ``after``, as they come, until the deadline
    or the revocation of the key the stream was read with."""
    while True:
        if items:
            yield items
            after = items[-1].version
        if place is None:
            return
        moved = place.next(after, deadline)
        if moved is None or moved.revoked:
            return
        if moved.events is not None:  # read once for every phone of the game
            items = moved.events
        else:  # not read by the watch for this stream: read here
            if credential is not None and not key_reads(credential.id):
                return
            items = events_after(game_id, after, limit)
            db.session.close()
        if not items:
            after = moved.version  # nothing to send up to it (cannot be: each version has its change)


_EVENT = EventSchema()


#: the stream's first lines, sent at once (its headers with them): how soon EventSource opens it again once ended
OPENING = f"retry: {FEED_RETRY_MS}\n\n"


def _sent(changes: Iterator[list[Event]]) -> Iterator[str]:
    """Each change as an event of the stream, after its opening lines."""
    yield OPENING
    for items in changes:
        yield "".join(
            f"id: {item.version}\ndata: {json.dumps(_EVENT.dump(item), separators=(',', ':'))}\n\n" for item in items
        )


def _read_events(game: GameRow, after: int, limit: int) -> tuple[GameRow, list[Event]]:
    """The game read again and its first ``limit`` events after ``after``,
    in this request's session, so that the two are of one moment."""
    return GameRow.read(game.id) or game, events_after(game.id, after, limit)
