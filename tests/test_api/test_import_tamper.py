"""An import is judged again before anything is written (R3, R8, R9, R11, R14,
R18, R20-R26): each hand's ruling is re-derived from its input by the referee
and must equal the stored one exactly; the cut, seatings, scores, status and
winner must follow from the rules; anything else is refused with a 422 naming
the field, and nothing is written.

The source league is built through the API once per backend and exported:
hands by cards with declared melds, layoffs and a discard, by cards with
nothing declared, by counts (R25), a draw (R12), a corrected hand whose next
hand is then out of turn (R26), a finished game (R20) and a game not yet
begun. The tamper suite changes one field of that export at a time: each
change is refused (422, the field named, every table's row count unchanged),
harmless (the import's export equals the original apart from ids: ids are
remapped, spellings made canonical), or kept (a value no rule can refute,
such as when a hand was recorded: the import's export equals the changed
document apart from ids).
"""

from __future__ import annotations

import copy
import gc
import json
import re
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select

import api.leagues as league_views
import services
from models import database, db, transfer
from schemas.transfer import GameReader
from tests.test_api.conftest import (
    DRAW,
    GIN_34,
    KNOCK_6,
    PROBLEM_JSON,
    RULES_TYPE,
    UNDERCUT_20,
    Api,
    by_cards,
    by_counts,
    cards,
    melds,
)

BASE = "/api/v1"
INVALID = "https://ginref.org/problems/invalid-content"
G1, G2, G3 = "games[0]", "games[1]", "games[2]"  # the long game, the finished game, the game not begun
H = [f"{G1}.hands[{i}]" for i in range(5)]  # the long game's hands
F1, F2 = f"{G2}.hands[0]", f"{G2}.hands[1]"  # the finished game's hands
NAMES = ("Ann", "Bob", "Cy", "Dee")


# --- the source league, built through the API -------------------------------------------------------------


def _empty(app: Flask) -> None:
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def build_source(api: Api) -> dict[str, Any]:
    """The league described in the module's docstring, exported."""
    ann, bob, cy, dee = (api.player(n) for n in NAMES)
    league = api.post("/leagues", {"name": "Gin du jeudi", "members": [ann, bob, cy, dee]}).get_json()
    # The long game: a cut (R9: KH > 7D > 2S seats Ann in the box, Bob captain, Cy out).
    long = api.new_game(
        [ann, bob, cy],
        league_id=league["id"],
        played_at="2024-03-07T19:00:00+00:00",
        cut={str(ann): "KH", str(bob): "7D", str(cy): "2S"},
    )["id"]
    # 1. Ann (box) knocks with declared melds; Bob lays 8H off (spelled 8h) onto meld 0, not 9H after
    #    it (R23); the discard KD is kept (R21): 16 - 1 = 15 to Ann. Box won: Cy is captain.
    api.record(
        long,
        by_cards(
            "box",
            *KNOCK_6,
            knocker_melds=melds("5H 6H 7H | 2S 2D 2C | JS JD JC"),
            layoffs=[{"card": "8h", "meld": 0}],
            discard="KD",
        ),
    )
    # 2. Cy (captain) goes gin, nothing declared (R18, R24): 9 + 25 = 34. Cy in the box, Bob captain.
    api.record(long, by_cards("captain", *GIN_34))
    # 3. By counts, Cy (box) 3 against 20 (R25); corrected below.
    api.record(long, by_counts("box", 3, 20))
    # 4. A draw (R12): the roles stay.
    api.record(long, DRAW)
    # 5. Ann (captain) declares three runs where gin was there (R22, "better"), and Cy declares no melds.
    api.record(
        long, by_cards("captain", *GIN_34, knocker_melds=melds("AS 2S 3S | 4S 5S 6S | 7S 8S 9S"), defender_melds=[])
    )
    # Hand 3 corrected to an undercut (8 against 5, R17): Bob would have been in the box for hand 4,
    # which stands as played, out of turn (R26).
    api.correct(long, 3, by_counts("box", 8, 5))
    # The finished game (R20, target 30): Bob undercuts Ann for 20, then knocks for 12.
    short = api.new_game(
        [ann, bob, cy],
        league_id=league["id"],
        played_at="2024-03-14T19:00:00+00:00",
        roles={"box": ann, "captain": bob, "sitter": cy},
        rules={"target_score": 30},
    )["id"]
    api.record(short, by_cards("box", *UNDERCUT_20))
    api.record(short, by_counts("box", 2, 14))
    # A game not yet begun.
    api.new_game(
        [ann, bob, dee],
        league_id=league["id"],
        played_at="2024-03-21T19:00:00+00:00",
        cut={str(ann): "10C", str(bob): "JH", str(dee): "AS"},
    )
    response = api.client.get(f"{BASE}/leagues/{league['id']}/export")
    assert response.status_code == 200
    doc: dict[str, Any] = response.get_json()
    assert [g["status"] for g in doc["games"]] == ["in_progress", "finished", "in_progress"]
    assert [h["mode"] for g in doc["games"] for h in g["hands"]] == [
        "cards",
        "cards",
        "counts",
        "draw",
        "cards",
        "cards",
        "counts",
    ]
    assert api.game(long)["out_of_turn"] == [4]
    return doc


@pytest.fixture(scope="module")
def source(app: Flask) -> dict[str, Any]:
    doc = build_source(Api(app.test_client()))
    _empty(app)
    return doc


@pytest.fixture
def doc(source: dict[str, Any], client: FlaskClient) -> dict[str, Any]:
    return copy.deepcopy(source)


def ids_of(doc: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["id"] for p in doc["players"]}


# --- importing, and what it leaves ------------------------------------------------------------------------


def row_counts(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            t.name: int(db.session.scalar(select(func.count()).select_from(t)) or 0) for t in db.metadata.sorted_tables
        }


def post_import(api: Api, doc: Any) -> Any:
    return api.client.post(f"{BASE}/leagues/import", data=json.dumps(doc), content_type="application/json")


