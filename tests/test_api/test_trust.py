"""Retries are safe (Idempotency-Key), two phones cannot record the same turn
(If-Match), and writes are rate-limited per key."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from models import ApiKey, Game, IdempotencyRecord, Player, db
from referee import Rules
from tests.test_api.conftest import BACKENDS, _engine_options

COUNTS = {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 20}


def _app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, name: str, **config: Any) -> Flask:
    return _app_of({**_engine_options(request, tmp_path_factory, request.param, name), **config})


def _app_of(config: dict[str, Any]) -> Flask:
    app = create_app({"TESTING": True, **config})
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture(scope="module", params=BACKENDS)
def trust_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = _app(request, tmp_path_factory, "trust", RATELIMIT_ENABLED=False)
    yield app
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def api(trust_app: Flask) -> Iterator[FlaskClient]:
    yield trust_app.test_client()
    with trust_app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def key() -> str:
    """A fresh Idempotency-Key, as a client makes one."""
    return uuid.uuid4().hex


def new_game(api: FlaskClient) -> tuple[int, dict[str, str], str]:
    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    r = api.post("/api/v1/games", json={"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}})
    return r.get_json()["id"], {"Authorization": f"Bearer {r.get_json()['key']}"}, r.headers["ETag"]


def test_a_retry_with_the_same_key_and_body_replays_the_first_response(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    headers = {**auth, "If-Match": etag, "Idempotency-Key": key()}
    first = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
    again = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
    assert first.status_code == again.status_code == 201  # replayed before the (now stale) If-Match check
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 1


def test_the_same_key_with_another_body_is_a_422(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    headers = {**auth, "If-Match": etag, "Idempotency-Key": key()}
    assert api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers).status_code == 201
    other = api.post(f"/api/v1/games/{game}/hands", json={**COUNTS, "knocker_deadwood_count": 4}, headers=headers)
    assert other.status_code == 422 and other.content_type == "application/problem+json"
    assert "Idempotency-Key" in other.get_json()["errors"]
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 1


def test_the_same_key_with_another_query_string_is_a_422(api: FlaskClient) -> None:
    headers = {"Idempotency-Key": key()}
    first = api.post("/api/v1/players?note=1", json={"name": "Ann"}, headers=headers)
    assert first.status_code == 201
    again = api.post("/api/v1/players?note=1", json={"name": "Ann"}, headers=headers)
    assert (again.status_code, again.headers["Idempotent-Replayed"]) == (201, "true")
    for query in ("?note=2", ""):
        other = api.post(f"/api/v1/players{query}", json={"name": "Ann"}, headers=headers)
        assert other.status_code == 422 and other.content_type == "application/problem+json"
        assert other.get_json()["errors"] == {"Idempotency-Key": ["already used with a different body or query string"]}
    assert api.get("/api/v1/players").get_json()["total"] == 1


def test_keys_are_scoped_by_credential_method_and_path(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    game2, auth2, etag2 = new_game(api)
    same = key()
    a = api.post(
        f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag, "Idempotency-Key": same}
    )
    b = api.post(
        f"/api/v1/games/{game2}/hands", json=COUNTS, headers={**auth2, "If-Match": etag2, "Idempotency-Key": same}
    )
    assert a.status_code == b.status_code == 201
    assert "Idempotent-Replayed" not in b.headers


def test_a_replayed_error_is_the_same_error(api: FlaskClient) -> None:
    game, auth, _ = new_game(api)
    headers = {**auth, "If-Match": '"stale"', "Idempotency-Key": key()}
    first = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
    again = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
    assert first.status_code == again.status_code == 412
    assert again.get_json() == first.get_json()


def test_hand_writes_need_if_match_428_and_a_stale_one_is_412_with_the_game(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    missing = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=auth)
    assert missing.status_code == 428 and missing.content_type == "application/problem+json"
    ok = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag})
    assert ok.status_code == 201 and ok.headers["ETag"] != etag
    assert ok.headers["ETag"] == api.get(f"/api/v1/games/{game}").headers["ETag"]
    # the second phone still holds the old ETag: its hand for the same turn is refused
    stale = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag})
    assert stale.status_code == 412
    assert stale.get_json()["game"] == api.get(f"/api/v1/games/{game}").get_json()
    assert stale.headers["ETag"] == ok.headers["ETag"]
    for method in ("put", "delete"):
        r = getattr(api, method)(f"/api/v1/games/{game}/hands/1", json=COUNTS, headers=auth)
        assert r.status_code == 428
        r = getattr(api, method)(f"/api/v1/games/{game}/hands/1", json=COUNTS, headers={**auth, "If-Match": etag})
        assert r.status_code == 412
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 1


@pytest.fixture(params=BACKENDS)
def limited(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    app = _app(request, tmp_path_factory, "limited", RATELIMIT_WRITES="3 per minute")
    yield app.test_client()
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def test_writes_are_rate_limited_per_key_with_retry_after(limited: FlaskClient) -> None:
    ids = [limited.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob")]
    game = limited.post("/api/v1/games", json={"players": [*ids, ids[0]], "roles": {}})  # refused: still counted
    assert game.status_code == 422
    blocked = limited.post("/api/v1/players", json={"name": "Dee"})  # the 4th write from this address
    assert blocked.status_code == 429 and blocked.content_type == "application/problem+json"
    assert int(blocked.headers["Retry-After"]) > 0
    assert limited.get(f"/api/v1/players/{ids[0]}").status_code == 200  # reads are not limited


def test_made_up_keys_share_their_address_budget_and_valid_keys_have_their_own(limited: FlaskClient) -> None:
    ids = [limited.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob")]
    game = limited.post(
        "/api/v1/games",
        json={"players": [*ids, ids[0] + 99], "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[0] + 99}},
    )
    assert game.status_code == 422  # the third write from this address
    for n in range(30):  # a fresh made-up bearer each time gets no budget of its own
        r = limited.post("/api/v1/players", json={"name": "Eve"}, headers={"Authorization": f"Bearer junk{n}"})
        assert r.status_code == 429, n
        r = limited.patch("/api/v1/games/1", json={"rules": {}}, headers={"Authorization": f"Bearer junk{n}"})
        assert r.status_code == 429, n
    with limited.application.app_context():
        assert db.session.query(Player).count() == 2


def test_a_valid_key_has_a_budget_apart_from_its_address(limited: FlaskClient) -> None:
    ids = [limited.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob")]
    ids.append(limited.post("/api/v1/players", json={"name": "Cy"}).get_json()["id"])
    assert limited.post("/api/v1/players", json={"name": "Dee"}).status_code == 429
    with limited.application.app_context():
        game = Game(
            players=ids,
            rules=Rules().as_dict(),
            first_box=ids[0],
            first_captain=ids[1],
            first_sitter=ids[2],
            scores={},
            version=1,
        )
        db.session.add(game)
        db.session.flush()
        _, game_key = ApiKey.issue(game_id=game.id)
        db.session.commit()
        game_id = game.id
    auth = {"Authorization": f"Bearer {game_key}"}
    for _ in range(3):
        assert limited.patch(f"/api/v1/games/{game_id}", json={"rules": {}}, headers=auth).status_code == 200
    assert limited.patch(f"/api/v1/games/{game_id}", json={"rules": {}}, headers=auth).status_code == 429


def test_a_failed_limit_store_keeps_writes_going_with_limits_in_memory(
    tmp_path_factory: pytest.TempPathFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis down (nothing listens on port 1): writes still succeed, still limited."""
    path = tmp_path_factory.mktemp("store") / "store.sqlite3"
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "RATELIMIT_WRITES": "2 per minute",
            "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:1/0",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    statuses = [client.post("/api/v1/players", json={"name": n}).status_code for n in ("Ann", "Bob", "Cy")]
    assert statuses == [201, 201, 429]
    assert "rate-limit store failed" in caplog.text
    with app.app_context():
        db.engine.dispose()


