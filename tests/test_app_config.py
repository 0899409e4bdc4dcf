"""create_app takes its configuration as given and leaves the caller's as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app import create_app
from models import db


def test_the_engine_options_a_caller_gives_stay_as_they_were(tmp_path: Path) -> None:
    """One configuration may build several apps (a benchmark's child process
    gets it as JSON): the app sets its own engine options, such as orjson's
    serializer, on a copy."""
    options = {"pool_pre_ping": False}
    database = f"sqlite:///{tmp_path / 'ginref.sqlite3'}"
    config = {"SQLALCHEMY_DATABASE_URI": database, "SQLALCHEMY_ENGINE_OPTIONS": options}
    apps = [create_app(dict(config)) for _ in range(2)]
    assert options == {"pool_pre_ping": False}
    assert json.loads(json.dumps(config)) == config
    for app in apps:
        engine_options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
        assert engine_options is not options and engine_options["pool_pre_ping"] is False
        assert "json_serializer" in engine_options
        with app.app_context():
            db.engine.dispose()


POSTGRESQL = "postgresql+psycopg://db/ginref"
TCP = {"tcp_user_timeout": 10000, "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2}
TCP["keepalives_count"] = 2


def test_a_postgresql_connection_gives_up_on_a_silent_server_and_bounds_every_statement(tmp_path: Path) -> None:
    """Built for a PostgreSQL URL: the server's timeouts in ``options``, and
    libpq's connect timeout, TCP user timeout and keepalives, so that a
    server that goes silent under a request is given up on within about 10 s."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": POSTGRESQL})
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"] == {
        "options": "-c lock_timeout=5000 -c statement_timeout=15000 -c idle_in_transaction_session_timeout=30000",
        "connect_timeout": 5,
        **TCP,
    }


def test_a_server_pool_keeps_its_connections_and_opens_none_beyond_them() -> None:
    """On a database server each worker keeps 15 connections and opens no
    more (an overflow connection is opened and closed again under load, a
    server process each time); the caller's pool settings are its own. A
    SQLite file keeps SQLAlchemy's pool as it is."""
    options = create_app({"SQLALCHEMY_DATABASE_URI": POSTGRESQL}).config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert (options["pool_size"], options["max_overflow"]) == (15, 0)
    given = {"pool_size": 4, "max_overflow": 2}
    options = create_app({"SQLALCHEMY_DATABASE_URI": POSTGRESQL, "SQLALCHEMY_ENGINE_OPTIONS": given}).config[
        "SQLALCHEMY_ENGINE_OPTIONS"
    ]
    assert (options["pool_size"], options["max_overflow"]) == (4, 2)
    options = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}).config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert "pool_size" not in options and "max_overflow" not in options


def test_the_tcp_settings_are_configurable_and_0_or_the_url_leaves_each_out() -> None:
    from app import postgresql_connect_args

    config = {
        "DATABASE_TCP_USER_TIMEOUT": 2.5,
        "DATABASE_KEEPALIVES_IDLE": 0,
        "DATABASE_KEEPALIVES_INTERVAL": 1,
        "DATABASE_KEEPALIVES_COUNT": 3,
        "DATABASE_STATEMENT_TIMEOUT": 0,
    }
    assert postgresql_connect_args(config, POSTGRESQL, {"keepalives_count": 9}) == {
        "options": "-c lock_timeout=5000 -c idle_in_transaction_session_timeout=30000",
        "connect_timeout": 5,
        "tcp_user_timeout": 2500,
        "keepalives_interval": 1,
        "keepalives_count": 9,  # the caller's own
        "keepalives": 1,
    }
    url = f"{POSTGRESQL}?tcp_user_timeout=500&keepalives=0"
    off = {"DATABASE_KEEPALIVES_IDLE": 0, "DATABASE_KEEPALIVES_INTERVAL": 0, "DATABASE_KEEPALIVES_COUNT": 0}
    args = postgresql_connect_args(off, url, {})
    assert {k: v for k, v in args.items() if k != "options"} == {"connect_timeout": 5}
    with pytest.raises(ValueError, match="DATABASE_TCP_USER_TIMEOUT must be a number >= 0"):
        postgresql_connect_args({"DATABASE_TCP_USER_TIMEOUT": -1}, POSTGRESQL, {})
