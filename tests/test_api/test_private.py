"""Private leagues and games: every read of one against every kind of
credential, the lists that must never show one, share keys that read and
never write, and visibility changed with the write key."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask.views import MethodView
from sqlalchemy import select

from api.body import Blueprint
from api.guards import declared_read_guards
from app import create_app
from models import ApiKey, db
from models.security import hash_key
from tests.test_api.conftest import BACKENDS, PROBLEM_JSON, _engine_options

BASE = "/api/v1"
COUNTS = {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 20}
NOT_FOUND = "https://ginref.org/problems/not-found"
UNKNOWN = 987654  # an id no league or game has
SECRET_LEAGUE = "Secret Society of the Thursday Box"


@pytest.fixture(scope="module", params=BACKENDS)
def private_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
            **_engine_options(request, tmp_path_factory, request.param, "private"),
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def api(private_app: Flask) -> Iterator[FlaskClient]:
    yield private_app.test_client()
    with private_app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def bearer(key: str | None) -> dict[str, str]:
    return {} if key is None else {"Authorization": f"Bearer {key}"}


class World:
    """A private league with a game, a private game outside any league, and
    their public twins, each game with one hand. Each private one has a
    share key ("board") and a rotated one ("phone": the first revoked)."""

    def __init__(self, api: FlaskClient) -> None:
        self.api = api
        self.players = [self.ok(api.post(f"{BASE}/players", json={"name": n}), 201)["id"] for n in "ABCD"]
        self.a, self.b = self.players[0], self.players[1]
        league = self.ok(
            api.post(f"{BASE}/leagues", json={"name": SECRET_LEAGUE, "members": self.players, "visibility": "private"}),
            201,
        )
        assert league["visibility"] == "private"
        self.league, self.league_key = league["id"], league["key"]
        public = self.ok(api.post(f"{BASE}/leagues", json={"name": "Open club", "members": self.players}), 201)
        assert public["visibility"] == "public"
        self.public_league, self.public_league_key = public["id"], public["key"]
        self.league_game = self.new_game(self.league_key, league_id=self.league)
        self.public_league_game = self.new_game(self.public_league_key, league_id=self.public_league)
        self.solo_game, self.solo_key = self.new_solo("private")
        self.public_game, self.public_game_key = self.new_solo(None)
        self.league_share, self.league_share_revoked = self.share_keys(f"/leagues/{self.league}", self.league_key)
        self.solo_share, self.solo_share_revoked = self.share_keys(f"/games/{self.solo_game}", self.solo_key)
        for game, key in ((self.league_game, self.league_key), (self.solo_game, self.solo_key)):
            self.ok(self.api.post(f"{BASE}/games/{game}/hands/1/disputes", json=DISPUTE, headers=bearer(key)), 201)

    @staticmethod
    def ok(response: Any, status: int) -> Any:
        assert response.status_code == status, response.get_data(as_text=True)
        return response.get_json()

    def body(self, **extra: Any) -> dict[str, Any]:
        p = self.players
        return {"players": p[:3], "roles": {"box": p[0], "captain": p[1], "sitter": p[2]}, **extra}

    def new_game(self, key: str, **extra: Any) -> int:
        game = self.ok(self.api.post(f"{BASE}/games", json=self.body(**extra), headers=bearer(key)), 201)
        assert "key" not in game and game["visibility"] is None  # it follows its league
        self.record(game["id"], key)
        return int(game["id"])

    def new_solo(self, visibility: str | None) -> tuple[int, str]:
        extra = {} if visibility is None else {"visibility": visibility}
        game = self.ok(self.api.post(f"{BASE}/games", json=self.body(**extra)), 201)
        assert game["visibility"] == (visibility or "public")
        self.record(game["id"], game["key"])
        return game["id"], game["key"]

    def record(self, game_id: int, key: str) -> None:
        headers = {**bearer(key), "If-Match": "*"}
        self.ok(self.api.post(f"{BASE}/games/{game_id}/hands", json=COUNTS, headers=headers), 201)

    def share_keys(self, path: str, key: str) -> tuple[str, str]:
        board = self.ok(self.api.post(f"{BASE}{path}/share-key", json={"label": "board"}, headers=bearer(key)), 201)
        first = self.ok(self.api.post(f"{BASE}{path}/share-key", json={"label": "phone"}, headers=bearer(key)), 201)
        again = self.ok(self.api.post(f"{BASE}{path}/share-key", json={"label": "phone"}, headers=bearer(key)), 201)
        assert again["id"] != first["id"] and again["key"] != first["key"]
        return board["key"], first["key"]

    def game_of(self, league_id: int) -> int:
        return self.league_game if league_id == self.league else self.public_league_game

    def snapshot(self) -> Any:
        """Everything there is, read with the write keys."""
        out: list[Any] = []
        for game, key in (
            (self.league_game, self.league_key),
            (self.public_league_game, self.public_league_key),
            (self.solo_game, self.solo_key),
            (self.public_game, self.public_game_key),
        ):
            for path in (f"/games/{game}", f"/games/{game}/hands", f"/games/{game}/disputes"):
                out.append(self.ok(self.api.get(BASE + path, headers=bearer(key)), 200))
        for league, key in ((self.league, self.league_key), (self.public_league, self.public_league_key)):
            for path in (f"/leagues/{league}", f"/leagues/{league}/share-keys", f"/leagues/{league}/standings"):
                out.append(self.ok(self.api.get(BASE + path, headers=bearer(key)), 200))
        out.append(
            self.ok(self.api.get(f"{BASE}/games/{self.solo_game}/share-keys", headers=bearer(self.solo_key)), 200)
        )
        with self.api.application.app_context():
            out.append(
                sorted((k.id, k.kind, k.label, k.revoked_at is None) for k in db.session.scalars(select(ApiKey)))
            )
        return out


@pytest.fixture
def world(api: FlaskClient) -> World:
    return World(api)


# --- every read of a private league or game, against every credential ---

# (name, "league" or "game", the path for an id)
Path = Callable[[World, int], str]
LEAGUE_READS: list[tuple[str, Path]] = [
    ("the league", lambda w, i: f"/leagues/{i}"),
    ("standings", lambda w, i: f"/leagues/{i}/standings"),
    ("standings by points", lambda w, i: f"/leagues/{i}/standings?sort=total_points&from=2020-01-01T00:00:00Z"),
    ("head to head", lambda w, i: f"/leagues/{i}/head-to-head?a={w.a}&b={w.b}"),
    ("head to head without its players", lambda w, i: f"/leagues/{i}/head-to-head"),
    ("its games", lambda w, i: f"/leagues/{i}/games"),
    ("a player's history in it", lambda w, i: f"/leagues/{i}/games?player={w.a}"),
    ("export JSON", lambda w, i: f"/leagues/{i}/export"),
    ("export CSV", lambda w, i: f"/leagues/{i}/export.csv"),
]
GAME_READS: list[tuple[str, Path]] = [
    ("the game", lambda w, i: f"/games/{i}"),
    ("its hands", lambda w, i: f"/games/{i}/hands"),
    ("one hand", lambda w, i: f"/games/{i}/hands/1"),
    ("its events", lambda w, i: f"/games/{i}/events?after=0"),
    ("a hand's revisions", lambda w, i: f"/games/{i}/hands/1/revisions"),
    ("its disputes", lambda w, i: f"/games/{i}/disputes"),
    ("a hand's disputes", lambda w, i: f"/games/{i}/hands/1/disputes?status=open"),
]
READS = (
    [(f"league: {n}", "league", p) for n, p in LEAGUE_READS]
    + [(f"game in the league: {n}", "league_game", p) for n, p in GAME_READS]
    + [(f"game outside a league: {n}", "solo", p) for n, p in GAME_READS]
)
CREDENTIALS = [
    "none",
    "unknown",
    "another game's key",
    "another league's key",
    "a revoked (rotated) share key",
    "the share key",
    "the write key",
]


def _target(w: World, target: str) -> int:
    return {"league": w.league, "league_game": w.league_game, "solo": w.solo_game}[target]


def _key(w: World, target: str, which: str) -> str | None:
    league = target != "solo"
    return {
        "none": None,
        "unknown": "grk_" + "x" * 32,
        "another game's key": w.public_game_key,
        "another league's key": w.public_league_key,
        "a revoked (rotated) share key": w.league_share_revoked if league else w.solo_share_revoked,
        "the share key": w.league_share if league else w.solo_share,
        "the write key": w.league_key if league else w.solo_key,
    }[which]


def unknown_answer(api: FlaskClient, path: Path, w: World, ident: int) -> tuple[int, str, dict[str, Any]]:
    """What a read of the same path with an unknown id answers, as if of ``ident``."""
    response = api.get(BASE + path(w, UNKNOWN))
    text = response.get_data(as_text=True).replace(str(UNKNOWN), str(ident))
    return response.status_code, response.mimetype, json.loads(text)


@pytest.mark.parametrize("credential", CREDENTIALS)
@pytest.mark.parametrize("name,target,path", READS, ids=[r[0] for r in READS])
def test_a_private_read_needs_one_of_its_keys_and_is_else_an_unknown_id(
    world: World, api: FlaskClient, name: str, target: str, path: Path, credential: str
) -> None:
    ident = _target(world, target)
    response = api.get(BASE + path(world, ident), headers=bearer(_key(world, target, credential)))
    if credential in ("the share key", "the write key"):
        # with one of its keys, its bad query arguments are a 422 as anywhere
        expected = 422 if name.endswith("without its players") else 200
        assert response.status_code == expected, response.get_data(as_text=True)
        writer = api.get(BASE + path(world, ident), headers=bearer(_key(world, target, "the write key")))
        assert response.get_data() == writer.get_data()  # a share key reads all the write key reads
        text = response.get_data(as_text=True)
        its_etag = f'"g{ident}v' in response.headers.get("ETag", "")  # the events name their game by the ETag
        assert expected == 422 or its_etag or str(ident) in text or f"\n{world.league_game}," in text  # the CSV's
        return
    assert response.status_code == 404, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON and "WWW-Authenticate" not in response.headers
    what = "league" if target == "league" else "game"
    assert response.get_json() == {
        "type": NOT_FOUND,
        "title": "Not Found",
        "status": 404,
        "detail": f"there is no {what} {ident}",
    }
    assert (404, PROBLEM_JSON, response.get_json()) == unknown_answer(api, path, world, ident)
    head = api.head(BASE + path(world, ident), headers=bearer(_key(world, target, credential)))
    assert head.status_code == 404


def test_a_private_game_is_not_modified_only_for_its_keys(world: World, api: FlaskClient) -> None:
    etag = api.get(f"{BASE}/games/{world.solo_game}", headers=bearer(world.solo_share)).headers["ETag"]
    assert api.get(f"{BASE}/games/{world.solo_game}", headers={"If-None-Match": etag}).status_code == 404
    cached = api.get(f"{BASE}/games/{world.solo_game}", headers={"If-None-Match": etag, **bearer(world.solo_share)})
    assert cached.status_code == 304


PUBLIC_READS = (
    [(f"league: {n}", "league", p) for n, p in LEAGUE_READS]
    + [(f"game in the league: {n}", "league_game", p) for n, p in GAME_READS]
    + [(f"game outside a league: {n}", "solo", p) for n, p in GAME_READS]
)


@pytest.mark.parametrize("credential", ["none", "unknown", "another league's key", "the share key"])
@pytest.mark.parametrize("name,target,path", PUBLIC_READS, ids=[r[0] for r in PUBLIC_READS])
def test_a_public_read_needs_no_key_and_ignores_one_given(
    world: World, api: FlaskClient, name: str, target: str, path: Path, credential: str
) -> None:
    ident = {"league": world.public_league, "league_game": world.public_league_game, "solo": world.public_game}[target]
    plain = api.get(BASE + path(world, ident))
    assert plain.status_code == (422 if name.endswith("without its players") else 200), plain.get_data(as_text=True)
    key = {"none": None, "unknown": "grk_" + "y" * 32, "another league's key": world.league_key}.get(
        credential, world.league_share
    )
    keyed = api.get(BASE + path(world, ident), headers=bearer(key))
    assert (keyed.status_code, keyed.get_data()) == (plain.status_code, plain.get_data())


# --- the lists never show a private league or game ---


def _every_page(api: FlaskClient, path: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    page = 1
    while True:
        body = api.get(f"{BASE}{path}?page={page}&per_page=100", headers=headers).get_json()
        items += body["items"]
        if page * 100 >= body["total"]:
            return items
        page += 1


@pytest.mark.parametrize("credential", ["none", "the share key", "the write key"])
def test_no_list_shows_a_private_league_or_game(world: World, api: FlaskClient, credential: str) -> None:
    """Lists leave private ones out whatever key comes with them: a private
    league's games are listed at its own GET /leagues/{league_id}/games."""
    key = _key(world, "league", credential)
    headers = bearer(key)
    hidden_games = {world.league_game, world.solo_game}
    games = _every_page(api, "/games", headers)
    assert {g["id"] for g in games} == {world.public_league_game, world.public_game}
    leagues = _every_page(api, "/leagues", headers)
    assert [(lg["id"], lg["name"]) for lg in leagues] == [(world.public_league, "Open club")]
    texts = []
    for player in world.players:
        for query in ("", f"?league={world.league}", f"?player={world.b}", "?limit=100"):
            response = api.get(f"{BASE}/players/{player}/games{query}", headers=headers)
            assert response.status_code == 200
            ids = {g["id"] for g in response.get_json()["items"]}
            assert not ids & hidden_games, (player, query)
            texts.append(response.get_data(as_text=True))
    history = api.get(f"{BASE}/players/{world.a}/games", headers=headers).get_json()["items"]
    assert {g["id"] for g in history} == {world.public_league_game, world.public_game}
    assert api.get(f"{BASE}/players/{world.a}/games?league={world.league}").get_json()["items"] == []
    public_games = api.get(f"{BASE}/leagues/{world.public_league}/games", headers=headers).get_json()["items"]
    assert [g["id"] for g in public_games] == [world.public_league_game]
    texts += [
        api.get(f"{BASE}/games?per_page=100", headers=headers).get_data(as_text=True),
        api.get(f"{BASE}/leagues?per_page=100", headers=headers).get_data(as_text=True),
        api.get(f"{BASE}/players?per_page=100", headers=headers).get_data(as_text=True),
        api.get(f"{BASE}/leagues/{world.public_league}/standings", headers=headers).get_data(as_text=True),
        api.get(f"{BASE}/leagues/{world.public_league}/export", headers=headers).get_data(as_text=True),
    ]
    for text in texts:
        assert SECRET_LEAGUE not in text and f'"league_id":{world.league}' not in text.replace(" ", "")
    totals = [api.get(f"{BASE}{p}?per_page=1").get_json()["total"] for p in ("/games", "/leagues")]
    assert totals == [2, 1]  # the counts leak nothing either


