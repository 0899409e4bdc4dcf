"""A hang becomes a 503 with Retry-After, and never holds up the rest: a
rate-limit store that never answers, a PostgreSQL lock held by another
transaction, a SQLite write lock held past the busy timeout, a database out of
reach. Real servers (gunicorn, four workers); ``/health`` is watched all along
on new connections. Bounded: every request has a client timeout, every lock
held by the test is released within 30 s."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import create_engine, text

from tests.live import BlackHole, LiveServer, database_url, postgres_up, raw_request

UNAVAILABLE = "https://ginref.org/problems/unavailable"
TCP_PARAMETERS = ("tcp_user_timeout", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count")
HOLD = 30.0  # seconds a lock taken by a test is held at most


class HealthWatch:
    """GET /health on a new connection every 100 ms, in a thread, while in use."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.seconds: list[float] = []
        self.failures: list[str] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self.stopped.wait(0.1):
            started = time.monotonic()
            try:
                r = raw_request(
                    self.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout=5
                )
                if r.status != 200:
                    self.failures.append(f"status {r.status}")
            except OSError as err:
                self.failures.append(repr(err))
            self.seconds.append(time.monotonic() - started)

    @property
    def worst(self) -> float:
        return max(self.seconds)

    def __enter__(self) -> HealthWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)


def new_game(base: str) -> dict[str, Any]:
    ids = [
        requests.post(f"{base}/api/v1/players", json={"name": n}, timeout=10).json()["id"] for n in ("Ann", "Bob", "Cy")
    ]
    r = requests.post(
        f"{base}/api/v1/games",
        timeout=10,
        json={"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}},
    )
    assert r.status_code == 201, r.text
    game = dict(r.json())
    game["etag"] = r.headers["ETag"]
    return game


def record_draw(base: str, game: dict[str, Any]) -> tuple[requests.Response, float]:
    """The next hand of ``game`` (a draw), on a connection of its own."""
    started = time.monotonic()
    r = requests.post(
        f"{base}/api/v1/games/{game['id']}/hands",
        json={"outcome": "draw"},
        timeout=30,
        headers={"Authorization": f"Bearer {game['key']}", "If-Match": game["etag"], "Connection": "close"},
    )
    return r, time.monotonic() - started


def assert_unavailable(r: requests.Response) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["Content-Type"] == "application/problem+json"
    assert int(r.headers["Retry-After"]) > 0
    body = r.json()
    assert body["type"] == UNAVAILABLE and body["status"] == 503 and body["detail"], body


def test_a_rate_limit_store_that_never_answers_costs_a_write_its_short_timeout(tmp_path: Path) -> None:
    with BlackHole() as store:
        env = {"FLASK_RATELIMIT_STORAGE_URI": f'"redis://127.0.0.1:{store.port}/0"'}
        with (
            LiveServer(f"sqlite:///{tmp_path / 'store.sqlite3'}", workers=4, env=env) as server,
            HealthWatch(server.port) as health,
        ):

            def create_player(i: int) -> tuple[int, float]:
                started = time.monotonic()
                r = requests.post(
                    f"{server.base}/api/v1/players", json={"name": f"P{i}"}, timeout=10, headers={"Connection": "close"}
                )
                return r.status_code, time.monotonic() - started

            with ThreadPoolExecutor(4) as pool:  # new connections, 4 at a time: every worker meets the store
                results = list(pool.map(create_player, range(16)))
            time.sleep(0.5)  # /health once more after the writes
        print(
            f"\nwrites: slowest {max(s for _, s in results):.3f} s; /health: slowest {health.worst:.3f} s "
            f"of {len(health.seconds)}"
        )
        assert {status for status, _ in results} <= {201, 429, 503}, results
        assert max(seconds for _, seconds in results) < 2.0, results
        assert not health.failures and health.worst < 1.0, (health.failures, health.worst)
        warnings = server.log().count("rate-limit store failed")
        assert 1 <= warnings <= 4, server.log()  # once per worker that met the store


@pytest.mark.slow
def test_a_sqlite_write_lock_held_past_the_busy_timeout_is_a_503_then_the_same_write_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    with LiveServer(f"sqlite:///{path}", workers=4) as server:
        games = [new_game(server.base) for _ in range(3)]
        holder = sqlite3.connect(path, isolation_level=None, timeout=1)
        try:
            holder.execute("BEGIN IMMEDIATE")  # the write lock, outside the app's writer queue
            with HealthWatch(server.port) as health, ThreadPoolExecutor(3) as pool:
                # One writer waits on SQLite's busy timeout, two in the queue behind it from a
                # second later: the one that gets its turn when the first gives up has 1 s left.
                first = pool.submit(record_draw, server.base, games[0])
                time.sleep(1)
                queued = [pool.submit(record_draw, server.base, game) for game in games[1:]]
                results = [future.result(timeout=60) for future in (first, *queued)]
        finally:
            holder.rollback()
            holder.close()
        print(
            f"\nwrites under the lock: {', '.join(f'{s:.2f} s' for _, s in results)}; "
            f"/health: slowest {health.worst:.3f} s of {len(health.seconds)}"
        )
        for r, seconds in results:
            assert_unavailable(r)
            assert 9.0 < seconds < 12.0, seconds  # 10 s in all, in the queue and for SQLite's lock
        assert not health.failures and health.worst < 1.0, (health.failures, health.worst)
        assert "503 for POST" in server.log()
        for game in games:
            r, _ = record_draw(server.base, game)  # the same request again, once the lock is free
            assert r.status_code == 201, r.text


@contextmanager
def row_lock(url: str, sql: str, params: dict[str, Any]) -> Iterator[int]:
    """Run ``sql`` (a lock) in a transaction of another connection, held until
    the block ends or HOLD seconds pass; yields that backend's pid."""
    engine = create_engine(url)
    locked, release = threading.Event(), threading.Event()
    pid: list[int] = []

    def hold() -> None:
        with engine.connect() as conn:
            pid.append(int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one()))
            conn.execute(text(sql), params)
            locked.set()
            release.wait(HOLD)
            conn.rollback()

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    try:
        assert locked.wait(10), "the lock was not taken"
        yield pid[0]
    finally:
        release.set()
        thread.join(timeout=10)
        engine.dispose()


