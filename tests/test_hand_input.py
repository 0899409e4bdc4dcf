"""A hand's body as ``HandInSchema`` loads it (``schemas.hands.read_hand``):
one of three forms (R21 by cards, R25 by counts, R12 a draw), three-handed
(R8) or two-player (R28), read in one pass with marshmallow's own messages,
every wrong member named with its path."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from referee import parse_card
from schemas.hands import HandCorrectionSchema, HandInSchema
from schemas.referee import KnockInSchema, RefereeHandInSchema


def cards(text: str) -> list[Any]:
    return [parse_card(c) for c in text.split()]


def errors(schema: Any, body: Any) -> Any:
    with pytest.raises(ValidationError) as caught:
        schema.load(copy.deepcopy(body))
    return caught.value.messages


def test_r21_a_hand_by_cards_loads_its_cards_in_any_spelling_and_leaves_undeclared_parts_none() -> None:
    body = {
        "knocker": "captain",
        "knocker_hand": {"cards": ["as", "2♠", "3S", "10h", "JH", "QH", "4D", "5D", "6D", "KC"], "discard": "tc"},
        "defender_hand": {"cards": ["AH", "2H", "3H", "7H", "8H", "9H", "2S", "3S", "7S", "8S"], "melds": []},
    }
    assert HandInSchema().load(body) == {
        "knocker": "captain",
        "knocker_hand": {"cards": cards("AS 2S 3S 10H JH QH 4D 5D 6D KC"), "melds": None, "discard": parse_card("10C")},
        "defender_hand": {"cards": cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"), "melds": [], "layoffs": None},
    }


def test_r23_r28_r32_r33_declared_melds_layoffs_a_seating_an_upcard_and_a_big_gin_are_loaded() -> None:
    body = {
        "knocker": "dealer",
        "knocker_hand": {"cards": ["AS", "2S", "3S"], "melds": [["AS", "2S", "3S"]]},
        "defender_hand": {"cards": ["4S"], "layoffs": [{"card": "4s", "meld": 0}]},
        "upcard": "7d",
        "big_gin": True,
        "seating": {"dealer": 4, "non_dealer": 9},
    }
    assert HandInSchema().load(body) == {
        "knocker": "dealer",
        "knocker_hand": {"cards": cards("AS 2S 3S"), "melds": [cards("AS 2S 3S")], "discard": None},
        "defender_hand": {"cards": cards("4S"), "melds": None, "layoffs": [{"card": parse_card("4S"), "meld": 0}]},
        "upcard": parse_card("7D"),
        "big_gin": True,
        "seating": {"dealer": 4, "non_dealer": 9},
    }


def test_r25_r12_counts_and_a_draw_load_as_given() -> None:
    counts = {
        "knocker": "box",
        "knocker_deadwood_count": 7,
        "defender_deadwood_count": 31,
        "seating": {"box": 1, "captain": 2},
    }
    assert HandInSchema().load(counts) == counts
    assert HandInSchema().load({"outcome": "draw"}) == {"outcome": "draw"}
    assert HandCorrectionSchema().load({"outcome": "draw", "reason": "  miscounted \n"}) == {
        "outcome": "draw",
        "reason": "miscounted",
    }


@pytest.mark.parametrize(
    ("body", "messages"),
    [
        ([], {"_schema": ["Invalid input type."]}),
        (
            {"knocker": "box", "knocker_hand": {"cards": ["AS", "XX", 3]}, "defender_hand": {"cards": "AS"}},
            {
                "knocker_hand": {"cards": {1: ['"XX" is not a card (R3)'], 2: ["3 is not a card (R3)"]}},
                "defender_hand": {"cards": ["Not a valid list."]},
            },
        ),
        (
            {"knocker": "boxx", "knocker_deadwood_count": "5", "defender_deadwood_count": True},
            {
                "knocker": ["Must be one of: box, captain."],
                "knocker_deadwood_count": ["Not a valid integer."],
                "defender_deadwood_count": ["Not a valid integer."],
            },
        ),
        (
            {
                "knocker": None,
                "knocker_hand": {"cards": ["AS"], "melds": [["AS"], "x", None], "foo": 1},
                "defender_hand": {"cards": [None], "layoffs": [{"card": "AS", "meld": 99}, {"card": "AS"}, "x"]},
            },
            {
                "knocker": ["Field may not be null."],
                "knocker_hand": {
                    "melds": {1: ["Not a valid list."], 2: ["Field may not be null."]},
                    "foo": ["Unknown field."],
                },
                "defender_hand": {
                    "cards": {0: ["Field may not be null."]},
                    "layoffs": {
                        0: {"meld": ["Must be greater than or equal to 0 and less than or equal to 51."]},
                        1: {"meld": ["Missing data for required field."]},
                        2: {"_schema": ["Invalid input type."]},
                    },
                },
            },
        ),
        (
            {
                "knocker": "box",
                "knocker_hand": {"cards": ["AS"] * 53},
                "defender_hand": {"cards": [], "melds": [[]] * 11},
            },
            {
                "knocker_hand": {"cards": ["Longer than maximum length 52."]},
                "defender_hand": {"melds": ["Longer than maximum length 10."]},
            },
        ),
        (
            {"upcard": 5, "big_gin": "maybe", "outcome": "won", "seating": "x", "sitter": 3},
            {
                "upcard": ["5 is not a card (R3)"],
                "big_gin": ["Not a valid boolean."],
                "outcome": ["Must be one of: draw."],
                "seating": {"_schema": ["Invalid input type."]},
                "sitter": ["Unknown field."],
            },
        ),
        (
            {"outcome": "draw", "seating": {"dealer": 1}},
            {"seating": {"non_dealer": ["Missing data for required field."]}},
        ),
        # the form is checked once the members are right (R12, R21, R25)
        ({"outcome": "draw", "knocker": "box"}, {"knocker": ["a draw has no knocker, hands or counts (R12)"]}),
        (
            {"knocker": "box"},
            {
                "knocker_hand": ["Missing data for required field."],
                "defender_hand": ["Missing data for required field."],
            },
        ),
        (
            {"knocker_hand": {"cards": []}, "knocker_deadwood_count": 3},
            {
                "knocker": ["Missing data for required field."],
                "knocker_deadwood_count": ["give the hands' cards or the counts, not both"],
                "defender_deadwood_count": ["Missing data for required field."],
            },
        ),
    ],
)
def test_r3_r12_r21_r25_a_wrong_hand_names_every_wrong_member_by_its_path(body: Any, messages: Any) -> None:
    assert errors(HandInSchema(), body) == messages


def test_r26_a_correction_reads_its_reason_by_its_field() -> None:
    assert errors(HandCorrectionSchema(), {"outcome": "draw", "reason": " "}) == {"reason": ["must not be blank"]}
    assert errors(HandInSchema(), {"outcome": "draw", "reason": "x"}) == {"reason": ["Unknown field."]}


def test_r21_a_knock_and_a_hand_without_a_game_read_their_cards_by_the_same_readers() -> None:
    assert KnockInSchema().load({"cards": ["as"], "upcard": "2c"}) == {
        "cards": cards("AS"),
        "melds": None,
        "discard": None,
        "upcard": parse_card("2C"),
    }
    assert errors(KnockInSchema(), {"melds": [["QQ"]], "x": 1}) == {
        "cards": ["Missing data for required field."],
        "melds": {0: {0: ['"QQ" is not a card (R3)']}},
        "x": ["Unknown field."],
    }
    assert errors(RefereeHandInSchema(), {"knocker_hand": None, "defender_hand": {"cards": ["1z"]}}) == {
        "knocker_hand": ["Field may not be null."],
        "defender_hand": {"cards": {0: ['"1z" is not a card (R3)']}},
    }


def test_a_parsed_shape_is_loaded_whole_one_at_a_time() -> None:
    with pytest.raises(ValueError, match="loaded whole"):
        HandInSchema().load([{"outcome": "draw"}], many=True)
    with pytest.raises(ValueError, match="loaded whole"):
        HandInSchema().load({"outcome": "draw"}, partial=True)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)
MEMBERS = [
    "knocker",
    "knocker_hand",
    "defender_hand",
    "upcard",
    "big_gin",
    "outcome",
    "seating",
    "knocker_deadwood_count",
]
CARD = st.sampled_from(["AS", "10h", "T♥", "kd", "ZZ", "", " 7c "]) | JSON
HAND = st.fixed_dictionaries({}, optional={"cards": st.lists(CARD, max_size=3) | JSON, "melds": JSON, "layoffs": JSON})
BODY = st.fixed_dictionaries(
    {},
    optional={
        "knocker": st.sampled_from(["box", "captain", "dealer", "sitter"]) | JSON,
        "knocker_hand": HAND | JSON,
        "defender_hand": HAND | JSON,
        "knocker_deadwood_count": st.integers(-1, 12) | JSON,
        "defender_deadwood_count": st.integers(0, 60) | JSON,
        "outcome": st.just("draw") | JSON,
        "seating": JSON,
        "upcard": CARD,
        "big_gin": JSON,
    },
)


@settings(max_examples=400, deadline=None)
@given(BODY | JSON)
def test_any_json_body_is_loaded_or_refused_with_messages_by_member(body: Any) -> None:
    """Whatever is sent: a loaded hand, or a ValidationError whose messages
    name members of the body or of the shape, and serialise as JSON."""
    try:
        loaded = HandInSchema().load(copy.deepcopy(body))
    except ValidationError as err:
        assert isinstance(err.messages, dict)
        json.dumps(err.messages)
        named = set(err.messages)
        assert named <= {"_schema"} | set(MEMBERS) | {"defender_deadwood_count"} | set(
            body if isinstance(body, dict) else ()
        )
        return
    assert isinstance(body, dict)
    assert set(loaded) == set(body)
    assert ("outcome" in loaded) != ("knocker" in loaded)