def test_the_memory_limit_store_limits_and_sweeps_without_a_thread_per_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """limits' own memory store starts a timer thread 10 ms after each burst of
    hits; api.limit_store.MemoryStore sweeps inline, at most once a second."""
    import threading
    import time

    from limits import parse
    from limits.strategies import MovingWindowRateLimiter

    from api.limits import MemoryStore, open_store

    store = open_store("memory://")
    assert isinstance(store, MemoryStore)
    limiter, item = MovingWindowRateLimiter(store), parse("3 per second")
    started: list[threading.Thread] = []
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self))
    assert [limiter.hit(item, "p", "a") for _ in range(5)] == [True, True, True, False, False]
    assert limiter.hit(item, "p", "b") is True
    assert len(store) == 2
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 0.5)  # within the second: no sweep yet
    assert limiter.hit(item, "p", "c") is True and len(store) == 3
    monkeypatch.setattr(time, "time", lambda: now + 2 * MemoryStore.SWEEP_EVERY)  # a sweep is due, a's and b's past
    assert limiter.hit(item, "p", "d") is True
    assert started == []
    assert len(store) == 1  # d's alone: a's, b's and c's hits are gone


def test_the_app_asks_once_whether_a_hook_is_async_and_keeps_no_view_of_a_request(
    api: FlaskClient, trust_app: Flask
) -> None:
    game_id, headers, _ = new_game(api)
    api.get(f"/api/v1/games/{game_id}")
    remembered = dict(trust_app._sync)  # type: ignore[attr-defined]
    assert remembered and all(sync is func for func, sync in remembered.items())  # plain functions, as they are
    for _ in range(5):
        assert api.get(f"/api/v1/games/{game_id}").status_code == 200
    assert trust_app._sync == remembered  # type: ignore[attr-defined]  # a MethodView's bound methods are not kept


