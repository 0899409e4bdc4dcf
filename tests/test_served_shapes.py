"""What the API serves of a game, a hand and a ruling is what its OpenAPI
document says: each shape's one dumper (schemas.games.game_dict, the one
GameSchema dumps by, a game alone or in a list; schemas.hands.hand_dict,
HandSchema's; a ruling's builders in schemas.rulings; the canonical hands by
cards of schemas.hands) builds JSON valid against the shape's component in
the app's served spec, with exactly the members that apply to it. For any
game row or game, begun or not, won or not, in a league or not, with a cut
or without, with a rule option missing from an old row; for a hand by cards,
by counts or a draw, its ruling explained under its game's rules; for every
golden hand and any deal, the play undeclared or declared worse (R22); and
for the golden games of every preset (R27-R36) played through HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from flask import Flask
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from api.shapes import HandInGame, Page, WithKey
from app import create_app
from models import db
from models.game import Game, GameRow, HandRow
from referee import (
    DECK,
    IllegalKnockError,
    Layoff,
    Rules,
    judge_hand,
    parse_card,
    parse_cards,
    score_counts,
)
from schemas.games import GameCreatedSchema, GameHistorySchema, GameListSchema, GameSchema
from schemas.hands import DefenderHandSchema, HandListSchema, HandSchema, KnockerHandSchema
from schemas.rulings import (
    RulingSchema,
    count_ruling_dict,
    draw_ruling_dict,
    ruling_dict,
    served_ruling,
)
from tests.test_api.autoclient import AutoClient
from tests.test_api.conftest import Api
from tests.test_api.test_presets_golden import hand_body
from tests.test_openapi import served_spec
from tests.test_referee.referee_helpers import PROPERTY, deals

DATA = Path(__file__).parent / "data"
GOLDEN_HANDS = json.loads((DATA / "golden_hands.json").read_text("utf-8"))
GOLDEN_GAMES = [
    *json.loads((DATA / "golden_games.json").read_text("utf-8")),
    *json.loads((DATA / "golden_matches.json").read_text("utf-8")),
]
SCHEMAS: dict[str, Any] = served_spec()["components"]["schemas"]

# Members documented for some games, hands or rulings only (their descriptions say which)
TWO_PLAYER_ONLY = ("boxes", "result")  # R29, R31
HOLLYWOOD_ONLY = ("columns", "match", "moved")  # R34
PRESET_RULING = ("winner", "base_points", "boxes", "big_gin", "upcard", "knock_limit")  # R27-R33


# --- the served spec, read strictly ---


def _strict(schema: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema, read strictly: ``nullable``
    admits null; beside a nested schema in an ``anyOf``, apispec's
    ``{type: object, nullable: true}`` (its way of writing "or null") admits
    null only, not any object; and an object that names its properties has
    no others."""
    if isinstance(schema, list):
        return [_strict(each) for each in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword == "properties":
            out[keyword] = {name: _strict(each) for name, each in value.items()}
        elif keyword == "anyOf" and any("$ref" in each for each in value):
            out[keyword] = [{"type": "null"} if each == _OR_NULL else _strict(each) for each in value]
        elif keyword in ("enum", "example", "default"):
            out[keyword] = value
        elif keyword != "nullable":
            out[keyword] = _strict(value)
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return {"anyOf": [{"type": "null"}, out]} if schema.get("nullable") else out


_OR_NULL = {"type": "object", "nullable": True}
STRICT = {name: _strict(schema) for name, schema in SCHEMAS.items()}


@cache
def _validator(name: str) -> Any:
    document = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": STRICT}}
    return jsonschema_rs.Draft4Validator(document, validate_formats=True)


def members(name: str, *some: str) -> set[str]:
    """The members of the component ``name`` that every one has (its
    required), and ``some``: documented members that only some have."""
    documented = SCHEMAS[name]
    assert set(some) <= set(documented["properties"]), some
    return set(documented["required"]) | set(some)


def served_as_documented(name: str, built: Any, *some: str) -> None:
    """``built``, as JSON, is valid against the component ``name`` and has
    exactly its members that apply: every required one, and ``some``."""
    _validator(name).validate(json.loads(json.dumps(built)))
    assert set(built) == members(name, *some)


def test_the_strict_reading_refuses_a_missing_member_an_extra_one_and_any_object_for_null() -> None:
    game = GameSchema().dump(_row(VALUES))
    served_as_documented("Game", game)
    validator = _validator("Game")
    assert validator.is_valid(game)
    assert not validator.is_valid({k: v for k, v in game.items() if k != "winner"})
    assert not validator.is_valid({**game, "extra": 1})
    assert not validator.is_valid({**game, "result": {"anything": 1}})
    assert not validator.is_valid({**game, "roles": {**game["roles"], "dealer": 1}})
    with pytest.raises(AssertionError):
        served_as_documented("Game", {**game, "boxes": {}})  # valid, but documented for two-player games only


@pytest.mark.parametrize(
    "schema", [GameSchema, GameCreatedSchema, HandSchema, KnockerHandSchema, DefenderHandSchema, RulingSchema]
)
def test_a_shape_is_built_whole(schema: type[Any]) -> None:
    """One dumper, one shape: no dump of some members only."""
    some = (next(iter(schema().fields)),)
    for limited in ({"only": some}, {"exclude": some}):
        with pytest.raises(ValueError, match="built whole"):
            schema(**limited)


# --- games and hands (models.game rows and objects) ---

ID = st.integers(1, 2**31 - 1)
WHEN = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC))
THREE_HANDED_OPTIONS = ("gin_bonus", "undercut_bonus", "knock_limit", "target_score")


