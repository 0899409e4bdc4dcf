"""Hollywood through the API (R34 on R26, R28-R31): the golden matches of
tests/data/golden_matches.json played through HTTP, random matches against
the independent fold of tests/reference_matches.py, corrections that move
wins between columns, and a match in a league, exported and imported."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from models.verify import verify_books, verify_league
from tests.reference_matches import hollywood_match
from tests.test_api.conftest import UNDERCUT_20, Api, by_cards, problem
from tests.test_api.test_presets_golden import hand_body
from tests.test_api.test_record_transfer import apart_from_ids, export, onto_themselves, post_import

MATCHES = [
    m
    for m in json.loads((Path(__file__).resolve().parents[1] / "data" / "golden_matches.json").read_text("utf-8"))
    if m["preset"] == "hollywood"
]
BASE = "/api/v1"


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def start(api: Api, match: dict[str, Any], **extra: Any) -> tuple[dict[str, Any], dict[str, int]]:
    ids = {name: api.player(name) for name in match["players"]}
    body: dict[str, Any] = {"players": [ids[p] for p in match["players"]], "rules": {"preset": "hollywood"}}
    body["rules"].update(match["options"])
    if "cut" in match:
        body["cut"] = {str(ids[p]): card for p, card in match["cut"].items()}
    else:
        other = next(p for p in match["players"] if p != match["dealer"])
        body["roles"] = {"dealer": ids[match["dealer"]], "non_dealer": ids[other]}
    return _ok(api.post("/games", {**body, **extra}), 201), ids


def shown_columns(game: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """The game's columns as the golden file writes them: by name, each result's totals as lists."""
    out = []
    for column in game["columns"]:
        result = column["result"]
        out.append(
            {
                "entries": column["hands"],
                "scores": {names[int(p)]: n for p, n in column["scores"].items()},
                "boxes": {names[int(p)]: n for p, n in column["boxes"].items()},
                "winner": None if column["winner"] is None else names[column["winner"]],
                "won_at": column["won_at"],
                "result": None
                if result is None
                else {
                    "totals": {
                        names[int(p)]: [t["hand_points"], t["box_bonus"], t["game_bonus"], t["shutout"], t["total"]]
                        for p, t in result["totals"].items()
                    },
                    "net": result["net"],
                    "shutout": result["shutout"],
                },
            }
        )
    return out


@pytest.mark.parametrize("match", MATCHES, ids=[m["name"] for m in MATCHES])
def test_golden_hollywood_match_through_http(app: Flask, api: Api, match: dict[str, Any]) -> None:
    expected = match["expected"]
    game, ids = start(api, match)
    names = {v: k for k, v in ids.items()}
    gid = game["id"]
    assert [c["number"] for c in game["columns"]] == [1, 2, 3] and game["match"] is None and game["result"] is None
    hands = []
    for i, hand in enumerate(match["hands"], start=1):
        response = api.client.post(f"{BASE}/games/{gid}/hands", json=hand_body(hand))
        error = expected.get("error")
        if error is not None and error["rule"] == "R34" and i in error["hands"]:
            body = problem(response, 409)
            assert body["rule"] == "R34", body
            return
        hands.append(_ok(response, 201))
        assert hands[-1]["seating"]["dealer"] == ids[hand["dealer"]]  # R28, as the golden file seats it
    if "correction" in match:
        for number, hand in match["correction"].items():
            response = api.client.put(f"{BASE}/games/{gid}/hands/{number}", json=hand_body(hand))
            error = expected.get("error")
            if error is not None:
                body = problem(response, 409)
                assert (body["rule"], body["hands"]) == (error["rule"], error["hands"]), body
                assert api.game(gid)["hands_played"] == len(match["hands"])  # nothing changed
                return
            _ok(response)
        assert [h["columns"] for h in hands] == expected["before"]
        moved = api.game(gid)["moved"]
        assert [[m["hand"], m["before"], m["after"], m["corrected"]] for m in moved] == expected["moved"]
    state = api.game(gid)
    served = api.hands(gid)
    assert [h["columns"] for h in served] == expected["entered"]
    if "points" in expected:
        assert [h["ruling"]["points"] for h in served] == expected["points"]
    if "columns" in expected:
        assert shown_columns(state, names) == expected["columns"]
    assert state["out_of_turn"] == expected["out_of_turn"]
    dealer = None if state["roles"] is None else names[state["roles"]["dealer"]]
    assert dealer == expected["next_dealer"]
    match_result = expected.get("match")
    if match_result is None:
        assert state["match"] is None and state["status"] == "in_progress"
    else:
        assert state["status"] == "finished"
        assert {names[int(p)]: n for p, n in state["match"]["totals"].items()} == match_result["totals"]
        assert state["match"]["net"] == match_result["net"]
        assert (None if state["winner"] is None else names[state["winner"]]) == match_result["winner"]
        assert state["match"]["winner"] == state["winner"]
    # R26: summed over the columns, the game's scores and each hand's running scores
    assert state["scores"] == {p: sum(c["scores"][p] for c in state["columns"]) for p in state["scores"]}
    assert served[-1]["scores"] == state["scores"]
    with app.app_context():
        assert verify_books() == []


def random_hand(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.1:
        return {"outcome": "draw"}
    return {
        "knocker": rng.choice(["dealer", "non_dealer"]),
        "knocker_deadwood_count": rng.choice([0, 1, 4, 7, 10]),
        "defender_deadwood_count": rng.choice([0, 3, 8, 15, 30, 55]),
    }


@pytest.mark.parametrize("seed", range(6))
def test_r34_random_matches_through_http_equal_the_independent_fold(api: Api, seed: int) -> None:
    rng = random.Random(seed)
    options = rng.choice(
        [
            {},
            {"target_score": 60},
            {"next_dealer": "loser", "shutout": "plus_100"},
            {"boxes_immediate": True, "gin_boxes": 2},
            {"next_dealer": "alternate", "game_bonus": 50},
        ]
    )
    a, b = api.player(f"Ann{seed}"), api.player(f"Bob{seed}")
    game = _ok(
        api.post(
            "/games",
            {"players": [a, b], "rules": {"preset": "hollywood", **options}, "roles": {"dealer": a, "non_dealer": b}},
        ),
        201,
    )
    names = {a: "ann", b: "bob"}
    played: list[dict[str, Any]] = []
    while True:
        body = random_hand(rng)
        hand = _ok(api.client.post(f"{BASE}/games/{game['id']}/hands", json=body), 201)
        seating = hand["seating"]
        played.append(
            {
                "dealer": names[seating["dealer"]],
                "non_dealer": names[seating["non_dealer"]],
                "knocker": body.get("knocker"),
                "knocker_count": body.get("knocker_deadwood_count", 0),
                "defender_count": body.get("defender_deadwood_count", 0),
                "big_gin": False,
            }
        )
        if hand["status"] == "finished":
            break
    reference = hollywood_match(options, "ann", "bob", played)
    state = api.game(game["id"])
    served = api.hands(game["id"])
    assert [tuple(h["columns"]) for h in served] == [tuple(e) for e in reference.entered]
    for i, column in enumerate(state["columns"]):
        ref = reference.column(i)
        assert column["hands"] == ref["entries"]
        assert {names[int(p)]: n for p, n in column["scores"].items()} == reference.columns[i].running
        assert {names[int(p)]: n for p, n in column["boxes"].items()} == ref["boxes"]
        assert (None if column["winner"] is None else names[column["winner"]]) == ref["winner"]
        assert column["won_at"] == ref["won_at"]
    result = reference.result()
    assert result is not None and state["status"] == "finished"  # R34: all three columns won
    assert {names[int(p)]: n for p, n in state["match"]["totals"].items()} == result["totals"]
    assert state["match"]["net"] == result["net"]
    assert state["match"]["winner"] == (None if result["winner"] is None else {"ann": a, "bob": b}[result["winner"]])
    after = api.client.post(f"{BASE}/games/{game['id']}/hands", json={"outcome": "draw"})
    assert problem(after, 409)["rule"] == "R34"  # a column that is won takes no more hands


def test_r34_a_match_in_a_league_counts_its_hands_and_round_trips_through_export(app: Flask, api: Api) -> None:
    match = next(m for m in MATCHES if m["name"] == "r34_one_hand_wins_two_columns_and_the_third_is_played_out")
    ids = {name: api.player(name) for name in match["players"]}
    league = _ok(api.post("/leagues", {"name": "Hollywood night", "members": list(ids.values())}), 201)
    body = {
        "players": list(ids.values()),
        "league_id": league["id"],
        "rules": {"preset": "hollywood"},
        "roles": {"dealer": ids["ann"], "non_dealer": ids["bob"]},
    }
    game = _ok(api.post("/games", body), 201)
    for hand in match["hands"]:
        _ok(api.client.post(f"{BASE}/games/{game['id']}/hands", json=hand_body(hand)), 201)
    state = api.game(game["id"])
    assert state["status"] == "finished" and state["winner"] == ids["ann"]
    standings = _ok(api.client.get(f"{BASE}/leagues/{league['id']}/standings", query_string={"preset": "hollywood"}))
    ann = next(r for r in standings["items"] if r["player_id"] == ids["ann"])
    assert (ann["games_played"], ann["games_won"], ann["hands_played"]) == (1, 1, len(match["hands"]))
    assert ann["rating"]["hands_rated"] == len(match["hands"])  # no draw among them
    with app.app_context():
        assert verify_league(league["id"]) == []
    doc = export(api, league["id"])
    assert doc["format_version"] == 3 and doc["games"][0]["rules"]["preset"] == "hollywood"
    imported = _ok(post_import(api, doc, onto_themselves(doc)), 201)
    assert apart_from_ids(export(api, imported["id"])) == apart_from_ids(doc)
    copy = api.game(export(api, imported["id"])["games"][0]["id"])
    assert copy["columns"] == state["columns"] and copy["match"] == state["match"]
    with app.app_context():
        assert verify_league(imported["id"]) == []


def test_r26_r34_undo_and_an_upheld_dispute_re_derive_the_columns(app: Flask, api: Api) -> None:
    a, b = api.player("Ann-u"), api.player("Bob-u")
    game = _ok(
        api.post(
            "/games", {"players": [a, b], "rules": {"preset": "hollywood"}, "roles": {"dealer": a, "non_dealer": b}}
        ),
        201,
    )
    gid = game["id"]
    ann_wins = {"knocker": "dealer", "knocker_deadwood_count": 2, "defender_deadwood_count": 22}  # 20 to Ann (R16)
    for _ in range(3):
        _ok(api.client.post(f"{BASE}/games/{gid}/hands", json=ann_wins), 201)
    assert [h["columns"] for h in api.hands(gid)] == [[1], [1, 2], [1, 2, 3]]
    api.undo(gid, 3)
    state = api.game(gid)
    assert [c["hands"] for c in state["columns"]] == [[1, 2], [2], []]
    assert state["scores"] == {str(a): 60, str(b): 0} and state["moved"] == []
    # hand 1 disputed from the cards: the dealer knocked with KC and was undercut (R17), so Bob won it
    claim = {"by": "non_dealer", "claim": "undercut", **by_cards("dealer", *UNDERCUT_20)}
    dispute = _ok(api.client.post(f"{BASE}/games/{gid}/hands/1/disputes", json=claim), 201)
    assert (dispute["ruling"]["outcome"], dispute["ruling"]["winner"]) == ("undercut", "non_dealer")
    _ok(api.client.post(f"{BASE}/games/{gid}/hands/1/disputes/{dispute['id']}/resolution", json={"decision": "upheld"}))
    state = api.game(gid)
    assert [h["columns"] for h in api.hands(gid)] == [[1], [1]]  # Bob's first win, then Ann's first
    assert state["moved"] == [{"hand": 2, "before": [1, 2], "after": [1], "corrected": False}]
    assert state["columns"][0]["scores"] == {str(a): 20, str(b): dispute["ruling"]["points"]}
    with app.app_context():
        assert verify_books() == []


def test_r34_a_match_that_ends_even_is_finished_with_no_winner_and_counts_as_finished_in_a_league(
    app: Flask, api: Api
) -> None:
    a, b = api.player("Ann-even"), api.player("Bob-even")
    league = _ok(api.post("/leagues", {"name": "Even", "members": [a, b]}), 201)
    rules = {"preset": "hollywood", "target_score": 10, "gin_bonus": 0, "undercut_bonus": 0, "box_bonus": 0}
    rules |= {"game_bonus": 0, "shutout": "none"}  # the totals are the hand points alone
    body = {"players": [a, b], "league_id": league["id"], "rules": rules, "roles": {"dealer": a, "non_dealer": b}}
    gid = _ok(api.post("/games", body), 201)["id"]
    for knocker, k, d in (("dealer", 0, 10), ("non_dealer", 0, 20), ("dealer", 5, 10), ("non_dealer", 0, 15)):
        body = {"knocker": knocker, "knocker_deadwood_count": k, "defender_deadwood_count": d}
        _ok(api.client.post(f"{BASE}/games/{gid}/hands", json=body), 201)
    # Ann's 10 wins column 1, Bob's 20 column 2; in column 3 Bob's 5, then Ann's 15 wins it: 25 each (R34)
    state = api.game(gid)
    assert [h["columns"] for h in api.hands(gid)] == [[1], [2], [3], [3]]
    assert state["status"] == "finished" and state["winner"] is None
    assert state["match"] == {"totals": {str(a): 25, str(b): 25}, "winner": None, "net": 0}
    rows = _ok(api.client.get(f"{BASE}/leagues/{league['id']}/standings", query_string={"preset": "hollywood"}))
    assert [(r["games_finished"], r["games_won"]) for r in rows["items"]] == [(1, 0), (1, 0)]
    with app.app_context():
        assert verify_league(league["id"]) == []  # the streaks, stale since the even end, are not compared
    # a read of the whole league recounts the streaks and stores them: the even match, won by
    # neither, ends both players' streaks, and the books' check counts it as the read did
    rows = _ok(api.client.get(f"{BASE}/leagues/{league['id']}/standings"))
    assert [(r["current_streak"], r["longest_streak"]) for r in rows["items"]] == [(0, 0), (0, 0)]
    with app.app_context():
        assert verify_league(league["id"]) == []
