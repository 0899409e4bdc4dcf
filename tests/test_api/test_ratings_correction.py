"""The standings after a correction of an early hand (R11, R12, R26): every
later rating moves, and the read that follows recounts them from the hand
logs. They must equal openskill over the corrected log, worked out here from
the hands as the API returned them, and the books must agree with a recount
from scratch (models.verify).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from openskill.models import PlackettLuce
from sqlalchemy import Select

import models.standings as standings_module
from models import League, db
from models.verify import verify_league
from tests.test_api.conftest import DRAW, Api, by_counts

MODEL = PlackettLuce()


def openskill_ratings(log: list[dict[str, Any]]) -> dict[int, tuple[float, float, int]]:
    """openskill over hands in order: the box alone against captain and
    sitter, the side of the hand's winner wins (R11), draws do not rate (R12)."""
    ratings: dict[int, Any] = {}
    rated: dict[int, int] = {}
    for hand in log:
        if hand["knocker"] is None:
            continue
        seat = hand["seating"]
        box, captain, sitter = seat["box"], seat["captain"], seat["sitter"]
        box_won = (hand["knocker"] == "box") == (hand["ruling"]["scorer"] == "knocker")  # R11, R17
        for p in (box, captain, sitter):
            ratings.setdefault(p, MODEL.rating())
            rated[p] = rated.get(p, 0) + 1
        [[ratings[box]], [ratings[captain], ratings[sitter]]] = MODEL.rate(
            [[ratings[box]], [ratings[captain], ratings[sitter]]], ranks=[0, 1] if box_won else [1, 0]
        )
    return {p: (r.mu, r.sigma, rated[p]) for p, r in ratings.items()}


def standings_ratings(api: Api, league_id: int) -> dict[int, tuple[float, float, int]]:
    response = api.client.get(f"{api.base}/leagues/{league_id}/standings")
    assert response.status_code == 200, response.get_json()
    return {
        row["player_id"]: (row["rating"]["mu"], row["rating"]["sigma"], row["rating"]["hands_rated"])
        for row in response.get_json()["items"]
        if row["rating"]["hands_rated"]
    }


def assert_same(got: dict[int, tuple[float, float, int]], expected: dict[int, tuple[float, float, int]]) -> None:
    assert sorted(got) == sorted(expected)
    for p, (mu, sigma, n) in expected.items():
        assert got[p] == (pytest.approx(mu, rel=1e-12, abs=1e-12), pytest.approx(sigma, rel=1e-12, abs=1e-12), n)


def stale(league_id: int) -> bool:
    league = db.session.get(League, league_id)
    assert league is not None
    db.session.refresh(league)
    return league.ratings_stale


def test_r26_after_correcting_an_early_hand_the_standings_rerate_every_later_hand_as_a_recount_would(
    app: Flask, api: Api
) -> None:
    rng = random.Random(26)
    members = [api.player(name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    league = api.post("/leagues", {"name": "Re-rated", "members": members}).get_json()["id"]
    games: list[tuple[int, list[dict[str, Any]]]] = []  # in played_at order
    start = datetime(2026, 3, 2, 19, 0, tzinfo=UTC)
    for g in range(8):
        players = rng.sample(members, 3)
        roles = {"box": players[0], "captain": players[1], "sitter": players[2]}
        played_at = (start + timedelta(days=g)).isoformat()
        game = api.new_game(players, roles=roles, league_id=league, played_at=played_at, rules={"target_score": 60})
        hands: list[dict[str, Any]] = []
        while len(hands) < 9 and api.game(game["id"])["status"] != "finished":
            if rng.random() < 0.1:
                body = DRAW  # R12
            else:
                body = by_counts(rng.choice(("box", "captain")), rng.randint(0, 10), rng.randint(0, 30))  # R25
            hands.append(api.record(game["id"], body))
        games.append((game["id"], hands))
    log = [hand for _, hands in games for hand in hands]
    before = standings_ratings(api, league)
    assert_same(before, openskill_ratings(log))
    assert log[0]["knocker"] is not None and games[4][1][1]["knocker"] is not None  # the hands corrected rate

    # R26: hand 1 of the first game corrected to a draw, then hand 2 of the fifth:
    # later hands keep their seating, every rating after them moves.
    for g, number in ((0, 1), (4, 2)):
        game_id, hands = games[g]
        hands[number - 1] = api.correct(game_id, number, DRAW)
        with app.app_context():
            assert stale(league)
        log = [hand for _, hands in games for hand in hands]
        after = standings_ratings(api, league)
        assert after != before
        assert_same(after, openskill_ratings(log))
        before = after
        with app.app_context():
            assert not stale(league)
            assert verify_league(league) == []


def test_the_log_a_correction_rerates_is_read_from_the_hand_tables_rating_log_index_alone(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The re-rating after a correction reads the league's seatings and results
    (models.standings.league_seatings) without visiting a row of the hand
    table, whose rulings make its rows wide: SQLite's plan for that statement
    is a search of the covering index ix_hand_rating_log."""
    members = [api.player(name) for name in ("Ann", "Bob", "Cy")]
    league = api.post("/leagues", {"name": "Indexed", "members": members}).get_json()["id"]
    roles = {"box": members[0], "captain": members[1], "sitter": members[2]}
    game = api.new_game(members, roles=roles, league_id=league)
    for _ in range(3):
        api.record(game["id"], by_counts("box", 0, 20))
    api.correct(game["id"], 1, DRAW)
    read: list[Select[Any]] = []
    driver_rows = standings_module._driver_rows

    def reading(statement: Select[Any]) -> list[tuple[Any, ...]]:
        read.append(statement)
        return driver_rows(statement)

    monkeypatch.setattr(standings_module, "_driver_rows", reading)
    ratings = standings_ratings(api, league)
    assert {p: n for p, (_mu, _sigma, n) in ratings.items()} == dict.fromkeys(members, 2)  # the draw does not rate
    log = [statement for statement in read if "box_won" in statement.selected_columns]
    assert len(log) == 1, [str(statement) for statement in read]
    with app.app_context():
        connection = db.session.connection()
        if connection.dialect.name != "sqlite":
            return  # PostgreSQL plans by its statistics: an index-only scan is its choice to make
        compiled = log[0].compile(dialect=connection.dialect)
        arguments = tuple(compiled.params[name] for name in compiled.positiontup or ())
        plan = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", arguments).all()
    details = [row[-1] for row in plan]
    assert any(d.startswith("SEARCH hand USING COVERING INDEX ix_hand_rating_log") for d in details), details
