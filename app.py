"""ginref: the scorekeeping and referee API for three-handed Gin Rummy.

``create_app`` builds the application in named steps; nothing runs at import.
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import FunctionType, MethodType
from typing import Any, cast
from urllib.parse import unquote

import click
import swagger_ui_bundle
from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from flask import Flask, Response, send_from_directory
from flask.cli import AppGroup
from flask_cors import CORS
from flask_migrate import Migrate, upgrade
from flask_smorest import Api
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from api import idempotency, register_blueprints
from api.addresses import page_addresses
from api.body import WRITE_METHODS, IdConverter, id_schema, init_bodies, read_chunked_body
from api.context import current_g, current_request
from api.docs import GuardDocsPlugin, WriteGuard
from api.errors import (
    PROBLEM_JSON,
    UNAVAILABLE,
    URI_TOO_LONG,
    Problem,
    ProblemSchema,
    conflict,
    handle_problem,
    problem_response,
    register_error_handlers,
)
from api.guards import init_guards
from api.limits import init_write_limits
from models import ApiKey, Game, League, db, init_engine_events
from models.database import (
    JSON_ENGINE_OPTIONS,
    commit_held,
    drop_held,
    hold_connection,
    release_connection,
    write_transaction,
    writing,
)
from models.events import VersionWatch
from models.security import WRITE, rotate_key
from models.sqlite import WriterQueueTimeoutError
from models.standings import pending_stores
from models.verify import check_books, snapshot

log = logging.getLogger(__name__)

# One version string: the project's (pyproject.toml), which the spec's info.version repeats.
API_VERSION = tomllib.loads((Path(__file__).resolve().parent / "pyproject.toml").read_text())["project"]["version"]


class SchemaKeywordsConverter(OpenAPIConverter):  # type: ignore[misc]
    """Copies a schema's whole-body keywords (``Meta.json_schema``, e.g. the
    ``oneOf`` of a hand's three forms) into the spec: apispec reads keywords
    per field only."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        json_schema: dict[str, Any] = super().schema2jsonschema(schema)
        json_schema.update(getattr(getattr(schema, "Meta", None), "json_schema", {}))
        return json_schema


class SchemaKeywordsPlugin(MarshmallowPlugin):  # type: ignore[misc]
    Converter = SchemaKeywordsConverter


