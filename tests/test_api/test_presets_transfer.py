"""Export and import of a league that holds games of the two-player presets
(R27, R28): format 3, each game with its preset and every option, every hand
judged again under them, and its record (revisions, undone hands, disputes)
kept; a tampered two-player game is refused naming the field."""

from __future__ import annotations

import copy
import csv
import io
from typing import Any

import pytest
from flask import Flask

from models.verify import verify_league
from tests.test_api.conftest import KNOCK_10, Api, by_cards, by_counts, problem
from tests.test_api.test_presets_leagues import League, check, club  # noqa: F401 (the fixture)
from tests.test_api.test_record_transfer import apart_from_ids, export, onto_themselves, post_import

BASE = "/api/v1"
OKLAHOMA_KNOCK = ("4H 5H 6H 4S 5S 6S 4D 5D 6D 3C", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


@pytest.fixture
def record(api: Api, club: League) -> League:  # noqa: F811 (the fixture's name)
    """The club's league with a record on an Oklahoma game by cards: a
    correction, an undo, a hand recorded again, an upheld and an open dispute."""
    league = club
    ann, bob, cy, dee = league.players
    game = api.new_game(
        [ann, cy],
        league_id=league.id,
        played_at="2026-11-20T20:00:00Z",
        rules={"preset": "oklahoma", "big_gin_bonus": 31},
        roles={"dealer": ann, "non_dealer": cy},
    )
    gid = game["id"]
    api.record(gid, {**by_cards("non_dealer", *OKLAHOMA_KNOCK), "upcard": "3s"})  # R33: spade up-card, doubled
    api.record(gid, {**by_counts("dealer", 2, 30), "upcard": "9H"})
    api.correct(gid, 2, {**by_counts("dealer", 4, 30), "upcard": "9H", "reason": "he had 4"})
    api.record(gid, {"outcome": "draw"})
    assert api.client.delete(f"{BASE}/games/{gid}/hands/3", query_string={"reason": "not a draw"}).status_code == 204
    api.record(gid, {**by_counts("non_dealer", 0, 12), "upcard": "KD"})
    cards = OKLAHOMA_KNOCK[0].replace("3C", "2C")
    upheld = _ok(
        api.client.post(
            f"{BASE}/games/{gid}/hands/1/disputes",
            json={
                "by": "dealer",
                "claim": "the two",
                **by_cards("non_dealer", cards, OKLAHOMA_KNOCK[1]),
                "upcard": "3S",
            },
        ),
        201,
    )
    _ok(api.client.post(f"{BASE}/games/{gid}/hands/1/disputes/{upheld['id']}/resolution", json={"decision": "upheld"}))
    claim = {"by": "dealer", "claim": "no gin", **by_cards("non_dealer", *KNOCK_10), "upcard": "KD"}
    _ok(api.client.post(f"{BASE}/games/{gid}/hands/3/disputes", json=claim), 201)
    return league


def test_r27_a_league_with_two_player_games_round_trips_apart_from_ids(app: Flask, api: Api, record: League) -> None:
    doc = export(api, record.id)
    assert doc["format_version"] == 3
    oklahoma = doc["games"][-1]
    assert oklahoma["rules"]["preset"] == "oklahoma" and oklahoma["rules"]["big_gin_bonus"] == 31
    assert set(oklahoma["first_roles"]) == {"dealer", "non_dealer"}
    assert [(r["number"], r["revision"], r["action"]) for r in oklahoma["revisions"]] == [
        (1, 1, "recorded"),
        (1, 2, "corrected"),
        (2, 1, "recorded"),
        (2, 2, "corrected"),
        (3, 1, "recorded"),
        (3, 2, "undone"),
        (3, 3, "recorded"),
    ]
    assert [(d["number"], d["by"], d["status"]) for d in oklahoma["disputes"]] == [
        (1, "dealer", "upheld"),
        (3, "dealer", "open"),
    ]
    imported = _ok(post_import(api, doc, onto_themselves(doc)), 201)
    again = export(api, imported["id"])
    assert apart_from_ids(again) == apart_from_ids(doc)
    for preset in ("three_handed", "classic", "straight"):  # the club's games, as tallied from their hands
        check(api, League(imported["id"], record.players, record.games), preset)
    for preset in (None, "oklahoma", "classic", "three_handed"):
        query = {} if preset is None else {"preset": preset}
        original = _ok(api.client.get(f"{BASE}/leagues/{record.id}/standings", query_string=query))
        copied = _ok(api.client.get(f"{BASE}/leagues/{imported['id']}/standings", query_string=query))
        assert copied["items"] == original["items"], preset
    with app.app_context():
        assert verify_league(imported["id"]) == []


def test_r27_a_league_of_three_handed_games_only_still_exports_format_2(api: Api) -> None:
    players = [api.player(n) for n in ("Ann", "Bob", "Cy")]
    league = _ok(api.client.post(f"{BASE}/leagues", json={"name": "Old", "members": players}), 201)
    api.new_game(players, league_id=league["id"], roles=dict(zip(("box", "captain", "sitter"), players, strict=True)))
    assert export(api, league["id"])["format_version"] == 2


def test_r28_the_csv_export_puts_a_two_player_hands_dealer_and_non_dealer_in_the_box_and_captain_columns(
    api: Api,
    club: League,  # noqa: F811 (the fixture)
) -> None:
    response = api.client.get(f"{BASE}/leagues/{club.id}/export.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    classic = club.games[1]
    mine = [r for r in rows if int(r["game_id"]) == classic.game_id]
    assert len(mine) == len(classic.hands)
    for row, hand in zip(mine, classic.hands, strict=True):
        assert (int(row["box_id"]), int(row["captain_id"])) == (
            hand["seating"]["dealer"],
            hand["seating"]["non_dealer"],
        )
        assert (row["sitter_id"], row["sitter"], row["sitter_score"]) == ("", "", "")
        assert row["knocker"] == (hand["knocker"] or "")
        assert int(row["points"]) == hand["ruling"]["points"]
        winner = None if hand["knocker"] is None else hand["seating"][hand["ruling"]["winner"]]
        assert row["scorer_id"] == ("" if winner is None else str(winner))


def _oklahoma(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["games"][-1]


def _tampered(doc: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    change(out)
    return out


@pytest.mark.parametrize(
    ("name", "change", "field", "rule"),
    [
        (
            "a ruling's points",
            lambda d: _oklahoma(d)["hands"][1]["ruling"].update(points=99),
            "games[7].hands[1].ruling",
            None,
        ),
        (
            "an up-card that makes the knock illegal",
            lambda d: _oklahoma(d)["hands"][1]["input"].update(upcard="AH"),
            "games[7].hands[1].input",
            "R33",
        ),
        (
            "the first hand dealt by the other player",
            lambda d: _oklahoma(d)["hands"][0].update(
                seating={"dealer": _oklahoma(d)["players"][1], "non_dealer": _oklahoma(d)["players"][0]}
            ),
            "games[7].hands[0].seating",
            "R28",
        ),
        (
            "a three-player seating in a two-player game",
            lambda d: _oklahoma(d).update(first_roles={"box": 1, "captain": 2, "sitter": 3}),
            "games[7].first_roles.dealer",
            None,
        ),
        (
            "the game's scores",
            lambda d: _oklahoma(d)["scores"].update({str(_oklahoma(d)["players"][0]): 1}),
            "games[7].scores",
            None,
        ),
        (
            "a winner before the target is reached",
            lambda d: _oklahoma(d).update(winner=_oklahoma(d)["players"][0]),
            "games[7].winner",
            "R30",
        ),
        (
            "an option out of range",
            lambda d: _oklahoma(d)["rules"].update(gin_boxes=9),
            "games[7].rules.gin_boxes",
            None,
        ),
        (
            "a two-player game under cutthroat's rules",
            lambda d: _oklahoma(d)["rules"].update(preset="cutthroat"),
            "games[7].rules",
            None,
        ),
        (
            "a three-handed knocker",
            lambda d: _oklahoma(d)["hands"][1].update(knocker="box"),
            "games[7].hands[1].knocker",
            None,
        ),
        ("a two-player game in format 2", lambda d: d.update(format_version=2), "games[1].players", None),
    ],
)
def test_r27_a_tampered_two_player_game_is_a_422_naming_the_field_and_writes_nothing(
    api: Api, record: League, name: str, change: Any, field: str, rule: str | None
) -> None:
    doc = export(api, record.id)
    assert len(doc["games"]) == 8
    before = _ok(api.client.get(f"{BASE}/leagues"))["total"]
    body = problem(post_import(api, _tampered(doc, change), onto_themselves(doc)), 422)
    assert any(key.startswith(field) for key in body["errors"]), (name, body)
    if rule is not None:
        assert body.get("rule") == rule, (name, body)
    assert _ok(api.client.get(f"{BASE}/leagues"))["total"] == before