def _option(name: str) -> st.SearchStrategy[int]:
    """A rule option's value, in the range its schema documents."""
    documented = SCHEMAS["RulesOut"]["properties"][name]
    return st.integers(documented["minimum"], documented["maximum"])


# the three-handed options, now and then one missing (an old row)
RULES = st.fixed_dictionaries({}, optional={name: _option(name) for name in THREE_HANDED_OPTIONS}).filter(
    lambda rules: len(rules) >= 3
)
ROLES = st.fixed_dictionaries({"box": ID, "captain": ID, "sitter": ID})
VALUES: dict[str, Any] = {
    "id": 1,
    "players": [1, 2, 3],
    "rules": Rules().as_dict(),
    "scores": {"1": 0, "2": 0, "3": 0},
    "roles": {"box": 1, "captain": 2, "sitter": 3},
    "first_box": 1,
    "first_captain": 2,
    "first_sitter": 3,
    "hands_played": 0,
    "winner": None,
    "out_of_turn": [],
    "version": 1,
    "played_at": datetime(2026, 1, 1, tzinfo=UTC),
    "created_at": datetime(2026, 1, 1, tzinfo=UTC),
}


@st.composite
def columns(draw: Any) -> dict[str, Any]:
    players = draw(st.lists(ID, min_size=3, max_size=3, unique=True))
    return {
        "id": draw(ID),
        "players": players,
        "rules": draw(RULES),
        "scores": {str(p): draw(st.integers(0, 500)) for p in players},
        "roles": draw(st.none() | ROLES),
        "first_box": players[0],
        "first_captain": players[1],
        "first_sitter": players[2],
        "cut": draw(st.none() | st.just({str(p): c for p, c in zip(players, ["KH", "7D", "10S"], strict=True)})),
        "hands_played": draw(st.integers(0, 300)),
        "winner": draw(st.none() | st.sampled_from(players)),
        "out_of_turn": draw(st.lists(st.integers(1, 300), max_size=3)),
        "version": draw(st.integers(1, 10**6)),
        "league_id": draw(st.none() | ID),
        "visibility": draw(st.none() | st.sampled_from(["public", "private"])),
        "played_at": draw(WHEN),
        "created_at": draw(WHEN),
    }


def _row(values: dict[str, Any]) -> GameRow:
    return GameRow({column.key: values.get(column.key) for column in Game.__table__.columns})


@settings(max_examples=400, deadline=None)
@given(columns())
def test_a_game_row_is_served_as_documented(values: dict[str, Any]) -> None:
    row = _row(values)
    served_as_documented("Game", GameSchema().dump(row))
    served_as_documented("GameCreated", GameCreatedSchema().dump(WithKey(row, "k")), "key")
    served_as_documented("GameCreated", GameCreatedSchema().dump(row))


@settings(max_examples=100, deadline=None)
@given(st.lists(columns(), max_size=3))
def test_games_are_served_in_a_list_as_documented(values: list[dict[str, Any]]) -> None:
    games = [Game(**each) for each in values]
    for game in games:
        served_as_documented("Game", GameSchema().dump(game))
    served_as_documented("GameList", GameListSchema().dump(Page(games, len(games), 1, 20)))
    served_as_documented("GameHistory", GameHistorySchema().dump({"items": games, "next_cursor": None}))


