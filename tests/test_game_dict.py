"""schemas.games.game_dict and schemas.hands.hand_dict: a game (a GameRow or
a Game) as GameSchema's fields dump it, and a hand in its game as
HandSchema's do, member for member and in the same order: for any game row,
begun or not, won or not, in a league or not, with a cut or without, and
with a rule option missing from an old row; for a hand by cards, by counts
or a draw, its ruling explained under its game's rules."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema

from api.shapes import HandInGame
from models.game import Game, GameRow, HandRow
from referee import Rules, judge_hand, parse_cards, score_counts
from schemas.games import GameCreatedSchema, GameSchema, game_dict
from schemas.hands import HandSchema, hand_dict
from schemas.rulings import count_ruling_dict, draw_ruling_dict, ruling_dict

ID = st.integers(1, 2**31 - 1)
WHEN = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC))
RULES = st.dictionaries(
    st.sampled_from(["gin_bonus", "undercut_bonus", "knock_limit", "target_score"]), st.integers(0, 1000), min_size=3
)
ROLES = st.fixed_dictionaries({"box": ID, "captain": ID, "sitter": ID})


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


def _described(game: Any) -> dict[str, Any]:
    return Schema.dump(GameSchema(), game)  # type: ignore[no-any-return]  # the fields' own work


@settings(max_examples=400, deadline=None)
@given(columns())
def test_a_game_row_is_built_as_its_schema_dumps_it(values: dict[str, Any]) -> None:
    row = GameRow({column.key: values.get(column.key) for column in Game.__table__.columns})
    fast = game_dict(row)
    assert json.dumps(fast) == json.dumps(_described(row))
    assert GameSchema().dump(row) == fast


@settings(max_examples=100, deadline=None)
@given(columns())
def test_a_game_object_is_built_as_its_schema_dumps_it(values: dict[str, Any]) -> None:
    game = Game(**values)
    assert json.dumps(game_dict(game)) == json.dumps(_described(game))


def test_other_dumps_go_through_the_fields() -> None:
    game = {"id": 3, "status": "in_progress"}  # a mapping, a subclass, several, only some fields
    assert GameSchema().dump(game) == {"id": 3, "status": "in_progress"}
    assert "key" in GameCreatedSchema().dump({"id": 3, "key": "k"})
    assert GameSchema(only=("id",)).dump(GameRow({"id": 4})) == {"id": 4}


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


@st.composite
def hands_in_games(draw: Any) -> HandInGame:
    values = draw(columns())
    values["rules"] = Rules(gin_bonus=draw(st.integers(0, 50)), knock_limit=draw(st.integers(0, 10))).as_dict()
    game = GameRow({column.key: values.get(column.key) for column in Game.__table__.columns})
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
def test_a_hand_is_built_as_its_schema_dumps_it(hand: HandInGame) -> None:
    fast = hand_dict(hand)
    assert json.dumps(fast) == json.dumps(Schema.dump(HandSchema(), hand))
    assert HandSchema().dump(hand) == fast


def test_a_game_rows_rules_and_state_are_made_once_and_its_rules_kept_by_replace() -> None:
    values = {
        "rules": {"target_score": 150, "knock_limit": 10, "gin_bonus": 25, "undercut_bonus": 10},
        "scores": {"1": 20, "2": 0, "3": 5},
        "roles": {"box": 1, "captain": 2, "sitter": 3},
        "winner": None,
        "hands_played": 2,
        "out_of_turn": [],
        "version": 3,
    }
    row = GameRow(values)
    rules, state = row.rule_options, row.state()
    assert rules == Rules(target_score=150) and row.rule_options is rules
    assert state.scores == {1: 20, 2: 0, 3: 5} and state.hands_played == 2 and row.state() is state
    later = row.replace(version=4, hands_played=3)
    assert later.rule_options is rules  # the same rules: not made again
    assert later.state().hands_played == 3  # a state of its own
    changed = row.replace(rules={**values["rules"], "target_score": 200})
    assert changed.rule_options == Rules(target_score=200)
