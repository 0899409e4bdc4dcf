"""Checks that run before a write reaches its view, in this order:

1. who is writing to what: the key (401, 403) and the resource (404); a
   game's row is locked here for the write;
2. the rate limit (429), counted per *valid* key, else per client address:
   made-up keys share their address's budget;
3. an idempotent retry (api.idempotency): replayed to the credential that
   made the first request, before any precondition;
4. the game's ETag (428, 412).

Nothing is written for a request before it is authenticated.

Which key a write needs: a league's key for the league and every game in it;
a game's own key for a game outside any league. Creating a league, importing
one, creating a game outside a league, creating a player and the referee
endpoints need no key: they hand out keys or touch no one's data. A share
key never writes (403). A write to a private league or game with no key that
reads it (missing, unknown, revoked, another's) is answered as if it did not
exist (404; for a game's ``league_id``, the 422 of an unknown league, after
the same checks of the body, in the same order, as for a league that is not
there).

Reads of one league or game (:func:`guard_read`, declared with
api.docs.keyed_read) are the same 404 as an unknown id when the league or
game is private and the request has none of its keys, write or share.
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass
from typing import Any

from flask import Flask, Request, Response, g, request
from sqlalchemy import select
from werkzeug.datastructures import ETags

from api import idempotency
from api.body import WRITE_METHODS
from api.context import current_flask, current_g, current_request
from api.docs import ReadGuard, WriteGuard
from api.errors import (
    FORBIDDEN,
    PRECONDITION_FAILED,
    PRECONDITION_REQUIRED,
    UNAUTHORIZED,
    Problem,
    handle_problem,
    invalid,
    not_found,
)
from api.limits import count_write
from models import League, db
from models.game import GameRow, GameView
from models.league import PRIVATE
from models.security import WRITE, KeyRow, StaleKeyError, find_key, hash_key, lock_game_with_key
from models.visibility import Audience, league_audience, read_game_audience, read_game_tag
from schemas.games import GameSchema

READ_METHODS = {"GET", "HEAD"}


def _unauthorized(detail: str, error: str | None = None) -> Problem:
    challenge = 'Bearer realm="ginref"' + (f', error="{error}"' if error else "")
    return Problem(401, detail, type=UNAUTHORIZED, headers={"WWW-Authenticate": challenge})


def bearer_key() -> str | None:
    header = request.environ.get("HTTP_AUTHORIZATION", "")  # the WSGI key: no KeyError raised when absent
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


@dataclass
class Access:
    """Who writes, to what: the outcome of step 1; for a read, who reads
    what. Its ``game`` and ``credential`` are handed to the view (api.docs)."""

    credential: KeyRow | None = None  # the valid key this write is made with (a private read's key)
    error: Problem | None = None  # raised after the write is counted
    revoked: KeyRow | None = None  # a revoked key: its own rotation may still be replayed to it
    game: GameRow | None = None  # the game written to, locked (or read)
    if_match: str | None = None  # "required" or "optional"


def unknown_league(league_id: int) -> Problem:
    """A game's ``league_id`` that names no league (or a private one the
    request cannot read): a 422, whoever finds it."""
    return invalid("league_id", f"there is no league {league_id}", offending=league_id)


def league_unseen(league_id: int) -> bool:
    """Whether this request named a private league it cannot read in its
    body (its guard let it through as a write naming no league): the view
    answers it as it answers an unknown league, with the same checks in the
    same order."""
    return bool(g.get("unseen_league") == league_id)


def _known(digest: str | None, row: KeyRow | None) -> KeyRow | None:
    """The key row, if it is the one the request's key hashes to."""
    if digest is None or row is None or not hmac.compare_digest(row.key_hash, digest):
        return None
    return row


