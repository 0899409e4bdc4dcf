"""Statements run on the driver's cursor (models.database): a game's read
outside the request's session (``SoloRead``) and a hand's write in it
(``DriverStatement``) give and store the same values as SQLAlchemy's Core
execution, type for type, on every backend; leave nothing open; and fail
with the Core's errors."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import TypeDecorator, create_engine, event, insert, select
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from api.errors import unavailable_cause
from models import db
from models.database import (
    WRITER_WAIT,
    DriverStatement,
    LazyRow,
    Session,
    UTCDateTime,
    _SoloPlan,
    insert_rows,
    now,
    session_connection,
    write_transaction,
)
from models.events import _INSERT as INSERT_EVENT
from models.game import _UPDATE_GAME as UPDATE_GAME
from models.game import Game, Hand
from models.revisions import _INSERT as INSERT_REVISION
from models.revisions import HandRevision
from models.security import _LOCK_GAME_WITH_KEY, hash_key
from models.visibility import _READ_GAME_AUDIENCE
from tests.test_api.conftest import Api, by_counts, seats


def _core(game_id: int) -> dict[str, Any] | None:
    row = db.session.connection().execute(_READ_GAME_AUDIENCE.statement, {"id": game_id}).one_or_none()
    return None if row is None else dict(row._mapping)


def _same(solo: dict[str, Any] | None, core: dict[str, Any] | None) -> None:
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
        assert _READ_GAME_AUDIENCE.one_or_none({"id": game["id"]}) is not None
        assert not db.session.registry.has()  # no session was even made
        checked_out = db.engine.pool.checkedout()  # type: ignore[attr-defined]
        assert checked_out == 0
        with db.engine.connect() as connection:  # the pool's next connection: no transaction, not in autocommit
            assert not connection.in_transaction()
            if db.engine.dialect.name == "postgresql":
                assert connection.connection.driver_connection.autocommit is False


def test_a_solo_read_of_an_in_memory_database_goes_through_the_session(tmp_path: Any) -> None:
    """Its one shared connection would have the session's transaction rolled back under it."""
    statement = _READ_GAME_AUDIENCE.statement
    for url, fallback in (("sqlite://", True), (f"sqlite:///{tmp_path / 'file.sqlite3'}", False)):
        engine = create_engine(url)
        try:
            assert _SoloPlan(statement, engine).fallback is fallback
        finally:
            engine.dispose()


