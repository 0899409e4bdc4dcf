"""The common shape of an import's games (schemas.transfer_fast): a game it
loads, it loads to exactly what ``GameImportSchema`` loads it to; a game of
the common shape it always loads; anything else it leaves to the schema.
Games are drawn whole (every form of a hand's input, cards in any spelling
of R3, dates with offsets) and then broken one member at a time."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError

from api.judging import _identical, _same_members
from schemas.fields import MAX_ID
from schemas.hands import HandInSchema
from schemas.transfer import GAME_SCHEMAS
from schemas.transfer_fast import _UnusualError, load_game, load_input

CARD = st.sampled_from(["AS", "10H", "th", " 2c ", "KD", "1s", "Q♥", "J♣️", "9d", "AH", "5S"])
CARDS = st.lists(CARD, min_size=0, max_size=12)
WHEN = st.sampled_from(
    [
        "2024-03-01T19:00:00+00:00",
        "2024-03-01T19:05:00Z",
        "2024-03-01T21:05:00+02:00",
        "2024-03-01T19:05:00",
        "2024-03-01T19:05:00.123456+00:00",
        "2024-03-01T18:00:00-03:00",
    ]
)
ID = st.integers(1, 40) | st.just(MAX_ID)
KNOCKER = st.sampled_from(["box", "captain"])
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    1.5,
    0,
    -1,
    52,
    2**70,
    MAX_ID + 1,
    "",
    "x",
    "xx",
    "sitter",
    "Box",
    "draw",
    "2024-13-01",
    "0001-01-01T00:00:00+01:00",
    "2020-01-01T00:00:00+00:00",
    [],
    {},
    [1],
    ["AS"],
    {"a": 1},
    {"box": 1, "captain": 2, "sitter": 3},
]
ODD = st.sampled_from(ODD_VALUES)


@st.composite
def hand_input(draw: Any) -> dict[str, Any]:
    form = draw(st.sampled_from(["cards", "counts", "draw"]))
    if form == "draw":
        return {"outcome": "draw"}
    if form == "counts":
        return {
            "knocker": draw(KNOCKER),
            "knocker_deadwood_count": draw(st.integers(0, 12)),
            "defender_deadwood_count": draw(st.integers(0, 60)),
        }
    knocker: dict[str, Any] = {"cards": draw(CARDS)}
    defender: dict[str, Any] = {"cards": draw(CARDS)}
    for each in (knocker, defender):
        if draw(st.booleans()):
            each["melds"] = draw(st.none() | st.lists(st.lists(CARD, max_size=4), max_size=3))
    if draw(st.booleans()):
        knocker["discard"] = draw(st.none() | CARD)
    if draw(st.booleans()):
        defender["layoffs"] = draw(
            st.none() | st.lists(st.fixed_dictionaries({"card": CARD, "meld": st.integers(0, 51)}), max_size=3)
        )
    return {"knocker": draw(KNOCKER), "knocker_hand": knocker, "defender_hand": defender}


ROLES = st.fixed_dictionaries({"box": ID, "captain": ID, "sitter": ID})
SCORES = st.dictionaries(st.sampled_from(["1", "2", "3", "17"]), st.integers(0, 200), max_size=3)
RULING = st.fixed_dictionaries({"outcome": st.sampled_from(["knock", "gin"]), "points": st.integers(0, 40)})
MODE = st.sampled_from(["cards", "counts", "draw"])


@st.composite
def hand(draw: Any, number: int) -> dict[str, Any]:
    return {
        "number": number,
        "mode": draw(MODE),
        "seating": draw(ROLES),
        "knocker": draw(st.none() | KNOCKER),
        "input": draw(hand_input()),
        "ruling": draw(RULING),
        "recorded_at": draw(WHEN),
        "corrected_at": draw(st.none() | WHEN),  # before recorded_at, now and then: the schema's 422
    }


@st.composite
def revision(draw: Any, number: int) -> dict[str, Any]:
    return {
        "number": number,
        "revision": draw(st.integers(1, 3)),
        "action": draw(st.sampled_from(["recorded", "corrected", "undone"])),
        "mode": draw(MODE),
        "seating": draw(ROLES),
        "knocker": draw(st.none() | KNOCKER),
        "input": draw(hand_input()),
        "ruling": draw(RULING),
        "scores": draw(SCORES),
        "game_scores": draw(SCORES),
        "made_at": draw(WHEN),
        "reason": draw(st.none() | st.sampled_from(["misdeal", "  a reason  "])),
        "dispute": draw(st.none() | ID),
    }


@st.composite
def game(draw: Any, version: int) -> dict[str, Any]:
    n = draw(st.integers(0, 3))
    out = {
        "id": draw(ID),
        "played_at": draw(WHEN),
        "players": draw(st.lists(ID, min_size=3, max_size=3)),
        "cut": draw(st.none() | st.fixed_dictionaries({"1": CARD, "2": CARD, "3": CARD})),
        "first_roles": draw(ROLES),
        "rules": draw(
            st.fixed_dictionaries(
                {
                    "gin_bonus": st.integers(0, 100),
                    "undercut_bonus": st.just(25),
                    "knock_limit": st.integers(0, 10),
                    "target_score": st.just(100),
                }
            )
        ),
        "status": draw(st.sampled_from(["in_progress", "finished"])),
        "scores": draw(SCORES),
        "winner": draw(st.none() | ID),
        "hands": [draw(hand(i + 1)) for i in range(n)],
    }
    if version == 2:
        out["revisions"] = [draw(revision(i + 1)) for i in range(n)]
        out["disputes"] = []
    return out


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


@st.composite
def broken(draw: Any, whole: dict[str, Any]) -> dict[str, Any]:
    """``whole`` with one member replaced, dropped, or one member added."""
    out = copy.deepcopy(whole)
    path = draw(st.sampled_from(_paths(out)[1:] or [("id",)]))
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    how = draw(st.sampled_from(["replace", "drop", "add"]))
    if how == "replace":
        parent[path[-1]] = draw(ODD)
    elif how == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent["unknown"] = draw(ODD)
    else:
        parent.append(draw(ODD))
    return out


def _schema_load(version: int, value: Any) -> tuple[str, Any]:
    try:
        return "ok", GAME_SCHEMAS[version]().load(copy.deepcopy(value))
    except ValidationError as err:
        return "error", err.messages


def _check(version: int, value: Any) -> tuple[str, Any]:
    expected = _schema_load(version, value)
    fast = load_game(copy.deepcopy(value), version)
    if fast is not None:
        assert expected == ("ok", fast)
    return expected


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([1, 2]).flatmap(lambda v: st.tuples(st.just(v), game(v))))
def test_a_game_of_the_common_shape_loads_fast_exactly_as_the_schema_loads_it(case: tuple[int, dict[str, Any]]) -> None:
    version, value = case
    expected = _check(version, value)
    assert (load_game(copy.deepcopy(value), version) is not None) == (expected[0] == "ok")


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from([1, 2])
    .flatmap(lambda v: st.tuples(st.just(v), game(v)))
    .flatmap(lambda case: st.tuples(st.just(case[0]), broken(case[1])))
)
def test_a_broken_game_loads_as_the_schema_loads_it_or_is_left_to_it(case: tuple[int, dict[str, Any]]) -> None:
    _check(*case)


@settings(max_examples=400, deadline=None)
@given(hand_input() | ODD)
def test_an_input_of_one_of_the_three_forms_loads_as_hand_in_schema_loads_it(value: Any) -> None:
    try:
        expected: tuple[str, Any] = ("ok", Schema.load(HandInSchema(), copy.deepcopy(value)))
    except ValidationError:
        expected = ("error", None)
    try:
        fast: tuple[str, Any] | None = ("ok", load_input(copy.deepcopy(value)))
    except _UnusualError:  # not the common shape: the schema decides
        fast = None
    if fast is not None:
        assert fast == expected


def _representative(version: int) -> dict[str, Any]:
    """A game with every member the common shape takes, each in use: cards in
    three spellings, melds, a discard, layoffs, a correction, a reason."""
    cards = {
        "knocker": "box",
        "knocker_hand": {
            "cards": ["5H", "6h", "7♥", "2S", "2D", "2C", "JS", "JD", "JC", "1s"],
            "melds": [["5H", "6H", "7H"], ["2S", "2D", "2C"]],
            "discard": "QS",
        },
        "defender_hand": {
            "cards": ["8H", "9H", "3D", "4D", "5D", "8C", "9C", "10C", "3S", "4C"],
            "melds": None,
            "layoffs": [{"card": "8H", "meld": 0}, {"card": "9H", "meld": 0}],
        },
    }
    counts = {"knocker": "captain", "knocker_deadwood_count": 4, "defender_deadwood_count": 30}
    seating = {"box": 1, "captain": 2, "sitter": 3}
    hands = [
        {
            "number": 1,
            "mode": "cards",
            "seating": seating,
            "knocker": "box",
            "input": cards,
            "ruling": {"outcome": "knock", "points": 6},
            "recorded_at": "2024-03-01T19:05:00+00:00",
            "corrected_at": "2024-03-01T19:30:00Z",
        },
        {
            "number": 2,
            "mode": "counts",
            "seating": {"box": 2, "captain": 3, "sitter": 1},
            "knocker": "captain",
            "input": counts,
            "ruling": {"outcome": "knock", "points": 26},
            "recorded_at": "2024-03-01T19:35:00+01:00",
            "corrected_at": None,
        },
    ]
    out: dict[str, Any] = {
        "id": 7,
        "played_at": "2024-03-01T19:00:00+00:00",
        "players": [1, 2, 3],
        "cut": {"1": "KD", "2": "2c", "3": "10H"},
        "first_roles": seating,
        "rules": {"gin_bonus": 25, "undercut_bonus": 25, "knock_limit": 10, "target_score": 100},
        "status": "in_progress",
        "scores": {"1": 6, "2": 26, "3": 0},
        "winner": None,
        "hands": hands,
    }
    if version == 2:
        out["revisions"] = [
            {
                "number": 1,
                "revision": 1,
                "action": "recorded",
                "mode": "draw",
                "seating": seating,
                "knocker": None,
                "input": {"outcome": "draw"},
                "ruling": {"outcome": "draw", "points": 0},
                "scores": {"1": 0},
                "game_scores": {"1": 0, "2": 0, "3": 0},
                "made_at": "2024-03-01T19:05:00+00:00",
                "reason": None,
                "dispute": None,
            },
            {
                "number": 1,
                "revision": 2,
                "action": "corrected",
                "mode": "cards",
                "seating": seating,
                "knocker": "box",
                "input": cards,
                "ruling": {"outcome": "knock", "points": 6},
                "scores": {"1": 6},
                "game_scores": {"1": 6, "2": 0, "3": 0},
                "made_at": "2024-03-01T19:30:00+00:00",
                "reason": "  the wrong hand was entered ",
                "dispute": 1,
            },
        ]
        out["disputes"] = []
    return out


def _variants(whole: dict[str, Any]) -> list[dict[str, Any]]:
    """``whole`` with each of its members in turn replaced by each odd value,
    dropped, and given an unknown neighbour (or, in a list, one more item)."""
    out = []
    for path in _paths(whole)[1:]:
        for how in ("drop", "add", *range(len(ODD_VALUES))):
            value = copy.deepcopy(whole)
            parent = value
            for step in path[:-1]:
                parent = parent[step]
            if how == "drop":
                if not isinstance(parent, dict):
                    continue
                del parent[path[-1]]
            elif how == "add":
                if isinstance(parent, dict):
                    parent["unknown"] = 1
                else:
                    parent.append(parent[-1])
            else:
                parent[path[-1]] = copy.deepcopy(ODD_VALUES[how])
            out.append(value)
    return out


def test_every_member_of_a_game_broken_in_every_way_loads_as_the_schema_loads_it() -> None:
    for version in (1, 2):
        whole = _representative(version)
        assert _check(version, whole)[0] == "ok"
        assert load_game(copy.deepcopy(whole), version) is not None
        outcomes = [_check(version, value)[0] for value in _variants(whole)]
        assert "ok" in outcomes and "error" in outcomes


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
