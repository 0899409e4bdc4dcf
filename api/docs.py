"""Shared OpenAPI documentation for the views: keys, ETags and error responses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask_smorest import Blueprint

F = TypeVar("F", bound=Callable[..., Any])

ETAG_HEADER = {"ETag": {"description": "The game's version; send it back in If-Match to write its hands",
                        "schema": {"type": "string"}}}
IF_MATCH = {"in": "header", "name": "If-Match", "schema": {"type": "string"},
            "description": "The game's current ETag (from GET /games/{game_id} or the last write)"}
SECURITY = [{"bearerAuth": []}]


def keyed_write(blp: Blueprint, *, if_match: str | None = None, conflict: bool = True) -> Callable[[F], F]:
    """Document a write that needs a key (401, 403), may not find its
    resource (404), and optionally needs If-Match (412, 428)."""

    def decorate(func: F) -> F:
        func = blp.alt_response(401, response="UNAUTHORIZED")(func)
        func = blp.alt_response(403, response="FORBIDDEN")(func)
        func = blp.alt_response(404, response="NOT_FOUND")(func)
        func = blp.alt_response(429, response="TOO_MANY_REQUESTS")(func)
        if conflict:
            func = blp.alt_response(409, response="CONFLICT")(func)
        params: list[dict[str, Any]] = []
        if if_match is not None:
            func = blp.alt_response(412, response="PRECONDITION_FAILED")(func)
            func = blp.alt_response(428, response="PRECONDITION_REQUIRED")(func)
            params.append({**IF_MATCH, "required": if_match == "required"})
        return blp.doc(security=SECURITY, parameters=params)(func)  # type: ignore[no-any-return]

    return decorate


def open_write(blp: Blueprint) -> Callable[[F], F]:
    """A write anyone may make (it needs no key), still rate-limited."""

    def decorate(func: F) -> F:
        return blp.alt_response(429, response="TOO_MANY_REQUESTS")(func)  # type: ignore[no-any-return]

    return decorate
