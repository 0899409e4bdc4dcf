"""API test fixtures: every test that uses ``client`` runs on SQLite, and again
on PostgreSQL when TEST_DATABASE_URL is set (one schema per xdist worker)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from app import create_app
from models import db

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def _engine_options(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                    backend: str) -> dict[str, Any]:
    if backend == "sqlite":
        path = tmp_path_factory.mktemp("db") / "ginref.sqlite3"
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    url = os.environ["TEST_DATABASE_URL"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schema = f"ginref_test_{worker}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return {"SQLALCHEMY_DATABASE_URI": url,
            "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"},
                                          "pool_pre_ping": True}}


@pytest.fixture(scope="session", params=BACKENDS)
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    config = {"TESTING": True, **_engine_options(request, tmp_path_factory, request.param)}
    application = create_app(config)
    with application.app_context():
        db.create_all()
    yield application
    with application.app_context():
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    yield app.test_client()
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


@pytest.fixture
def players(client: FlaskClient) -> list[int]:
    """Three players: Ann, Bob, Cy."""
    return [client.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
