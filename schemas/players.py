from __future__ import annotations

from marshmallow import Schema, fields

from schemas.fields import Name


class PlayerInSchema(Schema):
    name = Name(required=True)


class PlayerSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    created_at = fields.DateTime(required=True)


class PlayerListSchema(Schema):
    items = fields.List(fields.Nested(PlayerSchema), required=True)
    total = fields.Integer(required=True)
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