def remap(doc: dict[str, Any], exported: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with the ids ``exported`` gave its league, players (by name) and games (in order)."""
    out: dict[str, Any] = copy.deepcopy(doc)
    names = ids_of(exported)
    players = {p["id"]: names[p["name"]] for p in doc["players"]}
    out["league"]["id"] = exported["league"]["id"]
    for p in out["players"]:
        p["id"] = players[p["id"]]
    for g, new in zip(out["games"], exported["games"], strict=True):
        g["id"] = new["id"]
        g["players"] = [players[p] for p in g["players"]]
        g["first_roles"] = {k: players[v] for k, v in g["first_roles"].items()}
        if g["cut"] is not None:
            g["cut"] = {str(players[int(k)]): v for k, v in g["cut"].items()}
        g["scores"] = {str(players[int(k)]): v for k, v in g["scores"].items()}
        if g["winner"] is not None:
            g["winner"] = players[g["winner"]]
        for h in g["hands"]:
            h["seating"] = {k: players[v] for k, v in h["seating"].items()}
        for r in g.get("revisions", []):
            r["seating"] = {k: players[v] for k, v in r["seating"].items()}
            r["scores"] = {str(players[int(k)]): v for k, v in r["scores"].items()}
            r["game_scores"] = {str(players[int(k)]): v for k, v in r["game_scores"].items()}
    return out


def import_and_export(api: Api, doc: dict[str, Any]) -> dict[str, Any]:
    response = post_import(api, doc)
    assert response.status_code == 201, response.get_data(as_text=True)
    exported = api.client.get(f"{BASE}/leagues/{response.get_json()['id']}/export")
    assert exported.status_code == 200
    return dict(exported.get_json())


def refuse(api: Api, doc: Any, field: str, *also: str, rule: str | None = None, exact: bool = True) -> dict[str, Any]:
    """Assert a 422 naming ``field`` (and ``also``), with nothing written; ``exact``: no other field named."""
    before = row_counts(api.client.application)
    response = post_import(api, doc)
    assert response.status_code == 422, response.get_data(as_text=True)[:2000]
    assert response.mimetype == PROBLEM_JSON
    body = response.get_json()
    assert body["status"] == 422 and body["detail"]
    errors = body["errors"]
    assert field in errors and all(f in errors for f in also), errors
    if exact:
        assert set(errors) == {field, *also}, errors
    else:
        assert all(f == field or f.startswith(field + ".") or f.startswith(field + "[") for f in errors), errors
    if rule is not None:
        assert body["rule"] == rule, body
        if body["type"] != INVALID:
            assert body["type"] == RULES_TYPE + rule, body
    else:
        assert body["type"] == INVALID, body
    assert row_counts(api.client.application) == before
    return dict(body)


# --- paths into the document --------------------------------------------------------------------------------


def _steps(path: str) -> list[str | int]:
    return [int(s) if s.isdigit() else s for s in re.findall(r"[^.\[\]]+", path)]


def _parent(doc: Any, path: str) -> tuple[Any, str | int]:
    *head, last = _steps(path)
    node = doc
    for step in head:
        node = node[str(step) if isinstance(node, dict) else step]
    return node, (str(last) if isinstance(node, dict) else last)


def get(doc: Any, path: str) -> Any:
    node, key = _parent(doc, path)
    return node[key]


Change = Callable[[dict[str, Any]], None]


def put(path: str, value: Any) -> Change:
    def change(doc: dict[str, Any]) -> None:
        node, key = _parent(doc, path)
        node[key] = copy.deepcopy(value)

    return change


def drop(path: str) -> Change:
    def change(doc: dict[str, Any]) -> None:
        node, key = _parent(doc, path)
        del node[key]

    return change


def both(*changes: Change) -> Change:
    """Several changes at once (a hand and its last revision, say)."""

    def change(doc: dict[str, Any]) -> None:
        for c in changes:
            c(doc)

    return change


def edit(path: str, how: Callable[[Any], Any]) -> Change:
    def change(doc: dict[str, Any]) -> None:
        node, key = _parent(doc, path)
        node[key] = how(node[key])

    return change


def player(name: str) -> Callable[[dict[str, Any]], int]:
    return lambda doc: ids_of(doc)[name]


def with_ids(path: str, how: Callable[[Any, dict[str, int]], Any]) -> Change:
    """Change a value knowing the document's player ids by name."""

    def change(doc: dict[str, Any]) -> None:
        node, key = _parent(doc, path)
        node[key] = how(node[key], ids_of(doc))

    return change


def cut_by(ids: dict[str, int], **cards: str) -> dict[str, str]:
    """A cut keyed by the players' ids, given by name."""
    return {str(ids[name]): card for name, card in cards.items()}


def put_players(path: str, **roles: str) -> Change:
    """Set a seating (or first_roles) by the players' names."""

    def change(doc: dict[str, Any]) -> None:
        node, key = _parent(doc, path)
        node[key] = {role: ids_of(doc)[name] for role, name in roles.items()}

    return change


# --- outcomes -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refused:
    field: str
    also: tuple[str, ...] = ()
    rule: str | None = None
    exact: bool = True


HARMLESS = "harmless"  # the import's export is the original document, apart from ids
KEPT = "kept"  # the import's export is the changed document, apart from ids


@dataclass(frozen=True)
class Case:
    name: str
    change: Change
    outcome: Refused | str | Change  # a Change: the export is the original with that change


def refused_ruling(hand: str, *paths: str) -> Refused:
    """A ruling that is not the referee's: the ruling named, and each difference at its path."""
    return Refused(f"{hand}.ruling", tuple(f"{hand}.ruling{p}" for p in paths), exact=bool(paths))


# --- every field of a hand ---------------------------------------------------------------------------------


def hand_field_cases() -> Iterator[Case]:
    h = H[1]  # Cy's gin by cards, nothing declared; neither first nor after a correction
    yield Case("number: the next number", put(f"{h}.number", 3), Refused(f"{h}.number"))
    yield Case("number: a string", put(f"{h}.number", "2"), Refused(f"{h}.number"))
    yield Case("number: zero", put(f"{h}.number", 0), Refused(f"{h}.number"))
    yield Case("number: missing", drop(f"{h}.number"), Refused(f"{h}.number"))
    yield Case("mode: counts for cards", put(f"{h}.mode", "counts"), Refused(f"{h}.mode"))
    yield Case("mode: draw for counts", put(f"{H[2]}.mode", "draw"), Refused(f"{H[2]}.mode"))
    yield Case("mode: cards for a draw", put(f"{H[3]}.mode", "cards"), Refused(f"{H[3]}.mode"))
    yield Case("mode: unknown", put(f"{h}.mode", "gin"), Refused(f"{h}.mode"))
    yield Case("mode: missing", drop(f"{h}.mode"), Refused(f"{h}.mode"))
    yield Case(
        "seating: box and captain swapped (R11, R26)",
        put_players(f"{h}.seating", box="Bob", captain="Cy", sitter="Ann"),
        Refused(f"{h}.seating", rule="R26"),
    )
    yield Case(
        "seating: the first hand not in first_roles (R9)",
        put_players(f"{H[0]}.seating", box="Bob", captain="Ann", sitter="Cy"),
        Refused(f"{H[0]}.seating", rule="R9"),
    )
    yield Case(
        "seating: a player of another game (R8)",
        put_players(f"{h}.seating", box="Cy", captain="Bob", sitter="Dee"),
        Refused(f"{h}.seating", rule="R8"),
    )
    yield Case(
        "seating: one player twice (R8)",
        put_players(f"{h}.seating", box="Cy", captain="Cy", sitter="Ann"),
        Refused(f"{h}.seating", rule="R8"),
    )
    yield Case("seating.box: a string", edit(f"{h}.seating.box", str), Refused(f"{h}.seating.box"))
    yield Case("seating.sitter: missing", drop(f"{h}.seating.sitter"), Refused(f"{h}.seating.sitter"))
    yield Case("seating: an extra member", put(f"{h}.seating.dealer", 1), Refused(f"{h}.seating.dealer"))
    # Hand 4 sits out of turn after hand 3's correction; seated as R11 would seat it, hand 5 is then
    # out of turn after a hand that was not corrected.
    yield Case(
        "seating: the out-of-turn hand seated in turn",
        put_players(f"{H[3]}.seating", box="Bob", captain="Ann", sitter="Cy"),
        Refused(f"{H[4]}.seating", rule="R26"),
    )
    yield Case("knocker: the other role", put(f"{h}.knocker", "box"), Refused(f"{h}.knocker"))
    yield Case("knocker: none for a knock", put(f"{h}.knocker", None), Refused(f"{h}.knocker"))
    yield Case("knocker: the sitter (R8)", put(f"{h}.knocker", "sitter"), Refused(f"{h}.knocker"))
    yield Case("knocker: one for a draw", put(f"{H[3]}.knocker", "box"), Refused(f"{H[3]}.knocker"))
    yield Case("knocker: missing", drop(f"{h}.knocker"), Refused(f"{h}.knocker"))
    yield Case("recorded_at: a day earlier", edit(f"{h}.recorded_at", lambda t: "2024-03-06" + t[10:]), KEPT)
    yield Case("recorded_at: the same instant at another offset", edit(f"{h}.recorded_at", _at_minus_five), HARMLESS)
    yield Case("recorded_at: not a date-time", put(f"{h}.recorded_at", "yesterday"), Refused(f"{h}.recorded_at"))
    yield Case(
        "recorded_at: past year 9999 in UTC",
        put(f"{h}.recorded_at", "9999-12-31T23:00:00-05:00"),
        Refused(f"{h}.recorded_at"),
    )
    yield Case("recorded_at: null", put(f"{h}.recorded_at", None), Refused(f"{h}.recorded_at"))
    yield Case("recorded_at: missing", drop(f"{h}.recorded_at"), Refused(f"{h}.recorded_at"))
    yield Case(
        "recorded_at: after the correction",
        edit(f"{H[2]}.recorded_at", lambda t: "2999" + t[4:]),
        Refused(f"{H[2]}.corrected_at"),
    )
    yield Case(
        "corrected_at: a correction after the hand",
        edit(f"{h}.corrected_at", lambda _: "2999-01-01T00:00:00+00:00"),
        KEPT,
    )
    yield Case(
        "corrected_at: before the hand was recorded",
        put(f"{h}.corrected_at", "2001-01-01T00:00:00+00:00"),
        Refused(f"{h}.corrected_at"),
    )
    yield Case("corrected_at: not a date-time", put(f"{h}.corrected_at", "later"), Refused(f"{h}.corrected_at"))
    yield Case(
        "corrected_at: past year 9999 in UTC",
        put(f"{H[2]}.corrected_at", "9999-12-31T23:00:00-05:00"),
        Refused(f"{H[2]}.corrected_at"),
    )
    yield Case(
        "corrected_at: the corrected hand's correction removed (R26)",
        put(f"{H[2]}.corrected_at", None),
        Refused(f"{H[3]}.seating", rule="R26"),
    )
    yield Case("corrected_at: missing", drop(f"{h}.corrected_at"), Refused(f"{h}.corrected_at"))
    yield Case("hand: an extra member", put(f"{h}.note", "x"), Refused(f"{h}.note"))
    yield Case("hand: null", put(h, None), Refused(h))
    yield Case("ruling: missing", drop(f"{h}.ruling"), Refused(f"{h}.ruling"))
    yield Case("input: missing", drop(f"{h}.input"), Refused(f"{h}.input"))
    yield Case("input: null", put(f"{h}.input", None), Refused(f"{h}.input"))


def _at_minus_five(stamp: str) -> str:
    from datetime import datetime, timedelta, timezone

    return datetime.fromisoformat(stamp).astimezone(timezone(timedelta(hours=-5))).isoformat()


def input_cases() -> Iterator[Case]:
    i = f"{H[0]}.input"  # declared melds, a declared layoff, a discard
    yield Case("input.knocker: the other role", put(f"{i}.knocker", "captain"), Refused(f"{H[0]}.knocker"))
    yield Case("input.knocker: missing", drop(f"{i}.knocker"), Refused(f"{i}.knocker"))
    yield Case("input: a card in lower case (R3)", put(f"{i}.knocker_hand.cards[9]", "as"), HARMLESS)
    yield Case("input: a card with a suit symbol (R3)", put(f"{i}.defender_hand.cards[9]", " 4♣️ "), HARMLESS)
    yield Case("input: a layoff's card in lower case (R3)", put(f"{i}.defender_hand.layoffs[0].card", "8h"), HARMLESS)
    yield Case("input: the discard in lower case (R3)", put(f"{i}.knocker_hand.discard", "kd"), HARMLESS)
    yield Case("input: not a card (R3)", put(f"{i}.knocker_hand.cards[9]", "1X"), Refused(f"{i}.knocker_hand.cards[9]"))
    yield Case(
        "input: a defender's card in the knocker's hand (R21)",
        put(f"{i}.knocker_hand.cards[9]", "8H"),
        Refused(f"{i}.defender_hand.cards[0]", rule="R21"),
    )
    yield Case(
        "input: nine cards (R21)",
        edit(f"{i}.knocker_hand.cards", lambda c: c[:9]),
        Refused(f"{i}.knocker_hand.cards", rule="R21"),
    )
    yield Case(
        "input: the discard is in the hand (R21)",
        put(f"{i}.knocker_hand.discard", "AS"),
        Refused(f"{i}.knocker_hand.discard", rule="R21"),
    )
    yield Case(
        "input: another card for the deadwood",
        put(f"{i}.knocker_hand.cards[9]", "QS"),
        refused_ruling(H[0], ".knocker.deadwood[0]", ".knocker.deadwood_count", ".points"),
    )
    r = f"{G1}.revisions[0].input"  # hand 1's one revision, which is the hand (R26)
    yield Case(
        "input: no discard", both(put(f"{i}.knocker_hand.discard", None), put(f"{r}.knocker_hand.discard", None)), KEPT
    )
    yield Case(
        "input: no discard in the hand, its revision's kept (R26)",
        put(f"{i}.knocker_hand.discard", None),
        Refused(r, rule="R26"),
    )
    yield Case(
        "input: the discard not given",
        both(drop(f"{i}.knocker_hand.discard"), drop(f"{r}.knocker_hand.discard")),
        both(put(f"{i}.knocker_hand.discard", None), put(f"{r}.knocker_hand.discard", None)),
    )  # stored as given: null
    yield Case("input: the defender's melds not given", drop(f"{i}.defender_hand.melds"), HARMLESS)  # null
    yield Case(
        "input: the knocker's melds undeclared (R23)",
        put(f"{i}.knocker_hand.melds", None),
        Refused(f"{i}.defender_hand.layoffs", rule="R23"),
    )
    yield Case(
        "input: a meld of two cards (R5)",
        edit(f"{i}.knocker_hand.melds[0]", lambda m: m[:2]),
        Refused(f"{i}.knocker_hand.melds[0]", rule="R5"),
    )
    yield Case(
        "input: melds declared in another order (R23)",
        edit(f"{i}.knocker_hand.melds", lambda m: m[::-1]),
        Refused(f"{i}.defender_hand.layoffs[0]", rule="R23"),
    )
    yield Case(
        "input: the layoff onto another meld (R23)",
        put(f"{i}.defender_hand.layoffs[0].meld", 1),
        Refused(f"{i}.defender_hand.layoffs[0]", rule="R23"),
    )
    yield Case("input: layoffs undeclared (R24)", put(f"{i}.defender_hand.layoffs", None), refused_ruling(H[0]))
    yield Case(
        "input: the defender's melds declared empty (R22)", put(f"{i}.defender_hand.melds", []), refused_ruling(H[0])
    )
    yield Case(
        "input: an extra member of a hand", put(f"{i}.knocker_hand.note", "x"), Refused(f"{i}.knocker_hand.note")
    )
    yield Case("input: an extra member", put(f"{i}.note", "x"), Refused(f"{i}.note"))
    yield Case("input: a draw's for a knock", put(i, {"outcome": "draw"}), Refused(f"{H[0]}.mode"))
    c = f"{H[2]}.input"  # counts: 8 against 5, the corrected hand
    yield Case(
        "input: counts over the knock limit (R25)",
        put(f"{c}.knocker_deadwood_count", 11),
        Refused(f"{c}.knocker_deadwood_count", rule="R25"),
    )
    yield Case(
        "input: a negative count (R25)",
        put(f"{c}.knocker_deadwood_count", -1),
        Refused(f"{c}.knocker_deadwood_count", rule="R25"),
    )
    yield Case(
        "input: the defender over 100 (R25)",
        put(f"{c}.defender_deadwood_count", 101),
        Refused(f"{c}.defender_deadwood_count", rule="R25"),
    )
    yield Case(
        "input: another count",
        put(f"{c}.knocker_deadwood_count", 9),
        refused_ruling(H[2], ".points", ".knocker.deadwood_count"),
    )
    yield Case(
        "input: a count as a string", put(f"{c}.knocker_deadwood_count", "8"), Refused(f"{c}.knocker_deadwood_count")
    )
    yield Case(
        "input: a count as a float", put(f"{c}.knocker_deadwood_count", 8.0), Refused(f"{c}.knocker_deadwood_count")
    )
    yield Case("input: the counts' knocker the other role", put(f"{c}.knocker", "captain"), Refused(f"{H[2]}.knocker"))
    yield Case(
        "input: counts and cards",
        put(f"{c}.defender_hand", {"cards": ["AS"]}),
        Refused(f"{c}.knocker_deadwood_count", (f"{c}.defender_deadwood_count",)),
    )
    d = f"{H[3]}.input"  # the draw
    yield Case("input: a draw's outcome unknown", put(f"{d}.outcome", "gin"), Refused(f"{d}.outcome"))
    yield Case("input: a draw with a knocker (R12)", put(f"{d}.knocker", "box"), Refused(f"{d}.knocker"))
    yield Case("input: a knock for a draw", put(d, by_counts("box", 3, 20)), Refused(f"{H[3]}.mode"))


# --- every member of every ruling ---------------------------------------------------------------------------

_OTHER = {
    "knock": "undercut",
    "gin": "knock",
    "undercut": "knock",
    "draw": "knock",
    "knocker": "defender",
    "defender": "knocker",
}


def ruling_cases(source: dict[str, Any]) -> Iterator[Case]:
    """For each kind of hand and each member of its ruling, at any depth: another value, another
    JSON type, the member missing, an extra member, a list one longer or shorter."""
    for hand in (*H, F1):  # (the finished game's second hand has the counts' shape of hand 3)
        root = f"{hand}.ruling"
        yield from _walk(get(source, root), root, hand)


def _walk(node: Any, path: str, hand: str) -> Iterator[Case]:
    rel = path[len(f"{hand}.ruling") :]
    if isinstance(node, dict):
        yield Case(f"{path}: an extra member", put(f"{path}.note", "x" * 1000), refused_ruling(hand, f"{rel}.note"))
        for key, value in node.items():
            yield Case(f"{path}.{key}: missing", drop(f"{path}.{key}"), refused_ruling(hand, f"{rel}.{key}"))
            yield from _walk(value, f"{path}.{key}", hand)
        if rel:
            yield Case(f"{path}: a number", put(path, 5), refused_ruling(hand, rel))
    elif isinstance(node, list):
        yield Case(f"{path}: one more", put(path, [*node, node[-1] if node else "KS"]), refused_ruling(hand, rel))
        if node:
            yield Case(f"{path}: one fewer", put(path, node[:-1]), refused_ruling(hand, rel))
            yield from _walk(node[0], f"{path}[0]", hand)
        yield Case(f"{path}: a string", put(path, "AS"), refused_ruling(hand, rel))
    elif isinstance(node, bool) or node is None:
        yield Case(f"{path}: {node} to a list", put(path, []), refused_ruling(hand, rel))
        yield Case(f"{path}: {node} to 0", put(path, 0), refused_ruling(hand, rel))
    elif isinstance(node, int):
        yield Case(f"{path}: one more", put(path, node + 1), refused_ruling(hand, rel))
        yield Case(f"{path}: as a float", put(path, float(node)), refused_ruling(hand, rel))
        if node in (0, 1):
            yield Case(f"{path}: as a boolean", put(path, bool(node)), refused_ruling(hand, rel))
    else:
        other = _OTHER.get(node, "KS" if node != "KS" else "QS")
        yield Case(f"{path}: {other} for {node}", put(path, other), refused_ruling(hand, rel))
        if node.lower() != node:
            yield Case(f"{path}: in lower case", put(path, node.lower()), refused_ruling(hand, rel))
        yield Case(f"{path}: a number", put(path, 1), refused_ruling(hand, rel))


# --- every field of a game ----------------------------------------------------------------------------------


def game_cases() -> Iterator[Case]:
    yield Case("id: another", put(f"{G1}.id", 999999), HARMLESS)
    yield Case("id: two games with one id", put(f"{G2}.id", 1), HARMLESS)
    yield Case("id: a string", edit(f"{G1}.id", str), Refused(f"{G1}.id"))
    yield Case("id: zero", put(f"{G1}.id", 0), Refused(f"{G1}.id"))
    yield Case("id: missing", drop(f"{G1}.id"), Refused(f"{G1}.id"))
    yield Case("played_at: another day", put(f"{G1}.played_at", "2024-03-08T19:00:00+00:00"), KEPT)
    yield Case(
        "played_at: the same instant at another offset", put(f"{G1}.played_at", "2024-03-07T20:00:00+01:00"), HARMLESS
    )
    yield Case("played_at: not a date-time", put(f"{G1}.played_at", "Thursday"), Refused(f"{G1}.played_at"))
    yield Case(
        "played_at: past year 9999 in UTC",
        put(f"{G1}.played_at", "9999-12-31T23:00:00-05:00"),
        Refused(f"{G1}.played_at"),
    )
    yield Case("played_at: missing", drop(f"{G1}.played_at"), Refused(f"{G1}.played_at"))
    yield Case("players: in another order", edit(f"{G1}.players", lambda p: p[::-1]), KEPT)
    yield Case(
        "players: one not in the document",
        edit(f"{G1}.players", lambda p: [*p[:2], 2147483647]),
        Refused(f"{G1}.players"),
    )
    yield Case(
        "players: a member who did not play (R8)",
        with_ids(f"{G1}.players", lambda p, ids: [*p[:2], ids["Dee"]]),
        Refused(f"{G1}.first_roles", rule="R8"),
    )
    yield Case(
        "players: one twice (R8)",
        edit(f"{G1}.players", lambda p: [p[0], p[0], p[1]]),
        Refused(f"{G1}.players", rule="R8"),
    )
    yield Case("players: two", edit(f"{G1}.players", lambda p: p[:2]), Refused(f"{G1}.players"))
    yield Case("players: a string", edit(f"{G1}.players", lambda p: [str(p[0]), *p[1:]]), Refused(f"{G1}.players[0]"))
    yield Case("players: missing", drop(f"{G1}.players"), Refused(f"{G1}.players"))
    yield Case("cut: another card, the same order (R9)", edit(f"{G1}.cut", lambda c: _cut(c, "QH", "7D", "2S")), KEPT)
    yield Case("cut: a card in lower case (R3)", edit(f"{G1}.cut", lambda c: _cut(c, "kh", "7D", "2S")), HARMLESS)
    yield Case(
        "cut: roles other than first_roles (R9)",
        edit(f"{G1}.cut", lambda c: _cut(c, "2S", "7D", "KH")),
        Refused(f"{G1}.cut", rule="R9"),
    )
    yield Case(
        "cut: three identical cards (R9)",
        edit(f"{G1}.cut", lambda c: _cut(c, "KH", "KH", "KH")),
        Refused(f"{G1}.cut", rule="R9"),
    )
    yield Case(
        "cut: tied ranks (R9)", edit(f"{G1}.cut", lambda c: _cut(c, "KH", "KD", "2S")), Refused(f"{G1}.cut", rule="R9")
    )
    yield Case(
        "cut: a player missing (R9)",
        edit(f"{G1}.cut", lambda c: dict(list(c.items())[:2])),
        Refused(f"{G1}.cut", rule="R9"),
    )
    yield Case(
        "cut: a player of another game (R9)",
        edit(f"{G1}.cut", lambda c: {**c, "4": "3C"}),
        Refused(f"{G1}.cut.4", rule="R9"),
    )
    yield Case(
        "cut: a key not a player id",
        edit(f"{G1}.cut", lambda c: {"Ann": "KH", **dict(list(c.items())[1:])}),
        Refused(f"{G1}.cut.Ann.key"),
    )
    yield Case(
        "cut: not a card (R3)", edit(f"{G1}.cut", lambda c: _cut(c, "ZZ", "7D", "2S")), Refused(G1 + ".cut.{Ann}.value")
    )
    yield Case("cut: null, as if the roles were given", put(f"{G1}.cut", None), KEPT)
    yield Case(
        "cut: one that gives first_roles, where roles were given",
        with_ids(f"{G2}.cut", lambda _, ids: cut_by(ids, Ann="9C", Bob="5H", Cy="AD")),
        KEPT,
    )
    yield Case(
        "cut: one that does not, where roles were given (R9)",
        with_ids(f"{G2}.cut", lambda _, ids: cut_by(ids, Ann="AC", Bob="5H", Cy="9D")),
        Refused(f"{G2}.cut", rule="R9"),
    )
    yield Case("cut: missing", drop(f"{G1}.cut"), Refused(f"{G1}.cut"))
    yield Case(
        "first_roles: not the cut's (R9)",
        put_players(f"{G1}.first_roles", box="Bob", captain="Ann", sitter="Cy"),
        Refused(f"{G1}.cut", rule="R9"),
    )
    yield Case(
        "first_roles: not the first hand's seating (R9)",
        put_players(f"{G2}.first_roles", box="Bob", captain="Ann", sitter="Cy"),
        Refused(f"{F1}.seating", rule="R9"),
    )
    yield Case(
        "first_roles: the cut's, for a game not begun",
        put_players(f"{G3}.first_roles", box="Ann", captain="Bob", sitter="Dee"),
        Refused(f"{G3}.cut", rule="R9"),
    )
    yield Case(
        "first_roles: a player of another game (R8)",
        put_players(f"{G2}.first_roles", box="Ann", captain="Bob", sitter="Dee"),
        Refused(f"{G2}.first_roles", rule="R8"),
    )
    yield Case("first_roles: an extra member", put(f"{G1}.first_roles.dealer", 1), Refused(f"{G1}.first_roles.dealer"))
    yield Case("first_roles: missing", drop(f"{G1}.first_roles"), Refused(f"{G1}.first_roles"))
    yield Case("rules: another gin bonus (R18)", put(f"{G1}.rules.gin_bonus", 20), refused_ruling(H[1], ".points"))
    yield Case(
        "rules: another undercut bonus (R17)", put(f"{G1}.rules.undercut_bonus", 0), refused_ruling(H[2], ".points")
    )
    yield Case(
        "rules: a lower knock limit (R14, R25)",
        put(f"{G1}.rules.knock_limit", 5),
        Refused(f"{H[2]}.input.knocker_deadwood_count", rule="R25"),
    )
    yield Case(
        "rules: a knock limit under the declared deadwood (R14)",
        put(f"{G1}.rules.knock_limit", 0),
        Refused(f"{H[0]}.input.knocker_hand.melds", rule="R14"),
    )
    yield Case("rules: a lower target (R20)", put(f"{G1}.rules.target_score", 30), Refused(f"{G1}.hands", rule="R20"))
    yield Case("rules: a higher target (R20)", put(f"{G2}.rules.target_score", 40), Refused(f"{G2}.status", rule="R20"))
    yield Case("rules: an option out of range", put(f"{G1}.rules.gin_bonus", 101), Refused(f"{G1}.rules.gin_bonus"))
    yield Case("rules: an option as a string", put(f"{G1}.rules.gin_bonus", "25"), Refused(f"{G1}.rules.gin_bonus"))
    yield Case("rules: an unknown option", put(f"{G1}.rules.deal", 10), Refused(f"{G1}.rules.deal"))
    yield Case("rules: an option missing", drop(f"{G1}.rules.gin_bonus"), Refused(f"{G1}.rules.gin_bonus"))
    yield Case("rules: missing", drop(f"{G1}.rules"), Refused(f"{G1}.rules"))
    yield Case(
        "status: finished, not yet won (R20)", put(f"{G1}.status", "finished"), Refused(f"{G1}.status", rule="R20")
    )
    yield Case(
        "status: in progress, though won (R20)", put(f"{G2}.status", "in_progress"), Refused(f"{G2}.status", rule="R20")
    )
    yield Case("status: unknown", put(f"{G1}.status", "abandoned"), Refused(f"{G1}.status"))
    yield Case("status: missing", drop(f"{G1}.status"), Refused(f"{G1}.status"))
    yield Case(
        "winner: another player (R20)",
        edit(f"{G2}.winner", lambda w: 1 if w != 1 else 3),
        Refused(f"{G2}.winner", rule="R20"),
    )
    yield Case("winner: one before the target (R20)", put(f"{G1}.winner", 1), Refused(f"{G1}.winner", rule="R20"))
    yield Case("winner: none though won (R20)", put(f"{G2}.winner", None), Refused(f"{G2}.winner", rule="R20"))
    yield Case("winner: a string", edit(f"{G2}.winner", str), Refused(f"{G2}.winner"))
    yield Case("winner: missing", drop(f"{G2}.winner"), Refused(f"{G2}.winner"))
    yield Case(
        "scores: one more point (R26)",
        edit(f"{G1}.scores", lambda s: {k: v + 1 for k, v in s.items()}),
        Refused(f"{G1}.scores", rule="R26"),
    )
    yield Case(
        "scores: one player's missing (R26)",
        edit(f"{G1}.scores", lambda s: dict(list(s.items())[:2])),
        Refused(f"{G1}.scores", rule="R26"),
    )
    yield Case("scores: in another order", edit(f"{G1}.scores", lambda s: dict(reversed(s.items()))), HARMLESS)
    yield Case(
        "scores: a negative score", edit(f"{G1}.scores", lambda s: {**s, "1": -1}), Refused(f"{G1}.scores.1.value")
    )
    yield Case(
        "scores: a score as a string", edit(f"{G1}.scores", lambda s: {**s, "1": "65"}), Refused(f"{G1}.scores.1.value")
    )
    yield Case(
        "scores: a key not a player id",
        edit(f"{G1}.scores", lambda s: {**s, "Ann": 0}),
        Refused(f"{G1}.scores.Ann.key"),
    )
    yield Case("scores: missing", drop(f"{G1}.scores"), Refused(f"{G1}.scores"))
    yield Case(
        "hands: the last one removed (R26)", edit(f"{G1}.hands", lambda h: h[:-1]), Refused(f"{G1}.scores", rule="R26")
    )
    yield Case(
        "hands: the winning hand removed (R20)",
        edit(f"{G2}.hands", lambda h: h[:-1]),
        Refused(f"{G2}.status", rule="R20"),
    )
    yield Case("hands: none", put(f"{G2}.hands", []), Refused(f"{G2}.status", rule="R20"))
    yield Case("hands: two swapped", edit(f"{G1}.hands", lambda h: [h[1], h[0], *h[2:]]), Refused(f"{H[0]}.number"))
    yield Case(
        "hands: one after the win (R20)",
        edit(f"{G2}.hands", lambda h: [*h, {**h[-1], "number": 3}]),
        Refused(f"{G2}.hands", rule="R20"),
    )
    yield Case("hands: missing", drop(f"{G1}.hands"), Refused(f"{G1}.hands"))
    yield Case("game: an extra member", put(f"{G1}.out_of_turn", [4]), Refused(f"{G1}.out_of_turn"))
    yield Case("game: null", put(G1, None), Refused(G1))


def _cut(cut: dict[str, str], *cards: str) -> dict[str, str]:
    """The cut with new cards for its players, in its order (Ann, Bob, Cy)."""
    return dict(zip(cut, cards, strict=True))


def league_cases() -> Iterator[Case]:
    yield Case("format: another", put("format", "ginref.tournament"), Refused("format"))
    yield Case("format_version: another", put("format_version", 4), Refused("format_version"))
    # 3 adds the two-player presets' games (R27): its three-handed games are 2's
    yield Case("format_version: 3", put("format_version", 3), HARMLESS)
    yield Case("format_version: a string", put("format_version", "1"), Refused("format_version"))
    yield Case("league.id: another", put("league.id", 999999), HARMLESS)
    yield Case("league.id: a string", put("league.id", "1"), Refused("league.id"))
    yield Case("league.name: empty", put("league.name", ""), Refused("league.name"))
    yield Case("league.name: padded", edit("league.name", lambda n: f"  {n} "), HARMLESS)
    yield Case("league: an extra member", put("league.key", "x"), Refused("league.key"))
    yield Case(
        "players: one id twice",
        edit("players", lambda p: [p[0], {**p[1], "id": p[0]["id"]}, *p[2:]]),
        Refused("players[1].id"),
    )
    yield Case("players: a player who plays removed", edit("players", lambda p: p[1:]), Refused(f"{G1}.players"))
    yield Case(
        "players: a name with a control character", put("players[0].name", "Ann\x07"), Refused("players[0].name")
    )
    yield Case("players: an extra member", put("players[0].key", "x"), Refused("players[0].key"))
    yield Case("document: an extra member", put("standings", []), Refused("standings"))


def all_cases(source: dict[str, Any]) -> list[Case]:
    return [*hand_field_cases(), *input_cases(), *ruling_cases(source), *game_cases(), *league_cases()]


def _cases_from_a_fresh_source() -> list[Any]:
    """The cases are listed before any app exists: from the shape of an export with the source's
    hands, as build_source records them (checked against the real export in every test)."""
    return [pytest.param(case, id=case.name) for case in all_cases(SHAPE)]


# The rulings of the source's hands, as the referee makes them (the tamper suite walks their
# members; test_the_source_export_has_the_shape_the_cases_walk checks them against the real export).
_K6 = {"melds": melds("5H 6H 7H | 2S 2D 2C | JS JD JC"), "deadwood": ["AS"], "deadwood_count": 1}
_GIN_DEFENDER = {
    "melds": melds("AH 2H 3H | 4D 5D 6D | JC QC KC"),
    "layoffs": [],
    "deadwood": ["9H"],
    "deadwood_count": 9,
}
_COUNTS = {
    "knocker": {"melds": None, "deadwood": None, "deadwood_count": 8},
    "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": 5},
}
SHAPE: dict[str, Any] = {
    "games": [
        {
            "hands": [
                {
                    "ruling": {
                        "outcome": "knock",
                        "scorer": "knocker",
                        "points": 15,
                        "knocker": _K6,
                        "defender": {
                            "melds": melds("3D 4D 5D | 8C 9C 10C"),
                            "layoffs": [{"card": "8H", "meld": 0}],
                            "deadwood": ["3S", "9H", "4C"],
                            "deadwood_count": 16,
                            "better": {
                                "melds": melds("3D 4D 5D | 8C 9C 10C"),
                                "layoffs": [{"card": "8H", "meld": 0}, {"card": "9H", "meld": 0}],
                                "deadwood": ["3S", "4C"],
                                "deadwood_count": 7,
                            },
                        },
                    }
                },
                {
                    "ruling": {
                        "outcome": "gin",
                        "scorer": "knocker",
                        "points": 34,
                        "knocker": {
                            "melds": melds("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"),
                            "deadwood": [],
                            "deadwood_count": 0,
                        },
                        "defender": _GIN_DEFENDER,
                    }
                },
                {"ruling": {"outcome": "undercut", "scorer": "defender", "points": 13, **_COUNTS}},
                {"ruling": {"outcome": "draw", "scorer": None, "points": 0, "knocker": None, "defender": None}},
                {
                    "ruling": {
                        "outcome": "knock",
                        "scorer": "knocker",
                        "points": 50,
                        "knocker": {
                            "melds": melds("AS 2S 3S | 4S 5S 6S | 7S 8S 9S"),
                            "deadwood": ["10S"],
                            "deadwood_count": 10,
                            "better": {
                                "melds": melds("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"),
                                "deadwood": [],
                                "deadwood_count": 0,
                            },
                        },
                        "defender": {
                            "melds": [],
                            "layoffs": [],
                            "deadwood": cards("AH 2H 3H 9H 4D 5D 6D JC QC KC"),
                            "deadwood_count": 60,
                            "better": _GIN_DEFENDER,
                        },
                    }
                },
            ]
        },
        {
            "hands": [
                {
                    "ruling": {
                        "outcome": "undercut",
                        "scorer": "defender",
                        "points": 20,
                        "knocker": {
                            "melds": melds("AS 2S 3S | 4H 5H 6H | 7D 8D 9D"),
                            "deadwood": ["KC"],
                            "deadwood_count": 10,
                        },
                        "defender": {
                            "melds": melds("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"),
                            "layoffs": [],
                            "deadwood": [],
                            "deadwood_count": 0,
                        },
                    }
                },
                {
                    "ruling": {
                        "outcome": "knock",
                        "scorer": "knocker",
                        "points": 12,
                        "knocker": {"melds": None, "deadwood": None, "deadwood_count": 2},
                        "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": 14},
                    }
                },
            ]
        },
    ]
}
CASES = _cases_from_a_fresh_source()