class ReplayHeaderPlugin(BasePlugin):  # type: ignore[misc]
    """Every write's success answers may be a replay: the spec says so
    (``Idempotent-Replayed: true``, api.idempotency)."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            if method.upper() not in WRITE_METHODS:
                continue
            for status, response in operation.get("responses", {}).items():
                if str(status).startswith("2") and isinstance(response, dict):
                    response.setdefault("headers", {})["Idempotent-Replayed"] = {
                        "description": "true when this is the stored answer to an earlier request with the "
                        "same Idempotency-Key (the write was not done again)",
                        "schema": {"type": "string", "enum": ["true"]},
                    }


class GinrefFlask(Flask):
    """Flask, remembering which of its hooks and views are plain functions:
    ``ensure_sync`` asks ``inspect.iscoroutinefunction`` of every hook of
    every request otherwise (a dozen per request, the same functions, and
    a view's methods, bound anew for each request)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if type(func) is MethodType:  # a view's method, bound anew for each request: by its function
            function = func.__func__
            if self._sync.get(function) is function:  # a plain function, known to be one
                return func
            bound = super().ensure_sync(func)
            if bound is func and type(function) is FunctionType:
                self._sync[function] = function
            return bound
        if type(func) is not FunctionType:
            return super().ensure_sync(func)
        sync = self._sync.get(func)
        if sync is None:
            sync = self._sync[func] = super().ensure_sync(func)
        return sync


class ProblemResponsesPlugin(BasePlugin):  # type: ignore[misc]
    """The error responses flask-smorest registers for every status (with
    ``ERROR_SCHEMA``) are documented as ``application/problem+json``, the
    type every error is answered with."""

    def response_helper(self, response: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        content = response.get("content") or {}
        if list(content) != ["application/json"]:
            return None
        return {"content": {PROBLEM_JSON: content["application/json"]}}


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest's Api, documenting every error as application/problem+json."""

    ERROR_SCHEMA = ProblemSchema


def load_config(app: Flask, test_config: dict[str, Any] | None) -> None:
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    default_db = "sqlite:///" + str(Path(app.instance_path) / "ginref.sqlite3")
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL", default_db),
        SQLALCHEMY_ENGINE_OPTIONS={},
        MAX_CONTENT_LENGTH=64 * 1024,
        IMPORT_MAX_CONTENT_LENGTH=64 * 1024 * 1024,  # about 80,000 hands by cards; FLASK_IMPORT_MAX_CONTENT_LENGTH
        MAX_URL_LENGTH=8192,
        # Writes per key (or client address), see api/limits.py; several workers must
        # share the storage, e.g. FLASK_RATELIMIT_STORAGE_URI=redis://127.0.0.1:6379/0
        RATELIMIT_ENABLED=True,
        RATELIMIT_WRITES="120 per minute",
        RATELIMIT_IMPORTS="10 per hour",
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_STRATEGY="moving-window",  # no burst of twice the limit across a window's edge
        RATELIMIT_KEY_PREFIX="ginref",
        EVENTS_POLL_INTERVAL=0.1,  # seconds between the reads of the versions of games being waited on
        # Requests that may wait on the feeds at once, per worker process, and from one client address
        # (0: no bound); one more gets a 429 at once. The gevent worker's connections (gunicorn.conf.py)
        # stay above FEED_WAITERS, so /health, the reads and the writes always find one.
        FEED_WAITERS=2000,
        FEED_WAITERS_PER_CLIENT=200,
        # Seconds a feed's wait or stream lasts at most, whatever its `wait` asks (at most 25): lower it
        # behind a proxy that closes a silent connection sooner.
        FEED_MAX_WAIT=25.0,
        LISTEN=None,  # host:port the server listens on (the Makefile sets FLASK_LISTEN): GET /api/v1/addresses
        PAGE_ADDRESSES=None,  # or the page's URLs for other phones, e.g. FLASK_PAGE_ADDRESSES='["https://gin.example/"]'
        # "*" (any origin but null) or a comma-separated list, e.g. GINREF_CORS_ORIGINS=https://club.example,
        # https://gin.example (or a JSON list: FLASK_CORS_ORIGINS='["https://club.example"]'); never "null"
        CORS_ORIGINS=os.environ.get("GINREF_CORS_ORIGINS", "*"),
        API_TITLE="ginref",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/docs/static/",
        API_SPEC_OPTIONS={
            "info": {
                "description": "Scorekeeping and referee API for three-handed Gin Rummy. "
                "Rules are cited by number (R1-R26)."
            },
        },
    )
    app.config.from_prefixed_env()
    if test_config:
        app.config.update(test_config)


migrate = Migrate()


#: PostgreSQL settings for every connection, in seconds, each overridden by the
#: config key named (``FLASK_DATABASE_LOCK_TIMEOUT=2``); 0 sends none, leaving the
#: server's own (none by default; a role's, e.g. behind PgBouncer, which refuses
#: startup options).
SERVER_TIMEOUTS = {
    # a write waiting on a row another transaction holds (a stuck game) gives up: 503
    "lock_timeout": ("DATABASE_LOCK_TIMEOUT", 5.0),
    # any statement running longer (the gunicorn timeout is 30 s)
    "statement_timeout": ("DATABASE_STATEMENT_TIMEOUT", 15.0),
    # a transaction left open by a request stalled midway releases its locks
    "idle_in_transaction_session_timeout": ("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT", 30.0),
}
#: A worker's pool on a database server: connections kept open, none opened
#: beyond them. SQLAlchemy's default (5, and 10 more opened under load and
#: closed again as soon as 5 are idle) opens and closes PostgreSQL connections
#: all through a busy evening, a server process started each time: with
#: 2,000 phones following their games, that churn took more of the machine
#: than the phones themselves, and the writes and the phones' asks waited on
#: it (bench/load.py). Given by SQLALCHEMY_ENGINE_OPTIONS, each is the caller's;
#: the workers' pools together (GINREF_WORKERS x pool_size; the feed's watch
#: keeps one of its worker's) must stay under the server's max_connections.
SERVER_POOL = {"pool_size": 15, "max_overflow": 0}
CONNECT_TIMEOUT = ("DATABASE_CONNECT_TIMEOUT", 5)  # seconds (libpq: at least 2) to reach the server
#: libpq's TCP settings (connect parameters), each overridden by the config key
#: named; 0 sends none, leaving the system's. A server that goes silent (a
#: network partition, a host gone) is given up on, and its request answered 503:
#: a statement sent and not acknowledged after DATABASE_TCP_USER_TIMEOUT (10 s);
#: a connection waiting on an answer gets a keepalive probe after 5 s of quiet,
#: then every 2 s, and is dropped after 2 unanswered (9 s). The statement_timeout
#: above bounds what a server that does answer runs (15 s).
TCP_SETTINGS = {
    "tcp_user_timeout": ("DATABASE_TCP_USER_TIMEOUT", 10.0, 1000),  # seconds, sent in ms
    "keepalives_idle": ("DATABASE_KEEPALIVES_IDLE", 5, 1),  # seconds of quiet before the first probe
    "keepalives_interval": ("DATABASE_KEEPALIVES_INTERVAL", 2, 1),  # seconds between probes
    "keepalives_count": ("DATABASE_KEEPALIVES_COUNT", 2, 1),  # probes unanswered before the connection is dead
}


def postgresql_connect_args(config: dict[str, Any], uri: str, connect_args: dict[str, Any]) -> dict[str, Any]:
    """``connect_args`` with the server timeouts added to libpq's ``options``
    (after any the URL or ``connect_args`` give, e.g. ``-csearch_path=...``;
    one they set already is theirs), a connect timeout and the TCP settings
    (``TCP_SETTINGS``, each unless given)."""

    query = make_url(uri).query
    url_options = query.get("options", ())
    given = [*([url_options] if isinstance(url_options, str) else url_options)]
    if connect_args.get("options"):
        given.append(str(connect_args["options"]))
    options = " ".join(given)
    for setting, (key, default) in SERVER_TIMEOUTS.items():
        seconds = float(config.get(key, default))
        if seconds < 0:
            raise ValueError(f"{key} must be a number of seconds >= 0 (0: the server's own), not {seconds}")
        if seconds and f"{setting}=" not in options:
            options = f"{options} -c {setting}={round(seconds * 1000)}".strip()
    args = {**connect_args, "options": options} if options else dict(connect_args)
    if "connect_timeout" not in query:
        key, default = CONNECT_TIMEOUT
        args.setdefault("connect_timeout", int(config.get(key, default)))
    for parameter, (key, default, unit) in TCP_SETTINGS.items():
        value = float(config.get(key, default))
        if value < 0:
            raise ValueError(f"{key} must be a number >= 0 (0: the system's own), not {value}")
        if value and parameter not in query:
            args.setdefault(parameter, round(value * unit))
    if any(parameter.startswith("keepalives_") for parameter in args) and "keepalives" not in query:
        args.setdefault("keepalives", 1)
    return args


def init_database(app: Flask) -> None:
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    # the app's own copy: the caller's dict (one config, several apps) stays as it was given
    engine_options = app.config["SQLALCHEMY_ENGINE_OPTIONS"] = dict(app.config["SQLALCHEMY_ENGINE_OPTIONS"])
    for name, value in JSON_ENGINE_OPTIONS.items():
        engine_options.setdefault(name, value)
    if not uri.startswith("sqlite"):
        # A server connection can drop (a restart, a proxy's idle timeout): test it
        # at checkout. A SQLite file cannot drop, so it skips the extra statement.
        engine_options.setdefault("pool_pre_ping", True)
        for name, size in SERVER_POOL.items():
            engine_options.setdefault(name, size)
    if uri.startswith("postgresql"):
        # A hang (a lock held by a stuck transaction, a runaway statement, a server
        # that does not answer) becomes an error the API answers as a 503.
        engine_options["connect_args"] = postgresql_connect_args(
            app.config, uri, engine_options.get("connect_args", {})
        )
    db.init_app(app)
    migrate.init_app(app, db, directory=str(Path(__file__).resolve().parent / "migrations"))
    with app.app_context():
        init_engine_events(db.engine)


def _rollback() -> None:
    """Nothing of this write is kept. A connection that died under it fails
    its rollback too: the answer already says what happened."""
    try:
        db.session.rollback()
    except SQLAlchemyError as err:
        log.warning("rollback on a lost connection: %s", err)
    drop_held()


def _failed_commit(err: SQLAlchemyError, pending: idempotency.Pending | None) -> Response:
    """The truth about a write whose commit failed: its stored answer if it
    is in the database after all, else a 409 (a concurrent twin's conflict)
    or a 503 (not confirmed)."""
    _rollback()
    if not isinstance(err, IntegrityError):
        log.error("a write's commit failed: %s", err)
    try:
        known = None if pending is None else idempotency.committed(pending)
    except SQLAlchemyError:
        _rollback()
        known = None
    except Problem as problem:  # a concurrent twin with another body won
        return handle_problem(problem)
    if known is not None:
        return known
    if isinstance(err, IntegrityError):
        return handle_problem(
            conflict(
                "this write conflicted with another made at the same time, "
                "and nothing was saved: read the resource and try again"
            )
        )
    detail = (
        "the database did not confirm this write, so it may not have been saved: retry it with the same Idempotency-Key"
        if pending is not None
        else "the database did not confirm this write, so it may not have been saved: read the "
        "resource before sending it again (writes with an Idempotency-Key can simply be retried)"
    )
    return problem_response(503, detail, type=UNAVAILABLE, headers={"Retry-After": "1"})


def _store_read_books(stores: list[Callable[[], None]]) -> None:
    """What a read recounted of a league's stale books (models.standings),
    stored once its answer is built, in a write transaction of its own. If
    that fails, the books stay stale for the next read to recount, and the
    answer stands: it was worked out from the hand logs."""
    try:
        db.session.rollback()  # the read's transaction ends: the store takes the writer's turn afresh
        with write_transaction():
            for store in stores:
                store()
            db.session.commit()
    except (SQLAlchemyError, WriterQueueTimeoutError) as err:
        log.warning("a read's recount of a league's books was not stored: %s", err)
        _rollback()


def init_write_requests(app: Flask) -> None:
    """Every transaction of a request that may write starts as a write
    (BEGIN IMMEDIATE on SQLite): one that reads first and then tries to write
    would fail when another worker wrote in between.

    A write request holds one connection and one transaction for all of its
    statements, the driver's and the session's (models.database.hold_connection).
    It is committed here, once its response is built, together with the
    record of that response for its Idempotency-Key: the views flush, and a
    refused write (4xx, 5xx) is rolled back whole. This is the one commit
    point of a request: a read that recounted a league's stale books has
    them stored here too, once its answer is built. When the commit fails, the
    answer is the truth: the stored response if the write is in the database
    after all, else a 503 saying it was not saved."""

    @app.before_request
    def _writes() -> None:
        if current_request().method in WRITE_METHODS:
            kept = current_g()
            kept.writing_token = writing.set(True)
            kept.holding_token = hold_connection()

    @app.after_request
    def _commit(response: Response) -> Response:
        if current_request().method not in WRITE_METHODS:
            if db.session.registry.has():
                stores = pending_stores()
                if stores and response.status_code < 400:
                    _store_read_books(stores)
            return response
        pending = current_g().pop("idempotency", None)
        if response.status_code >= 400 or response.headers.getlist("Idempotent-Replayed"):
            _rollback()
            return response
        try:
            if pending is not None:
                idempotency.store(pending, response)
            if db.session.registry.has():
                db.session.commit()  # its flush: the request's connection commits the transaction
            commit_held()
        except SQLAlchemyError as err:
            return _failed_commit(err, pending)
        return response

    @app.teardown_request
    def _done(_exc: BaseException | None) -> None:
        kept = current_g()
        kept.pop("guarded", None)
        token = kept.pop("writing_token", None)
        if token is not None:
            release_connection(kept.pop("holding_token"))
            writing.reset(token)


def init_request_limits(app: Flask) -> None:
    """A bulk write (the import, as its route declares: api.docs.WriteGuard)
    takes years of play in one body; everything else stays small."""

    @app.before_request
    def _body_limit() -> None:
        req = current_request()
        if len(req.full_path) > app.config["MAX_URL_LENGTH"]:
            raise Problem(414, f"the URL is longer than {app.config['MAX_URL_LENGTH']} characters", type=URI_TOO_LONG)
        guard: WriteGuard | None = app.extensions["write_guards"].get((req.endpoint, req.method))
        if guard is not None and guard.bulk:
            req.max_content_length = app.config["IMPORT_MAX_CONTENT_LENGTH"]
            read_chunked_body(req)
            return  # read once, by its view, before its transaction begins
        read_chunked_body(req)
        if req.method in WRITE_METHODS:
            # The whole body arrives before the write guard locks its game (or, on
            # SQLite, takes the writer's turn): a phone that stalls mid-body holds
            # up nobody but itself.
            req.get_data(cache=True)

    init_write_limits(app)


def init_docs(app: Flask) -> None:
    """Swagger UI served from the installed bundle: works offline."""

    @app.route("/docs/static/<path:filename>")
    def swagger_static(filename: str) -> Any:
        return send_from_directory(swagger_ui_bundle.swagger_ui_path, filename)


CORS_RESOURCE = r"/api/*"  # flask-cors reads it as a regular expression: every path that starts with /api
#: "*": every origin but ``null``, which sandboxed frames, file: pages and
#: redirected requests send, so that it names no site (a pattern, not "*":
#: flask-cors would allow null with it).
ANY_ORIGIN_BUT_NULL = [re.compile(r"(?!null\Z).+\Z", re.IGNORECASE)]


def cors_origins(given: str | list[str]) -> list[str | re.Pattern[str]]:
    """The origins flask-cors allows, for ``CORS_ORIGINS``: ``*``, a
    comma-separated list, or a list. ``null`` is refused, never allowed."""
    listed = given.split(",") if isinstance(given, str) else list(given)
    origins = [origin.strip() for origin in listed if origin.strip()]
    if origins == ["*"]:
        return list(ANY_ORIGIN_BUT_NULL)
    if any(origin.lower() == "null" for origin in origins):
        raise ValueError("CORS_ORIGINS: the null origin is never allowed (any page can send it)")
    if not origins:
        raise ValueError("CORS_ORIGINS: give * or at least one origin (e.g. https://club.example)")
    return list(origins)


def init_cors(app: Flask) -> None:
    """Browsers may call /api/v1 from any origin but ``null`` by default
    (GINREF_CORS_ORIGINS narrows it): there are no cookies, a write needs its
    bearer key."""
    CORS(
        app,
        resources={CORS_RESOURCE: {"origins": cors_origins(app.config["CORS_ORIGINS"])}},
        allow_headers=["Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key"],
        expose_headers=["ETag", "Location", "Retry-After", "Idempotent-Replayed", "Content-Disposition"],
        methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        max_age=600,
    )
    funcs = app.after_request_funcs[None]
    funcs[-1] = remembered_cors(cast(Callable[[Response], Response], funcs[-1]))  # CORS's, just registered


_ORIGIN, _PRIVATE_NETWORK = "Access-Control-Allow-Origin", "Access-Control-Request-Private-Network"
_REMEMBERED_ORIGINS = 64


def remembered_cors(cors: Callable[[Response], Response]) -> Callable[[Response], Response]:
    """flask-cors's after_request, its answer remembered. Outside a preflight
    (OPTIONS, which it answers from the request's Access-Control-Request-*
    headers), the headers it adds depend on nothing but whether the path is
    of its resource, the request's Origin and its private-network header: they
    are worked out once for each (flask-cors adding them to an empty
    response), for the first few dozen origins, and added as they are; a
    tenth of a conditional read's instructions went into working them out
    again."""
    resource = re.compile(CORS_RESOURCE)
    remembered: dict[tuple[bool, str | None, str | None], list[tuple[str, str]]] = {}

    def after(response: Response) -> Response:
        req = current_request()
        if req.method == "OPTIONS" or response.headers.getlist(_ORIGIN):
            return cors(response)  # a preflight; or CORS headers were set already, which flask-cors keeps
        environ = req.environ  # its headers by their WSGI keys: an absent one raises no KeyError
        key = (
            resource.match(unquote(req.path)) is not None,
            environ.get("HTTP_ORIGIN"),
            environ.get("HTTP_ACCESS_CONTROL_REQUEST_PRIVATE_NETWORK"),  # _PRIVATE_NETWORK
        )
        added = remembered.get(key)
        if added is None:
            empty = Response()
            before = list(empty.headers.items())
            cors(empty)
            added = list(empty.headers.items())[len(before) :]
            if len(remembered) < _REMEMBERED_ORIGINS:
                remembered[key] = added
        for name, value in added:
            response.headers.add(name, value)
        return response

    return after


def init_events(app: Flask) -> None:
    """The watch that wakes requests waiting on a game's events
    (EVENTS_POLL_INTERVAL: how often, in seconds, it reads the versions of the
    games being waited on)."""
    with app.app_context():
        app.extensions["version_watch"] = VersionWatch(
            db.engine,
            float(app.config["EVENTS_POLL_INTERVAL"]),
            most=int(app.config["FEED_WAITERS"]),
            per_client=int(app.config["FEED_WAITERS_PER_CLIENT"]),
        )


#: The table page (web/): static files only, a client of /api/v1 like any other.
WEB = Path(__file__).resolve().parent / "web"
#: Nothing the page loads or calls may come from another origin.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def init_page(app: Flask) -> None:
    """The table page at ``/``, its files under ``/web/``: reads, no state of its own."""

    def _page(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.cache_control.no_cache = True  # revalidated (304) on every load, so a new release shows at once
        return response

    @app.route("/")
    def table_page() -> Response:
        """The table page: start a game, score it, see the league."""
        return _page(send_from_directory(WEB, "index.html"))

    @app.route("/web/<path:filename>")
    def table_page_file(filename: str) -> Response:
        return _page(send_from_directory(WEB, filename))

    @app.route("/sw.js")
    def table_page_worker() -> Response:
        """The page's service worker, at the root so that it may keep the page itself (scope /)."""
        return _page(send_from_directory(WEB, "sw.js"))

    @app.cli.command("address")
    @click.argument("bind", default="127.0.0.1:5000")
    def print_address(bind: str) -> None:
        """Print where the table page can be opened, for a server listening on BIND (host:port)."""
        for line in page_addresses(bind):
            click.echo(f"The table page: {line}")


def init_health(app: Flask) -> None:
    @app.route("/health")
    def health() -> dict[str, str]:
        """Liveness: answers without touching the database."""
        return {"status": "ok"}


def init_commands(app: Flask) -> None:
    @app.cli.command("init-db")
    def init_db() -> None:
        """Create or upgrade the database schema (run once before serving)."""
        upgrade(directory=migrate.directory)
        click.echo(f"database ready: {db.engine.url.render_as_string(hide_password=True)}")

    keys = AppGroup("keys", help="Issue write keys for leagues and games.")

    @keys.command("issue")
    @click.option("--league", "league_id", type=int, help="League id")
    @click.option("--game", "game_id", type=int, help="Game id (a game outside any league)")
    def issue_key(league_id: int | None, game_id: int | None) -> None:
        """Issue a new key for one league or game, revoking its old keys."""
        if (league_id is None) == (game_id is None):
            raise click.UsageError("give --league or --game")
        if league_id is not None and db.session.get(League, league_id) is None:
            raise click.BadParameter(f"there is no league {league_id}")
        if game_id is not None:
            game = db.session.get(Game, game_id)
            if game is None or game.league_id is not None:
                raise click.BadParameter(f"there is no game {game_id} outside a league")
        with write_transaction():
            key = rotate_key(league_id=league_id, game_id=game_id)
            db.session.commit()
        click.echo(key)

    @keys.command("backfill")
    def backfill_keys() -> None:
        """Issue keys for every league and league-less game that has none; prints them once."""
        with write_transaction():  # all the keys or none
            with_keys = select(ApiKey.league_id).where(ApiKey.league_id.is_not(None), ApiKey.kind == WRITE)
            issued = [
                f"league {league.id}\t{ApiKey.issue(league_id=league.id)[1]}"
                for league in db.session.scalars(select(League).where(League.id.not_in(with_keys)))
            ]
            game_keys = select(ApiKey.game_id).where(ApiKey.game_id.is_not(None), ApiKey.kind == WRITE)
            issued += [
                f"game {game.id}\t{ApiKey.issue(game_id=game.id)[1]}"
                for game in db.session.scalars(select(Game).where(Game.league_id.is_(None), Game.id.not_in(game_keys)))
            ]
            db.session.commit()
        for line in issued:
            click.echo(line)

    app.cli.add_command(keys)

    books = AppGroup("books", help="Check the stored books against the hand logs.")

    @books.command("verify")
    @click.option("--league", "league_id", type=int, help="Only this league (default: every league and game)")
    @click.option("--game", "game_id", type=int, help="Only this game")
    def verify_books(league_id: int | None, game_id: int | None) -> None:
        """Recount every stored score, mark, figure, total, streak and rating
        from the hand logs alone; print each difference and exit 1 if any."""
        if league_id is not None and game_id is not None:
            raise click.UsageError("give --league or --game, not both")
        if league_id is not None and db.session.get(League, league_id) is None:
            raise click.BadParameter(f"there is no league {league_id}", param_hint="--league")
        if game_id is not None and db.session.get(Game, game_id) is None:
            raise click.BadParameter(f"there is no game {game_id}", param_hint="--game")
        with snapshot():
            checked = check_books(league_id=league_id, game_id=game_id)
        for line in checked.differences:
            click.echo(line)
        counted = f"{checked.games} games, {checked.hands} hands"
        if checked.differences:
            many = len(checked.differences)
            noun = "difference" if many == 1 else "differences"
            click.echo(f"{many} {noun} between the books and the hand logs: {counted}", err=True)
            raise SystemExit(1)
        click.echo(f"books agree with the hand logs: {counted}")

    app.cli.add_command(books)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = GinrefFlask(__name__)
    load_config(app, test_config)
    init_database(app)
    init_bodies(app)
    api = ProblemApi(
        app,
        spec_kwargs={
            "marshmallow_plugin": SchemaKeywordsPlugin(),
            "extra_plugins": [GuardDocsPlugin(app), ReplayHeaderPlugin(), ProblemResponsesPlugin()],
        },
    )
    api.register_converter(IdConverter, id_schema)
    api.spec.components.security_scheme(
        "bearerAuth",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "The key of the league (or of the game outside a league) that a write changes",
        },
    )
    register_blueprints(api)
    register_error_handlers(app)
    init_write_requests(app)
    init_request_limits(app)
    init_cors(app)
    init_docs(app)
    init_page(app)
    init_health(app)
    init_events(app)
    init_guards(app)  # last: it checks that every write route declares its guard
    init_commands(app)
    return app
