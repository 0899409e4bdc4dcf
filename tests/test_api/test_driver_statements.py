"""A game's read outside the request's session (models.database.SoloRead):
the same row as the ORM's Core execution gives, value for value and type for
type, on every backend; and nothing left open behind it."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import create_engine

from models import db
from models.database import _SoloPlan
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