# --- share keys never write ---


def _etag(w: World, game_id: int, key: str) -> dict[str, str]:
    return {"If-Match": w.api.get(f"{BASE}/games/{game_id}", headers=bearer(key)).headers["ETag"]}


def _share_key_id(w: World, path: str, key: str) -> int:
    keys = w.api.get(f"{BASE}{path}/share-keys", headers=bearer(key)).get_json()["items"]
    return int(next(k["id"] for k in keys if k["label"] == "board"))


# (name, "league" or "solo", request maker given the world, the league or game id, its write key, headers)
Write = Callable[[World, int, str, dict[str, str]], Any]
WRITES: list[tuple[str, str, Write]] = [
    (
        "create a game in the league",
        "league",
        lambda w, i, k, h: w.api.post(f"{BASE}/games", headers=h, json=w.body(league_id=i)),
    ),
    (
        "change the rules of its game",
        "league",
        lambda w, i, k, h: w.api.patch(f"{BASE}/games/{w.game_of(i)}", headers=h, json={"rules": {"gin_bonus": 20}}),
    ),
    (
        "record a hand",
        "league",
        lambda w, i, k, h: w.api.post(
            f"{BASE}/games/{w.game_of(i)}/hands", json=COUNTS, headers={**h, **_etag(w, w.game_of(i), k)}
        ),
    ),
    (
        "correct a hand",
        "league",
        lambda w, i, k, h: w.api.put(
            f"{BASE}/games/{w.game_of(i)}/hands/1", json=COUNTS, headers={**h, **_etag(w, w.game_of(i), k)}
        ),
    ),
    (
        "undo a hand",
        "league",
        lambda w, i, k, h: w.api.delete(
            f"{BASE}/games/{w.game_of(i)}/hands/1", headers={**h, **_etag(w, w.game_of(i), k)}
        ),
    ),
    (
        "add members",
        "league",
        lambda w, i, k, h: w.api.post(f"{BASE}/leagues/{i}/members", headers=h, json={"players": [w.players[3]]}),
    ),
    ("rotate the league key", "league", lambda w, i, k, h: w.api.post(f"{BASE}/leagues/{i}/key", headers=h)),
    (
        "change the league's visibility",
        "league",
        lambda w, i, k, h: w.api.patch(f"{BASE}/leagues/{i}", headers=h, json={"visibility": "public"}),
    ),
    (
        "issue a share key",
        "league",
        lambda w, i, k, h: w.api.post(f"{BASE}/leagues/{i}/share-key", headers=h, json={"label": "board"}),
    ),
    (
        "revoke a share key",
        "league",
        lambda w, i, k, h: w.api.delete(
            f"{BASE}/leagues/{i}/share-keys/{_share_key_id(w, f'/leagues/{i}', k)}", headers=h
        ),
    ),
    (
        "change the rules",
        "solo",
        lambda w, i, k, h: w.api.patch(f"{BASE}/games/{i}", headers=h, json={"rules": {"gin_bonus": 20}}),
    ),
    (
        "change the game's visibility",
        "solo",
        lambda w, i, k, h: w.api.patch(f"{BASE}/games/{i}", headers=h, json={"visibility": "public"}),
    ),
    (
        "record a hand (solo)",
        "solo",
        lambda w, i, k, h: w.api.post(f"{BASE}/games/{i}/hands", json=COUNTS, headers={**h, **_etag(w, i, k)}),
    ),
    (
        "correct a hand (solo)",
        "solo",
        lambda w, i, k, h: w.api.put(f"{BASE}/games/{i}/hands/1", json=COUNTS, headers={**h, **_etag(w, i, k)}),
    ),
    (
        "undo a hand (solo)",
        "solo",
        lambda w, i, k, h: w.api.delete(f"{BASE}/games/{i}/hands/1", headers={**h, **_etag(w, i, k)}),
    ),
    ("rotate the game key", "solo", lambda w, i, k, h: w.api.post(f"{BASE}/games/{i}/key", headers=h)),
    (
        "issue a share key (solo)",
        "solo",
        lambda w, i, k, h: w.api.post(f"{BASE}/games/{i}/share-key", headers=h, json={"label": "board"}),
    ),
    (
        "revoke a share key (solo)",
        "solo",
        lambda w, i, k, h: w.api.delete(f"{BASE}/games/{i}/share-keys/{_share_key_id(w, f'/games/{i}', k)}", headers=h),
    ),
    (
        "open a dispute",
        "league",
        lambda w, i, k, h: w.api.post(f"{BASE}/games/{w.game_of(i)}/hands/1/disputes", headers=h, json=DISPUTE),
    ),
    (
        "open a dispute (solo)",
        "solo",
        lambda w, i, k, h: w.api.post(f"{BASE}/games/{i}/hands/1/disputes", headers=h, json=DISPUTE),
    ),
]
# the recorded counts hand disputed with cards (R24: the knocker spreads his sets, 10 points)
DISPUTE = {
    "by": "captain",
    "claim": "the counts were wrong",
    "knocker_hand": {"cards": ["4H", "5H", "6H", "4S", "5S", "6S", "4D", "5D", "6D", "KC"]},
    "defender_hand": {"cards": ["AH", "2H", "3H", "7H", "8H", "9H", "2S", "3S", "7S", "8S"]},
}


