"""Export and import of a league that holds a cutthroat game (R36 on R26,
R28-R31): format 3, its dealer, non-dealer and sitter in every seating, every
hand judged again under the preset and the game replayed by R36, its record
(revisions, an undone hand, disputes) kept; the CSV names each hand's sitter;
a tampered cutthroat game is refused naming the field, and nothing is written."""

from __future__ import annotations

import copy
import csv
import io
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask

from models.verify import verify_league
from tests.test_api.conftest import KNOCK_10, UNDERCUT_20, Api, by_cards, by_counts, problem
from tests.test_api.test_record_transfer import apart_from_ids, export, onto_themselves, post_import, row_counts

BASE = "/api/v1"


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


@dataclass(frozen=True)
class Night:
    league: int
    game: int
    ann: int
    bob: int
    cy: int
    dee: int


@pytest.fixture
def night(api: Api) -> Night:
    """A league of four with a three-handed game and a cutthroat game of
    three, seated by a cut, played to its win with a draw, an undo, a
    correction, an upheld dispute (which moves the seats of the hands after
    it, R26) and an open one."""
    ann, bob, cy, dee = (api.player(n) for n in ("Ann", "Bob", "Cy", "Dee"))
    league = _ok(api.post("/leagues", {"name": "Cutthroat night", "members": [ann, bob, cy, dee]}), 201)["id"]
    api.new_game(
        [ann, bob, dee],
        league_id=league,
        played_at="2026-11-20T19:00:00Z",
        roles={"box": ann, "captain": bob, "sitter": dee},
    )
    body = {
        "players": [ann, bob, cy],
        "league_id": league,
        "played_at": "2026-11-20T20:00:00Z",
        "rules": {"preset": "cutthroat", "target_score": 60},
        "cut": {str(ann): "KH", str(bob): "7D", str(cy): "2S"},  # R36: Ann deals to Bob, Cy sits out
    }
    gid = _ok(api.post("/games", body), 201)["id"]
    api.record(gid, by_cards("dealer", *KNOCK_10))  # Ann 10; Bob sits out, Cy deals to Ann
    api.record(gid, {"outcome": "draw"})  # R12: the same two again
    api.record(gid, by_counts("non_dealer", 0, 12))
    assert api.client.delete(f"{BASE}/games/{gid}/hands/3", query_string={"reason": "misread"}).status_code == 204
    api.record(gid, by_counts("dealer", 2, 30))  # Cy 28; Ann sits out, Bob deals to Cy
    api.record(gid, by_counts("non_dealer", 5, 20))  # Cy 15
    claim = {"by": "non_dealer", "claim": "he was undercut", **by_cards("dealer", *UNDERCUT_20)}
    upheld = _ok(api.client.post(f"{BASE}/games/{gid}/hands/1/disputes", json=claim), 201)
    _ok(api.client.post(f"{BASE}/games/{gid}/hands/1/disputes/{upheld['id']}/resolution", json={"decision": "upheld"}))
    api.correct(gid, 4, {**by_counts("non_dealer", 4, 20), "reason": "he had 4"})
    open_claim = {"by": "dealer", "claim": "the first cards were right", **by_cards("dealer", *KNOCK_10)}
    _ok(api.client.post(f"{BASE}/games/{gid}/hands/1/disputes", json=open_claim), 201)
    api.record(gid, by_counts("non_dealer", 0, 20))
    return Night(league, gid, ann, bob, cy, dee)


def _cutthroat(doc: dict[str, Any]) -> dict[str, Any]:
    game: dict[str, Any] = doc["games"][1]
    assert game["rules"]["preset"] == "cutthroat"
    return game


SHOWN = ("players", "cut", "first_roles", "rules", "status", "winner", "scores", "roles", "boxes", "result")


