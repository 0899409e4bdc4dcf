"""Where the page can be opened."""

from __future__ import annotations

from marshmallow import Schema, fields


class AddressesSchema(Schema):
    addresses = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "The page's URLs that other phones on the network can open, best first; "
            "empty when the server listens on this machine only",
            "example": ["http://192.168.1.20:5000/"],
        },
    )
