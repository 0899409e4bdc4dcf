"""Games under the two-player presets through the API (R27-R33, R35)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_api.conftest import KNOCK_10, RULES_TYPE, Api, by_cards, by_counts, problem

GAMES = "/games"


@pytest.fixture
def pair(api: Api) -> tuple[int, int]:
    return api.player("Ann"), api.player("Bob")


def classic(api: Api, pair: tuple[int, int], **options: Any) -> dict[str, Any]:
    ann, bob = pair
    return api.new_game([ann, bob], rules={"preset": "classic", **options}, roles={"dealer": ann, "non_dealer": bob})


def test_r27_a_classic_game_shows_its_resolved_rules_roles_scores_and_boxes(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = classic(api, pair, next_dealer="loser")
    assert game["rules"] == {
        "preset": "classic",
        "target_score": 100,
        "knock_limit": 10,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "big_gin_bonus": 0,
        "next_dealer": "loser",
        "box_bonus": 25,
        "gin_boxes": 1,
        "undercut_boxes": 1,
        "boxes_immediate": False,
        "game_bonus": 100,
        "shutout": "double",
    }
    assert game["roles"] == {"dealer": ann, "non_dealer": bob}
    assert game["first_roles"] == {"dealer": ann, "non_dealer": bob}
    assert game["scores"] == {str(ann): 0, str(bob): 0}
    assert game["boxes"] == {str(ann): 0, str(bob): 0}
    assert game["result"] is None
    assert game["status"] == "in_progress"
    assert "key" in game
    assert api.game(game["id"])["rules"] == game["rules"]


def test_r28_the_lower_cut_deals(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = api.new_game([ann, bob], rules={"preset": "straight"}, cut={str(ann): "QS", str(bob): "4H"})
    assert game["roles"] == {"dealer": bob, "non_dealer": ann}
    assert game["rules"]["knock_limit"] == 0
    tied = api.post(
        GAMES, {"players": [ann, bob], "rules": {"preset": "classic"}, "cut": {str(ann): "4S", str(bob): "4H"}}
    )
    body = problem(tied, 422)
    assert body["rule"] == "R28" and body["type"] == RULES_TYPE + "R28"


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"preset": "classic", "gin_boxes": 5}, "rules.gin_boxes"),
        ({"preset": "classic", "next_dealer": "nobody"}, "rules.next_dealer"),
        ({"preset": "oklahoma", "knock_limit": 5}, "rules.knock_limit"),
        ({"preset": "straight", "ace": "one"}, "rules.ace"),
        ({"preset": "classic", "boxes_immediate": 1}, "rules.boxes_immediate"),
        ({"preset": "hollywood", "ace": "one"}, "rules.ace"),  # R34: Hollywood's columns are classic games
        ({"preset": "cutthroat", "next_dealer": "loser"}, "rules.next_dealer"),  # R36 seats the next hand itself
        ({"preset": "gin"}, "rules.preset"),
        ({"box_bonus": 25}, "rules.box_bonus"),
    ],
)
def test_r27_an_option_the_preset_lacks_or_out_of_range_is_a_422_naming_it(
    api: Api, pair: tuple[int, int], rules: dict[str, Any], field: str
) -> None:
    ann, bob = pair
    body = {"players": [ann, bob], "rules": rules, "roles": {"dealer": ann, "non_dealer": bob}}
    found = problem(api.post(GAMES, body), 422)
    assert field in found["errors"], found


def test_r28_a_two_player_preset_takes_two_players_and_a_three_handed_game_three(
    api: Api, pair: tuple[int, int]
) -> None:
    ann, bob = pair
    cy = api.player("Cy")
    found = problem(
        api.post(
            GAMES,
            {"players": [ann, bob, cy], "rules": {"preset": "classic"}, "roles": {"dealer": ann, "non_dealer": bob}},
        ),
        422,
    )
    assert "players" in found["errors"]
    found = problem(api.post(GAMES, {"players": [ann, bob], "roles": {"dealer": ann, "non_dealer": bob}}), 422)
    assert found["errors"]["players"] == ["Length must be 3."]


def test_r29_r30_r31_a_classic_game_to_its_result(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = classic(api, pair)
    gid = game["id"]
    # R16: the non-dealer (Bob) knocks with 10 against 20: 10 points, 1 box; the winner deals next (R28)
    hand = api.record(gid, by_cards("non_dealer", *KNOCK_10))
    assert hand["ruling"]["points"] == 10 and hand["ruling"]["winner"] == "non_dealer"
    assert hand["ruling"]["boxes"] == 1
    assert hand["seating"] == {"dealer": ann, "non_dealer": bob}
    assert hand["roles"] == {"dealer": bob, "non_dealer": ann}
    assert [s["rule"] for s in hand["ruling"]["explanation"]][-2:] == ["R16", "R29"]
    assert hand["ruling"]["explanation"][-1]["text"] == "The winner of the hand counts 1 box(es) (R29)"
    # R17 under classic: the undercut bonus is 25; Ann (non-dealer) knocks 8 against 5: 25 + 3 = 28 to Bob
    hand = api.record(gid, by_counts("non_dealer", 8, 5))
    assert hand["ruling"]["outcome"] == "undercut" and hand["ruling"]["points"] == 28
    assert hand["ruling"]["winner"] == "dealer"
    # R18: Bob deals again (he won); Ann goes gin, 60 + 25 = 85: Ann 85, Bob 38
    hand = api.record(gid, by_counts("non_dealer", 0, 60))
    assert hand["scores"] == {str(ann): 85, str(bob): 38}
    state = api.game(gid)
    assert state["boxes"] == {str(ann): 1, str(bob): 2}
    assert state["roles"] == {"dealer": ann, "non_dealer": bob}
    # Ann deals; Bob knocks 2 against 3: 1 point, his third box; he deals next
    api.record(gid, by_counts("non_dealer", 2, 3))
    # R30: Bob (dealer) knocks 9 against 4 and is undercut: 25 + 5 = 30 to Ann, 115: she wins the game
    hand = api.record(gid, by_counts("dealer", 9, 4))
    assert hand["status"] == "finished" and hand["winner"] == ann
    state = api.game(gid)
    assert state["scores"] == {str(ann): 115, str(bob): 39}
    assert state["boxes"] == {str(ann): 2, str(bob): 3}
    assert state["roles"] is None
    # R31: hand points, box bonuses (25 each), the game bonus to the winner; no shutout
    assert [s["code"] for s in state["result"].pop("explanation")] == [
        "box_bonus",
        "box_bonus",
        "game_bonus",
        "total",
        "total",
        "net",
    ]
    assert state["result"] == {
        "winner": ann,
        "loser": bob,
        "shutout": False,
        "net": 265 - 114,
        "totals": {
            str(ann): {"hand_points": 115, "box_bonus": 50, "game_bonus": 100, "shutout": 0, "total": 265},
            str(bob): {"hand_points": 39, "box_bonus": 75, "game_bonus": 0, "shutout": 0, "total": 114},
        },
    }
    listed = api.hands(gid)
    assert [h["ruling"]["points"] for h in listed] == [10, 28, 85, 1, 30]
    assert [h["seating"]["dealer"] for h in listed] == [ann, bob, bob, ann, bob]
    assert api.hand(gid, 5)["ruling"]["outcome"] == "undercut"


def test_r31_a_shutout_doubles_the_hand_points_and_the_game_bonus(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = classic(api, pair)
    gid = game["id"]
    # Bob (non-dealer) goes gin with 80 against him: 80 + 25 = 105, 1 box; Ann won nothing
    hand = api.record(gid, by_counts("non_dealer", 0, 80))
    assert hand["status"] == "finished" and hand["winner"] == bob
    assert hand["roles"] is None
    state = api.game(gid)
    assert [s["text"] for s in state["result"].pop("explanation")] == [
        f"Player {bob} has 1 box(es) at 25 each: 25 (R29)",
        f"Player {bob} reached the target first and wins the game: the game bonus, 100 (R30)",
        f"Player {ann} won no hand, a shutout: player {bob}'s hand points and game bonus are doubled, +205 (R31)",
        f"Player {ann}: 0 in hands + 0 in boxes + 0 game bonus + 0 shutout = 0 (R31)",
        f"Player {bob}: 105 in hands + 25 in boxes + 100 game bonus + 205 shutout = 435 (R31)",
        f"The net to player {bob}: 435 - 0 = 435 (R31)",
    ]
    assert state["result"] == {
        "winner": bob,
        "loser": ann,
        "shutout": True,
        "net": 105 + 25 + 100 + 205,
        "totals": {
            str(ann): {"hand_points": 0, "box_bonus": 0, "game_bonus": 0, "shutout": 0, "total": 0},
            str(bob): {"hand_points": 105, "box_bonus": 25, "game_bonus": 100, "shutout": 205, "total": 435},
        },
    }
    # R30: no hand after the win
    late = api.client.post(f"/api/v1/games/{gid}/hands", json=by_counts("dealer", 0, 10))
    assert late.status_code == 409


# R33's example: three sets and 3C (3) against two runs and 2S 3S 7S 8S (20)
OKLAHOMA_KNOCK = ("4H 5H 6H 4S 5S 6S 4D 5D 6D 3C", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")


def oklahoma(api: Api, pair: tuple[int, int], **options: Any) -> dict[str, Any]:
    ann, bob = pair
    return api.new_game([ann, bob], rules={"preset": "oklahoma", **options}, roles={"dealer": ann, "non_dealer": bob})


def test_r33_the_up_card_sets_the_limit_and_a_spade_doubles_the_points(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = oklahoma(api, pair)
    assert game["rules"]["target_score"] == 150 and "knock_limit" not in game["rules"]
    hand = api.record(game["id"], {**by_cards("dealer", *OKLAHOMA_KNOCK), "upcard": "3s"})
    ruling = hand["ruling"]
    # 20 - 3 = 17, doubled by the spade: 34; one box (spades_double points)
    assert (ruling["points"], ruling["base_points"], ruling["boxes"], ruling["knock_limit"]) == (34, 17, 1, 3)
    assert ruling["upcard"] == "3S" and hand["input"]["upcard"] == "3S"
    texts = [s["text"] for s in ruling["explanation"]]
    assert texts[0] == "The up-card is 3S: its value, 3, is the knock limit (R33)"
    assert texts[-2] == "The up-card 3S is a spade: the hand's points are doubled, 17 x 2 = 34 (R33)"
    assert hand["scores"] == {str(ann): 34, str(bob): 0}


def test_r33_spades_double_all_doubles_the_boxes_too(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = oklahoma(api, pair, spades_double="all")
    api.record(game["id"], {**by_counts("non_dealer", 2, 30), "upcard": "9S"})
    state = api.game(game["id"])
    assert state["scores"] == {str(ann): 0, str(bob): 56}
    assert state["boxes"] == {str(ann): 0, str(bob): 2}
    off = oklahoma(api, pair, spades_double="off")
    api.record(off["id"], {**by_counts("non_dealer", 2, 30), "upcard": "9S"})
    assert api.game(off["id"])["scores"] == {str(ann): 0, str(bob): 28}


def test_r33_a_knock_over_the_up_cards_value_is_refused_citing_r33(api: Api, pair: tuple[int, int]) -> None:
    game = oklahoma(api, pair)
    url = f"/api/v1/games/{game['id']}/hands"
    body = problem(api.client.post(url, json={**by_cards("dealer", *OKLAHOMA_KNOCK), "upcard": "2H"}), 422)
    assert body["rule"] == "R33" and body["type"] == RULES_TYPE + "R33"
    body = problem(api.client.post(url, json={**by_counts("dealer", 3, 20), "upcard": "2H"}), 422)
    assert body["rule"] == "R33"
    body = problem(api.client.post(url, json=by_counts("dealer", 3, 20)), 422)  # no up-card
    assert body["rule"] == "R33" and "upcard" in body["errors"]
    assert api.game(game["id"])["hands_played"] == 0


@pytest.mark.parametrize(("ace", "count", "status"), [("gin_only", 1, 422), ("gin_only", 0, 201), ("one", 1, 201)])
def test_r33_an_ace_up_card_under_each_ace_option(
    api: Api, pair: tuple[int, int], ace: str, count: int, status: int
) -> None:
    game = oklahoma(api, pair, ace=ace)
    response = api.client.post(
        f"/api/v1/games/{game['id']}/hands", json={**by_counts("dealer", count, 20), "upcard": "AH"}
    )
    assert response.status_code == status, response.get_json()
    if status == 422:
        assert response.get_json()["rule"] == "R33"
    else:
        points = 20 + 25 if count == 0 else 19
        assert response.get_json()["ruling"]["points"] == points


def test_r35_straight_refuses_any_knock_with_deadwood(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = api.new_game([ann, bob], rules={"preset": "straight"}, roles={"dealer": ann, "non_dealer": bob})
    url = f"/api/v1/games/{game['id']}/hands"
    body = problem(api.client.post(url, json=by_cards("dealer", *KNOCK_10)), 422)
    assert body["rule"] == "R35" and body["type"] == RULES_TYPE + "R35"
    body = problem(api.client.post(url, json=by_counts("dealer", 1, 20)), 422)
    assert body["rule"] == "R35"
    hand = api.record(game["id"], by_counts("dealer", 0, 20))
    assert hand["ruling"]["outcome"] == "gin" and hand["ruling"]["points"] == 45


BIG_GIN = ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "AH 2H 3H 4D 5D 6D JC QC KC 9H")


def test_r32_big_gin_scores_the_defenders_deadwood_plus_its_bonus(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = classic(api, pair, big_gin_bonus=31, gin_boxes=2)
    hand = api.record(game["id"], by_cards("non_dealer", *BIG_GIN))
    ruling = hand["ruling"]
    # the defender keeps three melds and 9H: 9 + 31 = 40, two boxes (gin_boxes)
    assert (ruling["outcome"], ruling["points"], ruling["big_gin"], ruling["boxes"]) == ("gin", 40, True, 2)
    assert [s["code"] for s in ruling["explanation"][-2:]] == ["big_gin", "hand_boxes"]
    hand = api.record(game["id"], {**by_counts("non_dealer", 0, 12), "big_gin": True})
    assert hand["ruling"]["points"] == 43 and hand["input"]["big_gin"] is True
    assert api.game(game["id"])["boxes"] == {str(ann): 2, str(bob): 2}


def test_r32_eleven_cards_without_big_gin_are_refused(api: Api, pair: tuple[int, int]) -> None:
    game = classic(api, pair)
    url = f"/api/v1/games/{game['id']}/hands"
    body = problem(api.client.post(url, json=by_cards("non_dealer", *BIG_GIN)), 422)
    assert body["rule"] == "R32" and "knocker_hand.cards" in body["errors"]
    body = problem(api.client.post(url, json={**by_counts("non_dealer", 0, 12), "big_gin": True}), 422)
    assert body["rule"] == "R32"
    with_discard = by_cards("non_dealer", *BIG_GIN, discard="KD")
    big = classic(api, pair, big_gin_bonus=31)
    body = problem(api.client.post(f"/api/v1/games/{big['id']}/hands", json=with_discard), 422)
    assert body["rule"] == "R32"


def test_r28_a_two_player_hand_names_dealer_or_non_dealer_and_a_three_handed_one_box_or_captain(
    api: Api, pair: tuple[int, int]
) -> None:
    ann, bob = pair
    game = classic(api, pair)
    body = problem(api.client.post(f"/api/v1/games/{game['id']}/hands", json=by_counts("box", 3, 20)), 422)
    assert "knocker" in body["errors"] and body["rule"] == "R28"
    cy = api.player("Cy")
    three = api.new_game([ann, bob, cy], roles={"box": ann, "captain": bob, "sitter": cy})
    url = f"/api/v1/games/{three['id']}/hands"
    body = problem(api.client.post(url, json=by_counts("dealer", 3, 20)), 422)
    assert "knocker" in body["errors"]
    body = problem(api.client.post(url, json={**by_counts("box", 3, 20), "upcard": "3S"}), 422)
    assert "upcard" in body["errors"]
    assert api.game(three["id"])["hands_played"] == 0


def test_r28_a_draw_counts_no_box_and_the_same_player_deals_again(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    game = classic(api, pair)
    hand = api.record(game["id"], {"outcome": "draw"})
    assert hand["ruling"]["boxes"] == 0 and hand["ruling"]["winner"] is None
    assert hand["roles"] == {"dealer": ann, "non_dealer": bob}
    assert api.game(game["id"])["hands_played"] == 1


def test_r33_the_referee_rules_on_a_hand_under_a_preset_without_a_game(api: Api) -> None:
    knocker, defender = OKLAHOMA_KNOCK
    body = {**by_cards("dealer", knocker, defender), "rules": {"preset": "oklahoma"}, "upcard": "3S"}
    response = api.post("/referee/hand", body)
    assert response.status_code == 200, response.get_json()
    ruling = response.get_json()
    assert (ruling["points"], ruling["base_points"], ruling["knock_limit"], ruling["winner"]) == (34, 17, 3, "dealer")
    body = problem(api.post("/referee/hand", {**body, "upcard": "2S"}), 422)
    assert body["rule"] == "R33"
    straight = {**by_cards("dealer", *KNOCK_10), "rules": {"preset": "straight"}}
    assert problem(api.post("/referee/hand", straight), 422)["rule"] == "R35"
    three = problem(api.post("/referee/hand", {**by_cards("box", *KNOCK_10), "upcard": "3S"}), 422)
    assert "upcard" in three["errors"]


def test_r33_the_knock_limit_of_the_referees_knock_is_the_up_cards(api: Api) -> None:
    cards = OKLAHOMA_KNOCK[0].split()
    verdict = api.post("/referee/knock", {"cards": cards, "rules": {"preset": "oklahoma"}, "upcard": "3H"}).get_json()
    assert verdict["valid"] is True
    verdict = api.post("/referee/knock", {"cards": cards, "rules": {"preset": "oklahoma"}, "upcard": "2H"}).get_json()
    assert (verdict["valid"], verdict["rule"]) == (False, "R33")
    verdict = api.post("/referee/knock", {"cards": cards, "rules": {"preset": "straight"}}).get_json()
    assert (verdict["valid"], verdict["rule"]) == (False, "R35")
    body = problem(api.post("/referee/knock", {"cards": cards, "rules": {"preset": "oklahoma"}}), 422)
    assert body["rule"] == "R33" and "upcard" in body["errors"]


def test_r8_a_three_handed_hand_naming_a_dealer_is_a_422(api: Api, pair: tuple[int, int]) -> None:
    ann, bob = pair
    cy = api.player("Cy")
    three = api.new_game([ann, bob, cy], roles={"box": ann, "captain": bob, "sitter": cy})
    seated = {**by_counts("box", 3, 20), "seating": {"dealer": ann, "non_dealer": bob}}
    body = problem(api.client.post(f"/api/v1/games/{three['id']}/hands", json=seated), 422)
    assert "seating" in body["errors"]
