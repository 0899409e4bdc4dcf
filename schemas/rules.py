"""Rule options."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.rules import OPTIONS


def _option(name: str) -> fields.Integer:
    default, low, high, rule = OPTIONS[name]
    return fields.Integer(
        strict=True,
        validate=validate.Range(
            min=low, max=high, error=f"{name} must be a whole number from {low} to {high}, not {{input}} ({rule})"
        ),
        metadata={"description": f"{rule}; default {default}"},
    )


class RulesSchema(Schema):
    """Rule options; omitted ones take RULES.md's defaults."""

    gin_bonus = _option("gin_bonus")
    undercut_bonus = _option("undercut_bonus")
    knock_limit = _option("knock_limit")
    target_score = _option("target_score")


class RulesOutSchema(RulesSchema):
    pass
