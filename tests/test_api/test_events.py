"""A game's change feed: GET /games/{game_id}/events lists every change after
a version, each with the version it made, and waits for one when asked."""

from __future__ import annotations

import threading
import time
from typing import Any, get_args

import pytest
from flask import Flask
from flask.testing import FlaskClient

from models.events import EventKind
from schemas.fields import EVENT_KINDS
from tests.test_api.conftest import PROBLEM_JSON, by_counts, seats


def _game(client: FlaskClient, players: list[int]) -> dict[str, Any]:
    r = client.post("/api/v1/games", json={"players": players, "roles": seats(*players)})
    assert r.status_code == 201
    return r.get_json()


def _events(client: FlaskClient, game_id: int, query: str = "") -> Any:
    return client.get(f"/api/v1/games/{game_id}/events{query}")


def _kinds(response: Any) -> list[tuple[int, str, int | None]]:
    return [(e["version"], e["kind"], e["hand"]) for e in response.get_json()["items"]]


def test_the_model_and_the_contract_name_the_same_kinds() -> None:
    assert list(get_args(EventKind)) == EVENT_KINDS


def test_every_change_is_one_event_with_the_version_it_made(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.patch(url, json={"rules": {"target_score": 50}}).status_code == 200
    for knocker, k, d in (("box", 5, 20), ("captain", 3, 9), ("box", 0, 30)):
        assert client.post(f"{url}/hands", json=by_counts(knocker, k, d)).status_code == 201
    assert client.put(f"{url}/hands/2", json=by_counts("captain", 2, 9)).status_code == 200  # R26
    assert client.delete(f"{url}/hands/3").status_code == 204

    r = _events(client, game["id"])
    assert r.status_code == 200
    assert _kinds(r) == [
        (1, "game_started", None),
        (2, "rules_changed", None),
        (3, "hand_recorded", 1),
        (4, "hand_recorded", 2),
        (5, "hand_recorded", 3),
        (6, "hand_corrected", 2),
        (7, "hand_undone", 3),
    ]
    state = client.get(url)
    assert r.get_json()["version"] == state.get_json()["version"] == 7
    assert r.headers["ETag"] == state.headers["ETag"]
    assert all(e["at"].endswith("+00:00") for e in r.get_json()["items"])

    assert _kinds(_events(client, game["id"], "?after=5")) == [(6, "hand_corrected", 2), (7, "hand_undone", 3)]
    assert _kinds(_events(client, game["id"], "?after=7")) == []
    limited = _events(client, game["id"], "?after=2&limit=2")
    assert _kinds(limited) == [(3, "hand_recorded", 1), (4, "hand_recorded", 2)]
    assert limited.get_json()["version"] == 7  # more to read: the last item is behind the game


def test_a_refused_write_leaves_no_event(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 11, 20)).status_code == 422  # R13: over the limit
    r = client.post(f"{url}/hands", json=by_counts("box", 2, 20), headers={"If-Match": '"g1v99"'})
    assert r.status_code == 412
    assert _kinds(_events(client, game["id"])) == [(1, "game_started", None)]


def test_events_of_a_game_that_does_not_exist_are_a_404_like_the_game(client: FlaskClient) -> None:
    r = _events(client, 999)
    assert r.status_code == 404 and r.content_type == PROBLEM_JSON
    assert r.get_json() == client.get("/api/v1/games/999").get_json()


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?after=-1", "after"),
        ("?after=x", "after"),
        ("?wait=25.5", "wait"),
        ("?wait=-1", "wait"),
        ("?wait=nan", "wait"),
        ("?wait=inf", "wait"),
        ("?limit=0", "limit"),
        ("?limit=201", "limit"),
    ],
)
def test_bad_arguments_are_a_422_naming_the_argument(
    client: FlaskClient, players: list[int], query: str, field: str
) -> None:
    game = _game(client, players)
    r = _events(client, game["id"], query)
    assert r.status_code == 422 and r.content_type == PROBLEM_JSON
    assert list(r.get_json()["errors"]) == [f"query.{field}"], r.get_json()


def test_a_version_the_game_has_not_reached_is_a_422_saying_where_it_is(
    client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    r = _events(client, game["id"], "?after=2")
    assert r.status_code == 422
    assert r.get_json()["errors"] == {"query.after": ["the game is at version 1, not yet 2"]}


def test_a_wait_with_nothing_new_ends_empty_at_its_timeout(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    started = time.monotonic()
    r = _events(client, game["id"], "?after=1&wait=0.4")
    elapsed = time.monotonic() - started
    assert r.status_code == 200 and r.get_json() == {"items": [], "version": 1}
    assert 0.4 <= elapsed < 5


def test_a_wait_with_changes_already_there_answers_at_once(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    started = time.monotonic()
    r = _events(client, game["id"], "?after=0&wait=20")
    assert time.monotonic() - started < 5
    assert _kinds(r) == [(1, "game_started", None)]


def test_a_waiting_client_gets_a_hand_recorded_meanwhile(app: Flask, client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    recorded: dict[str, Any] = {}

    def record() -> None:
        time.sleep(0.3)
        other = app.test_client()
        recorded["at"] = time.monotonic()
        recorded["status"] = other.post(f"{url}/hands", json=by_counts("box", 4, 24)).status_code

    writer = threading.Thread(target=record)
    writer.start()
    r = _events(client, game["id"], "?after=1&wait=20")
    answered = time.monotonic()
    writer.join(timeout=20)
    assert recorded["status"] == 201
    assert _kinds(r) == [(2, "hand_recorded", 1)]
    assert r.get_json()["version"] == 2
    assert answered - recorded["at"] < 2