def test_r36_a_league_with_a_cutthroat_game_round_trips_apart_from_ids(app: Flask, api: Api, night: Night) -> None:
    doc = export(api, night.league)
    assert doc["format_version"] == 3
    game = _cutthroat(doc)
    assert game["players"] == [night.ann, night.bob, night.cy]
    assert game["first_roles"] == {"dealer": night.ann, "non_dealer": night.bob, "sitter": night.cy}
    assert [h["seating"]["sitter"] for h in game["hands"]] == [night.cy, night.bob, night.bob, night.ann, night.bob]
    assert [h["knocker"] for h in game["hands"]] == ["dealer", None, "dealer", "non_dealer", "non_dealer"]
    assert [(r["number"], r["revision"], r["action"], r["dispute"]) for r in game["revisions"]] == [
        (1, 1, "recorded", None),
        (1, 2, "corrected", 1),
        (2, 1, "recorded", None),
        (3, 1, "recorded", None),
        (3, 2, "undone", None),
        (3, 3, "recorded", None),
        (4, 1, "recorded", None),
        (4, 2, "corrected", None),
        (5, 1, "recorded", None),
    ]
    assert all(set(r["seating"]) == {"dealer", "non_dealer", "sitter"} for r in game["revisions"])
    assert [(d["number"], d["by"], d["status"]) for d in game["disputes"]] == [
        (1, "non_dealer", "upheld"),
        (1, "dealer", "open"),
    ]
    original = api.game(night.game)
    assert original["out_of_turn"] == [2]  # R26: hand 1's correction moved the seats of hand 2
    assert original["winner"] == night.cy and original["result"]["shut_out"] == [night.ann]

    imported = _ok(post_import(api, doc, onto_themselves(doc)), 201)
    again = export(api, imported["id"])
    assert apart_from_ids(again) == apart_from_ids(doc)
    copied = api.game(_cutthroat(again)["id"])
    assert {k: copied[k] for k in SHOWN} == {k: original[k] for k in SHOWN}
    assert (copied["out_of_turn"], copied["hands_played"]) == ([2], 5)
    assert api.hands(copied["id"]) == api.hands(night.game)  # seats, rulings, running scores, R26 marks
    for preset in ("cutthroat", "three_handed"):
        query = {"preset": preset}
        mine = _ok(api.client.get(f"{BASE}/leagues/{night.league}/standings", query_string=query))["items"]
        theirs = _ok(api.client.get(f"{BASE}/leagues/{imported['id']}/standings", query_string=query))["items"]
        assert theirs == mine, preset
    with app.app_context():
        assert verify_league(night.league) == []
        assert verify_league(imported["id"]) == []


def test_r36_a_cutthroat_game_imported_onto_new_players_is_the_same_game_in_their_ids(
    app: Flask, api: Api, night: Night
) -> None:
    doc = export(api, night.league)
    imported = _ok(post_import(api, doc), 201)
    new = {p["document_id"]: p["id"] for p in imported["players"]}
    assert all(p["created"] for p in imported["players"])
    game = _cutthroat(export(api, imported["id"]))
    copied, original = api.game(game["id"]), api.game(night.game)
    assert copied["players"] == [new[p] for p in original["players"]]
    assert copied["first_roles"] == {seat: new[p] for seat, p in original["first_roles"].items()}
    assert copied["scores"] == {str(new[int(p)]): n for p, n in original["scores"].items()}
    assert copied["boxes"] == {str(new[int(p)]): n for p, n in original["boxes"].items()}
    assert copied["winner"] == new[original["winner"]]
    result, was = copied["result"], original["result"]
    assert result["shut_out"] == [new[p] for p in was["shut_out"]]
    assert result["totals"] == {str(new[int(p)]): t for p, t in was["totals"].items()}
    assert result["nets"] == [{**n, "ahead": new[n["ahead"]], "behind": new[n["behind"]]} for n in was["nets"]]
    with app.app_context():
        assert verify_league(imported["id"]) == []


def test_r36_the_csv_export_names_a_cutthroat_hands_sitter_and_its_winner_as_scorer(api: Api, night: Night) -> None:
    response = api.client.get(f"{BASE}/leagues/{night.league}/export.csv")
    assert response.status_code == 200
    rows = [r for r in csv.DictReader(io.StringIO(response.get_data(as_text=True))) if int(r["game_id"]) == night.game]
    hands = api.hands(night.game)
    assert len(rows) == len(hands) == 5
    names = {night.ann: "Ann", night.bob: "Bob", night.cy: "Cy"}
    for row, hand in zip(rows, hands, strict=True):
        seating = hand["seating"]
        assert (int(row["box_id"]), int(row["captain_id"]), int(row["sitter_id"])) == (
            seating["dealer"],
            seating["non_dealer"],
            seating["sitter"],
        )
        assert row["sitter"] == names[seating["sitter"]]
        assert row["knocker"] == (hand["knocker"] or "")
        winner = hand["ruling"]["winner"]
        scorer = None if winner is None else seating[winner]  # R11: the winner scores, never the sitter
        assert row["scorer_id"] == ("" if scorer is None else str(scorer))
        assert row["scorer"] == ("" if scorer is None else names[scorer])
        assert int(row["sitter_score"]) == hand["scores"][str(seating["sitter"])]
        assert row["seating_follows"] == ("false" if hand["number"] == 2 else "true")
    # hand 1, as the upheld dispute has it: Ann dealt to Bob, who undercut her, while Cy sat out
    first = rows[0]
    assert (first["box"], first["captain"], first["sitter"], first["scorer"], first["outcome"]) == (
        "Ann",
        "Bob",
        "Cy",
        "Bob",
        "undercut",
    )
    draw = rows[1]
    assert (draw["outcome"], draw["scorer_id"], draw["sitter"]) == ("draw", "", "Bob")