def test_a_hand_is_not_recorded_over_a_game_row_that_moved_on(api: FlaskClient, trust_app: Flask) -> None:
    """record_hand writes only over the version it read (a safety net under the row lock)."""
    from sqlalchemy import text

    from models import write_transaction
    from models.game import GameRow, StaleGameError, record_hand
    from referee import Role, score_counts

    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    game = api.post(
        "/api/v1/games", json={"players": ids, "roles": dict(zip(("box", "captain", "sitter"), ids, strict=True))}
    ).get_json()
    with trust_app.app_context(), write_transaction():  # as every write request runs
        row = GameRow.read(game["id"], lock=True)
        assert row is not None and row.version == game["version"]
        db.session.execute(text("UPDATE game SET version = version + 1 WHERE id = :id"), {"id": game["id"]})
        score = score_counts(3, 20, row.rule_options)
        with pytest.raises(StaleGameError):
            record_hand(row, Role.BOX, score, {"knocker": "box"}, {"knocker": {"deadwood_count": 3}}, "counts")
        db.session.rollback()
    after = api.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["hands_played"] == 0 and after["version"] == game["version"]
    assert api.get(f"/api/v1/games/{game['id']}/hands").get_json()["items"] == []


def test_operator_commands_issue_keys_for_leagues_and_games_made_before_keys(
    api: FlaskClient, trust_app: Flask
) -> None:
    """`keys backfill` gives every league and league-less game without a key one; `keys issue` rotates."""
    from models import ApiKey

    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    league = api.post("/api/v1/leagues", json={"name": "Club"}).get_json()
    game = api.post(
        "/api/v1/games", json={"players": ids, "roles": dict(zip(("box", "captain", "sitter"), ids, strict=True))}
    )
    game_id, etag = game.get_json()["id"], game.headers["ETag"]
    with trust_app.app_context():
        db.session.execute(ApiKey.__table__.delete())  # as before keys existed
        db.session.commit()
    cli = trust_app.test_cli_runner()
    result = cli.invoke(args=["keys", "backfill"])
    assert result.exit_code == 0, result.output
    lines = dict(line.rsplit("\t", 1) for line in result.output.splitlines())
    assert set(lines) == {f"league {league['id']}", f"game {game_id}"}
    game_key = lines[f"game {game_id}"]
    hand = api.post(
        f"/api/v1/games/{game_id}/hands", json=COUNTS, headers={"Authorization": f"Bearer {game_key}", "If-Match": etag}
    )
    assert hand.status_code == 201
    league_key = lines[f"league {league['id']}"]
    members = api.post(
        f"/api/v1/leagues/{league['id']}/members",
        json={"players": ids},
        headers={"Authorization": f"Bearer {league_key}"},
    )
    assert members.status_code in (200, 201)
    assert cli.invoke(args=["keys", "backfill"]).output == ""  # nothing left without a key
    rotated = cli.invoke(args=["keys", "issue", "--game", str(game_id)])
    assert rotated.exit_code == 0 and rotated.output.startswith("grk_")
    new_key = rotated.output.strip()
    old = api.post(
        f"/api/v1/games/{game_id}/hands",
        json=COUNTS,
        headers={"Authorization": f"Bearer {game_key}", "If-Match": hand.headers["ETag"]},
    )
    assert old.status_code == 401
    new = api.post(
        f"/api/v1/games/{game_id}/hands",
        json=COUNTS,
        headers={"Authorization": f"Bearer {new_key}", "If-Match": hand.headers["ETag"]},
    )
    assert new.status_code == 201