WRITES_TO_ITS_GAME = {
    "change the rules of its game",
    "record a hand",
    "correct a hand",
    "undo a hand",
    "open a dispute",
}


def test_a_write_to_a_private_game_answers_as_one_to_an_unknown_game(world: World, api: FlaskClient) -> None:
    for game in (world.solo_game, world.league_game):
        private = api.post(f"{BASE}/games/{game}/hands", json=COUNTS, headers={"If-Match": "*"})
        unknown = api.post(f"{BASE}/games/{UNKNOWN}/hands", json=COUNTS, headers={"If-Match": "*"})
        assert private.status_code == unknown.status_code == 404
        same = [(k, v) for k, v in private.headers if k != "Content-Length"]
        assert same == [(k, v) for k, v in unknown.headers if k != "Content-Length"]
        assert private.get_data(as_text=True) == unknown.get_data(as_text=True).replace(str(UNKNOWN), str(game))


def _writes_to(w: World, target: str, private: bool) -> tuple[int, str, str]:
    """The league or game written to, its write key and a share key to it."""
    if target == "league":
        if private:
            return w.league, w.league_key, w.league_share
        share = w.ok(
            w.api.post(
                f"{BASE}/leagues/{w.public_league}/share-key",
                json={"label": "board"},
                headers=bearer(w.public_league_key),
            ),
            201,
        )
        return w.public_league, w.public_league_key, share["key"]
    if private:
        return w.solo_game, w.solo_key, w.solo_share
    share = w.ok(
        w.api.post(
            f"{BASE}/games/{w.public_game}/share-key", json={"label": "board"}, headers=bearer(w.public_game_key)
        ),
        201,
    )
    return w.public_game, w.public_game_key, share["key"]


