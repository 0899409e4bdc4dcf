"""Nothing is lost from the record: every version of a hand is kept,
append-only, with when, by which key and why (R26)."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from models import ApiKey, db
from tests.test_api.conftest import DRAW, PROBLEM_JSON, by_counts, seats


def _game(client: FlaskClient, players: list[int]) -> dict[str, Any]:
    r = client.post("/api/v1/games", json={"players": players, "roles": seats(*players)})
    assert r.status_code == 201
    return r.get_json()


def _key_ids(app: Flask, game_id: int) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(select(ApiKey.id).where(ApiKey.game_id == game_id).order_by(ApiKey.id)))


def _revisions(client: FlaskClient, game_id: int, number: int) -> list[dict[str, Any]]:
    r = client.get(f"/api/v1/games/{game_id}/hands/{number}/revisions")
    assert r.status_code == 200, r.get_json()
    items: list[dict[str, Any]] = r.get_json()["items"]
    return items


def test_a_hand_recorded_corrected_twice_and_undone_keeps_four_versions(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    [key_id] = _key_ids(app, game["id"])
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201  # 16 to the box
    after_record = client.get(url).get_json()["scores"]
    r = client.put(f"{url}/hands/1", json={**by_counts("box", 4, 30), "reason": "defender miscounted: 30"})
    assert r.status_code == 200
    after_first = client.get(url).get_json()["scores"]
    rotated = client.post(f"{url}/key").get_json()["key"]  # the second correction comes from another key
    [_, new_key_id] = _key_ids(app, game["id"])
    r = client.put(
        f"{url}/hands/1",
        json={**by_counts("box", 6, 4), "reason": "  the knocker had 6, not 4: undercut (R17)  "},
        headers={"Authorization": f"Bearer {rotated}"},
    )
    assert r.status_code == 200
    after_second = client.get(url).get_json()["scores"]
    r = client.delete(
        f"{url}/hands/1?reason=entered+on+the+wrong+game",
        headers={"Authorization": f"Bearer {rotated}", "If-Match": client.get(url).headers["ETag"]},
    )
    assert r.status_code == 204
    after_undo = client.get(url).get_json()["scores"]

    revisions = _revisions(client, game["id"], 1)
    assert [(v["revision"], v["action"], v["key_id"], v["reason"]) for v in revisions] == [
        (1, "recorded", key_id, None),
        (2, "corrected", key_id, "defender miscounted: 30"),
        (3, "corrected", new_key_id, "the knocker had 6, not 4: undercut (R17)"),
        (4, "undone", new_key_id, "entered on the wrong game"),
    ]
    box, captain, sitter = (str(p) for p in players)
    assert after_record == {box: 16, captain: 0, sitter: 0}
    assert after_first == {box: 26, captain: 0, sitter: 0}
    assert after_second == {box: 0, captain: 12, sitter: 0}  # R17: 6 - 4 + 10
    assert after_undo == {box: 0, captain: 0, sitter: 0}
    assert [v["game_scores"] for v in revisions] == [after_record, after_first, after_second, after_undo]
    assert [v["ruling"]["points"] for v in revisions] == [16, 26, 12, 12]  # the undone version as it stood
    assert [[s["code"] for s in v["ruling"]["explanation"]][-1] for v in revisions] == [
        "knock",
        "knock",
        "undercut",
        "undercut",
    ]
    assert [v["input"]["knocker_deadwood_count"] for v in revisions] == [4, 4, 6, 6]
    assert all(v["seating"] == {"box": players[0], "captain": players[1], "sitter": players[2]} for v in revisions)
    assert [v["made_at"] for v in revisions] == sorted(v["made_at"] for v in revisions)
    assert client.get(f"{url}/hands/1").status_code == 404  # it no longer stands


def test_the_next_hand_takes_an_undone_hands_number_and_both_are_listed(
    client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    assert client.delete(f"{url}/hands/1").status_code == 204
    assert client.post(f"{url}/hands", json=DRAW).status_code == 201
    revisions = _revisions(client, game["id"], 1)
    assert [(v["revision"], v["action"], v["mode"]) for v in revisions] == [
        (1, "recorded", "counts"),
        (2, "undone", "counts"),
        (3, "recorded", "draw"),
    ]
    assert client.get(f"{url}/hands/1").get_json()["mode"] == "draw"


def test_no_route_removes_a_revision(app: Flask) -> None:
    for rule in app.url_map.iter_rules():
        if "revisions" in rule.rule:
            assert rule.methods is not None and rule.methods & {"POST", "PUT", "PATCH", "DELETE"} == set(), rule


def test_two_phones_correcting_one_hand_at_once_get_one_revision_each_or_a_412(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    etag = client.get(url).headers["ETag"]
    statuses: list[int] = []

    def correct(defender: int) -> None:
        phone = app.test_client()
        r = phone.put(
            f"{url}/hands/1",
            json={**by_counts("box", 4, defender), "reason": f"defender had {defender}"},
            headers={"Authorization": f"Bearer {game['key']}", "If-Match": etag},
        )
        statuses.append(r.status_code)

    phones = [threading.Thread(target=correct, args=(d,)) for d in (21, 22, 23, 24)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(timeout=30)
    assert sorted(statuses) == [200, 412, 412, 412]
    revisions = _revisions(client, game["id"], 1)
    assert [v["revision"] for v in revisions] == [1, 2]
    winner = revisions[1]["input"]["defender_deadwood_count"]
    assert client.get(f"{url}/hands/1").get_json()["input"]["defender_deadwood_count"] == winner


def test_concurrent_corrections_each_with_a_fresh_etag_are_all_kept_in_order(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    done: list[int] = []

    def correct(defender: int) -> None:
        phone = app.test_client()
        for _ in range(20):  # re-read and retry on 412, as a phone does
            etag = phone.get(url).headers["ETag"]
            r = phone.put(
                f"{url}/hands/1",
                json=by_counts("box", 4, defender),
                headers={"Authorization": f"Bearer {game['key']}", "If-Match": etag},
            )
            if r.status_code == 200:
                done.append(defender)
                return
            assert r.status_code == 412

    phones = [threading.Thread(target=correct, args=(d,)) for d in (21, 22, 23)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(timeout=60)
    revisions = _revisions(client, game["id"], 1)
    assert [v["input"]["defender_deadwood_count"] for v in revisions] == [20, *done]
    assert [v["revision"] for v in revisions] == [1, 2, 3, 4]


def test_an_over_long_or_blank_reason_is_a_422_and_nothing_is_written(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    version = client.get(url).get_json()["version"]
    r = client.put(f"{url}/hands/1", json={**by_counts("box", 4, 30), "reason": "x" * 501})
    assert r.status_code == 422 and r.content_type == PROBLEM_JSON
    assert list(r.get_json()["errors"]) == ["reason"]
    r = client.put(f"{url}/hands/1", json={**by_counts("box", 4, 30), "reason": "   "})
    assert r.status_code == 422 and list(r.get_json()["errors"]) == ["reason"]
    r = client.delete(f"{url}/hands/1?reason=" + "y" * 501)
    assert r.status_code == 422 and list(r.get_json()["errors"]) == ["query.reason"]
    assert client.get(url).get_json()["version"] == version
    assert [v["action"] for v in _revisions(client, game["id"], 1)] == ["recorded"]
    assert client.put(f"{url}/hands/1", json={**by_counts("box", 4, 30), "reason": "x" * 500}).status_code == 200


def test_revisions_of_a_hand_or_game_that_never_was_are_a_404(client: FlaskClient, players: list[int]) -> None:
    game = _game(client, players)
    r = client.get(f"/api/v1/games/{game['id']}/hands/1/revisions")
    assert r.status_code == 404 and r.content_type == PROBLEM_JSON
    assert client.get("/api/v1/games/999/hands/1/revisions").get_json() == client.get("/api/v1/games/999").get_json()


def test_an_imported_league_keeps_a_first_revision_for_each_hand(client: FlaskClient, players: list[int]) -> None:
    league = client.post("/api/v1/leagues", json={"name": "Club", "members": players}).get_json()
    game = client.post(
        "/api/v1/games", json={"players": players, "roles": seats(*players), "league_id": league["id"]}
    ).get_json()
    url = f"/api/v1/games/{game['id']}"
    assert client.post(f"{url}/hands", json=by_counts("box", 4, 20)).status_code == 201
    assert client.post(f"{url}/hands", json=by_counts("captain", 0, 20)).status_code == 201
    document = client.get(f"/api/v1/leagues/{league['id']}/export").get_json()
    imported = client.post("/api/v1/leagues/import", json=document).get_json()
    [copy] = client.get(f"/api/v1/leagues/{imported['id']}/games").get_json()["items"]
    for number in (1, 2):
        [first] = _revisions(client, copy["id"], number)
        assert (first["action"], first["key_id"]) == ("recorded", None)
        assert first["game_scores"] == first["scores"]
