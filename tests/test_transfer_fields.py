"""The import document's one-pass fields (schemas.transfer): for any value,
the same result, or the same errors, as the marshmallow fields they stand
for: ``_Scores`` for ``fields.Dict`` of player ids to counts, ``_RolesField``
for ``fields.Nested(_Roles)``."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, validate

from schemas.fields import MAX_ID
from schemas.transfer import _PLAYER_KEY, _Roles, _RolesField, _Scores

KEY = st.one_of(
    st.sampled_from(["1", "17", "2147483647", "9999999999", "10000000000", "0", "07", "17\n", " 1", "-1", "", "x"]),
    st.text(max_size=4),
)
NUMBER = st.one_of(
    st.integers(-3, 5), st.sampled_from([MAX_ID, MAX_ID + 1, 2**40]), st.booleans(), st.floats(allow_nan=False)
)
LEAF = st.none() | NUMBER | KEY
VALUE = st.recursive(
    LEAF, lambda children: st.lists(children, max_size=4) | st.dictionaries(KEY, children, max_size=4), max_leaves=12
)
SCORES = st.dictionaries(KEY, NUMBER | LEAF, max_size=4)
ROLE = st.sampled_from(["box", "captain", "sitter", "other", "Box"])
ROLES = st.dictionaries(ROLE, NUMBER | LEAF, max_size=4) | st.fixed_dictionaries(
    {"box": NUMBER, "captain": NUMBER, "sitter": NUMBER}
)


class Fast(Schema):
    scores = _Scores(required=True)
    seating = _RolesField(required=True)


class Plain(Schema):
    scores = fields.Dict(
        keys=fields.String(validate=_PLAYER_KEY),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_ID)),
        required=True,
    )
    seating = fields.Nested(_Roles, required=True)


def _load(schema: Schema, value: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "ok", schema.load(value)
    except ValidationError as err:
        return "error", (err.messages, err.valid_data)


@settings(max_examples=500, deadline=None)
@given(SCORES | VALUE, ROLES | VALUE)
def test_the_one_pass_fields_load_as_the_fields_they_stand_for(scores: Any, seating: Any) -> None:
    value = {"scores": scores, "seating": seating}
    assert _load(Fast(), value) == _load(Plain(), value)


def test_the_one_pass_fields_name_what_is_wrong_as_the_plain_ones_do() -> None:
    value = {"scores": {"17": 26, "07": 1, "3": -1}, "seating": {"box": 1, "captain": True, "sitter": 3}}
    status, (messages, _) = _load(Fast(), value)
    assert status == "error"
    assert messages == {
        "scores": {
            "07": {"key": ["'07' is not a player id"]},
            "3": {"value": ["Must be greater than or equal to 0 and less than or equal to 2147483647."]},
        },
        "seating": {"captain": ["Not a valid integer."]},
    }
    assert _load(Fast(), {"scores": {"1": 0}, "seating": {"box": 1, "captain": 2, "sitter": 3}}) == (
        "ok",
        {"scores": {"1": 0}, "seating": {"box": 1, "captain": 2, "sitter": 3}},
    )