@pytest.mark.parametrize("visibility", ["private", "public"])
@pytest.mark.parametrize("name,target,make", WRITES, ids=[w[0] for w in WRITES])
def test_a_share_key_never_writes(world: World, name: str, target: str, make: Write, visibility: str) -> None:
    ident, key, share = _writes_to(world, target, visibility == "private")
    before = world.snapshot()
    response = make(world, ident, key, bearer(share))
    assert response.status_code == 403, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    body = response.get_json()
    assert body == {
        "type": "https://ginref.org/problems/forbidden",
        "title": "Forbidden",
        "status": 403,
        "detail": "a share key only reads: writes need the write key",
    }
    assert world.snapshot() == before


@pytest.mark.parametrize(
    "credential", ["none", "unknown", "another game's key", "another league's key", "a revoked (rotated) share key"]
)
@pytest.mark.parametrize("name,target,make", WRITES, ids=[w[0] for w in WRITES])
def test_a_write_to_a_private_one_without_its_key_is_an_unknown_id(
    world: World, name: str, target: str, make: Write, credential: str
) -> None:
    """Writes do not reveal a private league or game either: the answer is
    the one an unknown id gets (a game's league_id: the 422 of an unknown league)."""
    ident = world.league if target == "league" else world.solo_game
    key = world.league_key if target == "league" else world.solo_key
    before = world.snapshot()
    response = make(world, ident, key, bearer(_key(world, "league" if target == "league" else "solo", credential)))
    body = response.get_json()
    if name == "create a game in the league":
        assert response.status_code == 422
        assert body == {
            "type": "https://ginref.org/problems/invalid-content",
            "title": "Unprocessable Entity",
            "status": 422,
            "detail": f"league_id: there is no league {ident}",
            "errors": {"league_id": [f"there is no league {ident}"]},
            "offending": ident,
        }
        unknown = world.api.post(f"{BASE}/games", json=world.body(league_id=UNKNOWN)).get_json()
        assert json.loads(json.dumps(unknown).replace(str(UNKNOWN), str(ident))) == body
    else:
        assert response.status_code == 404, response.get_data(as_text=True)
        if target == "solo":
            what = f"game {world.solo_game}"
        else:
            what = f"game {world.league_game}" if name in WRITES_TO_ITS_GAME else f"league {world.league}"
        assert body == {"type": NOT_FOUND, "title": "Not Found", "status": 404, "detail": f"there is no {what}"}
    assert response.mimetype == PROBLEM_JSON and "WWW-Authenticate" not in response.headers
    assert world.snapshot() == before


