from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from schemas.fields import KNOCKERS, SEATS, ParsedSchema
from schemas.hands import (
    CARDS,
    UNDECLARED,
    DefenderHandSchema,
    KnockerHandSchema,
    card_field,
    declared_melds,
    hand_cards,
    knocker_seat,
    read_melds,
)
from schemas.readers import nullable, read_card, read_cards, read_object, read_with
from schemas.rules import PresetRulesInSchema

_UPCARD = "R33: the up-card under oklahoma (it sets the knock limit); no other preset takes one"


class KnockInSchema(ParsedSchema):
    cards = hand_cards(
        10, 11, "10 cards after the discard, or 11 before", "AS 2S 3S 4H 5H 6H 7D 8D 9D KC QC", required=True
    )
    melds = declared_melds("AS 2S 3S | 4H 5H 6H | 7D 8D 9D")
    discard = card_field(allow_none=True, load_default=None, metadata={"example": None})
    rules = fields.Nested(PresetRulesInSchema)
    upcard = card_field(metadata={"description": _UPCARD})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._readers = {
            "cards": read_cards(52),
            "melds": read_melds,
            "discard": nullable(read_card),
            "rules": read_with(self.fields["rules"]),
            "upcard": read_card,
        }

    def parse(self, data: Any) -> dict[str, Any]:
        return read_object(data, self._readers, CARDS, UNDECLARED)


class RefereeHandInSchema(Schema):
    """A hand by cards, judged without a game."""

    knocker = fields.String(
        validate=knocker_seat,
        metadata={
            "description": "Optional; not used by the ruling (under a two-player preset: dealer or non_dealer)",
            "enum": [*KNOCKERS, *SEATS],
        },
    )
    knocker_hand = fields.Nested(KnockerHandSchema, required=True)
    defender_hand = fields.Nested(DefenderHandSchema, required=True)
    rules = fields.Nested(PresetRulesInSchema)
    upcard = card_field(metadata={"description": _UPCARD})