def test_the_source_export_has_the_shape_the_cases_walk(source: dict[str, Any]) -> None:
    rulings = [[h["ruling"] for h in g["hands"]] for g in source["games"][:2]]
    assert rulings == [[h["ruling"] for h in g["hands"]] for g in SHAPE["games"]]


def test_the_untampered_export_imports_and_exports_again_the_same_apart_from_ids(
    api: Api, doc: dict[str, Any], source: dict[str, Any]
) -> None:
    before = row_counts(api.client.application)
    exported = import_and_export(api, doc)
    assert exported == remap(source, exported)
    after = row_counts(api.client.application)
    assert {
        t: after[t] - before[t]
        for t in (
            "league",
            "player",
            "league_member",
            "game",
            "hand",
            "game_player",
            "league_player",
            "api_key",
            "hand_revision",
            "dispute",
        )
    } == {
        "league": 1,
        "player": 4,
        "league_member": 4,
        "game": 3,
        "hand": 7,
        "game_player": 9,
        "league_player": 4,
        "api_key": 1,
        "hand_revision": 8,  # the long game's five hands and one correction, the short game's two hands
        "dispute": 0,
    }
    # and a second round trip changes nothing
    again = import_and_export(api, exported)
    assert again == remap(source, again)
    # the games read back as recorded: hand 4 out of turn (R26), the short game won (R20)
    long, short, _ = (api.client.get(f"{BASE}/games/{g['id']}").get_json() for g in exported["games"])
    assert (long["out_of_turn"], long["hands_played"], long["status"]) == ([4], 5, "in_progress")
    assert (short["status"], short["winner"], short["roles"]) == ("finished", ids_of(exported)["Bob"], None)
    hands = api.client.get(f"{BASE}/games/{long['id']}/hands").get_json()["items"]
    assert [h["seating_follows"] for h in hands] == [True, True, True, False, True]