def test_a_solo_read_that_cannot_connect_fails_as_the_cores_connect_does(tmp_path: Any) -> None:
    """A connection refused, or cut while it is being made (a PostgreSQL
    backend terminated during the dialect's first queries), is the Core's
    ``OperationalError``: a server out of reach is answered with a 503, never
    as the driver's own error, which the API would answer with a 500."""
    urls = {
        f"sqlite:///{tmp_path / 'no such folder' / 'file.sqlite3'}": None,  # the kept connection's first making
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


def test_a_driver_statement_reads_the_core_row_of_a_locked_game_and_its_key(
    app: Flask, api: Api, players: list[int]
) -> None:
    game = api.new_game(players, roles=seats(*players))
    api.record(game["id"], by_counts("captain", 2, 40))
    with app.app_context():
        for key_hash in (hash_key(game["key"]), "no such key"):
            params = {"id": game["id"], "key_hash": key_hash}
            driven = _LOCK_GAME_WITH_KEY.one_or_none(params)
            row = db.session.connection().execute(_LOCK_GAME_WITH_KEY.statement, params).one()
            _same(driven, dict(row._mapping))
            assert driven is not None
            if key_hash == "no such key":
                assert driven["key_id"] is None and driven["key_kind"] is None
            else:
                assert driven["key_kind"] == "write" and driven["key_game_id"] == game["id"]
        assert _LOCK_GAME_WITH_KEY.one_or_none({"id": 2147483647, "key_hash": ""}) is None
        db.session.rollback()


def test_a_driver_statement_writes_what_the_core_reads_back_and_fails_as_the_core_does(
    app: Flask, api: Api, players: list[int]
) -> None:
    game = api.new_game(players, roles=seats(*players))
    api.record(game["id"], by_counts("box", 3, 33))  # hand 1, its revision and event, written by the driver
    with app.app_context():
        hand = db.session.scalars(select(Hand).where(Hand.game_id == game["id"])).one()
        assert (hand.number, hand.outcome, hand.points, hand.knocker_deadwood) == (1, "knock", 30, None)
        assert hand.input == {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 33}
        assert hand.scores_after == {str(players[0]): 30, str(players[1]): 0, str(players[2]): 0}
        assert hand.seating_follows is True
        assert hand.recorded_at.tzinfo is not None
        revision = db.session.scalars(select(HandRevision).where(HandRevision.game_id == game["id"])).one()
        assert (revision.revision, revision.action, revision.ruling) == (1, "recorded", hand.ruling)
        assert db.session.get(Game, game["id"]).version == game["version"] + 1
        event = {"game_id": game["id"], "version": game["version"] + 1, "kind": "hand_recorded", "hand": 1, "at": now()}
        with pytest.raises(IntegrityError):  # that version's event is there: the Core's error, as from the Core
            INSERT_EVENT.execute(event)
        db.session.rollback()


def test_a_driver_statement_on_a_connection_the_driver_closed_fails_as_the_core_does(app: Flask) -> None:
    """The driver already knows the connection is closed (an earlier error
    found it cut): it fails as it makes the cursor, and that too is the
    Core's error, the connection invalidated; on PostgreSQL a dropped
    connection, answered with a 503, not the driver's own error (a 500)."""
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
    once: a hand's write, all of it driver statements, makes no ORM session
    and no Core connection at all; a write through the ORM (a player) has
    its session join that transaction, begun on the driver, not begin a
    second one."""
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
    real_commit = type(engine.dialect).do_commit

    def do_commit(self: Any, dbapi_connection: Any) -> None:
        commits.append(1)
        real_commit(self, dbapi_connection)

    monkeypatch.setattr(type(engine.dialect), "do_commit", do_commit)

    def on_checkout(*_args: Any) -> None:
        checkouts.append(1)

    def on_begin(_connection: Any) -> None:
        core_begins.append(1)

    event.listen(engine, "checkout", on_checkout)
    event.listen(engine, "begin", on_begin)
    api.client.auto = False  # type: ignore[attr-defined]
    try:
        headers = {"Authorization": f"Bearer {game['key']}", "If-Match": "*"}
        r = api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts("box", 3, 33), headers=headers)
        assert r.status_code == 201, r.get_json()
        assert (checkouts, commits, core_begins, sessions) == ([1], [1], [], [])
        for counted in (checkouts, commits, core_begins):
            counted.clear()
        r = api.client.post("/api/v1/players", json={"name": "Dee"})
        assert r.status_code == 201, r.get_json()
        assert (checkouts, commits, core_begins, sessions) == ([1], [1], [1], [1])
    finally:
        api.client.auto = True  # type: ignore[attr-defined]
        event.remove(engine, "checkout", on_checkout)
        event.remove(engine, "begin", on_begin)
    assert api.game(game["id"])["hands_played"] == 1
    assert api.client.get("/api/v1/players").get_json()["items"][-1]["name"] == "Dee"


def test_a_statement_whose_columns_the_core_fills_in_goes_through_the_core(
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
        connection = db.session.connection()
        assert INSERT_REVISION._plan(connection, params) is None
        INSERT_REVISION.execute(params)
        made = db.session.scalars(
            select(HandRevision.made_at).where(HandRevision.game_id == game["id"], HandRevision.revision == 2)
        ).one()
        assert made.tzinfo is not None
        assert isinstance(INSERT_REVISION, DriverStatement)
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


def test_a_fetched_row_works_out_each_value_when_first_read_and_once() -> None:
    """LazyRow: a 304 reads a game's version and audience, never its JSON columns."""
    worked: list[str] = []

    def decode(value: str) -> list[str]:
        worked.append(value)
        return value.split(",")

    row = LazyRow({"id": (0, None), "players": (1, decode), "cut": (2, decode)}, (7, "a,b", "c"), {})
    assert row["id"] == 7 and worked == []
    assert row["players"] == ["a", "b"] and row["players"] == ["a", "b"]
    assert worked == ["a,b"]
    changed = row.changed({"id": 8})
    assert changed["id"] == 8 and row["id"] == 7
    assert changed["players"] == ["a", "b"] and worked == ["a,b"]  # what was worked out is kept
    assert changed["cut"] == ["c"] and worked == ["a,b", "c"]
    assert list(row) == ["id", "players", "cut"] and len(row) == 3
    assert dict(row) == {"id": 7, "players": ["a", "b"], "cut": ["c"]}
    with pytest.raises(KeyError):
        row["version"]
    with pytest.raises(KeyError):
        row.changed({"version": 2})


def test_a_solo_read_on_sqlite_keeps_one_connection_per_thread_and_sees_every_commit(
    app: Flask, api: Api, players: list[int]
) -> None:
    game = api.new_game(players, roles=seats(*players))
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            # a server's connections stay pooled
            assert _SoloPlan(_READ_GAME_AUDIENCE.statement, db.engine).kept is None
            return
        read = _READ_GAME_AUDIENCE.one_or_none
        assert read({"id": game["id"]})["version"] == game["version"]
        plan = _READ_GAME_AUDIENCE._plans[db.engine]
        assert plan.kept is not None
        kept = plan.kept.connection
        assert kept is not None
        api.record(game["id"], by_counts("box", 4, 30))  # committed on another connection
        assert read({"id": game["id"]})["version"] == game["version"] + 1
        assert plan.kept.connection is kept
        assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]

        other: list[Any] = []

        def elsewhere() -> None:
            with app.app_context():
                other.append((read({"id": game["id"]})["version"], plan.kept.connection))

        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
        assert other[0][0] == game["version"] + 1 and other[0][1] not in (None, kept)

        db.engine.dispose()  # made anew after a disposal
        assert read({"id": game["id"]})["version"] == game["version"] + 1
        assert plan.kept.connection not in (None, kept)