def _credential(
    digest: str | None,
    row: KeyRow | None,
    *,
    league_id: int | None,
    game_id: int | None,
    access: Access,
    hidden: Problem | None = None,
) -> KeyRow:
    """The key, if it may write to this league or game: 401 without a key,
    with an unknown or a revoked one; 403 with another's, or with a share
    key. ``hidden``: the league or game is private, and a request whose key
    does not read it gets this (the answer to an unknown id) instead."""
    if hidden is not None:
        known = _known(digest, row)
        if known is None or not known.reads(league_id=league_id, game_id=game_id):
            if known is not None and known.revoked_at is not None:
                access.revoked = known  # its own rotation may still be replayed to it
            raise hidden
    if digest is None:
        raise _unauthorized("this write needs the key of its league or game: Authorization: Bearer <key>")
    if row is None or not hmac.compare_digest(row.key_hash, digest):
        raise _unauthorized("unknown key", "invalid_token")
    if row.revoked_at is not None:
        access.revoked = row
        raise _unauthorized("this key was revoked (rotated)", "invalid_token")
    if not row.gives(league_id=league_id, game_id=game_id):
        what = f"league {league_id}" if league_id is not None else f"game {game_id}"
        raise Problem(403, f"this key does not give access to {what}", type=FORBIDDEN)
    if row.kind != WRITE:
        raise Problem(403, "a share key only reads: writes need the write key", type=FORBIDDEN)
    return row


def _digest() -> str | None:
    key = bearer_key()
    return None if key is None else hash_key(key)


def _game(game_id: int, access: Access) -> GameRow:
    """The game's row, locked for this write (handed to its view as
    ``game``), if the request's key may write to it."""
    digest = _digest()
    found = lock_game_with_key(game_id, digest)
    if found is None:
        raise not_found("game", game_id)
    game, audience, key_row = found
    access.game = game
    hidden = not_found("game", game_id) if audience.private else None
    access.credential = _credential(
        digest, key_row, league_id=audience.league_id, game_id=audience.game_id, access=access, hidden=hidden
    )
    return game


def _league(league_id: int, access: Access, *, hidden: Problem | None = None) -> None:
    """The league's row, locked for this write, if the request's key may
    write to it. ``hidden``: the answer when it is private and the request
    cannot read it (by default, the league's 404)."""
    visibility = db.session.scalar(select(League.visibility).where(League.id == league_id).with_for_update())
    if visibility is None:
        raise not_found("league", league_id)
    digest = _digest()
    access.credential = _credential(
        digest,
        None if digest is None else find_key(digest),
        league_id=league_id,
        game_id=None,
        access=access,
        hidden=(hidden or not_found("league", league_id)) if visibility == PRIVATE else None,
    )


def _resolve(guard: WriteGuard, access: Access, req: Request) -> None:
    """Step 1, as the write's route declares it (api.docs.WriteGuard)."""
    args: dict[str, Any] = req.view_args or {}
    access.if_match = guard.if_match
    if guard.scope == "game":
        _game(args["game_id"], access)
    elif guard.scope == "league":
        _league(args["league_id"], access)
    elif guard.scope == "league_in_body":
        body = req.get_json(silent=True)
        league_id = body.get("league_id") if isinstance(body, dict) else None
        if (
            isinstance(league_id, int)
            and not isinstance(league_id, bool)
            and 0 < league_id <= 2147483647
            and db.session.get(League, league_id) is not None
        ):  # an unknown league is the view's 422
            hidden = unknown_league(league_id)
            try:
                _league(league_id, access, hidden=hidden)
            except Problem as problem:
                if problem is not hidden:
                    raise
                # as an unknown league: no credential, and the view's checks, in its order, then its 422
                access.credential = None
                g.unseen_league = league_id


#: RFC 9110, section 8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, in a list
_ENTITY_TAG = re.compile(r'[ \t]*(W/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|\Z)')
_LIST_GAP = re.compile(r"[ \t,]*")


def entity_tags(header: str) -> tuple[ETags, bool]:
    """The entity tags of an If-Match or If-None-Match header (RFC 9110),
    and whether it held anything else. An unquoted ``g13v1`` is no entity
    tag, in either header: it matches nothing (werkzeug's ``parse_etags``
    would read it as the tag ``"g13v1"``).

    >>> tags, other = entity_tags('"g1v2", W/"g1v1", g1v3')
    >>> sorted(tags.as_set(include_weak=True)), tags.contains_weak("g1v1"), other
    (['g1v1', 'g1v2'], True, True)
    """
    if header.strip() == "*":
        return ETags(star_tag=True), False
    strong: list[str] = []
    weak: list[str] = []
    other = False
    at = 0
    while True:
        gap = _LIST_GAP.match(header, at)
        at = gap.end() if gap else at
        if at >= len(header):
            return ETags(strong, weak), other
        tag = _ENTITY_TAG.match(header, at)
        if tag is None:
            other = True
            comma = header.find(",", at)
            if comma < 0:
                return ETags(strong, weak), other
            at = comma + 1
            continue
        (weak if tag.group(1) else strong).append(tag.group(2))
        at = tag.end()


