from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.fields import KNOCKERS
from schemas.hands import DefenderHandSchema, KnockerHandSchema, card_field, declared_melds, hand_cards
from schemas.rules import RulesSchema


class KnockInSchema(Schema):
    cards = hand_cards(
        10, 11, "10 cards after the discard, or 11 before", "AS 2S 3S 4H 5H 6H 7D 8D 9D KC QC", required=True
    )
    melds = declared_melds("AS 2S 3S | 4H 5H 6H | 7D 8D 9D")
    discard = card_field(allow_none=True, load_default=None, metadata={"example": None})
    rules = fields.Nested(RulesSchema)


class RefereeHandInSchema(Schema):
    """A hand by cards, judged without a game."""

    knocker = fields.String(
        validate=validate.OneOf(KNOCKERS), metadata={"description": "Optional; not used by the ruling"}
    )
    knocker_hand = fields.Nested(KnockerHandSchema, required=True)
    defender_hand = fields.Nested(DefenderHandSchema, required=True)
    rules = fields.Nested(RulesSchema)
