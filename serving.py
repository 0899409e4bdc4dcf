"""The gunicorn worker for production (``worker_class`` in gunicorn.conf.py).

gunicorn's gevent worker: each connection is a greenlet, not a thread, so a
phone waiting on its game's feed (up to 25 s) costs a few kilobytes and no
thread; the worker serves thousands at once while ``/health``, the reads and
the writes go on (``FEED_WAITERS`` bounds the waits below the worker's
connections). psycopg (3.1.14 on) cooperates with gevent by itself, and the
standard library's sockets, locks and sleeps are gevent's once the worker has
patched them, before the app is loaded.

One change to it: every answer gunicorn gives itself (a request it cannot
parse or that is over its limits: a bad request line, a bad header or
``Content-Length``, a header too large, a malformed chunked body) is
``application/problem+json``, built by ``api.errors`` like every other error,
with ``Connection: close``; not gunicorn's HTML page. A chunked body that
breaks while the application reads it is the same 400, not the
application's 500.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from http import HTTPStatus
from ssl import SSLError
from typing import Any

from gunicorn import util
from gunicorn.http import errors
from gunicorn.http.message import MAX_REQUEST_LINE, TOKEN_RE
from gunicorn.http.wsgi import Response, default_environ
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import BadRequest

TYPE_BASE = "https://ginref.org/problems/"
MALFORMED = TYPE_BASE + "malformed-request"
SERVER_ERROR = TYPE_BASE + "server-error"


def _shown(value: object, limit: int = 80) -> str:
    """A client's bytes, quoted and cut short, for a detail."""
    text = repr(str(value))
    return text if len(text) <= limit else text[:limit] + "...'"


def _header_detail(name: str) -> str:
    if name == "CONTENT-LENGTH":
        return "Content-Length must be one non-negative decimal integer, sent once and never with Transfer-Encoding"
    if name == "TRANSFER-ENCODING":
        return "Transfer-Encoding must end in chunked, once, on HTTP/1.1"
    if name == "bare LF as line terminator":
        return "every line of the request head must end in CRLF, not a bare LF"
    if ":" not in name and TOKEN_RE.fullmatch(name):
        return f"the value of header {name} has a control character"
    return f"a header line is not 'name: value': {_shown(name)}"


def describe(exc: BaseException, cfg: Any) -> tuple[int, str, str]:  # noqa: C901 (one branch per error)
    """(status, problem type, detail) for an error gunicorn meets before or
    outside the application; 500 for anything that is not the client's."""
    if isinstance(exc, errors.LimitRequestLine):
        limit = cfg.limit_request_line if 0 < cfg.limit_request_line < MAX_REQUEST_LINE else MAX_REQUEST_LINE
        return 414, TYPE_BASE + "uri-too-long", f"the request line is longer than {limit} bytes"
    if isinstance(exc, errors.LimitRequestHeaders):
        if exc.msg == "limit request headers fields":
            detail = f"the request has more than {cfg.limit_request_fields} header fields"
        elif exc.msg == "limit request headers fields size":
            detail = f"a header field is longer than {cfg.limit_request_field_size} bytes"
        else:
            detail = "the request head is larger than the header limits allow in all"
        return 431, TYPE_BASE + "header-too-large", detail
    if isinstance(exc, errors.InvalidRequestLine):
        return 400, MALFORMED, "the request line is not 'METHOD target HTTP/1.1'"
    if isinstance(exc, errors.InvalidRequestMethod):
        return 400, MALFORMED, f"the method {_shown(exc.method)} is not a valid HTTP method"
    if isinstance(exc, errors.InvalidHTTPVersion):
        version = exc.version
        shown = f"HTTP/{version[0]}.{version[1]}" if isinstance(version, tuple) else _shown(version)
        return 400, MALFORMED, f"the HTTP version {shown} is not supported: use HTTP/1.1"
    if isinstance(exc, errors.InvalidHeaderName):
        return 400, MALFORMED, f"{_shown(exc.hdr)} is not a valid header name"
    if isinstance(exc, errors.ObsoleteFolding):
        return 400, MALFORMED, f"header {_shown(exc.hdr)} is folded over several lines (obsolete, RFC 9112 5.2)"
    if isinstance(exc, errors.InvalidHeader) and not isinstance(exc, errors.InvalidResponseHeader):
        return 400, MALFORMED, _header_detail(str(exc.hdr))
    if isinstance(exc, errors.UnsupportedTransferCoding):
        return (
            501,
            TYPE_BASE + "unsupported-transfer-coding",
            f"the transfer coding {_shown(exc.hdr)} is not supported: send the body chunked or with Content-Length",
        )
    if isinstance(exc, errors.InvalidChunkSize | errors.ChunkMissingTerminator | errors.InvalidChunkExtension):
        return 400, MALFORMED, f"the chunked request body is malformed: {exc}"
    if isinstance(exc, errors.NoMoreData):
        return 400, MALFORMED, "the connection ended before the whole request body arrived"
    if isinstance(exc, errors.ExpectationFailed):
        return 417, TYPE_BASE + "expectation-failed", "Expect can only be 100-continue"
    if isinstance(exc, errors.ForbiddenProxyRequest | SSLError):
        return 403, TYPE_BASE + "forbidden", str(exc)
    if isinstance(exc, errors.InvalidProxyLine | errors.InvalidSchemeHeaders | errors.InvalidH2CPreface):
        return 400, MALFORMED, str(exc)
    return 500, SERVER_ERROR, "the server failed to handle this request"


