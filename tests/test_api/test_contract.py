"""The contract, exact: conditional reads, strong If-Match, CORS for
browsers on other origins, export file names, one version string, and the
headers every write documents."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import yaml

from tests.test_api.conftest import by_counts, problem, seats

ROOT = Path(__file__).resolve().parent.parent.parent
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text())
WRITES = ("post", "put", "patch", "delete")


@pytest.fixture
def game(api, table) -> dict:
    g = api.new_game(table.ids, roles=seats(table.ann, table.bob, table.cy))
    api.record(g["id"], by_counts("box", 2, 12))
    return api.game(g["id"])


# --- conditional reads (RFC 9110 If-None-Match, compared weakly) ---


@pytest.mark.parametrize("path", ["/api/v1/games/{id}", "/api/v1/games/{id}/hands"])
def test_a_read_with_the_current_etag_is_304_with_no_body(api, game, path):
    url = path.format(id=game["id"])
    first = api.client.get(url)
    etag = first.headers["ETag"]
    assert etag == f'"g{game["id"]}v{game["version"]}"'
    for given in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = api.client.get(url, headers={"If-None-Match": given})
        assert again.status_code == 304, given
        assert again.get_data() == b"" and again.headers["ETag"] == etag and "Content-Type" not in again.headers
    stale = api.client.get(url, headers={"If-None-Match": f'"g{game["id"]}v1"'})
    assert stale.status_code == 200 and stale.get_json() == first.get_json()


def test_a_conditional_read_is_answered_by_its_guard_before_the_view(api, game, monkeypatch):
    """A game's 304 is its guard's: the view (here, the hands it would read) never runs."""
    from api import hands

    ran: list[int] = []

    def load_game(game_id, **kwargs):
        ran.append(game_id)
        return original(game_id, **kwargs)

    original = hands.load_game
    url = f"/api/v1/games/{game['id']}/hands"
    etag = api.client.get(url).headers["ETag"]
    monkeypatch.setattr(hands, "load_game", load_game)
    again = api.client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and ran == []
    for other in ('"other"', f'W/"g{game["id"]}v1"'):
        assert api.client.get(url, headers={"If-None-Match": other}).status_code == 200
    assert ran == [game["id"], game["id"]]


def test_only_a_games_read_answers_if_none_match_with_the_games_etag():
    from api.docs import keyed_read

    with pytest.raises(ValueError, match="only a game's read"):
        keyed_read(scope="league", conditional=True)


def test_a_304_turns_into_a_200_once_another_phone_records(api, game):
    url = f"/api/v1/games/{game['id']}"
    etag = api.client.get(url).headers["ETag"]
    api.record(game["id"], by_counts("captain", 3, 20))
    after = api.client.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.get_json()["hands_played"] == 2
    assert after.headers["ETag"] != etag


# --- strong If-Match ---


def test_a_weak_if_match_never_matches_and_star_matches_the_game_there(api, game):
    url = f"/api/v1/games/{game['id']}/hands"
    etag = api.client.get(f"/api/v1/games/{game['id']}").headers["ETag"]
    weak = api.client.post(url, json=by_counts("box", 1, 20), headers={"If-Match": f"W/{etag}"})
    details = problem(weak, 412, "https://ginref.org/problems/precondition-failed")
    assert details["game"] == api.game(game["id"])
    assert api.game(game["id"])["hands_played"] == 1
    star = api.client.post(url, json=by_counts("box", 1, 20), headers={"If-Match": "*"})
    assert star.status_code == 201 and star.get_json()["number"] == 2
    listed = api.client.post(url, json=by_counts("box", 1, 20), headers={"If-Match": f'"nope", {star.headers["ETag"]}'})
    assert listed.status_code == 201 and listed.get_json()["number"] == 3


# --- CORS ---


def test_a_preflight_from_another_origin_allows_the_headers_a_write_needs(api, game):
    r = api.client.options(
        f"/api/v1/games/{game['id']}/hands",
        headers={
            "Origin": "https://scores.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, if-match, idempotency-key, content-type",
        },
    )
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] in ("*", "https://scores.example")
    allowed = {h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "if-match", "idempotency-key", "content-type"} <= allowed
    assert "POST" in r.headers["Access-Control-Allow-Methods"]


def test_a_keyed_write_from_another_origin_exposes_etag_location_and_replay(api, game):
    r = api.client.post(
        f"/api/v1/games/{game['id']}/hands",
        json=by_counts("box", 1, 20),
        headers={"Origin": "https://scores.example", "Idempotency-Key": "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
    )
    assert r.status_code == 201
    assert r.headers["Access-Control-Allow-Origin"] in ("*", "https://scores.example")
    exposed = {h.strip().lower() for h in r.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "location", "retry-after", "idempotent-replayed"} <= exposed


def test_the_page_and_the_docs_are_not_opened_to_other_origins(api):
    r = api.client.get("/health", headers={"Origin": "https://scores.example"})
    assert "Access-Control-Allow-Origin" not in r.headers


# --- exports name their files ---


def test_exports_come_with_a_file_name(api, table):
    league = api.post("/leagues", {"name": "Club", "members": table.ids}).get_json()
    json_export = api.client.get(f"/api/v1/leagues/{league['id']}/export")
    assert json_export.headers["Content-Disposition"] == f'attachment; filename="league-{league["id"]}.json"'
    csv_export = api.client.get(f"/api/v1/leagues/{league['id']}/export.csv")
    assert csv_export.headers["Content-Disposition"] == f'attachment; filename="league-{league["id"]}.csv"'


# --- the spec ---


def test_the_spec_has_the_projects_one_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert SPEC["info"]["version"] == project


def test_every_write_documents_its_idempotency_key():
    for path, item in SPEC["paths"].items():
        for method in WRITES:
            if method in item:
                names = [p.get("name") for p in item[method].get("parameters", [])]
                assert "Idempotency-Key" in names, (method, path)


def test_the_cut_is_bounded_by_its_entries_not_a_string_length():
    cut = SPEC["components"]["schemas"]["GameIn"]["properties"]["cut"]
    # three cards for the three-handed game (R9), two under a two-player preset (R28)
    assert (cut.get("minProperties"), cut.get("maxProperties")) == (2, 3)
    assert "maxLength" not in cut


def test_a_game_in_a_league_is_created_without_a_key_of_its_own(api, table):
    league = api.post("/leagues", {"name": "Club", "members": table.ids}).get_json()
    created = api.client.post(
        "/api/v1/games",
        json={"players": table.ids, "roles": seats(*table.ids), "league_id": league["id"]},
        headers={"Authorization": f"Bearer {league['key']}"},
    )
    assert created.status_code == 201
    assert "key" not in created.get_json()  # written with the league's key
    alone = api.post("/games", {"players": table.ids, "roles": seats(*table.ids)}).get_json()
    assert alone["key"].startswith("grk_")


def test_every_write_documents_that_its_answer_may_be_a_replay():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    for path, item in spec["paths"].items():
        for method in WRITES:
            for status, response in item.get(method, {}).get("responses", {}).items():
                if str(status).startswith("2"):
                    assert "Idempotent-Replayed" in response.get("headers", {}), (method, path, status)