@pytest.mark.parametrize("case", CASES)
def test_a_tampered_export_is_refused_naming_the_field_or_is_harmless(
    api: Api, doc: dict[str, Any], source: dict[str, Any], case: Case
) -> None:
    case.change(doc)
    if isinstance(case.outcome, Refused):
        ids = ids_of(doc)  # a field may name a player ("cut.{Ann}"): ids differ from one database to another
        fields = [f.format(**ids) for f in (case.outcome.field, *case.outcome.also)]
        refuse(api, doc, *fields, rule=case.outcome.rule, exact=case.outcome.exact)
        return
    exported = import_and_export(api, doc)
    if case.outcome == HARMLESS:
        expected = source
    elif case.outcome == KEPT:
        expected = doc
    else:
        expected = copy.deepcopy(source)
        case.outcome(expected)  # type: ignore[operator]
    assert exported == remap(expected, exported)


# --- the reported reproductions, one test each ------------------------------------------------------------
# Each forged document is consistent with itself, as the import once checked: the game's scores are
# the sum of the (forged) rulings' points to their scorers (R19, R26).


def rescore(doc: dict[str, Any], game: str) -> None:
    scores = dict.fromkeys(get(doc, game)["scores"], 0)
    for hand in get(doc, game)["hands"]:
        ruling, knocker = hand["ruling"], hand["knocker"]
        if ruling["scorer"] is not None:
            role = knocker if ruling["scorer"] == "knocker" else {"box": "captain", "captain": "box"}[knocker]
            scores[str(hand["seating"][role])] += ruling["points"]
    get(doc, game)["scores"] = scores


