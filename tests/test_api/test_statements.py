"""The models' statements on SQLAlchemy's Core (models.database): a game's
read outside the request's session (``SoloRead``) and a hand's write on the
request's one connection give and store the values the models expect, type
for type, on every backend; leave nothing open; and fail with the Core's
errors, a dropped connection invalidated by the Core itself."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Column, MetaData, Table, create_engine, event, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from api.errors import unavailable_cause
from app import create_app
from models import League, books, db
from models.database import (
    Session,
    UTCDateTime,
    insert_rows,
    now,
    session_connection,
    write_transaction,
)
from models.events import _INSERT as INSERT_EVENT
from models.events import VersionWatch
from models.game import _INSERT_HAND as INSERT_HAND
from models.game import Game, Hand, Player
from models.ratings import MU, SIGMA, rate_hand
from models.revisions import _INSERT as INSERT_REVISION
from models.revisions import HandRevision
from models.security import _LOCK_GAME_WITH_KEY, hash_key
from models.sqlite import WRITER_WAIT
from models.statement import runs_as_text
from models.verify import verify_league
from models.visibility import _READ_GAME_AUDIENCE
from tests.test_api.conftest import Api, by_counts, seats


def _core(game_id: int) -> dict[str, Any] | None:
    row = db.session.connection().execute(_READ_GAME_AUDIENCE.statement, {"id": game_id}).mappings().one_or_none()
    return None if row is None else dict(row)


def _same(solo: Any, core: dict[str, Any] | None) -> None:
    solo = None if solo is None else dict(solo)
    assert solo == core
    if solo is not None and core is not None:
        assert list(solo) == list(core)
        assert {k: type(v) for k, v in solo.items()} == {k: type(v) for k, v in core.items()}


def test_a_solo_read_is_the_core_row_of_a_game_in_a_private_league_and_of_one_outside(
    app: Flask, api: Api, players: list[int]
) -> None:
    response = api.post("/leagues", {"name": "Club", "members": players, "visibility": "private"})
    assert response.status_code == 201, response.get_json()
    league = response.get_json()
    inside = api.new_game(players, league_id=league["id"], roles=seats(*players))
    outside = api.new_game(players, roles=seats(*players), rules={"gin_bonus": 30})
    api.record(outside["id"], by_counts("box", 4, 30))  # R25: scores, roles and version move on
    with app.app_context():
        for game_id in (inside["id"], outside["id"]):
            solo = _READ_GAME_AUDIENCE.one_or_none({"id": game_id})
            assert solo is not None
            _same(solo, _core(game_id))
            assert solo["created_at"].tzinfo is not None  # UTC, as every timestamp the models give
        assert _READ_GAME_AUDIENCE.one_or_none({"id": inside["id"]})["league_visibility"] == "private"
        assert _READ_GAME_AUDIENCE.one_or_none({"id": outside["id"]})["league_visibility"] is None
        scores = _READ_GAME_AUDIENCE.one_or_none({"id": outside["id"]})["scores"]
        assert scores == {str(players[0]): 26, str(players[1]): 0, str(players[2]): 0}
        _same(_READ_GAME_AUDIENCE.one_or_none({"id": 2147483647}), None)


def test_a_solo_read_opens_nothing_in_the_session_and_leaves_its_connection_as_it_found_it(
    app: Flask, api: Api, players: list[int]
) -> None:
    game = api.new_game(players, roles=seats(*players))
    with app.app_context():
        # the feed's watch may hold one of its own (models.events.VersionWatch), until its waiters are gone
        checked_out = db.engine.pool.checkedout()  # type: ignore[attr-defined]
        assert _READ_GAME_AUDIENCE.one_or_none({"id": game["id"]}) is not None
        assert not db.session.registry.has()  # no session was even made
        assert db.engine.pool.checkedout() == checked_out  # type: ignore[attr-defined]
        with db.engine.connect() as connection:  # the pool's next connection: no transaction, not in autocommit
            assert not connection.in_transaction()
            if db.engine.dialect.name == "postgresql":
                assert connection.connection.driver_connection.autocommit is False


def test_a_solo_read_on_sqlite_keeps_its_connection_for_the_next_and_sees_every_commit_before_it(
    app: Flask, api: Api, players: list[int]
) -> None:
    game = api.new_game(players, roles=seats(*players))
    with app.app_context():
        engine = db.engine
        if engine.dialect.name != "sqlite":
            pytest.skip("a server's reads give their connection back to the pool, tested at its checkout")
        assert _READ_GAME_AUDIENCE.one_or_none({"id": game["id"]}) is not None
        checkouts: list[Any] = []
        sent: list[str] = []

        def checkout(*_: Any) -> None:
            checkouts.append(1)

        def before(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            sent.append(statement)

        event.listen(engine, "checkout", checkout)
        event.listen(engine, "before_cursor_execute", before)
        try:
            held = engine.pool.checkedout()  # type: ignore[attr-defined]
            versions = [_READ_GAME_AUDIENCE.one_or_none({"id": game["id"]})["version"]]  # type: ignore[index]
            assert api.post(f"/games/{game['id']}/hands", by_counts("box", 4, 24)).status_code == 201  # meanwhile
            sent.clear()
            versions.append(_READ_GAME_AUDIENCE.one_or_none({"id": game["id"]})["version"])  # type: ignore[index]
            versions.append(_READ_GAME_AUDIENCE.one_or_none({"id": game["id"]})["version"])  # type: ignore[index]
        finally:
            event.remove(engine, "checkout", checkout)
            event.remove(engine, "before_cursor_execute", before)
        assert versions == [1, 2, 2]  # no snapshot kept from one read to the next
        assert len(sent) == 2 and not any("BEGIN" in s for s in sent)  # one statement each, in autocommit
        # the reads took their connection from those kept, none from the pool; the write took its own
        assert len(checkouts) == 1 and engine.pool.checkedout() == held  # type: ignore[attr-defined]


def test_on_sqlite_a_sessions_reads_and_the_watchs_tick_are_one_transaction_each_a_solo_read_none(
    app: Flask, api: Api, players: list[int]
) -> None:
    """Several statements that must see one moment begin a transaction
    (SQLite's deferred BEGIN): a session's reads, the feed's watch's tick; a
    read of one statement sends none."""
    game = api.new_game(players, roles=seats(*players))
    with app.app_context():
        engine = db.engine
        if engine.dialect.name != "sqlite":
            pytest.skip("a server's reads run in autocommit, each statement of one moment")
        sent: list[str] = []

        def before(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            sent.append(" ".join(statement.split())[:20])

        event.listen(engine, "before_cursor_execute", before)
        try:
            assert db.session.get(Game, game["id"]) is not None
            assert db.session.execute(select(Player.name)).scalars().all()
            db.session.rollback()
            session_reads, sent[:] = list(sent), []
            watch = VersionWatch(engine, 3600.0)
            with watch.place(game["id"], 1):
                watch.tick()
            tick, sent[:] = list(sent), []
            assert _READ_GAME_AUDIENCE.one_or_none({"id": game["id"]}) is not None
        finally:
            event.remove(engine, "before_cursor_execute", before)
        assert session_reads[0] == "BEGIN" and len(session_reads) == 3
        assert tick[0] == "BEGIN" and len(tick) == 2  # the versions, in a transaction of the tick's
        assert len(sent) == 1 and not sent[0].startswith("BEGIN")


def test_a_solo_read_of_an_in_memory_database_leaves_the_sessions_transaction_open() -> None:
    """Its one shared connection would have the session's transaction rolled back under it."""
    memory = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with memory.app_context():
        db.create_all()
        db.session.add(Player(id=1, name="Ann"))
        db.session.flush()  # in the session's transaction, not committed
        assert _READ_GAME_AUDIENCE.one_or_none({"id": 1}) is None
        assert db.session.get(Player, 1) is not None
        assert db.session.execute(select(Player.name)).scalars().all() == ["Ann"]  # not rolled back
        db.session.rollback()
        db.engine.dispose()


def test_a_solo_read_that_cannot_connect_fails_as_the_cores_connect_does(tmp_path: Any) -> None:
    """A connection refused, or cut while it is being made (a PostgreSQL
    backend terminated during the dialect's first queries), is the Core's
    ``OperationalError``: a server out of reach is answered with a 503, never
    as the driver's own error, which the API would answer with a 500."""
    urls = {
        f"sqlite:///{tmp_path / 'no such folder' / 'file.sqlite3'}": None,
        "postgresql+psycopg://postgres@127.0.0.1:1/test": "the database cannot be reached",  # port 1: refused
    }
    for url, cause in urls.items():
        engine = create_engine(url)
        try:
            with pytest.raises(OperationalError) as raised:
                _READ_GAME_AUDIENCE.one_or_none({"id": 1}, engine)
            core = pytest.raises(OperationalError, engine.connect)
            assert type(raised.value) is type(core.value)
            assert type(raised.value.orig) is type(core.value.orig)
            assert unavailable_cause(raised.value) == cause
        finally:
            engine.dispose()


def test_the_lock_of_a_game_reads_its_row_and_its_key(app: Flask, api: Api, players: list[int]) -> None:
    game = api.new_game(players, roles=seats(*players))
    api.record(game["id"], by_counts("captain", 2, 40))
    with app.app_context():
        for key_hash in (hash_key(game["key"]), "no such key"):
            params = {"id": game["id"], "key_hash": key_hash}
            driven = _LOCK_GAME_WITH_KEY.one_or_none(params)
            assert driven is not None
            assert (driven["id"], driven["version"], driven["league_visibility"]) == (game["id"], 2, None)
            assert driven["scores"] == {str(players[0]): 0, str(players[1]): 38, str(players[2]): 0}
            if key_hash == "no such key":
                assert driven["key_id"] is None and driven["key_kind"] is None
            else:
                assert driven["key_kind"] == "write" and driven["key_game_id"] == game["id"]
        assert _LOCK_GAME_WITH_KEY.one_or_none({"id": 2147483647, "key_hash": ""}) is None
        db.session.rollback()


def test_a_hands_write_stores_what_the_orm_reads_back_and_fails_with_the_cores_errors(
    app: Flask, api: Api, players: list[int]
) -> None:
    game = api.new_game(players, roles=seats(*players))
    api.record(game["id"], by_counts("box", 3, 33))  # hand 1 and its revision (its event in the feed)
    with app.app_context():
        hand = db.session.scalars(select(Hand).where(Hand.game_id == game["id"])).one()
        assert (hand.number, hand.outcome, hand.points, hand.knocker_deadwood) == (1, "knock", 30, None)
        assert hand.input == {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 33}
        assert hand.scores_after == {str(players[0]): 30, str(players[1]): 0, str(players[2]): 0}
        assert hand.seating_follows is True
        assert hand.recorded_at.tzinfo is not None
        revision = db.session.scalars(select(HandRevision).where(HandRevision.game_id == game["id"])).one()
        assert (revision.revision, revision.action, revision.ruling) == (1, "recorded", hand.ruling)
        assert db.session.get(Game, game["id"]).version == revision.game_version == game["version"] + 1
        event = {"game_id": game["id"], "version": game["version"], "kind": "game_started", "hand": None, "at": now()}
        with pytest.raises(IntegrityError):  # that version's event is there
            INSERT_EVENT.execute(event)
        db.session.rollback()


def test_a_statement_on_a_connection_the_driver_closed_fails_with_the_cores_error(app: Flask) -> None:
    """The driver already knows the connection is closed (an earlier error
    found it cut): the statement fails with the Core's error, the connection
    invalidated by the Core; on PostgreSQL a dropped connection, answered
    with a 503, not the driver's own error (a 500)."""
    event = {"game_id": 1, "version": 1, "kind": "hand_recorded", "hand": 1, "at": now()}
    with app.app_context(), write_transaction():  # on SQLite, with the writer's turn taken
        connection = session_connection()
        connection.connection.dbapi_connection.close()
        with pytest.raises(DBAPIError) as raised:
            INSERT_EVENT.execute(event)
        assert raised.value.connection_invalidated and connection.invalidated
        if db.engine.dialect.name == "postgresql":
            assert unavailable_cause(raised.value) == "the connection to the database dropped"
        db.session.rollback()  # and the session goes on, on a new connection, the writer's turn given up
        started = time.monotonic()
        assert isinstance(db.session.execute(select(Game.id)).all(), list)
        db.session.rollback()
        assert time.monotonic() - started < WRITER_WAIT / 2


def test_a_write_runs_on_one_connection_in_one_transaction_and_a_hands_makes_no_session(
    app: Flask, api: Api, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write request holds one connection and one transaction, committed
    once: a hand's write, all of it Core statements, makes no ORM session; a
    write through the ORM (a player) has its session join that transaction,
    not begin a second one."""
    game = api.new_game(players, roles=seats(*players))
    checkouts: list[int] = []
    core_begins: list[int] = []
    commits: list[int] = []
    sessions: list[int] = []
    real_init = Session.__init__

    def init(self: Session, *args: Any, **kwargs: Any) -> None:
        sessions.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(Session, "__init__", init)
    with app.app_context():
        engine = db.engine

    def on_commit(_connection: Any) -> None:
        commits.append(1)

    def on_checkout(*_args: Any) -> None:
        checkouts.append(1)

    def on_begin(_connection: Any) -> None:
        core_begins.append(1)

    event.listen(engine, "checkout", on_checkout)
    event.listen(engine, "begin", on_begin)
    event.listen(engine, "commit", on_commit)
    api.client.auto = False  # type: ignore[attr-defined]
    try:
        headers = {"Authorization": f"Bearer {game['key']}", "If-Match": "*"}
        r = api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts("box", 3, 33), headers=headers)
        assert r.status_code == 201, r.get_json()
        assert (checkouts, commits, core_begins, sessions) == ([1], [1], [1], [])
        for counted in (checkouts, commits, core_begins):
            counted.clear()
        r = api.client.post("/api/v1/players", json={"name": "Dee"})
        assert r.status_code == 201, r.get_json()
        assert (checkouts, commits, core_begins, sessions) == ([1], [1], [1], [1])
    finally:
        api.client.auto = True  # type: ignore[attr-defined]
        event.remove(engine, "checkout", on_checkout)
        event.remove(engine, "begin", on_begin)
        event.remove(engine, "commit", on_commit)
    assert api.game(game["id"])["hands_played"] == 1
    assert api.client.get("/api/v1/players").get_json()["items"][-1]["name"] == "Dee"


def test_r28_a_two_player_hands_write_makes_no_session(
    app: Flask, api: Api, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A two-player hand's write, all of it Core statements as a three-handed
    one's, runs on the request's one connection and makes no ORM session."""
    ann, bob = players[:2]
    game = api.new_game([ann, bob], rules={"preset": "classic"}, roles={"dealer": ann, "non_dealer": bob})
    sessions: list[int] = []
    real_init = Session.__init__

    def init(self: Session, *args: Any, **kwargs: Any) -> None:
        sessions.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(Session, "__init__", init)
    api.client.auto = False  # type: ignore[attr-defined]
    try:
        headers = {"Authorization": f"Bearer {game['key']}", "If-Match": "*"}
        r = api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts("dealer", 3, 33), headers=headers)
        assert r.status_code == 201, r.get_json()
    finally:
        api.client.auto = True  # type: ignore[attr-defined]
    assert sessions == []
    assert api.game(game["id"])["hands_played"] == 1


def test_a_statement_without_a_column_that_has_a_default_gets_the_default(
    app: Flask, api: Api, players: list[int]
) -> None:
    game = api.new_game(players, roles=seats(*players))
    api.record(game["id"], by_counts("box", 3, 33))
    with app.app_context():
        params = {
            "of_game": game["id"],
            "of_number": 1,
            "game_id": game["id"],
            "number": 1,
            "action": "corrected",
            "mode": "counts",
            "box": players[0],
            "captain": players[1],
            "sitter": players[2],
            "knocker": "box",
            "input": {},
            "ruling": {},
            "scores_after": {},
            "game_scores": {},
            "key_id": None,
            "reason": None,
            "dispute_id": None,
        }  # no made_at: its default, now(), is the Core's to compute
        INSERT_REVISION.execute(params)
        made = db.session.scalars(
            select(HandRevision.made_at).where(HandRevision.game_id == game["id"], HandRevision.revision == 2)
        ).one()
        assert made.tzinfo is not None and abs(made - now()) < timedelta(minutes=5)
        db.session.rollback()


def test_the_session_connection_is_the_sessions_own_for_each_transaction(app: Flask) -> None:
    """session_connection: the connection db.session.connection() gives, asked
    once per transaction; after a commit or a rollback, the new transaction's."""
    with app.app_context():
        first = session_connection()
        assert first is db.session.connection()
        assert session_connection() is first
        db.session.commit()
        second = session_connection()
        assert second is db.session.connection() and second is not first
        db.session.rollback()
        third = session_connection()
        assert third is db.session.connection() and third is not second
        db.session.rollback()


def test_rows_inserted_in_bulk_read_back_as_one_by_one_and_fail_with_the_cores_error(
    app: Flask, api: Api, players: list[int]
) -> None:
    """insert_rows (an import's hands and revisions, in one executemany) stores
    what single inserts store."""
    games = [api.new_game(players, roles=seats(*players))["id"] for _ in range(2)]
    at = now()

    def rows(game_id: int) -> list[dict[str, Any]]:
        return [
            {
                "game_id": game_id,
                "number": n,
                "revision": 1,
                "action": "recorded",
                "mode": "counts",
                "box": players[0],
                "captain": players[1],
                "sitter": players[2],
                "knocker": "box" if n % 2 else None,
                "input": {"knocker": "box", "note": "ü \\ \" ' \t\n", "n": [n, None, 1.5, True]},
                "ruling": {"outcome": "knock", "points": n},
                "scores_after": {str(players[0]): n},
                "game_scores": {},
                "made_at": at,
                "key_id": None,
                "reason": None if n % 2 else "a reason, with\ttabs and\nlines",
                "dispute_id": None,
            }
            for n in (1, 2, 3)
        ]

    def read(game_id: int) -> list[dict[str, Any]]:
        found = db.session.execute(
            select(HandRevision.__table__).where(HandRevision.game_id == game_id).order_by(HandRevision.number)
        ).all()
        return [{k: v for k, v in row._mapping.items() if k not in ("id", "game_id")} for row in found]

    with app.app_context():
        insert_rows(HandRevision.__table__, rows(games[0]))
        for row in rows(games[1]):
            db.session.execute(insert(HandRevision.__table__), row)
        bulk, core = read(games[0]), read(games[1])
        assert len(bulk) == 3 and bulk == core
        assert [{k: type(v) for k, v in r.items()} for r in bulk] == [{k: type(v) for k, v in r.items()} for r in core]
        insert_rows(HandRevision.__table__, [])  # nothing to insert
        with pytest.raises(IntegrityError):  # that hand's revision 1 is there
            insert_rows(HandRevision.__table__, rows(games[0])[:2])
        db.session.rollback()


@settings(max_examples=100, deadline=None)
@given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.integers(min_value=-23 * 60, max_value=23 * 60).map(lambda m: timezone(timedelta(minutes=m))),
)
def test_a_utc_datetime_reads_back_as_the_same_instant_in_utc(moment: datetime, zone: Any) -> None:
    """UTCDateTime on SQLite (which keeps no zone): any zone in, the same instant out, in UTC."""
    table = Table("moments", MetaData(), Column("at", UTCDateTime()))
    engine = create_engine("sqlite://")
    try:
        value = moment.replace(tzinfo=zone)
        with engine.begin() as connection:
            table.create(connection)
            connection.execute(insert(table), {"at": value})
            back = connection.execute(select(table.c.at)).scalar_one()
        assert back == value and back.tzinfo is UTC
    finally:
        engine.dispose()