@pytest.mark.parametrize("name,target,make", WRITES, ids=[w[0] for w in WRITES])
def test_the_write_key_still_writes_to_a_private_one(world: World, name: str, target: str, make: Write) -> None:
    ident, key = (world.league, world.league_key) if target == "league" else (world.solo_game, world.solo_key)
    response = make(world, ident, key, bearer(key))
    assert response.status_code in (200, 201, 204, 409), response.get_data(as_text=True)
    assert response.status_code != 409 or "rules" in name  # the rules change only before the first hand


# --- visibility, changed with the write key, and the reads follow ---


def _reads(api: FlaskClient, paths: list[str]) -> list[int]:
    return [api.get(BASE + path).status_code for path in paths]


def test_a_league_goes_public_and_private_again_with_its_write_key_and_the_reads_follow(
    world: World, api: FlaskClient
) -> None:
    paths = [f"/leagues/{world.league}", f"/leagues/{world.league}/standings", f"/games/{world.league_game}/hands/1"]
    assert _reads(api, paths) == [404, 404, 404]
    public = api.patch(
        f"{BASE}/leagues/{world.league}", json={"visibility": "public"}, headers=bearer(world.league_key)
    )
    assert public.status_code == 200 and public.get_json()["visibility"] == "public"
    assert _reads(api, paths) == [200, 200, 200]
    assert world.league in {lg["id"] for lg in _every_page(api, "/leagues", {})}
    assert world.league_game in {g["id"] for g in _every_page(api, "/games", {})}
    history = api.get(f"{BASE}/players/{world.a}/games").get_json()["items"]
    assert world.league_game in {g["id"] for g in history}
    private = api.patch(
        f"{BASE}/leagues/{world.league}", json={"visibility": "private"}, headers=bearer(world.league_key)
    )
    assert private.status_code == 200 and private.get_json()["visibility"] == "private"
    assert _reads(api, paths) == [404, 404, 404]
    assert world.league not in {lg["id"] for lg in _every_page(api, "/leagues", {})}
    assert world.league_game not in {g["id"] for g in _every_page(api, "/games", {})}
    assert api.get(BASE + paths[0], headers=bearer(world.league_share)).get_json()["visibility"] == "private"


