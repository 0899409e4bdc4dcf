from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.fields import CardField, cards_list
from schemas.hands import DefenderHandSchema, KnockerHandSchema
from schemas.rules import RulesSchema


class KnockInSchema(Schema):
    cards = cards_list(required=True, metadata={"description": "10 cards after the discard, or 11 before"})
    melds = fields.List(fields.List(CardField(), validate=validate.Length(max=13)),
                        validate=validate.Length(max=10), allow_none=True, load_default=None)
    discard = CardField(allow_none=True, load_default=None)
    rules = fields.Nested(RulesSchema)


class RefereeHandInSchema(Schema):
    """A hand by cards, judged without a game."""

    knocker = fields.String(validate=validate.OneOf(["box", "captain"]),
                            metadata={"description": "Optional; not used by the ruling"})
    knocker_hand = fields.Nested(KnockerHandSchema, required=True)
    defender_hand = fields.Nested(DefenderHandSchema, required=True)
    rules = fields.Nested(RulesSchema)