def test_a_conditional_read_of_an_unchanged_game_reads_its_tag_alone(app: Flask, api: Api, players: list[int]) -> None:
    game = api.new_game(players, roles=seats(*players))
    read = api.client.get(f"/api/v1/games/{game['id']}")
    etag = read.headers["ETag"]
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        same = api.client.get(f"/api/v1/games/{game['id']}", headers={"If-None-Match": etag})
        assert same.status_code == 304 and same.headers["ETag"] == etag and same.data == b""
        assert len(seen) == 1 and "rules" not in seen[0] and "version" in seen[0]  # no JSON column read
        seen.clear()
        stale = api.client.get(f"/api/v1/games/{game['id']}", headers={"If-None-Match": '"g999v1"'})
        assert stale.status_code == 200 and stale.get_json() == read.get_json()
        assert len(seen) == 2  # the tag, then the game
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_a_league_hands_write_with_an_idempotency_key_makes_no_session_and_is_replayed(
    app: Flask, api: Api, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write a club's phone sends: a hand of a game in a league, with an
    Idempotency-Key. Its books (figures, ratings, the league's history
    version) and the key's record are Core statements on the request's one
    connection: no ORM session is made. Its retry gets the same answer, and
    the hand counts once in the standings."""
    response = api.post("/leagues", {"name": "Club", "members": players})
    assert response.status_code == 201, response.get_json()
    league = response.get_json()
    game = api.new_game(players, league_id=league["id"], roles=seats(*players))
    sessions: list[int] = []
    real_init = Session.__init__

    def init(self: Session, *args: Any, **kwargs: Any) -> None:
        sessions.append(1)
        real_init(self, *args, **kwargs)

    headers = {"Authorization": f"Bearer {league['key']}", "If-Match": "*", "Idempotency-Key": "club-night-hand-0001"}
    path = f"/api/v1/games/{game['id']}/hands"
    api.client.auto = False  # type: ignore[attr-defined]
    monkeypatch.setattr(Session, "__init__", init)
    try:
        first = api.client.post(path, json=by_counts("box", 3, 33), headers=headers)
        assert first.status_code == 201, first.get_json()
        assert sessions == []
        again = api.client.post(path, json=by_counts("box", 3, 33), headers=headers)
    finally:
        api.client.auto = True  # type: ignore[attr-defined]
        monkeypatch.undo()
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert api.game(game["id"])["hands_played"] == 1
    rows = {r["player_id"]: r for r in api.client.get(f"/api/v1/leagues/{league['id']}/standings").get_json()["items"]}
    box, captain, sitter = players[:3]
    # R15: the box knocks with 3 against 33 and scores 30; the hand is rated once (box against the team)
    assert rows[box]["hands_won"] == 1 and rows[box]["total_points"] == 30
    assert rows[captain]["hands_won"] == 0 and rows[sitter]["hands_won"] == 0
    # the rating step of that one hand, from a new member's rating, for each of the three
    rated = rate_hand((MU, SIGMA), (MU, SIGMA), (MU, SIGMA), True)
    for player, (mu, sigma) in zip((box, captain, sitter), rated, strict=True):
        served = rows[player]["rating"]
        assert (served["mu"], served["sigma"], served["hands_rated"]) == (pytest.approx(mu), pytest.approx(sigma), 1)
    assert rated[0][0] > MU > rated[1][0]


def test_r20_a_league_hand_that_wins_its_game_moves_the_streaks_without_a_session(
    app: Flask, api: Api, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand that wins a league game (R20) moves its players' streaks of
    games won in Core statements on the write's connection: no ORM session is
    made. Two games won by the box, then one by the captain: the box's
    streak is 2 then 0 (longest 2), the captain's 1."""
    league = api.post("/leagues", {"name": "Club", "members": players}).get_json()
    box, captain, sitter = players[:3]
    headers = {"Authorization": f"Bearer {league['key']}", "If-Match": "*"}
    sessions: list[int] = []
    real_init = Session.__init__

    def init(self: Session, *args: Any, **kwargs: Any) -> None:
        sessions.append(1)
        real_init(self, *args, **kwargs)

    for played_at, knocker in (
        ("2026-01-01T19:00:00Z", "box"),
        ("2026-01-02T19:00:00Z", "box"),
        ("2026-01-03T19:00:00Z", "captain"),
    ):
        game = api.new_game(
            players,
            league_id=league["id"],
            roles=seats(box, captain, sitter),
            rules={"target_score": 10},
            played_at=played_at,
        )
        api.client.auto = False  # type: ignore[attr-defined]
        monkeypatch.setattr(Session, "__init__", init)
        try:
            # R15: a knock of 1 against 30 scores 29 and wins a game to 10 (R20)
            won = api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts(knocker, 1, 30), headers=headers)
        finally:
            api.client.auto = True  # type: ignore[attr-defined]
            monkeypatch.undo()
        assert won.status_code == 201, won.get_json()
        assert won.get_json()["status"] == "finished"
        assert sessions == []
    rows = {r["player_id"]: r for r in api.client.get(f"/api/v1/leagues/{league['id']}/standings").get_json()["items"]}
    assert (rows[box]["current_streak"], rows[box]["longest_streak"]) == (0, 2)
    assert (rows[captain]["current_streak"], rows[captain]["longest_streak"]) == (1, 1)
    assert (rows[sitter]["current_streak"], rows[sitter]["longest_streak"]) == (0, 0)
    with app.app_context():
        league_row = db.session.get(League, league["id"])
        assert league_row is not None and league_row.streaks_stale is False  # moved by each hand, not recounted
        assert verify_league(league["id"]) == []


