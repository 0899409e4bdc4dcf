"""Every error the API returns, as ``application/problem+json`` (RFC 9457),
built here and nowhere else."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, json, request
from marshmallow import INCLUDE, Schema, fields
from redis.exceptions import ConnectionError as StoreConnectionError
from redis.exceptions import TimeoutError as StoreTimeoutError
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from werkzeug.exceptions import HTTPException, InternalServerError

from referee import GameStateError, IllegalKnockError, RefereeError
from schemas.rulings import ARRANGEMENT, Steps, step_dicts

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://ginref.org/problems/"
RULES_BASE = "https://ginref.org/rules#"  # + the rule's number: docs/rules.md#r14 tells it to players

# Every problem type the API answers with (a rule break's type is RULES_BASE + its rule).
INVALID_CONTENT = TYPE_BASE + "invalid-content"
MALFORMED_JSON = TYPE_BASE + "malformed-json"
NOT_FOUND = TYPE_BASE + "not-found"
CONFLICT = TYPE_BASE + "conflict"
SEATING_MOVED = TYPE_BASE + "seating-moved"
STALE_DISPUTE = TYPE_BASE + "stale-dispute"
TOO_LARGE = TYPE_BASE + "too-large"
URI_TOO_LONG = TYPE_BASE + "uri-too-long"
UNAUTHORIZED = TYPE_BASE + "unauthorized"
FORBIDDEN = TYPE_BASE + "forbidden"
PRECONDITION_REQUIRED = TYPE_BASE + "precondition-required"
PRECONDITION_FAILED = TYPE_BASE + "precondition-failed"
IDEMPOTENCY = TYPE_BASE + "idempotency"
RATE_LIMITED = TYPE_BASE + "rate-limited"
UNAVAILABLE = TYPE_BASE + "unavailable"
SERVER_ERROR = TYPE_BASE + "server-error"

log = logging.getLogger(__name__)


#: the referee's evidence that a problem carries under the evidence's own
#: name: ``handle_referee_error`` copies each of these an error has
EVIDENCE_MEMBERS: dict[str, fields.Field] = {
    "players": fields.List(fields.Raw(), metadata={"description": "R9: players who must cut again"}),
    "hands": fields.List(fields.Integer(), metadata={"description": "R26: hands a correction would strand"}),
    "deadwood": fields.Integer(metadata={"description": "R14: the deadwood count judged"}),
    "limit": fields.Integer(metadata={"description": "R14: the knock limit"}),
    "count": fields.Integer(metadata={"description": "R21: how many cards were given"}),
    "meld": fields.Raw(metadata={"description": "The meld concerned"}),
}
#: the referee's evidence that a problem carries as the member ``offending``
OFFENDING_EVIDENCE = ("card", "value", "text")


class ProblemSchema(Schema):
    """RFC 9457 problem details, with the members this API adds (and room for
    more: RFC 9457 allows extension members)."""

    class Meta:
        unknown = INCLUDE
        include = EVIDENCE_MEMBERS  # after the members declared here

    type = fields.String(
        required=True,
        metadata={"description": "URI of the problem type; for a rule violation it ends in the rule number, e.g. #R14"},
    )
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "JSON field path -> messages naming the offending value"},
    )
    rule = fields.String(metadata={"description": "The rule broken (RULES.md), e.g. R14"})
    offending = fields.Raw(metadata={"description": "The offending value"})
    legal_arrangement = fields.Raw(metadata={"description": "R14: a legal arrangement, if any"})
    seating = fields.Dict(metadata={"description": "R11 (seating-moved): who sits where now (or played that hand)"})
    given = fields.Dict(metadata={"description": "seating-moved: the seating the hand named"})
    revision = fields.Integer(metadata={"description": "stale-dispute: the hand's revision disputed"})
    current_revision = fields.Integer(metadata={"description": "stale-dispute: the hand's revision now"})
    game = fields.Dict(metadata={"description": "412: the game as it is now"})
    explanation = Steps(
        metadata={
            "description": "R14, R15, R18, R23: why, step by step, as a ruling's explanation "
            "(an illegal knock: the arrangement judged and the limit; an illegal layoff: "
            "the layoffs before it, then why it does not fit)"
        }
    )


class Problem(Exception):  # noqa: N818 (RFC 9457's name for what it carries)
    """An error response to raise from a view (409 conflicts, 404s, ...)."""

    def __init__(
        self, status: int, detail: str, *, title: str | None = None, type: str | None = None, **members: Any
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.title = title
        self.type = type
        self.members = members


def not_found(what: str, ident: object) -> Problem:
    return Problem(404, f"there is no {what} {ident}", type=NOT_FOUND)


def invalid(field: str, message: str, **members: Any) -> Problem:
    """A 422 naming the field (a JSON path) and what is wrong with its value."""
    return Problem(422, f"{field}: {message}", type=INVALID_CONTENT, errors={field: [message]}, **members)


def conflict(detail: str, **members: Any) -> Problem:
    return Problem(409, detail, type=CONFLICT, **members)


def seating_moved(given: dict[str, int], seating: dict[str, int], *, number: int | None = None) -> Problem:
    """A 409: the hand names players in seats they no longer hold (R11), or
    (``number``, a correction) not the seats that hand was played in."""
    two = "dealer" in seating  # R28: a two-player game's seats
    where = ", ".join(f"{role} {seating[role]}" for role in (("dealer", "non_dealer") if two else ROLE_NAMES))
    named = ", ".join(f"{role} {player}" for role, player in given.items())
    detail = (
        f"hand {number} was played by {where}, not {named} (R26: a correction keeps its seating)"
        if number is not None
        else f"the seating has moved on ({'R28' if two else 'R11'}): now {where}, not {named}; say again who knocked"
    )
    rule = "R26" if number is not None else "R28" if two else "R11"
    return Problem(409, detail, type=SEATING_MOVED, rule=rule, seating=seating, given=given)


ROLE_NAMES = ("box", "captain", "sitter")


def stale_dispute(dispute: Any, revision: int | None) -> Problem:
    """A 409: the dispute is of a version of its hand that no longer stands."""
    return Problem(
        409,
        f"dispute {dispute.id} is of revision {dispute.revision} of hand {dispute.number}, which is now at "
        f"revision {revision}: the hand was corrected, undone or replaced since; open a dispute of it as it is now",
        type=STALE_DISPUTE,
        rule="R26",
        revision=dispute.revision,
        current_revision=revision,
    )


def problem_response(
    status: int,
    detail: str | None = None,
    *,
    title: str | None = None,
    type: str | None = None,
    headers: Mapping[str, str] | None = None,
    **members: Any,
) -> Response:
    body: dict[str, Any] = {"type": type or "about:blank", "title": title or _phrase(status), "status": status}
    if detail:
        body["detail"] = detail
    body.update({k: v for k, v in members.items() if v is not None})
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def flatten_messages(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages as ``{"knocker_hand.cards[3]": [...]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            if key == "_schema":
                path = prefix or "body"
            elif isinstance(key, int):
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            for p, msgs in flatten_messages(value, path).items():
                out.setdefault(p, []).extend(msgs)
    elif isinstance(messages, list | tuple):
        if all(isinstance(m, str) for m in messages):
            out[prefix or "body"] = [str(m) for m in messages]
        else:
            for item in messages:
                for p, msgs in flatten_messages(item, prefix).items():
                    out.setdefault(p, []).extend(msgs)
    else:
        out[prefix or "body"] = [str(messages)]
    return out


def _summary(errors: dict[str, list[str]]) -> str:
    return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in errors.items())


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    headers: dict[str, str] = dict(data.get("headers") or {})
    if status == 405 and getattr(error, "valid_methods", None):
        headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    messages = data.get("messages")
    if status == 400 or (messages and messages.get("json") == ["Invalid JSON body."]):
        return problem_response(400, "the request body is not valid JSON", type=MALFORMED_JSON, headers=headers)
    if messages:
        # webargs puts body errors under "json", query errors under "query"
        errors: dict[str, list[str]] = {}
        for location, inner in messages.items():
            for path, msgs in flatten_messages(inner).items():
                key = path if location == "json" else f"{location}.{path}"
                errors.setdefault(key, []).extend(msgs)
        return problem_response(status, _summary(errors), type=INVALID_CONTENT, errors=errors, headers=headers)
    if status == 413:
        return problem_response(
            413, "the request body is larger than this API accepts", type=TOO_LARGE, headers=headers
        )
    if status >= 500:
        log.exception("server error", exc_info=error)
    return problem_response(status, error.description, headers=headers)


def handle_problem(problem: Problem) -> Response:
    members = dict(problem.members)
    headers = members.pop("headers", None)
    return problem_response(
        problem.status, problem.detail, title=problem.title, type=problem.type, headers=headers, **members
    )


def handle_referee_error(error: RefereeError) -> Response:
    if isinstance(error, GameStateError):  # the game's state forbids it: a conflict, not bad content
        return problem_response(
            409, f"{error.message} ({error.rule})", type=CONFLICT, rule=error.rule, hands=error.evidence.get("hands")
        )
    field = error.field or "body"
    members: dict[str, Any] = {"errors": {field: [error.message]}}
    rule = error.rule if error.rule.startswith("R") else None
    if rule:
        members["rule"] = rule
    for key in (*OFFENDING_EVIDENCE, *EVIDENCE_MEMBERS):
        if key in error.evidence:
            members["offending" if key in OFFENDING_EVIDENCE else key] = error.evidence[key]
    if isinstance(error, IllegalKnockError):
        legal = error.evidence.get("legal_arrangement")
        members["legal_arrangement"] = None if legal is None else ARRANGEMENT.dump(legal)
    if error.evidence.get("explanation") is not None:
        members["explanation"] = step_dicts(error.evidence["explanation"])
    type_ = RULES_BASE + rule if rule else INVALID_CONTENT
    title = f"Rule {rule}" if rule else "Invalid content"
    response = problem_response(422, f"{field}: {error.message}", title=title, type=type_, **members)
    if isinstance(error, IllegalKnockError) and members.get("legal_arrangement") is None:
        body = json.loads(response.get_data())
        body["legal_arrangement"] = None
        response.set_data(json.dumps(body))
    return response


def handle_recursion(error: RecursionError) -> Response:
    """Only a pathologically nested request body gets this deep."""
    return problem_response(400, "the request body is nested too deeply", type=MALFORMED_JSON)


def handle_unexpected(error: Exception) -> Response:
    log.exception("unexpected error", exc_info=error)
    return problem_response(500, "the server failed to handle this request", type=SERVER_ERROR)


RETRY_AFTER = 2  # seconds: a lock, a restart or a failover is often over by then

#: PostgreSQL errors (SQLSTATE) that say "not now" rather than "never": nothing was
#: committed, and the same request may well succeed when retried.
TRANSIENT_SQLSTATES = {
    "55P03": "another transaction held a lock on this data longer than the lock timeout",
    "57014": "a statement ran longer than the statement timeout",
    "25P03": "the transaction was idle longer than the database allows",
    "40P01": "the write deadlocked with another one",
    "53300": "the database has no connection free",
    "57P01": "the database is shutting down or restarting",
    "57P02": "the database is shutting down or restarting",
    "57P03": "the database is starting up",
}
SQLITE_BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED (and their extended codes)


def unavailable_cause(error: BaseException) -> str | None:
    """Why the database or the rate-limit store could not serve this request
    now (a lock or statement timeout, a dropped or refused connection, a busy
    SQLite file), or None if ``error`` is a bug or a lasting fault (a 500)."""
    if isinstance(error, StoreConnectionError | StoreTimeoutError):
        return "the rate-limit store did not answer"
    if isinstance(error, TimeoutError):
        return str(error) or "the database did not answer in time"
    if isinstance(error, PoolTimeoutError):  # every connection of this worker's pool busy for pool_timeout
        return "no connection to the database was free in time"
    if not isinstance(error, DBAPIError):
        return None
    if error.connection_invalidated:
        return "the connection to the database dropped"
    orig = error.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if sqlstate is not None:
        if sqlstate.startswith("08"):  # connection exception
            return "the connection to the database failed"
        return TRANSIENT_SQLSTATES.get(sqlstate)
    if getattr(orig, "sqlite_errorcode", -1) & 0xFF in SQLITE_BUSY:
        return "the database was busy with another write for longer than the busy timeout"
    if isinstance(error, OperationalError) and type(orig).__module__.split(".")[0] in ("psycopg", "psycopg2"):
        return "the database cannot be reached"  # no SQLSTATE: no answer from a server
    return None


def handle_unavailable(error: Exception) -> Response:
    """A 503 with Retry-After for a database or store that timed out or is out
    of reach; any other database error stays a 500."""
    cause = unavailable_cause(error)
    if cause is None:
        return handle_unexpected(error)
    first_line = str(getattr(error, "orig", None) or error).strip().splitlines()[:1]
    log.warning(
        "503 for %s %s: %s (%s: %s)",
        request.method,
        request.path,
        cause,
        type(error).__name__,
        first_line[0] if first_line else "",
    )
    return problem_response(
        503,
        f"{cause}: retry in {RETRY_AFTER} s",
        type=TYPE_BASE + "unavailable",
        headers={"Retry-After": str(RETRY_AFTER)},
    )


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Problem, handle_problem)
    app.register_error_handler(RefereeError, handle_referee_error)
    app.register_error_handler(InternalServerError, handle_http_exception)
    app.register_error_handler(RecursionError, handle_recursion)
    for unavailable in (DBAPIError, TimeoutError, PoolTimeoutError, StoreConnectionError, StoreTimeoutError):
        app.register_error_handler(unavailable, handle_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