def test_r25_a_counts_hand_with_knocker_deadwood_40_is_refused(api: Api, doc: dict[str, Any]) -> None:
    hand = get(doc, H[2])
    hand["input"]["knocker_deadwood_count"] = 40  # and a ruling to match: undercut, 10 + 40 - 5
    hand["ruling"]["knocker"]["deadwood_count"] = 40
    hand["ruling"]["points"] = 45
    rescore(doc, G1)
    body = refuse(api, doc, f"{H[2]}.input.knocker_deadwood_count", rule="R25")
    assert "0 to 10" in body["errors"][f"{H[2]}.input.knocker_deadwood_count"][0]


def test_r21_a_cards_hand_holding_4h_three_times_is_refused(api: Api, doc: dict[str, Any]) -> None:
    cards = get(doc, f"{H[1]}.input.knocker_hand.cards")
    cards[3:6] = ["4H", "4H", "4H"]
    body = refuse(api, doc, f"{H[1]}.input.knocker_hand.cards[4]", rule="R21")
    assert body["offending"] == "4H"


def test_r16_a_ruling_whose_deadwood_disagrees_with_its_cards_is_refused(api: Api, doc: dict[str, Any]) -> None:
    # Bob's defender deadwood in hand 1 is 16 (R15, R23); claim 26 and the points that 26 would score.
    ruling = get(doc, f"{H[0]}.ruling")
    ruling["defender"]["deadwood_count"] = 26
    ruling["points"] = 25
    rescore(doc, G1)
    body = refuse(api, doc, f"{H[0]}.ruling", f"{H[0]}.ruling.points", f"{H[0]}.ruling.defender.deadwood_count")
    assert body["errors"][f"{H[0]}.ruling.defender.deadwood_count"] == ["26; the referee rules 16"]