def _problem(status: int, type_: str, detail: str) -> Any:
    from api.errors import problem_response  # the application loads in the workers, not in the master

    return problem_response(status, detail, type=type_)


def problem_bytes(status: int, type_: str, detail: str) -> bytes:
    """A complete HTTP/1.1 response carrying the problem; the connection closes after it."""
    body = bytes(_problem(status, type_, detail).get_data())
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        f"Date: {util.http_date()}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class UnreadableBody(BadRequest):
    """The request body broke off or is malformed (raised to the application
    from ``wsgi.input``; the worker answers with the problem it describes)."""

    def __init__(self, cause: Exception) -> None:
        super().__init__(str(cause))
        self.cause = cause


class _CheckedReader:
    """The body's reader (chunked or by length): an error reading it closes the
    connection after the answer, and becomes an ``UnreadableBody``."""

    def __init__(self, reader: Any, req: Any) -> None:
        self.reader = reader
        self.req = req
        self.error: Exception | None = None

    def read(self, size: int) -> bytes:
        try:
            return bytes(self.reader.read(size))
        except (errors.ParseException, errors.NoMoreData) as err:
            self.req.force_close()
            self.error = err
            raise UnreadableBody(err) from err


def _no_write(data: bytes) -> None:
    raise RuntimeError("the WSGI write() callable is not supported: return the body")


class _BodyProblems:
    """WSGI middleware: when the body could not be read, the answer is the
    problem with that cause, whatever the application made of it."""

    def __init__(self, app: Callable[..., Iterable[bytes]], cfg: Any) -> None:
        self.app = app
        self.cfg = cfg

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        reader = getattr(environ.get("wsgi.input"), "reader", None)
        if not isinstance(reader, _CheckedReader):
            return self.app(environ, start_response)
        started: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], Any]:
            started[:] = [status, headers, exc_info]
            return _no_write

        result = self.app(environ, start)
        if reader.error is None:
            start_response(*started)
            return result
        if hasattr(result, "close"):
            result.close()
        response = _problem(*describe(reader.error, self.cfg))
        start_response(response.status, list(response.headers.items()))
        return [response.get_data()]


class ApiWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker answering its own errors as problem+json (see
    the module's docstring)."""

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = _BodyProblems(self.wsgi, self.cfg)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        req.body.reader = _CheckedReader(req.body.reader, req)
        return super().handle_request(listener_name, req, sock, addr)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        try:
            self._answer_problem(req, client, addr or ("", -1), exc)  # ("", -1): a unix socket
        except Exception:  # never leave the client without an answer: gunicorn's own then
            self.log.exception("Failed to build the problem for %r", exc)
            super().handle_error(req, client, addr, exc)

    def _answer_problem(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        started = datetime.now()
        if req is None and isinstance(exc, errors.InvalidHeader):
            req = getattr(exc, "req", None)  # for the access log
        status, type_, detail = describe(exc, self.cfg)
        data = problem_bytes(status, type_, detail)
        if type_ == SERVER_ERROR:
            self.log.exception("Error handling request %s", getattr(req, "uri", "(no URI read)"))
        else:
            self.log.warning("Invalid request from ip=%s: %s", addr[0], exc)
        if req is not None and getattr(req, "method", None):
            environ = default_environ(req, client, self.cfg)
            environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = addr[0], str(addr[1])
            resp = Response(req, client, self.cfg)
            resp.status = f"{status} {HTTPStatus(status).phrase}"
            resp.response_length = len(data)
            self.log.access(resp, req, environ, datetime.now() - started)
        try:
            util.write_nonblock(client, data)
        except Exception:
            self.log.debug("Failed to send error message.")
