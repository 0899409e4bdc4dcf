"""The feed's waits in one process: bounded in all and per client address,
refused at once past the bound, ended by their key's revocation, and
answered from one read of a game's events for all who wait on it."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from models import ApiKey, db
from models.database import now
from models.events import Event, Moved, VersionWatch, WaitRefused
from tests.test_api.conftest import PROBLEM_JSON, by_counts, seats


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
    results: list[tuple[Moved | None, float]] = []

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
    assert results and results[0][0] == Moved(1, None, revoked=True) and results[0][1] < 1.0


# --- one read of a game's events for all its waiters (the watch's ticks made by hand here) ---

IDLE = 3600.0  # the watch's own thread never ticks within a test: the test calls tick()


def _waits(
    watch: VersionWatch, *waits: tuple[int, int, int, int | None]
) -> tuple[list[threading.Thread], dict[int, Any]]:
    """Threads waiting on the watch, each (game, after, limit, key id); their results by index."""
    results: dict[int, Any] = {}

    def wait(i: int, game: int, after: int, limit: int, key_id: int | None) -> None:
        results[i] = watch.wait(game, after, 5, limit=limit, key_id=key_id)

    threads = [threading.Thread(target=wait, args=(i, *w)) for i, w in enumerate(waits)]
    for t in threads:
        t.start()
    _waiting(watch, len(waits))
    return threads, results


def _kinds(moved: Moved) -> list[tuple[int, str, int | None]]:
    assert moved.events is not None
    return [(e.version, e.kind, e.hand) for e in moved.events]


def test_waiters_of_one_game_get_one_read_of_its_events_each_as_far_as_its_limit(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    with app.app_context():
        watch = VersionWatch(db.engine, IDLE)
    threads, results = _waits(watch, (game, 1, 100, None), (game, 1, 100, None), (game, 1, 1, None))
    watch.tick()  # the game has not moved: nothing is read but the versions, no one wakes
    assert watch.reads == {"versions": 1} and watch.waiting == 3
    for hand in (by_counts("box", 4, 24), by_counts("captain", 2, 30)):
        assert client.post(f"/api/v1/games/{game}/hands", json=hand).status_code == 201
    watch.tick()
    for t in threads:
        t.join(timeout=5)
    assert watch.reads == {"versions": 2, "events": 1}  # one read of the events, for the three
    assert results[0] == results[1] and results[0].version == 3
    assert _kinds(results[0]) == [(2, "hand_recorded", 1), (3, "hand_recorded", 2)]
    assert results[2].version == 3 and _kinds(results[2]) == [(2, "hand_recorded", 1)]  # limit=1
    assert all(isinstance(e, Event) for e in results[0].events) and watch.waiting == 0


def test_the_events_of_every_game_that_moved_are_read_in_one_statement_each_game_from_its_own_waiters(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    games = [_game(client, players) for _ in range(20)]  # more than the smallest batch of ranges (16)
    for game in games[::2]:  # every other game is a hand ahead: its waiter waits after version 2
        assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    with app.app_context():
        watch = VersionWatch(db.engine, IDLE)
    waits = [(game, 2 if i % 2 == 0 else 1, 2, None) for i, game in enumerate(games)]
    threads, results = _waits(watch, *waits)
    for game in games:
        for hand in (by_counts("captain", 2, 30), by_counts("box", 0, 10)):
            assert client.post(f"/api/v1/games/{game}/hands", json=hand).status_code == 201
    watch.tick()
    for t in threads:
        t.join(timeout=5)
    assert watch.reads == {"versions": 1, "events": 1} and watch.waiting == 0
    with app.app_context():
        pool: Any = db.engine.pool
        held = pool.checkedout()
        watch.tick()  # no one waits: the watch gives its connection back
        assert pool.checkedout() == held - 1 and watch.reads["versions"] == 1
    for i in range(len(games)):
        moved = results[i]
        if i % 2 == 0:  # after 2, limit 2: versions 3 and 4, hands 2 and 3; the game is at 4
            assert moved.version == 4 and _kinds(moved) == [(3, "hand_recorded", 2), (4, "hand_recorded", 3)]
        else:  # after 1, limit 2: versions 2 and 3 of the game at 3
            assert moved.version == 3 and _kinds(moved) == [(2, "hand_recorded", 1), (3, "hand_recorded", 2)]


def test_a_waiter_behind_what_the_watch_read_is_left_to_read_its_own_events(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    with app.app_context():
        watch = VersionWatch(db.engine, IDLE)
    threads, results = _waits(watch, (game, 2, 100, None), (game, 2, 100, None))
    watch.tick()  # version 2: no one behind it, no events read
    assert watch.reads == {"versions": 1} and watch.waiting == 2
    started = time.monotonic()
    assert watch.wait(game, 1, 5) == Moved(2, None)  # at once: the view reads the events after 1 itself
    assert time.monotonic() - started < 1.0 and watch.reads == {"versions": 1}
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("captain", 2, 30)).status_code == 201
    watch.tick()
    for t in threads:
        t.join(timeout=5)
    assert results[0] == results[1] == Moved(3, [results[0].events[0]])
    assert _kinds(results[0]) == [(3, "hand_recorded", 2)]
    assert watch.reads == {"versions": 2, "events": 1}


def test_a_key_revoked_in_the_tick_that_sees_the_hand_ends_the_wait_without_the_hand(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:  # N7: the keys are read after the events, so no event read after a revocation is served
    game = _game(client, players)
    with app.app_context():
        row, _ = ApiKey.issue(game_id=game, label="board")
        db.session.commit()
        key_id = row.id
        watch = VersionWatch(db.engine, IDLE)
    threads, results = _waits(watch, (game, 1, 100, key_id), (game, 1, 100, None))
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    with app.app_context():
        db.session.get(ApiKey, key_id).revoked_at = now()
        db.session.commit()
    watch.tick()
    for t in threads:
        t.join(timeout=5)
    assert results[0] == Moved(1, None, revoked=True)  # the view answers 404
    assert _kinds(results[1]) == [(2, "hand_recorded", 1)]  # the public reader is answered as ever
    assert watch.reads == {"versions": 1, "events": 1, "keys": 1}


def test_the_watch_reads_any_number_of_games_and_keys_by_one_statement_of_one_parameter_each(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:  # a tick costs the database one parse of each statement, not a list of hundreds of parameters
    games = [_game(client, players) for _ in range(3)]
    with app.app_context():
        keys = [ApiKey.issue(game_id=game, label="board")[0] for game in games]
        db.session.commit()
        key_ids = [row.id for row in keys]
        engine = db.engine
        watch = VersionWatch(engine, IDLE)
    sent: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        text = " ".join(statement.split())
        if text.startswith(("SELECT game.id, game.version FROM game WHERE", "SELECT api_key.id FROM api_key WHERE")):
            sent.append((text, parameters))

    event.listen(engine, "before_cursor_execute", seen)
    try:
        for count in (1, 3):
            threads, _ = _waits(watch, *((game, 1, 100, key_ids[i]) for i, game in enumerate(games[:count])))
            watch.tick()  # nothing moved: the versions and the keys are read, no one wakes
            for game in games[:count]:
                assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
            watch.tick()
            for t in threads:
                t.join(timeout=5)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    versions = [(s, p) for s, p in sent if "revoked_at" not in s]
    revoked = [(s, p) for s, p in sent if "revoked_at" in s]
    assert len(versions) == len(revoked) == 4  # two ticks for one game, two for three
    for reads in (versions, revoked):
        assert len({s for s, _ in reads}) == 1  # one text, for one game as for three
        assert all(len(p) == 1 for _, p in reads)  # its one parameter: the list of ids


# --- the same through the API, with the app's own watch ---


def _open(app: Flask, url: str, headers: dict[str, str] | None = None) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def ask() -> None:
        r = app.test_client().get(url, headers=headers or {})
        out.append((r.status_code, r.headers.get("ETag"), r.get_json(), time.monotonic()))

    thread = threading.Thread(target=ask)
    thread.start()
    return thread, out


def test_two_phones_waiting_on_one_game_get_the_same_answer_from_one_read(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    watch: VersionWatch = app.extensions["version_watch"]
    url = f"/api/v1/games/{game}/events?after=1&wait=10"
    (first, a), (second, b) = _open(app, url), _open(app, url)
    _waiting(watch, 2)
    reads = watch.reads["events"]
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    first.join(timeout=10)
    second.join(timeout=10)
    assert a[0][:3] == b[0][:3]
    status, etag, body, _ = a[0]
    assert (status, etag) == (200, f'"g{game}v2"')
    assert [(e["version"], e["kind"], e["hand"]) for e in body["items"]] == [(2, "hand_recorded", 1)]
    assert body["version"] == 2
    assert watch.reads["events"] == reads + 1  # both answered from one read
    assert client.get(f"/api/v1/games/{game}/events?after=1").get_json() == body  # as a plain read has it


def test_a_phone_waiting_with_a_share_key_gets_404_once_it_is_revoked(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:  # N7
    created = client.post(
        "/api/v1/games", json={"players": players, "roles": seats(*players), "visibility": "private"}
    ).get_json()
    game, owner = created["id"], {"Authorization": f"Bearer {created['key']}"}
    share = client.post(f"/api/v1/games/{game}/share-key", json={"label": "board"}, headers=owner).get_json()
    waiting, out = _open(
        app, f"/api/v1/games/{game}/events?after=1&wait=10", {"Authorization": f"Bearer {share['key']}"}
    )
    _waiting(app.extensions["version_watch"], 1)
    assert client.delete(f"/api/v1/games/{game}/share-keys/{share['id']}", headers=owner).status_code == 204
    revoked = time.monotonic()
    waiting.join(timeout=10)
    status, _, body, answered = out[0]
    assert (status, body["type"]) == (404, "https://ginref.org/problems/not-found")
    assert answered - revoked < 1.0


def test_a_private_games_feed_without_a_key_is_404_at_once_and_waits_for_no_one(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    created = client.post(
        "/api/v1/games", json={"players": players, "roles": seats(*players), "visibility": "private"}
    ).get_json()
    started = time.monotonic()
    r = client.get(f"/api/v1/games/{created['id']}/events?after=1&wait=10")
    assert (r.status_code, r.content_type) == (404, PROBLEM_JSON)
    assert r.get_json()["detail"] == client.get("/api/v1/games/999999/events?after=1&wait=10").get_json()[
        "detail"
    ].replace("999999", str(created["id"]))
    assert time.monotonic() - started < 1.0 and app.extensions["version_watch"].waiting == 0


def test_a_phone_at_the_games_version_is_answered_empty_without_a_wait_when_it_asks_none(
    client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    r = client.get(f"/api/v1/games/{game}/events?after=1")
    assert (r.status_code, r.get_json(), r.headers["ETag"]) == (200, {"items": [], "version": 1}, f'"g{game}v1"')


def test_a_phone_costs_one_statement_a_wait_holds_no_connection_and_health_runs_none(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    """A phone asking at its game's version runs one statement, its guard's
    read of the game, and none once woken (the watch read its events for all
    the game's phones); it holds no connection while it waits; /health runs
    no statement."""
    game = _game(client, players)
    ran: list[str] = []

    def before(*_: Any) -> None:
        ran.append(threading.current_thread().name)

    with app.app_context():
        engine = db.engine
    pool: Any = engine.pool
    event.listen(engine, "before_cursor_execute", before)
    try:
        assert client.get("/health").status_code == 200
        assert ran == []
        watch = app.extensions["version_watch"]
        held = pool.checkedout()
        url = f"/api/v1/games/{game}/events?after=1&wait=10"
        phone = threading.Thread(target=lambda: out.append(app.test_client().get(url).get_json()), name="phone")
        out: list[Any] = []
        phone.start()
        _waiting(watch, 1)
        assert ran.count("phone") == 1  # the guard's read of the game: no second read, no read of events
        # while it waits: the watch's connection, and on SQLite the one its read keeps for the next
        assert pool.checkedout() <= held + 2
        assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
        phone.join(timeout=10)
        assert [e["kind"] for e in out[0]["items"]] == ["hand_recorded"] and out[0]["version"] == 2
        assert ran.count("phone") == 1  # woken and answered without a statement of its own
    finally:
        event.remove(engine, "before_cursor_execute", before)


def _asked_alone(app: Flask, url: str) -> tuple[Any, int]:
    """A phone's ask, on a thread of its own: its answer, and how many
    statements it ran."""
    ran: list[str] = []
    with app.app_context():
        engine = db.engine

    def before(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if not statement.startswith("BEGIN"):  # SQLite's, of a session's transaction
            ran.append(threading.current_thread().name)

    out: list[Any] = []
    event.listen(engine, "before_cursor_execute", before)
    try:
        phone = threading.Thread(target=lambda: out.append(app.test_client().get(url)), name="asked-alone")
        phone.start()
        phone.join(timeout=10)
    finally:
        event.remove(engine, "before_cursor_execute", before)
    return out[0], ran.count("asked-alone")


def test_a_phone_behind_a_game_others_wait_on_is_answered_from_the_watchs_read_with_no_read_of_its_own(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    """A phone asking after a version its game has passed, while the watch
    follows the game (another phone waits on it), is answered from what the
    watch read for the game's phones: one pooled connection, for its guard's
    read of the game, and no read of the events of its own."""
    game = _game(client, players)
    watch: VersionWatch = app.extensions["version_watch"]
    first, a = _open(app, f"/api/v1/games/{game}/events?after=1&wait=10")
    _waiting(watch, 1)
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    first.join(timeout=10)
    assert [e["version"] for e in a[0][2]["items"]] == [2]
    stays, c = _open(app, f"/api/v1/games/{game}/events?after=2&wait=10")  # keeps the game followed
    _waiting(watch, 1)
    reads = watch.reads["events"]
    r, statements = _asked_alone(app, f"/api/v1/games/{game}/events?after=1&wait=10")
    assert (r.status_code, r.headers["ETag"]) == (200, f'"g{game}v2"')
    assert [(e["version"], e["kind"], e["hand"]) for e in r.get_json()["items"]] == [(2, "hand_recorded", 1)]
    assert r.get_json()["version"] == 2
    assert statements == 1  # the guard's read alone: the events are the watch's
    assert watch.reads["events"] - reads <= 1  # one read, if any, for the game's every phone
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("captain", 2, 30)).status_code == 201
    stays.join(timeout=10)
    assert [e["version"] for e in c[0][2]["items"]] == [3]


def test_a_phone_behind_a_followed_game_reads_its_events_itself_when_the_watch_cannot(
    app: Flask, client: FlaskClient, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database away from the watch (its ticks fail), a phone behind a
    game the watch follows is not left waiting: after a few ticks' time it
    reads the game's events itself, all of them."""
    game = _game(client, players)
    watch: VersionWatch = app.extensions["version_watch"]
    stays, _ = _open(app, f"/api/v1/games/{game}/events?after=1&wait=3")  # the game is followed
    _waiting(watch, 1)

    def away() -> None:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(watch, "tick", away)
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    started = time.monotonic()
    r = client.get(f"/api/v1/games/{game}/events?after=1&wait=20")
    elapsed = time.monotonic() - started
    assert r.status_code == 200 and r.get_json()["version"] == 2
    assert [(e["version"], e["kind"]) for e in r.get_json()["items"]] == [(2, "hand_recorded")]
    assert 2 * watch.interval <= elapsed < 2 * watch.interval + 3  # the ticks' time, then its own read
    monkeypatch.undo()
    stays.join(timeout=10)


def test_a_phone_behind_a_followed_game_is_answered_even_when_every_place_to_wait_is_taken(
    app: Flask, client: FlaskClient, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone behind its game needs no wait: when the watch follows the game
    but has no place left for one more waiter, it reads its events itself
    rather than being refused with a 429."""
    game = _game(client, players)
    with app.app_context():
        watch = VersionWatch(db.engine, IDLE, most=1)  # one place; no tick within the test
    monkeypatch.setitem(app.extensions, "version_watch", watch)
    holder, held = _open(app, f"/api/v1/games/{game}/events?after=1&wait=1")  # takes the place, follows the game
    _waiting(watch, 1)
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    r = client.get(f"/api/v1/games/{game}/events?after=1&wait=10")
    assert r.status_code == 200, r.get_json()
    assert [(e["version"], e["kind"]) for e in r.get_json()["items"]] == [(2, "hand_recorded")]
    assert r.get_json()["version"] == 2 and r.headers["ETag"] == f'"g{game}v2"'
    at_version = client.get(f"/api/v1/games/{game}/events?after=2&wait=10")  # not behind: refused, as before
    assert at_version.status_code == 429 and at_version.headers["Retry-After"] == "5"
    holder.join(timeout=5)
    assert held[0][0] == 200 and held[0][2]["items"] == []  # no tick came: its wait ran out


def test_a_phone_far_behind_a_followed_game_reads_its_own_events_and_the_watch_reads_a_short_range(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    """A phone further behind its game than the events it asks for (its
    limit) reads them itself: the watch, which reads a game's events from
    its furthest waiter's on, is not made to read the game's whole history."""
    game = _game(client, players)
    for hand in (by_counts("box", 4, 24), by_counts("captain", 2, 30)):
        assert client.post(f"/api/v1/games/{game}/hands", json=hand).status_code == 201
    watch: VersionWatch = app.extensions["version_watch"]
    stays, _ = _open(app, f"/api/v1/games/{game}/events?after=3&wait=2")  # the game is followed
    _waiting(watch, 1)
    r, statements = _asked_alone(app, f"/api/v1/games/{game}/events?after=1&limit=1&wait=10")
    assert r.status_code == 200 and watch.waiting == 1  # it never waited
    assert [(e["version"], e["hand"]) for e in r.get_json()["items"]] == [(2, 1)]
    assert r.get_json()["version"] == 3
    assert statements == 3  # its guard's read, and its own read of the game and of its events
    stays.join(timeout=5)