def _tampered(doc: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    change(out)
    return out


def _seat(hand: int, **seats: str) -> Any:
    """Hand ``hand`` seated by the players named (``ann``, ``bob``, ``cy``, or
    ``dee``, who is in the league but not in the game)."""

    def change(d: dict[str, Any]) -> None:
        game = _cutthroat(d)
        ann, bob, cy = game["players"]
        named = {"ann": ann, "bob": bob, "cy": cy, "dee": d["players"][3]["id"]}
        game["hands"][hand]["seating"] = {seat: named[name] for seat, name in seats.items()}

    return change


def _set(change: Any) -> Any:
    return lambda d: change(_cutthroat(d))


def _cut(ann: str, bob: str, cy: str) -> Any:
    def change(d: dict[str, Any]) -> None:
        game = _cutthroat(d)
        game["cut"] = {str(p): card for p, card in zip(game["players"], (ann, bob, cy), strict=True)}

    return change


@pytest.mark.parametrize(
    ("name", "change", "field", "rule"),
    [
        (
            "two seats the same player",
            _seat(1, dealer="cy", non_dealer="cy", sitter="bob"),
            "games[1].hands[1].seating",
            "R36",
        ),
        (
            "a sitter who is not a player of the game",
            _seat(2, dealer="cy", non_dealer="ann", sitter="dee"),
            "games[1].hands[2].seating",
            "R36",
        ),
        (
            "a hand seated otherwise with no correction before it",
            _seat(3, dealer="cy", non_dealer="bob", sitter="ann"),
            "games[1].hands[3].seating",
            None,
        ),
        (
            "the first hand not in the seats the cut gives",
            _seat(0, dealer="bob", non_dealer="ann", sitter="cy"),
            "games[1].hands[0].seating",
            "R36",
        ),
        (
            "a seating without its sitter",
            lambda d: _cutthroat(d)["hands"][0]["seating"].pop("sitter"),
            "games[1].hands[0].seating.sitter",
            None,
        ),
        (
            "a cut with tied ranks",
            _cut("KH", "KD", "2S"),
            "games[1].cut",
            "R36",
        ),
        (
            "a cut that seats another dealer",
            _cut("7D", "KH", "2S"),
            "games[1].cut",
            "R36",
        ),
        (
            "a knocker in the box",
            lambda d: _cutthroat(d)["hands"][0].update(knocker="box"),
            "games[1].hands[0].knocker",
            None,
        ),
        (
            "a sitter who knocks",
            lambda d: _cutthroat(d)["revisions"][0].update(knocker="sitter"),
            "games[1].revisions[0].knocker",
            None,
        ),
        (
            "four players",
            lambda d: _cutthroat(d)["players"].append(d["players"][3]["id"]),
            "games[1].players",
            None,
        ),
        (
            "a winner the hands do not make",
            _set(lambda g: g.update(winner=g["players"][1])),
            "games[1].winner",
            None,
        ),
        (
            "scores the hands do not add up to",
            _set(lambda g: g["scores"].update({str(g["players"][0]): 10})),
            "games[1].scores",
            None,
        ),
        (
            "a game left in progress after its win",
            _set(lambda g: g.update(status="in_progress")),
            "games[1].status",
            None,
        ),
        (
            "a correction that moves its hand's sitter",
            _set(lambda g: g["revisions"][1]["seating"].update(non_dealer=g["players"][2], sitter=g["players"][1])),
            "games[1].revisions[1].seating",
            None,
        ),
        (
            "a revision's game scores",
            _set(lambda g: g["revisions"][6]["game_scores"].update({str(g["players"][1]): 1})),
            "games[1].revisions[6].game_scores",
            None,
        ),
        (
            "a dispute by the sitter",
            lambda d: _cutthroat(d)["disputes"][1].update(by="sitter"),
            "games[1].disputes[1].by",
            None,
        ),
        (
            "a ruling under another preset's bonus",
            lambda d: _cutthroat(d)["rules"].update(undercut_bonus=10),
            "games[1].hands[0].ruling",
            None,
        ),
        (
            "a cutthroat game under classic's rules",
            lambda d: _cutthroat(d)["rules"].update(preset="classic"),
            "games[1].players",
            None,
        ),
    ],
)
def test_r36_a_tampered_cutthroat_game_is_a_422_naming_the_field_and_writes_nothing(
    app: Flask, api: Api, night: Night, name: str, change: Any, field: str, rule: str | None
) -> None:
    doc = export(api, night.league)
    assert _ok(post_import(api, copy.deepcopy(doc), onto_themselves(doc)), 201)  # as exported, it imports
    before = row_counts(app)
    leagues = _ok(api.client.get(f"{BASE}/leagues"))["total"]
    body = problem(post_import(api, _tampered(doc, change), onto_themselves(doc)), 422)
    assert any(key.startswith(field) for key in body["errors"]), (name, body)
    if rule is not None:
        assert body.get("rule") == rule, (name, body)
    assert _ok(api.client.get(f"{BASE}/leagues"))["total"] == leagues
    assert row_counts(app) == before
