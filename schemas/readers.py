"""Reading a request body member by member, in one pass, with marshmallow's
own messages: the loaders of :class:`~schemas.fields.ParsedSchema` shapes.

A reader takes a member's value and gives what the shape loads it to, or
raises ``ValidationError`` with what is wrong (a message, or messages by
member or by index for a value with parts). :func:`read_object` reads an
object by its readers, gathering every member's errors as marshmallow
does: ``{"member": ["message"]}``, ``{"list": {index: [...]}}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from datetime import UTC, datetime
from typing import Any

from marshmallow import ValidationError, fields

from referee import Card, CardSyntaxError, parse_card

#: marshmallow's messages, word for word
INVALID_TYPE = "Invalid input type."
MISSING = "Missing data for required field."
NULL = "Field may not be null."
UNKNOWN = "Unknown field."
NOT_A_STRING = "Not a valid string."
NOT_AN_INTEGER = "Not a valid integer."
NOT_A_BOOLEAN = "Not a valid boolean."
NOT_A_LIST = "Not a valid list."
NOT_A_MAPPING = "Not a valid mapping type."
NOT_A_DATETIME = "Not a valid datetime."

Reader = Callable[[Any], Any]


def read_object(
    value: Any,
    readers: Mapping[str, Reader],
    required: Collection[str] = (),
    defaults: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """An object read member by member by ``readers``; a member in
    ``required`` must be there, one in ``defaults`` takes its default when
    absent, and a member no reader reads is unknown."""
    if not isinstance(value, dict):
        raise ValidationError({"_schema": [INVALID_TYPE]})
    out: dict[str, Any] = {}
    errors: dict[str, Any] = {}
    for name, read in readers.items():
        if name in value:
            try:
                out[name] = read(value[name])
            except ValidationError as err:
                errors[name] = err.messages
        elif name in required:
            errors[name] = [MISSING]
        elif defaults is not None and name in defaults:
            out[name] = defaults[name]
    if not value.keys() <= readers.keys():
        for name in value:
            if name not in readers:
                errors[name] = [UNKNOWN]
    if errors:
        raise ValidationError(errors)
    return out


def read_nested(
    readers: Mapping[str, Reader], required: Collection[str] = (), defaults: Mapping[str, Any] | None = None
) -> Reader:
    """An object within another, read as :func:`read_object` reads it (not null)."""
    return not_null(lambda value: read_object(value, readers, required, defaults))


def not_null(read: Reader) -> Reader:
    """``read``, with null refused."""

    def read_given(value: Any) -> Any:
        if value is None:
            raise ValidationError(NULL)
        return read(value)

    return read_given


def read_raw(value: Any) -> Any:
    """Any value but null, as given (the caller compares it)."""
    if value is None:
        raise ValidationError(NULL)
    return value


def read_mapping(value: Any) -> dict[str, Any]:
    """An object, as given (a copy)."""
    if type(value) is not dict:
        raise ValidationError(NULL if value is None else NOT_A_MAPPING)
    return dict(value)


def read_instant(value: Any) -> datetime:
    """An ISO 8601 date-time (``datetime.fromisoformat``), UTC when it names
    no offset, in UTC: what :class:`~schemas.fields.UTCDateTime` loads."""
    if value is None:
        raise ValidationError(NULL)
    try:
        when = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    except (TypeError, AttributeError, ValueError):
        raise ValidationError(NOT_A_DATETIME) from None
    if when.utcoffset() is None:
        when = when.replace(tzinfo=UTC)
    try:
        return when.astimezone(UTC)
    except OverflowError:
        raise ValidationError(
            f"{json.dumps(value)} is out of range: in UTC it must fall within years 1 to 9999"
        ) from None


class Shape:
    """An object every member of which is required, read by ``readers``;
    ``check`` looks at it whole once every member is right."""

    def __init__(self, readers: Mapping[str, Reader], check: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.readers = dict(readers)
        self.check = check

    def load(self, value: Any) -> dict[str, Any]:
        """The object read (errors as :func:`read_object` names them)."""
        data = read_object(value, self.readers, self.readers)
        if self.check is not None:
            try:
                self.check(data)
            except ValidationError as err:  # named by the member it is of, as a schema's validator is
                if isinstance(err.messages, dict):
                    raise
                raise ValidationError({err.field_name: err.messages}) from None
        return data

    def but(self, check: Callable[[dict[str, Any]], None] | None = None, **readers: Reader) -> Shape:
        """This shape with other readers for some members (and another check, if given)."""
        return Shape({**self.readers, **readers}, self.check if check is None else check)


def member(shape: Shape) -> Reader:
    """A shape within another (not null)."""
    return not_null(shape.load)


def nullable(read: Reader) -> Reader:
    """``read``, with null read as None."""
    return lambda value: None if value is None else read(value)


def read_list(read_item: Reader, most: int | None = None, equal: int | None = None) -> Reader:
    """A list of at most ``most`` items (or of exactly ``equal``), each read by ``read_item``."""

    def read(value: Any) -> list[Any]:
        if type(value) is not list:
            raise ValidationError(NULL if value is None else NOT_A_LIST)
        out: list[Any] = []
        errors: dict[int, Any] = {}
        for i, each in enumerate(value):
            try:
                out.append(read_item(each))
            except ValidationError as err:
                errors[i] = err.messages
        if errors:
            raise ValidationError(errors)
        if most is not None and len(out) > most:
            raise ValidationError(f"Longer than maximum length {most}.")
        if equal is not None and len(out) != equal:
            raise ValidationError(f"Length must be {equal}.")
        return out

    return read


def not_a_card(value: Any) -> str:
    """What is said of a value R3 does not read as a card."""
    return f"{json.dumps(value, ensure_ascii=False)} is not a card (R3)"


def read_card(value: Any) -> Card:
    """A card in any spelling R3 reads."""
    if value is None:
        raise ValidationError(NULL)
    try:
        return parse_card(value)
    except CardSyntaxError:
        raise ValidationError(not_a_card(value)) from None


def cards_of(value: Any) -> list[Card]:
    """A list of cards, read in one pass (a list's errors by index, as for any list)."""
    if type(value) is not list:
        raise ValidationError(NULL if value is None else NOT_A_LIST)
    try:
        return [parse_card(each) for each in value]
    except CardSyntaxError:
        errors: dict[int, list[str]] = {}
        for i, each in enumerate(value):
            try:
                read_card(each)
            except ValidationError as err:
                errors[i] = err.messages  # type: ignore[assignment]
        raise ValidationError(errors) from None


def read_cards(most: int) -> Reader:
    """At most ``most`` cards."""

    def read(value: Any) -> list[Card]:
        cards = cards_of(value)
        if len(cards) > most:
            raise ValidationError(f"Longer than maximum length {most}.")
        return cards

    return read


def read_string(options: Collection[str], error: str) -> Reader:
    """One of ``options``; ``error`` for any other string."""

    def read(value: Any) -> str:
        if type(value) is not str:
            raise ValidationError(NULL if value is None else NOT_A_STRING)
        if value not in options:
            raise ValidationError(error)
        return value

    return read


def read_integer(value: Any) -> int:
    """An integer, strictly (not a float, a string or a boolean)."""
    if type(value) is not int:
        raise ValidationError(NULL if value is None else NOT_AN_INTEGER)
    return value


def read_integer_in(least: int, most: int) -> Reader:
    """An integer from ``least`` to ``most``."""

    def read(value: Any) -> int:
        number = read_integer(value)
        if not least <= number <= most:
            raise ValidationError(f"Must be greater than or equal to {least} and less than or equal to {most}.")
        return number

    return read


_TRUTHY, _FALSY = fields.Boolean.truthy, fields.Boolean.falsy


def spelled_boolean(value: Any) -> bool | None:
    """True or False for the spellings ``fields.Boolean`` takes for them
    (true, "yes", 1, ...); None for any other value."""
    try:
        if value in _TRUTHY:
            return True
        if value in _FALSY:
            return False
    except TypeError:  # unhashable
        pass
    return None


def read_boolean(value: Any) -> bool:
    """A boolean as ``fields.Boolean`` reads one (true, false, and the
    spellings it takes for them)."""
    found = None if value is None else spelled_boolean(value)
    if found is None:
        raise ValidationError(NULL if value is None else NOT_A_BOOLEAN)
    return found


def read_with(field: fields.Field) -> Reader:
    """A member read by its declared field (one whose loading is the field's own)."""
    return field.deserialize
