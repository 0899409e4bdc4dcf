"""Fields shared by the schemas: cards in any spelling of R3, names, ids."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from referee import Card, Role
from schemas.readers import read_card, read_instant, spelled_boolean

MAX_ID = 2147483647
KNOCKERS = [Role.BOX.value, Role.CAPTAIN.value]  # R8: the sitter never plays, so never knocks
SEATS = ["dealer", "non_dealer"]  # R28: who knocks in a two-player hand
MODES = ["cards", "counts", "draw"]  # how a hand was entered: R21, R25, R12
STATUSES = ["in_progress", "finished"]  # R20
ORDERS = ["asc", "desc"]
# what a revision of a hand did (models.revisions.RevisionAction)
REVISION_ACTIONS = ["recorded", "corrected", "undone"]
# what a change to a game did: models.events.EventKind, in order (tests/test_api/test_events.py holds them alike)
EVENT_KINDS = ["game_started", "rules_changed", "hand_recorded", "hand_corrected", "hand_undone",
               "dispute_opened", "dispute_resolved", "visibility_changed"]  # fmt: skip
# a dispute's state (models.disputes.DisputeStatus)
DISPUTE_STATUSES = ["open", "upheld", "rejected"]
ROLES = ["box", "captain", "sitter"]  # R8
VISIBILITIES = ["public", "private"]  # private: reads need one of its keys, write or share
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class CardField(fields.Field):
    """A card: any spelling of R3 in, the canonical spelling out."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {
            "description": "A card (R3): rank A 2-10 J Q K (or 1, T) and suit S H D C or ♠ ♥ ♦ ♣, "
            "any case; canonical on output, e.g. 10H",
            "example": "10H",
        }
        metadata.update(kwargs.pop("metadata", {}))
        super().__init__(metadata=metadata, **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else str(value)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        return read_card(value)


class Name(fields.String):
    """Trimmed text of 1 to 100 (``max_length``) characters with no control characters."""

    #: the control characters refused, and what is said of them
    control = _CONTROL
    control_error = "must not contain control characters"

    def __init__(self, *, max_length: int = 100, **kwargs: Any) -> None:
        metadata = {"minLength": 1, "maxLength": max_length, **kwargs.pop("metadata", {})}
        super().__init__(validate=validate.Length(min=1, max=max_length), metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = self._trimmed(super()._deserialize(value, attr, data, **kwargs))
        if self.control.search(text):
            raise ValidationError(self.control_error)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValidationError("must be valid Unicode text (no lone surrogates)") from None
        return text

    def _trimmed(self, text: str) -> str:
        """``text`` without the white space around it (an empty name is too short)."""
        return text.strip()


_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class Text(Name):
    """Trimmed free text (a reason, a claim) of 1 to ``max_length`` characters:
    lines and tabs, but no other control characters."""

    control = _CONTROL_BUT_LINES
    control_error = "must not contain control characters other than line breaks and tabs"

    def __init__(self, max_length: int, **kwargs: Any) -> None:
        super().__init__(max_length=max_length, **kwargs)

    def _trimmed(self, text: str) -> str:
        text = text.strip()
        if not text:
            raise ValidationError("must not be blank")
        return text


def visibility_field(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(VISIBILITIES, error='"{input}" is not public or private'), **kwargs)


def id_field(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_ID), **kwargs)


class UTCDateTime(fields.AwareDateTime):
    """An RFC 3339 date-time with an offset (UTC if none is given), loaded as
    UTC: an instant whose UTC form falls outside years 1-9999 is a 422, not
    an overflow."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("default_timezone", UTC)
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        return read_instant(value)


# --- the shapes whose JSON one function builds, and what those functions share ---


class BuiltSchema(Schema):
    """A shape whose JSON one function builds (:meth:`build`): for one
    object, for many, and for each one nested in another schema alike. Its
    fields describe the shape (the spec is made from them) and are never
    dumped; it is built whole, so it takes no ``only`` nor ``exclude``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if self.only is not None or self.exclude:
            raise ValueError(f"{type(self).__name__} is built whole: it takes no only nor exclude")

    def build(self, obj: Any) -> Any:
        """One object's JSON."""
        raise NotImplementedError

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """As ``Schema.dump``: :meth:`build` of the object, or of each one."""
        if self.many if many is None else many:
            return [self.build(each) for each in obj]
        return self.build(obj)


class ParsedSchema(Schema):
    """A shape that one function loads (:meth:`parse`), errors and all, in
    marshmallow's messages (:mod:`schemas.readers`): for one object, and for
    each one nested in another schema alike. Its fields describe the shape
    (the spec is made from them) and are never loaded."""

    def parse(self, data: Any) -> Any:
        """One object, loaded; raises ``ValidationError`` with what is wrong."""
        raise NotImplementedError

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: Any = None) -> Any:
        """As ``Schema.load``: :meth:`parse` of the object (a parsed shape is
        loaded whole, one at a time)."""
        if many or partial or unknown not in (None, RAISE):
            raise ValueError(f"{type(self).__name__} is loaded whole, one object at a time")
        return self.parse(data)


def dump_int(value: Any) -> int | None:
    """``fields.Integer``'s dump."""
    return None if value is None else int(value)


def dump_text(value: Any) -> str | None:
    """``fields.String``'s dump."""
    if value is None:
        return None
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def dump_bool(value: Any) -> bool | None:
    """``fields.Boolean``'s dump."""
    if value is None:
        return None
    found = spelled_boolean(value)
    return bool(value) if found is None else found


def dump_datetime(value: datetime | None) -> str | None:
    """``fields.DateTime``'s dump (ISO 8601)."""
    return None if value is None else value.isoformat()
