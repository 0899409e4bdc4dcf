"""ginref: the scorekeeping and referee API for three-handed Gin Rummy.

``create_app`` builds the application in named steps; nothing runs at import.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click
from flask import Flask, send_from_directory
from flask_smorest import Api

from api import register_blueprints
from api.errors import PROBLEM_JSON, ProblemSchema, register_error_handlers
from models import db, init_engine_events

API_VERSION = "1.0.0"


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest's Api, documenting every error as application/problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        default = self.DEFAULT_RESPONSE_CONTENT_TYPE
        self.DEFAULT_RESPONSE_CONTENT_TYPE = PROBLEM_JSON
        try:
            super()._register_responses()
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = default


def load_config(app: Flask, test_config: dict[str, Any] | None) -> None:
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    default_db = "sqlite:///" + str(Path(app.instance_path) / "ginref.sqlite3")
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL", default_db),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        MAX_CONTENT_LENGTH=64 * 1024,
        API_TITLE="ginref",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/docs/static/",
        API_SPEC_OPTIONS={
            "info": {"description": "Scorekeeping and referee API for three-handed Gin Rummy. "
                                    "Rules are cited by number (R1-R26)."},
        },
    )
    app.config.from_prefixed_env()
    if test_config:
        app.config.update(test_config)


def init_database(app: Flask) -> None:
    db.init_app(app)
    with app.app_context():
        init_engine_events(db.engine)


def init_docs(app: Flask) -> None:
    """Swagger UI served from the installed bundle: works offline."""
    import swagger_ui_bundle

    @app.route("/docs/static/<path:filename>")
    def swagger_static(filename: str) -> Any:
        return send_from_directory(swagger_ui_bundle.swagger_ui_path, filename)


def init_commands(app: Flask) -> None:
    @app.cli.command("init-db")
    def init_db() -> None:
        """Create the database tables (run once before serving)."""
        db.create_all()
        click.echo(f"database ready: {db.engine.url.render_as_string(hide_password=True)}")


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    load_config(app, test_config)
    init_database(app)
    api = ProblemApi(app)
    register_blueprints(api)
    register_error_handlers(app)
    init_docs(app)
    init_commands(app)
    return app
