"""A hostile client's edges: bodies that are not UTF-8 JSON, entity tags
that are not quoted, exports opened in a spreadsheet, lists of any length."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from models.transfer import csv_text
from tests.test_api.conftest import Api, Table, by_counts, problem, seats

MALFORMED = "https://ginref.org/problems/malformed-json"
NOT_UTF8 = "the request body is not UTF-8 JSON (RFC 8259): "
NAME = '{"name": "Zo\u00eb"}'


@pytest.fixture
def game(api: Api, table: Table) -> dict[str, Any]:
    g = api.new_game(table.ids, roles=seats(table.ann, table.bob, table.cy))
    api.record(g["id"], by_counts("box", 2, 12))
    return api.game(g["id"])


def players(client: FlaskClient) -> list[Any]:
    return list(client.get("/api/v1/players").get_json()["items"])


# --- bodies: UTF-8 JSON only (RFC 8259 section 8.1) ---


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\xef\xbb\xbf" + NAME.encode(), "it starts with a byte order mark (UTF-8)"),
        (b"\xff\xfe" + NAME.encode("utf-16-le"), "it starts with a byte order mark (UTF-16)"),
        (b"\xfe\xff" + NAME.encode("utf-16-be"), "it starts with a byte order mark (UTF-16)"),
        (NAME.encode("utf-32"), "it starts with a byte order mark (UTF-32)"),
        (b"\x00\x00\xfe\xff" + NAME.encode("utf-32-be"), "it starts with a byte order mark (UTF-32)"),
        (NAME.encode("utf-16-le"), "it holds NUL bytes, as UTF-16 and UTF-32 text does and JSON text never"),
        (NAME.encode("utf-16-be"), "it holds NUL bytes, as UTF-16 and UTF-32 text does and JSON text never"),
        (NAME.encode("utf-32-le"), "it holds NUL bytes, as UTF-16 and UTF-32 text does and JSON text never"),
        (NAME.encode("latin-1"), "byte 12 (0xeb) is not UTF-8"),
        (b'{"name": "Ann\xed\xa0\x80"}', "byte 13 (0xed) is not UTF-8"),  # a surrogate, encoded
    ],
    ids=[
        "utf-8 bom",
        "utf-16-le bom",
        "utf-16-be bom",
        "utf-32 bom",
        "utf-32-be bom",
        "utf-16-le",
        "utf-16-be",
        "utf-32-le",
        "latin-1",
        "cesu",
    ],
)
@pytest.mark.parametrize("path", ["/api/v1/players", "/api/v1/leagues/import"])
def test_a_body_that_is_not_utf8_json_is_a_400_naming_why(
    client: FlaskClient, data: bytes, why: str, path: str
) -> None:
    response = client.post(path, data=data, content_type="application/json")
    body = problem(response, 400, MALFORMED)
    assert body == {"type": MALFORMED, "title": "Bad Request", "status": 400, "detail": NOT_UTF8 + why}
    assert players(client) == []


def test_a_utf8_body_with_text_beyond_ascii_is_read(client: FlaskClient) -> None:
    response = client.post("/api/v1/players", data=NAME.encode(), content_type="application/json")
    assert response.status_code == 201
    assert response.get_json()["name"] == "Zo\u00eb"


# --- entity tags: quoted, in If-Match as in If-None-Match (RFC 9110 section 8.8.3) ---


def test_an_unquoted_if_match_is_no_entity_tag_and_matches_nothing(client: FlaskClient, game: dict[str, Any]) -> None:
    path = f"/api/v1/games/{game['id']}/hands"
    etag = client.get(f"/api/v1/games/{game['id']}").headers["ETag"]
    for header in (etag.strip('"'), f"W/{etag.strip(chr(34))}", f"{etag.strip(chr(34))}, x"):
        response = client.post(path, json=by_counts("box", 3, 20), headers={"If-Match": header})
        body = problem(response, 412, "https://ginref.org/problems/precondition-failed")
        assert body["detail"] == (
            f"the game's hands or rules have changed: its ETag is now {etag} (a weak W/ tag never matches; "
            "an entity tag is quoted, as the ETag header gives it)"
        )
        assert response.headers["ETag"] == etag
    assert len(client.get(path).get_json()["items"]) == 1
    response = client.post(path, json=by_counts("box", 3, 20), headers={"If-Match": f'"x", {etag}'})
    assert response.status_code == 201


def test_an_unquoted_if_none_match_is_no_entity_tag_and_matches_nothing(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    path = f"/api/v1/games/{game['id']}"
    etag = client.get(path).headers["ETag"]
    for header in (etag.strip('"'), f"W/{etag.strip(chr(34))}", f"{etag.strip(chr(34))}, x"):
        response = client.get(path, headers={"If-None-Match": header})
        assert response.status_code == 200 and response.get_json() == game
    for header in (etag, f"W/{etag}", f'"x", {etag}', "*"):
        assert client.get(path, headers={"If-None-Match": header}).status_code == 304


# --- the CSV export, opened in a spreadsheet ---

FORMULAS = ["=1+1", "+SUM(A1)", "-2+3"]


def test_a_csv_cell_of_text_that_a_spreadsheet_would_run_starts_with_a_quote(api: Api) -> None:
    """OWASP's CSV injection advice: a name starting with = + - @ (or a tab or
    a carriage return) gets a leading ', so that a spreadsheet shows it as
    text; numbers stay numbers, and the JSON export keeps the names exact."""
    ids = [api.player(name) for name in FORMULAS]
    league = api.post("/leagues", {"name": "@club", "members": ids}).get_json()
    g = api.new_game(ids, roles=seats(*ids), league_id=league["id"])
    api.record(g["id"], by_counts("box", 2, 12))  # R15: the box knocks with 2 against 12, and scores 10
    played_at = api.game(g["id"])["played_at"]
    response = api.client.get(f"/api/v1/leagues/{league['id']}/export.csv")
    assert response.status_code == 200
    header, row = response.get_data(as_text=True).splitlines()
    assert header.startswith("game_id,played_at,hand,mode,box_id,box,")
    a, b, c = ids
    assert row == f"{g['id']},{played_at},1,counts,{a},'=1+1,{b},'+SUM(A1),{c},'-2+3,box,knock,{a},'=1+1,10,10,0,0,true"
    exported = api.client.get(f"/api/v1/leagues/{league['id']}/export").get_json()
    assert [p["name"] for p in exported["players"]] == FORMULAS
    assert exported["league"]["name"] == "@club"


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ann = Bob", "Ann = Bob"),
        ("'quoted", "'quoted"),
        ("", ""),
    ],
)
def test_csv_text_neutralises_only_text_a_spreadsheet_reads_as_a_formula(text: str, cell: str) -> None:
    assert csv_text(text) == cell


# --- every list is paged: page (from 1) and per_page (1 to 100, 20 by default) ---

CLAIM = {
    "by": "captain",
    "claim": "the counts were wrong",
    "knocker_hand": {"cards": ["4H", "5H", "6H", "4S", "5S", "6S", "4D", "5D", "6D", "KC"]},
    "defender_hand": {"cards": ["AH", "2H", "3H", "7H", "8H", "9H", "2S", "3S", "7S", "8S"]},
}


def _ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.get_data(as_text=True)
    return [item["id"] if "id" in item else item["revision"] for item in response.get_json()["items"]]


def _page(response: Any) -> dict[str, int]:
    body = response.get_json()
    return {"total": body["total"], "page": body["page"], "per_page": body["per_page"]}


def test_a_games_disputes_come_in_pages_as_every_list_does(api: Api, game: dict[str, Any]) -> None:
    path = f"/api/v1/games/{game['id']}"
    api.record(game["id"], by_counts("box", 3, 20))
    opened = [api.post(f"/games/{game['id']}/hands/{1 + i % 2}/disputes", CLAIM).get_json()["id"] for i in range(23)]
    rejected = {"decision": "rejected", "reason": "the cards were mixed"}
    response = api.post(f"/games/{game['id']}/hands/2/disputes/{opened[1]}/resolution", rejected)
    assert response.status_code == 200
    first = api.client.get(f"{path}/disputes")
    assert _ids(first) == opened[:20] and _page(first) == {"total": 23, "page": 1, "per_page": 20}
    second = api.client.get(f"{path}/disputes?page=2")
    assert _ids(second) == opened[20:] and _page(second) == {"total": 23, "page": 2, "per_page": 20}
    assert _ids(api.client.get(f"{path}/disputes?page=3&per_page=10")) == opened[20:]
    assert _ids(api.client.get(f"{path}/disputes?page=4&per_page=10")) == []
    hand = api.client.get(f"{path}/hands/2/disputes?per_page=5&page=2")
    assert _ids(hand) == opened[11:20:2] and _page(hand) == {"total": 11, "page": 2, "per_page": 5}
    still_open = api.client.get(f"{path}/hands/2/disputes?status=open&per_page=100")
    assert _ids(still_open) == opened[3:23:2] and _page(still_open) == {"total": 10, "page": 1, "per_page": 100}
    for query, field in (("per_page=101", "per_page"), ("per_page=0", "per_page"), ("page=0", "page")):
        for listed in ("disputes", "hands/1/disputes", "hands/1/revisions"):
            body = problem(api.client.get(f"{path}/{listed}?{query}"), 422)
            assert list(body["errors"]) == [f"query.{field}"]


def test_a_hands_revisions_come_in_pages_as_every_list_does(api: Api, game: dict[str, Any]) -> None:
    path = f"/api/v1/games/{game['id']}/hands/1/revisions"
    for deadwood in range(3, 25):  # 22 corrections: 23 revisions
        api.correct(game["id"], 1, by_counts("box", 2, deadwood))
    first = api.client.get(path)
    assert _ids(first) == list(range(1, 21)) and _page(first) == {"total": 23, "page": 1, "per_page": 20}
    assert _ids(api.client.get(f"{path}?page=2")) == [21, 22, 23]
    assert _ids(api.client.get(f"{path}?page=3")) == []
    problem(api.client.get(f"/api/v1/games/{game['id']}/hands/2/revisions"), 404)