def _rulings() -> list[dict[str, Any]]:
    rules = Rules()
    knocker = parse_cards("5H 6H 7H 2S 2D 2C JS JD JC AS")
    defender = parse_cards("8H 9H 3D 4D 5D 8C 9C 10C 3S 4C")
    return [
        ruling_dict(judge_hand(knocker, defender)),  # R15/R16: 6 points, 8H and 9H laid off
        count_ruling_dict(score_counts(3, 20, rules), 3, 20),  # R25
        count_ruling_dict(score_counts(8, 5, rules), 8, 5),  # R17: an undercut
        draw_ruling_dict(),  # R12
    ]


RULINGS = _rulings()


def test_the_rulings_the_hands_are_given_say_what_the_referee_ruled() -> None:
    knock, counts, undercut, draw = RULINGS
    assert (knock["outcome"], knock["scorer"], knock["points"]) == ("knock", "knocker", 6)  # R15, R16
    assert [lo["card"] for lo in knock["defender"]["layoffs"]] == ["8H", "9H"]
    assert (counts["points"], counts["knocker"]["deadwood_count"], counts["defender"]["deadwood_count"]) == (17, 3, 20)
    assert (undercut["outcome"], undercut["scorer"], undercut["points"]) == ("undercut", "defender", 13)  # R17: 3, 10
    assert draw == {"outcome": "draw", "scorer": None, "points": 0, "knocker": None, "defender": None}  # R12


@st.composite
def hands_in_games(draw: Any) -> HandInGame:
    values = draw(columns())
    values["rules"] = Rules(gin_bonus=draw(st.integers(0, 50)), knock_limit=draw(st.integers(0, 10))).as_dict()
    game = _row(values)
    ruling = draw(st.sampled_from(RULINGS))
    given = draw(st.sampled_from([{"outcome": "draw"}, {"knocker": "box", "knocker_hand": {"discard": "QS"}}]))
    hand = HandRow(
        number=draw(st.integers(1, 300)),
        mode=draw(st.sampled_from(["cards", "counts", "draw"])),
        box=values["players"][0],
        captain=values["players"][1],
        sitter=values["players"][2],
        knocker=draw(st.none() | st.sampled_from(["box", "captain"])),
        input=given,
        ruling=ruling,
        scores_after={str(p): draw(st.integers(0, 500)) for p in values["players"]},
        seating_follows=draw(st.booleans()),
        recorded_at=draw(WHEN),
        corrected_at=draw(st.none() | WHEN),
    )
    return HandInGame(hand, game)


@settings(max_examples=300, deadline=None)
@given(hands_in_games())
def test_a_hand_is_served_as_documented(hand: HandInGame) -> None:
    served = HandSchema().dump(hand)
    served_as_documented("Hand", served)
    served_as_documented("Ruling", served["ruling"])
    assert {k: v for k, v in served["ruling"].items() if k != "explanation"} == hand.ruling  # as stored
    served_as_documented("HandList", HandListSchema().dump({"items": [hand, hand]}))


# --- rulings (schemas.rulings) ---


def _served_ruling(stored: dict[str, Any], rules: Rules) -> None:
    """A ruling as stored has every member a ruling has, its explanation
    aside (rebuilt each time it is served); as served, it has that too."""
    assert set(stored) == members("Ruling") - {"explanation"}
    served_as_documented("Ruling", RulingSchema().dump(served_ruling(stored, lambda: rules)))


def test_a_ruling_is_served_explained() -> None:
    with pytest.raises(ValueError, match="explained"):
        RulingSchema().dump(draw_ruling_dict())


def _declared(hand: dict[str, Any]) -> dict[str, Any]:
    melds, defender_melds, layoffs = hand["knocker_melds"], hand["defender_melds"], hand["layoffs"]
    return {
        "knocker_melds": None if melds is None else [parse_cards(m) for m in melds],
        "defender_melds": None if defender_melds is None else [parse_cards(m) for m in defender_melds],
        "layoffs": None if layoffs is None else [Layoff(parse_card(lo["card"]), lo["meld"]) for lo in layoffs],
        **({"discard": parse_card(hand["discard"])} if hand.get("discard") is not None else {}),
    }


