"""Every error class, as application/problem+json (RFC 9457): 400, 404, 405, 409,
413, 422; never a 500; and a rejected request changes nothing."""

from __future__ import annotations

import json

import pytest

from tests.test_api.conftest import (
    DRAW,
    GIN_34,
    KNOCK_6,
    KNOCK_10,
    PROBLEM_JSON,
    RULES_TYPE,
    by_cards,
    by_counts,
    cards,
    problem,
    seats,
)

INVALID = "https://ginref.org/problems/invalid-content"


@pytest.fixture
def game(api, table) -> dict:
    """A game in progress after one hand: box Ann 2 vs 12 scored 10 -> (a, c, b)."""
    g = api.new_game(table.ids, roles=seats(table.ann, table.bob, table.cy))
    api.record(g["id"], by_counts("box", 2, 12))
    return api.game(g["id"])


def hand_body(knocker_cards: list[str], defender_cards: list[str], **knocker_hand) -> dict:
    return {
        "knocker": "box",
        "knocker_hand": {"cards": knocker_cards, **knocker_hand},
        "defender_hand": {"cards": defender_cards},
    }


def post_hand(api, game: dict, body) -> dict:
    """POST a bad hand: return the problem and check the game is as it was (no partial write)."""
    response = api.client.post(f"/api/v1/games/{game['id']}/hands", json=body)
    assert response.status_code >= 400
    assert api.game(game["id"]) == game
    assert len(api.hands(game["id"])) == game["hands_played"]
    return response


# --- 422: invalid content, naming the JSON field and the offending value ---


def test_r3_a_string_that_is_not_a_card_is_422_naming_field_and_value(api, game):
    knocker = cards(KNOCK_10[0])
    knocker[3] = "QX"
    details = problem(post_hand(api, game, hand_body(knocker, cards(KNOCK_10[1]))), 422, INVALID)
    assert details["errors"] == {"knocker_hand.cards[3]": ['"QX" is not a card (R3)']}
    assert details["detail"] == 'knocker_hand.cards[3]: "QX" is not a card (R3)'


@pytest.mark.parametrize(
    ("where", "value", "field", "message"),
    [
        ("defender", "11H", "defender_hand.cards[0]", '"11H" is not a card (R3)'),
        ("defender", 7, "defender_hand.cards[0]", "7 is not a card (R3)"),
        ("defender", "", "defender_hand.cards[0]", '"" is not a card (R3)'),
        ("defender", "A\u0000S", "defender_hand.cards[0]", '"A\\u0000S" is not a card (R3)'),
        ("discard", "1X", "knocker_hand.discard", '"1X" is not a card (R3)'),
        ("layoff", "ZZ", "defender_hand.layoffs[0].card", '"ZZ" is not a card (R3)'),
        ("meld", "KK", "knocker_hand.melds[0][1]", '"KK" is not a card (R3)'),
    ],
)
def test_r3_bad_cards_anywhere_are_422_naming_the_exact_path(api, game, where, value, field, message):
    body = by_cards("box", *KNOCK_6, knocker_melds=[["5H", "6H", "7H"]])
    if where == "defender":
        body["defender_hand"]["cards"][0] = value
    elif where == "discard":
        body["knocker_hand"]["discard"] = value
    elif where == "layoff":
        body["defender_hand"]["layoffs"] = [{"card": value, "meld": 0}]
    else:
        body["knocker_hand"]["melds"][0][1] = value
    details = problem(post_hand(api, game, body), 422, INVALID)
    assert details["errors"] == {field: [message]}


def test_r21_a_card_in_both_hands_is_422_naming_both_places(api, game):
    defender = cards(KNOCK_10[1])
    defender[4] = "6h"  # the knocker holds 6H (knocker_hand.cards[2])
    details = problem(post_hand(api, game, hand_body(cards(KNOCK_10[0]), defender)), 422, RULES_TYPE + "R21")
    assert details["rule"] == "R21"
    assert details["offending"] == "6H"
    assert details["errors"] == {
        "defender_hand.cards[4]": ["6H appears twice (knocker_hand.cards[2] and defender_hand.cards[4])"]
    }


def test_r21_a_card_twice_in_one_hand_is_422(api, game):
    knocker = cards(KNOCK_10[0])
    knocker[9] = "4♥"
    details = problem(post_hand(api, game, hand_body(knocker, cards(KNOCK_10[1]))), 422, RULES_TYPE + "R21")
    assert details["errors"] == {
        "knocker_hand.cards[9]": ["4H appears twice (knocker_hand.cards[0] and knocker_hand.cards[9])"]
    }


