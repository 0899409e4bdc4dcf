"""Games: seating from a cut (R9) or given roles, rule options, reading and listing."""

from __future__ import annotations

import pytest

from tests.test_api.conftest import RULES_TYPE, by_counts, problem, seats

GAMES = "/api/v1/games"
DEFAULT_RULES = {"gin_bonus": 25, "undercut_bonus": 10, "knock_limit": 10, "target_score": 100}


def cut(table, ann: str, bob: str, cy: str) -> dict[str, str]:
    return {str(table.ann): ann, str(table.bob): bob, str(table.cy): cy}


def test_r9_highest_cut_is_box_middle_captain_lowest_sitter(api, table):
    game = api.new_game(table.ids, cut=cut(table, "7D", "KH", "2S"))
    assert game["roles"] == seats(table.bob, table.ann, table.cy)
    assert game["first_roles"] == game["roles"]
    assert game["cut"] == cut(table, "7D", "KH", "2S")
    assert game["status"] == "in_progress"
    assert game["players"] == table.ids
    assert game["scores"] == table.scores(0, 0, 0)
    assert (game["hands_played"], game["winner"], game["out_of_turn"]) == (0, None, [])
    assert game["rules"] == DEFAULT_RULES


def test_r9_ace_is_low_in_the_cut(api, table):
    game = api.new_game(table.ids, cut=cut(table, "AS", "KH", "2D"))
    assert game["roles"] == seats(table.bob, table.cy, table.ann)


def test_r9_ranks_decide_not_suits_and_ten_beats_nine(api, table):
    game = api.new_game(table.ids, cut=cut(table, "9S", "10C", "JC"))
    assert game["roles"] == seats(table.cy, table.bob, table.ann)


def test_r3_cut_cards_in_any_spelling_are_stored_canonically(api, table):
    game = api.new_game(table.ids, cut=cut(table, "th", " q♠ ", "1♥️"))
    assert game["cut"] == cut(table, "10H", "QS", "AH")
    assert game["roles"] == seats(table.bob, table.ann, table.cy)


def test_r9_tied_ranks_are_422_naming_the_players_who_must_cut_again(client, api, table):
    body = problem(
        api.post("/games", {"players": table.ids, "cut": cut(table, "KS", "7D", "KH")}), 422, RULES_TYPE + "R9"
    )
    assert body["rule"] == "R9"
    assert sorted(body["players"]) == sorted([table.ann, table.cy])
    assert list(body["errors"]) == ["cut"]
    assert "cut again" in body["errors"]["cut"][0]
    assert client.get(GAMES).get_json()["total"] == 0


def test_r9_the_same_card_cut_twice_is_422(client, api, table):
    body = problem(
        api.post("/games", {"players": table.ids, "cut": cut(table, "KS", "ks", "2H")}), 422, RULES_TYPE + "R9"
    )
    assert body["rule"] == "R9"
    assert "distinct" in body["detail"]


def test_r9_each_of_the_three_players_cuts(api, table):
    partial = {str(table.ann): "KS", str(table.bob): "2H"}
    body = problem(api.post("/games", {"players": table.ids, "cut": partial}), 422)
    assert body["rule"] == "R9"
    assert body["players"] == [table.cy]
    assert list(body["errors"]) == ["cut"]


def test_r9_a_cut_by_someone_not_in_the_game_is_422_naming_him(api, table):
    outsider = api.player("Dee")
    given = {str(table.ann): "KS", str(table.bob): "2H", str(outsider): "7C"}
    body = problem(api.post("/games", {"players": table.ids, "cut": given}), 422)
    assert list(body["errors"]) == [f"cut.{outsider}"]


def test_r3_a_cut_card_that_is_not_a_card_is_422_naming_it(api, table):
    body = problem(api.post("/games", {"players": table.ids, "cut": cut(table, "KS", "ZZ", "2H")}), 422)
    [(path, messages)] = body["errors"].items()
    assert path.startswith(f"cut.{table.bob}")
    assert messages == ['"ZZ" is not a card (R3)']


def test_r8_roles_may_be_given_instead_of_a_cut(api, table):
    game = api.new_game(table.ids, roles=seats(table.cy, table.ann, table.bob))
    assert game["roles"] == seats(table.cy, table.ann, table.bob)
    assert game["cut"] is None


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"cut": {"1": "KS"}, "roles": {"box": 1, "captain": 2, "sitter": 3}},
    ],
)
def test_a_game_is_seated_by_a_cut_or_by_roles_exactly_one_of_them(api, table, extra):
    body = problem(api.post("/games", {"players": table.ids, **extra}), 422)
    assert "cut" in body["errors"]


def test_r8_given_roles_must_be_the_games_three_players(api, table):
    outsider = api.player("Dee")
    body = problem(api.post("/games", {"players": table.ids, "roles": seats(table.ann, table.bob, outsider)}), 422)
    assert list(body["errors"]) == ["roles"]
    body = problem(api.post("/games", {"players": table.ids, "roles": seats(table.ann, table.bob, table.bob)}), 422)
    assert list(body["errors"]) == ["roles"]


def test_a_game_needs_three_different_known_players(client, api, table):
    body = problem(
        api.post(
            "/games", {"players": [table.ann, table.ann, table.bob], "roles": seats(table.ann, table.bob, table.cy)}
        ),
        422,
    )
    assert list(body["errors"]) == ["players"]
    missing = max(table.ids) + 100
    body = problem(
        api.post("/games", {"players": [table.ann, table.bob, missing], "roles": seats(table.ann, table.bob, missing)}),
        422,
    )
    assert body["errors"] == {"players[2]": [f"there is no player {missing}"]}
    body = problem(api.post("/games", {"players": table.ids[:2], "roles": seats(*table.ids)}), 422)
    assert list(body["errors"]) == ["players"]
    body = problem(
        api.post("/games", {"players": [table.ann, table.bob, 2**31], "roles": seats(table.ann, table.bob, 2**31)}), 422
    )
    assert "players[2]" in body["errors"]
    assert client.get(GAMES).get_json()["total"] == 0