def test_a_league_hands_write_leaves_raised_a_flag_another_write_raised_meanwhile(
    app: Flask, api: Api, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hands of two games of one league are written at once (each game's
    row is locked, not the league's): one is rated, the other, out of rating
    order, marks the ratings stale. Whichever commits last, the flag stays
    raised and the next read re-rates; and each write moves the league's
    history version on by one. Here the other write's change lands between
    this write's read of the league and its update."""
    response = api.post("/leagues", {"name": "Club", "members": players})
    assert response.status_code == 201, response.get_json()
    league = response.get_json()
    game = api.new_game(players, league_id=league["id"], roles=seats(*players))
    leagues = League.__table__
    with app.app_context():
        version = db.session.scalar(select(leagues.c.history_version).where(leagues.c.id == league["id"]))
    real_rate = books._rate

    def rate_while_another_write_lands(league_id: int, preset: str, record: Any, known: Any) -> None:
        session_connection().execute(
            update(leagues)
            .where(leagues.c.id == league_id)
            .values(ratings_stale=True, streaks_stale=True, history_version=leagues.c.history_version + 1)
        )
        real_rate(league_id, preset, record, known)

    monkeypatch.setattr(books, "_rate", rate_while_another_write_lands)
    headers = {"Authorization": f"Bearer {league['key']}", "If-Match": "*"}
    api.client.auto = False  # type: ignore[attr-defined]
    try:
        r = api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts("box", 3, 33), headers=headers)
    finally:
        api.client.auto = True  # type: ignore[attr-defined]
    assert r.status_code == 201, r.get_json()
    with app.app_context():
        row = db.session.execute(select(leagues).where(leagues.c.id == league["id"])).mappings().one()
    assert (row["ratings_stale"], row["streaks_stale"], row["history_version"]) == (True, True, version + 2)
    assert row["rated_through"] == {"played_at": game["played_at"], "game_id": game["id"], "hands": 1}


def test_a_league_games_start_adds_to_its_players_totals_without_reading_their_history(
    app: Flask, api: Api, players: list[int]
) -> None:
    """A new game of a league: each player's totals gain one game played, by
    one UPDATE, whatever the league's history; nothing of the players' other
    games is read (their sum grows with the league's years)."""
    response = api.post("/leagues", {"name": "Club", "members": players})
    assert response.status_code == 201, response.get_json()
    league = response.get_json()
    api.new_game(players, league_id=league["id"], roles=seats(*players))
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def on_execute(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", on_execute)
    try:
        api.new_game(players, league_id=league["id"], roles=seats(*players))
    finally:
        event.remove(engine, "before_cursor_execute", on_execute)
    assert not [s for s in statements if s.startswith("SELECT") and "game_player" in s]
    assert len([s for s in statements if s.startswith("UPDATE league_player")]) == 1
    rows = api.client.get(f"/api/v1/leagues/{league['id']}/standings").get_json()["items"]
    assert sorted(r["games_played"] for r in rows) == [2, 2, 2]
    with app.app_context():
        assert verify_league(league["id"]) == []


def test_a_statement_run_as_text_stores_what_the_core_stores_value_for_value(
    app: Flask, api: Api, players: list[int]
) -> None:
    """A write statement run as text (models.statement) converts each value
    as the Core does: the same hand inserted both ways, JSON, datetime,
    None and the omitted column included, is stored alike, byte for byte."""
    game = api.new_game(players, roles=seats(*players))
    moment = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=timezone(timedelta(hours=9)))
    row = {
        "game_id": game["id"],
        "mode": "cards",
        "box": players[0],
        "captain": players[1],
        "sitter": None,
        "knocker": "box",
        "outcome": "knock",
        "scorer": "box",
        "points": 12,
        "input": {"knocker": "box", "cards": ["AS", "10H"], "nested": {"x": [1, None, 2.5]}},
        "ruling": {"é": "ünïcode", "n": None},
        "scores_after": {str(players[0]): 12},
        "seating_follows": True,
        "knocker_deadwood": None,
        "recorded_at": moment,
        "corrected_at": None,
    }
    with app.app_context():
        connection = session_connection()
        assert runs_as_text(INSERT_HAND, connection, frozenset(row))
        INSERT_HAND.execute({**row, "number": 101})
        connection.execute(INSERT_HAND.statement, {**row, "number": 102})
        columns = [c.name for c in Hand.__table__.columns if c.name not in ("id", "number")]
        stored = connection.exec_driver_sql(
            f"SELECT {', '.join(columns)} FROM hand WHERE game_id = {int(game['id'])} AND number IN (101, 102) "
            "ORDER BY number"
        ).all()
        assert len(stored) == 2 and stored[0] == stored[1]
        as_read = db.session.scalars(select(Hand).where(Hand.game_id == game["id"], Hand.number == 101)).one()
        assert as_read.input == row["input"] and as_read.ruling == row["ruling"]
        assert as_read.recorded_at == moment and as_read.recorded_at.tzinfo is not None
        db.session.rollback()


def test_a_league_hands_write_runs_its_every_insert_and_update_as_text(
    app: Flask, api: Api, players: list[int]
) -> None:
    """A hand written to a league's game with a key: each of its eight INSERTs
    and UPDATEs (hand, game, the game's and the league's figures, ratings,
    league, revision, the key's record) is SQL text compiled once,
    run without the Core's compiled form."""
    response = api.post("/leagues", {"name": "Club", "members": players})
    assert response.status_code == 201, response.get_json()
    league = response.get_json()
    game = api.new_game(players, roles=seats(*players), league_id=league["id"])
    api.record(game["id"], by_counts("box", 3, 33))  # the ratings' rows made: the next hand updates them
    seen: list[tuple[str, bool]] = []
    with app.app_context():
        engine = db.engine

    def on_execute(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        seen.append((statement.split(None, 1)[0].upper(), context.compiled is None))

    event.listen(engine, "before_cursor_execute", on_execute)
    api.client.auto = False  # type: ignore[attr-defined]
    try:
        headers = {
            "Authorization": f"Bearer {league['key']}",
            "If-Match": "*",
            "Idempotency-Key": "club-night-hand-0002",
        }
        r = api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts("captain", 4, 30), headers=headers)
        assert r.status_code == 201, r.get_json()
    finally:
        api.client.auto = True  # type: ignore[attr-defined]
        event.remove(engine, "before_cursor_execute", on_execute)
    writes = [text for verb, text in seen if verb in ("INSERT", "UPDATE")]
    assert len(writes) == 8 and all(writes), seen
