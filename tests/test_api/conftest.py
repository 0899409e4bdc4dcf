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
from tests.test_api.autoclient import AutoClient

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def _engine_options(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, backend: str, name: str = "main"
) -> dict[str, Any]:
    if backend == "sqlite":
        path = tmp_path_factory.mktemp("db") / "ginref.sqlite3"
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    url = os.environ["TEST_DATABASE_URL"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schema = f"ginref_test_{worker}_{name}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return {
        "SQLALCHEMY_DATABASE_URI": url,
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}, "pool_pre_ping": True},
    }


@pytest.fixture(scope="session", params=BACKENDS)
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    config = {"TESTING": True, "RATELIMIT_ENABLED": False, **_engine_options(request, tmp_path_factory, request.param)}
    application = create_app(config)
    application.test_client_class = AutoClient
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


# --- helpers for the API tests (plain functions: `from tests.test_api.conftest import ...`) ---

PROBLEM_JSON = "application/problem+json"
RULES_TYPE = "https://ginref.org/rules#"


def cards(text: str) -> list[str]:
    """`cards("AS 2S 3S")` -> ["AS", "2S", "3S"]."""
    return text.split()


def melds(text: str) -> list[list[str]]:
    """`melds("AS 2S 3S | 7H 7D 7C")` -> [["AS", "2S", "3S"], ["7H", "7D", "7C"]]."""
    return [part.split() for part in text.split("|") if part.strip()]


def seats(box: int, captain: int, sitter: int) -> dict[str, int]:
    return {"box": box, "captain": captain, "sitter": sitter}


def by_counts(knocker: str, knocker_count: int, defender_count: int) -> dict[str, Any]:
    """A hand by counts alone (R25)."""
    return {"knocker": knocker, "knocker_deadwood_count": knocker_count, "defender_deadwood_count": defender_count}


DRAW: dict[str, Any] = {"outcome": "draw"}  # R12


def without_explanation(served: dict[str, Any]) -> dict[str, Any]:
    """A ruling or verdict as served, less its explanation (test_explanations.py checks those)."""
    return {k: v for k, v in served.items() if k != "explanation"}


def by_cards(knocker: str, knocker_cards: str, defender_cards: str, **parts: Any) -> dict[str, Any]:
    """A hand by cards; `parts` are extra members of the hands, e.g.
    `knocker_melds=[...]`, `discard="KC"`, `defender_melds=[...]`, `layoffs=[...]`."""
    knocker_hand: dict[str, Any] = {"cards": cards(knocker_cards)}
    defender_hand: dict[str, Any] = {"cards": cards(defender_cards)}
    if "knocker_melds" in parts:
        knocker_hand["melds"] = parts.pop("knocker_melds")
    if "discard" in parts:
        knocker_hand["discard"] = parts.pop("discard")
    if "defender_melds" in parts:
        defender_hand["melds"] = parts.pop("defender_melds")
    if "layoffs" in parts:
        defender_hand["layoffs"] = parts.pop("layoffs")
    assert not parts, f"unknown parts {parts}"
    return {"knocker": knocker, "knocker_hand": knocker_hand, "defender_hand": defender_hand}


# --- hands by cards whose rulings are worked out by hand ---