def test_a_plans_parameters_are_those_construct_params_gives_processed(app: Flask) -> None:
    """A plan takes each parameter straight from the caller's values, in the
    driver's order, where it can; the Core's construct_params is what it stands for."""
    at = now()
    cases = [
        (INSERT_EVENT, {"game_id": 1, "version": 2, "kind": "hand_recorded", "hand": 1, "at": at}),
        (
            UPDATE_GAME,
            {
                "game_id": 1,
                "old_version": 2,
                "new_version": 3,
                "new_hands_version": 3,
                "new_scores": {"1": 30},
                "new_roles": {"box": 1, "captain": 2, "sitter": 3},
                "new_winner": None,
                "new_hands_played": 1,
                "new_out_of_turn": [],
            },
        ),
    ]
    revision = {
        "of_game": 1,
        "of_number": 1,
        "game_id": 1,
        "number": 1,
        "action": "recorded",
        "mode": "counts",
        "box": 1,
        "captain": 2,
        "sitter": 3,
        "knocker": "box",
        "input": {"knocker_deadwood_count": 3},
        "ruling": {"points": 30},
        "scores_after": {"1": 30},
        "game_scores": {"1": 30},
        "made_at": at,
        "key_id": None,
        "reason": None,
        "dispute_id": None,
    }
    cases.append((INSERT_REVISION, revision))  # its next number's literals (0 and 1) are the statement's own
    with app.app_context():
        for statement, params in cases:
            plan = statement._plan(db.session.connection(), params)
            assert plan is not None and plan.fetch is not None and not plan.direct
            values = plan.compiled.construct_params(params)
            for name, process in plan.binds:
                if process is not None:
                    values[name] = process(values[name])
            expected = values if plan.order is None else tuple(values[name] for name in plan.order)
            assert _plain(plan.arguments(params)) == _plain(expected)
        db.session.rollback()


def _plain(arguments: Any) -> Any:
    """The driver's arguments with psycopg's JSON wrappers (equal only to themselves) opened."""
    if isinstance(arguments, dict):
        return {name: getattr(value, "obj", value) for name, value in arguments.items()}
    return tuple(getattr(value, "obj", value) for value in arguments)


def test_rows_inserted_in_bulk_read_back_as_the_cores_and_fail_as_the_core_does(
    app: Flask, api: Api, players: list[int]
) -> None:
    """insert_rows (an import's hands and revisions: a COPY on PostgreSQL, the
    driver's executemany on SQLite) stores what the Core's insert stores."""
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
        db.session.execute(insert(HandRevision.__table__), rows(games[1]))
        bulk, core = read(games[0]), read(games[1])
        assert len(bulk) == 3 and bulk == core
        assert [{k: type(v) for k, v in r.items()} for r in bulk] == [{k: type(v) for k, v in r.items()} for r in core]
        insert_rows(HandRevision.__table__, [])  # nothing to insert
        mixed = rows(games[0])[:1] + [{**rows(games[1])[0], "number": 9, "dispute_id": None}]
        mixed[0]["number"] = 8
        del mixed[0]["reason"]  # rows of other shapes go through the Core
        insert_rows(HandRevision.__table__, mixed)
        assert [r["number"] for r in read(games[0])] == [1, 2, 3, 8]
        with pytest.raises(IntegrityError):  # that hand's revision 1 is there: the Core's error
            insert_rows(HandRevision.__table__, rows(games[0])[:2])
        db.session.rollback()


@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.none() | st.integers(min_value=-23 * 60, max_value=23 * 60).map(lambda m: timezone(timedelta(minutes=m))),
)
def test_a_utc_datetime_is_bound_on_sqlite_as_the_decorators_chain_binds_it(moment: datetime, zone: Any) -> None:
    """UTCDateTime's one-function processor against TypeDecorator's own
    (process_bind_param, then SQLite's DATETIME): the same text, naive or
    in any zone."""
    value = moment if zone is None else moment.replace(tzinfo=zone)
    dialect = sqlite_dialect()
    column = UTCDateTime().dialect_impl(dialect)  # as a statement binds it
    chain = TypeDecorator.bind_processor(column, dialect)
    assert chain is not None
    assert column.bind_processor(dialect)(value) == chain(value)
    assert column.bind_processor(dialect)(None) is None