def test_every_golden_ruling_is_served_as_documented_and_says_what_the_golden_hand_expects() -> None:
    judged = 0
    for hand in GOLDEN_HANDS:
        expected, rules = hand["expected"], Rules.from_options(hand.get("rules"))
        if "error" in expected:
            continue
        knocker_cards, defender_cards = parse_cards(hand["knocker_cards"]), parse_cards(hand["defender_cards"])
        stored = ruling_dict(judge_hand(knocker_cards, defender_cards, rules=rules, **_declared(hand)))
        _served_ruling(stored, rules)
        knocker, defender = stored["knocker"], stored["defender"]
        got = {
            "outcome": stored["outcome"],
            "scorer": stored["scorer"],
            "points": stored["points"],
            "knocker_deadwood_count": knocker["deadwood_count"],
            "defender_deadwood_count": defender["deadwood_count"],
            "knocker_melds": knocker["melds"],
            "defender_melds": defender["melds"],
            "layoffs": defender["layoffs"],
        }
        assert {key: got[key] for key in expected} == expected, hand["name"]
        judged += 1
    assert judged >= 35


@settings(PROPERTY, max_examples=200)
@given(deals(), st.data())
def test_any_ruling_undeclared_or_declared_worse_is_served_as_documented(deal: Any, data: st.DataObject) -> None:
    knocker, defender = deal
    plain = judge_hand(knocker, defender)
    _served_ruling(ruling_dict(plain), Rules())
    melds = list(plain.knocker.melds)
    kept = data.draw(st.lists(st.sampled_from(melds), unique=True) if melds else st.just([]))
    try:  # fewer melds than the best: a better arrangement beside the declared one (R22)
        declared = judge_hand(knocker, defender, knocker_melds=[m.cards for m in kept], defender_melds=[], layoffs=[])
    except IllegalKnockError:
        assume(False)
    stored = ruling_dict(declared)
    _served_ruling(stored, Rules())
    assert ("better" in stored["knocker"]) == (declared.knocker.better is not None)
    rules = Rules(gin_bonus=31, undercut_bonus=7)
    _served_ruling(ruling_dict(judge_hand(knocker, defender, rules=rules)), rules)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10), st.integers(0, 100), st.integers(0, 50), st.integers(0, 50), st.integers(0, 10))
def test_a_ruling_by_counts_and_a_draw_are_served_as_documented(
    knocker: int, defender: int, gin: int, undercut: int, limit: int
) -> None:
    """R25, R12: the score the referee gave, and the counts as entered."""
    rules = Rules(gin_bonus=gin, undercut_bonus=undercut, knock_limit=limit)
    assume(knocker <= limit)
    score = score_counts(knocker, defender, rules)
    stored = count_ruling_dict(score, knocker, defender)
    _served_ruling(stored, rules)
    assert (stored["outcome"], stored["scorer"], stored["points"]) == (
        score.outcome.value,
        None if score.scorer is None else score.scorer.value,
        score.points,
    )
    assert (stored["knocker"]["deadwood_count"], stored["defender"]["deadwood_count"]) == (knocker, defender)
    _served_ruling(draw_ruling_dict(), rules)


# --- a hand by cards as kept in its input (R3: canonical cards) ---

HAND_OF = st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True)
MELD_OF = st.lists(st.sampled_from(DECK), min_size=3, max_size=10, unique=True)


@st.composite
def loaded_hand(draw: Any, third: str) -> dict[str, Any]:
    """A side's hand by cards as the schemas load it, within what its schema
    documents: 10 cards, at most 3 declared melds (R6), and the discard or
    the layoffs; now and then a member left out, as a client may."""
    hand: dict[str, Any] = {"cards": draw(HAND_OF)}
    if draw(st.booleans()):
        hand["melds"] = draw(st.none() | st.lists(MELD_OF, max_size=3))
    if draw(st.booleans()):
        if third == "discard":
            hand["discard"] = draw(st.none() | st.sampled_from(DECK))
        else:
            hand["layoffs"] = draw(
                st.none()
                | st.lists(
                    st.fixed_dictionaries({"card": st.sampled_from(DECK), "meld": st.integers(0, 2)}), max_size=3
                )
            )
    return hand