# --- no secret at rest, replays only to the credential that made the write ---


def all_stored_bytes(app: Flask) -> bytes:
    """Every value in every table, as bytes: where a leaked secret would show."""
    out = []
    with app.app_context():
        for table in db.metadata.sorted_tables:
            for row in db.session.execute(table.select()):
                out.extend(v if isinstance(v, bytes) else str(v).encode() for v in row)
    return b"\n".join(out)


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/leagues"])
def test_a_key_handed_out_under_an_idempotency_key_is_stored_nowhere_in_plaintext(
    api: FlaskClient, trust_app: Flask, path: str
) -> None:
    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    body = (
        {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}}
        if path.endswith("games")
        else {"name": "Club", "members": ids}
    )
    idem = key()
    first = api.post(path, json=body, headers={"Idempotency-Key": idem})
    assert first.status_code == 201
    secret = first.get_json()["key"]
    stored = all_stored_bytes(trust_app)
    assert secret.encode() not in stored and idem.encode() not in stored
    again = api.post(path, json=body, headers={"Idempotency-Key": idem})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    other = api.post(path, json=body, headers={"Idempotency-Key": key()})  # same body, another key: a new write
    assert other.status_code == 201 and other.get_json()["key"] != secret


@pytest.mark.parametrize(
    "idem",
    [
        "abc",
        "hand-1",
        "a" * 40,
        "0123456" * 3,
        "x" * 256,
        "ключ-0123456789abcdef",
        "0123456789 abcdef",
        "0123456789\tabcdef",
    ],
)
def test_an_idempotency_key_that_is_short_or_not_random_is_a_422_and_writes_nothing(
    api: FlaskClient, trust_app: Flask, idem: str
) -> None:
    game, auth, etag = new_game(api)
    r = api.post(
        f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag, "Idempotency-Key": idem}
    )
    assert r.status_code == 422 and r.content_type == "application/problem+json"
    assert list(r.get_json()["errors"]) == ["Idempotency-Key"]
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 0
    with trust_app.app_context():
        assert db.session.query(IdempotencyRecord).count() == 0


def test_a_retry_with_another_games_key_is_refused_not_replayed(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    _, other_auth, _ = new_game(api)
    idem = key()
    assert (
        api.post(
            f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag, "Idempotency-Key": idem}
        ).status_code
        == 201
    )
    r = api.post(
        f"/api/v1/games/{game}/hands", json=COUNTS, headers={**other_auth, "If-Match": etag, "Idempotency-Key": idem}
    )
    assert r.status_code == 403 and "Idempotent-Replayed" not in r.headers


def test_a_response_is_not_replayed_to_a_key_rotated_away_since(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    idem = key()
    assert (
        api.post(
            f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag, "Idempotency-Key": idem}
        ).status_code
        == 201
    )
    assert api.post(f"/api/v1/games/{game}/key", headers=auth).status_code == 201
    r = api.post(
        f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag, "Idempotency-Key": idem}
    )
    assert r.status_code == 401 and "Idempotent-Replayed" not in r.headers


def test_the_retry_of_a_rotation_gets_its_new_key_and_nothing_else_works_with_the_old(api: FlaskClient) -> None:
    game, auth, _ = new_game(api)
    idem = key()
    first = api.post(f"/api/v1/games/{game}/key", headers={**auth, "Idempotency-Key": idem})
    assert first.status_code == 201
    again = api.post(f"/api/v1/games/{game}/key", headers={**auth, "Idempotency-Key": idem})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert api.post(f"/api/v1/games/{game}/key", headers={**auth, "Idempotency-Key": key()}).status_code == 401
    assert api.post(f"/api/v1/games/{game}/key", headers=auth).status_code == 401
    new_auth = {"Authorization": f"Bearer {first.get_json()['key']}"}
    assert api.patch(f"/api/v1/games/{game}", json={"rules": {}}, headers=new_auth).status_code == 200


