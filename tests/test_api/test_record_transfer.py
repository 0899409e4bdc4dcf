"""Nothing is lost from the record through an export and an import (R26):
every revision of every hand (corrections with their reasons, an undone
hand and the hand recorded after it under its number) and every dispute
(upheld, rejected, open) go out with the league and come back, judged
again; an export of the format before them (1) still imports, each hand
recorded once; a record that the rules or the referee refute is a 422
naming it, and nothing is written."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from models import db
from tests.test_api.conftest import DRAW, KNOCK_6, KNOCK_10, UNDERCUT_20, Api, by_cards, by_counts

BASE = "/api/v1"
G = "games[0]"


def _cards_of(pair: tuple[str, str]) -> dict[str, Any]:
    hand = by_cards("box", *pair)
    return {"knocker_hand": hand["knocker_hand"], "defender_hand": hand["defender_hand"]}


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def build(api: Api) -> tuple[int, int, dict[str, int]]:
    """A league of one game whose hand 1 is corrected twice, hand 2 corrected by an
    upheld dispute, hand 3 undone and recorded again; hand 1's second dispute is
    rejected and hand 3's is open. Its id, the game's, and the players by name."""
    names = {n: api.player(n) for n in ("Ann", "Bob", "Cy")}
    ann, bob, cy = names.values()
    league = _ok(api.post("/leagues", {"name": "Thursday gin", "members": [ann, bob, cy]}), 201)
    game = api.new_game(
        [ann, bob, cy],
        league_id=league["id"],
        played_at="2024-03-07T19:00:00+00:00",
        roles={"box": ann, "captain": bob, "sitter": cy},
    )["id"]
    url = f"{BASE}/games/{game}"
    api.record(game, by_counts("box", 3, 20))  # 1: 17 to Ann, who stays in the box (R11)
    api.record(game, by_counts("box", 2, 9))  # 2: 7 to Ann
    api.record(game, DRAW)  # 3 (R12)
    api.correct(game, 1, {**by_counts("box", 4, 20), "reason": "the knocker had 4"})
    api.correct(game, 1, {"knocker": "box", **_cards_of(KNOCK_6), "reason": "the cards were kept"})
    assert api.client.delete(f"{url}/hands/3", query_string={"reason": "not a draw"}).status_code == 204
    api.record(game, by_counts("captain", 5, 30))  # 3 again: 25 to the captain
    upheld = _ok(
        api.post(f"/games/{game}/hands/2/disputes", {"by": "captain", "claim": "KC", **_cards_of(KNOCK_10)}), 201
    )
    _ok(api.post(f"/games/{game}/hands/2/disputes/{upheld['id']}/resolution", {"decision": "upheld", "reason": "yes"}))
    rejected = _ok(api.post(f"/games/{game}/hands/1/disputes", {"by": "sitter", "claim": "no layoff of 9H"}), 201)
    _ok(api.post(f"/games/{game}/hands/1/disputes/{rejected['id']}/resolution", {"decision": "rejected"}))
    body = {"by": "box", "claim": "he was undercut", "knocker": "box", **_cards_of(UNDERCUT_20)}
    _ok(api.post(f"/games/{game}/hands/3/disputes", body), 201)
    return league["id"], game, names


def export(api: Api, league_id: int) -> dict[str, Any]:
    return dict(_ok(api.client.get(f"{BASE}/leagues/{league_id}/export")))


def post_import(api: Api, doc: dict[str, Any], players: dict[str, int] | None = None) -> Any:
    query = {} if players is None else {"players": json.dumps(players)}
    return api.client.post(
        f"{BASE}/leagues/import", data=json.dumps(doc), content_type="application/json", query_string=query
    )


def onto_themselves(doc: dict[str, Any]) -> dict[str, int]:
    """The ``players`` mapping that imports the document onto its own players."""
    return {str(p["id"]): p["id"] for p in doc["players"]}


def row_counts(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            t.name: int(db.session.scalar(select(func.count()).select_from(t)) or 0) for t in db.metadata.sorted_tables
        }


def apart_from_ids(doc: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["league"]["id"] = None
    for g in out["games"]:
        g["id"] = None
    return out


def test_r26_revisions_undone_hands_and_disputes_round_trip_apart_from_ids(api: Api) -> None:
    league_id, game_id, names = build(api)
    doc = export(api, league_id)
    assert doc["format_version"] == 2
    (game,) = doc["games"]
    assert [(r["number"], r["revision"], r["action"], r["reason"], r["dispute"]) for r in game["revisions"]] == [
        (1, 1, "recorded", None, None),
        (1, 2, "corrected", "the knocker had 4", None),
        (1, 3, "corrected", "the cards were kept", None),
        (2, 1, "recorded", None, None),
        (2, 2, "corrected", "yes", 1),  # the upheld dispute's id in the document
        (3, 1, "recorded", None, None),
        (3, 2, "undone", "not a draw", None),
        (3, 3, "recorded", None, None),
    ]
    assert not any("key_id" in r for r in game["revisions"])  # a key id is this server's own
    assert [(d["id"], d["number"], d["status"], d["reason"]) for d in game["disputes"]] == [
        (1, 2, "upheld", "yes"),
        (2, 1, "rejected", None),
        (3, 3, "open", None),
    ]
    assert game["disputes"][0]["differences"] == [{"field": "points", "recorded": 7, "disputed": 10}]
    assert not any(k.endswith("key_id") for d in game["disputes"] for k in d)

    before = row_counts(api.client.application)
    imported = _ok(post_import(api, doc, onto_themselves(doc)), 201)
    after = row_counts(api.client.application)
    assert (after["hand_revision"] - before["hand_revision"], after["dispute"] - before["dispute"]) == (8, 3)
    doc2 = export(api, imported["id"])
    assert apart_from_ids(doc2) == apart_from_ids(doc)
    assert (
        export(api, _ok(post_import(api, doc2, onto_themselves(doc2)), 201)["id"])["games"][0]["revisions"]
        == (game["revisions"])
    )

    # The imported game's revisions and disputes read as the original's, apart from ids and key ids.
    new_id = doc2["games"][0]["id"]

    def disputes(gid: int) -> list[dict[str, Any]]:
        items = _ok(api.client.get(f"{BASE}/games/{gid}/disputes"))["items"]
        return [{**d, "id": None, "game_id": None, "opened_key_id": None, "resolved_key_id": None} for d in items]

    def revisions(gid: int, number: int) -> list[dict[str, Any]]:
        items = _ok(api.client.get(f"{BASE}/games/{gid}/hands/{number}/revisions"))["items"]
        return [{**r, "key_id": None, "dispute_id": r["dispute_id"] is not None} for r in items]

    assert disputes(new_id) == disputes(game_id) and len(disputes(new_id)) == 3
    for number in (1, 2, 3):
        assert revisions(new_id, number) == revisions(game_id, number)
    assert all(r["key_id"] is None for r in _ok(api.client.get(f"{BASE}/games/{new_id}/hands/1/revisions"))["items"])
    upheld = _ok(api.client.get(f"{BASE}/games/{new_id}/disputes", query_string={"status": "upheld"}))["items"][0]
    assert _ok(api.client.get(f"{BASE}/games/{new_id}/hands/2/revisions"))["items"][1]["dispute_id"] == upheld["id"]
    assert sorted(imported["members"]) == sorted(names.values())


def old_export(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as format 1 had it: no revisions, no disputes."""
    out = copy.deepcopy(doc)
    out["format_version"] = 1
    for g in out["games"]:
        del g["revisions"], g["disputes"]
    return out