@pytest.mark.parametrize(
    ("discard", "card", "first"), [("8s", "8S", "defender_hand.cards[9]"), ("K♣", "KC", "knocker_hand.cards[9]")]
)
def test_r21_a_discard_that_is_also_in_a_hand_is_422(api, game, discard, card, first):
    body = hand_body(cards(KNOCK_10[0]), cards(KNOCK_10[1]), discard=discard)
    details = problem(post_hand(api, game, body), 422, RULES_TYPE + "R21")
    assert details["errors"] == {"knocker_hand.discard": [f"{card} appears twice ({first} and knocker_hand.discard)"]}
    assert details["offending"] == card


@pytest.mark.parametrize(
    ("side", "count"), [("knocker_hand", 11), ("knocker_hand", 9), ("defender_hand", 11), ("defender_hand", 0)]
)
def test_r21_each_hand_has_ten_cards(api, game, side, count):
    body = by_cards("box", *KNOCK_6)
    extra = ["KS", "QS", "KD"]
    body[side]["cards"] = (body[side]["cards"] + extra)[:count]
    details = problem(post_hand(api, game, body), 422, RULES_TYPE + "R21")
    assert details["errors"] == {f"{side}.cards": [f"{side}.cards has {count} cards, not 10"]}
    assert details["count"] == count


def test_r21_the_referee_names_a_knocker_hand_of_eleven_cards(api):
    body = hand_body(cards(KNOCK_6[0]) + ["KS"], cards(KNOCK_6[1]))
    details = problem(api.post("/referee/hand", body), 422, RULES_TYPE + "R21")
    assert details["errors"] == {"knocker_hand.cards": ["knocker_hand.cards has 11 cards, not 10"]}


@pytest.mark.parametrize(
    ("path", "method"),
    [("/games", "post"), ("/referee/hand", "post"), ("/referee/knock", "post"), ("/games/{id}", "patch")],
)
def test_out_of_range_and_unknown_rule_options_are_422_everywhere(api, table, path, method):
    g = api.game(api.new_game(table.ids, roles=seats(*table.ids))["id"])
    bodies = {
        "/games": {"players": table.ids, "roles": seats(*table.ids)},
        "/referee/hand": by_cards("box", *KNOCK_10),
        "/referee/knock": {"cards": cards(KNOCK_10[0])},
        "/games/{id}": {},
    }
    url = "/api/v1" + path.format(id=g["id"])
    for rules, field, message in (
        ({"gin_bonus": 101}, "rules.gin_bonus", "gin_bonus must be a whole number from 0 to 100, not 101 (R18)"),
        ({"target_score": 5}, "rules.target_score", "target_score must be a whole number from 10 to 1000, not 5 (R20)"),
        ({"knock_limit": 10, "gin": 20}, "rules.gin", "Unknown field."),
    ):
        response = getattr(api.client, method)(url, json={**bodies[path], "rules": rules})
        details = problem(response, 422, INVALID)
        assert details["errors"] == {field: [message]}
        assert details["detail"] == f"{field}: {message}"
    assert api.game(g["id"]) == g
    assert api.client.get("/api/v1/games").get_json()["total"] == 1


@pytest.mark.parametrize(
    ("knocker", "defender", "field", "value", "high"),
    [
        (11, 20, "knocker_deadwood_count", 11, 10),
        (-1, 20, "knocker_deadwood_count", -1, 10),
        (3, 101, "defender_deadwood_count", 101, 100),
        (3, -5, "defender_deadwood_count", -5, 100),
        (10**12, 20, "knocker_deadwood_count", 10**12, 10),
    ],
)
def test_r25_counts_outside_the_rule_are_422_naming_the_count(api, game, knocker, defender, field, value, high):
    details = problem(post_hand(api, game, by_counts("box", knocker, defender)), 422, RULES_TYPE + "R25")
    assert details["rule"] == "R25"
    assert details["errors"] == {field: [f"{field} must be a whole number from 0 to {high}, not {value}"]}
    assert details["offending"] == value


