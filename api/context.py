"""The request and its ``g``, taken from werkzeug's proxies once.

Each attribute read through ``flask.request`` or ``flask.g`` first fails on
the proxy itself (raising and formatting an ``AttributeError``) before the
proxy looks up the object it stands for: a hook that reads several of them
takes the object once and reads it directly."""

from __future__ import annotations

from typing import cast

from flask import Request, g, request
from flask.ctx import _AppCtxGlobals


def current_request() -> Request:
    """The request being handled, not its proxy."""
    return cast(Request, request._get_current_object())  # type: ignore[attr-defined]


def request_g() -> _AppCtxGlobals:
    """The request's ``g``, not its proxy."""
    return cast(_AppCtxGlobals, g._get_current_object())  # type: ignore[attr-defined]
