"""schemas.fields.CardList reads a list of cards in one pass: for any value,
the same cards, or the same errors, as marshmallow's own
``fields.List(CardField())``, validators included."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, validate

from referee import DECK, parse_card
from schemas.fields import CardField, CardList

CARD_TEXT = st.one_of(st.sampled_from([str(c) for c in DECK] + ["10h", "T♥️", "q♠", " as ", "1C"]), st.text(max_size=4))
VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.floats(allow_nan=False) | CARD_TEXT,
    lambda children: st.lists(children, max_size=14) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=30,
)


class Fast(Schema):
    cards = CardList(CardField(), validate=validate.Length(max=13), required=True)


class Plain(Schema):
    cards = fields.List(CardField(), validate=validate.Length(max=13), required=True)


def _load(schema: Schema, value: Any) -> tuple[str, Any]:
    try:
        return "ok", schema.load({"cards": value})
    except ValidationError as err:
        return "error", (err.messages, err.valid_data)


@settings(max_examples=400, deadline=None)
@given(VALUE | st.lists(CARD_TEXT | st.none(), max_size=15))
def test_a_card_list_loads_as_a_list_of_card_fields(value: Any) -> None:
    assert _load(Fast(), value) == _load(Plain(), value)


def test_a_card_list_names_each_bad_card_by_its_index() -> None:
    _, (messages, valid) = _load(Fast(), ["AS", "ZZ", None, "10h"])
    assert messages == {"cards": {1: ['"ZZ" is not a card (R3)'], 2: ["Field may not be null."]}}
    assert valid == {"cards": [parse_card("AS"), parse_card("10H")]}
    assert _load(Fast(), "AS KS") == ("error", ({"cards": ["Not a valid list."]}, {}))