def test_r25_the_knocker_count_is_bounded_by_the_games_knock_limit(api, table):
    g = api.game(api.new_game(table.ids, roles=seats(*table.ids), rules={"knock_limit": 5})["id"])
    details = problem(post_hand(api, g, by_counts("box", 6, 20)), 422, RULES_TYPE + "R25")
    assert details["errors"] == {
        "knocker_deadwood_count": ["knocker_deadwood_count must be a whole number from 0 to 5, not 6"]
    }
    assert api.record(g["id"], by_counts("box", 5, 20))["ruling"]["points"] == 15


# --- 404 ---


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/players/{missing}",
        "/api/v1/players/2147483648",
        "/api/v1/players/99999999999999999999",
        "/api/v1/games/{missing}",
        "/api/v1/games/2147483648",
        "/api/v1/games/99999999999999999999",
        "/api/v1/games/{missing}/hands",
        "/api/v1/games/{game}/hands/2",
        "/api/v1/games/{game}/hands/2147483648",
        "/api/v1/games/{game}/hands/99999999999999999999",
        "/api/v1/games/2147483648/hands/1",
        "/api/v1/nothing-here",
        "/api/v1/games/abc",
    ],
)
def test_unknown_ids_are_404_never_500(api, game, path):
    url = path.format(missing=game["id"] + 1000, game=game["id"])
    details = problem(api.client.get(url), 404)
    assert details["title"] == "Not Found"
    if "{missing}" in path:
        assert str(game["id"] + 1000) in details["detail"]


def test_mutations_on_unknown_ids_are_404_and_change_nothing(api, game):
    g, missing = game["id"], game["id"] + 1000
    problem(api.client.patch(f"/api/v1/games/{missing}", json={"rules": {}}), 404)
    problem(api.client.post(f"/api/v1/games/{missing}/hands", json=DRAW), 404)
    problem(api.client.put(f"/api/v1/games/{missing}/hands/1", json=DRAW), 404)
    problem(api.client.delete(f"/api/v1/games/{missing}/hands/1"), 404)
    problem(api.client.delete(f"/api/v1/games/{g}/hands/{2**31}"), 404)
    problem(api.client.patch(f"/api/v1/games/{2**40}", json={"rules": {}}), 404)
    assert api.game(g) == game


# --- 400, 413, 405 ---


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/players", '{"name": "Ann"'),
        ("/api/v1/players", "{'name': 'Ann'}"),
        ("/api/v1/games", '{"players": [1, 2, 3],}'),
        ("/api/v1/games/{game}/hands", '{"outcome": draw}'),
        ("/api/v1/games/{game}/hands/1", "not json at all"),
        ("/api/v1/referee/knock", '{"cards": ["AS" "2S"]}'),
        ("/api/v1/referee/hand", "\xff\xfe{}"),
    ],
)
def test_malformed_json_is_400(api, game, path, body):
    url = path.format(game=game["id"])
    method = api.client.put if url.endswith("/hands/1") else api.client.post
    details = problem(method(url, data=body, content_type="application/json"), 400)
    assert details["type"] == "https://ginref.org/problems/malformed-json"
    assert "JSON" in details["detail"]
    assert api.game(game["id"]) == game


@pytest.mark.parametrize("path", ["/api/v1/players", "/api/v1/games/{game}/hands", "/api/v1/referee/knock"])
def test_a_body_over_64_kib_is_413(api, game, path):
    body = json.dumps({"name": "x" * (64 * 1024)})
    details = problem(api.client.post(path.format(game=game["id"]), data=body, content_type="application/json"), 413)
    assert details["type"] == "https://ginref.org/problems/too-large"
    assert api.game(game["id"]) == game
    assert api.client.get("/api/v1/players").get_json()["total"] == 3


def test_a_body_just_under_the_limit_is_read(api):
    body = json.dumps({"name": "x" * (64 * 1024 - 20)})
    assert len(body) <= 64 * 1024
    details = problem(api.client.post("/api/v1/players", data=body, content_type="application/json"), 422)
    assert list(details["errors"]) == ["name"]


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("put", "/api/v1/players", {"GET", "POST"}),
        ("delete", "/api/v1/players/{player}", {"GET"}),
        ("delete", "/api/v1/games/{game}", {"GET", "PATCH"}),
        ("put", "/api/v1/games", {"GET", "POST"}),
        ("patch", "/api/v1/games/{game}/hands", {"GET", "POST"}),
        ("post", "/api/v1/games/{game}/hands/1", {"GET", "PUT", "DELETE"}),
        ("get", "/api/v1/referee/knock", {"POST"}),
        ("delete", "/api/v1/referee/hand", {"POST"}),
    ],
)
def test_a_wrong_method_is_405_with_an_allow_header(api, game, table, method, path, allowed):
    url = path.format(game=game["id"], player=table.ann)
    response = getattr(api.client, method)(url)
    details = problem(response, 405)
    assert details["title"] == "Method Not Allowed"
    allow = {m.strip() for m in response.headers["Allow"].split(",")}
    assert allowed <= allow
    assert allow - allowed <= {"HEAD", "OPTIONS"}
    assert api.game(game["id"]) == game


