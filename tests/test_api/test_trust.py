"""Retries are safe (Idempotency-Key), two phones cannot record the same turn
(If-Match), and writes are rate-limited per key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from models import IdempotencyRecord, db
from tests.test_api.conftest import BACKENDS, _engine_options

COUNTS = {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 20}


def _app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, name: str,
         **config: Any) -> Flask:
    app = create_app({"TESTING": True, **_engine_options(request, tmp_path_factory, request.param, name), **config})
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


def new_game(api: FlaskClient) -> tuple[int, dict[str, str], str]:
    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    r = api.post("/api/v1/games", json={"players": ids, "roles": {"box": ids[0], "captain": ids[1],
                                                                   "sitter": ids[2]}})
    return r.get_json()["id"], {"Authorization": f"Bearer {r.get_json()['key']}"}, r.headers["ETag"]


def test_a_retry_with_the_same_key_and_body_replays_the_first_response(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    headers = {**auth, "If-Match": etag, "Idempotency-Key": "hand-1"}
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
    headers = {**auth, "If-Match": etag, "Idempotency-Key": "k"}
    assert api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers=headers).status_code == 201
    other = api.post(f"/api/v1/games/{game}/hands", json={**COUNTS, "knocker_deadwood_count": 4}, headers=headers)
    assert other.status_code == 422 and other.content_type == "application/problem+json"
    assert "Idempotency-Key" in other.get_json()["errors"]
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 1


def test_a_duplicate_while_the_first_is_in_progress_is_a_409(api: FlaskClient, trust_app: Flask) -> None:
    game, auth, etag = new_game(api)
    body = api.post  # the in-flight first request is simulated by its in-progress record
    import hashlib
    import json as _json

    from models.security import hash_key
    raw = _json.dumps(COUNTS).encode()
    with trust_app.app_context():
        db.session.add(IdempotencyRecord(scope="key:" + hash_key(auth["Authorization"][7:])[:40], method="POST",
                                         path=f"/api/v1/games/{game}/hands", key="busy",
                                         body_hash=hashlib.sha256(raw).hexdigest()))
        db.session.commit()
    r = body(f"/api/v1/games/{game}/hands", data=raw, content_type="application/json",
             headers={**auth, "If-Match": etag, "Idempotency-Key": "busy"})
    assert r.status_code == 409
    assert api.get(f"/api/v1/games/{game}").get_json()["hands_played"] == 0


def test_keys_are_scoped_by_credential_method_and_path(api: FlaskClient) -> None:
    game, auth, etag = new_game(api)
    game2, auth2, etag2 = new_game(api)
    a = api.post(f"/api/v1/games/{game}/hands", json=COUNTS, headers={**auth, "If-Match": etag,
                                                                       "Idempotency-Key": "same"})
    b = api.post(f"/api/v1/games/{game2}/hands", json=COUNTS, headers={**auth2, "If-Match": etag2,
                                                                        "Idempotency-Key": "same"})
    assert a.status_code == b.status_code == 201
    assert "Idempotent-Replayed" not in b.headers


def test_a_replayed_error_is_the_same_error(api: FlaskClient) -> None:
    game, auth, _ = new_game(api)
    headers = {**auth, "If-Match": '"stale"', "Idempotency-Key": "e"}
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
        r = getattr(api, method)(f"/api/v1/games/{game}/hands/1", json=COUNTS,
                                 headers={**auth, "If-Match": etag})
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
    ids = [limited.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    blocked = limited.post("/api/v1/players", json={"name": "Dee"})  # the 4th write from this address
    assert blocked.status_code == 429 and blocked.content_type == "application/problem+json"
    assert int(blocked.headers["Retry-After"]) > 0
    assert limited.get(f"/api/v1/players/{ids[0]}").status_code == 200  # reads are not limited
    # a key has its own budget, apart from the address
    headers = {"Authorization": "Bearer grk_someone_elses_key_xxxxxxxxxxxxx"}
    assert limited.post("/api/v1/players", json={"name": "Eve"}, headers=headers).status_code == 201


def test_a_failed_limit_store_keeps_writes_going_with_limits_in_memory(
        tmp_path_factory: pytest.TempPathFactory, caplog: pytest.LogCaptureFixture) -> None:
    """Redis down (nothing listens on port 1): writes still succeed, still limited."""
    path = tmp_path_factory.mktemp("store") / "store.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
                      "RATELIMIT_WRITES": "2 per minute", "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:1/0"})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    statuses = [client.post("/api/v1/players", json={"name": n}).status_code for n in ("Ann", "Bob", "Cy")]
    assert statuses == [201, 201, 429]
    assert "rate-limit store failed" in caplog.text
    with app.app_context():
        db.engine.dispose()


def test_a_hand_is_not_recorded_over_a_game_row_that_moved_on(api: FlaskClient, trust_app: Flask) -> None:
    """record_hand writes only over the version it read (a safety net under the row lock)."""
    from sqlalchemy import text

    from models import write_transaction
    from models.game import GameRow, StaleGame, record_hand
    from referee import Role, score_counts

    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    game = api.post("/api/v1/games", json={"players": ids, "roles": dict(zip(("box", "captain", "sitter"), ids,
                                                                              strict=True))}).get_json()
    with trust_app.app_context(), write_transaction():  # as every write request runs
        row = GameRow.read(game["id"], lock=True)
        assert row is not None and row.version == game["version"]
        db.session.execute(text("UPDATE game SET version = version + 1 WHERE id = :id"), {"id": game["id"]})
        score = score_counts(3, 20, row.rule_options)
        with pytest.raises(StaleGame):
            record_hand(row, Role.BOX, score, {"knocker": "box"}, {"knocker": {"deadwood_count": 3}}, "counts")
        db.session.rollback()
    after = api.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["hands_played"] == 0 and after["version"] == game["version"]
    assert api.get(f"/api/v1/games/{game['id']}/hands").get_json()["items"] == []


def test_operator_commands_issue_keys_for_leagues_and_games_made_before_keys(
        api: FlaskClient, trust_app: Flask) -> None:
    """`keys backfill` gives every league and league-less game without a key one; `keys issue` rotates."""
    from models import ApiKey

    ids = [api.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy")]
    league = api.post("/api/v1/leagues", json={"name": "Club"}).get_json()
    game = api.post("/api/v1/games", json={"players": ids, "roles": dict(zip(("box", "captain", "sitter"), ids,
                                                                              strict=True))})
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
    hand = api.post(f"/api/v1/games/{game_id}/hands", json=COUNTS,
                    headers={"Authorization": f"Bearer {game_key}", "If-Match": etag})
    assert hand.status_code == 201
    league_key = lines[f"league {league['id']}"]
    members = api.post(f"/api/v1/leagues/{league['id']}/members", json={"players": ids},
                       headers={"Authorization": f"Bearer {league_key}"})
    assert members.status_code in (200, 201)
    assert cli.invoke(args=["keys", "backfill"]).output == ""  # nothing left without a key
    rotated = cli.invoke(args=["keys", "issue", "--game", str(game_id)])
    assert rotated.exit_code == 0 and rotated.output.startswith("grk_")
    new_key = rotated.output.strip()
    old = api.post(f"/api/v1/games/{game_id}/hands", json=COUNTS,
                   headers={"Authorization": f"Bearer {game_key}", "If-Match": hand.headers["ETag"]})
    assert old.status_code == 401
    new = api.post(f"/api/v1/games/{game_id}/hands", json=COUNTS,
                   headers={"Authorization": f"Bearer {new_key}", "If-Match": hand.headers["ETag"]})
    assert new.status_code == 201