def test_r26_an_export_of_format_1_imports_each_hand_recorded_once(api: Api) -> None:
    league_id, _, _ = build(api)
    doc = export(api, league_id)
    imported = _ok(post_import(api, old_export(doc)), 201)
    doc2 = export(api, imported["id"])
    (game,) = doc2["games"]
    assert game["disputes"] == []
    assert [(r["number"], r["revision"], r["action"], r["reason"], r["dispute"]) for r in game["revisions"]] == [
        (n, 1, "recorded", None, None) for n in (1, 2, 3)
    ]
    for hand, revision in zip(game["hands"], game["revisions"], strict=True):
        assert (revision["input"], revision["ruling"], revision["seating"]) == (
            hand["input"],
            hand["ruling"],
            hand["seating"],
        )
        assert revision["made_at"] == hand["recorded_at"]
    assert {k: v for k, v in game.items() if k not in ("id", "players", "first_roles", "scores", "hands")} == {
        **{k: v for k, v in doc["games"][0].items() if k not in ("id", "players", "first_roles", "scores", "hands")},
        "revisions": game["revisions"],
        "disputes": [],
    }


def test_a_document_of_format_1_with_revisions_is_a_422_naming_them(api: Api) -> None:
    league_id, _, _ = build(api)
    doc = export(api, league_id)
    doc["format_version"] = 1
    before = row_counts(api.client.application)
    response = post_import(api, doc)
    assert response.status_code == 422, response.get_data(as_text=True)
    assert set(response.get_json()["errors"]) == {f"{G}.revisions", f"{G}.disputes"}
    assert row_counts(api.client.application) == before


