"""JSON with bounded numbers: an integer of more than ``MAX_DIGITS`` digits,
or a number that is not finite (``1e400``, ``NaN``, ``Infinity``), is refused
naming its JSON path, where Python's own limit would be a ``ValueError`` deep
in a parser (4,300 digits) or an infinity that no schema expects."""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Callable
from typing import Any

import orjson

MAX_DIGITS = 30

#: a run of digits orjson may not read as the standard library does (an integer past 64 bits)
_LONG_DIGITS = re.compile("[0-9]{19}")
_LONG_DIGITS_BYTES = re.compile(b"[0-9]{19}")


class NumberOutOfRangeError(ValueError):
    """A JSON number this API does not read; ``path`` is where it stands."""

    def __init__(self, path: str, text: str) -> None:
        super().__init__(text)
        self.path = path
        self.text = text


class NotUtf8Error(ValueError):
    """JSON text that is not UTF-8 (RFC 8259, section 8.1): a byte order
    mark, UTF-16 or UTF-32 text, or bytes no UTF-8 text holds; ``reason``
    says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: UTF-32's marks first: UTF-32LE's begins with UTF-16LE's
_BYTE_ORDER_MARKS = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xef\xbb\xbf", "UTF-8"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)


def _marked_or_wide(data: bytes) -> None:
    for mark, encoding in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            raise NotUtf8Error(f"it starts with a byte order mark ({encoding})")
    if b"\x00" in data:
        raise NotUtf8Error("it holds NUL bytes, as UTF-16 and UTF-32 text does and JSON text never")


def _not_utf8(data: bytes, at: int) -> NotUtf8Error:
    return NotUtf8Error(f"byte {at} (0x{data[at]:02x}) is not UTF-8")


def utf8_text(data: bytes) -> str:
    """The JSON text of ``data``, which must be UTF-8 with no byte order mark
    (RFC 8259: "MUST NOT add a byte order mark"), else a :class:`NotUtf8Error`.
    JSON text never holds a NUL byte, and UTF-16 or UTF-32 text of JSON always
    does: that is how they are told from UTF-8 without a mark.

    >>> utf8_text('["Zo\u00eb"]'.encode())
    '["Zoë"]'
    >>> utf8_text('["Zo\u00eb"]'.encode("latin-1"))
    Traceback (most recent call last):
    ...
    schemas.numbers.NotUtf8Error: byte 4 (0xeb) is not UTF-8
    """
    _marked_or_wide(data)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _not_utf8(data, err.start) from None


_CHUNK = 1 << 20


def check_utf8(data: bytes) -> None:
    """:func:`utf8_text`'s check, a megabyte at a time: a large body is
    never held twice, as bytes and as text."""
    _marked_or_wide(data)
    view, at = memoryview(data), 0
    while at < len(data):
        try:
            _, used = codecs.utf_8_decode(view[at : at + _CHUNK], "strict", at + _CHUNK >= len(data))
        except UnicodeDecodeError as err:
            raise _not_utf8(data, at + err.start) from None
        at += used


class _Huge:
    """Marks a number too large to read, until its path is found."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _find(value: Any, path: str) -> tuple[str, _Huge] | None:
    if isinstance(value, _Huge):
        return path or "body", value
    if isinstance(value, dict):
        items: Any = ((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for inner_path, inner in items:
        found = _find(inner, inner_path)
        if found is not None:
            return found
    return None


def loads(
    data: str | bytes,
    object_hook: Callable[[dict[str, Any]], Any] | None = None,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Any:
    """``json.loads`` with bounded numbers (see :class:`NumberOutOfRangeError`).

    Without hooks, orjson reads it first (every write's body), when it gives
    what the standard library would: it refuses non-finite numbers, and
    reads an integer past 64 bits as a float, so a body with a run of 19
    digits anywhere is left to the standard library; so is anything orjson
    refuses (an escaped lone surrogate, deep nesting, a syntax error), to
    be read, or refused, as before. Bytes must be UTF-8 (:func:`utf8_text`):
    the standard library would read UTF-16 and UTF-32 too."""
    if object_hook is None and object_pairs_hook is None:
        long_digits = _LONG_DIGITS_BYTES if isinstance(data, bytes) else _LONG_DIGITS
        if long_digits.search(data) is None:  # type: ignore[arg-type]
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                pass
    if isinstance(data, bytes | bytearray):
        data = utf8_text(bytes(data))
    huge: list[_Huge] = []

    def parse_int(text: str) -> int | _Huge:
        if len(text) - (text[0] == "-") <= MAX_DIGITS:
            return int(text)
        huge.append(_Huge(text))
        return huge[-1]

    def parse_float(text: str) -> float | _Huge:
        value = float(text)
        if math.isfinite(value):
            return value
        huge.append(_Huge(text))
        return huge[-1]

    def parse_constant(text: str) -> _Huge:
        huge.append(_Huge(text))
        return huge[-1]

    value = json.loads(
        data,
        parse_int=parse_int,
        parse_float=parse_float,
        parse_constant=parse_constant,
        object_hook=object_hook,
        object_pairs_hook=object_pairs_hook,
    )
    if huge:
        path, number = _find(value, "") or ("body", huge[0])
        raise NumberOutOfRangeError(path, number.text)
    return value