def test_r18_gin_with_deadwood_5_is_refused(api: Api, doc: dict[str, Any]) -> None:
    ruling = get(doc, f"{H[2]}.ruling")  # by counts: 8 against 5, an undercut
    ruling.update(outcome="gin", scorer="knocker", points=5 + 25)
    rescore(doc, G1)
    refuse(api, doc, f"{H[2]}.ruling", *(f"{H[2]}.ruling.{m}" for m in ("outcome", "scorer", "points")))


def test_r3_input_cards_are_stored_and_exported_canonical(
    api: Api, doc: dict[str, Any], source: dict[str, Any]
) -> None:
    assert get(doc, f"{F1}.input.knocker_hand.cards")[3] == "4H"
    get(doc, f"{F1}.input.knocker_hand.cards")[3] = " 4h "
    get(doc, f"{H[0]}.input.defender_hand.layoffs")[0]["card"] = "8♥️"
    exported = import_and_export(api, doc)
    assert get(exported, f"{F1}.input.knocker_hand.cards")[3] == "4H"
    assert get(exported, f"{H[0]}.input.defender_hand.layoffs")[0]["card"] == "8H"
    assert exported == remap(source, exported)
    hands = api.client.get(f"{BASE}/games/{exported['games'][1]['id']}/hands").get_json()["items"]
    assert hands[0]["input"]["knocker_hand"]["cards"][3] == "4H"


