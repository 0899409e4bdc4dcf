"""JSON with bounded numbers: an integer of more than ``MAX_DIGITS`` digits,
or a number that is not finite (``1e400``, ``NaN``, ``Infinity``), is refused
naming its JSON path, where Python's own limit would be a ``ValueError`` deep
in a parser (4,300 digits) or an infinity that no schema expects."""

from __future__ import annotations

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
    refuses (a lone surrogate, a byte order mark, deep nesting, a syntax
    error), to be read, or refused, as before."""
    if object_hook is None and object_pairs_hook is None:
        long_digits = _LONG_DIGITS_BYTES if isinstance(data, bytes) else _LONG_DIGITS
        if long_digits.search(data) is None:  # type: ignore[arg-type]
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                pass
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
