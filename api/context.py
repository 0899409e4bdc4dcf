"""The request and its ``g``: Flask's own proxies, through one name each.

The hooks, guards and views ask for them here (``current_request()``,
``request_g()``) rather than each importing ``flask.request`` and
``flask.g``, so that what they read of the request is in one place."""

from __future__ import annotations

from typing import Any

from flask import Request, g, request


def current_request() -> Request:
    """The request being handled (Flask's ``request``)."""
    return request


def request_g() -> Any:
    """The request's ``g`` (Flask's), whose attributes the hooks set and read."""
    return g
