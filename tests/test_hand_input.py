"""A hand's body as ``HandInSchema`` loads it: a hand in one of its three
forms exactly, three-handed (R8) or two-player (R28), is loaded at once, to
what the schema's fields load it to."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema

from referee import DECK
from schemas.hands import HandInSchema

KNOCKER = st.sampled_from(["box", "captain", "dealer", "non_dealer"])
CARDS = st.lists(st.sampled_from([str(c) for c in DECK] + ["10h", "1s", "7♥"]), max_size=11)
SEATING = st.fixed_dictionaries({"box": st.integers(1, 9), "captain": st.integers(1, 9)}) | st.fixed_dictionaries(
    {"dealer": st.integers(1, 9), "non_dealer": st.integers(1, 9)}
)


@st.composite
def hand_body(draw: Any) -> dict[str, Any]:
    if draw(st.booleans()):
        body: dict[str, Any] = {
            "knocker": draw(KNOCKER),
            "knocker_deadwood_count": draw(st.integers(0, 12)),
            "defender_deadwood_count": draw(st.integers(0, 60)),
        }
    else:
        knocker: dict[str, Any] = {"cards": draw(CARDS)}
        if draw(st.booleans()):
            knocker["discard"] = draw(CARDS.map(lambda c: c[0] if c else "QS"))
        body = {"knocker": draw(KNOCKER), "knocker_hand": knocker, "defender_hand": {"cards": draw(CARDS)}}
    if draw(st.booleans()):
        body["seating"] = draw(SEATING)
    return body


@settings(max_examples=200, deadline=None)
@given(hand_body())
def test_r28_a_hand_of_either_game_loads_at_once_as_the_fields_load_it(body: Any) -> None:
    assert HandInSchema().load(copy.deepcopy(body)) == Schema.load(HandInSchema(), copy.deepcopy(body))


@pytest.mark.parametrize("knocker", ["dealer", "non_dealer"])
def test_r28_a_two_player_hand_is_loaded_without_the_fields(monkeypatch: pytest.MonkeyPatch, knocker: str) -> None:
    by_cards = {"knocker": knocker, "knocker_hand": {"cards": ["th", "AS"]}, "defender_hand": {"cards": ["2C"]}}
    by_counts = {"knocker": knocker, "knocker_deadwood_count": 4, "defender_deadwood_count": 20}
    expected = [Schema.load(HandInSchema(), copy.deepcopy(body)) for body in (by_cards, by_counts)]
    through: list[Any] = []
    load = Schema.load
    monkeypatch.setattr(Schema, "load", lambda self, *a, **k: through.append(a) or load(self, *a, **k))
    assert [HandInSchema().load(copy.deepcopy(body)) for body in (by_cards, by_counts)] == expected
    assert through == []
