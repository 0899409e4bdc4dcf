"""How each write and each read of a league or game is guarded, declared on
its view, and documented from the same declaration: keys, ETags,
Idempotency-Key and error responses.

Every write route declares :func:`keyed_write` or :func:`open_write`, and
every read route of one league or game (a path with ``game_id`` or
``league_id``) declares :func:`keyed_read`; api.guards enforces what the
declaration says, and refuses to start an app with a route that declares
none.

A view is handed what its guard found as keyword arguments, as
flask-smorest's ``arguments`` hands it the body: ``game`` (the game in the
path, a write's locked row or a read's row) and ``credential`` (the key a
write is made with; for a read, the key a private one is read with, else
None), each when its signature names it.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from apispec import BasePlugin
from flask import Flask, g

F = TypeVar("F", bound=Callable[..., Any])

ETAG_HEADER = {
    "ETag": {
        "description": "The game's version; send it back in If-Match to write its hands",
        "schema": {"type": "string"},
    }
}
NOT_MODIFIED = "Not Modified: the game is as the client's ETag (If-None-Match)"
IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "schema": {"type": "string"},
    "description": "The game's current ETag (from GET /games/{game_id} or the last write)",
}
SECURITY: list[dict[str, list[str]]] = [{"bearerAuth": []}]
# A read needs a key only when its league or game is private: a key is optional.
READ_SECURITY: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 16, "maxLength": 255, "pattern": "^[!-~]+$"},
    "description": "Makes a retry safe: the same key (16 to 255 visible ASCII characters, random: a UUID "
    "will do) with the same body gets the first successful answer again, with "
    "`Idempotent-Replayed: true`, for 24 hours, and the write is done once. Replayed only to "
    "the key (Authorization) that made the write; with another body or query string it is a 422.",
}


Scope = Literal["open", "game", "league", "league_in_body"]


@dataclass(frozen=True, slots=True)
class WriteGuard:
    """What a write needs before its view runs (enforced by api.guards).

    ``scope``: ``open`` (no key), ``game`` (the key of the game in the path,
    or of its league; the game's row is locked), ``league`` (the key of the
    league in the path; its row is locked), ``league_in_body`` (the key of
    the league named by the body's ``league_id``, if any). ``if_match``: the
    game's ETag is ``required`` or checked when given (``optional``).
    ``rotates_key``: the write revokes the key it is made with, so the retry
    of that very write is still answered to it. ``bulk``: the write brings
    years of play in one body (the import): its body may be as large as
    ``IMPORT_MAX_CONTENT_LENGTH`` and is read by its view as it arrives, and
    it counts against ``RATELIMIT_IMPORTS`` too (api.limits)."""

    scope: Scope
    if_match: Literal["required", "optional"] | None = None
    rotates_key: bool = False
    bulk: bool = False


def keyed_write(
    *,
    scope: Scope,
    if_match: Literal["required", "optional"] | None = None,
    conflict: bool = True,
    rotates_key: bool = False,
) -> Callable[[F], F]:
    """A write that needs a key (401, 403), may not find its resource (404),
    and optionally needs If-Match (412, 428)."""

    def decorate(func: F) -> F:
        func.write_guard = WriteGuard(scope, if_match, rotates_key)  # type: ignore[attr-defined]
        responses: dict[int, str | dict[str, Any]] = {
            401: "UNAUTHORIZED",
            403: "FORBIDDEN",
            404: "NOT_FOUND",
            422: "UNPROCESSABLE_ENTITY",
            429: "TOO_MANY_REQUESTS",
        }
        if conflict:
            responses[409] = "CONFLICT"
        params: list[dict[str, Any]] = [IDEMPOTENCY_KEY]
        if if_match is not None:
            responses[412], responses[428] = "PRECONDITION_FAILED", "PRECONDITION_REQUIRED"
            params.append({**IF_MATCH, "required": if_match == "required"})
        func.guard_doc = GuardDoc(responses, SECURITY, params)  # type: ignore[attr-defined]
        return _handed(func)

    return decorate


ReadScope = Literal["game", "league"]


@dataclass(frozen=True, slots=True)
class ReadGuard:
    """What a read of one league or game needs before its view runs
    (enforced by api.guards.guard_read).

    ``scope``: ``game`` (the game in the path: a game in a league is read
    with the league's keys) or ``league`` (the league in the path). ``key``:
    ``read`` (any key of it, write or share, if it is private; none if it is
    public) or ``write`` (its write key, always). ``conditional``: the
    read's ETag is its game's (scope ``game``), so an ``If-None-Match`` that
    matches it is answered 304 by the guard, once the read is allowed, and
    the view does not run."""

    scope: ReadScope
    key: Literal["read", "write"] = "read"
    conditional: bool = False


def keyed_read(
    *, scope: ReadScope, key: Literal["read", "write"] = "read", conditional: bool = False
) -> Callable[[F], F]:
    """A read of one league or game, which must not show a private one to
    anyone without one of its keys.

    Put it under the view's ``blp.response`` (the path must name
    ``game_id`` or ``league_id``, as ``scope`` says)::

        @blp.route("/<id:game_id>/events", methods=["GET"])
        @blp.response(200, EventsSchema)
        @keyed_read(scope="game")
        def list_events(game_id: int) -> ...:

    Before the view runs (and before its query arguments are read), an
    unknown id, or a private league or game read without one of its keys
    (``Authorization: Bearer <key>``: its write key or a share key, not
    revoked), is the same 404 as an unknown id, so a private one's existence
    never shows. A public one reads with no key (one given is ignored).
    ``key="write"``: the read needs the write key even when public (401
    without a key, 403 with a share key or another's). ``conditional=True``
    (scope ``game``): the view answers with its game's ETag, and a request
    whose ``If-None-Match`` matches it gets the 304 from the guard, which
    this declaration documents, with its ETag header."""
    if conditional and scope != "game":
        raise ValueError("only a game's read answers If-None-Match with the game's ETag")

    def decorate(func: F) -> F:
        func.read_guard = ReadGuard(scope, key, conditional)  # type: ignore[attr-defined]
        responses: dict[int, str | dict[str, Any]] = {404: "NOT_FOUND"}
        if conditional:
            responses[304] = {"description": NOT_MODIFIED, "headers": ETAG_HEADER}
        security = READ_SECURITY
        if key == "write":
            responses[401], responses[403] = "UNAUTHORIZED", "FORBIDDEN"
            security = SECURITY
        func.guard_doc = GuardDoc(responses, security)  # type: ignore[attr-defined]
        return _handed(func)

    return decorate


def open_write(*, parameters: Sequence[dict[str, Any]] = (), bulk: bool = False) -> Callable[[F], F]:
    """A write anyone may make (it needs no key), still rate-limited;
    ``parameters``: the write's own, documented before Idempotency-Key;
    ``bulk``: see :class:`WriteGuard`."""

    def decorate(func: F) -> F:
        func.write_guard = WriteGuard("open", bulk=bulk)  # type: ignore[attr-defined]
        func.guard_doc = GuardDoc({429: "TOO_MANY_REQUESTS"}, parameters=[*parameters, IDEMPOTENCY_KEY])  # type: ignore[attr-defined]
        return _handed(func)

    return decorate


#: what a guard hands its view, by the name of the view's keyword argument
HANDED = ("game", "credential")


def _handed(func: F) -> F:
    """``func``, handed what its guard found (:data:`HANDED`) when it names any of it."""
    wanted = tuple(name for name in HANDED if name in inspect.signature(func).parameters)
    if not wanted:
        return func

    @functools.wraps(func)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        found = g.guarded  # api.guards, for this request, before the view runs
        return func(*args, **kwargs, **{name: getattr(found, name) for name in wanted})

    return cast(F, guarded)


@dataclass(frozen=True, slots=True)
class GuardDoc:
    """What a guard's declaration documents of its operation: the error
    responses it may answer (a status and the name of flask-smorest's
    response for it, or a response of its own), its security, and the
    parameters it reads (Idempotency-Key, If-Match, a write's own)."""

    responses: dict[int, str | dict[str, Any]]
    security: list[dict[str, list[str]]] | None = None
    parameters: list[dict[str, Any]] = field(default_factory=list)


class GuardDocsPlugin(BasePlugin):  # type: ignore[misc]
    """Documents each operation as its guard's declaration says
    (:class:`GuardDoc`, set on its view by :func:`keyed_write`,
    :func:`open_write` and :func:`keyed_read`): through apispec's plugin
    interface, so that the views carry no wrapper for their documentation."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        rule = kwargs.get("rule")
        if rule is None or not operations:
            return
        view = self.app.view_functions[rule.endpoint]
        for method, operation in operations.items():
            doc = getattr(getattr(getattr(view, "view_class", None), method, view), "guard_doc", None)
            if not isinstance(doc, GuardDoc):
                continue
            doc = copy.deepcopy(doc)  # each operation its own: the spec shares no object between two
            operation.setdefault("responses", {}).update(doc.responses)
            if doc.security is not None:
                operation["security"] = doc.security
            if doc.parameters:
                operation["parameters"] = [*operation.get("parameters", []), *doc.parameters]
