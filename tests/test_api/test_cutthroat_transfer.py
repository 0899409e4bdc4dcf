"""Export of a league that holds a cutthroat game (R36 on R26, R28-R31): the
CSV names each hand's sitter and its winner as the scorer."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import pytest

from tests.test_api.conftest import KNOCK_10, UNDERCUT_20, Api, by_cards, by_counts

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