def test_a_game_goes_public_and_private_again_with_its_write_key_and_the_reads_follow(
    world: World, api: FlaskClient
) -> None:
    game = f"{BASE}/games/{world.solo_game}"
    before = api.get(game, headers=bearer(world.solo_share))
    public = api.patch(game, json={"visibility": "public"}, headers=bearer(world.solo_key))
    assert public.status_code == 200 and public.get_json()["visibility"] == "public"
    assert public.headers["ETag"] != before.headers["ETag"]  # the game's answer changed
    assert api.get(game).status_code == 200 and api.get(f"{game}/hands/1").status_code == 200
    assert world.solo_game in {g["id"] for g in _every_page(api, "/games", {})}
    private = api.patch(game, json={"visibility": "private"}, headers=bearer(world.solo_key))
    assert private.status_code == 200 and private.get_json()["visibility"] == "private"
    assert api.get(game).status_code == 404 and api.get(f"{game}/hands").status_code == 404
    assert world.solo_game not in {g["id"] for g in _every_page(api, "/games", {})}
    same = api.patch(game, json={"visibility": "private"}, headers=bearer(world.solo_key))
    assert same.headers["ETag"] == private.headers["ETag"]  # nothing changed


def test_a_game_in_a_league_follows_its_league_and_has_no_visibility_of_its_own(world: World, api: FlaskClient) -> None:
    created = api.post(
        f"{BASE}/games", json=world.body(league_id=world.league, visibility="public"), headers=bearer(world.league_key)
    )
    assert created.status_code == 422
    assert created.get_json()["errors"] == {"visibility": ["a game in a league follows its league's visibility"]}
    patched = api.patch(
        f"{BASE}/games/{world.league_game}", json={"visibility": "public"}, headers=bearer(world.league_key)
    )
    assert patched.status_code == 422
    assert patched.get_json()["errors"] == {
        "visibility": [
            f"game {world.league_game} is in league {world.league} and follows its visibility: change the league's"
        ]
    }
    assert patched.get_json()["offending"] == "public"
    assert api.get(f"{BASE}/games/{world.league_game}").status_code == 404


@pytest.mark.parametrize(
    "method,path,body",
    [
        ("POST", "/leagues", {"name": "X", "visibility": "hidden"}),
        ("POST", "/games", {"visibility": "hidden"}),
        ("PATCH", "/leagues/{league}", {"visibility": "hidden"}),
        ("PATCH", "/games/{game}", {"visibility": "hidden"}),
    ],
)
def test_a_visibility_is_public_or_private(world: World, api: FlaskClient, method: str, path: str, body: Any) -> None:
    if path == "/games":
        body = world.body(**body)
    key = world.league_key if "leagues/" in path else world.solo_key
    url = BASE + path.format(league=world.league, game=world.solo_game)
    response = api.open(url, method=method, json=body, headers=bearer(key))
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"visibility": ['"hidden" is not public or private']}


def test_a_patch_of_a_game_gives_rules_or_visibility(world: World, api: FlaskClient) -> None:
    response = api.patch(f"{BASE}/games/{world.solo_game}", json={}, headers=bearer(world.solo_key))
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"rules": ["give rules or visibility"]}


# --- share keys: issued, listed, rotated and revoked with the write key ---


