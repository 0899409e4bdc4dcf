"""Hostile input to the card and hand parsers: arbitrary text and JSON-shaped
data raise only the documented errors (marshmallow's ValidationError for
shape, the referee's errors for rules), never anything else."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from api.judging import judge_input
from referee import DECK, CardSyntaxError, RefereeError, Rules, parse_card
from schemas.hands import HandInSchema
from schemas.referee import KnockInSchema, RefereeHandInSchema

pytestmark = pytest.mark.slow  # long property and fuzz runs: make test-slow, make check, CI

CARD_TEXT = st.one_of(st.sampled_from([str(c) for c in DECK] + ["10h", "T♥️", "q♠", " as ", "1C"]), st.text(max_size=6))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | CARD_TEXT,
    lambda children: st.lists(children, max_size=12) | st.dictionaries(st.text(max_size=12), children, max_size=6),
    max_leaves=40,
)
HAND_KEYS = ["cards", "melds", "discard", "layoffs"]
BODY = st.fixed_dictionaries(
    {},
    optional={
        "knocker": st.sampled_from(["box", "captain", "sitter", ""]) | JSON,
        "knocker_hand": st.fixed_dictionaries(
            {}, optional={k: JSON | st.lists(CARD_TEXT, max_size=12) for k in HAND_KEYS}
        ),
        "defender_hand": st.fixed_dictionaries(
            {}, optional={k: JSON | st.lists(CARD_TEXT, max_size=12) for k in HAND_KEYS}
        ),
        "knocker_deadwood_count": st.integers(-5, 120) | JSON,
        "defender_deadwood_count": st.integers(-5, 120) | JSON,
        "outcome": st.sampled_from(["draw", "knock"]) | JSON,
        "rules": JSON,
    },
)
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(st.text(max_size=12) | JSON)
def test_r3_any_text_is_a_card_or_a_card_syntax_error(text: Any) -> None:
    try:
        card = parse_card(text)
    except CardSyntaxError as err:
        assert err.text == text and err.rule == "R3"
    else:
        assert parse_card(str(card)) == card


def _load_and_judge(schema: Any, body: Any) -> None:
    try:
        data = schema.load(body)
    except ValidationError:
        return
    try:
        if isinstance(schema, KnockInSchema):
            from referee import judge_knock

            judge_knock(data["cards"], data.get("melds"), data.get("discard"), Rules.from_options(data.get("rules")))
        else:
            judge_input(data, Rules.from_options(data.get("rules")))
    except RefereeError:
        return


@FUZZ
@given(BODY | JSON)
def test_a_recorded_hand_body_is_judged_or_refused_with_a_documented_error(body: Any) -> None:
    _load_and_judge(HandInSchema(), body)


@FUZZ
@given(BODY | JSON)
def test_a_referee_hand_body_is_judged_or_refused_with_a_documented_error(body: Any) -> None:
    _load_and_judge(RefereeHandInSchema(), body)


@FUZZ
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "cards": JSON | st.lists(CARD_TEXT, max_size=13),
            "melds": JSON,
            "discard": CARD_TEXT | JSON,
            "rules": JSON,
        },
    )
    | JSON
)
def test_a_knock_body_is_judged_or_refused_with_a_documented_error(body: Any) -> None:
    _load_and_judge(KnockInSchema(), body)
