"""A hand is credited to the players who played it, whatever the client
believes of the seats (R11), and a dispute is about one version of one hand
(R26): upheld only while that version stands. Opening or rejecting a dispute
leaves the hands as they were, so a phone's next hand, guarded by the ETag it
read before, is still recorded."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.test_api.conftest import DRAW, GIN_34, KNOCK_10, by_cards, by_counts, problem, seats

SEATING_MOVED = "https://ginref.org/problems/seating-moved"
STALE_DISPUTE = "https://ginref.org/problems/stale-dispute"


def _game(client: FlaskClient, players: list[int]) -> tuple[str, dict[str, Any]]:
    r = client.post("/api/v1/games", json={"players": players, "roles": seats(*players)})
    assert r.status_code == 201
    return f"/api/v1/games/{r.get_json()['id']}", r.get_json()


def _state(client: FlaskClient, url: str) -> tuple[Any, ...]:
    game = client.get(url).get_json()
    hands = client.get(f"{url}/hands").get_json()["items"]
    events = client.get(f"{url}/events").get_json()["items"]
    return game["scores"], game["roles"], game["hands_played"], [h["ruling"] for h in hands], len(events)


def test_r11_a_hand_naming_seats_the_game_has_moved_on_from_is_a_409_and_records_nothing(
    client: FlaskClient, players: list[int]
) -> None:
    ann, bob, cy = players
    url, _ = _game(client, players)  # Ann in the box, Bob captain, Cy sits out
    first = client.post(f"{url}/hands", json={**by_counts("captain", 2, 12), "seating": {"box": ann, "captain": bob}})
    assert first.status_code == 201
    assert first.get_json()["seating"] == seats(ann, bob, cy)
    # R11: the box lost: Ann sits out, Bob goes into the box, Cy becomes captain
    before = _state(client, url)
    assert before[1] == seats(bob, cy, ann)
    # a phone that missed the rotation still believes Bob is captain and credits "the captain"
    stale = {**by_counts("captain", 3, 20), "seating": {"box": ann, "captain": bob}}
    body = problem(client.post(f"{url}/hands", json=stale), 409, SEATING_MOVED)
    assert body["rule"] == "R11"
    assert body["seating"] == {"box": bob, "captain": cy, "sitter": ann}
    assert body["given"] == {"box": ann, "captain": bob}
    assert _state(client, url) == before  # nothing recorded: no hand, no score, no event
    assert client.get(f"{url}/hands/2").status_code == 404
    # the knock was Bob's, in the box now: named so, it is his
    fixed = client.post(
        f"{url}/hands", json={**by_counts("box", 3, 20), "seating": {"box": bob, "captain": cy, "sitter": ann}}
    )
    assert fixed.status_code == 201
    assert fixed.get_json()["seating"] == seats(bob, cy, ann)
    assert client.get(url).get_json()["scores"] == {str(ann): 0, str(bob): 10 + 17, str(cy): 0}


def test_r11_a_seating_naming_a_stranger_or_one_player_twice_is_a_422(client: FlaskClient, players: list[int]) -> None:
    ann, bob, _ = players
    stranger = client.post("/api/v1/players", json={"name": "Dee"}).get_json()["id"]
    url, _ = _game(client, players)
    body = problem(client.post(f"{url}/hands", json={**DRAW, "seating": {"box": stranger, "captain": bob}}), 422)
    assert body["errors"] == {"seating.box": [f"player {stranger} does not play in this game"]}
    body = problem(client.post(f"{url}/hands", json={**DRAW, "seating": {"box": ann, "captain": ann}}), 422)
    assert list(body["errors"]) == ["seating"]
    body = problem(client.post(f"{url}/hands", json={**DRAW, "seating": {"box": ann}}), 422)
    assert body["errors"] == {"seating.captain": ["Missing data for required field."]}
    body = problem(client.post(f"{url}/hands", json={**DRAW, "seating": {"box": ann, "captain": "bob"}}), 422)
    assert list(body["errors"]) == ["seating.captain"]
    assert client.get(url).get_json()["hands_played"] == 0


def test_r12_a_draw_and_a_hand_by_cards_carry_their_seating_too(client: FlaskClient, players: list[int]) -> None:
    ann, bob, cy = players
    url, _ = _game(client, players)
    here = {"box": ann, "captain": bob, "sitter": cy}
    assert client.post(f"{url}/hands", json={**DRAW, "seating": here}).status_code == 201
    r = client.post(f"{url}/hands", json={**by_cards("box", *KNOCK_10), "seating": here})  # R12: the seats stayed
    assert r.status_code == 201
    assert r.get_json()["ruling"]["points"] == 10
    assert "seating" not in r.get_json()["input"]


def test_r26_a_correction_naming_other_players_than_the_hand_was_played_by_is_a_409(
    client: FlaskClient, players: list[int]
) -> None:
    ann, bob, cy = players
    url, _ = _game(client, players)
    assert client.post(f"{url}/hands", json=by_counts("captain", 2, 12)).status_code == 201
    assert client.post(f"{url}/hands", json=by_counts("box", 3, 20)).status_code == 201
    before = _state(client, url)
    wrong = {**by_counts("captain", 0, 30), "seating": {"box": bob, "captain": cy}}  # hand 2's seats, not hand 1's
    body = problem(client.put(f"{url}/hands/1", json=wrong), 409, SEATING_MOVED)
    assert (body["rule"], body["seating"], body["given"]) == ("R26", seats(ann, bob, cy), {"box": bob, "captain": cy})
    assert _state(client, url) == before
    right = {**by_counts("captain", 0, 30), "seating": {"box": ann, "captain": bob}}
    assert client.put(f"{url}/hands/1", json=right).status_code == 200


def _dispute(client: FlaskClient, url: str, number: int) -> dict[str, Any]:
    hand = by_cards("box", *GIN_34)
    body = {
        "by": "captain",
        "claim": "it was gin",
        "knocker_hand": hand["knocker_hand"],
        "defender_hand": hand["defender_hand"],
    }
    r = client.post(f"{url}/hands/{number}/disputes", json=body)
    assert r.status_code == 201
    return r.get_json()


def test_r26_a_dispute_of_a_hand_undone_and_replaced_is_a_409_and_changes_nothing(
    client: FlaskClient, players: list[int]
) -> None:
    url, _ = _game(client, players)
    for hand in (DRAW, DRAW, by_counts("box", 0 + 4, 14)):  # hand 3: the box knocks for 10
        assert client.post(f"{url}/hands", json=hand).status_code == 201
    dispute = _dispute(client, url, 3)
    assert dispute["revision"] == 1
    assert client.delete(f"{url}/hands/3").status_code == 204
    assert client.post(f"{url}/hands", json=DRAW).status_code == 201  # the new hand 3, a draw
    before = _state(client, url)
    r = client.post(f"{url}/hands/3/disputes/{dispute['id']}/resolution", json={"decision": "upheld"})
    body = problem(r, 409, STALE_DISPUTE)
    assert (body["rule"], body["revision"], body["current_revision"]) == ("R26", 1, 3)
    assert _state(client, url) == before  # the draw stands
    assert client.get(f"{url}/hands/3").get_json()["ruling"]["outcome"] == "draw"
    assert client.get(f"{url}/hands/3/disputes/{dispute['id']}").get_json()["status"] == "open"
    # rejecting it changes nothing but the dispute
    r = client.post(f"{url}/hands/3/disputes/{dispute['id']}/resolution", json={"decision": "rejected"})
    assert r.status_code == 200 and r.get_json()["status"] == "rejected"
    assert _state(client, url)[:4] == before[:4]


def test_r26_a_dispute_of_a_hand_corrected_since_is_a_409_and_one_of_it_as_it_is_can_be_upheld(
    client: FlaskClient, players: list[int]
) -> None:
    url, _ = _game(client, players)
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 14)).status_code == 201
    old = _dispute(client, url, 1)
    assert client.put(f"{url}/hands/1", json=by_counts("box", 2, 14)).status_code == 200  # revision 2: 12 points
    problem(
        client.post(f"{url}/hands/1/disputes/{old['id']}/resolution", json={"decision": "upheld"}), 409, STALE_DISPUTE
    )
    assert client.get(f"{url}/hands/1").get_json()["ruling"]["points"] == 12
    new = _dispute(client, url, 1)
    assert new["revision"] == 2
    r = client.post(f"{url}/hands/1/disputes/{new['id']}/resolution", json={"decision": "upheld"})
    assert r.status_code == 200
    assert client.get(f"{url}/hands/1").get_json()["ruling"]["points"] == 34


def test_a_hand_saved_with_the_etag_from_before_a_dispute_was_opened_or_rejected_is_recorded(
    client: FlaskClient, players: list[int]
) -> None:
    url, _ = _game(client, players)
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 14)).status_code == 201
    read = client.get(url)
    etag = read.headers["ETag"]
    hand = by_cards("box", *GIN_34)
    claim = {
        "by": "captain",
        "claim": "gin",
        "knocker_hand": hand["knocker_hand"],
        "defender_hand": hand["defender_hand"],
    }
    opened = client.post(f"{url}/hands/1/disputes", json=claim, headers={"If-Match": etag})
    assert opened.status_code == 201
    assert opened.headers["ETag"] != etag  # the game's version (the feed's, the read's) moved
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200
    r = client.post(f"{url}/hands", json=DRAW, headers={"If-Match": etag})
    assert r.status_code == 201, r.get_json()
    after_hand = r.headers["ETag"]
    dispute = opened.get_json()["id"]
    rejected = client.post(
        f"{url}/hands/1/disputes/{dispute}/resolution", json={"decision": "rejected"}, headers={"If-Match": after_hand}
    )
    assert rejected.status_code == 200
    assert client.post(f"{url}/hands", json=DRAW, headers={"If-Match": after_hand}).status_code == 201
    # a tag from before a hand was recorded still fails: the hands changed
    body = problem(client.post(f"{url}/hands", json=DRAW, headers={"If-Match": after_hand}), 412)
    assert body["game"]["hands_played"] == 3
    # another game's tag with the same numbers never matches
    other, _ = _game(client, players)
    problem(
        client.post(f"{other}/hands", json=DRAW, headers={"If-Match": etag.replace(url.rsplit("/", 1)[1], "999")}), 412
    )
