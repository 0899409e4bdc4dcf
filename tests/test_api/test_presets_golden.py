"""The golden games of tests/data/golden_games.json played through HTTP
(R26-R35), and random two-player games through the API against the
independent fold of tests/reference.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import reference
from tests.test_api.conftest import RULES_TYPE, Api

GAMES = json.loads((Path(__file__).resolve().parents[1] / "data" / "golden_games.json").read_text("utf-8"))
HANDS = "/api/v1/games/{}/hands"


def hand_body(hand: dict[str, Any]) -> dict[str, Any]:
    """A golden hand as a request body."""
    if hand["knocker"] is None:
        return {"outcome": "draw"}
    body: dict[str, Any] = {"knocker": hand["knocker"]}
    if "counts" in hand:
        body["knocker_deadwood_count"], body["defender_deadwood_count"] = hand["counts"]
        if hand.get("big_gin"):
            body["big_gin"] = True
    else:
        body["knocker_hand"] = {"cards": hand["knocker_cards"]}
        body["defender_hand"] = {"cards": hand["defender_cards"]}
    if "up_card" in hand:
        body["upcard"] = hand["up_card"]
    return body


def start(api: Api, game: dict[str, Any]) -> tuple[Any, dict[str, int]]:
    ids = {name: api.player(name) for name in game["players"]}
    body: dict[str, Any] = {
        "players": [ids[p] for p in game["players"]],
        "rules": {"preset": game["preset"], **game["options"]},
    }
    if "cut" in game:
        body["cut"] = {str(ids[p]): card for p, card in game["cut"].items()}
    else:
        other = next(p for p in game["players"] if p != game["dealer"])
        body["roles"] = {"dealer": ids[game["dealer"]], "non_dealer": ids[other]}
    return api.post("/games", body), ids


@pytest.mark.parametrize("game", GAMES, ids=[game["name"] for game in GAMES])
def test_golden_game_through_http(api: Api, game: dict[str, Any]) -> None:
    expected = game["expected"]
    error = expected.get("error")
    created, ids = start(api, game)
    names = {v: k for k, v in ids.items()}
    if error is not None and "hand" not in error and "hands" not in error:  # the cut is refused (R28)
        body = created.get_json()
        assert created.status_code == 422 and body["rule"] == error["rule"] == "R28", body
        assert body["type"] == RULES_TYPE + "R28"
        assert sorted(names[p] for p in body["players"]) == error["players"]
        return
    assert created.status_code == 201, created.get_json()
    gid = created.get_json()["id"]
    got_hands, running = [], []
    for number, hand in enumerate(game["hands"], start=1):
        state = api.game(gid)
        response = api.client.post(HANDS.format(gid), json=hand_body(hand))
        if error is not None and error.get("hand") == number:  # refused by the rule, nothing recorded
            body = response.get_json()
            assert response.status_code == 422 and body["rule"] == error["rule"], body
            assert body["type"] == RULES_TYPE + error["rule"]
            if "limit" in error:
                assert body["limit"] == error["limit"]
            assert api.game(gid)["hands_played"] == number - 1
            return
        if error is not None and number in error.get("hands", []):  # R26, R30: no hand after the win
            assert response.status_code == 409, response.get_json()
            assert api.game(gid)["hands_played"] == number - 1
            continue
        assert state["roles"]["dealer"] == ids[hand["dealer"]]  # the golden game is seated as the API seats it
        assert response.status_code == 201, response.get_json()
        served = response.get_json()
        ruling, seating = served["ruling"], served["seating"]
        scorer = None if ruling["winner"] is None else names[seating[ruling["winner"]]]
        next_dealer = None if served["roles"] is None else names[served["roles"]["dealer"]]
        got_hands.append(
            {"scorer": scorer, "points": ruling["points"], "boxes": ruling["boxes"], "next_dealer": next_dealer}
        )
        running.append({names[int(p)]: n for p, n in served["scores"].items()})
    if error is not None:
        return
    final = api.game(gid)
    result = final["result"]
    got = {
        "hands": [{key: got_hands[i][key] for key in want} for i, want in enumerate(expected.get("hands", []))],
        "scores": {names[int(p)]: n for p, n in final["scores"].items()},
        "running": running,
        "boxes": {names[int(p)]: n for p, n in final["boxes"].items()},
        "out_of_turn": final["out_of_turn"],
        "winner": None if final["winner"] is None else names[final["winner"]],
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
    assert {key: got[key] for key in expected} == expected
    assert [h["ruling"]["points"] for h in api.hands(gid)] == [h["points"] for h in got_hands]


# --- random games against the reference fold ------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARDS = [r + s for s in "SHDC" for r in RANKS]


@st.composite
def presets(draw: Any) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(["classic", "straight", "oklahoma"]))
    options: dict[str, Any] = {}
    optional = {
        "target_score": st.integers(10, 200),
        "gin_bonus": st.integers(0, 50),
        "undercut_bonus": st.integers(0, 50),
        "big_gin_bonus": st.integers(0, 50),
        "next_dealer": st.sampled_from(["winner", "loser", "alternate"]),
        "box_bonus": st.integers(0, 50),
        "gin_boxes": st.integers(1, 4),
        "undercut_boxes": st.integers(1, 4),
        "boxes_immediate": st.booleans(),
        "game_bonus": st.integers(0, 200),
        "shutout": st.sampled_from(["double", "plus_100", "none"]),
    }
    if preset == "classic":
        optional["knock_limit"] = st.integers(0, 10)
    if preset == "oklahoma":
        optional["ace"] = st.sampled_from(["gin_only", "one"])
        optional["spades_double"] = st.sampled_from(["off", "points", "all"])
    for name, values in optional.items():
        if draw(st.booleans()):
            options[name] = draw(values)
    return preset, options


@st.composite
def hands(draw: Any, preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """A hand by counts that the rules accept (R25, R32, R33), or a draw (R12)."""
    if draw(st.integers(0, 9)) == 0:
        return {"knocker": None}
    rules = {**reference.PRESET_DEFAULTS[preset], **options}
    up = draw(st.sampled_from(CARDS)) if preset == "oklahoma" else None
    limit = reference.two_player_limit(rules, up)
    hand: dict[str, Any] = {"knocker": draw(st.sampled_from(["dealer", "non_dealer"])), "up_card": up}
    if rules["big_gin_bonus"] and draw(st.integers(0, 5)) == 0:
        hand.update(big_gin=True, knocker_count=0)
    else:
        hand["knocker_count"] = draw(st.integers(0, limit))
    hand["defender_count"] = draw(st.integers(0, 100))
    return hand


@st.composite
def games(draw: Any) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    preset, options = draw(presets())
    return preset, options, draw(st.lists(hands(preset, options), min_size=1, max_size=12))


def play_random_game(api: Api, preset: str, options: dict[str, Any], played: list[dict[str, Any]]) -> None:
    ann, bob = api.player("Ann"), api.player("Bob")
    created = api.new_game([ann, bob], rules={"preset": preset, **options}, roles={"dealer": ann, "non_dealer": bob})
    gid = created["id"]
    oracle = reference.TwoPlayerGame(preset, options, "ann", "bob")
    names = {ann: "ann", bob: "bob"}
    seats = {"dealer": ann, "non_dealer": bob}
    for hand in played:
        body: dict[str, Any]
        if hand["knocker"] is None:
            body = {"outcome": "draw"}
        else:
            body = {
                "knocker": hand["knocker"],
                "knocker_deadwood_count": hand["knocker_count"],
                "defender_deadwood_count": hand["defender_count"],
            }
            if hand.get("big_gin"):
                body["big_gin"] = True
            if hand["up_card"] is not None:
                body["upcard"] = hand["up_card"]
        served = api.record(gid, body)
        assert served["seating"] == seats
        want = oracle.play({**hand, "dealer": names[seats["dealer"]], "non_dealer": names[seats["non_dealer"]]})
        ruling = served["ruling"]
        scorer = None if ruling["winner"] is None else names[served["seating"][ruling["winner"]]]
        assert (scorer, ruling["points"], ruling["boxes"]) == (want["scorer"], want["points"], want["boxes"])
        assert {names[int(p)]: n for p, n in served["scores"].items()} == want["running"]
        next_dealer = None if served["roles"] is None else names[served["roles"]["dealer"]]
        assert next_dealer == want["next_dealer"]
        if served["roles"] is None:
            break
        seats = served["roles"]
    final = api.game(gid)
    assert {names[int(p)]: n for p, n in final["boxes"].items()} == oracle.boxes
    assert (None if final["winner"] is None else names[final["winner"]]) == oracle.winner
    want_result = oracle.result()
    if want_result is None:
        assert final["result"] is None
    else:
        result = final["result"]
        assert result["explanation"][-1]["code"] == "net"
        del result["explanation"]
        assert {
            **result,
            "winner": names[result["winner"]],
            "loser": names[result["loser"]],
            "totals": {names[int(p)]: t for p, t in result["totals"].items()},
        } == want_result


PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@settings(PROPERTY, max_examples=10)
@given(games())
def test_random_games_through_the_api_agree_with_the_reference_fold(api: Api, game: Any) -> None:
    play_random_game(api, *game)


@pytest.mark.slow
@settings(PROPERTY, max_examples=1000)
@given(games())
def test_many_random_games_through_the_api_agree_with_the_reference_fold(api: Api, game: Any) -> None:
    play_random_game(api, *game)