@pytest.mark.parametrize("scope", ["league", "game"])
def test_share_keys_are_issued_once_listed_without_secrets_rotated_and_revoked(
    world: World, api: FlaskClient, private_app: Flask, scope: str
) -> None:
    base, key, read = (
        (f"/leagues/{world.league}", world.league_key, f"/leagues/{world.league}/standings")
        if scope == "league"
        else (f"/games/{world.solo_game}", world.solo_key, f"/games/{world.solo_game}/hands")
    )
    issued = api.post(f"{BASE}{base}/share-key", json={"label": "  the notice board  "}, headers=bearer(key))
    assert issued.status_code == 201, issued.get_json()
    shown = issued.get_json()
    assert sorted(shown) == ["created_at", "id", "key", "label"] and shown["label"] == "the notice board"
    assert issued.headers["Location"] == f"{BASE}{base}/share-keys/{shown['id']}"
    assert api.get(BASE + read, headers=bearer(shown["key"])).status_code == 200
    listed = api.get(f"{BASE}{base}/share-keys", headers=bearer(key))
    assert listed.status_code == 200
    items = listed.get_json()["items"]
    assert [(k["label"], sorted(k)) for k in items] == [
        ("board", ["created_at", "id", "label"]),
        ("phone", ["created_at", "id", "label"]),
        ("the notice board", ["created_at", "id", "label"]),
    ]
    assert items[-1] == {"id": shown["id"], "label": "the notice board", "created_at": shown["created_at"]}
    assert shown["key"] not in listed.get_data(as_text=True)
    with private_app.app_context():
        stored = {row.key_hash for row in db.session.scalars(select(ApiKey))}
    assert shown["key"] not in stored and hash_key(shown["key"]) in stored

    # the same label again: a new key, and the old one reads nothing at once
    again = api.post(f"{BASE}{base}/share-key", json={"label": "the notice board"}, headers=bearer(key)).get_json()
    assert api.get(BASE + read, headers=bearer(shown["key"])).status_code == 404
    assert api.get(BASE + read, headers=bearer(again["key"])).status_code == 200
    labels = [k["label"] for k in api.get(f"{BASE}{base}/share-keys", headers=bearer(key)).get_json()["items"]]
    assert labels == ["board", "phone", "the notice board"]

    # revoked: it reads nothing, and it is gone from the list
    gone = api.delete(f"{BASE}{base}/share-keys/{again['id']}", headers=bearer(key))
    assert gone.status_code == 204
    assert api.get(BASE + read, headers=bearer(again["key"])).status_code == 404
    assert api.delete(f"{BASE}{base}/share-keys/{again['id']}", headers=bearer(key)).get_json() == {
        "type": NOT_FOUND,
        "title": "Not Found",
        "status": 404,
        "detail": f"there is no active share key {again['id']}",
    }
    other = world.public_league if scope == "league" else world.public_game
    other_key = world.public_league_key if scope == "league" else world.public_game_key
    prefix = "leagues" if scope == "league" else "games"
    board = _share_key_id(world, base, key)  # another's share key cannot be revoked through this one
    assert api.delete(f"{BASE}/{prefix}/{other}/share-keys/{board}", headers=bearer(other_key)).status_code == 404
    assert (
        api.get(BASE + read, headers=bearer(world.league_share if scope == "league" else world.solo_share)).status_code
        == 200
    )


@pytest.mark.parametrize("label", ["", "   ", "x" * 61, "tab\tinside"])
def test_a_share_key_label_is_1_to_60_characters(world: World, api: FlaskClient, label: str) -> None:
    response = api.post(
        f"{BASE}/leagues/{world.league}/share-key", json={"label": label}, headers=bearer(world.league_key)
    )
    assert response.status_code == 422
    assert list(response.get_json()["errors"]) == ["label"]


def test_a_label_of_60_characters_will_do(world: World, api: FlaskClient) -> None:
    response = api.post(
        f"{BASE}/leagues/{world.league}/share-key", json={"label": "é" * 60}, headers=bearer(world.league_key)
    )
    assert response.status_code == 201 and response.get_json()["label"] == "é" * 60


def test_rotating_the_write_key_leaves_the_share_keys_reading(world: World, api: FlaskClient) -> None:
    rotated = api.post(f"{BASE}/leagues/{world.league}/key", headers=bearer(world.league_key))
    assert rotated.status_code == 201
    assert api.get(f"{BASE}/leagues/{world.league}", headers=bearer(world.league_share)).status_code == 200
    assert api.get(f"{BASE}/leagues/{world.league}", headers=bearer(world.league_key)).status_code == 404  # revoked
    new = rotated.get_json()["key"]
    assert api.get(f"{BASE}/leagues/{world.league}", headers=bearer(new)).status_code == 200


def test_the_share_key_list_needs_the_write_key(world: World, api: FlaskClient) -> None:
    private = f"{BASE}/leagues/{world.league}/share-keys"
    assert api.get(private).status_code == 404  # a private league does not show
    share = api.get(private, headers=bearer(world.league_share))
    assert (
        share.status_code == 403 and share.get_json()["detail"] == "a share key only reads: writes need the write key"
    )
    public = f"{BASE}/leagues/{world.public_league}/share-keys"
    none = api.get(public)
    assert none.status_code == 401 and none.headers["WWW-Authenticate"].startswith('Bearer realm="ginref"')
    assert api.get(public, headers=bearer(world.league_key)).status_code == 403
    assert api.get(public, headers=bearer(world.public_league_key)).get_json() == {"items": []}
    assert api.get(f"{BASE}/games/{world.solo_game}/share-keys", headers=bearer(world.solo_share)).status_code == 403