# R18: the knocker holds AS-10S (gin). The defender keeps AH 2H 3H, 4D 5D 6D, JC QC KC
# and may not lay off: deadwood 9H = 9. Gin scores 9 + 25 = 34.
GIN_34 = ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AH 2H 3H 4D 5D 6D JC QC KC 9H")
GIN_34_RULING = {
    "outcome": "gin",
    "scorer": "knocker",
    "points": 34,
    "knocker": {"melds": melds("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), "deadwood": [], "deadwood_count": 0},
    "defender": {
        "melds": melds("AH 2H 3H | 4D 5D 6D | JC QC KC"),
        "layoffs": [],
        "deadwood": ["9H"],
        "deadwood_count": 9,
    },
}
# R24's example: three sets or three runs both leave KC (10). Against the runs the
# defender lays 3S, 2S, 7S, 8S off onto 4S 5S 6S, keeps AH 2H 3H and 7H 8H 9H, has 0
# and undercuts (20 to him); against the sets nothing fits: his deadwood is
# 2S 3S 7S 8S = 20, and the knocker scores 20 - 10 = 10. So the knocker spreads the sets.
KNOCK_10 = ("4H 5H 6H 4S 5S 6S 4D 5D 6D KC", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")
KNOCK_10_RULING = {
    "outcome": "knock",
    "scorer": "knocker",
    "points": 10,
    "knocker": {"melds": melds("4S 4H 4D | 5S 5H 5D | 6S 6H 6D"), "deadwood": ["KC"], "deadwood_count": 10},
    "defender": {
        "melds": melds("AH 2H 3H | 7H 8H 9H"),
        "layoffs": [],
        "deadwood": ["2S", "3S", "7S", "8S"],
        "deadwood_count": 20,
    },
}
# R17: the knocker keeps KC (10), the defender holds AC-10C (0): undercut, 10 + 10 = 20.
UNDERCUT_20 = ("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C")
UNDERCUT_20_RULING = {
    "outcome": "undercut",
    "scorer": "defender",
    "points": 20,
    "knocker": {"melds": melds("AS 2S 3S | 4H 5H 6H | 7D 8D 9D"), "deadwood": ["KC"], "deadwood_count": 10},
    "defender": {"melds": melds("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"), "layoffs": [], "deadwood": [], "deadwood_count": 0},
}
# R15/R16: the knocker keeps AS (1); the defender keeps 3D 4D 5D and 8C 9C 10C, lays
# 8H then 9H off onto 5H 6H 7H (the knocker's third meld in canonical order, index 2),
# and is left with 3S 4C = 7: the knocker scores 7 - 1 = 6.
KNOCK_6 = ("5H 6H 7H 2S 2D 2C JS JD JC AS", "8H 9H 3D 4D 5D 8C 9C 10C 3S 4C")
KNOCK_6_RULING = {
    "outcome": "knock",
    "scorer": "knocker",
    "points": 6,
    "knocker": {"melds": melds("2S 2D 2C | JS JD JC | 5H 6H 7H"), "deadwood": ["AS"], "deadwood_count": 1},
    "defender": {
        "melds": melds("3D 4D 5D | 8C 9C 10C"),
        "layoffs": [{"card": "8H", "meld": 2}, {"card": "9H", "meld": 2}],
        "deadwood": ["3S", "4C"],
        "deadwood_count": 7,
    },
}
DRAW_RULING = {"outcome": "draw", "scorer": None, "points": 0, "knocker": None, "defender": None}


def problem(response: Any, status: int, type_: str | None = None) -> dict[str, Any]:
    """Assert an RFC 9457 problem response and return its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON, response.headers
    body = response.get_json(force=True)
    assert body["status"] == status
    assert isinstance(body["type"], str) and body["type"]
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    if type_ is not None:
        assert body["type"] == type_, body
    return body


class Api:
    """Thin shorthand over the test client for the API's resources."""

    base = "/api/v1"

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def player(self, name: str) -> int:
        response = self.client.post(f"{self.base}/players", json={"name": name})
        assert response.status_code == 201, response.get_json()
        return int(response.get_json()["id"])

    def new_game(self, players: list[int], **body: Any) -> dict[str, Any]:
        response = self.client.post(f"{self.base}/games", json={"players": players, **body})
        assert response.status_code == 201, response.get_json()
        game = response.get_json()
        assert response.headers["Location"] == f"{self.base}/games/{game['id']}"
        return game

    def game(self, game_id: int) -> dict[str, Any]:
        response = self.client.get(f"{self.base}/games/{game_id}")
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def record(self, game_id: int, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post(f"{self.base}/games/{game_id}/hands", json=body)
        assert response.status_code == 201, response.get_json()
        hand = response.get_json()
        assert response.headers["Location"] == f"{self.base}/games/{game_id}/hands/{hand['number']}"
        return hand

    def hand(self, game_id: int, number: int) -> dict[str, Any]:
        response = self.client.get(f"{self.base}/games/{game_id}/hands/{number}")
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def hands(self, game_id: int) -> list[dict[str, Any]]:
        response = self.client.get(f"{self.base}/games/{game_id}/hands")
        assert response.status_code == 200, response.get_json()
        return list(response.get_json()["items"])

    def correct(self, game_id: int, number: int, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.put(f"{self.base}/games/{game_id}/hands/{number}", json=body)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def undo(self, game_id: int, number: int) -> None:
        response = self.client.delete(f"{self.base}/games/{game_id}/hands/{number}")
        assert response.status_code == 204, response.get_data(as_text=True)

    def post(self, path: str, body: Any) -> Any:
        return self.client.post(self.base + path, json=body)


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


@pytest.fixture
def table(players: list[int]) -> Table:
    """Ann, Bob and Cy by name, with shorthand for scores and seats."""
    return Table(*players)


class Table:
    def __init__(self, ann: int, bob: int, cy: int) -> None:
        self.ann, self.bob, self.cy = ann, bob, cy
        self.ids = [ann, bob, cy]

    def scores(self, ann: int, bob: int, cy: int) -> dict[str, int]:
        return {str(self.ann): ann, str(self.bob): bob, str(self.cy): cy}
