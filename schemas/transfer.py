"""The league export document, as read back by an import."""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate, validates_schema

from schemas.fields import CardField, Name
from schemas.hands import HandInSchema

_ROLE = validate.OneOf(["box", "captain"])
_PLAYER_KEY = validate.Regexp(r"^[1-9][0-9]{0,9}$", error="{input!r} is not a player id")


class _Seating(Schema):
    box = fields.Integer(strict=True, required=True)
    captain = fields.Integer(strict=True, required=True)
    sitter = fields.Integer(strict=True, required=True)


class _SideRuling(Schema):
    class Meta:
        unknown = EXCLUDE

    deadwood_count = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=200))


class _Ruling(Schema):
    """The stored ruling: checked for shape; the rest is kept as given."""

    class Meta:
        unknown = EXCLUDE

    outcome = fields.String(required=True, validate=validate.OneOf(["knock", "gin", "undercut", "draw"]))
    scorer = fields.String(required=True, allow_none=True, validate=validate.OneOf(["knocker", "defender"]))
    points = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=10000))
    knocker = fields.Nested(_SideRuling, required=True, allow_none=True)
    defender = fields.Nested(_SideRuling, required=True, allow_none=True)

    @validates_schema
    def _consistent(self, data: dict[str, Any], **kwargs: Any) -> None:
        draw = data["outcome"] == "draw"
        if draw != (data["scorer"] is None):
            raise ValidationError("a draw, and only a draw, has no scorer", "scorer")
        if not draw and (data["knocker"] is None or data["defender"] is None):
            raise ValidationError("a knock has both sides", "knocker")


class _Hand(Schema):
    number = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    mode = fields.String(required=True, validate=validate.OneOf(["cards", "counts", "draw"]))
    seating = fields.Nested(_Seating, required=True)
    knocker = fields.String(required=True, allow_none=True, validate=_ROLE)
    input = fields.Dict(required=True)
    ruling = fields.Dict(required=True)
    recorded_at = fields.AwareDateTime(required=True)
    corrected_at = fields.AwareDateTime(required=True, allow_none=True)

    @validates_schema
    def _check(self, data: dict[str, Any], **kwargs: Any) -> None:
        try:
            HandInSchema().load(data["input"])
        except ValidationError as err:
            raise ValidationError(err.messages, "input") from None
        try:
            ruling = _Ruling().load(data["ruling"])
        except ValidationError as err:
            raise ValidationError(err.messages, "ruling") from None
        if (data["mode"] == "draw") != (ruling["outcome"] == "draw") or (data["knocker"] is None) != (
                data["mode"] == "draw"):
            raise ValidationError("mode, knocker and outcome disagree", "mode")
        form = ("draw" if data["input"].get("outcome") == "draw" else
                "counts" if "knocker_deadwood_count" in data["input"] else "cards")
        if form != data["mode"]:
            raise ValidationError(f"the input is a {form} hand, not {data['mode']}", "mode")
        if data["knocker"] is not None and data["input"].get("knocker") not in (None, data["knocker"]):
            raise ValidationError("the input names another knocker", "knocker")


class _Game(Schema):
    class Meta:
        unknown = EXCLUDE  # id, status, winner: derived, rebuilt on import

    played_at = fields.AwareDateTime(required=True)
    players = fields.List(fields.Integer(strict=True), required=True, validate=validate.Length(equal=3))
    cut = fields.Dict(keys=fields.String(validate=_PLAYER_KEY), values=CardField(), required=True,
                      allow_none=True)
    first_roles = fields.Nested(_Seating, required=True)
    rules = fields.Dict(required=True)
    scores = fields.Dict(keys=fields.String(validate=_PLAYER_KEY), values=fields.Integer(strict=True),
                         required=True)

    @post_load
    def _canonical_cut(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if data["cut"] is not None:
            data["cut"] = {k: str(v) for k, v in data["cut"].items()}
        return data
    hands = fields.List(fields.Nested(_Hand), required=True)


class _Player(Schema):
    id = fields.Integer(strict=True, required=True)
    name = Name(required=True)


class _League(Schema):
    class Meta:
        unknown = EXCLUDE

    name = Name(required=True)


class LeagueImportSchema(Schema):
    format = fields.String(required=True, validate=validate.Equal("ginref.league"))
    format_version = fields.Integer(required=True, validate=validate.Equal(1))
    league = fields.Nested(_League, required=True)
    players = fields.List(fields.Nested(_Player), required=True)
    games = fields.List(fields.Nested(_Game), required=True)