def test_rule_options_left_out_take_their_defaults_and_the_game_shows_all_four(api, table):
    game = api.new_game(table.ids, roles=seats(*table.ids), rules={"gin_bonus": 20, "target_score": 10})
    assert game["rules"] == {**DEFAULT_RULES, "gin_bonus": 20, "target_score": 10}
    assert api.game(game["id"])["rules"] == game["rules"]


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("gin_bonus", 101),
        ("gin_bonus", -1),
        ("undercut_bonus", 101),
        ("knock_limit", 11),
        ("knock_limit", -1),
        ("target_score", 9),
        ("target_score", 1001),
    ],
)
def test_an_out_of_range_rule_option_is_422_naming_the_option_and_value(client, api, table, option, value):
    body = problem(
        api.post("/games", {"players": table.ids, "roles": seats(*table.ids), "rules": {option: value}}), 422
    )
    assert list(body["errors"]) == [f"rules.{option}"]
    message = body["errors"][f"rules.{option}"][0]
    assert option in message and str(value) in message
    assert client.get(GAMES).get_json()["total"] == 0


@pytest.mark.parametrize("rules", [{"gin_bonus": 20.5}, {"gin_bonus": "20"}, {"gin_bonus": True}, {"gin_bonus": None}])
def test_rule_options_are_whole_numbers(api, table, rules):
    body = problem(api.post("/games", {"players": table.ids, "roles": seats(*table.ids), "rules": rules}), 422)
    assert list(body["errors"]) == ["rules.gin_bonus"]


def test_an_unknown_rule_option_is_422_naming_it(api, table):
    body = problem(
        api.post(
            "/games", {"players": table.ids, "roles": seats(*table.ids), "rules": {"gin_bonus": 20, "deal_size": 11}}
        ),
        422,
    )
    assert list(body["errors"]) == ["rules.deal_size"]


def test_patch_changes_rule_options_before_the_first_hand(api, table):
    game = api.new_game(table.ids, roles=seats(*table.ids), rules={"gin_bonus": 20})
    response = api.client.patch(f"{GAMES}/{game['id']}", json={"rules": {"target_score": 10}})
    assert response.status_code == 200
    patched = response.get_json()
    assert patched["rules"] == {**DEFAULT_RULES, "gin_bonus": 20, "target_score": 10}
    assert patched["version"] == game["version"] + 1
    assert api.game(game["id"]) == patched


def test_patch_after_the_first_hand_is_409_and_changes_nothing(api, table):
    game = api.new_game(table.ids, roles=seats(*table.ids))
    api.record(game["id"], by_counts("box", 3, 13))
    before = api.game(game["id"])
    body = problem(api.client.patch(f"{GAMES}/{game['id']}", json={"rules": {"target_score": 10}}), 409)
    assert "first hand" in body["detail"]
    assert api.game(game["id"]) == before


@pytest.mark.parametrize(
    "payload",
    [
        {"rules": {"gin_bonus": 101}},
        {"rules": {"colour": 1}},
        {},
        {"rules": {"target_score": 10}, "players": [1, 2, 3]},
    ],
)
def test_a_bad_patch_is_422_and_changes_nothing(api, table, payload):
    game = api.game(api.new_game(table.ids, roles=seats(*table.ids))["id"])
    problem(api.client.patch(f"{GAMES}/{game['id']}", json=payload), 422)
    assert api.game(game["id"]) == game


def test_unknown_game_ids_are_404_also_above_the_32_bit_range(api, table):
    game = api.new_game(table.ids, roles=seats(*table.ids))
    missing = game["id"] + 1000
    body = problem(api.client.get(f"{GAMES}/{missing}"), 404)
    assert str(missing) in body["detail"]
    problem(api.client.patch(f"{GAMES}/{missing}", json={"rules": {}}), 404)
    for ident in (0, 2**31, 2**63, 10**30):
        problem(api.client.get(f"{GAMES}/{ident}"), 404)
        problem(api.client.patch(f"{GAMES}/{ident}", json={"rules": {}}), 404)


def test_games_are_listed_newest_first_and_paginated(api, table):
    ids = [api.new_game(table.ids, roles=seats(*table.ids))["id"] for _ in range(3)]
    page = api.client.get(f"{GAMES}?per_page=2").get_json()
    assert (page["total"], page["page"], page["per_page"]) == (3, 1, 2)
    assert [g["id"] for g in page["items"]] == [ids[2], ids[1]]
    page2 = api.client.get(f"{GAMES}?per_page=2&page=2").get_json()
    assert [g["id"] for g in page2["items"]] == [ids[0]]
    assert page2["items"][0] == api.game(ids[0])


def test_r3_game_cut_keys_are_the_player_ids_as_given(api, table):
    game = api.new_game(table.ids, cut=cut(table, "7D", "KH", "2S"))
    assert set(game["cut"]) == {str(p) for p in table.ids}


def test_r9_cut_keys_must_be_player_ids_in_ascii_digits(api, table):
    # Found by this suite: U+FF10-FF19 digits pass str.isdigit() and int(), so such a key was stored verbatim.
    fullwidth = str(table.ann).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    given = {fullwidth: "7D", str(table.bob): "KH", str(table.cy): "2S"}
    body = problem(api.post("/games", {"players": table.ids, "cut": given}), 422)
    assert list(body["errors"]) == [f"cut.{fullwidth}"]
    assert api.client.get(GAMES).get_json()["total"] == 0
