"""A two-player game's record (R26 under R27-R31): corrections, undo,
revisions and disputes re-derive the game from its log."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_api.conftest import KNOCK_10, Api, by_cards, by_counts, problem


@pytest.fixture
def game(api: Api) -> dict[str, Any]:
    ann, bob = api.player("Ann"), api.player("Bob")
    return api.new_game(
        [ann, bob], rules={"preset": "classic", "target_score": 50}, roles={"dealer": ann, "non_dealer": bob}
    )


def ids(game: dict[str, Any]) -> tuple[int, int]:
    ann, bob = game["players"]
    return ann, bob


def test_r26_correcting_a_hand_re_derives_scores_boxes_and_the_result(api: Api, game: dict[str, Any]) -> None:
    ann, bob = ids(game)
    gid = game["id"]
    api.record(gid, by_counts("non_dealer", 3, 20))  # Bob 17, 1 box; Bob deals
    api.record(gid, by_counts("non_dealer", 0, 30))  # Ann gin: 55, she wins (target 50)
    state = api.game(gid)
    assert state["winner"] == ann and state["result"]["totals"][str(ann)]["total"] == 55 + 25 + 100
    # R26: hand 2 was Ann's knock of 5 against 30 (25): nobody has won, Ann deals (she won)
    corrected = api.correct(gid, 2, by_counts("non_dealer", 5, 30))
    assert corrected["ruling"]["points"] == 25 and corrected["seating"] == {"dealer": bob, "non_dealer": ann}
    state = api.game(gid)
    assert state["status"] == "in_progress" and state["result"] is None
    assert state["scores"] == {str(ann): 25, str(bob): 17}
    assert state["boxes"] == {str(ann): 1, str(bob): 1}
    assert state["roles"] == {"dealer": ann, "non_dealer": bob}
    revisions = api.client.get(f"/api/v1/games/{gid}/hands/2/revisions").get_json()["items"]
    assert [r["action"] for r in revisions] == ["recorded", "corrected"]
    assert revisions[1]["seating"] == {"dealer": bob, "non_dealer": ann}
    assert revisions[1]["ruling"]["points"] == 25


def test_r26_a_correction_that_wins_before_the_last_hand_is_refused(api: Api, game: dict[str, Any]) -> None:
    gid = game["id"]
    api.record(gid, by_counts("non_dealer", 3, 20))
    api.record(gid, by_counts("non_dealer", 3, 20))
    response = api.client.put(f"/api/v1/games/{gid}/hands/1", json=by_counts("non_dealer", 0, 40))
    body = problem(response, 409)
    assert body["hands"] == [2]
    assert api.game(gid)["scores"] == {str(game["players"][0]): 17, str(game["players"][1]): 17}


def test_r26_undoing_the_last_hand_takes_back_its_points_boxes_and_result(api: Api, game: dict[str, Any]) -> None:
    ann, bob = ids(game)
    gid = game["id"]
    api.record(gid, by_counts("non_dealer", 3, 20))
    api.record(gid, by_counts("non_dealer", 0, 40))  # Ann: 65, the game
    assert api.game(gid)["status"] == "finished"
    api.undo(gid, 2)
    state = api.game(gid)
    assert state["status"] == "in_progress" and state["result"] is None
    assert state["scores"] == {str(ann): 0, str(bob): 17} and state["boxes"] == {str(ann): 0, str(bob): 1}
    assert state["roles"] == {"dealer": bob, "non_dealer": ann}
    revisions = api.client.get(f"/api/v1/games/{gid}/hands/2/revisions").get_json()["items"]
    assert [r["action"] for r in revisions] == ["recorded", "undone"]


def test_r26_a_dispute_upheld_corrects_a_two_player_hand(api: Api, game: dict[str, Any]) -> None:
    ann, bob = ids(game)
    gid = game["id"]
    # recorded as an undercut by counts... no: by cards, the non-dealer's knock of 10 against 20 (10 points)
    api.record(gid, by_cards("non_dealer", *KNOCK_10))
    # the dealer says the knocker held 3C, not KC: 3 against 20 is 17
    cards = KNOCK_10[0].replace("KC", "3C")
    disputed = api.client.post(
        f"/api/v1/games/{gid}/hands/1/disputes",
        json={"by": "dealer", "claim": "he had the three", **by_cards("non_dealer", cards, KNOCK_10[1])},
    )
    assert disputed.status_code == 201, disputed.get_json()
    dispute = disputed.get_json()
    assert dispute["differences"] == [{"field": "points", "recorded": 10, "disputed": 17}]
    resolved = api.client.post(
        f"/api/v1/games/{gid}/hands/1/disputes/{dispute['id']}/resolution", json={"decision": "upheld"}
    )
    assert resolved.status_code == 200, resolved.get_json()
    state = api.game(gid)
    assert state["scores"] == {str(ann): 0, str(bob): 17} and state["boxes"] == {str(ann): 0, str(bob): 1}
    body = problem(api.client.post(f"/api/v1/games/{gid}/hands/1/disputes", json={"by": "box", "claim": "no"}), 422)
    assert "by" in body["errors"]


def test_the_events_feed_and_etags_follow_a_two_player_game(api: Api, game: dict[str, Any]) -> None:
    gid = game["id"]
    first = api.client.get(f"/api/v1/games/{gid}")
    tag = first.headers["ETag"]
    assert api.client.get(f"/api/v1/games/{gid}", headers={"If-None-Match": tag}).status_code == 304
    api.record(gid, by_counts("non_dealer", 3, 20))
    assert api.client.get(f"/api/v1/games/{gid}", headers={"If-None-Match": tag}).status_code == 200
    # a write with the old ETag is refused
    stale = api.client.post(f"/api/v1/games/{gid}/hands", json=by_counts("dealer", 3, 20), headers={"If-Match": tag})
    assert stale.status_code == 412
    events = api.client.get(f"/api/v1/games/{gid}/events?after=0").get_json()["items"]
    assert [e["kind"] for e in events] == ["game_started", "hand_recorded"]


def test_a_two_player_hand_needs_the_games_key(api: Api, game: dict[str, Any]) -> None:
    api.client.auto = False  # type: ignore[attr-defined]
    gid = game["id"]
    etag = api.client.get(f"/api/v1/games/{gid}").headers["ETag"]
    response = api.client.post(
        f"/api/v1/games/{gid}/hands", json=by_counts("dealer", 3, 20), headers={"If-Match": etag}
    )
    assert response.status_code == 401
    response = api.client.post(
        f"/api/v1/games/{gid}/hands",
        json=by_counts("dealer", 3, 20),
        headers={"If-Match": etag, "Authorization": f"Bearer {game['key']}"},
    )
    assert response.status_code == 201, response.get_json()


def test_the_rules_of_a_two_player_game_change_before_its_first_hand(api: Api, game: dict[str, Any]) -> None:
    gid = game["id"]
    response = api.client.patch(f"/api/v1/games/{gid}", json={"rules": {"gin_bonus": 20}})
    assert response.status_code == 200, response.get_json()
    rules = response.get_json()["rules"]
    assert (rules["preset"], rules["gin_bonus"], rules["target_score"]) == ("classic", 20, 50)


def test_r28_a_hand_naming_seats_the_game_has_left_is_a_409_and_nothing_is_recorded(
    api: Api, game: dict[str, Any]
) -> None:
    ann, bob = ids(game)
    gid = game["id"]
    seated = {**by_counts("non_dealer", 3, 20), "seating": {"dealer": ann, "non_dealer": bob}}
    assert api.record(gid, seated)["roles"] == {"dealer": bob, "non_dealer": ann}
    # a second phone sends the same seating again: Bob deals now
    body = problem(api.client.post(f"/api/v1/games/{gid}/hands", json=seated), 409)
    assert body["rule"] == "R28" and body["seating"] == {"dealer": bob, "non_dealer": ann}
    assert body["type"] == "https://ginref.org/problems/seating-moved"
    assert api.game(gid)["hands_played"] == 1
    # a correction keeps the hand's seating (R26)
    body = problem(
        api.client.put(f"/api/v1/games/{gid}/hands/1", json={**seated, "seating": {"dealer": bob, "non_dealer": ann}}),
        409,
    )
    assert body["rule"] == "R26"
    assert api.correct(gid, 1, seated)["ruling"]["points"] == 17
    wrong = problem(
        api.client.post(f"/api/v1/games/{gid}/hands", json={**seated, "seating": {"box": ann, "captain": bob}}), 422
    )
    assert "seating" in wrong["errors"]


def test_r27_a_patch_checks_the_options_against_the_games_preset(api: Api, game: dict[str, Any]) -> None:
    gid = game["id"]
    patched = api.client.patch(f"/api/v1/games/{gid}", json={"rules": {"next_dealer": "alternate", "box_bonus": 10}})
    assert patched.status_code == 200, patched.get_json()
    rules = patched.get_json()["rules"]
    assert (rules["next_dealer"], rules["box_bonus"], rules["target_score"]) == ("alternate", 10, 50)
    body = problem(api.client.patch(f"/api/v1/games/{gid}", json={"rules": {"ace": "one"}}), 422)
    assert "rules.ace" in body["errors"]
    body = problem(api.client.patch(f"/api/v1/games/{gid}", json={"rules": {"gin_boxes": 9}}), 422)
    assert "rules.gin_boxes" in body["errors"]
    assert api.game(gid)["rules"] == rules


def test_a_three_handed_game_takes_no_preset_option_in_a_patch(api: Api) -> None:
    players = [api.player(n) for n in ("Ann", "Bob", "Cy")]
    game = api.new_game(players, roles={"box": players[0], "captain": players[1], "sitter": players[2]})
    body = problem(api.client.patch(f"/api/v1/games/{game['id']}", json={"rules": {"box_bonus": 10}}), 422)
    assert body["errors"] == {"rules.box_bonus": ["Unknown field."]}


def test_lists_of_games_show_a_two_player_game_as_its_own_read_does(api: Api, game: dict[str, Any]) -> None:
    ann, bob = ids(game)
    gid = game["id"]
    api.record(gid, by_counts("non_dealer", 0, 40))  # Bob: 65, the game, a shutout
    own = api.game(gid)
    assert own["result"]["totals"][str(bob)]["total"] == 65 + 25 + 100 + 165
    listed = api.client.get("/api/v1/games").get_json()["items"]
    assert [g for g in listed if g["id"] == gid] == [own]
    history = api.client.get(f"/api/v1/players/{ann}/games").get_json()["items"]
    assert [g for g in history if g["id"] == gid] == [own]


def test_a_two_player_hand_write_is_idempotent_under_its_key(api: Api, game: dict[str, Any]) -> None:
    gid = game["id"]
    headers = {"Idempotency-Key": "hand-1-of-the-evening"}
    first = api.client.post(f"/api/v1/games/{gid}/hands", json=by_counts("non_dealer", 3, 20), headers=headers)
    assert first.status_code == 201, first.get_json()
    again = api.client.post(
        f"/api/v1/games/{gid}/hands",
        json=by_counts("non_dealer", 3, 20),
        headers={**headers, "If-Match": first.headers["ETag"]},
    )
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert api.game(gid)["hands_played"] == 1


def test_a_private_two_player_game_is_read_with_its_key_only(api: Api) -> None:
    ann, bob = api.player("Ann"), api.player("Bob")
    game = api.new_game(
        [ann, bob], rules={"preset": "straight"}, roles={"dealer": ann, "non_dealer": bob}, visibility="private"
    )
    assert api.client.get(f"/api/v1/games/{game['id']}").status_code == 404
    read = api.client.get(f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {game['key']}"})
    assert read.status_code == 200 and read.get_json()["rules"]["preset"] == "straight"
