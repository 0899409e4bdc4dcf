"""The whole OpenAPI spec, fuzzed in-process by schemathesis: every response must
conform to the spec (status code, content type, body schema, headers) and no
request may cause a server error. Positive-data acceptance is not checked: a
well-formed body can still break a rule (R14, R21, ...) and be rightly refused.

The app runs on its own temporary SQLite database, seeded so that small ids
(which the generator tries often) name real players, games and hands.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.failures import Failure, FailureGroup

from app import create_app
from models import db
from tests.test_api.autoclient import AutoClient
from tests.test_api.conftest import DRAW, GIN_34, KNOCK_10, Api, by_cards, by_counts, seats

pytestmark = pytest.mark.slow  # long property and fuzz runs: make test-slow, make check, CI

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


# The schema is loaded eagerly (one test per operation, spread over xdist workers):
# schemathesis.pytest.from_fixture fails on pytest 9 ('Function' object has no
# attribute '_nodeid'). Loading /openapi.json does not touch the database; the
# database file lives in a directory that the fixture below creates and removes.
DB_DIR = Path(tempfile.gettempdir()) / f"ginref-schemathesis-{os.getpid()}"
APP = create_app(
    {
        "TESTING": True,
        "RATELIMIT_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{DB_DIR / 'ginref.sqlite3'}",
        "FEED_MAX_WAIT": 0.2,  # a feed's wait (or a stream) is fuzzed for its answers, not its length
    }
)
APP.test_client_class = AutoClient  # seeds the data with keys and ETags; the fuzzed calls send none
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)


@pytest.fixture(scope="module")
def schemathesis_app() -> Iterator[Flask]:
    DB_DIR.mkdir(exist_ok=True)
    with APP.app_context():
        db.create_all()
    api = Api(APP.test_client())
    ann, bob, cy = (api.player(name) for name in ("Ann", "Bob", "Cy"))
    # game 1: in progress, three hands (cards, counts, draw)
    g1 = api.new_game([ann, bob, cy], cut={str(ann): "KS", str(bob): "7H", str(cy): "2D"})["id"]
    for body in (by_cards("box", *KNOCK_10), by_counts("captain", 3, 20), DRAW):
        api.record(g1, body)
    # game 2: finished in one gin
    g2 = api.new_game([ann, bob, cy], roles=seats(bob, cy, ann), rules={"target_score": 10})["id"]
    api.record(g2, by_cards("box", *GIN_34))
    # game 3: no hands yet
    api.new_game([cy, bob, ann], roles=seats(cy, ann, bob))
    try:
        yield APP
    finally:
        with APP.app_context():
            db.engine.dispose()
        shutil.rmtree(DB_DIR, ignore_errors=True)


# Failures this run finds in the app as it stands, each a reported bug, listed as
# {operation label: (reason, predicate on each schemathesis Failure)}: on those
# operations, an example failing only in the listed way makes the test an xfail;
# should it no longer happen, teardown fails (a strict xfail). A pytest xfail
# marker cannot do this: schemathesis' plugin crashes (INTERNALERROR, `assert
# call.excinfo is not None`) on an XPASS(strict) report. Found and since fixed:
# naive created_at/recorded_at on SQLite (not RFC 3339 date-times), and problem
# members (count, deadwood, limit, meld) missing from ProblemSchema.
KNOWN_FAILURES: dict[str, tuple[str, Callable[[Failure], bool]]] = {}


@pytest.fixture
def known_failures_seen(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    seen: list[str] = []
    yield seen
    label = getattr(request.node, "operation_label", None)  # set by schemathesis on its items
    if label in KNOWN_FAILURES and not seen:
        pytest.fail(f"{label} no longer fails as KNOWN_FAILURES says: take it out", pytrace=False)


# The one-value parametrize gives each operation its own node id: on pytest 9 the
# items schema.parametrize() makes otherwise share one, which breaks xdist.
@schema.parametrize()
@pytest.mark.parametrize("database", ["sqlite"])
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_operation_conforms_to_the_openapi_spec_and_never_errors(
    case: schemathesis.Case, database: str, schemathesis_app: Flask, known_failures_seen: list[str]
) -> None:
    try:
        case.call_and_validate(checks=CHECKS)
    except FailureGroup as group:
        known = KNOWN_FAILURES.get(case.operation.label)
        if known is None or not all(known[1](failure) for failure in group.exceptions):
            raise
        known_failures_seen.append(case.operation.label)
        pytest.xfail(known[0])
