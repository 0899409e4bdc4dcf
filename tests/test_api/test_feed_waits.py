"""The feed's waits in one process: bounded in all and per client address,
refused at once past the bound, and ended by their key's revocation."""

from __future__ import annotations

import threading
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from models import ApiKey, db
from models.database import now
from models.events import VersionWatch, WaitRefused
from tests.test_api.conftest import seats


def _game(client: FlaskClient, players: list[int]) -> int:
    r = client.post("/api/v1/games", json={"players": players, "roles": seats(*players)})
    return int(r.get_json()["id"])


def _waiting(watch: VersionWatch, count: int) -> None:
    deadline = time.monotonic() + 5
    while watch.waiting < count:
        assert time.monotonic() < deadline, "the waits did not start"
        time.sleep(0.01)


def test_waits_past_the_bounds_are_refused_at_once_and_a_wait_that_ends_frees_its_place(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    with app.app_context():
        watch = VersionWatch(db.engine, 0.02, most=2, per_client=1)
    results: list[int | None] = []
    first = threading.Thread(target=lambda: results.append(watch.wait(game, 1, 0.6, client="10.0.0.1")))
    first.start()
    _waiting(watch, 1)
    started = time.monotonic()
    with pytest.raises(WaitRefused, match="1 requests from 10.0.0.1"):
        watch.wait(game, 1, 5, client="10.0.0.1")
    second = threading.Thread(target=lambda: results.append(watch.wait(game, 1, 0.6, client="10.0.0.2")))
    second.start()
    _waiting(watch, 2)
    with pytest.raises(WaitRefused, match="2 requests wait"):
        watch.wait(game, 1, 5, client="10.0.0.3")
    assert time.monotonic() - started < 0.5  # refused at once, not after a wait
    first.join()
    second.join()
    assert results == [None, None] and watch.waiting == 0  # both timed out: the game did not move
    assert watch.wait(game, 1, 0.05, client="10.0.0.1") is None  # its place is free again


def test_a_wait_opened_with_a_key_ends_soon_after_the_key_is_revoked(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    with app.app_context():
        row, _ = ApiKey.issue(game_id=game, label="board")
        db.session.commit()
        key_id = row.id
    with app.app_context():
        watch = VersionWatch(db.engine, 0.02)
    results: list[tuple[int | None, float]] = []

    def wait() -> None:
        started = time.monotonic()
        results.append((watch.wait(game, 1, 5, key_id=key_id), time.monotonic() - started))

    waiter = threading.Thread(target=wait)
    waiter.start()
    _waiting(watch, 1)
    with app.app_context():
        db.session.get(ApiKey, key_id).revoked_at = now()
        db.session.commit()
    waiter.join(timeout=5)
    assert results and results[0][0] == 1 and results[0][1] < 1.0