def _check_if_match(game: GameView, req: Request) -> None:
    """RFC 9110: If-Match compares strongly (a weak tag never matches), and
    ``*`` matches the game that is there; what is not an entity tag matches
    nothing (:func:`entity_tags`). A tag from before a change that left the
    hands and rules as they were (a dispute opened or rejected) still
    matches: the write it guards would find the same hands."""
    current = game.etag
    header = req.headers.get("If-Match")
    if not header:
        raise Problem(
            428,
            f"writes to a game's hands need If-Match with the game's ETag (now {current})",
            type=PRECONDITION_REQUIRED,
            headers={"ETag": current},
        )
    given, other = entity_tags(header)
    if not (given.star_tag or any(game.guards(tag) for tag in given.as_set())):
        unquoted = "; an entity tag is quoted, as the ETag header gives it" if other else ""
        raise Problem(
            412,
            f"the game's hands or rules have changed: its ETag is now {current} "
            f"(a weak W/ tag never matches{unquoted})",
            type=PRECONDITION_FAILED,
            headers={"ETag": current},
            game=GameSchema().dump(game),
        )


class NotModified(Response):
    """A 304: no body, so no Content-Type to set and then take off again."""

    default_mimetype = None


def not_modified(etag: str, req: Request) -> Response | None:
    """A read's answer to If-None-Match (RFC 9110: compared weakly): 304 with
    no body when the client's copy is current. The header as a client sends
    it back, the one tag it was given, is compared as it is; any other is
    parsed (:func:`entity_tags`: an unquoted tag matches nothing)."""
    header = req.environ.get("HTTP_IF_NONE_MATCH")  # by its WSGI key: no KeyError raised when absent
    if not header:
        return None
    if header != etag:
        given, _ = entity_tags(header)
        if not (given.star_tag or given.contains_weak(etag.strip('"'))):
            return None
    return NotModified(status=304, headers={"ETag": etag})


def scope_of(credential: KeyRow | None) -> str:
    """Whose retries these are: a key's, or (for writes that need none) anyone's
    who holds the Idempotency-Key itself."""
    return "open" if credential is None else f"key:{credential.id}"


def guard_write() -> Response | None:
    """before_request: steps 1 to 4 above, for every write (the request and
    ``g`` taken once, see api.context)."""
    req = current_request()
    if req.method not in WRITE_METHODS or req.endpoint is None:
        return None
    guard: WriteGuard = current_flask().extensions["write_guards"][req.endpoint, req.method]
    access = Access()
    try:
        _resolve(guard, access, req)
    except Problem as problem:
        access.error = problem
    count_write(None if access.credential is None else f"key:{access.credential.id}", bulk=guard.bulk)
    if access.error is not None:
        if access.revoked is not None and guard.rotates_key:
            # the retry of the rotation that revoked this very key gets its answer
            replay = idempotency.replay_only(scope_of(access.revoked))
            if replay is not None:
                return replay
        raise access.error
    replay = idempotency.begin(scope_of(access.credential))
    if replay is not None:
        return replay
    if access.game is not None and (access.if_match == "required" or req.environ.get("HTTP_IF_MATCH")):
        _check_if_match(access.game, req)
    current_g().guarded = access
    return None


def _audience(guard: ReadGuard, args: dict[str, Any], access: Access) -> Audience | None:
    """The league or game the read is of (None if there is none). A game's
    row is read with it, once: its view is handed it as ``game``."""
    if guard.scope == "game":
        found = read_game_audience(args["game_id"])
        if found is None:
            return None
        access.game, audience = found
        return audience
    return league_audience(args["league_id"])


def _missing(guard: ReadGuard, args: dict[str, Any]) -> Problem:
    """The 404 of an unknown league or game, which a private one read without its keys gets too."""
    return not_found(guard.scope, args[f"{guard.scope}_id"])


