"""create_app takes its configuration as given and leaves the caller's as it was."""

from __future__ import annotations

import json
from pathlib import Path

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
