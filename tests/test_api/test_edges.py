"""Hostile input at the edges of parsing: numbers and dates at their limits,
bodies without a length, paths that only look like ids. Each is a clear
problem+json 4xx, never a 500, and nothing is written."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from models import db
from tests.test_api.conftest import BACKENDS, _engine_options, by_counts, problem, seats

INVALID = "https://ginref.org/problems/invalid-content"
HUGE = "9" * 5000


@pytest.fixture
def game(api, table) -> dict:
    g = api.new_game(table.ids, roles=seats(table.ann, table.bob, table.cy))
    api.record(g["id"], by_counts("box", 2, 12))
    return api.game(g["id"])


def counts(client: FlaskClient) -> dict[str, int]:
    """Rows in every table: what a refused request must leave as it was."""
    with client.application.app_context():
        return {t.name: len(db.session.execute(t.select()).all()) for t in db.metadata.sorted_tables}


# --- integers and other numbers at their limits ---


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("post", "/api/v1/players", '{"name": "Ann", "extra": %s}', "extra"),
        (
            "post",
            "/api/v1/games",
            '{"players": [%s, 2, 3], "roles": {"box": 1, "captain": 2, "sitter": 3}}',
            "players[0]",
        ),
        (
            "post",
            "/api/v1/games",
            '{"players": [1, 2, 3], "cut": {"1": "KS"}, "rules": {"target_score": %s}}',
            "rules.target_score",
        ),
        ("patch", "/api/v1/games/{game}", '{"rules": {"knock_limit": %s}}', "rules.knock_limit"),
        (
            "post",
            "/api/v1/games/{game}/hands",
            '{"knocker": "box", "knocker_deadwood_count": %s, "defender_deadwood_count": 3}',
            "knocker_deadwood_count",
        ),
        (
            "put",
            "/api/v1/games/{game}/hands/1",
            '{"knocker": "box", "knocker_deadwood_count": 1, "defender_deadwood_count": %s}',
            "defender_deadwood_count",
        ),
        ("post", "/api/v1/leagues", '{"name": "Club", "members": [1, %s]}', "members[1]"),
        ("post", "/api/v1/referee/knock", '{"cards": ["AS"], "rules": {"knock_limit": %s}}', "rules.knock_limit"),
        ("post", "/api/v1/leagues/import", '{"format": "ginref.league", "format_version": %s}', "format_version"),
    ],
)
@pytest.mark.parametrize("number", [HUGE, "1" + "0" * 30, "1e400", "-1e400", "NaN", "Infinity", "-Infinity"])
def test_numbers_out_of_range_are_422_naming_their_path(api, game, method, path, body, field, number):
    before = counts(api.client)
    url = path.format(game=game["id"])
    response = getattr(api.client, method)(url, data=body % number, content_type="application/json")
    details = problem(response, 422, INVALID)
    assert list(details["errors"]) == [field]
    assert "out of range" in details["detail"] and len(details["detail"]) < 300
    assert counts(api.client) == before


def test_an_integer_of_thirty_digits_is_read_and_judged_by_its_field(api, game):
    response = api.client.post(
        f"/api/v1/games/{game['id']}/hands",
        data='{"knocker": "box", '
        '"knocker_deadwood_count": 100000000000000000000000000000, '
        '"defender_deadwood_count": 3}',
        content_type="application/json",
    )
    details = problem(response, 422, "https://ginref.org/rules#R25")
    assert list(details["errors"]) == ["knocker_deadwood_count"]


def test_a_huge_number_in_a_query_string_is_a_422(api, game):
    response = api.client.get(f"/api/v1/games?page={HUGE}")
    details = problem(response, 422, INVALID)
    assert list(details["errors"]) == ["query.page"]


# --- date-times whose conversion to UTC overflows ---


@pytest.mark.parametrize("when", ["9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00"])
def test_a_played_at_outside_the_years_in_utc_is_422(api, table, when):
    before = counts(api.client)
    response = api.post("/games", {"players": table.ids, "roles": seats(*table.ids), "played_at": when})
    details = problem(response, 422, INVALID)
    assert list(details["errors"]) == ["played_at"]
    assert when in details["detail"]
    assert counts(api.client) == before


@pytest.mark.parametrize("when", ["9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00"])
def test_a_range_outside_the_years_in_utc_is_422(api, table, when):
    league = api.post("/leagues", {"name": "Club", "members": table.ids}).get_json()
    for path in (
        f"/api/v1/leagues/{league['id']}/standings",
        f"/api/v1/leagues/{league['id']}/games",
        f"/api/v1/players/{table.ann}/games",
    ):
        details = problem(api.client.get(path, query_string={"from": when}), 422, INVALID)
        assert list(details["errors"]) == ["query.from"]


def test_a_cursor_holding_an_instant_outside_the_years_is_422(api, table):
    import base64

    for stamp in ("0001-01-01T00:00:00+05:00", "9999-12-31T23:00:00-05:00"):
        cursor = base64.urlsafe_b64encode(f"{stamp}|5".encode()).decode().rstrip("=")
        response = api.client.get(f"/api/v1/players/{table.ann}/games", query_string={"cursor": cursor})
        details = problem(response, 422, INVALID)
        assert list(details["errors"]) == ["cursor"]


# --- bodies without a Content-Length (chunked) ---


def chunked(client: FlaskClient, method: str, path: str, body: bytes, **headers: str) -> Any:
    """A request whose body has no length, as a server hands on a chunked one."""
    return client.open(
        path,
        method=method,
        input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked", **headers},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )


def test_a_chunked_body_over_the_limit_is_413_not_truncated(api, game):
    before = counts(api.client)
    body = b'{"name": "trunc"}' + b" " * 70000 + b"GARBAGE"
    details = problem(chunked(api.client, "POST", "/api/v1/players", body), 413)
    assert details["type"] == "https://ginref.org/problems/too-large"
    assert counts(api.client) == before


@pytest.mark.parametrize("size", [64 * 1024, 64 * 1024 + 1])
def test_a_chunked_body_at_the_limit_is_read_and_one_past_it_is_413(api, size):
    body = b'{"name": "edge"}'
    body += b" " * (size - len(body))
    response = chunked(api.client, "POST", "/api/v1/players", body)
    if size <= 64 * 1024:
        assert response.status_code == 201 and response.get_json()["name"] == "edge"
    else:
        problem(response, 413)


def test_a_chunked_body_under_the_limit_is_read_whole(api, game):
    response = chunked(
        api.client, "POST", f"/api/v1/games/{game['id']}/hands", json.dumps(by_counts("captain", 4, 30)).encode()
    )
    assert response.status_code == 201
    assert response.get_json()["ruling"]["points"] == 26


@pytest.fixture(params=BACKENDS)
def small_import(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
            "IMPORT_MAX_CONTENT_LENGTH": 256 * 1024,
            **_engine_options(request, tmp_path_factory, request.param, "small_import"),
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def test_a_chunked_import_over_its_limit_is_413_and_creates_nothing(small_import):
    client = small_import.test_client()
    ids = [client.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    league = client.post("/api/v1/leagues", json={"name": "Club", "members": ids}).get_json()
    export = client.get(f"/api/v1/leagues/{league['id']}/export").get_data()
    assert chunked(client, "POST", "/api/v1/leagues/import", export).status_code == 201
    before = counts(client)
    details = problem(chunked(client, "POST", "/api/v1/leagues/import", export + b" " * (256 * 1024) + b"junk"), 413)
    assert details["type"] == "https://ginref.org/problems/too-large"
    assert counts(client) == before


# --- paths: only canonical ASCII ids name a resource ---


@pytest.mark.parametrize(
    "ident",
    [
        "0{id}",
        "00{id}",
        "+{id}",
        "{id}.0",
        " {id}",
        "{arabic}",
        "{fullwidth}",
        "0",
        "2147483648",
        "99999999999",
        "-{id}",
    ],
)
def test_only_canonical_ids_name_a_game(api, game, ident):
    arabic = "".join(chr(0x660 + int(d)) for d in str(game["id"]))
    fullwidth = "".join(chr(0xFF10 + int(d)) for d in str(game["id"]))
    path = "/api/v1/games/" + ident.format(id=game["id"], arabic=arabic, fullwidth=fullwidth)
    problem(api.client.get(path), 404)
    problem(api.client.get(path + "/hands"), 404)
    before = counts(api.client)
    problem(api.client.post(path + "/hands", json=by_counts("box", 1, 20)), 404)
    assert counts(api.client) == before
    assert api.client.get(f"/api/v1/games/{game['id']}").status_code == 200


def test_one_idempotency_key_on_an_alias_path_writes_nothing(api, game):
    headers = {"Idempotency-Key": "b7a1c3d9e5f20468ac9e1b3d5f7092ab"}
    first = api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts("box", 1, 20), headers=headers)
    assert first.status_code == 201
    alias = api.client.post(f"/api/v1/games/0{game['id']}/hands", json=by_counts("box", 1, 20), headers=headers)
    problem(alias, 404)
    assert api.game(game["id"])["hands_played"] == 2


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/%00/hands",
        "/api/v1/players/" + "x" * 400,
        "/api/v1/games/1/hands/%00%00",
        "/api/v1/leagues/" + "9" * 350 + "/members",
    ],
)
def test_an_idempotent_write_to_a_path_that_names_nothing_is_404_and_stores_nothing(api, path):
    before = counts(api.client)
    response = api.client.post(path, json={}, headers={"Idempotency-Key": "0f9e8d7c6b5a49382716a5b4c3d2e1f0"})
    problem(response, 404)
    assert counts(api.client) == before
