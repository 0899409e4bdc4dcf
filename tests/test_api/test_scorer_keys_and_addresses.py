"""A league game's scorer key: the phones that score one game of a league
write to it with a key of that game alone, so the league's key never leaves
the phone that has it. And where the page tells other phones to open it."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import api.addresses
from tests.test_api.conftest import DRAW, by_counts, problem, seats

FORBIDDEN = "https://ginref.org/problems/forbidden"


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _league(client: FlaskClient, players: list[int], visibility: str = "public") -> tuple[int, str, list[int]]:
    r = client.post("/api/v1/leagues", json={"name": "Thursday", "members": players, "visibility": visibility})
    assert r.status_code == 201, r.get_json()
    league = r.get_json()
    games = []
    for _ in range(2):
        g = client.post(
            "/api/v1/games",
            json={"players": players, "roles": seats(*players), "league_id": league["id"]},
            headers=_auth(league["key"]),
        )
        assert g.status_code == 201, g.get_json()
        games.append(g.get_json()["id"])
    return league["id"], league["key"], games


def _write(client: FlaskClient, game_id: int, key: str, hand: dict[str, Any]) -> Any:
    etag = client.get(f"/api/v1/games/{game_id}", headers=_auth(key)).headers["ETag"]
    return client.post(f"/api/v1/games/{game_id}/hands", json=hand, headers={**_auth(key), "If-Match": etag})


def test_a_scorer_key_records_corrects_and_undoes_its_own_game_only(client: FlaskClient, players: list[int]) -> None:
    client.auto = False  # type: ignore[attr-defined]
    league_id, league_key, (game, other) = _league(client, players)
    r = client.post(f"/api/v1/games/{game}/scorer-key", headers=_auth(league_key))
    assert r.status_code == 201
    scorer = r.get_json()["key"]
    assert scorer != league_key and len(scorer) >= 32
    assert _write(client, game, scorer, by_counts("box", 4, 14)).status_code == 201
    etag = client.get(f"/api/v1/games/{game}").headers["ETag"]
    assert (
        client.put(
            f"/api/v1/games/{game}/hands/1", json=by_counts("box", 2, 14), headers={**_auth(scorer), "If-Match": etag}
        ).status_code
        == 200
    )
    assert client.get(f"/api/v1/games/{game}").get_json()["scores"][str(players[0])] == 12
    # nothing else: not another game of the league, not the league, not another scorer key
    problem(_write(client, other, scorer, DRAW), 403, FORBIDDEN)
    problem(
        client.post(f"/api/v1/leagues/{league_id}/members", json={"players": players}, headers=_auth(scorer)),
        403,
        FORBIDDEN,
    )
    problem(client.post(f"/api/v1/games/{game}/scorer-key", headers=_auth(scorer)), 403, FORBIDDEN)
    problem(
        client.post(
            "/api/v1/games",
            json={"players": players, "roles": seats(*players), "league_id": league_id},
            headers=_auth(scorer),
        ),
        403,
    )
    # the league's key still writes the game
    assert _write(client, game, league_key, DRAW).status_code == 201


def test_the_leagues_rotation_revokes_its_scorer_keys(client: FlaskClient, players: list[int]) -> None:
    client.auto = False  # type: ignore[attr-defined]
    league_id, league_key, (game, _) = _league(client, players)
    scorer = client.post(f"/api/v1/games/{game}/scorer-key", headers=_auth(league_key)).get_json()["key"]
    rotated = client.post(f"/api/v1/leagues/{league_id}/key", headers=_auth(league_key))
    assert rotated.status_code == 201
    problem(_write(client, game, scorer, DRAW), 401)
    assert _write(client, game, rotated.get_json()["key"], DRAW).status_code == 201


def test_a_scorer_key_reads_its_game_of_a_private_league_and_nothing_else(
    client: FlaskClient, players: list[int]
) -> None:
    client.auto = False  # type: ignore[attr-defined]
    league_id, league_key, (game, other) = _league(client, players, "private")
    scorer = client.post(f"/api/v1/games/{game}/scorer-key", headers=_auth(league_key)).get_json()["key"]
    assert client.get(f"/api/v1/games/{game}", headers=_auth(scorer)).status_code == 200
    problem(client.get(f"/api/v1/games/{other}", headers=_auth(scorer)), 404)
    problem(client.get(f"/api/v1/leagues/{league_id}", headers=_auth(scorer)), 404)
    problem(client.get(f"/api/v1/games/{game}"), 404)


def test_a_game_outside_a_league_has_no_scorer_key_but_its_own(client: FlaskClient, players: list[int]) -> None:
    r = client.post("/api/v1/games", json={"players": players, "roles": seats(*players)})
    game = r.get_json()
    body = problem(client.post(f"/api/v1/games/{game['id']}/scorer-key", headers=_auth(game["key"])), 409)
    assert "its own key" in body["detail"]


@pytest.mark.parametrize(
    ("listen", "lan", "expected"),
    [
        (None, "192.168.1.20", []),
        ("127.0.0.1:5000", "192.168.1.20", []),
        ("0.0.0.0:5000", "192.168.1.20", ["http://192.168.1.20:5000/"]),
        ("[::]:8000", "10.0.0.7", ["http://10.0.0.7:8000/"]),
        ("0.0.0.0:5000", None, []),
        ("192.168.1.30:8000", None, ["http://192.168.1.30:8000/"]),
    ],
)
def test_the_page_is_told_the_addresses_other_phones_can_open(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    listen: str | None,
    lan: str | None,
    expected: list[str],
) -> None:
    monkeypatch.setitem(app.config, "LISTEN", listen)
    monkeypatch.setattr(api.addresses, "lan_address", lambda: lan)
    r = client.get("/api/v1/addresses")
    assert r.status_code == 200
    assert r.get_json() == {"addresses": expected}


def test_configured_page_addresses_come_first_and_alone(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.config, "LISTEN", "0.0.0.0:5000")
    monkeypatch.setitem(app.config, "PAGE_ADDRESSES", ["https://gin.club.example/"])
    assert client.get("/api/v1/addresses").get_json() == {"addresses": ["https://gin.club.example/"]}
