"""Keys for writes: every write endpoint against every kind of credential.
Reads stay public; a refused write changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from models import db
from tests.test_api.conftest import BACKENDS, _engine_options

COUNTS = {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 20}


@pytest.fixture(scope="module", params=BACKENDS)
def secure_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
            **_engine_options(request, tmp_path_factory, request.param, "auth"),
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def api(secure_app: Flask) -> Iterator[FlaskClient]:
    yield secure_app.test_client()
    with secure_app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def bearer(key: str | None) -> dict[str, str]:
    return {} if key is None else {"Authorization": f"Bearer {key}"}


class World:
    """Two leagues with a game each, and two games outside any league, each with one hand."""

    def __init__(self, api: FlaskClient) -> None:
        self.api = api
        self.players = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in "ABCD"]
        a = api.post("/api/v1/leagues", json={"name": "A", "members": self.players}).get_json()
        b = api.post("/api/v1/leagues", json={"name": "B", "members": self.players}).get_json()
        self.league, self.other_league = a["id"], b["id"]
        self.league_key, self.other_league_key = a["key"], b["key"]
        old = self.api.post(f"/api/v1/leagues/{self.league}/key", headers=bearer(self.league_key))
        assert old.status_code == 201
        self.revoked_key, self.league_key = self.league_key, old.get_json()["key"]
        self.league_game = self.new_game(league=True)
        self.other_league_game = self.new_game(league=True, key=self.other_league_key, league_id=self.other_league)
        solo = self.new_game(league=False)
        self.solo_game, self.revoked_solo_key = solo
        rotated = self.api.post(f"/api/v1/games/{self.solo_game}/key", headers=bearer(self.revoked_solo_key))
        assert rotated.status_code == 201
        self.solo_key = rotated.get_json()["key"]
        other = self.new_game(league=False)
        self.other_solo_game, self.other_solo_key = other

    def new_game(self, *, league: bool, key: str | None = None, league_id: int | None = None) -> Any:
        body: dict[str, Any] = {
            "players": self.players[:3],
            "roles": {"box": self.players[0], "captain": self.players[1], "sitter": self.players[2]},
        }
        if league:
            body["league_id"] = league_id or self.league
            r = self.api.post("/api/v1/games", json=body, headers=bearer(key or self.league_key))
        else:
            r = self.api.post("/api/v1/games", json=body)
        assert r.status_code == 201, r.get_json()
        game = r.get_json()
        k = game.get("key") or key or self.league_key
        self.record(game["id"], k)
        return (game["id"], k) if not league else game["id"]

    def record(self, game_id: int, key: str) -> None:
        etag = self.api.get(f"/api/v1/games/{game_id}").headers["ETag"]
        r = self.api.post(f"/api/v1/games/{game_id}/hands", json=COUNTS, headers={**bearer(key), "If-Match": etag})
        assert r.status_code == 201, r.get_json()

    def snapshot(self) -> Any:
        out = []
        for gid in (self.league_game, self.other_league_game, self.solo_game, self.other_solo_game):
            out.append(
                (self.api.get(f"/api/v1/games/{gid}").get_json(), self.api.get(f"/api/v1/games/{gid}/hands").get_json())
            )
        for lid in (self.league, self.other_league):
            out.append(self.api.get(f"/api/v1/leagues/{lid}").get_json())
        return out


def _etag(w: World, game_id: int) -> dict[str, str]:
    return {"If-Match": w.api.get(f"/api/v1/games/{game_id}").headers["ETag"]}


# (name, target: "league" or "solo", request maker, success status)
Write = Callable[[World, int, dict[str, str]], Any]
WRITES: list[tuple[str, str, Write, int]] = [
    (
        "create a game in the league",
        "league",
        lambda w, g, h: w.api.post(
            "/api/v1/games",
            headers=h,
            json={
                "players": w.players[1:],
                "roles": {"box": w.players[1], "captain": w.players[2], "sitter": w.players[3]},
                "league_id": w.league,
            },
        ),
        201,
    ),
    (
        "change rules",
        "league",
        lambda w, g, h: w.api.patch(f"/api/v1/games/{g}", headers=h, json={"rules": {"gin_bonus": 20}}),
        409,
    ),
    (
        "record a hand",
        "league",
        lambda w, g, h: w.api.post(f"/api/v1/games/{g}/hands", json=COUNTS, headers={**h, **_etag(w, g)}),
        201,
    ),
    (
        "correct a hand",
        "league",
        lambda w, g, h: w.api.put(f"/api/v1/games/{g}/hands/1", json=COUNTS, headers={**h, **_etag(w, g)}),
        200,
    ),
    (
        "undo a hand",
        "league",
        lambda w, g, h: w.api.delete(f"/api/v1/games/{g}/hands/1", headers={**h, **_etag(w, g)}),
        204,
    ),
    (
        "add members",
        "league",
        lambda w, g, h: w.api.post(f"/api/v1/leagues/{w.league}/members", headers=h, json={"players": [w.players[3]]}),
        200,
    ),
    ("rotate the league key", "league", lambda w, g, h: w.api.post(f"/api/v1/leagues/{w.league}/key", headers=h), 201),
    (
        "change rules (solo)",
        "solo",
        lambda w, g, h: w.api.patch(f"/api/v1/games/{g}", headers=h, json={"rules": {"gin_bonus": 20}}),
        409,
    ),
    (
        "record a hand (solo)",
        "solo",
        lambda w, g, h: w.api.post(f"/api/v1/games/{g}/hands", json=COUNTS, headers={**h, **_etag(w, g)}),
        201,
    ),
    (
        "correct a hand (solo)",
        "solo",
        lambda w, g, h: w.api.put(f"/api/v1/games/{g}/hands/1", json=COUNTS, headers={**h, **_etag(w, g)}),
        200,
    ),
    (
        "undo a hand (solo)",
        "solo",
        lambda w, g, h: w.api.delete(f"/api/v1/games/{g}/hands/1", headers={**h, **_etag(w, g)}),
        204,
    ),
    ("rotate the game key", "solo", lambda w, g, h: w.api.post(f"/api/v1/games/{g}/key", headers=h), 201),
]

CREDENTIALS = ["none", "unknown", "revoked", "another league's key", "a game key on another game", "the right key"]


def _credential(w: World, target: str, which: str) -> tuple[str | None, int]:
    right = w.league_key if target == "league" else w.solo_key
    return {
        "none": (None, 401),
        "unknown": ("grk_" + "x" * 32, 401),
        "revoked": (w.revoked_key if target == "league" else w.revoked_solo_key, 401),
        "another league's key": (w.other_league_key, 403),
        "a game key on another game": (w.other_solo_key, 403),
        "the right key": (right, 0),
    }[which]


@pytest.mark.parametrize("credential", CREDENTIALS)
@pytest.mark.parametrize("name,target,make,ok", WRITES, ids=[w[0] for w in WRITES])
def test_every_write_needs_the_right_key(
    api: FlaskClient, name: str, target: str, make: Write, ok: int, credential: str
) -> None:
    w = World(api)
    game = w.league_game if target == "league" else w.solo_game
    key, expected = _credential(w, target, credential)
    before = w.snapshot()
    response = make(w, game, bearer(key))
    if expected == 0:
        assert response.status_code == ok, response.get_json()
        return
    assert response.status_code == expected, response.get_json()
    assert response.content_type == "application/problem+json"
    if expected == 401:
        assert response.headers["WWW-Authenticate"].startswith('Bearer realm="ginref"')
    assert w.snapshot() == before


def test_a_rotated_key_stops_working_at_once_and_the_new_one_works(api: FlaskClient) -> None:
    w = World(api)
    rotated = api.post(f"/api/v1/games/{w.solo_game}/key", headers=bearer(w.solo_key)).get_json()["key"]
    old = api.post(
        f"/api/v1/games/{w.solo_game}/hands", json=COUNTS, headers={**bearer(w.solo_key), **_etag(w, w.solo_game)}
    )
    assert old.status_code == 401 and "revoked" in old.get_json()["detail"]
    new = api.post(
        f"/api/v1/games/{w.solo_game}/hands", json=COUNTS, headers={**bearer(rotated), **_etag(w, w.solo_game)}
    )
    assert new.status_code == 201


def test_reads_are_public_and_keys_are_stored_only_as_hashes(api: FlaskClient, secure_app: Flask) -> None:
    w = World(api)
    assert api.get(f"/api/v1/games/{w.league_game}").status_code == 200
    assert api.get(f"/api/v1/leagues/{w.league}/standings").status_code == 200
    with secure_app.app_context():
        from models import ApiKey

        stored = {row.key_hash for row in db.session.scalars(db.select(ApiKey))}
    for key in (w.league_key, w.solo_key, w.other_league_key):
        assert key not in stored and len(key) >= 26  # 192 random bits, URL-safe
    from models.security import hash_key

    assert hash_key(w.league_key) in stored


def test_the_referee_and_new_players_need_no_key(api: FlaskClient) -> None:
    assert api.post("/api/v1/players", json={"name": "Zed"}).status_code == 201
    r = api.post("/api/v1/referee/knock", json={"cards": ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC"]})
    assert r.status_code == 200 and r.get_json()["valid"] is True


# --- every write route declares its guard, and the declaration is what runs ---

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def test_every_write_route_declares_a_guard_that_matches_its_resource(secure_app: Flask) -> None:
    guards = secure_app.extensions["write_guards"]
    writes = {
        (rule.endpoint, method): rule.rule
        for rule in secure_app.url_map.iter_rules()
        for method in (rule.methods or set()) & WRITES
    }
    assert set(guards) == set(writes) and len(writes) >= 13
    for (endpoint, method), path in writes.items():
        guard = guards[endpoint, method]
        if guard.scope == "game":
            assert "<id:game_id>" in path, (endpoint, method)
        elif guard.scope == "league":
            assert "<id:league_id>" in path and "game_id" not in path, (endpoint, method)
        else:
            assert "game_id" not in path and "league_id" not in path, (endpoint, method)
        # a game's hands are only ever written against its current ETag (opening a dispute
        # writes no hand: it keeps its own copy of the ruling it contests)
        writes_hands = path.startswith("/api/v1/games/<id:game_id>/hands") and not path.endswith("/disputes")
        assert (guard.if_match == "required") == writes_hands, path


def test_the_import_alone_is_declared_a_bulk_write(secure_app: Flask) -> None:
    # its body limit and its import rate limit follow the declaration, not the endpoint's name
    bulk = [endpoint for (endpoint, _), guard in secure_app.extensions["write_guards"].items() if guard.bulk]
    assert bulk == ["leagues.import_league_json"]


def test_an_app_with_a_write_route_that_declares_no_guard_does_not_start() -> None:
    from flask.views import MethodView

    from api.body import Blueprint
    from api.guards import declared_guards

    app = Flask(__name__)
    blp = Blueprint("forgotten", __name__)

    @blp.route("/forgotten")
    class Forgotten(MethodView):
        def get(self) -> str:
            return ""

        def post(self) -> str:
            return ""

    app.register_blueprint(blp)
    with pytest.raises(RuntimeError, match="POST /forgotten .* declares no guard"):
        declared_guards(app)