def _terminate_when_blocked(url: str, holder: int) -> bool:
    """pg_terminate_backend the backend blocked by ``holder`` (the app's
    connection, waiting on the lock), once there is one (10 s at most)."""
    engine = create_engine(url)
    try:
        deadline = time.monotonic() + 10
        with engine.connect() as conn:
            while time.monotonic() < deadline:
                done = conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE :holder = ANY(pg_blocking_pids(pid))"
                    ),
                    {"holder": holder},
                ).all()
                if done:
                    return True
                time.sleep(0.05)
        return False
    finally:
        engine.dispose()


@pytest.mark.slow
@pytest.mark.skipif(not postgres_up(), reason="no PostgreSQL at TEST_DATABASE_URL")
def test_a_postgresql_lock_held_on_the_game_makes_its_write_a_503_and_health_stays_fast(tmp_path: Path) -> None:
    url = database_url("postgresql", tmp_path, "ginref_live_timeouts")
    with LiveServer(url, workers=4) as server:
        game, other = new_game(server.base), new_game(server.base)
        with (
            row_lock(url, "SELECT id FROM game WHERE id = :id FOR UPDATE", {"id": game["id"]}) as holder,
            HealthWatch(server.port) as health,
            ThreadPoolExecutor(2) as pool,
        ):
            stuck = pool.submit(record_draw, server.base, game)
            time.sleep(0.5)
            free, free_seconds = record_draw(server.base, other)  # another game is not held up
            stuck_response, stuck_seconds = stuck.result(timeout=40)

            dropped = pool.submit(record_draw, server.base, game)  # its connection dies while it waits
            terminated = _terminate_when_blocked(url, holder)  # under load the write may reach the lock late
            dropped_response, dropped_seconds = dropped.result(timeout=40)
        print(
            f"\nlocked game: 503 after {stuck_seconds:.2f} s; other game: 201 after {free_seconds:.3f} s; "
            f"connection {'dropped' if terminated else 'not caught waiting'}: 503 after {dropped_seconds:.2f} s; "
            f"/health: slowest {health.worst:.3f} s of {len(health.seconds)}"
        )
        assert free.status_code == 201, free.text
        assert free_seconds < 1.0
        assert_unavailable(stuck_response)
        assert 4.5 < stuck_seconds < 7.0, stuck_seconds  # lock_timeout: 5 s
        assert "lock timeout" in stuck_response.json()["detail"]
        assert_unavailable(dropped_response)  # dropped, or else timed out on the lock: a 503 either way
        assert dropped_seconds < (5.0 if terminated else 7.0)
        assert not health.failures and health.worst < 1.0, (health.failures, health.worst)
        r, _ = record_draw(server.base, game)  # the same request again, once the lock is gone
        assert r.status_code == 201, r.text