def test_r9_a_cut_of_three_identical_cards_that_contradicts_the_first_roles_is_refused(
    api: Api, doc: dict[str, Any]
) -> None:
    game = get(doc, G1)
    game["cut"] = {k: "5C" for k in game["cut"]}
    game["first_roles"] = {"box": game["players"][2], "captain": game["players"][1], "sitter": game["players"][0]}
    body = refuse(api, doc, f"{G1}.cut", rule="R9")
    assert "distinct" in body["detail"]


def test_a_megabyte_extra_member_inside_a_ruling_is_refused_not_kept(api: Api, doc: dict[str, Any]) -> None:
    get(doc, f"{H[1]}.ruling")["knocker"]["notes"] = "x" * 1024 * 1024
    response = post_import(api, doc)
    assert response.status_code == 422
    body = response.get_json()
    assert body["errors"][f"{H[1]}.ruling.knocker.notes"] == ["not a member of the referee's ruling"]
    assert len(response.get_data()) < 4096  # the value is not echoed back
    assert row_counts(api.client.application)["hand"] == 0


def test_a_ruling_with_knocker_melds_5_is_refused_and_no_hand_is_left_unreadable(api: Api, doc: dict[str, Any]) -> None:
    get(doc, f"{H[1]}.ruling")["knocker"]["melds"] = 5
    body = refuse(api, doc, f"{H[1]}.ruling", f"{H[1]}.ruling.knocker.melds")
    assert body["errors"][f"{H[1]}.ruling.knocker.melds"][0].startswith("5; the referee rules [[")
    # nothing was imported, and every game there is reads back
    with api.client.application.app_context():
        game_ids = list(db.session.scalars(select(db.metadata.tables["game"].c.id)))
    for game_id in game_ids:
        assert api.client.get(f"{BASE}/games/{game_id}/hands").status_code == 200