def test_a_game_in_a_league_is_shared_with_the_league(world: World, api: FlaskClient) -> None:
    game = world.league_game
    headers = bearer(world.league_key)
    for response in (
        api.post(f"{BASE}/games/{game}/share-key", json={"label": "board"}, headers=headers),
        api.get(f"{BASE}/games/{game}/share-keys", headers=headers),
        api.delete(f"{BASE}/games/{game}/share-keys/1", headers=headers),
    ):
        assert response.status_code == 409
        assert response.get_json()["detail"] == f"game {game} is in league {world.league}: share the league"


def test_an_export_keeps_the_visibility_and_an_import_of_it_is_private(world: World, api: FlaskClient) -> None:
    export = api.get(f"{BASE}/leagues/{world.league}/export", headers=bearer(world.league_share))
    doc = export.get_json()
    assert doc["league"] == {"id": world.league, "name": SECRET_LEAGUE, "visibility": "private"}
    imported = api.post(f"{BASE}/leagues/import", data=export.get_data(), content_type="application/json")
    assert imported.status_code == 201, imported.get_json()
    league = imported.get_json()
    assert league["visibility"] == "private"
    assert api.get(f"{BASE}/leagues/{league['id']}").status_code == 404
    assert api.get(f"{BASE}/leagues/{league['id']}", headers=bearer(league["key"])).status_code == 200
    assert [lg["id"] for lg in _every_page(api, "/leagues", {})] == [world.public_league]
    del doc["league"]["visibility"]  # an export made before there were private leagues
    older = api.post(f"{BASE}/leagues/import", json=doc).get_json()
    assert older["visibility"] == "public"


# --- every read of one league or game declares its guard ---


def test_every_read_of_a_league_or_game_declares_a_guard_of_its_scope(private_app: Flask) -> None:
    guards = private_app.extensions["read_guards"]
    reads = {
        rule.endpoint: rule.rule
        for rule in private_app.url_map.iter_rules()
        if "GET" in (rule.methods or set()) and rule.arguments & {"game_id", "league_id"}
    }
    assert set(guards) == set(reads) and len(reads) >= 11
    for endpoint, path in reads.items():
        guard = guards[endpoint]
        assert f"<id:{guard.scope}_id>" in path, endpoint
        assert (guard.key == "write") == path.endswith("/share-keys"), endpoint


def test_an_app_with_a_read_of_a_game_that_declares_no_guard_does_not_start() -> None:
    app = Flask(__name__)
    blp = Blueprint("forgotten", __name__)

    @blp.route("/games/<int:game_id>/events")
    class Forgotten(MethodView):
        def get(self, game_id: int) -> str:
            return ""

    app.register_blueprint(blp)
    with pytest.raises(RuntimeError, match="GET /games/<int:game_id>/events .* declares no read guard"):
        declared_read_guards(app)


@pytest.mark.parametrize("credential", ["none", "another league's key", "a revoked (rotated) share key"])
@pytest.mark.parametrize(
    "extra",
    [
        {},  # a game that would be started
        {"roles": None, "cut": "tied"},  # R9: the cut is refused first
        {"players": "unknown player"},
        {"players": "not a list"},  # the schema refuses it first
        {"rules": {"target_score": 0}},
    ],
    ids=["valid", "tied cut", "unknown player", "bad players", "bad rules"],
)
def test_a_game_naming_a_private_league_it_cannot_see_gets_the_answer_of_one_naming_no_league(
    world: World, api: FlaskClient, credential: str, extra: dict[str, Any]
) -> None:
    """The checks, their order and the answer are those of an unknown league
    (the schema, the players, the cut (R9), then the league): which ids are
    private leagues cannot be told from which are no league at all."""
    p = world.players
    body: dict[str, Any] = world.body()
    if extra.get("cut") == "tied":
        del body["roles"]
        body["cut"] = {str(p[0]): "KS", str(p[1]): "KH", str(p[2]): "KD"}
    elif extra.get("players") == "unknown player":
        body["players"] = [p[0], p[1], UNKNOWN + 1]
    elif extra.get("players") == "not a list":
        body["players"] = "A, B and C"
    else:
        body.update(extra)
    key = _key(world, "league", credential)
    before = world.snapshot()
    seen = api.post(f"{BASE}/games", json={**body, "league_id": world.league}, headers=bearer(key))
    unknown = api.post(f"{BASE}/games", json={**body, "league_id": UNKNOWN}, headers=bearer(key))
    assert seen.status_code == unknown.status_code == 422, seen.get_data(as_text=True)
    assert seen.mimetype == unknown.mimetype == PROBLEM_JSON
    assert seen.get_json() == json.loads(json.dumps(unknown.get_json()).replace(str(UNKNOWN), str(world.league)))
    headers = [(k, v) for k, v in seen.headers if k != "Content-Length"]
    assert headers == [(k, v) for k, v in unknown.headers if k != "Content-Length"]
    assert world.snapshot() == before