def test_a_database_that_never_answers_or_refuses_is_a_503_with_retry_after() -> None:
    with BlackHole() as hole:
        server = LiveServer(
            f"postgresql+psycopg://postgres@127.0.0.1:{hole.port}/test",
            workers=2,
            env={"FLASK_DATABASE_CONNECT_TIMEOUT": "2"},
        )
        try:
            server.start()  # /health needs no database; no init-db either
            seconds = _read_and_write_out_of_reach(server, hole)
            print(f"\na read: 503 after {seconds['silent']:.2f} s (silent), {seconds['refusing']:.3f} s (refusing)")
            assert seconds["silent"] < 4.0  # connect_timeout: 2 s
            assert seconds["refusing"] < 1.0
            assert "Traceback" not in server.log()
        finally:
            server.stop()


def _read_and_write_out_of_reach(server: LiveServer, hole: BlackHole) -> dict[str, float]:
    """A read and a write with the database silent, then refusing: each a 503."""
    seconds = {}
    for database in ("silent", "refusing"):
        if database == "refusing":
            hole.close()  # connections to its port are refused now
        started = time.monotonic()
        read = requests.get(f"{server.base}/api/v1/players", timeout=30)
        seconds[database] = time.monotonic() - started
        write = requests.post(f"{server.base}/api/v1/players", json={"name": "Ann"}, timeout=30)
        assert_unavailable(read)
        assert_unavailable(write)
    return seconds


@pytest.mark.skipif(not postgres_up(), reason="no PostgreSQL at TEST_DATABASE_URL")
@pytest.mark.parametrize(
    ("config", "shown"),
    [
        ({}, {"lock_timeout": "5s", "statement_timeout": "15s", "idle_in_transaction_session_timeout": "30s"}),
        (
            {"DATABASE_LOCK_TIMEOUT": 2.5, "DATABASE_STATEMENT_TIMEOUT": 0},  # 0: the server's own (none)
            {"lock_timeout": "2500ms", "statement_timeout": "0", "idle_in_transaction_session_timeout": "30s"},
        ),
    ],
)
def test_server_timeouts_are_set_on_every_postgresql_connection(
    config: dict[str, float], shown: dict[str, str]
) -> None:
    from app import create_app
    from models import db

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": os.environ["TEST_DATABASE_URL"],
            **config,
            "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": "-csearch_path=public"}},
        }
    )
    with app.app_context(), db.engine.connect() as conn:
        settings = {name: conn.execute(text(f"SHOW {name}")).scalar_one() for name in (*shown, "search_path")}
        libpq = conn.connection.dbapi_connection.info.get_parameters()  # type: ignore[union-attr]
        db.engine.dispose()
    assert settings == {**shown, "search_path": "public"}
    # the client's side of a silent server (libpq's TCP settings, on the pooled connection)
    assert {k: libpq.get(k) for k in TCP_PARAMETERS} == {
        "tcp_user_timeout": "10000",
        "keepalives": "1",
        "keepalives_idle": "5",
        "keepalives_interval": "2",
        "keepalives_count": "2",
    }


def test_a_server_timeout_of_0_is_not_sent_so_the_servers_own_applies() -> None:
    from app import postgresql_connect_args

    off = {"DATABASE_LOCK_TIMEOUT": 0, "DATABASE_STATEMENT_TIMEOUT": 0, "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT": 0}
    tcp = {"tcp_user_timeout": 10000, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 2}
    tcp["keepalives"] = 1
    assert postgresql_connect_args(off, "postgresql+psycopg://db/ginref", {}) == {"connect_timeout": 5, **tcp}
    url = "postgresql+psycopg://db/ginref?options=-csearch_path%3Dleague&connect_timeout=9"
    assert postgresql_connect_args({"DATABASE_LOCK_TIMEOUT": 0}, url, {}) == {
        "options": "-csearch_path=league -c statement_timeout=15000 -c idle_in_transaction_session_timeout=30000",
        **tcp,
    }
