"""Request bodies and paths, bounded before anything reads them.

- A body is refused (413) past its limit whatever its framing: with a
  ``Content-Length`` werkzeug refuses it; a chunked body (no length) is read
  here up to one byte past the limit, never truncated to it.
- JSON is UTF-8 (RFC 8259): a byte order mark, UTF-16 or UTF-32 text or
  bytes that are not UTF-8 are a 400 saying which.
- JSON is parsed with bounded numbers: an integer of more than
  ``MAX_DIGITS`` digits, or a number that is not finite, is a 422 naming its
  JSON path (Python's own limit would be a ``ValueError`` deep in a parser).
- Path ids are canonical ASCII decimals (``/games/46``): ``/games/0046`` and
  ``/games/٤٦`` name nothing (404).
"""

from __future__ import annotations

import io
from typing import Any

import flask_smorest
import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask.wrappers import Request
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import BaseConverter, ValidationError

from api.context import current_request
from api.errors import MALFORMED_JSON, Problem, handle_problem, invalid
from schemas.numbers import MAX_DIGITS, NotUtf8Error, NumberOutOfRangeError, loads

MAX_ID = 2147483647
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class BoundedJSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """A response body, compact, written by orjson (text as UTF-8, not
        escaped); what orjson cannot write (an integer past 64 bits, echoed
        in an error) and any other layout go to the standard library. Dates
        and dataclasses go through Flask's ``default``, as before."""
        if kwargs == _COMPACT:
            try:
                return orjson.dumps(obj, default=self.default, option=self._orjson_options()).decode()
            except TypeError:
                pass
        return super().dumps(obj, **kwargs)

    def _orjson_options(self) -> int:
        options = _ORJSON_OPTIONS
        return options | orjson.OPT_SORT_KEYS if self.sort_keys else options


_COMPACT = {"separators": (",", ":")}
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class ApiRequest(Request):
    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if isinstance(e, NumberOutOfRangeError | NotUtf8Error):
            raise e
        return super().on_json_loading_failed(e)


class BoundedParser(FlaskParser):
    """webargs' Flask parser reading JSON bodies with bounded numbers."""

    def get_default_request(self) -> Request:
        """The request being handled (itself, not its proxy: api.context)."""
        return current_request()

    def _raw_load_json(self, req: Request) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return loads(data)


def out_of_range(error: NumberOutOfRangeError) -> Problem:
    shown = error.text if len(error.text) <= 40 else f"{error.text[:20]}...({len(error.text)} characters)"
    return invalid(
        error.path,
        f"the number {shown} is out of range: integers have at most {MAX_DIGITS} digits, and numbers must be finite",
    )


def not_utf8(error: NotUtf8Error) -> Problem:
    return Problem(400, f"the request body is not UTF-8 JSON (RFC 8259): {error.reason}", type=MALFORMED_JSON)


class IdConverter(BaseConverter):
    """A resource id in a path: ASCII digits, no leading zero, 1 to 2**31-1."""

    regex = r"[1-9][0-9]{0,9}"
    part_isolating = True

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValidationError()
        return number

    def to_url(self, value: Any) -> str:
        return str(int(value))


def id_schema(_converter: IdConverter) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": MAX_ID}


def read_chunked_body(req: Request) -> None:
    """Before anything else reads it (app.init_request_limits): a body of
    ``req`` without a Content-Length is read here, at most one byte past the
    request's limit; over it is a 413."""
    environ = req.environ
    if req.method not in WRITE_METHODS or environ.get("CONTENT_LENGTH"):
        return
    if "wsgi.input_terminated" not in environ:
        return  # werkzeug reads no body it cannot delimit
    limit = req.max_content_length
    stream = environ["wsgi.input"]
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(65536 if limit is None else min(65536, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if limit is not None and size > limit:
            raise RequestEntityTooLarge()
    data = b"".join(chunks)
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    req.__dict__.pop("stream", None)  # werkzeug caches the stream it wrapped


def init_bodies(app: Flask) -> None:
    app.json = BoundedJSONProvider(app)
    app.register_error_handler(NumberOutOfRangeError, lambda error: handle_problem(out_of_range(error)))
    app.register_error_handler(NotUtf8Error, lambda error: handle_problem(not_utf8(error)))
    app.request_class = ApiRequest
    app.url_map.converters["id"] = IdConverter


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest's Blueprint, parsing JSON bodies with bounded numbers."""

    ARGUMENTS_PARSER = BoundedParser()
