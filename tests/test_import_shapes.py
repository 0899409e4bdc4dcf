"""The shapes of an import's games (schemas.transfer, read by schemas.readers):
a game as an export writes it loads to exact values; every member that is
wrong is named by its path, in marshmallow's own messages; a game of a preset
(R27, R28, R36) by its own shape. And the comparison of what a document says
with what the referee derives (api.judging._identical)."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from api.judging import _game_shape, _identical, _same_members
from referee import parse_card
from referee.presets import Preset, PresetRules
from schemas.fields import MAX_ID
from schemas.transfer import CUTTHROAT_GAME, GAME, GAME_V1, TWO_PLAYER_GAME, read_scores

RULING = {"outcome": "knock", "points": 12}
WHEN = "2024-03-01T21:05:00+02:00"


def three_handed(version: int = 2) -> dict[str, Any]:
    game: dict[str, Any] = {
        "id": 7,
        "played_at": "2024-03-01T19:00:00",
        "players": [1, 2, 3],
        "cut": {"1": "as", "2": "10h", "3": "KD"},
        "first_roles": {"box": 1, "captain": 2, "sitter": 3},
        "rules": {"gin_bonus": 25, "undercut_bonus": 25, "knock_limit": 10, "target_score": 100},
        "status": "in_progress",
        "scores": {"1": 12},
        "winner": None,
        "hands": [
            {
                "number": 1,
                "mode": "counts",
                "seating": {"box": 1, "captain": 2, "sitter": 3},
                "knocker": "box",
                "input": {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 15},
                "ruling": RULING,
                "recorded_at": WHEN,
                "corrected_at": None,
            }
        ],
    }
    if version == 2:
        game["revisions"] = [
            {
                "number": 1,
                "revision": 1,
                "action": "recorded",
                "mode": "counts",
                "seating": {"box": 1, "captain": 2, "sitter": 3},
                "knocker": "box",
                "input": {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 15},
                "ruling": RULING,
                "scores": {"1": 12},
                "game_scores": {"1": 12},
                "made_at": WHEN,
                "reason": None,
                "dispute": None,
            }
        ]
        game["disputes"] = []
    return game


def two_player(preset: str = "classic") -> dict[str, Any]:
    game = three_handed()
    seats = {"dealer": 1, "non_dealer": 2, **({"sitter": 3} if preset == "cutthroat" else {})}
    game["players"] = [1, 2, 3] if preset == "cutthroat" else [1, 2]
    game["first_roles"] = seats
    game["rules"] = {"preset": preset}
    for each in (*game["hands"], *game["revisions"]):
        each["seating"], each["knocker"] = dict(seats), "dealer"
        each["input"]["knocker"] = "dealer"
    return game


def errors(shape: Any, value: Any) -> Any:
    with pytest.raises(ValidationError) as caught:
        shape.load(copy.deepcopy(value))
    return caught.value.messages


def test_a_game_as_exported_loads_to_exact_values() -> None:
    loaded = GAME.load(three_handed())
    assert loaded["played_at"] == datetime(2024, 3, 1, 19, 0, tzinfo=UTC)  # no offset: UTC
    assert loaded["hands"][0]["recorded_at"] == datetime(2024, 3, 1, 19, 5, tzinfo=UTC)
    assert loaded["cut"] == {"1": parse_card("AS"), "2": parse_card("10H"), "3": parse_card("KD")}
    assert loaded["hands"][0]["input"] == {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 15}
    assert loaded["revisions"][0]["made_at"] == datetime(2024, 3, 1, 19, 5, tzinfo=UTC)
    assert loaded["revisions"][0]["game_scores"] == {"1": 12}
    assert loaded["rules"] == {"gin_bonus": 25, "undercut_bonus": 25, "knock_limit": 10, "target_score": 100}
    v1 = three_handed(1)
    assert GAME_V1.load(v1).keys() == v1.keys()
    assert errors(GAME_V1, three_handed()) == {"revisions": ["Unknown field."], "disputes": ["Unknown field."]}


def test_every_wrong_member_of_a_game_is_named_by_its_path() -> None:
    game = three_handed()
    game["players"] = [1, 2]
    game["scores"] = {"x1": 3, "2": -1, "3": True}
    game["hands"][0]["seating"] = {"box": 0, "captain": 2}
    game["hands"][0]["input"] = {"knocker": "sitter", "knocker_deadwood_count": 3, "defender_deadwood_count": 9}
    game["revisions"][0]["made_at"] = "yesterday"
    game["revisions"][0]["reason"] = "  "
    del game["winner"]
    game["extra"] = 1
    assert errors(GAME, game) == {
        "players": ["Length must be 3."],
        "scores": {
            "x1": {"key": ["'x1' is not a player id"]},
            "2": {"value": ["Must be greater than or equal to 0 and less than or equal to 2147483647."]},
            "3": {"value": ["Not a valid integer."]},
        },
        "winner": ["Missing data for required field."],
        "hands": {
            0: {
                "seating": {
                    "box": ["Must be greater than or equal to 1 and less than or equal to 2147483647."],
                    "sitter": ["Missing data for required field."],
                },
                "input": {"knocker": ["Must be one of: box, captain."]},
            }
        },
        "revisions": {0: {"made_at": ["Not a valid datetime."], "reason": ["must not be blank"]}},
        "extra": ["Unknown field."],
    }


def test_a_hand_corrected_before_it_was_recorded_is_named_once_its_members_are_right() -> None:
    game = three_handed()
    game["hands"][0]["corrected_at"] = "2024-03-01T19:00:00Z"
    assert errors(GAME, game) == {
        "hands": {
            0: {
                "corrected_at": [
                    "2024-03-01T19:00:00+00:00 is before the hand was recorded (2024-03-01T19:05:00+00:00)"
                ]
            }
        }
    }
    game["hands"][0]["number"] = 0  # a member wrong: the order is not looked at
    assert errors(GAME, game) == {
        "hands": {0: {"number": ["Must be greater than or equal to 1 and less than or equal to 2147483647."]}}
    }


def test_an_instant_past_year_9999_in_utc_is_named_not_an_overflow() -> None:
    game = three_handed()
    game["played_at"] = "9999-12-31T23:30:00-01:00"
    assert errors(GAME, game) == {
        "played_at": ['"9999-12-31T23:30:00-01:00" is out of range: in UTC it must fall within years 1 to 9999']
    }


@pytest.mark.parametrize("preset", ["classic", "straight", "oklahoma", "hollywood"])
def test_r27_r28_a_two_player_game_is_read_by_its_own_shape(preset: str) -> None:
    game = two_player(preset)
    assert _game_shape(game, 3) is TWO_PLAYER_GAME
    loaded = TWO_PLAYER_GAME.load(game)
    assert isinstance(loaded["rules"], PresetRules) and loaded["rules"].preset is Preset(preset)
    assert loaded["hands"][0]["seating"] == {"dealer": 1, "non_dealer": 2}
    game["hands"][0]["knocker"] = "box"
    game["players"] = [1, 2, 3]
    assert errors(TWO_PLAYER_GAME, game) == {
        "players": ["Length must be 2."],
        "hands": {0: {"knocker": ["Must be one of: dealer, non_dealer."]}},
    }


def test_r27_r36_a_cutthroat_game_seats_a_sitter_and_names_its_preset() -> None:
    game = two_player("cutthroat")
    assert _game_shape(game, 3) is CUTTHROAT_GAME
    assert CUTTHROAT_GAME.load(game)["first_roles"] == {"dealer": 1, "non_dealer": 2, "sitter": 3}
    del game["revisions"][0]["seating"]["sitter"]
    assert errors(CUTTHROAT_GAME, game) == {
        "revisions": {0: {"seating": {"sitter": ["Missing data for required field."]}}}
    }
    game = two_player("cutthroat")
    game["rules"] = {"preset": "classic"}
    assert errors(CUTTHROAT_GAME, game) == {"rules": ["a cutthroat game's rules name its preset (R36)"]}
    game = two_player()
    game["rules"] = {"gin_bonus": 25}
    assert _game_shape(game, 3) is GAME and _game_shape(game, 2) is GAME
    assert errors(TWO_PLAYER_GAME, game) == {"rules": ["a two-player game's rules name its preset (R27)"]}


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=4), st.none() | st.booleans() | st.integers(-2, MAX_ID + 2) | st.text(max_size=2), max_size=4
    )
)
def test_scores_are_player_ids_to_counts_or_each_wrong_one_is_named(value: dict[str, Any]) -> None:
    try:
        assert read_scores(value) == value
    except ValidationError as err:
        assert set(err.messages) <= set(value) and err.messages  # type: ignore[arg-type]
        for key, wrong in err.messages.items():  # type: ignore[union-attr]
            good_key = key.isascii() and key.isdigit() and not key.startswith("0") and len(key) <= 10
            good_value = type(value[key]) is int and 0 <= value[key] <= MAX_ID
            assert ("key" in wrong) == (not good_key) and ("value" in wrong) == (not good_value)
        return
    for key, points in value.items():
        assert (
            key.isascii()
            and key.isdigit()
            and not key.startswith("0")
            and type(points) is int
            and 0 <= points <= MAX_ID
        )


JSON_KEY = st.sampled_from(["a", "b", "points", "melds", ""])
JSON_LEAF = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([2**63, 2**64, -(2**70), 10**29])
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != 0 or str(x) == "0.0")
    | st.sampled_from(["", "AS", "10H", "é", "knock"])
)
JSON_VALUE = st.recursive(
    JSON_LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(JSON_KEY, inner, max_size=3), max_leaves=10
)


@settings(max_examples=1000, deadline=None)
@given(JSON_VALUE, JSON_VALUE, st.booleans())
def test_two_json_values_compared_as_texts_are_identical_exactly_when_member_by_member(
    a: Any, b: Any, same: bool
) -> None:
    """api.judging._identical (orjson's sorted texts) against the member-by-member
    comparison it stands for: ``1``, ``1.0`` and ``true`` differ, member order does not."""
    if same:
        b = json.loads(json.dumps(a))  # equal, in another object, members in another order
        if isinstance(b, dict):
            b = dict(reversed(list(b.items())))
    assert _identical(a, b) == _same_members(a, b)
    if same:
        assert _identical(a, b)
