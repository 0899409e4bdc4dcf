"""Share keys: labelled keys that only read a private league or game."""

from __future__ import annotations

from marshmallow import Schema, fields

from schemas.players import name_field


class ShareKeyInSchema(Schema):
    label = name_field(
        required=True,
        max_length=60,
        metadata={"description": "Who it is for, e.g. 'club notice board'; a label in use gets a new key"},
    )


class ShareKeySummarySchema(Schema):
    id = fields.Integer(required=True)
    label = fields.String(required=True)
    created_at = fields.DateTime(required=True)


class ShareKeySchema(ShareKeySummarySchema):
    key = fields.String(
        required=True,
        metadata={"description": "The share key, shown only now: it reads, never writes; Authorization: Bearer <key>"},
    )


class ShareKeyListSchema(Schema):
    items = fields.List(fields.Nested(ShareKeySummarySchema), required=True)
