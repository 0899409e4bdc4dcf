"""Schema changes go through migrations, and a league's history survives an upgrade."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, text

from app import create_app
from models import Game, db
from models.game import GameRow, stored_hollywood_state
from models.verify import verify_books
from referee.hollywood import replay_hollywood
from tests.test_api.autoclient import AutoClient
from tests.test_api.test_disputes import KNOCK_10, _cards_of
from tests.test_api.test_hollywood_state import as_stored

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


@pytest.fixture(params=BACKENDS)
def empty_app(request: pytest.FixtureRequest, tmp_path) -> Iterator[Flask]:
    if request.param == "sqlite":
        config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'migrate.sqlite3'}"}
    else:
        url = os.environ["TEST_DATABASE_URL"]
        schema = f"ginref_migrate_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
            conn.execute(text(f"CREATE SCHEMA {schema}"))
        engine.dispose()
        config = {
            "SQLALCHEMY_DATABASE_URI": url,
            "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}},
        }
    app = create_app({"TESTING": True, **config})
    yield app
    with app.app_context():
        db.engine.dispose()


def test_migrations_build_exactly_the_models_schema(empty_app: Flask) -> None:
    with empty_app.app_context():
        upgrade(revision="head")
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        assert diff == []


CARD_RULING = {
    "outcome": "knock",
    "scorer": "knocker",
    "points": 10,
    "knocker": {
        "melds": [["4S", "4H", "4D"], ["5S", "5H", "5D"], ["6S", "6H", "6D"]],
        "deadwood": ["KC"],
        "deadwood_count": 10,
    },
    "defender": {
        "melds": [["AH", "2H", "3H"], ["7H", "8H", "9H"]],
        "layoffs": [],
        "deadwood": ["2S", "3S", "7S", "8S"],
        "deadwood_count": 20,
    },
}


FIGURES_OF_GAME_1 = (
    "SELECT player_id, games_played, points, hands_box, hands_won_box, knocks, undercuts_made,"
    " undercuts_suffered, knocker_deadwood_total, knocker_deadwood_hands FROM game_player WHERE game_id = 1"
    " ORDER BY player_id"
)


def test_upgrade_from_0001_keeps_games_and_hands_and_derives_the_figures(empty_app: Flask) -> None:
    with empty_app.app_context():
        upgrade(revision="0001")
        now = "2026-01-05 20:00:00"
        with db.engine.begin() as conn:
            for pid, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
                conn.execute(
                    text("INSERT INTO player (id, name, created_at) VALUES (:i, :n, :t)"),
                    {"i": pid, "n": name, "t": now},
                )
            conn.execute(
                text(
                    "INSERT INTO game (id, players, rules, cut, first_box, first_captain, first_sitter, status, scores,"
                    " roles, winner, hands_played, out_of_turn, version, created_at) VALUES (1, :players, :rules, NULL,"
                    " 1, 2, 3, 'in_progress', :scores, :roles, NULL, 2, '[]', 3, :t)"
                ),
                {
                    "players": json.dumps([1, 2, 3]),
                    "t": now,
                    "rules": json.dumps(
                        {"gin_bonus": 25, "undercut_bonus": 10, "knock_limit": 10, "target_score": 100}
                    ),
                    "scores": json.dumps({"1": 10, "2": 0, "3": 14}),
                    "roles": json.dumps({"box": 3, "captain": 2, "sitter": 1}),
                },
            )
            hand = (
                "INSERT INTO hand (game_id, number, mode, box, captain, sitter, knocker, outcome, scorer, points,"
                " input, ruling, scores_after, seating_follows, recorded_at) VALUES (1, :n, :mode, :b, :c, :s,"
                " :k, :o, :sc, :p, :input, :ruling, :after, :f, :t)"
            )
            conn.execute(
                text(hand),
                {
                    "n": 1,
                    "mode": "cards",
                    "b": 1,
                    "c": 2,
                    "s": 3,
                    "k": "box",
                    "o": "knock",
                    "sc": "knocker",
                    "p": 10,
                    "input": json.dumps({"knocker": "box"}),
                    "ruling": json.dumps(CARD_RULING),
                    "after": json.dumps({"1": 10, "2": 0, "3": 0}),
                    "f": True,
                    "t": now,
                },
            )
            counts = {
                "outcome": "undercut",
                "scorer": "defender",
                "points": 14,
                "knocker": {"melds": None, "deadwood": None, "deadwood_count": 8},
                "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": 4},
            }
            conn.execute(
                text(hand),
                {
                    "n": 2,
                    "mode": "counts",
                    "b": 1,
                    "c": 3,
                    "s": 2,
                    "k": "box",
                    "o": "undercut",
                    "sc": "defender",
                    "p": 14,
                    "input": json.dumps({"knocker": "box"}),
                    "ruling": json.dumps(counts),
                    "after": json.dumps({"1": 10, "2": 0, "3": 14}),
                    "f": True,
                    "t": now,
                },
            )

        upgrade(revision="0010")
        with db.engine.connect() as conn:  # 0004: the figures derived from the hands
            rows = conn.execute(text(FIGURES_OF_GAME_1)).all()
        assert [tuple(r) for r in rows] == [
            (1, 1, 10, 2, 1, 2, 0, 1, 10, 1),
            (2, 1, 0, 0, 0, 0, 0, 0, 0, 0),
            (3, 1, 14, 0, 0, 0, 1, 0, 0, 0),
        ]
        upgrade(revision="head")

        client = empty_app.test_client()
        game = client.get("/api/v1/games/1").get_json()
        assert game["scores"] == {"1": 10, "2": 0, "3": 14}
        assert game["roles"] == {"box": 3, "captain": 2, "sitter": 1}
        assert game["hands_played"] == 2 and game["version"] == 3
        assert game["played_at"].startswith("2026-01-05T20:00:00")
        hands = client.get("/api/v1/games/1/hands").get_json()["items"]
        served = hands[0]["ruling"]
        assert {k: v for k, v in served.items() if k != "explanation"} == CARD_RULING
        # Rows stored before rulings were explained are explained when served, by the game's rules.
        assert [step["code"] for step in served["explanation"]] == [
            "knocker_spread",
            "knock_valid",
            "defender_spread",
            "knock",
        ]
        assert [step["text"] for step in hands[1]["ruling"]["explanation"]] == [
            "Entered by counts: the knocker's deadwood is 8, the defender's 4 after layoffs (R25)",
            "Knock stands: 8 deadwood, within the limit of 10 (R14)",
            "Undercut: the knocker's 8 is not lower than the defender's 4, so the defender scores 10 + 4 = 14 (R17)",
        ]
        with db.engine.connect() as conn:
            deadwood = conn.execute(text("SELECT number, knocker_deadwood FROM hand ORDER BY number")).all()
            rows = conn.execute(text(FIGURES_OF_GAME_1)).all()
        assert [tuple(d) for d in deadwood] == [(1, 10), (2, None)]
        # 0011: a game outside a league keeps the figures of a game not yet begun
        assert [tuple(r) for r in rows] == [(p, 1, 0, 0, 0, 0, 0, 0, 0, 0) for p in (1, 2, 3)]
        # 0008: each hand that was there is its own first revision, as it stands
        for number, after in ((1, {"1": 10, "2": 0, "3": 0}), (2, {"1": 10, "2": 0, "3": 14})):
            revisions = client.get(f"/api/v1/games/1/hands/{number}/revisions").get_json()["items"]
            assert [(r["revision"], r["action"], r["key_id"], r["reason"]) for r in revisions] == [
                (1, "recorded", None, None)
            ]
            assert revisions[0]["scores"] == revisions[0]["game_scores"] == after
            assert revisions[0]["ruling"] == hands[number - 1]["ruling"]
            assert revisions[0]["made_at"].startswith("2026-01-05T20:00:00")


def test_upgrade_to_0007_leaves_everything_public_and_every_key_a_write_key(empty_app: Flask) -> None:
    with empty_app.app_context():
        upgrade(revision="0006")
        now = "2026-01-05 20:00:00"
        with db.engine.begin() as conn:
            for pid in (1, 2, 3):
                conn.execute(
                    text("INSERT INTO player (id, name, created_at) VALUES (:i, 'P', :t)"), {"i": pid, "t": now}
                )
            conn.execute(
                text(
                    "INSERT INTO league (id, name, created_at, history_version, ratings_stale, streaks_stale)"
                    " VALUES (1, 'L', :t, 0, false, false)"
                ),
                {"t": now},
            )
            game = (
                "INSERT INTO game (id, players, rules, first_box, first_captain, first_sitter, scores, hands_played,"
                " out_of_turn, version, created_at, played_at, league_id) VALUES (:i, '[1, 2, 3]', '{}', 1, 2, 3,"
                " '{}', 0, '[]', 1, :t, :t, :league)"
            )
            conn.execute(text(game), {"i": 1, "t": now, "league": None})
            conn.execute(text(game), {"i": 2, "t": now, "league": 1})
            conn.execute(
                text("INSERT INTO api_key (id, key_hash, league_id, game_id, created_at) VALUES (1, 'h', 1, NULL, :t)"),
                {"t": now},
            )
        upgrade(revision="head")
        with db.engine.connect() as conn:
            leagues = conn.execute(text("SELECT id, visibility FROM league")).all()
            games = conn.execute(text("SELECT id, visibility FROM game ORDER BY id")).all()
            keys = conn.execute(text("SELECT id, kind, label FROM api_key")).all()
        assert [tuple(r) for r in leagues] == [(1, "public")]
        assert [tuple(r) for r in games] == [(1, "public"), (2, None)]  # a game in a league follows it
        assert [tuple(r) for r in keys] == [(1, "write", None)]


def test_upgrade_to_0015_names_each_games_preset_and_rates_each_league_again(empty_app: Flask) -> None:
    with empty_app.app_context():
        upgrade(revision="0014")
        now = "2026-12-05 20:00:00"
        with db.engine.begin() as conn:
            for pid in (1, 2, 3):
                conn.execute(
                    text("INSERT INTO player (id, name, created_at) VALUES (:i, 'P', :t)"), {"i": pid, "t": now}
                )
            conn.execute(
                text(
                    "INSERT INTO league (id, name, created_at, history_version, ratings_stale, streaks_stale,"
                    " visibility) VALUES (1, 'L', :t, 3, false, false, 'public')"
                ),
                {"t": now},
            )
            game = (
                "INSERT INTO game (id, players, rules, first_box, first_captain, first_sitter, scores, hands_played,"
                " out_of_turn, version, hands_version, created_at, played_at, league_id, visibility)"
                " VALUES (:i, :players, :rules, 1, 2, :sitter, '{}', 0, '[]', 1, 1, :t, :t, :league, :v)"
            )
            conn.execute(
                text(game),
                {"i": 1, "players": "[1, 2, 3]", "rules": "{}", "sitter": 3, "t": now, "league": 1, "v": None},
            )
            conn.execute(
                text(game),
                {
                    "i": 2,
                    "players": "[1, 2]",
                    "rules": json.dumps({"preset": "oklahoma", "target_score": 150}),
                    "sitter": None,
                    "t": now,
                    "league": None,
                    "v": "public",
                },
            )
            figures = (
                "INSERT INTO game_player (game_id, player_id, league_id, played_at, games_played, games_finished,"
                " games_won, points, hands, hands_box, hands_captain, hands_sitter, hands_won_box,"
                " hands_won_captain, gins, undercuts_made, undercuts_suffered, knocks, knocker_deadwood_total,"
                " knocker_deadwood_hands) VALUES (:g, :p, :league, :t, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"
            )
            for g, players, league in ((1, (1, 2, 3), 1), (2, (1, 2), None)):
                for p in players:
                    conn.execute(text(figures), {"g": g, "p": p, "league": league, "t": now})
            conn.execute(
                text("INSERT INTO league_rating (league_id, player_id, mu, sigma, hands_rated) VALUES (1, 1, 30, 5, 4)")
            )
        upgrade(revision="head")
        with db.engine.connect() as conn:
            presets = conn.execute(
                text("SELECT game_id, player_id, preset, boxes FROM game_player ORDER BY 1, 2")
            ).all()
            stale = conn.execute(text("SELECT ratings_stale FROM league")).scalar_one()
            ratings = conn.execute(text("SELECT count(*) FROM league_rating")).scalar_one()
        assert [tuple(r) for r in presets] == [
            (1, 1, "three_handed", 0),
            (1, 2, "three_handed", 0),
            (1, 3, "three_handed", 0),
            (2, 1, "oklahoma", 0),  # R27: the two-player game's preset, from its rules
            (2, 2, "oklahoma", 0),
        ]
        assert bool(stale) and ratings == 0  # the ratings, derived, are recounted by the next read (R27)


def test_upgrade_to_0017_gives_each_hollywood_column_the_rest_of_its_score_sheet(empty_app: Flask) -> None:
    """R34: a match's row keeps each column's hand points, hands won and entries;
    an existing match gets them from its hand log (and loses them on a downgrade)."""
    with empty_app.app_context():
        upgrade(revision="head")
    empty_app.config["RATELIMIT_ENABLED"] = False
    empty_app.test_client_class = AutoClient
    client = empty_app.test_client()
    a, b = (client.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob"))
    body = {"players": [a, b], "rules": {"preset": "hollywood"}, "roles": {"dealer": b, "non_dealer": a}}
    game_id = client.post("/api/v1/games", json=body).get_json()["id"]
    for knocker, k, d in (("dealer", 2, 40), ("non_dealer", 0, 30), ("dealer", 0, 10), (None, 0, 0), ("dealer", 5, 9)):
        hand = {"outcome": "draw"} if knocker is None else {"knocker": knocker, "knocker_deadwood_count": k}
        if knocker is not None:
            hand["defender_deadwood_count"] = d
        assert client.post(f"/api/v1/games/{game_id}/hands", json=hand).status_code == 201
    shown = client.get(f"/api/v1/games/{game_id}").get_json()
    with empty_app.app_context():
        kept = db.session.get(Game, game_id).sheet  # type: ignore[union-attr]
        db.session.rollback()
        downgrade(revision="0016")
        with db.engine.connect() as conn:
            sheet = conn.execute(text("SELECT sheet FROM game WHERE id = :id"), {"id": game_id}).scalar_one()
        sheet = json.loads(sheet) if isinstance(sheet, str) else sheet
        assert [sorted(c) for c in sheet["columns"]] == [
            ["boxes", "hands", "number", "result", "scores", "winner", "won_at"]
        ] * 3
        upgrade(revision="head")
        game = db.session.get(Game, game_id)
        assert game is not None and game.sheet == kept
        replayed = replay_hollywood(game.preset_rules, game.first_seating, game.two_player_records())
        row = GameRow.read(game_id)
        assert row is not None and stored_hollywood_state(row) == as_stored(replayed)
        db.session.rollback()
        assert verify_books() == []
    assert client.get(f"/api/v1/games/{game_id}").get_json() == shown


HAND_EVENTS = "SELECT count(*) FROM game_event WHERE kind LIKE 'hand%'"


def test_upgrade_to_0018_makes_each_hand_event_its_revision(empty_app: Flask) -> None:
    """A hand's change in the feed is its revision, which names the version it
    made: an upgrade moves each hand event to its revision, a downgrade moves
    them back, and the feed reads the same throughout."""
    with empty_app.app_context():
        upgrade(revision="head")
    empty_app.config["RATELIMIT_ENABLED"] = False
    empty_app.test_client_class = AutoClient
    client = empty_app.test_client()
    a, b, c = (client.post("/api/v1/players", json={"name": n}).get_json()["id"] for n in ("Ann", "Bob", "Cy"))
    game = client.post("/api/v1/games", json={"players": [a, b, c], "roles": {"box": a, "captain": b, "sitter": c}})
    url = f"/api/v1/games/{game.get_json()['id']}"
    assert client.patch(url, json={"rules": {"target_score": 150}}).status_code == 200
    for knocker, k, d in (("box", 5, 20), ("captain", 3, 9), ("box", 0, 30)):
        body = {"knocker": knocker, "knocker_deadwood_count": k, "defender_deadwood_count": d}
        assert client.post(f"{url}/hands", json=body).status_code == 201
    fix = {"knocker": "captain", "knocker_deadwood_count": 2, "defender_deadwood_count": 9}
    assert client.put(f"{url}/hands/2", json=fix).status_code == 200  # R26
    assert client.delete(f"{url}/hands/3").status_code == 204
    again = {"knocker": "captain", "knocker_deadwood_count": 1, "defender_deadwood_count": 12}
    assert client.post(f"{url}/hands", json=again).status_code == 201  # hand 3 again, after its undo
    claim = {"by": "captain", "claim": "he had KC", **_cards_of(KNOCK_10)}  # R24: the box knocked hand 1
    dispute = client.post(f"{url}/hands/1/disputes", json=claim)
    assert dispute.status_code == 201, dispute.get_json()
    resolution = {"decision": "upheld", "reason": "recounted"}
    r = client.post(f"{url}/hands/1/disputes/{dispute.get_json()['id']}/resolution", json=resolution)
    assert r.status_code == 200, r.get_json()
    feed = client.get(f"{url}/events?limit=100").get_json()
    kinds = [(e["version"], e["kind"], e["hand"]) for e in feed["items"]]
    assert kinds == [
        (1, "game_started", None),
        (2, "rules_changed", None),
        (3, "hand_recorded", 1),
        (4, "hand_recorded", 2),
        (5, "hand_recorded", 3),
        (6, "hand_corrected", 2),
        (7, "hand_undone", 3),
        (8, "hand_recorded", 3),
        (9, "dispute_opened", 1),
        (10, "hand_corrected", 1),  # R26: upheld, the dispute's ruling corrects the hand
        (11, "dispute_resolved", 1),
    ]
    with empty_app.app_context():
        db.session.remove()
        with db.engine.connect() as conn:
            assert conn.execute(text(HAND_EVENTS)).scalar_one() == 0
        downgrade(revision="0017")
        with db.engine.connect() as conn:
            assert conn.execute(text(HAND_EVENTS)).scalar_one() == 7
        upgrade(revision="head")
        with db.engine.connect() as conn:
            assert conn.execute(text(HAND_EVENTS)).scalar_one() == 0
            versions = conn.execute(text("SELECT game_version FROM hand_revision ORDER BY id")).scalars().all()
        assert versions == [3, 4, 5, 6, 7, 8, 10]
    assert client.get(f"{url}/events?limit=100").get_json() == feed
