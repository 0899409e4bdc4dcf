"""The one contract of a list: ``page`` (from 1) and ``per_page`` (1 to 100,
20 by default) in the query; ``items``, ``total``, ``page`` and ``per_page``
in the answer. A page past the end is empty, with the same total."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class PageArgsSchema(Schema):
    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=100000))
    per_page = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class PageSchema(Schema):
    """A page's members besides its ``items`` (which each list schema names)."""

    total = fields.Integer(required=True)
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