# --- 409 ---


def test_409_conflicts_are_problems_and_change_nothing(api, table):
    a, b, c = table.ann, table.bob, table.cy
    g = api.new_game(table.ids, roles=seats(a, b, c), rules={"target_score": 30})
    api.record(g["id"], by_counts("box", 2, 12))  # 1. a 10 -> (a, c, b)
    api.record(g["id"], by_counts("box", 0, 0))  # 2. a 35: Ann wins
    game = api.game(g["id"])
    assert (game["status"], game["winner"]) == ("finished", a)
    conflicts = [
        api.client.post(f"/api/v1/games/{g['id']}/hands", json=DRAW),  # finished (R20)
        api.client.put(f"/api/v1/games/{g['id']}/hands/3", json=DRAW),  # no such hand
        api.client.put(f"/api/v1/games/{g['id']}/hands/1", json=by_counts("box", 0, 25)),  # strands hand 2
        api.client.patch(f"/api/v1/games/{g['id']}", json={"rules": {"gin_bonus": 20}}),  # after hand 1
        api.client.delete(f"/api/v1/games/{g['id']}/hands/1"),  # not the last
    ]
    for response in conflicts:
        details = problem(response, 409, "https://ginref.org/problems/conflict")
        assert details["title"] == "Conflict"
    assert problem(conflicts[0], 409)["rule"] == "R20"
    assert problem(conflicts[2], 409)["hands"] == [2]
    assert api.game(g["id"]) == game


# --- no partial writes ---


def test_a_rejected_hand_of_any_kind_changes_nothing(api, game):
    bad = [
        by_cards("box", *KNOCK_6, knocker_melds=[]),  # R14
        by_cards("box", KNOCK_6[0], KNOCK_6[0]),  # R21
        by_cards(
            "box", GIN_34[0], GIN_34[1], knocker_melds=[cards(GIN_34[0])], layoffs=[{"card": "9H", "meld": 0}]
        ),  # R18
        by_counts("captain", 11, 3),  # R25
        {"knocker": "box"},  # schema
        [DRAW],  # not an object
    ]
    for body in bad:
        problem(post_hand(api, game, body), 422)
        problem(api.client.put(f"/api/v1/games/{game['id']}/hands/1", json=body), 422)
        assert api.game(game["id"]) == game
    assert api.hand(game["id"], 1)["corrected_at"] is None


def test_problem_bodies_are_json_objects_with_the_rfc_9457_members(api, game):
    for response in (
        api.client.get("/api/v1/games/0"),
        api.client.post("/api/v1/players", json={}),
        api.client.post("/api/v1/players", data="{", content_type="application/json"),
        api.client.put("/api/v1/players"),
    ):
        assert response.headers["Content-Type"] == PROBLEM_JSON
        body = json.loads(response.get_data(as_text=True))
        assert {"type", "title", "status", "detail"} <= set(body)
        assert body["status"] == response.status_code


# --- never a 500 (both found by this suite; they were 500s) ---


def test_r9_a_cut_keyed_by_a_superscript_digit_is_422_not_500(api, table):
    # '²' passes str.isdigit(), but int('²') raises ValueError.
    given = {"²": "KS", str(table.bob): "2H", str(table.cy): "7C"}
    details = problem(api.post("/games", {"players": table.ids, "cut": given}), 422)
    assert list(details["errors"]) == ["cut.²"]


@pytest.mark.parametrize("path", ["/api/v1/players", "/api/v1/referee/knock"])
def test_deeply_nested_json_is_400_not_500(api, path):
    # json.loads raises RecursionError (not a ValueError) on 20000 nested arrays, well under 64 KiB.
    body = "[" * 20000 + "]" * 20000
    details = problem(api.client.post(path, data=body, content_type="application/json"), 400)
    assert details["type"] == "https://ginref.org/problems/malformed-json"