def test_a_recorded_at_whose_utc_form_overflows_is_a_422_not_a_500(api: Api, doc: dict[str, Any]) -> None:
    get(doc, H[0])["recorded_at"] = "9999-12-31T23:00:00-05:00"
    body = refuse(api, doc, f"{H[0]}.recorded_at")
    assert "within years 1 to 9999" in body["errors"][f"{H[0]}.recorded_at"][0]


_MARK = 424242424242


@pytest.mark.parametrize(
    ("path", "number"),
    [
        (f"{H[1]}.ruling.points", "9" * 31),
        (f"{H[0]}.number", "-" + "9" * 31),
        (f"{G1}.revisions[0].input.knocker_deadwood_count", "1" + "0" * 40),
        (f"{G2}.id", "1e400"),
        (f"{G2}.scores", "NaN"),
        ("format_version", "2" * 31),
    ],
)
def test_a_number_out_of_range_anywhere_in_a_game_is_a_422_naming_its_path(
    api: Api, doc: dict[str, Any], path: str, number: str
) -> None:
    """However a game is read (the common shape of a game at once, anything else
    member by member), a number past the API's range is named where it stands."""
    parent, _, name = path.rpartition(".")
    target = get(doc, parent) if parent else doc
    if name == "knocker_deadwood_count":
        target = get(doc, f"{G1}.revisions[0]")
        target["input"] = {"knocker": "box", "knocker_deadwood_count": _MARK, "defender_deadwood_count": 3}
    else:
        target[name] = _MARK
    text = json.dumps(doc).replace(str(_MARK), number)
    before = row_counts(api.client.application)
    response = api.client.post(f"{BASE}/leagues/import", data=text, content_type="application/json")
    assert response.status_code == 422, response.get_data(as_text=True)[:500]
    body = response.get_json()
    assert list(body["errors"]) == [path], body
    assert "is out of range" in body["errors"][path][0]
    assert row_counts(api.client.application) == before


def test_a_ruling_holding_a_lone_surrogate_is_a_422_naming_it_and_writes_nothing(api: Api, doc: dict[str, Any]) -> None:
    """JSON may escape half of a UTF-16 pair alone, which no UTF-8 text holds: such a
    document is read whole, the slow way, and the ruling it spoils is named."""
    get(doc, H[1])["ruling"] = _MARK
    text = json.dumps(doc).replace(str(_MARK), '"\\ud800"')
    before = row_counts(api.client.application)
    response = api.client.post(f"{BASE}/leagues/import", data=text, content_type="application/json")
    assert response.status_code == 422, response.get_data(as_text=True)[:500]
    assert response.mimetype == PROBLEM_JSON
    assert f"{H[1]}.ruling" in response.get_json()["errors"]
    assert row_counts(api.client.application) == before


def test_an_export_as_made_is_read_fast_and_a_tampered_game_again_the_slow_way(
    api: Api, doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game is read as fast as it comes (msgspec) and loaded by its shape;
    only a game that is refused is read again, to name what is wrong with it."""
    read_again: list[str] = []
    read = GameReader.read

    def counted(self: GameReader, game: Any, path: str) -> Any:
        read_again.append(path)
        return read(self, game, path)

    monkeypatch.setattr(GameReader, "read", counted)
    assert post_import(api, doc).status_code == 201
    assert read_again == []
    get(doc, H[1])["number"] = "2"
    refuse(api, doc, f"{H[1]}.number")
    assert read_again == [G1]


def test_an_import_judges_and_writes_with_the_cyclic_collector_paused(
    api: Api, doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    judge, write = league_views.judge_league, services.import_league
    monkeypatch.setattr(league_views, "judge_league", lambda *a: seen.append(gc.isenabled()) or judge(*a))
    monkeypatch.setattr(services, "import_league", lambda *a: seen.append(gc.isenabled()) or write(*a))
    assert gc.isenabled()
    assert post_import(api, doc).status_code == 201
    get(doc, H[1])["number"] = "2"
    refuse(api, doc, f"{H[1]}.number")
    assert seen == [False, False, False] and gc.isenabled()


# --- cost ---------------------------------------------------------------------------------------------------


def large_document(source: dict[str, Any], games: int) -> dict[str, Any]:
    """The source with ``games`` games: its long game (5 hands) and its finished game (2) in turn."""
    out = copy.deepcopy(source)
    long, short = source["games"][0], source["games"][1]
    out["games"] = [{**copy.deepcopy((long, short)[i % 2]), "id": i + 1} for i in range(games)]
    return out


def test_an_import_writes_its_hands_in_a_few_statements(
    api: Api, app: Flask, source: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No statement, nor ORM object, per hand: the hands go in by batches of a hundred games (a
    game's row, whose id the hands need, may take a statement of its own where the database cannot
    say in one which id went to which row, as SQLite). The rows of hands, revisions and figures go
    in bulk (models.database.insert_rows: one executemany per table and batch), the others one
    statement each."""
    statements: list[str] = []
    bulk: list[tuple[str, int]] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    def insert_rows(table: Any, rows: list[dict[str, Any]]) -> None:
        bulk.append((table.name, len(rows)))
        database.insert_rows(table, rows)

    monkeypatch.setattr(transfer, "insert_rows", insert_rows)
    with app.app_context():
        engine = db.engine
    doc = large_document(source, 400)  # 1,400 hands
    event.listen(engine, "before_cursor_execute", count)
    try:
        response = post_import(api, doc)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert response.status_code == 201, response.get_data(as_text=True)[:500]
    assert row_counts(app)["hand"] == 1400
    hands = [n for name, n in bulk if name == "hand"]
    assert len(hands) == 4 and sum(hands) == 1400, hands
    # one executemany per batch, never a statement per hand
    assert len([s for s in statements if s.lstrip().upper().startswith("INSERT INTO HAND ")]) == len(hands)
    assert len(statements) <= 400 + 40, len(statements)


def test_an_import_holds_a_few_times_its_document_in_memory(api: Api, source: dict[str, Any]) -> None:
    """Not an object graph per hand on top of the parsed document: the peak of Python's allocations
    while importing stays within 8 times the document's size (an import used to take about 20)."""
    post_import(api, large_document(source, 10))  # the first import's one-off costs are not measured
    text = json.dumps(large_document(source, 600))  # 2,100 hands, 1.6 MB
    tracemalloc.start()
    try:
        response = api.client.post(f"{BASE}/leagues/import", data=text, content_type="application/json")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert response.status_code == 201
    assert peak < 8 * len(text), (peak, len(text))
