from __future__ import annotations

from typing import Any, cast

from marshmallow import Schema, fields

from schemas.fields import Name
from schemas.hands import WHITE_SPACE
from schemas.pages import PageSchema

# What Name accepts, for the spec: after str.strip() takes the white space off
# both ends, at least one character and no control characters (C0, DEL, C1).
_EDGE = r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"  # neither white nor control
_INNER = r"[^\x00-\x1f\x7f-\x9f]"
NAME_PATTERN = rf"^{WHITE_SPACE}*{_EDGE}(?:{_INNER}*{_EDGE})?{WHITE_SPACE}*$"


def name_field(**kwargs: Any) -> Name:
    """A Name, with its pattern in the spec."""
    field = Name(**kwargs)
    cast(dict[str, Any], field.metadata)["pattern"] = NAME_PATTERN
    return field


class PlayerInSchema(Schema):
    name = name_field(required=True)


class PlayerSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    created_at = fields.DateTime(required=True)


class PlayerListSchema(PageSchema):
    items = fields.List(fields.Nested(PlayerSchema), required=True)