def _set(path: str, value: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        *head, last = path.replace("]", "").replace("[", ".").split(".")
        for step in head:
            node = node[int(step)] if isinstance(node, list) else node[step]
        node[int(last) if isinstance(node, list) else last] = value(node[int(last) if isinstance(node, list) else last])

    return change


def _last_is_an_earlier_version(doc: dict[str, Any]) -> None:
    """Hand 1's last revision made its second (a sound version, but not the hand that stands)."""
    revisions = doc["games"][0]["revisions"]
    revisions[2] = {**revisions[1], "revision": 3}


R, D = f"{G}.revisions", f"{G}.disputes"


def _swapped(s: dict[str, int]) -> dict[str, int]:
    return {"box": s["captain"], "captain": s["box"], "sitter": s["sitter"]}


TAMPERED = [
    # (what, the change, the field named, the rule cited)
    ("a revision's ruling is not its input's", _set(f"{R}[0].ruling.points", lambda n: n + 1), f"{R}[0].ruling", None),
    ("hand 1's revisions with a gap", _set(f"{R}[1].revision", lambda n: 3), f"{R}[1].revision", None),
    ("a hand number's revisions skipped", _set(f"{R}[5].number", lambda n: 4), f"{R}[5].number", None),
    ("a correction first", _set(f"{R}[0].action", lambda a: "corrected"), f"{R}[0].action", "R26"),
    ("a correction after an undo", _set(f"{R}[7].action", lambda a: "corrected"), f"{R}[7].action", "R26"),
    ("a standing hand's last revision undone", _set(f"{R}[2].action", lambda a: "undone"), f"{R}[2].action", None),
    ("the last revision is not the hand that stands", _last_is_an_earlier_version, f"{R}[2].input", "R26"),
    ("a correction seated otherwise", _set(f"{R}[1].seating", _swapped), f"{R}[1].seating", "R26"),
    ("a dispute of a hand the game does not have", _set(f"{D}[2].number", lambda n: 9), f"{D}[2].number", None),
    ("a dispute's ruling is not its cards'", _set(f"{D}[0].ruling.points", lambda n: n + 1), f"{D}[0].ruling", None),
    (
        "a dispute's differences are not its rulings'",
        _set(f"{D}[0].differences", lambda d: []),
        f"{D}[0].differences",
        None,
    ),
    ("an upheld dispute no correction names", _set(f"{R}[4].dispute", lambda d: None), f"{D}[0].status", "R26"),
    ("a revision naming a rejected dispute", _set(f"{R}[4].dispute", lambda d: 2), f"{R}[4].dispute", "R26"),
    ("a revision naming no dispute of the game", _set(f"{R}[4].dispute", lambda d: 7), f"{R}[4].dispute", None),
    (
        "an open dispute resolved",
        _set(f"{D}[2].resolved_at", lambda d: "2030-01-01T00:00:00Z"),
        f"{D}[2].resolved_at",
        None,
    ),
    (
        "a dispute's recorded result of no version",
        _set(f"{D}[0].recorded.points", lambda n: 99),
        f"{D}[0].recorded",
        None,
    ),
    (
        "a revision's input not a hand",
        _set(f"{R}[0].input.knocker_deadwood_count", str),
        f"{R}[0].input.knocker_deadwood_count",
        None,
    ),
    ("a dispute's input not a hand", _set(f"{D}[0].input.knocker", lambda k: "sitter"), f"{D}[0].input.knocker", None),
    ("a revision with a key id", _set(f"{R}[0]", lambda r: {**r, "key_id": 3}), f"{R}[0].key_id", None),
    ("scores of a player not in the game", _set(f"{R}[0].scores", lambda s: {**s, "999": 0}), f"{R}[0].scores", None),
    # the game's history, in the order the revisions were made (made_at), gives every revision's scores
    (
        "a revision's game scores not the history's",
        _set(f"{R}[0].game_scores", lambda s: {k: 999 for k in s}),
        f"{R}[0].game_scores",
        "R26",
    ),
    (
        "a revision's hand scores not the history's",
        _set(f"{R}[3].scores", lambda s: {k: v + 1 for k, v in s.items()}),
        f"{R}[3].scores",
        "R26",
    ),
    (
        "a correction made before its hand",
        _set(f"{R}[1].made_at", lambda t: "2000-01-01T00:00:00Z"),
        f"{R}[1].made_at",
        "R26",
    ),
    (
        "a hand recorded before the hand before it",
        _set(f"{R}[3].made_at", lambda t: "2000-01-01T00:00:00Z"),
        f"{R}[3].made_at",
        "R26",
    ),
    (
        "an undo made after the hand recorded again under its number",
        _set(f"{R}[6].made_at", lambda t: "2100-01-01T00:00:00Z"),
        f"{R}[7].made_at",
        "R26",
    ),
]


@pytest.mark.parametrize(("what", "change", "field", "rule"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_r26_a_tampered_record_is_a_422_naming_it_and_writes_nothing(
    api: Api, what: str, change: Any, field: str, rule: str | None
) -> None:
    league_id, _, _ = build(api)
    doc = export(api, league_id)
    change(doc)
    before = row_counts(api.client.application)
    response = post_import(api, doc)
    assert response.status_code == 422, response.get_data(as_text=True)
    body = response.get_json()
    assert field in body["errors"] and body["detail"].startswith(f"{field}"), body
    assert body.get("rule") == rule
    assert row_counts(api.client.application) == before
