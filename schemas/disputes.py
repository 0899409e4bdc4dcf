"""Disputes of a recorded hand and their resolution."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from schemas.fields import DISPUTE_STATUSES, KNOCKERS, MODES, ROLES, SEATS, Text
from schemas.hands import MAX_REASON, DefenderHandSchema, KnockerHandSchema, card_field, knocker_seat
from schemas.pages import PageArgsSchema, PageSchema
from schemas.rulings import Dumped, RulingSchema

_ROLE = validate.OneOf(ROLES)


def _role_or_seat(value: str) -> None:
    """box, captain or sitter (R8), as before presets; or a two-player seat (R28)."""
    if value not in SEATS:
        _ROLE(value)


MAX_CLAIM = 2000


class DisputeInSchema(Schema):
    """Who disputes and what; optionally the two hands as the disputing side
    says they were (exactly as in a hand by cards). Without them the referee
    rules again on the hand's own cards."""

    by = fields.String(
        required=True,
        validate=_role_or_seat,
        metadata={
            "description": "Who disputes: box, captain or sitter (the sitter may advise, R8); "
            "dealer or non_dealer in a two-player game (R28)",
            "enum": [*ROLES, *SEATS],
        },
    )
    claim = Text(MAX_CLAIM, required=True, metadata={"description": "What the disputing side says"})
    knocker = fields.String(
        validate=knocker_seat,
        metadata={
            "description": "Who knocked, if not as recorded (needed to dispute a draw, R12)",
            "enum": [*KNOCKERS, *SEATS],
        },
    )
    knocker_hand = fields.Nested(KnockerHandSchema)
    defender_hand = fields.Nested(DefenderHandSchema)
    upcard = card_field(metadata={"description": "R33: the up-card, if not as recorded (oklahoma)"})

    @validates_schema
    def _both_hands_or_none(self, data: dict[str, Any], **kwargs: Any) -> None:
        given = [name for name in ("knocker_hand", "defender_hand") if name in data]
        if len(given) == 1:
            missing = "defender_hand" if given == ["knocker_hand"] else "knocker_hand"
            raise ValidationError("give both hands' cards, or neither (the hand's own are ruled on again)", missing)
        if "knocker" in data and not given:
            raise ValidationError("a knocker other than recorded needs the hands' cards", "knocker")


class ResolutionInSchema(Schema):
    decision = fields.String(
        required=True,
        validate=validate.OneOf(["upheld", "rejected"]),
        metadata={"description": "upheld: the hand is corrected with the dispute's ruling (R26); rejected: it stands"},
    )
    reason = Text(MAX_REASON, metadata={"description": "Why (kept with the dispute, and with the hand's revision)"})


class ResultSchema(Schema):
    outcome = fields.String(required=True)
    scorer = fields.String(required=True, allow_none=True)
    points = fields.Integer(required=True)


class DifferenceSchema(Schema):
    field = fields.String(required=True, metadata={"enum": ["outcome", "scorer", "points"]})
    recorded = fields.Raw(required=True)
    disputed = fields.Raw(required=True)


class DisputeSchema(Schema):
    id = fields.Integer(required=True)
    game_id = fields.Integer(required=True)
    hand = fields.Integer(required=True, attribute="number", metadata={"description": "The hand's number"})
    revision = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "The hand's revision disputed (its /revisions): upholding the dispute once the hand has "
            "another (corrected, undone or replaced) is a 409"
        },
    )
    by = fields.String(required=True, metadata={"enum": [*ROLES, *SEATS]})
    claim = fields.String(required=True)
    mode = fields.String(required=True, metadata={"enum": list(MODES)})
    knocker = fields.String(required=True, allow_none=True, metadata={"enum": [*KNOCKERS, None]})
    input = fields.Dict(required=True, metadata={"description": "The cards ruled on, canonical (R3)"})
    ruling = Dumped(
        RulingSchema,
        required=True,
        rules=lambda dispute: dispute.game.rule_options,
        metadata={"description": "The referee's ruling on those cards, explained"},
    )
    recorded = fields.Nested(ResultSchema, required=True, metadata={"description": "The ruling recorded, when opened"})
    differs = fields.Boolean(required=True)
    differences = fields.List(fields.Nested(DifferenceSchema), required=True)
    status = fields.String(required=True, metadata={"enum": list(DISPUTE_STATUSES)})
    reason = fields.String(required=True, allow_none=True, metadata={"description": "The decision's reason"})
    opened_at = fields.DateTime(required=True)
    opened_key_id = fields.Integer(required=True, allow_none=True)
    resolved_at = fields.DateTime(required=True, allow_none=True)
    resolved_key_id = fields.Integer(required=True, allow_none=True)


class DisputeListSchema(PageSchema):
    items = fields.List(fields.Nested(DisputeSchema), required=True)


class DisputeArgsSchema(PageArgsSchema):
    status = fields.String(validate=validate.OneOf(DISPUTE_STATUSES), metadata={"description": "Only these"})