def test_unauthenticated_writes_store_nothing_whatever_they_send(api: FlaskClient, trust_app: Flask) -> None:
    game, _, etag = new_game(api)
    before = all_stored_bytes(trust_app)
    for n in range(20):
        headers = {
            "Authorization": f"Bearer grk_made_up_{n:04d}_xxxxxxxxxxxxxxxx",
            "If-Match": etag,
            "Idempotency-Key": key(),
        }
        assert api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers).status_code == 401
        assert api.post(f"/api/v1/games/{game}/key", headers=headers).status_code == 401
    assert all_stored_bytes(trust_app) == before


def test_a_refused_write_stores_no_response_and_its_retry_runs_again(api: FlaskClient, trust_app: Flask) -> None:
    game, auth, etag = new_game(api)
    idem = key()
    stale = api.post(
        f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": '"g0v0"', "Idempotency-Key": idem}
    )
    assert stale.status_code == 412
    with trust_app.app_context():
        assert db.session.query(IdempotencyRecord).count() == 0
    fixed = api.post(
        f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag, "Idempotency-Key": idem}
    )
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed.headers


# --- the record commits with its write, and a failed commit is answered with the truth ---


def _failing_commit(monkeypatch: pytest.MonkeyPatch, *, after: bool) -> list[int]:
    """The driver's next COMMIT fails as on a dropped connection: ``after``
    the database committed (the acknowledgement lost), or before it did."""
    dialect = db.engine.dialect
    real = type(dialect).do_commit
    calls: list[int] = []

    def do_commit(self: Any, dbapi_connection: Any) -> None:
        if not calls:
            calls.append(1)
            if after:
                real(self, dbapi_connection)
            else:
                dbapi_connection.rollback()
            raise dialect.loaded_dbapi.OperationalError("server closed the connection unexpectedly")
        real(self, dbapi_connection)

    monkeypatch.setattr(type(dialect), "do_commit", do_commit)
    return calls


@pytest.mark.parametrize("after", [True, False], ids=["committed", "lost"])
def test_a_write_whose_commit_fails_is_answered_with_the_truth_and_its_retry_writes_once(
    api: FlaskClient, trust_app: Flask, monkeypatch: pytest.MonkeyPatch, after: bool
) -> None:
    game, auth, etag = new_game(api)
    headers = {**auth, "If-Match": etag, "Idempotency-Key": key()}
    with trust_app.app_context():
        calls = _failing_commit(monkeypatch, after=after)
        r = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
    assert calls == [1]
    if after:  # it is in the log: the answer is its 201, as stored with it
        assert r.status_code == 201 and r.get_json()["number"] == 1
    else:
        assert r.status_code == 503 and r.content_type == "application/problem+json"
        assert int(r.headers["Retry-After"]) >= 1
        assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 0
    retry = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
    assert retry.status_code == 201 and retry.get_json()["number"] == 1
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 1
    with trust_app.app_context():
        assert db.session.query(IdempotencyRecord).count() == 1