@settings(max_examples=300, deadline=None)
@given(loaded_hand("discard"), loaded_hand("layoffs"))
def test_a_hand_by_cards_is_given_back_as_documented(knocker: dict[str, Any], defender: dict[str, Any]) -> None:
    """R3: the cards given, in order, canonical; no member added or lost."""
    for name, hand, given_back in (
        ("KnockerHand", knocker, KnockerHandSchema().dump(knocker)),
        ("DefenderHand", defender, DefenderHandSchema().dump(defender)),
    ):
        _validator(name).validate(given_back)
        assert set(given_back) == set(hand)
        assert given_back["cards"] == [str(c) for c in hand["cards"]]


# --- the golden games of every preset, played through HTTP (R27-R36) ---


@pytest.fixture(scope="module")
def app() -> Iterator[Flask]:
    application = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    application.test_client_class = AutoClient
    with application.app_context():
        db.create_all()
    yield application
    with application.app_context():
        db.drop_all()


def _game_body(game: dict[str, Any], ids: dict[str, int]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "players": [ids[p] for p in game["players"]],
        "rules": {"preset": game["preset"], **game["options"]},
    }
    if "cut" in game:
        body["cut"] = {str(ids[p]): card for p, card in game["cut"].items()}
    elif "roles" in game:
        body["roles"] = {seat: ids[name] for seat, name in game["roles"].items()}
    else:
        other = next(p for p in game["players"] if p != game["dealer"])
        body["roles"] = {"dealer": ids[game["dealer"]], "non_dealer": ids[other]}
    return body


def _game_members(game: dict[str, Any]) -> tuple[str, ...]:
    return (*TWO_PLAYER_ONLY, *(HOLLYWOOD_ONLY if game["rules"]["preset"] == "hollywood" else ()))


def _hand_members(game: dict[str, Any]) -> tuple[str, ...]:
    return ("columns",) if game["rules"]["preset"] == "hollywood" else ()


@pytest.mark.parametrize("golden", GOLDEN_GAMES, ids=[g["name"] for g in GOLDEN_GAMES])
def test_a_golden_game_of_a_preset_is_served_as_documented(app: Flask, golden: dict[str, Any]) -> None:
    api = Api(app.test_client())
    ids = {name: api.player(f"{name} of {golden['name']}"[:100]) for name in golden["players"]}
    created = api.post("/games", _game_body(golden, ids))
    if created.status_code != 201:  # a cut the rules refuse (R28, R36)
        return
    game = created.get_json()
    served_as_documented("GameCreated", game, "key", *_game_members(game))
    hands = f"/api/v1/games/{game['id']}/hands"
    for hand in golden["hands"]:
        recorded = api.client.post(hands, json=hand_body(hand))
        if recorded.status_code != 201:  # a hand the rules refuse, and those after it
            break
        shown = recorded.get_json()
        served_as_documented("Hand", shown, *_hand_members(game))
        served_as_documented("Ruling", shown["ruling"], *PRESET_RULING)
    for number, hand in golden.get("correction", {}).items():
        corrected = api.client.put(f"{hands}/{number}", json=hand_body(hand))
        if corrected.status_code == 200:
            served_as_documented("Hand", corrected.get_json(), *_hand_members(game))
    served_as_documented("Game", api.game(game["id"]), *_game_members(game))
    listed = api.client.get(hands).get_json()
    served_as_documented("HandList", listed)
    for shown in listed["items"]:
        served_as_documented("Hand", shown, *_hand_members(game))
        assert api.hand(game["id"], shown["number"]) == shown
    games = api.client.get(f"/api/v1/players/{ids[golden['players'][0]]}/games").get_json()
    served_as_documented("GameHistory", games)
    assert [g["id"] for g in games["items"]] == [game["id"]]
    served_as_documented("Game", games["items"][0], *_game_members(game))
    served_as_documented("GameList", api.client.get("/api/v1/games").get_json())


def test_the_referee_serves_a_ruling_as_documented(app: Flask) -> None:
    api = Api(app.test_client())
    for golden in GOLDEN_GAMES:
        rules = {"preset": golden["preset"], **golden["options"]}
        for body in (hand_body(hand) for hand in golden["hands"]):
            if "knocker_hand" not in body:
                continue
            unseated = {k: v for k, v in body.items() if k != "knocker"}
            for asked, some in ((body, PRESET_RULING), (unseated, PRESET_RULING[1:])):  # no seat, no winner (R28)
                ruled = api.post("/referee/hand", {**asked, "rules": rules})
                if ruled.status_code == 200:
                    served_as_documented("Ruling", ruled.get_json(), *some)
