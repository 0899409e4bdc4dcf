"""Disputes: a recorded hand contested with the cards as the disputing side
gives them; the referee's ruling kept beside the recorded one; upheld, the
hand is corrected exactly as a PUT would (R26); rejected, it stands."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.test_api.conftest import (
    DRAW,
    KNOCK_6,
    KNOCK_10,
    KNOCK_10_RULING,
    by_cards,
    by_counts,
    problem,
    seats,
)


def _game(client: FlaskClient, players: list[int], **rules: int) -> dict[str, Any]:
    body: dict[str, Any] = {"players": players, "roles": seats(*players)}
    if rules:
        body["rules"] = rules
    r = client.post("/api/v1/games", json=body)
    assert r.status_code == 201
    return r.get_json()


def _cards_of(pair: tuple[str, str]) -> dict[str, Any]:
    hand = by_cards("box", *pair)
    return {"knocker_hand": hand["knocker_hand"], "defender_hand": hand["defender_hand"]}


def _open(client: FlaskClient, game_id: int, number: int, **body: Any) -> Any:
    return client.post(f"/api/v1/games/{game_id}/hands/{number}/disputes", json=body)


def _resolve(client: FlaskClient, game_id: int, number: int, dispute_id: int, **body: Any) -> Any:
    return client.post(f"/api/v1/games/{game_id}/hands/{number}/disputes/{dispute_id}/resolution", json=body)


def test_a_counts_hand_disputed_with_cards_shows_whether_the_counts_were_right(
    client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201  # 16 recorded (R25)
    r = _open(client, game["id"], 1, by="captain", claim="he had KC, not 4", **_cards_of(KNOCK_10))
    assert r.status_code == 201
    dispute = r.get_json()
    assert r.headers["Location"] == f"{url}/hands/1/disputes/{dispute['id']}"
    assert (dispute["hand"], dispute["by"], dispute["status"], dispute["mode"]) == (1, "captain", "open", "cards")
    assert {k: dispute["ruling"][k] for k in KNOCK_10_RULING} == KNOCK_10_RULING  # R24: the sets are spread
    steps = dispute["ruling"]["explanation"]  # the dispute's ruling explains itself like any other
    assert [s for s in steps if s["code"] == "knock"] == [
        {
            "rule": "R16",
            "code": "knock",
            "params": {"knocker_count": 10, "defender_count": 20, "points": 10},
            "text": next(s["text"] for s in steps if s["code"] == "knock"),
        }
    ]
    assert dispute["recorded"] == {"outcome": "knock", "scorer": "knocker", "points": 16}
    assert dispute["differs"] is True
    assert dispute["differences"] == [{"field": "points", "recorded": 16, "disputed": 10}]
    assert client.get(f"{url}/hands/1").get_json()["ruling"]["points"] == 16  # the hand stands until upheld


def test_an_upheld_dispute_changes_the_scores_exactly_as_the_same_correction(
    client: FlaskClient, players: list[int]
) -> None:
    disputed, corrected = _game(client, players), _game(client, players)
    for game in (disputed, corrected):
        url = f"/api/v1/games/{game['id']}"
        for body in (by_counts("box", 4, 20), by_counts("captain", 2, 9), DRAW):
            assert client.post(f"{url}/hands", json=body).status_code == 201
    cards = _cards_of(KNOCK_6)
    dispute = _open(client, disputed["id"], 1, by="sitter", claim="the defender laid off 8H 9H", **cards).get_json()
    r = _resolve(client, disputed["id"], 1, dispute["id"], decision="upheld", reason="the table agrees")
    assert r.status_code == 200
    assert (r.get_json()["status"], r.get_json()["reason"]) == ("upheld", "the table agrees")
    assert r.get_json()["resolved_at"] is not None
    r = client.put(f"/api/v1/games/{corrected['id']}/hands/1", json={"knocker": "box", **cards})
    assert r.status_code == 200

    a, b = (client.get(f"/api/v1/games/{g['id']}").get_json() for g in (disputed, corrected))
    assert a["scores"] == b["scores"] and a["roles"] == b["roles"] and a["winner"] == b["winner"]
    hands_a, hands_b = (client.get(f"/api/v1/games/{g['id']}/hands").get_json()["items"] for g in (disputed, corrected))
    for x, y in zip(hands_a, hands_b, strict=True):
        assert (x["ruling"], x["scores"], x["seating_follows"]) == (y["ruling"], y["scores"], y["seating_follows"])
    assert hands_a[0]["ruling"]["points"] == 6
    revisions = client.get(f"/api/v1/games/{disputed['id']}/hands/1/revisions").get_json()["items"]
    assert [(v["action"], v["dispute_id"], v["reason"]) for v in revisions] == [
        ("recorded", None, None),
        ("corrected", dispute["id"], "the table agrees"),
    ]


def test_a_rejected_dispute_changes_nothing_but_the_dispute(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    before = client.get(url).get_json()
    hands_before = client.get(f"{url}/hands").get_json()
    dispute = _open(client, game["id"], 1, by="captain", claim="wrong", **_cards_of(KNOCK_10)).get_json()
    r = _resolve(client, game["id"], 1, dispute["id"], decision="rejected", reason="the cards were mixed")
    assert r.status_code == 200 and r.get_json()["status"] == "rejected"
    after = client.get(url).get_json()
    assert {**after, "version": None} == {**before, "version": None}
    assert after["version"] == before["version"] + 2  # opened, resolved: each a change the feed lists
    assert client.get(f"{url}/hands").get_json() == hands_before
    kinds = [(e["kind"], e["hand"]) for e in client.get(f"{url}/events?after={before['version']}").get_json()["items"]]
    assert kinds == [("dispute_opened", 1), ("dispute_resolved", 1)]
    assert [v["action"] for v in client.get(f"{url}/hands/1/revisions").get_json()["items"]] == ["recorded"]


def test_an_upheld_dispute_that_would_end_the_game_early_is_a_409_naming_the_hands(
    client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players, target_score=10)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 9, 10)).status_code == 201  # 1 point
    assert client.post(f"{url}/hands", json=by_counts("box", 9, 10)).status_code == 201
    dispute = _open(client, game["id"], 1, by="box", claim="it was 10 points", **_cards_of(KNOCK_10)).get_json()
    before = client.get(url).get_json()
    body = problem(_resolve(client, game["id"], 1, dispute["id"], decision="upheld"), 409)
    assert body["rule"] == "R26" and body["hands"] == [2]
    assert client.get(url).get_json() == before
    assert client.get(f"{url}/hands/1/disputes/{dispute['id']}").get_json()["status"] == "open"
    r = _resolve(client, game["id"], 1, dispute["id"], decision="rejected")
    assert r.status_code == 200


def test_a_hand_by_cards_disputed_without_cards_is_ruled_again_on_its_own(
    client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_cards("box", *KNOCK_10)).status_code == 201
    dispute = _open(client, game["id"], 1, by="captain", claim="check it").get_json()
    assert dispute["differs"] is False and dispute["differences"] == []
    assert dispute["ruling"] == client.get(f"{url}/hands/1").get_json()["ruling"]
    assert dispute["input"] == client.get(f"{url}/hands/1").get_json()["input"]


def test_disputes_are_listed_on_the_hand_and_the_game(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    for body in (by_counts("box", 4, 20), by_counts("box", 4, 20)):
        assert client.post(f"{url}/hands", json=body).status_code == 201
    first = _open(client, game["id"], 1, by="captain", claim="a", **_cards_of(KNOCK_10)).get_json()
    second = _open(client, game["id"], 1, by="sitter", claim="b", **_cards_of(KNOCK_6)).get_json()
    third = _open(client, game["id"], 2, by="captain", claim="c", **_cards_of(KNOCK_10)).get_json()
    _resolve(client, game["id"], 1, first["id"], decision="rejected")
    _resolve(client, game["id"], 2, third["id"], decision="upheld")

    def ids(path: str) -> list[tuple[int, str]]:
        return [(d["id"], d["status"]) for d in client.get(path).get_json()["items"]]

    assert ids(f"{url}/hands/1/disputes") == [(first["id"], "rejected"), (second["id"], "open")]
    assert ids(f"{url}/disputes") == [(first["id"], "rejected"), (second["id"], "open"), (third["id"], "upheld")]
    assert ids(f"{url}/disputes?status=open") == [(second["id"], "open")]
    problem(client.get(f"{url}/disputes?status=closed"), 422)


def test_bad_disputes_are_refused_and_nothing_is_written(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    version = client.get(url).get_json()["version"]
    cards = _cards_of(KNOCK_10)

    problem(_open(client, game["id"], 2, by="box", claim="x", **cards), 404)
    problem(_open(client, 999, 1, by="box", claim="x", **cards), 404)
    body = problem(_open(client, game["id"], 1, by="captain", claim="x"), 422)  # counts: the cards are needed
    assert list(body["errors"]) == ["knocker_hand"]
    body = problem(_open(client, game["id"], 1, by="dealer", claim="x", **cards), 422)
    assert list(body["errors"]) == ["by"]
    body = problem(_open(client, game["id"], 1, by="box", claim="x" * 2001, **cards), 422)
    assert list(body["errors"]) == ["claim"]
    body = problem(_open(client, game["id"], 1, by="box", claim="x", knocker_hand=cards["knocker_hand"]), 422)
    assert list(body["errors"]) == ["defender_hand"]
    doubled = {**cards["knocker_hand"], "cards": ["4H", "4H", *cards["knocker_hand"]["cards"][2:]]}
    body = problem(_open(client, game["id"], 1, by="box", claim="x", **{**cards, "knocker_hand": doubled}), 422)
    assert "knocker_hand.cards" in str(body["errors"]), body
    nine = {**cards["defender_hand"], "cards": cards["defender_hand"]["cards"][:9]}
    body = problem(_open(client, game["id"], 1, by="box", claim="x", **{**cards, "defender_hand": nine}), 422)
    assert "defender_hand.cards" in str(body["errors"]), body
    assert client.get(f"{url}/disputes").get_json() == {"items": [], "total": 0, "page": 1, "per_page": 20}
    assert client.get(url).get_json()["version"] == version

    dispute = _open(client, game["id"], 1, by="box", claim="x", **cards).get_json()
    assert _resolve(client, game["id"], 1, dispute["id"], decision="rejected").status_code == 200
    body = problem(_resolve(client, game["id"], 1, dispute["id"], decision="upheld"), 409)
    assert "already resolved" in body["detail"]
    problem(_resolve(client, game["id"], 1, 999, decision="upheld"), 404)
    problem(_resolve(client, game["id"], 2, dispute["id"], decision="upheld"), 404)  # not this hand's
    body = problem(_resolve(client, game["id"], 1, dispute["id"], decision="maybe"), 422)
    assert list(body["errors"]) == ["decision"]


def test_a_dispute_on_an_undone_hand_cannot_be_upheld(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    dispute = _open(client, game["id"], 1, by="box", claim="x", **_cards_of(KNOCK_10)).get_json()
    assert client.delete(f"{url}/hands/1").status_code == 204
    body = problem(_resolve(client, game["id"], 1, dispute["id"], decision="upheld"), 409)
    assert body["rule"] == "R26"
    assert _resolve(client, game["id"], 1, dispute["id"], decision="rejected").status_code == 200