def test_a_failed_commit_of_a_player_is_a_503_and_the_retry_creates_one(
    api: FlaskClient, trust_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    headers = {"Idempotency-Key": key()}
    with trust_app.app_context():
        _failing_commit(monkeypatch, after=False)
        assert api.post("/api/v1/players", json={"name": "Ann"}, headers=headers).status_code == 503
    assert api.post("/api/v1/players", json={"name": "Ann"}, headers=headers).status_code == 201
    assert api.post("/api/v1/players", json={"name": "Ann"}, headers=headers).headers["Idempotent-Replayed"]
    with trust_app.app_context():
        assert db.session.query(Player).count() == 1


# --- concurrent rotations leave exactly one key ---


def test_concurrent_rotations_with_one_key_leave_exactly_one_valid_key(api: FlaskClient, trust_app: Flask) -> None:
    import threading

    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    league = api.post("/api/v1/leagues", json={"name": "Club", "members": ids}).get_json()
    game, game_auth, _ = new_game(api)
    for path, auth in (
        (f"/api/v1/leagues/{league['id']}/key", {"Authorization": f"Bearer {league['key']}"}),
        (f"/api/v1/games/{game}/key", game_auth),
    ):
        barrier = threading.Barrier(6)
        answers: list[Any] = []

        def rotate(
            path: str = path,
            auth: dict[str, str] = auth,
            barrier: threading.Barrier = barrier,
            answers: list[Any] = answers,
        ) -> None:
            client = trust_app.test_client()
            barrier.wait()
            answers.append(client.post(path, headers=auth))

        threads = [threading.Thread(target=rotate) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(r.status_code for r in answers) == [201] + [401] * 5
        with trust_app.app_context():
            scope = (ApiKey.league_id == league["id"]) if "leagues" in path else (ApiKey.game_id == game)
            assert db.session.query(ApiKey).filter(scope, ApiKey.revoked_at.is_(None)).count() == 1


def test_twins_of_a_write_that_needs_no_key_create_one_player_and_get_one_answer(
    api: FlaskClient, trust_app: Flask
) -> None:
    """Six copies of one POST /players at once (a double tap, a proxy's retry):
    one player, and every copy answered with that player's 201."""
    import threading

    barrier = threading.Barrier(6)
    headers = {"Idempotency-Key": key()}
    answers: list[Any] = []

    def send() -> None:
        client = trust_app.test_client()
        barrier.wait()
        answers.append(client.post("/api/v1/players", json={"name": "Twin"}, headers=headers))

    threads = [threading.Thread(target=send) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert [r.status_code for r in answers] == [201] * 6
    assert len({r.get_data() for r in answers}) == 1
    with trust_app.app_context():
        assert db.session.query(Player).count() == 1


def test_a_failed_commit_whose_rollback_fails_too_is_still_answered_with_the_truth(
    api: FlaskClient, trust_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection killed under a write fails its ROLLBACK as well (psycopg's
    AdminShutdown): the answer is still a 503, never a 500, and the retry writes once."""

    game, auth, etag = new_game(api)
    headers = {**auth, "If-Match": etag, "Idempotency-Key": key()}
    failures: list[int] = []

    with trust_app.app_context():
        dialect = db.engine.dialect
        real_rollback = type(dialect).do_rollback

        def do_rollback(self: Any, dbapi_connection: Any) -> None:
            real_rollback(self, dbapi_connection)
            if not failures:  # the app's rollback after the failed commit
                failures.append(1)
                raise dialect.loaded_dbapi.OperationalError("terminating connection due to administrator command")

        _failing_commit(monkeypatch, after=False)
        monkeypatch.setattr(type(dialect), "do_rollback", do_rollback)
        r = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
        monkeypatch.setattr(type(dialect), "do_rollback", real_rollback)
    assert failures == [1]
    assert r.status_code == 503 and r.content_type == "application/problem+json", r.get_data(as_text=True)
    retry = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers)
    assert retry.status_code == 201 and retry.get_json()["number"] == 1
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_request_that_finds_no_connection_free_in_time_is_a_503(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, backend: str
) -> None:
    """Every connection of the worker's pool busy for longer than its
    pool_timeout: the database is out of reach for now (a 503 to retry), not a bug."""
    config = _engine_options(request, tmp_path_factory, backend, "pool")
    options = {**config.get("SQLALCHEMY_ENGINE_OPTIONS", {}), "pool_size": 1, "max_overflow": 0, "pool_timeout": 0.2}
    app = _app_of(config | {"SQLALCHEMY_ENGINE_OPTIONS": options, "RATELIMIT_ENABLED": False})
    client = app.test_client()
    try:
        with app.app_context():
            with db.engine.connect():  # the pool's one connection, held by another request
                for method, path, body in (
                    ("post", "/api/v1/players", {"name": "Ann"}),
                    ("get", "/api/v1/games/1", None),
                ):
                    r = getattr(client, method)(path, json=body)
                    assert r.status_code == 503, r.get_data(as_text=True)
                    assert r.content_type == "application/problem+json"
                    assert int(r.headers["Retry-After"]) >= 1
                    assert r.get_json()["detail"].startswith("no connection to the database was free in time")
            assert client.post("/api/v1/players", json={"name": "Ann"}).status_code == 201  # free again
            assert db.session.query(Player).count() == 1  # nothing of the 503 was written
    finally:
        with app.app_context():
            db.drop_all()
            db.engine.dispose()
