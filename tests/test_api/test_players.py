"""Players: POST /players, GET /players/{player_id}, GET /players (paginated)."""

from __future__ import annotations

import pytest

from tests.test_api.conftest import problem

PLAYERS = "/api/v1/players"


def test_creating_a_player_returns_201_with_its_location_and_canonical_body(client):
    response = client.post(PLAYERS, json={"name": "Ann"})
    assert response.status_code == 201
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["name"] == "Ann"
    assert isinstance(body["id"], int) and body["id"] >= 1
    assert response.headers["Location"] == f"{PLAYERS}/{body['id']}"
    assert client.get(response.headers["Location"]).get_json() == body


def test_a_player_reads_back_by_id(client, players):
    ann, bob, cy = players
    assert [client.get(f"{PLAYERS}/{p}").get_json()["name"] for p in players] == ["Ann", "Bob", "Cy"]
    assert len({ann, bob, cy}) == 3


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("  Ann  ", "Ann"),
        ("\tBob\n", "Bob"),
        ("Cy Young", "Cy Young"),
        ("Zoë ♥", "Zoë ♥"),
        ("x" * 100, "x" * 100),
    ],
)
def test_names_are_trimmed_and_kept_otherwise_as_given(client, given, stored):
    response = client.post(PLAYERS, json={"name": given})
    assert response.status_code == 201
    assert response.get_json()["name"] == stored
    assert client.get(response.headers["Location"]).get_json()["name"] == stored


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "Length must be between 1 and 100"),
        ("   ", "Length must be between 1 and 100"),
        ("x" * 101, "Length must be between 1 and 100"),
        ("An\x00n", "control characters"),
        ("Ann\x07", "control characters"),
        ("A\x1bnn", "control characters"),
        ("Ann\x7f", "control characters"),
        ("An\u0085n", "control characters"),
        ("Ann\nBob", "control characters"),
    ],
)
def test_bad_names_are_422_and_create_nobody(client, players, name, why):
    body = problem(client.post(PLAYERS, json={"name": name}), 422)
    assert list(body["errors"]) == ["name"]
    assert why in " ".join(body["errors"]["name"])
    assert client.get(PLAYERS).get_json()["total"] == 3


@pytest.mark.parametrize("payload", [{}, {"name": None}, {"name": 7}, {"name": ["Ann"]}, {"nom": "Ann"}])
def test_a_player_needs_a_name_that_is_text(client, payload):
    body = problem(client.post(PLAYERS, json=payload), 422)
    assert body["errors"]
    assert client.get(PLAYERS).get_json()["total"] == 0


def test_unknown_player_ids_are_404_also_above_the_32_bit_range(client, players):
    missing = max(players) + 1000
    body = problem(client.get(f"{PLAYERS}/{missing}"), 404)
    assert str(missing) in body["detail"]
    for ident in (0, 2**31 - 1, 2**31, 2**63, 10**30):
        problem(client.get(f"{PLAYERS}/{ident}"), 404)


def test_the_player_list_is_paginated_in_id_order(client):
    ids = [client.post(PLAYERS, json={"name": f"P{i}"}).get_json()["id"] for i in range(5)]
    page1 = client.get(f"{PLAYERS}?per_page=2").get_json()
    page3 = client.get(f"{PLAYERS}?per_page=2&page=3").get_json()
    assert (page1["total"], page1["page"], page1["per_page"]) == (5, 1, 2)
    assert [p["id"] for p in page1["items"]] == ids[:2]
    assert [p["name"] for p in page3["items"]] == ["P4"]
    assert client.get(f"{PLAYERS}?page=4&per_page=2").get_json()["items"] == []


@pytest.mark.parametrize("query", ["page=0", "per_page=0", "per_page=101", "page=x", "page=100001"])
def test_bad_pagination_is_422_naming_the_query_parameter(client, query):
    body = problem(client.get(f"{PLAYERS}?{query}"), 422)
    assert list(body["errors"]) == [f"query.{query.split('=')[0]}"]


def test_a_name_with_a_lone_surrogate_is_422_not_500(client):
    # Found by this suite: the name passed validation and the database driver failed to encode it (500).
    response = client.post(PLAYERS, data='{"name": "Ann\\ud800"}', content_type="application/json")
    body = problem(response, 422)
    assert list(body["errors"]) == ["name"]