def guard_read() -> Response | None:
    """before_request, for every read its route declares a guard for
    (api.docs.keyed_read): an unknown id, or a private league or game without
    one of its keys, is a 404, the same answer either way; a read that needs
    the write key is 401 or 403 without it. Runs before the view reads its
    query arguments, so that their errors cannot tell the two 404s apart.
    A conditional read of a game whose ``If-None-Match`` matches the game's
    ETag is answered 304 here, once it is allowed."""
    req = current_request()
    if req.method not in READ_METHODS or req.endpoint is None:
        return None
    guard: ReadGuard | None = current_flask().extensions["read_guards"].get(req.endpoint)
    if guard is None:
        return None
    args: dict[str, Any] = req.view_args or {}
    access = current_g().guarded = Access()
    if guard.conditional and req.environ.get("HTTP_IF_NONE_MATCH"):
        # the client holds a copy: its ETag and audience first, the game only if it has moved
        found = read_game_tag(args["game_id"])
        if found is None:
            raise _missing(guard, args)
        etag, held = found
        _allow(guard, args, access, held)
        answer = not_modified(etag, req)
        if answer is not None:
            return answer
    audience = _audience(guard, args, access)
    if audience is None:
        raise _missing(guard, args)
    _allow(guard, args, access, audience)
    if not guard.conditional or not req.environ.get("HTTP_IF_NONE_MATCH"):
        return None
    assert access.game is not None  # a conditional read is of a game (api.docs.keyed_read)
    return not_modified(access.game.etag, req)


def _allow(guard: ReadGuard, args: dict[str, Any], access: Access, audience: Audience) -> None:
    """A private league or game without one of its keys is a 404, a read
    that needs the write key 401 or 403 without it; a public one's key, if
    any, is not even looked at."""
    if not (audience.private or guard.key == "write"):
        return
    digest = _digest()
    row = None if digest is None else find_key(digest)
    known = _known(digest, row)
    if audience.private and (known is None or not known.reads(league_id=audience.league_id, game_id=audience.game_id)):
        raise _missing(guard, args)
    if audience.private:
        access.credential = known  # a wait on the game's feed ends once it is revoked
    if guard.key == "write":
        _credential(digest, row, league_id=audience.league_id, game_id=audience.game_id, access=Access())


def declared_read_guards(app: Flask) -> dict[str, ReadGuard]:
    """Each guarded read route's guard, by endpoint; a read route of one
    league or game (``game_id`` or ``league_id`` in its path) that declares
    none, or one whose scope its path does not name, is an error here."""
    guards: dict[str, ReadGuard] = {}
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or set()):
            continue
        view = app.view_functions[rule.endpoint]
        guard = getattr(getattr(getattr(view, "view_class", None), "get", view), "read_guard", None)
        names = rule.arguments & {"game_id", "league_id"}
        if not isinstance(guard, ReadGuard):
            if names:
                raise RuntimeError(
                    f"GET {rule.rule} ({rule.endpoint}) reads one league or game but declares no read "
                    "guard: give its view keyed_read (api.docs)"
                )
            continue
        if f"{guard.scope}_id" not in names:
            raise RuntimeError(f"GET {rule.rule} ({rule.endpoint}) declares scope {guard.scope!r} but has no such id")
        guards[rule.endpoint] = guard
    return guards


def declared_guards(app: Flask) -> dict[tuple[str, str], WriteGuard]:
    """Each write route's declared guard, by (endpoint, method); a write route
    that declares none is an error here, before the app serves anything."""
    guards: dict[tuple[str, str], WriteGuard] = {}
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        for method in sorted((rule.methods or set()) & WRITE_METHODS):
            handler = getattr(getattr(view, "view_class", None), method.lower(), view)
            guard = getattr(handler, "write_guard", None)
            if not isinstance(guard, WriteGuard):
                raise RuntimeError(
                    f"{method} {rule.rule} ({rule.endpoint}) declares no guard: "
                    "give its view keyed_write or open_write (api.docs)"
                )
            guards[rule.endpoint, method] = guard
    return guards


def _stale_key(_error: StaleKeyError) -> Response:
    return handle_problem(_unauthorized("this key was revoked meanwhile, by another rotation", "invalid_token"))


def init_guards(app: Flask) -> None:
    """After every route is registered."""
    app.extensions["write_guards"] = declared_guards(app)
    app.extensions["read_guards"] = declared_read_guards(app)
    app.before_request(guard_write)
    app.before_request(guard_read)
    app.register_error_handler(StaleKeyError, _stale_key)
